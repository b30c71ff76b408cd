//! `character set` and `character level-up`: the sheet as entered, changed by an event. Each
//! offers every system's flags, as the systems describe them; a flag the character's system does
//! not have is refused.

use super::super::mount;
use super::super::output::{Report, appended};
use super::super::{Context, Globals, record};
use crate::Error;
use crate::rules::Command;
use crate::rules::campaign::find;
use crate::sheet::Sheet;
use crate::systems::contract::command::{ArgSpec, Given, SheetSpec, SystemCommands};
use crate::systems::registry::{Registered, SystemId, on_system};
use clap::{Arg, ArgMatches, Args, FromArgMatches};

/// `character set NAME --reason WHY [FLAGS]`.
#[derive(Debug)]
pub struct SetArgs(Typed);

/// `character level-up NAME [FLAGS] [--reason WHY]`.
#[derive(Debug)]
pub struct LevelUpArgs(Typed);

/// What was typed to change a sheet: who, why, the flags' values, and which were typed (not
/// taken from a default).
#[derive(Debug)]
struct Typed {
    name: String,
    reason: String,
    given: Given,
    typed: Vec<&'static str>,
}

impl Typed {
    fn read(matches: &ArgMatches, flags: &[ArgSpec]) -> Typed {
        let text = |id: &str| matches.get_one::<String>(id).cloned().unwrap_or_default();
        Typed {
            name: text("name"),
            reason: text("reason"),
            given: mount::read_given(matches, flags),
            typed: mount::typed(matches, flags),
        }
    }
}

/// Every system's flags of one kind (`set_flags`, `level_up_flags`), each once.
fn every_system(flags: fn(&SheetOf) -> &'static [ArgSpec]) -> Vec<ArgSpec> {
    let lists: Vec<&[ArgSpec]> = SystemId::ALL
        .iter()
        .filter_map(|&system| sheet_of(system))
        .map(|sheet| flags(&sheet))
        .collect();
    mount::union(lists)
}

/// A system's sheet flags, whichever system's.
struct SheetOf {
    set_flags: &'static [ArgSpec],
    level_up_flags: &'static [ArgSpec],
}

fn sheet_of(system: SystemId) -> Option<SheetOf> {
    on_system!(system, SystemId, |S| S::sheet_spec().map(|s| SheetOf {
        set_flags: s.set_flags,
        level_up_flags: s.level_up_flags,
    }))
}

fn set_flags() -> Vec<ArgSpec> {
    every_system(|s| s.set_flags)
}

fn level_up_flags() -> Vec<ArgSpec> {
    every_system(|s| s.level_up_flags)
}

fn name_arg() -> Arg {
    Arg::new("name")
        .help("The character's name (any case)")
        .value_name("NAME")
        .required(true)
}

fn reason_arg() -> Arg {
    Arg::new("reason")
        .long("reason")
        .help("Why, in a few words; kept in the log")
        .value_name("REASON")
}

impl Args for SetArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
            .arg(name_arg())
            .arg(reason_arg().required(true))
            .args(set_flags().iter().map(mount::arg))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        SetArgs::augment_args(command)
    }
}

impl FromArgMatches for SetArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<SetArgs, clap::Error> {
        Ok(SetArgs(Typed::read(matches, &set_flags())))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = SetArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for LevelUpArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
            .arg(name_arg())
            .args(level_up_flags().iter().map(mount::arg))
            .arg(reason_arg().default_value("a level gained"))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        LevelUpArgs::augment_args(command)
    }
}

impl FromArgMatches for LevelUpArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<LevelUpArgs, clap::Error> {
        Ok(LevelUpArgs(Typed::read(matches, &level_up_flags())))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = LevelUpArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The character's sheet as it stands now, and their name as the campaign spells it.
fn current_sheet(g: &Globals, name: &str) -> Result<(String, Sheet), Error> {
    let state = g.open()?.replay(None)?;
    let who = find(&state, name)?;
    Ok((who.name.clone(), who.sheet.clone()))
}

/// Which change of a sheet: a correction, or a level gained.
#[derive(Clone, Copy)]
enum Change {
    Set,
    LevelUp,
}

/// The sheet changed as `change` says with what was `typed`, by the rules of the character's
/// system: a flag typed that the system's sheet does not have is refused.
fn changed(who: &str, sheet: &Sheet, change: Change, typed: &Typed) -> Result<Sheet, Error> {
    on_system!(sheet, Sheet, |S, mine| changed_in::<S>(
        who, mine, change, typed
    ))
}

fn changed_in<S: Registered>(
    who: &str,
    mine: &S::Sheet,
    change: Change,
    typed: &Typed,
) -> Result<Sheet, Error> {
    let Some(spec): Option<&SheetSpec<S>> = S::sheet_spec() else {
        return Err(Error::Usage(format!(
            "{who} plays {}, whose sheet the command line cannot change",
            S::NAME
        )));
    };
    let (flags, apply) = match change {
        Change::Set => (spec.set_flags, spec.set),
        Change::LevelUp => (spec.level_up_flags, spec.level_up),
    };
    let foreign = typed
        .typed
        .iter()
        .find(|id| !flags.iter().any(|f| f.id == **id));
    if let Some(foreign) = foreign {
        return Err(Error::Usage(format!(
            "{who} plays {}, whose sheet has no --{}",
            S::NAME,
            foreign.replace('_', "-")
        )));
    }
    apply(mine, &typed.given)
        .map(S::wrap_sheet)
        .map_err(Error::Usage)
}

pub fn set(g: &Globals, ctx: &mut Context, a: &SetArgs) -> Result<Report, Error> {
    record_change(g, ctx, Change::Set, &a.0)
}

pub fn level_up(g: &Globals, ctx: &mut Context, a: &LevelUpArgs) -> Result<Report, Error> {
    record_change(g, ctx, Change::LevelUp, &a.0)
}

/// Records the character's sheet changed as typed: a correction (`set`) or a level gained.
fn record_change(
    g: &Globals,
    ctx: &mut Context,
    change: Change,
    typed: &Typed,
) -> Result<Report, Error> {
    let (character, sheet) = current_sheet(g, &typed.name)?;
    let sheet = changed(&character, &sheet, change, typed)?;
    let command = Command::ChangeSheet {
        character,
        sheet,
        reason: typed.reason.clone(),
        correction: matches!(change, Change::Set),
    };
    Ok(appended(&record(g, ctx, command)?))
}
