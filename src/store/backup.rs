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
