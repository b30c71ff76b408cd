//! A Quiet Game's one command and its refusal, and what a rest gives.

use super::Quiet;
use super::event::{Eased, QuietEvent};
use crate::dice::{Dice, Die};
use crate::systems::contract::port::{Decided, Refusal, Someone, View};
use crate::systems::contract::rules::{RestLength, SystemRules};
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
        state: &dyn View<Quiet>,
        command: QuietCommand,
        dice: &mut Dice<'_>,
    ) -> Result<Vec<Decided<QuietEvent>>, Refusal<QuietError>> {
        let QuietCommand::Steady { character } = command;
        let who = state.find(&character)?;
        let mine = who.own()?;
        if mine.strain >= mine.calm {
            return Err(Refusal::Own(QuietError::TooStrained {
                name: who.name.to_string(),
                strain: mine.strain,
                calm: mine.calm,
            }));
        }
        let die = dice.roll(4, &format!("{}'s strain", who.name))?;
        Ok(vec![Decided::Own(QuietEvent::Steadied {
            character: who.name.to_string(),
            strain: die.value.unwrap_or(0),
            dice: vec![die],
        })])
    }
    /// Each two hours of rest ease a point of strain.
    fn rest(
        _state: &dyn View<Quiet>,
        who: &Someone<'_, Quiet>,
        length: RestLength,
        _dice: &mut Dice<'_>,
        _record: &mut Vec<Die>,
    ) -> Result<Option<Eased>, Refusal<QuietError>> {
        let Some(mine) = who.mine else {
            return Ok(None);
        };
        Ok(Some(Eased {
            character: who.name.to_string(),
            eased: (length.hours() / 2).min(mine.strain),
        }))
    }
}
