//! `grimoire completions` and `grimoire man`: generated from the same clap definitions as `--help`,
//! so they never drift from it. Neither opens a campaign file.

use super::Cli;
use super::output::Report;
use crate::Error;
use clap::{Args, CommandFactory};
use std::io::Write;

/// Print a completion script for your shell: subcommands, flags and their choices. Records
/// nothing and opens no campaign file.
///
/// Examples: `grimoire completions bash > ~/.local/share/bash-completion/completions/grimoire`;
/// `grimoire completions fish > ~/.config/fish/completions/grimoire.fish`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn completions(args: &CompletionsArgs) -> Result<Report, Error> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "grimoire", &mut script);
    print(&script)
}

/// Print grimoire's manual page (roff), e.g. `grimoire man > grimoire.1 && man ./grimoire.1`.
/// Records nothing and opens no campaign file.
#[derive(Debug, Args)]
pub struct ManArgs {}

pub fn man(_args: &ManArgs) -> Result<Report, Error> {
    let mut page = Vec::new();
    clap_mangen::Man::new(super::definitions())
        .render(&mut page)
        .map_err(|e| Error::Internal(format!("the manual page could not be rendered ({e})")))?;
    print(&page)
}

/// Writes generated text to standard output as it is (no JSON wrapping: it is meant for a file).
fn print(bytes: &[u8]) -> Result<Report, Error> {
    // A closed pipe (`grimoire man | head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(bytes);
    Ok(Report::silent())
}
