//! Storage: the campaign log with its hash chain and the GM's secrets, over a backend.
//!
//! [`Store`] (in `log`) does everything once for every backend: chaining appended rows (`chain`),
//! replay from snapshots, the snapshot policy (`replay`) and import, holding each imported row to
//! the checks its caller gives. What a true record holds is checked above it, in the verify
//! module. A backend ([`backend`]'s traits) only keeps rows, secrets and snapshot texts: `sqlite`
//! (one file per campaign, the default), `postgres` (many campaigns in one database) and `memory`
//! (for tests).

mod append;
pub mod backend;
mod backup;
pub use backup::Restored;
pub mod chain;
mod decode_ahead;
mod files;
mod import;
pub mod jsonl;
mod location;
mod log;
mod memory;
mod migrations;
pub mod output;
mod point;
mod postgres;
mod reading;
mod replay;
mod sqlite;

pub use append::{Appender, EPOCH_SEED, SEALED_SEED, WriteView};
pub use append::{Batch, Stamp};
#[cfg(feature = "testkit")]
pub mod testkit;
pub use chain::{Checkpoint, StoredRow};
pub(crate) use files::follow_links;
pub use files::{io_error, remove_database_files};
pub use import::RowCheck;
pub use location::{Location, PgLocation};
pub use log::{NewCampaign, Store, Written};
pub use memory::MemoryLog;
pub use point::Point;
pub use replay::SpanEvent;
pub use replay::{SNAPSHOT_EVERY, STATE_FORMAT};
pub(crate) use replay::{parse_snapshot, readable_revisions, snapshot_is_trusted};

use crate::event::PayloadError;
use crate::seq::Seq;
use std::path::PathBuf;
use thiserror::Error;

/// Why the store could not do what was asked. Messages never show SQLite's own text: a person at
/// the table gets what happened, and a front end adds what to do in its own terms
/// (`cli/hints.rs`).
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("there is no campaign file at {0}")]
    Missing(PathBuf),
    #[error("stopped by a signal before it was whole; nothing was written")]
    Stopped,
    #[error("{0} is not a grimoire campaign file")]
    NotGrimoire(PathBuf),
    #[error(
        "{place} was written by a newer grimoire (schema version {found}; this one knows up to {known}); upgrade grimoire to open it"
    )]
    Newer {
        place: String,
        found: i64,
        known: i64,
    },
    #[error(
        "{0} is an empty file, not a campaign file; delete it or choose another path, and grimoire will create the campaign there"
    )]
    EmptyFile(PathBuf),
    #[error("{0} now exists: another command created it first, so nothing was recorded here")]
    Exists(String),
    #[error("{0} already holds events; import into a new file (or an empty one)")]
    NotEmpty(String),
    #[error(
        "{0} is damaged (part of the file cannot be read); nothing was recorded. Restore it from a backup or an earlier export"
    )]
    Corrupt(PathBuf),
    #[error(
        "{place} does not pass verification ({problem}), so the session was not ended: no checkpoint may vouch for it"
    )]
    FailsVerification { place: String, problem: String },
    #[error("the log is damaged at #{seq}: {reason}")]
    Damaged { seq: Seq, reason: PayloadError },
    #[error(
        "the log is damaged at #{seq}: {what} (the file was edited or damaged outside grimoire); restore it from a backup or an export"
    )]
    DamagedRow { seq: Seq, what: String },
    #[error(
        "the snapshot of the campaign at #{seq} holds a part that does not read as grimoire keeps it (it was edited outside grimoire); nothing was recorded. Run `grimoire snapshots rebuild` to make the snapshots again from the log"
    )]
    DamagedSnapshot { seq: Seq },
    #[error(
        "the stored secret {kind} {key} is damaged: {why} (the file was edited or damaged outside grimoire); restore it from a backup or an export that carries secrets"
    )]
    DamagedSecret {
        kind: String,
        key: String,
        /// What is wrong with it, in the table's words.
        why: &'static str,
    },
    #[error(
        "another grimoire command kept the campaign file busy for too long; nothing was recorded, try again"
    )]
    Busy,
    #[error("{path} could not be {action}: {why}; nothing was recorded")]
    Io {
        path: PathBuf,
        action: &'static str,
        why: String,
    },
    #[error("{path} was left as it was: {why}")]
    Refused { path: PathBuf, why: String },
    #[error("import refused at line {line}: {why}; nothing was imported")]
    Import { line: u64, why: String },
    #[error(
        "the file to import holds no events, so nothing was imported; give the file `grimoire export` wrote"
    )]
    NothingToImport,
    #[error("there is no campaign \"{name}\" on {server}")]
    NoCampaign { name: String, server: String },
    #[error(
        "there is no campaign \"{name}\" on {server}, but there is \"{existing}\", whose name looks the same at the table; use ?campaign= with that name exactly, or give a new campaign a name that differs in more than case or look-alike letters"
    )]
    LookAlikeCampaign {
        name: String,
        existing: String,
        server: String,
    },
    #[error("{0}")]
    NoSuchPoint(String),
    #[error(
        "{0} is being created by another command (an init or an import) and is not whole yet; nothing was recorded. Try again once it finishes"
    )]
    BeingCreated(String),
    #[error("{place} could not be used: {why}; nothing was recorded")]
    Server { place: String, why: String },
    /// The database role may not read or write this (a players' role reading the secrets).
    #[error(
        "{place} could not be used: the database role may not do this (permission denied); a players' role reads the log but not the secrets (README, \"PostgreSQL\"); nothing was recorded"
    )]
    NotPermitted { place: String },
    /// A bug in grimoire; nothing was written.
    #[error("internal error: {0}; nothing was recorded (please report this)")]
    Internal(String),
}
