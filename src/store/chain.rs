//! The hash chain: a row as stored, how its hash is computed, and the checkpoint codes that anchor
//! it outside the file. What the rows must hold to be a true record is checked above the store,
//! by the verify module above it.

use crate::event::Event;
use crate::seq::Seq;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The `prev_hash` of the first row.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Hex digits of the hash shown in a checkpoint code (64 bits: plenty to catch a rewrite, short
/// enough to copy onto a character sheet).
pub const CHECKPOINT_HEX: usize = 16;
const MIN_CHECKPOINT_HEX: usize = 8;

/// A row exactly as stored: the unit that is hashed, exported and imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRow {
    pub seq: Seq,
    pub event_id: String,
    pub kind: String,
    pub schema_version: u32,
    pub payload: String,
    pub game_time: u64,
    pub recorded_at: String,
    pub session: Option<u32>,
    pub actor: String,
    pub prev_hash: String,
    pub hash: String,
}

impl StoredRow {
    /// A column holding what grimoire never writes there: an event id that is not a UUID, a
    /// recorded time that is not an RFC 3339 time, a payload not on one line. (All are free text
    /// to the database, so an export or a file edited by hand could carry a forged line or a
    /// terminal escape in them.)
    pub fn shape_problem(&self) -> Option<String> {
        let seq = self.seq;
        if self.event_id.len() != 36 || uuid::Uuid::try_parse(&self.event_id).is_err() {
            return Some(format!(
                "#{seq}: its event id is not a UUID, as grimoire writes every event id"
            ));
        }
        if chrono::DateTime::parse_from_rfc3339(&self.recorded_at).is_err() {
            return Some(format!(
                "#{seq}: its recorded time is not an RFC 3339 time, as grimoire writes it"
            ));
        }
        // An export carries each payload verbatim on its event's line: one that spans lines, or
        // has space around it, could not be carried byte for byte.
        let p = &self.payload;
        if p.bytes().any(|b| b == b'\n' || b == b'\r') || p.trim() != p {
            return Some(format!(
                "#{seq}: its payload is not one line of JSON with nothing around it, as grimoire writes every payload"
            ));
        }
        None
    }

    /// A payload of [`crate::event::CANONICAL_SINCE`] or later not in the canonical form
    /// (docs/export.md): such a row cannot be read, and nothing more of it is checked.
    pub fn canonical_problem(&self) -> Option<String> {
        if self.schema_version < crate::event::CANONICAL_SINCE {
            return None;
        }
        crate::event::canonical::problem(&self.payload, self.schema_version).map(|why| {
            format!(
                "#{} cannot be read: its payload is not in the canonical form grimoire writes (docs/export.md): {why}",
                self.seq
            )
        })
    }

    /// The row's event, when it can be read: in the canonical form where its version requires
    /// it, and of a shape grimoire knows.
    pub fn event(&self) -> Result<Event, String> {
        if let Some(problem) = self.canonical_problem() {
            return Err(problem);
        }
        Event::from_stored(&self.kind, self.schema_version, &self.payload)
            .map_err(|e| format!("#{} cannot be read: {e}", self.seq))
    }

    /// Texts that break the rules of the row's payload version: from
    /// [`crate::event::TEXT_RULES_SINCE`] the text rules (`text::check_row`), before it only a
    /// line feed, which the first grimoire already refused.
    pub fn text_problem(&self) -> Option<String> {
        let checked = if self.schema_version >= crate::event::TEXT_RULES_SINCE {
            crate::text::check_row(&self.actor, &self.payload)
        } else {
            crate::text::check_one_line_row(&self.actor, &self.payload)
        };
        checked.err().map(|e| format!("#{}: {e}", self.seq))
    }

    /// A row written in an older payload version than a row before it: grimoire writes each row in
    /// the newest version it knows, and a campaign only ever moves on to a newer grimoire, so
    /// versions never go back. (An older version also skips the text rules of later ones.)
    pub fn version_went_back(&self, newest_before: u32) -> Option<String> {
        (self.schema_version < newest_before).then(|| {
            format!(
                "#{}: its payload is version {}, after events of version {newest_before}: grimoire never goes back to an older version, so this row was written by hand",
                self.seq, self.schema_version
            )
        })
    }

    /// SHA-256 over `prev_hash` (as its 64 hex characters) followed by each stored field, in column
    /// order, as an 8-byte big-endian byte length and the field's UTF-8 text. Numbers are written in
    /// decimal; an absent session is the empty string. Length prefixes make the encoding unambiguous.
    pub fn compute_hash(&self) -> String {
        let session = self.session.map(|s| s.to_string()).unwrap_or_default();
        let fields: [&str; 9] = [
            &self.seq.to_string(),
            &self.event_id,
            &self.kind,
            &self.schema_version.to_string(),
            &self.payload,
            &self.game_time.to_string(),
            &self.recorded_at,
            &session,
            &self.actor,
        ];
        let mut hasher = Sha256::new();
        hasher.update(self.prev_hash.as_bytes());
        for field in fields {
            hasher.update((field.len() as u64).to_be_bytes());
            hasher.update(field.as_bytes());
        }
        hex::encode(hasher.finalize())
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint::of(self.seq, &self.hash)
    }
}

/// A `SEQ:HASH` code the players note down to anchor the chain outside the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checkpoint {
    pub seq: Seq,
    pub hash_prefix: String,
}

impl Checkpoint {
    pub fn of(seq: Seq, hash: &str) -> Checkpoint {
        // Any text: `verify` makes one of a row as stored, whatever it holds.
        Checkpoint {
            seq,
            hash_prefix: hash.chars().take(CHECKPOINT_HEX).collect(),
        }
    }
}

impl std::fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.seq, self.hash_prefix)
    }
}

impl std::str::FromStr for Checkpoint {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hint = "a checkpoint is SEQ:HASH as `grimoire head` or `session end` printed it, e.g. 42:9f86d081884c7d65";
        let (seq, hash) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("'{text}' has no ':'; {hint}"))?;
        let seq: Seq =
            seq.parse().ok().filter(|&seq| seq > 0).ok_or_else(|| {
                format!("'{seq}' is not an event number (they start at 1); {hint}")
            })?;
        let hash = hash.to_ascii_lowercase();
        if hash.len() < MIN_CHECKPOINT_HEX
            || hash.len() > 64
            || !hash.chars().all(|c| c.is_ascii_hexdigit())
        {
            return Err(format!("'{hash}' is not 8 to 64 hex digits; {hint}"));
        }
        Ok(Checkpoint {
            seq,
            hash_prefix: hash,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: Seq, prev_hash: &str) -> StoredRow {
        let mut row = StoredRow {
            seq,
            event_id: format!("id-{seq}"),
            kind: "session_ended".into(),
            schema_version: 1,
            payload: r#"{"kind":"session_ended","number":1}"#.into(),
            game_time: 0,
            recorded_at: "2026-01-01T00:00:00Z".into(),
            session: Some(1),
            actor: "gm".into(),
            prev_hash: prev_hash.into(),
            hash: String::new(),
        };
        row.hash = row.compute_hash();
        row
    }

    #[test]
    fn every_field_is_bound_into_the_hash() {
        let base = row(Seq(2), GENESIS_HASH);
        type Change = Box<dyn Fn(&mut StoredRow)>;
        let changes: Vec<Change> = vec![
            Box::new(|r| r.seq = Seq(3)),
            Box::new(|r| r.event_id.push('x')),
            Box::new(|r| r.kind.push('x')),
            Box::new(|r| r.schema_version = 2),
            Box::new(|r| r.payload.push(' ')),
            Box::new(|r| r.game_time = 1),
            Box::new(|r| r.recorded_at.push('x')),
            Box::new(|r| r.session = None),
            Box::new(|r| r.actor.push('x')),
            Box::new(|r| r.prev_hash = "1".repeat(64)),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = base.clone();
            change(&mut changed);
            assert_ne!(
                changed.compute_hash(),
                base.hash,
                "change {i} went unnoticed"
            );
        }
    }

    #[test]
    fn checkpoints_parse_from_the_printed_code_only() {
        let cp: Checkpoint = "42:9F86D081884C7D65".parse().unwrap();
        assert_eq!(
            cp,
            Checkpoint {
                seq: Seq(42),
                hash_prefix: "9f86d081884c7d65".into()
            }
        );
        for bad in ["42", "x:9f86d081", "42:9f86", "42:zzzzzzzzzz", ""] {
            assert!(bad.parse::<Checkpoint>().is_err(), "{bad}");
        }
    }
}
