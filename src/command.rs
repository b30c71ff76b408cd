//! The command a roll put to a player's device completes (C-5), rebuilt from what the request
//! recorded: the command line's builders, shared by the write that decides an answer and by
//! `verify`, which decides it again.

use crate::event::AskedCommand;
use crate::rules::Command;
use crate::systems::contract::command::{Action, Given};
use crate::systems::registry::{Registered, SystemId, on_system};

/// The command a roll put to a device completes, as the rules decide it: a free roll, or a
/// system's command built from what was typed for it by the builder the command line uses.
pub fn asked(asked: &AskedCommand) -> Result<Command, String> {
    match asked {
        AskedCommand::Roll {
            expression,
            purpose,
            character,
        } => Ok(Command::Roll(crate::rules::campaign::DiceRoll {
            expression: expression.clone(),
            purpose: purpose.clone(),
            sealed: false,
            character: character.clone(),
        })),
        AskedCommand::System {
            system,
            path,
            given,
        } => {
            let id = SystemId::keyed(system).ok_or_else(|| format!("no rule system '{system}'"))?;
            on_system!(id, SystemId, |S| system_command::<S>(path, given))
        }
    }
}

/// A system's command rebuilt from what was typed for it, by the same builder the command line
/// uses.
fn system_command<S: Registered>(
    path: &str,
    typed: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<Command, String> {
    let spec = S::commands()
        .iter()
        .find(|c| c.path == path)
        .ok_or_else(|| format!("no command `{path}`"))?;
    let Action::Records { build, .. } = &spec.action else {
        return Err(format!("`{path}` records nothing"));
    };
    let mut given = Given::default();
    for (id, values) in typed {
        let arg = spec
            .args
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| format!("`{path}` takes no --{id}"))?;
        given.put(arg.id, values.clone());
    }
    // An argument added since the request was recorded takes its default, as the command line
    // would have given it then.
    for arg in spec.args {
        if let Some(default) = arg.default
            && !typed.contains_key(arg.id)
        {
            given.put(arg.id, vec![default.to_string()]);
        }
    }
    let command = build(&given)?;
    Ok(Command::System(S::wrap_command(command)))
}
