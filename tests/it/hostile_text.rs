//! Every door for text is checked the same way (commands, `--actor`, tables files, import): one line,
//! no control or reordering characters, not only invisible ones, within one length limit. Rows edited
//! into the file from outside are named by seq, never reported as an unexpected failure.

use crate::support::{ADG_ALDRIC, Campaign};
use grimoire::store::jsonl::{self, Line};

#[test]
fn an_actor_with_a_line_break_escapes_or_a_huge_length_is_refused() {
    let c = Campaign::with_party();
    for actor in [
        "gm\n#99 forged line",
        "gm\u{1b}[31m",
        "gm\u{202e}dlrow",
        &"a".repeat(100_000),
    ] {
        let message = c.refused(&["--actor", actor, "damage", "Aldric", "1"], 2);
        assert!(message.contains("actor"), "{message}");
    }
    let out = c
        .cmd()
        .env("GRIMOIRE_ACTOR", "a\tb")
        .args(["heal", "Aldric", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_tables_file_with_a_multi_line_name_or_a_huge_word_is_refused() {
    let c = Campaign::with_party();
    let sample = crate::support::sample_tables();
    let mut broken_name = sample.clone();
    broken_name["name"] = "My tables\n#5 forged".into();
    let mut huge_word = sample.clone();
    huge_word["word_lists"][0][0]["word"] = "w".repeat(100_000).into();
    let mut too_many = sample.clone();
    let entry = too_many["mishaps"][0].clone();
    let mut entries = vec![];
    for i in 0..200 {
        let mut e = entry.clone();
        e["min"] = (i + 2).into();
        e["max"] = (i + 2).into();
        entries.push(e);
    }
    entries
        .last_mut()
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove("max");
    too_many["mishaps"] = entries.into();
    for (name, tables, says) in [
        ("name.json", broken_name, "one line"),
        ("word.json", huge_word, "at most 60"),
        ("many.json", too_many, "at most 100 are allowed"),
    ] {
        let path = c.dir.path().join(name);
        std::fs::write(&path, tables.to_string()).unwrap();
        let message = c.refused(&["tables", "load", path.to_str().unwrap()], 2);
        assert!(message.contains(says), "{name}: {message}");
    }
}

/// Rewrites an export's lines with `edit` applied to the event at `seq`, re-chained after it as a
/// forger with our hashing code would.
pub fn forge(lines: &str, seq: u64, edit: impl Fn(&mut grimoire::store::StoredRow)) -> String {
    let mut prev = "0".repeat(64);
    let mut out = Vec::new();
    for line in lines.lines() {
        match jsonl::parse_line(line).unwrap() {
            Line::Event(mut row) => {
                if row.seq == seq {
                    edit(&mut row);
                }
                row.prev_hash = prev.clone();
                row.hash = row.compute_hash();
                prev = row.hash.clone();
                out.push(jsonl::event_line(&row).unwrap());
            }
            Line::Secret { .. } => out.push(line.to_string()),
        }
    }
    out.join("\n") + "\n"
}

/// The event at its first payload version, as the first grimoire wrote it: an epoch's second seed
/// is newer (the first grimoire had none, and a later one passes the key over in its events).
fn first_version(row: &mut grimoire::store::StoredRow) {
    row.schema_version = 1;
    if let Some(at) = row.payload.find(",\"sealed_commitment\":\"") {
        let end = at + ",\"sealed_commitment\":\"".len() + 65;
        row.payload.replace_range(at..end, "");
    }
}

/// An export's lines without the second seeds, which a grimoire before them never kept.
fn without_sealed_seeds(lines: &str) -> String {
    let kept = lines
        .lines()
        .filter(|l| !l.contains("\"secret\":\"sealed_seed\""));
    kept.map(|l| format!("{l}\n")).collect()
}

fn import(c: &Campaign, text: &str) -> std::process::Output {
    let file = c.dir.path().join("forged.jsonl");
    std::fs::write(&file, text).unwrap();
    let target = Campaign::empty();
    target.run(&["import", file.to_str().unwrap()])
}

#[test]
fn import_refuses_control_characters_in_payload_text_of_todays_events_but_takes_old_grimoires_own()
{
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let with_bell = |row: &mut grimoire::store::StoredRow| {
        row.payload = row.payload.replace("\"Aldric\"", "\"Ald\\u0007ric\"");
    };
    let forged = forge(&lines, 3, with_bell);
    assert!(forged.contains("Ald\\u0007ric"), "{forged}");
    let out = import(&c, &forged);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("line 3") && message.contains("control character"),
        "{message}"
    );

    // An earlier grimoire (event version 1) took such a name: its own export, version 1 up to
    // the name and a later grimoire's rows after it, must still restore.
    let lines = without_sealed_seeds(&lines);
    let old = forge(&forge(&lines, 1, first_version), 2, first_version);
    let old = forge(&old, 3, |row| {
        with_bell(row);
        first_version(row);
    });
    let out = import(&c, &old);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A line feed is the one thing a version-1 text may not hold: `log` and every sheet cut their
    // output into lines before escaping each, so it would print a forged line of its own.
    let old_with_line_feed = forge(&forge(&lines, 1, first_version), 2, first_version);
    let old_with_line_feed = forge(&old_with_line_feed, 3, |row| {
        row.payload = row
            .payload
            .replace("\"Aldric\"", "\"Ald\\n#9 Aldric heals 99\"");
        first_version(row);
    });
    assert!(
        old_with_line_feed.contains("Ald\\n#9"),
        "{old_with_line_feed}"
    );
    let out = import(&c, &old_with_line_feed);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("line 3") && message.contains("line break"),
        "{message}"
    );

    // The same row at version 1 after rows of version 2 was written by hand, to pass the name.
    let out = import(
        &c,
        &forge(&lines, 3, |row| {
            with_bell(row);
            first_version(row);
        }),
    );
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("line 3") && message.contains("never goes back to an older version"),
        "{message}"
    );
}

/// Text an earlier grimoire took (version 1) may hold characters a terminal acts on, which serde
/// leaves as they are in JSON (an 8-bit CSI, a line separator, a reordering mark): `--json` writes
/// them as escapes, which read back as the same text.
#[test]
fn json_output_escapes_what_a_first_version_name_holds() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let lines = without_sealed_seeds(&lines);
    let old = forge(&forge(&lines, 1, first_version), 2, first_version);
    let old = forge(&old, 3, |row| {
        row.payload = row
            .payload
            .replace("\"Aldric\"", "\"Ald\\u009b2J\\u2028\\u202eric\"");
        first_version(row);
    });
    let file = c.dir.path().join("old.jsonl");
    std::fs::write(&file, old).unwrap();
    let restored = Campaign::empty();
    restored.ok(&["import", file.to_str().unwrap()]);
    let shown = restored.ok(&["character", "list", "--json"]);
    for acted_on in ['\u{9b}', '\u{2028}', '\u{202e}'] {
        assert!(!shown.contains(acted_on), "{shown}");
    }
    assert!(shown.contains(r"Ald\u009b2J\u2028\u202eric"), "{shown}");
    let read: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert!(read.to_string().contains("Ald\u{9b}2J"), "{read}");
}

#[test]
fn import_refuses_a_game_time_it_cannot_store_exactly_naming_the_line() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let forged = forge(&lines, 3, |row| row.game_time = u64::MAX);
    let out = import(&c, &forged);
    assert_eq!(out.status.code(), Some(1));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("line 3") && message.contains("game_time"),
        "{message}"
    );
}

#[test]
fn a_name_that_only_looks_different_is_refused_naming_the_existing_one() {
    let c = Campaign::with_party();
    for look_alike in ["Ald\u{200b}ric", "\u{410}ldric", "Aldr\u{131}c", "ALDRlC"] {
        let mut args = ADG_ALDRIC;
        args[2] = look_alike;
        let message = c.refused(&args, 1);
        assert!(
            message.contains("looks just like the existing character 'Aldric'"),
            "{look_alike}: {message}"
        );
    }
    let mut args = ADG_ALDRIC;
    args[2] = "Aldrik";
    c.ok(&args);
}

#[test]
fn text_made_only_of_invisible_characters_or_reordering_marks_is_refused() {
    let c = Campaign::with_party();
    let mut args = ADG_ALDRIC;
    args[2] = "\u{200b}\u{200b}";
    assert!(c.refused(&args, 1).contains("invisible"));
    let message = c.refused(
        &[
            "exert",
            "Aldric",
            "brawn",
            "1",
            "--reason",
            "abc\u{202e}def",
        ],
        1,
    );
    assert!(message.contains("reorders"), "{message}");
}

/// A row edited into the file with bytes that are not UTF-8, or a negative time: every reader names
/// the seq and exits 1, instead of "unexpected database failure" and 74.
#[test]
fn a_row_with_invalid_text_or_a_negative_time_is_named_by_seq() {
    for (what, sql) in [
        (
            "utf-8",
            "UPDATE events SET actor = CAST(X'67FF6D' AS TEXT) WHERE seq = 3",
        ),
        ("time", "UPDATE events SET game_time = -5 WHERE seq = 3"),
    ] {
        let c = Campaign::with_party();
        let conn = c.sql();
        conn.execute_batch("DROP TRIGGER events_refuse_update;")
            .unwrap();
        conn.execute(sql, []).unwrap();
        drop(conn);
        // verify answers with its report (the row named where the chain breaks); the others refuse.
        for args in [&["verify"][..], &["log"], &["export"]] {
            let out = c.run(args);
            let said = String::from_utf8_lossy(if args == ["verify"] {
                &out.stdout
            } else {
                &out.stderr
            });
            assert_eq!(out.status.code(), Some(1), "{what} {args:?}: {said}");
            assert!(said.contains("#3"), "{what} {args:?}: {said}");
        }
    }
}

#[test]
fn with_json_every_outcome_is_exactly_one_json_document() {
    let c = Campaign::with_party();
    for (args, code) in [
        (&["--json", "damage", "Aldric", "x"][..], 2),
        (&["--json", "damage", "Nobody", "1"], 1),
        (&["--json", "export"], 2),
        (&["--json", "tables", "load", "no-such-file.json"], 2),
        (&["--json", "damage", "Aldric", "1"], 0),
    ] {
        let out = c.run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let doc: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        if code != 0 {
            assert_eq!(doc["exit_code"], code);
            assert!(
                !doc["error"].as_str().unwrap().contains("invalid digit"),
                "{doc}"
            );
        }
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn as_nobody() -> Option<()> {
    let root = std::process::Command::new("id").arg("-u").output().ok()?;
    let runuser = std::path::Path::new("/usr/sbin/runuser").exists()
        || std::path::Path::new("/sbin/runuser").exists();
    if String::from_utf8_lossy(&root.stdout).trim() != "0" || !runuser {
        eprintln!(
            "skipped: permission cases need root and runuser (they run grimoire as `nobody`)"
        );
        return None;
    }
    Some(())
}

/// Run as an unprivileged user (root is never refused): an unreadable file and a read-only folder
/// each say what is wrong.
#[test]
fn an_unreadable_file_and_a_read_only_folder_are_told_apart() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    let c = Campaign::with_party();
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |db: &std::path::Path| {
        let out = std::process::Command::new("runuser")
            .args(["-u", "nobody", "--", env!("CARGO_BIN_EXE_grimoire"), "--db"])
            .arg(db)
            .args(["character", "list"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, message) = run(&c.db);
    assert_eq!(code, Some(74), "{message}");
    assert!(
        message.contains("may not read"),
        "unreadable file: {message}"
    );
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o666)).unwrap();
    let (code, message) = run(&c.db);
    assert_eq!(code, Some(74), "{message}");
    assert!(
        message.contains("folder") && message.contains("not writable"),
        "read-only folder: {message}"
    );
}

/// `grimoire --db DB ARGS` run as `user`: its exit code, what it printed and what it said.
fn as_user(user: &str, db: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new("runuser")
        .args(["-u", user, "--", env!("CARGO_BIN_EXE_grimoire"), "--db"])
        .arg(db)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The file's schema version and whether it still holds the index V3 dropped.
fn schema_of(c: &Campaign) -> (i64, bool) {
    let conn = c.sql();
    let version = conn
        .query_row(
            "SELECT MAX(version) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let indexed = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'events_by_session')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    (version, indexed)
}

fn last_seq(c: &Campaign) -> i64 {
    c.sql()
        .query_row("SELECT MAX(seq) FROM events", [], |r| r.get(0))
        .unwrap()
}

/// A party campaign taken back to schema 2 as that build left its files (the index V3 drops in
/// place, no record of V3), in a folder anyone may write.
fn at_schema_two() -> Campaign {
    use std::os::unix::fs::PermissionsExt;
    let c = Campaign::with_party();
    assert_eq!(schema_of(&c), (3, false));
    c.sql()
        .execute_batch(
            "CREATE INDEX events_by_session ON events (session, seq);
             DELETE FROM refinery_schema_history WHERE version = 3;",
        )
        .unwrap();
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    c
}

/// A campaign shared read-only with the players (the file 0444, in a folder they may write) and last
/// written by the schema before this build's, whose newest migration only drops an index: a player
/// (run as `nobody`) reads it as it stands, a write is refused saying why, and the file is left at
/// its schema until the GM, who may write it, opens it.
#[test]
fn a_read_only_copy_at_the_previous_schema_is_read_without_being_migrated() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    let c = at_schema_two();
    let events = last_seq(&c);
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (code, shown, message) = as_user("nobody", &c.db, &["character", "show", "Aldric"]);
    assert_eq!(code, Some(0), "{message}");
    assert!(shown.contains("Aldric"), "{shown}");
    let (code, _, message) = as_user("nobody", &c.db, &["damage", "Aldric", "1"]);
    assert_ne!(code, Some(0));
    assert!(
        message.contains("may not read and write it") && message.contains("nothing was recorded"),
        "{message}"
    );
    assert_eq!(schema_of(&c), (2, true));
    assert_eq!(last_seq(&c), events);
    // The GM (root here) may write it: the next command migrates it.
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o644)).unwrap();
    c.ok(&["character", "list"]);
    assert_eq!(schema_of(&c), (3, false));
}

/// A campaign (in WAL mode, as grimoire leaves every file) copied for the players into a folder
/// they may only read: SQLite cannot make the shared-memory file a reader needs there, so the file
/// is read as it stands, with nothing made beside it; a write is refused saying why.
#[test]
fn a_campaign_in_a_folder_its_reader_may_not_write_is_read_as_it_stands() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    let c = Campaign::with_party();
    let events = last_seq(&c);
    let mode: String = c
        .sql()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let beside = || {
        let mut names: Vec<_> = std::fs::read_dir(c.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = beside();
    let (code, shown, message) = as_user("nobody", &c.db, &["character", "show", "Aldric"]);
    assert_eq!(code, Some(0), "{message}");
    assert!(shown.contains("Aldric"), "{shown}");
    let (code, report, message) = as_user("nobody", &c.db, &["verify"]);
    assert_eq!(code, Some(0), "{message}");
    assert!(report.contains("all checks hold"), "{report}");
    let (code, _, message) = as_user("nobody", &c.db, &["damage", "Aldric", "1"]);
    assert_eq!(code, Some(74), "{message}");
    assert!(
        message.contains("may not read and write it") && message.contains("nothing was recorded"),
        "{message}"
    );
    assert_eq!(before, beside(), "nothing is made beside the file");
    assert_eq!(last_seq(&c), events);
}

/// A player (`nobody`) reads the campaign from a folder they may not write while the GM goes on
/// recording: whichever way each read falls against the GM's commands opening and closing the file
/// (its journal there or not, the GM folding it into the file), every read succeeds and `verify`
/// finds nothing wrong with a file that is whole.
#[test]
fn a_reader_in_a_folder_it_may_not_write_reads_whole_while_the_gm_records() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    // A campaign long enough that the GM's commands keep rewriting its snapshots, pages a reader
    // that took no lock could find half written.
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--events", "3000"]);
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::thread::scope(|scope| {
        let gm = scope.spawn(|| {
            for _ in 0..150 {
                c.ok(&["roll", "2d6"]);
            }
        });
        for round in 0..100 {
            for args in [&["verify"][..], &["log", "--limit", "5"]] {
                let (code, _, message) = as_user("nobody", &c.db, args);
                assert_eq!(code, Some(0), "read {round}, {args:?}: {message}");
            }
        }
        gm.join().unwrap();
    });
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// A rollback journal another user left beside the campaign (a write of theirs cut short) is
/// named, and the GM is told not to remove it: it holds what undoes that write.
#[test]
fn a_rollback_journal_another_user_left_is_named_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    let c = Campaign::with_party();
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    std::os::unix::fs::chown(&c.db, Some(1), Some(1)).unwrap();
    let journal = c.dir.path().join("campaign.db-journal");
    std::fs::write(&journal, vec![7u8; 1024]).unwrap();
    std::os::unix::fs::chown(&journal, Some(65534), Some(65534)).unwrap();
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o600)).unwrap();
    for args in [&["character", "list"][..], &["damage", "Aldric", "1"]] {
        let (code, _, message) = as_user("daemon", &c.db, args);
        assert_eq!(code, Some(74), "{message}");
        assert!(
            message.contains("rollback journal")
                && message.contains("campaign.db-journal")
                && message.contains("do not remove it"),
            "{args:?}: {message}"
        );
    }
    assert!(journal.exists());
}

/// The GM's own campaign (owned by `daemon` here, readable by all) read by a player (`nobody`)
/// while no one else had it open: SQLite's journal files beside it are then the player's. The GM
/// still reads it, at schema 2 as at schema 3, and a write is refused naming those files and what
/// to do about them, with nothing recorded.
#[test]
fn journals_a_player_left_beside_the_gms_file_are_named_when_the_gm_cannot_write() {
    use std::os::unix::fs::PermissionsExt;
    if as_nobody().is_none() {
        return;
    }
    let c = at_schema_two();
    let events = last_seq(&c);
    std::os::unix::fs::chown(&c.db, Some(1), Some(1)).unwrap();
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, _, message) = as_user("nobody", &c.db, &["character", "show", "Aldric"]);
    assert_eq!(code, Some(0), "{message}");
    let (code, listed, message) = as_user("daemon", &c.db, &["character", "list"]);
    assert_eq!(code, Some(0), "{message}");
    assert!(listed.contains("Mira"), "{listed}");
    let (code, _, message) = as_user("daemon", &c.db, &["damage", "Aldric", "1"]);
    assert_eq!(code, Some(74), "{message}");
    assert!(
        message.contains("belongs to another user")
            && message.contains("campaign.db-shm")
            && message.contains("nothing was recorded"),
        "{message}"
    );
    assert_eq!(schema_of(&c), (2, true));
    assert_eq!(last_seq(&c), events);
}

/// `c` in journal `mode`, shared read-only (the file 0444, in a folder anyone may write).
fn shared_read_only_in(c: &Campaign, mode: &str) {
    use std::os::unix::fs::PermissionsExt;
    let set: String = c
        .sql()
        .query_row(&format!("PRAGMA journal_mode = {mode}"), [], |r| r.get(0))
        .unwrap();
    assert_eq!(set, mode.to_lowercase());
    std::fs::set_permissions(c.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::set_permissions(&c.db, std::fs::Permissions::from_mode(0o444)).unwrap();
}

/// A read-only file of the first schema cannot be read before it is upgraded, which its reader may
/// not do: the refusal says so (not that the disk may be failing).
#[test]
fn a_read_only_file_too_old_to_read_says_it_must_first_be_opened_by_its_owner() {
    if as_nobody().is_none() {
        return;
    }
    let c = Campaign::from_the_first_schema();
    shared_read_only_in(&c, "WAL");
    let (code, _, message) = as_user("nobody", &c.db, &["character", "list"]);
    assert_eq!(code, Some(74), "{message}");
    assert!(
        message.contains("older grimoire (schema 1)") && message.contains("as its owner"),
        "{message}"
    );
}

/// A read-only copy left in the rollback journal mode (as another tool may leave one) is read as it
/// is: switching it to WAL would be a write.
#[test]
fn a_read_only_file_in_rollback_mode_is_read_without_switching_its_journal() {
    if as_nobody().is_none() {
        return;
    }
    let c = Campaign::with_party();
    shared_read_only_in(&c, "DELETE");
    let (code, listed, message) = as_user("nobody", &c.db, &["character", "list"]);
    assert_eq!(code, Some(0), "{message}");
    assert!(listed.contains("Aldric"), "{listed}");
}

/// A file whose schema history its migrator refuses (a checksum changed by hand) is refused, as
/// before, even at the schema that reads as it stands: only a file its user may not write is read
/// unmigrated.
#[test]
fn a_schema_history_changed_by_hand_is_refused_not_read_as_it_stands() {
    let c = at_schema_two();
    c.sql()
        .execute(
            "UPDATE refinery_schema_history SET checksum = '123' WHERE version = 2",
            [],
        )
        .unwrap();
    let events = last_seq(&c);
    let message = c.refused(&["damage", "Aldric", "1"], 74);
    assert!(message.contains("upgraded"), "{message}");
    assert_eq!(last_seq(&c), events);
    assert_eq!(schema_of(&c), (2, true));
}

/// A relative --db that SQLite would read as something else names that file all the same:
/// `file:a.db` is a URI to SQLite (opening `a.db`) and `:memory:` a database in memory, while every
/// check of grimoire's looked at the file of that name.
#[test]
fn names_sqlite_reads_as_a_uri_or_memory_are_files_here() {
    for name in ["file:a.db", ":memory:"] {
        let c = Campaign::empty();
        let run = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_grimoire"))
                .current_dir(c.dir.path())
                .env("GRIMOIRE_NOW", crate::support::NOW)
                .args(["--db", name])
                .args(args)
                .output()
                .unwrap()
        };
        let made = run(&["dev", "generate", "--characters", "2", "--events", "10"]);
        assert!(
            made.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        let listed = String::from_utf8_lossy(&run(&["character", "list"]).stdout).to_string();
        let offered = String::from_utf8_lossy(&run(&["complete-names"]).stdout).to_string();
        for character in ["Adept0", "Magus1"] {
            assert!(listed.contains(character), "{name}: {listed}");
            assert!(offered.lines().any(|n| n == character), "{name}: {offered}");
        }
        let files: Vec<_> = std::fs::read_dir(c.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert_eq!(files, vec![name.to_string()], "{name}");
    }
}

/// Completion through a link, with empty journal files laid beside the link: the campaign is read
/// where it is, and nothing appears beside it (a journal made there would be the reader's, and keep
/// the campaign's owner from writing).
#[test]
fn completion_through_a_link_makes_no_journal_beside_the_campaign() {
    let c = Campaign::with_party();
    let elsewhere = tempfile::tempdir().unwrap();
    let link = elsewhere.path().join("link.db");
    std::os::unix::fs::symlink(&c.db, &link).unwrap();
    for decoy in ["link.db-wal", "link.db-shm"] {
        std::fs::write(elsewhere.path().join(decoy), "").unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .arg("--db")
        .arg(&link)
        .arg("complete-names")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Aldric\nMira\n");
    let beside: Vec<_> = std::fs::read_dir(c.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        beside.len(),
        1,
        "files appeared beside the campaign: {beside:?}"
    );
}

/// A disk that fills up mid-import (a file-size limit, with its signal ignored so writes fail as on a
/// full disk) says so, and leaves no file behind.
#[test]
fn a_full_disk_says_the_disk_is_full_and_leaves_nothing() {
    let source = Campaign::empty();
    source.ok(&["dev", "generate", "--characters", "4", "--events", "2000"]);
    let export = source.export_all();
    let target = Campaign::empty();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f 200; exec '{}' --db '{}' import '{}'",
            env!("CARGO_BIN_EXE_grimoire"),
            target.db.display(),
            export.display()
        ))
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{message}");
    assert!(
        message.contains("full") && !message.contains("input/output error"),
        "{message}"
    );
    let left: Vec<_> = std::fs::read_dir(target.dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// An export line that is not what grimoire writes is refused at its line in grimoire's words,
/// naming the field: serde's own ("invalid type", "expected u64", "EOF while parsing") never show.
#[test]
fn a_malformed_export_line_is_named_in_grimoires_words() {
    let c = Campaign::with_party();
    let export = c.ok(&["export"]);
    let first = export.lines().next().unwrap();
    for (edited, says) in [
        (
            first.replacen("\"seq\":1", "\"seq\":\"1\"", 1),
            "the field 'seq' holds \"1\" where a whole number",
        ),
        (
            first.replacen("\"seq\":1,", "\"seq\":1,\"zzz\":1,", 1),
            "a field 'zzz' that grimoire does not write",
        ),
        (
            first.replacen("\"seq\":1,", "\"seq\":1,\"seq\":1,", 1),
            "the field 'seq' appears twice",
        ),
        (format!("{first} x"), "not well-formed JSON"),
        (first[..first.len() - 5].to_string(), "not well-formed JSON"),
        (
            first.replacen("\"game_time\":0", "\"game_time\":-1", 1),
            "the field 'game_time' holds -1",
        ),
    ] {
        let text = export.replacen(first, &edited, 1);
        let out = import(&c, &text);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("import refused at line 1") && said.contains(says),
            "{said}"
        );
        for serde_words in [
            "invalid type",
            "expected u64",
            "EOF while",
            "unknown field",
            "duplicate field",
        ] {
            assert!(!said.contains(serde_words), "{said}");
        }
    }
}

/// The event id and the recorded time are columns of free text to the database: an export whose
/// line carries a line separator, a reordering mark or a terminal escape in them (hashes
/// recomputed) is refused at its line, as are values grimoire never writes there.
#[test]
fn an_event_id_or_recorded_time_grimoire_never_writes_is_refused_by_import() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    for (edit, says) in [
        (
            (|row: &mut grimoire::store::StoredRow| {
                row.recorded_at = "not a time \u{2028} \u{202e} evil".into()
            }) as fn(&mut grimoire::store::StoredRow),
            "recorded time is not an RFC 3339 time",
        ),
        (
            |row: &mut grimoire::store::StoredRow| row.event_id = "id\u{2029}\u{1b}[31mred".into(),
            "event id is not a UUID",
        ),
    ] {
        let out = import(&c, &forge(&lines, 3, edit));
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("import refused at line 3") && said.contains(says),
            "{said}"
        );
    }
}

/// An event id is each event's name for good: an export whose rows repeat one (re-chained, so
/// the hashes hold) is refused by the line that repeats it, and nothing is imported.
#[test]
fn import_refuses_a_repeated_event_id_naming_the_line_that_repeats_it() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let rows: Vec<grimoire::store::StoredRow> = lines
        .lines()
        .filter_map(|line| match jsonl::parse_line(line).unwrap() {
            Line::Event(row) => Some(row),
            Line::Secret { .. } => None,
        })
        .collect();
    let (first, last) = (rows[1].event_id.clone(), rows.last().unwrap().seq.get());
    let forged = forge(&lines, last, |row| row.event_id = first.clone());
    let line = forged
        .lines()
        .position(|l| l.contains(&format!("\"seq\":{last},")))
        .unwrap()
        + 1;
    let out = import(&c, &forged);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("line {line}"))
            && said.contains(&format!("#{last} repeats an event id")),
        "{said}"
    );
}

/// A seed an export carries for an epoch not yet revealed must open the commitment the log
/// published for it: an edited one is refused at its line (copied, the new file's dice could never
/// be checked), and the same export with the seed as it was imports.
#[test]
fn import_refuses_a_kept_seed_that_does_not_open_its_commitment() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let (at, seed_line) = lines
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains("\"secret\":\"epoch_seed\""))
        .unwrap();
    let value = seed_line.rsplit("\"value\":\"").next().unwrap();
    let edited = lines.replace(
        seed_line,
        &seed_line.replace(value, &format!("00{}", &value[2..])),
    );
    assert_ne!(edited, lines);
    let out = import(&c, &edited);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!(
            "line {}: the seed kept for dice epoch 1 does not open",
            at + 1
        )),
        "{said}"
    );
    assert!(import(&c, &lines).status.success());
}

/// Every secret line is one grimoire writes, under its key: a seed for an epoch the log never
/// began (which would later collide with the real one), a key written another way, a kind grimoire
/// does not keep, a sealed die that is not one, and an export that keeps some unpublished seeds but
/// not all are each refused at their line, and nothing is imported.
#[test]
fn import_refuses_secret_lines_grimoire_never_writes() {
    let c = Campaign::with_party();
    c.ok(&["roll", "d20", "--sealed"]);
    c.ok(&["seed", "reveal"]);
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let seed_of = |epoch: u32| {
        lines
            .lines()
            .find(|l| l.contains(&format!("\"secret\":\"epoch_seed\",\"key\":\"{epoch}\"")))
            .unwrap()
            .to_string()
    };
    let (first, second) = (seed_of(1), seed_of(2));
    let sealed_seed_of = |epoch: u32| {
        lines
            .lines()
            .find(|l| l.contains(&format!("\"secret\":\"sealed_seed\",\"key\":\"{epoch}\"")))
            .unwrap()
            .to_string()
    };
    let sealed = lines
        .lines()
        .find(|l| l.contains("\"secret\":\"sealed_die\""))
        .unwrap()
        .to_string();
    for (edited, says) in [
        (
            format!(
                "{lines}{}\n",
                second.replace("\"key\":\"2\"", "\"key\":\"3\"")
            ),
            "a seed is kept for dice epoch 3, which the log never began",
        ),
        (
            lines.replace(&first, &first.replace("\"key\":\"1\"", "\"key\":\"01\"")),
            "not '01'",
        ),
        (
            lines.replace(&first, &first.replace("epoch_seed", "epoch_sed")),
            "'epoch_sed' is not a kind of secret grimoire keeps",
        ),
        (
            lines.replace(
                &sealed,
                "{\"secret\":\"sealed_die\",\"key\":\"7:0\",\"value\":\"garbage\"}",
            ),
            "the sealed die 7:0 is not what grimoire keeps for one",
        ),
        // Epoch 1's first seed is out; its second waits for the sealed roll.
        (
            lines.replace(&format!("{}\n", sealed_seed_of(1)), ""),
            "not epoch 1's seed for sealed dice, which is not yet published",
        ),
        (
            lines.replace(&format!("{second}\n"), ""),
            "not epoch 2's seed, which is not yet published",
        ),
        (
            lines.replace(
                &sealed_seed_of(1),
                &sealed_seed_of(1).replace("\"key\":\"1\"", "\"key\":\"x\""),
            ),
            "an epoch's seed for sealed dice is kept under its epoch's number (1, 2, …), not 'x'",
        ),
    ] {
        assert_ne!(edited, lines, "{says}");
        let out = import(&c, &edited);
        assert_eq!(out.status.code(), Some(1), "{says}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(says), "{says}: {said}");
    }
    assert!(import(&c, &lines).status.success());
}

/// A value holding an escape sequence, refused by the command line's own parsing: the message
/// shows the value with its escape written out and still says what was wrong and what is right
/// (an unfinished sequence once swallowed the rest of the message), in plain output and `--json`.
#[test]
fn a_usage_error_shows_an_escape_in_the_value_and_keeps_its_explanation() {
    let c = Campaign::with_party();
    let message = c.refused(&["verify", "--checkpoint", "x\u{1b}]0;abc"], 2);
    assert!(!message.contains('\u{1b}'), "{message:?}");
    assert!(
        message.contains(r"'x\u{1b}]0;abc' has no ':'")
            && message.contains("a checkpoint is SEQ:HASH"),
        "{message}"
    );
    let message = c.refused(&["damage", "Aldric", "3\u{1b}[31m"], 2);
    assert!(
        message.contains(r"'3\u{1b}[31m'") && message.contains("whole number"),
        "{message}"
    );
    let out = c.run(&["--json", "damage", "Aldric", "3\u{1b}]8;;x\u{7}"]);
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let said = json["error"].as_str().unwrap();
    assert!(
        said.contains("3\u{1b}]8;;x\u{7}'") && said.contains("whole number"),
        "{said:?}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
    // In the shell, the same parsing says the same.
    let shell = assert_cmd::Command::from_std(c.cmd())
        .arg("shell")
        .write_stdin("damage Aldric 3\u{1b}]0;x\n")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&shell.stderr) + String::from_utf8_lossy(&shell.stdout);
    assert!(!said.contains('\u{1b}'), "{said:?}");
    assert!(
        said.contains(r"3\u{1b}]0;x") && said.contains("whole number"),
        "{said}"
    );
}
