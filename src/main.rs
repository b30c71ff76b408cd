use grimoire::cli::{Cli, Context, outcome, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, whose default kills the process
    // before it can say why or clean up. With a handler in place the write fails with EFBIG instead,
    // reported as a full disk, and nothing half-written is published.
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and --version are not errors; clap knows which is which.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let message = outcome::usage_words(&e);
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

/// The command line. A command that parses is read with the plain definitions; only help, the
/// version and mistakes are parsed again with the definitions people read (each command's examples,
/// the dice options only where they apply), which cost two thirds of a short command's start-up to
/// build. Both accept exactly the same command lines.
fn parse() -> Result<Cli, clap::Error> {
    use clap::CommandFactory;
    match empty_db_unset(Cli::command()).try_get_matches() {
        Ok(matches) => grimoire::cli::parsed(&matches),
        // The version reads the same either way.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => Err(e),
        Err(_) => empty_db_unset(grimoire::cli::definitions())
            .try_get_matches()
            .and_then(|matches| grimoire::cli::parsed(&matches)),
    }
}

/// An empty GRIMOIRE_DB (`GRIMOIRE_DB= grimoire …`) reads as unset, as a shell means it: `--db`
/// then names the campaign, or the default does. Read as a value, it refused every command.
fn empty_db_unset(command: clap::Command) -> clap::Command {
    match std::env::var_os("GRIMOIRE_DB").is_some_and(|db| db.is_empty()) {
        true => command.mut_arg("db", |db| db.env(None::<&str>)),
        false => command,
    }
}
