//! Fights by the round at the command line (docs/rules.md T-3): what the GM types and reads.

use crate::support::{Campaign, learning};

#[test]
fn t3_a_fight_is_counted_by_the_round_and_shows_who_did_what() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    let scroll = c.write_scroll("Aldric", "Concealing Darkness", "a shadow hides the door");
    c.mira_learns_ember("2");
    // 7 rounds into the minute: round 1 begins there all the same.
    c.ok(&["time", "advance", "1h7r"]);
    let started = c.ok(&["fight", "start", "at the bridge"]);
    assert!(
        started.contains("the fight at the bridge begins: round 1\n")
            && started.contains(", round 1 of the fight at the bridge."),
        "{started}"
    );
    c.ok(&["damage", "Aldric", "2", "--reason", "a ghoul's claw"]);
    // Read in the fight: in combat without --in-combat, so it goes last; then Mira concentrates.
    c.ok(&["scroll", "read", "Aldric", &format!("S{scroll}")]);
    c.ok(&["spell", "concentrate", "Mira", "Ember"]);
    let shown = c.ok(&["fight", "show"]);
    assert!(
        shown.contains(&format!(
            "This round:\n  Mira: concentrates on Ember\n  Aldric: read scroll S{scroll}, took 2 damage (acts last this round)\n"
        )),
        "a scroll reader in combat is shown last: {shown}"
    );
    assert!(!shown.contains("Yet to act"), "{shown}");
    let reading = c.json(&[
        "explain",
        &c.json(&["log", "--kind", "scroll_read", "--limit", "1"])["events"][0]["seq"].to_string(),
    ]);
    assert_eq!(
        reading["event"]["payload"]["reading"]["in_combat"], true,
        "{reading}"
    );

    let next = c.ok(&["next"]);
    assert!(
        next.contains("round 2 of the fight at the bridge begins\n"),
        "{next}"
    );
    let json = c.json(&["fight", "show"]);
    assert_eq!(json["fight"]["round"], 2);
    assert_eq!(json["fight"]["this_round"], serde_json::json!([]));
    assert_eq!(
        json["fight"]["yet_to_act"],
        serde_json::json!(["Aldric", "Mira"])
    );

    // One fight at a time, and rests wait for its end; each refusal says what to type.
    let again = c.refused(&["fight", "start"], 1);
    assert!(
        again.contains("the fight at the bridge (round 2) is under way")
            && again.contains("`grimoire fight end`"),
        "{again}"
    );
    let rest = c.refused(&["rest", "--night", "--party"], 1);
    assert!(
        rest.contains("is under way, and what takes hours or more (a rest,"),
        "{rest}"
    );

    let ended = c.ok(&["fight", "end"]);
    assert!(
        ended.contains("the fight at the bridge ends after 2 rounds"),
        "{ended}"
    );
    let none = c.refused(&["next"], 1);
    assert!(
        none.contains("no fight is under way; begin one with `grimoire fight start`"),
        "{none}"
    );
    assert!(
        c.ok(&["fight", "show"])
            .contains("No fight is under way (1 fight fought so far).")
    );
    // Two rounds lasted two rounds of the clock: one as round 2 began, one as it ran out. Once
    // the fight is over, its rounds do not linger on the clock (T-1).
    let time = c.json(&["time", "show"]);
    assert_eq!(time["fight"], serde_json::Value::Null);
    assert_eq!(
        time["game_time"].as_u64().map(|s| s % 60),
        Some(54),
        "{time}"
    );
    assert_eq!(time["game_time_text"], "Day 8, 01:00", "{time}");
    // Every event from the fight's start to its end is logged in its round; the others not.
    let after = c.seq_of(&["damage", "Mira", "1"]);
    let log = c.ok(&["log", "--from", "#8"]);
    let line = |what: &str| {
        (log.lines())
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no line with {what}: {log}"))
            .to_string()
    };
    assert!(
        line("begins: round 1").contains("Day 8, 01:00, round 1 "),
        "{log}"
    );
    assert!(
        line("a ghoul's claw").contains("Day 8, 01:00, round 1 "),
        "{log}"
    );
    assert!(
        line("ends after 2 rounds").contains("Day 8, 01:00, round 2 "),
        "{log}"
    );
    assert!(!line(&format!("#{after} ")).contains("round"), "{log}");
    let json = c.json(&["log", "--kind", "fight_ended"]);
    assert_eq!(
        json["events"][0]["game_time_text"],
        "Day 8, 01:00, round 2 of the fight at the bridge"
    );
    let explained = c.ok(&["explain", &json["events"][0]["seq"].to_string()]);
    assert!(
        explained.contains("in-game Day 8, 01:00, round 2 of the fight at the bridge\n"),
        "{explained}"
    );
}

#[test]
fn t3_a_point_in_a_past_fight_shows_its_round_then() {
    let c = Campaign::with_party();
    c.ok(&["fight", "start"]);
    let second = c.seq_of(&["next"]);
    c.ok(&["next"]);
    c.ok(&["fight", "end"]);
    let then = c.ok(&["fight", "show", "--at", &second.to_string()]);
    assert!(then.starts_with("Fight 1: round 2,"), "{then}");
    let sheet = c.ok(&["character", "show", "Mira", "--at", &second.to_string()]);
    assert!(sheet.contains("round 2 of fight 1"), "{sheet}");
}

/// From the hostile pass over fights: what takes hours waits for the fight's end, each ADG
/// character acts once a round, and a fight's events are retracted newest first, so no rest lands
/// inside a fight and no two fights overlap.
#[test]
fn t3_c2_what_takes_hours_waits_one_action_a_round_and_fight_events_retract_newest_first() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    c.ok(&["fight", "start", "at the gate"]);
    let first_round = c.seq_of(&["next"]).to_string();
    c.ok(&["next"]);
    for (args, code) in [
        (vec!["time", "advance", "1h"], 1),
        (
            vec![
                "scroll",
                "write",
                "Aldric",
                "Concealing Darkness",
                "--level",
                "1",
                "--effect",
                "hides",
            ],
            1,
        ),
        (vec!["rest", "--night", "--party"], 1),
    ] {
        let refused = c.refused(&args, code);
        assert!(
            refused.contains("the fight at the gate (round 3) is under way"),
            "{args:?}: {refused}"
        );
    }
    c.ok(&["time", "advance", "2r"]);
    c.ok(&[
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    let twice = c.refused(
        &[
            "--rolls",
            "5",
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
        ],
        1,
    );
    assert!(
        twice.contains("Aldric has already acted this round"),
        "{twice}"
    );
    // Not the second of three rounds begun: a later one follows it.
    let built_on = c.refused(&["retract", &first_round, "--reason", "typed twice"], 1);
    assert!(
        built_on.contains("a fight's events are undone newest first"),
        "{built_on}"
    );
    let end = c.seq_of(&["fight", "end"]).to_string();
    c.ok(&["rest", "--night", "--party"]);
    let reopen = c.refused(&["retract", &end, "--reason", "not over"], 1);
    assert!(reopen.contains("newest first"), "{reopen}");
    // The newest may go: a new fight's start, undone at once.
    let again = c.seq_of(&["fight", "start"]).to_string();
    c.ok(&["retract", &again, "--reason", "no fight after all"]);
    assert!(
        c.ok(&["fight", "show"])
            .starts_with("No fight is under way")
    );
}

/// From the second hostile pass: the order holds down a chain of retractions, and hours recorded
/// after a fight's end keep it ended.
#[test]
fn t3_c2_a_chain_of_retractions_or_hours_after_the_end_cannot_reopen_a_fight() {
    let c = Campaign::with_party();
    c.ok(&["fight", "start"]);
    c.ok(&["next"]);
    let third = c.seq_of(&["next"]);
    let undo = c.seq_of(&["retract", &third.to_string(), "--reason", "b"]);
    let redo = c.seq_of(&["retract", &undo.to_string(), "--reason", "r"]);
    let undo_again = c.seq_of(&["retract", &redo.to_string(), "--reason", "r2"]);
    c.ok(&["fight", "end"]);
    // Undoing the last retraction would bring round 3 back inside a fight already ended.
    let chain = c.refused(&["retract", &undo_again.to_string(), "--reason", "x"], 1);
    assert!(
        chain.contains("a fight's events are undone newest first"),
        "{chain}"
    );
    c.ok(&["fight", "start", "at the gate"]);
    let end = c.seq_of(&["fight", "end"]).to_string();
    c.ok(&["time", "advance", "3h"]);
    let reopen = c.refused(&["retract", &end, "--reason", "not over"], 1);
    assert!(reopen.contains("newest first"), "{reopen}");
}

/// From the third hostile pass: newest first means what is retracted already no longer stands in
/// the way, so a mistaken fight comes off round by round, down to its start.
#[test]
fn t3_c2_a_fight_comes_off_newest_first_down_to_its_start() {
    let c = Campaign::with_party();
    let start = c.seq_of(&["fight", "start", "one"]);
    let second = c.seq_of(&["next"]);
    let third = c.seq_of(&["next"]);
    let end = c.seq_of(&["fight", "end"]);
    for seq in [end, third, second, start] {
        c.ok(&[
            "retract",
            &seq.to_string(),
            "--reason",
            "no fight after all",
        ]);
    }
    assert!(
        c.ok(&["fight", "show"])
            .starts_with("No fight is under way")
    );
    // Undone, the fight moved the clock nowhere.
    assert_eq!(c.json(&["time", "show"])["game_time"], 0);
}

/// One turn a round holds through retractions: a cast retracted, cast again in the same round,
/// cannot be restored beside the second (two turns in one round); with the second retracted it
/// can. Outside a fight the same restoration is plain C-2.
#[test]
fn t3_c2_restoring_a_turn_taken_again_in_its_round_is_refused() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    let cast = [
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ];
    c.ok(&["fight", "start", "at the gate"]);
    let first = c.seq_of(&cast).to_string();
    let undo = c
        .seq_of(&["retract", &first, "--reason", "wrong ritual"])
        .to_string();
    let second = c.seq_of(&cast).to_string();
    let refused = c.refused(&["retract", &undo, "--reason", "it was right"], 1);
    assert!(
        refused.contains(&format!(
            "#{second} is an action of Aldric's in a round in which Aldric also acts at #{first}"
        )),
        "{refused}"
    );
    c.ok(&["retract", &second, "--reason", "cast twice"]);
    c.ok(&["retract", &undo, "--reason", "it was right"]);
    let shown = c.ok(&["fight", "show"]);
    assert_eq!(shown.matches("Concealing Darkness").count(), 1, "{shown}");
    c.ok(&["fight", "end"]);

    // Out of a fight there is no round to hold one turn.
    let first = c.seq_of(&cast).to_string();
    let undo = c
        .seq_of(&["retract", &first, "--reason", "wrong ritual"])
        .to_string();
    c.ok(&cast);
    c.ok(&["retract", &undo, "--reason", "it was right"]);
}

/// From the hostile pass of issue 44: a round's start is undone only once nothing stands in the
/// round (else the fight's view and the rules disagreed about who had acted), and a fight's clock
/// stops at an hour from its start, however it is moved (repeated advances of 59 minutes once
/// reached round 1782).
#[test]
fn t3_a_round_with_events_in_it_is_not_undone_and_a_fight_stops_at_an_hour() {
    let c = Campaign::with_party();
    c.ok(&["fight", "start", "at the ford"]);
    let round = c.seq_of(&["next"]).to_string();
    let hurt = c
        .seq_of(&["damage", "Aldric", "1", "--reason", "a slip"])
        .to_string();
    let head = c.head();
    let refused = c.refused(&["retract", &round, "--reason", "no second round"], 1);
    assert!(
        refused.contains(&format!(
            "#{round} began a round in which #{hurt} still stands"
        )),
        "{refused}"
    );
    assert_eq!(c.head(), head, "nothing recorded");
    c.ok(&["retract", &hurt, "--reason", "no slip"]);
    c.ok(&["retract", &round, "--reason", "no second round"]);
    assert!(c.ok(&["fight", "show"]).contains("round 1"));

    c.ok(&["time", "advance", "59m"]);
    let head = c.head();
    let refused = c.refused(&["time", "advance", "59m"], 1);
    assert!(
        refused.contains("an hour of the clock (600 rounds)"),
        "{refused}"
    );
    assert_eq!(c.head(), head, "nothing recorded");
    c.ok(&["fight", "end"]);
    c.ok(&["time", "advance", "59m"]);
}

/// From the clause review of issue 45 (item 8), T-3: in a fight, what ends within the minute is
/// said in the fight's rounds, and what lasts longer by the clock with the time left: a ward of
/// ten minutes is not "round 101 of the fight".
#[test]
fn t3_a_ten_minute_spell_in_a_fight_reads_by_the_clock_not_as_round_101() {
    let c = Campaign::with_party();
    c.ok(&crate::support::LEARN_FLAME_WARD);
    c.ok(&["fight", "start", "at the bridge"]);
    // 60 + 45 + 30 (touch) - 10 (improvised) = 125: the ward takes hold for ten minutes.
    c.ok(&[
        "--rolls",
        "60",
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Aldric",
        "--range",
        "touch",
    ]);
    let sheet = c.ok(&["character", "show", "Aldric"]);
    assert!(sheet.contains("until Day 1, 00:10 (10 min)"), "{sheet}");
    assert!(!sheet.contains("round 101"), "{sheet}");
}

/// VSD-3 with T-3 and C-2 (from the hostile pass of issue 45): an instantaneous spell is half an
/// action everywhere the round is counted. `fight show` keeps a caster with half an action left
/// among those yet to act; a retracted half is restored beside another half, not beside a whole
/// action; and since VsD counts a caster's round by the clock, in a fight or not, a cast is not
/// restored outside a fight beside another in its round either.
#[test]
fn vsd3_t3_c2_half_actions_count_in_the_fights_view_and_when_restored() {
    let c = Campaign::with_party();
    c.learns_elemental("Mira", "Spark", "1", true);
    c.learns_elemental("Mira", "Ember", "1", false);
    let cast = |spell: &str| {
        c.seq_of(&[
            "--rolls", "50", "spell", "cast", "Mira", spell, "--target", "orc",
        ])
        .to_string()
    };
    let retract = |seq: &str| {
        c.seq_of(&["retract", seq, "--reason", "a slip"])
            .to_string()
    };
    c.ok(&["fight", "start", "at the mill"]);
    let first = cast("Spark");
    let shown = c.ok(&["fight", "show"]);
    assert!(
        shown.contains("Mira: cast Spark (half an action left)")
            && shown.contains("Yet to act: Aldric, Mira")
            && shown.contains("It is Day 1, 00:00, round 1 of the fight at the mill."),
        "{shown}"
    );
    // The round a half action was taken in is the rules' bookkeeping, not a change to read.
    let diff = c.ok(&["diff", "--from", "1", "--to", &first, "Mira"]);
    assert!(!diff.contains("half action"), "{diff}");
    let second = cast("Spark");
    let shown = c.ok(&["fight", "show"]);
    assert!(
        shown.contains("Yet to act: Aldric\n") || shown.ends_with("Yet to act: Aldric"),
        "{shown}"
    );

    // Two halves make one action: the first, retracted, comes back beside the second.
    let undo = retract(&first);
    c.ok(&["retract", &undo, "--reason", "it stood"]);
    // A half does not come back beside a whole action.
    retract(&first);
    let undo_second = retract(&second);
    let whole = cast("Ember");
    let refused = c.refused(&["retract", &undo_second, "--reason", "it stood"], 1);
    assert!(
        refused.contains(&format!(
            "#{whole} is an action of Mira's in a round in which Mira also acts at #{second}"
        )),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // Out of a fight, VsD still holds a caster to one cast a round of the clock.
    c.ok(&["time", "advance", "1r"]);
    let calm = cast("Ember");
    let undo = retract(&calm);
    let again = cast("Ember");
    let refused = c.refused(&["retract", &undo, "--reason", "it stood"], 1);
    assert!(
        refused.contains(&format!("#{again} is an action of Mira's")),
        "{refused}"
    );
}

/// T-3 (from the hostile pass of issue 45): a fight begun mid-round counts the whole round, so
/// its view and its rules agree: Mira, who cast just before it began, has acted in its round 1,
/// and Aldric, who cast too, may not cast again in it.
#[test]
fn t3_a_fight_begun_mid_round_counts_what_was_done_in_the_round_before_it() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    c.mira_learns_ember("1");
    c.ok(&[
        "--rolls", "50", "spell", "cast", "Mira", "Ember", "--target", "orc",
    ]);
    let ritual = [
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ];
    c.ok(&ritual);
    c.ok(&["fight", "start", "at the mill"]);
    let shown = c.ok(&["fight", "show"]);
    assert!(
        shown.contains("Mira: cast Ember") && shown.contains("Aldric: cast Concealing Darkness"),
        "{shown}"
    );
    assert!(!shown.contains("Yet to act"), "{shown}");
    let again = c.refused(&ritual, 1);
    assert!(again.contains("Aldric"), "{again}");
    c.ok(&["next"]);
    c.ok(&ritual);
}

/// A party for the hostile passes' sequences: Mira (VsD) knows Spark (instantaneous) and Bolt;
/// Aldric (ADG) stands by.
fn mira_with_spark_and_bolt() -> Campaign {
    let c = Campaign::with_party();
    c.learns_elemental("Mira", "Spark", "1", true);
    c.learns_elemental("Mira", "Bolt", "1", false);
    c
}

fn cast(c: &Campaign, spell: &str) -> String {
    c.seq_of(&[
        "--rolls", "50", "spell", "cast", "Mira", spell, "--target", "orc",
    ])
    .to_string()
}

fn retract(c: &Campaign, seq: &str) -> String {
    c.seq_of(&["retract", seq, "--reason", "a slip"])
        .to_string()
}

/// C-3 with VSD-3 (from the hostile pass of issue 45): an action is restored as the amendment in
/// force has it: a half amended into a whole action is a whole one beside a restored half, and a
/// half restored beside it is refused, either way round.
#[test]
fn vsd3_c3_an_action_is_counted_as_its_amendment_has_it_when_another_is_restored() {
    let c = mira_with_spark_and_bolt();
    let first = cast(&c, "Spark");
    let undo = retract(&c, &first);
    let second = cast(&c, "Spark");
    c.ok(&[
        "amend", &second, "--", "spell", "cast", "Mira", "Bolt", "--target", "orc",
    ]);
    let refused = c.refused(&["retract", &undo, "--reason", "it stood"], 1);
    assert!(
        refused.contains(&format!("#{second} is an action of Mira's")),
        "{refused}"
    );

    // The mirror: the restored one is the amended whole action.
    c.ok(&["time", "advance", "1r"]);
    let first = cast(&c, "Spark");
    c.ok(&[
        "amend", &first, "--", "spell", "cast", "Mira", "Bolt", "--target", "orc",
    ]);
    let undo = retract(&c, &first);
    let second = cast(&c, "Spark");
    let refused = c.refused(&["retract", &undo, "--reason", "it stood"], 1);
    assert!(
        refused.contains(&format!("#{second} is an action of Mira's")),
        "{refused}"
    );
}

/// T-1, T-3 (from the hostile pass of issue 45): a clock move (an advance, a round, a fight's
/// end) is not undone or brought back while an action or a fight's start stands after it, since
/// everything after it would be replayed at another time: an action would join the round before,
/// beside what was done there; a fight would begin days earlier.
#[test]
fn t1_t3_a_clock_move_is_not_undone_or_restored_under_what_was_done_after_it() {
    let c = mira_with_spark_and_bolt();
    c.ok(&["fight", "start", "bridge"]);
    cast(&c, "Bolt");
    let advance = c.seq_of(&["time", "advance", "1r"]).to_string();
    let later = cast(&c, "Bolt");
    let refused = c.refused(&["retract", &advance, "--reason", "oops"], 1);
    assert!(
        refused.contains(&format!("#{advance} moved the clock, and #{later}")),
        "{refused}"
    );
    let end = c.seq_of(&["fight", "end"]).to_string();
    let after_end = cast(&c, "Bolt");
    let refused = c.refused(&["retract", &end, "--reason", "oops"], 1);
    assert!(refused.contains(&format!("#{after_end}")), "{refused}");

    // A round's start brought back under a cast made in the round before it.
    c.ok(&["time", "advance", "1r"]);
    c.ok(&["fight", "start", "ford"]);
    let next = c.seq_of(&["next"]).to_string();
    let undo = retract(&c, &next);
    let meanwhile = cast(&c, "Bolt");
    let refused = c.refused(&["retract", &undo, "--reason", "back"], 1);
    assert!(refused.contains(&format!("#{meanwhile}")), "{refused}");
    c.ok(&["fight", "end"]);

    // Days before a fight: undone, the fight would begin three days earlier than it did.
    let days = c.seq_of(&["time", "advance", "3d"]).to_string();
    let fight = c.seq_of(&["fight", "start", "mill"]).to_string();
    let refused = c.refused(&["retract", &days, "--reason", "oops"], 1);
    assert!(
        refused.contains(&format!("#{days} moved the clock, and #{fight}")),
        "{refused}"
    );
}

/// T-3 (from the hostile pass of issue 45): two fights never overlap, however retractions are
/// chained, and hours never come back inside a fight.
#[test]
fn t3_no_chain_of_retractions_overlaps_two_fights_or_brings_hours_into_one() {
    let c = mira_with_spark_and_bolt();
    c.ok(&["fight", "start", "one"]);
    let end_one = c.seq_of(&["fight", "end"]).to_string();
    let two = c.seq_of(&["fight", "start", "two"]).to_string();
    let undo_two = retract(&c, &two);
    retract(&c, &end_one);
    let refused = c.refused(&["retract", &undo_two, "--reason", "back"], 1);
    assert!(
        refused.contains(
            "the fight one is under way: undoing or restoring it would make two fights overlap"
        ),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // Two hours retracted, then the fight's end before them: the hours may not come back into it.
    c.ok(&["fight", "start", "three"]);
    let end = c.seq_of(&["fight", "end"]).to_string();
    let hours = c.seq_of(&["time", "advance", "2h"]).to_string();
    let undo_hours = retract(&c, &hours);
    retract(&c, &end);
    let refused = c.refused(&["retract", &undo_hours, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!(
            "restoring #{hours} would take the fight three an hour or more past its start"
        )),
        "{refused}"
    );
}

/// VSD-6 with T-3 (from the hostile pass of issue 45): joining a ritual is the participant's
/// action of the round: `fight show` counts it, and a retracted cast of theirs is not restored
/// beside it.
#[test]
fn vsd6_t3_joining_a_ritual_is_the_participants_action_of_the_round() {
    let c = mira_with_spark_and_bolt();
    c.add_wizard("Nim");
    c.learns_elemental("Nim", "Spark", "1", true);
    c.learns_elemental("Mira", "Big", "4", false);
    c.learns_elemental("Nim", "Big", "4", false);
    c.ok(&["fight", "start", "hall"]);
    let spark = c
        .seq_of(&[
            "--rolls", "50", "spell", "cast", "Nim", "Spark", "--target", "orc",
        ])
        .to_string();
    let undo = retract(&c, &spark);
    let ritual = c
        .seq_of(&[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Mira",
            "Big",
            "--target",
            "orc",
            "--overcast",
            "ritual",
            "--with",
            "Nim",
        ])
        .to_string();
    let shown = c.ok(&["fight", "show"]);
    assert!(shown.contains("Nim: joined the ritual for Big"), "{shown}");
    assert!(
        shown.contains("Yet to act: Aldric\n") || shown.ends_with("Yet to act: Aldric"),
        "{shown}"
    );
    let refused = c.refused(&["retract", &undo, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!(
            "#{ritual} is an action of Nim's in a round in which Nim also acts at #{spark}"
        )),
        "{refused}"
    );
}

/// T-3 with C-2 and C-3 (from the second hostile pass of issue 45): an event brought back is held
/// to the round replay puts it in, not the one its row was stamped in. A cast whose round was
/// undone before it came back, one hidden behind a retraction stamped at another time, an
/// amendment brought back: none makes two actions of one round; and no restore takes a fight past
/// an hour, or brings back the end of a fight that is not on.
#[test]
fn t3_c2_c3_a_restored_event_is_held_to_the_round_replay_puts_it_in() {
    let c = mira_with_spark_and_bolt();
    // The round undone, then its cast brought back into round 1 beside the first.
    c.ok(&["fight", "start", "bridge"]);
    let first = cast(&c, "Bolt");
    let next = c.seq_of(&["next"]).to_string();
    let second = cast(&c, "Bolt");
    let undo_second = retract(&c, &second);
    retract(&c, &next);
    let refused = c.refused(&["retract", &undo_second, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!(
            "#{second} is an action of Mira's in a round in which Mira also acts at #{first}"
        )),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // A retraction stamped at the time a round began does not hide a later cast from the check.
    c.ok(&["time", "advance", "1r"]);
    c.ok(&["fight", "start", "ford"]);
    let early = cast(&c, "Bolt");
    let undo_early = retract(&c, &early);
    let round = c.seq_of(&["next"]).to_string();
    retract(&c, &round);
    let late = cast(&c, "Bolt");
    let refused = c.refused(&["retract", &undo_early, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!("#{late} is an action of Mira's")),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // An amendment brought back is counted as the whole action it makes.
    c.ok(&["time", "advance", "1r"]);
    c.ok(&["fight", "start", "mill"]);
    let spark = cast(&c, "Spark");
    let amendment = c.json(&[
        "amend", &spark, "--", "spell", "cast", "Mira", "Bolt", "--target", "orc",
    ])["amendment"]
        .to_string();
    let undo_amendment = retract(&c, &amendment);
    cast(&c, "Spark");
    let refused = c.refused(&["retract", &undo_amendment, "--reason", "back"], 1);
    assert!(refused.contains("is an action of Mira's"), "{refused}");
    c.ok(&["fight", "end"]);

    // Two advances of 59 minutes, one brought back beside the other: past the fight's hour.
    c.ok(&["fight", "start", "gate"]);
    let advance = c.seq_of(&["time", "advance", "59m"]).to_string();
    let undo_advance = retract(&c, &advance);
    c.ok(&["time", "advance", "59m"]);
    let refused = c.refused(&["retract", &undo_advance, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!(
            "restoring #{advance} would take the fight gate an hour or more past its start"
        )),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // A fight's end undone and brought back is its own fight's: allowed. Brought back once its
    // fight's start is undone too, it would end nothing: refused.
    c.ok(&["time", "advance", "1r"]);
    let start = c.seq_of(&["fight", "start", "yard"]).to_string();
    let round = c.seq_of(&["next"]).to_string();
    let end = c.seq_of(&["fight", "end"]).to_string();
    let undo_end = retract(&c, &end);
    c.ok(&["retract", &undo_end, "--reason", "it ended"]);
    let undo_end = retract(&c, &end);
    retract(&c, &round);
    retract(&c, &start);
    let refused = c.refused(&["retract", &undo_end, "--reason", "it ended"], 1);
    assert!(
        refused.contains(&format!(
            "#{end} ends a fight that is not under way where it stands"
        )),
        "{refused}"
    );
    c.ok(&["verify"]);
}

/// C-2, C-3 and T-3 (from the third hostile pass of issue 45): whatever a retraction undoes or
/// brings back, down any chain, is held to the rounds replay would then make. An amendment brought
/// back behind a half restored before it, an amendment undone so its original stands again, a
/// round's start undone through the retraction of its restoration, a fight's end brought back
/// once another fight's is what stands: each is refused, the log untouched.
#[test]
fn c2_c3_t3_no_chain_of_retractions_or_amendments_gets_round_a_rounds_limits() {
    let c = mira_with_spark_and_bolt();
    // An amendment brought back behind a half restored before it.
    c.ok(&["fight", "start", "A"]);
    let first = cast(&c, "Spark");
    let second = cast(&c, "Spark");
    let undo_second = retract(&c, &second);
    let amendment = c.json(&[
        "amend", &first, "--", "spell", "cast", "Mira", "Bolt", "--target", "orc",
    ])["amendment"]
        .to_string();
    let undo_amendment = retract(&c, &amendment);
    c.ok(&["retract", &undo_second, "--reason", "it stood"]);
    let refused = c.refused(&["retract", &undo_amendment, "--reason", "it stood"], 1);
    assert!(
        refused.contains(&format!("#{second} is an action of Mira's")),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // An amendment undone, so its original (a whole Bolt) stands beside a later half again.
    c.ok(&["time", "advance", "1r"]);
    c.ok(&["fight", "start", "B"]);
    let bolt = cast(&c, "Bolt");
    let amendment = c.json(&[
        "amend", &bolt, "--", "spell", "cast", "Mira", "Spark", "--target", "orc",
    ])["amendment"]
        .to_string();
    let half = cast(&c, "Spark");
    let refused = c.refused(&["retract", &amendment, "--reason", "it was a Bolt"], 1);
    assert!(
        refused.contains(&format!("#{half} is an action of Mira's")),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // A round's start undone through the retraction of its restoration, under a standing damage.
    c.ok(&["fight", "start", "C"]);
    let next = c.seq_of(&["next"]).to_string();
    let undo_next = retract(&c, &next);
    let restored = c
        .seq_of(&["retract", &undo_next, "--reason", "it began"])
        .to_string();
    let hurt = c.seq_of(&["damage", "Aldric", "1"]).to_string();
    let refused = c.refused(&["retract", &restored, "--reason", "chain"], 1);
    assert!(
        refused.contains(&format!(
            "#{next} began a round in which #{hurt} still stands"
        )),
        "{refused}"
    );
    c.ok(&["fight", "end"]);

    // Fight D's end brought back once fight E's start is undone and D is on again: it ended D,
    // so that holds; E's end brought back would end D in E's name: refused.
    c.ok(&["fight", "start", "D"]);
    let end_d = c.seq_of(&["fight", "end"]).to_string();
    let start_e = c.seq_of(&["fight", "start", "E"]).to_string();
    let end_e = c.seq_of(&["fight", "end"]).to_string();
    let undo_end_e = retract(&c, &end_e);
    retract(&c, &start_e);
    retract(&c, &end_d);
    let refused = c.refused(&["retract", &undo_end_e, "--reason", "back"], 1);
    assert!(
        refused.contains(&format!(
            "#{end_e} ends a fight that is not under way where it stands"
        )),
        "{refused}"
    );
    c.ok(&["verify"]);
}

/// T-3 (from the third hostile pass of issue 45): a Phrase is cast in a moment, so one cast after a
/// fight's start was undone moves no clock, and bringing the start back is not refused as if it
/// did (as a VsD cast's is not).
#[test]
fn t3_a_phrase_after_an_undone_fight_start_moves_no_clock_and_does_not_keep_it_undone() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    let start = c.seq_of(&["fight", "start", "hall"]).to_string();
    let undo = retract(&c, &start);
    c.ok(&[
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    c.ok(&["retract", &undo, "--reason", "the fight began"]);
    let shown = c.ok(&["fight", "show"]);
    assert!(
        shown.contains("Aldric: cast Concealing Darkness"),
        "{shown}"
    );
    c.ok(&["verify"]);
}
