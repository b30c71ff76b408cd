//! At the table: the clock, sessions, free rolls and sealed reveals.

use super::output::{Report, appended};
use super::{At, Context, Globals, record, record_on};
use crate::Error;
use crate::event::Event;
use crate::event::Recorded;
use crate::rules::Command;
use crate::rules::campaign::{DiceRoll, DowntimeWeeks, Resting, SealedReveal};
use crate::seq::Seq;
use crate::state::CampaignState;
use clap::Subcommand;
use serde_json::json;
use std::io::IsTerminal;

#[derive(Debug, Subcommand)]
pub enum TimeCommand {
    /// Move the in-game clock forward: 10m, 2h, 3d, 1w, 5r (combat rounds of 6 seconds), or a mix
    /// such as 1h30m. Records the advance; rolls no dice.
    Advance(super::args::ClockArgs),
    /// Show the in-game date and time (with the fight's round while one is on), the open session
    /// and the dice epoch. Records nothing.
    Show(At),
}

pub fn time(g: &Globals, ctx: &mut Context, command: &TimeCommand) -> Result<Report, Error> {
    let advance = match command {
        TimeCommand::Advance(advance) => advance.command(),
        TimeCommand::Show(at) => return time_show(&at.state(g)?),
    };
    let written = record(g, ctx, Command::AdvanceClock(advance))?;
    let mut report = moved_the_clock(&written);
    report.json["game_time_text"] = json!(written.state.clock_text());
    Ok(report)
}

/// What a command that moved the clock appended, and the time it is now.
pub(super) fn moved_the_clock(written: &crate::store::Written) -> Report {
    let mut report = appended(written);
    report
        .text
        .push_str(&format!("\nIt is now {}.", written.state.clock_text()));
    report.json["game_time"] = json!(written.state.clock.seconds());
    report
}

/// Where the campaign stands in time: the clock, the round, the session and the dice epoch.
fn time_show(state: &CampaignState) -> Result<Report, Error> {
    let clock = state.clock;
    let round = clock.seconds() / crate::time::ROUND_SECONDS;
    let mut lines = vec![format!("It is {}.", state.clock_text())];
    lines.push(match &state.open_session {
        Some(open) => format!(
            "Session {} is open (it started at #{}).",
            open.number, open.started_seq
        ),
        None if state.sessions_started == 0 => "No session has been played yet.".to_string(),
        None => format!(
            "No session is open; {} played so far.",
            state.sessions_started
        ),
    });
    lines.push(format!(
        "Dice epoch {}, its seed committed to as {}.",
        state.epoch, state.epoch_commitment
    ));
    Ok(Report::new(
        lines.join("\n"),
        json!({
            "as_of_seq": state.head,
            "game_time": clock.seconds(),
            "game_time_text": state.clock_text(),
            "day": clock.day(),
            "rounds_since_day_1": round,
            "fight": state.fight.as_ref().map(|f| json!({ "words": f.words(), "round": f.round_at(clock), "started_seq": f.started_seq })),
            "open_session": state.open_session.as_ref().map(|s| json!({ "number": s.number, "started_seq": s.started_seq })),
            "sessions_started": state.sessions_started,
            "epoch": state.epoch,
            "epoch_commitment": state.epoch_commitment,
        }),
    ))
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
    Start(super::args::SessionStartArgs),
    /// End the current session and print the log's head as a SEQ:HASH checkpoint for the players to
    /// note; `grimoire verify --checkpoint SEQ:HASH` later proves nothing before it was rewritten.
    /// Rolls no dice. It runs everything `grimoire verify` does first and refuses if anything fails:
    /// a checkpoint never vouches for a damaged or altered file.
    End,
    Recap(super::recap::RecapArgs),
}

pub fn session(g: &Globals, ctx: &mut Context, command: &SessionCommand) -> Result<Report, Error> {
    match command {
        SessionCommand::Start(start) => start_session(g, ctx, start),
        SessionCommand::Recap(args) => super::recap::recap(g, args),
        SessionCommand::End => {
            let written = record(g, ctx, Command::EndSession)?;
            let events = &written.events;
            let mut report = appended(&written);
            if let Some(last) = events.last() {
                let checkpoint = crate::store::Checkpoint::of(last.seq, last.hash.as_str());
                report.text.push_str(&format!(
                    "\nCheckpoint: {checkpoint}\nPlayers: note it down; `grimoire verify --checkpoint {checkpoint}` proves the history up to here is unchanged."
                ));
                report.json["checkpoint"] = json!(checkpoint.to_string());
            }
            Ok(report)
        }
    }
}

/// Starts a session. Without --entropy the players are shown the epoch's seed commitments (what
/// the GM's seeds are bound to, before their text is mixed in) and, at a terminal outside the
/// shell, asked for their text.
fn start_session(
    g: &Globals,
    ctx: &mut Context,
    start: &super::args::SessionStartArgs,
) -> Result<Report, Error> {
    let mut command = start.command();
    let mut commitment = None;
    if start.entropy.is_none() {
        let state = g.open()?.replay(None)?;
        let sealed = match &state.epoch_sealed_commitment {
            Some(sealed) => format!(", for sealed dice {sealed}"),
            None => String::new(),
        };
        let note = format!(
            "Dice epoch {}'s seed commitment: {}{sealed}",
            state.epoch, state.epoch_commitment
        );
        // Asked only where it can be recorded: not over a session already open (refused below).
        if state.open_session.is_none() && std::io::stdin().is_terminal() && !g.shared.in_shell() {
            eprintln!(
                "{}\nPlayers: note it, then type a phrase of your own for this session's dice (Enter for none):",
                super::outcome::for_the_terminal(&note)
            );
            let mut line = String::new();
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| Error::Usage(format!("the players' text could not be read ({e})")))?;
            command.entropy = line.trim_end_matches(['\r', '\n']).to_string();
        }
        commitment = Some((
            note,
            state.epoch_commitment.clone(),
            state.epoch_sealed_commitment.clone(),
        ));
    }
    let mut report = appended(&record(g, ctx, Command::StartSession(command))?);
    if let Some((note, commitment, sealed)) = commitment {
        report
            .text
            .push_str(&format!("\n{note} (players: note it down)."));
        report.json["seed_commitment"] = json!(commitment);
        report.json["sealed_commitment"] = json!(sealed);
    }
    Ok(report)
}

pub fn roll(g: &Globals, ctx: &mut Context, args: &DiceRoll) -> Result<Report, Error> {
    if let Some(to) = super::players::put_to(g)? {
        if args.sealed {
            return Err(Error::Usage(
                "a sealed roll is the GM's secret, and a device shows what it makes: roll it at your terminal, without --rolled-by or --witnessed-by".into(),
            ));
        }
        let asked = crate::event::AskedCommand::Roll {
            expression: args.expression.clone(),
            purpose: args.purpose.clone(),
            character: args.character.clone(),
        };
        return super::players::put(g, ctx, to, asked);
    }
    let written = record(g, ctx, Command::Roll(args.clone()))?;
    let mut report = appended(&written);
    for_the_gm(g, &written.events, &mut report)?;
    Ok(report)
}

/// Shows the GM who just rolled sealed dice their values at once, on their own screen; the log
/// keeps only the commitments. (A Ceremony scroll's sealed check is not shown when the scroll is
/// written: whoever types that may be its writer, who must not know; the GM reads it with `peek`.)
fn for_the_gm(g: &Globals, events: &[Recorded], report: &mut Report) -> Result<(), Error> {
    let sealed: Vec<&Recorded> = events
        .iter()
        .filter(|r| crate::read::peek::holds_sealed(&r.event))
        .collect();
    // An amended sealed roll was revealed before it could be amended: it is no secret any more.
    if sealed.is_empty() || g.amending.is_some() {
        return Ok(());
    }
    let mut store = g.open()?;
    let mut json = Vec::new();
    for recorded in sealed {
        let seen = crate::read::peek::peeked(&mut store, recorded)?;
        report.text.push_str(&format!(
            "\nFor your eyes only: {}\nThe log keeps only a commitment until `grimoire reveal {seq}`; `grimoire peek {seq}` shows you the value again.",
            seen.words,
            seq = recorded.seq
        ));
        json.push(seen.json);
    }
    report.json["for_the_gm"] = match json.len() {
        1 => json.remove(0),
        _ => serde_json::Value::Array(json),
    };
    Ok(())
}

/// Show the GM the values of sealed dice not yet revealed, read from the campaign's secrets: every
/// one waiting, or event SEQ's (a retracted one's too). For the GM's eyes: the log, an export
/// without secrets, the report and every shared view keep only the commitments until `grimoire
/// reveal`. Records nothing.
#[derive(Debug, clap::Args)]
pub struct PeekArgs {
    /// A sealed roll's event number, as `roll --sealed` printed it (every one waiting when not
    /// given).
    #[arg(value_name = "SEQ")]
    pub seq: Option<Seq>,
}

pub fn peek(g: &Globals, args: &PeekArgs) -> Result<Report, Error> {
    Ok(crate::read::peek::waiting(&mut *g.open()?, args.seq)?.into())
}

pub fn reveal(g: &Globals, ctx: &mut Context, args: &SealedReveal) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let seq = args.seq;
    // The sealed values are looked up inside the write (Campaign::execute).
    let written = record_on(g, ctx, &mut campaign, Command::RevealSealed(args.clone()))?;
    let events = &written.events;
    let mut report = appended(&written);
    if let Some(original) = campaign.store().event(seq)?
        && let crate::event::Event::DiceRolled {
            expression,
            purpose,
            ..
        } = &original.event
        && let Some(crate::event::Event::SealedRevealed { dice, .. }) =
            events.first().map(|r| &r.event)
    {
        let faces: Vec<u32> = dice.iter().flat_map(|d| d.faces()).collect();
        if let Some((breakdown, total)) = expression.breakdown(&faces) {
            // What the roll was for, said again: the reveal may come long after the roll.
            let what = purpose
                .as_deref()
                .map(|p| format!(" for {p}"))
                .unwrap_or_default();
            report
                .text
                .push_str(&format!("\n{expression}{what}: {breakdown}"));
            report.json["total"] = json!(total);
        }
    }
    Ok(report)
}

pub fn downtime(g: &Globals, ctx: &mut Context, a: &DowntimeWeeks) -> Result<Report, Error> {
    if a.party != a.characters.is_empty() {
        return Err(Error::Usage(
            "name who spends the weeks, or give --party for everyone (not both)".into(),
        ));
    }
    let written = record(g, ctx, Command::Downtime(a.clone()))?;
    let mut report = moved_the_clock(&written);
    if let Some(span) = written.events.iter().find_map(|r| match &r.event {
        Event::DowntimeTaken(span) => Some(span),
        _ => None,
    }) {
        let summaries: Vec<String> = span
            .characters
            .iter()
            .map(|spent| crate::render::downtime_summary(spent, &written.events, &written.state))
            .collect();
        report.text.push_str("\n\n");
        report.text.push_str(&summaries.join("\n"));
    }
    Ok(report)
}

pub fn rest(g: &Globals, ctx: &mut Context, a: &Resting) -> Result<Report, Error> {
    if a.party != a.characters.is_empty() {
        return Err(Error::Usage(
            "name who rests, or give --party for everyone (not both)".into(),
        ));
    }
    let written = record(g, ctx, Command::Rest(a.clone()))?;
    let mut report = moved_the_clock(&written);
    let rested = written.events.iter().find_map(|r| match &r.event {
        Event::Rested(rest) => Some(rest.characters()),
        _ => None,
    });
    for name in rested.unwrap_or_default() {
        let note = (written.state.character(name)).and_then(crate::render::health_left_to_the_gm);
        if let Some(note) = note {
            report.text.push_str(&format!("\n{note}"));
        }
    }
    Ok(report)
}
