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
