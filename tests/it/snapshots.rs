//! Snapshots only speed replay up: with or without them every answer is the same, and a snapshot that
//! is stale or invalid is ignored.

use crate::support::Campaign;
use grimoire::event::Event;
use grimoire::generate::generate;
use grimoire::rules::campaign::{ClockAdvance, HealthChange, Retraction};
use grimoire::rules::{Command, decide};
use grimoire::seq::Seq;
use grimoire::sheet::Sheet;
use grimoire::store::testkit::Writes;
use grimoire::store::{Batch, Stamp, Store};
use grimoire::systems::adg::sheet::AdgSheet;
use grimoire::time::GameDuration;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn stamp() -> Stamp {
    Stamp {
        recorded_at: "2026-01-01T00:00:00Z".into(),
        actor: "t".into(),
        id_rng: StdRng::seed_from_u64(3),
    }
}

/// Writes each command through the store (one write each), as the CLI does.
fn write_all(store: &mut Store, commands: Vec<Command>) {
    for command in commands {
        let _ = store.write(stamp(), |state, _| {
            let mut rng = StdRng::seed_from_u64(0);
            let mut dice = grimoire::dice::Dice::entered(vec![], &mut rng);
            Ok(Batch {
                events: decide(state, command, &mut dice)?,
                ..Batch::default()
            })
        });
    }
}

/// A new campaign's first commands: its creation and an A Dungeon Game character.
fn a_campaign_with(name: &str) -> Vec<Command> {
    vec![
        Command::CreateCampaign {
            campaign_id: "c".into(),
            name: "C".into(),
            seed_commitment: "ab".repeat(32),
            sealed_commitment: "cd".repeat(32),
        },
        an_adg_character(name),
    ]
}

fn an_adg_character(name: &str) -> Command {
    Command::AddCharacter {
        name: name.into(),
        sheet: Sheet::Adg(AdgSheet {
            level: 1,
            agility: 9,
            brawn: 9,
            cunning: 9,
            health: 20,
            silver: 0,
            knows: Vec::new(),
        }),
    }
}

#[derive(Debug, Clone)]
enum Op {
    Damage(u32),
    Heal(u32),
    Advance(u64),
    Retract(u64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1u32..5).prop_map(Op::Damage),
        (1u32..5).prop_map(Op::Heal),
        (1u64..1000).prop_map(Op::Advance),
        (3u64..60).prop_map(Op::Retract),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn snapshot_plus_tail_equals_a_full_replay_at_any_cut(
        ops in proptest::collection::vec(op(), 5..50),
        interval in 2u64..9,
        cuts in proptest::collection::vec(1u64..60, 4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create_new(dir.path().join("s.db")).unwrap().publish().unwrap();
        let mut store = store.with_snapshot_interval(interval);
        let mut commands = a_campaign_with("Aldric");
        for op in &ops {
            commands.push(match op {
                Op::Damage(n) => Command::Damage(HealthChange { character: "Aldric".into(), amount: *n, reason: None }),
                Op::Heal(n) => Command::Heal(HealthChange { character: "Aldric".into(), amount: *n, reason: None }),
                Op::Advance(s) => Command::AdvanceClock(ClockAdvance { by: GameDuration(*s) }),
                // A retraction of a retraction restores what it undid: chains come up too.
                Op::Retract(seq) => {
                    let target = store.event(Seq(*seq)).unwrap().map(|r| r.event);
                    let restoring = target
                        .as_ref()
                        .and_then(|t| grimoire::rules::campaign::brought_back(t, |at| store.event(at).map(|r| r.map(|r| r.event))).unwrap())
                        .map(|(back, event)| (back, Box::new(event)));
                    Command::Retract(Retraction { seq: Some(Seq(*seq)), last: false, target, restoring, reason: "p".into(), fight_built_on: false, round_stands: None, clock_reshaped: None, acted_again: None, names_after: Default::default() })
                }
            });
            write_all(&mut store, vec![commands.pop().unwrap()]);
        }
        write_all(&mut store, commands);
        let head = store.head().unwrap().unwrap().seq;
        for cut in cuts.into_iter().map(|c| Seq(c).min(head)).chain([head]) {
            prop_assert_eq!(store.replay(Some(cut)).unwrap(), store.replay_without_snapshots(Some(cut)).unwrap(), "cut {}", cut);
        }
        store.rebuild_snapshots().unwrap();
        prop_assert_eq!(store.replay(None).unwrap(), store.replay_without_snapshots(None).unwrap());
    }
}

#[test]
fn a_generated_campaign_verifies_and_replays_the_same_with_or_without_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::create_new(dir.path().join("g.db"))
        .unwrap()
        .publish()
        .unwrap();
    let generated = generate(&mut store, 8, 5_000, 11, "2026-01-01T00:00:00Z").unwrap();
    assert!(generated.events >= 5_000);
    let report = grimoire::verify::log(&mut store, Vec::new()).unwrap();
    assert!(report.all_hold(), "{report:?}");
    let with = store.replay(None).unwrap();
    assert_eq!(with, store.replay_without_snapshots(None).unwrap());
    let kinds: std::collections::BTreeSet<&str> = {
        let mut seen = std::collections::BTreeSet::new();
        store
            .for_each_event(Seq(1), None, |r| {
                seen.insert(r.event.kind());
                Ok(())
            })
            .unwrap();
        seen
    };
    for kind in [
        "session_started",
        "ritual_cast",
        "spell_cast",
        "scroll_written",
        "rested",
        "dice_rolled",
        "damage_taken",
        "retracted",
    ] {
        assert!(
            kinds.contains(kind),
            "the generator never produced {kind}: {kinds:?}"
        );
    }
}

#[test]
fn stale_or_invalid_snapshots_are_ignored() {
    let c = Campaign::with_party();
    for _ in 0..5 {
        c.ok(&["damage", "Aldric", "1"]);
    }
    let truth = c.json(&["character", "show", "Aldric"]);
    let poison = |c: &Campaign, code_version: &str, hash_of: u64, state: &str| {
        let conn = c.sql();
        let hash: String = conn
            .query_row(
                "SELECT hash FROM events WHERE seq = ?1",
                [hash_of as i64],
                |r| r.get(0),
            )
            .unwrap();
        conn.execute("DELETE FROM snapshots", []).unwrap();
        conn.execute(
            "INSERT INTO snapshots (seq, code_version, schema_version, head_hash, state) VALUES (8, ?1, 2, ?2, ?3)",
            rusqlite::params![code_version, hash, state],
        )
        .unwrap();
    };
    let real = {
        let mut store = Store::open(&c.db).unwrap();
        serde_json::to_string(&store.replay_without_snapshots(Some(Seq(8))).unwrap()).unwrap()
    };
    let healed = real.replace("\"max\":8,\"current\":4", "\"max\":8,\"current\":8");
    assert!(
        real != healed,
        "the poisoned state differs from the real one"
    );
    let current = grimoire::store::STATE_FORMAT;
    // From another version of grimoire: ignored.
    poison(&c, "grimoire-state/0.0.1", 8, &healed);
    assert_eq!(c.json(&["character", "show", "Aldric"]), truth);
    // Its event's hash no longer matches (the log changed under it): ignored.
    poison(&c, current, 7, &healed);
    assert_eq!(c.json(&["character", "show", "Aldric"]), truth);
    // Not even JSON: ignored.
    poison(&c, current, 8, "{ broken");
    assert_eq!(c.json(&["character", "show", "Aldric"]), truth);
    // A valid one is used (this proves the checks above were what kept the poisoned ones out).
    poison(&c, current, 8, &healed);
    assert_ne!(c.json(&["character", "show", "Aldric"]), truth);
    let out = c.ok(&["snapshots", "clear"]);
    assert!(out.contains("Removed 1 snapshot"), "{out}");
    assert_eq!(c.json(&["character", "show", "Aldric"]), truth);
    // A rebuild takes one at the head, and it agrees with the log.
    assert!(
        c.ok(&["snapshots", "rebuild"])
            .contains("Rebuilt 1 snapshot.")
    );
    assert_eq!(c.json(&["character", "show", "Aldric"]), truth);
}

#[test]
fn a_retraction_reaching_back_before_a_snapshot_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_new(dir.path().join("r.db"))
        .unwrap()
        .publish()
        .unwrap();
    let mut store = store.with_snapshot_interval(3);
    write_all(
        &mut store,
        [
            a_campaign_with("Aldric"),
            vec![
                Command::Damage(HealthChange {
                    character: "Aldric".into(),
                    amount: 7,
                    reason: None,
                }),
                Command::Heal(HealthChange {
                    character: "Aldric".into(),
                    amount: 1,
                    reason: None,
                }),
                Command::AdvanceClock(ClockAdvance {
                    by: GameDuration(60),
                }),
                Command::AdvanceClock(ClockAdvance {
                    by: GameDuration(60),
                }),
            ],
        ]
        .concat(),
    );
    let damage_seq = Seq(4); // #2 is the ADG tables the first ADG character brings
    let target = store.event(damage_seq).unwrap().map(|r| r.event);
    assert!(matches!(target, Some(Event::DamageTaken { .. })));
    write_all(
        &mut store,
        vec![Command::Retract(Retraction {
            seq: Some(damage_seq),
            last: false,
            target,
            restoring: None,
            reason: "missed".into(),
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        })],
    );
    let state = store.replay(None).unwrap();
    assert_eq!(state, store.replay_without_snapshots(None).unwrap());
    assert_eq!(
        state.character("Aldric").unwrap().health.unwrap().current,
        20
    );
}

#[test]
fn a_snapshot_taken_by_the_retraction_itself_leaves_the_retracted_event_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_new(dir.path().join("r.db"))
        .unwrap()
        .publish()
        .unwrap();
    let mut store = store.with_snapshot_interval(1);
    write_all(
        &mut store,
        [
            a_campaign_with("Aldric"),
            vec![Command::Damage(HealthChange {
                character: "Aldric".into(),
                amount: 7,
                reason: None,
            })],
        ]
        .concat(),
    );
    let target = store.event(Seq(4)).unwrap().map(|r| r.event);
    assert!(matches!(target, Some(Event::DamageTaken { .. })));
    write_all(
        &mut store,
        vec![Command::Retract(Retraction {
            seq: Some(Seq(4)),
            last: false,
            target,
            restoring: None,
            reason: "missed".into(),
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        })],
    );
    let with = store.replay(None).unwrap();
    assert_eq!(
        with.character("Aldric").unwrap().health.unwrap().current,
        20
    );
    assert_eq!(with, store.replay_without_snapshots(None).unwrap());
}

/// A restored campaign must be as quick as the one it came from: the import leaves a snapshot at the
/// head, so the first commands after it do not replay the whole log.
#[test]
fn an_import_leaves_a_snapshot_at_the_head() {
    let source = Campaign::empty();
    source.ok(&["dev", "generate", "--characters", "4", "--events", "700"]);
    let restored = source.restored();
    let newest: i64 = restored
        .sql()
        .query_row("SELECT MAX(seq) FROM snapshots", [], |r| r.get(0))
        .unwrap();
    assert_eq!(newest, 700);
    let mut store = Store::open(&restored.db).unwrap();
    assert_eq!(
        store.replay(None).unwrap(),
        store.replay_without_snapshots(None).unwrap()
    );
    assert!(restored.ok(&["verify"]).contains("snapshots: 1 compared"));
}

/// Snapshots are pruned as they are taken: a long run of writes keeps the newest few, not all.
#[test]
fn snapshots_do_not_pile_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_new(dir.path().join("p.db"))
        .unwrap()
        .publish()
        .unwrap();
    let mut store = store.with_snapshot_interval(1);
    let mut commands = a_campaign_with("Aldric");
    commands.extend((0..60).map(|_| {
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration(60),
        })
    }));
    write_all(&mut store, commands);
    let conn = rusqlite::Connection::open(dir.path().join("p.db")).unwrap();
    let seqs: Vec<i64> = conn
        .prepare("SELECT seq FROM snapshots ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    // The first of the block (kept for the far past) and the newest eight.
    assert_eq!(seqs, [vec![1], (56..=63).collect::<Vec<i64>>()].concat());
}

/// Appends the commands' events in one bulk write (as the generator does), for long logs.
fn bulk_all(store: &mut Store, commands: Vec<Command>) {
    store
        .bulk(stamp(), |appender| {
            for command in commands {
                let mut rng = StdRng::seed_from_u64(0);
                let mut dice = grimoire::dice::Dice::entered(vec![], &mut rng);
                let events = decide(appender.state(), command, &mut dice)?;
                appender.append(Batch {
                    events,
                    ..Batch::default()
                })?;
            }
            Ok(())
        })
        .unwrap();
}

fn snapshot_seqs(path: &std::path::Path) -> Vec<i64> {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.prepare("SELECT seq FROM snapshots ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The clock moved a minute: a command that records one event and rolls nothing.
fn minute() -> Command {
    Command::AdvanceClock(ClockAdvance {
        by: GameDuration(60),
    })
}

/// A point far in the past (`--at`, an old session's recap or diff) replays at most 10,000 events:
/// the first snapshot in every block of 10,000 is kept, besides the newest eight, and the rest are
/// let go, so snapshots never pile up; appends, bulk writes and a rebuild keep the same.
#[test]
fn every_block_of_ten_thousand_events_keeps_a_snapshot_and_no_more_pile_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::create_new(&path).unwrap().publish().unwrap();
    let mut commands = a_campaign_with("Aldric");
    commands.extend((0..25_000).map(|_| minute()));
    bulk_all(&mut store, commands);
    // Then appends, one write each, past two snapshot intervals (25 each).
    write_all(&mut store, (0..60).map(|_| minute()).collect());
    let head = i64::try_from(store.head().unwrap().unwrap().seq.get()).unwrap();
    let holds = |kept: &[i64]| {
        // The first block's events replay from the start.
        let blocks = head / 10_000 + 1;
        for block in 1..blocks {
            let within = |&s: &i64| s / 10_000 == block;
            assert!(kept.iter().any(within), "block {block}: {kept:?}");
        }
        assert!(
            kept.len() as i64 <= blocks + 8,
            "no pile: {kept:?} (head {head})"
        );
        let newest = kept.iter().max().copied().unwrap_or(0);
        assert!(
            head - newest < 25,
            "one near the head: {kept:?} (head {head})"
        );
    };
    holds(&snapshot_seqs(&path));
    store.rebuild_snapshots().unwrap();
    holds(&snapshot_seqs(&path));
    // The state anywhere is the same from a snapshot or from the start.
    for at in [1, 9_999, 10_000, 10_001, 24_000, 25_010].map(Seq) {
        assert_eq!(
            store.replay(Some(at)).unwrap(),
            store.replay_without_snapshots(Some(at)).unwrap()
        );
    }
}

/// A snapshot no command could use (another build's state format, or its event's hash changed
/// since) is removed by the next write that takes one, so it never stands as its block's kept
/// snapshot in place of a usable one.
#[test]
fn a_snapshot_of_another_format_is_removed_by_the_next_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::create_new(&path).unwrap().publish().unwrap();
    let mut commands = a_campaign_with("Aldric");
    commands.extend((0..10).map(|_| minute()));
    write_all(&mut store, commands);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let state =
        serde_json::to_string(&store.replay_without_snapshots(Some(Seq(3))).unwrap()).unwrap();
    let hash: String = conn
        .query_row("SELECT hash FROM events WHERE seq = 3", [], |r| r.get(0))
        .unwrap();
    conn.execute(
        "INSERT OR REPLACE INTO snapshots (seq, code_version, schema_version, head_hash, state) VALUES (3, 'grimoire-state/0.0.1', 2, ?1, ?2)",
        rusqlite::params![hash, state],
    )
    .unwrap();
    assert!(snapshot_seqs(&path).contains(&3));
    write_all(&mut store, (0..30).map(|_| minute()).collect());
    let formats: Vec<String> = conn
        .prepare("SELECT code_version FROM snapshots")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!formats.is_empty());
    assert!(
        formats.iter().all(|f| f == grimoire::store::STATE_FORMAT),
        "{formats:?}"
    );
}

/// An import keeps copies of its running state to resume from when a retraction in the file reaches
/// back; a copy taken after an event later retracted must never be resumed from again.
#[test]
fn an_import_never_resumes_from_a_copy_that_holds_a_retracted_event() {
    let source = Campaign::empty();
    let mut store = Store::create_new(&source.db).unwrap().publish().unwrap();
    let wait = |n: usize| {
        (0..n).map(|_| {
            Command::AdvanceClock(ClockAdvance {
                by: GameDuration(6),
            })
        })
    };
    let mut commands = a_campaign_with("Aldric");
    commands.extend(wait(600));
    commands.push(an_adg_character("Bryn")); // between the import's copies at #500 and #1000
    commands.extend(wait(500));
    commands.push(an_adg_character("Cato")); // after the copy at #1000
    write_all(&mut store, commands);
    for name in ["Bryn", "Cato"] {
        let seq = store
            .replay(None)
            .unwrap()
            .character(name)
            .unwrap()
            .added_seq;
        let target = store.event(seq).unwrap().map(|r| r.event);
        write_all(
            &mut store,
            vec![Command::Retract(Retraction {
                seq: Some(seq),
                last: false,
                target,
                restoring: None,
                reason: "never joined".into(),
                fight_built_on: false,
                round_stands: None,
                clock_reshaped: None,
                acted_again: None,
                names_after: Default::default(),
            })],
        );
    }
    drop(store);
    let restored = source.restored();
    let mut store = Store::open(&restored.db).unwrap();
    let state = store.replay(None).unwrap();
    assert!(state.character("Bryn").is_none());
    assert!(state.character("Cato").is_none());
    assert_eq!(state, store.replay_without_snapshots(None).unwrap());
}

/// After a rebuild (an upgrade, or damage repaired) reads near the head stay as quick as in a log
/// that grew by appends: the newest eight snapshots, 25 events apart, come back with the head's.
#[test]
fn a_rebuild_leaves_the_newest_snapshots_as_appends_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.db");
    let mut store = Store::create_new(&path).unwrap().publish().unwrap();
    let mut commands = a_campaign_with("Aldric");
    commands.extend((0..400).map(|_| {
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration(60),
        })
    }));
    bulk_all(&mut store, commands);
    let head = store.head().unwrap().unwrap().seq.get() as i64;
    store.rebuild_snapshots().unwrap();
    let seqs = snapshot_seqs(&path);
    let newest: Vec<i64> = (0..8).map(|k| head - 25 * k).rev().collect();
    assert!(seqs.ends_with(&newest), "{seqs:?}");
    assert_eq!(
        store.replay(None).unwrap(),
        store.replay_without_snapshots(None).unwrap()
    );
}
