//! Signals a command watches for while it must end in its own way rather than be cut short.

use crate::Error;

/// Runs `work`, telling it whether Ctrl-C, a closed terminal or a kill that can be caught asked
/// grimoire to stop: `work` then ends in its own way (a private file holding secrets is removed
/// rather than left; a wait for a phone says what stays open). Once `work` is over (in `grimoire
/// shell`, other commands follow), each signal does what it did before: it ends grimoire.
pub(super) fn watching<T>(
    work: impl FnOnce(&dyn Fn() -> bool) -> Result<T, Error>,
) -> Result<T, Error> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let (stop, over) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let cannot_watch =
        |e: std::io::Error| Error::Internal(format!("grimoire cannot watch for signals: {e}"));
    let mut watching = Vec::new();
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register_conditional_default(signal, Arc::clone(&over))
            .map_err(cannot_watch)?;
        watching
            .push(signal_hook::flag::register(signal, Arc::clone(&stop)).map_err(cannot_watch)?);
    }
    let stopped = || stop.load(Ordering::Relaxed);
    let done = work(&stopped);
    over.store(true, Ordering::Relaxed);
    for id in watching {
        signal_hook::low_level::unregister(id);
    }
    done
}
