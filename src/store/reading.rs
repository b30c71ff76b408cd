//! Reads that cost what they print: the newest events first, and the sessions' entropy without
//! streaming the log.

use super::replay::decode;
use super::{Store, StoreError};
use crate::event::{Event, Recorded};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// How many rows a backwards read takes at a time.
const CHUNK: u64 = 256;

impl Store {
    /// Calls `visit` with the events from `upto` back to `from`, newest first, until it breaks: a
    /// `log --limit 20` reads about twenty rows (more when a filter skips some), however long the
    /// campaign.
    pub fn for_each_event_backwards(
        &mut self,
        from: u64,
        upto: u64,
        mut visit: impl FnMut(Recorded) -> Result<ControlFlow<()>, StoreError>,
    ) -> Result<(), StoreError> {
        let mut high = upto;
        while high >= from.max(1) {
            let low = high.saturating_sub(CHUNK - 1).max(from).max(1);
            let mut chunk = Vec::new();
            self.for_each_event(low, Some(high), |r| {
                chunk.push(r);
                Ok(())
            })?;
            for recorded in chunk.into_iter().rev() {
                if visit(recorded)?.is_break() {
                    return Ok(());
                }
            }
            high = low - 1;
        }
        Ok(())
    }

    /// Calls `visit` with the events from `from` to `upto`, oldest first, until it breaks (a reader
    /// gone away: `grimoire log | head`).
    pub fn for_each_event_while(
        &mut self,
        from: u64,
        upto: u64,
        mut visit: impl FnMut(Recorded) -> Result<ControlFlow<()>, StoreError>,
    ) -> Result<(), StoreError> {
        let mut log = self.backend.read()?;
        log.rows(from, upto, &mut |row| visit(super::log::to_recorded(row)?))
    }

    /// The entropy each session was started with, by number: the players' witness to the seeded
    /// dice rolled in it. Reads the sessions' rows only.
    pub fn session_entropies(&mut self) -> Result<BTreeMap<u32, String>, StoreError> {
        let mut log = self.backend.read()?;
        let mut entropies = BTreeMap::new();
        log.rows_of_kind("session_started", 0, u64::MAX, &mut |row| {
            if let Event::SessionStarted { number, entropy } = decode(&row)? {
                entropies.insert(number, entropy);
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(entropies)
    }
}
