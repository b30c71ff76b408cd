//! The SQLite backend: one campaign per file.
//!
//! Every write is `BEGIN IMMEDIATE`, so writers queue up behind SQLite's write lock (with a generous
//! busy timeout) and each decides on the state the previous one left. Reads are deferred
//! transactions: WAL gives each one a consistent view while a writer works. `synchronous=FULL`
//! makes a commit survive power loss.

mod header;
pub(crate) mod journal;
mod open;
mod tx;

pub(crate) use open::db_error;
use open::*;

use super::StoreError;
use super::backend::{Backend, LogRead, LogWrite};
use super::files::{
    folder_of, io_error, journals_beside, private_name, remove_database_files,
    remove_stale_creations, sync_folder,
};
use super::migrations;
use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tx::SqliteTx;

/// `PRAGMA application_id` of a grimoire file: "GRIM" in ASCII. It tells our files from other SQLite
/// databases before anything is read or migrated.
const APPLICATION_ID: i32 = 0x4752_494D;

/// `PRAGMA user_version` of a file `grimoire tour` made ("TOUR" in ASCII). Only `tour` writes it,
/// and `tour` replaces no file without it.
const TOUR_MARK: i32 = 0x544F_5552;

/// How long a command waits for another one's write to finish before giving up. Long, because at the
/// table a short wait is far better than a failed command.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// A campaign file. While `building` is set it is a new file under a private name, which
/// [`Backend::publish`] links into place at `path`.
pub struct SqliteBackend {
    conn: Option<Connection>,
    path: PathBuf,
    building: Option<PathBuf>,
    /// What the connection holds open, to tell before each write that it is still the campaign at
    /// `path`: a file deleted, moved or replaced under a long-lived store (the shell), or its
    /// journal deleted, would otherwise take writes that nothing will ever read.
    identity: Option<Identity>,
    /// The write-ahead log's identity, once there is one: SQLite keeps it while a connection is
    /// open, so another file there means it was deleted under us (and another process's writes
    /// went to a journal this connection does not read).
    journal: Option<(u64, u64)>,
    /// The read lock kept on a campaign read as it stands (see `open_as_it_stands`).
    _reading_lock: Option<std::fs::File>,
    /// A descriptor of the file held from before the connection opened until after it closes,
    /// through which the file is read by hand (see [`header`]).
    _held: Option<std::sync::Arc<std::fs::File>>,
    /// The file's identity as this connection knows it (see [`journal`]): 0 until it has one.
    /// Another on disk before a write means another file was copied over this one in place.
    file_identity: std::sync::Arc<std::sync::atomic::AtomicI32>,
    /// What the look before each write has read of the journal, so the next reads only what was
    /// added since.
    journal_scan: journal::JournalScan,
}

impl SqliteBackend {
    /// Opens an existing campaign file, migrating it to this build's schema.
    pub fn open(path: &Path) -> Result<SqliteBackend, StoreError> {
        if !path.exists() {
            // A link to nothing: `init` would come here too (the path is taken), so "create one
            // with init" would send the user round in a circle.
            return Err(dangling_link(path).unwrap_or(StoreError::Missing(path.to_path_buf())));
        }
        refuse_a_folder(path, "opened")?;
        // A device, pipe or socket reads as empty or never ends: "delete it" would be wrong advice.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(StoreError::Refused {
                path: path.to_path_buf(),
                why: "it is a device, pipe or socket, not a file; give --db the path of a campaign file (or of one to create with `grimoire init`)".into(),
            });
        }
        if std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(false)
        {
            return Err(StoreError::EmptyFile(path.to_path_buf()));
        }
        // SQLite keeps a journal beside each name it is given: through two names (hard links) one
        // file would take two journals, and writes through one would be lost to the other.
        // (Counted before the names are looked at again: a creation may finish in between.)
        if let Ok(first) = std::fs::metadata(path)
            && std::os::unix::fs::MetadataExt::nlink(&first) > 1
            && let private = creation_names(path, &first)
            && let Ok(meta) = std::fs::metadata(path)
            && std::os::unix::fs::MetadataExt::nlink(&meta) > 1 + private
        {
            return Err(StoreError::Refused {
                path: path.to_path_buf(),
                why: format!(
                    "the file has {} names (hard links), and SQLite keeps a journal beside each name, so writes through one would be lost to the other; keep one name (remove the others with `rm`, which removes only that name), or copy the file with `grimoire backup`",
                    std::os::unix::fs::MetadataExt::nlink(&meta)
                ),
            });
        }
        let held = header::hold(path);
        let (conn, reading_lock) = connect(path)?;
        let file_identity: i32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| db_error(path, "opened", e))?;
        Ok(SqliteBackend {
            conn: Some(conn),
            path: path.to_path_buf(),
            building: None,
            identity: identity_of(path),
            journal: None,
            _reading_lock: reading_lock,
            _held: held,
            file_identity: std::sync::Arc::new(file_identity.into()),
            journal_scan: Default::default(),
        })
    }

    /// Opens a campaign file only to read it, changing nothing: no migration, no switch of journal,
    /// no file created beside it. `None` when `path` is not a campaign file of a schema this build
    /// reads as it stands (for shell completion, which must never touch a file it is only asked about).
    pub fn open_to_read(path: &Path) -> Option<SqliteBackend> {
        if !path.is_file() {
            return None;
        }
        // Read as it stands, as SQLite's immutable open does: no lock taken and no journal file
        // made beside it. A plain read-only open makes the WAL journal's files whenever they are
        // missing (SQLite removes them when the last connection closes, so between two commands
        // they are), and leaves them this user's, which would keep the owner from writing. The
        // price: events still in the journal of a campaign open elsewhere (a shell, `serve`) are
        // read once it is folded into the file. The path is resolved first, so what is looked at
        // beside it is beside the file SQLite reads.
        let real = std::fs::canonicalize(path).ok()?;
        // A rollback journal beside it would be part of the file (a write cut short).
        if super::files::beside(&real, "-journal").exists() {
            return None;
        }
        let conn = open_immutable(&real).ok()?;
        let id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .ok()?;
        let readable = migrations::readable_as_it_stands(migrations::applied_version(&conn).ok()?);
        (id == APPLICATION_ID && readable).then(|| SqliteBackend {
            conn: Some(conn),
            path: path.to_path_buf(),
            building: None,
            identity: identity_of(path),
            journal: None,
            _reading_lock: None,
            _held: None,
            file_identity: Default::default(),
            journal_scan: Default::default(),
        })
    }

    /// Starts a new campaign file at `path`, which must not exist yet. The file is built under a
    /// private name beside it (mode 0600: a campaign file holds the GM's secrets) and appears at
    /// `path` only when [`Backend::publish`] links it there, whole: a crash or a refused command
    /// leaves nothing at `path`, and of several commands creating the same path at once exactly one
    /// wins.
    pub fn create_new(path: &Path) -> Result<SqliteBackend, StoreError> {
        refuse_a_folder(path, "created")?;
        let already_there = || {
            dangling_link(path).unwrap_or(StoreError::Refused {
                path: path.to_path_buf(),
                why: "it already exists, and this command makes a new campaign file, never replacing one; choose a path where there is none".into(),
            })
        };
        if path.symlink_metadata().is_ok() {
            return Err(already_there());
        }
        if super::files::is_a_journal(path, None) {
            return Err(StoreError::Refused {
                path: path.to_path_buf(),
                why: "it is the name of another database's journal, which SQLite would take as part of that database (and delete); choose another path".into(),
            });
        }
        let journals = journals_beside(path);
        // Another command creating the same path may have published its file since the look
        // above, and opened it: the journal is then that file's own, and the path is taken.
        if !journals.is_empty() && path.symlink_metadata().is_ok() {
            return Err(already_there());
        }
        if !journals.is_empty() {
            let names: Vec<String> = journals.iter().map(|j| j.display().to_string()).collect();
            return Err(StoreError::Refused {
                path: path.to_path_buf(),
                why: format!(
                    "SQLite's journal of an earlier campaign file lies beside it ({}), and a new file there would take in that campaign's last events; it may be their only copy, so grimoire neither deletes nor uses it. Put the campaign file it belongs to back at this path (grimoire then opens it whole), or move the journal away with it, or choose another path",
                    names.join(", ")
                ),
            });
        }
        remove_stale_creations(path);
        let building = private_name(path, "creating");
        let made = (|| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&building)
                .map_err(|e| io_error(path, "created", &e))?;
            let conn = Connection::open_with_flags(
                plain_name(&building),
                OpenFlags::SQLITE_OPEN_READ_WRITE,
            )
            .map_err(|e| db_error(path, "created", e))?;
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(|e| db_error(path, "created", e))?;
            drop(conn);
            let held = header::hold(&building);
            let (conn, _) = connect(&building)?;
            // A new file is filled whole by an import, in one transaction: past SQLite's default
            // 2 MiB of cache its indexes spill to the journal and are read back, row after row.
            // 8 MiB made importing a 100k-event export 8% quicker for 6.5 MB more at its peak.
            conn.pragma_update(None, "cache_size", -8192)
                .map_err(|e| db_error(path, "created", e))?;
            Ok((conn, held))
        })();
        match made {
            Ok((conn, held)) => Ok(SqliteBackend {
                conn: Some(conn),
                path: path.to_path_buf(),
                identity: identity_of(&building),
                journal: None,
                _reading_lock: None,
                _held: held,
                file_identity: Default::default(),
                journal_scan: Default::default(),
                building: Some(building),
            }),
            Err(e) => {
                remove_database_files(&building);
                // The private name means nothing to the person who asked for `path`.
                Err(match e {
                    StoreError::Io { action, why, .. } => StoreError::Io {
                        path: path.to_path_buf(),
                        action,
                        why,
                    },
                    StoreError::Corrupt(_) => StoreError::Corrupt(path.to_path_buf()),
                    other => other,
                })
            }
        }
    }

    /// Refuses to write when the file held open is no longer the campaign at its path (deleted,
    /// moved, or replaced by another file since it was opened): a write would go to a file no one
    /// will open again, and be acknowledged all the same.
    fn check_still_in_place(&mut self) -> Result<(), StoreError> {
        let at_path = self.building.clone().unwrap_or_else(|| self.path.clone());
        let now = identity_of(&at_path);
        let refuse = |why: &str| {
            Err(StoreError::Io {
                path: self.path.clone(),
                action: "written",
                why: why.into(),
            })
        };
        let moved_away = self.identity.is_some() && now != self.identity;
        let journal = journal_of(&at_path);
        let journal_replaced = self.journal.is_some_and(|seen| journal != Some(seen));
        if moved_away || journal_replaced {
            // Another process may be writing the campaign through another journal now: this
            // connection must not fold its own journal into the file when it closes, which would
            // overwrite pages that journal relies on (and lose what it acknowledged).
            if let Some(conn) = &self.conn {
                let _ = conn.set_db_config(
                    rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                    true,
                );
            }
        }
        if moved_away {
            return refuse(match now {
                None => {
                    "the campaign file was deleted or moved away while it was open here, so a write would reach a file nothing opens again; if it was moved, move its journal with it first (NAME-wal and NAME-shm beside the old path hold what was written here since the last fold), then open it where it is now (start the shell again with --db)"
                }
                Some(_) => {
                    "another file (or a link to one) has taken the campaign file's place since it was opened here; open the campaign again (start the shell again) to write to the file now at this path"
                }
            });
        }
        let on_disk = journal::on_disk(&at_path).unwrap_or(0);
        let known = self
            .file_identity
            .load(std::sync::atomic::Ordering::Relaxed);
        if journal::identity(on_disk) != 0
            && journal::identity(known) != 0
            && !journal::same_file(on_disk, known)
        {
            return refuse(
                "another campaign file was copied over this one in place while it was open here (the file's identity changed), so a write would mix the two; start the shell again to open the file as it is now",
            );
        }
        if journal_replaced {
            return refuse(
                "the campaign file's journal (-wal) was deleted or replaced while the file was open here, so a write would go to a journal other commands no longer read; start the shell again to open the campaign as it is now",
            );
        }
        self.journal = journal;
        Ok(())
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

/// Refuses to open `path` when the journal beside it belongs to another file (see [`journal`]):
/// SQLite would fold it into this one. Nothing is changed; both are named.
/// How many of the names of the file `meta` describes are a creation's own private one beside
/// `path` (`.NAME.creating-…`): a new campaign is published by linking its private file to its
/// name, then removing the private one, and in between the file has both.
fn creation_names(path: &Path, meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return 0;
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter_map(|e| e.metadata().ok())
        .filter(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()))
        .count() as u64
}

/// Why the journal beside the campaign file at `path` (the file a link leads to, where SQLite
/// keeps its journal) does not belong to it, if it does not; `scan` keeps what was read.
fn journal_not_its_files(
    path: &Path,
    scan: &mut journal::JournalScan,
) -> Option<journal::NotItsJournal> {
    let file = super::files::follow_links(path).unwrap_or_else(|_| path.to_path_buf());
    journal::belongs_as_scanned(&file, &super::files::beside(&file, "-wal"), scan).err()
}

fn refuse_another_files_journal(path: &Path) -> Result<(), StoreError> {
    // SQLite follows a link to its file and keeps the journal beside that file.
    let file = super::files::follow_links(path).unwrap_or_else(|_| path.to_path_buf());
    let path = file.as_path();
    let wal = super::files::beside(path, "-wal");
    if journal::belongs(path, &wal).is_ok() {
        return Ok(());
    }
    // A writer of this very file may be adding a frame as it is read: look once more.
    std::thread::sleep(Duration::from_millis(50));
    let Err(not_its) = journal::belongs(path, &wal) else {
        return Ok(());
    };
    let whose = match not_its {
        journal::NotItsJournal::AnotherFile => {
            "belongs to another campaign file, so SQLite would fold another file's pages into this one"
        }
        journal::NotItsJournal::AnotherMoment => {
            "was written on this campaign, but this file is a copy of it from another moment (an earlier one, a later one, or one that went on by itself), so SQLite would fold pages of one moment into a file of another"
        }
    };
    Err(StoreError::Refused {
        path: path.to_path_buf(),
        why: format!(
            "the journal beside it ({}) {whose}; nothing was opened or changed, and both are kept. This happens when a file is copied into place where a stopped process left its journal: restore with `grimoire restore BACKUP`, which sets the old file and its journal aside together, or move the journal (and its -shm) away yourself",
            wal.display()
        ),
    })
}

/// How a campaign file is opened: for reading and writing, without SQLite's lock around every
/// call (rusqlite's default too), since a connection is never used by two threads at once (the
/// type system holds it so); the lock cost a tenth of a full replay.
const READ_WRITE: OpenFlags =
    OpenFlags::SQLITE_OPEN_READ_WRITE.union(OpenFlags::SQLITE_OPEN_NO_MUTEX);

fn connect(path: &Path) -> Result<(Connection, Option<std::fs::File>), StoreError> {
    let fail = |e| db_error(path, "opened", e);
    let application_id = |conn: &Connection| -> rusqlite::Result<i32> {
        conn.pragma_query_value(None, "application_id", |r| r.get(0))
    };
    // Long enough for the owner to finish opening or closing the campaign on a loaded machine.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    refuse_another_files_journal(path)?;
    let mut reading_lock = None;
    let (mut conn, id) = loop {
        let conn = Connection::open_with_flags(plain_name(path), READ_WRITE).map_err(fail)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        let e = match application_id(&conn) {
            Ok(id) => break (conn, id),
            Err(e) => e,
        };
        // SQLite says the folder is read-only (or, in older builds, that it cannot open).
        let read_only_folder = matches!(
            e.sqlite_error_code(),
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen)
        );
        if !read_only_folder {
            return Err(fail(e));
        }
        if !conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(fail(e));
        }
        drop(conn);
        if let Some((standing, held)) = open_as_it_stands(path) {
            let id = application_id(&standing).map_err(fail)?;
            reading_lock = Some(held);
            break (standing, id);
        }
        // The owner opened the campaign between SQLite's look and ours, making the journal files
        // a plain read-only open reads through (or is still making them, or closed it, removing
        // them, as SQLite read): a reader in a folder it may not write looks again, for a while,
        // rather than fail on the owner's timing. A journal this user may not read is no matter
        // of timing, and is named at once.
        let unreadable_journal = ["-wal", "-shm"].iter().any(|suffix| {
            let journal = super::files::beside(path, suffix);
            journal.exists() && std::fs::File::open(&journal).is_err()
        });
        if unreadable_journal || std::time::Instant::now() >= deadline {
            return Err(fail(e));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
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
    // Switching to WAL is a write: a file this process may only read is read in the journal mode
    // it has (a read-only copy left in rollback mode reads as well).
    let read_only = conn.is_readonly(rusqlite::MAIN_DB).map_err(fail)?;
    if !read_only {
        switch_to_wal(&conn).map_err(fail)?;
    }
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(fail)?;
    let readable = migrations::readable_as_it_stands(applied);
    if applied < known
        && !(read_only && readable)
        && let Err(error) = migrations::run(&mut conn)
        // Another grimoire may have migrated the file first; then there is nothing left to do.
        && migrations::applied_version(&conn).map_err(fail)? < known
    {
        let cause = migrations::sqlite_cause(&error).and_then(|e| e.sqlite_error_code());
        // A file this process may not write (its permissions, journal files another user left
        // beside it, a full disk) is read as it stands where no pending migration changes an
        // answer, and a write to it is refused later as on any file it may not write. Any other
        // failure stops the command, as a damaged or foreign file must.
        let cannot_write = read_only
            || matches!(
                cause,
                Some(
                    ErrorCode::ReadOnly
                        | ErrorCode::CannotOpen
                        | ErrorCode::PermissionDenied
                        | ErrorCode::DiskFull
                )
            );
        if !(cannot_write && readable) {
            return Err(match cause {
                _ if read_only => StoreError::Io {
                    path: path.to_path_buf(),
                    action: "upgraded",
                    why: format!(
                        "it was last written by an older grimoire (schema {applied}), and this one reads it only once upgraded, which needs a user who may write it; open it once as its owner"
                    ),
                },
                Some(code) => db_failure(path, "upgraded", Some(code)),
                None => StoreError::Io {
                    path: path.to_path_buf(),
                    action: "upgraded",
                    why: "its schema could not be migrated".into(),
                },
            });
        }
    }
    Ok((conn, reading_lock))
}

impl Backend for SqliteBackend {
    fn place(&self) -> String {
        self.path.display().to_string()
    }

    fn read(&mut self) -> Result<Box<dyn LogRead + '_>, StoreError> {
        Ok(Box::new(self.begin(TransactionBehavior::Deferred)?))
    }

    fn write(&mut self) -> Result<Box<dyn LogWrite + '_>, StoreError> {
        self.check_still_in_place()?;
        let known = std::sync::Arc::clone(&self.file_identity);
        let copied_over = self.building.is_none()
            && journal_not_its_files(&self.path, &mut self.journal_scan).is_some();
        let tx = self.begin(TransactionBehavior::Immediate)?;
        // With the write lock held no other writer can start the journal afresh, so the file on
        // disk must continue the journal this connection writes to: another file, or another
        // moment of this one, copied over it in place would take the write's pages half-mixed.
        // (Looked at both before and under the lock: a fold by another process may move the
        // file on between, never away from the journal.)
        if copied_over && journal_not_its_files(&tx.path, &mut Default::default()).is_some() {
            return Err(StoreError::Io {
                path: tx.path.clone(),
                action: "written",
                why: "another campaign file, or a copy of this one from another moment, was copied over it in place while it was open here, so a write would mix the two; start the shell again to open the file as it is now".into(),
            });
        }
        // Every write stamps the file again (giving it an identity when it has none), so every
        // journal that holds a commit carries the stamp on page 1 (see [`journal`]).
        let fail = |e| db_error(&tx.path, "written", e);
        let mut identity: i32 = tx
            .tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(fail)?;
        // Stamped anew, so a journal tells a copy of another moment (see [`journal`]).
        identity = journal::after_a_write(identity, &mut rand::rng());
        tx.tx
            .pragma_update(None, "user_version", identity)
            .map_err(fail)?;
        // Given here, or by another writer since this connection looked: it is the file's now.
        known.store(identity, std::sync::atomic::Ordering::Relaxed);
        Ok(Box::new(tx))
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
            .map_err(|e| db_error(&path, "written", e))?;
        // The tour's mark is the file's identity from now on (see [`journal`]).
        (self.file_identity).store(TOUR_MARK, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    fn publish(mut self: Box<Self>) -> Result<Box<dyn Backend>, StoreError> {
        let Some(building) = self.building.clone() else {
            return Ok(self);
        };
        let target = self.path.clone();
        // The new file must be whole on its own before it appears: the WAL folded back into it and
        // synced, the connection closed cleanly. Any failure here (a full disk) publishes nothing,
        // and dropping `self` removes the private file.
        if let Some(conn) = self.conn.take() {
            fold_the_journal_in(conn).map_err(|e| db_error(&target, "created", e))?;
        }
        if let Some(journal) = ["-wal", "-journal"]
            .map(|suffix| super::files::beside(&building, suffix))
            .into_iter()
            .find(|journal| journal.exists())
        {
            return Err(StoreError::Io {
                path: target,
                action: "created",
                why: format!(
                    "its journal ({}) could not be folded into it; free some space and try again",
                    journal.display()
                ),
            });
        }
        std::fs::File::open(&building)
            .and_then(|f| f.sync_all())
            .map_err(|e| io_error(&target, "created", &e))?;
        self.building = None;
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
        sync_folder(&target);
        Ok(Box::new(SqliteBackend::open(&target)?))
    }
}

/// Folds the write-ahead log into the database file, syncs it, and closes the connection, each
/// step checked (a connection merely dropped ignores a checkpoint that failed on a full disk, and
/// would leave a file that is not whole without its journal).
fn fold_the_journal_in(conn: Connection) -> rusqlite::Result<()> {
    let (busy, frames, folded): (i64, i64, i64) =
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
    if busy != 0 || frames != folded {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            None,
        ));
    }
    conn.pragma_update(None, "journal_mode", "DELETE")?;
    conn.close().map_err(|(_, e)| e)
}

impl Drop for SqliteBackend {
    /// A new file dropped unpublished (a refused command, a panic) leaves nothing behind. A
    /// connection closing folds its journal into the file, unless the file on disk no longer
    /// continues that journal (another file, or another moment, copied over it in place): folded
    /// in, the journal's pages would damage it.
    fn drop(&mut self) {
        if let Some(conn) = &self.conn
            && self.building.is_none()
            && journal_not_its_files(&self.path, &mut Default::default()).is_some()
        {
            let _ = conn.set_db_config(
                rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                true,
            );
        }
        drop(self.conn.take());
        if let Some(building) = self.building.take() {
            remove_database_files(&building);
        }
    }
}

/// The campaign file at `path` held by this process alone, for as long as the connection lives:
/// `None` when another connection (another process, a shell, `serve`, or a command still
/// running) has it open. SQLite's exclusive locking mode takes the file's locks whole and keeps
/// them; the connection never folds a journal into the file when it closes, since the file may
/// have been set aside by then. A journal of another file beside it is read, never folded in: it
/// is set aside with the file. Every connection in WAL mode keeps a read lock in the `-shm` file
/// for as long as it is open, so a write lock on the whole of it, kept with the connection, is
/// taken first.
pub(crate) fn hold_alone(
    path: &Path,
) -> Result<Option<(Connection, Option<std::fs::File>)>, StoreError> {
    let fail = |e| db_error(path, "opened", e);
    let index = super::files::beside(path, "-shm");
    let index_lock = match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&index)
    {
        Ok(file) => {
            use rustix::fs::{FlockOperation, fcntl_lock};
            if fcntl_lock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
                return Ok(None);
            }
            Some(file)
        }
        Err(_) => None,
    };
    let conn = Connection::open_with_flags(plain_name(path), READ_WRITE).map_err(fail)?;
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    )
    .map_err(fail)?;
    conn.busy_timeout(Duration::ZERO).map_err(fail)?;
    let held = conn
        .pragma_update(None, "locking_mode", "EXCLUSIVE")
        .and_then(|()| {
            conn.execute_batch("BEGIN EXCLUSIVE; SELECT count(*) FROM sqlite_schema; COMMIT;")
        });
    match held {
        Ok(()) => Ok(Some((conn, index_lock))),
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => Ok(None),
        Err(e) => Err(fail(e)),
    }
}
