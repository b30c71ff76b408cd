//! The campaign's own commands: characters, damage and healing, the clock, sessions, free rolls,
//! sealed reveals, retractions and dice epochs. The rule systems' commands build on these.

use super::RuleError;
use crate::dice::{Dice, DiceExpr, SealedSecret, fairness, sealed};
use crate::event::{Event, RevealedDie};
use crate::sheet::Sheet;
use crate::state::{CampaignState, Character, PendingSeal};
use crate::time::GameDuration;

// A command lives for one call; its size does not matter, so its variants stay unboxed but for Adg.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    CreateCampaign {
        campaign_id: String,
        name: String,
        seed_commitment: String,
    },
    AddCharacter {
        name: String,
        sheet: Sheet,
    },
    Damage {
        character: String,
        amount: u32,
    },
    Heal {
        character: String,
        amount: u32,
    },
    AdvanceClock {
        by: GameDuration,
    },
    StartSession {
        entropy: String,
    },
    EndSession,
    Roll {
        expression: DiceExpr,
        purpose: Option<String>,
        sealed: bool,
    },
    /// `secrets` are the GM's stored values for the dice of `seq`.
    RevealSealed {
        seq: u64,
        secrets: Vec<SealedSecret>,
    },
    /// `target` is the event at `seq`, if the log has one.
    Retract {
        seq: u64,
        target: Option<Event>,
        reason: String,
    },
    /// A rest for the named characters (everyone able to, when none is named).
    Rest {
        characters: Vec<String>,
        length: super::rest::RestLength,
    },
    /// A Dungeon Game's commands.
    Adg(Box<super::adg::AdgCommand>),
    /// Against the Darkmaster's commands.
    Vsd(Box<super::vsd::VsdCommand>),
    /// `seed` is the current epoch's secret; `next_commitment` commits to the next epoch's.
    RevealSeed {
        seed: [u8; 32],
        next_commitment: String,
    },
}

impl Command {
    /// The dice epoch this command opens, whose new seed its write keeps: a campaign's first, or
    /// the next one after a seed reveal.
    pub fn new_epoch(&self, state: &CampaignState) -> Option<u32> {
        match self {
            Command::CreateCampaign { .. } => Some(1),
            Command::RevealSeed { .. } => Some(state.epoch + 1),
            Command::AddCharacter { .. }
            | Command::Damage { .. }
            | Command::Heal { .. }
            | Command::AdvanceClock { .. }
            | Command::StartSession { .. }
            | Command::EndSession
            | Command::Roll { .. }
            | Command::RevealSealed { .. }
            | Command::Retract { .. }
            | Command::Rest { .. }
            | Command::Adg(_)
            | Command::Vsd(_) => None,
        }
    }
}

/// The events `command` records on `state`, and then what they set off by themselves: a failed
/// spell held to fire later whose round they bring to an end (VSD-9).
pub fn decide(
    state: &CampaignState,
    command: Command,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    let mut events = decide_command(state, command, dice)?;
    events.extend(super::vsd::delayed_spells_due(state, &events));
    Ok(events)
}

fn decide_command(
    state: &CampaignState,
    command: Command,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    super::text::check_command(&command)?;
    if let Command::CreateCampaign {
        campaign_id,
        name,
        seed_commitment,
    } = command
    {
        if let Some(existing) = &state.campaign {
            return Err(RuleError::AlreadyCreated(existing.name.clone()));
        }
        return Ok(vec![Event::CampaignCreated {
            campaign_id,
            name,
            seed_commitment,
            grimoire_version: env!("CARGO_PKG_VERSION").to_string(),
        }]);
    }
    if state.campaign.is_none() {
        return Err(RuleError::NoCampaign);
    }
    let event = match command {
        Command::CreateCampaign { .. } => unreachable!("handled above"),
        Command::AddCharacter { name, sheet } => {
            let name = name.trim().to_string();
            if name.is_empty() {
                return Err(RuleError::EmptyName);
            }
            if let Some(existing) = state.character(&name) {
                return Err(RuleError::DuplicateCharacter(existing.name.clone()));
            }
            if let Some(existing) = state
                .characters
                .values()
                .find(|c| super::text::look_alike(&c.name, &name))
            {
                return Err(RuleError::ConfusableName {
                    name,
                    existing: existing.name.clone(),
                });
            }
            sheet.validate().map_err(RuleError::InvalidSheet)?;
            let tables = super::adg::tables_for_new_character(state, &sheet);
            return Ok(tables
                .into_iter()
                .chain([Event::CharacterAdded { name, sheet }])
                .collect());
        }
        Command::Damage { character, amount } => {
            let who = with_health(state, &character)?;
            Event::DamageTaken {
                character: who.name.clone(),
                amount,
            }
        }
        Command::Heal { character, amount } => {
            let who = with_health(state, &character)?;
            Event::Healed {
                character: who.name.clone(),
                amount,
            }
        }
        Command::AdvanceClock { by } => Event::ClockAdvanced { by },
        Command::StartSession { entropy } => {
            if let Some(open) = &state.open_session {
                return Err(RuleError::SessionOpen(open.number));
            }
            Event::SessionStarted {
                number: state.sessions_started + 1,
                entropy,
            }
        }
        Command::EndSession => {
            let open = state
                .open_session
                .as_ref()
                .ok_or(RuleError::NoSessionOpen)?;
            Event::SessionEnded {
                number: open.number,
            }
        }
        Command::Roll {
            expression,
            purpose,
            sealed,
        } => {
            let label = purpose
                .clone()
                .unwrap_or_else(|| format!("free roll {expression}"));
            let rolled = expression.roll(dice, &label, sealed)?;
            Event::DiceRolled {
                expression,
                purpose,
                dice: rolled.dice,
                total: rolled.total,
            }
        }
        Command::RevealSealed { seq, secrets } => reveal_sealed(state, seq, &secrets)?,
        Command::Retract {
            seq,
            target,
            reason,
        } => {
            let reason = reason.trim().to_string();
            if reason.is_empty() {
                return Err(RuleError::EmptyReason);
            }
            let target = target.ok_or(RuleError::NoSuchEvent(seq, state.head))?;
            if let Some(why) = state.retracted.get(&seq) {
                return Err(RuleError::AlreadyRetracted(seq, why.clone()));
            }
            if !target.is_retractable() {
                return Err(RuleError::NotRetractable {
                    seq,
                    kind: target.kind().to_string(),
                });
            }
            Event::Retracted { seq, reason }
        }
        Command::Rest { characters, length } => {
            return super::rest::rest(state, &characters, length, dice);
        }
        Command::Adg(command) => return super::adg::decide(state, *command, dice),
        Command::Vsd(command) => return super::vsd::decide(state, *command, dice),
        Command::RevealSeed {
            seed,
            next_commitment,
        } => {
            // The next epoch's dice must mix in entropy the players give after its commitment: a
            // session's entropy is already known, and a GM could reveal, roll, and keep the best copy.
            if let Some(session) = &state.open_session {
                return Err(RuleError::RevealInSession(session.number));
            }
            if fairness::seed_commitment(&seed) != state.epoch_commitment {
                return Err(RuleError::SeedMismatch(state.epoch));
            }
            // Sealed dice derived from this seed and not yet revealed would be opened by publishing
            // it: the epoch ends, and the seed waits for the last of them.
            let holding = holding_back(state, state.epoch);
            let ended = if holding.is_empty() {
                Event::SeedRevealed {
                    epoch: state.epoch,
                    seed: hex::encode(seed),
                }
            } else {
                Event::SeedWithheld {
                    epoch: state.epoch,
                    until: holding,
                }
            };
            return Ok(vec![
                ended,
                Event::EpochStarted {
                    epoch: state.epoch + 1,
                    seed_commitment: next_commitment,
                },
            ]);
        }
    };
    Ok(vec![event])
}

/// The events whose pending sealed dice were derived from `epoch`'s seed.
fn holding_back(state: &CampaignState, epoch: u32) -> Vec<u64> {
    state
        .sealed_pending
        .iter()
        .filter(|(_, seals)| seals.iter().any(|s| s.epoch == Some(epoch)))
        .map(|(seq, _)| *seq)
        .collect()
}

/// The withheld epochs whose seeds `events` set free: after them no sealed die derived from the
/// seed is still pending (the last was revealed, or retracted). Their `SeedRevealed` events go in
/// the same write, so a seed is published the moment nothing it could open is left.
pub fn seeds_released(state: &CampaignState, events: &[Event]) -> Vec<u32> {
    let settled: Vec<u64> = events
        .iter()
        .filter_map(|e| {
            let (Event::SealedRevealed { seq, .. } | Event::Retracted { seq, .. }) = e else {
                return None;
            };
            Some(*seq)
        })
        .collect();
    if settled.is_empty() {
        return Vec::new();
    }
    state
        .withheld_seeds
        .iter()
        .copied()
        .filter(|&epoch| {
            holding_back(state, epoch)
                .iter()
                .all(|seq| settled.contains(seq))
        })
        .collect()
}

pub(crate) fn find<'s>(state: &'s CampaignState, name: &str) -> Result<&'s Character, RuleError> {
    state
        .character(name)
        .ok_or_else(|| RuleError::UnknownCharacter {
            name: name.to_string(),
            known: state.characters.values().map(|c| c.name.clone()).collect(),
        })
}

/// Whether two spellings name the same character (names ignore case).
pub(crate) fn same_character(a: &str, b: &str) -> bool {
    crate::state::fold_name(a) == crate::state::fold_name(b)
}

/// A living character with a health track: damage and healing are recorded only for them.
fn with_health<'s>(state: &'s CampaignState, name: &str) -> Result<&'s Character, RuleError> {
    let who = find(state, name)?;
    if who.is_dead() {
        return Err(RuleError::Dead(who.name.clone()));
    }
    if who.health.is_none() {
        return Err(RuleError::NoHealth(who.name.clone()));
    }
    Ok(who)
}

/// Opens one sealed die of event `seq` with the GM's secrets, refusing a secret that is missing or
/// does not match the commitment the log holds.
pub(crate) fn open_seal(
    seq: u64,
    seal: &PendingSeal,
    secrets: &[SealedSecret],
) -> Result<RevealedDie, RuleError> {
    let secret = secrets
        .iter()
        .find(|s| s.n == seal.n)
        .ok_or(RuleError::SecretMissing { seq, n: seal.n })?;
    if !sealed::reveal_matches(&seal.commitment, &secret.faces(), &secret.nonce) {
        return Err(RuleError::SecretMismatch { seq, n: seal.n });
    }
    Ok(RevealedDie {
        n: seal.n,
        value: secret.value,
        nonce: secret.nonce.clone(),
        then: secret.then.clone(),
    })
}

fn reveal_sealed(
    state: &CampaignState,
    seq: u64,
    secrets: &[SealedSecret],
) -> Result<Event, RuleError> {
    let pending = state
        .sealed_pending
        .get(&seq)
        .ok_or(RuleError::NothingSealed(seq))?;
    let dice = pending
        .iter()
        .map(|seal| open_seal(seq, seal, secrets))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Event::SealedRevealed { seq, dice })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{AdgSheet, VsdSheet};
    use crate::state::replay_all;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn created() -> Event {
        Event::CampaignCreated {
            campaign_id: "c-1".into(),
            name: "The Sunken Vault".into(),
            seed_commitment: fairness::seed_commitment(&[7u8; 32]),
            grimoire_version: "test".into(),
        }
    }

    /// A level 1 A Dungeon Game sheet, for characters added during a test.
    fn a_novice_sheet() -> Sheet {
        Sheet::Adg(AdgSheet {
            level: 1,
            agility: 10,
            brawn: 10,
            cunning: 10,
            health: 5,
            silver: 0,
        })
    }

    fn adg(name: &str, health: u32) -> Event {
        Event::CharacterAdded {
            name: name.into(),
            sheet: Sheet::Adg(AdgSheet {
                level: 2,
                agility: 11,
                brawn: 9,
                cunning: 13,
                health,
                silver: 40,
            }),
        }
    }

    fn given(events: &[Event]) -> CampaignState {
        replay_all(events.iter().enumerate().map(|(i, e)| (i as u64 + 1, e)))
    }

    fn when(
        state: &CampaignState,
        command: Command,
        rolls: Vec<u32>,
    ) -> Result<Vec<Event>, RuleError> {
        let mut rng = StdRng::seed_from_u64(0);
        let mut dice = Dice::entered(rolls, &mut rng);
        let events = decide(state, command, &mut dice)?;
        dice.finish()?;
        Ok(events)
    }

    #[test]
    fn given_no_campaign_when_anything_but_creation_then_refused() {
        let err = when(&given(&[]), Command::EndSession, vec![]).unwrap_err();
        assert_eq!(err, RuleError::NoCampaign);
    }

    #[test]
    fn given_a_campaign_when_created_again_then_refused() {
        let command = Command::CreateCampaign {
            campaign_id: "x".into(),
            name: "Other".into(),
            seed_commitment: "c".into(),
        };
        assert_eq!(
            when(&given(&[created()]), command, vec![]),
            Err(RuleError::AlreadyCreated("The Sunken Vault".into()))
        );
    }

    #[test]
    fn given_a_character_when_another_takes_the_name_in_other_case_then_refused() {
        let state = given(&[created(), adg("Aldric", 8)]);
        let command = Command::AddCharacter {
            name: "ALDRIC".into(),
            sheet: a_novice_sheet(),
        };
        assert_eq!(
            when(&state, command, vec![]),
            Err(RuleError::DuplicateCharacter("Aldric".into()))
        );
    }

    #[test]
    fn given_a_campaign_when_a_name_or_reason_is_not_one_short_line_then_refused() {
        let state = given(&[created(), adg("Aldric", 8)]);
        let named = |name: &str| Command::AddCharacter {
            name: name.into(),
            sheet: a_novice_sheet(),
        };
        assert_eq!(
            when(&state, named("Bran\nthe Bold"), vec![]),
            Err(RuleError::TextNotOneLine("character's name"))
        );
        assert_eq!(
            when(&state, named(&"y".repeat(61)), vec![]),
            Err(RuleError::TextTooLong {
                what: "character's name",
                length: 61,
                max: 60
            })
        );
        assert!(when(&state, named(&"Ÿ".repeat(60)), vec![]).is_ok());
        let retract = |reason: String| Command::Retract {
            seq: 2,
            target: Some(adg("Aldric", 8)),
            reason,
        };
        assert_eq!(
            when(&state, retract("x".repeat(501)), vec![]),
            Err(RuleError::TextTooLong {
                what: "reason",
                length: 501,
                max: 500
            })
        );
        assert_eq!(
            when(&state, retract("a typo\tin the sheet".into()), vec![]),
            Err(RuleError::TextNotOneLine("reason"))
        );
    }

    #[test]
    fn adg_c2_given_a_character_when_damaged_then_health_drops_and_never_below_zero() {
        let state = given(&[created(), adg("Aldric", 8)]);
        let events = when(
            &state,
            Command::Damage {
                character: "aldric".into(),
                amount: 3,
            },
            vec![],
        )
        .unwrap();
        assert_eq!(
            events,
            vec![Event::DamageTaken {
                character: "Aldric".into(),
                amount: 3
            }]
        );
        let after = given(&[created(), adg("Aldric", 8), events[0].clone()]);
        assert_eq!(
            after.character("Aldric").unwrap().health.unwrap().current,
            5
        );
        let overkill = given(&[
            created(),
            adg("Aldric", 8),
            Event::DamageTaken {
                character: "Aldric".into(),
                amount: 50,
            },
        ]);
        assert_eq!(
            overkill
                .character("Aldric")
                .unwrap()
                .health
                .unwrap()
                .current,
            0
        );
    }

    #[test]
    fn adg_c2_given_a_wounded_character_when_healed_then_health_is_capped_at_max() {
        let state = given(&[
            created(),
            adg("Aldric", 8),
            Event::DamageTaken {
                character: "Aldric".into(),
                amount: 3,
            },
            Event::Healed {
                character: "Aldric".into(),
                amount: 10,
            },
        ]);
        assert_eq!(
            state.character("Aldric").unwrap().health.unwrap().current,
            8
        );
    }

    #[test]
    fn given_an_unknown_name_when_damaged_then_refused_listing_who_exists() {
        let state = given(&[created(), adg("Aldric", 8)]);
        let err = when(
            &state,
            Command::Damage {
                character: "Bob".into(),
                amount: 1,
            },
            vec![],
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "no character named 'Bob'; known: Aldric");
    }

    #[test]
    fn given_a_vsd_character_without_health_when_damaged_then_refused() {
        let mira = Event::CharacterAdded {
            name: "Mira".into(),
            sheet: Sheet::Vsd(VsdSheet {
                level: 3,
                vocation: "wizard".into(),
                lores: vec![],
                mp: 12,
                drive: 3,
                body: 40,
                wsr: 20,
                defense: 10,
                health: None,
            }),
        };
        let state = given(&[created(), mira]);
        let err = when(
            &state,
            Command::Damage {
                character: "Mira".into(),
                amount: 1,
            },
            vec![],
        )
        .unwrap_err();
        assert_eq!(err, RuleError::NoHealth("Mira".into()));
    }

    #[test]
    fn t1_given_a_campaign_when_time_advances_then_the_clock_moves() {
        let by = GameDuration::parse("2h").unwrap();
        let state = given(&[
            created(),
            Event::ClockAdvanced { by },
            Event::ClockAdvanced { by },
        ]);
        assert_eq!(state.clock.seconds(), 4 * 3600);
    }

    #[test]
    fn given_an_open_session_when_another_starts_then_refused_and_numbers_follow_on() {
        let open = given(&[
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: "".into(),
            },
        ]);
        assert_eq!(
            when(
                &open,
                Command::StartSession {
                    entropy: "x".into()
                },
                vec![]
            ),
            Err(RuleError::SessionOpen(1))
        );
        let closed = given(&[
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: "".into(),
            },
            Event::SessionEnded { number: 1 },
        ]);
        let events = when(
            &closed,
            Command::StartSession {
                entropy: "owl".into(),
            },
            vec![],
        )
        .unwrap();
        assert_eq!(
            events,
            vec![Event::SessionStarted {
                number: 2,
                entropy: "owl".into()
            }]
        );
        assert_eq!(
            when(&closed, Command::EndSession, vec![]),
            Err(RuleError::NoSessionOpen)
        );
    }

    #[test]
    fn given_entered_dice_when_rolling_then_the_event_holds_every_die_and_the_total() {
        let state = given(&[created()]);
        let command = Command::Roll {
            expression: DiceExpr::parse("2d6+3").unwrap(),
            purpose: None,
            sealed: false,
        };
        let events = when(&state, command, vec![5, 1]).unwrap();
        let Event::DiceRolled { dice, total, .. } = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(*total, Some(9));
        assert_eq!(
            dice.iter().map(|d| d.value).collect::<Vec<_>>(),
            vec![Some(5), Some(1)]
        );
    }

    #[test]
    fn vsd1_given_a_campaign_when_rolling_open_ended_then_the_chain_is_recorded() {
        let state = given(&[created()]);
        let command = Command::Roll {
            expression: DiceExpr::parse("oe").unwrap(),
            purpose: None,
            sealed: false,
        };
        let events = when(&state, command, vec![98, 96, 20]).unwrap();
        let Event::DiceRolled { dice, total, .. } = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!((dice.len(), *total), (3, Some(214)));
    }

    #[test]
    fn given_a_sealed_roll_when_revealed_with_the_right_secret_then_the_values_are_published() {
        let mut rng = StdRng::seed_from_u64(1);
        let state = given(&[created()]);
        let mut dice = Dice::entered(vec![17], &mut rng);
        let command = Command::Roll {
            expression: DiceExpr::parse("d20").unwrap(),
            purpose: None,
            sealed: true,
        };
        let rolled = decide(&state, command, &mut dice).unwrap();
        let secrets = dice.finish().unwrap();
        let after = given(&[created(), rolled[0].clone()]);
        assert_eq!(after.sealed_pending.len(), 1);

        let reveal = when(
            &after,
            Command::RevealSealed {
                seq: 2,
                secrets: secrets.clone(),
            },
            vec![],
        )
        .unwrap();
        let Event::SealedRevealed { dice, .. } = &reveal[0] else {
            panic!("{reveal:?}")
        };
        assert_eq!(dice[0].value, 17);

        let forged = vec![SealedSecret {
            value: 3,
            ..secrets[0].clone()
        }];
        assert_eq!(
            when(
                &after,
                Command::RevealSealed {
                    seq: 2,
                    secrets: forged
                },
                vec![]
            ),
            Err(RuleError::SecretMismatch { seq: 2, n: 0 })
        );
        let done = given(&[created(), rolled[0].clone(), reveal[0].clone()]);
        assert_eq!(
            when(&done, Command::RevealSealed { seq: 2, secrets }, vec![]),
            Err(RuleError::NothingSealed(2))
        );
    }

    #[test]
    fn given_damage_when_retracted_then_replay_skips_it_and_both_stay_in_the_log() {
        let damage = Event::DamageTaken {
            character: "Aldric".into(),
            amount: 3,
        };
        let state = given(&[created(), adg("Aldric", 8), damage.clone()]);
        let command = Command::Retract {
            seq: 3,
            target: Some(damage.clone()),
            reason: "wrong target".into(),
        };
        let events = when(&state, command.clone(), vec![]).unwrap();
        let after = given(&[created(), adg("Aldric", 8), damage, events[0].clone()]);
        assert_eq!(
            after.character("Aldric").unwrap().health.unwrap().current,
            8
        );
        assert_eq!(after.head, 4);
        assert_eq!(
            when(&after, command, vec![]),
            Err(RuleError::AlreadyRetracted(3, "wrong target".into()))
        );
    }

    #[test]
    fn given_bookkeeping_events_when_retracted_then_refused() {
        let state = given(&[
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: "".into(),
            },
        ]);
        let command = Command::Retract {
            seq: 2,
            target: Some(Event::SessionStarted {
                number: 1,
                entropy: "".into(),
            }),
            reason: "oops".into(),
        };
        assert!(matches!(
            when(&state, command, vec![]),
            Err(RuleError::NotRetractable { seq: 2, .. })
        ));
        let missing = Command::Retract {
            seq: 9,
            target: None,
            reason: "x".into(),
        };
        assert_eq!(
            when(&state, missing, vec![]),
            Err(RuleError::NoSuchEvent(9, 2))
        );
        let blank = Command::Retract {
            seq: 2,
            target: None,
            reason: "  ".into(),
        };
        assert_eq!(when(&state, blank, vec![]), Err(RuleError::EmptyReason));
    }

    #[test]
    fn given_an_epoch_when_its_seed_is_revealed_then_the_next_epoch_starts_with_a_new_commitment() {
        let state = given(&[created()]);
        let next = fairness::seed_commitment(&[8u8; 32]);
        let events = when(
            &state,
            Command::RevealSeed {
                seed: [7u8; 32],
                next_commitment: next.clone(),
            },
            vec![],
        )
        .unwrap();
        let after = given(&[created(), events[0].clone(), events[1].clone()]);
        assert_eq!(
            (after.epoch, after.epoch_commitment.clone()),
            (2, next.clone())
        );
        assert_eq!(
            when(
                &state,
                Command::RevealSeed {
                    seed: [9u8; 32],
                    next_commitment: next
                },
                vec![]
            ),
            Err(RuleError::SeedMismatch(1))
        );
    }

    #[test]
    fn given_an_open_session_when_the_seed_is_revealed_then_refused_until_the_session_ends() {
        let session = Event::SessionStarted {
            number: 1,
            entropy: "owls".into(),
        };
        let state = given(&[created(), session]);
        let reveal = Command::RevealSeed {
            seed: [7u8; 32],
            next_commitment: fairness::seed_commitment(&[8u8; 32]),
        };
        assert_eq!(
            when(&state, reveal.clone(), vec![]),
            Err(RuleError::RevealInSession(1))
        );
        let ended = given(&[
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: "owls".into(),
            },
            Event::SessionEnded { number: 1 },
        ]);
        assert!(when(&ended, reveal, vec![]).is_ok());
    }

    #[test]
    fn given_a_pending_seeded_seal_when_the_epoch_ends_then_its_seed_waits_for_the_reveal() {
        use crate::dice::{Die, Provenance, SealedOrigin};
        let sealed_roll = Event::DiceRolled {
            expression: DiceExpr::parse("d20").unwrap(),
            purpose: None,
            dice: vec![Die {
                n: 0,
                purpose: "GM check".into(),
                sides: 20,
                value: None,
                provenance: Provenance::Sealed {
                    commitment: "c".repeat(64),
                    origin: Some(SealedOrigin::Seeded {
                        epoch: 1,
                        witness: None,
                    }),
                },
            }],
            total: None,
        };
        let state = given(&[created(), sealed_roll.clone()]);
        let next = fairness::seed_commitment(&[8u8; 32]);
        let events = when(
            &state,
            Command::RevealSeed {
                seed: [7u8; 32],
                next_commitment: next.clone(),
            },
            vec![],
        )
        .unwrap();
        assert_eq!(
            events[0],
            Event::SeedWithheld {
                epoch: 1,
                until: vec![2]
            }
        );
        let after = given(&[created(), sealed_roll, events[0].clone(), events[1].clone()]);
        let reveal = Event::SealedRevealed {
            seq: 2,
            dice: vec![],
        };
        assert_eq!(seeds_released(&after, &[reveal]), vec![1]);
        assert_eq!(
            seeds_released(&after, &[Event::SessionEnded { number: 1 }]),
            Vec::<u32>::new()
        );
    }

    #[test]
    fn given_a_session_opened_before_the_epochs_commitment_when_grimoire_rolls_then_refused() {
        // Only a log from before `seed reveal` was refused in sessions can hold this.
        let state = given(&[
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: "known early".into(),
            },
            Event::SeedRevealed {
                epoch: 1,
                seed: hex::encode([7u8; 32]),
            },
            Event::EpochStarted {
                epoch: 2,
                seed_commitment: fairness::seed_commitment(&[8u8; 32]),
            },
        ]);
        let mut rng = StdRng::seed_from_u64(1);
        let mut dice = crate::rules::seeded_dice(&state, Some([8u8; 32]), None, &mut rng);
        let roll = Command::Roll {
            expression: DiceExpr::parse("d20").unwrap(),
            purpose: None,
            sealed: false,
        };
        assert_eq!(
            decide(&state, roll, &mut dice),
            Err(RuleError::Dice(crate::dice::DiceError::StaleEntropy {
                session: 1,
                epoch: 2
            }))
        );
    }
}
