//! Reading a command line into a [`Cli`], as `grimoire` does: quickly, with only the command it
//! names built, for the command line that parses; with the definitions people read for everything
//! else.

use super::mount::{self, Mounted};
use super::{Cli, Commands, CoreLine, Globals};
use crate::store::Location;
use clap::{Args, CommandFactory, FromArgMatches, Subcommand};
use std::ffi::OsString;

/// Every command, the core's and the systems' mounted beside them, with the global options.
impl CommandFactory for Cli {
    fn command() -> clap::Command {
        let core = CoreLine::command();
        // Help lists the systems' commands where [`Commands`] declares them: the core's declared
        // after them move behind them.
        let later: Vec<String> = (core.get_subcommands())
            .map(|c| c.get_name().to_string())
            .skip_while(|name| name != super::SYSTEMS_FOLLOW)
            .skip(1)
            .collect();
        let mounted = mount::mount(core, None);
        let behind = (mounted.get_subcommands())
            .map(clap::Command::get_display_order)
            .max()
            .unwrap_or_default();
        (later.iter().zip(behind + 1..)).fold(mounted, |command, (name, order)| {
            command.mut_subcommand(name, |c| c.display_order(order))
        })
    }

    fn command_for_update() -> clap::Command {
        Cli::command()
    }
}

impl FromArgMatches for Cli {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Cli, clap::Error> {
        match matches.subcommand_name() {
            Some(name) if Mounted::has_command(name) => Ok(Cli {
                globals: Globals::from_arg_matches(matches)?,
                command: Commands::System(Mounted::from_arg_matches(matches)?),
            }),
            _ => {
                let core = CoreLine::from_arg_matches(matches)?;
                Ok(Cli {
                    globals: core.globals,
                    command: core.command,
                })
            }
        }
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Cli::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Parser for Cli {}

/// The command line `args` (the program's name first), parsed. A command that parses is read with
/// the plain definitions of only the command it names; only help, the version and mistakes are
/// parsed again with every command's, and then with the definitions people read (each command's
/// examples, the dice options only where they apply), which cost two thirds of a short command's
/// start-up to build. All three accept exactly the same command lines, and read them alike
/// (`tests/it/help.rs`).
pub fn parse_from(args: Vec<OsString>) -> Result<Cli, clap::Error> {
    // Building every command, and matching the arguments against them (which copies the global
    // options into each), cost more than the rest of a short write: the line is first read with
    // the one command it names. Commands are only left out, so a line this reads is read as the
    // whole would read it (no command guesses at abbreviations); one it refuses is read again.
    if let Some(named) = with_only_the_named_command(&args)
        && let Ok(matches) = named.try_get_matches_from(&args)
        && let Ok(cli) = parsed(&matches)
    {
        return Ok(cli);
    }
    match empty_db_unset(Cli::command()).try_get_matches_from(&args) {
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
    let mut cli = Cli::from_arg_matches(matches)?;
    cli.globals.actor_typed =
        matches.value_source("actor") == Some(clap::parser::ValueSource::CommandLine);
    Ok(cli)
}

/// The global options and only the first command `args` name, when they name one: a system's
/// (or group of them) mounted alone, or the core's taken from its definitions. A word that only
/// looks like a command (an option's value) makes a line this refuses, and the whole definitions
/// then read it.
fn with_only_the_named_command(args: &[OsString]) -> Option<clap::Command> {
    let systems = mount::first_words();
    let word = args.iter().skip(1).find_map(|word| {
        let word = word.to_str()?;
        (systems.contains(&word) || Commands::has_subcommand(word)).then_some(word)
    })?;
    let top = empty_db_unset(Globals::augment_args(clap::Command::new("grimoire")));
    let top = top.subcommand_required(true);
    if systems.contains(&word) {
        return Some(mount::mount(top, Some(word)));
    }
    Some(top.subcommand(core_command_alone(word)?))
}

/// The core's command `name` built alone, as the derive builds it among all the others but for
/// its help (only the whole definitions show help): building all of them for the one a line
/// names was most of reading it. `None` for a name not listed here, which the whole definitions
/// then read. Each is held to the derive's own by `tests::each_core_command_alone_reads_as_the_derive_builds_it`.
fn core_command_alone(name: &str) -> Option<clap::Command> {
    use super::*;
    fn args<A: Args>(name: &'static str) -> clap::Command {
        A::augment_args(clap::Command::new(name))
    }
    // What the derive adds to a `#[command(subcommand)]` variant.
    fn group<S: Subcommand>(name: &'static str) -> clap::Command {
        S::augment_subcommands(clap::Command::new(name))
            .subcommand_required(true)
            .arg_required_else_help(true)
    }
    macro_rules! alone {
        ($($name:literal => $kind:ident $ty:ty),+ $(,)?) => {
            match name {
                $($name => Some($kind::<$ty>($name)),)+
                _ => None,
            }
        };
    }
    alone! {
        "init" => args campaign::InitArgs,
        "character" => group character::CharacterCommand,
        "damage" => args args::HealthArgs,
        "heal" => args args::HealthArgs,
        "time" => group table::TimeCommand,
        "session" => group table::SessionCommand,
        "fight" => group fight::FightCommand,
        "next" => args fight::NextArgs,
        "roll" => args args::RollArgs,
        "reveal" => args args::RevealArgs,
        "peek" => args table::PeekArgs,
        "player" => group players::PlayerCommand,
        "log" => args history::LogArgs,
        "explain" => args history::ExplainArgs,
        "diff" => args recap::DiffArgs,
        "audit" => group audit::AuditCommand,
        "verify" => args campaign::VerifyArgs,
        "report" => args report::ReportArgs,
        "serve" => args serve::ServeArgs,
        "head" => args campaign::HeadArgs,
        "seed" => group campaign::SeedCommand,
        "retract" => args args::RetractArgs,
        "amend" => args amend::AmendArgs,
        "export" => args transfer::ExportArgs,
        "import" => args transfer::ImportArgs,
        "backup" => args transfer::BackupArgs,
        "restore" => args transfer::RestoreArgs,
        "rest" => args args::RestArgs,
        "downtime" => args args::DowntimeArgs,
        "shell" => args shell::ShellArgs,
        "tour" => args tour::TourArgs,
        "completions" => args docs::CompletionsArgs,
        "man" => args docs::ManArgs,
        "complete-names" => args docs::CompleteNamesArgs,
        "snapshots" => group dev::SnapshotsCommand,
        "dev" => group dev::DevCommand,
    }
}

/// Reads `--db` without ever echoing it: clap's own message for a refused value repeats the value,
/// and a PostgreSQL URL may hold a password.
#[derive(Debug, Clone, Copy)]
pub(super) struct LocationParser;

impl clap::builder::TypedValueParser for LocationParser {
    type Value = Location;

    fn parse_ref(
        &self,
        command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Location, clap::Error> {
        let refuse = |why: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("--db: {why}\n"),
            )
            .with_cmd(command)
        };
        let text = value
            .to_str()
            .ok_or_else(|| refuse("the path or URL is not valid UTF-8".into()))?;
        Location::parse(text).map_err(refuse)
    }
}

/// Physical dice: values given with `--rolls`, or `--rolls ask`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnteredRolls {
    Values(Vec<u32>),
    Ask,
}

/// The longest `--rolls` list: far more dice than any command draws, small enough to refuse junk.
const MAX_ENTERED_ROLLS: usize = 1000;

pub(super) fn parse_rolls(text: &str) -> Result<EnteredRolls, String> {
    if text.trim().eq_ignore_ascii_case("ask") {
        return Ok(EnteredRolls::Ask);
    }
    let values: Vec<&str> = text.split(',').map(str::trim).collect();
    if values.len() > MAX_ENTERED_ROLLS {
        return Err(format!("at most {MAX_ENTERED_ROLLS} values"));
    }
    values
        .iter()
        .map(|v| {
            v.parse::<u32>().map_err(|_| {
                format!(
                    "'{v}' is not a die face; write whole numbers separated by commas, e.g. 14,3"
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(EnteredRolls::Values)
}

/// An empty GRIMOIRE_DB (`GRIMOIRE_DB= grimoire …`) reads as unset, as a shell means it: `--db`
/// then names the campaign, or the default does. Read as a value, it refused every command.
fn empty_db_unset(command: clap::Command) -> clap::Command {
    match std::env::var_os("GRIMOIRE_DB").is_some_and(|db| db.is_empty()) {
        true => command.mut_arg("db", |db| db.env(None::<&str>)),
        false => command,
    }
}

#[cfg(test)]
mod tests {
    use super::{CoreLine, core_command_alone};
    use clap::CommandFactory;

    /// What reading a command line uses of a command: its arguments and groups as defined, the
    /// settings that refuse a line, and the same of each command below it.
    fn as_read(command: &clap::Command) -> String {
        let below: Vec<String> = command.get_subcommands().map(as_read).collect();
        format!(
            "{} args {:?} groups {:?} required {} else-help {} below [{}]",
            command.get_name(),
            command.get_arguments().collect::<Vec<_>>(),
            command.get_groups().collect::<Vec<_>>(),
            command.is_subcommand_required_set(),
            command.is_arg_required_else_help_set(),
            below.join(", ")
        )
    }

    #[test]
    fn each_core_command_alone_reads_as_the_derive_builds_it() {
        let core = CoreLine::command();
        let mut names = 0;
        for derived in core.get_subcommands() {
            let name = derived.get_name();
            let alone = core_command_alone(name)
                .unwrap_or_else(|| panic!("`{name}` has no entry in core_command_alone"));
            assert_eq!(as_read(&alone), as_read(derived), "{name}");
            names += 1;
        }
        assert!(names > 30, "{names}");
        assert!(core_command_alone("scroll").is_none());
    }
}
