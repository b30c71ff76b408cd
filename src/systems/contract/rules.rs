//! The rules half of the contract: a rule system's commands, how it decides them, and its
//! refusals. The core decides its own commands and hands a system's to it whole.

use super::state::SystemFold;
use crate::dice::{Dice, Die};
use crate::event::Event;
use crate::rules::RuleError;
use crate::rules::campaign::Input;
use crate::rules::rest::RestLength;
use crate::state::{CampaignState, Character};
use crate::text::TextProblem;
use std::fmt;

pub trait SystemRules: SystemFold {
    /// One variant per command, each holding its struct.
    type Command: Clone + Eq + fmt::Debug;
    /// Its refusals (the core's own, such as an unknown character, stay the core's).
    type Error: std::error::Error + Clone + Eq + 'static;

    /// Whether deciding the command may draw dice (a command that never does refuses dice given
    /// for it).
    fn draws_dice(command: &Self::Command) -> bool;
    /// What the command needs filled in from outside the rules (see [`Input`]).
    fn inputs(_command: &mut Self::Command) -> Vec<Input<'_>> {
        Vec::new()
    }
    /// Checks every new text the command would record.
    fn check_text(command: &Self::Command) -> Result<(), TextProblem>;
    /// Checks the texts a sheet of the system carries.
    fn check_sheet_text(_sheet: &Self::Sheet) -> Result<(), TextProblem> {
        Ok(())
    }
    /// What the system records before a character of its joins the campaign (the tables its
    /// rules read, the first time).
    fn before_join(_state: &CampaignState, _sheet: &Self::Sheet) -> Vec<Event> {
        Vec::new()
    }
    /// The events the command records on `state`, drawing from `dice`.
    fn decide(
        state: &CampaignState,
        command: Self::Command,
        dice: &mut Dice<'_>,
    ) -> Result<Vec<Event>, RuleError>;
    /// What a rest of `length` gives `who`, one of the system's characters, drawing from `dice`
    /// and adding each die drawn to `record` (the rest's dice, in draw order); `None` when the
    /// system records nothing for them.
    fn rest(
        state: &CampaignState,
        who: &Character,
        length: RestLength,
        dice: &mut Dice<'_>,
        record: &mut Vec<Die>,
    ) -> Result<Option<Self::RestShare>, RuleError>;
    /// What `events`, recorded by any command on `state`, set off by themselves in this system
    /// (a failed spell held to fire at the end of the round they close).
    fn after_command(_state: &CampaignState, _events: &[Event]) -> Vec<Event> {
        Vec::new()
    }
}
