//! Free text entered at the table — names, reasons, a scroll's effect — is recorded for good and shown
//! on sheets and one-line log entries, so each must be one line of a length those can show.

use super::RuleError;
use super::adg::AdgCommand;
use super::campaign::Command;
use super::vsd::VsdCommand;
use crate::sheet::Sheet;

/// Names: of the campaign, characters, rituals, spells, lores and targets.
pub const NAME_MAX: usize = 60;
/// Reasons, purposes, session entropy and a scroll's effect.
pub const NOTE_MAX: usize = 500;

/// Refuses text holding line breaks, tabs or other control characters, or longer than `max`
/// characters once trimmed.
pub fn check(what: &'static str, text: &str, max: usize) -> Result<(), RuleError> {
    if text.chars().any(char::is_control) {
        return Err(RuleError::TextNotOneLine(what));
    }
    let length = text.trim().chars().count();
    if length > max {
        return Err(RuleError::TextTooLong { what, length, max });
    }
    Ok(())
}

/// Checks every new text a command would record. Names that refer to someone already in the
/// campaign need no check: they must match an existing one.
pub fn check_command(command: &Command) -> Result<(), RuleError> {
    match command {
        Command::CreateCampaign { name, .. } => check("campaign's name", name, NAME_MAX),
        Command::AddCharacter { name, sheet } => {
            check("character's name", name, NAME_MAX)?;
            if let Sheet::Vsd(vsd) = sheet {
                check("vocation", &vsd.vocation, NAME_MAX)?;
                for lore in &vsd.lores {
                    check("Spell Lore's name", &lore.name, NAME_MAX)?;
                }
            }
            Ok(())
        }
        Command::StartSession { entropy } => check("session's entropy", entropy, NOTE_MAX),
        Command::Roll {
            purpose: Some(purpose),
            ..
        } => check("roll's purpose", purpose, NOTE_MAX),
        Command::Retract { reason, .. } => check("reason", reason, NOTE_MAX),
        Command::Adg(adg) => match adg.as_ref() {
            AdgCommand::Learn { ritual, .. } => check("ritual's name", ritual, NAME_MAX),
            AdgCommand::Cast { order, .. } => match &order.effect {
                Some((_, target)) => check("target", target, NAME_MAX),
                None => Ok(()),
            },
            AdgCommand::Exert { reason, .. } => check("reason", reason, NOTE_MAX),
            AdgCommand::WriteScroll { effect, .. } => check("scroll's effect", effect, NOTE_MAX),
            AdgCommand::ReadScroll {
                target: Some(target),
                ..
            } => check("target", target, NAME_MAX),
            _ => Ok(()),
        },
        Command::Vsd(vsd) => match vsd.as_ref() {
            VsdCommand::Learn { spell, .. } => check("spell's name", &spell.name, NAME_MAX),
            VsdCommand::Cast { order, .. } => check("target", &order.target, NAME_MAX),
            VsdCommand::Save { target, .. } => check("target", target, NAME_MAX),
            VsdCommand::Drive { reason, .. } => check("reason", reason, NOTE_MAX),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Lore, VsdSheet};

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
            Err(RuleError::TextNotOneLine("Spell Lore's name"))
        );
        assert_eq!(
            check_command(&caster(&"w".repeat(61), "Elementalism")),
            Err(RuleError::TextTooLong {
                what: "vocation",
                length: 61,
                max: NAME_MAX
            })
        );
    }

    #[test]
    fn length_counts_characters_not_bytes_and_ignores_surrounding_spaces() {
        assert_eq!(
            check("name", &format!("  {}  ", "é".repeat(60)), NAME_MAX),
            Ok(())
        );
        assert!(check("name", &"é".repeat(61), NAME_MAX).is_err());
    }
}
