//! Rules: pure `decide` functions. Each takes the replayed state, a command and the dice, validates
//! the command, and returns the events to append — or a [`RuleError`] and nothing.

pub mod adg;
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
    #[error("the tables are not valid: {0}")]
    InvalidTables(String),
    #[error(
        "no A Dungeon Game tables are loaded yet; add an ADG character or `grimoire tables load FILE`"
    )]
    NoAdgTables,
    #[error("{name} plays {plays}; this is {needs} command")]
    WrongSystem {
        name: String,
        plays: String,
        needs: &'static str,
    },
    #[error("{0} is dead and can take no further action")]
    Dead(String),
    #[error("exerting {amount} {attribute} would leave it below 1 (it is {current} now); at most {} can be exerted", current.saturating_sub(1))]
    ExertionTooHigh {
        attribute: String,
        current: u32,
        amount: u32,
    },
    #[error("{name} already knows {ritual}")]
    AlreadyKnown { name: String, ritual: String },
    #[error("{ritual} is lost to {name} forever: a failed learning roll can never be retried")]
    LostForever { name: String, ritual: String },
    #[error(
        "say what kind of ritual it is with --type phrase|sigil|ceremony (or, for a spell from another game, give --spell-level, --cast-time and --duration)"
    )]
    RitualKindNeeded,
    #[error(
        "{name} does not know a ritual called '{ritual}'{}",
        known_rituals(known)
    )]
    UnknownRitual {
        name: String,
        ritual: String,
        known: Vec<String>,
    },
    #[error("{0} is locked out of rituals until a night's rest (`grimoire rest NAME --night`)")]
    LockedOut(String),
    #[error("{0} moved this round, and cannot also cast a ritual")]
    MovedThisRound(String),
    #[error("{0} is a spell from another game and is cast only as written: it cannot be reversed")]
    NotReversible(String),
    #[error("the word '{0}' has no reversed form in the word lists")]
    NoReverse(String),
    #[error("no living A Dungeon Game character to rest")]
    NoOneToRest,
    #[error("{name} can write scrolls of level 1 to {max} (their Adventurer Level), not {level}")]
    ScrollLevel { name: String, level: u32, max: u32 },
    #[error("{name} has {has} silver but the scroll costs {cost}")]
    NotEnoughSilver { name: String, has: u64, cost: u64 },
    #[error(
        "--pre-exert only applies to scrolls of Ceremonies, which are the only ones with a check"
    )]
    NothingToExertFor,
    #[error("there is no scroll S{0}; `grimoire scroll list` shows them")]
    NoSuchScroll(u64),
    #[error("scroll S{id} is {state} and can never be used again")]
    ScrollUnusable { id: u64, state: String },
    #[error("scroll S{id} is held by {holder}")]
    ScrollNotHeld { id: u64, holder: String },
}

fn known_rituals(known: &[String]) -> String {
    if known.is_empty() {
        "; they know no rituals yet".to_string()
    } else {
        format!("; they know: {}", known.join(", "))
    }
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; the campaign has no characters yet (add one with `grimoire character add`)".to_string()
    } else {
        format!("; known: {}", known.join(", "))
    }
}
