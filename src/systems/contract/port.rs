//! What a rule system sees of the campaign, and what it may change in it. The core's state opens
//! two ports to each system, [`View`] to read and [`Fold`] to fold the system's events in, so a
//! system's rules, state and words name nothing of the core but these and the model below them
//! (time, dice, words, text): the core holds the systems, and no path leads back.

use super::state::SystemFold;
use crate::dice::DiceError;
use crate::dice::sealed::PendingSeal;
use crate::seq::Seq;
use crate::text::TextProblem;
use crate::time::{GameDuration, GameTime};
use crate::words::Folded;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A spell in force on a character (VSD-8: the latest casting of a spell replaces older ones).
/// Kept by the core, since a spell may be cast on a character of any system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveSpell {
    pub spell: String,
    pub caster: String,
    pub cast_seq: Seq,
    pub until: Option<GameTime>,
    /// Over half its area (a partial success, VSD-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub half_area: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    pub max: u32,
    pub current: u32,
    /// Wounds a correction's lower maximum could not show (current is 0 with these still open):
    /// kept as an amount, so a correction set back shows them again, and healing closes them
    /// first (C-1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unshown: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Health {
    /// A health track with no wounds.
    pub fn full(max: u32) -> Health {
        Health {
            max,
            current: max,
            unshown: 0,
        }
    }
}

impl Health {
    /// The health healing can still give back: up to the maximum.
    pub fn room(&self) -> u32 {
        self.max.saturating_sub(self.current)
    }
}

/// One character as a system's rules and words see them, whichever system they play.
pub struct Someone<'t, S: SystemFold> {
    /// As the log records them.
    pub name: &'t str,
    /// `None` without a health track.
    pub health: Option<Health>,
    /// Their state in this system; `None` when they play another.
    pub mine: Option<&'t S::Character>,
    /// Their sheet as entered, in this system; `None` when they play another.
    pub sheet: Option<&'t S::Sheet>,
    /// The name of the system they play ("A Dungeon Game").
    pub plays: &'static str,
    /// Dead, as the system they play has it.
    pub dead: bool,
    /// "dead" or "down" where it is worth saying.
    pub status: Option<&'static str>,
    /// The spells in force on them (VSD-8), by folded spell name.
    pub spells_on: &'t BTreeMap<Folded, ActiveSpell>,
}

// Not derived: a derive would ask the system itself to be `Clone`.
impl<S: SystemFold> Clone for Someone<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: SystemFold> Copy for Someone<'_, S> {}

impl<'t, S: SystemFold> Someone<'t, S> {
    /// Their state in this system, or the refusal for a character of another.
    pub fn own(&self) -> Result<&'t S::Character, Refused> {
        self.mine.ok_or_else(|| Refused::WrongSystem {
            name: self.name.to_string(),
            plays: self.plays.to_string(),
            needs: S::NAME,
        })
    }

    /// The health healing can still give back (none without a health track).
    pub fn health_room(&self) -> u32 {
        self.health.map_or(0, |h| h.room())
    }

    /// Their health as a sheet line says it, with how they stand ("health 5/8 (down)").
    pub fn health_text(&self) -> String {
        health_words(self.health, self.status)
    }
}

/// A health track as a sheet line says it, with how its owner stands ("health 5/8 (down)").
pub fn health_words(health: Option<Health>, status: Option<&str>) -> String {
    let status = status.map(|s| format!(" ({s})")).unwrap_or_default();
    health
        .map(|h| format!("health {}/{}{status}", h.current, h.max))
        .unwrap_or_else(|| format!("no health track{status}"))
}

/// The campaign as a system's rules and words read it.
pub trait View<S: SystemFold> {
    /// The seq of the last event replayed.
    fn head(&self) -> Seq;
    fn clock(&self) -> GameTime;
    /// When something in force until `until` ends, as a sheet says it.
    fn until_words(&self, until: GameTime) -> String;
    /// The end of combat round `round`, as a sheet says it.
    fn end_of_round_words(&self, round: u64) -> String;
    /// The fight under way with its round ("the fight at the bridge (round 2)"), if any (T-3).
    fn fight_now(&self) -> Option<String>;
    /// The damage `name` has taken this round of the fight under way (`None` out of a fight).
    fn damage_this_round(&self, name: &str) -> Option<u32>;
    /// Whether `name` has taken their turn in this round of the fight under way (false out of a
    /// fight).
    fn acted_this_round(&self, name: &str) -> bool;
    /// The character of that name (any case), if any.
    fn someone(&self, name: &str) -> Option<Someone<'_, S>>;
    /// Every character, in name order.
    fn everyone(&self) -> Vec<Someone<'_, S>>;
    /// A target as the log records it: the character's own name when it names one, else the
    /// words as typed, trimmed; words that only look like a character's name are refused.
    fn as_recorded(&self, target: &str) -> Result<String, Refused>;
    /// What the system keeps for the whole campaign.
    fn campaign(&self) -> &S::Campaign;
    /// Whether the event at `seq` is retracted, or undone with what it answered.
    fn is_retracted(&self, seq: Seq) -> bool;
    /// The sealed dice recorded at `seq` still awaiting a reveal.
    fn sealed_pending(&self, seq: Seq) -> Option<&[PendingSeal]>;

    /// The character of that name, or the refusal naming those there are.
    fn find(&self, name: &str) -> Result<Someone<'_, S>, Refused> {
        self.someone(name).ok_or_else(|| Refused::UnknownCharacter {
            name: name.to_string(),
            known: self.everyone().iter().map(|c| c.name.to_string()).collect(),
        })
    }
}

/// The campaign as a system's events change it in replay.
pub trait Fold<S: SystemFold> {
    fn clock(&self) -> GameTime;
    /// Moves the clock on by `by`; under a minute, the table is counting combat rounds (T-1).
    fn pass_time(&mut self, by: GameDuration);
    /// Wounds (negative) or heals (positive) `name`, within their health track.
    fn change_health(&mut self, name: &str, delta: i64);
    /// `name`'s health track, to change its maximum.
    fn health_mut(&mut self, name: &str) -> Option<&mut Health>;
    /// `name` as the log records them, if they are a character.
    fn recorded_name(&self, name: &str) -> Option<String>;
    /// `name`'s state in this system, if they play it.
    fn mine_mut(&mut self, name: &str) -> Option<&mut S::Character>;
    /// `name`'s state in this system and the spells in force on anyone: what a spell cast needs.
    fn spells_on_mut(&mut self, name: &str) -> Option<&mut BTreeMap<Folded, ActiveSpell>>;
    fn campaign(&self) -> &S::Campaign;
    fn campaign_mut(&mut self) -> &mut S::Campaign;
}

/// The core's refusals that a system's rules meet (its own are its `Error`); each is the core's
/// refusal of the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    UnknownCharacter {
        name: String,
        known: Vec<String>,
    },
    ConfusableName {
        name: String,
        existing: String,
    },
    WrongSystem {
        name: String,
        plays: String,
        needs: &'static str,
    },
    Dead(String),
    NoHealth(String),
    /// The fight under way, in words.
    InAFight(String),
    /// The seq named, and the log's last.
    NoSuchEvent(Seq, Seq),
    NothingSealed(Seq),
    SecretMissing {
        seq: Seq,
        n: u32,
    },
    SecretMismatch {
        seq: Seq,
        n: u32,
    },
    Dice(DiceError),
    Text(TextProblem),
}

impl From<DiceError> for Refused {
    fn from(error: DiceError) -> Refused {
        Refused::Dice(error)
    }
}

/// Why a system refuses a command: one of the core's refusals or one of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal<E> {
    Core(Refused),
    Own(E),
}

impl<E> From<Refused> for Refusal<E> {
    fn from(refused: Refused) -> Refusal<E> {
        Refusal::Core(refused)
    }
}

impl<E> From<TextProblem> for Refusal<E> {
    fn from(problem: TextProblem) -> Refusal<E> {
        Refusal::Core(Refused::Text(problem))
    }
}

impl<E> From<DiceError> for Refusal<E> {
    fn from(error: DiceError) -> Refusal<E> {
        Refusal::Core(Refused::Dice(error))
    }
}

/// What a system's decision records: its own events, or the opening of sealed dice it needs
/// (a Ceremony scroll's check, opened by its reading).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decided<E> {
    Own(E),
    SealedRevealed {
        seq: Seq,
        dice: Vec<crate::dice::sealed::RevealedDie>,
    },
}
