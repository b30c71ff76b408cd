//! A Quiet Game's one command and its refusal, and what a rest gives.

use super::Quiet;
use super::event::{Eased, QuietEvent};
use crate::dice::{Dice, Die};
use crate::event::Event;
use crate::rules::RuleError;
use crate::rules::rest::RestLength;
use crate::state::{CampaignState, Character};
use crate::systems::contract::rules::SystemRules;
use crate::systems::registry::Registered;
use crate::text::TextProblem;

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
    type Week = std::convert::Infallible;

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
