//! A campaign in memory for the rules' given/when/then tests. Commands go through the campaign's
//! door, as every front end records (the same checks, the same store, replay and secrets), with
//! entered dice, so every test says exactly what was rolled.

use crate::Error;
use crate::campaign::{Campaign, DiceSource, Run};
use crate::dice::SealedSecret;
use crate::event::Event;
use crate::ids::{DeviceId, RequestId};
use crate::rules::{Command, RuleError};
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::store::{MemoryLog, Stamp};
use rand::SeedableRng;
use rand::rngs::StdRng;

pub struct Log {
    log: MemoryLog,
    /// How many commands were recorded, so each gets fresh randomness of its own.
    commands: u64,
}

impl Log {
    /// A log holding a freshly created campaign.
    pub fn campaign() -> Log {
        let mut log = Log {
            log: MemoryLog::new(),
            commands: 0,
        };
        log.then(
            Command::CreateCampaign {
                campaign_id: String::new(),
                name: "Test".into(),
                seed_commitment: String::new(),
                sealed_commitment: String::new(),
            },
            &[],
        );
        log
    }

    pub fn state(&self) -> CampaignState {
        self.log.open().replay(None).expect("the log replays")
    }

    /// Every event recorded, in order (the event at seq N is at N - 1).
    pub fn events(&self) -> Vec<Event> {
        let mut events = Vec::new();
        self.log
            .open()
            .for_each_event(Seq(0), None, |r| {
                events.push(r.event);
                Ok(())
            })
            .expect("the log reads");
        events
    }

    /// Retracts the event at `seq` for `reason`, as `grimoire retract` records it.
    pub fn retract(&mut self, seq: Seq, reason: &str) -> Vec<Event> {
        let command = self.retraction(seq, reason);
        self.then(command, &[])
    }

    /// The command `grimoire retract` builds to retract the event at `seq` for `reason`: it
    /// carries the event it names, read from the log.
    pub fn retraction(&self, seq: Seq, reason: &str) -> Command {
        Command::Retract(crate::rules::campaign::Retraction {
            seq: Some(seq),
            last: false,
            reason: reason.into(),
            target: self.events().get(seq.get() as usize - 1).cloned(),
            restoring: None,
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        })
    }

    /// What `command` would append now with these dice, and the sealed secrets it drew: recorded
    /// on a copy of the log, which is then dropped.
    pub fn when_sealed(
        &self,
        command: Command,
        rolls: &[u32],
    ) -> Result<(Vec<Event>, Vec<SealedSecret>), RuleError> {
        let copy = self.log.fork();
        let written = record(&copy, self.commands, command, rolls)?;
        let first = written.first().map_or(0, |r| r.seq.get());
        let mut secrets = Vec::new();
        for recorded in &written {
            for mut secret in secrets_of(&copy, recorded.seq) {
                secret.event = u32::try_from(recorded.seq.get() - first).unwrap_or(u32::MAX);
                secrets.push(secret);
            }
        }
        Ok((written.into_iter().map(|r| r.event).collect(), secrets))
    }

    pub fn when(&self, command: Command, rolls: &[u32]) -> Result<Vec<Event>, RuleError> {
        self.when_sealed(command, rolls).map(|(events, _)| events)
    }

    /// What the rules alone decide for `command` as given, without the door: for a refusal the
    /// door never lets a command reach (a sealed value other than the one the store keeps).
    pub fn decided(&self, command: Command, rolls: &[u32]) -> Result<Vec<Event>, RuleError> {
        let mut rng = StdRng::seed_from_u64(9);
        let mut dice = crate::dice::Dice::entered(rolls.to_vec(), &mut rng);
        crate::rules::decide(&self.state(), command, &mut dice)
    }

    /// Records what `command` decides; the test fails if it is refused.
    pub fn then(&mut self, command: Command, rolls: &[u32]) -> Vec<Event> {
        let written = record(&self.log, self.commands, command, rolls)
            .unwrap_or_else(|refused| panic!("the command is accepted, not refused: {refused}"));
        self.commands += 1;
        written.into_iter().map(|r| r.event).collect()
    }

    /// Records `event` as it stands, as the log of another table (or an older grimoire) might
    /// hold it: for the given part of a test whose case the rules never decide today.
    pub fn given(&mut self, event: Event) {
        let stamp = stamp(self.commands);
        self.commands += 1;
        self.log
            .open()
            .write(stamp, |_, _| {
                Ok(crate::store::Batch {
                    events: vec![event],
                    ..Default::default()
                })
            })
            .expect("the event is recorded");
    }

    /// The seq of the last event.
    pub fn seq(&self) -> Seq {
        self.state().head
    }

    /// The GM's sealed secrets filed under the event at `seq`, in draw order.
    pub fn secrets_for(&self, seq: Seq) -> Vec<SealedSecret> {
        secrets_of(&self.log, seq)
    }

    /// A device's answer to request `request` with `bytes`, through the door: the events it
    /// recorded now, or the seq of the answer recorded before for the very same bytes.
    pub fn answer(
        &mut self,
        request: RequestId,
        device: DeviceId,
        bytes: &[u8],
    ) -> Result<Result<Vec<Event>, Seq>, RuleError> {
        let run = Run {
            stamp: stamp(self.commands),
            dice: DiceSource::Seeded {
                player_entropy: None,
            },
            rng: StdRng::seed_from_u64(9),
        };
        self.commands += 1;
        let answer = crate::campaign::DeviceAnswer {
            request,
            device,
            contribution: bytes.to_vec(),
        };
        match Campaign::on(self.log.open()).answer(run, answer) {
            Ok(crate::campaign::Answered::Now(written)) => {
                Ok(Ok(written.events.into_iter().map(|r| r.event).collect()))
            }
            Ok(crate::campaign::Answered::Before(seq)) => Ok(Err(seq)),
            Err(Error::Rule(refused)) => Err(refused),
            Err(other) => panic!("the door failed outside the rules: {other}"),
        }
    }

    /// The GM's secrets of `kind`, as (key, value).
    pub fn secrets_of_kind(&self, kind: &str) -> Vec<(String, String)> {
        self.log
            .open()
            .secrets()
            .expect("the secrets read")
            .into_iter()
            .filter(|(k, ..)| k == kind)
            .map(|(_, key, value)| (key, value))
            .collect()
    }

    /// A second campaign holding what this one holds now.
    pub fn fork(&self) -> Log {
        Log {
            log: self.log.fork(),
            commands: self.commands,
        }
    }
}

/// Records `command` on `log` through the door, with `rolls` entered as physical dice.
fn record(
    log: &MemoryLog,
    commands: u64,
    command: Command,
    rolls: &[u32],
) -> Result<Vec<crate::event::Recorded>, RuleError> {
    let run = Run {
        stamp: stamp(commands),
        // The door refuses dice given for a command that draws none, as the command line does.
        dice: match rolls.is_empty() && !command.draws_dice() {
            true => DiceSource::Seeded {
                player_entropy: None,
            },
            false => DiceSource::Entered(rolls.to_vec()),
        },
        rng: StdRng::seed_from_u64(9),
    };
    match Campaign::on(log.open()).execute(run, command) {
        Ok(written) => Ok(written.events),
        Err(Error::Rule(refused)) => Err(refused),
        Err(other) => panic!("the door failed outside the rules: {other}"),
    }
}

/// Who records, and when: the same for every command but the ids they mint.
fn stamp(commands: u64) -> Stamp {
    Stamp {
        recorded_at: "2026-12-01T18:00:00Z".into(),
        actor: "gm".into(),
        id_rng: StdRng::seed_from_u64(commands),
    }
}

/// The sealed secrets the store keeps for the event at `seq`.
fn secrets_of(log: &MemoryLog, seq: Seq) -> Vec<SealedSecret> {
    let mut secrets: Vec<SealedSecret> = log
        .open()
        .secrets()
        .expect("the secrets read")
        .into_iter()
        .filter(|(kind, key, _)| {
            kind == "sealed_die"
                && key
                    .split_once(':')
                    .is_some_and(|(at, _)| at == seq.to_string())
        })
        .filter_map(|(_, _, value)| serde_json::from_str(&value).ok())
        .collect();
    secrets.sort_by_key(|secret| secret.n);
    secrets
}

/// A roll put to `player`'s phone (C-5), or the GM's roll it witnesses (C-6), as the GM gives it
/// (the commitment is filled in by the door).
pub fn put_to(player: &str, asked: crate::event::AskedCommand, witnessed: bool) -> Command {
    Command::RequestRoll {
        player: player.into(),
        asked,
        witnessed,
        commitment: String::new(),
    }
}
