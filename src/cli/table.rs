//! At the table: the clock, sessions, free rolls and sealed reveals.

use super::output::{Report, appended};
use super::{At, Context, Globals, record, record_on};
use crate::Error;
use crate::event::Event;
use crate::event::Recorded;
use crate::rules::Command;
use crate::rules::campaign::{DiceRoll, DowntimeWeeks, Resting, SealedReveal};
use crate::state::CampaignState;
use crate::systems::contract::event::DowntimeOf;
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::on_system;
use clap::Subcommand;
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum TimeCommand {
    /// Move the in-game clock forward: 10m, 2h, 3d, 1w, 5r (combat rounds of 6 seconds), or a mix
    /// such as 1h30m. Records the advance; rolls no dice.
    Advance(super::args::ClockArgs),
    /// Show the in-game date and time, the combat round, the open session and the dice epoch.
    /// Records nothing.
    Show(At),
}

pub fn time(g: &Globals, ctx: &mut Context, command: &TimeCommand) -> Result<Report, Error> {
    let advance = match command {
        TimeCommand::Advance(advance) => advance.command(),
        TimeCommand::Show(at) => return time_show(&at.state(g)?),
    };
    let written = record(g, ctx, Command::AdvanceClock(advance))?;
    let state = written.state;
    let mut report = appended(&written.events);
    report
        .text
        .push_str(&format!("\nIt is now {}.", state.clock_text()));
    report.json["game_time"] = json!(state.clock.seconds());
    report.json["game_time_text"] = json!(state.clock.to_string());
    Ok(report)
}

/// Where the campaign stands in time: the clock, the round, the session and the dice epoch.
fn time_show(state: &CampaignState) -> Result<Report, Error> {
    let clock = state.clock;
    let round = clock.seconds() / crate::time::ROUND_SECONDS;
    let mut lines = vec![if state.counting_rounds {
        format!(
            "It is {clock} (combat round {} of the minute, counting 6-second rounds).",
            clock.seconds() % 60 / crate::time::ROUND_SECONDS + 1
        )
    } else {
        format!("It is {}.", state.clock_text())
    }];
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
            "game_time_text": clock.to_string(),
            "day": clock.day(),
            "rounds_since_day_1": round,
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
        SessionCommand::Start(start) => Ok(appended(
            &record(g, ctx, Command::StartSession(start.command()))?.events,
        )),
        SessionCommand::Recap(args) => super::recap::recap(g, args),
        SessionCommand::End => {
            let events = record(g, ctx, Command::EndSession)?.events;
            let mut report = appended(&events);
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

pub fn roll(g: &Globals, ctx: &mut Context, args: &DiceRoll) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let events = record_on(g, ctx, &mut campaign, Command::Roll(args.clone()))?.events;
    let mut report = appended(&events);
    if args.sealed
        && let Some(first) = events.first()
    {
        // The GM who rolled sees the value at once, on their own screen; the log keeps only the
        // commitment.
        let seen = peeked(campaign.store(), first)?;
        report.text.push_str(&format!(
            "\nFor your eyes only: {}\nThe log keeps only a commitment until `grimoire reveal {seq}`; `grimoire peek {seq}` shows you the value again.",
            seen.words,
            seq = first.seq
        ));
        report.json["for_the_gm"] = seen.json;
    }
    Ok(report)
}

/// Show the GM the values of sealed dice not yet revealed, read from the campaign's secrets: every
/// one waiting, or event SEQ's. For the GM's eyes: the log, an export without secrets, the report
/// and every shared view keep only the commitments until `grimoire reveal`. Records nothing.
#[derive(Debug, clap::Args)]
pub struct PeekArgs {
    /// A sealed roll's event number, as `roll --sealed` printed it (every one waiting when not
    /// given).
    #[arg(value_name = "SEQ")]
    pub seq: Option<u64>,
}

pub fn peek(g: &Globals, args: &PeekArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let state = store.replay(None)?;
    let waiting: Vec<u64> = match args.seq {
        Some(seq) if state.sealed_pending.contains_key(&seq) => vec![seq],
        Some(seq) => return Err(crate::rules::RuleError::NothingSealed(seq).into()),
        None => state.sealed_pending.keys().copied().collect(),
    };
    let mut lines = Vec::new();
    let mut json = Vec::new();
    for seq in waiting {
        let Some(recorded) = store.event(seq)? else {
            continue;
        };
        let seen = peeked(&mut store, &recorded)?;
        lines.push(format!(
            "#{seq} {}: {}",
            crate::render::describe(&recorded.event),
            seen.words
        ));
        let mut one = seen.json;
        one["seq"] = json!(seq);
        json.push(one);
    }
    if lines.is_empty() {
        lines.push("No sealed die is waiting to be revealed.".into());
    }
    Ok(Report::new(lines.join("\n"), json!({ "sealed": json })))
}

/// A sealed event's values as the GM reads them.
struct Peeked {
    words: String,
    json: serde_json::Value,
}

/// The values kept secret for `recorded`'s sealed dice: a roll's as its expression adds them up,
/// any other event's die by die.
fn peeked(store: &mut crate::store::Store, recorded: &Recorded) -> Result<Peeked, Error> {
    let secrets = store.sealed_secrets(recorded.seq)?;
    let faces: Vec<u32> = secrets.iter().flat_map(|s| s.faces()).collect();
    if let Event::DiceRolled { expression, .. } = &recorded.event
        && let Some((breakdown, total)) = expression.breakdown(&faces)
    {
        return Ok(Peeked {
            words: format!("{expression}: {breakdown}"),
            json: json!({ "faces": faces, "total": total }),
        });
    }
    let dice = recorded.event.dice();
    let each: Vec<(String, Vec<u32>)> = secrets
        .iter()
        .map(|secret| {
            let purpose = dice
                .iter()
                .find(|d| d.n == secret.n)
                .map_or_else(|| format!("die {}", secret.n + 1), |d| d.purpose.clone());
            (purpose, secret.faces())
        })
        .collect();
    let words = each
        .iter()
        .map(|(purpose, faces)| {
            let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
            format!("{purpose} {}", faces.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let json = each
        .iter()
        .map(|(purpose, faces)| json!({ "purpose": purpose, "faces": faces }))
        .collect::<Vec<_>>();
    Ok(Peeked {
        words,
        json: json!({ "faces": faces, "dice": json }),
    })
}

pub fn reveal(g: &Globals, ctx: &mut Context, args: &SealedReveal) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let seq = args.seq;
    // The sealed values are looked up inside the write (Campaign::execute).
    let events = record_on(g, ctx, &mut campaign, Command::RevealSealed(args.clone()))?.events;
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

pub fn downtime(g: &Globals, ctx: &mut Context, a: &DowntimeWeeks) -> Result<Report, Error> {
    if a.party != a.characters.is_empty() {
        return Err(Error::Usage(
            "name who spends the weeks, or give --party for everyone (not both)".into(),
        ));
    }
    let written = record(g, ctx, Command::Downtime(a.clone()))?;
    let mut report = appended(&written.events);
    report
        .text
        .push_str(&format!("\nIt is now {}.", written.state.clock_text()));
    if let Some(span) = written.events.iter().find_map(|r| match &r.event {
        Event::DowntimeTaken(span) => Some(span),
        _ => None,
    }) {
        let summaries: Vec<String> = span
            .characters
            .iter()
            .map(|spent| span_summary(spent, &written.events, &written.state))
            .collect();
        report.text.push_str("\n\n");
        report.text.push_str(&summaries.join("\n"));
    }
    Ok(report)
}

/// One character's span, once it is over: their weeks, where health, exertion, silver and MPs
/// stand, and the scrolls they wrote.
fn span_summary(spent: &DowntimeOf, events: &[Recorded], state: &CampaignState) -> String {
    let weeks = spent.activities.len();
    let mut lines = vec![format!(
        "{}, {weeks} week{}: {}",
        spent.character,
        if weeks == 1 { "" } else { "s" },
        crate::render::activities(&spent.activities)
    )];
    let Some(who) = state.character(&spent.character) else {
        return lines.join("\n");
    };
    let mut now = vec![format!(
        "{}{}",
        crate::render::health_text(who),
        if spent.healed > 0 {
            format!(" (+{})", spent.healed)
        } else {
            String::new()
        }
    )];
    now.extend(on_system!(&who.system, AnyState, |S, mine| {
        S::after_downtime(mine, spent, events)
    }));
    lines.push(format!("  {}", now.join("; ")));
    lines.join("\n")
}

pub fn rest(g: &Globals, ctx: &mut Context, a: &Resting) -> Result<Report, Error> {
    if a.party != a.characters.is_empty() {
        return Err(Error::Usage(
            "name who rests, or give --party for everyone (not both)".into(),
        ));
    }
    let written = record(g, ctx, Command::Rest(a.clone()))?;
    let mut report = appended(&written.events);
    report
        .text
        .push_str(&format!("\nIt is now {}.", written.state.clock_text()));
    Ok(report)
}
