//! The store's writes for the integration tests, and for them only: built with the `testkit`
//! feature, which the tests turn on (Cargo.toml). In every other build `Store::write`, `bulk` and
//! `import` are the crate's own, so the compiler holds each write behind the campaign's door.

use super::append::{Appender, WriteView};
use super::{Batch, RowCheck, Stamp, Store, StoreError, Written};
use crate::Error;
use crate::state::CampaignState;
use std::rc::Rc;

/// [`Store`]'s writes, as the crate calls them.
pub trait Writes {
    /// [`Store::write`]: one decision, appended whole or not at all.
    fn write<F>(&mut self, stamp: Stamp, decide: F) -> Result<Written, Error>
    where
        F: FnOnce(&CampaignState, &mut WriteView<'_>) -> Result<Batch, Error>;
    /// [`Store::bulk`]: many decisions in one transaction.
    fn bulk<T, F>(&mut self, stamp: Stamp, work: F) -> Result<(T, Rc<CampaignState>), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>;
    /// [`Store::import`]: an export's lines into an empty campaign, each held to `chain`.
    fn import(
        &mut self,
        lines: impl IntoIterator<Item = (u64, Result<String, String>)>,
        chain: &mut dyn RowCheck,
    ) -> Result<(u64, u64), StoreError>;
}

impl Writes for Store {
    fn write<F>(&mut self, stamp: Stamp, decide: F) -> Result<Written, Error>
    where
        F: FnOnce(&CampaignState, &mut WriteView<'_>) -> Result<Batch, Error>,
    {
        Store::write(self, stamp, decide)
    }

    fn bulk<T, F>(&mut self, stamp: Stamp, work: F) -> Result<(T, Rc<CampaignState>), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>,
    {
        Store::bulk(self, stamp, work)
    }

    fn import(
        &mut self,
        lines: impl IntoIterator<Item = (u64, Result<String, String>)>,
        chain: &mut dyn RowCheck,
    ) -> Result<(u64, u64), StoreError> {
        Store::import(self, lines, chain)
    }
}
