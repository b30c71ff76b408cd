use super::*;
use crate::dice::DiceExpr;
use crate::seq::Seq;
use crate::state::replay_all;
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::vsd::sheet::VsdSheet;
use crate::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::{BTreeMap, BTreeSet};

fn created() -> Event {
    Event::CampaignCreated {
        campaign_id: "c-1".into(),
        name: "The Sunken Vault".into(),
        seed_commitment: fairness::seed_commitment(&[7u8; 32]),
        grimoire_version: "test".into(),
        derivation: Some(fairness::ROLL_BOUND_DERIVATION),
        // An epoch begun before epochs had a second seed: its sealed dice come from its one seed.
        sealed_commitment: None,
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
        knows: Vec::new(),
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
            knows: Vec::new(),
        }),
    }
}

fn given(events: &[Event]) -> CampaignState {
    replay_all(
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (Seq(i as u64 + 1), e)),
    )
}

fn when(state: &CampaignState, command: Command, rolls: Vec<u32>) -> Result<Vec<Event>, RuleError> {
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
        sealed_commitment: "d".into(),
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
        Err(RuleError::Text(crate::text::TextProblem::NotOneLine(
            "character's name"
        )))
    );
    assert_eq!(
        when(&state, named(&"y".repeat(61)), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::TooLong {
            what: "character's name",
            length: 61,
            max: 60
        }))
    );
    assert!(when(&state, named(&"Ÿ".repeat(60)), vec![]).is_ok());
    let retract = |reason: String| {
        Command::Retract(Retraction {
            seq: Some(Seq(2)),
            last: false,
            target: Some(adg("Aldric", 8)),
            restoring: None,
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            reason,
            names_after: Default::default(),
        })
    };
    assert_eq!(
        when(&state, retract("x".repeat(501)), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::TooLong {
            what: "reason",
            length: 501,
            max: 500
        }))
    );
    assert_eq!(
        when(&state, retract("a typo\tin the sheet".into()), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::NotOneLine(
            "reason"
        )))
    );
}

#[test]
fn adg_c2_given_a_character_when_damaged_then_health_drops_and_never_below_zero() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let events = when(
        &state,
        Command::Damage(HealthChange {
            character: "aldric".into(),
            amount: 3,
            reason: None,
        }),
        vec![],
    )
    .unwrap();
    assert_eq!(
        events,
        vec![Event::DamageTaken {
            character: "Aldric".into(),
            amount: 3,
            reason: None
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
            reason: None,
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
            reason: None,
        },
        Event::Healed {
            character: "Aldric".into(),
            amount: 10,
            reason: None,
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
        Command::Damage(HealthChange {
            character: "Bob".into(),
            amount: 1,
            reason: None,
        }),
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
        Command::Damage(HealthChange {
            character: "Mira".into(),
            amount: 1,
            reason: None,
        }),
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
            Command::StartSession(SessionStart {
                entropy: "x".into()
            }),
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
        Command::StartSession(SessionStart {
            entropy: "owl".into(),
        }),
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
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("2d6+3").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
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
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("oe").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
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
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        sealed: true,
        character: None,
    });
    let rolled = decide(&state, command, &mut dice).unwrap();
    let secrets = dice.finish().unwrap();
    let after = given(&[created(), rolled[0].clone()]);
    assert_eq!(after.sealed_pending.len(), 1);

    let reveal = when(
        &after,
        Command::RevealSealed(SealedReveal {
            seq: Seq(2),
            secrets: secrets.clone(),
        }),
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
            Command::RevealSealed(SealedReveal {
                seq: Seq(2),
                secrets: forged
            }),
            vec![]
        ),
        Err(RuleError::SecretMismatch { seq: Seq(2), n: 0 })
    );
    let done = given(&[created(), rolled[0].clone(), reveal[0].clone()]);
    assert_eq!(
        when(
            &done,
            Command::RevealSealed(SealedReveal {
                seq: Seq(2),
                secrets
            }),
            vec![]
        ),
        Err(RuleError::NothingSealed(Seq(2)))
    );
    // An event past the log's end is not "without sealed dice": it is not there at all.
    assert_eq!(
        when(
            &done,
            Command::RevealSealed(SealedReveal {
                seq: Seq(99),
                secrets: Vec::new()
            }),
            vec![]
        ),
        Err(RuleError::NoSuchEvent(Seq(99), Seq(3)))
    );
}

#[test]
fn given_damage_when_retracted_then_replay_skips_it_and_both_stay_in_the_log() {
    let damage = Event::DamageTaken {
        character: "Aldric".into(),
        amount: 3,
        reason: None,
    };
    let state = given(&[created(), adg("Aldric", 8), damage.clone()]);
    let command = Command::Retract(Retraction {
        seq: Some(Seq(3)),
        last: false,
        target: Some(damage.clone()),
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        reason: "wrong target".into(),
        names_after: Default::default(),
    });
    let events = when(&state, command.clone(), vec![]).unwrap();
    let after = given(&[created(), adg("Aldric", 8), damage, events[0].clone()]);
    assert_eq!(
        after.character("Aldric").unwrap().health.unwrap().current,
        8
    );
    assert_eq!(after.head, 4);
    assert_eq!(
        when(&after, command, vec![]),
        Err(RuleError::AlreadyRetracted(Seq(3), "wrong target".into()))
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
    let command = Command::Retract(Retraction {
        seq: Some(Seq(2)),
        last: false,
        target: Some(Event::SessionStarted {
            number: 1,
            entropy: "".into(),
        }),
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        reason: "oops".into(),
        names_after: Default::default(),
    });
    assert!(matches!(
        when(&state, command, vec![]),
        Err(RuleError::NotRetractable { seq: Seq(2), .. })
    ));
    let missing = Command::Retract(Retraction {
        seq: Some(Seq(9)),
        last: false,
        target: None,
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        reason: "x".into(),
        names_after: Default::default(),
    });
    assert_eq!(
        when(&state, missing, vec![]),
        Err(RuleError::NoSuchEvent(Seq(9), Seq(2)))
    );
    let blank = Command::Retract(Retraction {
        seq: Some(Seq(2)),
        last: false,
        target: None,
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        reason: "  ".into(),
        names_after: Default::default(),
    });
    assert_eq!(when(&state, blank, vec![]), Err(RuleError::EmptyReason));
    // `--last` is the command line's to resolve; the rules undo only an event named by number.
    let unnamed = Command::Retract(Retraction {
        seq: None,
        last: true,
        target: None,
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        reason: "the newest".into(),
        names_after: Default::default(),
    });
    assert_eq!(when(&state, unnamed, vec![]), Err(RuleError::NoEventNamed));
}

#[test]
fn given_an_epoch_when_its_seed_is_revealed_then_the_next_epoch_starts_with_a_new_commitment() {
    let state = given(&[created()]);
    let next = fairness::seed_commitment(&[8u8; 32]);
    let events = when(
        &state,
        Command::RevealSeed {
            seed: Some([7u8; 32]),
            sealed_seed: None,
            next_commitment: next.clone(),
            next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
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
                seed: Some([9u8; 32]),
                sealed_seed: None,
                next_commitment: next,
                next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
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
        seed: Some([7u8; 32]),
        sealed_seed: None,
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
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

/// A GM's sealed d20, rolled from epoch 1's seed.
fn sealed_seeded_roll() -> Event {
    use crate::dice::{Die, Provenance, SealedOrigin};
    Event::DiceRolled {
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
                    roll: Some(0),
                    witness: None,
                }),
            },
        }],
        total: None,
        character: None,
    }
}

#[test]
fn given_a_pending_seeded_seal_when_the_epoch_ends_then_its_seed_waits_for_the_reveal() {
    let sealed_roll = sealed_seeded_roll();
    let state = given(&[created(), sealed_roll.clone()]);
    let next = fairness::seed_commitment(&[8u8; 32]);
    let events = when(
        &state,
        Command::RevealSeed {
            seed: Some([7u8; 32]),
            sealed_seed: None,
            next_commitment: next.clone(),
            next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
        },
        vec![],
    )
    .unwrap();
    assert_eq!(
        events[0],
        Event::SeedWithheld {
            epoch: 1,
            until: vec![Seq(2)]
        }
    );
    let after = given(&[created(), sealed_roll, events[0].clone(), events[1].clone()]);
    let reveal = Event::SealedRevealed {
        seq: Seq(2),
        dice: vec![],
    };
    assert_eq!(seeds_released(&after, &[reveal]), vec![Released::Seed(1)]);
    assert_eq!(
        seeds_released(&after, &[Event::SessionEnded { number: 1 }]),
        Vec::<Released>::new()
    );
}

/// A campaign begun with two seeds for epoch 1: `[7; 32]` for its dice, `[5; 32]` for its
/// sealed dice.
fn created_with_two_seeds() -> Event {
    let Event::CampaignCreated {
        campaign_id,
        name,
        seed_commitment,
        grimoire_version,
        derivation,
        ..
    } = created()
    else {
        unreachable!("created() creates the campaign")
    };
    Event::CampaignCreated {
        campaign_id,
        name,
        seed_commitment,
        grimoire_version,
        derivation,
        sealed_commitment: Some(fairness::seed_commitment(&[5u8; 32])),
    }
}

/// `seed reveal` in an epoch with two seeds, the second as kept: `sealed_seed`.
fn reveal_two_seeds(sealed_seed: [u8; 32]) -> Command {
    Command::RevealSeed {
        seed: Some([7u8; 32]),
        sealed_seed: Some(sealed_seed),
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
    }
}

/// ADG-S4: a Ceremony scroll's check is a sealed die that waits for the scroll's reading, which may
/// never come. In an epoch with a second seed for sealed dice, `seed reveal` always publishes the
/// first, so the epoch's other dice can be checked; the second waits for the sealed die, and its
/// reveal publishes it in the same write.
#[test]
fn adg_s4_given_a_pending_sealed_check_when_a_two_seed_epoch_ends_then_only_its_sealed_seed_waits()
{
    let sealed_roll = sealed_seeded_roll();
    let mut log = vec![created_with_two_seeds(), sealed_roll];
    let events = when(&given(&log), reveal_two_seeds([5u8; 32]), vec![]).unwrap();
    assert_eq!(
        events[0],
        Event::SeedRevealed {
            epoch: 1,
            seed: hex::encode([7u8; 32])
        }
    );
    assert!(
        matches!(&events[1], Event::EpochStarted { epoch: 2, sealed_commitment: Some(c), .. }
            if *c == fairness::seed_commitment(&[6u8; 32])),
        "{events:?}"
    );
    assert_eq!(
        events.len(),
        2,
        "nothing withheld, nothing sealed published: {events:?}"
    );
    log.extend(events);
    let after = given(&log);
    assert!(after.withheld_seeds.is_empty());
    assert_eq!(after.sealed_seeds_waiting, BTreeSet::from([1]));
    assert!(!after.sealed_dice_seed_published(1));
    let reveal = Event::SealedRevealed {
        seq: Seq(2),
        dice: vec![],
    };
    assert_eq!(
        seeds_released(&after, &[reveal]),
        vec![Released::SealedSeed(1)]
    );
    log.push(Event::SealedSeedRevealed {
        epoch: 1,
        seed: hex::encode([5u8; 32]),
    });
    let published = given(&log);
    assert!(published.sealed_seeds_waiting.is_empty());
    assert!(published.sealed_dice_seed_published(1));
}

/// ADG-S4: with no sealed die waiting, both of the epoch's seeds are published at once; a second
/// seed that does not open its commitment (the file's secrets edited) is refused before anything
/// is published.
#[test]
fn adg_s4_given_no_pending_sealed_die_when_a_two_seed_epoch_ends_then_both_seeds_are_published() {
    let state = given(&[created_with_two_seeds()]);
    let events = when(&state, reveal_two_seeds([5u8; 32]), vec![]).unwrap();
    let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
    assert_eq!(
        kinds,
        ["seed_revealed", "sealed_seed_revealed", "epoch_started"]
    );
    assert_eq!(
        events[1],
        Event::SealedSeedRevealed {
            epoch: 1,
            seed: hex::encode([5u8; 32])
        }
    );
    assert_eq!(
        when(&state, reveal_two_seeds([4u8; 32]), vec![]),
        Err(RuleError::SealedSeedMismatch(1))
    );
    let unkept = Command::RevealSeed {
        seed: Some([7u8; 32]),
        sealed_seed: None,
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
    };
    assert_eq!(
        when(&state, unkept, vec![]),
        Err(RuleError::SealedSeedMissing(1))
    );
}

/// C-2: a retracted sealed roll of an epoch with two seeds may come back while its own seed is
/// secret, even once the epoch's first seed is out; once the second is published, no.
#[test]
fn c2_given_a_two_seed_epoch_when_only_its_first_seed_is_out_then_a_sealed_roll_may_come_back() {
    let mut log = vec![created_with_two_seeds(), sealed_seeded_roll()];
    then(&mut log, |s, l| retraction(s, Seq(2), l));
    then(&mut log, |_, _| reveal_two_seeds([5u8; 32]));
    let restore = |state: &CampaignState, log: &[Event]| retraction(state, Seq(3), log);
    assert!(when(&given(&log), restore(&given(&log), &log), vec![]).is_ok());
    log.push(Event::SealedSeedRevealed {
        epoch: 1,
        seed: hex::encode([5u8; 32]),
    });
    assert_eq!(
        when(&given(&log), restore(&given(&log), &log), vec![]),
        Err(RuleError::RestoreWouldOpenSeal {
            seq: Seq(2),
            epoch: 1
        })
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
            derivation: Some(fairness::ROLL_BOUND_DERIVATION),
            sealed_commitment: None,
        },
    ]);
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = crate::rules::seeded_dice(&state, Some([8u8; 32]), None, None, &mut rng);
    let roll = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
    assert_eq!(
        decide(&state, roll, &mut dice),
        Err(RuleError::Dice(crate::dice::DiceError::StaleEntropy {
            session: 1,
            epoch: 2
        }))
    );
}

fn retraction(state: &CampaignState, seq: Seq, log: &[Event]) -> Command {
    let target = log.get(seq.get() as usize - 1).cloned();
    let event_at = |at: Seq| Ok::<_, ()>(log.get(at.get() as usize - 1).cloned());
    let restoring = target
        .as_ref()
        .and_then(|target| super::brought_back(target, event_at).unwrap())
        .map(|(back, event)| (back, Box::new(event)));
    assert!(seq <= state.head, "a seq of the log");
    // As the write reads it: who is in play, under what name, once the retraction is in effect.
    let numbered = || (1..).map(Seq).zip(log.iter());
    let mut revisions = crate::state::Revisions::of(numbered());
    revisions.retract(state.head.next(), seq);
    let additions = numbered()
        .filter_map(|(at, event)| match event {
            Event::CharacterAdded { name, .. } => Some((at, name.clone())),
            _ => None,
        })
        .collect();
    // As the write reads it: for a round's start, the first event still standing after it.
    let round_stands = match &target {
        Some(Event::RoundBegan { .. }) => log
            .iter()
            .enumerate()
            .skip(seq.get() as usize)
            .map(|(i, e)| (Seq(i as u64 + 1), e))
            .find(|(at, e)| {
                !matches!(e, Event::Retracted { .. }) && !state.retracted.contains_key(at)
            })
            .map(|(at, _)| at),
        _ => None,
    };
    Command::Retract(Retraction {
        seq: Some(seq),
        last: false,
        target,
        restoring,
        reason: "a mistake".into(),
        fight_built_on: false,
        round_stands,
        clock_reshaped: None,
        acted_again: None,
        names_after: revisions.names_in_play(&additions),
    })
}

/// Decides `command` on the log and appends what it records.
fn then(log: &mut Vec<Event>, command: impl FnOnce(&CampaignState, &[Event]) -> Command) {
    let state = given(log);
    let events = when(&state, command(&state, log), vec![]).expect("accepted");
    log.extend(events);
}

#[test]
fn c2_given_retractions_in_a_chain_when_settled_then_each_undone_retraction_restores_its_target() {
    // #5 undoes #3, #7 undoes #5 (restoring #3), #9 undoes #7 (undoing #3 again).
    assert_eq!(
        crate::state::undone_by(&[(Seq(5), Seq(3)), (Seq(7), Seq(5))]),
        BTreeSet::from([Seq(5)])
    );
    assert_eq!(
        crate::state::undone_by(&[(Seq(5), Seq(3)), (Seq(7), Seq(5)), (Seq(9), Seq(7))]),
        BTreeSet::from([Seq(7), Seq(3)])
    );
    assert_eq!(
        crate::state::undone_by(&[(Seq(5), Seq(3)), (Seq(6), Seq(4))]),
        BTreeSet::from([Seq(3), Seq(4)])
    );
}

fn hurt(amount: u32) -> Event {
    Event::DamageTaken {
        character: "Aldric".into(),
        amount,
        reason: None,
    }
}

fn amended(seq: Seq, amount: u32) -> Event {
    Event::Amended {
        seq,
        event: Box::new(hurt(amount)),
        changed: vec![format!("amount: 1 → {amount}")],
        outcome_changed: true,
    }
}

fn retracted(seq: Seq) -> Event {
    Event::Retracted {
        seq,
        reason: "a slip".into(),
        roll: None,
        restores: None,
    }
}

fn aldrics_health(log: &[Event]) -> u32 {
    given(log)
        .character("Aldric")
        .unwrap()
        .health
        .unwrap()
        .current
}

/// Replay reads the newest amendment in force in its original's place; undoing an amendment
/// falls back to the one before it (or the original), and undoing the original drops them all.
#[test]
fn c3_given_amendments_when_replayed_then_the_newest_in_force_stands_in_the_originals_place() {
    // #3 takes 1 of Aldric's 8; #4 amends it to 2, #5 to 3.
    let mut log = vec![created(), adg("Aldric", 8), hurt(1), amended(Seq(3), 2)];
    assert_eq!(aldrics_health(&log), 6);
    log.push(amended(Seq(3), 3));
    assert_eq!(aldrics_health(&log), 5);
    // #6 undoes #5: #4's 2 stands again.
    log.push(retracted(Seq(5)));
    assert_eq!(aldrics_health(&log), 6);
    // #7 undoes #4 too: the original's 1.
    log.push(retracted(Seq(4)));
    assert_eq!(aldrics_health(&log), 7);
    // #8 undoes #6, bringing #5 back; #9 undoes the original, and nothing of it stands.
    log.push(retracted(Seq(6)));
    assert_eq!(aldrics_health(&log), 5);
    log.push(retracted(Seq(3)));
    assert_eq!(aldrics_health(&log), 8);
    let state = given(&log);
    assert_eq!(state.amended.get(&Seq(3)), Some(&Seq(5)));
}

/// Down a chain of retractions, undoing the last one brings the first event back: a character
/// whose name another took meanwhile is refused there too, not only one restored directly.
#[test]
fn c2_given_a_chain_of_retractions_when_its_last_link_would_bring_back_a_taken_name_then_refused() {
    let mut log = vec![created(), adg("Ann", 8)];
    // #3 undoes Ann's joining, #4 brings her back, #5 undoes her again.
    then(&mut log, |s, l| retraction(s, Seq(2), l));
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    log.push(adg("ann", 5));
    let state = given(&log);
    assert_eq!(
        when(&state, retraction(&state, Seq(5), &log), vec![]),
        Err(RuleError::RestoreNameTaken {
            seq: Seq(2),
            name: "Ann".into(),
            existing: "ann".into(),
        })
    );
    // Undoing the newcomer first lets the first Ann come back.
    then(&mut log, |s, l| retraction(s, Seq(6), l));
    then(&mut log, |s, l| retraction(s, Seq(5), l));
    let state = given(&log);
    assert_eq!(state.character("ann").unwrap().name, "Ann");
    assert_eq!(state.character("ann").unwrap().health.unwrap().max, 8);
}

/// C-3 with C-2: a name fixed by an amendment is free for another; undoing the amendment would
/// give the first character its old name back, held by the other now: refused.
#[test]
fn c3_given_a_renamed_character_and_another_under_the_old_name_when_the_amendment_is_retracted_then_refused()
 {
    let mut log = vec![
        created(),
        adg("Bob", 8),
        Event::Amended {
            seq: Seq(2),
            event: Box::new(adg("Bobby", 8)),
            changed: vec!["name: Bob → Bobby".into()],
            outcome_changed: true,
        },
        adg("BOB", 5),
    ];
    let state = given(&log);
    assert_eq!(state.characters.len(), 2, "Bobby and BOB are both in play");
    assert_eq!(
        when(&state, retraction(&state, Seq(3), &log), vec![]),
        Err(RuleError::RestoreNameTaken {
            seq: Seq(2),
            name: "Bob".into(),
            existing: "BOB".into(),
        })
    );
    // With BOB gone, the amendment comes off and Bob is Bob again.
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    assert_eq!(given(&log).character("bob").unwrap().health.unwrap().max, 8);
}

/// Restoring a character whose name another has taken since would say "restored" and change
/// nothing (the campaign keeps one character per name): it is refused, naming who holds the name.
#[test]
fn c2_given_a_retracted_character_whose_name_was_taken_when_restored_then_refused() {
    let mut log = vec![created(), adg("Aldric", 8)];
    then(&mut log, |s, l| retraction(s, Seq(2), l));
    log.push(adg("ALDRIC", 5));
    let state = given(&log);
    assert_eq!(
        when(&state, retraction(&state, Seq(3), &log), vec![]),
        Err(RuleError::RestoreNameTaken {
            seq: Seq(2),
            name: "Aldric".into(),
            existing: "ALDRIC".into(),
        })
    );
    // With the newcomer's joining retracted in turn, the first Aldric comes back as said.
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    let state = given(&log);
    assert_eq!(state.character("aldric").unwrap().name, "Aldric");
    assert_eq!(state.character("aldric").unwrap().health.unwrap().max, 8);
}

#[test]
fn c2_given_retracted_damage_when_its_retraction_is_retracted_then_the_damage_counts_again() {
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        Event::DamageTaken {
            character: "Aldric".into(),
            amount: 3,
            reason: None,
        },
    ];
    let health = |log: &[Event]| {
        given(log)
            .character("Aldric")
            .unwrap()
            .health
            .unwrap()
            .current
    };
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    assert_eq!(health(&log), 8);
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    assert_eq!(health(&log), 5, "restored");
    let state = given(&log);
    assert!(matches!(
        &log[4],
        Event::Retracted {
            seq: Seq(4),
            restores: Some(Seq(3)),
            ..
        }
    ));
    assert_eq!(state.restored.get(&Seq(3)), Some(&Seq(5)));
    assert!(!state.retracted.contains_key(&Seq(3)) && state.retracted.contains_key(&Seq(4)));
    // Undoing the restore undoes the damage again, and leaves the first retraction in force, so
    // it may be undone once more.
    then(&mut log, |s, l| retraction(s, Seq(5), l));
    assert_eq!(health(&log), 8);
    let state = given(&log);
    // The retraction of the damage is what comes back now.
    assert_eq!(state.restored, BTreeMap::from([(Seq(4), Seq(6))]));
    assert!(state.retracted.contains_key(&Seq(3)));
    assert_eq!(
        when(&state, retraction(&state, Seq(5), &log), vec![]),
        Err(RuleError::AlreadyRetracted(Seq(5), "a mistake".into()))
    );
    assert!(matches!(
        when(&state, retraction(&state, Seq(4), &log), vec![]).as_deref(),
        Ok([Event::Retracted {
            restores: Some(Seq(3)),
            ..
        }])
    ));
}

fn free_roll(character: Option<&str>, face: u32) -> Event {
    use crate::dice::{Die, Provenance};
    Event::DiceRolled {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        dice: vec![Die {
            n: 0,
            purpose: "d20".into(),
            sides: 20,
            value: Some(face),
            provenance: Provenance::Entered,
        }],
        total: Some(i64::from(face)),
        character: character.map(str::to_string),
    }
}

/// The marks C-2 computes for `log`: each marked roll with the retracted rolls it follows.
fn reroll_marks(log: &[Event]) -> Vec<(u64, Vec<u64>)> {
    let state = given(log);
    let marks = state.rerolls.iter();
    marks
        .map(|(seq, after)| (seq.get(), after.iter().map(|a| a.get()).collect()))
        .collect()
}

#[test]
fn c2_given_a_retracted_roll_when_any_roll_follows_then_it_is_marked_even_if_the_retraction_is_undone()
 {
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        adg("Bryn", 8),
        free_roll(Some("Aldric"), 2),
    ];
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    assert!(matches!(
        &log[4],
        Event::Retracted { roll: Some(roll), .. } if roll.kind == "dice_rolled" && roll.characters == ["Aldric"]
    ));
    // The next roll is marked whatever it names: a roll "for Bryn", or one naming no one, may be
    // the same roll made again under other words.
    log.push(Event::ClockAdvanced {
        by: crate::time::GameDuration(60),
    });
    log.push(free_roll(Some("Bryn"), 11));
    log.push(free_roll(None, 19));
    // #6 rolls nothing, and only the first roll after the retraction is marked.
    assert_eq!(reroll_marks(&log), [(7, vec![4])]);
    // The table restores the first roll: the second stays marked, and the first is marked restored.
    then(&mut log, |s, l| retraction(s, Seq(5), l));
    assert_eq!(reroll_marks(&log), [(7, vec![4])]);
    assert_eq!(given(&log).restored.get(&Seq(4)), Some(&Seq(9)));
}

/// C-2: rolling twice and then retracting the first keeps the second, chosen after seeing both: the
/// second is marked as rolled after the first, though the retraction came later.
#[test]
fn c2_given_two_rolls_when_the_first_is_retracted_then_the_second_and_the_next_are_marked() {
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        free_roll(None, 16),
        free_roll(None, 19),
    ];
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    assert_eq!(reroll_marks(&log), [(4, vec![3])]);
    // The first roll after the retraction is marked too; the one after it is an ordinary roll.
    log.push(free_roll(None, 2));
    log.push(free_roll(None, 5));
    assert_eq!(reroll_marks(&log), [(4, vec![3]), (6, vec![3])]);
}

/// C-2: the dodge. Roll A, roll something else, retract A, roll A again: every roll between A and
/// its retraction in A's session is marked, and so is the first roll after the retraction, so the
/// roll made again cannot hide behind the one between.
#[test]
fn c2_given_a_roll_between_a_retracted_roll_and_its_retraction_when_the_roll_is_made_again_then_both_are_marked()
 {
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        free_roll(Some("Aldric"), 2),
        free_roll(None, 9),
        free_roll(None, 11),
    ];
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    log.push(free_roll(Some("Aldric"), 18));
    assert_eq!(
        reroll_marks(&log),
        [(4, vec![3]), (5, vec![3]), (7, vec![3])]
    );
}

/// C-2: the span stops at the session's edge: rolls of a later session were not made while the
/// retracted one stood in play, and only the first roll after the retraction is marked then.
#[test]
fn c2_given_a_roll_retracted_in_a_later_session_when_marked_then_rolls_of_other_sessions_are_not() {
    let session = |number| Event::SessionStarted {
        number,
        entropy: "".into(),
    };
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        session(1),
        free_roll(None, 3),
        free_roll(None, 4),
        Event::SessionEnded { number: 1 },
        free_roll(None, 5),
        session(2),
        free_roll(None, 6),
    ];
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    log.push(free_roll(None, 7));
    assert_eq!(reroll_marks(&log), [(5, vec![4]), (11, vec![4])]);
}

#[test]
fn c2_given_two_retracted_rolls_when_one_roll_follows_then_it_names_both_and_settles_them() {
    let mut log = vec![
        created(),
        adg("Aldric", 8),
        free_roll(Some("Aldric"), 2),
        free_roll(None, 3),
    ];
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    then(&mut log, |s, l| retraction(s, Seq(4), l));
    log.push(free_roll(None, 20));
    log.push(free_roll(None, 1));
    // #4 came after #3 in its session; #7 is the first roll after both retractions.
    assert_eq!(reroll_marks(&log), [(4, vec![3]), (7, vec![3, 4])]);
}

/// The GM reveals epoch 1's seed (`[7; 32]`), starting epoch 2: withheld while a sealed roll from
/// it waits.
fn reveal_epoch_one(log: &mut Vec<Event>) {
    then(log, |_, _| Command::RevealSeed {
        seed: Some([7u8; 32]),
        sealed_seed: None,
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
    });
}

/// Epoch 1's seed published at last.
fn publish_epoch_one(log: &mut Vec<Event>) {
    log.push(Event::SeedRevealed {
        epoch: 1,
        seed: hex::encode([7u8; 32]),
    });
}

#[test]
fn c2_given_a_retracted_sealed_roll_when_its_seed_is_published_then_restoring_it_is_refused() {
    let sealed_roll = sealed_seeded_roll();
    let mut log = vec![created(), sealed_roll];
    then(&mut log, |s, l| retraction(s, Seq(2), l));
    // While epoch 1 lasts, its seed is secret: the roll may come back.
    let restore = |state: &CampaignState, log: &[Event]| retraction(state, Seq(3), log);
    assert!(when(&given(&log), restore(&given(&log), &log), vec![]).is_ok());
    // Retracted, the roll still waits to be revealed, so the seed is withheld for it (C-2)...
    reveal_epoch_one(&mut log);
    assert!(
        matches!(&log[3], Event::SeedWithheld { epoch: 1, until } if until == &vec![2]),
        "{:?}",
        log[3]
    );
    assert!(when(&given(&log), restore(&given(&log), &log), vec![]).is_ok());
    // ...and once the seed is out (the roll revealed), bringing the roll back is refused.
    publish_epoch_one(&mut log);
    assert_eq!(
        when(&given(&log), restore(&given(&log), &log), vec![]),
        Err(RuleError::RestoreWouldOpenSeal {
            seq: Seq(2),
            epoch: 1
        })
    );
}

#[test]
fn c2_given_a_chain_of_retractions_when_its_last_link_would_bring_back_a_roll_from_a_published_seed_then_refused()
 {
    let mut log = vec![created(), sealed_seeded_roll()];
    // The roll undone (#3), brought back (#4), undone again (#5): each link undoes the one before.
    for undo in [2, 3, 4] {
        then(&mut log, |s, l| retraction(s, Seq(undo), l));
    }
    let restore = |state: &CampaignState, log: &[Event]| retraction(state, Seq(5), log);
    assert!(when(&given(&log), restore(&given(&log), &log), vec![]).is_ok());
    reveal_epoch_one(&mut log);
    publish_epoch_one(&mut log);
    // Undoing #5 brings #4 back, which undoes #3, which brings the roll back: refused, naming it.
    assert_eq!(
        when(&given(&log), restore(&given(&log), &log), vec![]),
        Err(RuleError::RestoreWouldOpenSeal {
            seq: Seq(2),
            epoch: 1
        })
    );
    // Undoing #4 instead would keep the roll undone: #3 comes back and undoes it once more.
    let mut shorter = log[..4].to_vec();
    shorter.extend_from_slice(&log[5..]);
    let keeps_it_undone = |state: &CampaignState, log: &[Event]| retraction(state, Seq(4), log);
    assert!(
        when(
            &given(&shorter),
            keeps_it_undone(&given(&shorter), &shorter),
            vec![]
        )
        .is_ok()
    );
}

#[test]
fn c2_given_an_event_naming_someone_who_is_no_character_then_only_the_characters_are_taken() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let roll = free_roll(Some("aldric"), 4);
    let named: Vec<&str> = state
        .characters_named(&roll)
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(named, ["Aldric"], "the name as the campaign holds it");
    let stranger = Event::DamageTaken {
        character: "the rat".into(),
        amount: 1,
        reason: None,
    };
    assert!(state.characters_named(&stranger).is_empty());
}

fn fight(step: FightStep) -> Command {
    Command::Fight(step)
}

fn start_fight(name: Option<&str>) -> Command {
    fight(FightStep::Start {
        name: name.map(str::to_string),
    })
}

fn clock_by(by: &str) -> Event {
    Event::ClockAdvanced {
        by: GameDuration::parse(by).unwrap(),
    }
}

#[test]
fn t3_a_fight_counts_its_rounds_from_the_clock_it_began_at() {
    // The clock stands at 08:00 +7r: round 1 begins there, not at a round of the minute.
    let mut log = vec![created(), adg("Aldric", 8), clock_by("8h7r")];
    then(&mut log, |_, _| start_fight(Some("  at the bridge ")));
    assert_eq!(
        log.last(),
        Some(&Event::FightStarted {
            number: 1,
            name: Some("at the bridge".into())
        })
    );
    let began = given(&log).clock;
    then(&mut log, |_, _| fight(FightStep::NextRound));
    then(&mut log, |_, _| fight(FightStep::NextRound));
    assert_eq!(
        log.last(),
        Some(&Event::RoundBegan {
            fight: "the fight at the bridge".into(),
            round: 3
        })
    );
    let state = given(&log);
    // Two rounds of 6 seconds.
    assert_eq!(state.clock.seconds(), began.seconds() + 12);
    assert_eq!(
        state.clock_text(),
        "Day 1, 08:00, round 3 of the fight at the bridge"
    );
    // A time advance inside the fight moves its round too: 2 rounds more is round 5.
    log.push(clock_by("2r"));
    then(&mut log, |_, _| fight(FightStep::End));
    assert_eq!(
        log.last(),
        Some(&Event::FightEnded {
            fight: "the fight at the bridge".into(),
            rounds: 5
        })
    );
    let after = given(&log);
    // The last round runs out: 5 rounds of 6 seconds after the start.
    assert_eq!(after.clock.seconds(), began.seconds() + 30);
    assert!(after.fight.is_none());
    // Once it has ended, its rounds do not linger on the clock (T-1).
    assert_eq!(after.clock_text(), "Day 1, 08:01");
    // The next one is fight 2, known by its number when not named.
    then(&mut log, |_, _| start_fight(Some("   ")));
    assert_eq!(
        log.last(),
        Some(&Event::FightStarted {
            number: 2,
            name: None
        })
    );
    assert_eq!(given(&log).fight.unwrap().words(), "fight 2");
}

#[test]
fn t3_one_fight_at_a_time_and_rests_wait_for_its_end() {
    let mut log = vec![created(), adg("Aldric", 8)];
    let calm = given(&log);
    for step in [FightStep::NextRound, FightStep::End] {
        assert_eq!(when(&calm, fight(step), vec![]), Err(RuleError::NoFight));
    }
    then(&mut log, |_, _| start_fight(Some("at the bridge")));
    then(&mut log, |_, _| fight(FightStep::NextRound));
    let on = given(&log);
    let under_way = "the fight at the bridge (round 2)".to_string();
    assert_eq!(
        when(&on, start_fight(None), vec![]),
        Err(RuleError::FightOn(under_way.clone()))
    );
    assert_eq!(
        when(&on, Command::Rest(Resting::night(&["Aldric"])), vec![3]),
        Err(RuleError::InAFight(under_way.clone()))
    );
    let span = DowntimeWeeks {
        characters: vec!["Aldric".into()],
        party: false,
        weeks: 1,
        plan: Vec::new(),
    };
    assert_eq!(
        when(&on, Command::Downtime(span), vec![1; 7]),
        Err(RuleError::InAFight(under_way))
    );
    // A session may end with the fight still on: it is taken up in the next.
    then(&mut log, |_, _| {
        Command::StartSession(SessionStart {
            entropy: "owls".into(),
        })
    });
    then(&mut log, |_, _| Command::EndSession);
    assert_eq!(given(&log).fight.map(|f| f.number), Some(1));
}

#[test]
fn t3_c2_retracting_a_fights_events_is_as_if_they_were_never_recorded() {
    let mut log = vec![created(), adg("Aldric", 8)];
    then(&mut log, |_, _| start_fight(Some("at the bridge"))); // #3
    then(&mut log, |_, _| fight(FightStep::NextRound)); // #4
    then(&mut log, |_, _| fight(FightStep::End)); // #5
    let ended = given(&log).clock;
    // The end undone: the fight is on again, in round 2, and the clock one round back.
    then(&mut log, |s, l| retraction(s, Seq(5), l)); // #6
    let reopened = given(&log);
    assert_eq!(reopened.clock.seconds(), ended.seconds() - 6);
    assert_eq!(
        reopened.fight.as_ref().map(|f| f.round_at(reopened.clock)),
        Some(2)
    );
    // The start undone: no fight, and its round stays a plain move of the clock.
    then(&mut log, |s, l| retraction(s, Seq(3), l));
    let undone = given(&log);
    assert!(undone.fight.is_none());
    assert_eq!(undone.clock.seconds(), 6);
    assert_eq!(
        when(&undone, fight(FightStep::NextRound), vec![]),
        Err(RuleError::NoFight)
    );
}

#[test]
fn t3_given_a_round_in_which_an_event_stands_when_its_next_is_retracted_then_refused_until_that_event_is_undone()
 {
    let mut log = vec![created(), adg("Aldric", 8)];
    then(&mut log, |_, _| start_fight(None)); // #3
    then(&mut log, |_, _| fight(FightStep::NextRound)); // #4
    log.push(Event::DamageTaken {
        character: "Aldric".into(),
        amount: 2,
        reason: None,
    }); // #5
    let state = given(&log);
    assert_eq!(
        when(&state, retraction(&state, Seq(4), &log), vec![]),
        Err(RuleError::RoundActedIn {
            round: Seq(4),
            standing: Seq(5)
        })
    );
    then(&mut log, |s, l| retraction(s, Seq(5), l)); // #6
    then(&mut log, |s, l| retraction(s, Seq(4), l)); // #7
    let undone = given(&log);
    assert_eq!(
        undone.fight.as_ref().map(|f| f.round_at(undone.clock)),
        Some(1),
        "the round is undone once nothing stands in it"
    );
}

#[test]
fn t3_given_a_fight_when_the_clock_would_reach_an_hour_from_its_start_then_refused_however_it_is_moved()
 {
    let mut log = vec![created(), adg("Aldric", 8)];
    then(&mut log, |_, _| start_fight(Some("at the bridge")));
    let advance = |by: &str| {
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration::parse(by).unwrap(),
        })
    };
    then(&mut log, |_, _| advance("59m"));
    // Round 600 is the last: 59 minutes and 9 rounds more begin it.
    for _ in 0..9 {
        then(&mut log, |_, _| fight(FightStep::NextRound));
    }
    let last = given(&log);
    assert_eq!(
        last.fight.as_ref().map(|f| f.round_at(last.clock)),
        Some(600)
    );
    for refused in [fight(FightStep::NextRound), advance("59m"), advance("1r")] {
        assert!(
            matches!(
                when(&last, refused, vec![]),
                Err(RuleError::FightTooLong(_))
            ),
            "the clock may not pass an hour of the fight"
        );
    }
    then(&mut log, |_, _| fight(FightStep::End));
    let ended = given(&log);
    assert!(
        when(&ended, advance("2h"), vec![]).is_ok(),
        "ended, the clock moves on"
    );
}

#[test]
fn t3_the_round_keeps_who_took_damage_and_forgets_it_when_the_next_begins() {
    let mut log = vec![created(), adg("Aldric", 8), adg("Bea", 6)];
    then(&mut log, |_, _| start_fight(None));
    for amount in [2, 3] {
        log.push(Event::DamageTaken {
            character: "aldric".into(),
            amount,
            reason: None,
        });
    }
    let state = given(&log);
    let round = &state.round;
    // 2 + 3 recorded against Aldric this round, under any case of his name; none against Bea.
    assert_eq!(
        round.damage_this_round(state.clock, &crate::words::Folded::of("ALDRIC")),
        5
    );
    assert_eq!(
        round.damage_this_round(state.clock, &crate::words::Folded::of("Bea")),
        0
    );
    then(&mut log, |_, _| fight(FightStep::NextRound));
    let next = given(&log);
    assert_eq!(next.round.turns_at(next.clock).count(), 0);
    assert_eq!(
        next.round
            .damage_this_round(next.clock, &crate::words::Folded::of("Aldric")),
        0
    );
}

#[test]
fn t1_t3_every_event_is_said_in_its_fights_round_and_none_outside_a_fight() {
    // Given a fight at the bridge of three rounds, between a quiet hour and a quiet minute.
    let mut log = vec![created(), clock_by("1h")];
    then(&mut log, |_, _| start_fight(Some("at the bridge")));
    then(&mut log, |_, _| fight(FightStep::NextRound));
    log.push(clock_by("1r"));
    then(&mut log, |_, _| fight(FightStep::End));
    log.push(clock_by("2r"));
    // When the events are read back, with the state after them all,
    let state = given(&log);
    // Each event is stamped with the clock as it stood before it.
    let stamps: Vec<(Seq, crate::time::GameTime)> = (0..log.len())
        .map(|i| (Seq(i as u64 + 1), given(&log[..i]).clock))
        .collect();
    let when: Vec<String> = (stamps.iter())
        .map(|&(seq, at)| state.time_of(seq, at))
        .collect();
    // Then those from the fight's start to its end name its round, the others only the clock.
    assert_eq!(
        when,
        [
            "Day 1, 00:00",
            "Day 1, 00:00",
            "Day 1, 01:00, round 1 of the fight at the bridge",
            // A round's beginning is stamped at the close of the round before it.
            "Day 1, 01:00, round 1 of the fight at the bridge",
            "Day 1, 01:00, round 2 of the fight at the bridge",
            "Day 1, 01:00, round 3 of the fight at the bridge",
            "Day 1, 01:00",
        ]
    );
    assert_eq!(
        state.time_of_in_column(stamps[5].0, stamps[5].1),
        "Day 1, 01:00, round 3"
    );
    // And the clock now, with the fight over, carries no round.
    assert_eq!(state.clock_text(), "Day 1, 01:00");
}

#[test]
fn t3_t1_what_waits_on_the_clock_is_said_in_the_fights_rounds() {
    let mut log = vec![created(), clock_by("1h")];
    let calm = given(&log);
    // Out of a fight: the clock to the minute, and the time left in rounds or minutes.
    let soon = calm.clock.after(GameDuration::parse("3r").unwrap());
    assert_eq!(calm.until_words(soon), "Day 1, 01:00 (3 more rounds)");
    let hour = calm.clock.after(GameDuration::parse("1h").unwrap());
    assert_eq!(calm.until_words(hour), "Day 1, 02:00 (1 h)");
    assert_eq!(
        calm.end_of_round_words(calm.clock.seconds() / 6 + 2),
        "at the end of the round 2 rounds from now"
    );
    then(&mut log, |_, _| start_fight(Some("at the bridge")));
    then(&mut log, |_, _| fight(FightStep::NextRound));
    let on = given(&log);
    // Now in round 2: a condition to the start of round 5 has 3 more rounds; 10 seconds left is
    // 2 rounds, the second cut short.
    let three = on.clock.after(GameDuration::parse("3r").unwrap());
    assert_eq!(
        on.until_words(three),
        "round 5 of the fight (3 more rounds)"
    );
    assert_eq!(
        on.until_words(crate::time::GameTime(on.clock.seconds() + 10)),
        "round 3 of the fight (2 more rounds)"
    );
    // Past the minute, by the clock with the time left: a ten-minute spell is not round 101.
    let ten = on.clock.after(GameDuration::parse("10m").unwrap());
    assert_eq!(on.until_words(ten), "Day 1, 01:10 (10 min)");
    let later = on.clock.after(GameDuration::parse("1d1h30m").unwrap());
    assert_eq!(on.until_words(later), "Day 2, 02:30 (1 day 1 h 30 min)");
    let now = on.clock.seconds() / 6;
    assert_eq!(on.end_of_round_words(now), "at the end of this round");
    assert_eq!(
        on.end_of_round_words(now + 2),
        "at the end of round 4 of the fight, 2 rounds from now"
    );
}

#[test]
fn c2_a_retracted_sealed_roll_still_waits_to_be_revealed_and_holds_its_seed_back() {
    let mut w = crate::testkit::Log::campaign();
    let sealed = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: Some("an ambush?".into()),
        sealed: true,
        character: None,
    });
    w.then(sealed, &[17]);
    let seq = w.seq();
    let retract = |w: &crate::testkit::Log| {
        let state = w.state();
        retraction(&state, seq, &w.events())
    };
    w.then(retract(&w), &[]);
    // Retracted, it still waits to be revealed.
    assert!(w.state().sealed_pending.contains_key(&seq));
    let events = w.then(
        Command::RevealSealed(SealedReveal {
            seq,
            secrets: Vec::new(),
        }),
        &[],
    );
    assert!(matches!(
        &events[..],
        [Event::SealedRevealed { dice, .. }] if dice[0].value == 17
    ));
    assert!(w.state().sealed_pending.is_empty());
}
