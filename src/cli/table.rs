//! At the table: the clock, sessions, free rolls and sealed reveals.

use super::output::{Report, appended};
use super::{Context, Globals, record, record_on};
use crate::Error;
use crate::dice::DiceExpr;
use crate::rules::Command;
use crate::rules::rest::RestLength;
use crate::time::GameDuration;
use clap::{Args, Subcommand};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum TimeCommand {
    /// Move the in-game clock forward: 10m, 2h, 3d, 1w, 5r (combat rounds of 6 seconds), or a mix
    /// such as 1h30m. Records the advance; rolls no dice.
    Advance {
        /// How long, e.g. 10m, 2h, 3d, 1w, 5r or 1h30m.
        #[arg(value_parser = parse_duration)]
        duration: GameDuration,
    },
}

fn parse_duration(text: &str) -> Result<GameDuration, String> {
    GameDuration::parse(text).map_err(|e| e.to_string())
}

pub fn time(g: &Globals, ctx: &mut Context, command: &TimeCommand) -> Result<Report, Error> {
    let TimeCommand::Advance { duration } = command;
    let written = record(g, ctx, Command::AdvanceClock { by: *duration })?;
    let state = written.state;
    let mut report = appended(&written.events);
    report
        .text
        .push_str(&format!("\nIt is now {}.", state.clock));
    report.json["game_time"] = json!(state.clock.seconds());
    report.json["game_time_text"] = json!(state.clock.to_string());
    Ok(report)
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Start a game session. Rolls no dice.
    ///
    /// Reads every page of the campaign file first (SQLite's quick check) and refuses if its
    /// structure is damaged, so an evening is not played onto a broken file.
    ///
    /// Give --entropy with text the players choose at the table (a phrase, the last digits of
    /// everyone's phone clock): it is mixed into every seeded die of the session, so the GM could not
    /// have picked a seed that favours the session's rolls.
    Start {
        /// Text the players choose together (up to 500 characters).
        #[arg(long, default_value = "")]
        entropy: String,
    },
    /// End the current session and print the log's head as a SEQ:HASH checkpoint for the players to
    /// note; `grimoire verify --checkpoint SEQ:HASH` later proves nothing before it was rewritten.
    /// Rolls no dice. It runs everything `grimoire verify` does first and refuses if anything fails:
    /// a checkpoint never vouches for a damaged or altered file.
    End,
}

pub fn session(g: &Globals, ctx: &mut Context, command: &SessionCommand) -> Result<Report, Error> {
    match command {
        SessionCommand::Start { entropy } => {
            let command = Command::StartSession {
                entropy: entropy.clone(),
            };
            Ok(appended(&record(g, ctx, command)?.events))
        }
        SessionCommand::End => {
            let events = record(g, ctx, Command::EndSession)?.events;
            let mut report = appended(&events);
            if let Some(last) = events.last() {
                let checkpoint = crate::store::Checkpoint::of(last.seq, &last.hash);
                report.text.push_str(&format!(
                    "\nCheckpoint: {checkpoint}\nPlayers: note it down; `grimoire verify --checkpoint {checkpoint}` proves the history up to here is unchanged."
                ));
                report.json["checkpoint"] = json!(checkpoint.to_string());
            }
            Ok(report)
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
#[derive(Debug, Args)]
pub struct RollArgs {
    /// The dice expression, e.g. 2d6+3 or oe+35.
    #[arg(value_parser = parse_expr, allow_hyphen_values = true)]
    pub expr: DiceExpr,
    /// What the roll is for, e.g. "stealth check".
    #[arg(long = "for", value_name = "TEXT")]
    pub purpose: Option<String>,
    /// Keep the result secret until revealed.
    #[arg(long)]
    pub sealed: bool,
}

fn parse_expr(text: &str) -> Result<DiceExpr, String> {
    DiceExpr::parse(text).map_err(|e| e.to_string())
}

pub fn roll(g: &Globals, ctx: &mut Context, args: &RollArgs) -> Result<Report, Error> {
    let purpose = args
        .purpose
        .as_ref()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty());
    let command = Command::Roll {
        expression: args.expr.clone(),
        purpose,
        sealed: args.sealed,
    };
    let events = record(g, ctx, command)?.events;
    let mut report = appended(&events);
    if args.sealed
        && let Some(first) = events.first()
    {
        report.text.push_str(&format!(
            "\nThe result stays secret until `grimoire reveal {}`.",
            first.seq
        ));
    }
    Ok(report)
}

/// Reveal the sealed dice of event SEQ: records their values and the nonces that open their
/// commitments, which `verify` then checks. Rolls no dice.
#[derive(Debug, Args)]
pub struct RevealArgs {
    /// The sealed roll's event number, as `roll --sealed` printed it.
    pub seq: u64,
}

pub fn reveal(g: &Globals, ctx: &mut Context, args: &RevealArgs) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let seq = args.seq;
    // The sealed values are looked up inside the write (Campaign::execute).
    let command = Command::RevealSealed {
        seq,
        secrets: Vec::new(),
    };
    let events = record_on(g, ctx, &mut campaign, command)?.events;
    let mut report = appended(&events);
    if let Some(original) = campaign.store().event(seq)?
        && let crate::event::Event::DiceRolled { expression, .. } = &original.event
        && let Some(crate::event::Event::SealedRevealed { dice, .. }) =
            events.first().map(|r| &r.event)
    {
        let faces: Vec<u32> = dice.iter().flat_map(|d| d.faces()).collect();
        if let Some((breakdown, total)) = expression.breakdown(&faces) {
            report
                .text
                .push_str(&format!("\n{expression}: {breakdown}"));
            report.json["total"] = json!(total);
        }
    }
    Ok(report)
}

/// Rest (moves the clock): A Dungeon Game characters need a full night, which heals by the level's
/// recovery die (a campaign setting), resets the safe rituals per day and ends any lockout; Against
/// the Darkmaster characters recover all MPs after 8 hours, floor(max × hours / 8) after fewer.
///
/// Dice, in order: one recovery die per resting A Dungeon Game character, in alphabetical order.
#[derive(Debug, Args)]
pub struct RestArgs {
    /// Who rests; omit and give --party for every character able to.
    pub names: Vec<String>,
    /// Everyone who can rest, instead of naming them.
    #[arg(long)]
    pub party: bool,
    /// A full night's sleep (8 hours).
    #[arg(long, conflicts_with = "hours", required_unless_present = "hours")]
    pub night: bool,
    /// Hours of rest (Against the Darkmaster).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=24))]
    pub hours: Option<u32>,
}

pub fn rest(g: &Globals, ctx: &mut Context, a: &RestArgs) -> Result<Report, Error> {
    if a.party != a.names.is_empty() {
        return Err(Error::Usage(
            "name who rests, or give --party for everyone (not both)".into(),
        ));
    }
    let length = match a.hours {
        Some(hours) => RestLength::Hours(hours),
        None => RestLength::Night,
    };
    let written = record(
        g,
        ctx,
        Command::Rest {
            characters: a.names.clone(),
            length,
        },
    )?;
    let mut report = appended(&written.events);
    report
        .text
        .push_str(&format!("\nIt is now {}.", written.state.clock));
    Ok(report)
}
