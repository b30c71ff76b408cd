use grimoire::cli::{Cli, Context, outcome, run};
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
            let message = outcome::plain_words(&e.render().to_string());
            if std::env::args_os().any(|a| a == "--json") {
                outcome::print_json_error(&message, 2);
            } else {
                outcome::print_error(&message, anstream::ColorChoice::Auto);
            }
            return ExitCode::from(2);
        }
    };
    let result = Context::from_env().and_then(|mut ctx| run(&cli, &mut ctx));
    ExitCode::from(outcome::print(&cli.globals, result))
}

/// The command line, with every command's help carrying its examples.
fn parse() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let matches = grimoire::cli::definitions().try_get_matches()?;
    Cli::from_arg_matches(&matches)
}
