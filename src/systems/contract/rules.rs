//! The rules half of the contract: a rule system's commands, how it decides them, and its
//! refusals. The core decides its own commands and hands a system's to it whole.

use super::event::{Activity, DowntimeOf};
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
    /// A downtime week of the system's own (A Dungeon Game's scribing week); `Infallible` for a
    /// system whose characters only rest or do the GM's activities.
    type Week: Clone + Eq + fmt::Debug + Into<Activity>;

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
    /// Reads a downtime week typed as `activity` (what follows `NAME:`) when it is one of the
    /// system's own, known by its first word; `None` leaves it to the core (rest, or the GM's own).
    fn plan_week(_character: &str, _activity: &str) -> Option<Result<Self::Week, String>> {
        None
    }
    /// Checks the new texts a week of the system's own would record.
    fn check_week_text(_week: &Self::Week) -> Result<(), TextProblem> {
        Ok(())
    }
    /// What `who` (`mine`: their state in this system) does with each week of a downtime span
    /// and what the weeks give them. Dice drawn go to `record` (the span's, in draw order); events
    /// the weeks record beside the span (a scroll written) go to `after`, which holds those of
    /// the characters before. Unless the system says otherwise, weeks give nothing.
    fn downtime(
        _state: &CampaignState,
        who: &Character,
        _mine: &Self::Character,
        weeks: Vec<Planned<Self::Week>>,
        _record: &mut Vec<Die>,
        _after: &mut Vec<Event>,
        _dice: &mut Dice<'_>,
    ) -> Result<DowntimeOf, RuleError> {
        let activities = weeks.into_iter().map(Planned::into_activity).collect();
        Ok(DowntimeOf::spent(&who.name, activities))
    }
    /// Refuses a reveal of the sealed dice recorded at `seq` that the system opens itself, when
    /// their moment comes (a Ceremony scroll's check, opened by its reading).
    fn opens_its_own_seal(_state: &CampaignState, _seq: u64) -> Result<(), RuleError> {
        Ok(())
    }
    /// What `events`, recorded by any command on `state`, set off by themselves in this system
    /// (a failed spell held to fire at the end of the round they close).
    fn after_command(_state: &CampaignState, _events: &[Event]) -> Vec<Event> {
        Vec::new()
    }
}

/// What a downtime week is planned for: rest, the GM's own activity, or one of a system's (`W`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planned<W> {
    Rest,
    /// The GM's own: training, travel, a job.
    Other {
        what: String,
        note: Option<String>,
    },
    Own(W),
}

impl<W: Into<Activity>> Planned<W> {
    /// The week as recorded, when it gives nothing beyond its name.
    pub fn into_activity(self) -> Activity {
        match self {
            Planned::Rest => Activity::Rest,
            Planned::Other { what, note } => Activity::Other { what, note },
            Planned::Own(week) => week.into(),
        }
    }
}
