//! A rule system's commands as people type them, in plain data: each command's words, its help,
//! its arguments and what each takes, and how what was typed becomes the system's command. The
//! command line mounts these (it owns the parsing library); nothing here names one, so a system
//! describes its commands without knowing how they are read.

use super::port::{Refusal, View};
use super::rules::SystemRules;
use crate::seq::Seq;
use crate::words::Words;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// The commands a system offers people, as the command line mounts them.
pub trait SystemCommands: SystemRules {
    /// Its commands, in the order help lists them.
    fn commands() -> &'static [CommandSpec<Self>] {
        &[]
    }
    /// The words below `grimoire` that gather its commands (`scroll` for `scroll write`).
    fn groups() -> &'static [GroupSpec] {
        &[]
    }
    /// What the command line adds to one of the system's refusals: what to type about it (a
    /// flag, a command), written to follow the refusal's own words.
    fn hint(_error: &Self::Error) -> Option<String> {
        None
    }
    /// How people enter and change its sheet; `None` when the command line cannot.
    fn sheet_spec() -> Option<&'static SheetSpec<Self>> {
        None
    }
}

/// A system's sheet as people enter it (`character add <KEY>`) and change it (`character set`,
/// `character level-up`). Each flag's id names the sheet's field.
pub struct SheetSpec<S: SystemRules> {
    /// `character add <KEY>`'s help.
    pub help: &'static str,
    /// The sheet's flags for `character add`, in help's order.
    pub fields: &'static [ArgSpec],
    pub examples: &'static [&'static str],
    /// The sheet from the flags given (a flag with a default may be missing: the older form of
    /// `character add` gives only what was typed).
    pub entered: fn(&Given) -> Result<S::Sheet, String>,
    /// The flags `character set` takes for this system (the command offers every system's), and
    /// the sheet with the values given put in.
    pub set_flags: &'static [ArgSpec],
    pub set: fn(&S::Sheet, &Given) -> Result<S::Sheet, String>,
    /// The flags of what a level brings (`character level-up`), and the sheet a level up.
    pub level_up_flags: &'static [ArgSpec],
    pub level_up: fn(&S::Sheet, &Given) -> Result<S::Sheet, String>,
}

/// A word below `grimoire` that gathers a system's commands (`scroll` for `scroll write`, …).
pub struct GroupSpec {
    pub name: &'static str,
    /// One line, as the list of commands shows it.
    pub help: &'static str,
}

/// One command a system offers.
pub struct CommandSpec<S: SystemRules> {
    /// Its words below `grimoire`, separated by spaces: `scroll write`.
    pub path: &'static str,
    /// The help: its first paragraph is the short help (`-h` and the list of commands), the whole
    /// of it `--help`. Paragraphs are separated by a blank line; it says what the command records
    /// and in what order it draws dice.
    pub help: &'static str,
    /// The arguments, in the order help lists them.
    pub args: &'static [ArgSpec],
    /// Command lines a GM would type, each beginning `grimoire`; help lists them and a test
    /// parses each.
    pub examples: &'static [&'static str],
    pub action: Action<S>,
}

/// What a command does.
pub enum Action<S: SystemRules> {
    /// Records the system's command built from what was typed (an `Err` is a usage mistake the
    /// parser could not see, e.g. a tables file that does not read). `then` adds what the table
    /// wants to know once it is recorded (a purse's new total).
    Records {
        /// Whether it may draw dice: only then does it take `--rolls` and `--player-entropy`.
        rolls: bool,
        build: fn(&Given) -> Result<S::Command, String>,
        then: Option<Then<S>>,
    },
    /// Reads the campaign, recording nothing; with `at`, the command takes `--at` and reads the
    /// campaign as it stood then.
    Reads { at: bool, read: Read<S> },
}

/// What a recording command adds once recorded, from the command, the state after and the events.
/// What a reading command says, from what was typed and the campaign as it stands (or stood).
pub type Read<S> = fn(&Given, &dyn View<S>) -> Result<Said, Refusal<<S as SystemRules>::Error>>;

/// The events are the system's own among those recorded, each with its seq.
pub type Then<S> = fn(
    &<S as SystemRules>::Command,
    &dyn View<S>,
    &[(Seq, &<S as super::event::SystemModel>::Event)],
) -> Said;

impl<S: SystemRules> CommandSpec<S> {
    /// Whether the command may draw dice.
    pub fn rolls(&self) -> bool {
        matches!(self.action, Action::Records { rolls: true, .. })
    }

    /// The argument naming the character who acts (C-5), if the command has one.
    pub fn acting(&self) -> Option<&'static str> {
        self.args.iter().find(|a| a.acting).map(|a| a.id)
    }
}

/// What a command says: lines and tables of text, and the same as JSON fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Said {
    pub blocks: Vec<Block>,
    pub json: serde_json::Map<String, serde_json::Value>,
}

/// A part of what a command says, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Line(String),
    /// Rows under a header, laid out by the front end (to the terminal's width, say).
    Table {
        columns: Vec<&'static str>,
        rows: Vec<Vec<String>>,
    },
}

impl Said {
    /// `blocks`, with `json`'s fields (nothing when it is not an object).
    pub fn new(blocks: Vec<Block>, json: serde_json::Value) -> Said {
        let json = match json {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        Said { blocks, json }
    }
}

/// One argument of a command.
#[derive(Clone, Copy)]
pub struct ArgSpec {
    /// Its name in [`Given`]; also the flag (`damage_taken` is `--damage-taken`) unless `long`
    /// says otherwise, and the value's name in help (`<DAMAGE_TAKEN>`) unless `value_name` does.
    pub id: &'static str,
    /// What help says of it: a first paragraph, then more after a blank line for `--help` only.
    pub help: &'static str,
    pub kind: Kind,
    pub shape: Shape,
    /// A flag (`--type`) or, when `None`, a positional argument.
    pub long: Option<&'static str>,
    pub value_name: Option<&'static str>,
    /// The value taken when none is typed; help shows it.
    pub default: Option<&'static str>,
    /// Other arguments (by id) that must be given with this one.
    pub requires: &'static [&'static str],
    /// Required when the argument `.0` has the value `.1`.
    pub required_if: Option<(&'static str, &'static str)>,
    /// An older spelling of the flag, still taken.
    pub alias: Option<&'static str>,
    /// Whether it names the character who acts (C-5): the one whose player may roll the
    /// command on their phone, whoever else the command names.
    pub acting: bool,
}

/// How many values an argument takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Exactly one, required.
    One,
    /// At most one.
    Optional,
    /// Any number, each after its own flag (or all the positional words left).
    Repeated,
    /// Any number, separated by commas.
    List,
    /// Between `min` and `max` positional words, at least `min` required.
    Between { min: usize, max: usize },
    /// A switch: present or not.
    Switch,
}

/// What one value may be; the command line refuses anything else before the command is built.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Any text.
    Text,
    /// A whole number from `min` to `max`; with `min` below 0, a leading `-` is a number, not
    /// a flag.
    Whole { min: i64, max: i64 },
    /// One word of a closed list, each with what help says of it ("" for nothing).
    Choice(fn() -> Vec<(&'static str, &'static str)>),
    /// Text a system reads itself; the error is what the command line says of it.
    Checked(fn(&str) -> Result<(), String>),
    /// A file's path: the command line reads the file and gives its path and text.
    File,
}

impl Kind {
    /// The range of a `u32`.
    pub const U32: Kind = Kind::Whole {
        min: 0,
        max: u32::MAX as i64,
    };
    /// The range of an `i32`.
    pub const I32: Kind = Kind::Whole {
        min: i32::MIN as i64,
        max: i32::MAX as i64,
    };
    /// The range of an `i64`.
    pub const I64: Kind = Kind::Whole {
        min: i64::MIN,
        max: i64::MAX,
    };
    /// The range of a `u64` that fits an `i64`.
    pub const U64: Kind = Kind::Whole {
        min: 0,
        max: i64::MAX,
    };
}

/// The words of a closed list, none with help of its own: a [`Kind::Choice`] for `W`.
pub fn words_of<W: Words>() -> Vec<(&'static str, &'static str)> {
    W::ALL.iter().map(|w| (w.word(), "")).collect()
}

impl ArgSpec {
    const fn new(id: &'static str, help: &'static str, kind: Kind, shape: Shape) -> ArgSpec {
        ArgSpec {
            id,
            help,
            kind,
            shape,
            long: None,
            value_name: None,
            default: None,
            requires: &[],
            required_if: None,
            alias: None,
            acting: false,
        }
    }

    /// A positional argument, required.
    pub const fn positional(id: &'static str, help: &'static str, kind: Kind) -> ArgSpec {
        ArgSpec::new(id, help, kind, Shape::One)
    }

    /// A flag with a value, required.
    pub const fn flag(id: &'static str, help: &'static str, kind: Kind) -> ArgSpec {
        ArgSpec::new(id, help, kind, Shape::One).long_as(id)
    }

    /// A switch: `--moved`.
    pub const fn switch(id: &'static str, help: &'static str) -> ArgSpec {
        ArgSpec::new(id, help, Kind::Text, Shape::Switch).long_as(id)
    }

    /// The character a command is about, positional (`NAME`): the one who acts.
    pub const fn character() -> ArgSpec {
        ArgSpec::positional("character", "The character's name (any case).", Kind::Text)
            .value_name("NAME")
            .acting()
    }

    /// Why, in a few words (`--reason`), kept in the log.
    pub const fn reason() -> ArgSpec {
        ArgSpec::flag(
            "reason",
            "Why, in a few words; kept in the log.",
            Kind::Text,
        )
    }

    /// The flag is `--long` (its id may differ).
    pub const fn long_as(mut self, long: &'static str) -> ArgSpec {
        self.long = Some(long);
        self
    }

    pub const fn value_name(mut self, name: &'static str) -> ArgSpec {
        self.value_name = Some(name);
        self
    }

    pub const fn optional(mut self) -> ArgSpec {
        self.shape = Shape::Optional;
        self
    }

    pub const fn repeated(mut self) -> ArgSpec {
        self.shape = Shape::Repeated;
        self
    }

    pub const fn list(mut self) -> ArgSpec {
        self.shape = Shape::List;
        self
    }

    pub const fn between(mut self, min: usize, max: usize) -> ArgSpec {
        self.shape = Shape::Between { min, max };
        self
    }

    pub const fn default(mut self, value: &'static str) -> ArgSpec {
        self.default = Some(value);
        self
    }

    pub const fn requires(mut self, ids: &'static [&'static str]) -> ArgSpec {
        self.requires = ids;
        self
    }

    pub const fn required_if(mut self, id: &'static str, value: &'static str) -> ArgSpec {
        self.required_if = Some((id, value));
        self
    }

    pub const fn alias(mut self, alias: &'static str) -> ArgSpec {
        self.alias = Some(alias);
        self
    }

    /// It names the character who acts (C-5).
    pub const fn acting(mut self) -> ArgSpec {
        self.acting = true;
        self
    }
}

/// What was typed for a command, by argument id, already checked against each [`Kind`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    values: BTreeMap<&'static str, Vec<String>>,
    files: BTreeMap<&'static str, GivenFile>,
}

/// A file given for a [`Kind::File`] argument: its path as typed, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenFile {
    pub path: String,
    pub text: String,
}

impl Given {
    /// Records the values typed for `id` (a switch's: `true`).
    pub fn put(&mut self, id: &'static str, values: Vec<String>) {
        self.values.insert(id, values);
    }

    pub fn put_file(&mut self, id: &'static str, file: GivenFile) {
        self.files.insert(id, file);
    }

    /// Every value given, by argument id (files aside): what a roll put to a device keeps of the
    /// command, to build it again when the device answers.
    pub fn typed(&self) -> BTreeMap<String, Vec<String>> {
        self.values
            .iter()
            .map(|(id, values)| (id.to_string(), values.clone()))
            .collect()
    }

    /// The one value typed for `id`, if any.
    pub fn maybe(&self, id: &str) -> Option<&str> {
        self.values
            .get(id)
            .and_then(|v| v.first())
            .map(String::as_str)
    }

    /// The value of a required argument.
    pub fn text(&self, id: &str) -> Result<String, String> {
        self.maybe(id)
            .map(str::to_string)
            .ok_or_else(|| format!("<{}> is missing", id.to_uppercase()))
    }

    /// Every value typed for `id`.
    pub fn all(&self, id: &str) -> &[String] {
        self.values.get(id).map(Vec::as_slice).unwrap_or_default()
    }

    /// Whether the switch `id` was given.
    pub fn switch(&self, id: &str) -> bool {
        self.maybe(id) == Some("true")
    }

    /// The value of `id` read as a `T`, if given.
    pub fn maybe_read<T: FromStr>(&self, id: &str) -> Result<Option<T>, String>
    where
        T::Err: fmt::Display,
    {
        self.maybe(id)
            .map(|text| {
                text.parse::<T>()
                    .map_err(|e| format!("'{text}' for <{}>: {e}", id.to_uppercase()))
            })
            .transpose()
    }

    /// The value of a required `id` read as a `T`.
    pub fn read<T: FromStr>(&self, id: &str) -> Result<T, String>
    where
        T::Err: fmt::Display,
    {
        self.maybe_read(id)?
            .ok_or_else(|| format!("<{}> is missing", id.to_uppercase()))
    }

    /// The value of `id` read by `parse`, if given.
    pub fn maybe_with<T>(
        &self,
        id: &str,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        self.maybe(id).map(parse).transpose()
    }

    /// The word typed for `id`, as its value of `W`, if given.
    pub fn maybe_word<W: Words>(&self, id: &str) -> Result<Option<W>, String> {
        self.maybe(id).map(|text| word::<W>(text)).transpose()
    }

    /// The word typed for a required `id`.
    pub fn word<W: Words>(&self, id: &str) -> Result<W, String> {
        self.maybe_word(id)?
            .ok_or_else(|| format!("<{}> is missing", id.to_uppercase()))
    }

    /// Every word typed for `id`.
    pub fn words<W: Words>(&self, id: &str) -> Result<Vec<W>, String> {
        self.all(id).iter().map(|text| word::<W>(text)).collect()
    }

    /// The file given for `id`.
    pub fn file(&self, id: &str) -> Result<&GivenFile, String> {
        self.files
            .get(id)
            .ok_or_else(|| format!("<{}> is missing", id.to_uppercase()))
    }
}

/// The word `text` names, in any case ("Weary" is `weary`), as the command line takes it.
pub fn word<W: Words>(text: &str) -> Result<W, String> {
    W::ALL
        .iter()
        .copied()
        .find(|w| w.word().eq_ignore_ascii_case(text))
        .ok_or_else(|| format!("'{text}' is not one of {}", words_list::<W>()))
}

fn words_list<W: Words>() -> String {
    W::ALL
        .iter()
        .map(|w| w.word())
        .collect::<Vec<_>>()
        .join(", ")
}
