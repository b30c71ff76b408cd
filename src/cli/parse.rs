//! Reading a command line into a [`Cli`], as `grimoire` does, quickly for the command line that
//! parses and with the definitions people read for everything else.

use super::Cli;
use clap::CommandFactory;
use std::ffi::OsString;

/// The command line `args` (the program's name first), parsed. A command that parses is read with
/// the plain definitions, holding only the command it names; only help, the version and mistakes
/// are parsed again with the definitions people read (each command's examples, the dice options
/// only where they apply), which cost two thirds of a short command's start-up to build. All three
/// accept exactly the same command lines, and read them alike (`tests/it/help.rs`).
pub fn parse_from(args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let plain = empty_db_unset(Cli::command());
    // Matching the arguments against the definitions copies the global options into every
    // command, which cost more than building them all: the command line is first read with the
    // one command it names. Commands are only taken away, so a line this reads is read as the
    // whole would read it (no command guesses at abbreviations); one it refuses is read again.
    if let Some(named) = with_only_the_named_command(&plain, &args)
        && let Ok(matches) = named.try_get_matches_from(&args)
        && let Ok(cli) = parsed(&matches)
    {
        return Ok(cli);
    }
    match plain.try_get_matches_from(&args) {
        Ok(matches) => parsed(&matches),
        // The version reads the same either way.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => Err(e),
        Err(_) => empty_db_unset(super::definitions())
            .try_get_matches_from(&args)
            .and_then(|matches| parsed(&matches)),
    }
}

/// A command line's parse: the command, and whether `--actor` was written on it.
pub fn parsed(matches: &clap::ArgMatches) -> Result<Cli, clap::Error> {
    let mut cli = <Cli as clap::FromArgMatches>::from_arg_matches(matches)?;
    cli.globals.actor_typed =
        matches.value_source("actor") == Some(clap::parser::ValueSource::CommandLine);
    Ok(cli)
}

/// `whole` with its own options and only the first command `args` name (by name or alias), when
/// they name one. A word that only looks like a command (an option's value) makes a line this
/// refuses, and the whole definitions then read it.
fn with_only_the_named_command(whole: &clap::Command, args: &[OsString]) -> Option<clap::Command> {
    let word = args
        .iter()
        .skip(1)
        .find(|word| whole.find_subcommand(word).is_some())?;
    let named = whole.find_subcommand(word)?;
    let top = (whole.get_arguments().cloned()).fold(
        clap::Command::new(whole.get_name().to_string()),
        |top, arg| top.arg(arg),
    );
    Some(top.subcommand_required(true).subcommand(named.clone()))
}

/// An empty GRIMOIRE_DB (`GRIMOIRE_DB= grimoire …`) reads as unset, as a shell means it: `--db`
/// then names the campaign, or the default does. Read as a value, it refused every command.
fn empty_db_unset(command: clap::Command) -> clap::Command {
    match std::env::var_os("GRIMOIRE_DB").is_some_and(|db| db.is_empty()) {
        true => command.mut_arg("db", |db| db.env(None::<&str>)),
        false => command,
    }
}
