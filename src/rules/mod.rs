//! Rules: pure `decide` functions. Each takes the replayed state, a command and the dice, validates
//! the command, and returns the events to append — or a [`RuleError`] and nothing.

pub mod campaign;

use crate::dice::DiceError;
use thiserror::Error;

pub use campaign::{Command, decide};

/// Why the rules refuse a command. Every message says what was wrong and, where it helps, what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    #[error("this file already holds the campaign \"{0}\"; use another --db to start a new one")]
    AlreadyCreated(String),
    #[error("the log has no campaign yet; create one with `grimoire init --name NAME`")]
    NoCampaign,
    #[error("no character named '{name}'{}", known_list(known))]
    UnknownCharacter { name: String, known: Vec<String> },
    #[error("a character named '{0}' already exists; names are unique, ignoring case")]
    DuplicateCharacter(String),
    #[error("a character needs a name")]
    EmptyName,
    #[error("the sheet is not valid: {0}")]
    InvalidSheet(String),
    #[error("{0} has no health track (a VsD character gets one with --health when added)")]
    NoHealth(String),
    #[error("session {0} is still open; end it with `grimoire session end` first")]
    SessionOpen(u32),
    #[error("no session is open; start one with `grimoire session start`")]
    NoSessionOpen,
    #[error("#{0} is not in the log (the log ends at #{1})")]
    NoSuchEvent(u64, u64),
    #[error("#{0} is already retracted ({1})")]
    AlreadyRetracted(u64, String),
    #[error(
        "#{seq} is a '{kind}' event, which cannot be retracted: the campaign's sessions, dice epochs, reveals and retractions must stay in force"
    )]
    NotRetractable { seq: u64, kind: String },
    #[error("a retraction needs a reason, so the table knows why")]
    EmptyReason,
    #[error("#{0} has no sealed dice awaiting a reveal")]
    NothingSealed(u64),
    #[error(
        "the GM's secret for #{seq} die {n} does not open its commitment; the secrets table does not match the log"
    )]
    SecretMismatch { seq: u64, n: u32 },
    #[error(
        "the GM's secrets hold no value for #{seq} die {n} (was this file imported without secrets?)"
    )]
    SecretMissing { seq: u64, n: u32 },
    #[error(
        "the stored seed of epoch {0} does not match its published commitment; the secrets table does not match the log"
    )]
    SeedMismatch(u32),
    #[error(transparent)]
    Dice(#[from] DiceError),
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; the campaign has no characters yet (add one with `grimoire character add`)".to_string()
    } else {
        format!("; known: {}", known.join(", "))
    }
}
