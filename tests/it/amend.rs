//! Amendments (C-3) through the real binary: a mistyped input fixed with the event's own dice,
//! read in the event's place by every reader, undone by a retraction, and refused whenever it would
//! need other dice, change what was done, or reach under something built on it.

use crate::support::{Campaign, LEARN_FLAME_WARD};

/// Mira knows Flame Ward (W2, defensive, 10 minutes).
fn warded() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&LEARN_FLAME_WARD);
    c
}

/// Mira casts Flame Ward on Aldric at touch with the die showing 20 and a GM modifier: the total
/// is 20 + 45 (lore) + 30 (touch) - 10 (improvised, no concentration) + `modifier`.
fn ward_cast(modifier: &str) -> Vec<String> {
    [
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Aldric",
        "--range",
        "touch",
        "--mod",
        modifier,
    ]
    .map(String::from)
    .to_vec()
}

fn amend(seq: u64, command: &[String]) -> Vec<String> {
    let mut args = vec!["amend".to_string(), seq.to_string(), "--".to_string()];
    args.extend(command.iter().cloned());
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn spells_on_aldric(c: &Campaign) -> String {
    let shown = c.ok(&["character", "show", "Aldric"]);
    shown
        .lines()
        .find(|l| l.contains("Spells on them"))
        .unwrap_or_default()
        .to_string()
}

/// The GM typed --mod -40 for a --mod 10: 20 + 45 + 30 - 10 - 40 = 45, a partial success that
/// leaves Mira a choice; amended, the same 20 gives 20 + 45 + 30 - 10 + 10 = 95, a success, the
/// ward is on Aldric and no choice waits.
#[test]
fn c3_a_mistyped_modifier_is_amended_with_the_casts_own_die_and_read_in_its_place() {
    let c = warded();
    let mut cast = vec!["--rolls".to_string(), "20".to_string()];
    cast.extend(ward_cast("-40"));
    let seq = c.seq_of(&strs(&cast));
    assert!(
        !spells_on_aldric(&c).contains("Flame Ward"),
        "{}",
        spells_on_aldric(&c)
    );
    let mira_before = c.ok(&["character", "show", "Mira"]);
    assert!(
        mira_before.contains("MP 10/12") && mira_before.contains("PENDING partial success"),
        "{mira_before}"
    );

    let said = c.json(&strs(&amend(seq, &ward_cast("10"))));
    assert_eq!(said["amends"], seq);
    let changed: Vec<String> = serde_json::from_value(said["changed"].clone()).unwrap();
    assert!(
        changed.contains(&"GM modifier: -40 → 10".to_string()),
        "{changed:?}"
    );
    assert!(
        changed.contains(&"total: 45 → 95".to_string()),
        "{changed:?}"
    );
    assert_eq!(said["outcome_changed"], true);

    // Every reader takes the amended cast in the original's place.
    assert!(
        spells_on_aldric(&c).contains("Flame Ward"),
        "{}",
        spells_on_aldric(&c)
    );
    let log = c.ok(&["log", "--limit", "2"]);
    let amendment = said["amendment"].as_u64().unwrap();
    assert!(log.contains(&format!("[amended by #{amendment}]")), "{log}");
    assert!(log.contains("GM modifier: -40 → 10"), "{log}");
    let explained = c.ok(&["explain", &seq.to_string()]);
    assert!(
        explained.contains(&format!("AMENDED by #{amendment}")) && explained.contains("= 95"),
        "{explained}"
    );
    // Its MPs were spent once, as they were by the cast it amends.
    let mira_after = c.ok(&["character", "show", "Mira"]);
    assert!(
        mira_after.contains("MP 10/12") && !mira_after.contains("PENDING"),
        "{mira_after}"
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// The amendment is no roll: it draws no die, takes no roll number, and the next roll is not
/// marked as made again (C-2 marks rolls after a retracted one, and nothing was retracted).
#[test]
fn c3_an_amendment_is_not_a_roll_and_the_dice_audit_counts_the_originals_dice_once() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    let seq = c.seq_of(&["roll", "2d6+3", "--for", "the climb"]);
    let first = c.json(&["explain", &seq.to_string()]);
    let said = c.ok(&[
        "amend",
        &seq.to_string(),
        "--",
        "roll",
        "2d6+5",
        "--for",
        "the climb",
    ]);
    assert!(said.contains("expression: 2d6+3 → 2d6+5"), "{said}");
    // Free rolls leave nothing in the campaign: the words change, the outcome stands.
    assert!(said.contains("the outcome stands"), "{said}");
    let next = c.seq_of(&["roll", "d20"]);
    let next = c.json(&["explain", &next.to_string()]);
    let roll =
        |explained: &serde_json::Value| explained["dice"][0]["die"]["provenance"]["roll"].as_u64();
    assert_eq!(roll(&next), Some(roll(&first).unwrap() + 1), "{next}");
    assert!(!c.ok(&["log"]).contains("rolled after"));
    let audit = c.json(&["audit", "dice"]);
    let counted: u64 = audit["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["rolls"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 3, "two d6 and a d20: {audit}");
    assert_eq!(audit["amended"][0]["seq"], seq, "{audit}");
    assert_eq!(audit["amended"][0]["outcome_changed"], false, "{audit}");
    let audit = c.ok(&["audit", "dice"]);
    assert!(
        audit.contains(&format!(
            "Amended with their own dice (counted once, above): #{seq} by #"
        )) && audit.contains("expression: 2d6+3 → 2d6+5"),
        "{audit}"
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

#[test]
fn c3_retracting_the_amendment_restores_the_original_and_retracting_the_original_drops_both() {
    let c = warded();
    let mut cast = vec!["--rolls".to_string(), "20".to_string()];
    cast.extend(ward_cast("-40"));
    let seq = c.seq_of(&strs(&cast));
    let amendment = c.json(&strs(&amend(seq, &ward_cast("10"))))["amendment"]
        .as_u64()
        .unwrap();
    assert!(spells_on_aldric(&c).contains("Flame Ward"));
    let undo = c.seq_of(&["retract", &amendment.to_string(), "--reason", "it was -40"]);
    assert!(!spells_on_aldric(&c).contains("Flame Ward"));
    assert!(!c.ok(&["log"]).contains("[amended by"));
    // Undoing that retraction brings the amendment back.
    c.ok(&[
        "retract",
        &undo.to_string(),
        "--reason",
        "it was 10 after all",
    ]);
    assert!(spells_on_aldric(&c).contains("Flame Ward"));
    c.ok(&["retract", &seq.to_string(), "--reason", "never cast"]);
    assert!(!spells_on_aldric(&c).contains("Flame Ward"));
    let mira = c.ok(&["character", "show", "Mira"]);
    assert!(mira.contains("MP 12/12"), "{mira}");
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

#[test]
fn c3_an_amendment_needing_other_dice_is_refused_and_records_nothing() {
    let c = Campaign::with_party();
    let seq = c.seq_of(&["--rolls", "5,4", "roll", "2d6+3"]).to_string();
    let more = c.refused(&["amend", &seq, "--", "roll", "3d6+3"], 1);
    assert!(
        more.contains("needs a d6 as die 3, but the original drew no more dice"),
        "{more}"
    );
    let fewer = c.refused(&["amend", &seq, "--", "roll", "1d6+3"], 1);
    assert!(fewer.contains("leaves 1 die of #"), "{fewer}");
    let other = c.refused(&["amend", &seq, "--", "roll", "2d8+3"], 1);
    assert!(
        other.contains("needs a d8 as die 1, but the original drew a d6 there"),
        "{other}"
    );
    let dice = c.refused(&["--rolls", "6,6", "amend", &seq, "--", "roll", "2d6+3"], 2);
    assert!(dice.contains("--rolls does not apply"), "{dice}");
    let inside = c.refused(&["amend", &seq, "--", "--rolls", "6,6", "roll", "2d6+3"], 2);
    assert!(inside.contains("an amendment takes no dice"), "{inside}");
    let same = c.refused(&["amend", &seq, "--", "roll", "2d6+3"], 1);
    assert!(same.contains("nothing to amend"), "{same}");
}

#[test]
fn c3_an_amendment_that_changes_what_was_done_or_the_clock_is_refused() {
    let c = Campaign::with_party();
    let roll = c.seq_of(&["--rolls", "5,4", "roll", "2d6"]).to_string();
    let other = c.refused(&["amend", &roll, "--", "damage", "Aldric", "3"], 1);
    assert!(
        other.contains("is a 'dice_rolled' event, but the command given records damage_taken"),
        "{other}"
    );
    let tick = c.seq_of(&["time", "advance", "1m"]).to_string();
    let clock = c.refused(&["amend", &tick, "--", "time", "advance", "2m"], 1);
    assert!(
        clock.contains("move the clock by another amount"),
        "{clock}"
    );
    let read = c.refused(&["amend", &roll, "--", "log"], 2);
    assert!(read.contains("`log` records nothing"), "{read}");
    let session = c.seq_of(&["session", "start"]).to_string();
    let bookkeeping = c.refused(&["amend", &session, "--", "session", "start"], 2);
    assert!(bookkeeping.contains("cannot be amended"), "{bookkeeping}");
    let missing = c.refused(&["amend", "999", "--", "roll", "2d6"], 1);
    assert!(missing.contains("#999"), "{missing}");
}

/// Damage typed as 4 for a 6: amendable while nothing since names Aldric; once a later event does,
/// it may rest on the 4 and the amendment is refused.
#[test]
fn c3_an_event_a_later_one_may_rest_on_is_not_amended() {
    let c = Campaign::with_party();
    let hit = c.seq_of(&["damage", "Aldric", "4"]).to_string();
    c.ok(&["roll", "d20"]);
    c.ok(&["amend", &hit, "--", "damage", "Aldric", "6"]);
    let shown = c.ok(&["character", "show", "Aldric"]);
    assert!(shown.contains("Health 2/8"), "{shown}");
    c.ok(&["heal", "Aldric", "1"]);
    let refused = c.refused(&["amend", &hit, "--", "damage", "Aldric", "5"], 1);
    assert!(
        refused.contains("may rest on its outcome (it names someone"),
        "{refused}"
    );
    // An amendment is amended by amending its original again, never itself.
    let amendment = c.json(&["log", "--limit", "3"]);
    let amended_at = amendment["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "amended")
        .unwrap()["seq"]
        .to_string();
    let again = c.refused(&["amend", &amended_at, "--", "damage", "Aldric", "5"], 1);
    assert!(again.contains(&format!("amend #{hit} itself")), "{again}");
}

/// A sealed roll cannot be amended before its reveal: its outcome would show a value only the GM
/// has seen. Revealed, it can, with the faces the reveal opened.
#[test]
fn c3_a_sealed_roll_is_amended_only_once_revealed() {
    let c = Campaign::with_party();
    let seq = c
        .seq_of(&[
            "--rolls", "7", "roll", "d20+2", "--sealed", "--for", "ambush",
        ])
        .to_string();
    let sealed = c.refused(
        &[
            "amend", &seq, "--", "roll", "d20+4", "--sealed", "--for", "ambush",
        ],
        1,
    );
    assert!(sealed.contains("not yet revealed"), "{sealed}");
    c.ok(&["reveal", &seq]);
    let said = c.ok(&[
        "amend", &seq, "--", "roll", "d20+4", "--sealed", "--for", "ambush",
    ]);
    assert!(said.contains("expression: d20+2 → d20+4"), "{said}");
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// An amendment reaching back past a snapshot: the snapshot no longer stands for the log, so reads
/// replay past it, and a backup restored from an export reads the same.
#[test]
fn c3_an_amendment_behind_a_snapshot_is_read_by_every_replay_and_survives_an_export() {
    let c = Campaign::with_party();
    let hit = c.seq_of(&["damage", "Aldric", "4"]).to_string();
    for _ in 0..30 {
        c.ok(&["time", "advance", "1r"]);
    }
    c.ok(&["amend", &hit, "--", "damage", "Aldric", "6"]);
    let shown = c.ok(&["character", "show", "Aldric"]);
    assert!(shown.contains("Health 2/8"), "{shown}");
    let verified = c.ok(&["verify"]);
    assert!(verified.contains("all checks hold"), "{verified}");
    c.ok(&["snapshots", "rebuild"]);
    assert_eq!(c.ok(&["character", "show", "Aldric"]), shown);
    let restored = c.restored();
    assert_eq!(restored.ok(&["character", "show", "Aldric"]), shown);
    assert!(restored.ok(&["verify"]).contains("all checks hold"));
    // A point before the amendment shows the campaign as the table had it then, as it does
    // for a retraction recorded later.
    let then = c.ok(&["character", "show", "Aldric", "--at", &hit]);
    assert!(then.contains("Health 4/8"), "{then}");
}

/// The session's recap counts the amended outcome, and the amendment itself.
#[test]
fn c3_the_recap_counts_the_amended_damage_and_the_amendment() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    let hit = c.seq_of(&["damage", "Aldric", "4"]).to_string();
    c.ok(&["amend", &hit, "--", "damage", "Aldric", "6"]);
    c.ok(&["session", "end"]);
    let recap = c.ok(&["session", "recap", "1"]);
    // 6 damage, as amended, not the 4 first typed.
    assert!(
        recap.contains("6 damage taken, 0 healed; 0 retractions, 1 amendment"),
        "{recap}"
    );
    let tally = c.json(&["session", "recap", "1"]);
    assert_eq!(tally["tally"]["damage"], 6);
    assert_eq!(tally["tally"]["amendments"], 1);
}

/// From a hostile pass: an amendment that moved silver to Bob, then Bob's spending, then an
/// amendment moving it back would leave Bob spending silver he never had. What stands in the
/// event's place now (the amendment in force) counts as much as the original and the new command.
#[test]
fn c3_what_the_amendment_in_force_left_someone_is_built_on_too() {
    let c = Campaign::with_party();
    c.add_adg("Bob", 1, 10, 6, 0);
    c.add_adg("Carl", 1, 10, 6, 0);
    let loot = c
        .seq_of(&["silver", "Aldric", "50", "--reason", "loot"])
        .to_string();
    let moved = c.json(&[
        "amend", &loot, "--", "silver", "Bob", "50", "--reason", "loot",
    ]);
    let moved = moved["amendment"].to_string();
    c.ok(&["silver", "Bob", "-50", "--reason", "a sword"]);
    let back = c.refused(
        &[
            "amend", &loot, "--", "silver", "Aldric", "50", "--reason", "loot",
        ],
        1,
    );
    assert!(
        back.contains(&format!(
            "#{loot} as it was first recorded: retract the amendment #{moved}"
        )),
        "{back}"
    );
    let elsewhere = c.refused(
        &[
            "amend", &loot, "--", "silver", "Carl", "50", "--reason", "loot",
        ],
        1,
    );
    assert!(elsewhere.contains("may rest on its outcome"), "{elsewhere}");
}

/// An event that names no one but changes the campaign (the celestial alignment) is built on by
/// whatever came after it; a free roll that changes nothing is not.
#[test]
fn c3_a_change_to_the_whole_campaign_is_built_on_by_any_later_event() {
    let c = warded();
    let alignment = c.seq_of(&["alignment", "set", "auspicious"]).to_string();
    let roll = c.seq_of(&["--rolls", "5,4", "roll", "2d6+3"]).to_string();
    let mut cast = vec!["--rolls".to_string(), "20".to_string()];
    cast.extend(ward_cast("10"));
    c.ok(&strs(&cast));
    let refused = c.refused(
        &["amend", &alignment, "--", "alignment", "set", "malefic"],
        1,
    );
    assert!(
        refused.contains(&format!(
            "#{roll} came after #{alignment} and may rest on its outcome"
        )),
        "{refused}"
    );
    let said = c.ok(&["amend", &roll, "--", "roll", "2d6+4"]);
    assert!(said.contains("the outcome stands"), "{said}");
}

/// A revealed sealed roll amended: no "for your eyes only" (it is no secret any more), and a
/// command typed without --sealed is told to type it as the original was rolled.
#[test]
fn c3_a_revealed_sealed_roll_amended_is_said_as_revealed() {
    let c = Campaign::with_party();
    let seq = c
        .seq_of(&["--rolls", "7", "roll", "d20+2", "--sealed"])
        .to_string();
    c.ok(&["reveal", &seq]);
    let unsealed = c.refused(&["amend", &seq, "--", "roll", "d20+4"], 1);
    assert!(
        unsealed.contains("the original drew a sealed d20 there; give the command sealed or not, as the original was rolled"),
        "{unsealed}"
    );
    let said = c.ok(&["amend", &seq, "--", "roll", "d20+4", "--sealed"]);
    assert!(!said.contains("For your eyes only"), "{said}");
    assert!(said.contains("opened by their reveal"), "{said}");
}

/// The recap of the session an amendment was recorded in names it, with what it changed.
#[test]
fn c3_the_recap_names_each_amendment_with_what_it_changed() {
    let c = Campaign::with_party();
    let hit = c.seq_of(&["damage", "Aldric", "4"]).to_string();
    c.ok(&["session", "start"]);
    let by = c.json(&["amend", &hit, "--", "damage", "Aldric", "6"])["amendment"].to_string();
    let recap = c.ok(&["session", "recap", "1"]);
    assert!(
        recap.contains(&format!(
            "Amended: #{hit} by #{by} (amount: 4 → 6; the outcome changed)"
        )),
        "{recap}"
    );
    // The sheets show the 6, and the recap says the change reached back before the session.
    assert!(
        recap.contains("Events from before the session retracted, restored or amended: 0 health regained, 2 lost"),
        "{recap}"
    );
}

/// From the hostile pass: an amendment fixes a roll's inputs, never which event it answers. A
/// save moved onto another cast would leave the first cast's save to be rolled anew, unmarked
/// (C-2); so would a fired bolt's attack roll moved onto another caster's bolt.
#[test]
fn c3_an_amendment_never_moves_a_roll_onto_another_event_it_answers() {
    let c = Campaign::with_party();
    c.ok(&crate::support::VSD_TOM);
    c.ok(&crate::support::LEARN_SLEEP);
    // Two Sleeps, a round apart, on Tom and then on the orc beside him: 70 + 45 - 10 = 105 each,
    // with a save to make for whoever a Sleep reaches.
    let first = c.seq_of(&[
        "--rolls", "70", "spell", "cast", "Mira", "Sleep", "--target", "Tom",
    ]);
    c.ok(&["time", "advance", "1r"]);
    let second = c.seq_of(&[
        "--rolls", "70", "spell", "cast", "Mira", "Sleep", "--target", "the orc",
    ]);
    let save = c.seq_of(&[
        "--rolls",
        "30",
        "save",
        "Tom",
        "--cast",
        &second.to_string(),
    ]);
    let before = c.head();
    let moved = c.refused(
        &[
            "amend",
            &save.to_string(),
            "--",
            "save",
            "Tom",
            "--cast",
            &first.to_string(),
        ],
        1,
    );
    assert!(
        moved.contains(&format!(
            "#{save} answers #{second}, and the command given would answer #{first}"
        )),
        "{moved}"
    );
    assert_eq!(c.head(), before);
}
