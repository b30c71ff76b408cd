//! Printing a command's outcome, the same on the command line and in the shell: the report on
//! standard output (text, coloured on a terminal, or JSON), an error on standard error (or as the one
//! JSON document), and the exit code it maps to.

use super::{Globals, Report, paint};
use crate::Error;
use std::io::Write;

/// Prints `result` as `globals` ask; returns the exit code.
pub fn print(globals: &Globals, result: Result<Report, Error>) -> u8 {
    let colour = globals.color.choice();
    match result {
        Ok(report) => {
            if !report.is_silent() {
                let shown = if globals.json {
                    serde_json::to_string_pretty(&report.json).unwrap_or_default()
                } else if paint::shows_colour(&std::io::stdout(), colour) {
                    paint::paint(&for_the_terminal(&report.text))
                } else {
                    for_the_terminal(&report.text)
                };
                // A closed pipe (`grimoire log | head`) is not an error worth a panic.
                let _ = writeln!(
                    anstream::AutoStream::new(std::io::stdout(), colour),
                    "{shown}"
                );
            }
            if report.success { 0 } else { 1 }
        }
        Err(e) => {
            // With --json the one JSON document is the whole answer, errors included.
            if globals.json {
                print_json_error(&e.to_string(), e.exit_code());
            } else {
                print_error(&e.to_string(), colour);
            }
            e.exit_code()
        }
    }
}

/// An error's message on standard error, after a (coloured) `error:`.
pub fn print_error(message: &str, colour: anstream::ColorChoice) {
    let _ = writeln!(
        anstream::AutoStream::new(std::io::stderr(), colour),
        "{} {}",
        paint::error_prefix(),
        for_the_terminal(message)
    );
}

/// Text as a terminal should receive it: lines stay lines, but a control or reordering character from
/// the log (an old or forged event, an echoed argument) is shown as an escape instead of acting.
pub fn for_the_terminal(text: &str) -> String {
    text.split('\n')
        .map(crate::text::printable)
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn print_json_error(message: &str, exit_code: u8) {
    let body = serde_json::json!({ "error": message, "exit_code": exit_code });
    let _ = writeln!(
        std::io::stdout(),
        "{}",
        serde_json::to_string_pretty(&body).unwrap_or_default()
    );
}

/// clap's message for a malformed command line, without its "error: " prefix and with Rust's
/// number-parsing words ("invalid digit found in string") said plainly.
pub fn plain_words(clap_message: &str) -> String {
    let message = clap_message.trim().trim_start_matches("error: ");
    [
        (
            "invalid digit found in string",
            "it must be a whole number, written in digits (e.g. 3)",
        ),
        (
            "number too large to fit in target type",
            "the number is too large",
        ),
        (
            "number too small to fit in target type",
            "the number is too small",
        ),
        (
            "cannot parse integer from empty string",
            "it is empty; give a whole number",
        ),
        ("invalid float literal", "it must be a number"),
    ]
    .iter()
    .fold(message.to_string(), |text, (rust, plain)| {
        text.replace(rust, plain)
    })
}
