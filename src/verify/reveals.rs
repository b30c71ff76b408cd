//! What `verify` must read before the rows they open: the published seeds and sealed dice.

use crate::dice::fairness;
use crate::event::{Event, RevealedDie};
use crate::seq::Seq;
use std::collections::BTreeMap;

/// What `verify` must know before streaming the log: the seeds published later and the sealed dice
/// revealed later than the events that hold them.
#[derive(Debug, Default)]
pub struct Reveals {
    /// Every seed published for each epoch, in log order (a forged log may publish more than one).
    pub seeds: BTreeMap<u32, Vec<String>>,
    /// Likewise every second seed, the one an epoch's sealed dice come from.
    pub sealed_seeds: BTreeMap<u32, Vec<String>>,
    pub sealed: BTreeMap<Seq, Vec<RevealedDie>>,
}

impl Reveals {
    /// The seed published for `epoch`, if any: the first that opens its commitment, so a second,
    /// forged reveal cannot make honest dice look forged (it is named itself); else the last.
    pub(super) fn seed(&self, epoch: u32, commitment: Option<&String>) -> Option<[u8; 32]> {
        Self::opening(self.seeds.get(&epoch)?, commitment)
    }

    /// The second seed published for `epoch`, chosen as [`Reveals::seed`] chooses.
    pub(super) fn sealed_seed(&self, epoch: u32, commitment: Option<&String>) -> Option<[u8; 32]> {
        Self::opening(self.sealed_seeds.get(&epoch)?, commitment)
    }

    fn opening(published: &[String], commitment: Option<&String>) -> Option<[u8; 32]> {
        let opening = published
            .iter()
            .find(|seed| commitment.is_some_and(|c| fairness::opens(seed, c)));
        opening
            .or(published.last())
            .and_then(|seed| fairness::parse_seed(seed))
    }

    pub fn note(&mut self, event: &Event) {
        if let Event::SeedRevealed { epoch, seed } = event {
            self.seeds.entry(*epoch).or_default().push(seed.clone());
        } else if let Event::SealedSeedRevealed { epoch, seed } = event {
            self.sealed_seeds
                .entry(*epoch)
                .or_default()
                .push(seed.clone());
        } else if let Event::SealedRevealed { seq, dice } = event {
            self.sealed
                .entry(*seq)
                .or_default()
                .extend(dice.iter().cloned());
        }
    }
}
