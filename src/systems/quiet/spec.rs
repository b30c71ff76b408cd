//! A Quiet Game's one command as people type it: `steady NAME`.

use super::Quiet;
use super::rules::QuietCommand;
use crate::systems::contract::command::{Action, ArgSpec, CommandSpec, SystemCommands};

impl SystemCommands for Quiet {
    fn commands() -> &'static [CommandSpec<Quiet>] {
        COMMANDS
    }
}

const COMMANDS: &[CommandSpec<Quiet>] = &[CommandSpec {
    path: "steady",
    help: "Steady a character's nerves: their strain rises by a d4.\n\n\
           Dice: one d4, the strain it costs.",
    args: &[ArgSpec::character()],
    examples: &["grimoire steady Pip"],
    action: Action::Records {
        rolls: true,
        build: |given| {
            Ok(QuietCommand::Steady {
                character: given.text("character")?,
            })
        },
        then: None,
    },
}];
