//! A roll put to a player's phone, said for the player (#47): who rolls, for what, and what it
//! must beat where the rules know it, worked out when the phone asks, from the campaign as it
//! stands (nothing of it is stored: the request keeps the command as it was typed).

use super::campaign::Command;
use crate::state::CampaignState;
use crate::systems::contract::rules::SystemRules;
use crate::systems::registry::on_system;

/// `command` (what it reads of the log filled in), in the words a player reads on the phone;
/// `None` where the rules have no words of their own for it.
pub fn words(command: &Command, state: &CampaignState) -> Option<String> {
    match command {
        Command::Roll(roll) => {
            let mut words = match &roll.character {
                Some(name) => {
                    let name = state.character(name).map_or(name.as_str(), |c| &c.name);
                    format!("{name}: roll {}", roll.expression)
                }
                None => format!("Roll {}", roll.expression),
            };
            if let Some(purpose) = &roll.purpose {
                words.push_str(&format!(" for {purpose}"));
            }
            Some(words)
        }
        Command::System(command) => {
            on_system!(command, AnyCommand, |S, command| S::asked_words(
                command, state
            ))
        }
        _ => None,
    }
}
