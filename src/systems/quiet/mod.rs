//! A Quiet Game: a third rule system compiled only in tests, to prove that a system is its folder
//! and one line in each of the registry's lists. It has a sheet, one per-character value, one
//! command drawing one die, one event and a share of a rest, and names nothing of the core's rule
//! systems. A character steadies their nerves (strain rises by a d4) and rest eases strain; strain
//! beyond calm takes them out of play.

#[cfg(test)]
mod tests;

use crate::dice::{Dice, Die};
use crate::event::Event;
use crate::rules::RuleError;
use crate::rules::rest::RestLength;
use crate::state::{CampaignState, Character};
use crate::systems::contract::event::{Share, SystemEvent, SystemModel, SystemSheet, within};
use crate::systems::contract::render::SystemWords;
use crate::systems::contract::rules::SystemRules;
use crate::systems::contract::state::SystemFold;
use crate::systems::registry::Registered;
use crate::text::TextProblem;
use crate::time::GameTime;
use serde::{Deserialize, Serialize};

pub struct Quiet;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietSheet {
    pub level: u32,
    pub calm: u32,
}

impl SystemSheet for QuietSheet {
    fn max_health(&self) -> Option<u32> {
        None
    }
    fn validate(&self) -> Result<(), String> {
        within("--level", self.level, 1, 20)?;
        within("--calm", self.calm, 1, 20)
    }
}

crate::systems::contract::event::event_enum! {
    /// A Quiet Game's events.
    QuietEvent / QuietEventOfKind = "QuietEvent" {
    /// A character steadied their nerves: strain rose by the die.
    Steadied {
        character: String,
        strain: u32,
        dice: Vec<Die>,
    },
    }
}

impl SystemEvent for QuietEvent {
    fn kind(&self) -> &'static str {
        match self {
            QuietEvent::Steadied { .. } => "steadied",
        }
    }
    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            QuietEvent::Steadied { character, .. } => is(character),
        }
    }
    fn dice(&self) -> &[Die] {
        match self {
            QuietEvent::Steadied { dice, .. } => dice,
        }
    }
    fn is_retractable(&self) -> bool {
        match self {
            QuietEvent::Steadied { .. } => true,
        }
    }
    fn continues_its_command(&self) -> bool {
        match self {
            QuietEvent::Steadied { .. } => false,
        }
    }
}

/// The strain a rest eased for one character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eased {
    pub character: String,
    pub eased: u32,
}

impl Share for Eased {
    fn character(&self) -> &str {
        &self.character
    }
}

impl SystemModel for Quiet {
    const KEY: &'static str = "quiet";
    const NAME: &'static str = "A Quiet Game";
    type Sheet = QuietSheet;
    type Event = QuietEvent;
    type RestShare = Eased;
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietCharacter {
    pub level: u32,
    pub calm: u32,
    pub strain: u32,
}

impl SystemFold for Quiet {
    type Character = QuietCharacter;
    type Campaign = ();

    fn new_character(sheet: &QuietSheet) -> QuietCharacter {
        QuietCharacter {
            level: sheet.level,
            calm: sheet.calm,
            strain: 0,
        }
    }
    fn follow_sheet(character: &mut QuietCharacter, _old: &QuietSheet, new: &QuietSheet) {
        character.level = new.level;
        character.calm = new.calm;
    }
    fn correct(character: &mut QuietCharacter, old: &QuietSheet, new: &QuietSheet) -> bool {
        Quiet::follow_sheet(character, old, new);
        Quiet::is_dead(character)
    }
    fn is_dead(character: &QuietCharacter) -> bool {
        character.strain > character.calm
    }
    fn end(character: &mut QuietCharacter) {
        character.strain = character.calm + 1;
    }
    fn forget_expired(_character: &mut QuietCharacter, _now: GameTime) {}
    fn apply(state: &mut CampaignState, _seq: u64, event: &QuietEvent) {
        match event {
            QuietEvent::Steadied {
                character, strain, ..
            } => {
                if let Some(mine) = mine(state, character) {
                    mine.strain += strain;
                }
            }
        }
    }
    fn apply_rest(state: &mut CampaignState, share: &Eased) {
        if let Some(mine) = mine(state, &share.character) {
            mine.strain = mine.strain.saturating_sub(share.eased);
        }
    }
}

fn mine<'s>(state: &'s mut CampaignState, name: &str) -> Option<&'s mut QuietCharacter> {
    state
        .characters
        .get_mut(&crate::words::fold_name(name))?
        .state_mut::<Quiet>()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuietCommand {
    /// Steady a character's nerves. Dice: one d4, the strain it costs.
    Steady { character: String },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuietError {
    #[error("{name} is too strained to steady again ({strain} of {calm} calm)")]
    TooStrained {
        name: String,
        strain: u32,
        calm: u32,
    },
}

impl SystemRules for Quiet {
    type Command = QuietCommand;
    type Error = QuietError;

    fn draws_dice(command: &QuietCommand) -> bool {
        match command {
            QuietCommand::Steady { .. } => true,
        }
    }
    fn check_text(command: &QuietCommand) -> Result<(), TextProblem> {
        match command {
            QuietCommand::Steady { .. } => Ok(()),
        }
    }
    fn decide(
        state: &CampaignState,
        command: QuietCommand,
        dice: &mut Dice<'_>,
    ) -> Result<Vec<Event>, RuleError> {
        let QuietCommand::Steady { character } = command;
        let who = crate::rules::campaign::find(state, &character)?;
        let Some(mine) = who.state::<Quiet>() else {
            return Err(RuleError::WrongSystem {
                name: who.name.clone(),
                plays: who.sheet.system().to_string(),
                needs: "A Quiet Game",
            });
        };
        if mine.strain >= mine.calm {
            return Err(QuietError::TooStrained {
                name: who.name.clone(),
                strain: mine.strain,
                calm: mine.calm,
            }
            .into());
        }
        let die = dice.roll(4, &format!("{}'s strain", who.name))?;
        Ok(vec![Event::System(Quiet::wrap_event(
            QuietEvent::Steadied {
                character: who.name.clone(),
                strain: die.value.unwrap_or(0),
                dice: vec![die],
            },
        ))])
    }
    /// Each two hours of rest ease a point of strain.
    fn rest(
        _state: &CampaignState,
        who: &Character,
        length: RestLength,
        _dice: &mut Dice<'_>,
        _record: &mut Vec<Die>,
    ) -> Result<Option<Eased>, RuleError> {
        let Some(mine) = who.state::<Quiet>() else {
            return Ok(None);
        };
        Ok(Some(Eased {
            character: who.name.clone(),
            eased: (length.hours() / 2).min(mine.strain),
        }))
    }
}

impl SystemWords for Quiet {
    fn describe(event: &QuietEvent) -> String {
        match event {
            QuietEvent::Steadied {
                character, strain, ..
            } => format!("{character} steadies: strain +{strain}"),
        }
    }
    fn sheet_words(sheet: &QuietSheet) -> String {
        format!("A Quiet Game, level {}: calm {}", sheet.level, sheet.calm)
    }
    fn rest_words(share: &Eased) -> String {
        format!("{} eases {} strain", share.character, share.eased)
    }
}
