//! Verification, above the store: whether a log is a true record. The store keeps rows and
//! knows how they chain; this module knows what the rows must hold: every row through the chain's
//! checks and the record's own rules, every die against where it says it came from, each trusted
//! snapshot against a replay, and the secrets a file keeps. `grimoire verify` runs [`log`] on a
//! campaign file or database, and [`export`] on an export's text, as the players' page checks it.

mod answers;
mod chain_check;
mod clock;
mod names;
mod report;
mod reveals;
mod verifier;

pub use chain_check::ChainCheck;
pub use clock::RecordedClock;
pub use names::CharacterNames;
pub use report::{CheckpointMiss, CheckpointResult, Problem, VerifyReport};
pub use reveals::Reveals;
pub use verifier::Verifier;

use crate::event::Event;
use crate::seq::Seq;
use crate::state::Replay;
use crate::store::jsonl::{Line, is_blank, parse_line};
use crate::store::{
    Checkpoint, EPOCH_SEED, SEALED_SEED, Store, StoreError, StoredRow, parse_snapshot,
    readable_revisions, snapshot_is_trusted,
};
use std::ops::ControlFlow;

/// Checks the whole log of `store` in one consistent read: first the database's own check of its
/// storage, then the reveals (they come after the dice they open), then every row through every
/// check, comparing each trusted snapshot with a replay.
pub fn log(store: &mut Store, checkpoints: Vec<Checkpoint>) -> Result<VerifyReport, StoreError> {
    log_watching(store, checkpoints, &mut |_| {})
}

/// [`log`], telling `watch` the seq of each row as it is checked (for progress). A row
/// holding what grimoire never writes (text that is not UTF-8, a negative time) ends the check
/// there and is reported as where the chain breaks, so `verify` always answers with a report.
pub fn log_watching(
    store: &mut Store,
    checkpoints: Vec<Checkpoint>,
    watch: &mut dyn FnMut(Seq),
) -> Result<VerifyReport, StoreError> {
    // Damage in pages the log's queries never touch would otherwise go unseen.
    let file_problems = store.storage_problems(true)?;
    let asked: Vec<String> = checkpoints.iter().map(ToString::to_string).collect();
    let mut broken_before = None;
    match log_rows(store, file_problems, checkpoints, watch, &mut broken_before) {
        Err(StoreError::DamagedRow { seq, what }) => Ok(VerifyReport {
            file_problems,
            // The chain may already have broken before the damaged row: the first break is named.
            chain_break: Some(broken_before.filter(|b: &Problem| b.seq < seq).unwrap_or_else(
                || Problem {
                    seq,
                    what: format!(
                        "#{seq} is damaged: {what} (the file was edited or damaged outside grimoire); nothing after it was checked"
                    ),
                },
            )),
            // Nothing at or past a damaged row can be vouched for.
            checkpoints: asked
                .into_iter()
                .map(|checkpoint| CheckpointResult {
                    checkpoint,
                    holds: false,
                    miss: Some(CheckpointMiss::NotReached),
                })
                .collect(),
            ..VerifyReport::default()
        }),
        other => other,
    }
}

fn log_rows(
    store: &mut Store,
    file_problems: u64,
    checkpoints: Vec<Checkpoint>,
    watch: &mut dyn FnMut(Seq),
    broken_before: &mut Option<Problem>,
) -> Result<VerifyReport, StoreError> {
    let mut log = store.reader()?;
    let mut reveals = Reveals::default();
    // An unreadable or damaged reveal or amendment is reported by the main pass, which reads every
    // row in order (and may find the chain broken before it).
    for kind in ["seed_revealed", "sealed_seed_revealed", "sealed_revealed"] {
        met_in_order(log.rows_of_kind(kind, Seq::START, Seq::END, &mut |row| {
            if let Ok(event) = row.event() {
                reveals.note(&event);
            }
            Ok(ControlFlow::Continue(()))
        }))?;
    }
    let mut verifier = Verifier::new(reveals, checkpoints);
    met_in_order(
        log.rows_of_kind("amended", Seq::START, Seq::END, &mut |row| {
            if let Ok(Event::Amended { seq, event, .. }) = row.event() {
                verifier.expect_amendment(row.seq, seq, *event);
            }
            Ok(ControlFlow::Continue(()))
        }),
    )?;
    // Commands trust snapshots without replaying what they summarise, so a snapshot edited in
    // the database would show a false sheet while the chain stays whole: replay the log
    // alongside and compare each snapshot a command could start from.
    let revisions = match readable_revisions(&mut *log, Seq::START, Seq::END) {
        // The main pass stops at the damaged row, and with it every comparison of snapshots.
        Err(StoreError::DamagedRow { .. }) => crate::state::Revisions::default(),
        read => read?,
    };
    let stored = log.snapshots(Seq::END, u64::MAX)?;
    let snapshots_passed_over = stored.len() as u64;
    let mut to_compare: Vec<Seq> = stored
        .into_iter()
        .rev()
        .filter(|s| snapshot_is_trusted(s, &revisions))
        .map(|s| s.seq)
        .collect();
    let snapshots_passed_over = snapshots_passed_over - to_compare.len() as u64;
    let mut replay = Some(Replay::new(&revisions));
    let mut answers = answers::Answers::default();
    let mut first_unreadable = None;
    let (mut snapshots_checked, mut snapshot_problems) = (0, Vec::new());
    let mut from = Seq(1);
    to_compare.push(Seq::END);
    for until in to_compare {
        let read = log.rows(from, until, &mut |row| {
            watch(row.seq);
            let event = verifier.feed(&row);
            match &event {
                Some(event) => answers.note(row.seq, row.schema_version, event),
                None => _ = first_unreadable.get_or_insert(row.seq),
            }
            match (&mut replay, event) {
                (Some(replay), Some(event)) => {
                    replay.feed(row.seq, &event);
                }
                // Past an unreadable event the replay means nothing; the row is reported above.
                (_, None) => replay = None,
                (None, Some(_)) => {}
            }
            Ok(ControlFlow::Continue(()))
        });
        if read.is_err() {
            *broken_before = verifier.chain_break().cloned();
        }
        read?;
        from = until.next();
        let (Some(replayed), true) = (&replay, until < Seq::END) else {
            continue;
        };
        let Some(text) = log.snapshot(until)? else {
            continue;
        };
        snapshots_checked += 1;
        let fault = match parse_snapshot(until, &text) {
            // Commands skip it and replay the log instead; grimoire never writes one it cannot read.
            None => Some("cannot be read (the file is damaged there, or it was edited)"),
            Some(stored) if &stored != replayed.state() => {
                Some("does not match a replay of the log (it was edited outside grimoire)")
            }
            Some(_) => None,
        };
        if let Some(fault) = fault {
            snapshot_problems.push(Problem {
                seq: until,
                what: format!(
                    "the snapshot at #{until} {fault}; `grimoire snapshots rebuild` replaces it"
                ),
            });
        }
    }
    let end = earliest(verifier.chain_break().map(|p| p.seq), first_unreadable);
    let decided = answers.check(&revisions, end, &mut FileRows(&mut *log))?;
    match log.secrets() {
        // A reader that may not see secrets leaves them to whoever holds them (a server ends
        // the transaction at the refusal, so nothing more is read).
        Err(StoreError::NotPermitted { .. }) => {}
        listed => {
            verifier.check_kept_seeds(|kind, epoch| log.secret(kind, &epoch.to_string()))?;
            match listed {
                // A seed kept for an epoch the log never began would stop that epoch keeping
                // its own.
                Ok(all) => {
                    verifier.check_seed_keys(
                        all.iter()
                            .filter(|(kind, _, _)| [EPOCH_SEED, SEALED_SEED].contains(&&**kind))
                            .map(|(kind, key, _)| (kind.as_str(), key.as_str())),
                    );
                    verifier.check_sealed_keys(
                        all.iter()
                            .filter(|(kind, _, _)| kind == "sealed_die")
                            .map(|(_, key, _)| key.as_str()),
                    );
                    // A file that keeps secrets keeps every die still sealed.
                    if !all.is_empty() {
                        verifier.check_kept_sealed(
                            all.iter()
                                .filter(|(kind, _, _)| kind == "sealed_die")
                                .map(|(_, key, value)| (key.as_str(), value.as_str())),
                        );
                    }
                }
                // Named by the check of the kept seeds, or by the reveal that reads it.
                Err(StoreError::DamagedSecret { .. }) => {}
                Err(other) => return Err(other),
            }
        }
    }
    Ok(VerifyReport {
        file_problems,
        snapshots_checked,
        snapshots_passed_over,
        snapshot_problems,
        decided_again_problems: decided.problems,
        answers_changed_while_waiting: decided.changed_while_waiting,
        ..verifier.finish()
    })
}

/// A pass over the rows of one kind that met a damaged row: passed over, as the main pass meets
/// it in its place.
fn met_in_order(pass: Result<(), StoreError>) -> Result<(), StoreError> {
    match pass {
        Err(StoreError::DamagedRow { .. }) => Ok(()),
        other => other,
    }
}

/// What `grimoire verify` finds in an export's text alone, as the players' page checks the same
/// text: its lines read as import reads them, a line that cannot be read breaking the chain where
/// it stands, an event id given twice refused as a campaign file refuses it, then every row
/// through the checks `verify` runs. An export carries no snapshots, and its secrets are not read.
pub fn export(text: &str) -> VerifyReport {
    let mut rows: Vec<StoredRow> = Vec::new();
    let mut unreadable = None;
    for line in text.split('\n').filter(|line| !is_blank(line)) {
        match parse_line(line) {
            Ok(Line::Event(row)) => rows.push(row),
            Ok(Line::Secret { .. }) => {}
            Err(why) => {
                unreadable = Some(why);
                break;
            }
        }
    }
    let mut reveals = Reveals::default();
    let events: Vec<Option<Event>> = rows.iter().map(|row| row.event().ok()).collect();
    for event in events.iter().flatten() {
        reveals.note(event);
    }
    let mut verifier = Verifier::new(reveals, Vec::new());
    for (row, event) in rows.iter().zip(&events) {
        if let Some(Event::Amended { seq, event, .. }) = event {
            verifier.expect_amendment(row.seq, *seq, event.as_ref().clone());
        }
    }
    let mut ids = std::collections::HashMap::new();
    let mut answers = answers::Answers::default();
    for (row, event) in rows.iter().zip(&events) {
        if let Some(event) = event {
            answers.note(row.seq, row.schema_version, event);
        }
    }
    for row in &rows {
        if let Some(first) = ids.insert(row.event_id.as_str(), row.seq) {
            verifier.note_problem(
                row.seq,
                format!(
                    "#{} has the event id of #{first}: every event has its own",
                    row.seq
                ),
            );
        }
        verifier.feed(row);
    }
    // Nothing past an event that cannot be read means anything.
    let first_unreadable = events.iter().position(Option::is_none).map(|i| rows[i].seq);
    let end = earliest(verifier.chain_break().map(|p| p.seq), first_unreadable);
    let revisions = crate::state::Revisions::of(
        (rows.iter().zip(&events)).filter_map(|(row, e)| Some((row.seq, e.as_ref()?))),
    );
    let mut exported = ExportRows {
        rows: &rows,
        events: &events,
    };
    // An export's rows are all in memory: reading them again cannot fail.
    let decided = (answers.check(&revisions, end, &mut exported)).unwrap_or_default();
    let mut report = VerifyReport {
        decided_again_problems: decided.problems,
        answers_changed_while_waiting: decided.changed_while_waiting,
        ..verifier.finish()
    };
    if let (Some(why), None) = (unreadable, &report.chain_break) {
        let seq = Seq(rows.len() as u64 + 1);
        report.chain_break = Some(Problem {
            seq,
            what: format!("the export's line for #{seq} cannot be read: {why}"),
        });
    }
    report
}

/// Where the answers' check stops: the chain's first break or the first row that cannot be read,
/// whichever comes first.
fn earliest(chain_break: Option<Seq>, unreadable: Option<Seq>) -> Option<Seq> {
    chain_break.into_iter().chain(unreadable).min()
}

/// A campaign file's rows, read again for the answers in the same read.
struct FileRows<'l, 'r>(&'l mut (dyn crate::store::backend::LogRead + 'r));

impl answers::ReadAgain for FileRows<'_, '_> {
    fn each(
        &mut self,
        from: Seq,
        upto: Seq,
        feed: &mut dyn FnMut(Seq, &Event),
    ) -> Result<(), StoreError> {
        // Only rows before the first that cannot be read are asked for: the main pass named it.
        self.0.rows(from, upto, &mut |row| {
            if let Ok(event) = row.event() {
                feed(row.seq, &event);
            }
            Ok(ControlFlow::Continue(()))
        })
    }

    fn event_at(&mut self, seq: Seq) -> Option<(Event, crate::time::GameTime)> {
        let row = self.0.row(seq).ok()??;
        Some((row.event().ok()?, crate::time::GameTime(row.game_time)))
    }

    fn reveal_of(&mut self, seq: Seq) -> Option<Vec<crate::event::RevealedDie>> {
        let mut found = None;
        let read = self
            .0
            .rows_of_kind("sealed_revealed", seq, Seq::END, &mut |row| {
                if let Ok(Event::SealedRevealed { seq: opened, dice }) = row.event()
                    && opened == seq
                {
                    found = Some(dice);
                    return Ok(ControlFlow::Break(()));
                }
                Ok(ControlFlow::Continue(()))
            });
        read.ok().and(found)
    }
}

/// An export's rows, read again for the answers.
struct ExportRows<'r> {
    rows: &'r [StoredRow],
    events: &'r [Option<Event>],
}

impl ExportRows<'_> {
    fn index(&self, seq: Seq) -> Option<usize> {
        self.rows.binary_search_by_key(&seq, |row| row.seq).ok()
    }
}

impl answers::ReadAgain for ExportRows<'_> {
    fn each(
        &mut self,
        from: Seq,
        upto: Seq,
        feed: &mut dyn FnMut(Seq, &Event),
    ) -> Result<(), StoreError> {
        // Read in seq order, as the chain's check holds them up to where the check stops.
        let start = self.rows.partition_point(|row| row.seq < from);
        let rows = self.rows[start..].iter().zip(&self.events[start..]);
        for (row, event) in rows.take_while(|(row, _)| row.seq <= upto) {
            if let Some(event) = event {
                feed(row.seq, event);
            }
        }
        Ok(())
    }

    fn reveal_of(&mut self, seq: Seq) -> Option<Vec<crate::event::RevealedDie>> {
        self.events.iter().flatten().find_map(|event| match event {
            Event::SealedRevealed { seq: opened, dice } if *opened == seq => Some(dice.clone()),
            _ => None,
        })
    }

    fn event_at(&mut self, seq: Seq) -> Option<(Event, crate::time::GameTime)> {
        let i = self.index(seq)?;
        let event = self.events[i].clone()?;
        Some((event, crate::time::GameTime(self.rows[i].game_time)))
    }
}
