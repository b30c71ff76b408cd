//! The campaign commands as a GM uses them, through the real binary.

use crate::support::{ADG_ALDRIC, Campaign, VSD_MIRA, learning};
use assert_cmd::prelude::*;
use predicates::str::contains;
use serde_json::json;

#[test]
fn init_creates_the_file_and_prints_the_seed_commitment() {
    let c = Campaign::empty();
    let out = c.ok(&["init", "--name", "The Sunken Vault"]);
    assert!(out.contains("Dice epoch 1 seed commitment: "), "{out}");
    let commitment = out
        .lines()
        .find_map(|l| l.strip_prefix("Dice epoch 1 seed commitment: "))
        .unwrap();
    assert_eq!(commitment.len(), 64);
    let log = c.json(&["log"]);
    assert_eq!(log["events"][0]["kind"], "campaign_created");
    assert_eq!(log["events"][0]["payload"]["seed_commitment"], commitment);
}

#[test]
fn init_twice_is_refused_and_keeps_the_first_campaign() {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "First"]);
    let err = c.refused(&["init", "--name", "Second"], 1);
    assert!(
        err.contains("already holds the campaign \"First\""),
        "{err}"
    );
}

#[test]
fn character_sheets_show_what_was_entered() {
    let c = Campaign::with_party();
    insta::assert_snapshot!("adg_sheet", c.ok(&["character", "show", "aldric"]));
    insta::assert_snapshot!("vsd_sheet", c.ok(&["character", "show", "Mira"]));
    insta::assert_snapshot!("character_list", c.ok(&["character", "list"]));
}

#[test]
fn adg_c2_damage_and_healing_change_health_within_its_bounds() {
    let c = Campaign::with_party();
    let out = c.ok(&["damage", "Aldric", "5"]);
    assert!(
        out.ends_with("Aldric takes 5 damage\nHealth now 3/8.\n"),
        "{out}"
    );
    let health = |c: &Campaign| {
        c.json(&["character", "show", "Aldric"])["character"]["health"]["current"].as_u64()
    };
    assert_eq!(health(&c), Some(3));
    c.ok(&["damage", "Aldric", "9"]);
    assert_eq!(health(&c), Some(0), "health stops at 0");
    c.ok(&["heal", "Aldric", "20"]);
    assert_eq!(health(&c), Some(8), "healing stops at the maximum");
}

#[test]
fn t1_time_advances_in_every_unit() {
    let c = Campaign::with_party();
    c.ok(&["time", "advance", "1w"]);
    c.ok(&["time", "advance", "3d"]);
    c.ok(&["time", "advance", "2h"]);
    c.ok(&["time", "advance", "10m"]);
    let out = c.ok(&["time", "advance", "5r"]);
    assert!(out.contains("It is now Day 11, 02:10."), "{out}");
    let later = c.ok(&["damage", "Aldric", "1"]);
    assert!(later.contains("Aldric takes 1 damage"));
    let log = c.json(&["log", "--limit", "1"]);
    assert_eq!(
        log["events"][0]["game_time"],
        (10 * 86_400 + 2 * 3600 + 600 + 30) as u64
    );
}

/// T-1: outside a fight the clock reads to the minute, whatever rounds it was moved by; the log
/// keeps every event's exact time.
#[test]
fn t1_outside_a_fight_the_clock_reads_to_the_minute_and_the_record_keeps_the_seconds() {
    let c = Campaign::with_party();
    let moved = c.ok(&["time", "advance", "3r"]);
    assert!(moved.contains("It is now Day 1, 00:00."), "{moved}");
    let shown = c.ok(&["time", "show"]);
    assert!(shown.starts_with("It is Day 1, 00:00.\n"), "{shown}");
    assert!(
        !shown.contains("+3r") && !shown.contains("round"),
        "{shown}"
    );
    let later = c.ok(&["time", "advance", "8h"]);
    assert!(later.contains("It is now Day 1, 08:00."), "{later}");
    let sheet = c.ok(&["character", "show", "Aldric"]);
    assert!(sheet.contains("at Day 1, 08:00\n"), "{sheet}");
    let log = c.json(&["log", "--limit", "1"]);
    assert_eq!(log["events"][0]["game_time"], 18, "the exact time: {log}");
    assert_eq!(log["events"][0]["game_time_text"], "Day 1, 00:00");
}

#[test]
fn a_roll_with_entered_dice_records_them_as_entered() {
    let c = Campaign::with_party();
    let out = c.ok(&["--rolls", "4,6", "roll", "2d6+3", "--for", "falling stones"]);
    assert!(
        out.contains("rolled 2d6+3 for falling stones: 13 (dice 4, 6)"),
        "{out}"
    );
    let explained = c.ok(&["explain", "5"]);
    assert!(
        explained.contains("entered at the table with --rolls"),
        "{explained}"
    );
    assert!(
        explained.contains("total: 2d6+3 = [4+6] + 3 = 13"),
        "{explained}"
    );
}

#[test]
fn vsd1_open_ended_rolls_chain_with_entered_dice() {
    let c = Campaign::with_party();
    let up = c.json(&["--rolls", "97,99,20", "roll", "oe"]);
    assert_eq!(up["appended"][0]["payload"]["total"], 216);
    let down = c.json(&["--rolls", "4,98,30", "roll", "oe"]);
    assert_eq!(down["appended"][0]["payload"]["total"], 4 - 98 - 30);
}

#[test]
fn seeded_rolls_are_verified_once_the_epoch_seed_is_revealed() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls at midnight"]);
    let seq = c.seq_of(&["roll", "3d6", "--for", "ambush"]);
    let before = c.ok(&["explain", &seq.to_string()]);
    assert!(before.contains("not revealed yet"), "{before}");
    let verify = c.ok(&["verify"]);
    assert!(verify.contains("3 await their epoch's reveal"), "{verify}");

    c.ok(&["session", "end"]);
    let revealed = c.ok(&["seed", "reveal"]);
    assert!(
        revealed.contains("New epoch seed commitment: "),
        "{revealed}"
    );
    let after = c.ok(&["explain", &seq.to_string()]);
    assert_eq!(after.matches(": matches").count(), 3, "{after}");
    assert!(
        after.contains("|owls at midnight\")"),
        "the session entropy is part of the derivation: {after}"
    );
    let verify = c.ok(&["verify"]);
    assert!(
        verify.contains("seeded dice: 3 re-derived from revealed seeds (epochs: 1)"),
        "{verify}"
    );

    // The next epoch rolls with its own, still secret, seed.
    c.ok(&["roll", "d20"]);
    assert!(c.ok(&["verify"]).contains("1 await their epoch's reveal"));
}

/// A seeded die rolled with no player entropy (between sessions) is one the GM could have foreseen:
/// every view says so. A player can bring entropy for such a roll; inside a session it is refused.
#[test]
fn dice_rolled_without_player_entropy_are_marked_and_players_can_bring_some() {
    let c = Campaign::with_party();
    let bare = c.seq_of(&["roll", "d20", "--for", "night watch"]);
    let explained = c.ok(&["explain", &bare.to_string()]);
    assert!(
        explained.contains("no player entropy: the GM could have predicted this die"),
        "{explained}"
    );
    let log = c.ok(&["log"]);
    assert!(
        log.lines()
            .any(|l| l.contains("night watch") && l.ends_with("[no player entropy]")),
        "{log}"
    );
    assert!(
        c.ok(&["verify"])
            .contains("unwitnessed dice: 1 seeded die was rolled with no player entropy")
    );

    let witnessed = c.seq_of(&[
        "--actor",
        "Bryn's player",
        "--player-entropy",
        "three crows",
        "roll",
        "d20",
    ]);
    let explained = c.json(&["explain", &witnessed.to_string()]);
    assert_eq!(
        explained["dice"][0]["die"]["provenance"]["witness"]["by"],
        "Bryn's player"
    );
    assert_eq!(explained["dice"][0]["derivation"]["unwitnessed"], false);
    assert!(
        explained["dice"][0]["derivation"]["message"]
            .as_str()
            .unwrap()
            .ends_with("|three crows")
    );
    c.ok(&["seed", "reveal"]);
    let verify = c.ok(&["verify"]);
    assert!(
        verify.contains("seeded dice: 2 re-derived") && verify.contains("unwitnessed dice: 1 "),
        "{verify}"
    );

    c.ok(&["session", "start", "--entropy", "owls"]);
    let message = c.refused(&["--player-entropy", "x", "roll", "d20"], 1);
    assert!(message.contains("session 1 is open"), "{message}");
    c.refused(&["--player-entropy", "x", "damage", "Aldric", "1"], 2);
    let message = c.refused(&["seed", "reveal"], 1);
    assert!(message.contains("between sessions"), "{message}");
}

#[test]
fn the_same_position_gives_the_same_seeded_die() {
    // Two files from the same pinned randomness: the same command at the same seq rolls the same.
    let a = Campaign::with_party();
    let b = Campaign::with_party();
    let roll = |c: &Campaign| c.json(&["roll", "d100"])["appended"][0]["payload"]["total"].clone();
    assert_eq!(roll(&a), roll(&b));
}

#[test]
fn a_sealed_roll_stays_secret_until_revealed_and_then_verifies() {
    let c = Campaign::with_party();
    let seq = c
        .seq_of(&["roll", "d20", "--sealed", "--for", "guardian awake?"])
        .to_string();
    let log = c.ok(&["log"]);
    assert!(
        log.contains(
            "rolled d20 for guardian awake?, sealed (1 entry, rolled by grimoire from a seed its epoch committed to)"
        ),
        "{log}"
    );
    assert!(
        c.ok(&["verify"])
            .contains("0 revealed and checked; 1 still sealed")
    );
    let public = c.ok(&["export"]);
    assert!(
        !public.contains("sealed_die"),
        "a public export holds no secrets"
    );

    let revealed = c.ok(&["reveal", &seq]);
    assert!(
        revealed.contains(&format!("sealed dice of #{seq} revealed")),
        "{revealed}"
    );
    assert!(
        c.ok(&["verify"])
            .contains("1 revealed and checked; 0 still sealed")
    );
    let again = c.refused(&["reveal", &seq], 1);
    assert!(
        again.contains("no sealed dice awaiting a reveal"),
        "{again}"
    );
}

#[test]
fn a_reveal_that_does_not_open_the_commitment_is_refused() {
    let c = Campaign::with_party();
    let seq = c.seq_of(&["--rolls", "12", "roll", "d20", "--sealed"]);
    // The GM's secrets table is edited to claim another value.
    c.sql()
        .execute("UPDATE secrets SET value = replace(value, '\"value\":12', '\"value\":19') WHERE kind = 'sealed_die'", [])
        .unwrap();
    let err = c.refused(&["reveal", &seq.to_string()], 1);
    assert!(err.contains("does not open its commitment"), "{err}");
}

#[test]
fn session_end_prints_a_checkpoint_that_verify_accepts() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "2"]);
    let ended = c.json(&["session", "end"]);
    let checkpoint = ended["checkpoint"].as_str().unwrap().to_string();
    assert_eq!(Some(checkpoint.clone()), c.head());
    c.ok(&["damage", "Aldric", "1"]);
    c.cmd()
        .args(["verify", "--checkpoint", &checkpoint])
        .assert()
        .success()
        .stdout(contains(format!("checkpoint {checkpoint}: holds")));
    c.cmd()
        .args(["verify", "--checkpoint", "3:0000000000000000"])
        .assert()
        .code(1)
        .stdout(contains("DOES NOT HOLD"));
    c.cmd()
        .args(["verify", "--checkpoint", "999:0123456789abcdef"])
        .assert()
        .code(1);
    // Every session's checkpoint at once: each is answered, and one that fails fails the run.
    c.ok(&["session", "start"]);
    let second = c.json(&["session", "end"])["checkpoint"]
        .as_str()
        .unwrap()
        .to_string();
    let both = c.json(&[
        "verify",
        "--checkpoint",
        &checkpoint,
        "--checkpoint",
        &second,
    ]);
    let held: Vec<bool> = both["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["holds"].as_bool().unwrap())
        .collect();
    assert_eq!(held, [true, true]);
    c.cmd()
        .args(["verify", "--checkpoint", &checkpoint])
        .args(["--checkpoint", "3:0000000000000000"])
        .assert()
        .code(1)
        .stdout(contains(format!("checkpoint {checkpoint}: holds")))
        .stdout(contains("checkpoint 3:0000000000000000: DOES NOT HOLD"));
}

/// A checkpoint that does not hold says what the file can tell: a code off in up to half its
/// digits was most likely mistyped, one off in most digits names another history, and a point past
/// the end means a shorter file (or a mistyped number). Event 0 is no event number at all.
#[test]
fn a_failed_checkpoint_says_whether_it_looks_mistyped_changed_or_cut() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "2"]);
    let head = c.head().expect("a head");
    let (seq, hash) = head.split_once(':').expect("SEQ:HASH");
    // Swap the last two digits (or change the last one when they are alike).
    let mut digits: Vec<char> = hash.chars().collect();
    let n = digits.len();
    if digits[n - 1] == digits[n - 2] {
        digits[n - 1] = if digits[n - 1] == '0' { '1' } else { '0' };
    } else {
        digits.swap(n - 1, n - 2);
    }
    let mistyped = format!("{seq}:{}", digits.iter().collect::<String>());
    // A checkpoint that does not hold fails the verification (exit 1), its report on stdout.
    let failed = |args: &[&str]| {
        let out = c.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let out = failed(&["verify", "--checkpoint", &mistyped]);
    assert!(out.contains("most likely the code was mistyped"), "{out}");
    // Another history's code differs almost everywhere: flip every digit.
    let other: String = hash
        .chars()
        .map(|d| if d == 'f' { '0' } else { 'f' })
        .collect();
    let out = failed(&["verify", "--checkpoint", &format!("{seq}:{other}")]);
    assert!(
        out.contains(&format!("differs from the code in 16 of its 16 digits: the history up to #{seq} is not the one noted")),
        "{out}"
    );
    let out = failed(&["verify", "--checkpoint", "999:0123456789abcdef"]);
    assert!(
        out.contains(&format!(
            "the log ends at #{seq}, before #999: this file is shorter"
        )),
        "{out}"
    );
    // Three digits off is still a slip, not another history.
    let mut slip: Vec<char> = hash.chars().collect();
    for d in slip.iter_mut().rev().take(3) {
        *d = if *d == '0' { '1' } else { '0' };
    }
    let out = failed(&[
        "verify",
        "--checkpoint",
        &format!("{seq}:{}", slip.iter().collect::<String>()),
    ]);
    assert!(
        out.contains("in 3 of its 16 digits: most likely the code was mistyped"),
        "{out}"
    );
    let zero = c.refused(&["verify", "--checkpoint", "0:0123456789abcdef"], 2);
    assert!(zero.contains("they start at 1"), "{zero}");
    let json: serde_json::Value = serde_json::from_str(&failed(&[
        "--json",
        "verify",
        "--checkpoint",
        "999:0123456789abcdef",
    ]))
    .expect("JSON");
    assert_eq!(json["checkpoints"][0]["why"], "past_the_end", "{json}");
}

#[test]
fn sessions_number_themselves_and_tag_their_events() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "1"]);
    c.ok(&["session", "end"]);
    c.ok(&["heal", "Aldric", "1"]);
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "2"]);
    let second = c.json(&["log", "--session", "2"]);
    let kinds: Vec<&str> = second["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["session_started", "damage_taken"]);
    assert_eq!(second["events"][1]["payload"]["amount"], 2);
}

#[test]
fn retraction_undoes_an_event_by_a_new_one_and_both_stay_in_the_log() {
    let c = Campaign::with_party();
    let seq = c.seq_of(&["damage", "Aldric", "5"]).to_string();
    c.ok(&["retract", &seq, "--reason", "wrong target"]);
    let sheet = c.json(&["character", "show", "Aldric"]);
    assert_eq!(sheet["character"]["health"]["current"], 8);
    let log = c.ok(&["log"]);
    assert!(
        log.contains("Aldric takes 5 damage  [retracted: wrong target]"),
        "{log}"
    );
    assert!(
        log.contains(&format!("#{seq} retracted: wrong target")),
        "{log}"
    );
    let again = c.refused(&["retract", &seq, "--reason", "twice"], 1);
    assert!(again.contains("already retracted"), "{again}");
    let bookkeeping = c.refused(&["retract", "1", "--reason", "no campaign"], 1);
    assert!(bookkeeping.contains("cannot be retracted"), "{bookkeeping}");
}

/// A slip just made is undone without looking up its number, and the command says which event it
/// undid before anything else.
#[test]
fn retract_last_undoes_the_newest_event_that_may_be_and_names_it() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "5"]);
    c.ok(&["session", "start"]);
    let said = c.ok(&["retract", "--last", "--reason", "wrong target"]);
    assert!(
        said.starts_with("Retracting #5: Aldric takes 5 damage\n"),
        "{said}"
    );
    assert_eq!(
        c.json(&["character", "show", "Aldric"])["character"]["health"]["current"],
        8
    );
    // The session start cannot be retracted, and the damage already is: the newest left is Mira's
    // arrival, and after it Aldric's.
    let next = c.json(&["retract", "--last", "--reason", "never joined"]);
    assert_eq!(next["retracted"], 4);
    c.refused(&["retract", "3", "--last", "--reason", "both"], 2);
    c.refused(&["retract", "--reason", "which?"], 2);
    c.ok(&["retract", "--last", "--reason", "never joined either"]);
    // The newest play left is the tables loaded with Aldric: named, and refused, never passed.
    let tables = c.refused(&["retract", "--last", "--reason", "more"], 1);
    assert!(
        tables.contains("#2 is a 'adg_tables_loaded' event, which cannot be retracted"),
        "{tables}"
    );
}

/// From the hostile pass: `--last` never reaches past play that cannot be undone (a scroll
/// written) to something older (the writer's joining); it names that play and is refused.
#[test]
fn c2_retract_last_stops_at_play_that_cannot_be_undone() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    let scroll = c.write_scroll("Aldric", "Concealing Darkness", "a shadow hides the door");
    let before = c.head();
    let refused = c.refused(&["retract", "--last", "--reason", "oops"], 1);
    assert!(
        refused.contains(&format!(
            "#{scroll} is a 'scroll_written' event, which cannot be retracted"
        )),
        "{refused}"
    );
    assert_eq!(c.head(), before);
    assert!(
        c.ok(&["character", "show", "Aldric"])
            .contains("Scrolls held: S")
    );
}

/// C-2: a GM who retracts a roll, rolls again, then brings the first roll back leaves every step
/// in sight: the second roll is marked as rolled after the retraction, the first as restored, in `log`, `explain`
/// and `audit dice`; `--last` never undoes a retraction by itself.
#[test]
fn c2_a_restored_roll_and_a_roll_made_again_are_marked_wherever_they_are_shown() {
    let c = Campaign::with_party();
    let first = c.seq_of(&["--rolls", "17", "roll", "d20", "--character", "Aldric"]);
    c.ok(&["retract", "--last", "--reason", "wrong die"]);
    let again = c.seq_of(&["--rolls", "3", "roll", "d20", "--character", "Aldric"]);
    let undo = c.ok(&["retract", "--last", "--reason", "the first was right"]);
    assert!(undo.starts_with(&format!("Retracting #{again}:")), "{undo}");
    let said = c.ok(&[
        "retract",
        &(first + 1).to_string(),
        "--reason",
        "the first was right",
    ]);
    assert!(
        said.starts_with(&format!("Restoring #{first}: Aldric rolled d20")),
        "{said}"
    );
    let restore = first + 4;
    assert!(
        said.contains(&format!(
            "#{} retracted, so #{first} is restored",
            first + 1
        )),
        "{said}"
    );
    let log = c.ok(&["log"]);
    assert!(log.contains(&format!("[restored by #{restore}]")), "{log}");
    assert!(
        log.contains(&format!(
            "[retracted: the first was right]  [rolled after #{first}, which was retracted]"
        )),
        "{log}"
    );
    let json = c.json(&["log", "--limit", "10"]);
    let view = |seq: u64| {
        json["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seq"] == seq)
            .cloned()
            .unwrap()
    };
    assert_eq!(view(first)["restored_by"], restore);
    assert_eq!(view(again)["rolled_again_after"], json!([first]));
    assert!(
        c.ok(&["explain", &first.to_string()])
            .contains(&format!("RESTORED by #{restore}"))
    );
    let explained = c.ok(&["explain", &again.to_string()]);
    assert!(
        explained.contains(&format!(
            "ROLLED AFTER A RETRACTION: #{first} rolled dice and was retracted"
        )),
        "{explained}"
    );
    let audit = c.ok(&["audit", "dice"]);
    assert!(
        audit.contains(&format!(
            "Rolled after a roll was retracted (each roll in its session until the retraction, and the first roll after it): #{again} after #{first}."
        )),
        "{audit}"
    );
    assert!(
        audit.contains(&format!(
            "Restored after being retracted: #{first} by #{restore}."
        )),
        "{audit}"
    );
    assert!(audit.contains("Retracted: 1 roll"), "{audit}");
    let audited = c.json(&["audit", "dice"]);
    assert_eq!(audited["rolled_again"][0]["seq"], again);
    assert_eq!(audited["restored"][0]["by"], restore);
    // The restore itself may be undone, which puts the first retraction back in force.
    c.ok(&[
        "retract",
        &restore.to_string(),
        "--reason",
        "no, the second",
    ]);
    let log = c.ok(&["log"]);
    assert!(log.contains("(dice 17)  [retracted: wrong die]"), "{log}");
    // --last passes over retractions and what is already retracted: the newest entry it may undo
    // is Mira's arrival, not the newest retraction.
    let last = c.json(&["retract", "--last", "--reason", "never joined"]);
    assert_eq!(last["retracted"], 4);
}

/// C-2: a roll retracted under one name and made again under another ("--character Aldric", then
/// "--for \"Aldric climbs\"") is still the next roll after the retraction, and is marked.
#[test]
fn c2_a_roll_made_again_under_other_words_is_still_marked() {
    let c = Campaign::with_party();
    let first = c.seq_of(&["--rolls", "2", "roll", "d20", "--character", "Aldric"]);
    c.ok(&["retract", "--last", "--reason", "a slip"]);
    c.ok(&["time", "advance", "1r"]);
    let again = c.seq_of(&["--rolls", "19", "roll", "d20", "--for", "Aldric climbs"]);
    let log = c.ok(&["log"]);
    assert!(
        log.contains(&format!("[rolled after #{first}, which was retracted]")),
        "{log}"
    );
    let json = c.json(&["log", "--limit", "1"]);
    assert_eq!(json["events"][0]["seq"], again);
    assert_eq!(json["events"][0]["rolled_again_after"], json!([first]));
}

/// C-2: rolling twice and retracting the first afterwards keeps the better of two: the second is
/// marked as rolled after the first, in `log` and the audit.
#[test]
fn c2_rolling_twice_then_retracting_the_first_marks_the_second() {
    let c = Campaign::with_party();
    let first = c.seq_of(&["--rolls", "16", "roll", "d20", "--for", "lockpick"]);
    let second = c.seq_of(&["--rolls", "19", "roll", "d20", "--for", "lockpick"]);
    c.ok(&[
        "retract",
        &first.to_string(),
        "--reason",
        "entered twice by mistake",
    ]);
    let json = c.json(&["log", "--limit", "3"]);
    let marked = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seq"] == second)
        .cloned()
        .unwrap();
    assert_eq!(marked["rolled_again_after"], json!([first]), "{json}");
    let audit = c.ok(&["audit", "dice"]);
    assert!(
        audit.contains(&format!("#{second} after #{first}")),
        "{audit}"
    );
}

/// C-2: the dodge. Roll, roll something else, retract the first, roll it again: the roll between
/// and the roll made again are both marked, in `log`, its JSON and the audit.
#[test]
fn c2_a_roll_made_between_a_retracted_roll_and_its_retraction_does_not_hide_the_roll_made_again() {
    let c = Campaign::with_party();
    let first = c.seq_of(&["--rolls", "2", "roll", "d20", "--character", "Aldric"]);
    let between = c.seq_of(&["--rolls", "4", "roll", "d6", "--for", "the goblin's dagger"]);
    c.ok(&["retract", &first.to_string(), "--reason", "a slip"]);
    let again = c.seq_of(&["--rolls", "18", "roll", "d20", "--character", "Aldric"]);
    let json = c.json(&["log", "--limit", "4"]);
    let marked: Vec<(u64, serde_json::Value)> = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("rolled_again_after").is_some())
        .map(|e| (e["seq"].as_u64().unwrap(), e["rolled_again_after"].clone()))
        .collect();
    assert_eq!(marked, [(between, json!([first])), (again, json!([first]))]);
    let audit = c.json(&["audit", "dice"]);
    let seqs: Vec<&serde_json::Value> = audit["rolled_again"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["seq"])
        .collect();
    assert_eq!(seqs, [between, again]);
}

/// C-2: the marks are computed from the log, never read from a retraction: a forged retraction
/// stripped of what it says it rolled, and claiming to mark another roll, still marks the rolls
/// made around the retracted one, and only those.
#[test]
fn c2_a_forged_retraction_cannot_move_or_drop_the_marks() {
    let c = Campaign::with_party();
    let first = c.seq_of(&["--rolls", "16", "roll", "d20", "--for", "lockpick"]);
    let second = c.seq_of(&["--rolls", "19", "roll", "d20", "--for", "lockpick"]);
    let retraction = c.seq_of(&["retract", &first.to_string(), "--reason", "twice"]);
    let honest = std::fs::read_to_string(c.export_all()).unwrap();
    let forged = crate::hostile_text::forge(&honest, retraction, |row| {
        let mut payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap();
        payload.as_object_mut().unwrap().remove("roll");
        payload["marks"] = json!(first - 1);
        row.payload = payload.to_string();
    });
    let file = c.dir.path().join("forged.jsonl");
    std::fs::write(&file, forged).unwrap();
    let target = Campaign::empty();
    target.ok(&["import", file.to_str().unwrap()]);
    let json = target.json(&["log"]);
    let marked: Vec<u64> = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("rolled_again_after").is_some())
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(marked, [second]);
    let log = target.ok(&["log"]);
    assert!(
        log.contains(&format!("[rolled after #{first}, which was retracted]")),
        "{log}"
    );
}

/// Settling a disputed check needs the sheet it was rolled against: `explain` shows the sheets of
/// the characters an event concerns as they stood just before it, or at any point with --at.
#[test]
fn explain_shows_the_sheets_an_event_was_decided_on_and_at_a_point_on_request() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "3"]);
    let hurt = c.seq_of(&["damage", "Aldric", "2"]);
    let said = c.ok(&["explain", &hurt.to_string()]);
    assert!(
        said.contains(&format!(
            "sheets just before it (#{}), as the rules read them:",
            hurt - 1
        )),
        "{said}"
    );
    assert!(
        said.contains("health 5/8"),
        "the sheet before the blow: {said}"
    );
    assert!(
        !said.contains("Mira"),
        "only the characters it concerns: {said}"
    );
    let at = c.ok(&["explain", &hurt.to_string(), "--at", "now"]);
    assert!(
        at.contains(&format!("sheets at #{hurt}:")) && at.contains("health 3/8"),
        "{at}"
    );
    let json = c.json(&["explain", &hurt.to_string(), "--at", "3"]);
    assert_eq!(json["sheets"]["as_of_seq"], 3);
    assert_eq!(json["sheets"]["characters"][0]["health"]["current"], 8);
    let refused = c.refused(&["explain", &hurt.to_string(), "--at", "session:9"], 1);
    assert!(refused.contains("session"), "{refused}");
}

#[test]
fn show_at_a_past_seq_restores_that_moment() {
    let c = Campaign::with_party();
    let hit = c.seq_of(&["damage", "Aldric", "5"]);
    c.ok(&["heal", "Aldric", "3"]);
    let past = c.json(&["character", "show", "Aldric", "--at", &hit.to_string()]);
    assert_eq!(past["character"]["health"]["current"], 3);
    assert_eq!(past["as_of_seq"], hit);
    let before = c.json(&["character", "list", "--at", "3"]);
    assert_eq!(
        before["characters"].as_array().unwrap().len(),
        1,
        "Mira joined at #4"
    );
    let err = c.refused(&["character", "show", "Aldric", "--at", "99"], 1);
    assert!(err.contains("#99 is not in the log"), "{err}");
}

#[test]
fn points_in_time_by_session_and_day_restore_what_the_table_remembers() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owl"]);
    let start = c.head().expect("a head");
    c.ok(&["damage", "Aldric", "3"]);
    c.ok(&["time", "advance", "1d"]);
    c.ok(&["session", "end"]);
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "2"]);
    let health = |at: &str| {
        c.json(&["character", "show", "Aldric", "--at", at])["character"]["health"]["current"]
            .clone()
    };
    assert_eq!(health("session-start:1"), 8, "{start}");
    assert_eq!(health("session:1"), 5);
    assert_eq!(health("s1"), 5, "the short form");
    assert_eq!(health("day:1"), 5, "the day ended with the advance");
    assert_eq!(health("Day 2"), 3);
    assert_eq!(health("now"), 3);
    let list = c.json(&["character", "list", "--at", "session:1"]);
    assert_eq!(list["characters"].as_array().map(Vec::len), Some(2));
    // Points the log has not reached are refused, saying what it holds.
    let open = c.refused(&["character", "show", "Aldric", "--at", "session:2"], 1);
    assert!(open.contains("session 2 has not ended yet"), "{open}");
    let none = c.refused(&["character", "show", "Aldric", "--at", "session:7"], 1);
    assert!(none.contains("no session 7"), "{none}");
    let later = c.refused(&["character", "list", "--at", "day:9"], 1);
    assert!(
        later.contains("Day 9 has not come yet: it is Day 2"),
        "{later}"
    );
    let typo = c.refused(&["character", "show", "Aldric", "--at", "yesterday"], 2);
    assert!(
        typo.contains("session:N") && typo.contains("day:D"),
        "{typo}"
    );
    // The log between two points: the first session, start to end.
    let log = c.ok(&["log", "--from", "session-start:1", "--to", "session:1"]);
    assert!(
        log.starts_with(&format!("#{}", start.split(':').next().unwrap())),
        "{log}"
    );
    assert!(
        log.contains("Aldric takes 3 damage") && log.trim_end().ends_with("session 1 ends"),
        "{log}"
    );
    assert!(!log.contains("takes 2 damage"), "{log}");
    let backwards = c.refused(
        &["log", "--from", "session:1", "--to", "session-start:1"],
        2,
    );
    assert!(backwards.contains("comes after"), "{backwards}");
}

#[test]
fn time_show_says_the_date_the_round_the_session_and_the_epoch() {
    let c = Campaign::with_party();
    c.ok(&["time", "advance", "1d2h30m1r"]);
    c.ok(&["time", "advance", "1r"]);
    c.ok(&["session", "start"]);
    let shown = c.ok(&["time", "show"]);
    assert!(shown.starts_with("It is Day 2, 02:30.\n"), "{shown}");
    assert!(shown.contains("Session 1 is open"), "{shown}");
    assert!(shown.contains("Dice epoch 1"), "{shown}");
    let json = c.json(&["time", "show"]);
    assert_eq!(json["day"], 2);
    assert_eq!(json["open_session"]["number"], 1);
    let before = c.json(&["time", "show", "--at", "3"]);
    assert_eq!(before["game_time"], 0);
    assert!(before["open_session"].is_null());
    let err = c.refused(&["time", "show", "--rolls", "4"], 2);
    assert!(err.contains("rolls no dice"), "{err}");
}

#[test]
fn log_filters_by_character_and_keeps_the_last_n() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "1"]);
    c.ok(&["damage", "Mira", "2"]);
    c.ok(&["heal", "Aldric", "1"]);
    let aldric = c.json(&["log", "--character", "ALDRIC"]);
    let kinds: Vec<&str> = aldric["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["character_added", "damage_taken", "healed"]);
    let last = c.json(&["log", "--limit", "2"]);
    let seqs: Vec<u64> = last["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, vec![6, 7]);
}

/// A character's log shows what undid, amended or revealed their events, though those events name
/// only a number: a player asking for their own history sees that their damage was taken back.
#[test]
fn log_by_character_shows_the_retractions_amendments_and_reveals_of_their_events() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    let seq_of = |args: &[&str]| c.seq_of(args).to_string();
    let aldrics = seq_of(&["damage", "Aldric", "3"]);
    let miras = seq_of(&["damage", "Mira", "2"]);
    c.ok(&[
        "amend",
        &miras,
        "--",
        "damage",
        "Mira",
        "4",
        "--reason",
        "a deeper cut",
    ]);
    let taken_back = seq_of(&["retract", &aldrics, "--reason", "wrong character"]);
    let sealed = seq_of(&[
        "roll",
        "d20",
        "--sealed",
        "--character",
        "Mira",
        "--for",
        "the ambush",
    ]);
    c.ok(&["reveal", &sealed]);
    // Undoing the retraction names only the retraction, which names only Aldric's damage.
    c.ok(&[
        "retract",
        &taken_back,
        "--reason",
        "it was Aldric after all",
    ]);
    let kinds_and_seqs = |args: &[&str]| -> Vec<(String, u64)> {
        c.logged(args)
            .iter()
            .map(|e| {
                (
                    e["kind"].as_str().unwrap().to_string(),
                    e["seq"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let kinds = |args: &[&str]| -> Vec<String> {
        kinds_and_seqs(args)
            .into_iter()
            .map(|(kind, _)| kind)
            .collect()
    };
    assert_eq!(
        kinds(&["--character", "Aldric"]),
        ["character_added", "damage_taken", "retracted", "retracted"]
    );
    assert_eq!(
        kinds(&["--character", "mira"]),
        [
            "character_added",
            "damage_taken",
            "amended",
            "dice_rolled",
            "sealed_revealed"
        ]
    );
    // The newest few, read back by the name, find them too, and only as many as asked for.
    assert_eq!(
        kinds(&["--character", "Mira", "--limit", "2"]),
        ["dice_rolled", "sealed_revealed"]
    );
    assert_eq!(
        kinds(&["--character", "Aldric", "--limit", "1"]),
        ["retracted"]
    );
    assert_eq!(
        kinds_and_seqs(&[
            "--character",
            "Aldric",
            "--kind",
            "retracted",
            "--from",
            &taken_back
        ])
        .len(),
        2
    );
    // An amendment that moved damage to another, retracted after later events: the retraction
    // names only the amendment, which names the other, yet the damage was the first's all along.
    let moved = seq_of(&["damage", "Aldric", "1", "--reason", "a trap"]);
    c.ok(&[
        "amend", &moved, "--", "damage", "Mira", "1", "--reason", "a trap",
    ]);
    let amendment = (moved.parse::<u64>().unwrap() + 1).to_string();
    for _ in 0..3 {
        c.ok(&["heal", "Aldric", "1"]);
    }
    c.ok(&["retract", &amendment, "--reason", "it was Aldric"]);
    let newest = kinds_and_seqs(&["--character", "Aldric", "--limit", "2"]);
    assert_eq!(
        newest
            .iter()
            .map(|(kind, _)| kind.as_str())
            .collect::<Vec<_>>(),
        ["healed", "retracted"]
    );
    let all = kinds_and_seqs(&["--character", "Aldric"]);
    assert_eq!(all[all.len() - 2..], newest[..]);
    // Other filters still hold for them, and another character's log stays without them.
    assert!(kinds(&["--character", "Aldric", "--session", "2"]).is_empty());
    let text = c.ok(&["log", "--character", "Aldric"]);
    assert!(text.contains("retracted: wrong character"), "{text}");
    assert!(!text.contains("a deeper cut"), "{text}");
}

/// A disputed roll is found by who it was for, who entered it, its kind or its words.
#[test]
fn log_finds_a_roll_by_character_kind_actor_and_words() {
    let c = Campaign::with_party();
    c.ok(&["roll", "d20", "--for", "stealth", "--character", "aldric"]);
    c.ok(&["--actor", "Sam", "roll", "d6", "--for", "the door"]);
    c.ok(&["damage", "Aldric", "2"]);
    let seqs = |args: &[&str]| -> Vec<u64> {
        c.logged(args)
            .iter()
            .map(|e| e["seq"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(
        seqs(&["--character", "Aldric", "--kind", "dice_rolled"]),
        [5]
    );
    // `--actor` says who enters a command; `--by` finds what someone entered.
    assert_eq!(seqs(&["--by", "sam"]), [6]);
    assert_eq!(seqs(&["--grep", "STEALTH"]), [5]);
    assert_eq!(seqs(&["--kind", "dice_rolled", "--limit", "1"]), [6]);
    assert_eq!(seqs(&["--character", "Aldric", "--limit", "2"]), [5, 7]);
    let line = c.ok(&["log", "--grep", "stealth"]);
    assert!(line.contains("Aldric rolled d20 for stealth"), "{line}");
    let kind = c.refused(&["log", "--kind", "fireball"], 2);
    assert!(
        kind.contains("dice_rolled") && kind.contains("ritual_cast"),
        "{kind}"
    );
    let nobody = c.refused(&["roll", "d20", "--character", "Nobody"], 1);
    assert!(nobody.contains("no character named 'Nobody'"), "{nobody}");
}

/// With --limit the newest events are read first, in chunks; what it shows is the end of the full
/// log, across chunk edges and with a filter skipping rows.
#[test]
fn log_limit_shows_exactly_the_end_of_the_full_log() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "4", "--events", "700"]);
    let lines = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["log"];
        all.extend_from_slice(args);
        c.ok(&all).lines().map(str::to_string).collect()
    };
    let full = lines(&[]);
    assert_eq!(full.len(), 700);
    assert_eq!(lines(&["--limit", "300"]), full[full.len() - 300..]);
    let damage = lines(&["--kind", "damage_taken"]);
    assert!(damage.len() > 40, "{}", damage.len());
    assert_eq!(
        lines(&["--kind", "damage_taken", "--limit", "40"]),
        damage[damage.len() - 40..]
    );
}

#[test]
fn head_prints_the_short_checkpoint_code() {
    let c = Campaign::with_party();
    let head = c.ok(&["head"]);
    let (seq, hash) = head.trim().split_once(':').unwrap();
    assert_eq!((seq, hash.len()), ("4", 16));
}

#[test]
fn explain_snapshot_of_a_seeded_roll_after_reveal() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "lanterns"]);
    c.ok(&["roll", "oe+45", "--for", "Mira's Elementalism"]);
    c.ok(&["session", "end"]);
    c.ok(&["seed", "reveal"]);
    insta::assert_snapshot!("explain_seeded", c.ok(&["explain", "6"]));
}

/// The tour is the README's first command, so it must finish whatever the seeded dice say: a
/// seeded mishap once locked the caster out and stopped it in one run out of five.
#[test]
fn the_tour_finishes_whatever_the_seeded_dice_say() {
    let c = Campaign::empty();
    for seed in 0..40 {
        c.cmd()
            .env("GRIMOIRE_RANDOMNESS_SEED", seed.to_string())
            .args(["tour", "--into", "tour.db"])
            .assert()
            .success();
    }
}

#[test]
fn the_tour_plays_an_evening_into_its_own_file_and_verifies() {
    let c = Campaign::empty();
    let out = c.ok(&["tour"]);
    for step in [
        "$ grimoire init",
        "$ grimoire character show Mira",
        "For your eyes only: d20: [",
        "$ grimoire peek ",
        "$ grimoire seed reveal",
        "all checks hold",
    ] {
        assert!(out.contains(step), "missing {step}:\n{out}");
    }
    // Every step's output follows its command, the whole log's included.
    assert!(out.starts_with("# A new campaign"), "{out}");
    let (_, after_log) = out
        .split_once("$ grimoire log\n")
        .expect("the tour shows the log");
    assert!(after_log.starts_with("#1 "), "{after_log}");
    assert!(
        out.contains("wrote S"),
        "the party's downtime writes a scroll:\n{out}"
    );
    let tour_db = c.dir.path().join("tour.db");
    crate::support::grimoire_cmd(&tour_db, c.dir.path())
        .arg("verify")
        .assert()
        .success();
    // It ends by writing the campaign's report beside its file.
    assert!(out.contains("$ grimoire report --out"), "{out}");
    let page = std::fs::read_to_string(c.dir.path().join("tour.html")).expect("tour.html");
    assert!(page.contains("The Sunken Vault") && page.contains("<h3>Mira</h3>"));
    // A second tour replaces the first one's file rather than failing.
    c.ok(&["tour"]);
    // But never a file that is not a grimoire campaign.
    std::fs::write(c.dir.path().join("notes.db"), "my notes").unwrap();
    c.cmd()
        .args(["tour", "--into", "notes.db"])
        .assert()
        .code(1);
    assert_eq!(
        std::fs::read_to_string(c.dir.path().join("notes.db")).unwrap(),
        "my notes"
    );
}

/// ADG-C4 and T-2: at 0 current health a character of either system is "down"; an ADG character is
/// dead only when a maximum reaches 0.
#[test]
fn adg_c4_t2_the_sheet_says_down_at_zero_health_and_dead_only_when_a_maximum_reaches_zero() {
    let c = Campaign::with_party();
    assert!(
        c.ok(&["damage", "Aldric", "8"])
            .contains("Health now 0/8 (down).")
    );
    assert!(
        c.ok(&["character", "show", "Aldric"])
            .contains("Health 0/8 (down)")
    );
    assert_eq!(
        c.json(&["character", "show", "Aldric"])["character"]["status"],
        "down"
    );
    c.ok(&["damage", "Mira", "14"]);
    assert!(c.ok(&["character", "list"]).contains("0/14 (down)"));
    c.ok(&["heal", "Aldric", "1"]);
    assert!(
        c.json(&["character", "show", "Aldric"])["character"]
            .get("status")
            .is_none()
    );

    // A learning cost that takes maximum health to 0 kills.
    let d = Campaign::empty();
    d.ok(&["init", "--name", "Grim"]);
    d.add_adg("Pell", 1, 9, 2, 0);
    d.ok(&[
        "--rolls",
        "2",
        "ritual",
        "learn",
        "Pell",
        "Concealing Darkness",
        "--type",
        "phrase",
        "--pay",
        "health",
    ]);
    assert!(
        d.ok(&["character", "show", "Pell"])
            .contains("Health 0/0 (dead)")
    );
    let refused = d.refused(&["heal", "Pell", "1"], 1);
    assert!(refused.contains("Pell is dead"), "{refused}");
}

/// Like every recording command, `damage` and `heal` keep a reason when given one, checked as any
/// text the log keeps.
#[test]
fn c2_damage_and_healing_keep_their_reason() {
    let c = Campaign::with_party();
    let hit = c.ok(&["damage", "Aldric", "3", "--reason", "a troll's club"]);
    assert!(
        hit.contains("Aldric takes 3 damage: a troll's club"),
        "{hit}"
    );
    let healed = c.json(&["heal", "Aldric", "2", "--reason", "a potion"]);
    assert_eq!(healed["appended"][0]["payload"]["reason"], "a potion");
    let head = c.head();
    let empty = c.refused(&["heal", "Aldric", "1", "--reason", "  "], 1);
    assert!(empty.contains("the reason is empty"), "{empty}");
    let painted = c.refused(&["damage", "Aldric", "1", "--reason", "red\u{1b}[31m"], 1);
    assert!(painted.contains("control characters"), "{painted}");
    assert_eq!(c.head(), head, "nothing recorded");
    // Without one, the line is as it always was.
    assert!(
        c.ok(&["damage", "Aldric", "1"])
            .contains("Aldric takes 1 damage\n")
    );
}

/// A recap names who died that evening, and the scrolls that did not survive being read.
#[test]
fn adg_c4_adg_s7_a_session_recap_names_the_dead_and_counts_the_scrolls_lost() {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "Grim"]);
    for (name, health) in [("Pell", 2), ("Wen", 9)] {
        c.add_adg(name, 1, 9, health, 50);
    }
    c.ok(&learning("Wen", "Concealing Darkness", "phrase"));
    let scroll = c.write_scroll("Wen", "Concealing Darkness", "a shadow hides the door");
    c.ok(&["session", "start"]);
    // Reuse d20 of 20: above Wen's Cunning, so the scroll turns to ash.
    c.ok(&[
        "--rolls",
        "20",
        "scroll",
        "read",
        "Wen",
        &format!("S{scroll}"),
    ]);
    c.ok(&[
        "--rolls",
        "2",
        "ritual",
        "learn",
        "Pell",
        "Concealing Darkness",
        "--type",
        "phrase",
        "--pay",
        "health",
    ]);
    c.ok(&["session", "end"]);
    let recap = c.ok(&["session", "recap"]);
    assert!(
        recap.contains("0 scrolls written, 1 read, 1 lost (ash or damaged)"),
        "{recap}"
    );
    assert!(recap.contains("Died: Pell."), "{recap}");
    let json = c.json(&["session", "recap"]);
    assert_eq!(json["deaths"][0], "Pell");
    assert_eq!(json["tally"]["scrolls_lost"], 1);
}

/// Completions and the manual come from the same definitions as --help, and never touch a campaign.
#[test]
fn completions_and_the_man_page_are_generated_without_opening_a_campaign() {
    let c = Campaign::empty();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = c.ok(&["completions", shell]);
        assert!(
            script.contains("ritual") && script.contains("scroll"),
            "{shell}"
        );
    }
    let page = c.ok(&["man"]);
    assert!(
        page.contains(".TH grimoire 1") && page.contains("docs/rules.md"),
        "{page}"
    );
    assert!(!c.db.exists(), "no campaign file was created");
    c.refused(&["completions", "tcsh"], 2);
}

/// Completing a word with bash's script runs `complete-names` against the campaign named on the
/// line: names with spaces come back escaped, subcommands still come from clap.
#[test]
fn bash_completion_offers_the_campaigns_names_where_a_command_takes_a_name() {
    let c = Campaign::with_party();
    let script = c.dir.path().join("grimoire.bash");
    std::fs::write(&script, c.ok(&["completions", "bash"])).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_grimoire"))
        .parent()
        .unwrap()
        .to_path_buf();
    let complete = |words: &[&str]| -> Vec<String> {
        let line = words.join(" ");
        let program = format!(
            "source {script}; COMP_WORDS=({line}); COMP_CWORD={cword}; \
             _grimoire_with_names grimoire {cur} {prev}; printf '%s\n' \"${{COMPREPLY[@]}}\"",
            script = script.display(),
            cword = words.len() - 1,
            cur = words[words.len() - 1],
            prev = words[words.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &program])
            .current_dir(c.dir.path())
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("HOME", c.dir.path())
            .env_remove("GRIMOIRE_DB")
            .output()
            .expect("bash runs");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let db = c.db.to_str().unwrap();
    assert_eq!(
        complete(&["grimoire", "--db", db, "damage", "Al"]),
        ["Aldric"]
    );
    c.ok(&crate::support::LEARN_SHADOW_STEP);
    assert_eq!(
        complete(&["grimoire", "--db", db, "ritual", "cast", "Aldric", "Sha"]),
        ["Shadow\\ Step"]
    );
    assert_eq!(
        complete(&["grimoire", "--db", db, "ritual", "ca"]),
        ["cast"]
    );
    // --db=PATH, which bash splits at the '='.
    assert_eq!(
        complete(&["grimoire", "--db", "=", db, "damage", "Al"]),
        ["Aldric"]
    );
    // An empty word after a command that takes a name: the names, not clap's flags; a word
    // begun with `-`: the flags alone. An option's value before the command is not a command.
    assert_eq!(
        complete(&["grimoire", "--db", db, "damage", "''"]),
        ["Aldric", "Mira", "Shadow\\ Step"]
    );
    let flags = complete(&["grimoire", "--db", db, "damage", "-"]);
    assert!(
        flags.iter().all(|w| w.starts_with('-')) && flags.contains(&"--reason".to_string()),
        "{flags:?}"
    );
    assert_eq!(
        complete(&["grimoire", "--actor", "gm", "--db", db, "heal", "Mi"]),
        ["Mira"]
    );
    // Where a command takes a file or a number, no names: bash falls back to file names. Where
    // it gives a new name (a campaign's, a character's), none of the names already taken.
    for words in [
        &["grimoire", "--db", db, "import", "Al"][..],
        &["grimoire", "--db", db, "seed", "reveal", "Al"],
        &["grimoire", "--db", db, "init", "--name", "Al"],
        &["grimoire", "--db", db, "character", "add", "adg", "Al"],
    ] {
        assert!(
            !complete(words).contains(&"Aldric".to_string()),
            "{words:?}"
        );
    }
    assert_eq!(
        complete(&["grimoire", "--db", db, "import", "Al"]),
        Vec::<String>::new()
    );
    // The path as typed at the prompt, quoted or escaped (bash hands the script the raw word).
    std::fs::copy(&c.db, c.dir.path().join("my campaign.db")).unwrap();
    let dir = c.dir.path().display();
    for typed in [
        format!("\"'{dir}/my campaign.db'\""),
        format!("'\"{dir}/my campaign.db\"'"),
        format!("\"{dir}/my\\ campaign.db\""),
        "\"~/my\\ campaign.db\"".to_string(),
    ] {
        assert_eq!(
            complete(&["grimoire", "--db", &typed, "damage", "Al"]),
            ["Aldric"],
            "{typed}"
        );
    }

    // fish, where installed: the same names after `heal`, and file names (not names) after
    // `import`.
    if std::process::Command::new("fish")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("GRIMOIRE_REQUIRE_FISH").is_none(),
            "fish is required here"
        );
        return;
    }
    let fish_script = c.dir.path().join("grimoire.fish");
    std::fs::write(&fish_script, c.ok(&["completions", "fish"])).unwrap();
    let fish = |line: &str| -> Vec<String> {
        let program = format!("source '{}'; complete -C \"{line}\"", fish_script.display());
        let out = std::process::Command::new("fish")
            .args(["--no-config", "-c", &program])
            .current_dir(c.dir.path())
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("HOME", c.dir.path())
            .env_remove("GRIMOIRE_DB")
            .output()
            .expect("fish runs");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(fish(&format!("grimoire --db '{db}' heal Al")), ["Aldric"]);
    assert_eq!(
        fish(&format!("grimoire --db '{db}' import grimoire.")),
        ["grimoire.bash", "grimoire.fish"]
    );
}

/// Names anyone can write (an imported file, a player on a shared campaign) reach the GM's shell
/// through completion. In bash and fish they are offered as inert text: completing runs nothing
/// they hold, and each candidate, read back as the shell reads a word, is exactly the name.
#[test]
fn completion_offers_hostile_names_as_inert_text_in_bash_and_fish() {
    let c = Campaign::with_party();
    let hostile = [
        "x$(touch${IFS}PWNED1)",
        "x`touch PWNED2`",
        "x;touch PWNED3",
        "x*",
        "x'q\"uote",
        "x y  z",
        "x$HOME",
    ];
    for name in hostile {
        c.add_adg(name, 1, 10, 6, 0);
    }
    // A name that would break a line is never a name at all.
    c.refused(
        &[
            "character",
            "add",
            "adg",
            "x\nPWNED4",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "5",
        ],
        1,
    );
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_grimoire"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let db = c.db.to_str().unwrap();
    let no_file_made = |shell: &str| {
        let made: Vec<_> = std::fs::read_dir(c.dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("PWNED"))
            .collect();
        assert!(made.is_empty(), "{shell} completion ran a name: {made:?}");
    };

    let script = c.dir.path().join("grimoire.bash");
    std::fs::write(&script, c.ok(&["completions", "bash"])).unwrap();
    // Complete `grimoire --db DB heal x<Tab>`, then read each candidate back as bash reads a word
    // on the line (`eval set --`), which expands nothing a %q-quoted word holds.
    let program = format!(
        "source '{script}'; COMP_WORDS=(grimoire --db '{db}' heal x); COMP_CWORD=4; \
         _grimoire_with_names grimoire x heal; \
         for w in \"${{COMPREPLY[@]}}\"; do eval \"set -- $w\"; printf '%s\\0' \"$1\"; done",
        script = script.display(),
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &program])
        .current_dir(c.dir.path())
        .env("PATH", &path)
        .env_remove("GRIMOIRE_DB")
        .output()
        .expect("bash runs");
    let mut offered: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    offered.sort();
    let mut expected: Vec<String> = hostile.iter().map(|n| n.to_string()).collect();
    expected.sort();
    assert_eq!(
        offered,
        expected,
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    no_file_made("bash");

    // fish, where installed (.ci/run installs it): `complete -C` lists what Tab would offer.
    let fish_here = std::process::Command::new("fish")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !fish_here {
        assert!(
            std::env::var_os("GRIMOIRE_REQUIRE_FISH").is_none(),
            "fish is required here (GRIMOIRE_REQUIRE_FISH) but is not installed"
        );
        eprintln!("skipped fish's half: install fish (apt-get install fish) to run it");
        return;
    }
    let script = c.dir.path().join("grimoire.fish");
    std::fs::write(&script, c.ok(&["completions", "fish"])).unwrap();
    let program = format!(
        "source '{}'; complete -C \"grimoire --db '{db}' heal x\"",
        script.display()
    );
    let out = std::process::Command::new("fish")
        .args(["--no-config", "-c", &program])
        .current_dir(c.dir.path())
        .env("PATH", &path)
        .env("HOME", c.dir.path())
        .env_remove("GRIMOIRE_DB")
        .output()
        .expect("fish runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let mut offered: Vec<String> = said
        .lines()
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .filter(|n| hostile.contains(&n.as_str()))
        .collect();
    offered.sort();
    assert_eq!(offered, expected, "fish offered: {said}");
    no_file_made("fish");
}

/// The names completion reads open the file only to read: a missing file is not created, an
/// older campaign file is not migrated, a foreign file is left alone, and none prints anything; a
/// campaign's names are read without making SQLite's journal files beside it.
#[test]
fn completion_names_never_create_or_migrate_a_file() {
    let missing = Campaign::empty();
    assert_eq!(missing.ok(&["complete-names"]), "");
    assert!(!missing.db.exists());

    let old = Campaign::from_the_first_schema();
    let before = std::fs::read(&old.db).unwrap();
    assert_eq!(old.ok(&["complete-names"]), "");
    assert_eq!(
        std::fs::read(&old.db).unwrap(),
        before,
        "the old file was changed"
    );
    let beside: Vec<_> = std::fs::read_dir(old.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside.len(), 1, "files appeared beside it: {beside:?}");

    let foreign = Campaign::empty();
    std::fs::write(&foreign.db, "my notes").unwrap();
    assert_eq!(foreign.ok(&["complete-names"]), "");
    assert_eq!(std::fs::read_to_string(&foreign.db).unwrap(), "my notes");

    let current = Campaign::with_party();
    let alone = |c: &Campaign| {
        std::fs::read_dir(c.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect::<Vec<_>>()
    };
    assert_eq!(alone(&current).len(), 1);
    assert_eq!(current.ok(&["complete-names"]), "Aldric\nMira\n");
    assert_eq!(
        alone(&current).len(),
        1,
        "SQLite's journal files were made beside it: {:?}",
        alone(&current)
    );
    // While another process has the campaign open, its newest events may be only in the journal,
    // which completion does not read (reading it takes a lock and can make the journal's files):
    // they are offered once the journal is folded into the file.
    let open = current.sql();
    let _: i64 = open
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap();
    current.add_adg("Wen", 1, 9, 5, 0);
    let offered = current.ok(&["complete-names"]);
    assert!(offered.starts_with("Aldric\nMira\n"), "{offered}");
    drop(open);
    assert_eq!(current.ok(&["complete-names"]), "Aldric\nMira\nWen\n");
}

#[test]
fn character_add_takes_the_system_first_with_only_its_flags_and_the_old_form_still_works() {
    let new_form = Campaign::empty();
    new_form.ok(&["init", "--name", "Forms"]);
    new_form.ok(&[
        "character",
        "add",
        "adg",
        "Aldric",
        "--level",
        "2",
        "--agility",
        "11",
        "--brawn",
        "9",
        "--cunning",
        "13",
        "--health",
        "8",
        "--silver",
        "40",
    ]);
    new_form.ok(&[
        "character",
        "add",
        "vsd",
        "Mira",
        "--level",
        "3",
        "--vocation",
        "wizard",
        "--lore",
        "Elementalism=45:6",
        "--mp",
        "12",
        "--drive",
        "3",
        "--body",
        "40",
        "--wsr",
        "20",
        "--defense",
        "10",
        "--health",
        "14",
        "--lore=Divination=20:3",
    ]);
    let old_form = Campaign::empty();
    old_form.ok(&["init", "--name", "Forms"]);
    old_form.ok(&ADG_ALDRIC);
    old_form.ok(&VSD_MIRA);
    for name in ["Aldric", "Mira"] {
        assert_eq!(
            new_form.ok(&["character", "show", name]),
            old_form.ok(&["character", "show", name]),
            "the same sheet either way"
        );
    }
    // A flag of the other system is not offered, so it is a usage error.
    let err = new_form.refused(
        &[
            "character",
            "add",
            "adg",
            "Bryn",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "5",
            "--mp",
            "3",
        ],
        2,
    );
    assert!(err.contains("--mp"), "{err}");
    let help = new_form.ok(&["character", "add", "adg", "--help"]);
    assert!(
        help.contains("--cunning") && !help.contains("--vocation"),
        "{help}"
    );
    let group = new_form.ok(&["character", "add", "--help"]);
    assert!(group.contains("adg") && group.contains("vsd"), "{group}");
    assert!(
        !group.contains("--system"),
        "the old form stays out of help: {group}"
    );
}

/// The party at a glance: what each system tracks that a GM checks between turns, at any point.
#[test]
fn character_list_shows_the_party_at_a_glance() {
    let c = Campaign::with_party();
    c.ok(&["exert", "Aldric", "brawn", "2", "--reason", "the gate"]);
    c.ok(&["damage", "Aldric", "3"]);
    c.ok(&["drive", "Mira", "-1", "--reason", "a push"]);
    let list = c.ok(&["character", "list"]);
    let row = |name: &str| -> Vec<String> {
        let line = list
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default();
        line.split("  ")
            .map(str::trim)
            .filter(|cell| !cell.is_empty())
            .map(str::to_string)
            .collect()
    };
    assert!(list.starts_with("Name"), "a header row: {list}");
    assert_eq!(
        row("Aldric"),
        [
            "Aldric",
            "ADG",
            "2",
            "5/8",
            "Agi 11 Bra 7/9 Cun 13; rituals 0/2 today; silver 40"
        ],
        "{list}"
    );
    assert_eq!(
        row("Mira"),
        ["Mira", "VsD", "3", "14/14", "MP 12/12; Drive 2"],
        "{list}"
    );
    let before = c.ok(&["character", "list", "--at", "4"]);
    assert!(
        before.contains("Bra 9 ") && before.contains("Drive 3"),
        "{before}"
    );
}

/// What changed between two points, per character, with the events that changed it.
#[test]
fn diff_shows_what_changed_for_each_character_and_by_which_events() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    let hit = c.seq_of(&["damage", "Aldric", "3"]);
    let exert = c.seq_of(&["exert", "Aldric", "brawn", "2", "--reason", "the gate"]);
    c.ok(&["drive", "Mira", "+1", "--reason", "a deed"]);
    c.ok(&["session", "end"]);
    let text = c.ok(&[
        "diff",
        "Aldric",
        "--from",
        "session-start:1",
        "--to",
        "session:1",
    ]);
    // In words, never the fields' code names (JSON keeps those), in a table of before and after.
    assert!(text.contains(&format!("at #{}", hit - 1)), "{text}");
    assert_eq!(changed_row(&text, "health"), ["health", "8", "5"], "{text}");
    assert_eq!(
        changed_row(&text, "Brawn exerted"),
        ["Brawn exerted", "0", "2"],
        "{text}"
    );
    assert!(!text.contains("adg.") && !text.contains("_"), "{text}");
    assert!(text.contains(&format!("by #{hit} #{exert}")), "{text}");
    let party = c.json(&["diff", "--party", "--from", "session-start:1"]);
    let mira = party["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|ch| ch["character"] == "Mira")
        .unwrap();
    assert_eq!(mira["changes"][0]["field"], "vsd.drive");
    assert_eq!(mira["changes"][0]["from"], 3);
    assert_eq!(mira["changes"][0]["to"], 4);
    let still = c.ok(&["diff", "Mira", "--from", "session:1"]);
    assert!(still.contains("Mira: no change"), "{still}");
    c.refused(&["diff", "--from", "1"], 2);
    c.refused(&["diff", "Aldric", "--party", "--from", "1"], 2);
    c.refused(&["diff", "Aldric", "--from", "session:1", "--to", "3"], 2);
    c.refused(&["diff", "Nobody", "--from", "1"], 1);
}

/// The cells of the row of a diff's table that starts with `label`.
fn changed_row(text: &str, label: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with(&format!("{label}  ")))
        .unwrap_or_default()
        .split("  ")
        .map(str::trim)
        .filter(|cell| !cell.is_empty())
        .map(str::to_string)
        .collect()
}

/// An evening in numbers, then each character's changes from its start to its end.
#[test]
fn session_recap_sums_up_an_evening() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "3"]);
    c.ok(&["heal", "Aldric", "1"]);
    c.ok(&["--rolls", "4", "roll", "d6"]);
    c.ok(&["time", "advance", "2h"]);
    c.ok(&["session", "end"]);
    let recap = c.ok(&["session", "recap", "1"]);
    assert!(
        recap.starts_with("Session 1: #5 to #10, Day 1, 00:00 to Day 1, 02:00 (2h passed)"),
        "{recap}"
    );
    assert!(recap.contains("3 damage taken, 1 healed"), "{recap}");
    assert!(recap.contains("Dice: 1 entered at the table"), "{recap}");
    assert_eq!(
        changed_row(&recap, "health"),
        ["health", "8", "6"],
        "{recap}"
    );
    assert!(recap.contains("No one died."), "{recap}");
    // The newest session by default, and one still open is recapped so far.
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Mira", "2"]);
    let open = c.json(&["session", "recap"]);
    assert_eq!(open["session"], 2);
    assert_eq!(open["open"], true);
    assert_eq!(open["tally"]["damage"], 2);
    let none = c.refused(&["session", "recap", "9"], 1);
    assert!(none.contains("no session 9"), "{none}");
}

/// The recap's health tallies come from what replay applied, whatever the source: a retracted
/// blow is left out; a mishap's burn, a ritual's healing and a damaged scroll's spark count; a
/// healing capped at the maximum counts only what it healed; the totals match the sheet.
#[test]
fn c2_adg_r7_adg_s6_a_recap_counts_every_source_of_damage_and_healing_as_applied() {
    let c = Campaign::with_party();
    // Two rituals learned, each paid with 1 maximum health: Aldric stands at 6/6.
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    c.ok(&learning("Aldric", "Calling Moon", "ceremony"));
    let scroll = c.write_scroll("Aldric", "Concealing Darkness", "a shadow hides the door");
    c.ok(&["session", "start"]);
    let blow = c.seq_of(&["damage", "Aldric", "4"]);
    c.ok(&["retract", &blow.to_string(), "--reason", "it missed"]);
    c.ok(&["damage", "Aldric", "5"]); // 6 -> 1: 5 taken
    // Check 5 within Cunning 13; level 2 heals 2d6 = 4 + 3 = 7, but only 5 fit: 1 -> 6.
    c.ok(&[
        "--rolls",
        "5,4,3",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
        "--effect",
        "healing",
        "--target",
        "Aldric",
    ]);
    // Check 19 fails by 6; mishap 3 + 4 + 6 = 13: backlash, 1d6 = 2 damage: 6 -> 4.
    c.ok(&[
        "--rolls",
        "19,3,4,2",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    // Hurt while reading: Agility save 20 fails; damaged chart 10 + SL 1 = 11: a spark, 1d4 = 3:
    // 4 -> 1.
    c.ok(&[
        "--rolls",
        "20,10,3",
        "scroll",
        "read",
        "Aldric",
        &format!("S{scroll}"),
        "--took-damage",
    ]);
    c.ok(&["session", "end"]);
    let recap = c.json(&["session", "recap"]);
    // Damage 5 + 2 + 3 = 10 (the retracted 4 left out); healing 5 (of the 7 rolled).
    assert_eq!(recap["tally"]["damage"], 10, "{recap}");
    assert_eq!(recap["tally"]["healing"], 5, "{recap}");
    assert_eq!(recap["tally"]["retractions"], 1, "{recap}");
    // 6 - 10 + 5 = 1, as the sheet says.
    let aldric = c.json(&["character", "show", "Aldric"]);
    assert_eq!(aldric["character"]["health"]["current"], 1);
    let text = c.ok(&["session", "recap"]);
    assert!(
        text.contains("10 damage taken, 5 healed; 1 retraction"),
        "{text}"
    );
    assert!(text.contains("(no time passed)"), "{text}");
}

/// Over a generated campaign (every kind of event, retractions among them), each session's recap
/// counts exactly the health its sheets lost and regained between its start and its end.
#[test]
fn c2_every_recap_of_a_generated_campaign_agrees_with_its_sheets() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "4", "--events", "1500"]);
    let sessions = c.json(&["session", "recap"])["session"]
        .as_u64()
        .expect("a session");
    assert!(sessions >= 3, "{sessions} sessions");
    let mut damage_seen = 0;
    for n in 1..sessions {
        let recap = c.json(&["session", "recap", &n.to_string()]);
        let tally = |field: &str| recap["tally"][field].as_i64().expect(field);
        let back = |field: &str| {
            recap["tally"]["reaching_back"][field]
                .as_i64()
                .expect(field)
        };
        let sheets = |field: &str| {
            recap["tally"]["sheet_changes"][field]
                .as_i64()
                .expect(field)
        };
        let counted = tally("healing") - tally("damage") - tally("with_maxima_lost")
            + back("regained")
            - back("lost")
            + sheets("gained")
            - sheets("lost");
        let diff = c.json(&[
            "diff",
            "--party",
            "--from",
            &format!("session-start:{n}"),
            "--to",
            &format!("session:{n}"),
        ]);
        let mut shown = 0;
        for character in diff["characters"].as_array().expect("characters") {
            for change in character["changes"].as_array().expect("changes") {
                if change["field"] == "health.current" {
                    shown +=
                        change["to"].as_i64().expect("to") - change["from"].as_i64().expect("from");
                }
            }
        }
        assert_eq!(counted, shown, "session {n}: {recap}");
        damage_seen += tally("damage");
    }
    assert!(damage_seen > 0, "the generated sessions took damage");
}

/// From a hostile pass over recaps and diffs: a character who joins mid-session is flagged as
/// joined and their wounds count from when they joined; a retraction that reaches back names the
/// character it touches; a session whose retractions take the clock back says so; a character
/// named twice is shown once; records read as words, never as JSON.
#[test]
fn c2_t2_recaps_and_diffs_read_right_at_their_edges() {
    let c = Campaign::with_party();
    let rest = c.seq_of(&["rest", "--party", "--night"]);
    c.ok(&["session", "start"]);
    c.ok(&[
        "character",
        "add",
        "adg",
        "Bob",
        "--level",
        "1",
        "--agility",
        "9",
        "--brawn",
        "9",
        "--cunning",
        "9",
        "--health",
        "10",
        "--silver",
        "0",
    ]);
    c.ok(&["damage", "Bob", "4"]);
    let undo = c.seq_of(&[
        "retract",
        &rest.to_string(),
        "--reason",
        "no rest after all",
    ]);
    c.ok(&["session", "end"]);
    let recap = c.json(&["session", "recap"]);
    assert_eq!(recap["tally"]["damage"], 4, "{recap}");
    let bob = recap["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .find(|ch| ch["character"] == "Bob")
        .expect("Bob")
        .clone();
    assert_eq!(bob["joined"], true, "{bob}");
    let text = c.ok(&["session", "recap"]);
    assert!(text.contains("(the clock went back 8h)"), "{text}");
    assert!(
        recap["seconds_passed"].as_i64().expect("seconds") < 0,
        "{recap}"
    );
    // The retraction undid Aldric's and Mira's rest: it is among the events that concern them.
    let diff = c.json(&[
        "diff",
        "Aldric",
        "aldric",
        "--from",
        "session-start:1",
        "--to",
        "session:1",
    ]);
    let characters = diff["characters"].as_array().expect("characters");
    assert_eq!(characters.len(), 1, "named twice, shown once: {diff}");
    assert!(
        characters[0]["events"]
            .as_array()
            .expect("events")
            .contains(&serde_json::json!(undo)),
        "{diff}"
    );
    // Lores read as words.
    let mark = c.head().expect("a head");
    let mark = mark.split(':').next().expect("a seq").to_string();
    c.ok(&[
        "character",
        "set",
        "Mira",
        "--lore",
        "Elementalism=50:7",
        "--reason",
        "training",
    ]);
    let text = c.ok(&["diff", "Mira", "--from", &mark]);
    assert!(
        text.contains("Elementalism (bonus 50, ranks 7); Divination (bonus 20, ranks 3)"),
        "{text}"
    );
    assert!(!text.contains('{') && !text.contains('"'), "{text}");
}

/// A retraction in one session of damage recorded in an earlier one shows on the sheet as health
/// regained; the recap names it apart from the evening's own healing.
#[test]
fn c2_a_recap_names_what_a_retraction_undid_from_before_the_session() {
    let c = Campaign::with_party();
    let blow = c.seq_of(&["damage", "Aldric", "3"]);
    c.ok(&["session", "start"]);
    c.ok(&["retract", &blow.to_string(), "--reason", "it was Mira"]);
    c.ok(&["damage", "Mira", "3"]);
    c.ok(&["session", "end"]);
    let recap = c.json(&["session", "recap"]);
    assert_eq!(recap["tally"]["damage"], 3, "{recap}");
    assert_eq!(recap["tally"]["healing"], 0, "{recap}");
    assert_eq!(recap["tally"]["reaching_back"]["regained"], 3, "{recap}");
    assert_eq!(recap["tally"]["reaching_back"]["lost"], 0, "{recap}");
    let text = c.ok(&["session", "recap"]);
    assert!(
        text.contains(
            "Events from before the session retracted, restored or amended: 3 health regained, 0 lost"
        ),
        "{text}"
    );
    assert_eq!(changed_row(&text, "health"), ["health", "5", "8"], "{text}");
}

/// C-1: a sheet's change says what moved, not a partial new sheet: after learning costs Aldric's
/// sheet shows 6/6, and a level's +2 takes it to 8/8 while the entered health goes 8 -> 10, which
/// the log must not print as "health 10".
#[test]
fn c1_a_level_up_and_a_correction_say_what_changed() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    c.ok(&learning("Aldric", "Calling Moon", "ceremony"));
    let up = c.ok(&["character", "level-up", "Aldric", "--health", "2"]);
    assert!(
        up.contains("Aldric's sheet changes: level 2 → 3, maximum health +2: a level gained"),
        "{up}"
    );
    assert_eq!(
        c.json(&["character", "show", "Aldric"])["character"]["health"]["max"],
        8
    );
    let set = c.ok(&[
        "character",
        "set",
        "Mira",
        "--lore",
        "Elementalism=50:7",
        "--lore",
        "Necromancy=10:1",
        "--reason",
        "training",
    ]);
    assert!(
        set.contains(
            "Mira's sheet is corrected: Elementalism +45 → +50, ranks 6 → 7, \
             Necromancy +10 with 1 rank (new lore): training"
        ),
        "{set}"
    );
}

/// Sheets change by events: a level gained, the GM's correction; what play has done stays done.
#[test]
fn c1_level_up_and_set_change_the_sheet_by_events_with_their_reasons() {
    let c = Campaign::with_party();
    c.mira_casts_ember();
    let spent = 12
        - c.json(&["character", "show", "Mira"])["character"]["vsd"]["mp_spent"]
            .as_u64()
            .unwrap();
    let up = c.ok(&[
        "character",
        "level-up",
        "mira",
        "--mp",
        "3",
        "--health",
        "2",
    ]);
    assert!(
        up.contains("Mira's sheet changes: level 3 → 4, maximum health +2, MP +3: a level gained"),
        "{up}"
    );
    let mira = c.json(&["character", "show", "Mira"])["character"].clone();
    assert_eq!(mira["vsd"]["mp_max"], 15);
    assert_eq!(
        mira["vsd"]["mp_max"].as_u64().unwrap() - mira["vsd"]["mp_spent"].as_u64().unwrap(),
        spent + 3
    );
    assert_eq!(mira["health"]["max"], 16);
    c.ok(&[
        "character",
        "set",
        "Mira",
        "--lore",
        "Elementalism=50:7",
        "--reason",
        "training",
    ]);
    let lore = c.json(&["character", "show", "Mira"])["character"]["vsd"]["lores"][0].clone();
    assert_eq!(
        (lore["bonus"].as_i64(), lore["ranks"].as_u64()),
        (Some(50), Some(7))
    );
    c.ok(&[
        "character",
        "set",
        "Aldric",
        "--silver",
        "50",
        "--reason",
        "a miscount",
    ]);
    let levels = c.ok(&["log", "--kind", "sheet_changed"]);
    assert!(levels.contains(": a level gained"), "{levels}");
    let corrections = c.ok(&["log", "--kind", "sheet_corrected"]);
    assert!(
        corrections.contains(": training") && corrections.contains(": a miscount"),
        "{corrections}"
    );
    // Refusals: another game's value, no reason, nothing changed, out of range, unknown.
    let wrong = c.refused(
        &["character", "set", "Aldric", "--mp", "4", "--reason", "x"],
        2,
    );
    assert!(
        wrong.contains("Aldric plays A Dungeon Game, whose sheet has no --mp"),
        "{wrong}"
    );
    c.refused(&["character", "set", "Aldric", "--level", "3"], 2);
    let same = c.refused(
        &[
            "character",
            "set",
            "Aldric",
            "--level",
            "2",
            "--reason",
            "x",
        ],
        1,
    );
    assert!(same.contains("nothing to change"), "{same}");
    let high = c.refused(
        &[
            "character",
            "set",
            "Aldric",
            "--level",
            "11",
            "--reason",
            "x",
        ],
        1,
    );
    assert!(high.contains("level must be 1 to 10"), "{high}");
    c.refused(&["character", "level-up", "Nobody"], 1);
    c.refused(&["character", "level-up", "Aldric", "--rolls", "3"], 2);
}

/// The log marks the same seeded dice as unwitnessed however it is read: streamed whole, the
/// newest few, or as JSON (each path finds a session's entropy its own way).
#[test]
fn every_way_of_reading_the_log_marks_the_same_unwitnessed_dice() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    let witnessed = c.seq_of(&["roll", "d20", "--for", "in the owls' session"]);
    c.ok(&["session", "end"]);
    c.ok(&["session", "start"]);
    let bare_session = c.seq_of(&["roll", "d20", "--for", "in a session without entropy"]);
    c.ok(&["session", "end"]);
    let outside = c.seq_of(&["roll", "d20", "--for", "between sessions"]);
    let expected = vec![bare_session, outside];
    let marked_text = |args: &[&str]| -> Vec<u64> {
        c.ok(args)
            .lines()
            .filter(|l| l.ends_with("[no player entropy]"))
            .map(|l| l[1..].split_whitespace().next().unwrap().parse().unwrap())
            .collect()
    };
    let marked_json = |args: &[&str]| -> Vec<u64> {
        c.json(args)["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["unwitnessed_dice"] == true)
            .map(|e| e["seq"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(marked_text(&["log"]), expected);
    assert_eq!(marked_text(&["log", "--limit", "8"]), expected);
    assert_eq!(marked_json(&["log"]), expected);
    assert_eq!(marked_json(&["log", "--limit", "8"]), expected);
    assert!(!expected.contains(&witnessed));
}

/// Each command's help lists its own options first, then the global ones apart, then, on a
/// command that rolls, the dice options under a heading that says where they apply.
#[test]
fn help_keeps_a_commands_own_options_apart_from_the_global_and_dice_ones() {
    let c = Campaign::empty();
    let damage = c.ok(&["damage", "--help"]);
    assert!(
        damage.contains("Global options:") && !damage.contains("--rolls"),
        "{damage}"
    );
    let help = c.ok(&["roll", "--help"]);
    let own = help.find("Options:").expect("own options");
    let global = help.find("Global options:").expect("global options");
    let dice = help
        .find("Dice (commands that roll):")
        .expect("dice options");
    assert!(own < global && global < dice, "{help}");
    assert!(
        help[global..dice].contains("--db") && help[global..dice].contains("--actor"),
        "{help}"
    );
    assert!(
        help[dice..].contains("--rolls <") && !help[..dice].contains("--rolls <"),
        "{help}"
    );
}

/// Verdicts stand out on a terminal: asked for, the colour is there; piped, with NO_COLOR or with
/// --color never, not one escape reaches the output, and the words are the same either way.
#[test]
fn colour_marks_the_verdicts_only_where_it_is_wanted() {
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
    let coloured = c.ok(&[&cast[..], &["--color", "always"]].concat());
    insta::assert_snapshot!("coloured_cast", coloured.escape_debug().to_string());
    c.ok(&["retract", "--last", "--reason", "a slip"]);
    let plain = c.ok(&cast);
    assert!(!plain.contains('\u{1b}'), "piped: {plain:?}");
    let never = c.ok(&["log", "--color", "never"]);
    let streamed = c.ok(&["log", "--color", "always"]);
    assert!(
        !never.contains('\u{1b}') && streamed.contains('\u{1b}'),
        "{streamed:?}"
    );
    let no_color = c
        .cmd()
        .env("NO_COLOR", "1")
        .args(["log", "--limit", "5"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&no_color.stdout).contains('\u{1b}'));
    // The same words, escapes aside.
    let stripped: String = {
        let mut text = String::new();
        let mut chars = streamed.chars();
        while let Some(ch) = chars.next() {
            if ch == '\u{1b}' {
                for next in chars.by_ref() {
                    if next == 'm' {
                        break;
                    }
                }
            } else {
                text.push(ch);
            }
        }
        text
    };
    assert_eq!(stripped, never);
    let refused = c
        .cmd()
        .args(["damage", "Nobody", "1", "--color", "always"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("\u{1b}[1m\u{1b}[31merror:"));
}

/// Long work shows its progress on a terminal's stderr, and nowhere else: a pipe, a test or
/// `--json` sees not one byte of it.
#[test]
fn progress_shows_on_a_terminal_only() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "4", "--events", "600"]);
    let export = c.dir.path().join("all.jsonl");
    let copy = c.dir.path().join("copy.db");
    for args in [
        vec!["verify"],
        vec!["snapshots", "rebuild"],
        vec!["export", "--out", export.to_str().unwrap()],
        vec![
            "--db",
            copy.to_str().unwrap(),
            "import",
            export.to_str().unwrap(),
        ],
    ] {
        let out = c.cmd().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Under a terminal (util-linux's `script` gives the command one) the bar appears.
    let Ok(script) = std::process::Command::new("script")
        .args([
            "-qc",
            &format!(
                "{} --db {} verify",
                env!("CARGO_BIN_EXE_grimoire"),
                c.db.display()
            ),
            "/dev/null",
        ])
        .current_dir(c.dir.path())
        .output()
    else {
        eprintln!("skipped the terminal half: no `script` (util-linux) on this machine");
        return;
    };
    let shown = String::from_utf8_lossy(&script.stdout);
    assert!(shown.contains("verifying ["), "{shown}");
    assert!(shown.contains("all checks hold"), "{shown}");
}

/// Steering seeded dice with events that roll nothing: a GM who knows the seed (a secrets export
/// holds it) and dislikes the die due next cannot put `time advance 1r` (or a damage, or any event
/// that rolls nothing) in front of the roll to give it another die. Two campaigns alike but for
/// those events roll the same faces.
#[test]
fn events_that_roll_nothing_do_not_move_the_next_seeded_die() {
    let plain = Campaign::with_party();
    let steered = Campaign::with_party();
    for c in [&plain, &steered] {
        c.ok(&["session", "start", "--entropy", "owls"]);
        c.ok(&["roll", "d20", "--for", "the lock"]);
    }
    steered.ok(&["time", "advance", "1r"]);
    steered.ok(&["time", "advance", "1r"]);
    steered.ok(&["damage", "Aldric", "1"]);
    let face = |c: &Campaign| {
        let rolled = c.json(&["roll", "d20", "--for", "Aldric sneaks"]);
        let die = rolled["appended"][0]["payload"]["dice"][0].clone();
        assert_eq!(die["provenance"]["roll"], 1, "{rolled}");
        die["value"].as_u64().unwrap()
    };
    assert_eq!(face(&plain), face(&steered));
    // A retracted roll still counts: the roll after it gets the next number (2), never the
    // retracted one's (1), so retracting cannot bring a die back to choose again.
    plain.ok(&["retract", "--last", "--reason", "a slip"]);
    let again = plain.json(&["roll", "d20", "--for", "Aldric sneaks"]);
    assert_eq!(
        again["appended"][0]["payload"]["dice"][0]["provenance"]["roll"], 2,
        "{again}"
    );
    assert!(plain.ok(&["verify"]).contains("all checks hold"));
}

/// From the third hostile pass: a correction or a level gained moves current health, but it is
/// neither damage nor healing; the recap counts it apart, and the sums still match the sheets.
#[test]
fn c1_c2_a_recap_counts_a_changed_sheets_health_apart_from_damage_and_healing() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    // Aldric 8/8 → corrected to 5/5 (3 lost) → a level with 2 health (7/7) → 1 damage (6/7).
    c.ok(&[
        "character",
        "set",
        "Aldric",
        "--health",
        "5",
        "--reason",
        "typo",
    ]);
    c.ok(&["character", "level-up", "Aldric", "--health", "2"]);
    c.ok(&["damage", "Aldric", "1"]);
    let recap = c.json(&["session", "recap"]);
    let tally = &recap["tally"];
    assert_eq!(
        (tally["damage"].as_u64(), tally["healing"].as_u64()),
        (Some(1), Some(0)),
        "{recap}"
    );
    assert_eq!(
        tally["sheet_changes"],
        serde_json::json!({ "gained": 2, "lost": 3 })
    );
    let text = c.ok(&["session", "recap"]);
    assert!(
        text.contains("1 damage taken, 0 healed")
            && text
                .contains("Sheets changed (a level gained, a correction): 2 health gained, 3 lost"),
        "{text}"
    );
}

/// One who joined within a diff's range shows each value they stand at, from nothing, with their
/// wounds: the health the sheet shows, not only that they joined.
#[test]
fn c2_a_diff_shows_every_value_of_one_who_joined() {
    let c = Campaign::with_party();
    let from = c.head().unwrap();
    let from = from.split(':').next().unwrap().to_string();
    c.add_adg("Bea", 1, 12, 6, 5);
    c.ok(&["damage", "Bea", "2"]);
    let diff = c.json(&["diff", "Bea", "--from", &from]);
    let bea = &diff["characters"][0];
    assert_eq!(bea["joined"], true, "{diff}");
    let field = |name: &str| {
        bea["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["field"] == name)
            .map(|c| (c["from"].clone(), c["to"].clone()))
    };
    assert_eq!(
        field("health.current"),
        Some((serde_json::Value::Null, 4.into()))
    );
    assert_eq!(
        field("health.max"),
        Some((serde_json::Value::Null, 6.into()))
    );
    assert_eq!(
        field("adg.silver"),
        Some((serde_json::Value::Null, 5.into()))
    );
    assert_eq!(field("name"), None, "the header names them");
    let text = c.ok(&["diff", "Bea", "--from", &from]);
    assert!(
        text.contains("Bea: joined\n") && text.contains("maximum health"),
        "{text}"
    );
}

/// An event's number is taken as `log` shows it, with its `#`, by every command that names one.
#[test]
fn an_event_is_named_by_its_number_with_or_without_its_hash_sign() {
    let c = Campaign::with_party();
    let hit = c.seq_of(&["damage", "Aldric", "2"]);
    let named = format!("#{hit}");
    assert!(c.ok(&["explain", &named]).contains(&format!("#{hit}")));
    c.ok(&["amend", &named, "--", "damage", "Aldric", "3"]);
    c.ok(&["retract", &named, "--reason", "missed"]);
    c.refused(&["explain", "#"], 2);
}

/// With no name given and none in the environment (USER, LOGNAME and USERNAME unset, as under a
/// service or `env -i`), a command is entered under the account's own name, not "unknown".
#[test]
fn a_command_with_no_actor_in_its_environment_is_entered_under_the_accounts_name() {
    let c = Campaign::empty();
    let mut init = c.cmd();
    init.env_remove("GRIMOIRE_ACTOR")
        .env_remove("USER")
        .env_remove("LOGNAME")
        .env_remove("USERNAME")
        .args(["init", "--name", "Quiet House"]);
    let out = init.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let first = &c.json(&["log"])["events"][0];
    let account = whoami::username().expect("this account has a name");
    assert_eq!(first["actor"], account.as_str(), "{first}");
    assert_ne!(first["actor"], "unknown");
}

/// ADG-R3 with C-2: a learning cost paid from maximum health takes current health with it, but
/// nothing dealt it: given Aldric at full health, when he learns a ritual paying 1 from his
/// maximum and then takes 2 damage, then the recap counts 2 damage (not 3) and names the 1 apart.
#[test]
fn adg_r3_c2_a_recap_counts_a_learning_cost_apart_from_damage() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    c.ok(&learning("Aldric", "Calling Moon", "ceremony"));
    c.ok(&["damage", "Aldric", "2"]);
    let recap = c.json(&["session", "recap"]);
    assert_eq!(recap["tally"]["damage"], 2, "{recap}");
    assert_eq!(recap["tally"]["with_maxima_lost"], 1, "{recap}");
    let text = c.ok(&["session", "recap"]);
    assert!(
        text.contains("2 damage taken")
            && text.contains(
                "Maximum health lost for good (learning costs) took 1 current health with it"
            ),
        "{text}"
    );
}
