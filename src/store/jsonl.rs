//! The export format: JSON Lines, one stored row per line, exactly as hashed, so the chain can be
//! checked from the file alone. A full backup (`--with-secrets`) adds one line per secret.
//!
//! Event line: `{"seq":…,"event_id":…,"kind":…,"schema_version":…,"payload":{…},"game_time":…,
//! "recorded_at":…,"session":…,"actor":…,"prev_hash":…,"hash":…}` — `payload` is the stored JSON
//! text embedded verbatim. Secret line: `{"secret":KIND,"key":…,"value":…}`.

use super::chain::{GENESIS_HASH, StoredRow};
use crate::event::Event;
use crate::seq::Seq;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

#[derive(Serialize)]
struct EventLineOut<'a> {
    seq: Seq,
    event_id: &'a str,
    kind: &'a str,
    schema_version: u32,
    payload: &'a RawValue,
    game_time: u64,
    recorded_at: &'a str,
    session: Option<u32>,
    actor: &'a str,
    prev_hash: &'a str,
    hash: &'a str,
}

#[derive(Serialize)]
struct SecretLineOut<'a> {
    secret: &'a str,
    key: &'a str,
    value: &'a str,
}

/// Every field either kind of line may carry; which ones are present says which kind it is.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineIn {
    secret: Option<String>,
    key: Option<String>,
    value: Option<String>,
    seq: Option<Seq>,
    event_id: Option<String>,
    kind: Option<String>,
    schema_version: Option<u32>,
    payload: Option<Box<RawValue>>,
    game_time: Option<u64>,
    recorded_at: Option<String>,
    #[serde(default)]
    session: Option<u32>,
    actor: Option<String>,
    prev_hash: Option<String>,
    hash: Option<String>,
}

/// One parsed line of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Event(StoredRow),
    Secret {
        kind: String,
        key: String,
        value: String,
    },
}

/// The line for a stored row; a stored payload that is not JSON is damage, named by its seq.
pub fn export_line(row: &StoredRow) -> Result<String, super::StoreError> {
    event_line(row).ok_or_else(|| super::StoreError::Damaged {
        seq: row.seq,
        reason: crate::event::PayloadError::Unreadable {
            kind: row.kind.clone(),
            detail: "not one line of JSON, as grimoire writes it".into(),
        },
    })
}

/// The line for a stored row; `None` when the stored payload is not one line of JSON (a damaged
/// log).
pub fn event_line(row: &StoredRow) -> Option<String> {
    // A line carries the payload as stored, byte for byte: one that would not stay on the line
    // (or keep its surrounding space) cannot be carried.
    if row.payload.contains(['\n', '\r']) || row.payload.trim() != row.payload {
        return None;
    }
    let payload: &RawValue = serde_json::from_str(&row.payload).ok()?;
    serde_json::to_string(&EventLineOut {
        seq: row.seq,
        event_id: &row.event_id,
        kind: &row.kind,
        schema_version: row.schema_version,
        payload,
        game_time: row.game_time,
        recorded_at: &row.recorded_at,
        session: row.session,
        actor: &row.actor,
        prev_hash: &row.prev_hash,
        hash: &row.hash,
    })
    .ok()
}

pub fn secret_line(kind: &str, key: &str, value: &str) -> String {
    serde_json::to_string(&SecretLineOut {
        secret: kind,
        key,
        value,
    })
    .unwrap_or_default()
}

pub fn parse_line(text: &str) -> Result<Line, String> {
    let not_a_line = |e: &serde_json::Error, field: Option<&str>| {
        format!(
            "not a grimoire export line: {}",
            crate::event::json_problem_in_words(e, field)
        )
    };
    // Read plainly first: tracking the path to every field, which only a refusal needs to name
    // the field at fault, was a tenth of an import's time.
    let line: LineIn = match serde_json::from_str(text) {
        Ok(line) => line,
        Err(_) => {
            let mut reader = serde_json::Deserializer::from_str(text);
            let line: LineIn = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
                let field = e.path().to_string();
                let field = (!field.is_empty() && field != ".").then_some(field);
                not_a_line(e.inner(), field.as_deref())
            })?;
            reader.end().map_err(|e| not_a_line(&e, None))?;
            line
        }
    };
    if let Some(kind) = line.secret {
        let (Some(key), Some(value)) = (line.key, line.value) else {
            return Err("a secret line needs \"key\" and \"value\"".into());
        };
        return Ok(Line::Secret { kind, key, value });
    }
    let missing = |field: &str| format!("an event line needs \"{field}\"");
    Ok(Line::Event(StoredRow {
        seq: line.seq.ok_or_else(|| missing("seq"))?,
        event_id: line.event_id.ok_or_else(|| missing("event_id"))?,
        kind: line.kind.ok_or_else(|| missing("kind"))?,
        schema_version: line
            .schema_version
            .ok_or_else(|| missing("schema_version"))?,
        payload: line
            .payload
            .ok_or_else(|| missing("payload"))?
            .get()
            .to_string(),
        game_time: line.game_time.ok_or_else(|| missing("game_time"))?,
        recorded_at: line.recorded_at.ok_or_else(|| missing("recorded_at"))?,
        session: line.session,
        actor: line.actor.ok_or_else(|| missing("actor"))?,
        prev_hash: line.prev_hash.ok_or_else(|| missing("prev_hash"))?,
        hash: line.hash.ok_or_else(|| missing("hash"))?,
    }))
}

/// Checks rows one by one as they arrive: gapless seqs from 1, each linked to the one before and
/// hashing to its stored hash, a readable payload, the campaign's creation first.
pub struct ChainCheck {
    next_seq: Seq,
    prev_hash: String,
    clock: super::chain::RecordedClock,
    names: super::chain::CharacterNames,
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

/// A line with nothing on it but JSON's own spaces: one an export may hold between its lines.
/// (Other spaces, a byte-order mark among them, make a line that is not JSON.)
pub fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// What `grimoire verify` finds in an export's text alone, as the players' page checks the same
/// text: its lines read as import reads them, a line that cannot be read breaking the chain where
/// it stands, an event id given twice refused as a campaign file refuses it, then every row
/// through the checks `verify` runs. An export carries no snapshots, and its secrets are not read.
pub fn verify_export(text: &str) -> super::VerifyReport {
    use super::chain::{Problem, Reveals, Verifier};
    let mut rows: Vec<StoredRow> = Vec::new();
    let mut unreadable = None;
    for line in text.split('\n').filter(|line| !is_blank(line)) {
        match parse_line(line) {
            Ok(Line::Event(row)) => rows.push(row),
            Ok(Line::Secret { .. }) => {}
            Err(why) => {
                unreadable = Some(why);
                break;
            }
        }
    }
    let mut reveals = Reveals::default();
    let events: Vec<Option<Event>> = rows.iter().map(|row| row.event().ok()).collect();
    for event in events.iter().flatten() {
        reveals.note(event);
    }
    let mut verifier = Verifier::new(reveals, Vec::new());
    for (row, event) in rows.iter().zip(&events) {
        if let Some(Event::Amended { seq, event, .. }) = event {
            verifier.expect_amendment(row.seq, *seq, event.as_ref().clone());
        }
    }
    let mut ids = std::collections::HashMap::new();
    for row in &rows {
        if let Some(first) = ids.insert(row.event_id.as_str(), row.seq) {
            verifier.note_problem(
                row.seq,
                format!(
                    "#{} has the event id of #{first}: every event has its own",
                    row.seq
                ),
            );
        }
        verifier.feed(row);
    }
    let mut report = verifier.finish();
    if let (Some(why), None) = (unreadable, &report.chain_break) {
        let seq = Seq(rows.len() as u64 + 1);
        report.chain_break = Some(Problem {
            seq,
            what: format!("the export's line for #{seq} cannot be read: {why}"),
        });
    }
    report
}
