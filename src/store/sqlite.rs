//! The campaign file: one SQLite database per campaign.
//!
//! Every write is `BEGIN IMMEDIATE` → replay → decide → insert → commit, so writers queue up behind
//! SQLite's write lock (with a generous busy timeout) and each decides on the state the previous one
//! left. WAL lets readers go on while a writer works; `synchronous=FULL` makes a commit survive power loss.

use super::StoreError;
use super::chain::{Checkpoint, GENESIS_HASH, Problem, Reveals, StoredRow, Verifier, VerifyReport};
use super::jsonl::{self, ChainCheck, Line};
use super::migrations;
use crate::Error;
use crate::dice::SealedSecret;
use crate::event::{Event, Recorded, SCHEMA_VERSION};
use crate::state::{CampaignState, Replay};
use crate::time::GameTime;
use rand::Rng;
use rand::rngs::StdRng;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, VecDeque};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The format of snapshot state this build writes and trusts; any other's are ignored. Bump the
/// number whenever what `apply` computes changes, so no snapshot from older rules is ever reused.
pub const STATE_FORMAT: &str = concat!("grimoire-state-4/", env!("CARGO_PKG_VERSION"));

/// A write takes a snapshot once this many events have passed since the last one, so replay reads
/// at most this many past it. Chosen by measurement (README, "Performance"): at a million events a
/// tail event costs ~10 µs to replay and a snapshot ~1.5 ms to take, which balance near 20.
pub const SNAPSHOT_EVERY: u64 = 25;

/// `PRAGMA application_id` of a grimoire file: "GRIM" in ASCII. It tells our files from other SQLite
/// databases before anything is read or migrated.
const APPLICATION_ID: i32 = 0x4752_494D;

/// `PRAGMA user_version` of a file `grimoire tour` made ("TOUR" in ASCII). Only `tour` writes it,
/// and `tour` replaces no file without it.
const TOUR_MARK: i32 = 0x544F_5552;

/// How long a command waits for another one's write to finish before giving up. Long, because at the
/// table a short wait is far better than a failed command.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

const ROW_COLUMNS: &str = "seq, event_id, kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash";

/// Who and when, stamped on every event a write appends.
pub struct Stamp {
    pub recorded_at: String,
    pub actor: String,
    /// Source of the events' unique ids.
    pub id_rng: StdRng,
}

/// What a decision produces: events to append, plus secrets to keep beside the log.
#[derive(Debug, Default)]
pub struct Batch {
    pub events: Vec<Event>,
    /// Sealed dice drawn by the command; they belong to its first event.
    pub sealed: Vec<SealedSecret>,
    /// Epoch seeds to keep (a new epoch's seed).
    pub seeds: Vec<(u32, [u8; 32])>,
}

/// What a write appended, and the state just after it.
#[derive(Debug)]
pub struct Written {
    pub events: Vec<Recorded>,
    pub state: CampaignState,
}

/// Appends decided batches inside one write transaction, keeping the replayed state up to date.
pub struct Appender<'c> {
    tx: rusqlite::Transaction<'c>,
    path: PathBuf,
    running: Running,
    prev_hash: String,
    stamp: Stamp,
    snapshot_every: u64,
}

impl Appender<'_> {
    pub fn state(&self) -> &CampaignState {
        &self.running.state
    }

    pub fn secrets(&self) -> SecretsView<'_> {
        SecretsView {
            conn: &self.tx,
            path: &self.path,
        }
    }

    /// Chains and inserts the batch's events, keeps its secrets, and takes a snapshot once the
    /// snapshot interval has passed since the last one.
    pub fn append(&mut self, batch: Batch) -> Result<Vec<Recorded>, Error> {
        let path = self.path.clone();
        let fail = |e| db_error(&path, "written", e);
        let first_seq = self.running.state.head + 1;
        let mut appended = Vec::with_capacity(batch.events.len());
        for event in batch.events {
            let seq = self.running.state.head + 1;
            let (game_time, session) = self.running.state.stamp_for(&event);
            let payload = event.to_payload();
            // Never append what could not be read back: a shape bug must fail loudly, not corrupt the log.
            if Event::from_stored(event.kind(), SCHEMA_VERSION, &payload).as_ref() != Ok(&event) {
                return Err(Error::Internal(format!(
                    "a '{}' event does not read back as written",
                    event.kind()
                )));
            }
            // What an import would refuse is never recorded: every event must restore from a backup.
            crate::rules::text::check_row(&self.stamp.actor, &payload).map_err(|why| {
                crate::rules::RuleError::Unrecordable {
                    kind: event.kind(),
                    why,
                }
            })?;
            let mut row = StoredRow {
                seq,
                event_id: new_event_id(&mut self.stamp.id_rng, seq),
                kind: event.kind().to_string(),
                schema_version: SCHEMA_VERSION,
                payload,
                game_time: game_time.seconds(),
                recorded_at: self.stamp.recorded_at.clone(),
                session,
                actor: self.stamp.actor.clone(),
                prev_hash: std::mem::take(&mut self.prev_hash),
                hash: String::new(),
            };
            row.hash = row.compute_hash();
            insert_row(&self.tx, &row).map_err(fail)?;
            self.running.feed(&self.tx, &path, seq, &event)?;
            self.prev_hash = row.hash.clone();
            appended.push(recorded(row, event));
        }
        for secret in &batch.sealed {
            let value = serde_json::to_string(secret)
                .map_err(|e| Error::Internal(format!("a sealed die could not be encoded ({e})")))?;
            insert_secret(
                &self.tx,
                "sealed_die",
                &format!("{first_seq}:{}", secret.n),
                &value,
            )
            .map_err(fail)?;
        }
        for (epoch, seed) in &batch.seeds {
            insert_secret(
                &self.tx,
                "epoch_seed",
                &epoch.to_string(),
                &hex::encode(seed),
            )
            .map_err(fail)?;
        }
        self.running
            .snapshot_if_due(&self.tx, self.snapshot_every, &self.prev_hash)
            .map_err(fail)?;
        Ok(appended)
    }
}

/// The state replayed alongside a write transaction, and the snapshot it rests on.
struct Running {
    state: CampaignState,
    /// The seq of the snapshot the state was loaded from or last saved as (0: none).
    snapshot_at: u64,
}

impl Running {
    fn load(conn: &Connection, path: &Path) -> Result<Running, StoreError> {
        let (state, snapshot_at) = replay_from(conn, path, None, true)?;
        Ok(Running { state, snapshot_at })
    }

    /// Folds in an event just inserted. A retraction reaches back into events already folded in,
    /// and events cannot be unapplied, so the state is replayed again from the log, which now
    /// holds the retraction (folding it in directly once let a snapshot keep the retracted event).
    fn feed(
        &mut self,
        conn: &Connection,
        path: &Path,
        seq: u64,
        event: &Event,
    ) -> Result<(), StoreError> {
        if matches!(event, Event::Retracted { .. }) {
            *self = Running::load(conn, path)?;
        } else {
            self.state.apply(seq, event);
        }
        Ok(())
    }

    /// Saves a snapshot once `every` events have passed since the one the state rests on.
    fn snapshot_if_due(
        &mut self,
        conn: &Connection,
        every: u64,
        head_hash: &str,
    ) -> rusqlite::Result<()> {
        if self.state.head >= self.snapshot_at.saturating_add(every) {
            save_snapshot(conn, &self.state, head_hash)?;
            self.snapshot_at = self.state.head;
        }
        Ok(())
    }
}

/// Read access to the GM's secrets during a write.
pub struct SecretsView<'c> {
    conn: &'c Connection,
    path: &'c Path,
}

impl SecretsView<'_> {
    pub fn seed(&self, epoch: u32) -> Result<Option<[u8; 32]>, StoreError> {
        let text: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM secrets WHERE kind = 'epoch_seed' AND key = ?1",
                [epoch.to_string()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_error(self.path, "read", e))?;
        Ok(text.and_then(|t| crate::dice::fairness::parse_seed(&t)))
    }

    pub fn sealed(&self, seq: u64) -> Result<Vec<SealedSecret>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT value FROM secrets WHERE kind = 'sealed_die' AND key LIKE ?1")
            .map_err(|e| db_error(self.path, "read", e))?;
        let rows = stmt
            .query_map([format!("{seq}:%")], |r| r.get::<_, String>(0))
            .map_err(|e| db_error(self.path, "read", e))?;
        let mut secrets = Vec::new();
        for row in rows {
            let text = row.map_err(|e| db_error(self.path, "read", e))?;
            if let Ok(secret) = serde_json::from_str(&text) {
                secrets.push(secret);
            }
        }
        Ok(secrets)
    }
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
    snapshot_every: u64,
}

/// Maps SQLite failures to messages a person can act on; SQLite's own text never reaches the user.
pub(crate) fn db_error(path: &Path, action: &'static str, error: rusqlite::Error) -> StoreError {
    db_failure(path, action, error.sqlite_error_code())
}

fn db_failure(path: &Path, action: &'static str, code: Option<ErrorCode>) -> StoreError {
    let io = |why: &str| StoreError::Io {
        path: path.to_path_buf(),
        action,
        why: why.to_string(),
    };
    match code {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy,
        Some(ErrorCode::NotADatabase) => StoreError::NotGrimoire(path.to_path_buf()),
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt(path.to_path_buf()),
        Some(ErrorCode::DiskFull) => io(
            "the disk is full (or the file reached its size limit); free some space and try again",
        ),
        Some(ErrorCode::ReadOnly) => io(&why_it_cannot_be_opened(path)),
        Some(ErrorCode::PermissionDenied) => io("permission denied"),
        Some(ErrorCode::CannotOpen) => io(&why_it_cannot_be_opened(path)),
        Some(ErrorCode::SystemIoFailure) => io(
            "the operating system could not read or write it: the disk may be full, the file over a size limit, or the device failing; free some space or check the disk, then try again",
        ),
        Some(_) | None => io(
            "SQLite could not complete the work; check the disk and the file, then try again (`grimoire verify` checks the file)",
        ),
    }
}

/// Why SQLite could not open `path`, found by asking the file system what it would refuse.
fn why_it_cannot_be_opened(path: &Path) -> String {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        return format!("its folder {} does not exist", folder.display());
    }
    if path.exists()
        && let Err(e) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
        && e.kind() == std::io::ErrorKind::PermissionDenied
    {
        return "you may not read and write it (check who owns it and its permissions)".into();
    }
    if let Err(e) = tempfile::tempfile_in(&folder)
        && e.kind() == std::io::ErrorKind::PermissionDenied
    {
        return format!(
            "its folder {} is not writable by you, and SQLite keeps its journal beside the file; run grimoire as the folder's owner or move the file",
            folder.display()
        );
    }
    "it cannot be opened for writing; check that the path names a campaign file you may read and write, on a disk that is not read-only".into()
}

/// Puts the file in WAL mode (it stays so). A file still in rollback mode, say a copy made by another
/// tool, needs an exclusive lock to switch, and SQLite refuses the switch at once rather than call the
/// busy handler while other commands read it (waiting there could deadlock two switchers). So the
/// switch is retried here until the busy timeout, as any other write would wait.
fn switch_to_wal(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
        if mode.eq_ignore_ascii_case("wal") {
            return Ok(());
        }
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(e)
                if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// `--db` names the campaign file itself; a folder is a likely slip, worth saying so plainly.
fn refuse_a_folder(path: &Path, action: &'static str) -> Result<(), StoreError> {
    if path.is_dir() {
        return Err(StoreError::Io {
            path: path.to_path_buf(),
            action,
            why: "it is a folder; give --db the campaign file's path, e.g. campaign/grimoire.db"
                .into(),
        });
    }
    Ok(())
}

impl Store {
    /// Opens an existing campaign file, migrating it to this build's schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        refuse_a_folder(path, "opened")?;
        if std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(false)
        {
            return Err(StoreError::EmptyFile(path.to_path_buf()));
        }
        Self::connect(path, OpenFlags::SQLITE_OPEN_READ_WRITE)
    }

    /// Starts a new campaign file at `path`, which must not exist yet. The file is built under a
    /// private name beside it (mode 0600: a campaign file holds the GM's secrets) and appears at
    /// `path` only when [`NewFile::publish`] links it there, whole: a crash or a refused command
    /// leaves nothing at `path`, and of several commands creating the same path at once exactly one
    /// wins.
    pub fn create_new(path: &Path) -> Result<NewFile, StoreError> {
        refuse_a_folder(path, "created")?;
        if path.symlink_metadata().is_ok() {
            return Err(StoreError::Exists(path.to_path_buf()));
        }
        let building = private_name(path, "creating");
        let made = (|| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&building)
                .map_err(|e| io_error(path, "created", &e))?;
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE;
            let conn = Connection::open_with_flags(&building, flags)
                .map_err(|e| db_error(path, "created", e))?;
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(|e| db_error(path, "created", e))?;
            drop(conn);
            Self::connect(&building, OpenFlags::SQLITE_OPEN_READ_WRITE)
        })();
        match made {
            Ok(store) => Ok(NewFile {
                store: Some(store),
                building,
                target: path.to_path_buf(),
            }),
            Err(e) => {
                remove_database_files(&building);
                Err(e)
            }
        }
    }

    /// Marks this file as the tour's, so a later `tour` may replace it and nothing else.
    pub fn mark_as_tour(&self) -> Result<(), StoreError> {
        self.conn
            .pragma_update(None, "user_version", TOUR_MARK)
            .map_err(self.fail("written"))
    }

    /// Whether `tour` wrote this file.
    pub fn is_tour(&self) -> Result<bool, StoreError> {
        let mark: i32 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(self.fail("read"))?;
        Ok(mark == TOUR_MARK)
    }

    fn connect(path: &Path, flags: OpenFlags) -> Result<Store, StoreError> {
        let fail = |e| db_error(path, "opened", e);
        let mut conn = Connection::open_with_flags(path, flags).map_err(fail)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        let id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(fail)?;
        if id != APPLICATION_ID {
            return Err(StoreError::NotGrimoire(path.to_path_buf()));
        }
        let (applied, known) = (
            migrations::applied_version(&conn).map_err(fail)?,
            migrations::latest_version(),
        );
        if applied > known {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                found: applied,
                known,
            });
        }
        switch_to_wal(&conn).map_err(fail)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(fail)?;
        if applied < known
            && let Err(error) = migrations::run(&mut conn)
            // Another grimoire may have migrated the file first; then there is nothing left to do.
            && migrations::applied_version(&conn).map_err(fail)? < known
        {
            return Err(match migrations::sqlite_cause(&error) {
                Some(cause) => db_failure(path, "upgraded", cause.sqlite_error_code()),
                None => StoreError::Io {
                    path: path.to_path_buf(),
                    action: "upgraded",
                    why: "its schema could not be migrated".into(),
                },
            });
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            snapshot_every: SNAPSHOT_EVERY,
        })
    }

    /// Takes snapshots every `events` instead of [`SNAPSHOT_EVERY`] (tests and the benchmark).
    pub fn with_snapshot_interval(mut self, events: u64) -> Store {
        self.snapshot_every = events.max(1);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fail(&self, action: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| db_error(&self.path, action, e)
    }

    /// The last row's checkpoint, or `None` for an empty log.
    pub fn head(&self) -> Result<Option<Checkpoint>, StoreError> {
        Ok(last_row(&self.conn)
            .map_err(self.fail("read"))?
            .map(|(seq, hash)| Checkpoint::of(seq, &hash)))
    }

    /// The state after replaying the log up to `upto` (all of it when `None`).
    pub fn replay(&self, upto: Option<u64>) -> Result<CampaignState, StoreError> {
        Ok(replay_from(&self.conn, &self.path, upto, true)?.0)
    }

    /// A full replay from the first event, ignoring snapshots (for checks and the benchmark).
    pub fn replay_without_snapshots(&self, upto: Option<u64>) -> Result<CampaignState, StoreError> {
        Ok(replay_from(&self.conn, &self.path, upto, false)?.0)
    }

    /// Drops every snapshot and takes new ones along one full replay: the ones kept for the far
    /// past and one at the head.
    pub fn rebuild_snapshots(&mut self) -> Result<u64, StoreError> {
        let path = self.path.clone();
        let fail = |e| db_error(&path, "written", e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        tx.execute("DELETE FROM snapshots", []).map_err(fail)?;
        let taken = take_snapshots(&tx, &path)?;
        tx.commit().map_err(fail)?;
        Ok(taken)
    }

    /// Drops every snapshot; answers stay the same, only slower.
    pub fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        let removed = self
            .conn
            .execute("DELETE FROM snapshots", [])
            .map_err(self.fail("written"))?;
        Ok(removed as u64)
    }

    /// Calls `visit` with every event in seq order from `from` up to `upto`, streaming.
    pub fn for_each_event(
        &self,
        from: u64,
        upto: Option<u64>,
        mut visit: impl FnMut(Recorded) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.for_each_row(from, upto, |row| visit(to_recorded(row)?))
    }

    /// Calls `visit` with every stored row in seq order, unparsed, streaming.
    pub fn for_each_row(
        &self,
        from: u64,
        upto: Option<u64>,
        mut visit: impl FnMut(StoredRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let sql =
            format!("SELECT {ROW_COLUMNS} FROM events WHERE seq >= ?1 AND seq <= ?2 ORDER BY seq");
        let mut stmt = self.conn.prepare(&sql).map_err(self.fail("read"))?;
        let mut rows = stmt
            .query(params![
                to_sql_seq(from),
                to_sql_seq(upto.unwrap_or(u64::MAX))
            ])
            .map_err(self.fail("read"))?;
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            visit(read_row(row).map_err(self.fail("read"))??)?;
        }
        Ok(())
    }

    pub fn event(&self, seq: u64) -> Result<Option<Recorded>, StoreError> {
        let sql = format!("SELECT {ROW_COLUMNS} FROM events WHERE seq = ?1");
        let row = self
            .conn
            .query_row(&sql, [to_sql_seq(seq)], read_row)
            .optional()
            .map_err(self.fail("read"))?;
        row.transpose()?.map(to_recorded).transpose()
    }

    /// One write: lock, replay, let `decide` choose the events, append them chained, keep the secrets.
    /// If anything fails nothing is written.
    pub fn write<F>(&mut self, stamp: Stamp, decide: F) -> Result<Written, Error>
    where
        F: FnOnce(&CampaignState, &SecretsView<'_>) -> Result<Batch, Error>,
    {
        let every = self.snapshot_every;
        let (events, state) = self.transact(stamp, every, |appender| {
            let batch = decide(appender.state(), &appender.secrets())?;
            appender.append(batch)
        })?;
        Ok(Written { events, state })
    }

    /// Many decisions in one transaction (the campaign generator): `work` decides on the running state
    /// and appends batch after batch; nothing is written unless it returns Ok. Snapshots are taken
    /// every [`BULK_SNAPSHOT_EVERY`] events along the way (pruned as usual) and once at the end, so
    /// the next command starts from the head.
    pub fn bulk<T, F>(&mut self, stamp: Stamp, work: F) -> Result<(T, CampaignState), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>,
    {
        self.transact(stamp, BULK_SNAPSHOT_EVERY, |appender| {
            let result = work(appender)?;
            let (tx, hash) = (&appender.tx, &appender.prev_hash);
            appender
                .running
                .snapshot_if_due(tx, 1, hash)
                .map_err(|e| db_error(&appender.path, "written", e))?;
            Ok(result)
        })
    }

    /// One write transaction with an [`Appender`] taking snapshots every `snapshot_every` events.
    fn transact<T, F>(
        &mut self,
        stamp: Stamp,
        snapshot_every: u64,
        work: F,
    ) -> Result<(T, CampaignState), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>,
    {
        let path = self.path.clone();
        let fail = |e| db_error(&path, "written", e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let running = Running::load(&tx, &path)?;
        let prev_hash = last_row(&tx)
            .map_err(fail)?
            .map_or_else(|| GENESIS_HASH.to_string(), |(_, hash)| hash);
        let mut appender = Appender {
            tx,
            path: path.clone(),
            running,
            prev_hash,
            stamp,
            snapshot_every,
        };
        let result = work(&mut appender)?;
        let Appender { tx, running, .. } = appender;
        tx.commit().map_err(fail)?;
        Ok((result, running.state))
    }

    /// Checks the whole log (see [`crate::store::chain`]). Streams the log twice: once for the reveals,
    /// which come after the dice they open, then once through every check.
    pub fn verify(&self, checkpoint: Option<Checkpoint>) -> Result<VerifyReport, StoreError> {
        // SQLite's own check first: damage in pages the log's queries never touch would go unseen.
        let file_problems = self.problems_reported_by("integrity_check")?;
        let mut reveals = Reveals::default();
        let sql = "SELECT kind, schema_version, payload FROM events WHERE kind IN ('seed_revealed', 'sealed_revealed') ORDER BY seq";
        let mut stmt = self.conn.prepare(sql).map_err(self.fail("read"))?;
        let mut rows = stmt.query([]).map_err(self.fail("read"))?;
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            let (kind, version, payload): (String, u32, String) = (
                row.get(0).map_err(self.fail("read"))?,
                row.get(1).map_err(self.fail("read"))?,
                row.get(2).map_err(self.fail("read"))?,
            );
            // An unreadable reveal is reported by the main pass, which reads every row.
            if let Ok(event) = Event::from_stored(&kind, version, &payload) {
                reveals.note(&event);
            }
        }
        let mut verifier = Verifier::new(reveals, checkpoint);
        // Commands trust snapshots without replaying what they summarise, so a snapshot edited in
        // the file would show a false sheet while the chain stays whole: replay the log alongside
        // and compare each snapshot a command could start from.
        let retractions = retractions(&self.conn, &self.path, 0, i64::MAX)?;
        let mut to_compare: VecDeque<u64> = self.trusted_snapshot_seqs(&retractions)?.into();
        let mut replay = Replay::new(retractions.iter().map(|&(_, target)| target).collect());
        let (mut snapshots_checked, mut snapshot_problems) = (0, Vec::new());
        self.for_each_row(0, None, |row| {
            let event = verifier.feed(&row);
            let Some(&next) = to_compare.front() else {
                return Ok(());
            };
            match event {
                Some(event) => replay.feed(row.seq, &event),
                // Past an unreadable event the replay means nothing; the row is reported above.
                None => to_compare.clear(),
            }
            if row.seq == next {
                to_compare.pop_front();
                if let Some(text) = self.snapshot_text(next)? {
                    snapshots_checked += 1;
                    let fault = match parse_snapshot(next, &text) {
                        // Commands skip it, but only damage to the file makes a snapshot unreadable.
                        None => Some("cannot be read (the file is damaged there)"),
                        Some(stored) if &stored != replay.state() => Some(
                            "does not match a replay of the log (it was edited outside grimoire)",
                        ),
                        Some(_) => None,
                    };
                    if let Some(fault) = fault {
                        snapshot_problems.push(Problem {
                            seq: next,
                            what: format!(
                                "the snapshot at #{next} {fault}; `grimoire snapshots rebuild` replaces it"
                            ),
                        });
                    }
                }
            }
            Ok(())
        })?;
        Ok(VerifyReport {
            file_problems,
            snapshots_checked,
            snapshot_problems,
            ..verifier.finish()
        })
    }

    /// The seqs of the snapshots a command could start from, oldest first.
    fn trusted_snapshot_seqs(&self, retractions: &[Retraction]) -> Result<Vec<u64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT s.seq, s.code_version, s.head_hash, e.hash FROM snapshots s \
                 LEFT JOIN events e ON e.seq = s.seq ORDER BY s.seq",
            )
            .map_err(self.fail("read"))?;
        let mut rows = stmt.query([]).map_err(self.fail("read"))?;
        let mut seqs = Vec::new();
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            let seq: u64 = row.get(0).map_err(self.fail("read"))?;
            let code_version: String = row.get(1).map_err(self.fail("read"))?;
            let head_hash: String = row.get(2).map_err(self.fail("read"))?;
            let event_hash: Option<String> = row.get(3).map_err(self.fail("read"))?;
            if snapshot_is_trusted(
                seq,
                &code_version,
                &head_hash,
                event_hash.as_deref(),
                retractions,
            ) {
                seqs.push(seq);
            }
        }
        Ok(seqs)
    }

    /// The text of the snapshot at `seq`, if there is one.
    fn snapshot_text(&self, seq: u64) -> Result<Option<String>, StoreError> {
        snapshot_text(&self.conn, seq).map_err(self.fail("read"))
    }

    /// Reads every page of the file and fails if its structure is damaged. Commands notice damage
    /// only in the pages they read, and a snapshot spares them most of the file, so `session start`
    /// runs this (SQLite's quick check: linear in the file, about 0.7 s at a million events) to
    /// catch damage before an evening is played onto it.
    pub fn check_every_page(&self) -> Result<(), StoreError> {
        if self.problems_reported_by("quick_check")? > 0 {
            return Err(StoreError::Corrupt(self.path.clone()));
        }
        Ok(())
    }

    /// How many problems one of SQLite's checks (`integrity_check`, `quick_check`) reports. Its
    /// text is SQLite's, so only the count reaches the user.
    fn problems_reported_by(&self, check: &str) -> Result<u64, StoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!("PRAGMA {check}"))
            .map_err(self.fail("checked"))?;
        let mut rows = stmt.query([]).map_err(self.fail("checked"))?;
        let mut problems = 0;
        while let Some(row) = rows.next().map_err(self.fail("checked"))? {
            let line: String = row.get(0).map_err(self.fail("checked"))?;
            if line != "ok" {
                problems += 1;
            }
        }
        Ok(problems)
    }

    /// The players' entropy in force for dice of event `seq`: that of the session open at the time
    /// (empty outside a session).
    pub fn entropy_before(&self, seq: u64) -> Result<String, StoreError> {
        let sql = "SELECT seq, kind, schema_version, payload FROM events \
                   WHERE kind IN ('session_started', 'session_ended') AND seq < ?1 ORDER BY seq DESC LIMIT 1";
        let last = self
            .conn
            .query_row(sql, [to_sql_seq(seq)], |r| {
                Ok((
                    r.get::<_, u64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .optional();
        let Some((at, kind, version, payload)) = last.map_err(self.fail("read"))? else {
            return Ok(String::new());
        };
        match Event::from_stored(&kind, version, &payload)
            .map_err(|reason| StoreError::Damaged { seq: at, reason })?
        {
            Event::SessionStarted { entropy, .. } => Ok(entropy),
            _ => Ok(String::new()),
        }
    }

    /// The seed published for `epoch`, if it has been revealed.
    pub fn revealed_seed(&self, epoch: u32) -> Result<Option<String>, StoreError> {
        self.first_of_kind("seed_revealed", |event| match event {
            Event::SeedRevealed {
                epoch: revealed,
                seed,
            } if revealed == epoch => Some(seed),
            _ => None,
        })
    }

    /// The reveal of the sealed dice of event `seq`, if it has been made.
    pub fn revealed_sealed(
        &self,
        seq: u64,
    ) -> Result<Option<Vec<crate::event::RevealedDie>>, StoreError> {
        self.first_of_kind("sealed_revealed", |event| match event {
            Event::SealedRevealed { seq: opened, dice } if opened == seq => Some(dice),
            _ => None,
        })
    }

    /// The first event of `kind` (by the kind index, in seq order) that `pick` takes.
    fn first_of_kind<T>(
        &self,
        kind: &str,
        pick: impl Fn(Event) -> Option<T>,
    ) -> Result<Option<T>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, schema_version, payload FROM events WHERE kind = ?1 ORDER BY seq")
            .map_err(self.fail("read"))?;
        let mut rows = stmt.query([kind]).map_err(self.fail("read"))?;
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            let seq: u64 = row.get(0).map_err(self.fail("read"))?;
            let payload: String = row.get(2).map_err(self.fail("read"))?;
            let event = Event::from_stored(kind, row.get(1).map_err(self.fail("read"))?, &payload)
                .map_err(|reason| StoreError::Damaged { seq, reason })?;
            if let Some(found) = pick(event) {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// Every secret, as (kind, key, value), for a full backup.
    pub fn secrets(&self) -> Result<Vec<(String, String, String)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT kind, key, value FROM secrets ORDER BY kind, key")
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    /// Imports an export into this empty log, all or nothing: rows are checked (see
    /// [`ChainCheck`]) and inserted in one transaction as they stream in. `lines` yields each
    /// non-blank line with its 1-based line number, or the reason a line could not be read.
    pub fn import(
        &mut self,
        lines: impl IntoIterator<Item = (u64, Result<String, String>)>,
    ) -> Result<(u64, u64), StoreError> {
        let path = self.path.clone();
        let fail = |e| db_error(&path, "written", e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        if last_row(&tx).map_err(fail)?.is_some() {
            return Err(StoreError::NotEmpty(path.clone()));
        }
        let mut chain = ChainCheck::default();
        // Replayed as it arrives, so the import leaves snapshots without reading the log again.
        let mut replay = ImportReplay::new();
        let mut head_hash = String::new();
        let mut secrets = 0;
        let mut last_line = 0;
        for (line, text) in lines {
            last_line = line;
            let refuse = |why: String| StoreError::Import { line, why };
            match jsonl::parse_line(&text.map_err(refuse)?).map_err(refuse)? {
                Line::Event(row) => {
                    let event = chain.check(&row).map_err(refuse)?;
                    insert_row(&tx, &row).map_err(|e| match e.sqlite_error_code() {
                        Some(ErrorCode::ConstraintViolation) => {
                            refuse(format!("#{} repeats an event id", row.seq))
                        }
                        _ => fail(e),
                    })?;
                    replay.feed(&tx, &path, row.seq, event)?;
                    // Kept for `--at` far in the past, as writes keep them.
                    if row.seq.is_multiple_of(SNAPSHOT_KEEP_EVERY) {
                        save_snapshot(&tx, replay.caught_up(), &row.hash).map_err(fail)?;
                    }
                    head_hash = row.hash;
                }
                Line::Secret { kind, key, value } => {
                    insert_secret(&tx, &kind, &key, &value).map_err(|e| {
                        match e.sqlite_error_code() {
                            Some(ErrorCode::ConstraintViolation) => {
                                refuse(format!("secret {kind} {key} appears twice"))
                            }
                            _ => fail(e),
                        }
                    })?;
                    secrets += 1;
                }
            }
        }
        if chain.events_seen() == 0 {
            return Err(StoreError::Import {
                line: last_line,
                why: "the file holds no events".into(),
            });
        }
        // Without one at the head every command after the import would replay the whole log.
        save_snapshot(&tx, replay.caught_up(), &head_hash).map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok((chain.events_seen(), secrets))
    }
}

/// SQLite integers are signed; seqs beyond i64 never occur, so clamp rather than wrap.
fn to_sql_seq(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// A random UUID, mixed with the seq so ids stay unique in a log even when tests pin the randomness
/// (every pinned process starts from the same random state).
fn new_event_id(rng: &mut StdRng, seq: u64) -> String {
    let random: [u8; 16] = rng.random();
    let digest = Sha256::new()
        .chain_update(random)
        .chain_update(seq.to_be_bytes())
        .finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .to_string()
}

fn last_row(conn: &Connection) -> rusqlite::Result<Option<(u64, String)>> {
    conn.query_row(
        "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Reads one stored row. The outer error is SQLite's; the inner one a row whose values this build
/// never writes (text that is not UTF-8, a negative time), edited into the file from outside.
fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<StoredRow, StoreError>> {
    use rusqlite::types::ValueRef;
    let raw_seq: i64 = row.get(0)?;
    let seq = u64::try_from(raw_seq).unwrap_or(0);
    let damaged = |what: String| Ok(Err(StoreError::DamagedRow { seq, what }));
    if raw_seq < 1 {
        return damaged(format!("its seq is {raw_seq}"));
    }
    let text = |i: usize| -> rusqlite::Result<Option<String>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Text(bytes) => String::from_utf8(bytes.to_vec()).ok(),
            _ => None,
        })
    };
    let number = |i: usize| -> rusqlite::Result<Option<u64>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Integer(n) => u64::try_from(n).ok(),
            _ => None,
        })
    };
    let columns = ROW_COLUMNS.split(", ").collect::<Vec<_>>();
    let bad_text = |i: usize| format!("its {} is not valid UTF-8 text", columns[i]);
    let bad_number = |i: usize| format!("its {} is not a number grimoire writes", columns[i]);
    macro_rules! text {
        ($i:expr) => {
            match text($i)? {
                Some(t) => t,
                None => return damaged(bad_text($i)),
            }
        };
    }
    macro_rules! number {
        ($i:expr) => {
            match number($i)? {
                Some(n) => n,
                None => return damaged(bad_number($i)),
            }
        };
    }
    let session = match row.get_ref(7)? {
        ValueRef::Null => None,
        ValueRef::Integer(n) => match u32::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => return damaged(bad_number(7)),
        },
        _ => return damaged(bad_number(7)),
    };
    let Ok(schema_version) = u32::try_from(number!(3)) else {
        return damaged(bad_number(3));
    };
    Ok(Ok(StoredRow {
        seq,
        event_id: text!(1),
        kind: text!(2),
        schema_version,
        payload: text!(4),
        game_time: number!(5),
        recorded_at: text!(6),
        session,
        actor: text!(8),
        prev_hash: text!(9),
        hash: text!(10),
    }))
}

fn insert_row(conn: &Connection, row: &StoredRow) -> rusqlite::Result<()> {
    let sql = format!(
        "INSERT INTO events ({ROW_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    );
    conn.prepare_cached(&sql)?.execute(params![
        to_sql_seq(row.seq),
        row.event_id,
        row.kind,
        row.schema_version,
        row.payload,
        to_sql_seq(row.game_time),
        row.recorded_at,
        row.session,
        row.actor,
        row.prev_hash,
        row.hash,
    ])?;
    Ok(())
}

fn insert_secret(conn: &Connection, kind: &str, key: &str, value: &str) -> rusqlite::Result<()> {
    conn.prepare_cached("INSERT INTO secrets (kind, key, value) VALUES (?1, ?2, ?3)")?
        .execute([kind, key, value])?;
    Ok(())
}

fn recorded(row: StoredRow, event: Event) -> Recorded {
    Recorded {
        seq: row.seq,
        event_id: row.event_id,
        schema_version: row.schema_version,
        game_time: GameTime(row.game_time),
        recorded_at: row.recorded_at,
        session: row.session,
        actor: row.actor,
        prev_hash: row.prev_hash,
        hash: row.hash,
        event,
    }
}

fn to_recorded(row: StoredRow) -> Result<Recorded, StoreError> {
    let event =
        Event::from_stored(&row.kind, row.schema_version, &row.payload).map_err(|reason| {
            StoreError::Damaged {
                seq: row.seq,
                reason,
            }
        })?;
    Ok(recorded(row, event))
}

/// A retraction in the log: (its seq, the seq it retracts).
type Retraction = (u64, u64);

/// The retractions recorded after `after` and up to `upto`. A replay resuming from a state at `after`
/// needs no earlier ones: they are folded into that state.
fn retractions(
    conn: &Connection,
    path: &Path,
    after: u64,
    upto: i64,
) -> Result<Vec<Retraction>, StoreError> {
    let fail = |e| db_error(path, "read", e);
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, schema_version, payload FROM events \
             WHERE kind = 'retracted' AND seq > ?1 AND seq <= ?2",
        )
        .map_err(fail)?;
    let mut rows = stmt.query([to_sql_seq(after), upto]).map_err(fail)?;
    let mut found = Vec::new();
    while let Some(row) = rows.next().map_err(fail)? {
        let seq: u64 = row.get(0).map_err(fail)?;
        let payload: String = row.get(2).map_err(fail)?;
        let event = Event::from_stored("retracted", row.get(1).map_err(fail)?, &payload)
            .map_err(|reason| StoreError::Damaged { seq, reason })?;
        if let Event::Retracted { seq: target, .. } = event {
            found.push((seq, target));
        }
    }
    Ok(found)
}

/// The newest snapshot at or before `upto` that can be trusted ([`snapshot_is_trusted`]) and read,
/// with the retractions a replay from it needs. Anything else is ignored, never trusted.
///
/// Only the retractions after a snapshot matter to it (earlier ones are folded in), so they are read
/// back from `upto` one candidate at a time, newest first: usually just the few since the newest
/// snapshot. Reading them all made every command slower as a campaign gathered retractions.
fn usable_snapshot(
    conn: &Connection,
    path: &Path,
    upto: i64,
) -> Result<Option<(CampaignState, Vec<Retraction>)>, StoreError> {
    let fail = |e| db_error(path, "read", e);
    let mut stmt = conn
        .prepare_cached(
            "SELECT s.seq, s.code_version, s.head_hash, e.hash FROM snapshots s \
             LEFT JOIN events e ON e.seq = s.seq WHERE s.seq <= ?1 ORDER BY s.seq DESC LIMIT 8",
        )
        .map_err(fail)?;
    let candidates = stmt
        .query_map([upto], |row| {
            Ok((
                row.get::<_, u64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, Option<String>>(3)?,
            ))
        })
        .map_err(fail)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    let mut after_candidate = Vec::new();
    let mut read_down_to = upto;
    for (seq, code_version, head_hash, event_hash) in &candidates {
        after_candidate.extend(retractions(conn, path, *seq, read_down_to)?);
        read_down_to = to_sql_seq(*seq);
        if !snapshot_is_trusted(
            *seq,
            code_version,
            head_hash,
            event_hash.as_deref(),
            &after_candidate,
        ) {
            continue;
        }
        let text = snapshot_text(conn, *seq).map_err(fail)?;
        if let Some(state) = text.and_then(|text| parse_snapshot(*seq, &text)) {
            return Ok(Some((state, after_candidate)));
        }
    }
    Ok(None)
}

/// The text of the snapshot at `seq`, if there is one.
fn snapshot_text(conn: &Connection, seq: u64) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT state FROM snapshots WHERE seq = ?1")?
        .query_row([to_sql_seq(seq)], |row| row.get(0))
        .optional()
}

/// Whether a snapshot may stand in for replaying the log up to `seq`: made by this state format, its
/// event still carrying the hash it had, and no later retraction reaching back before it.
fn snapshot_is_trusted(
    seq: u64,
    code_version: &str,
    head_hash: &str,
    event_hash: Option<&str>,
    retractions: &[Retraction],
) -> bool {
    let reaches_back = retractions
        .iter()
        .any(|&(at, target)| at > seq && target <= seq);
    code_version == STATE_FORMAT && event_hash == Some(head_hash) && !reaches_back
}

/// A snapshot's state, when it reads as one and claims the seq it is stored under.
fn parse_snapshot(seq: u64, text: &str) -> Option<CampaignState> {
    serde_json::from_str::<CampaignState>(text)
        .ok()
        .filter(|state| state.head == seq)
}

/// The state after the log up to `upto`: from the best usable snapshot (when allowed) plus the tail,
/// streamed, never holding the log in memory. Also returns the seq of the snapshot it started from
/// (0 for none).
fn replay_from(
    conn: &Connection,
    path: &Path,
    upto: Option<u64>,
    snapshots: bool,
) -> Result<(CampaignState, u64), StoreError> {
    let upto = to_sql_seq(upto.unwrap_or(u64::MAX));
    if snapshots && let Some((start, retractions)) = usable_snapshot(conn, path, upto)? {
        let from = start.head;
        return Ok((
            replay_after(conn, path, Some(start), &retractions, upto)?,
            from,
        ));
    }
    let retractions = retractions(conn, path, 0, upto)?;
    Ok((replay_after(conn, path, None, &retractions, upto)?, 0))
}

/// Replays the log after `start` (from the beginning when `None`) up to `upto`, skipping the
/// targets of `retractions`. `start` must not include any of those targets.
fn replay_after(
    conn: &Connection,
    path: &Path,
    start: Option<CampaignState>,
    retractions: &[Retraction],
    upto: i64,
) -> Result<CampaignState, StoreError> {
    let fail = |e| db_error(path, "read", e);
    let targets: BTreeSet<u64> = retractions.iter().map(|&(_, target)| target).collect();
    let from = start.as_ref().map_or(0, |s| s.head);
    let mut replay = match start {
        Some(state) => Replay::resume(state, targets),
        None => Replay::new(targets),
    };
    let mut stmt = conn
        .prepare_cached("SELECT seq, kind, schema_version, payload FROM events WHERE seq > ?1 AND seq <= ?2 ORDER BY seq")
        .map_err(fail)?;
    let mut rows = stmt.query([to_sql_seq(from), upto]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let (seq, event) = decode_event(row, path)?;
        replay.feed(seq, &event);
    }
    Ok(replay.finish())
}

/// The state an import builds as rows arrive. Events cannot be unapplied, and the file's retractions
/// are not known in advance, so:
/// - the newest [`Self::WINDOW`] events wait before they are applied: a retraction of one of them
///   (a slip undone at once, by far the most common) just drops it;
/// - a copy of the state is kept every [`Self::COPY_EVERY`] events: a retraction reaching further
///   back resumes from the newest copy before its target and replays the rows after it again.
struct ImportReplay {
    state: CampaignState,
    waiting: VecDeque<(u64, Event)>,
    copies: VecDeque<CampaignState>,
}

impl ImportReplay {
    const WINDOW: usize = 32;
    /// A copy every this many events, and this many kept: a retraction reaching back up to
    /// `COPY_EVERY * COPIES_KEPT` events replays at most that many again (further, from the start).
    const COPY_EVERY: u64 = 500;
    const COPIES_KEPT: usize = 8;

    fn new() -> ImportReplay {
        ImportReplay {
            state: CampaignState::default(),
            waiting: VecDeque::new(),
            copies: VecDeque::new(),
        }
    }

    /// Takes in an event just inserted into `conn`.
    fn feed(
        &mut self,
        conn: &Connection,
        path: &Path,
        seq: u64,
        event: Event,
    ) -> Result<(), StoreError> {
        if let Event::Retracted { seq: target, .. } = event {
            if let Some(at) = self.waiting.iter().position(|(s, _)| *s == target) {
                self.waiting.remove(at);
            } else {
                // Copies taken after the target hold it: they are of no more use.
                self.copies.retain(|copy| copy.head < target);
                let start = self.copies.back().cloned();
                let after = start.as_ref().map_or(0, |copy| copy.head);
                let retractions = retractions(conn, path, after, to_sql_seq(seq))?;
                // Replays every row up to this one, the waiting ones included.
                self.state = replay_after(conn, path, start, &retractions, to_sql_seq(seq))?;
                self.waiting.clear();
                return Ok(());
            }
        }
        self.waiting.push_back((seq, event));
        if self.waiting.len() > Self::WINDOW {
            self.apply_oldest_waiting();
        }
        Ok(())
    }

    fn apply_oldest_waiting(&mut self) {
        let Some((seq, event)) = self.waiting.pop_front() else {
            return;
        };
        self.state.apply(seq, &event);
        if seq.is_multiple_of(Self::COPY_EVERY) {
            self.copies.push_back(self.state.clone());
            if self.copies.len() > Self::COPIES_KEPT {
                self.copies.pop_front();
            }
        }
    }

    /// The state after every event taken in so far.
    fn caught_up(&mut self) -> &CampaignState {
        while !self.waiting.is_empty() {
            self.apply_oldest_waiting();
        }
        &self.state
    }
}

/// Takes snapshots along one full replay of the log in `conn`: the first of every
/// [`SNAPSHOT_KEEP_EVERY`] events, for `--at` far in the past, and one at the head. Points that a
/// later retraction reaches back before are skipped: a replay up to them would differ. Returns how
/// many were taken.
fn take_snapshots(conn: &Connection, path: &Path) -> Result<u64, StoreError> {
    let fail = |e| db_error(path, "written", e);
    let retractions = retractions(conn, path, 0, i64::MAX)?;
    let mut replay = Replay::new(retractions.iter().map(|&(_, target)| target).collect());
    let head = last_row(conn).map_err(fail)?.map_or(0, |(seq, _)| seq);
    let mut taken = 0;
    let mut stmt = conn
        .prepare("SELECT seq, kind, schema_version, payload, hash FROM events ORDER BY seq")
        .map_err(fail)?;
    let mut rows = stmt.query([]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let (seq, event) = decode_event(row, path)?;
        replay.feed(seq, &event);
        let kept_point = seq.is_multiple_of(SNAPSHOT_KEEP_EVERY) || seq == head;
        // Checked only where a snapshot would go: against every row it was a cost per retraction.
        let reaches_back = || {
            retractions
                .iter()
                .any(|&(at, target)| at > seq && target <= seq)
        };
        if kept_point && !reaches_back() {
            let hash: String = row.get(4).map_err(fail)?;
            save_snapshot(conn, replay.state(), &hash).map_err(fail)?;
            taken += 1;
        }
    }
    Ok(taken)
}

/// Reads the event of a row selected as `seq, kind, schema_version, payload, …`.
fn decode_event(row: &rusqlite::Row<'_>, path: &Path) -> Result<(u64, Event), StoreError> {
    let fail = |e| db_error(path, "read", e);
    let seq: u64 = row.get(0).map_err(fail)?;
    let kind: String = row.get(1).map_err(fail)?;
    let payload: String = row.get(3).map_err(fail)?;
    let event = Event::from_stored(&kind, row.get(2).map_err(fail)?, &payload)
        .map_err(|reason| StoreError::Damaged { seq, reason })?;
    Ok((seq, event))
}

/// Snapshots kept besides the newest few: the first in every block of this many events, for `--at`
/// far in the past.
const SNAPSHOT_KEEP_EVERY: u64 = 100_000;

/// The snapshot interval of a bulk write. A retraction among its events replays the state from the
/// snapshot before it, so this bounds that replay (about 3 ms) at the cost of a snapshot written and
/// pruned every so often (about 1.5 ms at a million events).
const BULK_SNAPSHOT_EVERY: u64 = 1_000;
/// The newest snapshots always kept: a retraction reaching back past all of them replays from the
/// one kept for its block.
const SNAPSHOT_KEEP_NEWEST: u64 = 8;

/// Stores a snapshot and prunes older ones, keeping the newest few and the first in every block of
/// [`SNAPSHOT_KEEP_EVERY`] events, so snapshots never pile up the way events do.
fn save_snapshot(
    conn: &Connection,
    state: &CampaignState,
    head_hash: &str,
) -> rusqlite::Result<()> {
    let json = serde_json::to_string(state)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    conn.prepare_cached(
        "INSERT OR REPLACE INTO snapshots (seq, code_version, schema_version, head_hash, state) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![to_sql_seq(state.head), STATE_FORMAT, migrations::latest_version(), head_hash, json])?;
    conn.prepare_cached(
        "DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?2) \
         AND seq NOT IN (SELECT MIN(seq) FROM snapshots GROUP BY seq / ?1)",
    )?
    .execute(params![SNAPSHOT_KEEP_EVERY, SNAPSHOT_KEEP_NEWEST])?;
    Ok(())
}

/// A campaign file under construction; see [`Store::create_new`]. Dropped unpublished, it removes
/// itself.
pub struct NewFile {
    store: Option<Store>,
    building: PathBuf,
    target: PathBuf,
}

impl NewFile {
    pub fn store(&mut self) -> &mut Store {
        self.store
            .as_mut()
            .expect("a NewFile holds its store until published")
    }

    /// Links the finished file into place. Fails with [`StoreError::Exists`] when another command
    /// created the path meanwhile; nothing is replaced.
    pub fn publish(mut self) -> Result<Store, StoreError> {
        // Closing the last connection folds the WAL back into the file, so the one file is all.
        drop(self.store.take());
        match std::fs::hard_link(&self.building, &self.target) {
            Ok(()) => remove_database_files(&self.building),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(StoreError::Exists(self.target.clone()));
            }
            // A file system without hard links (FAT, some network mounts): rename instead, which
            // cannot refuse to replace, so look first; only a creator racing in that instant wins.
            Err(_) if self.target.symlink_metadata().is_err() => {
                std::fs::rename(&self.building, &self.target)
                    .map_err(|e| io_error(&self.target, "created", &e))?;
            }
            Err(e) => return Err(io_error(&self.target, "created", &e)),
        }
        Store::open(&self.target)
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        drop(self.store.take());
        remove_database_files(&self.building);
    }
}

/// A name beside `path` that no other process uses: `.NAME.WHAT-PID-RANDOM`.
pub(crate) fn private_name(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let unique: u64 = rand::rng().random();
    path.with_file_name(format!(
        ".{name}.{what}-{}-{unique:016x}",
        std::process::id()
    ))
}

/// An operating-system failure on `path`, in words a person can act on.
pub fn io_error(path: &Path, action: &'static str, e: &std::io::Error) -> StoreError {
    use std::io::ErrorKind;
    let why = match e.kind() {
        ErrorKind::NotFound => match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
                format!("its folder {} does not exist", folder.display())
            }
            _ => "it does not exist".to_string(),
        },
        ErrorKind::PermissionDenied => {
            "permission denied (check who owns the file and its folder)".to_string()
        }
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_string(),
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge => {
            "the disk is full (or the file reached its size limit); free some space and try again"
                .to_string()
        }
        ErrorKind::IsADirectory => "it is a folder".to_string(),
        _ => format!("the operating system said: {e}"),
    };
    StoreError::Io {
        path: path.to_path_buf(),
        action,
        why,
    }
}

/// Removes a database file and its WAL companions, if present.
pub fn remove_database_files(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}
