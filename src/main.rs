use grimoire::cli::{Cli, Context, paint, run};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and --version are not errors; clap knows which is which.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let message = plain_words(&e.render().to_string());
            if std::env::args_os().any(|a| a == "--json") {
                print_json_error(&message, 2);
            } else {
                let _ = writeln!(
                    anstream::stderr(),
                    "{} {}",
                    paint::error_prefix(),
                    for_the_terminal(&message)
                );
            }
            return ExitCode::from(2);
        }
    };
    let colour = cli.globals.color.choice();
    let result = Context::from_env().and_then(|mut ctx| run(&cli, &mut ctx));
    match result {
        Ok(report) => {
            if !report.is_silent() {
                let shown = if cli.globals.json {
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
            ExitCode::from(if report.success { 0 } else { 1 })
        }
        Err(e) => {
            // With --json the one JSON document is the whole answer, errors included.
            if cli.globals.json {
                print_json_error(&e.to_string(), e.exit_code());
            } else {
                let _ = writeln!(
                    anstream::AutoStream::new(std::io::stderr(), colour),
                    "{} {}",
                    paint::error_prefix(),
                    for_the_terminal(&e.to_string())
                );
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// The command line, with every command's help carrying its examples.
fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = grimoire::cli::examples::with_examples(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// Text as a terminal should receive it: lines stay lines, but a control or reordering character from
/// the log (an old or forged event, an echoed argument) is shown as an escape instead of acting.
fn for_the_terminal(text: &str) -> String {
    text.split('\n')
        .map(grimoire::rules::text::printable)
        .collect::<Vec<_>>()
        .join("\n")
}

fn print_json_error(message: &str, exit_code: u8) {
    let body = serde_json::json!({ "error": message, "exit_code": exit_code });
    let _ = writeln!(
        std::io::stdout(),
        "{}",
        serde_json::to_string_pretty(&body).unwrap_or_default()
    );
}

/// clap's message for a malformed command line, without its "error: " prefix and with Rust's
/// number-parsing words ("invalid digit found in string") said plainly.
fn plain_words(clap_message: &str) -> String {
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
