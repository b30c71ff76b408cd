//! A long-campaign generator for benchmarks and tests: a realistic mixed campaign of every system,
//! played through the campaign's door as any front end records (every event valid, every seeded die
//! verifiable), many commands to a transaction.

use crate::Error;
use crate::campaign::{Bulk, Campaign};
use crate::dice::DiceExpr;
use crate::event::{Event, Recorded};
use crate::rules::Command;
use crate::rules::campaign::{
    ClockAdvance, DiceRoll, DowntimeWeeks, HealthChange, Resting, Retraction, SessionStart,
};
use crate::rules::downtime::PlannedWeek;
use crate::state::CampaignState;
use crate::store::{Stamp, Store};
use crate::systems::contract::rules::Planned;
use crate::systems::contract::sample::{Sampled, SystemSample};
use crate::systems::registry::{Registered, SystemId, on_system};
use crate::time::GameDuration;
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};

/// Events appended per transaction: large enough to be fast, small enough to bound the WAL.
const EVENTS_PER_TRANSACTION: u64 = 20_000;

/// About one step in this many retracts the damage or healing entered just before, as a GM fixing a
/// slip would: a long campaign gathers retractions, and every read must stay quick with them.
const RETRACT_ONE_IN: u32 = 150;

/// What a generation produced.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Generated {
    pub events: u64,
    pub characters: usize,
}

/// Fills an empty campaign file with about `events` events for `characters` characters (half of each
/// system), deterministically from `seed`.
pub fn generate(
    store: &mut Store,
    characters: usize,
    events: u64,
    seed: u64,
    recorded_at: &str,
) -> Result<Generated, Error> {
    generate_watching(store, (characters, events, seed), recorded_at, &mut |_| {})
}

/// [`generate`] of `(characters, events, seed)`, telling `watch` how far the log has come after each
/// transaction (for progress).
pub fn generate_watching(
    store: &mut Store,
    (characters, events, seed): (usize, u64, u64),
    recorded_at: &str,
    watch: &mut dyn FnMut(u64),
) -> Result<Generated, Error> {
    let mut rng = StdRng::seed_from_u64(seed);
    let characters = characters.max(2);
    let stamp = |rng: &mut StdRng| Stamp {
        recorded_at: recorded_at.to_string(),
        actor: "generator".into(),
        id_rng: StdRng::seed_from_u64(rng.next_u64()),
    };
    let mut first = true;
    let mut last = None;
    let mut campaign = Campaign::on(&mut *store);
    loop {
        let (stamp, secrets) = (stamp(&mut rng), StdRng::seed_from_u64(rng.next_u64()));
        let done = campaign.bulk(stamp, secrets, |door| {
            if first {
                set_up(door, characters)?;
                first = false;
            }
            let target = (door.state().head.get() + EVENTS_PER_TRANSACTION).min(events);
            while door.state().head < target {
                step(door, characters, Sessions::Come, &mut last, &mut rng)?;
            }
            Ok(door.state().head >= events)
        })?;
        watch(campaign.store().head()?.map_or(0, |h| h.seq.get()));
        if done {
            break;
        }
    }
    Ok(Generated {
        events: store.head()?.map_or(0, |h| h.seq.get()),
        characters,
    })
}

/// Whether the generator's table starts and ends sessions as it goes, or keeps the open one open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sessions {
    Come,
    StayOpen,
}

/// Plays one more evening on a campaign `generate` made for `characters` characters: a session of
/// about `events` events, started (after ending any open one) and ended, deterministically from
/// `seed`. Returns the session's number. For measuring a long session's recap.
pub fn play_session(
    store: &mut Store,
    characters: usize,
    events: u64,
    seed: u64,
    recorded_at: &str,
) -> Result<u32, Error> {
    let mut rng = StdRng::seed_from_u64(seed);
    let stamp = Stamp {
        recorded_at: recorded_at.to_string(),
        actor: "generator".into(),
        id_rng: StdRng::seed_from_u64(rng.next_u64()),
    };
    let secrets = StdRng::seed_from_u64(rng.next_u64());
    Campaign::on(store).bulk(stamp, secrets, |door| {
        if door.state().open_session.is_some() {
            play(door, Command::EndSession)?;
        }
        let start = SessionStart {
            entropy: format!("a long evening {}", rng.next_u32()),
        };
        play(door, Command::StartSession(start))?;
        let until = door.state().head + events;
        let mut last = None;
        while door.state().head < until {
            step(
                door,
                characters.max(2),
                Sessions::StayOpen,
                &mut last,
                &mut rng,
            )?;
        }
        play(door, Command::EndSession)?;
        Ok(door.state().sessions_started)
    })
}

/// The rule system of the generator's `i`-th character: each in turn.
fn system_of(i: usize) -> SystemId {
    SystemId::ALL[i % SystemId::ALL.len()]
}

fn name(i: usize) -> String {
    let word = on_system!(system_of(i), SystemId, |S| S::SAMPLE_NAME);
    format!("{word}{i}")
}

/// Records `command` through the door; a refusal is not an error here (the generator simply
/// tries something else), so it reports whether anything was appended.
fn play(door: &mut Bulk<'_, '_>, command: Command) -> Result<bool, Error> {
    Ok(play_recorded(door, command)?.is_some())
}

/// [`play`], returning the last event appended.
fn play_recorded(door: &mut Bulk<'_, '_>, command: Command) -> Result<Option<Recorded>, Error> {
    match door.execute(command) {
        Ok(recorded) => Ok(recorded.into_iter().last()),
        Err(Error::Rule(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

fn set_up(door: &mut Bulk<'_, '_>, characters: usize) -> Result<(), Error> {
    // The door mints the campaign's id and its first epoch's seed.
    door.execute(Command::CreateCampaign {
        campaign_id: String::new(),
        name: "A generated West-Marches campaign".into(),
        seed_commitment: String::new(),
        sealed_commitment: String::new(),
    })?;
    for i in 0..characters {
        let (sheet, start) = on_system!(system_of(i), SystemId, |S| (
            S::wrap_sheet(S::sample_sheet(i)),
            S::sample_start(&name(i))
                .into_iter()
                .map(|c| Command::System(S::wrap_command(c)))
                .collect::<Vec<_>>()
        ));
        play(
            door,
            Command::AddCharacter {
                name: name(i),
                sheet,
            },
        )?;
        for command in start {
            play(door, command)?;
        }
    }
    Ok(())
}

/// One thing happening at the table, chosen at random with realistic weights. `last` is the event
/// the previous step recorded, which the GM may retract.
fn step(
    door: &mut Bulk<'_, '_>,
    characters: usize,
    sessions: Sessions,
    last: &mut Option<Recorded>,
    rng: &mut StdRng,
) -> Result<(), Error> {
    let state: &CampaignState = door.state();
    let index = rng.random_range(0..characters);
    let who = name(index);
    let roll = rng.random_range(0..100);
    // Now and then the GM undoes a mistake: the damage or healing just entered was wrong.
    if let Some(mistake) = last.take_if(|_| rng.random_range(0..RETRACT_ONE_IN) == 0)
        && matches!(
            mistake.event,
            Event::DamageTaken { .. } | Event::Healed { .. }
        )
    {
        let undo = Command::Retract(Retraction {
            seq: Some(mistake.seq),
            last: false,
            target: Some(mistake.event.clone()),
            restoring: None,
            reason: "entered for the wrong character".into(),
            // Damage and healing roll nothing: no roll after them to mark.
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        });
        // And now and then the retraction was the mistake: undoing it restores the entry.
        if let Some(retraction) = play_recorded(door, undo)?
            && rng.random_range(0..4) == 0
        {
            let restore = Command::Retract(Retraction {
                seq: Some(retraction.seq),
                last: false,
                target: Some(retraction.event),
                restoring: Some((mistake.seq, Box::new(mistake.event))),
                reason: "it was the right character after all".into(),
                fight_built_on: false,
                round_stands: None,
                clock_reshaped: None,
                acted_again: None,
                names_after: Default::default(),
            });
            play(door, restore)?;
        }
        return Ok(());
    }
    let command = match roll {
        0..=1 if sessions == Sessions::StayOpen => Command::AdvanceClock(ClockAdvance {
            by: GameDuration(60),
        }),
        0..=1 if state.open_session.is_some() => Command::EndSession,
        0..=1 => Command::StartSession(SessionStart {
            entropy: format!("table talk {}", rng.next_u32()),
        }),
        2..=11 => Command::AdvanceClock(ClockAdvance {
            by: GameDuration(6 * rng.random_range(1..20)),
        }),
        12..=17 => Command::Roll(DiceRoll {
            expression: DiceExpr::parse("2d6+1").expect("valid"),
            purpose: None,
            sealed: false,
            character: None,
        }),
        18..=25 => Command::Damage(HealthChange {
            character: who.clone(),
            amount: rng.random_range(1..6),
            reason: None,
        }),
        26..=31 => Command::Heal(HealthChange {
            character: who.clone(),
            amount: rng.random_range(1..6),
            reason: None,
        }),
        32..=35 => Command::Rest(if rng.random_bool(0.5) {
            Resting::night(&[])
        } else {
            Resting::hours(&[], 4)
        }),
        _ => on_system!(system_of(index), SystemId, |S| sampled::<S>(
            &who,
            S::sample_step(state, &who, roll, rng)
        )),
    };
    *last = play_recorded(door, command)?;
    if last.is_none() {
        // Refused (a lockout, a round already used, no MPs...): let time pass, as at the table.
        play(
            door,
            Command::AdvanceClock(ClockAdvance {
                by: GameDuration(6),
            }),
        )?;
    }
    Ok(())
}

/// The command a generated character's system chose for them.
fn sampled<S: Registered>(who: &str, step: Sampled<S>) -> Command {
    match step {
        Sampled::Own(command) => Command::System(S::wrap_command(command)),
        Sampled::Wait(by) => Command::AdvanceClock(ClockAdvance { by }),
        Sampled::Downtime { weeks, own } => Command::Downtime(DowntimeWeeks {
            characters: vec![who.to_string()],
            party: false,
            weeks,
            plan: own
                .map(|week| PlannedWeek {
                    character: who.to_string(),
                    activity: Planned::Own(S::wrap_week(week)),
                })
                .into_iter()
                .collect(),
        }),
    }
}
