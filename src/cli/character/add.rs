//! `character add`: the rule system first (`character add <KEY> NAME …`), then only its sheet's
//! flags, as the system describes them; the older `NAME --system KEY` form still taken.

use super::super::mount;
use crate::Error;
use crate::sheet::Sheet;
use crate::systems::contract::command::{ArgSpec, Given, Shape, SystemCommands};
use crate::systems::registry::{Registered, SystemId, on_system};
use clap::{Arg, ArgMatches, Args, FromArgMatches, Subcommand};

/// The words help gives `character add` beyond its derive: a usage line naming the systems, and
/// each system's first example.
pub fn described(add: clap::Command) -> clap::Command {
    let keys: Vec<&str> = with_sheets().iter().map(|s| s.key()).collect();
    let examples: Vec<String> = with_sheets()
        .iter()
        .filter_map(|&system| on_system!(system, SystemId, |S| S::sheet_spec()?.examples.first()))
        .map(|example| continued(example, 96))
        .collect();
    add.override_usage(format!(
        "grimoire character add <{}> <NAME> [SHEET FLAGS]",
        keys.join("|")
    ))
    .long_about(format!(
        "Add a character to the campaign. Records the sheet as entered; rolls no dice.\n\n\
         The rule system comes first, and with it the sheet it takes:\n\n{}",
        examples.join("\n")
    ))
}

/// An example command line, indented, broken before a flag where it would pass `width` and
/// continued with a backslash, as a shell reads it.
fn continued(example: &str, width: usize) -> String {
    let mut lines = vec![String::from("  ")];
    for word in example.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if line.trim().is_empty()
            || line.len() + 1 + word.len() + 2 <= width
            || !word.starts_with("--")
        {
            if !line.trim().is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        } else {
            line.push_str(" \\");
            lines.push(format!("      {word}"));
        }
    }
    lines.join("\n")
}

/// Add a character to the campaign. Records the sheet as entered; rolls no dice.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    verbatim_doc_comment
)]
pub struct AddArgs {
    #[command(subcommand)]
    pub system: Option<AddSystem>,
    /// The form before the system became a subcommand (`NAME --system KEY` and every sheet
    /// flag), kept so scripts keep working.
    #[command(flatten)]
    pub old_form: OldAddArgs,
}

/// The systems whose sheets the command line can enter.
fn with_sheets() -> Vec<SystemId> {
    SystemId::ALL
        .iter()
        .copied()
        .filter(|&system| on_system!(system, SystemId, |S| S::sheet_spec().is_some()))
        .collect()
}

fn fields_of(system: SystemId) -> &'static [ArgSpec] {
    on_system!(system, SystemId, |S| S::sheet_spec()
        .map_or(&[][..], |s| s.fields))
}

fn name_arg() -> Arg {
    Arg::new("name")
        .help("The character's name; unique in the campaign, ignoring case")
        .value_name("NAME")
        // A name being given: completion offers none of the names already taken.
        .value_hint(clap::ValueHint::Other)
        .required(true)
}

/// `character add <KEY> NAME …`: one system's sheet.
#[derive(Debug)]
pub struct AddSystem {
    system: SystemId,
    name: String,
    given: Given,
}

impl Subcommand for AddSystem {
    fn augment_subcommands(mut command: clap::Command) -> clap::Command {
        for system in with_sheets() {
            let help = on_system!(system, SystemId, |S| S::sheet_spec().map_or("", |s| s.help));
            let (short, _) = mount::short_and_long(help);
            command = command.subcommand(
                clap::Command::new(system.key())
                    .about(short)
                    .arg(name_arg())
                    .args(fields_of(system).iter().map(mount::arg)),
            );
        }
        command
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        AddSystem::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        SystemId::keyed(name).is_some_and(|system| with_sheets().contains(&system))
    }
}

impl FromArgMatches for AddSystem {
    fn from_arg_matches(matches: &ArgMatches) -> Result<AddSystem, clap::Error> {
        let (key, below) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        let system = SystemId::keyed(key)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(AddSystem {
            system,
            name: below.get_one::<String>("name").cloned().unwrap_or_default(),
            given: mount::read_given(below, fields_of(system)),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = AddSystem::from_arg_matches(matches)?;
        Ok(())
    }
}

/// `character add NAME --system KEY …`: hidden from help, and still taken. It offers every
/// system's sheet flags at once, so which belong is checked once the system is known.
#[derive(Debug, Default)]
pub struct OldAddArgs {
    name: Option<String>,
    system: Option<SystemId>,
    given: Given,
    typed: Vec<&'static str>,
}

/// Every system's sheet flags, each once, none required and none with a default: the old form
/// says what is missing itself, for the system named.
fn old_flags() -> Vec<ArgSpec> {
    let lists: Vec<&[ArgSpec]> = with_sheets().into_iter().map(fields_of).collect();
    mount::union(lists)
        .into_iter()
        .map(|mut spec| {
            spec.default = None;
            if spec.shape == Shape::One {
                spec.shape = Shape::Optional;
            }
            spec
        })
        .collect()
}

impl Args for OldAddArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        let keys: Vec<&'static str> = with_sheets().iter().map(|s| s.key()).collect();
        command
            .arg(name_arg().hide(true))
            .arg(
                Arg::new("system")
                    .long("system")
                    .help("The rule system the character plays")
                    .hide(true)
                    .required(true)
                    .value_parser(clap::builder::PossibleValuesParser::new(keys)),
            )
            .args(old_flags().iter().map(|spec| mount::arg(spec).hide(true)))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        OldAddArgs::augment_args(command)
    }
}

impl FromArgMatches for OldAddArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<OldAddArgs, clap::Error> {
        let flags = old_flags();
        Ok(OldAddArgs {
            name: matches.get_one::<String>("name").cloned(),
            system: matches
                .get_one::<String>("system")
                .and_then(|key| SystemId::keyed(key)),
            given: mount::read_given(matches, &flags),
            typed: mount::typed(matches, &flags),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = OldAddArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl AddArgs {
    /// The name and sheet, from either form.
    pub(super) fn entered(&self) -> Result<(String, Sheet), Error> {
        match &self.system {
            Some(add) => Ok((
                add.name.clone(),
                on_system!(add.system, SystemId, |S| sheet_of::<S>(&add.given))?,
            )),
            None => {
                let old = &self.old_form;
                let system = old.system.unwrap_or(SystemId::ALL[0]);
                let sheet = on_system!(system, SystemId, |S| old_sheet::<S>(old))?;
                Ok((old.name.clone().unwrap_or_default(), sheet))
            }
        }
    }
}

fn sheet_of<S: Registered>(given: &Given) -> Result<Sheet, Error> {
    let spec =
        S::sheet_spec().ok_or_else(|| Error::Internal(format!("no sheet for {}", S::NAME)))?;
    (spec.entered)(given)
        .map(S::wrap_sheet)
        .map_err(Error::Usage)
}

/// The old form's sheet: every flag typed must be the system's, and every one it needs typed.
fn old_sheet<S: Registered>(old: &OldAddArgs) -> Result<Sheet, Error> {
    let fields = S::sheet_spec().map_or(&[][..], |s| s.fields);
    let takes = format!("the {} sheet takes {}", S::SHORT, flags_taken(fields));
    for id in &old.typed {
        if !fields.iter().any(|f| f.id == *id) {
            return Err(Error::Usage(format!(
                "--{} is not part of the {} sheet; {takes}",
                long_of(id),
                S::SHORT
            )));
        }
    }
    for field in fields {
        let needed = field.shape == Shape::One && field.default.is_none();
        if needed && old.given.maybe(field.id).is_none() {
            return Err(Error::Usage(format!(
                "--{} is missing; {takes}",
                long_of(field.id)
            )));
        }
    }
    sheet_of::<S>(&old.given)
}

fn long_of(id: &str) -> String {
    id.replace('_', "-")
}

/// The flags a sheet takes, as a usage line writes them: `--level … [--silver]`.
fn flags_taken(fields: &[ArgSpec]) -> String {
    let words: Vec<String> = fields
        .iter()
        .map(|f| {
            let flag = format!("--{}", long_of(f.long.unwrap_or(f.id)));
            match f.shape {
                Shape::One if f.default.is_none() => flag,
                Shape::Repeated | Shape::List => {
                    format!("[{flag} {} …]", f.value_name.unwrap_or("VALUE"))
                }
                _ => format!("[{flag}]"),
            }
        })
        .collect();
    words.join(" ")
}
