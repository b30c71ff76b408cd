//! The export format: JSON Lines, one stored row per line, exactly as hashed, so the chain can be
//! checked from the file alone. A full backup (`--with-secrets`) adds one line per secret.
//!
//! Event line: `{"seq":…,"event_id":…,"kind":…,"schema_version":…,"payload":{…},"game_time":…,
//! "recorded_at":…,"session":…,"actor":…,"prev_hash":…,"hash":…}` — `payload` is the stored JSON
//! text embedded verbatim. Secret line: `{"secret":KIND,"key":…,"value":…}`.

use super::chain::StoredRow;
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

/// A line with nothing on it but JSON's own spaces: one an export may hold between its lines.
/// (Other spaces, a byte-order mark among them, make a line that is not JSON.)
pub fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}
