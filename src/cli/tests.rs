//! The command line's own checks: its clap definition holds together.

use super::Cli;
use clap::CommandFactory;

/// `--help` is the manual at the table: every command and every argument says what it is for.
#[test]
fn every_command_and_argument_has_help_text() {
    fn undocumented(command: &clap::Command, path: &str, found: &mut Vec<String>) {
        if command.get_about().is_none() && !path.is_empty() {
            found.push(format!("`{path}` itself"));
        }
        for arg in command.get_arguments() {
            let builtin = matches!(arg.get_id().as_str(), "help" | "version");
            if !builtin && arg.get_help().is_none() && arg.get_long_help().is_none() {
                found.push(format!("`{path}` argument {}", arg.get_id()));
            }
        }
        for sub in command.get_subcommands() {
            undocumented(sub, format!("{path} {}", sub.get_name()).trim(), found);
        }
    }
    let mut found = Vec::new();
    undocumented(&Cli::command(), "", &mut found);
    assert!(found.is_empty(), "no help text for: {}", found.join(", "));
}
