//! `grimoire shell`: one campaign kept open for an evening at the table. Each line is a grimoire
//! command without the `grimoire`; it runs through the same code as on the command line and is
//! durable when its output appears. The store stays open and keeps the state at its head in memory,
//! so a command starts from where the last one ended instead of from a snapshot (unless another
//! process wrote meanwhile, which the head's hash tells).

use super::open::SharedStore;
use super::output::{Report, count};
use super::{Cli, Context, Globals, outcome};
use crate::Error;
use crate::state::CampaignState;
use crate::store::Store;
use clap::{Args, CommandFactory};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Editor, Helper, history::DefaultHistory};

/// Keep the campaign open for an evening at the table: type commands without `grimoire` (e.g.
/// `damage Aldric 2`, `--rolls ask ritual cast Aldric "Shadow Step"`), each recorded and durable
/// when its output appears. Records only what those commands record.
///
/// Tab completes commands, flags, their values, and the campaign's character, ritual, spell and
/// scroll names; the arrow keys walk back through the evening's commands (a line that types dice
/// values with --rolls is kept out of that history, run or not: one may be a sealed die's). The options given to `shell` (--actor,
/// --json, --color) apply to every line unless the line gives its own; --db is the shell's. `help`
/// lists the commands, `COMMAND --help` explains one; `exit`, `quit` or Ctrl-D ends the shell.
/// Other processes may record into the same campaign meanwhile: the shell sees their events.
#[derive(Debug, Args)]
pub struct ShellArgs {}

/// The shell takes a snapshot every this many events rather than every
/// [`crate::store::SNAPSHOT_EVERY`]: it never replays (its state stays in memory), so its snapshots
/// serve only other readers of the file, and `--at`, which then read at most this many events past
/// one (about a millisecond), while the evening's appends write a fourth as many.
pub const SHELL_SNAPSHOT_EVERY: u64 = 100;

/// One open campaign and the options its lines inherit.
pub struct Shell {
    base: Globals,
    /// The command line's definitions, built once: building them costs more than a whole append.
    definitions: clap::Command,
    /// The campaign's name, for the prompt (it never changes).
    name: String,
    /// Commands that ran to success.
    pub succeeded: u64,
}

/// What one line asked for.
pub enum LineOutcome {
    /// Nothing to do (a blank line).
    Nothing,
    /// Help text to show.
    Help(String),
    /// The command's exit code, its outcome printed.
    Ran(u8),
    /// End the shell.
    Exit,
}

impl Shell {
    /// Opens the campaign `globals` names, kept open with its state in memory.
    pub fn open(globals: &Globals) -> Result<Shell, Error> {
        let mut store = Store::open(&globals.db)?;
        store.keep_state_in_memory();
        let mut store = store.with_snapshot_interval(SHELL_SNAPSHOT_EVERY);
        let Some(campaign) = store.replay(None)?.campaign else {
            return Err(crate::rules::RuleError::NoCampaign.into());
        };
        let mut base = globals.clone();
        base.shared = SharedStore::new(store);
        base.rolls = None;
        base.player_entropy = None;
        Ok(Shell {
            base,
            definitions: super::definitions(),
            name: campaign.name,
            succeeded: 0,
        })
    }

    /// The prompt: the campaign's name, and the fight's round while one is on (T-3).
    pub fn prompt(&self) -> String {
        let round = state_of(&self.base.shared)
            .and_then(|state| Some(state.fight.as_ref()?.round_at(state.clock)))
            .map(|round| format!(", round {round}"))
            .unwrap_or_default();
        format!("{}{round}> ", crate::text::printable(&self.name))
    }

    /// Runs one command line (without `grimoire`) and returns its report, printing nothing (the
    /// benchmark's way in; a person's lines go through [`Shell::run_line`]).
    pub fn execute(&mut self, line: &str, ctx: &mut Context) -> Result<Report, Error> {
        match self.parse(line).map_err(Error::Usage)? {
            Some(Parsed::Command(cli)) => {
                ctx.refresh_now();
                super::run(&cli, ctx)
            }
            _ => Err(Error::Usage(format!("'{line}' is not a command"))),
        }
    }

    /// Runs one line and prints its outcome.
    pub fn run_line(&mut self, line: &str, ctx: &mut Context) -> LineOutcome {
        match self.parse(line) {
            Ok(None) => LineOutcome::Nothing,
            Ok(Some(Parsed::Exit)) => LineOutcome::Exit,
            Ok(Some(Parsed::Help(text))) => LineOutcome::Help(text),
            Ok(Some(Parsed::Command(cli))) => {
                ctx.refresh_now();
                let result = super::run(&cli, ctx);
                let code = outcome::print(&cli.globals, result);
                self.succeeded += u64::from(code == 0);
                LineOutcome::Ran(code)
            }
            Err(message) => {
                if self.base.json {
                    outcome::print_json_error(&message, 2);
                } else {
                    outcome::print_error(&message, self.base.color.choice());
                }
                LineOutcome::Ran(2)
            }
        }
    }

    fn parse(&mut self, line: &str) -> Result<Option<Parsed>, String> {
        let words = shell_words::split(line).map_err(|_| {
            "a quote is not closed; close it, e.g. ritual cast Aldric \"Shadow Step\"".to_string()
        })?;
        match words.first().map(String::as_str) {
            None => return Ok(None),
            Some("exit" | "quit") if words.len() == 1 => return Ok(Some(Parsed::Exit)),
            Some("help") if words.len() == 1 => {
                return Ok(Some(Parsed::Help(
                    self.definitions.render_help().to_string(),
                )));
            }
            Some("shell") => return Err("you are in the shell already".into()),
            Some("serve") => return Err("serve runs until it is stopped: start it in another terminal (grimoire serve), and the phones follow what you type here".into()),
            _ => {}
        }
        if words.iter().any(|w| w == "--db" || w.starts_with("--db=")) {
            return Err("the shell keeps one campaign open, so --db does not apply; start another shell for another campaign".into());
        }
        let argv = std::iter::once("grimoire".to_string()).chain(words);
        let matches = match self.definitions.try_get_matches_from_mut(argv) {
            Ok(matches) => matches,
            Err(e) if !e.use_stderr() => return Ok(Some(Parsed::Help(e.render().to_string()))),
            Err(e) => return Err(outcome::usage_words(&e)),
        };
        let mut cli = super::parsed(&matches).map_err(|e| outcome::usage_words(&e))?;
        let line = &mut cli.globals;
        line.db = self.base.db.clone();
        line.shared = self.base.shared.clone();
        line.json |= self.base.json;
        line.actor = line.actor.take().or_else(|| self.base.actor.clone());
        if line.color == super::ColorWhen::Auto {
            line.color = self.base.color;
        }
        Ok(Some(Parsed::Command(Box::new(cli))))
    }
}

/// The state at the head (from memory unless the log moved), for the prompt and completion.
/// The campaign at its head, as the shell keeps it (shared, not copied: a prompt reads it after
/// every line).
fn state_of(shared: &SharedStore) -> Option<std::rc::Rc<CampaignState>> {
    shared.lend()?.head_state().ok()
}

/// Names the campaign offers for completion.
fn names(shared: &SharedStore) -> Vec<String> {
    state_of(shared)
        .map(|state| super::docs::campaign_names(&state))
        .unwrap_or_default()
}

enum Parsed {
    Exit,
    Help(String),
    Command(Box<Cli>),
}

/// Whether a line types dice values with `--rolls` (anything but `ask`): kept out of the history,
/// since any command may take a sealed die among them (a Ceremony's check needs no `--sealed`).
/// Read as text rather than parsed, so a mistyped line (an unclosed quote, a no-break space or an
/// escaped space after `--rolls`) with a value in it is kept out too.
fn types_dice_values(line: &str) -> bool {
    let plain: String = line
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | '\\'))
        .map(|c| {
            if c.is_whitespace() || c == '=' {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .to_lowercase();
    plain.match_indices("--rolls").any(|(at, flag)| {
        let value = plain[at + flag.len()..].trim_start();
        let word = value.split(' ').next().unwrap_or_default();
        word != "ask"
    })
}

/// What Tab offers after `before` (the line up to the word being completed): subcommands where
/// one may come, a flag's possible values after it, else flags and the campaign's names.
fn candidates(before: &[String], names: &[String]) -> Vec<String> {
    let root = Cli::command();
    let mut command = &root;
    let mut flag_wants: Option<&clap::Arg> = None;
    for word in before {
        if let Some(sub) = command.find_subcommand(word) {
            command = sub;
            flag_wants = None;
            continue;
        }
        flag_wants = word.strip_prefix("--").and_then(|long| {
            command
                .get_arguments()
                .chain(root.get_arguments())
                .find(|a| a.get_long() == Some(long))
                .filter(|a| a.get_action().takes_values())
        });
    }
    if let Some(arg) = flag_wants {
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        if !values.is_empty() {
            return values;
        }
        return names.to_vec();
    }
    let mut offered: Vec<String> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect();
    if command.get_subcommands().next().is_none() {
        offered.extend(names.iter().cloned());
        offered.extend(
            command
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .filter_map(|a| a.get_long().map(|l| format!("--{l}"))),
        );
    }
    offered
}

/// What Tab puts on the line for `candidate`, followed by a space as shells do. A name is anyone's
/// text, so it goes in quoted the way the line's words are read back: quotes, spaces, `;` and `$`
/// stay letters of the one name. Inside an open double quote (`quoted`) its `"` and `\` are
/// escaped and the quote closed; elsewhere it is quoted whole where it needs to be.
fn inserted(candidate: &str, quoted: bool) -> String {
    if quoted {
        format!(
            "{}\" ",
            candidate.replace('\\', "\\\\").replace('"', "\\\"")
        )
    } else {
        format!("{} ", shell_words::quote(candidate))
    }
}

/// Tab completion over the shell's open campaign.
struct ShellHelper {
    shared: SharedStore,
}

impl Completer for ShellHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let upto = &line[..pos];
        // The word being completed starts after the last space outside quotes, or at a quote.
        let start = upto.rfind([' ', '"']).map_or(0, |i| i + 1);
        let partial = &upto[start..];
        let quoted = start > 0 && upto.as_bytes()[start - 1] == b'"';
        let before = shell_words::split(&upto[..start.saturating_sub(usize::from(quoted))])
            .unwrap_or_default();
        let names = names(&self.shared);
        let lowered = partial.to_lowercase();
        let pairs = candidates(&before, &names)
            .into_iter()
            .filter(|c| c.to_lowercase().starts_with(&lowered))
            .map(|c| {
                let replacement = inserted(&c, quoted);
                Pair {
                    display: c,
                    replacement,
                }
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ShellHelper {
    type Hint = String;
}
impl Highlighter for ShellHelper {}
impl Validator for ShellHelper {}
impl Helper for ShellHelper {}

pub fn run(g: &Globals, ctx: &mut Context, _args: &ShellArgs) -> Result<Report, Error> {
    let mut shell = Shell::open(g)?;
    let config = rustyline::Config::builder()
        .auto_add_history(false)
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut editor: Editor<ShellHelper, DefaultHistory> = Editor::with_config(config)
        .map_err(|e| Error::Usage(format!("the shell could not start its line editor ({e})")))?;
    editor.set_helper(Some(ShellHelper {
        shared: shell.base.shared.clone(),
    }));
    let say = |text: &str| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        super::outcome::to_stdout(writeln!(out, "{text}").and_then(|()| out.flush()))
    };
    say(&format!(
        "{}: type a command without `grimoire` (help lists them, Tab completes, exit ends).",
        crate::text::printable(&shell.name)
    ))?;
    loop {
        let line = match editor.readline(&shell.prompt()) {
            Ok(line) => line,
            // Ctrl-C clears the line being typed, as in a shell.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                return Err(Error::Usage(format!(
                    "the shell could not read a line ({e})"
                )));
            }
        };
        if !line.trim().is_empty() && !types_dice_values(&line) {
            let _ = editor.add_history_entry(line.as_str());
        }
        match shell.run_line(&line, ctx) {
            LineOutcome::Exit => break,
            LineOutcome::Help(text) => say(text.trim_end())?,
            LineOutcome::Nothing | LineOutcome::Ran(_) => {}
        }
        // A kill or a closed terminal during the command (which stopped it in its own way)
        // ends the shell, as it would have at the prompt.
        if super::signals::ended_by().is_some() {
            break;
        }
    }
    Ok(Report::new(
        format!(
            "Closed the campaign after {}.",
            count(shell.succeeded, "command", "commands")
        ),
        serde_json::json!({ "commands": shell.succeeded }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        shell_words::split(line).unwrap()
    }

    #[test]
    fn tab_offers_subcommands_then_flags_and_names_then_a_flags_values() {
        let names = vec!["Aldric".to_string(), "Shadow Step".to_string()];
        let first = candidates(&[], &names);
        assert!(first.contains(&"ritual".to_string()) && first.contains(&"damage".to_string()));
        assert!(
            !first.contains(&"dev".to_string()),
            "hidden commands stay hidden"
        );
        let ritual = candidates(&words("ritual"), &names);
        assert!(ritual.contains(&"cast".to_string()));
        let cast = candidates(&words("ritual cast"), &names);
        assert!(cast.contains(&"Aldric".to_string()) && cast.contains(&"--reverse".to_string()));
        let pay = candidates(&words("ritual learn Aldric X --pay"), &names);
        assert!(pay.contains(&"health".to_string()) && !pay.contains(&"Aldric".to_string()));
    }

    /// Whatever a name holds, Tab puts it on the line as that one name: the line read back gives the
    /// name whole, as one word, and nothing in it is taken for syntax.
    #[test]
    fn tab_puts_a_hostile_name_on_the_line_as_one_inert_word() {
        for name in [
            "x$(touch${IFS}PWNED)",
            "x`touch PWNED`",
            "a; rm -rf ~",
            "*",
            "O'Brien",
            "the \"Grey\" One",
            "back\\slash",
            "Shadow Step",
        ] {
            let line = format!("damage {}1", inserted(name, false));
            assert_eq!(words(&line), ["damage", name, "1"], "{line}");
            let line = format!("damage \"{}1", inserted(name, true));
            assert_eq!(words(&line), ["damage", name, "1"], "{line}");
        }
    }

    #[test]
    fn a_line_that_types_dice_values_is_kept_out_of_the_history_parsed_or_not() {
        for kept_out in [
            "--rolls 17 roll d20 --sealed",
            "roll d20 --sealed --rolls=17",
            // A Ceremony's sealed check takes no --sealed flag.
            "--rolls 20,3 scroll write Aldric Moon --level 1 --effect fog",
            // A line that fails to parse still typed its values.
            "--sealed --rolls=18 roll d20 --for \"unclosed",
            "--rolls '18 roll d20",
            "--rolls",
            "--rolls\u{a0}17 roll d20 --sealed",
            "--rolls\\ 17 roll d20 --sealed",
            "--ROLLS 17 roll d20",
        ] {
            assert!(types_dice_values(kept_out), "{kept_out}");
        }
        for kept in [
            "--rolls ask roll d20 --sealed",
            "--rolls=ask roll d20",
            "roll d20 --for \"rolls 17\"",
            "character show Aldric",
        ] {
            assert!(!types_dice_values(kept), "{kept}");
        }
    }
}
