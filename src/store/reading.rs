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
                    chunk.push(super::replay::to_recorded(row)?);
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
        log.rows(from, upto, &mut |row| {
            visit(super::replay::to_recorded(row)?)
        })
    }

    /// The players' entropy in force along the log, from the session edges themselves (never
    /// from the session an event is stamped with, which only `verify` vouches for): each session's
    /// start gives its entropy from there on, each end gives none. Reads the sessions' rows only.
    pub fn entropy_along_the_log(&mut self) -> Result<EntropyAlong, StoreError> {
        let mut log = self.backend.read()?;
        let mut from = BTreeMap::new();
        for kind in ["session_started", "session_ended"] {
            log.rows_of_kind(kind, Seq::START, Seq::END, &mut |row| {
                let entropy = match decode(&row)? {
                    Event::SessionStarted { entropy, .. } => entropy,
                    _ => String::new(),
                };
                from.insert(row.seq, entropy);
                Ok(ControlFlow::Continue(()))
            })?;
        }
        Ok(EntropyAlong(from))
    }
}

/// The players' entropy in force at each point of the log (see
/// [`Store::entropy_along_the_log`]).
pub struct EntropyAlong(BTreeMap<Seq, String>);

impl EntropyAlong {
    /// The entropy in force for the event at `seq`: its session's, or none between sessions.
    pub fn at(&self, seq: Seq) -> &str {
        self.0
            .range(..=seq)
            .next_back()
            .map_or("", |(_, entropy)| entropy.as_str())
    }
}
