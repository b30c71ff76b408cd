//! Sealed dice show nothing that depends on their value, say who chose it, and — when grimoire rolled
//! them from the epoch's seed — can be proven unchosen once revealed and the seed is published,
//! without the seed ever opening a seal early.

use crate::support::Campaign;
use serde_json::Value;

/// The public record of a sealed roll with its commitment blanked (it differs by design).
fn public_shape(c: &Campaign, seq: u64) -> Value {
    let mut explained = c.json(&["explain", &seq.to_string()]);
    let mut dice = explained["event"]["payload"]["dice"].take();
    for die in dice.as_array_mut().unwrap() {
        die["provenance"]["commitment"] = Value::Null;
    }
    dice
}

#[test]
fn a_sealed_open_ended_roll_has_one_commitment_whatever_its_chain() {
    let mut shapes = Vec::new();
    for rolls in ["50", "97,45", "3,80", "99,98,12"] {
        let c = Campaign::with_party();
        let seq = c.seq_of(&[
            "--rolls", rolls, "roll", "oe", "--sealed", "--for", "ambush",
        ]);
        shapes.push((rolls, public_shape(&c, seq), c.ok(&["log", "--limit", "1"])));
        let revealed = c.ok(&["reveal", &seq.to_string()]);
        assert!(
            revealed.contains(&rolls.replace(',', "+")),
            "{rolls}: {revealed}"
        );
        assert!(c.ok(&["verify"]).contains("all checks hold"));
    }
    let (_, first_shape, first_log) = &shapes[0];
    assert_eq!(
        first_shape.as_array().unwrap().len(),
        1,
        "one entry: {first_shape}"
    );
    for (rolls, shape, log) in &shapes {
        assert_eq!(
            shape, first_shape,
            "{rolls}: the record's shape depends on the value"
        );
        assert_eq!(log, first_log, "{rolls}: the log line depends on the value");
    }
}

#[test]
fn a_sealed_die_says_whether_the_gm_typed_it_or_grimoire_rolled_it() {
    let c = Campaign::with_party();
    let typed = c.seq_of(&["--rolls", "20", "roll", "d20", "--sealed"]);
    let rolled = c.seq_of(&["roll", "d20", "--sealed"]);
    let log = c.ok(&["log"]);
    assert!(log.contains("sealed (1 entry, typed by the GM)"), "{log}");
    assert!(
        log.contains("sealed (1 entry, rolled by grimoire from a seed its epoch committed to)"),
        "{log}"
    );
    let explained = c.ok(&["explain", &typed.to_string()]);
    assert!(explained.contains("the GM typed this value"), "{explained}");
    let explained = c.json(&["explain", &rolled.to_string()]);
    assert_eq!(explained["dice"][0]["derivation"]["sealed_by"], "seeded");
    let export = c.ok(&["export"]);
    assert!(
        export.contains(r#""origin":{"source":"entered"}"#),
        "{export}"
    );
}

/// ADG-S4: a sealed die comes from the epoch's second seed, so `seed reveal` publishes the first
/// while the sealed die is pending and `verify` re-derives the epoch's other dice at once; the
/// reveal of the sealed die publishes the second, and `verify` then re-derives it too.
#[test]
fn adg_s4_a_pending_sealed_die_holds_back_only_its_epochs_seed_for_sealed_dice() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    let sealed = c.seq_of(&["roll", "oe", "--sealed", "--for", "guardian"]);
    c.ok(&["roll", "d20"]);
    c.ok(&["session", "end"]);
    let out = c.ok(&["seed", "reveal"]);
    assert!(out.contains("dice epoch 1 seed revealed"), "{out}");
    assert!(
        out.contains(&format!(
            "all but its sealed ones: their own seed stays secret while sealed dice rolled from it are pending (#{sealed})"
        )),
        "{out}"
    );
    assert!(out.contains("Sealed dice seed commitment: "), "{out}");
    let export = c.ok(&["export"]);
    assert!(export.contains("\"seed_revealed\""), "{export}");
    assert!(!export.contains("\"sealed_seed_revealed\""), "{export}");
    let verify = c.ok(&["verify"]);
    assert!(
        verify.contains("all checks hold") && verify.contains("(epochs: 1)"),
        "{verify}"
    );
    assert!(
        verify.contains("seeded dice: 1 re-derived"),
        "the d20: {verify}"
    );

    let out = c.ok(&["reveal", &sealed.to_string()]);
    assert!(
        out.contains("dice epoch 1 seed for sealed dice revealed"),
        "{out}"
    );
    let verify = c.ok(&["verify"]);
    assert!(verify.contains("all checks hold"), "{verify}");
    assert!(
        verify.contains("seeded dice: 2 re-derived"),
        "the d20 and the sealed chain: {verify}"
    );
}

/// An epoch begun by an earlier grimoire, with one seed for all its dice, keeps its rule: a
/// sealed die rolled in it comes from that seed, which `seed reveal` withholds while the die is
/// pending and the die's reveal publishes. The epoch it starts has two seeds.
#[test]
fn an_epoch_begun_with_one_seed_withholds_it_for_its_sealed_dice_as_before() {
    let c = Campaign::from_the_first_schema();
    let sealed = c.seq_of(&["roll", "d20", "--sealed", "--for", "the old way"]);
    let out = c.ok(&["seed", "reveal"]);
    assert!(
        out.contains(&format!("seed withheld until the sealed dice of #{sealed}")),
        "{out}"
    );
    assert!(!out.contains("sealed dice revealed"), "{out}");
    let out = c.ok(&["reveal", &sealed.to_string()]);
    assert!(out.contains("seed revealed"), "{out}");
    assert!(!out.contains("seed for sealed dice revealed"), "{out}");
    let verify = c.ok(&["verify"]);
    assert!(verify.contains("all checks hold"), "{verify}");
    let explained = c.json(&["explain", &sealed.to_string()]);
    let derivation = &explained["dice"][0]["derivation"];
    assert_eq!(
        derivation["seed_gives"], derivation["revealed"],
        "{explained}"
    );
    // The epoch it began has a second seed: its sealed dice wait on that one alone.
    let next = c.seq_of(&["roll", "d20", "--sealed", "--for", "the new way"]);
    let out = c.ok(&["seed", "reveal"]);
    assert!(
        out.contains(&format!("are pending (#{next})")) && !out.contains("withheld"),
        "{out}"
    );
}

/// A GM who seals a value of their choosing but records it as grimoire's is caught once the seed is out.
#[test]
fn a_sealed_value_the_gm_chose_is_caught_once_the_seed_is_published() {
    let c = Campaign::with_party();
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]);
    let conn = c.sql();
    let secret: String = conn
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'sealed_die'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut secret: Value = serde_json::from_str(&secret).unwrap();
    let chosen = secret["value"].as_u64().unwrap() % 20 + 1;
    secret["value"] = chosen.into();
    let nonce = secret["nonce"].as_str().unwrap().to_string();
    // The forged commitment goes into the event, re-chained, as the GM holding the file could do.
    let commitment = grimoire::dice::sealed::commitment(&nonce, &[chosen as u32]).unwrap();
    conn.execute(
        "UPDATE secrets SET value = ?1 WHERE kind = 'sealed_die'",
        [secret.to_string()],
    )
    .unwrap();
    conn.execute_batch("DROP TRIGGER events_refuse_update;")
        .unwrap();
    let payload: String = conn
        .query_row(
            "SELECT payload FROM events WHERE seq = ?1",
            [sealed as i64],
            |r| r.get(0),
        )
        .unwrap();
    let mut event: Value = serde_json::from_str(&payload).unwrap();
    event["dice"][0]["provenance"]["commitment"] = commitment.into();
    conn.execute(
        "UPDATE events SET payload = ?1 WHERE seq = ?2",
        rusqlite::params![event.to_string(), sealed as i64],
    )
    .unwrap();
    crate::tamper::rechain(&conn);
    drop(conn);
    c.ok(&["reveal", &sealed.to_string()]);
    c.ok(&["seed", "reveal"]);
    let out = c.run(&["verify"]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains(&format!(
            "sealed die 0 was revealed as {chosen} but epoch 1's seed for sealed dice gives"
        )),
        "{report}"
    );
    let explained = c.json(&["explain", &sealed.to_string()]);
    let derivation = &explained["dice"][0]["derivation"];
    assert_eq!(derivation["revealed"], serde_json::json!([chosen]));
    assert_eq!(derivation["opens_commitment"], true);
    assert_ne!(derivation["seed_gives"], derivation["revealed"]);
}

/// ADG-S4: a Ceremony scroll's sealed check may wait long, and only the seed for sealed dice waits
/// with it: the scroll's reading publishes it.
#[test]
fn adg_s4_reading_a_ceremony_scroll_publishes_the_seed_its_check_held_back() {
    let c = Campaign::with_a_ceremony_writer();
    let scroll = c.seq_of(&[
        "scroll",
        "write",
        "Wen",
        "Calling Moon",
        "--level",
        "2",
        "--effect",
        "summons fog",
        "--pre-exert",
        "1",
    ]);
    let out = c.ok(&["seed", "reveal"]);
    assert!(out.contains("dice epoch 1 seed revealed"), "{out}");
    assert!(
        out.contains(&format!("pending (#{scroll})"))
            && out.contains("a Ceremony scroll's check opens when the scroll is read"),
        "{out}"
    );
    let read = c.ok(&["scroll", "read", "Wen", &format!("S{scroll}")]);
    assert!(
        read.contains("dice epoch 1 seed for sealed dice revealed"),
        "{read}"
    );
    let report = c.ok(&["verify"]);
    assert!(
        report.contains("all checks hold") && report.contains("(epochs: 1)"),
        "{report}"
    );
}

/// A campaign where Wen wrote a Ceremony scroll of damage whose sealed check (entered by the GM) is
/// `seal`, and gave it to Bryn: 1 passes against Cunning 14, 20 fails.
fn a_sealed_scroll(seal: &str) -> (Campaign, String) {
    let c = Campaign::with_a_ceremony_writer();
    // The GM's sealed check, then the scribing week's seven recovery dice.
    let rolls = format!("{seal},1,1,1,1,1,1,1");
    let scroll = c.seq_of(&[
        "--rolls",
        &rolls,
        "scroll",
        "write",
        "Wen",
        "Calling Moon",
        "--level",
        "2",
        "--effect",
        "a rain of stones",
        "--roll",
        "damage",
    ]);
    (c, format!("S{scroll}"))
}

/// Every command that consults a sealed value, with every `--rolls` length: a passing and a failing
/// seal are told apart by nothing a refused command prints or by which lengths are accepted.
#[test]
fn refused_commands_say_nothing_that_depends_on_a_sealed_check() {
    let (pass, scroll) = a_sealed_scroll("1");
    let (fail, _) = a_sealed_scroll("20");
    // Bryn, who does not know the ritual, learns from the scroll: an accidental reading opens the seal.
    let (pass_bryn, fail_bryn) = (a_sealed_scroll("1").0, a_sealed_scroll("20").0);
    for c in [&pass_bryn, &fail_bryn] {
        c.ok(&["scroll", "give", &scroll, "Bryn"]);
    }
    let probes: Vec<(&Campaign, &Campaign, Vec<String>)> = vec![
        (&pass, &fail, vec!["scroll", "read", "Wen", &scroll]),
        (
            &pass,
            &fail,
            vec!["scroll", "read", "Wen", &scroll, "--took-damage"],
        ),
        (
            &pass_bryn,
            &fail_bryn,
            vec!["scroll", "learn", "Bryn", &scroll, "--pay", "brawn"],
        ),
        (&pass, &fail, vec!["reveal", &scroll[1..]]),
    ]
    .into_iter()
    .map(|(a, b, p)| (a, b, p.into_iter().map(str::to_string).collect()))
    .collect();
    let mut accepted = 0;
    for (pass, fail, probe) in &probes {
        for length in 0..=8 {
            let mut args: Vec<String> = Vec::new();
            if length > 0 {
                args.extend(["--rolls".to_string(), vec!["1"; length].join(",")]);
            }
            args.extend(probe.iter().cloned());
            let run = |c: &Campaign| {
                let copy = Campaign::empty();
                std::fs::copy(&c.db, &copy.db).unwrap();
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let out = copy.run(&args);
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).to_string(),
                )
            };
            let (passing, failing) = (run(pass), run(fail));
            assert_eq!(
                passing.0, failing.0,
                "{args:?}: accepted for one seal only: {passing:?} / {failing:?}"
            );
            if passing.0 == Some(0) {
                accepted += 1;
            } else {
                assert_eq!(
                    passing.1, failing.1,
                    "{args:?}: the refusal differs with the seal"
                );
            }
        }
    }
    assert!(
        accepted >= 4,
        "the probe must reach the seal, not only refusals ({accepted})"
    );
}

#[test]
fn the_dice_a_sealed_check_calls_for_wait_for_scroll_resolve() {
    for (seal, expect) in [("1", "damage"), ("20", "mishap")] {
        let (c, scroll) = a_sealed_scroll(seal);
        let read = c.ok(&["--rolls", "1", "scroll", "read", "Wen", &scroll]);
        assert!(
            read.contains("waits for `grimoire scroll resolve Wen`"),
            "{read}"
        );
        let blocked = c.refused(&["exert", "Wen", "brawn", "1", "--reason", "x"], 1);
        assert!(
            blocked.contains("roll them first with `grimoire scroll resolve Wen`"),
            "{blocked}"
        );
        let resolved = c.ok(&["scroll", "resolve", "Wen"]);
        assert!(resolved.contains(expect), "{seal}: {resolved}");
        c.ok(&["exert", "Wen", "brawn", "1", "--reason", "x"]);
    }
}

/// The GM who rolls a sealed die sees its value at once, and again on demand with `peek`, which
/// reads the secrets and records nothing; the log, `explain`, a public export and the report keep
/// only the commitment; the reveal opens to the very value the GM saw.
#[test]
fn the_gm_reads_their_own_sealed_roll_and_the_table_does_not() {
    let c = Campaign::with_party();
    let rolled = c.json(&["roll", "3d6", "--sealed", "--for", "more ghouls?"]);
    let seq = rolled["appended"][0]["seq"].as_u64().expect("a seq");
    let seen = rolled["for_the_gm"]["total"]
        .as_i64()
        .expect("the GM sees the total");
    assert!((3..=18).contains(&seen), "{rolled}");
    let faces = rolled["for_the_gm"]["faces"].clone();
    let head = c.head();
    let peeked = c.json(&["peek", &seq.to_string()]);
    assert_eq!(peeked["sealed"][0]["total"], seen);
    assert_eq!(peeked["sealed"][0]["faces"], faces);
    assert_eq!(c.head(), head, "peek records nothing");
    let text = c.ok(&["peek"]);
    assert!(
        text.starts_with(&format!("#{seq} rolled 3d6 for more ghouls?, sealed")),
        "{text}"
    );
    assert!(text.contains(&format!("= {seen}")), "{text}");
    // What the table reads holds no value: the log line and explain's dice have none.
    assert!(!c.ok(&["log"]).contains(&format!("= {seen}")));
    let explained = c.json(&["explain", &seq.to_string()]);
    for die in explained["event"]["payload"]["dice"]
        .as_array()
        .expect("dice")
    {
        assert!(die.get("value").is_none(), "{die}");
    }
    assert!(!c.ok(&["export"]).contains("sealed_die"));
    let revealed = c.json(&["reveal", &seq.to_string()]);
    assert_eq!(
        revealed["total"], seen,
        "the reveal opens to what the GM saw"
    );
    let said = c.ok(&[
        "--rolls",
        "4",
        "roll",
        "d6",
        "--sealed",
        "--for",
        "the ferryman's mood",
    ]);
    let later = said
        .split_whitespace()
        .next()
        .expect("#SEQ")
        .trim_start_matches('#')
        .to_string();
    let shown = c.ok(&["reveal", &later]);
    assert!(
        shown.contains("d6 for the ferryman's mood: [4] = 4"),
        "the reveal says what it was for: {shown}"
    );
    let none = c.ok(&["peek"]);
    assert_eq!(none, "No sealed die is waiting to be revealed.\n");
    let gone = c.refused(&["peek", &seq.to_string()], 1);
    assert!(
        gone.contains(&format!("#{seq}'s sealed dice are revealed already")),
        "{gone}"
    );
    for missing in ["0", "999"] {
        let err = c.refused(&["peek", missing], 1);
        assert!(
            err.contains(&format!("#{missing} is not in the log")),
            "{err}"
        );
    }
    let plain = c.refused(&["peek", "1"], 1);
    assert!(plain.contains("#1 has no sealed dice"), "{plain}");
    // A retracted secret roll was still rolled: the GM reads it marked, and it stays to be
    // revealed, so a roll made again cannot hide the first value for good.
    let dropped = c.seq_of(&["roll", "d6", "--sealed"]);
    c.ok(&["retract", &dropped.to_string(), "--reason", "the wrong die"]);
    let read = c.ok(&["peek", &dropped.to_string()]);
    assert!(
        read.contains("(retracted: the wrong die; still to be revealed, as it was rolled)"),
        "{read}"
    );
    assert!(c.ok(&["verify"]).contains("1 still sealed"));
    let opened = c.ok(&["reveal", &dropped.to_string()]);
    assert!(
        opened.contains(&format!("sealed dice of #{dropped} revealed")),
        "{opened}"
    );
    assert!(c.ok(&["verify"]).contains("0 still sealed"));
    // A die the GM typed is shown back as typed.
    let typed = c.ok(&["--rolls", "12", "roll", "d20", "--sealed"]);
    assert!(
        typed.contains("For your eyes only: d20: [12] = 12"),
        "{typed}"
    );
}

/// The players' copy, imported from an export without secrets, cannot peek: it says the secrets
/// are not in the file rather than printing nothing.
#[test]
fn a_copy_without_the_secrets_refuses_to_peek() {
    let c = Campaign::with_party();
    let seq = c.seq_of(&["roll", "d20", "--sealed"]);
    let file = c.dir.path().join("public.jsonl");
    c.ok(&["export", "--out", file.to_str().expect("a path")]);
    let players = Campaign::empty();
    players.ok(&["import", file.to_str().expect("a path")]);
    let err = players.refused(&["peek", &seq.to_string()], 1);
    assert!(err.contains("imported without secrets"), "{err}");
    let all = players.refused(&["peek"], 1);
    assert!(all.contains("imported without secrets"), "{all}");
}

/// A Ceremony scroll's sealed check is not shown to whoever writes the scroll (the writer must not
/// know it); the GM reads it with `peek`, and the scroll's first reading opens it to that value.
#[test]
fn adg_s4_the_gm_peeks_at_a_ceremony_scrolls_sealed_check() {
    let (c, scroll) = a_sealed_scroll("20");
    let seq = scroll.trim_start_matches('S').to_string();
    let peeked = c.json(&["peek", &seq]);
    assert_eq!(peeked["sealed"][0]["faces"][0], 20, "{peeked}");
    let text = c.ok(&["peek", &seq]);
    assert!(text.contains(": 20"), "{text}");
    assert!(!c.ok(&["log"]).contains("For your eyes only"));
}

/// From the second hostile pass: a Ceremony scroll's sealed check opens with its reading; revealed
/// before, the scroll could never be read, so an early reveal is refused.
#[test]
fn adg_s4_a_ceremony_scrolls_check_is_not_revealed_before_the_reading() {
    let (c, scroll) = a_sealed_scroll("1");
    let seq = scroll.trim_start_matches('S').to_string();
    let early = c.refused(&["reveal", &seq], 1);
    assert!(
        early.contains("its sealed check is opened when the scroll is read"),
        "{early}"
    );
}
