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
use super::sqlite::SqliteBackend;
use std::ops::ControlFlow;

/// What a row visitor says after each row: go on, or stop early (a search that found its row).
pub type Visit<'a> = &'a mut dyn FnMut(StoredRow) -> Result<ControlFlow<()>, StoreError>;

/// The part of a row replay reads, borrowed from the backend's buffer: replay streams a whole log
/// through it, and copying every column of every row cost a third of a cold replay.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a> {
    pub seq: u64,
    pub kind: &'a str,
    pub schema_version: u32,
    pub payload: &'a str,
}

/// What a payload visitor is given.
pub type VisitPayload<'a> = &'a mut dyn FnMut(Payload<'_>) -> Result<(), StoreError>;

/// A stored snapshot's label, enough to decide whether it may stand in for a replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotInfo {
    pub seq: u64,
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

/// Reads inside one transaction.
pub trait LogRead {
    /// The last row's seq and hash.
    fn head(&mut self) -> Result<Option<(u64, String)>, StoreError>;
    /// Rows with `from <= seq <= upto`, in seq order.
    fn rows(&mut self, from: u64, upto: u64, visit: Visit<'_>) -> Result<(), StoreError>;
    /// The rows of [`LogRead::rows`] whose payload holds `needle` (lowercase ASCII) in any case: a
    /// filter's first sieve, so that rows which cannot match are never decoded. A backend that can
    /// sieve in its query does; this one reads every row.
    fn rows_mentioning(
        &mut self,
        from: u64,
        upto: u64,
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
    /// The payloads of rows with `from <= seq <= upto`, in seq order (for replay).
    fn payloads(&mut self, from: u64, upto: u64, visit: VisitPayload<'_>)
    -> Result<(), StoreError>;
    /// Rows of one kind with `after < seq <= upto`, in seq order (backends index rows by kind).
    fn rows_of_kind(
        &mut self,
        kind: &str,
        after: u64,
        upto: u64,
        visit: Visit<'_>,
    ) -> Result<(), StoreError>;
    /// The newest row before `before` whose kind is one of `kinds`.
    fn last_of_kinds(
        &mut self,
        kinds: &[&str],
        before: u64,
    ) -> Result<Option<StoredRow>, StoreError>;
    fn row(&mut self, seq: u64) -> Result<Option<StoredRow>, StoreError>;
    /// The newest event recorded while the clock stood before `game_time` (seconds).
    fn last_before_time(&mut self, game_time: u64) -> Result<Option<u64>, StoreError>;
    fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError>;
    /// The values of one kind of secret whose keys start with `prefix`.
    fn secrets_with_prefix(&mut self, kind: &str, prefix: &str) -> Result<Vec<String>, StoreError>;
    /// Every secret as (kind, key, value), ordered by kind and key.
    fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError>;
    /// Up to `limit` snapshots at or before `upto`, newest first.
    fn snapshots(&mut self, upto: u64, limit: u64) -> Result<Vec<SnapshotInfo>, StoreError>;
    fn snapshot(&mut self, seq: u64) -> Result<Option<String>, StoreError>;
}

/// A write transaction: reads see its own inserts; nothing is kept unless [`LogWrite::commit`] runs.
pub trait LogWrite: LogRead {
    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError>;
    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError>;
    /// Stores (or replaces) the snapshot at `seq`.
    fn put_snapshot(
        &mut self,
        seq: u64,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError>;
    /// The seqs of every stored snapshot, oldest first.
    fn snapshot_seqs(&mut self) -> Result<Vec<u64>, StoreError>;
    fn delete_snapshots(&mut self, seqs: &[u64]) -> Result<(), StoreError>;
    /// Drops every snapshot; returns how many there were.
    fn clear_snapshots(&mut self) -> Result<u64, StoreError>;
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
    /// Copies the whole campaign, as one consistent read sees it, into `into`: a new SQLite
    /// campaign being built. This copies rows, secrets and snapshots through the seam; SQLite
    /// copies its pages instead (its online backup API).
    fn back_up(&mut self, into: &mut SqliteBackend) -> Result<(), StoreError> {
        let mut from = self.read()?;
        let mut to = into.write()?;
        let copied = |e: InsertError| match e {
            InsertError::Duplicate => {
                StoreError::Internal("a backup's new file already held a copied key".into())
            }
            InsertError::Failed(e) => e,
        };
        from.rows(1, u64::MAX, &mut |row| {
            to.insert_row(&row).map_err(copied)?;
            Ok(ControlFlow::Continue(()))
        })?;
        for (kind, key, value) in from.secrets()? {
            to.insert_secret(&kind, &key, &value).map_err(copied)?;
        }
        for snapshot in from.snapshots(u64::MAX, u64::MAX)? {
            if let Some(state) = from.snapshot(snapshot.seq)? {
                to.put_snapshot(snapshot.seq, &snapshot.format, &snapshot.head_hash, &state)?;
            }
        }
        to.commit()
    }
    /// Makes a campaign built by `create_new` visible under its name, whole. Fails with
    /// [`StoreError::Exists`] when another command created it meanwhile.
    /// Dropped unpublished, such a campaign removes itself.
    fn publish(self: Box<Self>) -> Result<Box<dyn Backend>, StoreError>;
}
