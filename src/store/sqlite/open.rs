//! Opening a campaign file: what sits at its path, why SQLite could not open it (in words a person
//! can act on), and the ways a file is opened: in WAL mode, immutable, or as it stands for a reader
//! who may not write beside it.

use super::*;

/// What sits at a campaign's path: the entry itself (a link is not its target) and the file it
/// leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    entry: (u64, u64),
    file: (u64, u64),
}

pub(super) fn identity_of(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let of = |m: std::fs::Metadata| (m.dev(), m.ino());
    Some(Identity {
        entry: of(std::fs::symlink_metadata(path).ok()?),
        file: of(std::fs::metadata(path).ok()?),
    })
}

pub(super) fn journal_of(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let journal = crate::store::files::beside(path, "-wal");
    std::fs::symlink_metadata(journal)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// Maps SQLite failures to messages a person can act on; SQLite's own text never reaches the user.
pub(crate) fn db_error(path: &Path, action: &'static str, error: rusqlite::Error) -> StoreError {
    db_failure(path, action, error.sqlite_error_code())
}

pub(super) fn db_failure(path: &Path, action: &'static str, code: Option<ErrorCode>) -> StoreError {
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
pub(super) fn why_it_cannot_be_opened(path: &Path) -> String {
    let folder = folder_of(path);
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
    // SQLite keeps the WAL journal's files beside the campaign, made by whoever opened it first
    // while none were there: a player who read the campaign leaves them theirs.
    for journal in ["-wal", "-shm"].map(|suffix| crate::store::files::beside(path, suffix)) {
        if let Err(e) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&journal)
            && e.kind() == std::io::ErrorKind::PermissionDenied
        {
            let unreadable = std::fs::File::open(&journal).is_err();
            return format!(
                "SQLite's journal beside it ({}) belongs to another user, who opened the campaign while no one else had it open, and you may not {} it; once no one has the campaign open, that user or an administrator may remove {} and {} if the -wal is empty (0 bytes), or make you their owner",
                journal.display(),
                if unreadable { "read" } else { "write" },
                crate::store::files::beside(path, "-wal").display(),
                crate::store::files::beside(path, "-shm").display()
            );
        }
    }
    // A rollback journal is left by a write cut short in rollback mode, and holds what undoes it:
    // the next opener must read it, so it is not to be removed.
    let rollback = crate::store::files::beside(path, "-journal");
    if let Err(e) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&rollback)
        && e.kind() == std::io::ErrorKind::PermissionDenied
    {
        return format!(
            "SQLite's rollback journal beside it ({}) belongs to another user and you may not use it; it holds what undoes a write cut short, so do not remove it: let that user or an administrator open the campaign once to settle it, or make you its owner",
            rollback.display()
        );
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
pub(super) fn switch_to_wal(conn: &Connection) -> rusqlite::Result<()> {
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
pub(super) fn refuse_a_folder(path: &Path, action: &'static str) -> Result<(), StoreError> {
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

/// The refusal for a path that is a symbolic link to nothing, if it is one: a link to a missing
/// path, or links that lead round in a circle.
pub(super) fn dangling_link(path: &Path) -> Option<StoreError> {
    let target = std::fs::read_link(path).ok().filter(|_| !path.exists())?;
    let circle = std::fs::metadata(path)
        .is_err_and(|e| e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()));
    let why = match circle {
        true => format!(
            "it is a symbolic link to {}, and the links from there lead round in a circle (or too many deep) without reaching a file; give --db the campaign file's own path",
            target.display()
        ),
        false => format!(
            "it is a symbolic link to {}, which does not exist; grimoire opens a campaign file through a link but never creates one behind it: give --db the path the file should have, or remove the link",
            target.display()
        ),
    };
    Some(StoreError::Refused {
        path: path.to_path_buf(),
        why,
    })
}

/// The name SQLite is given for `path`. SQLite reads some names as something other than a file
/// (`file:a.db?mode=ro` as a URI opening `a.db`, `:memory:` as a database in memory), so a relative
/// path is given as `./PATH`, the same file, which it reads as a plain path; every other check here
/// looks at the path as given, and the two must name one file.
pub(super) fn plain_name(path: &Path) -> PathBuf {
    match path.is_relative() {
        true => Path::new(".").join(path),
        false => path.to_path_buf(),
    }
}

/// Opens the file at `real` (a resolved path) as SQLite's immutable open does: read only, no lock
/// taken, no journal file made or read beside it.
pub(super) fn open_immutable(real: &Path) -> rusqlite::Result<Connection> {
    let uri = format!(
        "file://{}?immutable=1",
        percent_encoding::percent_encode(real.as_os_str().as_bytes(), URI_PATH)
    );
    let conn = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// A campaign in WAL mode that this user may only read, in a folder they may not write, with no
/// journal beside it: SQLite cannot make the shared-memory file a reader needs, so it is opened
/// as it stands, the whole campaign being in the file (`None` otherwise). A write its owner makes
/// meanwhile is seen by the next command.
///
/// The file returned holds a read lock on the campaign for as long as it is open. The owner's last
/// connection folds its journal into the file only when it may lock the file whole, so while this
/// reader reads, the owner's writes wait in their journal (left beside the file for the next open to
/// fold) instead of changing pages under a reader that takes no lock of its own.
pub(super) fn open_as_it_stands(path: &Path) -> Option<(Connection, std::fs::File)> {
    let real = std::fs::canonicalize(path).ok()?;
    let held = std::fs::File::open(&real).ok()?;
    lock_for_reading(&held)?;
    let journal_beside = ["-wal", "-shm", "-journal"]
        .iter()
        .any(|suffix| crate::store::files::beside(&real, suffix).exists());
    (!journal_beside).then(|| open_immutable(&real).ok().map(|conn| (conn, held)))?
}

/// Takes a shared lock on the whole of `file`, waiting up to the busy timeout while a writer holds
/// it (the owner folding its journal into the file). The lock is SQLite's own kind, a POSIX record
/// lock, so SQLite's writers see it; it is the process's, and goes when any descriptor of the file
/// in this process closes, which is why [`connect`] closes its first try before taking it.
pub(super) fn lock_for_reading(file: &std::fs::File) -> Option<()> {
    use rustix::fs::{FlockOperation, fcntl_lock};
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match fcntl_lock(file, FlockOperation::NonBlockingLockShared) {
            Ok(()) => return Some(()),
            Err(e)
                if (e == rustix::io::Errno::AGAIN || e == rustix::io::Errno::ACCESS)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return None,
        }
    }
}

/// What a path may hold unescaped in an SQLite URI: letters, digits, `/` and `-._~`.
pub(super) const URI_PATH: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');
