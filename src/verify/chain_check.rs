//! The checks a row must pass as it arrives, before anything after it is read: what import holds
//! every line of an export to, and `verify`'s first check of each row.

use super::clock::RecordedClock;
use super::names::CharacterNames;
use crate::event::Event;
use crate::seq::Seq;
use crate::store::StoredRow;
use crate::store::chain::GENESIS_HASH;

/// Checks rows one by one as they arrive: gapless seqs from 1, each linked to the one before and
/// hashing to its stored hash, a readable payload, the campaign's creation first.
pub struct ChainCheck {
    next_seq: Seq,
    prev_hash: String,
    clock: RecordedClock,
    names: CharacterNames,
    /// The newest payload version read so far.
    newest_version: u32,
}

impl Default for ChainCheck {
    fn default() -> Self {
        ChainCheck {
            next_seq: Seq(1),
            prev_hash: GENESIS_HASH.to_string(),
            clock: Default::default(),
            names: Default::default(),
            newest_version: 0,
        }
    }
}

impl crate::store::RowCheck for ChainCheck {
    fn check(&mut self, row: &StoredRow) -> Result<Event, String> {
        ChainCheck::check(self, row)
    }
}

impl ChainCheck {
    /// Checks the next row; returns its event, read from the payload.
    pub fn check(&mut self, row: &StoredRow) -> Result<Event, String> {
        if row.seq != self.next_seq {
            return Err(format!(
                "event #{} follows #{}: the log must run from #1 without gaps",
                row.seq,
                self.next_seq - 1
            ));
        }
        if row.prev_hash != self.prev_hash {
            return Err(format!("#{} does not link to the event before it", row.seq));
        }
        if row.compute_hash() != row.hash {
            return Err(format!(
                "#{} was changed after it was recorded (its hash does not match)",
                row.seq
            ));
        }
        if let Some(problem) = row.shape_problem() {
            return Err(problem);
        }
        if let Some(problem) = row.version_went_back(self.newest_version) {
            return Err(problem);
        }
        self.newest_version = self.newest_version.max(row.schema_version);
        // SQLite stores signed 64-bit integers: anything larger would come back as another number.
        if i64::try_from(row.game_time).is_err() {
            return Err(format!(
                "#{}: its game_time {} is beyond what a campaign file can store",
                row.seq, row.game_time
            ));
        }
        if let Some(problem) = row.canonical_problem() {
            return Err(problem);
        }
        let event = Event::from_stored(&row.kind, row.schema_version, &row.payload)
            .map_err(|e| format!("#{}: {e}", row.seq))?;
        if let Some(named) = event
            .names_event()
            .filter(|&named| named == 0 || named >= row.seq)
        {
            return Err(format!(
                "#{} names #{named}, which is not an earlier event: grimoire never records that",
                row.seq
            ));
        }
        if let Some(problem) = row.text_problem() {
            return Err(problem);
        }
        if row.seq == 1 && !matches!(event, Event::CampaignCreated { .. }) {
            return Err("#1 must be the campaign's creation".into());
        }
        self.clock.check(row.seq, row.game_time, &event)?;
        self.names.check(row, &event, &self.clock)?;
        self.next_seq += 1;
        self.prev_hash = row.hash.clone();
        Ok(event)
    }

    pub fn events_seen(&self) -> u64 {
        self.next_seq.previous().get()
    }
}
