//! Events: the facts the log records. Adding a variant is fine; changing the shape of a shipped one is
//! not (old logs must still read): give it a new variant, or an upcaster in [`Event::from_stored`].

pub mod adg;
pub mod tables;
pub mod vsd;
pub mod words;

pub use words::Words;

use crate::dice::{DiceExpr, Die};
use crate::sheet::Sheet;
use crate::time::{GameDuration, GameTime};
use serde::{Deserialize, Serialize};
use tables::{AdgTables, Attribute};
use vsd::{Alignment, Condition};

/// The payload schema version this build writes for every kind. Version 2 changed no shape: it marks
/// events recorded under the text rules (`rules::text::check_row`), which import holds them to;
/// version 1 events are taken as earlier grimoires recorded them.
pub const SCHEMA_VERSION: u32 = 2;

/// The first version whose events import holds to the text rules.
pub const TEXT_RULES_SINCE: u32 = 2;

/// The oldest version whose payload shapes are today's: read directly, with no upcaster.
const SAME_SHAPES_SINCE: u32 = 1;

/// Declares [`Event`] and, from the very same variant list, `EventOfKind`: serde's remote twin of it
/// that reads a variant *named from outside* (externally tagged). A stored row names its kind in a
/// column, and serde can read an internally tagged enum only by first copying the whole payload into a
/// generic tree to find the tag; naming the variant up front lets each payload be read straight into
/// its event, which took a quarter of an import's time. One list, so the two can never differ.
macro_rules! event_enum {
    ($($variants:tt)*) => {
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum Event { $($variants)* }

        #[derive(Deserialize)]
        #[serde(remote = "Event", rename_all = "snake_case")]
        enum EventOfKind { $($variants)* }
    };
}

event_enum! {
    /// The first event of every log.
    CampaignCreated {
        campaign_id: String,
        name: String,
        /// SHA-256 of dice epoch 1's secret seed.
        seed_commitment: String,
        grimoire_version: String,
    },
    CharacterAdded {
        name: String,
        sheet: Sheet,
    },
    DamageTaken {
        character: String,
        amount: u32,
    },
    Healed {
        character: String,
        amount: u32,
    },
    ClockAdvanced {
        by: GameDuration,
    },
    SessionStarted {
        number: u32,
        /// Player-chosen text mixed into every seeded die of the session.
        entropy: String,
    },
    SessionEnded {
        number: u32,
    },
    /// A free roll (`grimoire roll`), public or sealed.
    DiceRolled {
        expression: DiceExpr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        purpose: Option<String>,
        dice: Vec<Die>,
        /// Absent while the roll is sealed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<i64>,
    },
    /// Opens the sealed dice of the event at `seq`.
    SealedRevealed {
        seq: u64,
        dice: Vec<RevealedDie>,
    },
    /// Undoes the event at `seq`; replay skips it from here on. Both stay in the log.
    Retracted {
        seq: u64,
        reason: String,
    },
    /// Publishes an epoch's seed so anyone can re-derive its dice.
    SeedRevealed {
        epoch: u32,
        seed: String,
    },
    /// An epoch ended but its seed stays secret: sealed dice derived from it are still pending (a
    /// Ceremony scroll may wait months to be read), and publishing the seed would open them. The
    /// reveal of the last of them publishes the seed.
    SeedWithheld {
        epoch: u32,
        /// The events whose sealed dice hold the seed back.
        until: Vec<u64>,
    },
    /// Starts a new dice epoch; follows a seed reveal (or a withheld seed) in the same write.
    EpochStarted {
        epoch: u32,
        seed_commitment: String,
    },
    /// A Dungeon Game tables in force from here on, carried whole (ADG-C5).
    AdgTablesLoaded {
        source: String,
        sha256: String,
        tables: AdgTables,
    },
    /// Two d20s on the word lists: a ritual found, not yet learned (ADG-R2).
    RitualDiscovered {
        character: String,
        ritual: String,
        words: Vec<String>,
        dice: Vec<Die>,
    },
    /// Points of an attribute exerted (ADG-C3).
    Exerted {
        character: String,
        attribute: Attribute,
        amount: u32,
        reason: String,
    },
    RitualLearnAttempted(adg::LearnAttempt),
    RitualCast(adg::Cast),
    /// A night's rest for one or more characters (ADG-C5, ADG-R9, T-2).
    /// A rest: ADG characters heal (a night), VsD characters recover MPs (VSD-6).
    Rested {
        by: GameDuration,
        results: Vec<adg::RestResult>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mp: Vec<vsd::MpRestored>,
        dice: Vec<Die>,
    },
    /// A span of downtime weeks, one activity a week for each character in it (ADG-C5, T-2).
    DowntimeTaken(adg::Downtime),
    /// Downtime weeks not spent scribing, as recorded before downtime's nights healed (ADG-C5, T-2).
    DowntimeSpent {
        character: String,
        weeks: u32,
        by: GameDuration,
        restored_exertion: bool,
    },
    /// A scroll written over one downtime week (ADG-S3); its id is this event's seq.
    ScrollWritten(adg::ScrollWritten),
    ScrollRead {
        reading: adg::Reading,
        dice: Vec<Die>,
    },
    ScrollGiven {
        scroll: u64,
        from: String,
        to: String,
    },
    /// The dice a reading left pending, rolled once its sealed check was open (ADG-S4).
    ScrollOutcomeRolled(adg::ScrollOutcome),
    SpellLearned(vsd::SpellLearned),
    /// One round of concentration on a spell (VSD-3).
    Concentrated {
        character: String,
        spell: String,
        round: u64,
    },
    ConcentrationInterrupted {
        character: String,
    },
    SpellCast(vsd::SpellCast),
    ChoiceMade(vsd::ChoiceMade),
    /// A failed spell held two rounds fires or fizzles (VSD-9 ruling).
    DelayedSpellResolved(vsd::DelayedResolved),
    SaveRolled(vsd::SaveRolled),
    ThreadSevered(vsd::Severed),
    AlignmentSet {
        alignment: Alignment,
    },
    SeverTheThreadSet {
        on: bool,
    },
    DriveChanged {
        character: String,
        delta: i64,
        reason: String,
    },
    ConditionCleared {
        character: String,
        condition: Condition,
    },
}

/// Reads a payload of today's version stored under `kind`. A payload grimoire wrote begins with its
/// `kind` field; when that matches the column, the variant is read straight from the payload through
/// `EventOfKind` (the payload's own `kind` field is then just a field the variant does not have).
/// Any other payload takes serde's general path.
fn read_current(kind: &str, payload: &str) -> serde_json::Result<Event> {
    let begins_with_its_kind = payload
        .strip_prefix(r#"{"kind":""#)
        .and_then(|rest| rest.strip_prefix(kind))
        .is_some_and(|rest| rest.starts_with('"'));
    if !begins_with_its_kind {
        return serde_json::from_str(payload);
    }
    // `{"<kind>": <payload>}`: serde's externally tagged form. `kind` is valid inside a JSON string,
    // as the payload just showed.
    let mut named = String::with_capacity(payload.len() + kind.len() + 5);
    named.push_str("{\"");
    named.push_str(kind);
    named.push_str("\":");
    named.push_str(payload);
    named.push('}');
    let mut reader = serde_json::Deserializer::from_str(&named);
    let event = EventOfKind::deserialize(&mut reader)?;
    reader.end()?;
    Ok(event)
}

/// A sealed die opened: the value and the nonce that hash to its commitment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedDie {
    pub n: u32,
    pub value: u32,
    pub nonce: String,
    /// The further faces of an open-ended chain sealed whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<u32>,
}

impl RevealedDie {
    /// Every face the reveal opens, in draw order.
    pub fn faces(&self) -> Vec<u32> {
        crate::dice::sealed::faces(self.value, &self.then)
    }
}

/// One step that rewrites a stored payload of `kind` from version `from` to `from + 1`, so old logs
/// keep reading after an event's shape changes.
pub struct Upcaster {
    pub kind: &'static str,
    pub from: u32,
    pub step: fn(serde_json::Value) -> serde_json::Value,
}

/// The upcasters this build applies to old payloads. Empty while every shipped kind is at version 1;
/// when a shape changes, its step goes here with SCHEMA_VERSION raised.
pub const UPCASTERS: &[Upcaster] = &[];

/// Brings a payload of `kind` from version `from` up to `to`, one step at a time.
pub fn upcast(
    kind: &str,
    from: u32,
    to: u32,
    mut value: serde_json::Value,
    upcasters: &[Upcaster],
) -> Result<serde_json::Value, PayloadError> {
    for version in from..to {
        let step = upcasters
            .iter()
            .find(|u| u.kind == kind && u.from == version)
            .ok_or_else(|| PayloadError::Unreadable {
                kind: kind.to_string(),
                detail: format!("no upcaster from version {version}"),
            })?;
        value = (step.step)(value);
    }
    Ok(value)
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("its payload is not a readable '{kind}' event ({detail})")]
    Unreadable { kind: String, detail: String },
    #[error(
        "it is a '{kind}' event of payload version {version}, newer than this grimoire reads (up to {SCHEMA_VERSION}); upgrade grimoire"
    )]
    Newer { kind: String, version: u32 },
    #[error("its kind column says '{column}' but its payload says '{payload}'")]
    KindMismatch { column: String, payload: String },
}

impl Event {
    /// The stable name stored in the `kind` column (the same as the payload's `kind` field).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::CampaignCreated { .. } => "campaign_created",
            Event::CharacterAdded { .. } => "character_added",
            Event::DamageTaken { .. } => "damage_taken",
            Event::Healed { .. } => "healed",
            Event::ClockAdvanced { .. } => "clock_advanced",
            Event::SessionStarted { .. } => "session_started",
            Event::SessionEnded { .. } => "session_ended",
            Event::DiceRolled { .. } => "dice_rolled",
            Event::SealedRevealed { .. } => "sealed_revealed",
            Event::Retracted { .. } => "retracted",
            Event::SeedRevealed { .. } => "seed_revealed",
            Event::SeedWithheld { .. } => "seed_withheld",
            Event::EpochStarted { .. } => "epoch_started",
            Event::AdgTablesLoaded { .. } => "adg_tables_loaded",
            Event::RitualDiscovered { .. } => "ritual_discovered",
            Event::Exerted { .. } => "exerted",
            Event::RitualLearnAttempted(_) => "ritual_learn_attempted",
            Event::RitualCast(_) => "ritual_cast",
            Event::Rested { .. } => "rested",
            Event::DowntimeSpent { .. } => "downtime_spent",
            Event::ScrollWritten(_) => "scroll_written",
            Event::ScrollRead { .. } => "scroll_read",
            Event::ScrollGiven { .. } => "scroll_given",
            Event::DowntimeTaken(_) => "downtime_taken",
            Event::ScrollOutcomeRolled(_) => "scroll_outcome_rolled",
            Event::SpellLearned(_) => "spell_learned",
            Event::Concentrated { .. } => "concentrated",
            Event::ConcentrationInterrupted { .. } => "concentration_interrupted",
            Event::SpellCast(_) => "spell_cast",
            Event::ChoiceMade(_) => "choice_made",
            Event::DelayedSpellResolved(_) => "delayed_spell_resolved",
            Event::SaveRolled(_) => "save_rolled",
            Event::ThreadSevered(_) => "thread_severed",
            Event::AlignmentSet { .. } => "alignment_set",
            Event::SeverTheThreadSet { .. } => "sever_the_thread_set",
            Event::DriveChanged { .. } => "drive_changed",
            Event::ConditionCleared { .. } => "condition_cleared",
        }
    }

    /// The compact JSON stored as the payload.
    pub fn to_payload(&self) -> String {
        serde_json::to_string(self).expect("events serialise: every field is plain data")
    }

    /// Reads a stored payload of the given kind and version, upcasting older versions to today's shape.
    pub fn from_stored(
        kind: &str,
        schema_version: u32,
        payload: &str,
    ) -> Result<Event, PayloadError> {
        if schema_version > SCHEMA_VERSION {
            return Err(PayloadError::Newer {
                kind: kind.to_string(),
                version: schema_version,
            });
        }
        let unreadable = |detail: String| PayloadError::Unreadable {
            kind: kind.to_string(),
            detail,
        };
        let event: Event = if schema_version >= SAME_SHAPES_SINCE {
            read_current(kind, payload).map_err(|e| unreadable(e.to_string()))?
        } else {
            let value = serde_json::from_str(payload).map_err(|e| unreadable(e.to_string()))?;
            let value = upcast(kind, schema_version, SCHEMA_VERSION, value, UPCASTERS)?;
            serde_json::from_value(value).map_err(|e| unreadable(e.to_string()))?
        };
        if event.kind() != kind {
            return Err(PayloadError::KindMismatch {
                column: kind.to_string(),
                payload: event.kind().to_string(),
            });
        }
        Ok(event)
    }

    /// Whether the event concerns the character (folded name), for `log --character`.
    pub fn concerns(&self, folded: &str) -> bool {
        let is = |name: &str| fold_name(name) == folded;
        match self {
            Event::CharacterAdded { name, .. } => is(name),
            Event::DamageTaken { character, .. }
            | Event::Healed { character, .. }
            | Event::RitualDiscovered { character, .. }
            | Event::Exerted { character, .. }
            | Event::DowntimeSpent { character, .. } => is(character),
            Event::RitualLearnAttempted(a) => is(&a.character),
            Event::RitualCast(c) => {
                is(&c.character) || c.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            Event::Rested { results, mp, .. } => {
                results.iter().any(|r| is(&r.character)) || mp.iter().any(|m| is(&m.character))
            }
            Event::ScrollWritten(w) => is(&w.writer),
            Event::ScrollRead { reading, .. } => {
                is(&reading.reader) || reading.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            Event::ScrollGiven { from, to, .. } => is(from) || is(to),
            Event::ScrollOutcomeRolled(o) => {
                is(&o.reader) || o.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            Event::DowntimeTaken(d) => d.characters.iter().any(|c| is(&c.character)),
            Event::SpellLearned(l) => is(&l.character),
            Event::Concentrated { character, .. }
            | Event::ConcentrationInterrupted { character }
            | Event::DriveChanged { character, .. }
            | Event::ConditionCleared { character, .. } => is(character),
            Event::SpellCast(c) => is(&c.caster) || is(&c.target),
            Event::ChoiceMade(c) => is(&c.character),
            Event::DelayedSpellResolved(d) => is(&d.caster) || is(&d.target),
            Event::SaveRolled(s) => is(&s.target) || is(&s.caster),
            Event::ThreadSevered(s) => is(&s.character),
            // The campaign's bookkeeping and free rolls name no character.
            Event::CampaignCreated { .. }
            | Event::ClockAdvanced { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::DiceRolled { .. }
            | Event::SealedRevealed { .. }
            | Event::Retracted { .. }
            | Event::SeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. }
            | Event::AdgTablesLoaded { .. }
            | Event::AlignmentSet { .. }
            | Event::SeverTheThreadSet { .. } => false,
        }
    }

    /// Every die the event holds, in draw order. `verify` checks them without knowing each kind.
    pub fn dice(&self) -> &[Die] {
        match self {
            Event::DiceRolled { dice, .. }
            | Event::RitualDiscovered { dice, .. }
            | Event::Rested { dice, .. }
            | Event::ScrollRead { dice, .. } => dice,
            Event::RitualLearnAttempted(a) => &a.dice,
            Event::RitualCast(c) => &c.dice,
            Event::ScrollWritten(w) => &w.dice,
            Event::ScrollOutcomeRolled(o) => &o.dice,
            Event::DowntimeTaken(d) => &d.dice,
            Event::SpellCast(c) => &c.dice,
            Event::ChoiceMade(c) => &c.dice,
            Event::SaveRolled(s) => &s.dice,
            Event::ThreadSevered(s) => &s.dice,
            Event::SpellLearned(_)
            | Event::DelayedSpellResolved(_)
            | Event::Concentrated { .. }
            | Event::ConcentrationInterrupted { .. }
            | Event::AlignmentSet { .. }
            | Event::SeverTheThreadSet { .. }
            | Event::DriveChanged { .. }
            | Event::ConditionCleared { .. } => &[],
            Event::AdgTablesLoaded { .. }
            | Event::Exerted { .. }
            | Event::DowntimeSpent { .. }
            | Event::ScrollGiven { .. }
            | Event::CampaignCreated { .. }
            | Event::CharacterAdded { .. }
            | Event::DamageTaken { .. }
            | Event::Healed { .. }
            | Event::ClockAdvanced { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::SealedRevealed { .. }
            | Event::Retracted { .. }
            | Event::SeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. } => &[],
        }
    }

    /// Whether a retraction may undo this event. The campaign's bookkeeping (its creation, sessions,
    /// dice epochs, reveals and retractions) must stay in force: the fairness check depends on it.
    pub fn is_retractable(&self) -> bool {
        matches!(
            self,
            Event::CharacterAdded { .. }
                | Event::DamageTaken { .. }
                | Event::Healed { .. }
                | Event::ClockAdvanced { .. }
                | Event::DiceRolled { .. }
                | Event::RitualDiscovered { .. }
                | Event::Exerted { .. }
                | Event::RitualLearnAttempted(_)
                | Event::RitualCast(_)
                | Event::Rested { .. }
                | Event::DowntimeSpent { .. }
                | Event::DowntimeTaken(_)
                | Event::ScrollGiven { .. }
                | Event::SpellLearned(_)
                | Event::Concentrated { .. }
                | Event::ConcentrationInterrupted { .. }
                | Event::SpellCast(_)
                | Event::SaveRolled(_)
                | Event::AlignmentSet { .. }
                | Event::SeverTheThreadSet { .. }
                | Event::DriveChanged { .. }
                | Event::ConditionCleared { .. }
        )
    }
}

/// A name as the log compares it: trimmed, any case. Characters, rituals and spells are found by it.
pub fn fold_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// An event as the log holds it: the envelope around the payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub seq: u64,
    pub event_id: String,
    pub schema_version: u32,
    pub game_time: GameTime,
    pub recorded_at: String,
    pub session: Option<u32>,
    pub actor: String,
    pub prev_hash: String,
    pub hash: String,
    pub event: Event,
}

#[cfg(test)]
mod tests;
