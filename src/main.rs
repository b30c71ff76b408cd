use grimoire::cli::{Context, outcome, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, whose default kills the process
    // before it can say why or clean up. With a handler in place the write fails with EFBIG instead,
    // reported as a full disk, and nothing half-written is published.
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    let cli = match grimoire::cli::parse_from(std::env::args_os().collect()) {
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
