//! The rules half of the contract: a rule system's commands, how it decides them, and its
//! refusals. The core decides its own commands and hands a system's to it whole.

use super::event::{Activity, DowntimeOf};
use super::port::Refused;
use super::port::{Decided, Refusal, Someone, View};
use super::state::SystemFold;
use crate::dice::sealed::{self, PendingSeal, RevealedDie};
use crate::dice::{Dice, Die, SealedSecret};
use crate::seq::Seq;
use crate::text::TextProblem;
use crate::time::GameTime;
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
    fn inputs(_command: &mut Self::Command) -> Vec<Needs<'_, Self::Event>> {
        Vec::new()
    }
    /// Checks every new text the command would record.
    fn check_text(command: &Self::Command) -> Result<(), TextProblem>;
    /// A roll put to a player's phone, said for the player (#47): who rolls, for what, and what
    /// it must beat where the rules know it, from the command (what it reads of the log filled
    /// in) and the campaign as it stands now. `None` leaves the words the command was typed in.
    fn asked_words(_command: &Self::Command, _state: &dyn View<Self>) -> Option<String> {
        None
    }
    /// The choices the rules left to `character`'s player, which the player may make on their
    /// linked phone (#47), oldest first. The GM's own picks are never among them.
    fn players_choices(_state: &dyn View<Self>, _character: &str) -> Vec<PlayersChoice> {
        Vec::new()
    }
    /// The command a player's choice is made with, and its arguments; `None` for a system
    /// that leaves players no choices.
    const CHOICE_COMMAND: Option<ChoiceCommand> = None;
    /// Checks the texts a sheet of the system carries.
    fn check_sheet_text(_sheet: &Self::Sheet) -> Result<(), TextProblem> {
        Ok(())
    }
    /// What the system records before a character of its joins the campaign (the tables its
    /// rules read, the first time).
    fn before_join(_state: &dyn View<Self>, _sheet: &Self::Sheet) -> Vec<Self::Event> {
        Vec::new()
    }
    /// The events the command records on `state`, drawing from `dice`.
    fn decide(
        state: &dyn View<Self>,
        command: Self::Command,
        dice: &mut Dice<'_>,
    ) -> Result<Vec<Decided<Self::Event>>, Refusal<Self::Error>>;
    /// What a rest of `length` gives `who`, one of the system's characters, drawing from `dice`
    /// and adding each die drawn to `record` (the rest's dice, in draw order); `None` when the
    /// system records nothing for them.
    fn rest(
        state: &dyn View<Self>,
        who: &Someone<'_, Self>,
        length: RestLength,
        dice: &mut Dice<'_>,
        record: &mut Vec<Die>,
    ) -> Result<Option<Self::RestShare>, Refusal<Self::Error>>;
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
        _state: &dyn View<Self>,
        who: &Someone<'_, Self>,
        _mine: &Self::Character,
        weeks: Vec<Planned<Self::Week>>,
        _record: &mut Vec<Die>,
        _after: &mut Vec<Self::Event>,
        _dice: &mut Dice<'_>,
    ) -> Result<DowntimeOf, Refusal<Self::Error>> {
        let activities = weeks.into_iter().map(Planned::into_activity).collect();
        Ok(DowntimeOf::spent(who.name, activities))
    }
    /// Refuses a reveal of the sealed dice recorded at `seq` that the system opens itself, when
    /// their moment comes (a Ceremony scroll's check, opened by its reading).
    fn opens_its_own_seal(_state: &dyn View<Self>, _seq: Seq) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Whether anything of the system waits for what later commands do (a failed spell held to
    /// fire at the end of a round): only then does the core ask [`Self::after_command`].
    fn watches(_state: &dyn View<Self>) -> bool {
        false
    }
    /// What a command's events set off by themselves in this system, read on the state `after`
    /// them (a held spell whose round they close).
    fn after_command(_after: &dyn View<Self>) -> Vec<Self::Event> {
        Vec::new()
    }
}

/// How long a rest lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestLength {
    /// A night's sleep: eight hours.
    Night,
    Hours(u32),
}

impl RestLength {
    pub fn hours(self) -> u32 {
        match self {
            RestLength::Night => 8,
            RestLength::Hours(h) => h,
        }
    }
}

/// A command that names only the character it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    /// The character's name (any case).
    pub character: String,
}

/// What a system's command needs filled in from outside the rules before it is decided (the
/// rules are pure): the campaign fills each inside the write.
pub enum Needs<'c, E> {
    /// The sealed dice recorded with the event at `seq`.
    SealedDice {
        seq: Seq,
        into: &'c mut Vec<SealedSecret>,
    },
    /// The event recorded at `seq`, as the system reads it, with the in-game time it was
    /// recorded at (not called when there is none).
    Event {
        seq: Seq,
        into: Box<dyn FnOnce(Logged<E>, GameTime) + 'c>,
    },
}

/// An event of the log as a system reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logged<E> {
    Own(E),
    /// A roll of dice not tied to a rule, and whom it was made for.
    Roll {
        character: Option<String>,
    },
    /// Anything else.
    Other,
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

/// Opens the sealed die `seal` recorded at `seq` with the GM's `secrets`: the value and nonce that
/// hash to its commitment, or the refusal for a secret missing or not matching.
pub fn open_seal(
    seq: Seq,
    seal: &PendingSeal,
    secrets: &[SealedSecret],
) -> Result<RevealedDie, Refused> {
    let secret = secrets
        .iter()
        .find(|s| s.n == seal.n)
        .ok_or(Refused::SecretMissing { seq, n: seal.n })?;
    if !sealed::reveal_matches(&seal.commitment, &secret.faces(), &secret.nonce) {
        return Err(Refused::SecretMismatch { seq, n: seal.n });
    }
    Ok(RevealedDie {
        n: seal.n,
        value: secret.value,
        nonce: secret.nonce.clone(),
        then: secret.then.clone(),
    })
}

/// A choice the rules left to a character's player (#47): what it is about, how many options to
/// pick, and the options, each a word the system's choice command takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayersChoice {
    /// The character as the log records them.
    pub character: String,
    /// What waits, in the player's words: "Fire Bolt (#12): spell failure (112)".
    pub about: String,
    pub pick: usize,
    pub options: Vec<ChoiceOption>,
}

/// One option of a player's choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceOption {
    /// The word the choice command takes ("keep-mps").
    pub word: &'static str,
    /// What picking it does, in a few words.
    pub meaning: &'static str,
    /// Whether picking it names someone more (whom a failed spell strikes instead).
    pub names_someone: bool,
}

/// How a system's choice command is given: its words below `grimoire`, the ids of its arguments
/// for the character, the options picked and whom an option names; and the kind of event it
/// records first, whose payload names the character as `character` and the options picked as
/// `chosen`, in the words the command takes (both checkers hold a phone's choice to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChoiceCommand {
    pub path: &'static str,
    pub character: &'static str,
    pub picks: &'static str,
    pub names: &'static str,
    pub made: &'static str,
}
