//! Rest (T-2): the clock moves, and each resting character's system gives them what its rules say
//! a rest gives (A Dungeon Game heals by the recovery die after a night, ADG-C5; Against the
//! Darkmaster restores magic points, VSD-6).

use super::RuleError;
use crate::dice::Dice;
use crate::event::Event;
use crate::state::{CampaignState, Character};
use crate::systems::contract::rules::SystemRules;
use crate::systems::registry::{Registered, Rest, on_system};
use crate::time::GameDuration;

pub use crate::systems::contract::rules::RestLength;

/// A rest: who rests (everyone able to, when no one is named), and for how long.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resting {
    /// Who rests; omit and give --party for every character able to.
    pub characters: Vec<String>,
    /// Everyone who can rest, instead of naming them.
    // The rules read no names as everyone; the command line asks for this flag too, so that a
    // forgotten name is not a rest for the whole party.
    pub party: bool,
    /// A full night's sleep (8 hours).
    pub night: bool,
    /// Hours of rest (Against the Darkmaster).
    pub hours: Option<u32>,
}

impl Resting {
    /// A night's rest for `characters` (everyone able to, when empty).
    pub fn night(characters: &[&str]) -> Resting {
        Resting {
            characters: characters.iter().map(|c| c.to_string()).collect(),
            party: characters.is_empty(),
            night: true,
            hours: None,
        }
    }

    /// `hours` of rest for `characters` (everyone able to, when empty).
    pub fn hours(characters: &[&str], hours: u32) -> Resting {
        Resting {
            night: false,
            hours: Some(hours),
            ..Resting::night(characters)
        }
    }

    pub fn length(&self) -> RestLength {
        match self.hours {
            Some(hours) => RestLength::Hours(hours),
            None => RestLength::Night,
        }
    }
}

/// Who rests: the characters named (known and able to), or everyone able to when none is named;
/// in alphabetical order, each once.
pub(super) fn resting<'s>(
    state: &'s CampaignState,
    names: &[String],
) -> Result<Vec<&'s Character>, RuleError> {
    let can_rest = |c: &Character| !c.is_dead();
    let resting: Vec<&Character> = if names.is_empty() {
        state.characters.values().filter(|c| can_rest(c)).collect()
    } else {
        let mut chosen = Vec::new();
        for name in names {
            let who = super::campaign::find(state, name)?;
            if !can_rest(who) {
                return Err(RuleError::Dead(who.name.clone()));
            }
            chosen.push(who);
        }
        chosen.sort_by_key(|c| crate::state::fold_name(&c.name));
        chosen.dedup_by_key(|c| crate::state::fold_name(&c.name));
        chosen
    };
    if resting.is_empty() {
        return Err(RuleError::NoOneToRest);
    }
    Ok(resting)
}

/// Dice: each resting character's system draws in turn, in alphabetical order (A Dungeon Game
/// rolls a recovery die).
pub fn rest(
    state: &CampaignState,
    names: &[String],
    length: RestLength,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    let mut rest = Rest::new(GameDuration(u64::from(length.hours()) * 3600));
    for who in resting(state, names)? {
        on_system!(&who.system, AnyState, |S, _state| {
            let seen = who.as_seen_by::<S>();
            if let Some(share) = S::rest(state, &seen, length, dice, &mut rest.dice)? {
                S::rest_shares_mut(&mut rest).push(share);
            }
        });
    }
    Ok(vec![Event::Rested(rest)])
}
