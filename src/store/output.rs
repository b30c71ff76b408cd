//! Files grimoire writes besides the campaign file (an export, a report): the rules that keep a careless
//! path from destroying anything.
//!
//! - A symbolic link is followed and its target written; the link itself is never replaced.
//! - The target must be a new path or a regular file: a folder, device, FIFO or socket is refused.
//! - The campaign file being read, or any other SQLite database, is never written over.
//! - An existing file is replaced only when it is grimoire's own output of the same kind (or empty);
//!   anything else needs `--force`.
//! - The campaign file's journals (`-wal`, `-shm`, `-journal`) are part of it, and never written.
//! - The output is written to an unnamed file in the target's folder (Linux's O_TMPFILE) and given
//!   its name only once complete and synced, so a stop at any moment, `kill -9` included, leaves no
//!   partial file under any name (one holding secrets least of all). Where the file system has no
//!   unnamed files, a private name beside the target is used and removed on any failure.
//! - A file that holds secrets is created with mode 0600.

use super::StoreError;
use super::files::{SQLITE_HEADER, first_bytes, follow_links, io_error, private_name};
use std::fs::File;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What kind of file is being written, so that only an earlier one of the same kind is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// `grimoire export`: JSON Lines beginning with the log's first event.
    Export,
    /// `grimoire report`: an HTML page beginning with the report's mark.
    Report,
}

/// The first bytes of every `grimoire report` page.
pub const REPORT_MARK: &str = "<!DOCTYPE html>\n<!-- grimoire report -->\n";

impl OutputKind {
    fn noun(self) -> &'static str {
        match self {
            OutputKind::Export => "a grimoire export",
            OutputKind::Report => "a grimoire report",
        }
    }

    /// Whether `start`, the first bytes of an existing file, is this kind of grimoire output.
    fn recognises(self, start: &[u8]) -> bool {
        match self {
            OutputKind::Export => start.starts_with(br#"{"seq":1,"event_id":""#),
            OutputKind::Report => start.starts_with(REPORT_MARK.as_bytes()),
        }
    }
}

/// What a command asks of its output file.
pub struct OutputRequest<'a> {
    pub target: &'a Path,
    /// The campaign file the command reads, never to be written over (none for a campaign in a
    /// database server).
    pub campaign: Option<&'a Path>,
    pub kind: OutputKind,
    /// The output holds the GM's secrets: mode 0600.
    pub secret: bool,
    /// Replace an existing file that is not grimoire's own output of this kind.
    pub force: bool,
}

/// An output file being written; [`OutputFile::commit`] puts it in place.
pub struct OutputFile {
    file: File,
    pending: Pending,
    /// Where the output goes: the request's path with any symbolic links followed.
    target: PathBuf,
    shown: PathBuf,
}

/// Where the output waits until it is complete.
enum Pending {
    /// An unnamed file in the target's folder: it vanishes with the process unless linked.
    Unnamed,
    /// A private name beside the target (a file system without unnamed files), removed on drop.
    Named(tempfile::TempPath),
}

impl OutputFile {
    /// Checks the target against the rules above and opens a private partial file beside it.
    pub fn create(request: &OutputRequest<'_>) -> Result<OutputFile, StoreError> {
        let shown = request.target.to_path_buf();
        let refuse = |why: String| StoreError::Refused {
            path: shown.clone(),
            why,
        };
        let target = follow_links(request.target).map_err(refuse)?;
        if super::files::is_a_journal(&target, request.campaign) {
            return Err(refuse(
                "it is a journal of the campaign file (or of another database), which holds events not yet folded into the file and is part of it; write the output to another file"
                    .into(),
            ));
        }
        if let Ok(meta) = std::fs::metadata(&target) {
            if !meta.is_file() {
                let what = if meta.is_dir() {
                    "a folder"
                } else {
                    "not a regular file (a device, FIFO or socket)"
                };
                return Err(refuse(format!(
                    "it is {what}; give the path of a file to write"
                )));
            }
            if let Some(Ok(campaign)) = request.campaign.map(std::fs::metadata)
                && (campaign.dev(), campaign.ino()) == (meta.dev(), meta.ino())
            {
                return Err(refuse(
                    "it is the campaign file itself (--db); write the output to another file"
                        .into(),
                ));
            }
            // What is there must be seen before it is replaced: a file that cannot be read could be
            // anything (a campaign file among them).
            let start = first_bytes(&target).map_err(|e| {
                let why = match io_error(&shown, "read", &e) {
                    StoreError::Io { why, .. } => why,
                    other => other.to_string(),
                };
                refuse(format!(
                    "it exists, and grimoire could not look into it to see what it holds ({why}); it never replaces a file it cannot read: choose another path, or make this one readable"
                ))
            })?;
            if start.starts_with(SQLITE_HEADER) {
                return Err(refuse(
                    "it is a database (perhaps another campaign file), which grimoire never writes over; choose another path"
                        .into(),
                ));
            }
            if !start.is_empty() && !request.kind.recognises(&start) && !request.force {
                return Err(refuse(format!(
                    "it exists and is not {}; add --force to replace it, or choose another path",
                    request.kind.noun()
                )));
            }
        }
        let folder = super::files::folder_of(&target);
        let (file, pending) = match unnamed_file_in(&folder) {
            Ok(file) => (file, Pending::Unnamed),
            Err(_) => {
                let name = target
                    .file_name()
                    .map(|n| format!(".{}.", n.to_string_lossy()))
                    .unwrap_or_else(|| ".grimoire.".into());
                // tempfile creates the file with mode 0600 and removes it when dropped unpersisted.
                let (file, path) = tempfile::Builder::new()
                    .prefix(&name)
                    .suffix(".partial")
                    .tempfile_in(&folder)
                    .map_err(|e| io_error(&shown, "written", &e))?
                    .into_parts();
                (file, Pending::Named(path))
            }
        };
        let mode = if request.secret { 0o600 } else { 0o644 };
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(|e| io_error(&shown, "written", &e))?;
        Ok(OutputFile {
            file,
            pending,
            target,
            shown,
        })
    }

    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Syncs the complete output and gives it the target's name.
    pub fn commit(self) -> Result<(), StoreError> {
        let OutputFile {
            file,
            pending,
            target,
            shown,
        } = self;
        let fail = |e: std::io::Error| io_error(&shown, "written", &e);
        file.sync_all().map_err(fail)?;
        match pending {
            Pending::Named(path) => path.persist(&target).map_err(|e| fail(e.error))?,
            Pending::Unnamed => match link_unnamed(&file, &target) {
                Ok(()) => {}
                // Replacing an earlier output: link under a private name, then rename over it (a
                // rename replaces atomically; a link never replaces). The private name exists only
                // for that instant, and only once the output is complete.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let private = private_name(&target, "output");
                    link_unnamed(&file, &private).map_err(fail)?;
                    if let Err(e) = std::fs::rename(&private, &target) {
                        let _ = std::fs::remove_file(&private);
                        return Err(fail(e));
                    }
                }
                Err(e) => return Err(fail(e)),
            },
        }
        super::files::sync_folder(&target);
        Ok(())
    }
}

/// An unnamed file in `folder`, mode 0600, that disappears with the process unless
/// [`link_unnamed`] names it.
fn unnamed_file_in(folder: &Path) -> std::io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        folder,
        OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )?;
    Ok(File::from(fd))
}

/// Gives an unnamed file the name `to`; fails if `to` exists. Through /proc/self/fd, which needs no
/// privilege, or else by the descriptor itself (AT_EMPTY_PATH, which may need one).
fn link_unnamed(file: &File, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{AtFlags, CWD};
    use std::os::fd::AsRawFd;
    let by_proc = format!("/proc/self/fd/{}", file.as_raw_fd());
    match rustix::fs::linkat(CWD, by_proc.as_str(), CWD, to, AtFlags::SYMLINK_FOLLOW) {
        Err(e) if e == rustix::io::Errno::NOENT && !Path::new("/proc/self/fd").exists() => {
            rustix::fs::linkat(file, "", CWD, to, AtFlags::EMPTY_PATH)?;
            Ok(())
        }
        other => Ok(other?),
    }
}
