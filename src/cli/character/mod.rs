//! Characters: `character add|list|show`, `damage`, `heal`.

use super::output::{Report, appended};
use super::{At, Context, Globals, record};
use crate::Error;
use crate::rules::campaign::HealthChange;
use crate::rules::{Command, RuleError};
use crate::state::{CampaignState, Character};
use crate::store::Written;
use crate::systems::adg::Adg;
use crate::systems::adg::rules::Attribute;
use crate::systems::adg::state::AdgState;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::state::VsdState;
use crate::words::Words;
use clap::{Args, Subcommand};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum CharacterCommand {
    Add(Box<AddArgs>),
    List(ListArgs),
    Show(ShowArgs),
    Set(change::SetArgs),
    LevelUp(change::LevelUpArgs),
}

mod add;
mod change;
mod overview;

pub use add::AddArgs;

/// List the campaign's characters. Records nothing.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub at: At,
}

/// Show a character's sheet as computed by replaying the log. Records nothing.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The character's name (any case).
    pub name: String,
    #[command(flatten)]
    pub at: At,
}

pub fn run(g: &Globals, ctx: &mut Context, command: &CharacterCommand) -> Result<Report, Error> {
    match command {
        CharacterCommand::Add(args) => {
            let (name, sheet) = args.entered()?;
            Ok(appended(
                &record(g, ctx, Command::AddCharacter { name, sheet })?.events,
            ))
        }
        CharacterCommand::List(args) => {
            let state = args.at.state(g)?;
            let text = if state.characters.values().next().is_none() {
                "No characters yet; add one with `grimoire character add adg|vsd NAME …`.".into()
            } else {
                overview::table(&state)
            };
            let characters: Vec<serde_json::Value> =
                state.characters.values().map(character_json).collect();
            Ok(Report::new(
                text,
                json!({ "as_of_seq": state.head, "characters": characters }),
            ))
        }
        CharacterCommand::Set(args) => change::set(g, ctx, args),
        CharacterCommand::LevelUp(args) => change::level_up(g, ctx, args),
        CharacterCommand::Show(args) => {
            let state = args.at.state(g)?;
            let character =
                state
                    .character(&args.name)
                    .ok_or_else(|| RuleError::UnknownCharacter {
                        name: args.name.clone(),
                        known: state.characters.values().map(|c| c.name.clone()).collect(),
                    })?;
            let text = super::output::fit_to_terminal(sheet_text(character, &state));
            Ok(Report::new(
                text,
                json!({ "as_of_seq": state.head, "game_time": state.clock.seconds(), "game_time_text": state.clock.to_string(), "character": character_json(character) }),
            ))
        }
    }
}

/// One character at a glance, as `character list` shows them.
pub(super) fn glance(c: &Character, state: &CampaignState) -> String {
    overview::line(c, state)
}

/// A character for JSON output: as computed, with its `status` ("dead", "down") when it has one.
pub(super) fn character_json(c: &Character) -> serde_json::Value {
    let mut value = json!(c);
    if let Some(status) = c.status() {
        value["status"] = json!(status);
    }
    value
}

pub(super) fn health_text(c: &Character) -> String {
    let status = c.status().map(|s| format!(" ({s})")).unwrap_or_default();
    c.health
        .map(|h| format!("health {}/{}{status}", h.current, h.max))
        .unwrap_or_else(|| format!("no health track{status}"))
}

/// The computed A Dungeon Game sheet (ADG-C1 to ADG-R9, ADG-S9).
/// The Against the Darkmaster spells in force on a character of either system.
fn spells_on_line(c: &Character, state: &CampaignState) -> String {
    let active: Vec<String> = c
        .spells_on
        .values()
        .filter(|a| a.until.is_none_or(|u| u > state.clock))
        .map(|a| {
            let area = if a.half_area {
                ", over half its area"
            } else {
                ""
            };
            match a.until {
                Some(until) => format!("{} (from {}{area}, until {until})", a.spell, a.caster),
                None => format!("{} (from {}{area})", a.spell, a.caster),
            }
        })
        .collect();
    format!("  Spells on them: {}", list_or_none(&active))
}

fn adg_lines(c: &Character, adg: &AdgState, state: &CampaignState) -> Vec<String> {
    let mut lines = vec![format!(
        "  Level {}{}",
        adg.level,
        if adg.dead { ", DEAD" } else { "" }
    )];
    let attribute = |a: Attribute| {
        let (max, exerted) = (adg.max.get(a), adg.exerted.get(a));
        if exerted == 0 {
            format!("{a} {max}")
        } else {
            format!("{a} {} (max {max}, {exerted} exerted)", adg.current(a))
        }
    };
    lines.push(format!(
        "  {}   {}   {}",
        attribute(Attribute::Agility),
        attribute(Attribute::Brawn),
        attribute(Attribute::Cunning)
    ));
    lines.push(format!("  {}", capitalized(&health_text(c))));
    lines.push(format!("  Silver {}", adg.silver));
    let safe = adg.safe_rituals_per_day();
    let next = match adg.next_ritual_cost() {
        0 => "the next is safe".to_string(),
        cost => format!("the next costs {cost} Cunning first"),
    };
    lines.push(format!(
        "  Rituals since last rest: {} (safe per day: {safe}); {next}",
        adg.rituals_today
    ));
    if adg.locked_out {
        lines.push("  LOCKED OUT of rituals until a night's rest".into());
    }
    let known: Vec<String> = adg
        .known
        .values()
        .map(|k| {
            let kind = k.kind.word();
            let words = if k.words.join(" ") == k.name {
                String::new()
            } else {
                format!(", words {}", k.words.join(" "))
            };
            let reversible = if k.reversible { "" } else { ", not reversible" };
            format!("{} ({kind}{words}{reversible})", k.name)
        })
        .collect();
    lines.push(format!("  Rituals known: {}", list_or_none(&known)));
    let discovered: Vec<String> = adg
        .discovered
        .values()
        .map(|(name, _)| name.clone())
        .collect();
    if !discovered.is_empty() {
        lines.push(format!(
            "  Discovered, not learned: {}",
            discovered.join(", ")
        ));
    }
    let lost: Vec<String> = adg.lost.values().cloned().collect();
    lines.push(format!("  Lost forever: {}", list_or_none(&lost)));
    let scrolls: Vec<String> = state
        .systems
        .adg
        .scrolls
        .values()
        .filter(|s| crate::rules::campaign::same_character(&s.holder, &c.name))
        .map(|s| format!("S{} {} SL {} read {}x", s.id, s.ritual, s.level, s.reads).to_string())
        .collect();
    lines.push(format!("  Scrolls held: {}", list_or_none(&scrolls)));
    let active: Vec<String> = adg
        .effects
        .iter()
        .filter(|e| e.until > state.clock)
        .map(|e| format!("{} until {}", e.ritual, e.until))
        .collect();
    lines.push(format!("  Active effects: {}", list_or_none(&active)));
    if !c.spells_on.is_empty() {
        lines.push(spells_on_line(c, state));
    }
    if let Some(pending) = &adg.pending_roll {
        lines.push(format!(
            "  Pending: {} from scroll S{}; roll it with `grimoire scroll resolve {}`",
            crate::systems::adg::render::pending_words(&pending.outcome),
            pending.scroll,
            c.name
        ));
    }
    lines
}

/// The computed Against the Darkmaster sheet (VSD-2 to VSD-13).
fn vsd_lines(c: &Character, vsd: &VsdState, state: &CampaignState) -> Vec<String> {
    let mut lines = vec![format!(
        "  Level {} {}{}",
        vsd.level,
        vsd.vocation,
        if vsd.consumed { ", CONSUMED" } else { "" }
    )];
    let soul = if vsd.soul_damage > 0 {
        format!(" (after {} soul damage)", vsd.soul_damage)
    } else {
        String::new()
    };
    lines.push(format!(
        "  MP {}/{}   Drive {}   Body {:+}{soul}   WSR {:+}   Defense {:+}",
        vsd.mp_current(),
        vsd.mp_max,
        vsd.drive,
        vsd.body,
        vsd.wsr,
        vsd.defense
    ));
    for lore in &vsd.lores {
        lines.push(format!(
            "  Spell Lore {}: {:+} ({} ranks)",
            lore.name, lore.bonus, lore.ranks
        ));
    }
    lines.push(format!("  {}", capitalized(&health_text(c))));
    let spells: Vec<String> = vsd
        .spells
        .values()
        .map(|s| {
            let mut traits = vec![
                s.lore.clone(),
                format!("Weave {}", s.weave),
                s.kind.word().to_string(),
            ];
            traits.extend(s.tags.iter().map(|t| t.word().to_string()));
            if let Some(a) = s.attack {
                traits.push(a.word().to_string());
            }
            if s.instantaneous {
                traits.push("instantaneous".into());
            }
            if s.save {
                traits.push("save".into());
            }
            format!("{} ({})", s.name, traits.join(", "))
        })
        .collect();
    lines.push(format!("  Spells known: {}", list_or_none(&spells)));
    if let Some(conc) = &vsd.concentration {
        let rounds = conc.last_round - conc.first_round + 1;
        lines.push(format!(
            "  Concentrating on {}: {rounds} round(s), +{} if cast next round",
            conc.spell,
            10 * rounds.min(4)
        ));
    }
    let conditions: Vec<String> = vsd
        .conditions
        .iter()
        .filter(|c| c.until.is_none_or(|u| u > state.clock))
        .map(|c| match c.until {
            Some(until) => format!("{} until {until}", c.condition.name()),
            None => format!("{} until cleared", c.condition.name()),
        })
        .collect();
    lines.push(format!("  Conditions: {}", list_or_none(&conditions)));
    lines.push(spells_on_line(c, state));
    if let Some(until) = vsd.awareness_until.filter(|u| *u > state.clock) {
        lines.push(format!("  The Darkmaster is aware of them until {until}: a spell before then brings a resonance roll"));
    }
    if let Some(d) = &vsd.delayed {
        lines.push(format!(
            "  {} (failed at #{}) fires at the end of round {} if {} concentrates on it until then",
            d.spell, d.cast_seq, d.fires_at_round, c.name
        ));
    }
    for p in &vsd.pending {
        let options: Vec<String> = p
            .options
            .iter()
            .filter_map(|o| clap::ValueEnum::to_possible_value(o).map(|v| v.get_name().to_string()))
            .collect();
        lines.push(format!(
            "  PENDING {} (from #{}): the {} picks {} of {} — `grimoire choose {} OPTION`",
            p.about,
            p.cast_seq,
            p.by,
            p.pick,
            options.join(", "),
            c.name
        ));
    }
    lines
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join("; ")
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn sheet_text(c: &Character, state: &CampaignState) -> String {
    let mut lines = vec![format!(
        "{} ({}), as of #{} at {}",
        c.name,
        c.sheet.system(),
        state.head,
        state.clock_text()
    )];
    if let Some(adg) = c.state::<Adg>() {
        lines.extend(adg_lines(c, adg, state));
    } else if let Some(vsd) = c.state::<Vsd>() {
        lines.extend(vsd_lines(c, vsd, state));
    } else {
        // A system whose sheet lines the command line does not have yet: its health at least.
        lines.push(format!("  {}", capitalized(&health_text(c))));
    }
    lines.join("\n")
}

pub fn damage(g: &Globals, ctx: &mut Context, change: &HealthChange) -> Result<Report, Error> {
    let written = record(g, ctx, Command::Damage(change.clone()))?;
    Ok(with_health_after(written, &change.character))
}

pub fn heal(g: &Globals, ctx: &mut Context, change: &HealthChange) -> Result<Report, Error> {
    let written = record(g, ctx, Command::Heal(change.clone()))?;
    Ok(with_health_after(written, &change.character))
}

/// What was recorded, and where the character's health stands now.
fn with_health_after(written: Written, name: &str) -> Report {
    let mut report = appended(&written.events);
    if let Some(c) = written.state.character(name)
        && let Some(health) = c.health
    {
        let status = c.status().map(|s| format!(" ({s})")).unwrap_or_default();
        report.text.push_str(&format!(
            "\nHealth now {}/{}{status}.",
            health.current, health.max
        ));
        report.json["health"] = json!(health);
        if let Some(status) = c.status() {
            report.json["status"] = json!(status);
        }
    }
    report
}
