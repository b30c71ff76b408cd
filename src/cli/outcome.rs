//! Printing a command's outcome, the same on the command line and in the shell: the report on
//! standard output (text, coloured on a terminal, or JSON), an error on standard error (or as the one
//! JSON document), and the exit code it maps to.

use super::{Globals, Report, paint};
use crate::Error;
use crate::dice::DiceError;
use crate::rules::RuleError;
use crate::store::StoreError;
use std::io::Write;

/// Prints `result` as `globals` ask; returns the exit code.
pub fn print(globals: &Globals, result: Result<Report, Error>) -> u8 {
    let colour = globals.color.choice();
    match result {
        Ok(report) => {
            if !report.is_silent() {
                let shown = if globals.json {
                    crate::text::inert_json(
                        serde_json::to_string_pretty(&report.json).unwrap_or_default(),
                    )
                } else if paint::shows_colour(&std::io::stdout(), colour) {
                    paint::paint(&for_the_terminal(&report.text))
                } else {
                    for_the_terminal(&report.text)
                };
                let mut out = anstream::AutoStream::new(std::io::stdout(), colour);
                let wrote = writeln!(out, "{shown}").and_then(|()| out.flush());
                if let Some(code) = unwritten(wrote, colour) {
                    return code;
                }
            }
            if report.success { 0 } else { 1 }
        }
        Err(e) => {
            // With --json the one JSON document is the whole answer, errors included.
            let said = if globals.shared.in_shell() {
                super::hints::say_in_shell(&e)
            } else {
                super::hints::say(&e)
            };
            if globals.json {
                print_json_error(&said, exit_code(&e));
            } else {
                print_error(&said, colour);
            }
            exit_code(&e)
        }
    }
}

/// What became of output that could not be written: a closed pipe (`grimoire log | head`) is the
/// reader's choice and passes; any other failure (a full disk behind a redirection) is said on
/// standard error with exit 74, since the person did not see what they asked for.
pub fn unwritten(wrote: std::io::Result<()>, colour: anstream::ColorChoice) -> Option<u8> {
    match wrote {
        Ok(()) => None,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => None,
        Err(e) => {
            print_error(
                &format!(
                    "standard output could not be written ({e}); anything the command recorded is in the log (`grimoire log --limit 5` shows it)"
                ),
                colour,
            );
            Some(74)
        }
    }
}

/// What became of text written straight to standard output (a banner, a streamed log, a manual
/// page): a closed pipe is the reader's choice; any other failure is an input/output error.
pub fn to_stdout(wrote: std::io::Result<()>) -> Result<(), Error> {
    match wrote {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(
                crate::store::io_error(std::path::Path::new("standard output"), "written", &e)
                    .into(),
            )
        }
        _ => Ok(()),
    }
}

/// The exit code an error maps to: usage 2, refused by the rules or the data 1, internal 70,
/// input/output 74, busy 75 (the sysexits.h codes).
pub fn exit_code(error: &Error) -> u8 {
    match error {
        Error::Usage(_) => 2,
        // Physical dice that do not fit the command are an argument mistake, like a bad flag.
        Error::Rule(RuleError::Dice(
            DiceError::TooFew { .. } | DiceError::TooMany { .. } | DiceError::OutOfRange { .. },
        )) => 2,
        Error::Rule(RuleError::DiceUnused | RuleError::EntropyUnused) => 2,
        Error::Rule(_) | Error::Abandoned(_) | Error::LogMoved => 1,
        Error::Store(e) => store_exit_code(e),
        Error::Internal(_) => 70,
        // Stopped by Ctrl-C, as a shell reports a command it interrupted (128 + SIGINT).
        Error::StoppedWaiting { .. } => 130,
    }
}

/// Data refused: 1; busy: 75 (EX_TEMPFAIL); input/output failure: 74 (EX_IOERR).
fn store_exit_code(error: &StoreError) -> u8 {
    match error {
        StoreError::Busy => 75,
        // As a shell reports a command a signal stopped: 128 + SIGTERM's number.
        StoreError::Stopped => 143,
        StoreError::Io { .. } | StoreError::Server { .. } | StoreError::NotPermitted { .. } => 74,
        StoreError::Internal(_) => 70,
        StoreError::Missing(_)
        | StoreError::NotGrimoire(_)
        | StoreError::Newer { .. }
        | StoreError::EmptyFile(_)
        | StoreError::Exists(_)
        | StoreError::NotEmpty(_)
        | StoreError::Corrupt(_)
        | StoreError::FailsVerification { .. }
        | StoreError::Damaged { .. }
        | StoreError::DamagedRow { .. }
        | StoreError::DamagedSnapshot { .. }
        | StoreError::DamagedSecret { .. }
        | StoreError::Refused { .. }
        | StoreError::Import { .. }
        | StoreError::NothingToImport
        | StoreError::NoCampaign { .. }
        | StoreError::LookAlikeCampaign { .. }
        | StoreError::BeingCreated(_)
        | StoreError::NoSuchPoint(_) => 1,
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
    // clap's pointer to --help is for a person at a terminal, not a program reading JSON.
    let message = message
        .trim_end()
        .trim_end_matches("For more information, try '--help'.")
        .trim_end();
    let body = serde_json::json!({ "error": message, "exit_code": exit_code });
    let _ = writeln!(
        std::io::stdout(),
        "{}",
        crate::text::inert_json(serde_json::to_string_pretty(&body).unwrap_or_default())
    );
}

/// clap's message for a malformed command line (see [`plain_words`]), with what the user typed
/// kept whole. clap styles its messages with escape sequences, and its plain text drops every
/// escape sequence, those inside a typed value too, so a value holding one (`3\e]0;`) would
/// swallow the rest of the message. Here only clap's own styles are taken out; the printers show
/// whatever the value holds as escapes.
pub fn usage_words(error: &clap::Error) -> String {
    let styles = clap::builder::Styles::default();
    let mut text = error.render().ansi().to_string();
    for style in [
        styles.get_header(),
        styles.get_error(),
        styles.get_usage(),
        styles.get_literal(),
        styles.get_placeholder(),
        styles.get_valid(),
        styles.get_invalid(),
    ] {
        for sequence in [style.render().to_string(), style.render_reset().to_string()] {
            if !sequence.is_empty() {
                text = text.replace(&sequence, "");
            }
        }
    }
    plain_words(&text)
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
