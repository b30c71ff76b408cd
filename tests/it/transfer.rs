//! Export and import: the public record, the full backup, and refusal of anything broken.

use crate::support::Campaign;

fn played() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "ash"]);
    c.ok(&["roll", "oe+20"]);
    c.ok(&["damage", "Mira", "4"]);
    c.ok(&["roll", "d20", "--sealed"]);
    c.ok(&["session", "end"]);
    c
}

#[test]
fn export_then_import_gives_the_same_chain_head_and_sheets() {
    let c = played();
    let file = c.dir.path().join("backup.jsonl");
    let out = c.ok(&["export", "--with-secrets", "--out", file.to_str().unwrap()]);
    assert!(out.contains("Exported 9 events and 3 secrets"), "{out}");

    let copy = c.dir.path().join("copy.db");
    let imported = crate::support::grimoire_cmd(&copy, c.dir.path())
        .args(["import", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let original_head = c.head().unwrap();
    let restored = Campaign {
        dir: tempfile::tempdir().unwrap(),
        db: copy,
    };
    assert_eq!(restored.head().unwrap(), original_head);
    assert_eq!(
        restored.ok(&["character", "show", "Mira"]),
        c.ok(&["character", "show", "Mira"])
    );
    assert!(restored.ok(&["verify"]).contains("all checks hold"));
    // The backup carried the secrets: the restored file can still reveal and roll seeded dice.
    restored.ok(&["reveal", "8"]);
    restored.ok(&["roll", "d6"]);
}

#[test]
fn a_public_export_can_be_checked_but_not_rolled_from() {
    let c = played();
    let file = c.dir.path().join("public.jsonl");
    c.ok(&["export", "--out", file.to_str().unwrap()]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 9);
    assert!(!text.contains("\"secret\""));
    let players = Campaign::empty();
    players.ok(&["import", file.to_str().unwrap()]);
    assert!(players.ok(&["verify"]).contains("all checks hold"));
    let err = players.refused(&["roll", "d6"], 1);
    assert!(err.contains("no seed for dice epoch 1"), "{err}");
    players.ok(&["--rolls", "3", "roll", "d6"]);
}

#[test]
fn export_to_stdout_is_json_lines() {
    let c = played();
    let out = c.ok(&["export"]);
    for line in out.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            value["hash"].is_string() && value["payload"].is_object(),
            "{line}"
        );
    }
}

fn import_refused(lines: &str, expect: &str) {
    let c = Campaign::empty();
    let file = c.dir.path().join("in.jsonl");
    std::fs::write(&file, lines).unwrap();
    let err = c.refused(&["import", file.to_str().unwrap()], 1);
    assert!(err.contains(expect), "expected {expect:?} in {err}");
    assert!(!c.db.exists(), "a refused import leaves no file behind");
}

#[test]
fn import_refuses_a_broken_chain_naming_the_first_bad_line() {
    let c = played();
    let good = c.ok(&["export"]);
    let lines: Vec<&str> = good.lines().collect();

    let mut edited = lines.clone();
    let changed = edited[6].replace("\"amount\":4", "\"amount\":1");
    assert_ne!(changed, edited[6]);
    edited[6] = &changed;
    import_refused(
        &edited.join("\n"),
        "import refused at line 7: #7 was changed after it was recorded",
    );

    let mut missing = lines.clone();
    missing.remove(2);
    import_refused(
        &missing.join("\n"),
        "import refused at line 3: event #4 follows #2",
    );

    let mut swapped = lines.clone();
    swapped.swap(3, 4);
    import_refused(&swapped.join("\n"), "import refused at line 4");

    import_refused(&lines[1..].join("\n"), "import refused at line 1");
    import_refused(
        "\n\n",
        "the file to import holds no events, so nothing was imported",
    );
    import_refused(
        "not json\n",
        "import refused at line 1: not a grimoire export line",
    );
    import_refused(
        &format!("{}\n{{\"seq\":2}}\n", lines[0]),
        "import refused at line 2: an event line needs \"event_id\"",
    );
}

#[test]
fn import_refuses_a_file_that_already_holds_a_campaign() {
    let c = played();
    let file = c.dir.path().join("again.jsonl");
    c.ok(&["export", "--out", file.to_str().unwrap()]);
    let err = c.refused(&["import", file.to_str().unwrap()], 1);
    assert!(err.contains("already holds events"), "{err}");
    let missing = c.refused(&["import", "/nonexistent/file.jsonl"], 74);
    assert!(missing.contains("could not be read"), "{missing}");
}

/// An import replays the log as it arrives to leave snapshots behind; a retraction in the file
/// reaches back into events already replayed, and the imported campaign must still match the source.
#[test]
fn an_import_with_retractions_replays_to_the_same_sheets_as_its_source() {
    let source = Campaign::empty();
    source.ok(&["dev", "generate", "--characters", "4", "--events", "1200"]);
    let hurt = source.seq_of(&["damage", "Magus1", "2"]);
    source.ok(&["heal", "Magus1", "1"]);
    source.ok(&["retract", &hurt.to_string(), "--reason", "missed"]);
    // That one is undone while the import still holds it back; these reach past that window, past
    // the copies the import keeps (every 500 events), and before all of them.
    for range in ["10 AND 499", "501 AND 999", "1001 AND 1200"] {
        let sql = format!(
            "SELECT seq FROM events WHERE kind IN ('damage_taken', 'healed') AND seq BETWEEN {range} LIMIT 1"
        );
        let earlier: i64 = source.sql().query_row(&sql, [], |r| r.get(0)).unwrap();
        source.ok(&[
            "retract",
            &earlier.to_string(),
            "--reason",
            "never happened",
        ]);
    }
    // And the retraction of a retraction, which brings its event back: one just made (still held
    // back by the import) and one reaching before the import's copies.
    let undo = source.seq_of(&["retract", "--last", "--reason", "a slip"]);
    source.ok(&["retract", &undo.to_string(), "--reason", "it was right"]);
    let old_undo: i64 = source
        .sql()
        .query_row(
            "SELECT seq FROM events WHERE kind = 'retracted' AND seq > 1200 ORDER BY seq LIMIT 1 OFFSET 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    source.ok(&[
        "retract",
        &old_undo.to_string(),
        "--reason",
        "it happened after all",
    ]);
    source.ok(&["damage", "Adept0", "1"]);
    let restored = source.restored();
    for name in ["Magus1", "Adept0", "Magus3"] {
        assert_eq!(
            restored.json(&["character", "show", name]),
            source.json(&["character", "show", name]),
            "{name}"
        );
    }
    let mut store = grimoire::store::Store::open(&restored.db).unwrap();
    assert_eq!(
        store.replay(None).unwrap(),
        store.replay_without_snapshots(None).unwrap()
    );
    assert!(restored.ok(&["verify"]).contains("all checks hold"));
}

/// An amendment, followed by more play, imports to the same sheets as its source: the import's
/// replay goes back to the amended event with every row before it in the new file (it once
/// replayed from rows not yet written, and the restored campaign had no campaign at all).
#[test]
fn c3_an_import_with_amendments_replays_to_the_same_sheets_as_its_source() {
    let source = Campaign::with_party();
    let hit = source.seq_of(&["damage", "Aldric", "1"]);
    source.ok(&["amend", &hit.to_string(), "--", "damage", "Aldric", "2"]);
    source.ok(&["damage", "Aldric", "1"]);
    let restored = source.restored();
    for name in ["Aldric", "Mira"] {
        assert_eq!(
            restored.json(&["character", "show", name]),
            source.json(&["character", "show", name]),
            "{name}"
        );
    }
    assert!(restored.ok(&["verify"]).contains("all checks hold"));
}

#[test]
fn counts_read_in_the_right_number() {
    // A new campaign: its creation, and epoch 1's two seeds.
    let c = Campaign::empty();
    c.ok(&["init", "--name", "One"]);
    let out = c.dir.path().join("b.jsonl");
    let said = c.ok(&["export", "--with-secrets", "--out", out.to_str().unwrap()]);
    assert!(said.contains("Exported 1 event and 2 secrets to"), "{said}");
    let restored = Campaign::empty();
    let said = restored.ok(&["import", out.to_str().unwrap()]);
    assert!(said.contains(" 1 event and 2 secrets into"), "{said}");
}

/// An import holds its newest events back before applying them, and a retraction among those just
/// passes its target over. A seeded roll passed over still used its roll number, and the restored
/// campaign must not hand that number out again (its next roll would repeat the undone one's dice
/// and fail the fairness check).
#[test]
fn a_roll_undone_at_the_end_of_an_import_keeps_its_roll_number() {
    let source = Campaign::with_party();
    source.ok(&["session", "start", "--entropy", "ash"]);
    source.ok(&["roll", "d20"]);
    source.ok(&["retract", "--last", "--reason", "rolled the wrong die"]);
    let restored = source.restored();
    assert_eq!(restored.ok(&["roll", "d20"]), source.ok(&["roll", "d20"]));
    assert!(restored.ok(&["verify"]).contains("all checks hold"));
    let mut store = grimoire::store::Store::open(&restored.db).unwrap();
    assert_eq!(
        store.replay(None).unwrap(),
        store.replay_without_snapshots(None).unwrap()
    );
}
