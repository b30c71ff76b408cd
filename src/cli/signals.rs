//! Signals a command watches for while it must end in its own way rather than be cut short.

use crate::Error;

/// Runs `work`, telling it whether Ctrl-C, a closed terminal or a kill that can be caught asked
/// grimoire to stop: `work` then ends in its own way (a private file holding secrets is removed
/// rather than left; a wait for a phone says what stays open). Once `work` is over (in `grimoire
/// shell`, other commands follow), each signal does what it did before: it ends grimoire; and a
/// kill or a closed terminal that came during `work` is kept for the shell ([`ended_by`]).
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
    // Which signal stopped the work, when it was one that ends a program (not Ctrl-C).
    let ending = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        watching.push(
            signal_hook::flag::register_usize(signal, Arc::clone(&ending), signal as usize)
                .map_err(cannot_watch)?,
        );
    }
    let stopped = || stop.load(Ordering::Relaxed);
    let done = work(&stopped);
    over.store(true, Ordering::Relaxed);
    for id in watching {
        signal_hook::low_level::unregister(id);
    }
    let ended_by = ending.load(Ordering::Relaxed);
    if ended_by != 0 {
        ENDED_BY.store(ended_by, Ordering::Relaxed);
    }
    done
}

/// A signal that ends a program (a kill, a closed terminal) that came while a command watched
/// for signals, and so did not end grimoire then: the shell ends after that command, as it would
/// have without the watch (Ctrl-C only stops the command).
static ENDED_BY: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The signal that asked grimoire to end while a command watched for signals, if one did.
pub(super) fn ended_by() -> Option<i32> {
    match ENDED_BY.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        signal => i32::try_from(signal).ok(),
    }
}
