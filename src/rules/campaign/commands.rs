//! The campaign's own commands, one struct each: what `decide` takes. The command line reads them
//! into these (`cli/args.rs`, whose help explains each); the fields no one types are attached by
//! `grimoire::Campaign` inside the write.

use crate::dice::{DiceExpr, SealedSecret};
use crate::event::Event;
use crate::seq::Seq;
use crate::time::GameDuration;
use std::collections::BTreeMap;

/// A character and a number of health points: damage taken or healing received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HealthChange {
    /// The character's name (any case).
    pub character: String,
    /// How many points, 1 or more.
    pub amount: u32,
    /// What dealt or healed it, in a few words, kept in the log.
    pub reason: Option<String>,
}

/// Moving the in-game clock forward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockAdvance {
    /// How long, e.g. 10m, 2h, 3d, 1w, 5r or 1h30m.
    pub by: GameDuration,
}

/// A game session's start, with the players' entropy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionStart {
    /// Text the players choose together (up to 500 characters).
    pub entropy: String,
}

/// A roll of dice, recorded (sealed: only a commitment to each die until revealed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceRoll {
    /// The dice expression, e.g. 2d6+3 or oe+35.
    pub expression: DiceExpr,
    /// What the roll is for, e.g. "stealth check".
    pub purpose: Option<String>,
    /// Keep the result secret until revealed.
    pub sealed: bool,
    /// The character the roll is for (any case), so `log --character` finds it.
    pub character: Option<String>,
}

/// The sealed dice of event `seq` revealed: their values and the nonces that open their
/// commitments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedReveal {
    /// The sealed roll's event number, as `roll --sealed` printed it.
    pub seq: Seq,
    /// The GM's stored values for the dice of `seq`, attached inside the write.
    pub secrets: Vec<SealedSecret>,
}

/// An event undone by a retraction (a retraction undone restores the event it undid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retraction {
    /// The event's number, as `grimoire log` shows it (#SEQ).
    pub seq: Option<Seq>,
    /// Instead of a number: the newest event that may be retracted (not one already retracted).
    // Resolved to its number inside the write (`grimoire::Campaign`), so it is the newest at the
    // moment of recording; the rules see the number.
    pub last: bool,
    /// Why, in a few words: recorded for the table to see.
    pub reason: String,
    /// The event at `seq`, if the log has one (read inside the write).
    pub target: Option<Event>,
    /// When `target` is a retraction: what this brings back into effect, by its seq (read the same
    /// way, with [`brought_back`](super::brought_back)): the event `target` undid, or down a chain
    /// of retractions the event at its foot when that comes back.
    // Boxed: an event is large, and most retractions restore nothing.
    pub restoring: Option<(Seq, Box<Event>)>,
    /// Whether the event undone or restored, down any chain of retractions, begins, moves on or
    /// ends a fight, and a later event that moves the clock (a round, a rest, a casting, …) was
    /// recorded after it (read the same way).
    pub fight_built_on: bool,
    /// When the event undone, down any chain of retractions, began a fight's round: that event,
    /// and the first event still standing in its round (not itself a retraction), if any (read
    /// the same way).
    pub round_stands: Option<(Seq, Seq)>,
    /// When the event undone or restored, down any chain of retractions, moved the clock: what
    /// re-timing everything after it would break (read the same way).
    pub clock_reshaped: Option<ClockReshaped>,
    /// When the retraction would leave someone more than one action in a round that holds one (a
    /// fight's, or any when the system counts it so), as replay would put the rounds: who, the
    /// action over the limit, and another of theirs in that round (read the same way).
    pub acted_again: Option<(String, Seq, Seq)>,
    /// The characters in play once the retraction takes effect, by the seq of their addition,
    /// under the names they then hold: down a chain of retractions it may bring one back, and
    /// undoing an amendment may give one its first name again (read the same way).
    pub names_after: BTreeMap<Seq, String>,
}

/// What undoing or bringing back a clock move (down a chain of retractions, at `moved`) would
/// break, since every event after it would be replayed at another time (T-1, T-3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockReshaped {
    /// An action or a fight's start stands after it: the action would join another round beside
    /// what was done there, the fight begin at another time.
    BuiltOn { moved: Seq, standing: Seq },
    /// Brought back, the fight on where it stands would run an hour or more past its start.
    HoursInAFight { moved: Seq, fight: String },
    /// Brought back, it would end a fight that is not on where it stands (its start undone).
    NoFightToEnd { moved: Seq },
    /// It starts or ends a fight other than the one on: two fights would overlap.
    AnotherFight { moved: Seq, fight: String },
}

/// A fight counted by the round (T-3): begun, moved on a round, or ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FightStep {
    /// Round 1 begins at the clock as it stands.
    Start {
        /// Where or what, as it reads after "the fight" ("at the bridge").
        name: Option<String>,
    },
    /// The next round begins: the clock moves on one round.
    NextRound,
    /// The fight ends as its last round runs out (the clock moves on one round).
    End,
}
