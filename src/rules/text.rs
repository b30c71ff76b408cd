//! The texts each command would record, held to the checks of [`crate::text`].

use super::RuleError;
use super::campaign::{Command, DiceRoll, FightStep, Retraction, SessionStart};
use crate::sheet::Sheet;
use crate::systems::contract::rules::Planned;
use crate::systems::contract::rules::SystemRules;
use crate::systems::registry::on_system;
use crate::text::{NAME_MAX, NOTE_MAX, TextProblem, check, check_filled, check_name};

/// The names a sheet carries.
fn check_sheet(sheet: &Sheet) -> Result<(), TextProblem> {
    on_system!(sheet, Sheet, |S, sheet| S::check_sheet_text(sheet))
}

/// Checks every new text a command would record. Names that refer to someone already in the
/// campaign need no check: they must match an existing one.
pub fn check_command(command: &Command) -> Result<(), RuleError> {
    Ok(check_texts(command)?)
}

fn check_texts(command: &Command) -> Result<(), TextProblem> {
    match command {
        Command::CreateCampaign { name, .. } => check("campaign's name", name, NAME_MAX),
        Command::AddCharacter { name, sheet } => {
            check_name("character's name", name)?;
            check_sheet(sheet)
        }
        Command::ChangeSheet { sheet, reason, .. } => {
            check("reason", reason, NOTE_MAX)?;
            check_sheet(sheet)
        }
        Command::StartSession(SessionStart { entropy }) => {
            check("session's entropy", entropy, NOTE_MAX)?;
            // None given is a session without the players' words; spaces alone would look like some.
            if !entropy.is_empty() && entropy.trim().is_empty() {
                return Err(TextProblem::Empty("session's entropy"));
            }
            Ok(())
        }
        Command::Retract(Retraction { reason, .. }) => check("reason", reason, NOTE_MAX),
        Command::System(command) => {
            on_system!(command, AnyCommand, |S, command| S::check_text(command))
        }
        Command::Downtime(span) => span.plan.iter().try_for_each(|week| match &week.activity {
            Planned::Rest => Ok(()),
            Planned::Own(week) => on_system!(week, AnyWeek, |S, week| S::check_week_text(week)),
            Planned::Other { what, note } => {
                check("week's activity", what, NAME_MAX)?;
                note.as_deref()
                    .map_or(Ok(()), |n| check("activity's note", n, NOTE_MAX))
            }
        }),
        Command::Roll(DiceRoll { purpose, .. }) => purpose
            .as_deref()
            .map_or(Ok(()), |p| check("roll's purpose", p, NOTE_MAX)),
        Command::Fight(FightStep::Start { name: Some(name) }) if !name.trim().is_empty() => {
            check_filled("fight's name", name, NAME_MAX)
        }
        // These record no new text of their own (an amendment's command is checked as it is decided).
        Command::Fight(_)
        | Command::Amend(_)
        | Command::Damage(_)
        | Command::Heal(_)
        | Command::AdvanceClock(_)
        | Command::EndSession
        | Command::RevealSealed(_)
        | Command::Rest(_)
        | Command::RevealSeed { .. }
        | Command::UnlinkDevice { .. }
        | Command::WithdrawRoll { .. } => Ok(()),
        Command::LinkDevice { player, .. } => check("player's name", player, NAME_MAX),
        Command::RequestRoll { asked, .. } => match asked {
            crate::event::AskedCommand::Roll { purpose, .. } => purpose
                .as_deref()
                .map_or(Ok(()), |p| check("roll's purpose", p, NOTE_MAX)),
            crate::event::AskedCommand::System { given, .. } => given
                .values()
                .flatten()
                .try_for_each(|value| check("value given", value, NOTE_MAX)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::vsd::sheet::{Lore, VsdSheet};
    use crate::text::*;

    fn caster(vocation: &str, lore: &str) -> Command {
        Command::AddCharacter {
            name: "Mira".into(),
            sheet: Sheet::Vsd(VsdSheet {
                level: 3,
                vocation: vocation.into(),
                lores: vec![Lore {
                    name: lore.into(),
                    bonus: 25,
                    ranks: 3,
                }],
                mp: 12,
                drive: 3,
                body: 20,
                wsr: 10,
                defense: 5,
                health: None,
            }),
        }
    }

    #[test]
    fn a_sheets_vocation_and_lore_names_are_one_short_line_too() {
        assert_eq!(check_command(&caster("wizard", "Elementalism")), Ok(()));
        assert_eq!(
            check_command(&caster("wizard", "Elemen\ttalism")),
            Err(RuleError::Text(TextProblem::NotOneLine(
                "Spell Lore's name"
            )))
        );
        assert_eq!(
            check_command(&caster(&"w".repeat(61), "Elementalism")),
            Err(RuleError::Text(TextProblem::TooLong {
                what: "vocation",
                length: 61,
                max: NAME_MAX
            }))
        );
    }
}
