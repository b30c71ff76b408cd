//! Characters: `character add|list|show`, `damage`, `heal`.

use super::output::{Report, appended};
use super::{At, Context, Globals, record};
use crate::Error;
use crate::read::sheet::character_json;
use crate::rules::campaign::HealthChange;
use crate::rules::{Command, RuleError};
use crate::state::{CampaignState, Character};
use crate::store::Written;
use crate::systems::registry::SystemId;
use clap::{Args, Subcommand};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum CharacterCommand {
    Add(Box<AddArgs>),
    List(ListArgs),
    Show(ShowArgs),
    /// Correct a character's sheet as entered (the GM's call). Each value given replaces the
    /// entered one, and the computed value moves by as much: a point exerted or lost to learning
    /// stays so, health keeps its wounds and the purse what was spent, all kept as amounts, so a
    /// correction set back restores the sheet exactly. An entered value must stay in its range,
    /// but what play has taken counts against it: a correction that leaves a computed maximum at 0
    /// (Cunning lost to learning, say) kills, and one that leaves Body at 0 or below consumes,
    /// recorded with the correction. Records the correction with its reason; rolls no dice.
    Set(change::SetArgs),
    /// A level gained: the sheet's level goes up by one, with the health (and, in Against the
    /// Darkmaster, the MPs) the level brings added to maximum and current alike. Records it;
    /// rolls no dice.
    LevelUp(change::LevelUpArgs),
}

mod add;
mod change;
mod overview;

pub use add::{AddArgs, described as described_add};

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
            Ok(appended(&record(
                g,
                ctx,
                Command::AddCharacter { name, sheet },
            )?))
        }
        CharacterCommand::List(args) => {
            let state = args.at.state(g)?;
            let text = if state.characters.values().next().is_none() {
                format!(
                    "No characters yet; add one with `grimoire character add {} NAME …`.",
                    system_keys()
                )
            } else {
                overview::table(&state)
            };
            let characters: Vec<serde_json::Value> = state
                .characters
                .values()
                .map(|c| character_json(c, &state))
                .collect();
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
                json!({ "as_of_seq": state.head, "game_time": state.clock.seconds(), "game_time_text": state.clock_text(), "character": character_json(character, &state) }),
            ))
        }
    }
}

/// Every rule system's word on the command line, as a usage line offers them (`adg|vsd`).
fn system_keys() -> String {
    let keys: Vec<&str> = SystemId::ALL.iter().map(|system| system.key()).collect();
    keys.join("|")
}

fn sheet_text(c: &Character, state: &CampaignState) -> String {
    let mut lines = vec![format!(
        "{} ({}), as of #{} at {}",
        c.name,
        c.sheet.system(),
        state.head,
        state.clock_text()
    )];
    lines.extend(crate::render::sheet_lines(c, state));
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
    let mut report = appended(&written);
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
