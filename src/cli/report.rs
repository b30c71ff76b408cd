//! `grimoire report`: the campaign as one HTML page (see [`crate::report`]).

use super::output::{Report, count};
use super::progress::Progress;
use super::{Context, Globals};
use crate::Error;
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::store::Point;
use crate::store::io_error;
use crate::store::output::{OutputFile, OutputKind, OutputRequest};
use chrono::SecondsFormat;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// Write the campaign as one HTML page to open in any browser. Records nothing.
///
/// The page holds everything it shows (no network, no fonts or scripts fetched): for each
/// character, charts over in-game time of health, each attribute (current and maximum) or magic
/// points, and rituals cast per day against the safe number; the sessions with what mattered in
/// each; the scrolls held; the dice audit's counts against a fair die's; and the chain's head and
/// session checkpoints, so a player can check their copy. It reads only the public log: nothing
/// sealed is in it. Charts are downsampled, so a long campaign's page stays light.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Where to write the page, e.g. campaign.html. An earlier report there is replaced; any other
    /// file is refused unless --force is given.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The campaign as it stood at a point: an event number, session:N, session-start:N, day:D or
    /// now (the default).
    #[arg(long, value_name = "POINT")]
    pub at: Option<Point>,
    /// Replace --out even when it is not an earlier grimoire report. A campaign file, a folder or a
    /// device is refused all the same.
    #[arg(long)]
    pub force: bool,
}

pub fn report(g: &Globals, ctx: &Context, args: &ReportArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let upto = args.at.map(|p| store.resolve_state(p)).transpose()?;
    let head = match upto {
        Some(seq) => seq,
        None => store.head()?.map_or(Seq::START, |h| h.seq),
    };
    if head == 0 {
        return Err(RuleError::NoCampaign.into());
    }
    // Checked before the log is read: a refused target costs nothing.
    let mut output = OutputFile::create(&OutputRequest {
        target: &args.out,
        campaign: g.db.file(),
        kind: OutputKind::Report,
        secret: false,
        force: args.force,
    })?;
    let progress = Progress::bar(g, "reading the log", head.get());
    let gathered = crate::report::gather(&mut store, upto, &mut |seq| progress.at(seq.get()))?;
    drop(progress);
    let page = crate::report::html(
        &gathered,
        &ctx.now.to_rfc3339_opts(SecondsFormat::Secs, true),
    );
    output
        .file()
        .write_all(page.as_bytes())
        .map_err(|e| io_error(&args.out, "written", &e))?;
    output.commit()?;
    let name = gathered
        .state
        .campaign
        .as_ref()
        .map_or(String::new(), |c| c.name.clone());
    let characters = gathered.characters.len() as u64;
    // Each chart is drawn twice (wide and narrow): counted once.
    let charts = page.matches(r#"<svg class="chart wide""#).count() as u64;
    let sessions = gathered.sessions.len() as u64;
    Ok(Report::new(
        format!(
            "Wrote the report of \"{name}\" as of #{head} ({}, {}, {}) to {}.",
            count(characters, "character", "characters"),
            count(sessions, "session", "sessions"),
            count(charts, "chart", "charts"),
            args.out.display()
        ),
        json!({
            "out": args.out,
            "as_of": head,
            "characters": characters,
            "sessions": sessions,
            "charts": charts,
            "bytes": page.len(),
        }),
    ))
}
