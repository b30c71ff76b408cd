//! Retractions and amendments (C-2, C-3): what replay passes over, what comes back, what is marked.

use super::*;

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
