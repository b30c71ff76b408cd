//! The store's promises, against the real SQLite file: append, read back in order, atomic batches,
//! durability settings, and append-only rows.

use grimoire::Error;
use grimoire::event::Event;
use grimoire::store::{Batch, Stamp, Store};
use grimoire::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn stamp() -> Stamp {
    Stamp {
        recorded_at: "2026-01-01T00:00:00Z".into(),
        actor: "tester".into(),
        id_rng: StdRng::seed_from_u64(1),
    }
}

fn created() -> Event {
    Event::CampaignCreated {
        campaign_id: "c".into(),
        name: "Conformance".into(),
        seed_commitment: "0".repeat(64),
        grimoire_version: "test".into(),
    }
}

fn fresh() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create_new(&dir.path().join("c.db"))
        .unwrap()
        .publish()
        .unwrap();
    (dir, store)
}

fn append(store: &mut Store, events: Vec<Event>) -> Result<Vec<u64>, Error> {
    let recorded = store.write(stamp(), |_, _| {
        Ok(Batch {
            events,
            ..Batch::default()
        })
    })?;
    Ok(recorded.events.iter().map(|r| r.seq).collect())
}

fn read_all(store: &mut Store) -> Vec<(u64, Event)> {
    let mut all = Vec::new();
    store
        .for_each_event(1, None, |r| {
            all.push((r.seq, r.event));
            Ok(())
        })
        .unwrap();
    all
}

#[test]
fn appended_events_read_back_in_order_with_gapless_seqs() {
    let (_dir, mut store) = fresh();
    assert_eq!(append(&mut store, vec![created()]).unwrap(), vec![1]);
    let batch: Vec<Event> = (1..=5)
        .map(|n| Event::SessionStarted {
            number: n,
            entropy: format!("e{n}"),
        })
        .collect();
    assert_eq!(
        append(&mut store, batch.clone()).unwrap(),
        vec![2, 3, 4, 5, 6]
    );
    let back = read_all(&mut store);
    assert_eq!(
        back.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        back[1..].iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(),
        batch
    );
}

#[test]
fn each_row_links_to_the_one_before() {
    let (_dir, mut store) = fresh();
    append(
        &mut store,
        vec![created(), Event::SessionEnded { number: 1 }],
    )
    .unwrap();
    let first = store.event(1).unwrap().unwrap();
    let second = store.event(2).unwrap().unwrap();
    assert_eq!(first.prev_hash, "0".repeat(64));
    assert_eq!(second.prev_hash, first.hash);
    assert!(store.event(3).unwrap().is_none());
}

#[test]
fn a_refused_decision_writes_nothing() {
    let (_dir, mut store) = fresh();
    append(&mut store, vec![created()]).unwrap();
    let head = store.head().unwrap();
    let result = store.write(stamp(), |_, _| Err(Error::Usage("refused".into())));
    assert!(result.is_err());
    assert_eq!(store.head().unwrap(), head);
}

#[test]
fn a_batch_that_fails_halfway_writes_nothing() {
    let (_dir, mut store) = fresh();
    append(&mut store, vec![created()]).unwrap();
    let head = store.head().unwrap();
    // Two events, then two secrets under the same key: the second secret insert fails after both
    // events were inserted, inside the same transaction.
    let result = store.write(stamp(), |_, _| {
        Ok(Batch {
            events: vec![
                Event::SessionStarted {
                    number: 1,
                    entropy: String::new(),
                },
                Event::SessionEnded { number: 1 },
            ],
            seeds: vec![(5, [1u8; 32]), (5, [2u8; 32])],
            ..Batch::default()
        })
    });
    assert!(result.is_err());
    assert_eq!(
        store.head().unwrap(),
        head,
        "no event of the failed batch remains"
    );
    assert_eq!(read_all(&mut store).len(), 1);
    assert!(store.secrets().unwrap().is_empty());
}

#[test]
fn the_file_is_durable_wal_and_waits_instead_of_failing() {
    let (dir, store) = fresh();
    drop(store);
    let _reopened = Store::open(&dir.path().join("c.db")).unwrap();
    let raw = rusqlite::Connection::open(dir.path().join("c.db")).unwrap();
    let mode: String = raw
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let app: i64 = raw
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap();
    assert_eq!(app, 0x4752_494D);
}

#[test]
fn stored_rows_cannot_be_updated_or_deleted_through_sql() {
    let (dir, mut store) = fresh();
    append(&mut store, vec![created()]).unwrap();
    let raw = rusqlite::Connection::open(dir.path().join("c.db")).unwrap();
    assert!(
        raw.execute("UPDATE events SET actor = 'forger'", [])
            .is_err()
    );
    assert!(raw.execute("DELETE FROM events", []).is_err());
}

#[test]
fn replay_up_to_a_seq_ignores_what_came_after() {
    let (_dir, mut store) = fresh();
    append(
        &mut store,
        vec![
            created(),
            Event::SessionStarted {
                number: 1,
                entropy: String::new(),
            },
        ],
    )
    .unwrap();
    append(&mut store, vec![Event::SessionEnded { number: 1 }]).unwrap();
    assert!(store.replay(Some(2)).unwrap().open_session.is_some());
    assert!(store.replay(None).unwrap().open_session.is_none());
}

#[test]
fn concurrent_writers_queue_up_and_every_event_lands() {
    let (dir, mut store) = fresh();
    append(&mut store, vec![created()]).unwrap();
    drop(store);
    let path = dir.path().join("c.db");
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut store = Store::open(&path).unwrap();
                for i in 0..25 {
                    let event = Event::ClockAdvanced {
                        by: GameDuration(60 * (t + 1)),
                    };
                    store
                        .write(
                            Stamp {
                                id_rng: StdRng::seed_from_u64(t * 100 + i),
                                ..stamp()
                            },
                            |_, _| {
                                Ok(Batch {
                                    events: vec![event],
                                    ..Batch::default()
                                })
                            },
                        )
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(read_all(&mut store).len(), 101);
    // 25 advances of 1, 2, 3 and 4 minutes: every one applied exactly once.
    assert_eq!(
        store.replay(None).unwrap().clock.seconds(),
        25 * 60 * (1 + 2 + 3 + 4)
    );
    assert!(store.verify(None).unwrap().all_hold());
}
