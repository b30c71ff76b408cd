//! A fight counted by the round (T-3): when its first round began; and what each character has
//! done in the clock's round under way, fight or not, since a fight begun mid-round counts the
//! whole round. The log keeps absolute times; this says them in the fight's rounds.

use crate::seq::Seq;
pub use crate::systems::contract::event::WHOLE_ACTION;
use crate::time::{GameTime, ROUND_SECONDS};
use crate::words::Folded;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fight {
    /// The campaign's count of fights, this one included.
    pub number: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The clock when its round 1 began.
    pub began: GameTime,
    pub started_seq: Seq,
}

/// What each character did in one round of the clock, by folded name: a round that has passed is
/// forgotten as soon as the clock leaves it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Round {
    /// The round, counted in rounds since Day 1 (the clock's own).
    #[serde(default)]
    pub number: u64,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub turns: BTreeMap<Folded, Turn>,
}

/// A fight along the log: the events from the one that began it to the one that ended it (both
/// counted in; `to` is empty while it is on), and the clock when its round 1 began.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightSpan {
    pub number: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub began: GameTime,
    pub from: Seq,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Seq>,
}

impl FightSpan {
    /// The fight's round under way at `at`, counted from 1.
    pub fn round_at(&self, at: GameTime) -> u32 {
        round_since(self.began, at)
    }
}

/// The round of a fight begun at `began` under way at `at`, counted from 1 (a time before it is
/// round 1).
fn round_since(began: GameTime, at: GameTime) -> u32 {
    let rounds = at.seconds().saturating_sub(began.seconds()) / ROUND_SECONDS;
    u32::try_from(rounds.saturating_add(1)).unwrap_or(u32::MAX)
}

/// One character's part of a round so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub name: String,
    /// What they did, in order, in a few words each ("cast Light").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub did: Vec<String>,
    /// How much of the round's action that took, in halves: an action is two, an instantaneous
    /// VsD spell one (VSD-3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub halves: u32,
    /// The damage recorded against them this round.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: u32,
    /// They read a scroll in combat, which takes their whole round and puts them last (ADG-S5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub acts_last: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Fight {
    /// A fight's words: "the fight at the bridge" when named, "fight 2" when not.
    pub fn title(number: u32, name: Option<&str>) -> String {
        match name {
            Some(name) => format!("the fight {name}"),
            None => format!("fight {number}"),
        }
    }

    pub fn words(&self) -> String {
        Fight::title(self.number, self.name.as_deref())
    }

    /// The fight's round under way at `at`, counted from 1 (a time before the fight is round 1).
    pub fn round_at(&self, at: GameTime) -> u32 {
        round_since(self.began, at)
    }
}

impl Round {
    /// What each character has done in the round under way at `now`, in the order of their
    /// names (none once the clock has left the round they were recorded in).
    pub fn turns_at(&self, now: GameTime) -> impl Iterator<Item = &Turn> {
        let current = self.number == now.seconds() / ROUND_SECONDS;
        self.turns.values().filter(move |_| current)
    }

    /// The character's (folded name) part of the round under way at `now`, if any.
    pub fn turn(&self, now: GameTime, folded: &Folded) -> Option<&Turn> {
        self.turns
            .get(folded)
            .filter(|_| self.number == now.seconds() / ROUND_SECONDS)
    }

    /// The damage recorded against the character (folded name) in the round under way at `now`.
    pub fn damage_this_round(&self, now: GameTime, folded: &Folded) -> u32 {
        self.turn(now, folded).map_or(0, |t| t.damage)
    }

    /// Whether the character (folded name) has spent the whole action of the round under way at
    /// `now` (one action, or two halves).
    pub fn acted(&self, now: GameTime, folded: &Folded) -> bool {
        self.turn(now, folded)
            .is_some_and(|t| t.halves >= WHOLE_ACTION)
    }

    /// The record of `name`'s round at `now`, started afresh when the round has moved on.
    pub(super) fn turn_mut(&mut self, now: GameTime, name: &str) -> &mut Turn {
        let round = now.seconds() / ROUND_SECONDS;
        if self.number != round {
            self.turns.clear();
            self.number = round;
        }
        self.turns.entry(Folded::of(name)).or_insert_with(|| Turn {
            name: name.to_string(),
            did: Vec::new(),
            halves: 0,
            damage: 0,
            acts_last: false,
        })
    }
}
