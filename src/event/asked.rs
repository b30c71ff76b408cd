//! The command a roll put to a player's device completes (C-5), as the request records it.

use crate::dice::DiceExpr;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The command a roll put to a device completes, as the GM gave it: kept in the request so the
/// answer decides exactly it, whoever records the answer.
/// Always a JSON object (see [`crate::text::ReadFields`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", tag = "command", rename_all = "snake_case")]
pub enum AskedCommand {
    /// A free roll (`grimoire roll`), never sealed (the device shows what it rolls).
    Roll {
        expression: DiceExpr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        purpose: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<String>,
    },
    /// A rule system's command: its system, its words below `grimoire` and what was typed for
    /// each of its arguments.
    System {
        system: String,
        path: String,
        given: BTreeMap<String, Vec<String>>,
    },
}

crate::text::read_only_as_objects! {
    AskedCommand: "a command written as a group of fields",
}

impl AskedCommand {
    /// The command in a few words, as the player's page and the log show it.
    pub fn words(&self) -> String {
        match self {
            AskedCommand::Roll {
                expression,
                purpose,
                character,
            } => {
                let mut words = format!("roll {expression}");
                if let Some(purpose) = purpose {
                    words.push_str(&format!(" for {purpose}"));
                }
                if let Some(character) = character {
                    words.push_str(&format!(" ({character})"));
                }
                words
            }
            AskedCommand::System { path, given, .. } => {
                let mut words = path.clone();
                for (id, values) in given {
                    match values.as_slice() {
                        [only] if only == "true" => words.push_str(&format!(" --{id}")),
                        values => words.push_str(&format!(" --{id} {}", values.join(","))),
                    }
                }
                words.replace('_', "-")
            }
        }
    }

    /// The name given for the character who acts (C-5): a free roll's character, or what was
    /// typed for the argument the system's command marks as acting. `None` when the command names
    /// no one who acts (a free roll for no one) or is one this build does not know.
    pub fn acting(&self) -> Option<&str> {
        match self {
            AskedCommand::Roll { character, .. } => character.as_deref(),
            AskedCommand::System {
                system,
                path,
                given,
            } => {
                let arg =
                    crate::systems::registry::SystemId::keyed(system)?.acting_argument(path)?;
                given.get(arg)?.first().map(String::as_str)
            }
        }
    }
}
