//! The read side: what the campaign says, computed from the replayed state and the log, for every
//! front end to render. The terminal prints it, `--json` gives its data, the live pages put it in
//! HTML; none of them computes it. A read records nothing and names no front end: it takes a store
//! or a state and plain questions (no command-line types), and returns words and data.
//!
//! - [`event`]: one event with its marks, as every list of events shows it
//! - [`log`]: the events a question picks, with what each one's dice say of their witnesses
//! - [`explain`]: one event in full, its dice derived, the sheets it was decided on
//! - [`sheet`]: a character at a glance and as data
//! - [`peek`]: sealed values, for the GM's eyes only
//! - [`fight`]: the fight under way
//! - [`changes`] and [`recap`]: what changed between two points, and an evening in numbers
//! - [`audit`]: whether the log's dice look fair, and the rolls undone or redone
//! - [`waiting`]: what waits on someone at the table
//! - [`answer`]: a phone's answer with the command it completed

pub mod answer;
pub mod audit;
pub mod changes;
pub mod event;
pub mod explain;
pub mod fight;
pub mod log;
pub mod peek;
pub mod recap;
pub mod sheet;
pub mod waiting;

use serde::Serialize;
use serde_json::{Value, json};

/// A read in the two forms front ends render: the words people read (the terminal and the pages
/// show the same) and the data `--json` gives.
#[derive(Debug, Clone)]
pub struct Shown {
    pub text: String,
    pub json: Value,
}

impl Shown {
    pub fn new(text: String, json: impl Serialize) -> Shown {
        let json = serde_json::to_value(json).unwrap_or_else(|e| json!({ "error": e.to_string() }));
        Shown { text, json }
    }
}
