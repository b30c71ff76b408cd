//! `grimoire completions` and `grimoire man`: generated from the same clap definitions as `--help`,
//! so they never drift from it. Neither opens a campaign file; the completion scripts ask
//! `grimoire complete-names` for the campaign's names as you type, which reads the file without
//! changing anything.

use super::Globals;
use super::output::Report;
use crate::Error;
use crate::state::CampaignState;
use crate::store::Store;
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::{SystemId, on_system};
use clap::Args;
use std::io::Write;

/// Print a completion script for your shell: subcommands, flags and their choices, and in bash and
/// fish the campaign's character, ritual, spell and scroll names where a command takes a name
/// (read from the campaign file as you type, never changed). Records nothing.
///
/// Examples: `grimoire completions bash > ~/.local/share/bash-completion/completions/grimoire`;
/// `grimoire completions fish > ~/.config/fish/completions/grimoire.fish`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// bash: after a command whose values include the campaign's names (`damage`, `ritual cast`, …),
/// the names, from the --db on the line or GRIMOIRE_DB, in place of clap's flags unless the word
/// begins with `-`; after any other command clap's completion alone, and bash's file names where it
/// offers nothing. Names are data that anyone who can name a character wrote: they are compared as
/// plain text and handed to bash quoted (`printf %q`), never through `compgen -W`, which expands
/// `$(…)`, backticks and globs in its word list.
const BASH_NAMES: &str = r#"
_grimoire_with_names() {
    _grimoire "$@"
    local cur="${COMP_WORDS[COMP_CWORD]}" db="" typed=" " after="" takes="" name command i w
    local valued=(@VALUED@) commands=(@COMMANDS@)
    [[ "$cur" == -* ]] && return
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${COMP_WORDS[i]}"
        if [[ -n "$after" ]]; then
            # bash splits --db=PATH at the '=' into three words.
            [[ "$w" == = ]] && continue
            # The path as typed, its quotes and a leading ~ read as bash would (never evaluated).
            if [[ "$after" == --db ]]; then
                case "$w" in
                    \'*\' | \"*\") db="${w:1:${#w}-2}" ;;
                    *) db="${w//\\/}" ;;
                esac
                [[ "$db" == "~/"* ]] && db="$HOME/${db:2}"
            fi
            after=""
        elif [[ " ${valued[*]} " == *" $w "* ]]; then
            after="$w"
        elif [[ "$w" != -* ]]; then
            typed+="$w "
        fi
    done
    for command in "${commands[@]}"; do
        [[ "$typed" == " $command "* ]] && takes=1
    done
    [[ -z "$takes" ]] && return
    local kept=()
    for w in "${COMPREPLY[@]}"; do
        [[ "$w" != -* ]] && kept+=("$w")
    done
    COMPREPLY=("${kept[@]}")
    while IFS= read -r name; do
        if [[ "${name,,}" == "${cur,,}"* ]]; then
            COMPREPLY+=("$(printf '%q' "$name")")
        fi
    done < <(grimoire ${db:+--db "$db"} complete-names 2>/dev/null)
}
complete -F _grimoire_with_names -o bashdefault -o default grimoire
"#;

/// fish: the campaign's names beside clap's own completions after a command whose values include
/// them (and no file names there), from the --db on the line or GRIMOIRE_DB. fish takes each line
/// the function prints as one candidate without expanding it, and escapes it when it inserts it.
const FISH_NAMES: &str = r#"
set -g __grimoire_valued @VALUED@
set -g __grimoire_name_commands @COMMANDS@
function __grimoire_takes_names
    set -l words (commandline -opc)
    set -e words[1]
    set -l typed ' '
    set -l after 0
    for w in $words
        if test $after = 1
            set after 0
        else if contains -- $w $__grimoire_valued
            set after 1
        else if not string match -q -- '-*' $w
            set typed "$typed$w "
        end
    end
    for command in $__grimoire_name_commands
        if string match -q -- " $command *" $typed
            return 0
        end
    end
    return 1
end
function __grimoire_names
    set -l words (commandline -opc)
    set -l db
    for i in (seq (count $words))
        if test "$words[$i]" = --db; and test $i -lt (count $words)
            set db $words[(math $i + 1)]
        else if string match -q -- '--db=*' $words[$i]
            set db (string replace -- '--db=' '' $words[$i])
        end
    end
    if test -n "$db"
        grimoire --db $db complete-names 2>/dev/null
    else
        grimoire complete-names 2>/dev/null
    end
end
complete -c grimoire -n __grimoire_takes_names -f -a '(__grimoire_names)'
"#;

/// The values a campaign's names fill: a character's, a ritual's, a spell's, a scroll's.
const NAMED_VALUES: [&str; 5] = ["NAME", "CHARACTER", "RITUAL", "SPELL", "SCROLL"];

/// The commands, as typed (`ritual cast`), with a value the campaign's names fill.
fn commands_taking_names(command: &clap::Command, typed: &str, found: &mut Vec<String>) {
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let typed = format!(
            "{typed}{}{}",
            if typed.is_empty() { "" } else { " " },
            sub.get_name()
        );
        // Options every command takes (`--rolled-by PLAYER`) say nothing of this one, and a
        // name being given (free text: `init --name`, `character add adg NAME`) is no name taken.
        let takes = sub
            .get_arguments()
            .filter(|arg| !arg.is_global_set() && arg.get_value_hint() != clap::ValueHint::Other)
            .any(|arg| {
                arg.get_value_names()
                    .is_some_and(|names| names.iter().any(|n| NAMED_VALUES.contains(&n.as_str())))
            });
        if takes {
            found.push(typed.clone());
        }
        commands_taking_names(sub, &typed, found);
    }
}

/// The options before a command that take a value (`--db PATH`): the word after one is its value,
/// not a command.
fn options_with_values(command: &clap::Command) -> Vec<String> {
    command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && arg.get_action().takes_values())
        .flat_map(|arg| {
            let long = arg.get_long().map(|long| format!("--{long}"));
            let short = arg.get_short().map(|short| format!("-{short}"));
            long.into_iter().chain(short)
        })
        .collect()
}

/// `words` as a list both shells read: each word in single quotes (they are clap's own names:
/// letters, digits and dashes).
fn quoted(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn completions(args: &CompletionsArgs) -> Result<Report, Error> {
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut super::definitions(),
        "grimoire",
        &mut script,
    );
    let definitions = super::definitions();
    let mut commands = Vec::new();
    commands_taking_names(&definitions, "", &mut commands);
    let fill = |names: &str| {
        names
            .replace("@VALUED@", &quoted(&options_with_values(&definitions)))
            .replace("@COMMANDS@", &quoted(&commands))
    };
    match args.shell {
        clap_complete::Shell::Bash => script.extend_from_slice(fill(BASH_NAMES).as_bytes()),
        clap_complete::Shell::Fish => script.extend_from_slice(fill(FISH_NAMES).as_bytes()),
        _ => {}
    }
    print(&script)
}

/// For the completion scripts: the names of the campaign in --db, one a line. Opens the file only
/// to read it (no migration, nothing created); prints nothing for a missing or foreign file, one of
/// another schema, or a PostgreSQL campaign.
#[derive(Debug, Args)]
pub struct CompleteNamesArgs {}

pub fn complete_names(g: &Globals) -> Result<Report, Error> {
    let names = Store::open_to_read(&g.db)
        .and_then(|mut store| store.replay(None).ok())
        .map(|state| campaign_names(&state))
        .unwrap_or_default();
    let _ = std::io::stdout().lock().write_all(
        names
            .iter()
            .map(|n| format!("{n}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    Ok(Report::silent())
}

/// The names a command line may need: characters, the rituals each knows or has discovered, the
/// spells each knows, and scrolls as S12.
pub fn campaign_names(state: &CampaignState) -> Vec<String> {
    let mut names = Vec::new();
    for c in state.characters.values() {
        names.push(c.name.clone());
        names.extend(on_system!(&c.system, AnyState, |S, mine| S::names(mine)));
    }
    for &system in SystemId::ALL {
        names.extend(on_system!(system, SystemId, |S| S::campaign_names(state)));
    }
    // A name that would act on a terminal (only a tampered file holds one), or be read as a flag
    // (only an older grimoire took one), is not offered.
    names.retain(|n| crate::text::printable(n) == *n && !n.starts_with('-'));
    names.sort();
    names.dedup();
    names
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
    let mut out = std::io::stdout().lock();
    super::outcome::to_stdout(out.write_all(bytes).and_then(|()| out.flush()))?;
    Ok(Report::silent())
}
