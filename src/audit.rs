//! The dice audit: do the faces a group of dice showed look like a fair die's? Pearson's chi-square
//! test against a uniform die, with its p-value: the chance that fair dice would come out at least
//! this uneven. It reads only what the public log shows.

use crate::dice::Provenance;
use crate::event::{Event, Recorded};
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::BTreeMap;

/// A p-value below this flags a group. Fair dice are flagged this often by chance: one audit in a
/// thousand.
pub const FLAG_BELOW: f64 = 0.001;

/// Each face must be expected at least this many times before the test means anything (the usual
/// rule for Pearson's test).
pub const MIN_EXPECTED_PER_FACE: u64 = 5;

/// Where a group's dice came from, as the log records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Physical dice typed in with `--rolls`.
    Entered,
    /// grimoire's provably fair dice.
    Seeded,
    /// A GM's sealed dice, once revealed.
    Sealed,
}

impl Origin {
    pub fn word(self) -> &'static str {
        match self {
            Origin::Entered => "entered",
            Origin::Seeded => "seeded",
            Origin::Sealed => "sealed",
        }
    }
}

/// What the test says of one group.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Too few rolls to judge: `needs` in all.
    TooFew { needs: u64 },
    /// Judged: `flagged` when the p-value is below [`FLAG_BELOW`].
    Judged {
        chi_square: f64,
        degrees_of_freedom: u32,
        p_value: f64,
        flagged: bool,
    },
}

/// The faces one kind of die showed, from one origin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tally {
    pub sides: u32,
    pub origin: Origin,
    /// How often each face came up, face 1 first.
    pub counts: Vec<u64>,
}

impl Tally {
    pub fn rolls(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How often each face is expected in as many rolls of a fair die.
    pub fn expected(&self) -> f64 {
        self.rolls() as f64 / f64::from(self.sides)
    }

    pub fn verdict(&self) -> Verdict {
        let needs = MIN_EXPECTED_PER_FACE * u64::from(self.sides);
        if self.rolls() < needs {
            return Verdict::TooFew { needs };
        }
        let expected = self.expected();
        let chi_square: f64 = self
            .counts
            .iter()
            .map(|&seen| (seen as f64 - expected).powi(2) / expected)
            .sum();
        let degrees_of_freedom = self.sides - 1;
        // Two sides or more, so at least one degree of freedom: the distribution exists.
        let p_value = ChiSquared::new(f64::from(degrees_of_freedom))
            .map_or(f64::NAN, |distribution| distribution.sf(chi_square));
        Verdict::Judged {
            chi_square,
            degrees_of_freedom,
            p_value,
            flagged: p_value < FLAG_BELOW,
        }
    }

    /// The face that came up most often, and how often.
    pub fn most_frequent(&self) -> Option<(u32, u64)> {
        let (index, &count) = self
            .counts
            .iter()
            .enumerate()
            .max_by_key(|&(index, count)| (*count, std::cmp::Reverse(index)))?;
        Some((u32::try_from(index).ok()? + 1, count))
    }
}

/// The tallies of every kind of die and origin seen.
#[derive(Debug, Default)]
pub struct Audit {
    tallies: BTreeMap<(u32, Origin), Vec<u64>>,
}

impl Audit {
    /// Counts one face. Dice of fewer than two sides, and faces off the die (which `verify`
    /// reports), say nothing about fairness and are left out.
    pub fn count(&mut self, sides: u32, origin: Origin, face: u32) {
        if sides < 2 || face == 0 || face > sides {
            return;
        }
        let counts = self
            .tallies
            .entry((sides, origin))
            .or_insert_with(|| vec![0; sides as usize]);
        counts[face as usize - 1] += 1;
    }

    /// Every group, by die size and then origin.
    pub fn tallies(self) -> Vec<Tally> {
        self.tallies
            .into_iter()
            .map(|((sides, origin), counts)| Tally {
                sides,
                origin,
                counts,
            })
            .collect()
    }
}

/// Counts the dice of a log read in seq order: entered and seeded faces as their events come, a
/// sealed die's faces when its reveal comes (the public log shows nothing of it before).
#[derive(Debug, Default)]
pub struct LogTally {
    audit: Audit,
    die: Option<u32>,
    origin: Option<Origin>,
    /// Sealed dice of the events counted, by seq: (die number, sides), waiting for their reveal.
    sealed: BTreeMap<u64, Vec<(u32, u32)>>,
}

impl LogTally {
    /// Counts only dice of the size `die` and the origin `origin` (all when `None`).
    pub fn new(die: Option<u32>, origin: Option<Origin>) -> LogTally {
        LogTally {
            die,
            origin,
            ..LogTally::default()
        }
    }

    /// Reads one event; `counted` says whether its own dice count (a reveal is always read, and
    /// counts the sealed dice of the events that were). Returns whether the event rolled dice.
    pub fn feed(&mut self, r: &Recorded, counted: bool) -> bool {
        if let Event::SealedRevealed { seq, dice } = &r.event {
            if let Some(sides_of) = self.sealed.remove(seq) {
                for revealed in dice {
                    let Some(&(_, sides)) = sides_of.iter().find(|(n, _)| *n == revealed.n) else {
                        continue;
                    };
                    for face in revealed.faces() {
                        self.audit.count(sides, Origin::Sealed, face);
                    }
                }
            }
            return false;
        }
        let dice = r.event.dice();
        if !counted {
            return false;
        }
        let wanted = |origin: Origin| self.origin.is_none_or(|o| o == origin);
        for die in dice {
            if self.die.is_some_and(|sides| sides != die.sides) {
                continue;
            }
            match (&die.provenance, die.value) {
                (Provenance::Entered, Some(face)) if wanted(Origin::Entered) => {
                    self.audit.count(die.sides, Origin::Entered, face)
                }
                (Provenance::Seeded { .. }, Some(face)) if wanted(Origin::Seeded) => {
                    self.audit.count(die.sides, Origin::Seeded, face)
                }
                (Provenance::Sealed { .. }, _) if wanted(Origin::Sealed) => self
                    .sealed
                    .entry(r.seq)
                    .or_default()
                    .push((die.n, die.sides)),
                _ => {}
            }
        }
        !dice.is_empty()
    }

    pub fn tallies(self) -> Vec<Tally> {
        self.audit.tallies()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn tally(sides: u32, faces: impl IntoIterator<Item = u32>) -> Tally {
        let mut audit = Audit::default();
        for face in faces {
            audit.count(sides, Origin::Entered, face);
        }
        audit.tallies().remove(0)
    }

    fn p_value(tally: &Tally) -> f64 {
        match tally.verdict() {
            Verdict::Judged { p_value, .. } => p_value,
            Verdict::TooFew { needs } => panic!("needs {needs}"),
        }
    }

    #[test]
    fn a_perfectly_even_run_has_chi_square_zero_and_p_one() {
        let even = tally(6, (0..60).map(|i| i % 6 + 1));
        assert_eq!(
            even.verdict(),
            Verdict::Judged {
                chi_square: 0.0,
                degrees_of_freedom: 5,
                p_value: 1.0,
                flagged: false
            }
        );
    }

    #[test]
    fn the_statistic_and_p_value_match_a_worked_example() {
        // 60 rolls of a d6 showing 5, 8, 9, 8, 10, 20: chi-square 13.4 on 5 degrees of freedom,
        // p ≈ 0.0199 (tables of the chi-square distribution).
        let faces = [(1, 5), (2, 8), (3, 9), (4, 8), (5, 10), (6, 20)]
            .into_iter()
            .flat_map(|(face, times)| std::iter::repeat_n(face, times));
        let t = tally(6, faces);
        let Verdict::Judged {
            chi_square,
            p_value,
            flagged,
            ..
        } = t.verdict()
        else {
            panic!("judged");
        };
        assert!((chi_square - 13.4).abs() < 1e-9, "{chi_square}");
        assert!((p_value - 0.0199).abs() < 0.0005, "{p_value}");
        assert!(!flagged);
        assert_eq!(t.most_frequent(), Some((6, 20)));
    }

    #[test]
    fn fair_dice_from_a_fixed_seed_pass_and_loaded_ones_are_flagged() {
        let mut rng = StdRng::seed_from_u64(11);
        let fair = tally(20, (0..10_000).map(|_| rng.random_range(1..=20)));
        assert!(p_value(&fair) > FLAG_BELOW, "{}", p_value(&fair));
        // A die that shows 20 one time in ten instead of one in twenty.
        let loaded = tally(
            20,
            (0..2_000).map(|i| {
                if i % 10 == 0 {
                    20
                } else {
                    rng.random_range(1..=19)
                }
            }),
        );
        assert!(p_value(&loaded) < FLAG_BELOW, "{}", p_value(&loaded));
    }

    #[test]
    fn too_few_rolls_say_how_many_are_needed() {
        assert_eq!(tally(20, 1..=20).verdict(), Verdict::TooFew { needs: 100 });
        assert!(matches!(
            tally(20, (0..100).map(|i| i % 20 + 1)).verdict(),
            Verdict::Judged { .. }
        ));
    }

    #[test]
    fn faces_off_the_die_are_left_out() {
        assert_eq!(tally(6, [0, 7, 3]).counts, vec![0, 0, 1, 0, 0, 0]);
    }
}
