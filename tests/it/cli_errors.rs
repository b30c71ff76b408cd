//! Bad input: each case gets a clear one-line message, the right exit code (usage 2, refused 1) and
//! leaves the log exactly as it was (`Campaign::refused` compares the chain head before and after).

use crate::support::{Campaign, grimoire_cmd};
use assert_cmd::assert::OutputAssertExt;

#[test]
fn an_unknown_character_is_refused_naming_who_exists() {
    let c = Campaign::with_party();
    let err = c.refused(&["damage", "Bob", "3"], 1);
    assert!(
        err.contains("no character named 'Bob'; known: Aldric, Mira"),
        "{err}"
    );
    c.refused(&["character", "show", "Bob"], 1);
    c.refused(&["log", "--character", "Bob"], 1);
}

#[test]
fn a_duplicate_name_is_refused_ignoring_case() {
    let c = Campaign::with_party();
    let err = c.refused(
        &[
            "character",
            "add",
            "aldric",
            "--system",
            "adg",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "4",
        ],
        1,
    );
    assert!(
        err.contains("a character named 'Aldric' already exists"),
        "{err}"
    );
}

/// Names and notes are recorded for good and shown on one-line log entries: a pasted line break or
/// a page of text is refused with what to do, and nothing is recorded.
#[test]
fn names_and_notes_must_be_one_short_line() {
    let c = Campaign::with_party();
    let err = c.refused(
        &[
            "exert",
            "Aldric",
            "cunning",
            "1",
            "--reason",
            "first line\nsecond",
        ],
        1,
    );
    assert!(
        err.contains("the reason must be one line: no line breaks"),
        "{err}"
    );
    let long_effect = "a".repeat(600);
    let err = c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Concealing Darkness",
            "--level",
            "1",
            "--effect",
            &long_effect,
        ],
        1,
    );
    assert!(
        err.contains("the scroll's effect is 600 characters long; at most 500 are allowed"),
        "{err}"
    );
}

#[test]
fn vsd12_a_magic_ritual_with_no_other_casters_named_is_a_usage_error() {
    let c = Campaign::with_party();
    let err = c.refused(
        &[
            "spell",
            "cast",
            "Mira",
            "Fire Bolt",
            "--target",
            "the troll",
            "--overcast",
            "ritual",
        ],
        2,
    );
    assert!(err.contains("--with"), "{err}");
}

#[test]
fn malformed_numbers_are_usage_errors() {
    let c = Campaign::with_party();
    c.refused(&["damage", "Aldric", "three"], 2);
    c.refused(&["damage", "Aldric", "-3"], 2);
    c.refused(&["damage", "Aldric", "0"], 2);
    c.refused(&["heal", "Aldric", "99999999999"], 2);
    c.refused(&["character", "show", "Aldric", "--at", "x"], 2);
    // Events count from #1: before it there is nothing to show.
    let err = c.refused(&["character", "show", "Aldric", "--at", "0"], 2);
    assert!(err.contains("counted 1, 2, 3"), "{err}");
    // A slip after the number is named as such, not as a session that cannot be.
    let err = c.refused(&["character", "show", "Aldric", "--at", "session:1:"], 2);
    assert!(
        err.contains("'1:' is not the number of any session"),
        "{err}"
    );
    c.refused(&["character", "list", "--at", "0"], 2);
    c.refused(&["explain", "-1"], 2);
    c.refused(&["log", "--limit", "0"], 2);
    let err = c.refused(
        &[
            "character",
            "add",
            "Zed",
            "--system",
            "vsd",
            "--level",
            "1",
            "--vocation",
            "wizard",
            "--lore",
            "Elementalism=lots:2",
            "--mp",
            "1",
            "--drive",
            "1",
            "--body",
            "5",
            "--wsr",
            "0",
            "--defense",
            "0",
        ],
        2,
    );
    assert!(err.contains("NAME=BONUS:RANKS"), "{err}");
}

#[test]
fn sheet_values_out_of_range_are_refused_with_the_allowed_range() {
    let c = Campaign::with_party();
    let err = c.refused(
        &[
            "character",
            "add",
            "Old",
            "--system",
            "adg",
            "--level",
            "11",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "4",
        ],
        1,
    );
    assert!(err.contains("level must be 1 to 10, not 11"), "{err}");
}

#[test]
fn malformed_durations_are_usage_errors_that_show_the_form() {
    let c = Campaign::with_party();
    for bad in ["10", "ten minutes", "3y", "0h", "99999999999999999999w"] {
        let err = c.refused(&["time", "advance", bad], 2);
        assert!(err.contains("10m, 2h, 3d, 1w or 5r"), "{bad}: {err}");
    }
}

#[test]
fn malformed_dice_expressions_are_usage_errors_with_examples() {
    let c = Campaign::with_party();
    for bad in ["2d", "d0", "0d6", "d6+", "5", "fireball", "1000d6"] {
        let err = c.refused(&["roll", bad], 2);
        assert!(err.contains("Examples: d20, 2d6+3"), "{bad}: {err}");
    }
}

#[test]
fn entered_dice_must_fit_the_dice_drawn() {
    let c = Campaign::with_party();
    let err = c.refused(&["--rolls", "4", "roll", "2d6"], 2);
    assert!(err.contains("the dice entered ran out"), "{err}");
    assert!(err.contains("give one value per die with --rolls"), "{err}");
    let err = c.refused(&["--rolls", "4,5,6", "roll", "2d6"], 2);
    assert!(err.contains("drew only 2 dice"), "{err}");
    let err = c.refused(&["--rolls", "4,7", "roll", "2d6"], 2);
    assert!(
        err.contains("the dice value 7 (number 2 entered) cannot come from a d6"),
        "{err}"
    );
    let err = c.refused(&["--rolls", "4,x", "roll", "2d6"], 2);
    assert!(err.contains("'x' is not a die face"), "{err}");
    let err = c.refused(&["--rolls", "4", "damage", "Aldric", "1"], 2);
    assert!(err.contains("rolls no dice"), "{err}");
    // An open-ended chain needs one more die after a 96+.
    c.refused(&["--rolls", "97", "roll", "oe"], 2);
}

#[test]
fn flags_of_the_other_system_are_refused_naming_the_right_ones() {
    let c = Campaign::with_party();
    let err = c.refused(
        &[
            "character",
            "add",
            "Zed",
            "--system",
            "adg",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "4",
            "--mp",
            "5",
        ],
        2,
    );
    assert!(
        err.contains("--mp is not part of the ADG sheet; the ADG sheet takes --level --agility"),
        "{err}"
    );
    let err = c.refused(
        &[
            "character",
            "add",
            "Zed",
            "--system",
            "vsd",
            "--level",
            "1",
            "--vocation",
            "wizard",
            "--mp",
            "1",
            "--drive",
            "1",
            "--body",
            "5",
            "--wsr",
            "0",
            "--defense",
            "0",
            "--cunning",
            "12",
        ],
        2,
    );
    assert!(
        err.contains("--cunning is not part of the VsD sheet"),
        "{err}"
    );
    let err = c.refused(
        &["character", "add", "Zed", "--system", "adg", "--level", "1"],
        2,
    );
    assert!(err.contains("--agility is missing"), "{err}");
}

#[test]
fn a_file_that_is_not_a_grimoire_database_is_refused_and_left_alone() {
    let c = Campaign::empty();
    std::fs::write(&c.db, b"these are my session notes, not a database").unwrap();
    let err = c.refused(&["character", "list"], 1);
    assert!(err.contains("is not a grimoire campaign file"), "{err}");
    c.refused(&["init", "--name", "Over my notes"], 1);
    assert_eq!(
        std::fs::read(&c.db).unwrap(),
        b"these are my session notes, not a database"
    );

    let other = Campaign::empty();
    let conn = rusqlite::Connection::open(&other.db).unwrap();
    conn.execute_batch("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('stew');")
        .unwrap();
    drop(conn);
    let err = other.refused(&["log"], 1);
    assert!(err.contains("is not a grimoire campaign file"), "{err}");
    let conn = rusqlite::Connection::open(&other.db).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        tables, 1,
        "no grimoire tables were added to someone else's database"
    );
}

#[test]
fn a_database_from_a_newer_grimoire_is_refused() {
    let c = Campaign::with_party();
    c.sql()
        .execute(
            "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (99, 'future', '2030-01-01T00:00:00Z', '0')",
            [],
        )
        .unwrap();
    let err = c.refused(&["damage", "Aldric", "1"], 1);
    assert!(
        err.contains("written by a newer grimoire (schema version 99"),
        "{err}"
    );
    c.refused(&["character", "show", "Aldric"], 1);
}

#[test]
fn a_payload_version_from_a_newer_grimoire_is_refused_not_misread() {
    let c = Campaign::with_party();
    let conn = c.sql();
    conn.execute_batch("DROP TRIGGER events_refuse_update")
        .unwrap();
    conn.execute("UPDATE events SET schema_version = 9 WHERE seq = 2", [])
        .unwrap();
    drop(conn);
    let err = c.refused(&["character", "list"], 1);
    assert!(
        err.contains("the log is damaged at #2") && err.contains("newer than this grimoire reads"),
        "{err}"
    );
}

#[test]
fn a_missing_file_is_refused_and_not_created() {
    let c = Campaign::empty();
    for args in [
        &["log"][..],
        &["damage", "Aldric", "1"],
        &["verify"],
        &["export"],
    ] {
        let err = c.refused(args, 1);
        assert!(err.contains("there is no campaign file at"), "{err}");
        assert!(err.contains("grimoire init --name"), "{err}");
    }
    assert!(!c.db.exists());
}

#[test]
fn a_folder_given_as_the_campaign_file_is_named_as_such() {
    let c = Campaign::empty();
    let folder = c.dir.path().join("campaign");
    std::fs::create_dir(&folder).unwrap();
    for args in [&["character", "list"][..], &["init", "--name", "x"]] {
        let out = grimoire_cmd(&folder, c.dir.path())
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{err}");
        assert!(
            err.contains("it is a folder; give --db the campaign file's path"),
            "{err}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        0,
        "nothing made inside"
    );
}

#[test]
fn commands_on_a_file_without_a_campaign_say_how_to_start_one() {
    let c = Campaign::empty();
    c.refused(&["init", "--name", "  "], 2);
    assert!(!c.db.exists(), "a refused init leaves no file behind");
}

#[test]
fn sessions_cannot_overlap_or_end_twice() {
    let c = Campaign::with_party();
    c.refused(&["session", "end"], 1);
    let err = c.refused(&["session", "start", "--entropy", &"x".repeat(501)], 1);
    assert!(err.contains("at most 500"), "{err}");
    c.ok(&["session", "start"]);
    let err = c.refused(&["session", "start"], 1);
    assert!(err.contains("session 1 is still open"), "{err}");
}

#[test]
fn a_retraction_without_a_reason_or_target_is_refused() {
    let c = Campaign::with_party();
    c.refused(&["retract", "2", "--reason", "  "], 1);
    let err = c.refused(&["retract", "40", "--reason", "typo"], 1);
    assert!(err.contains("#40 is not in the log"), "{err}");
    c.refused(&["retract", "2"], 2);
}

#[test]
fn a_vsd_character_without_health_cannot_take_damage() {
    let c = Campaign::with_party();
    c.ok(&[
        "character",
        "add",
        "Nox",
        "--system",
        "vsd",
        "--level",
        "1",
        "--vocation",
        "animist",
        "--mp",
        "4",
        "--drive",
        "1",
        "--body",
        "10",
        "--wsr",
        "5",
        "--defense",
        "0",
    ]);
    let err = c.refused(&["damage", "Nox", "1"], 1);
    assert!(err.contains("Nox has no health track"), "{err}");
}

#[test]
fn json_errors_carry_the_message_and_exit_code() {
    let c = Campaign::with_party();
    let out = c.run(&["--json", "damage", "Bob", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["exit_code"], 1);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no character named 'Bob'")
    );
    // A usage mistake's JSON keeps clap's words but not its pointer to --help, which is for a
    // person at a terminal.
    let out = c.run(&["--json", "damage", "Aldric", "many"]);
    assert_eq!(out.status.code(), Some(2));
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("'many'") && !error.contains("For more information"),
        "{error}"
    );
}

/// A session's entropy is the players' words or none at all: spaces alone are refused, since they
/// would read in the log as if the players had chosen something.
#[test]
fn a_sessions_entropy_of_spaces_alone_is_refused() {
    let c = Campaign::with_party();
    let err = c.refused(&["session", "start", "--entropy", "   "], 1);
    assert!(err.contains("session's entropy is empty"), "{err}");
}

#[test]
fn bad_environment_overrides_are_usage_errors() {
    let c = Campaign::with_party();
    let out = grimoire_cmd(&c.db, c.dir.path())
        .env("GRIMOIRE_NOW", "yesterday")
        .args(["damage", "Aldric", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("GRIMOIRE_NOW='yesterday' is not an RFC 3339 time")
    );
}

/// Help shows the dice options on exactly the commands that roll (`cli::rolling`), and every other
/// command's examples, given `--rolls`, are refused for it before anything else is looked at.
#[test]
fn the_dice_options_show_and_apply_only_where_a_command_rolls() {
    let rolling = grimoire::cli::rolling();
    let every_example = grimoire::cli::examples::every_example();
    let c = Campaign::with_party();
    for (path, examples) in &every_example {
        let words: Vec<&str> = path.split(' ').collect();
        let help = c.ok(&[words.as_slice(), &["--help"]].concat());
        let rolls = rolling.contains(&path.as_str());
        assert_eq!(
            help.contains("--rolls <"),
            rolls,
            "`grimoire {path} --help` and cli::rolling disagree"
        );
        if rolls {
            continue;
        }
        for example in *examples {
            let mut args = vec!["--rolls".to_string(), "3".to_string()];
            args.extend(
                shell_words::split(example.split(" > ").next().unwrap())
                    .unwrap()
                    .into_iter()
                    .skip(1),
            );
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let stderr = c.refused(&args, 2);
            assert!(
                stderr.contains("rolls no dice"),
                "`{example}` with --rolls: {stderr}"
            );
        }
    }
    for path in rolling {
        assert!(
            every_example.iter().any(|(p, _)| *p == path),
            "cli::rolling names `{path}`, which has no examples"
        );
    }
}

/// Output that cannot be written (a full disk behind a redirection) is not success: the person
/// never saw what they asked for, a checkpoint included, so the command says so with exit 74 and
/// where what it recorded can be read again. A closed pipe stays the reader's choice.
#[test]
fn output_that_cannot_be_written_exits_74_and_says_where_to_look() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "rain"]);
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let before = c.head();
    let out = c
        .cmd()
        .args(["session", "end"])
        .stdout(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(74));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("standard output could not be written"),
        "{said}"
    );
    assert!(said.contains("grimoire log"), "{said}");
    assert_ne!(c.head(), before, "the session ended all the same");
    for args in [&["man"][..], &["log"], &["shell"]] {
        let out = c
            .cmd()
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(full())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(74), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("standard output could not be written"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("panicked"), "{args:?}: {said}");
    }
}

/// The generator's sizes have bounds a person can read in the refusal (an unbounded count once
/// wrote gigabytes before anyone stopped it), and nothing is created for a refused one.
#[test]
fn dev_generate_refuses_sizes_out_of_bounds_and_creates_nothing() {
    let c = Campaign::empty();
    for (args, says) in [
        (&["dev", "generate", "--events", "0"][..], "1..=10000000"),
        (
            &["dev", "generate", "--events", "10000001"][..],
            "1..=10000000",
        ),
        (&["dev", "generate", "--characters", "1"][..], "2..=1000"),
    ] {
        let refused = c.refused(args, 2);
        assert!(refused.contains(says), "{args:?}: {refused}");
        assert!(!c.db.exists(), "{args:?}");
    }
}

/// A command that records nothing refuses an `--actor` written on its own line, which would look
/// like a filter while it shows everyone; GRIMOIRE_ACTOR in the environment stays harmless, and
/// a recording command keeps the name.
#[test]
fn a_read_refuses_an_actor_typed_on_its_line_and_points_to_by() {
    let c = Campaign::with_party();
    for read in [
        &["log", "--actor", "Fair"][..],
        &["audit", "dice", "--actor", "Fair"],
        &["--actor", "Fair", "character", "show", "Aldric"],
        &["scroll", "list", "--actor", "Fair"],
    ] {
        let err = c.refused(read, 2);
        assert!(
            err.contains("records nothing, so --actor does not apply") && err.contains("--by NAME"),
            "{read:?}: {err}"
        );
    }
    c.cmd()
        .env("GRIMOIRE_ACTOR", "Fair")
        .args(["log", "--limit", "1"])
        .assert()
        .success();
    let hit = c.json(&["--actor", "Fair", "damage", "Aldric", "1"]);
    assert_eq!(hit["appended"][0]["actor"], "Fair");
    // In the shell, the line's own --actor is refused the same way; the shell's is not.
    let out = assert_cmd::Command::from_std(c.cmd())
        .args(["--actor", "Fair", "shell"])
        .write_stdin("log --actor Fair --limit 1\nlog --limit 1\n")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stderr.contains("records nothing, so --actor does not apply"),
        "{stderr}"
    );
    assert!(stdout.contains("Aldric takes 1 damage"), "{stdout}");
}

/// An empty GRIMOIRE_DB reads as unset: `--db` names the campaign (it refused every command, even
/// with `--db`), and without it the default file is meant.
#[test]
fn an_empty_grimoire_db_reads_as_unset() {
    let c = Campaign::with_party();
    let out = c
        .cmd()
        .env("GRIMOIRE_DB", "")
        .args(["--db", c.db.to_str().unwrap(), "character", "list"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Aldric"));
    let out = c
        .cmd()
        .env("GRIMOIRE_DB", "")
        .args(["character", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no campaign file at grimoire.db"),
        "{out:?}"
    );
}
