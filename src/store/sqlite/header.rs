//! The campaign file read by hand (its first page, where the stamp is) without letting go of
//! SQLite's locks. SQLite's locks are POSIX record locks, which belong to the process: closing any
//! descriptor of the file in the process drops every one of them. Another program's SQLite (the
//! sqlite3 tool, a database browser) would then take this process's connections for gone, fold
//! the journal and delete it under them, and what they wrote next would be lost, acknowledged. So
//! a store keeps one descriptor of its file open from before its connection opens until after it
//! closes, shared with every other store of the process on the same file, and every read by hand
//! goes through it; a file no store of the process holds has no lock of the process to lose.

use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};

/// A file as the kernel knows it: its device and inode.
type FileKey = (u64, u64);

/// The descriptors the process's stores hold, by file.
static HELD: Mutex<Vec<(FileKey, Weak<File>)>> = Mutex::new(Vec::new());

fn key(meta: &std::fs::Metadata) -> FileKey {
    (meta.dev(), meta.ino())
}

/// The descriptor held for `file`, if a store of the process holds one.
fn held(file: FileKey) -> Option<Arc<File>> {
    let held = HELD.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    held.iter()
        .find(|(k, _)| *k == file)
        .and_then(|(_, f)| f.upgrade())
}

/// A descriptor of the file at `path`, kept open for as long as the handle (or another store's
/// handle to the same file) lives: taken before a store's connection opens, and dropped after it
/// closes. `None` when the file cannot be opened (the connection's own open then says why).
pub(super) fn hold(path: &Path) -> Option<Arc<File>> {
    if let Some(file) = held(key(&std::fs::metadata(path).ok()?)) {
        return Some(file);
    }
    let file = File::open(path).ok()?;
    // Known by what was opened, whatever took the path's place meanwhile.
    let opened = key(&file.metadata().ok()?);
    let mut held = HELD.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(earlier) = held
        .iter()
        .find(|(k, _)| *k == opened)
        .and_then(|(_, f)| f.upgrade())
    {
        // Another store took one first; this one closes before any lock of it is taken.
        return Some(earlier);
    }
    held.retain(|(_, f)| f.strong_count() > 0);
    let file = Arc::new(file);
    held.push((opened, Arc::downgrade(&file)));
    Some(file)
}

/// Fills `buf` from the start of the file at `path`: through the descriptor a store of the
/// process holds for it, or else through one opened for the read (no store of the process has
/// that file open, so there is no lock of the process on it to lose).
pub(super) fn read_start(path: &Path, buf: &mut [u8]) -> Option<()> {
    let meta = std::fs::metadata(path).ok()?;
    match held(key(&meta)) {
        Some(file) => file.read_exact_at(buf, 0).ok(),
        None => std::io::Read::read_exact(&mut File::open(path).ok()?, buf).ok(),
    }
}
