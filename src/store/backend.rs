//! The storage seam: what a backend must do to hold a campaign's log. It knows rows, secrets and
//! snapshot texts, never event kinds' meaning: the chain, replay, the snapshot policy and verify live
//! once, above it, in [`super::Store`].
//!
//! Every read and write goes through a transaction ([`Backend::read`], [`Backend::write`]), so one
//! operation sees one consistent log even while other processes append. A write transaction holds
//! the campaign's write lock from its start: writers queue up and each decides on the head the
//! previous one left.

use super::StoreError;
use super::chain::StoredRow;
use crate::seq::Seq;
use std::ops::ControlFlow;

/// What a row visitor says after each row: go on, or stop early (a search that found its row).
pub type Visit<'a> = &'a mut dyn FnMut(StoredRow) -> Result<ControlFlow<()>, StoreError>;

/// The part of a row replay reads, borrowed from the backend's buffer: replay streams a whole log
/// through it, and copying every column of every row cost a third of a cold replay.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a> {
    pub seq: Seq,
    pub kind: &'a str,
    pub schema_version: u32,
    pub payload: &'a str,
}

/// What a payload visitor is given.
pub type VisitPayload<'a> = &'a mut dyn FnMut(Payload<'_>) -> Result<(), StoreError>;

/// A stored snapshot's label, enough to decide whether it may stand in for a replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotInfo {
    pub seq: Seq,
    /// The state format that wrote it ([`super::STATE_FORMAT`]).
    pub format: String,
    /// The hash of the event at `seq` when the snapshot was taken.
    pub head_hash: String,
    /// The hash the event at `seq` carries now (`None`: no such event).
    pub event_hash: Option<String>,
}

/// Why an insert failed: a key already taken (an import repeating an event id or a secret), or any
/// other failure.
#[derive(Debug)]
pub enum InsertError {
    Duplicate,
    Failed(StoreError),
}

impl From<StoreError> for InsertError {
    fn from(e: StoreError) -> Self {
        InsertError::Failed(e)
    }
}

/// Reads inside one transaction. A backend must answer the first six; the rest are built on them
/// here, and a backend that can answer one faster with a query of its own overrides it (the store
/// conformance suite runs on the in-memory backend, which overrides none, so both agree).
pub trait LogRead {
    /// The last row's seq and hash.
    fn head(&mut self) -> Result<Option<(Seq, String)>, StoreError>;
    /// Rows with `from <= seq <= upto`, in seq order.
    fn rows(&mut self, from: Seq, upto: Seq, visit: Visit<'_>) -> Result<(), StoreError>;
    fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError>;
    /// Every secret as (kind, key, value), ordered by kind and key.
    fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError>;
    /// Up to `limit` snapshots at or before `upto`, newest first.
    fn snapshots(&mut self, upto: Seq, limit: u64) -> Result<Vec<SnapshotInfo>, StoreError>;
    fn snapshot(&mut self, seq: Seq) -> Result<Option<String>, StoreError>;

    fn row(&mut self, seq: Seq) -> Result<Option<StoredRow>, StoreError> {
        let mut found = None;
        self.rows(seq, seq, &mut |row| {
            found = Some(row);
            Ok(ControlFlow::Break(()))
        })?;
        Ok(found)
    }
    /// The rows of [`LogRead::rows`] whose payload holds `needle` (lowercase ASCII) in any case: a
    /// filter's first sieve, so that rows which cannot match are never decoded.
    fn rows_mentioning(
        &mut self,
        from: Seq,
        upto: Seq,
        needle: &str,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        self.rows(from, upto, &mut |row| {
            if row.payload.to_ascii_lowercase().contains(needle) {
                visit(row)
            } else {
                Ok(ControlFlow::Continue(()))
            }
        })
    }
    /// The payloads of rows with `from <= seq <= upto`, in seq order (for replay, which a backend
    /// may serve without copying every column).
    fn payloads(
        &mut self,
        from: Seq,
        upto: Seq,
        visit: VisitPayload<'_>,
    ) -> Result<(), StoreError> {
        self.rows(from, upto, &mut |row| {
            visit(Payload {
                seq: row.seq,
                kind: &row.kind,
                schema_version: row.schema_version,
                payload: &row.payload,
            })?;
            Ok(ControlFlow::Continue(()))
        })
    }
    /// Rows of one kind with `after < seq <= upto`, in seq order.
    fn rows_of_kind(
        &mut self,
        kind: &str,
        after: Seq,
        upto: Seq,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        self.rows(after.next(), upto, &mut |row| {
            if row.kind == kind {
                visit(row)
            } else {
                Ok(ControlFlow::Continue(()))
            }
        })
    }
    /// The newest row before `before` whose kind is one of `kinds`.
    fn last_of_kinds(
        &mut self,
        kinds: &[&str],
        before: Seq,
    ) -> Result<Option<StoredRow>, StoreError> {
        let mut newest = None;
        self.rows(Seq(1), before.previous(), &mut |row| {
            if kinds.contains(&row.kind.as_str()) {
                newest = Some(row);
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(newest)
    }
    /// The newest event recorded while the clock stood before `game_time` (seconds).
    fn last_before_time(&mut self, game_time: u64) -> Result<Option<Seq>, StoreError> {
        let mut newest = None;
        self.rows(Seq(1), Seq::END, &mut |row| {
            if row.game_time < game_time {
                newest = Some(row.seq);
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(newest)
    }
    /// The values of one kind of secret whose keys start with `prefix`, ordered by key.
    fn secrets_with_prefix(&mut self, kind: &str, prefix: &str) -> Result<Vec<String>, StoreError> {
        Ok(self
            .secrets()?
            .into_iter()
            .filter(|(k, key, _)| k == kind && key.starts_with(prefix))
            .map(|(_, _, value)| value)
            .collect())
    }
}

/// A write transaction: reads see its own inserts; nothing is kept unless [`LogWrite::commit`] runs.
pub trait LogWrite: LogRead {
    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError>;
    /// Inserts `rows` in order, as [`LogWrite::insert_row`] each; a refusal says which row (by
    /// its place in `rows`). A backend may send them together (PostgreSQL: one statement for
    /// them all, instead of a round trip each).
    fn insert_rows(&mut self, rows: &[StoredRow]) -> Result<(), (usize, InsertError)> {
        for (at, row) in rows.iter().enumerate() {
            self.insert_row(row).map_err(|e| (at, e))?;
        }
        Ok(())
    }
    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError>;
    /// Whether an insert waits on another process (a database server): an import then checks
    /// the rows that follow on a thread of its own meanwhile. In process the hand-over between
    /// threads costs more than it saves (a SQLite import measured 6% slower with it).
    fn inserts_wait_on_a_server(&self) -> bool {
        false
    }
    /// Stores (or replaces) the snapshot at `seq`.
    fn put_snapshot(
        &mut self,
        seq: Seq,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError>;
    /// The seqs of every stored snapshot, oldest first.
    fn snapshot_seqs(&mut self) -> Result<Vec<Seq>, StoreError>;
    fn delete_snapshots(&mut self, seqs: &[Seq]) -> Result<(), StoreError>;
    /// Drops every snapshot; returns how many there were.
    fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        let seqs = self.snapshot_seqs()?;
        self.delete_snapshots(&seqs)?;
        Ok(seqs.len() as u64)
    }
    fn commit(self: Box<Self>) -> Result<(), StoreError>;
}

/// One campaign's log in some database.
pub trait Backend {
    /// Where the campaign lives, for messages: a file's path, or a campaign's name and server (never
    /// a password).
    fn place(&self) -> String;
    /// A read-only transaction over one consistent view of the log.
    fn read(&mut self) -> Result<Box<dyn LogRead + '_>, StoreError>;
    /// A write transaction holding the campaign's write lock.
    fn write(&mut self) -> Result<Box<dyn LogWrite + '_>, StoreError>;
    /// How many problems the database's own check of its storage reports (`thorough`: every page
    /// and index; otherwise a quicker structural check).
    fn storage_problems(&mut self, thorough: bool) -> Result<u64, StoreError>;
    /// Whether `grimoire tour` made this campaign (only then may a later tour replace it).
    fn is_tour(&mut self) -> Result<bool, StoreError>;
    fn mark_as_tour(&mut self) -> Result<(), StoreError>;
    /// Makes a campaign built by `create_new` visible under its name, whole. Fails with
    /// [`StoreError::Exists`] when another command created it meanwhile.
    /// Dropped unpublished, such a campaign removes itself.
    fn publish(self: Box<Self>) -> Result<Box<dyn Backend>, StoreError>;
}
