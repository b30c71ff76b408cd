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

/// bash: where clap's completion offers nothing for a word that is not a flag (a command's
/// NAME, RITUAL, …), offer the campaign's names, from the --db on the line or GRIMOIRE_DB. Names are
/// data that anyone who can name a character wrote: they are compared as plain text and handed to
/// bash quoted (`printf %q`), never through `compgen -W`, which expands `$(…)`, backticks and globs
/// in its word list.
const BASH_NAMES: &str = r#"
_grimoire_with_names() {
    _grimoire "$@"
    local cur="${COMP_WORDS[COMP_CWORD]}" db="" name i
    if [[ ${#COMPREPLY[@]} -eq 0 && "$cur" != -* ]]; then
        for ((i = 1; i < COMP_CWORD; i++)); do
            if [[ "${COMP_WORDS[i]}" == --db ]]; then
                # bash splits --db=PATH at the '=' into three words.
                if [[ "${COMP_WORDS[i+1]}" == = ]]; then db="${COMP_WORDS[i+2]}"; else db="${COMP_WORDS[i+1]}"; fi
            fi
        done
        while IFS= read -r name; do
            if [[ "${name,,}" == "${cur,,}"* ]]; then
                COMPREPLY+=("$(printf '%q' "$name")")
            fi
        done < <(grimoire ${db:+--db "$db"} complete-names 2>/dev/null)
    fi
}
complete -F _grimoire_with_names -o bashdefault -o default grimoire
"#;

/// fish: the campaign's names after a subcommand, beside clap's own completions, from the --db on
/// the line or GRIMOIRE_DB. fish takes each line the function prints as one candidate without
/// expanding it, and escapes it when it inserts it.
const FISH_NAMES: &str = r#"
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
complete -c grimoire -n 'not __fish_use_subcommand' -f -a '(__grimoire_names)'
"#;

pub fn completions(args: &CompletionsArgs) -> Result<Report, Error> {
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut super::definitions(),
        "grimoire",
        &mut script,
    );
    match args.shell {
        clap_complete::Shell::Bash => script.extend_from_slice(BASH_NAMES.as_bytes()),
        clap_complete::Shell::Fish => script.extend_from_slice(FISH_NAMES.as_bytes()),
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
