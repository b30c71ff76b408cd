//! A long-campaign generator for benchmarks and tests: a realistic mixed campaign of both systems,
//! played through the real `decide` path (every event valid, every seeded die verifiable), appended in
//! large transactions.

use crate::Error;
use crate::dice::{Dice, DiceExpr, fairness};
use crate::event::{Event, Recorded};
use crate::rules::campaign::{
    ClockAdvance, DiceRoll, DowntimeWeeks, HealthChange, Resting, Retraction, SessionStart,
};
use crate::rules::downtime::PlannedWeek;
use crate::rules::{Command, Who, decide};
use crate::sheet::{AdgSheet, Lore, Sheet, VsdSheet};
use crate::state::CampaignState;
use crate::store::{Appender, Batch, Stamp, Store};
use crate::systems::adg::Adg;
use crate::systems::adg::event::EffectKind;
use crate::systems::adg::rules::{AdgCommand, Attribute, Casting, Exertion, Pay, RitualKind};
use crate::systems::contract::rules::Planned;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyWeek;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::rules::{
    CastOrder, Choice, Choosing, Concentration, NewSpell, SpellKind, SpellLearning, VsdCommand,
};
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
    loop {
        let (done, _) = store.bulk(stamp(&mut rng), |appender| {
            if first {
                set_up(appender, characters, &mut rng)?;
                first = false;
            }
            let target = (appender.state().head + EVENTS_PER_TRANSACTION).min(events);
            while appender.state().head < target {
                step(appender, characters, Sessions::Come, &mut last, &mut rng)?;
            }
            Ok(appender.state().head >= events)
        })?;
        watch(store.head()?.map_or(0, |h| h.seq));
        if done {
            break;
        }
    }
    Ok(Generated {
        events: store.head()?.map_or(0, |h| h.seq),
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
    let (number, _) = store.bulk(stamp, |appender| {
        if appender.state().open_session.is_some() {
            play(appender, Command::EndSession, &mut rng)?;
        }
        let start = SessionStart {
            entropy: format!("a long evening {}", rng.next_u32()),
        };
        play(appender, Command::StartSession(start), &mut rng)?;
        let until = appender.state().head + events;
        let mut last = None;
        while appender.state().head < until {
            step(
                appender,
                characters.max(2),
                Sessions::StayOpen,
                &mut last,
                &mut rng,
            )?;
        }
        play(appender, Command::EndSession, &mut rng)?;
        Ok(appender.state().sessions_started)
    })?;
    Ok(number)
}

fn name(i: usize) -> String {
    format!(
        "{}{i}",
        if i.is_multiple_of(2) {
            "Adept"
        } else {
            "Magus"
        }
    )
}

/// Decides `command` with seeded dice and appends it; a refusal is not an error here (the generator
/// simply tries something else), so it reports whether anything was appended.
fn play(appender: &mut Appender<'_>, command: Command, rng: &mut StdRng) -> Result<bool, Error> {
    Ok(play_recorded(appender, command, rng)?.is_some())
}

/// [`play`], returning the last event appended.
fn play_recorded(
    appender: &mut Appender<'_>,
    command: Command,
    rng: &mut StdRng,
) -> Result<Option<Recorded>, Error> {
    let (created, epoch) = (appender.state().campaign.is_some(), appender.state().epoch);
    let seed = match created {
        true => appender.secrets().seed(epoch)?,
        false => None,
    };
    let state = appender.state();
    let mut secret_rng = StdRng::seed_from_u64(rng.next_u64());
    let mut dice = crate::rules::seeded_dice(state, seed, None, &mut secret_rng);
    let Ok(events) = decide(state, command, &mut dice) else {
        return Ok(None);
    };
    let sealed = dice.finish()?;
    let appended = appender.append(Batch {
        events,
        sealed,
        seeds: vec![],
    })?;
    Ok(appended.into_iter().last())
}

fn generated_seed(rng: &mut StdRng) -> [u8; 32] {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    seed
}

fn set_up(appender: &mut Appender<'_>, characters: usize, rng: &mut StdRng) -> Result<(), Error> {
    let seed = generated_seed(rng);
    let command = Command::CreateCampaign {
        campaign_id: format!("generated-{}", rng.next_u32()),
        name: "A generated West-Marches campaign".into(),
        seed_commitment: fairness::seed_commitment(&seed),
    };
    let mut rng_dice = StdRng::seed_from_u64(rng.next_u64());
    let mut dice = Dice::without_seed(1, &mut rng_dice);
    let events = decide(appender.state(), command, &mut dice).map_err(Error::Rule)?;
    appender.append(Batch {
        events,
        sealed: vec![],
        seeds: vec![(1, seed)],
    })?;
    for i in 0..characters {
        let sheet = if i % 2 == 0 {
            Sheet::Adg(AdgSheet {
                level: 1 + (i as u32 % 10),
                agility: 12,
                brawn: 11,
                cunning: 16,
                health: 30,
                silver: 100_000,
            })
        } else {
            Sheet::Vsd(VsdSheet {
                level: 1 + (i as u32 % 8),
                vocation: if i % 4 == 1 {
                    "wizard".into()
                } else {
                    "animist".into()
                },
                lores: vec![Lore {
                    name: "Elementalism".into(),
                    bonus: 50,
                    ranks: 8,
                }],
                mp: 30,
                drive: 10,
                body: 60,
                wsr: 20,
                defense: 10,
                health: Some(30),
            })
        };
        play(
            appender,
            Command::AddCharacter {
                name: name(i),
                sheet,
            },
            rng,
        )?;
        if i % 2 == 0 {
            for (ritual, kind) in [
                ("Concealing Darkness", RitualKind::Phrase),
                ("Calling Moon", RitualKind::Ceremony),
            ] {
                let learn = AdgCommand::Learn(crate::systems::adg::rules::Learning {
                    character: name(i),
                    ritual: ritual.into(),
                    kind: Some(kind),
                    spell_level: None,
                    cast_time: None,
                    duration: None,
                    pay: Pay::Health,
                    exert: true,
                });
                play(
                    appender,
                    Command::System(AnyCommand::Adg(Box::new(learn))),
                    rng,
                )?;
            }
        } else {
            let ward = NewSpell {
                name: "Ward".into(),
                lore: "Elementalism".into(),
                weave: 1,
                kind: SpellKind::Defensive,
                tags: vec![],
                instantaneous: false,
                save: false,
                attack: None,
                mp: None,
                duration: Some(GameDuration(600)),
            };
            play(
                appender,
                Command::System(AnyCommand::Vsd(Box::new(VsdCommand::Learn(
                    SpellLearning {
                        character: name(i),
                        spell: ward,
                    },
                )))),
                rng,
            )?;
        }
    }
    Ok(())
}

/// One thing happening at the table, chosen at random with realistic weights. `last` is the event
/// the previous step recorded, which the GM may retract.
fn step(
    appender: &mut Appender<'_>,
    characters: usize,
    sessions: Sessions,
    last: &mut Option<Recorded>,
    rng: &mut StdRng,
) -> Result<(), Error> {
    let state: &CampaignState = appender.state();
    let who = name(rng.random_range(0..characters));
    let adg = who.starts_with("Adept");
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
            next_roll: None,
        });
        // And now and then the retraction was the mistake: undoing it restores the entry.
        if let Some(retraction) = play_recorded(appender, undo, rng)?
            && rng.random_range(0..4) == 0
        {
            let restore = Command::Retract(Retraction {
                seq: Some(retraction.seq),
                last: false,
                target: Some(retraction.event),
                restoring: Some(Box::new(mistake.event)),
                reason: "it was the right character after all".into(),
                next_roll: None,
            });
            play(appender, restore, rng)?;
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
        }),
        26..=31 => Command::Heal(HealthChange {
            character: who.clone(),
            amount: rng.random_range(1..6),
        }),
        32..=35 => Command::Rest(if rng.random_bool(0.5) {
            Resting::night(&[])
        } else {
            Resting::hours(&[], 4)
        }),
        // Two weeks: one writing a scroll of a ritual the adept knows, when there is one and they
        // hold few scrolls (nobody hoards hundreds), one resting. Not a Ceremony: the generator
        // reads scrolls without the GM's secrets, so a sealed one would never be read and would
        // pile up.
        36 if adg => Command::Downtime(DowntimeWeeks {
            characters: vec![who.clone()],
            party: false,
            weeks: 2,
            plan: state
                .character(&who)
                .and_then(|c| c.state::<Adg>())
                .filter(|_| {
                    state
                        .systems
                        .adg
                        .scrolls
                        .values()
                        .filter(|s| s.holder == who)
                        .count()
                        < 3
                })
                .and_then(|a| a.known.values().find(|k| k.kind != RitualKind::Ceremony))
                .map(|known| PlannedWeek {
                    character: who.clone(),
                    activity: Planned::Own(AnyWeek::Adg(crate::systems::adg::rules::Scribing {
                        character: who.clone(),
                        ritual: known.name.clone(),
                        level: 1,
                        effect: "wards one door".into(),
                        effect_roll: None,
                        pre_exert: 0,
                        ongoing: false,
                    })),
                })
                .into_iter()
                .collect(),
        }),
        37..=38 if adg => Command::System(AnyCommand::Adg(Box::new(AdgCommand::WriteScroll(
            crate::systems::adg::rules::Scribing {
                character: who.clone(),
                ritual: "Concealing Darkness".into(),
                level: 1,
                effect: "hides one person".into(),
                effect_roll: Some(EffectKind::Healing),
                pre_exert: 0,
                ongoing: false,
            },
        )))),
        39..=41 if adg => {
            let held = state
                .systems
                .adg
                .scrolls
                .values()
                .find(|s| s.holder == who)
                .map(|s| s.id);
            match held {
                Some(scroll) => Command::System(AnyCommand::Adg(Box::new(AdgCommand::ReadScroll(
                    crate::systems::adg::rules::ScrollReading {
                        character: who.clone(),
                        scroll,
                        in_combat: false,
                        took_damage: rng.random_bool(0.2),
                        target: None,
                        sealed: vec![],
                    },
                )))),
                // Discovering a new ritual is a rare find, far rarer than looking for a scroll.
                None if rng.random_range(0..20) == 0 => {
                    Command::System(AnyCommand::Adg(Box::new(AdgCommand::RollRitual(Who {
                        character: who.clone(),
                    }))))
                }
                None => Command::AdvanceClock(ClockAdvance {
                    by: GameDuration(60),
                }),
            }
        }
        42 if adg => Command::System(AnyCommand::Adg(Box::new(AdgCommand::Exert(Exertion {
            character: who.clone(),
            attribute: Attribute::Agility,
            amount: 1,
            reason: "a climb".into(),
        })))),
        _ if adg => Command::System(AnyCommand::Adg(Box::new(AdgCommand::Cast(Casting {
            character: who.clone(),
            ritual: "Concealing Darkness".into(),
            order: crate::systems::adg::rules::CastOrder {
                exert: true,
                ..Default::default()
            },
        })))),
        _ => {
            let pending = state
                .character(&who)
                .and_then(|c| c.state::<Vsd>())
                .and_then(|v| v.pending.first().cloned());
            match pending {
                Some(p) => {
                    Command::System(AnyCommand::Vsd(Box::new(VsdCommand::Choose(Choosing {
                        character: who.clone(),
                        choices: p
                            .options
                            .iter()
                            .take(p.pick)
                            .copied()
                            .collect::<Vec<Choice>>(),
                    }))))
                }
                None if roll % 3 == 0 => Command::System(AnyCommand::Vsd(Box::new(
                    VsdCommand::Concentrate(Concentration {
                        character: who.clone(),
                        spell: "Ward".into(),
                    }),
                ))),
                None => Command::System(AnyCommand::Vsd(Box::new(VsdCommand::Cast(
                    crate::systems::vsd::rules::Casting {
                        character: who.clone(),
                        spell: "Ward".into(),
                        order: CastOrder {
                            target: who.clone(),
                            ..CastOrder::default()
                        },
                    },
                )))),
            }
        }
    };
    *last = play_recorded(appender, command, rng)?;
    if last.is_none() {
        // Refused (a lockout, a round already used, no MPs...): let time pass, as at the table.
        play(
            appender,
            Command::AdvanceClock(ClockAdvance {
                by: GameDuration(6),
            }),
            rng,
        )?;
    }
    Ok(())
}
