//! The core's recording commands as the command line reads them: clap's structs, whose `///`
//! lines are the help, each turned into the plain command the rules take (`rules::campaign`).
//! The rules name no parsing library; the rule systems describe theirs as data (`mount.rs`).

use crate::dice::DiceExpr;
use crate::rules::campaign::{
    ClockAdvance, DiceRoll, DowntimeWeeks, HealthChange, PlannedWeek, Resting, Retraction,
    SealedReveal, SessionStart,
};
use crate::seq::Seq;
use crate::time::GameDuration;
use clap::Args;

/// A character and a number of health points: damage taken or healing received.
#[derive(Debug, Clone, Args)]
pub struct HealthArgs {
    /// The character's name (any case).
    #[arg(value_name = "NAME")]
    pub character: String,
    /// How many points, 1 or more.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub amount: u32,
    /// What dealt or healed it, in a few words; kept in the log.
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
}

impl HealthArgs {
    pub fn command(&self) -> HealthChange {
        HealthChange {
            character: self.character.clone(),
            amount: self.amount,
            reason: self.reason.clone(),
        }
    }
}

/// Moving the in-game clock forward.
#[derive(Debug, Clone, Args)]
pub struct ClockArgs {
    /// How long, e.g. 10m, 2h, 3d, 1w, 5r or 1h30m.
    #[arg(value_name = "DURATION", value_parser = parse_duration)]
    pub by: GameDuration,
}

impl ClockArgs {
    pub fn command(&self) -> ClockAdvance {
        ClockAdvance { by: self.by }
    }
}

/// A game session's start, with the players' entropy.
#[derive(Debug, Clone, Args)]
pub struct SessionStartArgs {
    /// Text the players choose together (up to 500 characters). Not given, the players are shown
    /// the dice epoch's seed commitments to note and, at a terminal, asked for their text.
    #[arg(long)]
    pub entropy: Option<String>,
}

impl SessionStartArgs {
    pub fn command(&self) -> SessionStart {
        SessionStart {
            entropy: self.entropy.clone().unwrap_or_default(),
        }
    }
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
#[derive(Debug, Clone, Args)]
pub struct RollArgs {
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

impl RollArgs {
    pub fn command(&self) -> DiceRoll {
        DiceRoll {
            expression: self.expression.clone(),
            purpose: self.purpose.clone(),
            sealed: self.sealed,
            character: self.character.clone(),
        }
    }
}

/// Reveal the sealed dice of event SEQ: records their values and the nonces that open their
/// commitments, which `verify` then checks. When they were the last pending sealed dice of an
/// ended epoch, the seed they came from is published in the same write. A Ceremony scroll's
/// check is opened by reading the scroll, not here. Rolls no dice.
#[derive(Debug, Clone, Args)]
pub struct RevealArgs {
    /// The sealed roll's event number, as `roll --sealed` printed it.
    pub seq: Seq,
}

impl RevealArgs {
    pub fn command(&self) -> SealedReveal {
        SealedReveal {
            seq: self.seq,
            secrets: Vec::new(),
        }
    }
}

/// Undo an event by recording a retraction.
///
/// Both stay in the log; replay skips the retracted event from then on. Character additions, damage,
/// healing, time, casts and rolls can be retracted; sessions, dice epochs and reveals cannot.
/// Retracting a retraction restores the event it undid (refused when that event holds sealed dice
/// whose seed is now published). `--last` retracts the newest event of play and names it,
/// passing over sessions, epochs, reveals and retractions; when that play cannot be undone (a
/// scroll written), it is refused rather than reach past it. Every roll of any kind made after a
/// retracted roll in its session, up to and including the first roll after the retraction, is
/// marked in `log`, `explain` and `audit dice` as rolled after it, and a restored event as
/// restored. Rolls no dice.
#[derive(Debug, Clone, Args)]
pub struct RetractArgs {
    /// The event's number, as `grimoire log` shows it (#SEQ).
    #[arg(required_unless_present = "last")]
    pub seq: Option<Seq>,
    /// Instead of a number: the newest event of play not already retracted (sessions, epochs,
    /// reveals and retractions are passed over).
    #[arg(long, conflicts_with = "seq")]
    pub last: bool,
    /// Why, in a few words: recorded for the table to see.
    #[arg(long)]
    pub reason: String,
}

impl RetractArgs {
    pub fn command(&self) -> Retraction {
        Retraction {
            seq: self.seq,
            last: self.last,
            reason: self.reason.clone(),
            target: None,
            restoring: None,
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        }
    }
}

/// Rest (moves the clock): A Dungeon Game characters need a full night, which heals by the level's
/// recovery die (a campaign setting), resets the safe rituals per day and ends any lockout; Against
/// the Darkmaster characters recover all MPs after 8 hours, floor(max × hours / 8) after fewer.
///
/// Dice, in order: one recovery die per resting A Dungeon Game character, in alphabetical order.
#[derive(Debug, Clone, Args)]
pub struct RestArgs {
    /// Who rests; omit and give --party for every character able to.
    #[arg(value_name = "NAMES")]
    pub characters: Vec<String>,
    /// Everyone who can rest, instead of naming them.
    // The rules read no names as everyone; the command line asks for this flag too, so that a
    // forgotten name is not a rest for the whole party.
    #[arg(long)]
    pub party: bool,
    /// A full night's sleep (8 hours).
    #[arg(long, conflicts_with = "hours", required_unless_present = "hours")]
    pub night: bool,
    /// Hours of rest (Against the Darkmaster).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=24))]
    pub hours: Option<u32>,
}

impl RestArgs {
    pub fn command(&self) -> Resting {
        Resting {
            characters: self.characters.clone(),
            party: self.party,
            night: self.night,
            hours: self.hours,
        }
    }
}

/// Downtime weeks for the party, or the characters named, together (ADG-C5, T-2): one span, the
/// clock moving once. Each character spends each week on an activity (rest unless --week says
/// otherwise). Every week's seven nights heal A Dungeon Game characters by their recovery die
/// (capped at maximum health) and end the daily ritual count and any lockout; a week not spent
/// scribing recovers exertion (both campaign settings). Scribing follows `scroll write`'s rules,
/// week by week: silver, the ritual known, no lockout at the week's start. Against the Darkmaster
/// characters come out with every MP back, and conditions run out with the clock. Prints where each
/// character stands at the span's end, and the scrolls written.
///
/// Dice: for each A Dungeon Game character in alphabetical order, week by week: a Ceremony
/// scroll's sealed d20 in a week spent writing one, then the week's seven recovery dice.
#[derive(Debug, Clone, Args)]
pub struct DowntimeArgs {
    /// Who spends the weeks; omit and give --party for every character able to.
    #[arg(value_name = "NAMES")]
    pub characters: Vec<String>,
    /// Everyone who can, instead of naming them.
    // As for rest: the rules read no names as everyone; the command line asks for the flag.
    #[arg(long)]
    pub party: bool,
    /// How many weeks, 1 to 52.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=52))]
    pub weeks: u32,
    /// One week of one character's, as 'NAME: ACTIVITY'; repeat it for more weeks, which fill
    /// that character's weeks in order (weeks not given are rest). ACTIVITY is `rest`; `scribe RITUAL,
    /// level N[, roll damage|healing][, pre-exert N][, ongoing], effect: TEXT` (A Dungeon Game,
    /// as `scroll write`, the effect last); or the GM's own, `WHAT[: NOTE]`, such as
    /// 'Bryn: training: swordplay with the watch'.
    #[arg(long = "week", value_name = "NAME: ACTIVITY")]
    pub plan: Vec<PlannedWeek>,
}

impl DowntimeArgs {
    pub fn command(&self) -> DowntimeWeeks {
        DowntimeWeeks {
            characters: self.characters.clone(),
            party: self.party,
            weeks: self.weeks,
            plan: self.plan.clone(),
        }
    }
}

fn parse_duration(text: &str) -> Result<GameDuration, String> {
    GameDuration::parse(text).map_err(|e| e.to_string())
}

fn parse_expr(text: &str) -> Result<DiceExpr, String> {
    DiceExpr::parse(text).map_err(|e| e.to_string())
}
