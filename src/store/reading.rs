//! Reads that cost what they print: the newest events first, and the sessions' entropy without
//! streaming the log.

use super::replay::decode;
use super::{Store, StoreError};
use crate::event::{Event, Recorded};
use crate::seq::Seq;
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
        from: Seq,
        upto: Seq,
        visit: impl FnMut(Recorded) -> Result<ControlFlow<()>, StoreError>,
    ) -> Result<(), StoreError> {
        self.for_each_event_backwards_mentioning(from, upto, None, visit)
    }

    /// As [`Store::for_each_event_backwards`], but when `needle` is given only over the events whose
    /// stored text holds it (lowercase ASCII, in any case): a name a filter looks for, so the rows
    /// of everyone else are passed over unread. `visit` still decides what matches.
    pub fn for_each_event_backwards_mentioning(
        &mut self,
        from: Seq,
        upto: Seq,
        needle: Option<&str>,
        mut visit: impl FnMut(Recorded) -> Result<ControlFlow<()>, StoreError>,
    ) -> Result<(), StoreError> {
        // Reading back from past the head would only find empty chunks.
        let head = self
            .backend
            .read()?
            .head()?
            .map_or(Seq::START, |(seq, _)| seq);
        let mut high = upto.min(head);
        // A sieved read finds few rows per chunk: it widens the chunk as it goes back.
        let mut width = CHUNK;
        while high >= from.max(Seq(1)) {
            let low = (high - (width - 1)).max(from).max(Seq(1));
            let mut chunk = Vec::new();
            {
                let mut log = self.backend.read()?;
                let mut keep = |row| {
                    chunk.push(super::log::to_recorded(row)?);
                    Ok(ControlFlow::Continue(()))
                };
                match needle {
                    Some(needle) => log.rows_mentioning(low, high, needle, &mut keep)?,
                    None => log.rows(low, high, &mut keep)?,
                }
            }
            if needle.is_some() {
                width = width.saturating_mul(4).min(CHUNK * 1024);
            }
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
        from: Seq,
        upto: Seq,
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
        log.rows_of_kind("session_started", Seq::START, Seq::END, &mut |row| {
            if let Event::SessionStarted { number, entropy } = decode(&row)? {
                entropies.insert(number, entropy);
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(entropies)
    }
}
