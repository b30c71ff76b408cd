//! Dice epochs and their seeds, sealed rolls and their reveals (ADG-S4, C-2).

use super::*;

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
