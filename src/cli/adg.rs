//! A Dungeon Game commands: `ritual`, `exert`, `rest`, `downtime`, `scroll`, `tables`.

use super::output::{Report, appended};
use super::{At, Context, Globals, record};
use crate::Error;
use crate::rules::{Command, Who};
use crate::systems::adg::Adg;
use crate::systems::adg::rules::{
    AdgCommand, AdgError, AdgTables, Casting, Exertion, Learning, Scribing, ScrollGift,
    ScrollLearning, ScrollReading, SilverChange,
};
use crate::systems::registry::AnyCommand;
use clap::Subcommand;
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum RitualCommand {
    /// Discover a new ritual: draws two d20s, one on each word list, and records the ritual found
    /// (not yet learned).
    Roll(Who),
    Learn(Learning),
    Cast(Casting),
}

#[derive(Debug, Subcommand)]
pub enum ScrollCommand {
    Write(Scribing),
    Read(ScrollReading),
    Learn(ScrollLearning),
    /// Hand a scroll to another character. Rolls no dice.
    Give(ScrollGift),
    /// List scrolls, or those one character holds. Records nothing.
    List {
        /// The character's name (any case).
        name: Option<String>,
        #[command(flatten)]
        at: At,
    },
    /// Roll what reading a Ceremony scroll left pending: its mishap if the GM's sealed check failed,
    /// or its damage or healing if the check passed.
    ///
    /// Those dice depend on the sealed check, so the reading records the check first and leaves them
    /// on the reader, who does nothing else until they are rolled. Dice, in order: the mishap's 2d6
    /// and its entry's dice, or SL d6 of damage or healing.
    Resolve(Who),
}

#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// Show the A Dungeon Game tables in force. Records nothing.
    Show,
    /// Load tables from a JSON file (format in README.md); recorded whole in the log, so later edits
    /// to the file change nothing. Rolls no dice.
    Load {
        /// The JSON file to load.
        file: PathBuf,
    },
}

fn adg(g: &Globals, ctx: &mut Context, command: AdgCommand) -> Result<Report, Error> {
    Ok(appended(
        &record(g, ctx, Command::System(AnyCommand::Adg(Box::new(command))))?.events,
    ))
}

pub fn ritual(g: &Globals, ctx: &mut Context, command: &RitualCommand) -> Result<Report, Error> {
    adg(
        g,
        ctx,
        match command {
            RitualCommand::Roll(who) => AdgCommand::RollRitual(who.clone()),
            RitualCommand::Learn(learning) => AdgCommand::Learn(learning.clone()),
            RitualCommand::Cast(casting) => AdgCommand::Cast(casting.clone()),
        },
    )
}

pub fn exert(g: &Globals, ctx: &mut Context, exertion: &Exertion) -> Result<Report, Error> {
    adg(g, ctx, AdgCommand::Exert(exertion.clone()))
}

pub fn silver(g: &Globals, ctx: &mut Context, change: &SilverChange) -> Result<Report, Error> {
    let command = Command::System(AnyCommand::Adg(Box::new(AdgCommand::Silver(
        change.clone(),
    ))));
    let written = record(g, ctx, command)?;
    let mut report = appended(&written.events);
    if let Some(adg) = written
        .state
        .character(&change.character)
        .and_then(|c| c.state::<Adg>())
    {
        report
            .text
            .push_str(&format!("\nSilver now {}.", adg.silver));
        report.json["silver"] = json!(adg.silver);
    }
    Ok(report)
}

pub fn scroll(g: &Globals, ctx: &mut Context, command: &ScrollCommand) -> Result<Report, Error> {
    match command {
        ScrollCommand::Write(scribing) => {
            let command = AdgCommand::WriteScroll(scribing.clone());
            let events =
                record(g, ctx, Command::System(AnyCommand::Adg(Box::new(command))))?.events;
            let mut report = appended(&events);
            if let Some(first) = events.first() {
                report
                    .text
                    .push_str(&format!("\nThe scroll is S{}.", first.seq));
                report.json["scroll"] = json!(first.seq);
            }
            Ok(report)
        }
        // A Ceremony scroll's sealed check is looked up inside the write (Campaign::execute).
        ScrollCommand::Read(reading) => adg(g, ctx, AdgCommand::ReadScroll(reading.clone())),
        ScrollCommand::Learn(learning) => adg(g, ctx, AdgCommand::LearnScroll(learning.clone())),
        ScrollCommand::Give(gift) => adg(g, ctx, AdgCommand::GiveScroll(gift.clone())),
        ScrollCommand::Resolve(who) => adg(g, ctx, AdgCommand::ResolvePending(who.clone())),
        ScrollCommand::List { name, at } => {
            let state = at.state(g)?;
            if let Some(n) = name {
                crate::rules::campaign::find(&state, n)?;
            }
            let scrolls: Vec<_> = state
                .systems
                .adg
                .scrolls
                .values()
                .filter(|s| {
                    name.as_deref()
                        .is_none_or(|n| crate::rules::campaign::same_character(&s.holder, n))
                })
                .collect();
            let mut lines = vec![if scrolls.is_empty() {
                "No usable scrolls.".to_string()
            } else {
                super::output::table(
                    &["Scroll", "Ritual", "Level", "Read", "Held by", "Effect"],
                    scrolls
                        .iter()
                        .map(|s| {
                            vec![
                                format!("S{}", s.id),
                                s.ritual.clone(),
                                s.level.to_string(),
                                super::output::count(s.reads.into(), "time", "times"),
                                s.holder.clone(),
                                s.effect.clone(),
                            ]
                        })
                        .collect(),
                )
            }];
            // Spent scrolls belong to no one any more; they are listed with the whole campaign's.
            let spent: Vec<serde_json::Value> = if name.is_none() {
                state
                    .systems
                    .adg
                    .spent_scrolls
                    .all()
                    .into_iter()
                    .map(|(id, fate)| json!({ "id": id, "state": fate }))
                    .collect()
            } else {
                Vec::new()
            };
            if !spent.is_empty() {
                let shown: Vec<String> = state
                    .systems
                    .adg
                    .spent_scrolls
                    .all()
                    .iter()
                    .map(|(id, fate)| format!("S{id} {}", crate::words::Words::word(*fate)))
                    .collect();
                lines.push(format!("Spent: {}", shown.join(", ")));
            }
            Ok(Report::new(
                lines.join("\n"),
                json!({ "scrolls": scrolls, "spent": spent }),
            ))
        }
    }
}

pub fn tables(g: &Globals, ctx: &mut Context, command: &TablesCommand) -> Result<Report, Error> {
    match command {
        TablesCommand::Load { file } => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| crate::store::io_error(file, "read", &e))?;
            let tables = AdgTables::parse(&text)
                .map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
            let source = file.display().to_string();
            adg(
                g,
                ctx,
                AdgCommand::LoadTables {
                    source,
                    tables: Box::new(tables),
                },
            )
        }
        TablesCommand::Show => {
            let state = g.open()?.replay(None)?;
            let tables = state
                .systems
                .adg
                .adg_tables
                .ok_or(crate::rules::RuleError::from(AdgError::NoAdgTables))?;
            let mut lines = vec![format!("{} (sha256 {})", tables.name, tables.sha256())];
            if tables.sample {
                lines.push(
                    "These are sample tables made for grimoire, not the official ones.".into(),
                );
            }
            for (i, list) in tables.word_lists.iter().enumerate() {
                let words: Vec<String> = list
                    .iter()
                    .enumerate()
                    .map(|(n, w)| {
                        format!(
                            "{}. {}{}",
                            n + 1,
                            w.word,
                            w.reverse
                                .as_ref()
                                .map(|r| format!("/{r}"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                lines.push(format!("Word list {}: {}", i + 1, words.join(", ")));
            }
            let entries =
                |name: &str, entries: &[crate::systems::adg::rules::tables::TableEntry]| {
                    let mut out = vec![format!("{name}:")];
                    for e in entries {
                        let range = e
                            .max
                            .map(|m| format!("{}-{m}", e.min))
                            .unwrap_or_else(|| format!("{}+", e.min));
                        out.push(format!("  {range:<6} {}", e.text));
                    }
                    out
                };
            lines.extend(entries("Mishaps (2d6 + difference)", &tables.mishaps));
            lines.extend(entries(
                "Damaged scrolls (d20 + SL)",
                &tables.damaged_scrolls,
            ));
            lines.push("Scroll costs in silver (SL: phrase / sigil / ceremony):".into());
            for c in &tables.scroll_costs {
                lines.push(format!(
                    "  SL {:<2} {} / {} / {}",
                    c.level, c.phrase, c.sigil, c.ceremony
                ));
            }
            let recovery: Vec<String> = tables
                .recovery
                .iter()
                .map(|r| format!("L{}-{} {}", r.min_level, r.max_level, r.die))
                .collect();
            lines.push(format!("Recovery dice: {}", recovery.join(", ")));
            lines.push(format!(
                "Settings: a night's rest heals: {}; downtime restores exertion: {}",
                tables.settings.night_rest_heals, tables.settings.downtime_restores_exertion
            ));
            Ok(Report::new(
                lines.join("\n"),
                json!({ "tables": tables, "sha256": tables.sha256() }),
            ))
        }
    }
}
