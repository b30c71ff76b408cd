//! The texts each command would record, held to the checks of [`crate::text`].

use super::RuleError;
use super::adg::{AdgCommand, Casting, Exertion};
use super::campaign::{Command, DiceRoll, Retraction, SessionStart};
use super::downtime::Planned;
use super::vsd::VsdCommand;
use crate::sheet::Sheet;
use crate::text::{NAME_MAX, NOTE_MAX, TextProblem, check, check_name};

/// The names a sheet carries.
fn check_sheet(sheet: &Sheet) -> Result<(), TextProblem> {
    if let Sheet::Vsd(vsd) = sheet {
        check("vocation", &vsd.vocation, NAME_MAX)?;
        for lore in &vsd.lores {
            check_name("Spell Lore's name", &lore.name)?;
        }
    }
    Ok(())
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
            check("session's entropy", entropy, NOTE_MAX)
        }
        Command::Retract(Retraction { reason, .. }) => check("reason", reason, NOTE_MAX),
        Command::Adg(adg) => match adg.as_ref() {
            AdgCommand::Learn(crate::systems::adg::rules::Learning { ritual, .. }) => {
                check_name("ritual's name", ritual)
            }
            AdgCommand::LoadTables { source, .. } => check("tables file's name", source, NOTE_MAX),
            AdgCommand::Cast(Casting { order, .. }) => order
                .target
                .as_deref()
                .map_or(Ok(()), |t| check("target", t, NAME_MAX)),
            AdgCommand::Exert(Exertion { reason, .. }) => check("reason", reason, NOTE_MAX),
            AdgCommand::Silver(change) => check("reason", &change.reason, NOTE_MAX),
            AdgCommand::WriteScroll(crate::systems::adg::rules::Scribing { effect, .. }) => {
                check("scroll's effect", effect, NOTE_MAX)
            }
            AdgCommand::ReadScroll(crate::systems::adg::rules::ScrollReading {
                target, ..
            }) => target
                .as_deref()
                .map_or(Ok(()), |t| check("target", t, NAME_MAX)),
            // These record no new text: their names must match what the campaign holds.
            AdgCommand::RollRitual(_)
            | AdgCommand::LearnScroll(_)
            | AdgCommand::GiveScroll(_)
            | AdgCommand::ResolvePending(_) => Ok(()),
        },
        Command::Vsd(vsd) => match vsd.as_ref() {
            VsdCommand::Learn(learning) => check_name("spell's name", &learning.spell.name),
            VsdCommand::Cast(casting) => check("target", &casting.order.target, NAME_MAX),
            VsdCommand::Save(save) => check("target", &save.target, NAME_MAX),
            VsdCommand::Drive(change) => check("reason", &change.reason, NOTE_MAX),
            VsdCommand::Concentrate(_)
            | VsdCommand::Interrupt(_)
            | VsdCommand::Choose(_)
            | VsdCommand::Sever(_)
            | VsdCommand::SetAlignment(_)
            | VsdCommand::SetSever(_)
            | VsdCommand::ClearCondition(_) => Ok(()),
        },
        Command::Downtime(span) => span.plan.iter().try_for_each(|week| match &week.activity {
            Planned::Rest => Ok(()),
            Planned::Scribe(scroll) => check("scroll's effect", &scroll.effect, NOTE_MAX),
            Planned::Other { what, note } => {
                check("week's activity", what, NAME_MAX)?;
                note.as_deref()
                    .map_or(Ok(()), |n| check("activity's note", n, NOTE_MAX))
            }
        }),
        Command::Roll(DiceRoll { purpose, .. }) => purpose
            .as_deref()
            .map_or(Ok(()), |p| check("roll's purpose", p, NOTE_MAX)),
        // These record no new text of their own.
        Command::Damage(_)
        | Command::Heal(_)
        | Command::AdvanceClock(_)
        | Command::EndSession
        | Command::RevealSealed(_)
        | Command::Rest(_)
        | Command::RevealSeed { .. } => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Lore, VsdSheet};
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
