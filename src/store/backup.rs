//! `backup`: a copy of the whole campaign as one consistent read sees it, in a new SQLite file.

use super::backend::{Backend, InsertError};
use super::{Checkpoint, Location, Store, StoreError};
use crate::seq::Seq;
use std::ops::ControlFlow;
use std::path::Path;

impl Store {
    /// Writes the whole campaign (events, the GM's secrets, snapshots) to a new SQLite file at
    /// `to`, as one consistent read sees it while others go on writing. The copy is built under a
    /// private name with mode 0600 (it holds the secrets) and appears only whole; a path that
    /// already exists is refused, so a backup never writes over anything. Returns the copy's head.
    /// Once `stopped` says so (a signal came), the copy stops and its private file is removed.
    pub fn backup(
        &mut self,
        to: &Path,
        stopped: &dyn Fn() -> bool,
    ) -> Result<Option<Checkpoint>, StoreError> {
        if to.symlink_metadata().is_ok() {
            return Err(StoreError::Refused {
                path: to.to_path_buf(),
                why: "it already exists, and a backup goes only to a new path; choose another"
                    .into(),
            });
        }
        let mut building = Store::create_new(Location::File(to.to_path_buf()))?;
        copy(&mut *self.backend, &mut *building.store().backend, stopped)?;
        building.publish()?.head()
    }
}

/// Copies every row, secret and snapshot of `from`, as one read sees them, into the empty `into`,
/// in one write: through the seam, so any backend backs up into any other.
fn copy(
    from: &mut dyn Backend,
    into: &mut dyn Backend,
    stopped: &dyn Fn() -> bool,
) -> Result<(), StoreError> {
    let mut from = from.read()?;
    let mut to = into.write()?;
    let copied = |e: InsertError| match e {
        InsertError::Duplicate => {
            StoreError::Internal("a backup's new campaign already held a copied key".into())
        }
        InsertError::Failed(e) => e,
    };
    from.rows(Seq(1), Seq::END, &mut |row| {
        if stopped() {
            return Err(StoreError::Stopped);
        }
        to.insert_row(&row).map_err(copied)?;
        Ok(ControlFlow::Continue(()))
    })?;
    for (kind, key, value) in from.secrets()? {
        if stopped() {
            return Err(StoreError::Stopped);
        }
        to.insert_secret(&kind, &key, &value).map_err(copied)?;
    }
    // Snapshots only save replay time: one that cannot be read (damaged in the file) is left out
    // of the copy rather than stopping the backup of a campaign whose log is whole, or being
    // copied into it as damage.
    for snapshot in from.snapshots(Seq::END, u64::MAX)? {
        if stopped() {
            return Err(StoreError::Stopped);
        }
        if let Ok(Some(state)) = from.snapshot(snapshot.seq)
            && super::replay::parse_snapshot(snapshot.seq, &state).is_some()
        {
            to.put_snapshot(snapshot.seq, &snapshot.format, &snapshot.head_hash, &state)?;
        }
    }
    if stopped() {
        return Err(StoreError::Stopped);
    }
    to.commit()
}

/// What `restore` did: the restored campaign's head, and the files it set aside.
pub struct Restored {
    pub head: Option<Checkpoint>,
    pub set_aside: Vec<std::path::PathBuf>,
}

impl Store {
    /// Puts a copy of the campaign file `backup` in the place of the campaign file `into`. The
    /// copy is built whole under a private name first (a backup of the backup: its own identity,
    /// no journal). Then, holding `into` alone (refused while any other connection has it open),
    /// the file there and every journal beside it are moved aside together to `aside` (with the
    /// journals' suffixes), never deleted, and the copy takes the place. A journal left by a
    /// killed process thus stays with the file it belongs to.
    pub fn restore(
        backup: &Path,
        into: &Path,
        aside: &Path,
        stopped: &dyn Fn() -> bool,
    ) -> Result<Restored, StoreError> {
        use super::files::{JOURNAL_SUFFIXES, beside, private_name, sync_folder};
        let same = |a: &Path, b: &Path| {
            use std::os::unix::fs::MetadataExt;
            match (std::fs::metadata(a), std::fs::metadata(b)) {
                (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
                _ => false,
            }
        };
        if same(backup, into) {
            return Err(StoreError::Refused {
                path: backup.to_path_buf(),
                why: "it is the campaign file itself; give the path of a backup `grimoire backup` wrote".into(),
            });
        }
        if std::fs::metadata(into).is_ok_and(|m| !m.is_file()) {
            return Err(StoreError::Refused {
                path: into.to_path_buf(),
                why: "it is a device, pipe, socket or folder, not a campaign file; give --db the path of a campaign file".into(),
            });
        }
        if !backup.is_file() {
            let what = match std::fs::metadata(backup) {
                Err(_) => "there is no file there",
                Ok(meta) if meta.is_dir() => "it is a folder",
                Ok(_) => "it is a device, pipe or socket, not a file",
            };
            return Err(StoreError::Io {
                path: backup.to_path_buf(),
                action: "read",
                why: format!("{what}; give the path of a backup `grimoire backup` wrote"),
            });
        }
        let copy = private_name(into, "restoring");
        // The backup is the argument given, not --db: say what it is in those words.
        let mut source = Store::open(Location::File(backup.to_path_buf())).map_err(|e| match e {
            StoreError::NotGrimoire(path) => StoreError::Refused {
                path,
                why: "it is not a campaign file, so not a backup grimoire wrote; give the path of a file `grimoire backup` wrote".into(),
            },
            other => other,
        })?;
        let head = source.backup(&copy, stopped)?;
        drop(source);
        let placed = (|| {
            let mut set_aside = Vec::new();
            let held = match into.symlink_metadata() {
                Err(_) => None,
                Ok(_) => {
                    // The journals there now: any other one is the holding connection's own.
                    let there: Vec<&str> = JOURNAL_SUFFIXES
                        .into_iter()
                        .filter(|suffix| beside(into, suffix).symlink_metadata().is_ok())
                        .collect();
                    let held = super::sqlite::hold_alone(into)?.ok_or_else(|| StoreError::Refused {
                        path: into.to_path_buf(),
                        why: "another process has it open (a `grimoire shell`, `serve`, or a command still running): stop it, then restore again; nothing was changed".into(),
                    })?;
                    for suffix in std::iter::once("").chain(JOURNAL_SUFFIXES) {
                        let (from, to) = (beside(into, suffix), beside(aside, suffix));
                        if from.symlink_metadata().is_ok() {
                            std::fs::rename(&from, &to)
                                .map_err(|e| super::files::io_error(&from, "set aside", &e))?;
                            if suffix.is_empty() || there.contains(&suffix) {
                                set_aside.push(to);
                            } else {
                                // Made by this restore's own look at the file: nobody's journal.
                                let _ = std::fs::remove_file(&to);
                            }
                        }
                    }
                    Some(held)
                }
            };
            // Linked, not renamed: a file a racer created there meanwhile is never replaced.
            std::fs::hard_link(&copy, into).map_err(|e| {
                let names: Vec<String> = set_aside.iter().map(|p| p.display().to_string()).collect();
                let e = match super::files::io_error(into, "restored", &e) {
                    StoreError::Io { why, .. } => why,
                    other => other.to_string(),
                };
                StoreError::Io {
                    path: into.to_path_buf(),
                    action: "restored",
                    why: format!(
                        "the backup could not be put in its place ({e}); the campaign file was set aside as {}: move it back to use it",
                        names.join(", ")
                    ),
                }
            })?;
            sync_folder(into);
            drop(held);
            Ok(set_aside)
        })();
        let _ = std::fs::remove_file(&copy);
        let set_aside = placed?;
        Ok(Restored { head, set_aside })
    }
}
