//! `backup`: a copy of the whole campaign as one consistent read sees it, in a new SQLite file.

use super::backend::Backend;
use super::sqlite::SqliteBackend;
use super::{Checkpoint, Store, StoreError};
use std::path::Path;

impl Store {
    /// Writes the whole campaign (events, the GM's secrets, snapshots) to a new SQLite file at
    /// `to`, as one consistent read sees it while others go on writing. The copy is built under a
    /// private name with mode 0600 (it holds the secrets) and appears only whole; a path that
    /// already exists is refused, so a backup never writes over anything. Returns the copy's head.
    pub fn backup(&mut self, to: &Path) -> Result<Option<Checkpoint>, StoreError> {
        if to.symlink_metadata().is_ok() {
            return Err(StoreError::Refused {
                path: to.to_path_buf(),
                why: "it already exists, and a backup goes only to a new path; choose another"
                    .into(),
            });
        }
        let mut building = SqliteBackend::create_new(to)?;
        self.backend.back_up(&mut building)?;
        let mut copy = Store::on(Box::new(building).publish()?);
        copy.head()
    }
}
