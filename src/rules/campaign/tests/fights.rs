//! Fights by the round, and the clock read in them (T-1, T-3).

use super::*;

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
