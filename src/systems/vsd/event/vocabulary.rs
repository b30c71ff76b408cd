//! The words Against the Darkmaster's events are made of: kinds of spell and attack, tags, a
//! spell's definition, a failure's choices, conditions, alignments and places, each with the word
//! people type for it.

use crate::time::GameDuration;
use crate::words::words;
use serde::{Deserialize, Serialize};

/// Spell kinds, which set the failure modifier (VSD-9) and some resonance modifiers (VSD-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpellKind {
    Healing,
    Information,
    Divination,
    Utility,
    Personal,
    Defensive,
    Nature,
    Enchantment,
    Alteration,
    Dark,
    Elemental,
}

words!(SpellKind {
    Healing => "healing",
    Information => "information",
    Divination => "divination",
    Utility => "utility",
    Personal => "personal",
    Defensive => "defensive",
    Nature => "nature",
    Enchantment => "enchantment",
    Alteration => "alteration",
    Dark => "dark",
    Elemental => "elemental",
});

impl SpellKind {
    /// VSD-9's modifier to the failure roll.
    pub fn failure_modifier(self) -> i64 {
        match self {
            SpellKind::Healing | SpellKind::Information | SpellKind::Divination => 0,
            SpellKind::Utility | SpellKind::Personal | SpellKind::Defensive | SpellKind::Nature => {
                10
            }
            SpellKind::Enchantment => 20,
            SpellKind::Alteration => 30,
            SpellKind::Dark | SpellKind::Elemental => 50,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tag {
    Attack,
    Spirit,
    Light,
    Natural,
    Elven,
    Illusory,
}

words!(Tag {
    Attack => "attack",
    Spirit => "spirit",
    Light => "light",
    Natural => "natural",
    Elven => "elven",
    Illusory => "illusory",
});

/// Bolt and area spells roll on the attack tables instead of the casting table (VSD-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttackKind {
    Bolt,
    Area,
}

words!(AttackKind {
    Bolt => "bolt",
    Area => "area",
});

/// A spell as its caster knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellDef {
    pub name: String,
    pub lore: String,
    pub weave: u32,
    pub kind: SpellKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Tag>,
    #[serde(default)]
    pub instantaneous: bool,
    /// Unwilling targets get a Willpower save (VSD-7).
    #[serde(default)]
    pub save: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackKind>,
    /// MP cost; the Weave when not given (VSD-6 ruling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<u32>,
    /// How long the spell lasts on its target, if it lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<GameDuration>,
}

impl SpellDef {
    pub fn mp_cost(&self) -> u32 {
        self.mp.unwrap_or(self.weave)
    }

    /// Whether the spell stays on its target once it lands (and so can be in force there): not a
    /// one-off, as an instantaneous spell or an attack is.
    pub fn stays_in_force(&self) -> bool {
        !self.instantaneous && self.attack.is_none()
    }

    pub fn is_attack(&self) -> bool {
        self.attack.is_some() || self.tags.contains(&Tag::Attack)
    }
}

/// Options of the choices a cast can leave pending (VSD-5, VSD-9, VSD-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    HalfDuration,
    HalfArea,
    KeepMps,
    HalfMp,
    FreeWarping,
    LoseHalfMps,
    FiresLater,
    LoseAllMps,
    OtherTarget,
    LoseMps,
    Resonance,
    LoseMpsAndWeary,
    KnockedOut,
    Agents,
    Stunned,
    Band,
    Assailed,
    Servants,
    Scorched,
    /// After the Darkmaster's gaze (assault, "scorched"): the caster loses every MP left...
    LoseRemainingMps,
    /// ...or answers one question truthfully.
    AnswerTruly,
}

impl Choice {
    /// What picking it does, in a few words for a player's phone (#47); the GM's resonance picks
    /// are never put to one.
    pub fn meaning(self) -> &'static str {
        match self {
            Choice::HalfDuration => "the spell holds for half its duration",
            Choice::HalfArea => "the spell holds over half its area",
            Choice::KeepMps => "no effect, and the MPs are kept",
            Choice::HalfMp => "half the spell's MPs come back",
            Choice::FreeWarping => "one warping of the spell, free (the GM applies it)",
            Choice::LoseHalfMps => "lose half the spell's MPs",
            Choice::FiresLater => "the spell is held and fires two rounds later",
            Choice::LoseAllMps => "all of its MPs are gone",
            Choice::OtherTarget => "it lands on someone else",
            Choice::LoseMps => "its MPs are gone",
            Choice::Resonance => "a resonance roll",
            Choice::LoseMpsAndWeary => "its MPs are gone and weariness sets in (Weary)",
            Choice::KnockedOut => "out cold for six hours",
            Choice::LoseRemainingMps => "every MP still in hand is gone",
            Choice::AnswerTruly => "the GM asks a question, and you owe an honest answer",
            Choice::Agents
            | Choice::Stunned
            | Choice::Band
            | Choice::Assailed
            | Choice::Servants
            | Choice::Scorched => "the GM's pick",
        }
    }
}

words!(Choice {
    HalfDuration => "half-duration",
    HalfArea => "half-area",
    KeepMps => "keep-mps",
    HalfMp => "half-mp",
    FreeWarping => "free-warping",
    LoseHalfMps => "lose-half-mps",
    FiresLater => "fires-later",
    LoseAllMps => "lose-all-mps",
    OtherTarget => "other-target",
    LoseMps => "lose-mps",
    Resonance => "resonance",
    LoseMpsAndWeary => "lose-mps-and-weary",
    KnockedOut => "knocked-out",
    Agents => "agents",
    Stunned => "stunned",
    Band => "band",
    Assailed => "assailed",
    Servants => "servants",
    Scorched => "scorched",
    LoseRemainingMps => "lose-remaining-mps",
    AnswerTruly => "answer-truly",
});

/// Conditions tracked on a character (VSD-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    Stunned,
    Weary,
    KnockedOut,
    /// Unable to act until an assessment roll passes (resonance: pursuit).
    Assailed,
    /// Unable to act for 1d10 rounds (resonance: assault).
    Scorched,
}

words!(Condition {
    Stunned => "stunned",
    Weary => "weary",
    KnockedOut => "knocked-out",
    Assailed => "assailed",
    Scorched => "scorched",
});

impl Condition {
    /// The condition's name as typed on the command line (`knocked-out`).
    pub fn name(self) -> String {
        crate::words::Words::word(self).to_string()
    }

    /// What the condition does, in a few words for a player's card (VSD-13 and its rulings).
    pub fn effect(self) -> &'static str {
        match self {
            Condition::Stunned => "cannot cast, start concentrating or join a ritual",
            Condition::Weary => "-10 on every casting roll and attack roll",
            Condition::KnockedOut | Condition::Scorched => {
                "cannot act: no casting, concentrating or joining a ritual"
            }
            Condition::Assailed => {
                "cannot act until an assessment roll passes: no casting, concentrating or joining a ritual"
            }
        }
    }

    /// Whether the condition stops the character from casting at all.
    pub fn prevents_casting(self) -> bool {
        matches!(
            self,
            Condition::KnockedOut | Condition::Assailed | Condition::Scorched
        )
    }
}

/// A celestial alignment (VSD-12, optional setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Alignment {
    #[default]
    None,
    Benefic,
    Auspicious,
    Malefic,
    Disastrous,
}

words!(Alignment {
    None => "none",
    Benefic => "benefic",
    Auspicious => "auspicious",
    Malefic => "malefic",
    Disastrous => "disastrous",
});

impl Alignment {
    /// Weaves above Level it allows without a ritual or sacrifice.
    pub fn overcast_allowance(self) -> u32 {
        match self {
            Alignment::Benefic => 3,
            Alignment::Auspicious => 1,
            Alignment::None | Alignment::Malefic | Alignment::Disastrous => 0,
        }
    }

    pub fn extra_mp(self) -> u32 {
        u32::from(matches!(self, Alignment::Malefic | Alignment::Disastrous))
    }
}

/// Where the casting happens, for resonance (VSD-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Place {
    #[default]
    Normal,
    Haven,
    Blighted,
}

words!(Place {
    Normal => "normal",
    Haven => "haven",
    Blighted => "blighted",
});
