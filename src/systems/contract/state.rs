//! The state half of the contract: what a rule system keeps for each of its characters, and how
//! the events the core folds for every system (a character added, a sheet changed or corrected,
//! the clock moving) reach it.

use super::event::{DowntimeOf, SystemModel};
use super::port::Fold;
use crate::seq::Seq;
use crate::time::GameTime;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

pub trait SystemFold: SystemModel {
    /// What replay computes for one of the system's characters, beside the core's name, sheet
    /// and health.
    type Character: Serialize + DeserializeOwned + Clone + Eq + fmt::Debug;
    /// What it keeps for the whole campaign (tables, settings, things no one character holds).
    type Campaign: Serialize + DeserializeOwned + Clone + Eq + fmt::Debug + Default;

    /// Whether a health maximum corrected down to 0 ends the character (ADG-C4); the core
    /// keeps the health track, so it asks.
    const ENDS_AT_ZERO_MAX_HEALTH: bool = false;

    /// A character as their sheet starts them.
    fn new_character(sheet: &Self::Sheet) -> Self::Character;
    /// The sheet as entered changed from `old` to `new` (a level gained): each computed value
    /// moves by as much as its entered value did.
    fn follow_sheet(character: &mut Self::Character, old: &Self::Sheet, new: &Self::Sheet);
    /// The GM corrected the sheet as entered (C-1); whether the result ends the character.
    fn correct(character: &mut Self::Character, old: &Self::Sheet, new: &Self::Sheet) -> bool;
    /// What a character holds past what a sheet may (a correction that moved a value play had
    /// already raised), in words; `None` when all is within range.
    fn past_the_sheet(_character: &Self::Character) -> Option<String> {
        None
    }
    /// Whether the character is out of play for good, as the system has it.
    fn is_dead(character: &Self::Character) -> bool;
    /// Ends the character, as a recorded correction says.
    fn end(character: &mut Self::Character);
    /// Drops what has run out by `now` (effects, conditions, windows).
    fn forget_expired(character: &mut Self::Character, now: GameTime);
    /// Folds one of the system's events, recorded at `seq`, into the campaign's state. Total, as
    /// the core's `apply` is: an event that no longer makes sense changes nothing.
    fn apply(state: &mut dyn Fold<Self>, seq: Seq, event: &Self::Event);
    /// Folds one character's share of a rest; the core has already moved the clock.
    fn apply_rest(state: &mut dyn Fold<Self>, share: &Self::RestShare);
    /// Folds one of the system's characters' part of a downtime span; the core has already moved
    /// the clock and healed them.
    fn apply_downtime(_state: &mut dyn Fold<Self>, _spent: &DowntimeOf) {}
}
