//! Tampering with the file behind grimoire's back: `verify` must notice and name the first bad event.

use crate::support::{Campaign, learning};
use grimoire::seq::Seq;

/// A campaign with seeded dice, a sealed roll and a revealed epoch: something of every kind to forge.
fn campaign() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "rain"]);
    c.ok(&["roll", "2d6"]); // #6
    c.ok(&["damage", "Aldric", "3"]); // #7
    c.ok(&["roll", "d20", "--sealed"]); // #8
    c.ok(&["reveal", "8"]); // #9
    c.ok(&["session", "end"]); // #10
    c.ok(&["seed", "reveal"]); // #11, #12, #13
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    c
}

fn unlock(c: &Campaign) -> rusqlite::Connection {
    let conn = c.sql();
    conn.execute_batch("DROP TRIGGER events_refuse_update; DROP TRIGGER events_refuse_delete;")
        .unwrap();
    conn
}

/// A generated campaign of 450 events, with a snapshot at its head.
fn generated() -> Campaign {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "2", "--events", "450"]);
    c
}

/// Sets the state of the snapshot at #450 to `state`, an SQL expression of the state it holds.
fn edit_snapshot(c: &Campaign, state: &str) {
    let changed = c
        .sql()
        .execute(
            &format!("UPDATE snapshots SET state = {state} WHERE seq = 450"),
            [],
        )
        .unwrap();
    assert_eq!(changed, 1, "the snapshot at #450");
}

fn verify_fails(c: &Campaign, args: &[&str]) -> String {
    let out = c.run(args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "verify should fail: {stdout}");
    assert!(stdout.contains("verification FAILED"), "{stdout}");
    stdout
}

#[test]
fn one_changed_byte_in_a_payload_is_named_by_seq() {
    let c = campaign();
    unlock(&c).execute("UPDATE events SET payload = replace(payload, '\"amount\":3', '\"amount\":1') WHERE seq = 7", []).unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("chain: BROKEN at #7: #7 was changed after it was recorded"),
        "{report}"
    );
}

#[test]
fn a_deleted_row_is_named_as_missing() {
    let c = campaign();
    unlock(&c)
        .execute("DELETE FROM events WHERE seq = 7", [])
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("BROKEN at #7: the log skips from #6 to #8"),
        "{report}"
    );
}

#[test]
fn a_forger_who_recomputes_every_hash_is_caught_by_the_checkpoint_and_the_seeded_dice() {
    let c = campaign();
    let checkpoint = c.json(&["head"])["checkpoint"]
        .as_str()
        .unwrap()
        .to_string();
    // Rewrite the 2d6 roll at #6 to other faces and re-chain everything after it.
    let conn = unlock(&c);
    let payload: String = conn
        .query_row("SELECT payload FROM events WHERE seq = 6", [], |r| r.get(0))
        .unwrap();
    let mut event: serde_json::Value = serde_json::from_str(&payload).unwrap();
    let rolled = event["dice"][0]["value"].as_u64().unwrap();
    let forged = rolled % 6 + 1;
    event["dice"][0]["value"] = forged.into();
    event["total"] = (event["total"].as_u64().unwrap() - rolled + forged).into();
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = 6",
        [serde_json::to_string(&event).unwrap()],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);

    let plain = verify_fails(&c, &["verify"]);
    assert!(
        plain.contains("chain: 13 events, unbroken"),
        "the forged chain itself is consistent: {plain}"
    );
    assert!(
        plain.contains(&format!(
            "PROBLEM at #6: seeded die 0 shows {forged} but the revealed seed gives {rolled}"
        )),
        "{plain}"
    );
    let anchored = verify_fails(&c, &["verify", "--checkpoint", &checkpoint]);
    assert!(anchored.contains("DOES NOT HOLD"), "{anchored}");
}

#[test]
fn a_forged_sealed_reveal_is_caught() {
    let c = campaign();
    let conn = unlock(&c);
    let payload: String = conn
        .query_row("SELECT payload FROM events WHERE seq = 9", [], |r| r.get(0))
        .unwrap();
    let mut event: serde_json::Value = serde_json::from_str(&payload).unwrap();
    let value = event["dice"][0]["value"].as_u64().unwrap();
    event["dice"][0]["value"] = (value % 20 + 1).into();
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = 9",
        [serde_json::to_string(&event).unwrap()],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("the value revealed for sealed die 0 does not open its commitment"),
        "{report}"
    );
}

/// Recomputes every hash from #1 on, as a forger with the file (and our hashing code) would.
pub fn rechain(conn: &rusqlite::Connection) {
    let mut rows: Vec<grimoire::store::StoredRow> = Vec::new();
    let mut stmt = conn
        .prepare("SELECT seq, event_id, kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash FROM events ORDER BY seq")
        .unwrap();
    let mapped = stmt
        .query_map([], |r| {
            Ok(grimoire::store::StoredRow {
                seq: Seq(r.get(0)?),
                event_id: r.get(1)?,
                kind: r.get(2)?,
                schema_version: r.get(3)?,
                payload: r.get(4)?,
                game_time: r.get(5)?,
                recorded_at: r.get(6)?,
                session: r.get(7)?,
                actor: r.get(8)?,
                prev_hash: r.get(9)?,
                hash: r.get(10)?,
            })
        })
        .unwrap();
    for row in mapped {
        rows.push(row.unwrap());
    }
    let mut prev = "0".repeat(64);
    for mut row in rows {
        row.prev_hash = prev.clone();
        row.hash = row.compute_hash();
        conn.execute(
            "UPDATE events SET prev_hash = ?1, hash = ?2 WHERE seq = ?3",
            rusqlite::params![row.prev_hash, row.hash, row.seq.get() as i64],
        )
        .unwrap();
        prev = row.hash;
    }
}

/// The matrix: on a 1,000-event generated log, sampled byte flips in stored payloads, a deleted row,
/// two swapped rows and an inserted row are each caught by `verify`, which names the first bad seq;
/// the same edits on an export are refused by `import`, naming the line.
#[test]
fn the_tamper_matrix_on_a_thousand_events() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "6", "--events", "1000"]);
    let conn = unlock(&c);
    let store = || grimoire::store::Store::open(&c.db).unwrap();
    let first_bad = || {
        grimoire::verify::log(&mut store(), Vec::new())
            .unwrap()
            .chain_break
            .map(|p| p.seq.get())
    };
    assert_eq!(first_bad(), None);
    let mut caught = 0;

    // Byte flips: 120 sampled (seq, position) pairs, each restored afterwards.
    for sample in 0..120u64 {
        let seq = 1 + (sample * 7919) % 1000;
        let payload: String = conn
            .query_row(
                "SELECT payload FROM events WHERE seq = ?1",
                [seq as i64],
                |r| r.get(0),
            )
            .unwrap();
        let mut bytes = payload.clone().into_bytes();
        let at = (sample as usize * 104_729) % bytes.len();
        // Flip to another printable character so the payload stays text.
        bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
        let forged = String::from_utf8(bytes).unwrap();
        conn.execute(
            "UPDATE events SET payload = ?1 WHERE seq = ?2",
            rusqlite::params![forged, seq as i64],
        )
        .unwrap();
        assert_eq!(first_bad(), Some(seq), "flip at byte {at} of #{seq}");
        conn.execute(
            "UPDATE events SET payload = ?1 WHERE seq = ?2",
            rusqlite::params![payload, seq as i64],
        )
        .unwrap();
        caught += 1;
    }
    assert_eq!(first_bad(), None, "everything restored");

    // Two rows swapped: the first of them is named.
    conn.execute_batch(
        "UPDATE events SET seq = -1 WHERE seq = 400; UPDATE events SET seq = 400 WHERE seq = 600; UPDATE events SET seq = 600 WHERE seq = -1;",
    )
    .unwrap();
    assert_eq!(first_bad(), Some(400));
    conn.execute_batch(
        "UPDATE events SET seq = -1 WHERE seq = 400; UPDATE events SET seq = 400 WHERE seq = 600; UPDATE events SET seq = 600 WHERE seq = -1;",
    )
    .unwrap();
    assert_eq!(first_bad(), None);
    caught += 1;

    // A row inserted at the end, chained to nothing real.
    conn.execute(
        "INSERT INTO events SELECT 1001, 'forged-id', kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash FROM events WHERE seq = 500",
        [],
    )
    .unwrap();
    assert_eq!(first_bad(), Some(1001));
    conn.execute("DELETE FROM events WHERE seq = 1001", [])
        .unwrap();
    caught += 1;

    // A row deleted.
    conn.execute("DELETE FROM events WHERE seq = 700", [])
        .unwrap();
    assert_eq!(first_bad(), Some(700));
    caught += 1;
    assert_eq!(caught, 123);
}

#[test]
fn the_same_edits_on_an_export_are_refused_by_import_naming_the_line() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "4", "--events", "1000"]);
    let lines: Vec<String> = c.ok(&["export"]).lines().map(str::to_string).collect();
    let refused_at = |edited: &[String]| -> Option<u64> {
        let target = Campaign::empty();
        let file = target.dir.path().join("edited.jsonl");
        std::fs::write(&file, edited.join("\n")).unwrap();
        let out = target.run(&["import", file.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(
            !target.db.exists() || target.head().is_none(),
            "nothing imported"
        );
        stderr
            .split("import refused at line ")
            .nth(1)?
            .split(':')
            .next()?
            .parse()
            .ok()
    };
    for sample in 0..30usize {
        let index = (sample * 7919) % lines.len();
        let mut edited = lines.clone();
        let start = edited[index].find("\"payload\":").unwrap() + 12;
        let mut bytes = edited[index].clone().into_bytes();
        let at = start + (sample * 31) % 40;
        bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
        edited[index] = String::from_utf8(bytes).unwrap();
        assert_eq!(
            refused_at(&edited),
            Some(index as u64 + 1),
            "flip in line {}",
            index + 1
        );
    }
    let mut deleted = lines.clone();
    deleted.remove(499);
    assert_eq!(refused_at(&deleted), Some(500));
    let mut swapped = lines.clone();
    swapped.swap(299, 599);
    assert_eq!(refused_at(&swapped), Some(300));
    let mut inserted = lines.clone();
    inserted.insert(100, lines[50].clone());
    assert_eq!(refused_at(&inserted), Some(101));
}

/// Commands start from snapshots without replaying what they summarise, so an edited snapshot would
/// show a false sheet while every hash still links: `verify` compares each one with a replay.
#[test]
fn an_edited_snapshot_is_caught_by_verify_and_rebuilt_away() {
    let c = generated();
    let honest = c.json(&["character", "show", "Adept0"])["character"]["health"]["current"].clone();
    assert!(honest.is_u64() && honest != 99, "{honest}");
    // One at the head, and the latest sessions' ends.
    let kept: i64 = c
        .sql()
        .query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0))
        .unwrap();
    assert!(kept >= 1);
    let report = c.ok(&["verify"]);
    assert!(
        report.contains(&format!(
            "snapshots: {kept} compared with a replay of the log"
        )),
        "{report}"
    );

    edit_snapshot(
        &c,
        "json_set(state, '$.characters.adept0.health.current', 99)",
    );
    // Commands would believe it...
    assert_eq!(
        c.json(&["character", "show", "Adept0"])["character"]["health"]["current"],
        99
    );
    // ...but verify does not.
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("PROBLEM at #450: the snapshot at #450 does not match a replay of the log"),
        "{report}"
    );
    assert!(report.contains("chain: 450 events, unbroken"), "{report}");

    c.ok(&["snapshots", "rebuild"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    assert_eq!(
        c.json(&["character", "show", "Adept0"])["character"]["health"]["current"],
        honest
    );
}

/// The checkpoint `session end` prints vouches for the history before it, so it is never printed
/// for a log that fails verification.
#[test]
fn session_end_refuses_to_print_a_checkpoint_for_an_altered_log() {
    let c = campaign();
    c.ok(&["session", "start"]);
    unlock(&c).execute("UPDATE events SET payload = replace(payload, '\"amount\":3', '\"amount\":1') WHERE seq = 7", []).unwrap();
    let before = c.head();
    let refused = c.run(&["session", "end"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("does not pass verification (the chain breaks at #7)"),
        "{stderr}"
    );
    assert_eq!(c.head(), before);
}

/// With no session open there is nothing to end: the rules say so at once, without first verifying a
/// log that may take seconds to check.
#[test]
fn session_end_without_a_session_is_refused_by_the_rules_before_any_verification() {
    let c = campaign();
    unlock(&c).execute("UPDATE events SET payload = replace(payload, '\"amount\":3', '\"amount\":1') WHERE seq = 7", []).unwrap();
    let stderr = c.refused(&["session", "end"], 1);
    assert!(stderr.contains("no session is open"), "{stderr}");
}

/// A name forged into the file to carry terminal escapes is never handed to a shell's completion,
/// which would print it as it is.
#[test]
fn completion_leaves_out_a_forged_name_that_would_act_on_a_terminal() {
    let c = Campaign::with_party();
    unlock(&c)
        .execute(
            "UPDATE events SET payload = replace(payload, '\"name\":\"Mira\"', '\"name\":\"Mi\\u001b]0;owned\\u0007ra\"') WHERE kind = 'character_added'",
            [],
        )
        .unwrap();
    assert!(
        c.ok(&["character", "list"])
            .contains("Mi\\u{1b}]0;owned\\u{7}ra"),
        "the forged name is in the state"
    );
    assert_eq!(c.ok(&["complete-names"]), "Aldric\n");
}

/// A sealed 13 commits to `SHA-256(nonce ‖ "13")`; a GM who stores 3 with the nonce lengthened by
/// the byte "1" (hex 31) would hash the same bytes. A nonce is exactly 32 hex digits everywhere a
/// reveal is read: `reveal` refuses the forged secret, and `verify` and `import` refuse a log that
/// carries the forged opening (hashes recomputed), naming the seq.
#[test]
fn a_sealed_die_never_opens_as_another_value_through_a_lengthened_nonce() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["--rolls", "13", "roll", "d20", "--sealed"]);
    let conn = c.sql();
    let key = format!("{sealed}:0");
    let secret: String = conn
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'sealed_die' AND key = ?1",
            [&key],
            |r| r.get(0),
        )
        .unwrap();
    let mut secret: serde_json::Value = serde_json::from_str(&secret).unwrap();
    let nonce = secret["nonce"].as_str().unwrap().to_string();
    assert_eq!(nonce.len(), 32);
    secret["value"] = 3.into();
    secret["nonce"] = format!("{nonce}31").into();
    conn.execute(
        "UPDATE secrets SET value = ?1 WHERE kind = 'sealed_die' AND key = ?2",
        [secret.to_string(), key.clone()],
    )
    .unwrap();
    let said = c.refused(&["reveal", &sealed.to_string()], 1);
    assert!(!said.contains("revealed: 3"), "{said}");

    // The same forgery written into the log itself, every hash recomputed after it.
    secret["value"] = 13.into();
    secret["nonce"] = nonce.clone().into();
    conn.execute(
        "UPDATE secrets SET value = ?1 WHERE kind = 'sealed_die' AND key = ?2",
        [secret.to_string(), key],
    )
    .unwrap();
    drop(conn);
    let reveal = c.seq_of(&["reveal", &sealed.to_string()]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(payload, ?1, ?2) WHERE seq = ?3",
        rusqlite::params![
            format!("\"value\":13,\"nonce\":\"{nonce}\""),
            format!("\"value\":3,\"nonce\":\"{nonce}31\""),
            reveal as i64
        ],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    // A nonce of any length but grimoire's is not in the canonical form: the reveal is refused
    // where it stands, and opens nothing.
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{reveal} cannot be read: its payload is not in the canonical form grimoire writes (docs/export.md): its \"nonce\" is not 32 lower-case hex digits"
        )),
        "{report}"
    );
    let explained = c.ok(&["explain", &sealed.to_string()]);
    assert!(
        explained.contains("revealed: 3; it DOES NOT open the commitment"),
        "{explained}"
    );
}

/// A row edited to hold what grimoire never writes (a negative time) is a verify report like any
/// other break: `--json` prints the report with the seq in its field, not an error document.
#[test]
fn verify_reports_a_damaged_row_by_seq_in_its_report_json_included() {
    let c = campaign();
    unlock(&c)
        .execute("UPDATE events SET game_time = -5 WHERE seq = 7", [])
        .unwrap();
    let out = c.run(&["--json", "verify", "--checkpoint", "3:0000000000000000"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["all_hold"], false, "{report}");
    assert_eq!(report["chain_break"]["seq"], 7, "{report}");
    assert!(report.get("error").is_none(), "{report}");
    assert_eq!(report["checkpoints"][0]["holds"], false);
    let text = verify_fails(&c, &["verify"]);
    assert!(
        text.contains("BROKEN at #7") && text.contains("game_time"),
        "{text}"
    );
}

/// A row changed behind grimoire's back before a damaged one (text that is not UTF-8, of a kind the
/// reveals' pass reads too): the chain breaks first at the changed row, and verify names it there,
/// not at the damage after it.
#[test]
fn verify_names_a_break_before_a_damaged_row_first() {
    let c = campaign();
    let conn = unlock(&c);
    conn.execute("UPDATE events SET payload = replace(payload, '\"amount\":3', '\"amount\":1') WHERE seq = 7", [])
        .unwrap();
    conn.execute(
        "UPDATE events SET payload = CAST(X'7BFF7D' AS TEXT) WHERE seq = 9",
        [],
    )
    .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("chain: BROKEN at #7: #7 was changed after it was recorded"),
        "{report}"
    );
    let out = c.run(&["--json", "verify"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["chain_break"]["seq"], 7, "{report}");
    // With nothing changed before it, the damaged row is the break.
    conn.execute("UPDATE events SET payload = replace(payload, '\"amount\":1', '\"amount\":3') WHERE seq = 7", [])
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(report.contains("BROKEN at #9: #9 is damaged"), "{report}");
}

/// A hash edited into something that is not a hash at all (a line of text a terminal would act
/// on, say) never reaches a reader as one: the event is refused as damage where it is read, and
/// verify names the break.
#[test]
fn a_hash_that_is_not_a_hash_is_refused_as_damage_where_the_event_is_read() {
    let c = campaign();
    unlock(&c)
        .execute(
            "UPDATE events SET hash = 'not a hash \u{1b}[2J' WHERE seq = 7",
            [],
        )
        .unwrap();
    let err = c.refused(&["explain", "7"], 1);
    assert!(
        err.contains("#7") && err.contains("is not a SHA-256 hash in hex"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err}");
    let text = verify_fails(&c, &["verify"]);
    assert!(text.contains("#7"), "{text}");
}

/// A payload edited to hold a value of the wrong kind is named by its field and place in
/// grimoire's words; serde's own ("invalid value: integer …, expected u32") never shows. (A number
/// not in plain digits is refused by the canonical form first, naming its field too.)
#[test]
fn an_unreadable_payload_is_named_by_field_and_place_in_grimoires_words() {
    let c = campaign();
    unlock(&c)
        .execute(
            "UPDATE events SET payload = replace(payload, '\"amount\":3', '\"amount\":-3') WHERE seq = 7",
            [],
        )
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("the field 'amount' holds -3 where a whole number from 0 to 4294967295 belongs (line 1, column"),
        "{report}"
    );
    for serde_words in ["invalid type", "invalid value", "expected u32"] {
        assert!(!report.contains(serde_words), "{report}");
    }
    let log = c.refused(&["log"], 1);
    assert!(
        log.contains("the field 'amount'") && !log.contains("invalid type"),
        "{log}"
    );
}

/// Rewrites the seeded dice of #6 (a 2d6 of roll 0, in `campaign()`) to claim `roll` and draw
/// indexes `n`, each face re-derived from the revealed seed at its claimed place, and re-chains the
/// log: a forger with the seed and our hashing code, choosing which die of the derivation a roll
/// gets. Returns what `verify` says.
fn forge_roll(roll: u64, n: [u64; 2]) -> String {
    let c = campaign();
    // Two more rolls before #6's place would not do: the forgery rewrites #6 itself.
    let conn = unlock(&c);
    let payload = |seq: u64| -> serde_json::Value {
        let text: String = conn
            .query_row(
                "SELECT payload FROM events WHERE seq = ?1",
                [seq as i64],
                |r| r.get(0),
            )
            .unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let mut event = payload(6);
    assert_eq!(event["dice"][0]["provenance"]["roll"], 0, "{event}");
    let campaign_id = payload(1)["campaign_id"].as_str().unwrap().to_string();
    let seed = grimoire::dice::fairness::parse_seed(payload(11)["seed"].as_str().unwrap()).unwrap();
    let mut total = 0;
    for (die, n) in event["dice"].as_array_mut().unwrap().iter_mut().zip(n) {
        die["provenance"]["roll"] = roll.into();
        die["n"] = n.into();
        let pos = grimoire::dice::DiePosition {
            campaign_id: &campaign_id,
            epoch: 1,
            seq: Seq(6),
            roll: Some(roll),
            n: u32::try_from(n).unwrap(),
            entropy: "rain",
        };
        let face = grimoire::dice::fairness::seeded_face(&seed, &pos, 6);
        die["value"] = face.into();
        total += face;
    }
    event["total"] = total.into();
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = 6",
        [serde_json::to_string(&event).unwrap()],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    verify_fails(&c, &["verify"])
}

/// The second derivation binds a seeded die to its command's roll number and its place in the
/// command's draw order, so a GM holding the seed who wants another die for a roll must spend
/// rolls, in plain sight. A forger who re-derives the faces for another place (hashes recomputed)
/// is named by `verify`: the epoch's roll numbers run 0, 1, 2, … with none skipped or taken
/// again, and each roll's dice are numbered 0 to k − 1.
#[test]
fn a_roll_moved_to_another_place_of_the_derivation_is_named_by_verify() {
    for (roll, n, says) in [
        (
            5,
            [0, 1],
            "#6: its seeded dice claim roll 5 of epoch 1, but the epoch's next roll is 0",
        ),
        (
            0,
            [7, 18],
            "the seeded dice of roll 0 of epoch 1 are not numbered 0 to 1 in draw order",
        ),
    ] {
        let report = forge_roll(roll, n);
        assert!(
            report.contains(&format!("PROBLEM at #6: {says}")) || report.contains(says),
            "{report}"
        );
        assert!(
            !report.contains("seeded die 0 shows"),
            "the faces derive: {report}"
        );
    }
}

/// A roll that claims the roll number of the command before it (with draw indexes that command did
/// not use) is refused: only a scroll written during a downtime span shares its span's number.
#[test]
fn a_roll_that_takes_the_number_of_the_command_before_it_is_named_by_verify() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "rain"]);
    c.ok(&["roll", "d20"]); // #6, roll 0
    c.ok(&["roll", "d20"]); // #7, roll 1
    c.ok(&["session", "end"]);
    c.ok(&["seed", "reveal"]);
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(replace(payload, '\"roll\":1', '\"roll\":0'), '\"n\":0', '\"n\":1') WHERE seq = 7",
        [],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("#7: its seeded dice claim roll 0 of epoch 1, taken by an earlier command"),
        "{report}"
    );
}

/// A campaign begun by an earlier grimoire keeps the first derivation for its epoch (its dice bound
/// to their seq), still verifies, and `verify` names that epoch as steerable; its next epoch uses
/// roll numbers.
#[test]
fn an_epoch_begun_before_roll_numbers_keeps_its_derivation_and_is_named_steerable() {
    let c = Campaign::from_the_first_schema();
    let report = c.ok(&["verify"]);
    assert!(report.contains("all checks hold"), "{report}");
    assert!(
        report.contains("steerable epochs: 1 (begun before roll numbers"),
        "{report}"
    );
    // The file's current epoch (2) was begun by that grimoire too: its dice keep the seq.
    let before = c.json(&["roll", "d20"]);
    let die = &before["appended"][0]["payload"]["dice"][0];
    assert!(die["provenance"].get("roll").is_none(), "{before}");
    c.ok(&["seed", "reveal"]);
    let after = c.json(&["roll", "d20"]);
    assert_eq!(
        after["appended"][0]["payload"]["dice"][0]["provenance"]["roll"], 0,
        "{after}"
    );
    let report = c.ok(&["verify"]);
    assert!(report.contains("all checks hold"), "{report}");
    assert!(report.contains("steerable epochs: 1, 2 ("), "{report}");
}

/// A stored in-game time is checked against the clock as the table saw it when the event was
/// recorded: an export whose #3 claims 2^63 − 1 seconds (Day 106751991167301) is refused at that
/// line by import and named by verify, though every hash was recomputed. A retraction of a clock
/// move winds the clock back from where it was recorded, and honest logs hold.
#[test]
fn a_stored_time_that_is_not_the_clock_when_recorded_is_refused_and_named() {
    let c = Campaign::with_party();
    c.ok(&["time", "advance", "2h"]);
    c.ok(&["retract", "--last", "--reason", "we did not rest"]);
    c.ok(&["damage", "Aldric", "1"]);
    c.ok(&["time", "advance", "10m"]);
    c.ok(&["heal", "Aldric", "1"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let honest = c.ok(&["export"]);
    let copy = Campaign::empty();
    let file = copy.dir.path().join("honest.jsonl");
    std::fs::write(&file, &honest).unwrap();
    copy.ok(&["import", file.to_str().unwrap()]);

    let forged = crate::hostile_text::forge(&honest, 3, |row| row.game_time = i64::MAX as u64);
    let file = copy.dir.path().join("forged.jsonl");
    std::fs::write(&file, forged).unwrap();
    let target = Campaign::empty();
    let said = target.refused(&["import", file.to_str().unwrap()], 1);
    assert!(
        said.contains("import refused at line 3: #3 is stamped Day 106751991167301")
            && said.contains("clock stood at Day 1, 00:00 (0 s)"),
        "{said}"
    );

    // The same edit in the file itself.
    let conn = unlock(&c);
    conn.execute("UPDATE events SET game_time = 7200 WHERE seq = 7", [])
        .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(
            "PROBLEM at #7: #7 is stamped Day 1, 02:00 (7200 s), but the in-game clock stood at Day 1, 00:00 (0 s)"
        ),
        "{report}"
    );
}

/// Honest histories from the third hostile pass, which `verify` wrongly failed: a downtime whose
/// scrolls roll, roll nothing, and roll again (the scrolls of one command share its roll number
/// with a non-rolling scroll between); and a chain of retractions in which an event is undone by
/// two retractions, one of them restored later (the clock stays wound back). Both verify, and
/// their exports import.
#[test]
fn honest_downtimes_and_retraction_chains_verify_and_import() {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "M"]);
    c.ok(&[
        "character",
        "add",
        "adg",
        "Aldric",
        "--level",
        "2",
        "--agility",
        "11",
        "--brawn",
        "12",
        "--cunning",
        "13",
        "--health",
        "8",
        "--silver",
        "400",
    ]);
    c.ok(&[
        "--rolls",
        "1,1",
        "ritual",
        "learn",
        "Aldric",
        "Iron Gate",
        "--type",
        "ceremony",
        "--pay",
        "health",
    ]);
    c.ok(&[
        "--rolls",
        "1,1",
        "ritual",
        "learn",
        "Aldric",
        "Dark Word",
        "--type",
        "phrase",
        "--pay",
        "health",
    ]);
    c.ok(&[
        "downtime",
        "Aldric",
        "--weeks",
        "3",
        "--week",
        "Aldric: scribe Iron Gate, level 1, effect: fog",
        "--week",
        "Aldric: scribe Dark Word, level 1, effect: fog",
        "--week",
        "Aldric: scribe Iron Gate, level 1, effect: fog",
    ]);
    let advanced = c.seq_of(&["time", "advance", "3h"]);
    let first = c.seq_of(&["retract", &advanced.to_string(), "--reason", "a"]);
    let restore = c.seq_of(&["retract", &first.to_string(), "--reason", "b"]);
    c.ok(&["retract", &advanced.to_string(), "--reason", "c"]);
    c.ok(&["retract", &restore.to_string(), "--reason", "d"]);
    c.ok(&["time", "advance", "10m"]);
    let report = c.ok(&["verify"]);
    assert!(report.contains("all checks hold"), "{report}");
    let copy = Campaign::empty();
    copy.ok(&["import", c.export_all().to_str().unwrap()]);
    assert_eq!(copy.head(), c.head());
}

/// Bytes that are not UTF-8 in a snapshot are damage to a cache: commands go on without it and
/// `verify` names it, where the error they raised once stopped every command, `verify` included.
#[test]
fn a_snapshot_that_is_not_text_is_passed_over_and_named_by_verify() {
    let c = generated();
    let honest = c.json(&["character", "show", "Adept0"]);
    edit_snapshot(&c, "CAST(x'7bff7d' AS TEXT)");
    assert_eq!(c.json(&["character", "show", "Adept0"]), honest);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("PROBLEM at #450: the snapshot at #450 cannot be read"),
        "{report}"
    );
    c.ok(&["snapshots", "rebuild"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// A snapshot's history (the retractions, each system's campaign-wide part) is read only once a
/// command uses it, so a write need not read it all. Edited out of shape there, it is found when
/// used: a read goes on without the snapshot, a write that does not use it is recorded, one that
/// does records nothing and says how to mend it, and `verify` names the snapshot.
#[test]
fn a_snapshot_history_edited_out_of_shape_refuses_the_write_that_uses_it() {
    let c = generated();
    let honest = c.json(&["character", "show", "Adept0"]);
    edit_snapshot(&c, "json_set(state, '$.retracted', json('[1]'))");
    assert_eq!(c.json(&["character", "show", "Adept0"]), honest);
    c.ok(&["damage", "Adept0", "1"]);
    let refused = c.refused(&["retract", "451", "--reason", "typo"], 1);
    assert!(
        refused.contains("the snapshot of the campaign at #450 holds a part that does not read as grimoire keeps it")
            && refused.contains("nothing was recorded")
            && refused.contains("grimoire snapshots rebuild"),
        "{refused}"
    );
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("PROBLEM at #450: the snapshot at #450 cannot be read"),
        "{report}"
    );
    c.ok(&["snapshots", "rebuild"]);
    c.ok(&["retract", "451", "--reason", "typo"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// A snapshot's characters are each read only once a command uses them, so a write need not read
/// every one. One kept under another's name (a command naming one would act on the other) or out
/// of shape is found when used: a write on them records nothing and says how to mend it, a write
/// on another character is recorded, and reads go on without the snapshot.
#[test]
fn a_snapshot_character_swapped_or_out_of_shape_refuses_the_write_that_uses_them() {
    let c = generated();
    let honest = c.json(&["character", "show", "Adept0"]);
    let names_the_damage = |refused: &str| {
        refused.contains("the snapshot of the campaign at #450 holds a part that does not read")
            && refused.contains("grimoire snapshots rebuild")
    };
    edit_snapshot(
        &c,
        "json_set(state, '$.characters.adept0', json(json_extract(state, '$.characters.magus1')))",
    );
    assert_eq!(c.json(&["character", "show", "Adept0"]), honest);
    let refused = c.refused(&["damage", "Adept0", "1"], 1);
    assert!(names_the_damage(&refused), "{refused}");
    assert!(
        c.ok(&["damage", "Magus1", "1"])
            .contains("Magus1 takes 1 damage")
    );
    let honest = c.json(&["character", "show", "Adept0"]);
    edit_snapshot(
        &c,
        "json_set(state, '$.characters.adept0.sheet', json('[1]'))",
    );
    assert_eq!(c.json(&["character", "show", "Adept0"]), honest);
    let refused = c.refused(&["heal", "Adept0", "1"], 1);
    assert!(names_the_damage(&refused), "{refused}");
    c.ok(&["snapshots", "rebuild"]);
    assert!(
        c.ok(&["damage", "Adept0", "1"])
            .contains("Adept0 takes 1 damage")
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// From the hostile pass: a refusal decided on a damaged part of a snapshot gave a false reason
/// ("there is no scroll"), and a shell kept the state a refused write had loaded, whose damaged
/// part its reads then showed as empty. The damage is named, and a kept state is read whole.
#[test]
fn a_snapshot_part_out_of_shape_is_named_for_a_refusal_and_never_shown_empty_by_a_shell() {
    use std::io::Write;
    let c = generated();
    let listed = c.ok(&["scroll", "list"]);
    let held: Vec<&str> = listed.lines().filter(|l| l.contains(" S")).collect();
    assert!(!held.is_empty(), "{listed}");
    edit_snapshot(
        &c,
        "json_set(state, '$.systems.adg.scrolls', json('{\"30\":5}'))",
    );
    assert_eq!(c.ok(&["scroll", "list"]), listed);
    let refused = c.refused(&["scroll", "read", "Adept0", "S1"], 1);
    assert!(
        refused.contains("the snapshot of the campaign at #450 holds a part that does not read"),
        "{refused}"
    );
    let mut shell = c.shell();
    let mut typed = shell.stdin.take().unwrap();
    writeln!(typed, "damage Nobody 3\nscroll list").unwrap();
    drop(typed);
    let shown = String::from_utf8(shell.wait_with_output().unwrap().stdout).unwrap();
    for line in held {
        assert!(
            shown.contains(line.trim()),
            "{line} missing from the shell's list:\n{shown}"
        );
    }
}

/// From the hostile pass: a roll put to a phone is decided on a copy of the write's state, and a
/// part that did not read there was seen by the copy only: the command was refused for a scroll
/// "not there", and a phone's answer recorded that refusal for good. The damage is named.
#[test]
fn a_roll_put_to_a_phone_on_a_damaged_snapshot_part_names_the_damage() {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    let scroll = c.write_scroll("Aldric", "Concealing Darkness", "a shadow hides the door");
    c.ok(&["player", "link", "Bea", "--plays", "Aldric"]);
    c.until_a_snapshot(&["time", "advance", "1m"]);
    c.sql()
        .execute(
            "UPDATE snapshots SET state = json_set(state, '$.systems.adg.scrolls', json('[1,2]'))",
            [],
        )
        .unwrap();
    let read = ["scroll", "read", "Aldric", &format!("S{scroll}")];
    for args in [
        &read[..],
        &[&read[..], &["--rolled-by", "Bea", "--no-wait"]].concat(),
    ] {
        let refused = c.refused(args, 1);
        assert!(
            refused.contains("holds a part that does not read as grimoire keeps it"),
            "{args:?}: {refused}"
        );
    }
}

/// A damaged secret is said to be one (the driver's own error blamed the disk), and neither a roll
/// nor a backup goes on without it.
#[test]
fn a_secret_that_is_not_text_is_named_as_damage() {
    let c = Campaign::with_party();
    c.sql()
        .execute("UPDATE secrets SET value = CAST(x'ff' AS TEXT)", [])
        .unwrap();
    let said = "the stored secret epoch_seed 1 is damaged: its text is not valid UTF-8";
    let refused = c.refused(&["roll", "d6"], 1);
    assert!(refused.contains(said), "{refused}");
    let copy = c.dir.path().join("copy.db");
    let refused = c.refused(&["backup", copy.to_str().unwrap()], 1);
    assert!(refused.contains(said), "{refused}");
    assert!(!copy.exists());
}

/// The epoch's seed is one hash away from its published commitment: a seed edited in the file is
/// refused before a die is drawn from it (a roll from it could never be checked once revealed), and
/// `verify` names it, as it names one damaged past reading.
#[test]
fn a_seed_that_does_not_match_its_commitment_rolls_nothing_and_fails_verify() {
    let c = Campaign::with_party();
    let before = c.head();
    c.sql()
        .execute(
            "UPDATE secrets SET value = '00' || substr(value, 3) WHERE kind = 'epoch_seed'",
            [],
        )
        .unwrap();
    let refused = c.refused(&["roll", "d20"], 1);
    assert!(
        refused.contains("the stored seed of epoch 1 does not match its published commitment"),
        "{refused}"
    );
    assert_eq!(c.head(), before);
    // What draws no dice is recorded as ever: the table can go on while the secrets are restored.
    c.ok(&["damage", "Aldric", "1"]);
    let said = "the seed the file keeps for epoch 1 does not match the commitment published for it";
    let report = verify_fails(&c, &["verify"]);
    assert!(report.contains(said), "{report}");
    // Physical dice need no seed.
    c.ok(&["--rolls", "7", "roll", "d20"]);
    for garbled in ["CAST(x'ff' AS TEXT)", "'not a seed'"] {
        c.sql()
            .execute(
                &format!("UPDATE secrets SET value = {garbled} WHERE kind = 'epoch_seed'"),
                [],
            )
            .unwrap();
        let report = verify_fails(&c, &["verify"]);
        assert!(report.contains(said), "{garbled}: {report}");
        c.ok(&["damage", "Aldric", "1"]);
        let refused = c.refused(&["roll", "d20"], 1);
        assert!(
            refused.contains("epoch_seed 1 is damaged"),
            "{garbled}: {refused}"
        );
    }
}

/// A sealed die's secret that is not text is named as damage by the reveal that reads it.
#[test]
fn a_sealed_secret_that_is_not_text_is_named_by_the_reveal() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]);
    c.sql()
        .execute(
            "UPDATE secrets SET value = CAST(x'ff' AS TEXT) WHERE kind = 'sealed_die'",
            [],
        )
        .unwrap();
    let refused = c.refused(&["reveal", &sealed.to_string()], 1);
    assert!(
        refused.contains(&format!(
            "the stored secret sealed_die {sealed}:0 is damaged"
        )),
        "{refused}"
    );
}

/// A snapshot's label damaged in the file (its format or the hash it was taken at) makes it one no
/// command trusts: commands, verify and backup go on without it.
#[test]
fn a_snapshot_whose_label_is_not_text_is_passed_over() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "2", "--events", "60"]);
    let honest = c.json(&["character", "show", "Adept0"]);
    for column in ["head_hash", "code_version"] {
        c.sql()
            .execute(
                &format!("UPDATE snapshots SET {column} = CAST(x'ff' AS TEXT)"),
                [],
            )
            .unwrap();
        assert_eq!(c.json(&["character", "show", "Adept0"]), honest, "{column}");
        c.ok(&["verify"]);
        let copy = c.dir.path().join(format!("{column}.db"));
        c.ok(&["backup", copy.to_str().unwrap()]);
        c.ok(&["snapshots", "rebuild"]);
    }
}

/// An epoch's seed for sealed dice waits for its pending sealed dice and is published by the
/// reveal of the last of them: one edited in the meantime is refused then, while the file's
/// secrets can still be restored, instead of entering the log for good.
#[test]
fn a_waiting_seed_for_sealed_dice_that_does_not_match_its_commitment_is_not_published() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]);
    c.ok(&["seed", "reveal"]);
    c.sql()
        .execute(
            "UPDATE secrets SET value = '00' || substr(value, 3) WHERE kind = 'sealed_seed' AND key = '1'",
            [],
        )
        .unwrap();
    let before = c.head();
    let refused = c.refused(&["reveal", &sealed.to_string()], 1);
    assert!(
        refused.contains(
            "the stored seed for the sealed dice of epoch 1 does not match its published commitment"
        ),
        "{refused}"
    );
    assert_eq!(c.head(), before);
}

/// A waiting seed for sealed dice whose row is gone from a file that keeps the others was
/// removed, not left behind by an import without secrets: `verify` names it, and the reveal that
/// would publish it says so instead of advising physical dice. One that is not a seed at all is
/// named as damage.
#[test]
fn a_waiting_seed_for_sealed_dice_removed_or_garbled_is_named_as_such() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]);
    c.ok(&["seed", "reveal"]);
    let honest = c.sql();
    let seed: String = honest
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'sealed_seed' AND key = '1'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    c.sql()
        .execute(
            "DELETE FROM secrets WHERE kind = 'sealed_seed' AND key = '1'",
            [],
        )
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(
            "the file keeps the seeds of other epochs but none for sealed dice for epoch 1"
        ),
        "{report}"
    );
    let before = c.head();
    let refused = c.refused(&["reveal", &sealed.to_string()], 1);
    assert!(
        refused.contains("keeps the seeds of other dice epochs but not epoch 1's"),
        "{refused}"
    );
    assert!(!refused.contains("imported without secrets"), "{refused}");
    c.sql()
        .execute(
            "INSERT INTO secrets (kind, key, value) VALUES ('sealed_seed', '1', 'not a seed')",
            [],
        )
        .unwrap();
    let refused = c.refused(&["reveal", &sealed.to_string()], 1);
    assert!(
        refused.contains("the stored secret sealed_seed 1 is damaged: it is not a seed"),
        "{refused}"
    );
    assert_eq!(c.head(), before);
    // Put back, the seed opens its commitment and the reveal goes through.
    c.sql()
        .execute(
            "UPDATE secrets SET value = ?1 WHERE kind = 'sealed_seed' AND key = '1'",
            [&seed],
        )
        .unwrap();
    c.ok(&["reveal", &sealed.to_string()]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// The seed a sealed die needs, edited or gone before it is drawn: refused before anything is
/// recorded (dice no reveal could vouch for), while an open die still rolls.
#[test]
fn a_sealed_die_is_not_drawn_from_a_seed_for_sealed_dice_that_is_edited_or_gone() {
    let c = Campaign::with_party();
    c.sql()
        .execute(
            "UPDATE secrets SET value = '00' || substr(value, 3) WHERE kind = 'sealed_seed' AND key = '1'",
            [],
        )
        .unwrap();
    let before = c.head();
    let refused = c.refused(&["roll", "d20", "--sealed"], 1);
    assert!(
        refused.contains("the stored seed for the sealed dice of epoch 1 does not match"),
        "{refused}"
    );
    assert_eq!(c.head(), before);
    c.sql()
        .execute("DELETE FROM secrets WHERE kind = 'sealed_seed'", [])
        .unwrap();
    let refused = c.refused(&["roll", "d20", "--sealed"], 1);
    assert!(
        refused.contains("no seed for dice epoch 1's sealed dice")
            && refused.contains("restore the file's secrets from a backup"),
        "{refused}"
    );
    assert_eq!(c.head(), before);
    c.ok(&["roll", "d20"]);
}

/// The newest row's hash damaged past reading is named as damage to that row (it was blamed on
/// the disk): nothing is chained onto it, and the message says where and what to do.
#[test]
fn a_head_hash_that_is_not_text_is_named_as_damage_and_nothing_chains_onto_it() {
    let c = campaign();
    let before = c.head();
    let head = before
        .as_deref()
        .and_then(|h| h.split(':').next())
        .unwrap()
        .to_string();
    unlock(&c)
        .execute(
            &format!("UPDATE events SET hash = CAST(x'ff' AS TEXT) WHERE seq = {head}"),
            [],
        )
        .unwrap();
    let said = format!("the log is damaged at #{head}: its hash is not valid UTF-8 text");
    for args in [&["damage", "Aldric", "1"][..], &["verify"]] {
        let refused = c.refused(args, 1);
        assert!(refused.contains(&said), "{args:?}: {refused}");
    }
    let rows: u64 = c
        .sql()
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows.to_string(), head, "nothing was appended");
}

/// A snapshot of another state format is passed over by every command, and `verify` says how
/// many it passed over instead of counting only those it compared.
#[test]
fn verify_names_the_snapshots_it_passes_over() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "2", "--events", "60"]);
    let report = c.ok(&["verify"]);
    assert!(!report.contains("passed over"), "{report}");
    let stored: u64 = c
        .sql()
        .query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0))
        .unwrap();
    c.sql()
        .execute("UPDATE snapshots SET code_version = 'grimoire-state/1'", [])
        .unwrap();
    let report = c.ok(&["verify"]);
    assert!(
        report.contains(&format!(
            "snapshots: 0 compared with a replay of the log; {stored} passed over"
        )),
        "{report}"
    );
    assert!(report.contains("all checks hold"), "{report}");
}

/// A seed put in the file for an epoch the log never began is named by verify, and the reveal
/// that would begin that epoch refuses it as damage (it was an internal error, "please report
/// this"), recording nothing.
#[test]
fn a_seed_kept_for_an_epoch_never_begun_is_named_and_the_reveal_refuses_it() {
    let c = Campaign::with_party();
    c.sql()
        .execute(
            "INSERT INTO secrets (kind, key, value) VALUES ('epoch_seed', '2', '00')",
            [],
        )
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("the file keeps a seed under '2', which names no dice epoch the log began"),
        "{report}"
    );
    let before = c.head();
    let refused = c.refused(&["seed", "reveal"], 1);
    assert!(
        refused.contains("the stored secret epoch_seed 2 is damaged"),
        "{refused}"
    );
    assert!(!refused.contains("internal error"), "{refused}");
    assert_eq!(c.head(), before);
}

/// An amendment keeps its original's dice (C-3): one forged to carry other dice, the chain
/// rebuilt around it, is caught.
#[test]
fn c3_an_amendment_forged_with_other_dice_is_caught() {
    let c = campaign();
    // #6 rolled 2d6 in session 1; nothing since names anyone.
    c.ok(&["amend", "6", "--", "roll", "2d6+1"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let conn = unlock(&c);
    let (seq, payload): (i64, String) = conn
        .query_row(
            "SELECT seq, payload FROM events WHERE kind = 'amended'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut event: serde_json::Value = serde_json::from_str(&payload).unwrap();
    let value = event["event"]["dice"][0]["value"].as_u64().unwrap();
    event["event"]["dice"][0]["value"] = (value % 6 + 1).into();
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = ?2",
        rusqlite::params![serde_json::to_string(&event).unwrap(), seq],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{seq} amends #6 with dice other than the ones #6 rolled"
        )),
        "{report}"
    );
}

/// A retraction forged to name itself (the chain rebuilt around it) once sent `verify` round a
/// circle for ever: it is named, every command that follows retractions ends, and an export of
/// it does not import.
#[test]
fn a_retraction_forged_to_name_itself_is_named_and_nothing_goes_round_for_ever() {
    let c = campaign();
    c.ok(&["damage", "Aldric", "1"]); // #14
    c.ok(&["retract", "14", "--reason", "a slip"]); // #15
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(payload, '\"seq\":14', '\"seq\":15') WHERE seq = 15",
        [],
    )
    .unwrap();
    rechain(&conn);
    conn.execute("DELETE FROM snapshots", []).unwrap();
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("#15 names #15, which is not an earlier event"),
        "{report}"
    );
    c.ok(&["session", "recap", "1"]);
    c.ok(&["log"]);
    let undo = c.run(&["retract", "15", "--reason", "undo it"]);
    assert!(undo.status.code().is_some(), "retract ended");
    let export = c.dir.path().join("forged.jsonl");
    c.ok(&["export", "--out", export.to_str().unwrap()]);
    let into = c.dir.path().join("copy.db");
    let out = c
        .cmd()
        .args([
            "--db",
            into.to_str().unwrap(),
            "import",
            export.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("#15 names #15, which is not an earlier event"),
        "{stderr}"
    );
}

/// An export carries each payload verbatim on one line: a payload forged to span lines (the chain
/// rebuilt around it) is named by `verify`, and `export` and `report` refuse to carry it.
#[test]
fn a_payload_forged_across_lines_is_named_and_never_exported() {
    let c = campaign();
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(payload, ',\"amount\"', char(10) || ',\"amount\"') WHERE seq = 7",
        [],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("#7: its payload is not one line of JSON"),
        "{report}"
    );
    for args in [vec!["export"], vec!["report", "--out", "page.html"]] {
        let out = c.run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("#7"), "{args:?}: {stderr}");
    }
}

/// A die showing a face it does not have (a d6 showing 9), and a free roll whose total is not its
/// dice added up, are named by `verify` even when the forger re-chains the log after them.
#[test]
fn a_die_with_a_face_it_lacks_and_a_total_its_dice_do_not_make_are_named() {
    let c = Campaign::with_party();
    let d6 = c.seq_of(&["--rolls", "4", "roll", "d6", "--for", "the lock"]);
    let two = c.seq_of(&["--rolls", "2,3", "roll", "2d6+1", "--for", "the gate"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(replace(payload, '\"value\":4', '\"value\":9'), '\"total\":4', '\"total\":9') WHERE seq = ?1",
        [d6],
    )
    .unwrap();
    conn.execute(
        "UPDATE events SET payload = replace(payload, '\"total\":6', '\"total\":7') WHERE seq = ?1",
        [two],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!("#{d6}: die 0 shows 9, a face a d6 does not have")),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "#{two}: the roll's total 7 is not what its dice add up to"
        )),
        "{report}"
    );
}

/// A forged die with no faces, or with more than any die grimoire rolls, is named by `verify`
/// and crashes nothing that reads it (`explain` of a seeded one, the dice audit).
#[test]
fn a_die_with_no_faces_or_billions_is_named_and_crashes_nothing() {
    let c = Campaign::with_party();
    let seeded = c.seq_of(&["roll", "d20", "--for", "the door"]);
    let entered = c.seq_of(&["--rolls", "4", "roll", "d6", "--for", "the lock"]);
    c.ok(&["seed", "reveal"]);
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(payload, '\"sides\":20', '\"sides\":0') WHERE seq = ?1",
        [seeded],
    )
    .unwrap();
    conn.execute(
        "UPDATE events SET payload = replace(payload, '\"sides\":6', '\"sides\":4294967295') WHERE seq = ?1",
        [entered],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{seeded}: die 0 has 0 sides, and no die grimoire rolls has"
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!("#{entered}: die 0 has 4294967295 sides")),
        "{report}"
    );
    for args in [
        vec!["explain".to_string(), seeded.to_string()],
        vec!["audit".into(), "dice".into()],
    ] {
        let out = c.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?} ended with {code:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Aldric (#3) is retracted (#4), Aldra joins (#5), and the retraction is undone (#6), bringing
/// Aldric back: every name is held by one character at a time.
fn a_name_freed_and_taken_back() -> Campaign {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "Names"]);
    c.add_adg("Aldric", 1, 12, 8, 10);
    c.ok(&["retract", "3", "--reason", "made by mistake"]);
    c.add_adg("Aldra", 1, 12, 8, 10);
    c.ok(&["retract", "4", "--reason", "he was real after all"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    c
}

fn import_refused(c: &Campaign, text: &str) -> String {
    let file = c.dir.path().join("forged.jsonl");
    std::fs::write(&file, text).unwrap();
    let target = Campaign::empty();
    let message = target.refused(&["import", file.to_str().unwrap()], 1);
    assert!(!target.db.exists(), "a refused import leaves no file");
    message
}

/// Replay keeps one character per name, so a second character under a name in play (any case)
/// would make the first vanish without a word (and one that only looks like it is refused as the
/// rules refuse it), and a name no command takes (blank, padded, like a
/// flag) could only be written by hand: a forged export is refused at the line, and `verify` names
/// the event in a forged file. A name freed by a retraction may be taken again.
#[test]
fn a_forged_character_under_a_name_in_play_or_one_no_command_takes_is_caught() {
    let c = Campaign::with_party();
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let mira = lines
        .lines()
        .position(|line| line.contains("character_added") && line.contains("\"Mira\""))
        .expect("Mira joins") as u64
        + 1;
    for (name, says) in [
        ("ALDRIC", "the characters added at #3 and #"),
        (
            "ALDRlC",
            "hold names that look alike in play (\"Aldric\" and \"ALDRlC\")",
        ),
        (" Mira", "blank or begins or ends with spaces"),
        ("", "blank or begins or ends with spaces"),
        ("-rf", "may not begin with"),
    ] {
        let forged = crate::hostile_text::forge(&lines, mira, |row| {
            row.payload = row.payload.replace("\"Mira\"", &format!("\"{name}\""));
        });
        let message = import_refused(&c, &forged);
        assert!(
            message.contains(&format!("line {mira}")) && message.contains(says),
            "{name:?}: {message}"
        );
    }

    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET payload = replace(payload, '\"Mira\"', '\"aldric\"') WHERE seq = ?1",
        [mira as i64],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "after #{mira} the characters added at #3 and #{mira} both hold the name"
        )),
        "{report}"
    );

    // Honest: the name is free while its first holder is retracted, and restoring him is fine
    // once no one else holds it. Forged: Aldra renamed Aldric, so the restoring makes two.
    let freed = a_name_freed_and_taken_back();
    let lines = std::fs::read_to_string(freed.export_all()).unwrap();
    let copy = Campaign::empty();
    let file = freed.dir.path().join("honest.jsonl");
    std::fs::write(&file, &lines).unwrap();
    copy.ok(&["import", file.to_str().unwrap()]);
    let forged = crate::hostile_text::forge(&lines, 5, |row| {
        row.payload = row.payload.replace("\"Aldra\"", "\"Aldric\"");
    });
    let message = import_refused(&freed, &forged);
    let two_aldrics = "after #6 the characters added at #3 and #5 both hold the name";
    assert!(
        message.contains("line 6") && message.contains(two_aldrics),
        "{message}"
    );
    // What a retraction says it restores is not trusted: left out, the clash is still seen;
    // pointed elsewhere, it is named.
    for (restores, says) in [
        ("", two_aldrics),
        (
            ",\"restores\":5",
            "#6 says it brings back #5, but the event it undoes, #4, did not undo #5",
        ),
    ] {
        let forged = crate::hostile_text::forge(&forged, 6, |row| {
            assert!(row.payload.contains(",\"restores\":3"), "{}", row.payload);
            row.payload = row.payload.replace(",\"restores\":3", restores);
        });
        let message = import_refused(&freed, &forged);
        assert!(
            message.contains("line 6") && message.contains(says),
            "{message}"
        );
    }
}

/// Bob (#3) is renamed Bobby by an amendment (#4), and another Bob joins (#5): one name each.
fn a_name_freed_by_an_amendment() -> Campaign {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "Names"]);
    c.add_adg("Bob", 1, 12, 8, 10);
    c.ok(&[
        "amend",
        "3",
        "--",
        "character",
        "add",
        "adg",
        "Bobby",
        "--level",
        "1",
        "--agility",
        "9",
        "--brawn",
        "9",
        "--cunning",
        "12",
        "--health",
        "8",
        "--silver",
        "10",
    ]);
    c.add_adg("Bob", 1, 12, 8, 10);
    c
}

/// An amendment that renames a character frees the old name, as replay has it: the honest log
/// verifies and imports; a forged amendment under a name in play, or one no command takes, is
/// caught like a forged addition.
#[test]
fn a_name_freed_by_an_amendment_may_be_taken_and_a_forged_amendment_is_held_to_the_names_rules() {
    let c = a_name_freed_by_an_amendment();
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let lines = std::fs::read_to_string(c.export_all()).unwrap();
    let file = c.dir.path().join("honest.jsonl");
    std::fs::write(&file, &lines).unwrap();
    let copy = Campaign::empty();
    copy.ok(&["import", file.to_str().unwrap()]);
    assert!(copy.ok(&["character", "list"]).contains("Bobby"));

    for (name, says) in [
        (
            "BOB",
            "after #5 the characters added at #3 and #5 both hold the name",
        ),
        ("-x", "#4 renames a character under a name the rules refuse"),
        (
            " Bobby",
            "#4 renames a character under a name that is blank",
        ),
    ] {
        let forged = crate::hostile_text::forge(&lines, 4, |row| {
            row.payload = row.payload.replace("\"Bobby\"", &format!("\"{name}\""));
        });
        let message = import_refused(&c, &forged);
        assert!(message.contains(says), "{name:?}: {message}");
    }
}

/// A seeded roll made outside any session, restamped into session 1 and re-chained, would borrow
/// that session's players' entropy as its witness: `verify` names it, and `log` still marks it
/// as rolled with no player entropy, since it follows the sessions' edges, not the stamp.
#[test]
fn a_roll_restamped_into_a_session_is_caught_and_keeps_its_no_entropy_mark() {
    let c = campaign();
    let outside = c.seq_of(&["roll", "d20", "--for", "between sessions"]);
    let conn = unlock(&c);
    conn.execute(
        "UPDATE events SET session = 1 WHERE seq = ?1",
        [outside as i64],
    )
    .unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{outside} is stamped in session 1, but it was recorded outside any session"
        )),
        "{report}"
    );
    let log = c.ok(&["log"]);
    let line = log
        .lines()
        .find(|l| l.contains("between sessions"))
        .expect("the roll's line");
    assert!(line.contains("[no player entropy]"), "{line}");
    let json = c.json(&["log", "--limit", "1"]);
    assert_eq!(json["events"][0]["unwitnessed_dice"], true, "{json}");
}

/// C-3: an amendment's list of changed fields is what readers show; one blanked or rewritten (and
/// re-chained) no longer matches what differs from the version it replaced, and `verify` says so.
#[test]
fn c3_an_amendment_whose_changed_list_was_rewritten_is_caught() {
    let c = Campaign::with_party();
    let seq = c.seq_of(&["--rolls", "5,4", "roll", "2d6+3"]).to_string();
    c.ok(&["amend", &seq, "--", "roll", "2d6+4"]);
    let second = c.json(&["amend", &seq, "--", "roll", "2d6+5"])["amendment"]
        .as_u64()
        .expect("the amendment's seq");
    // Against the first amendment, in force when it was recorded: only the modifier moved on.
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    rewrite_payload(&c, second, |event| event["changed"] = serde_json::json!([]));
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{second} says it changes [] of #{seq}, but what differs is ["
        )),
        "{report}"
    );
}

/// Rewrites the payload of the event at `seq` with `edit` and re-chains the whole log after it, as a
/// forger with the file and our hashing code would.
fn rewrite_payload(c: &Campaign, seq: u64, edit: impl FnOnce(&mut serde_json::Value)) {
    let conn = unlock(c);
    let payload: String = conn
        .query_row(
            "SELECT payload FROM events WHERE seq = ?1",
            [seq as i64],
            |r| r.get(0),
        )
        .unwrap();
    let mut event: serde_json::Value = serde_json::from_str(&payload).unwrap();
    edit(&mut event);
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = ?2",
        rusqlite::params![event.to_string(), seq as i64],
    )
    .unwrap();
    rechain(&conn);
}

/// The secrets of one copy beside the events of another (a file put together by hand): a kept
/// sealed die that no event holds is named, so a reveal can never open a die that was not sealed.
#[test]
fn a_kept_sealed_die_no_event_holds_is_named() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["--rolls", "13", "roll", "d20", "--sealed"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let conn = c.sql();
    let value: String = conn
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'sealed_die' AND key = ?1",
            [format!("{sealed}:0")],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO secrets (kind, key, value) VALUES ('sealed_die', ?1, ?2)",
        rusqlite::params![format!("{}:0", sealed - 1), value],
    )
    .unwrap();
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "PROBLEM at #{}: the file keeps a sealed die under '{}:0', which no event of the log holds sealed",
            sealed - 1,
            sealed - 1
        )),
        "{report}"
    );
}

/// From the hostile pass: a GM who seals a value of their choosing and then leaves the epoch's
/// seed for sealed dice out of the log (re-chained) would go unseen if a sealed die whose seed is
/// never published counted as checked. It waits for that seed instead, and an ended epoch whose
/// sealed dice wait for nothing yet never published it is named.
#[test]
fn an_epoch_whose_seed_for_sealed_dice_is_left_out_is_named() {
    let c = campaign();
    // #8 is the sealed d20, revealed at #9; #12 publishes epoch 1's seed for sealed dice, and
    // #13 begins epoch 2 (#12 once it is gone).
    let conn = unlock(&c);
    let kind: String = conn
        .query_row("SELECT kind FROM events WHERE seq = 12", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kind, "sealed_seed_revealed");
    conn.execute("DELETE FROM events WHERE seq = 12", [])
        .unwrap();
    conn.execute("UPDATE events SET seq = 12 WHERE seq = 13", [])
        .unwrap();
    conn.execute("DELETE FROM snapshots", []).unwrap();
    rechain(&conn);
    drop(conn);
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains("#12: dice epoch 1 had ended and none of its sealed dice waits to be revealed, but its seed for sealed dice was never published"),
        "{report}"
    );
    assert!(report.contains("1 await their epoch's reveal"), "{report}");
}

/// From the hostile pass: a die still sealed whose secret is gone from the file, or edited, could
/// never be revealed (a Ceremony scroll's check never read, its epoch's seed for sealed dice
/// never published): `verify` names it where it said all held.
#[test]
fn a_sealed_die_whose_secret_is_gone_or_edited_is_named() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let conn = c.sql();
    let secret: String = conn
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'sealed_die'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut edited: serde_json::Value = serde_json::from_str(&secret).unwrap();
    edited["value"] = (edited["value"].as_u64().unwrap() % 20 + 1).into();
    conn.execute(
        "UPDATE secrets SET value = ?1 WHERE kind = 'sealed_die'",
        [edited.to_string()],
    )
    .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!("#{sealed}: sealed die 0 waits to be revealed, but the file keeps a secret for it that does not open its commitment")),
        "{report}"
    );
    conn.execute("DELETE FROM secrets WHERE kind = 'sealed_die'", [])
        .unwrap();
    let report = verify_fails(&c, &["verify"]);
    assert!(
        report.contains(&format!(
            "#{sealed}: sealed die 0 waits to be revealed, but the file keeps no secret for it"
        )),
        "{report}"
    );
    // A public export, imported, keeps no secret at all: nothing to name.
    let export = c.dir.path().join("public.jsonl");
    c.ok(&["export", "--out", export.to_str().unwrap()]);
    let copy = Campaign::empty();
    copy.ok(&["import", export.to_str().unwrap()]);
    assert!(copy.ok(&["verify"]).contains("all checks hold"));
}
