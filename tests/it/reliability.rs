//! The store's promises against the real file, from outside: many processes at once, and files that
//! are damaged or not ours.

use crate::support::{Campaign, grimoire_cmd};
use grimoire::seq::Seq;
use grimoire::store::Store;

#[test]
fn eight_processes_of_a_hundred_commands_each_all_land_without_a_locked_error() {
    let c = Campaign::with_party();
    let before = Store::open(&c.db)
        .unwrap()
        .head()
        .unwrap()
        .unwrap()
        .seq
        .get();
    let workers: Vec<_> = (0..8)
        .map(|w| {
            let (db, dir) = (c.db.clone(), c.dir.path().to_path_buf());
            std::thread::spawn(move || {
                let mut failures = Vec::new();
                for i in 0..100 {
                    let args: Vec<String> = match i % 3 {
                        0 => vec!["damage".into(), "Aldric".into(), "1".into()],
                        1 => vec!["heal".into(), "Aldric".into(), "1".into()],
                        _ => vec![
                            "roll".into(),
                            "d20".into(),
                            "--for".into(),
                            format!("worker {w}"),
                        ],
                    };
                    // Distinct randomness per process, as real separate runs would have.
                    let out = grimoire_cmd(&db, &dir)
                        .env("GRIMOIRE_RANDOMNESS_SEED", format!("{}", w * 1000 + i))
                        .args(&args)
                        .output()
                        .expect("runs");
                    if !out.status.success() {
                        failures.push(String::from_utf8_lossy(&out.stderr).to_string());
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    assert!(
        failures.is_empty(),
        "{} commands failed, e.g. {:?}",
        failures.len(),
        failures.first()
    );
    let mut store = Store::open(&c.db).unwrap();
    let mut seqs = Vec::new();
    store
        .for_each_row(Seq(1), None, |row| {
            seqs.push(row.seq.get());
            Ok(())
        })
        .unwrap();
    assert_eq!(
        seqs.len() as u64,
        before + 800,
        "every command's event is present"
    );
    assert!(
        seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "seqs are gapless"
    );
    assert!(
        grimoire::verify::log(&mut store, Vec::new())
            .unwrap()
            .all_hold()
    );
}

#[test]
fn damaged_files_get_a_clear_message_and_are_left_as_they_were() {
    let c = Campaign::with_party();
    // An evening under way, so `session end` has a session to end.
    c.ok(&["session", "start"]);
    for i in 0..30 {
        c.ok(&[
            "--rolls",
            "3",
            "roll",
            "d6",
            "--for",
            &format!("padding {i}"),
        ]);
    }
    // Fold the WAL into the main file so the damage below hits real pages.
    let conn = c.sql();
    conn.pragma_update(None, "wal_checkpoint", "TRUNCATE")
        .unwrap();
    drop(conn);
    let pristine = std::fs::read(&c.db).unwrap();
    assert!(pristine.len() > 8192, "the file has several pages");

    let page_size = 4096;
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    // Every page in turn, not only those a command happens to read.
    for page in 1..pristine.len() / page_size {
        let mut bytes = pristine.clone();
        bytes[page * page_size..(page + 1) * page_size].fill(0);
        cases.push((format!("page {} zeroed", page + 1), bytes));
    }
    let whole: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", pristine[..pristine.len() / 2].to_vec()),
        (
            "random bytes",
            (0..pristine.len())
                .map(|i| (i * 7919 % 251) as u8)
                .collect(),
        ),
        ("zeroed header", {
            let mut bytes = pristine.clone();
            for b in &mut bytes[..100] {
                *b = 0;
            }
            bytes
        }),
    ];
    cases.extend(
        whole
            .into_iter()
            .map(|(what, bytes)| (what.to_string(), bytes)),
    );
    for (what, bytes) in cases {
        let damaged = Campaign::empty();
        std::fs::write(&damaged.db, &bytes).unwrap();
        // verify, and session end which runs it before printing a checkpoint, find the damage
        // wherever it is, say so plainly, and write nothing.
        for args in [&["verify"][..], &["session", "end"]] {
            let out = damaged.run(args);
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.code(), Some(1), "{what}: {args:?} should fail");
            assert!(
                [
                    "damaged",
                    "verification FAILED",
                    "does not pass verification",
                    "not a grimoire campaign file"
                ]
                .iter()
                .any(|clear| said.contains(clear))
                    && !said.to_lowercase().contains("sqlite error"),
                "{what}: {args:?}: {said}"
            );
            assert_eq!(
                std::fs::read(&damaged.db).unwrap(),
                bytes,
                "{what}: {args:?} changed the file"
            );
        }
        // Other commands may not notice damage in pages they never read; when they do, they say so
        // plainly and leave the file alone; they never panic or show SQLite's own text.
        for args in [
            &["log"][..],
            &["damage", "Aldric", "1"],
            &["character", "show", "Aldric"],
            &["session", "start"],
        ] {
            let before = std::fs::read(&damaged.db).unwrap();
            let out = damaged.run(args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !stderr.contains("panicked"),
                "{what}: {args:?} panicked: {stderr}"
            );
            assert!(
                !stderr.to_lowercase().contains("sqlite error"),
                "{what}: raw SQLite text: {stderr}"
            );
            if !out.status.success() {
                assert!(
                    stderr.starts_with("error: ") && stderr.len() < 400,
                    "{what}: {args:?}: {stderr}"
                );
                assert_eq!(
                    std::fs::read(&damaged.db).unwrap(),
                    before,
                    "{what}: {args:?} changed the file"
                );
            }
        }
    }
}

#[test]
fn a_database_from_the_first_schema_migrates_and_replays_to_the_same_sheets() {
    let c = Campaign::from_the_first_schema();
    // Reading it migrates it to the current schema first. The sheets are pinned by their numbers, so
    // a change in how sheets are worded does not disturb them, while any change in what the old
    // events compute does.
    let aldric = c.json(&["character", "show", "Aldric"]);
    let mira = c.json(&["character", "show", "Mira"]);
    let versions: Vec<i64> = {
        let conn = c.sql();
        let mut stmt = conn
            .prepare("SELECT version FROM refinery_schema_history ORDER BY version")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(versions, vec![1, 2, 3]);
    assert_eq!(aldric["as_of_seq"], 29);
    let (a, adg) = (&aldric["character"], &aldric["character"]["adg"]);
    assert_eq!(
        (a["health"]["current"].as_u64(), a["health"]["max"].as_u64()),
        (Some(5), Some(7))
    );
    assert_eq!(adg["level"], 2);
    assert_eq!(
        adg["max"],
        serde_json::json!({ "agility": 11, "brawn": 9, "cunning": 13 })
    );
    assert_eq!(
        adg["exerted"],
        serde_json::json!({ "agility": 0, "brawn": 0, "cunning": 0 })
    );
    assert_eq!(adg["silver"], 30);
    assert_eq!(adg["rituals_today"], 1);
    assert_eq!(adg["known"].as_object().unwrap().len(), 1);
    assert!(adg["known"].get("concealing darkness").is_some());
    assert!(adg["discovered"].get("burning wind").is_some());
    assert_eq!(adg["lost"], serde_json::json!({}));
    let scrolls = c.json(&["scroll", "list", "Aldric"]);
    assert_eq!(scrolls["scrolls"][0]["id"], 26);
    assert_eq!(scrolls["scrolls"][0]["reads"], 1);
    let (m, vsd) = (&mira["character"], &mira["character"]["vsd"]);
    assert_eq!(
        (m["health"]["current"].as_u64(), m["health"]["max"].as_u64()),
        (Some(14), Some(14))
    );
    assert_eq!(
        (vsd["mp_max"].as_u64(), vsd["mp_spent"].as_u64()),
        (Some(12), Some(4))
    );
    assert_eq!(
        (vsd["drive"].as_u64(), vsd["body"].as_i64()),
        (Some(3), Some(40))
    );
    assert_eq!(vsd["spells"].as_object().unwrap().len(), 1);
    assert_eq!(vsd["conditions"], serde_json::json!([]));
    assert!(m.get("spells_on").is_none());
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    // And it takes new events as any campaign does.
    c.ok(&["damage", "Aldric", "1"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// The first commands run after an upgrade may well start together (two players checking their
/// sheets): each must find the file migrated, whoever did it.
#[test]
fn processes_opening_a_first_schema_file_at_once_all_succeed() {
    for round in 0..5 {
        let c = Campaign::from_the_first_schema();
        let children: Vec<_> = (0..6)
            .map(|_| {
                grimoire_cmd(&c.db, c.dir.path())
                    .args(["character", "list"])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(String::from_utf8_lossy(&out.stdout).contains("Aldric"));
        }
    }
}

/// A file in rollback mode (a copy made by another tool, or the oldest schema) is switched to WAL on
/// open, which needs the file to itself. While another connection holds the write lock (a second
/// command switching it at the same moment), SQLite refuses the switch at once instead of waiting,
/// so the command must wait for it as it would for any writer, not fail.
#[test]
fn a_command_waits_for_a_writer_before_switching_an_old_file_to_wal() {
    let c = Campaign::from_the_first_schema();
    let writer = c.sql();
    writer.execute_batch("BEGIN IMMEDIATE").unwrap();
    let command = grimoire_cmd(&c.db, c.dir.path())
        .args(["character", "list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    writer.execute_batch("COMMIT").unwrap();
    let out = command.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Aldric"));
    drop(writer);
    let mode: String = c
        .sql()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

/// Damage in a page no command reads (here refinery's migration history) goes unnoticed by everyday
/// commands, so `session start` reads the whole file before an evening is played onto it.
#[test]
fn session_start_refuses_a_file_damaged_where_no_command_looks() {
    let c = Campaign::with_party();
    let conn = c.sql();
    let root: i64 = conn
        .query_row(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'refinery_schema_history'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.pragma_update(None, "wal_checkpoint", "TRUNCATE")
        .unwrap();
    drop(conn);
    let mut bytes = std::fs::read(&c.db).unwrap();
    let page = 4096 * (root as usize - 1);
    bytes[page..page + 4096].fill(0);
    std::fs::write(&c.db, &bytes).unwrap();

    assert!(c.ok(&["character", "show", "Aldric"]).contains("Aldric"));
    let refused = c.run(&["session", "start"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("is damaged"), "{stderr}");
    assert_eq!(std::fs::read(&c.db).unwrap(), bytes, "nothing was written");
}
