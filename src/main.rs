use clap::Parser;
use grimoire::cli::{Cli, Context, run};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and --version are not errors; clap knows which is which.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = Context::from_env().and_then(|mut ctx| run(&cli, &mut ctx));
    match result {
        Ok(report) => {
            if !report.is_silent() {
                let shown = if cli.globals.json {
                    serde_json::to_string_pretty(&report.json).unwrap_or_default()
                } else {
                    report.text
                };
                // A closed pipe (`grimoire log | head`) is not an error worth a panic.
                let _ = writeln!(std::io::stdout(), "{shown}");
            }
            ExitCode::from(if report.success { 0 } else { 1 })
        }
        Err(e) => {
            if cli.globals.json {
                let body =
                    serde_json::json!({ "error": e.to_string(), "exit_code": e.exit_code() });
                let _ = writeln!(
                    std::io::stdout(),
                    "{}",
                    serde_json::to_string_pretty(&body).unwrap_or_default()
                );
            }
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
