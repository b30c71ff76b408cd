//! The player's kit: the report carries the campaign's public log and a checker written in
//! JavaScript apart from grimoire's Rust code, so a player with the page alone, on any device and
//! offline, checks the hash chain, a checkpoint they noted, every seeded die of a published seed and
//! every opened sealed die, and reads one roll explained.

use crate::web::{CHECK_SCRIPT, CHECKER};
use maud::{Markup, PreEscaped, html};

/// The longest log a page carries (about 60 MB of it, a few seconds to check in a phone's
/// browser); a longer one is checked with `grimoire verify`.
pub const CARRIED_AT_MOST: u64 = 100_000;

/// The players' check as every page carries it: grimoire's table of the characters that show
/// nothing ([`crate::text::invisible_ranges`]), so the page holds texts to the same Unicode data as
/// grimoire, and its lists of the kinds each version brought, of the kinds with dice and of each
/// rule system's kinds, so the page reads them where grimoire does; then the checker
/// (`src/web/checker/`).
pub fn verifier() -> &'static str {
    static SCRIPT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SCRIPT.get_or_init(|| {
        let since: serde_json::Map<String, serde_json::Value> = crate::event::kinds_since()
            .iter()
            .map(|&(kind, since)| (kind.to_string(), since.into()))
            .collect();
        // Each system command's acting argument, and each system's choice command: the
        // checker reads a request or a choice by them, as `verify` does.
        let mut acting = serde_json::Map::new();
        let mut choices = serde_json::Map::new();
        for &system in crate::systems::registry::SystemId::ALL {
            for (path, argument) in system.acting_arguments() {
                acting.insert(format!("{} {path}", system.key()), argument.into());
            }
            if let Some(command) = system.choice_command() {
                choices.insert(
                    system.key().to_string(),
                    serde_json::json!({ "path": command.path, "picks": command.picks, "made": command.made }),
                );
            }
        }
        format!(
            "var GRIMOIRE_SHOWS_NOTHING = \"{}\";\nvar GRIMOIRE_KINDS_SINCE = {};\nvar GRIMOIRE_DICE_KINDS = {};\nvar GRIMOIRE_KIND_SYSTEMS = {};\nvar GRIMOIRE_ACTING = {};\nvar GRIMOIRE_CHOICE_COMMANDS = {};\n{CHECKER}",
            crate::text::invisible_ranges(),
            serde_json::Value::Object(since),
            serde_json::json!(crate::event::kinds_with_dice()),
            serde_json::Value::Object(
                crate::event::kinds_by_system()
                    .iter()
                    .map(|&(kind, system)| (kind.to_string(), system.into()))
                    .collect()
            ),
            serde_json::Value::Object(acting),
            serde_json::Value::Object(choices)
        )
    })
}

/// `text` as a JavaScript string literal that cannot end the script it stands in: JSON's escapes,
/// and `<` written as `\u003c` (so no `</script>` in the log closes the element).
fn script_string(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Where the page's check finds the public log.
pub enum Carried<'a> {
    /// In the page itself, as JSON Lines (a saved report: the player's kit).
    Log(&'a str),
    /// Too long to carry (past [`CARRIED_AT_MOST`] events).
    TooLong,
    /// Fetched from this address, relative to the page, on load and after each update (the
    /// live view).
    Fetched(&'a str),
}

/// What the section says of the log it checks, by where it comes from.
const CARRIED_WORDS: &str = "This page carries the campaign's public log and a checker written in JavaScript apart from grimoire. It runs in this browser, offline:";
const FETCHED_WORDS: &str = "This page fetches the campaign's public log from the table's server and checks it with a checker written in JavaScript apart from grimoire, in this browser, again after every update:";
const KEEP_WORDS: &str = "Keep this file: it checks the log as it was when you saved it, whoever serves the campaign later.";
const SERVED_WORDS: &str = "The GM's server sends this page, so a changed server could send a checker that passes anything and wipe what this browser keeps; a report you saved earlier (<code>grimoire report</code>) does not depend on it.";

/// The page's "Check it yourself" section, checking the log `carried` names; `as_of` when the page
/// shows an earlier point than the log's end.
pub fn section(carried: Carried<'_>, as_of: bool) -> Markup {
    let (opening, caveat, source) = match carried {
        Carried::TooLong => {
            return html! {
                section id="check" {
                    h2 { "Check it yourself" }
                    p {
                        "This log is longer than " (CARRIED_AT_MOST)
                        " events, too long for a page to carry and check in a browser: check its export with "
                        code { "grimoire verify" } " instead."
                    }
                }
            };
        }
        Carried::Log(export) => (
            CARRIED_WORDS,
            KEEP_WORDS,
            format!("var GRIMOIRE_EXPORT = {};", script_string(export)),
        ),
        Carried::Fetched(address) => (
            FETCHED_WORDS,
            SERVED_WORDS,
            format!("var GRIMOIRE_EXPORT_URL = {};", script_string(address)),
        ),
    };
    html! {
        section id="check" {
            h2 { "Check it yourself" }
            p {
                (opening) " it checks that every event is chained to the one before, that every die shows a face it has and every free roll's total is its dice added up, re-derives every seeded die whose epoch's seed is published, and opens every revealed sealed die. It leaves to "
                code { "grimoire verify" }
                " what needs the rules (the in-game times, snapshots, outcomes). " (PreEscaped(caveat))
                " The browser also remembers each log it is shown here and says at once if a later one does not extend it (an event changed, or events dropped), naming the first that differs; what a browser keeps can be wiped, so a file you saved is the stronger witness, and a browser knows a campaign by its id, so a log under a new id is a new campaign to it."
            }
            p id="check-verdict" { "Checking…" }
            ul id="check-problems" {}
            p id="check-witness" {}
            p {
                label {
                    "A checkpoint you noted (SEQ:HASH) "
                    input id="check-checkpoint" autocomplete="off" spellcheck="false";
                }
                " "
                button type="button" id="check-checkpoint-go" { "Check it" }
            }
            p id="check-checkpoint-said" aria-live="polite" {}
            p {
                label {
                    "A roll to explain (its #) "
                    input id="check-seq" inputmode="numeric" autocomplete="off";
                }
                " "
                button type="button" id="check-explain-go" { "Explain it" }
            }
            pre id="check-explained" aria-live="polite" {}
            pre id="check-result" hidden {}
            // The scripts as they are: the log inside is a JavaScript string that cannot end its
            // element (`script_string`), and the checker is the project's own file.
            script { (PreEscaped(source)) " var GRIMOIRE_AS_OF = " (as_of) ";" }
            script { (PreEscaped(verifier())) (PreEscaped(CHECK_SCRIPT)) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log's text cannot close the script it is carried in, and reads back exactly.
    #[test]
    fn the_carried_log_cannot_end_its_script_and_reads_back_exactly() {
        let text = "{\"actor\":\"</script><script>alert(1)</script>\u{2028}\"}\n";
        let literal = script_string(text);
        assert!(!literal.contains("</"), "{literal}");
        assert!(!literal.contains('\u{2028}'));
        let back: String = serde_json::from_str(&literal.replace("\\u003c", "<")).unwrap();
        assert_eq!(back, text);
    }

    /// A log too long to carry is not carried, and the page says what checks it instead.
    #[test]
    fn a_log_past_the_limit_is_left_to_grimoire_verify() {
        let said = section(Carried::TooLong, false).into_string();
        assert!(
            said.contains("grimoire verify") && !said.contains("<script"),
            "{said}"
        );
        assert!(
            section(Carried::Log(""), false)
                .into_string()
                .contains("var GRIMOIRE_EXPORT = \"\";")
        );
        assert!(
            section(Carried::Fetched("export.jsonl"), false)
                .into_string()
                .contains("var GRIMOIRE_EXPORT_URL = \"export.jsonl\";")
        );
    }
}
