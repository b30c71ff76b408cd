//! The rule systems' commands, mounted: each system describes its commands in plain data
//! (`systems::contract::command`), and this module turns those descriptions into clap's, reads
//! what was typed back into a [`Given`], and runs the command through the same write path as
//! every other. Nothing here names a system.

use super::output::{Report, appended};
use super::{At, Context, Globals, record};
use crate::Error;
use crate::rules::Command;
use crate::store::Point;
use crate::systems::contract::command::{
    Action, ArgSpec, Block, CommandSpec, Given, GivenFile, Kind, Shape, SystemCommands,
};
use crate::systems::registry::{Registered, SystemId, on_system};
use clap::builder::TypedValueParser;
use clap::{Arg, ArgAction, ArgMatches, FromArgMatches};
use std::path::PathBuf;

/// A system's command as typed: which system and command, and the values given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mounted {
    pub system: SystemId,
    /// The command's words below `grimoire` (`scroll write`).
    pub path: &'static str,
    given: Given,
    /// `--at`, for a command that reads the campaign at a point.
    at: Option<Point>,
    /// Whether it records events (or only reads the campaign).
    pub records: bool,
}

/// One mounted command's description, whichever system's.
struct Described {
    system: SystemId,
    path: &'static str,
    help: &'static str,
    args: &'static [ArgSpec],
    examples: &'static [&'static str],
    rolls: bool,
    reads_at: bool,
    records: bool,
}

fn described_by<S: Registered>(spec: &'static CommandSpec<S>) -> Described {
    Described {
        system: S::ID,
        path: spec.path,
        help: spec.help,
        args: spec.args,
        examples: spec.examples,
        rolls: spec.rolls(),
        reads_at: matches!(spec.action, Action::Reads { at: true, .. }),
        records: matches!(spec.action, Action::Records { .. }),
    }
}

/// Every system's commands, in the registry's order and each system's.
fn every_command() -> Vec<Described> {
    SystemId::ALL
        .iter()
        .flat_map(|&id| {
            on_system!(id, SystemId, |S| S::commands()
                .iter()
                .map(described_by)
                .collect::<Vec<_>>())
        })
        .collect()
}

/// What help says of a group of commands (`scroll`).
fn group_help(name: &str) -> Option<&'static str> {
    SystemId::ALL.iter().find_map(|&id| {
        on_system!(id, SystemId, |S| S::groups()
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.help))
    })
}

/// The paths of the systems' commands that may draw dice.
pub fn rolling() -> Vec<&'static str> {
    every_command()
        .into_iter()
        .filter(|c| c.rolls)
        .map(|c| c.path)
        .collect()
}

/// Every system command's examples, by path, with each system's sheet's under
/// `character add <KEY>`.
pub fn examples() -> Vec<(String, &'static [&'static str])> {
    let sheets = SystemId::ALL.iter().filter_map(|&id| {
        on_system!(id, SystemId, |S| S::sheet_spec().map(|sheet| (
            format!("character add {}", id.key()),
            sheet.examples
        )))
    });
    sheets
        .chain(
            every_command()
                .into_iter()
                .map(|c| (c.path.to_string(), c.examples)),
        )
        .collect()
}

/// Help text as clap's derive reads a doc comment: the first paragraph, without a closing
/// full stop, is the short help; the whole, when there is more than one paragraph, the long.
pub(super) fn short_and_long(help: &'static str) -> (&'static str, Option<&'static str>) {
    let first = help.split("\n\n").next().unwrap_or_default();
    let short = match first.strip_suffix('.') {
        Some(cut) if !first.ends_with("..") => cut,
        _ => first,
    };
    let long = (first.len() < help.len()).then_some(help);
    (short, long)
}

/// An argument as clap takes it.
pub(super) fn arg(spec: &ArgSpec) -> Arg {
    let (short, long) = short_and_long(spec.help);
    let mut arg = Arg::new(spec.id).help(short);
    if let Some(long) = long {
        arg = arg.long_help(long);
    }
    if let Some(flag) = spec.long {
        arg = arg.long(flag.replace('_', "-"));
    }
    if let Some(alias) = spec.alias {
        arg = arg.alias(alias);
    }
    if spec.shape != Shape::Switch {
        arg = arg.value_name(
            spec.value_name
                .map_or_else(|| spec.id.to_uppercase(), str::to_string),
        );
    }
    arg = match spec.shape {
        Shape::One => arg.action(ArgAction::Set).required(spec.default.is_none()),
        Shape::Optional => arg.action(ArgAction::Set),
        Shape::Repeated => arg.action(ArgAction::Append),
        Shape::List => arg.action(ArgAction::Append).value_delimiter(','),
        Shape::Between { min, max } => arg
            .action(ArgAction::Append)
            .num_args(min..=max)
            .required(min > 0),
        Shape::Switch => arg.action(ArgAction::SetTrue),
    };
    if let Some(default) = spec.default {
        arg = arg.default_value(default);
    }
    for other in spec.requires {
        arg = arg.requires(other);
    }
    if let Some((other, value)) = spec.required_if {
        arg = arg.required_if_eq(other, value);
    }
    match spec.kind {
        _ if spec.shape == Shape::Switch => arg,
        Kind::Text => arg.value_parser(clap::value_parser!(String)),
        Kind::Whole { min, max } => arg.allow_negative_numbers(min < 0).value_parser(
            clap::builder::RangedI64ValueParser::<i64>::new()
                .range(min..=max)
                .map(|n| n.to_string()),
        ),
        // A word in any case: "Weary" is the condition weary.
        Kind::Choice(words) => {
            arg.ignore_case(true)
                .value_parser(clap::builder::PossibleValuesParser::new(
                    words().into_iter().map(|(word, help)| {
                        let value = clap::builder::PossibleValue::new(word);
                        if help.is_empty() {
                            value
                        } else {
                            value.help(help)
                        }
                    }),
                ))
        }
        Kind::Checked(check) => {
            arg.value_parser(move |text: &str| check(text).map(|()| text.to_string()))
        }
        Kind::File => arg.value_parser(clap::value_parser!(PathBuf)),
    }
}

fn leaf(described: &Described) -> clap::Command {
    let name = described.path.rsplit(' ').next().unwrap_or(described.path);
    let (short, long) = short_and_long(described.help);
    let mut command = clap::Command::new(name).about(short);
    if let Some(long) = long {
        command = command.long_about(long);
    }
    let command = described
        .args
        .iter()
        .fold(command, |c, spec| c.arg(arg(spec)));
    if described.reads_at {
        // `--at` alone: augmenting with `At` would also give the command `At`'s own about.
        let at = <At as clap::Args>::augment_args(clap::Command::new("at"));
        command.args(at.get_arguments().cloned())
    } else {
        command
    }
}

/// `command` with every system's commands below it (`only` those under one word, when given),
/// each group made on its first command. Each group is built whole before it joins `command`
/// (clap's `mut_subcommand` rebuilds the command it changes).
pub fn mount(command: clap::Command, only: Option<&str>) -> clap::Command {
    let mut below: Vec<clap::Command> = Vec::new();
    let wanted = |c: &Described| only.is_none_or(|word| c.path.split(' ').next() == Some(word));
    for described in every_command().into_iter().filter(wanted) {
        let leaf = leaf(&described);
        let Some((group, _)) = described.path.split_once(' ') else {
            below.push(leaf);
            continue;
        };
        match below.iter_mut().find(|c| c.get_name() == group) {
            Some(known) => {
                let taken = std::mem::replace(known, clap::Command::new(group));
                *known = taken.subcommand(leaf);
            }
            None => {
                let (help, _) = short_and_long(group_help(group).unwrap_or_default());
                below.push(
                    clap::Command::new(group)
                        .about(help)
                        .subcommand_required(true)
                        .arg_required_else_help(true)
                        .subcommand(leaf),
                );
            }
        }
    }
    command.subcommands(below)
}

impl Mounted {
    /// Whether `name` is a system's command, or a group of them (`scroll`).
    pub fn has_command(name: &str) -> bool {
        first_words().contains(&name)
    }
}

/// The first word of every system's command: the command's name, or its group's.
pub fn first_words() -> Vec<&'static str> {
    every_command()
        .into_iter()
        .filter_map(|c| c.path.split(' ').next())
        .collect()
}

impl FromArgMatches for Mounted {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Mounted, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (first, mut below) = matches.subcommand().ok_or_else(missing)?;
        let mut path = first.to_string();
        while let Some((name, sub)) = below.subcommand() {
            path = format!("{path} {name}");
            below = sub;
        }
        let described = every_command()
            .into_iter()
            .find(|c| c.path == path)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        let given = read_given(below, described.args);
        let at = if described.reads_at {
            At::from_arg_matches(below)?.at
        } else {
            None
        };
        Ok(Mounted {
            system: described.system,
            path: described.path,
            given,
            at,
            records: described.records,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Mounted::from_arg_matches(matches)?;
        Ok(())
    }
}

/// What was given for `specs` in `matches` (a switch's value: `true`; a default counts as given).
pub(super) fn read_given<'s>(
    matches: &ArgMatches,
    specs: impl IntoIterator<Item = &'s ArgSpec>,
) -> Given {
    let mut given = Given::default();
    for spec in specs {
        let values: Vec<String> = match (spec.shape, spec.kind) {
            (Shape::Switch, _) => {
                if !matches.get_flag(spec.id) {
                    continue;
                }
                vec!["true".into()]
            }
            (_, Kind::File) => matches
                .get_many::<PathBuf>(spec.id)
                .into_iter()
                .flatten()
                .map(|p| p.display().to_string())
                .collect(),
            _ => matches
                .get_many::<String>(spec.id)
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
        };
        if !values.is_empty() {
            given.put(spec.id, values);
        }
    }
    given
}

/// The ids of `specs` typed on the command line (not taken from a default).
pub(super) fn typed<'s>(
    matches: &ArgMatches,
    specs: impl IntoIterator<Item = &'s ArgSpec>,
) -> Vec<&'static str> {
    specs
        .into_iter()
        .filter(|spec| {
            matches.value_source(spec.id) == Some(clap::parser::ValueSource::CommandLine)
        })
        .map(|spec| spec.id)
        .collect()
}

/// Each spec once, by id, the first kept: the flags a command offers for every system at once.
pub(super) fn union<'s>(lists: impl IntoIterator<Item = &'s [ArgSpec]>) -> Vec<ArgSpec> {
    let mut all: Vec<ArgSpec> = Vec::new();
    for spec in lists.into_iter().flatten() {
        if !all.iter().any(|known| known.id == spec.id) {
            all.push(*spec);
        }
    }
    all
}

/// Runs a system's command.
pub fn run(g: &Globals, ctx: &mut Context, mounted: &Mounted) -> Result<Report, Error> {
    on_system!(mounted.system, SystemId, |S| run_for::<S>(g, ctx, mounted))
}

fn run_for<S: Registered>(
    g: &Globals,
    ctx: &mut Context,
    mounted: &Mounted,
) -> Result<Report, Error> {
    let spec = S::commands()
        .iter()
        .find(|c| c.path == mounted.path)
        .ok_or_else(|| Error::Internal(format!("no command `{}` to run", mounted.path)))?;
    let mut given = mounted.given.clone();
    for file_arg in spec.args.iter().filter(|a| matches!(a.kind, Kind::File)) {
        if let Some(path) = given.maybe(file_arg.id).map(str::to_string) {
            let text = read_given_file(&path)?;
            given.put_file(file_arg.id, GivenFile { path, text });
        }
    }
    match &spec.action {
        Action::Records { build, then, .. } => {
            let command = build(&given).map_err(Error::Usage)?;
            if let Some(to) = super::players::put_to(g)? {
                if spec.args.iter().any(|a| matches!(a.kind, Kind::File)) {
                    return Err(Error::Usage(format!(
                        "`{}` reads a file, which a device cannot: roll it at your terminal",
                        mounted.path
                    )));
                }
                let asked = crate::event::AskedCommand::System {
                    system: S::ID.key().to_string(),
                    path: mounted.path.to_string(),
                    given: given.typed(),
                };
                return super::players::put(g, ctx, to, asked);
            }
            let written = record(g, ctx, Command::System(S::wrap_command(command.clone())))?;
            let mut report = appended(&written);
            if let Some(then) = then {
                let said = then(
                    &command,
                    written.state.as_ref(),
                    &crate::event::own_events::<S>(&written.events),
                );
                for block in &said.blocks {
                    report.text.push('\n');
                    report.text.push_str(&shown(block));
                }
                if let serde_json::Value::Object(fields) = &mut report.json {
                    fields.extend(said.json);
                }
            }
            Ok(report)
        }
        Action::Reads { at, read } => {
            let state = if *at {
                At { at: mounted.at }.state(g)?
            } else {
                g.open()?.replay(None)?
            };
            let said = read(&given, &state).map_err(crate::rules::refused::<S>)?;
            let text: Vec<String> = said.blocks.iter().map(shown).collect();
            Ok(Report::new(
                text.join("\n"),
                serde_json::Value::Object(said.json),
            ))
        }
    }
}

/// The largest file a command reads whole (a tables file is a few kilobytes).
const MAX_GIVEN_FILE: u64 = 4 * 1024 * 1024;

/// The text of a file given to a command: a regular file of UTF-8 text, small enough to read
/// whole. Anything else (a missing path, a folder, a pipe that would block, a device that never
/// ends) is refused before it is read, as a mistake in what was typed.
fn read_given_file(path: &str) -> Result<String, Error> {
    use std::io::Read;
    let shown = crate::text::printable(path);
    let refuse = |why: &str| Error::Usage(format!("{shown}: {why}"));
    let unreadable = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => refuse("there is no such file"),
        std::io::ErrorKind::PermissionDenied => refuse("you may not read this file"),
        kind => refuse(&format!("the file cannot be read ({kind})")),
    };
    let too_large = || refuse("the file is larger than 4 MiB, far past any tables file");
    // Opened without blocking and checked as opened, so a pipe swapped in after a look at the
    // path can neither hang the command nor pass for a file.
    let file = rustix::fs::open(
        path,
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map(std::fs::File::from)
    .map_err(|e| unreadable(e.into()))?;
    let metadata = file.metadata().map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(refuse(
            "this is not a regular file; give the path of a JSON file",
        ));
    }
    if metadata.len() > MAX_GIVEN_FILE {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(MAX_GIVEN_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_GIVEN_FILE {
        return Err(too_large());
    }
    // A byte-order mark some editors write first says nothing to a JSON reader.
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    String::from_utf8(text.to_vec()).map_err(|_| refuse("the file is not UTF-8 text"))
}

/// A block of what a command said, as the terminal shows it.
fn shown(block: &Block) -> String {
    match block {
        Block::Line(line) => line.clone(),
        Block::Table { columns, rows } => super::output::table(columns, rows.clone()),
    }
}
