//! `character set` and `character level-up`: the sheet as entered, changed by an event.

use super::super::output::{Report, appended};
use super::super::{Context, Globals, record};
use crate::Error;
use crate::rules::Command;
use crate::rules::campaign::find;
use crate::sheet::Sheet;
use crate::systems::vsd::sheet::Lore;
use clap::Args;

/// Correct a character's sheet as entered (the GM's call). Each value given replaces the entered
/// one, and the computed value moves by as much: a point exerted or lost to learning stays so,
/// health keeps its wounds and the purse what was spent, all kept as amounts, so a correction set
/// back restores the sheet exactly. An entered value must stay in its range, but what play has
/// taken counts against it: a correction that leaves a computed maximum at 0 (Cunning lost to
/// learning, say) kills, and one that leaves Body at 0 or below consumes, recorded with the
/// correction. Records the correction with its reason; rolls no dice.
#[derive(Debug, Args)]
pub struct SetArgs {
    /// The character's name (any case).
    pub name: String,
    /// Why, in a few words; kept in the log.
    #[arg(long)]
    pub reason: String,
    /// Level.
    #[arg(long)]
    pub level: Option<u32>,
    /// Maximum health (either system).
    #[arg(long)]
    pub health: Option<u32>,
    /// A Dungeon Game: Agility.
    #[arg(long)]
    pub agility: Option<u32>,
    /// A Dungeon Game: Brawn.
    #[arg(long)]
    pub brawn: Option<u32>,
    /// A Dungeon Game: Cunning.
    #[arg(long)]
    pub cunning: Option<u32>,
    /// A Dungeon Game: silver as entered (for loot and purchases, use `silver`).
    #[arg(long)]
    pub silver: Option<u64>,
    /// Against the Darkmaster: the vocation.
    #[arg(long)]
    pub vocation: Option<String>,
    /// Against the Darkmaster: maximum MPs.
    #[arg(long)]
    pub mp: Option<u32>,
    /// Against the Darkmaster: Drive.
    #[arg(long)]
    pub drive: Option<u32>,
    /// Against the Darkmaster: Body.
    #[arg(long, allow_negative_numbers = true)]
    pub body: Option<i32>,
    /// Against the Darkmaster: the Willpower save bonus.
    #[arg(long, allow_negative_numbers = true)]
    pub wsr: Option<i32>,
    /// Against the Darkmaster: Defense.
    #[arg(long, allow_negative_numbers = true)]
    pub defense: Option<i32>,
    /// Against the Darkmaster: a Spell Lore, new or changed, as NAME=BONUS:RANKS (repeatable).
    #[arg(long, value_parser = Lore::parse, value_name = "NAME=BONUS:RANKS")]
    pub lore: Vec<Lore>,
}

/// A level gained: the sheet's level goes up by one, with the health (and, in Against the
/// Darkmaster, the MPs) the level brings added to maximum and current alike. Records it; rolls no
/// dice.
#[derive(Debug, Args)]
pub struct LevelUpArgs {
    /// The character's name (any case).
    pub name: String,
    /// Health the level brings.
    #[arg(long, default_value_t = 0)]
    pub health: u32,
    /// Against the Darkmaster: MPs the level brings.
    #[arg(long, default_value_t = 0)]
    pub mp: u32,
    /// Why, in a few words; kept in the log.
    #[arg(long, default_value = "a level gained")]
    pub reason: String,
}

/// The character's sheet as it stands now, and their name as the campaign spells it.
fn current_sheet(g: &Globals, name: &str) -> Result<(String, Sheet), Error> {
    let state = g.open()?.replay(None)?;
    let who = find(&state, name)?;
    Ok((who.name.clone(), who.sheet.clone()))
}

/// Refuses a value the character's game does not have.
/// The command line knows the sheet flags of A Dungeon Game and Against the Darkmaster only.
fn cannot_change(who: &str, plays: &str) -> Error {
    Error::Usage(format!(
        "{who} plays {plays}, whose sheet the command line cannot change"
    ))
}

fn only_for(given: bool, flag: &str, who: &str, plays: &str) -> Result<(), Error> {
    if given {
        return Err(Error::Usage(format!(
            "{flag} is not on {who}'s sheet, who plays {plays}"
        )));
    }
    Ok(())
}

pub fn set(g: &Globals, ctx: &mut Context, a: &SetArgs) -> Result<Report, Error> {
    let (who, mut sheet) = current_sheet(g, &a.name)?;
    let plays = sheet.system().to_string();
    if let Sheet::Adg(s) = &mut sheet {
        for (given, flag) in [
            (a.vocation.is_some(), "--vocation"),
            (a.mp.is_some(), "--mp"),
            (a.drive.is_some(), "--drive"),
            (a.body.is_some(), "--body"),
            (a.wsr.is_some(), "--wsr"),
            (a.defense.is_some(), "--defense"),
            (!a.lore.is_empty(), "--lore"),
        ] {
            only_for(given, flag, &who, &plays)?;
        }
        s.level = a.level.unwrap_or(s.level);
        s.health = a.health.unwrap_or(s.health);
        s.agility = a.agility.unwrap_or(s.agility);
        s.brawn = a.brawn.unwrap_or(s.brawn);
        s.cunning = a.cunning.unwrap_or(s.cunning);
        s.silver = a.silver.unwrap_or(s.silver);
    } else if let Sheet::Vsd(s) = &mut sheet {
        for (given, flag) in [
            (a.agility.is_some(), "--agility"),
            (a.brawn.is_some(), "--brawn"),
            (a.cunning.is_some(), "--cunning"),
            (a.silver.is_some(), "--silver"),
        ] {
            only_for(given, flag, &who, &plays)?;
        }
        s.level = a.level.unwrap_or(s.level);
        s.health = a.health.or(s.health);
        s.vocation = a.vocation.clone().unwrap_or_else(|| s.vocation.clone());
        s.mp = a.mp.unwrap_or(s.mp);
        s.drive = a.drive.unwrap_or(s.drive);
        s.body = a.body.unwrap_or(s.body);
        s.wsr = a.wsr.unwrap_or(s.wsr);
        s.defense = a.defense.unwrap_or(s.defense);
        for lore in &a.lore {
            match s
                .lores
                .iter_mut()
                .find(|l| l.name.eq_ignore_ascii_case(&lore.name))
            {
                Some(known) => *known = lore.clone(),
                None => s.lores.push(lore.clone()),
            }
        }
    } else {
        return Err(cannot_change(&who, &plays));
    }
    change(g, ctx, who, sheet, a.reason.clone(), true)
}

pub fn level_up(g: &Globals, ctx: &mut Context, a: &LevelUpArgs) -> Result<Report, Error> {
    let (who, mut sheet) = current_sheet(g, &a.name)?;
    let plays = sheet.system().to_string();
    if let Sheet::Adg(s) = &mut sheet {
        only_for(a.mp > 0, "--mp", &who, &plays)?;
        s.level += 1;
        s.health = s.health.saturating_add(a.health);
    } else if let Sheet::Vsd(s) = &mut sheet {
        s.level += 1;
        s.mp = s.mp.saturating_add(a.mp);
        s.health = match (s.health, a.health) {
            (Some(max), gain) => Some(max.saturating_add(gain)),
            (None, 0) => None,
            (None, gain) => Some(gain),
        };
    } else {
        return Err(cannot_change(&who, &plays));
    }
    change(g, ctx, who, sheet, a.reason.clone(), false)
}

fn change(
    g: &Globals,
    ctx: &mut Context,
    character: String,
    sheet: Sheet,
    reason: String,
    correction: bool,
) -> Result<Report, Error> {
    let command = Command::ChangeSheet {
        character,
        sheet,
        reason,
        correction,
    };
    Ok(appended(&record(g, ctx, command)?.events))
}
