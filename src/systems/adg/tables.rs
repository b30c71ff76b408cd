//! The shapes of A Dungeon Game's tables as the log carries them (an `adg_tables_loaded` event holds
//! the whole table): word lists, mishaps, the damaged-scrolls chart, scroll costs, recovery dice
//! and house-rule settings. What the rules do with them, and the checks a tables file must pass,
//! are in `rules::adg::tables`.

use crate::dice::DiceExpr;
use crate::words::words;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attribute {
    Agility,
    Brawn,
    Cunning,
}

words!(Attribute {
    Agility => "agility",
    Brawn => "brawn",
    Cunning => "cunning",
});

impl std::fmt::Display for Attribute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Attribute::Agility => "Agility",
            Attribute::Brawn => "Brawn",
            Attribute::Cunning => "Cunning",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordEntry {
    pub word: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse: Option<String>,
}

/// Which of a ritual's two words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WordSlot {
    First,
    Second,
}

words!(WordSlot {
    First => "first",
    Second => "second",
});

impl WordSlot {
    pub fn index(self) -> usize {
        match self {
            WordSlot::First => 0,
            WordSlot::Second => 1,
        }
    }
}

/// A number of points: fixed, or rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    Fixed(u32),
    Roll(DiceExpr),
}

/// What a table entry does besides its text, applied by the tracker to the character concerned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Damage to the caster (or reader).
    Damage(DiceExpr),
    /// Exertion of an attribute.
    Exert {
        attribute: Attribute,
        amount: Amount,
    },
    /// One of the ritual's words is replaced by a word rolled on that word's list.
    ReplaceWord { word: WordSlot, remembered: bool },
    /// No rituals until a night's rest.
    Lockout,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    pub min: i64,
    /// `None`: this entry and everything above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollCost {
    pub level: u32,
    pub phrase: u64,
    pub sigil: u64,
    pub ceremony: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryRow {
    pub min_level: u32,
    pub max_level: u32,
    pub die: DiceExpr,
}

/// House rules (ADG-C5); both on by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub night_rest_heals: bool,
    pub downtime_restores_exertion: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdgTables {
    pub name: String,
    #[serde(default)]
    pub sample: bool,
    pub word_lists: Vec<Vec<WordEntry>>,
    pub mishaps: Vec<TableEntry>,
    pub damaged_scrolls: Vec<TableEntry>,
    pub scroll_costs: Vec<ScrollCost>,
    pub recovery: Vec<RecoveryRow>,
    pub settings: Settings,
}
