//! The store's promises, against every backend (memory, the real SQLite file, a real PostgreSQL
//! server): append, read back in order, atomic batches, append-only rows, writers queueing up. The
//! memory backend answers only what the seam requires, so its run also checks the provided reads
//! that the SQL backends answer with queries of their own.

use crate::pg_cluster;
use grimoire::Error;
use grimoire::event::Event;
use grimoire::seq::Seq;
use grimoire::store::testkit::Writes;
use grimoire::store::{Batch, Location, MemoryLog, Point, Stamp, Store};
use grimoire::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;

fn stamp() -> Stamp {
    Stamp {
        recorded_at: "2026-01-01T00:00:00Z".into(),
        actor: "tester".into(),
        id_rng: StdRng::seed_from_u64(1),
    }
}

/// The seed the conformance campaign's first epoch commits to.
const SEED: [u8; 32] = [7u8; 32];

fn created() -> Event {
    Event::CampaignCreated {
        campaign_id: "c".into(),
        name: "Conformance".into(),
        seed_commitment: grimoire::dice::fairness::seed_commitment(&SEED),
        grimoire_version: "test".into(),
        derivation: Some(grimoire::dice::fairness::ROLL_BOUND_DERIVATION),
        sealed_commitment: None,
    }
}

/// Runs one SQL statement straight on the backend's database.
type RawSql = Box<dyn Fn(&str) -> Result<(), String>>;

/// Opens a store on the campaign, as a new process would (from any thread).
type Opener = Arc<dyn Fn() -> Store + Send + Sync>;

/// A new, empty campaign in some backend, and a raw SQL door into its database (as a tamperer has)
/// where it has one.
struct Place {
    opener: Opener,
    raw: Option<RawSql>,
    _keep: Box<dyn std::any::Any>,
}

impl Place {
    fn open(&self) -> Store {
        (self.opener)()
    }

    fn raw(&self, sql: &str) -> Result<(), String> {
        (self.raw.as_ref().expect("a SQL backend"))(sql)
    }
}

fn opening(location: Location) -> Opener {
    Arc::new(move || Store::open(&location).unwrap())
}

fn fresh_memory() -> Option<Place> {
    let log = MemoryLog::new();
    Some(Place {
        opener: Arc::new(move || log.open()),
        raw: None,
        _keep: Box::new(()),
    })
}

fn fresh_sqlite() -> Option<Place> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    Store::create_new(&path).unwrap().publish().unwrap();
    Some(Place {
        opener: opening(Location::File(path.clone())),
        raw: Some(Box::new(move |sql| {
            rusqlite::Connection::open(&path)
                .unwrap()
                .execute(sql, [])
                .map(|_| ())
                .map_err(|e| e.to_string())
        })),
        _keep: Box::new(dir),
    })
}

fn fresh_postgres() -> Option<Place> {
    let database = pg_cluster::database()?;
    let location = Location::parse(&database.url("conformance")).unwrap();
    Store::create_new(&location).unwrap().publish().unwrap();
    Some(Place {
        opener: opening(location),
        raw: Some(Box::new(move |sql| {
            database
                .client()
                .execute(sql, &[])
                .map(|_| ())
                .map_err(|e| e.to_string())
        })),
        _keep: Box::new(()),
    })
}

fn append(store: &mut Store, events: Vec<Event>) -> Result<Vec<u64>, Error> {
    let recorded = store.write(stamp(), |_, _| {
        Ok(Batch {
            events,
            ..Batch::default()
        })
    })?;
    Ok(recorded.events.iter().map(|r| r.seq.get()).collect())
}

fn read_all(store: &mut Store) -> Vec<(u64, Event)> {
    let mut all = Vec::new();
    store
        .for_each_event(Seq(1), None, |r| {
            all.push((r.seq.get(), r.event));
            Ok(())
        })
        .unwrap();
    all
}

/// The same cases for every backend (TaskChampion's way): each backend module below runs them all.
macro_rules! conformance {
    ($backend:ident, $fresh:path) => {
        mod $backend {
            use super::*;

            #[test]
            fn appended_events_read_back_in_order_with_gapless_seqs() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
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
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                append(
                    &mut store,
                    vec![created(), Event::SessionEnded { number: 1 }],
                )
                .unwrap();
                let first = store.event(Seq(1)).unwrap().unwrap();
                let second = store.event(Seq(2)).unwrap().unwrap();
                assert_eq!(first.prev_hash.as_str(), "0".repeat(64));
                assert_eq!(second.prev_hash, first.hash);
                assert!(store.event(Seq(3)).unwrap().is_none());
            }

            #[test]
            fn a_refused_decision_writes_nothing() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                append(&mut store, vec![created()]).unwrap();
                let head = store.head().unwrap();
                let result = store.write(stamp(), |_, _| Err(Error::Usage("refused".into())));
                assert!(result.is_err());
                assert_eq!(store.head().unwrap(), head);
            }

            #[test]
            fn a_batch_that_fails_halfway_writes_nothing() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
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
            fn replay_up_to_a_seq_ignores_what_came_after() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
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
                assert!(store.replay(Some(Seq(2))).unwrap().open_session.is_some());
                assert!(store.replay(None).unwrap().open_session.is_none());
            }

            /// An amendment recorded after a snapshot reaches back behind it (C-3): the snapshot
            /// no longer stands for the log, and replay reads the amendment in its original's
            /// place; a point before the amendment reads the log as it stood then.
            #[test]
            fn an_amendment_behind_a_snapshot_is_read_in_its_originals_place() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                let minutes = |m: u64| Event::ClockAdvanced {
                    by: GameDuration(60 * m),
                };
                append(&mut store, vec![created(), minutes(1)]).unwrap();
                assert_eq!(store.rebuild_snapshots().unwrap(), 1);
                append(
                    &mut store,
                    vec![Event::Amended {
                        seq: Seq(2),
                        event: Box::new(minutes(2)),
                        changed: vec!["by: 1m → 2m".into()],
                        outcome_changed: true,
                    }],
                )
                .unwrap();
                assert_eq!(store.replay(None).unwrap().clock.seconds(), 120);
                assert_eq!(store.replay(Some(Seq(2))).unwrap().clock.seconds(), 60);
                let mut reopened = place.open();
                assert_eq!(reopened.replay(None).unwrap().clock.seconds(), 120);
                reopened.rebuild_snapshots().unwrap();
                assert_eq!(reopened.replay(None).unwrap().clock.seconds(), 120);
            }

            #[test]
            fn points_name_the_events_a_table_means_and_refuse_what_has_not_happened() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                let a_day = || Event::ClockAdvanced {
                    by: GameDuration(86_400),
                };
                let started = Event::SessionStarted {
                    number: 1,
                    entropy: String::new(),
                };
                append(&mut store, vec![created(), started, a_day()]).unwrap();
                // Recorded on Day 2; the last advance moves the clock into Day 3.
                append(&mut store, vec![Event::SessionEnded { number: 1 }, a_day()]).unwrap();
                for (point, seq) in [
                    (Point::SessionStart(1), 2),
                    (Point::SessionEnd(1), 4),
                    (Point::Day(1), 3),
                    (Point::Day(2), 5),
                    (Point::Day(3), 5),
                    (Point::Seq(Seq(4)), 4),
                    (Point::Now, 5),
                ] {
                    assert_eq!(store.resolve(point).unwrap(), seq, "{point}");
                }
                for (point, says) in [
                    (Point::Day(4), "Day 4 has not come yet"),
                    (Point::Seq(Seq(6)), "#6 is not in the log"),
                    (Point::SessionEnd(2), "no session 2"),
                ] {
                    let refused = store.resolve(point).unwrap_err().to_string();
                    assert!(refused.contains(says), "{point}: {refused}");
                }
            }

            #[test]
            fn a_read_sieved_by_a_name_passes_over_everyone_else_and_keeps_any_case() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                let hurt = |who: &str| Event::DamageTaken {
                    character: who.into(),
                    amount: 1,
                    reason: None,
                };
                let mut events = vec![created()];
                for i in 0..700 {
                    events.push(hurt(if i % 300 == 0 { "ALDRIC" } else { "Bryn" }));
                }
                append(&mut store, events).unwrap();
                let mut seen = Vec::new();
                store
                    .for_each_event_backwards_mentioning(Seq(1), Seq::END, Some("aldric"), |r| {
                        seen.push(r.seq);
                        Ok(std::ops::ControlFlow::Continue(()))
                    })
                    .unwrap();
                assert_eq!(seen, vec![602, 302, 2], "newest first, across chunks");
                let mut all = 0;
                store
                    .for_each_event_backwards_mentioning(Seq(1), Seq::END, None, |_| {
                        all += 1;
                        Ok(std::ops::ControlFlow::Continue(()))
                    })
                    .unwrap();
                assert_eq!(all, 701);
            }

            #[test]
            fn a_backup_holds_every_row_secret_and_snapshot_and_verifies() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                append(&mut store, vec![created()]).unwrap();
                store
                    .write(stamp(), |_, _| {
                        Ok(Batch {
                            events: vec![Event::SessionStarted {
                                number: 1,
                                entropy: "table".into(),
                            }],
                            seeds: vec![(1, SEED)],
                            ..Batch::default()
                        })
                    })
                    .unwrap();
                assert_eq!(store.rebuild_snapshots().unwrap(), 1);
                let dir = tempfile::tempdir().unwrap();
                let to = dir.path().join("copy.db");
                let head = store.backup(&to, &|| false).unwrap();
                assert_eq!(head, store.head().unwrap());
                let mut copy = Store::open(&to).unwrap();
                assert_eq!(read_all(&mut copy), read_all(&mut store));
                assert_eq!(copy.secrets().unwrap(), store.secrets().unwrap());
                assert_eq!(copy.secrets().unwrap().len(), 1);
                let report = grimoire::verify::log(&mut copy, Vec::new()).unwrap();
                assert!(report.all_hold());
                assert_eq!(report.snapshots_checked, 1, "the snapshot came along");
            }

            #[test]
            fn concurrent_writers_queue_up_and_every_event_lands() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                append(&mut store, vec![created()]).unwrap();
                drop(store);
                let threads: Vec<_> = (0..4)
                    .map(|t| {
                        let opener = place.opener.clone();
                        std::thread::spawn(move || {
                            let mut store = opener();
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
                let mut store = place.open();
                assert_eq!(read_all(&mut store).len(), 101);
                // 25 advances of 1, 2, 3 and 4 minutes: every one applied exactly once.
                assert_eq!(
                    store.replay(None).unwrap().clock.seconds(),
                    25 * 60 * (1 + 2 + 3 + 4)
                );
                assert!(
                    grimoire::verify::log(&mut store, Vec::new())
                        .unwrap()
                        .all_hold()
                );
            }
        }
    };
}

conformance!(memory, fresh_memory);
conformance!(sqlite, fresh_sqlite);
conformance!(postgres, fresh_postgres);

/// The SQL backends' own promise: a tamperer with the database's SQL still cannot change or remove
/// a stored row.
macro_rules! sql_conformance {
    ($backend:ident, $fresh:path) => {
        mod $backend {
            use super::*;

            #[test]
            fn stored_rows_cannot_be_updated_or_deleted_through_sql() {
                let Some(place) = $fresh() else { return };
                let mut store = place.open();
                append(&mut store, vec![created()]).unwrap();
                assert!(place.raw("UPDATE events SET actor = 'forger'").is_err());
                assert!(place.raw("DELETE FROM events").is_err());
                assert_eq!(read_all(&mut store).len(), 1);
            }
        }
    };
}

mod sql {
    use super::*;
    sql_conformance!(sqlite, fresh_sqlite);
    sql_conformance!(postgres, fresh_postgres);
}

/// SQLite only: the file's own settings.
#[test]
fn the_file_is_durable_wal_and_waits_instead_of_failing() {
    let dir = tempfile::tempdir().unwrap();
    Store::create_new(dir.path().join("c.db"))
        .unwrap()
        .publish()
        .unwrap();
    let _reopened = Store::open(dir.path().join("c.db")).unwrap();
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
