//! An Examples section for every command's help, kept in one table so the examples read as one
//! voice and a test can see that none is missing and that each one parses.

use clap::Command;

/// Each command, as its path below `grimoire`, with commands a GM would type.
pub const EXAMPLES: &[(&str, &[&str])] = &[
    ("init", &["grimoire init --name \"The Sunken Vault\""]),
    (
        "character list",
        &[
            "grimoire character list",
            "grimoire character list --at session:2",
        ],
    ),
    (
        "character show",
        &[
            "grimoire character show Aldric",
            "grimoire character show aldric --at \"Day 2\"",
        ],
    ),
    (
        "character set",
        &["grimoire character set Aldric --cunning 14 --reason \"entered wrong at the start\""],
    ),
    (
        "character level-up",
        &[
            "grimoire character level-up Aldric --health 3",
            "grimoire character level-up Mira --mp 2 --reason \"the tower's trial\"",
        ],
    ),
    (
        "damage",
        &[
            "grimoire damage Aldric 3",
            "grimoire damage Aldric 3 --reason \"a troll's club\"",
        ],
    ),
    ("heal", &["grimoire heal Aldric 2 --reason \"a potion\""]),
    (
        "time advance",
        &[
            "grimoire time advance 10m",
            "grimoire time advance 1h30m",
            "grimoire time advance 3r",
        ],
    ),
    (
        "time show",
        &["grimoire time show", "grimoire time show --at session:1"],
    ),
    (
        "session start",
        &["grimoire session start --entropy \"owls at midnight\""],
    ),
    ("session end", &["grimoire session end"]),
    (
        "fight start",
        &[
            "grimoire fight start \"at the bridge\"",
            "grimoire fight start",
        ],
    ),
    ("fight end", &["grimoire fight end"]),
    (
        "fight show",
        &["grimoire fight show", "grimoire fight show --at 120"],
    ),
    ("next", &["grimoire next"]),
    (
        "session recap",
        &["grimoire session recap", "grimoire session recap 3"],
    ),
    (
        "roll",
        &[
            "grimoire roll 2d6+3 --for \"the bridge holds?\"",
            "grimoire roll d20 --character Aldric",
            "grimoire roll d100 --sealed --for \"is the guardian awake?\"",
            "grimoire roll d20 --character Aldric --for \"sneaking past the guard\" --rolled-by Bea",
            "grimoire roll d6 --for \"wandering monsters\" --witnessed-by Bea",
        ],
    ),
    (
        "player link",
        &[
            "grimoire player link Bea --plays Aldric",
            "grimoire player link Bea --plays Aldric --plays Mira --address 192.168.1.20:8737 --replace",
        ],
    ),
    ("player unlink", &["grimoire player unlink Bea"]),
    ("player list", &["grimoire player list"]),
    ("player withdraw", &["grimoire player withdraw 3"]),
    ("reveal", &["grimoire reveal 42"]),
    ("peek", &["grimoire peek", "grimoire peek 42"]),
    (
        "log",
        &[
            "grimoire log --limit 20",
            "grimoire log --character Aldric --kind dice_rolled",
            "grimoire log --from session-start:2 --to session:2",
        ],
    ),
    (
        "explain",
        &["grimoire explain 42", "grimoire explain 42 --at now"],
    ),
    (
        "diff",
        &[
            "grimoire diff --party --from session:1",
            "grimoire diff Aldric --from session-start:2 --to session:2",
        ],
    ),
    (
        "audit dice",
        &[
            "grimoire audit dice",
            "grimoire audit dice --by gm --provenance entered --die d20",
        ],
    ),
    (
        "verify",
        &[
            "grimoire verify",
            "grimoire verify --checkpoint 120:4f1c2a9b8e7d6c5b",
        ],
    ),
    (
        "report",
        &[
            "grimoire report --out campaign.html",
            "grimoire report --at session:3 --out after-session-3.html",
        ],
    ),
    (
        "serve",
        &[
            "grimoire serve",
            "grimoire serve --listen 0.0.0.0:8737 --link-host 192.168.1.20",
        ],
    ),
    ("head", &["grimoire head"]),
    (
        "shell",
        &[
            "grimoire shell",
            "grimoire --db vault.db --actor Bryn shell",
        ],
    ),
    ("seed reveal", &["grimoire seed reveal"]),
    (
        "retract",
        &[
            "grimoire retract --last --reason \"wrong character\"",
            "grimoire retract 42 --reason \"entered twice\"",
        ],
    ),
    (
        "amend",
        &[
            "grimoire amend 21 -- spell cast Mira \"Flame Ward\" --target Aldric --range touch --mod 10",
            "grimoire amend 30 -- roll 2d6+5 --for \"the climb\"",
        ],
    ),
    (
        "export",
        &[
            "grimoire export --out campaign.jsonl",
            "grimoire export --with-secrets --out backup.jsonl",
        ],
    ),
    ("import", &["grimoire --db copy.db import campaign.jsonl"]),
    ("backup", &["grimoire backup vault-2026-11-30.db"]),
    ("restore", &["grimoire restore vault-2026-11-30.db"]),
    (
        "rest",
        &[
            "grimoire rest --party --night",
            "grimoire rest Mira --hours 4",
        ],
    ),
    (
        "downtime",
        &[
            "grimoire downtime --party --weeks 2",
            "grimoire downtime --party --weeks 3 --week \"Mira: training: the tower's circle\"",
            "grimoire downtime Aldric --weeks 1 --week \"Aldric: scribe Ward, level 1, effect: doors hold\"",
        ],
    ),
    ("tour", &["grimoire tour", "grimoire tour --into demo.db"]),
    (
        "completions",
        &["grimoire completions bash > ~/.local/share/bash-completion/completions/grimoire"],
    ),
    ("man", &["grimoire man > grimoire.1"]),
    ("snapshots rebuild", &["grimoire snapshots rebuild"]),
    ("snapshots clear", &["grimoire snapshots clear"]),
];

/// Every command's examples: the core's, then each rule system's from its own description.
pub fn every_example() -> Vec<(String, &'static [&'static str])> {
    let mut all: Vec<(String, &'static [&'static str])> = EXAMPLES
        .iter()
        .map(|(path, lines)| (path.to_string(), *lines))
        .collect();
    all.extend(super::mount::examples());
    all
}

/// `command` with each command's examples after its help.
pub fn with_examples(mut command: Command) -> Command {
    for (path, lines) in every_example() {
        let path: Vec<&str> = path.split(' ').collect();
        command = add(command, &path, lines);
    }
    command
}

fn add(command: Command, path: &[&str], lines: &[&str]) -> Command {
    match path.split_first() {
        None => command.after_help(format!("Examples:\n  {}", lines.join("\n  "))),
        Some((first, rest)) => command.mut_subcommand(*first, |sub| add(sub, rest, lines)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::{CommandFactory, Parser};

    /// The words of an example as a shell would pass them (double quotes group words; a
    /// redirection ends the command).
    fn words(example: &str) -> Vec<String> {
        let command = example.split(" > ").next().unwrap_or_default();
        let mut words = Vec::new();
        let (mut word, mut quoted) = (String::new(), false);
        for c in command.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                _ => word.push(c),
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        words
    }

    fn leaves(command: &Command, path: String, out: &mut Vec<(String, Option<String>)>) {
        let subs: Vec<&Command> = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
            .collect();
        if subs.is_empty() {
            out.push((
                path.clone(),
                command.get_after_help().map(|h| h.to_string()),
            ));
        }
        for sub in subs {
            let below = format!("{path} {}", sub.get_name());
            leaves(sub, below.trim().to_string(), out);
        }
    }

    #[test]
    fn every_command_has_examples_and_every_example_parses() {
        let mut found = Vec::new();
        leaves(&with_examples(Cli::command()), String::new(), &mut found);
        assert!(found.len() > 40, "{found:?}");
        for (path, help) in found {
            let help = help.unwrap_or_default();
            assert!(
                help.starts_with("Examples:\n"),
                "`grimoire {path}` has no examples"
            );
        }
        for (path, examples) in every_example() {
            for example in examples {
                let words = words(example);
                assert_eq!(
                    words.first().map(String::as_str),
                    Some("grimoire"),
                    "{example}"
                );
                let parsed = Cli::try_parse_from(&words);
                assert!(
                    parsed.is_ok(),
                    "{path}: {example}: {}",
                    parsed.err().map(|e| e.to_string()).unwrap_or_default()
                );
                // The definitions people read parse it the same way (main parses with the plain
                // ones and turns to these only for help and mistakes).
                let read = crate::cli::definitions()
                    .try_get_matches_from(&words)
                    .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
                assert_eq!(
                    format!("{:?}", read.map_err(|e| e.to_string())),
                    format!("{:?}", parsed.map_err(|e| e.to_string())),
                    "{example}"
                );
            }
        }
    }
}
