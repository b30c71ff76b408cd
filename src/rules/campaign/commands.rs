//! The campaign's own commands, one struct each. The same struct is the command line's arguments
//! (clap reads it; its `///` lines are the help) and what `decide` takes, so no field is written
//! twice. Fields marked `skip` are never typed: `grimoire::Campaign` attaches them inside the write.

use crate::dice::{DiceExpr, SealedSecret};
use crate::event::Event;
use crate::time::GameDuration;
use clap::Args;

/// A character and a number of health points: damage taken or healing received.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct HealthChange {
    /// The character's name (any case).
    #[arg(value_name = "NAME")]
    pub character: String,
    /// How many points, 1 or more.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub amount: u32,
}

/// Moving the in-game clock forward.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct ClockAdvance {
    /// How long, e.g. 10m, 2h, 3d, 1w, 5r or 1h30m.
    #[arg(value_name = "DURATION", value_parser = parse_duration)]
    pub by: GameDuration,
}

/// A game session's start, with the players' entropy.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct SessionStart {
    /// Text the players choose together (up to 500 characters).
    #[arg(long, default_value = "")]
    pub entropy: String,
}

/// Roll dice and record the roll.
///
/// EXPR is a sum of dice and numbers: d20, 2d6+3, 3d6-1d4, d% (a d100), oe (the open-ended d100: on
/// 96-100 roll again and add, on 01-05 roll again and subtract, going on while the new die shows
/// 96-100), oe+35. Dice are drawn left to right, an open-ended chain complete before the next term;
/// with --rolls give one value per die in that order.
///
/// --sealed makes it a GM's secret roll: the log keeps only a commitment to each die until
/// `grimoire reveal SEQ` publishes the values.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct DiceRoll {
    /// The dice expression, e.g. 2d6+3 or oe+35.
    #[arg(value_name = "EXPR", value_parser = parse_expr, allow_hyphen_values = true)]
    pub expression: DiceExpr,
    /// What the roll is for, e.g. "stealth check".
    #[arg(long = "for", value_name = "TEXT")]
    pub purpose: Option<String>,
    /// Keep the result secret until revealed.
    #[arg(long)]
    pub sealed: bool,
    /// The character the roll is for (any case), so `log --character` finds it.
    #[arg(long = "character", value_name = "NAME")]
    pub character: Option<String>,
}

/// Reveal the sealed dice of event SEQ: records their values and the nonces that open their
/// commitments, which `verify` then checks. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct SealedReveal {
    /// The sealed roll's event number, as `roll --sealed` printed it.
    pub seq: u64,
    /// The GM's stored values for the dice of `seq`, attached inside the write.
    #[arg(skip)]
    pub secrets: Vec<SealedSecret>,
}

/// Undo an event by recording a retraction.
///
/// Both stay in the log; replay skips the retracted event from then on. Character additions, damage,
/// healing, time, casts and rolls can be retracted; sessions, dice epochs and reveals cannot.
/// Retracting a retraction restores the event it undid (refused when that event holds sealed dice
/// whose seed is now published). `--last` retracts the newest event that may be, never a
/// retraction, and names it. The next roll of any kind after a retracted roll is marked in `log`,
/// `explain` and `audit dice` as rolled after that retraction, and a restored event as restored. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct Retraction {
    /// The event's number, as `grimoire log` shows it (#SEQ).
    #[arg(required_unless_present = "last")]
    pub seq: Option<u64>,
    /// Instead of a number: the newest event that may be retracted (not one already retracted).
    // Resolved to its number inside the write (`grimoire::Campaign`), so it is the newest at the
    // moment of recording; the rules see the number.
    #[arg(long, conflicts_with = "seq")]
    pub last: bool,
    /// Why, in a few words: recorded for the table to see.
    #[arg(long)]
    pub reason: String,
    /// The event at `seq`, if the log has one (read inside the write).
    #[arg(skip)]
    pub target: Option<Event>,
    /// When `target` is a retraction: the event it undid, which this restores (read the same way).
    // Boxed: an event is large, and most retractions restore nothing.
    #[arg(skip)]
    pub restoring: Option<Box<Event>>,
    /// The first event after `seq` that rolled dice, if the log holds one (read the same way).
    #[arg(skip)]
    pub next_roll: Option<u64>,
}

fn parse_duration(text: &str) -> Result<GameDuration, String> {
    GameDuration::parse(text).map_err(|e| e.to_string())
}

fn parse_expr(text: &str) -> Result<DiceExpr, String> {
    DiceExpr::parse(text).map_err(|e| e.to_string())
}
