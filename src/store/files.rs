//! Files beside a campaign file: private names, removal with the WAL companions, and operating-system
//! failures in words a person can act on.

use super::StoreError;
use rand::Rng;
use std::path::{Path, PathBuf};

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

/// The folder holding `path` (`.` for a bare file name).
pub(crate) fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    }
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
        ErrorKind::NotADirectory => {
            "a part of the path before the file's name is a file, not a folder".to_string()
        }
        // A wrapped error (a temporary file's, which adds its own path) has lost its number: the
        // path is looked at again to say why.
        _ if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
            || std::fs::metadata(path)
                .is_err_and(|again| again.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())) =>
        {
            "it is a symbolic link, and the links from there lead round in a circle (or too many deep) without reaching a file".to_string()
        }
        _ => format!("the operating system said: {e}"),
    };
    StoreError::Io {
        path: path.to_path_buf(),
        action,
        why,
    }
}

/// What SQLite names the files it keeps beside a database: the write-ahead log, its index, and the
/// rollback journal. The first and last may hold committed transactions not yet in the file, so they
/// are part of the campaign.
pub const JOURNAL_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// `path` with `suffix` added to its file name (`grimoire.db` → `grimoire.db-wal`).
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut file = path.as_os_str().to_owned();
    file.push(suffix);
    PathBuf::from(file)
}

/// The journal files SQLite would read as part of a database at `path`, that exist: a new campaign
/// created there would adopt their contents (an old campaign's last events, resurrected under a new
/// name, or an index file that is not ours), so creating one is refused while they lie there. They
/// may be the only copy of a moved campaign's last events, so grimoire never deletes them.
pub fn journals_beside(path: &Path) -> Vec<PathBuf> {
    JOURNAL_SUFFIXES
        .iter()
        .map(|suffix| beside(path, suffix))
        .filter(|journal| journal.symlink_metadata().is_ok())
        .collect()
}

/// Removes a database file and its WAL companions, if present.
pub fn remove_database_files(path: &Path) {
    for suffix in std::iter::once("").chain(JOURNAL_SUFFIXES) {
        let _ = std::fs::remove_file(beside(path, suffix));
    }
}

/// Whether `target` is one of the journals SQLite keeps beside the campaign file (or beside any
/// SQLite database): they hold committed events not yet folded into the file, so they are part of
/// it. Told by name as well as by identity, since a journal that does not exist yet would still be
/// read as one once written.
pub(crate) fn is_a_journal(target: &Path, campaign: Option<&Path>) -> bool {
    let canonical = |p: &Path| -> Option<PathBuf> {
        Some(
            std::fs::canonicalize(folder_of(p))
                .ok()?
                .join(p.file_name()?),
        )
    };
    let Some(target) = canonical(target) else {
        return false;
    };
    let campaign = campaign.and_then(|c| follow_links(c).ok().and_then(|c| canonical(&c)));
    // A journal whose database was moved away is recognised by its own header (the write-ahead
    // log's magic number, or the rollback journal's).
    const JOURNAL_MAGIC: [&[u8]; 3] = [
        &[0x37, 0x7f, 0x06, 0x82],
        &[0x37, 0x7f, 0x06, 0x83],
        &[0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7],
    ];
    // Only a regular file's header is read: opening a FIFO to read would wait for a writer.
    let header = |path: &Path| -> Vec<u8> {
        if path.is_file() {
            first_bytes(path).unwrap_or_default()
        } else {
            Vec::new()
        }
    };
    if JOURNAL_MAGIC
        .iter()
        .any(|magic| header(&target).starts_with(magic))
    {
        return true;
    }
    JOURNAL_SUFFIXES.iter().any(|suffix| {
        campaign
            .as_ref()
            .is_some_and(|c| beside(c, suffix) == target)
            || target
                .to_str()
                .and_then(|t| t.strip_suffix(suffix))
                .is_some_and(|database| header(Path::new(database)).starts_with(SQLITE_HEADER))
    })
}

/// Syncs the folder holding `path`, so that a name just linked there survives a power cut. Best
/// effort: some file systems refuse to sync a folder, and the file itself is already synced.
pub(crate) fn sync_folder(path: &Path) {
    if let Ok(dir) = std::fs::File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
}

/// Removes what an earlier creation of `path` left when its process died before cleaning up (a
/// kill, a power cut, SIGXFSZ before grimoire ignored it): private files named for `path` whose
/// process is gone. A living process's file, or any other file, is left alone.
pub(crate) fn remove_stale_creations(path: &Path) {
    let Some(name) = path.file_name() else {
        return;
    };
    let prefix = format!(".{}.creating-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        // .NAME.creating-PID-RANDOM, perhaps followed by SQLite's -wal, -shm or -journal.
        let mut parts = rest.splitn(3, '-');
        let (Some(pid), Some(random)) = (parts.next(), parts.next()) else {
            continue;
        };
        let companion = parts.next();
        let ours = !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && random.len() == 16
            && random.bytes().all(|b| b.is_ascii_hexdigit())
            && companion.is_none_or(|c| JOURNAL_SUFFIXES.contains(&format!("-{c}").as_str()));
        if ours
            && let Ok(pid) = pid.parse::<u32>()
            && !process_lives(pid)
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id is running (on Linux, as /proc shows it). When it cannot be told,
/// the process is taken to live, so its file stays.
fn process_lives(pid: u32) -> bool {
    pid == std::process::id()
        || Path::new(&format!("/proc/{pid}")).exists()
        || !Path::new("/proc/self").exists()
}

/// The first bytes of a SQLite database file.
pub(crate) const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

/// The path a chain of symbolic links leads to (the path itself when it is not a link).
pub(crate) fn follow_links(path: &Path) -> Result<PathBuf, String> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current).map_err(|e| e.to_string())?;
                current = match current.parent() {
                    Some(folder) if next.is_relative() => folder.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err("it is a symbolic link in a loop of links".into())
}

/// The first 64 bytes of a file (fewer when it is shorter).
pub(crate) fn first_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut start = Vec::with_capacity(64);
    use std::io::Read;
    std::fs::File::open(path)?
        .take(64)
        .read_to_end(&mut start)?;
    Ok(start)
}
