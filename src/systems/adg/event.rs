//! Payloads of A Dungeon Game events. Each carries its resolved consequences (points exerted,
//! health changed, words replaced), so `apply` only adds them up and never re-reads the rules.

use crate::dice::Die;
use crate::seq::Seq;
use crate::systems::adg::tables::{AdgTables, Attribute, WordSlot};
pub use crate::systems::contract::event::{Activity, Downtime, DowntimeOf};
use crate::time::{GameDuration, GameTime};
use crate::words::words;
use serde::{Deserialize, Serialize};

/// A d20 check against an attribute (ADG-C1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    pub attribute: Attribute,
    /// The attribute's current value the roll was made against.
    pub target: u32,
    pub roll: u32,
    pub success: bool,
    /// The roll equalled the target.
    pub exact: bool,
    /// Points exerted after a failed roll to make it succeed (ADG-C3); 0 if none.
    #[serde(default)]
    pub exerted: u32,
}

/// Damage or healing rolled for a ritual or scroll (ADG-R6, ADG-S2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EffectKind {
    Damage,
    Healing,
}

words!(EffectKind {
    Damage => "damage",
    Healing => "healing",
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectRoll {
    pub kind: EffectKind,
    pub target: String,
    pub amount: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordReplacement {
    pub slot: WordSlot,
    pub old: String,
    pub new: String,
    /// Whether the caster keeps the new word in the known ritual afterwards.
    pub remembered: bool,
}

/// A table entry read and applied (mishap or damaged scroll).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableResult {
    /// The total read on the table.
    pub total: i64,
    pub text: String,
    #[serde(default)]
    pub damage: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exertions: Vec<(Attribute, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<WordReplacement>,
    #[serde(default)]
    pub lockout: bool,
}

/// The outcome of reading a scroll (ADG-S4 to ADG-S7), also used for an accidental cast (ADG-S8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    pub scroll: Seq,
    pub reader: String,
    #[serde(default)]
    pub in_combat: bool,
    /// The Agility save after taking damage while reading (ADG-S6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agility_save: Option<Check>,
    /// The damaged-scrolls chart, when the save failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damaged: Option<TableResult>,
    /// For a Ceremony scroll: whether the sealed writing check (now revealed) succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writing_check_passed: Option<bool>,
    /// A badly written scroll produces a mishap instead of its effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mishap: Option<TableResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectRoll>,
    /// The ADG-S7 reuse roll (absent when the scroll was damaged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse_roll: Option<u32>,
    /// Whether the scroll survives intact.
    pub kept: bool,
    /// The dice that depend on a sealed writing check (its mishap, or the scroll's damage or
    /// healing), left for `scroll resolve` once the check is open in the log: drawn in the reading
    /// itself, how many dice it takes would tell the check before it is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingScrollRoll>,
    /// An ongoing effect (ADG-S2): in force on the reader until this time, 1 turn (10 minutes) × SL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ongoing_until: Option<crate::time::GameTime>,
}

/// Dice a reading left pending on its reader (see [`Reading::pending`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingScrollRoll {
    pub scroll: Seq,
    /// The scroll's ritual, whose words a mishap may twist.
    pub ritual: String,
    pub outcome: PendingOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PendingOutcome {
    /// The check failed by `difference`: a mishap instead of the effect.
    Mishap { difference: u32 },
    /// The check passed: the scroll's SL d6s of damage or healing on `target`.
    Effect {
        kind: EffectKind,
        target: String,
        level: u32,
    },
}

/// The pending dice of a reading, rolled (`scroll resolve`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollOutcome {
    pub reader: String,
    pub scroll: Seq,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mishap: Option<TableResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectRoll>,
    /// The character the waiting damage or healing was aimed at, dead by the time it was rolled:
    /// it reaches no one, and no dice are drawn for it (ADG-C4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreached: Option<String>,
    pub dice: Vec<crate::dice::Die>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollCheck {
    pub scroll: Seq,
    /// The ADG-S8 d20; accidental when at or under the SL or at or over Cunning.
    pub roll: u32,
    pub accidental: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
}

/// A Sigil drawn and waiting: what sets it off, and the damage or healing it will roll then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// "at will", or the condition its maker set, in a few words.
    pub trigger: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// A waiting Sigil set off (ADG-R1): its effect begins now, and any damage or healing is rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triggered {
    pub character: String,
    pub ritual: String,
    /// The cast that drew it.
    pub cast_seq: Seq,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectRoll>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_until: Option<GameTime>,
    pub dice: Vec<Die>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnAttempt {
    pub character: String,
    pub ritual: String,
    pub words: Vec<String>,
    /// Named so because `kind` is the event's own tag.
    pub ritual_kind: RitualKind,
    /// For a spell from another game (ADG-R10): its level (0 when it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell_level: Option<u32>,
    pub pay: Pay,
    pub cost: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_scroll: Option<ScrollCheck>,
    /// Absent when the cost killed the character before the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
    pub learned: bool,
    pub died: bool,
    pub dice: Vec<Die>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cast {
    pub character: String,
    pub ritual: String,
    /// The words as spoken (after any reversal).
    pub words: Vec<String>,
    #[serde(default)]
    pub reversal_cost: u32,
    /// The Cunning paid because the ritual was beyond the safe daily number (ADG-R9).
    #[serde(default)]
    pub over_limit_cost: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_taken: Option<u32>,
    pub check: Check,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_choice: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectRoll>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_until: Option<GameTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mishap: Option<TableResult>,
    /// Locked out of rituals until a night's rest (a mishap on an over-limit ritual, or the table).
    pub lockout: bool,
    /// How long drawing a Sigil or performing a Ceremony took: the clock moves on by it as the
    /// cast is recorded, and its effect begins at the end (ADG-R1; recorded since 2026-12-02).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took: Option<GameDuration>,
    /// A Sigil drawn to go off later: it waits for `ritual trigger` (ADG-R1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits: Option<Waiting>,
    pub dice: Vec<Die>,
}

/// What a night gave one character back (ADG-C5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestResult {
    pub character: String,
    pub healed: u32,
}

impl crate::systems::contract::event::Share for RestResult {
    fn character(&self) -> &str {
        &self.character
    }
}

/// The nights of a scribing week (ADG-S3 ruling): they heal and end the daily count and any lockout,
/// but exerted points do not recover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nights {
    pub healed: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollWritten {
    pub writer: String,
    pub ritual: String,
    pub level: u32,
    pub effect: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_roll: Option<EffectKind>,
    pub original_kind: RitualKind,
    pub cost: u64,
    /// Cunning exerted ahead of the sealed check (ADG-S4); spent whatever happens.
    #[serde(default)]
    pub pre_exert: u32,
    /// Cunning before that exertion: the sealed check is against it.
    pub cunning: u32,
    /// The sealed check's die, for a Ceremony.
    pub dice: Vec<Die>,
    /// The writer marked the effect as ongoing (ADG-S2); a Sigil's or a Ceremony's is ongoing anyway.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ongoing: bool,
    /// The week's nights (absent in scrolls written before they were counted, and in a downtime
    /// span's, whose nights the span counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nights: Option<Nights>,
    /// Written in a week of the downtime span recorded just before: the span moved the clock and
    /// counted the nights.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_downtime: bool,
    /// A later week of that span, not spent scribing, recovered the Cunning exerted for the check.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cushion_recovered: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RitualKind {
    Phrase,
    Sigil,
    Ceremony,
}

words!(RitualKind {
    Phrase => "phrase",
    Sigil => "sigil",
    Ceremony => "ceremony",
});

/// What a learning cost is paid from (ADG-R3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pay {
    Health,
    Agility,
    Brawn,
    Cunning,
}

words!(Pay {
    Health => "health",
    Agility => "agility",
    Brawn => "brawn",
    Cunning => "cunning",
});

impl Pay {
    pub fn attribute(self) -> Option<Attribute> {
        match self {
            Pay::Health => None,
            Pay::Agility => Some(Attribute::Agility),
            Pay::Brawn => Some(Attribute::Brawn),
            Pay::Cunning => Some(Attribute::Cunning),
        }
    }
}

crate::systems::contract::event::event_enum! {
    /// A Dungeon Game's events: rituals, exertion, scrolls.
    AdgEvent / AdgEventOfKind = "AdgEvent" {
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
    RitualLearnAttempted(LearnAttempt),
    RitualCast(Cast),
    /// A Sigil drawn to wait, set off (ADG-R1).
    SigilTriggered(Triggered),
    /// Downtime weeks not spent scribing, as recorded before downtime's nights healed (ADG-C5, T-2).
    DowntimeSpent {
        character: String,
        weeks: u32,
        by: GameDuration,
        restored_exertion: bool,
    },
    /// A scroll written over one downtime week (ADG-S3); its id is this event's seq.
    ScrollWritten(ScrollWritten),
    ScrollRead {
        reading: Reading,
        dice: Vec<Die>,
    },
    ScrollGiven {
        scroll: Seq,
        from: String,
        to: String,
    },
    /// The dice a reading left pending, rolled once its sealed check was open (ADG-S4).
    ScrollOutcomeRolled(ScrollOutcome),
    /// Silver gained (loot, pay) or spent (anything but a scroll), with why (ADG-C2).
    SilverChanged {
        character: String,
        delta: i64,
        reason: String,
    },
}
}

/// The concerns every event answers (as the core's events do), for A Dungeon Game's own.
impl crate::systems::contract::event::SystemEvent for AdgEvent {
    fn kind(&self) -> &'static str {
        match self {
            AdgEvent::AdgTablesLoaded { .. } => "adg_tables_loaded",
            AdgEvent::RitualDiscovered { .. } => "ritual_discovered",
            AdgEvent::Exerted { .. } => "exerted",
            AdgEvent::RitualLearnAttempted(_) => "ritual_learn_attempted",
            AdgEvent::RitualCast(_) => "ritual_cast",
            AdgEvent::SigilTriggered(_) => "sigil_triggered",
            AdgEvent::DowntimeSpent { .. } => "downtime_spent",
            AdgEvent::ScrollWritten(_) => "scroll_written",
            AdgEvent::ScrollRead { .. } => "scroll_read",
            AdgEvent::ScrollGiven { .. } => "scroll_given",
            AdgEvent::ScrollOutcomeRolled(_) => "scroll_outcome_rolled",
            AdgEvent::SilverChanged { .. } => "silver_changed",
        }
    }

    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            AdgEvent::RitualDiscovered { character, .. }
            | AdgEvent::Exerted { character, .. }
            | AdgEvent::DowntimeSpent { character, .. }
            | AdgEvent::SilverChanged { character, .. } => is(character),
            AdgEvent::RitualLearnAttempted(a) => is(&a.character),
            AdgEvent::RitualCast(c) => {
                is(&c.character) || c.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            AdgEvent::SigilTriggered(t) => {
                is(&t.character) || t.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            AdgEvent::ScrollWritten(w) => is(&w.writer),
            AdgEvent::ScrollRead { reading, .. } => {
                is(&reading.reader) || reading.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            AdgEvent::ScrollGiven { from, to, .. } => is(from) || is(to),
            AdgEvent::ScrollOutcomeRolled(o) => {
                is(&o.reader) || o.effect.as_ref().is_some_and(|e| is(&e.target))
            }
            // Tables name no character.
            AdgEvent::AdgTablesLoaded { .. } => false,
        }
    }

    fn actions(&self) -> Vec<crate::systems::contract::event::Action<'_>> {
        use crate::systems::contract::event::Action;
        let action = match self {
            AdgEvent::RitualCast(c) => Some(Action {
                who: &c.character,
                what: format!("cast {}", c.ritual),
                last: false,
                half: false,
                counted_outside_fights: false,
            }),
            // Read in combat, a scroll takes the reader's whole round and puts them last (ADG-S5).
            AdgEvent::ScrollRead { reading, .. } => Some(Action {
                who: &reading.reader,
                what: format!("read scroll S{}", reading.scroll),
                last: reading.in_combat,
                half: false,
                counted_outside_fights: false,
            }),
            AdgEvent::AdgTablesLoaded { .. }
            | AdgEvent::SigilTriggered(_)
            | AdgEvent::RitualDiscovered { .. }
            | AdgEvent::Exerted { .. }
            | AdgEvent::RitualLearnAttempted(_)
            | AdgEvent::DowntimeSpent { .. }
            | AdgEvent::ScrollWritten(_)
            | AdgEvent::ScrollGiven { .. }
            | AdgEvent::ScrollOutcomeRolled(_)
            | AdgEvent::SilverChanged { .. } => None,
        };
        action.into_iter().collect()
    }

    fn dice(&self) -> &[Die] {
        match self {
            AdgEvent::RitualDiscovered { dice, .. } | AdgEvent::ScrollRead { dice, .. } => dice,
            AdgEvent::RitualLearnAttempted(a) => &a.dice,
            AdgEvent::RitualCast(c) => &c.dice,
            AdgEvent::SigilTriggered(t) => &t.dice,
            AdgEvent::ScrollWritten(w) => &w.dice,
            AdgEvent::ScrollOutcomeRolled(o) => &o.dice,
            AdgEvent::AdgTablesLoaded { .. }
            | AdgEvent::Exerted { .. }
            | AdgEvent::DowntimeSpent { .. }
            | AdgEvent::ScrollGiven { .. }
            | AdgEvent::SilverChanged { .. } => &[],
        }
    }

    /// Undone by a retraction: what a slip of the GM's may have recorded. A scroll once written,
    /// read or resolved, and the tables in force, stay: sealed checks and later readings rest on
    /// them.
    fn is_retractable(&self) -> bool {
        match self {
            AdgEvent::RitualDiscovered { .. }
            | AdgEvent::Exerted { .. }
            | AdgEvent::RitualLearnAttempted(_)
            | AdgEvent::RitualCast(_)
            | AdgEvent::SigilTriggered(_)
            | AdgEvent::DowntimeSpent { .. }
            | AdgEvent::ScrollGiven { .. }
            | AdgEvent::SilverChanged { .. } => true,
            AdgEvent::AdgTablesLoaded { .. }
            | AdgEvent::ScrollWritten(_)
            | AdgEvent::ScrollRead { .. }
            | AdgEvent::ScrollOutcomeRolled(_) => false,
        }
    }

    /// A scroll written during a downtime span follows the span's own event, in the same command.
    fn continues_its_command(&self) -> bool {
        match self {
            AdgEvent::ScrollWritten(w) => w.in_downtime,
            AdgEvent::RitualDiscovered { .. }
            | AdgEvent::Exerted { .. }
            | AdgEvent::RitualLearnAttempted(_)
            | AdgEvent::RitualCast(_)
            | AdgEvent::SigilTriggered(_)
            | AdgEvent::DowntimeSpent { .. }
            | AdgEvent::ScrollGiven { .. }
            | AdgEvent::SilverChanged { .. }
            | AdgEvent::AdgTablesLoaded { .. }
            | AdgEvent::ScrollRead { .. }
            | AdgEvent::ScrollOutcomeRolled(_) => false,
        }
    }
}
