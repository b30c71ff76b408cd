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
