//! A Quiet Game's one command as people type it: `steady NAME`.

use super::Quiet;
use super::rules::QuietCommand;
use super::sheet::QuietSheet;
use crate::systems::contract::command::{
    Action, ArgSpec, CommandSpec, Kind, SheetSpec, SystemCommands,
};

impl SystemCommands for Quiet {
    fn commands() -> &'static [CommandSpec<Quiet>] {
        COMMANDS
    }

    fn sheet_spec() -> Option<&'static SheetSpec<Quiet>> {
        Some(&SHEET)
    }
}

static SHEET: SheetSpec<Quiet> = SheetSpec {
    help: "Add an A Quiet Game character. Records the sheet; rolls no dice.",
    fields: &[
        ArgSpec::flag("level", "Level.", Kind::U32),
        ArgSpec::flag("calm", "How much strain they bear calmly.", Kind::U32),
    ],
    examples: &["grimoire character add quiet Pip --level 1 --calm 5"],
    entered: |g| {
        Ok(QuietSheet {
            level: g.read("level")?,
            calm: g.read("calm")?,
        })
    },
    set_flags: &[ArgSpec::flag("calm", "A Quiet Game: calm.", Kind::U32).optional()],
    set: |sheet, g| {
        Ok(QuietSheet {
            calm: g.maybe_read("calm")?.unwrap_or(sheet.calm),
            ..sheet.clone()
        })
    },
    level_up_flags: &[],
    level_up: |sheet, _| {
        Ok(QuietSheet {
            level: sheet.level + 1,
            ..sheet.clone()
        })
    },
};

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
