//! The SQLite backend: one campaign per file.
//!
//! Every write is `BEGIN IMMEDIATE`, so writers queue up behind SQLite's write lock (with a generous
//! busy timeout) and each decides on the state the previous one left. Reads are deferred
//! transactions: WAL gives each one a consistent view while a writer works. `synchronous=FULL`
//! makes a commit survive power loss.

use super::StoreError;
use super::backend::{Backend, InsertError, LogRead, LogWrite, SnapshotInfo, Visit};
use super::chain::StoredRow;
use super::files::{io_error, private_name, remove_database_files};
use super::migrations;
use rusqlite::{
    Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, TransactionBehavior, params,
};
use std::ops::ControlFlow;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// A campaign file. While `building` is set it is a new file under a private name, which
/// [`Backend::publish`] links into place at `path`.
pub struct SqliteBackend {
    conn: Option<Connection>,
    path: PathBuf,
    building: Option<PathBuf>,
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

impl SqliteBackend {
    /// Opens an existing campaign file, migrating it to this build's schema.
    pub fn open(path: &Path) -> Result<SqliteBackend, StoreError> {
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
        Ok(SqliteBackend {
            conn: Some(connect(path)?),
            path: path.to_path_buf(),
            building: None,
        })
    }

    /// Starts a new campaign file at `path`, which must not exist yet. The file is built under a
    /// private name beside it (mode 0600: a campaign file holds the GM's secrets) and appears at
    /// `path` only when [`Backend::publish`] links it there, whole: a crash or a refused command
    /// leaves nothing at `path`, and of several commands creating the same path at once exactly one
    /// wins.
    pub fn create_new(path: &Path) -> Result<SqliteBackend, StoreError> {
        refuse_a_folder(path, "created")?;
        if path.symlink_metadata().is_ok() {
            return Err(StoreError::Exists(path.display().to_string()));
        }
        let building = private_name(path, "creating");
        let made = (|| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&building)
                .map_err(|e| io_error(path, "created", &e))?;
            let conn = Connection::open_with_flags(&building, OpenFlags::SQLITE_OPEN_READ_WRITE)
                .map_err(|e| db_error(path, "created", e))?;
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(|e| db_error(path, "created", e))?;
            drop(conn);
            connect(&building)
        })();
        match made {
            Ok(conn) => Ok(SqliteBackend {
                conn: Some(conn),
                path: path.to_path_buf(),
                building: Some(building),
            }),
            Err(e) => {
                remove_database_files(&building);
                Err(e)
            }
        }
    }

    fn conn(&mut self) -> &mut Connection {
        self.conn
            .as_mut()
            .expect("a backend holds its connection until published or abandoned")
    }

    fn begin(&mut self, behavior: TransactionBehavior) -> Result<SqliteTx<'_>, StoreError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .as_mut()
            .expect("a backend holds its connection until published or abandoned")
            .transaction_with_behavior(behavior)
            .map_err(|e| db_error(&path, "opened", e))?;
        Ok(SqliteTx { tx, path })
    }
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let fail = |e| db_error(path, "opened", e);
    let mut conn =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE).map_err(fail)?;
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
            place: path.display().to_string(),
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
    Ok(conn)
}

impl Backend for SqliteBackend {
    fn place(&self) -> String {
        self.path.display().to_string()
    }

    fn read(&mut self) -> Result<Box<dyn LogRead + '_>, StoreError> {
        Ok(Box::new(self.begin(TransactionBehavior::Deferred)?))
    }

    fn write(&mut self) -> Result<Box<dyn LogWrite + '_>, StoreError> {
        Ok(Box::new(self.begin(TransactionBehavior::Immediate)?))
    }

    fn storage_problems(&mut self, thorough: bool) -> Result<u64, StoreError> {
        // SQLite's text is its own, so only the count reaches the user.
        let check = if thorough {
            "integrity_check"
        } else {
            "quick_check"
        };
        let path = self.path.clone();
        let fail = |e| db_error(&path, "checked", e);
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!("PRAGMA {check}")).map_err(fail)?;
        let mut rows = stmt.query([]).map_err(fail)?;
        let mut problems = 0;
        while let Some(row) = rows.next().map_err(fail)? {
            let line: String = row.get(0).map_err(fail)?;
            if line != "ok" {
                problems += 1;
            }
        }
        Ok(problems)
    }

    fn is_tour(&mut self) -> Result<bool, StoreError> {
        let path = self.path.clone();
        let mark: i32 = self
            .conn()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| db_error(&path, "read", e))?;
        Ok(mark == TOUR_MARK)
    }

    fn mark_as_tour(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.conn()
            .pragma_update(None, "user_version", TOUR_MARK)
            .map_err(|e| db_error(&path, "written", e))
    }

    fn publish(mut self: Box<Self>) -> Result<Box<dyn Backend>, StoreError> {
        let Some(building) = self.building.take() else {
            return Ok(self);
        };
        // Closing the last connection folds the WAL back into the file, so the one file is all.
        drop(self.conn.take());
        let target = self.path.clone();
        let linked = match std::fs::hard_link(&building, &target) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(StoreError::Exists(target.display().to_string()))
            }
            // A file system without hard links (FAT, some network mounts): rename instead, which
            // cannot refuse to replace, so look first; only a creator racing in that instant wins.
            Err(_) if target.symlink_metadata().is_err() => {
                std::fs::rename(&building, &target).map_err(|e| io_error(&target, "created", &e))
            }
            Err(e) => Err(io_error(&target, "created", &e)),
        };
        remove_database_files(&building);
        linked?;
        Ok(Box::new(SqliteBackend::open(&target)?))
    }
}

impl Drop for SqliteBackend {
    /// A new file dropped unpublished (a refused command, a panic) leaves nothing behind.
    fn drop(&mut self) {
        drop(self.conn.take());
        if let Some(building) = self.building.take() {
            remove_database_files(&building);
        }
    }
}

/// One SQLite transaction, read-only (deferred) or holding the write lock (immediate).
struct SqliteTx<'c> {
    tx: Transaction<'c>,
    path: PathBuf,
}

impl SqliteTx<'_> {
    fn fail(&self, action: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| db_error(&self.path, action, e)
    }

    /// Streams the rows a query selects (columns as [`ROW_COLUMNS`]) into `visit`.
    fn stream(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let mut stmt = self.tx.prepare_cached(sql).map_err(self.fail("read"))?;
        let mut rows = stmt.query(params).map_err(self.fail("read"))?;
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            if visit(read_row(row).map_err(self.fail("read"))??)?.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn insert(&self, sql: &str, params: impl rusqlite::Params) -> Result<(), InsertError> {
        let mut stmt = self
            .tx
            .prepare_cached(sql)
            .map_err(|e| InsertError::Failed(db_error(&self.path, "written", e)))?;
        match stmt.execute(params) {
            Ok(_) => Ok(()),
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                Err(InsertError::Duplicate)
            }
            Err(e) => Err(InsertError::Failed(db_error(&self.path, "written", e))),
        }
    }
}

impl LogRead for SqliteTx<'_> {
    fn head(&mut self) -> Result<Option<(u64, String)>, StoreError> {
        self.tx
            .query_row(
                "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(self.fail("read"))
    }

    fn rows(&mut self, from: u64, upto: u64, visit: Visit<'_>) -> Result<(), StoreError> {
        let sql =
            format!("SELECT {ROW_COLUMNS} FROM events WHERE seq >= ?1 AND seq <= ?2 ORDER BY seq");
        self.stream(&sql, params![to_sql_seq(from), to_sql_seq(upto)], visit)
    }

    fn rows_of_kind(
        &mut self,
        kind: &str,
        after: u64,
        upto: u64,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE kind = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq"
        );
        self.stream(
            &sql,
            params![kind, to_sql_seq(after), to_sql_seq(upto)],
            visit,
        )
    }

    fn last_of_kinds(
        &mut self,
        kinds: &[&str],
        before: u64,
    ) -> Result<Option<StoredRow>, StoreError> {
        let mut newest: Option<StoredRow> = None;
        for kind in kinds {
            let sql = format!(
                "SELECT {ROW_COLUMNS} FROM events WHERE kind = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT 1"
            );
            self.stream(&sql, params![kind, to_sql_seq(before)], &mut |row| {
                if newest.as_ref().is_none_or(|n| n.seq < row.seq) {
                    newest = Some(row);
                }
                Ok(ControlFlow::Break(()))
            })?;
        }
        Ok(newest)
    }

    fn row(&mut self, seq: u64) -> Result<Option<StoredRow>, StoreError> {
        let mut found = None;
        let sql = format!("SELECT {ROW_COLUMNS} FROM events WHERE seq = ?1");
        self.stream(&sql, [to_sql_seq(seq)], &mut |row| {
            found = Some(row);
            Ok(ControlFlow::Break(()))
        })?;
        Ok(found)
    }

    fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError> {
        self.tx
            .query_row(
                "SELECT value FROM secrets WHERE kind = ?1 AND key = ?2",
                [kind, key],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.fail("read"))
    }

    fn secrets_with_prefix(&mut self, kind: &str, prefix: &str) -> Result<Vec<String>, StoreError> {
        // Keys are 'SEQ:N' or an epoch number: no LIKE wildcards to escape in a prefix of digits,
        // but substr keeps any prefix literal.
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT value FROM secrets WHERE kind = ?1 AND substr(key, 1, length(?2)) = ?2 ORDER BY key",
            )
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([kind, prefix], |r| r.get::<_, String>(0))
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError> {
        let mut stmt = self
            .tx
            .prepare("SELECT kind, key, value FROM secrets ORDER BY kind, key")
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn snapshots(&mut self, upto: u64, limit: u64) -> Result<Vec<SnapshotInfo>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT s.seq, s.code_version, s.head_hash, e.hash FROM snapshots s \
                 LEFT JOIN events e ON e.seq = s.seq WHERE s.seq <= ?1 ORDER BY s.seq DESC LIMIT ?2",
            )
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([to_sql_seq(upto), to_sql_seq(limit)], |row| {
                Ok(SnapshotInfo {
                    seq: row.get(0)?,
                    format: row.get(1)?,
                    head_hash: row.get(2)?,
                    event_hash: row.get(3)?,
                })
            })
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn snapshot(&mut self, seq: u64) -> Result<Option<String>, StoreError> {
        self.tx
            .prepare_cached("SELECT state FROM snapshots WHERE seq = ?1")
            .and_then(|mut stmt| {
                stmt.query_row([to_sql_seq(seq)], |row| row.get(0))
                    .optional()
            })
            .map_err(self.fail("read"))
    }
}

impl LogWrite for SqliteTx<'_> {
    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError> {
        let sql = format!(
            "INSERT INTO events ({ROW_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
        );
        self.insert(
            &sql,
            params![
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
            ],
        )
    }

    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError> {
        self.insert(
            "INSERT INTO secrets (kind, key, value) VALUES (?1, ?2, ?3)",
            [kind, key, value],
        )
    }

    fn put_snapshot(
        &mut self,
        seq: u64,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO snapshots (seq, code_version, schema_version, head_hash, state) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    to_sql_seq(seq),
                    format,
                    migrations::latest_version(),
                    head_hash,
                    state
                ])
            })
            .map(|_| ())
            .map_err(self.fail("written"))
    }

    fn snapshot_seqs(&mut self) -> Result<Vec<u64>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT seq FROM snapshots ORDER BY seq")
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, u64>(0))
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn delete_snapshots(&mut self, seqs: &[u64]) -> Result<(), StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached("DELETE FROM snapshots WHERE seq = ?1")
            .map_err(self.fail("written"))?;
        for seq in seqs {
            stmt.execute([to_sql_seq(*seq)])
                .map_err(|e| db_error(&self.path, "written", e))?;
        }
        Ok(())
    }

    fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        let removed = self
            .tx
            .execute("DELETE FROM snapshots", [])
            .map_err(self.fail("written"))?;
        Ok(removed as u64)
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        let path = self.path;
        self.tx.commit().map_err(|e| db_error(&path, "written", e))
    }
}

/// SQLite integers are signed; seqs beyond i64 never occur, so clamp rather than wrap.
fn to_sql_seq(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
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
