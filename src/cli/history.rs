//! Reading the record: `log` and `explain`.

use super::Globals;
use super::output::{Columns, Report, event_line};
use crate::Error;
use crate::read::log::{Entry, LogQuery, LogRead};
use crate::seq::Seq;
use crate::store::Point;
use crate::text::printable;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::ops::ControlFlow;

/// Show the log, oldest first. Records nothing.
///
/// Filters combine: `log --character Aldric --kind dice_rolled --limit 5` shows Aldric's last five
/// rolls. With --limit the newest events are read first, so a short look at a long campaign is quick.
#[derive(Debug, Default, Args)]
pub struct LogArgs {
    /// Only events about this character (rolls made with `roll --character` included), with
    /// the retractions, amendments and reveals of those events.
    #[arg(long, value_name = "NAME")]
    pub character: Option<String>,
    /// Only events of this game session.
    #[arg(long, value_name = "N")]
    pub session: Option<u32>,
    /// Only events of this kind, as `log --json` names them (e.g. dice_rolled, ritual_cast).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Only events entered by this actor (any case): the name `--actor` gave, or the OS user.
    #[arg(long, value_name = "ACTOR")]
    pub by: Option<String>,
    /// Only events whose line contains this text (any case).
    #[arg(long, value_name = "TEXT")]
    pub grep: Option<String>,
    /// Only the last N matching events.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Start at the event a point names: an event number, session:N (the end of session N),
    /// session-start:N, day:D (the last event of in-game day D) or now.
    #[arg(long, value_name = "POINT")]
    pub from: Option<Point>,
    /// Stop at (and include) the event a point names.
    #[arg(long, value_name = "POINT")]
    pub to: Option<Point>,
}

impl LogArgs {
    /// The question these flags ask of the log.
    pub fn query(&self) -> LogQuery {
        LogQuery {
            character: self.character.clone(),
            session: self.session,
            kind: self.kind.clone(),
            by: self.by.clone(),
            grep: self.grep.clone(),
            limit: self.limit,
            from: self.from,
            to: self.to,
        }
    }
}

pub fn log(g: &Globals, streams: bool, args: &LogArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let read = LogRead::open(&mut store, &args.query())?;
    let state = read.state();
    let width = Columns::up_to(read.last().get(), state);
    // On a terminal, long lines wrap under their description; piped, they stay whole.
    let fit_to = super::output::terminal_width();
    let line = |entry: &Entry| {
        let mut line = event_line(&entry.recorded, state, entry.marks(state), width);
        line.push_str(&entry.notes());
        width.fit(line, fit_to)
    };
    if args.limit.is_none() && !g.json {
        // The whole log as text: streamed to the terminal as it is read, never held in memory.
        let mut held = Vec::new();
        let mut terminal;
        let colour = streams && super::paint::shows_colour(&std::io::stdout(), g.color.choice());
        let out: &mut dyn Write = if streams {
            // Straight to stdout unless the lines are painted (then the stream keeps or drops the
            // colour as the terminal wants).
            terminal = std::io::BufWriter::new(match colour {
                true => anstream::AutoStream::new(std::io::stdout().lock(), g.color.choice()),
                false => anstream::AutoStream::new(
                    std::io::stdout().lock(),
                    anstream::ColorChoice::AlwaysAnsi,
                ),
            });
            &mut terminal
        } else {
            &mut held
        };
        let mut shown = 0u64;
        let mut unwritten = None;
        read.stream(&mut store, |entry| {
            shown += 1;
            let text = line(&entry);
            // A line wrapped to the terminal is escaped piece by piece, keeping its breaks.
            let safe = text
                .split('\n')
                .map(printable)
                .collect::<Vec<_>>()
                .join("\n");
            // Painted for the terminal (the stream drops the colour where it is not wanted); the
            // tour's transcript keeps the plain words, painted when it is printed.
            let written = match colour {
                true => writeln!(out, "{}", super::paint::paint(&safe)),
                false => writeln!(out, "{safe}"),
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                // The reader went away (`grimoire log | head`), or the disk filled: stop reading.
                Err(e) => {
                    unwritten = Some(e);
                    ControlFlow::Break(())
                }
            }
        })?;
        let ended = match unwritten {
            Some(e) => Err(e),
            None if shown == 0 => writeln!(out, "No matching events.").and_then(|()| out.flush()),
            None => out.flush(),
        };
        super::outcome::to_stdout(ended)?;
        return Ok(if streams {
            Report::silent()
        } else {
            Report::new(
                String::from_utf8_lossy(&held).trim_end().to_string(),
                json!({ "shown": shown }),
            )
        });
    }
    let entries = read.entries(&mut store)?;
    if !g.json {
        let lines: Vec<String> = entries.iter().map(line).collect();
        let text = if lines.is_empty() {
            "No matching events.".to_string()
        } else {
            lines.join("\n")
        };
        return Ok(Report::new(text, serde_json::Value::Null));
    }
    let views: Vec<_> = entries.iter().map(|entry| entry.view(state)).collect();
    Ok(Report::new(String::new(), json!({ "events": views })))
}

/// Explain one event: its envelope, every die with its provenance and, for seeded dice of a revealed
/// epoch, the full derivation re-computed, and the sheets of the characters it concerns just before
/// it (what the rules decided on; --at shows them at another point). Records nothing.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The event's number (#SEQ in `grimoire log`).
    pub seq: Seq,
    /// Show the sheets at this point instead of just before the event: an event number, session:N,
    /// session-start:N, day:D or now.
    #[arg(long, value_name = "POINT")]
    pub at: Option<Point>,
}

pub fn explain(g: &Globals, args: &ExplainArgs) -> Result<Report, Error> {
    Ok(crate::read::explain::explain(&mut *g.open()?, args.seq, args.at)?.into())
}
