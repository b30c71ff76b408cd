//! Maintenance and development: `snapshots rebuild|clear` and `dev generate`.

use super::output::Report;
use super::{Context, Globals};
use crate::Error;
use crate::store::Store;
use chrono::SecondsFormat;
use clap::{Args, Subcommand};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum SnapshotsCommand {
    /// Replace every snapshot by new ones taken along a full replay. Snapshots only speed replay up;
    /// this never changes an answer. Records nothing in the log.
    Rebuild,
    /// Delete every snapshot (answers stay the same, only slower). Records nothing in the log.
    Clear,
}

pub fn snapshots(g: &Globals, command: &SnapshotsCommand) -> Result<Report, Error> {
    let mut store = g.open()?;
    let (text, json) = match command {
        SnapshotsCommand::Rebuild => {
            let head = store.head()?.map_or(0, |h| h.seq.get());
            let progress = super::progress::Progress::bar(g, "replaying", head);
            let taken = store.rebuild_snapshots_watching(&mut |seq| progress.at(seq.get()))?;
            drop(progress);
            (
                format!(
                    "Rebuilt {}.",
                    super::output::count(taken, "snapshot", "snapshots")
                ),
                json!({ "snapshots": taken }),
            )
        }
        SnapshotsCommand::Clear => {
            let removed = store.clear_snapshots()?;
            (
                format!(
                    "Removed {}.",
                    super::output::count(removed, "snapshot", "snapshots")
                ),
                json!({ "removed": removed }),
            )
        }
    };
    Ok(Report::new(text, json))
}

#[derive(Debug, Subcommand)]
pub enum DevCommand {
    Generate(GenerateArgs),
    /// Append N one-minute clock advances, one durable write each, printing "acked SEQ" after each
    /// commit (the crash tests kill it mid-way and check every acknowledged event survived).
    AppendLoop {
        /// How many clock advances to append.
        #[arg(long, default_value_t = 1000)]
        count: u64,
    },
}

/// Build a long mixed campaign (both systems: sessions, seeded dice, casting, rests, downtime,
/// scrolls) into a new campaign file through the real rules, for benchmarks and load tests.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many characters, 2 to 1,000, taking the rule systems in turn.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(2..=1_000))]
    pub characters: u64,
    /// How many events to generate, roughly (a command may record several), 1 to 10 million;
    /// setting up the characters takes a few more.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub events: u64,
    /// Seed for the generator's choices (the campaign's dice are still provably fair seeded dice).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn dev(g: &Globals, ctx: &mut Context, command: &DevCommand) -> Result<Report, Error> {
    let args = match command {
        DevCommand::Generate(args) => args,
        DevCommand::AppendLoop { count } => return append_loop(g, ctx, *count),
    };
    let mut new = Store::create_new(&g.db)?;
    let now = ctx.now.to_rfc3339_opts(SecondsFormat::Secs, true);
    let progress = super::progress::Progress::bar(g, "generating", args.events);
    let generated = crate::generate::generate_watching(
        new.store(),
        (
            usize::try_from(args.characters).unwrap_or(2),
            args.events,
            args.seed,
        ),
        &now,
        &mut |head| progress.at(head),
    )?;
    drop(progress);
    new.publish()?;
    Ok(Report::new(
        format!(
            "Generated {} events for {} characters in {}.",
            generated.events, generated.characters, g.db
        ),
        json!(generated),
    ))
}

fn append_loop(g: &Globals, ctx: &mut Context, count: u64) -> Result<Report, Error> {
    use std::io::Write;
    let mut campaign = g.campaign()?;
    let stdout = std::io::stdout();
    for _ in 0..count {
        let command = crate::rules::Command::AdvanceClock(crate::rules::campaign::ClockAdvance {
            by: crate::time::GameDuration(60),
        });
        let written = super::record_on(g, ctx, &mut campaign, command)?;
        if let Some(last) = written.events.last() {
            let mut out = stdout.lock();
            // Printed only after the commit returned: an acknowledged event is a durable one.
            let _ = writeln!(out, "acked {}", last.seq);
            let _ = out.flush();
        }
    }
    Ok(Report::silent())
}
