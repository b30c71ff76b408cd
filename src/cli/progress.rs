//! Progress on stderr for long work: a bar where the end is known, a count where it is not. Shown
//! only on a terminal and never with `--json`, so scripts, pipes and tests see nothing of it.

use super::Globals;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Cleared from the terminal when dropped, whether the work finished or failed.
pub struct Progress(ProgressBar);

impl Progress {
    /// A bar from 0 to `total`.
    pub fn bar(g: &Globals, what: &str, total: u64) -> Progress {
        Progress::shown(
            g,
            ProgressBar::new(total),
            "{msg} [{bar:30}] {pos}/{len} ({eta})",
            what,
        )
    }

    /// A count with no known end.
    pub fn counter(g: &Globals, what: &str) -> Progress {
        Progress::shown(g, ProgressBar::new_spinner(), "{spinner} {msg} {pos}", what)
    }

    fn shown(g: &Globals, bar: ProgressBar, template: &str, what: &str) -> Progress {
        if g.json || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden());
        }
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_string());
        Progress(bar)
    }

    /// The work has reached `n`.
    pub fn at(&self, n: u64) {
        self.0.set_position(n);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
