//! Why A Dungeon Game's rules refuse a command. Every message says what was wrong and, where it helps,
//! what to do.

use crate::seq::Seq;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AdgError {
    #[error(
        "#{0} is a Ceremony scroll, and its sealed check is opened when the scroll is read, not before"
    )]
    CheckOpensWithReading(Seq),
    #[error("{0} is not a Sigil: only a Sigil is drawn to go off later")]
    OnlySigilsWait(String),
    #[error("{0} is not a Ceremony: only a Ceremony's performing time is given")]
    OnlyCeremoniesTakeTime(String),
    #[error("a Ceremony takes an hour or more to perform, not {0}")]
    CeremonyUnderAnHour(crate::time::GameDuration),
    #[error("{0} is longer than a week; a Ceremony that long is spent as downtime")]
    CeremonyOverAWeek(crate::time::GameDuration),
    #[error("{0} has already acted this round (a ritual or a scroll read in combat takes it)")]
    ActedThisRound(String),
    #[error("{name} has no Sigil of {ritual} waiting{}", waiting_list(waiting))]
    NoSigilWaiting {
        name: String,
        ritual: String,
        waiting: Vec<String>,
    },
    #[error("{0} plays A Dungeon Game, where rest comes by the night")]
    RestsByNight(String),
    #[error("the tables \"{0}\" are in force already, exactly as given; nothing to load")]
    TablesInForce(String),
    #[error("the tables are not valid: {0}")]
    InvalidTables(String),
    #[error("no A Dungeon Game tables are loaded yet")]
    NoAdgTables,
    #[error("{name} has dice pending from reading scroll S{scroll}")]
    RollPending { name: String, scroll: Seq },
    #[error("a ritual's damage or healing needs a target")]
    EffectWithoutTarget,
    #[error("{0} has no dice pending from a scroll")]
    NothingPending(String),
    #[error(
        "exerting {amount} {attribute} would leave it below 1 (it is {current} now); {}",
        match current.saturating_sub(1) {
            0 => "none can be exerted".to_string(),
            most => format!("at most {most} can be exerted"),
        }
    )]
    ExertionTooHigh {
        attribute: String,
        current: u32,
        amount: u32,
    },
    #[error(
        "this would be {name}'s ritual number {beyond} beyond today's safe number, which costs {beyond} Cunning before the roll, and {name} has {cunning} Cunning (at least 1 must remain); a night's rest resets the count"
    )]
    BeyondSafeRituals {
        name: String,
        beyond: u32,
        cunning: u32,
    },
    #[error("{name} already knows {ritual}")]
    AlreadyKnown { name: String, ritual: String },
    #[error("{ritual} is lost to {name} forever: a failed learning roll can never be retried")]
    LostForever { name: String, ritual: String },
    #[error(
        "the ritual's kind is needed: phrase, sigil or ceremony (for a spell from another game, its level, casting time and duration tell it)"
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
    #[error("{0} is locked out of rituals until a night's rest")]
    LockedOut(String),
    #[error("{0} moved this round, and cannot also cast a ritual")]
    MovedThisRound(String),
    #[error("{0} is a spell from another game and is cast only as written: it cannot be reversed")]
    NotReversible(String),
    #[error("the word '{0}' has no reversed form in the word lists")]
    NoReverse(String),
    #[error("{name} can write scrolls of level 1 to {max} (their Adventurer Level), not {level}")]
    ScrollLevel { name: String, level: u32, max: u32 },
    #[error("{name} has {has} silver but the scroll costs {cost}")]
    NotEnoughSilver { name: String, has: u64, cost: u64 },
    #[error("{name} has {has} silver and cannot spend {spend}; record what they can pay")]
    PurseTooLight { name: String, has: u64, spend: u64 },
    #[error(
        "a change of 0 silver records nothing; give +N for silver gained or -N for silver spent"
    )]
    NoSilverChange,
    #[error("{name} would hold {total} silver, more than the 1,000,000,000 a purse may hold here")]
    PurseTooHeavy { name: String, total: u64 },
    #[error(
        "Cunning exerted before the check applies only to scrolls of Ceremonies, the only ones with a check"
    )]
    NothingToExertFor,
    #[error("there is no scroll S{0}")]
    NoSuchScroll(Seq),
    #[error("scroll S{id} is {state} and can never be used again")]
    ScrollUnusable { id: Seq, state: String },
    #[error("scroll S{0} neither damages nor heals, so there is no one to aim it at")]
    TargetWithoutRoll(Seq),
    #[error("{0} is dead: no damage or healing reaches them any more")]
    TargetDead(String),
    #[error("{name} holds scroll S{id} already")]
    HoldsAlready { name: String, id: Seq },
    #[error("scroll S{id} is held by {holder}")]
    ScrollNotHeld { id: Seq, holder: String },
}

/// The rituals a character knows, to follow a refusal naming one they do not.
fn known_rituals(known: &[String]) -> String {
    if known.is_empty() {
        "; they know no rituals yet".to_string()
    } else {
        format!("; they know: {}", known.join(", "))
    }
}

/// The Sigils a character has waiting, after a refusal that named another.
fn waiting_list(waiting: &[String]) -> String {
    if waiting.is_empty() {
        " (none is)".to_string()
    } else {
        format!("; waiting: {}", waiting.join(", "))
    }
}
