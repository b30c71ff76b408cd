//! A campaign log in memory for the rules' given/when/then tests: commands go through `decide` with
//! entered dice, so every test says exactly what was rolled.

use super::{Command, RuleError, decide};
use crate::dice::{Dice, SealedSecret};
use crate::event::Event;
use crate::state::{CampaignState, replay_all};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[derive(Default)]
pub struct Log {
    pub events: Vec<Event>,
    /// The GM's sealed secrets, by the seq of the event that drew them.
    pub secrets: Vec<(u64, Vec<SealedSecret>)>,
}

impl Log {
    /// A log holding a freshly created campaign.
    pub fn campaign() -> Log {
        let mut log = Log::default();
        log.then(
            Command::CreateCampaign {
                campaign_id: "c".into(),
                name: "Test".into(),
                seed_commitment: "x".into(),
            },
            &[],
        );
        log
    }

    pub fn state(&self) -> CampaignState {
        replay_all(
            self.events
                .iter()
                .enumerate()
                .map(|(i, e)| (i as u64 + 1, e)),
        )
    }

    /// What `command` would append now with these dice, and the sealed secrets it drew.
    pub fn when_sealed(
        &self,
        command: Command,
        rolls: &[u32],
    ) -> Result<(Vec<Event>, Vec<SealedSecret>), RuleError> {
        let mut rng = StdRng::seed_from_u64(9);
        let mut dice = Dice::entered(rolls.to_vec(), &mut rng);
        let events = decide(&self.state(), command, &mut dice)?;
        Ok((events, dice.finish()?))
    }

    pub fn when(&self, command: Command, rolls: &[u32]) -> Result<Vec<Event>, RuleError> {
        self.when_sealed(command, rolls).map(|(events, _)| events)
    }

    /// Appends what `command` decides; the test fails if it is refused.
    pub fn then(&mut self, command: Command, rolls: &[u32]) -> Vec<Event> {
        let next_seq = self.seq() + 1;
        let (events, secrets) = self
            .when_sealed(command, rolls)
            .expect("the command is accepted");
        // Each secret under the event that holds its die, as the store files them.
        for secret in secrets {
            let seq = next_seq + u64::from(secret.event);
            match self.secrets.iter_mut().find(|(s, _)| *s == seq) {
                Some((_, filed)) => filed.push(secret),
                None => self.secrets.push((seq, vec![secret])),
            }
        }
        self.events.extend(events.clone());
        events
    }

    /// The seq of the last event.
    pub fn seq(&self) -> u64 {
        self.events.len() as u64
    }

    pub fn secrets_for(&self, seq: u64) -> Vec<SealedSecret> {
        self.secrets
            .iter()
            .find(|(s, _)| *s == seq)
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }
}
