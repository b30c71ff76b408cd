//! `character add`: the rule system first, then only its sheet's flags; the older
//! `NAME --system adg|vsd` form still taken.

use crate::Error;
use crate::sheet::Sheet;
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::vsd::sheet::{Lore, VsdSheet};
use clap::{Args, Subcommand, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SystemArg {
    /// A Dungeon Game: rituals and scrolls.
    Adg,
    /// Against the Darkmaster: spell casting.
    Vsd,
}

/// Add a character to the campaign. Records the sheet as entered; rolls no dice.
///
/// The rule system comes first, and with it the sheet it takes:
///
///   grimoire character add adg Aldric --level 2 --agility 11 --brawn 9 --cunning 13 --health 8
///   grimoire character add vsd Mira --level 3 --vocation wizard --lore Elementalism=45:6 \
///       --mp 12 --drive 3 --body 40 --wsr 20 --defense 10
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    verbatim_doc_comment,
    override_usage = "grimoire character add <adg|vsd> <NAME> [SHEET FLAGS]"
)]
pub struct AddArgs {
    #[command(subcommand)]
    pub system: Option<AddSystem>,
    /// The form before the system became a subcommand (`NAME --system adg|vsd` and every sheet
    /// flag), kept so scripts keep working.
    #[command(flatten)]
    pub old_form: OldAddArgs,
}

#[derive(Debug, Subcommand)]
pub enum AddSystem {
    /// Add an A Dungeon Game character (rituals and scrolls). Records the sheet; rolls no dice.
    Adg(AdgAddArgs),
    /// Add an Against the Darkmaster character (spell casting). Records the sheet; rolls no dice.
    Vsd(VsdAddArgs),
}

#[derive(Debug, Args)]
pub struct AdgAddArgs {
    /// The character's name; unique in the campaign, ignoring case.
    pub name: String,
    /// Adventurer Level, 1 to 10.
    #[arg(long)]
    pub level: u32,
    /// Agility.
    #[arg(long)]
    pub agility: u32,
    /// Brawn.
    #[arg(long)]
    pub brawn: u32,
    /// Cunning.
    #[arg(long)]
    pub cunning: u32,
    /// Maximum health.
    #[arg(long)]
    pub health: u32,
    /// Silver on hand.
    #[arg(long, default_value_t = 0)]
    pub silver: u64,
}

#[derive(Debug, Args)]
pub struct VsdAddArgs {
    /// The character's name; unique in the campaign, ignoring case.
    pub name: String,
    /// Level.
    #[arg(long)]
    pub level: u32,
    /// Vocation, e.g. wizard, animist, warrior.
    #[arg(long)]
    pub vocation: String,
    /// A Spell Lore as NAME=BONUS:RANKS, e.g. Elementalism=45:6. Repeat for each lore.
    #[arg(long, value_parser = Lore::parse, value_name = "NAME=BONUS:RANKS")]
    pub lore: Vec<Lore>,
    /// Maximum magic points.
    #[arg(long)]
    pub mp: u32,
    /// Drive points.
    #[arg(long)]
    pub drive: u32,
    /// Body skill bonus.
    #[arg(long, allow_negative_numbers = true)]
    pub body: i32,
    /// Willpower save (WSR) bonus.
    #[arg(long, allow_negative_numbers = true)]
    pub wsr: i32,
    /// Defense.
    #[arg(long, allow_negative_numbers = true)]
    pub defense: i32,
    /// Maximum health, if the table tracks it.
    #[arg(long)]
    pub health: Option<u32>,
}

impl AdgAddArgs {
    fn sheet(&self) -> Sheet {
        Sheet::Adg(AdgSheet {
            level: self.level,
            agility: self.agility,
            brawn: self.brawn,
            cunning: self.cunning,
            health: self.health,
            silver: self.silver,
        })
    }
}

impl VsdAddArgs {
    fn sheet(&self) -> Sheet {
        Sheet::Vsd(VsdSheet {
            level: self.level,
            vocation: self.vocation.trim().to_lowercase(),
            lores: self.lore.clone(),
            mp: self.mp,
            drive: self.drive,
            body: self.body,
            wsr: self.wsr,
            defense: self.defense,
            health: self.health,
        })
    }
}

impl AddArgs {
    /// The name and sheet, from either form.
    pub(super) fn entered(&self) -> Result<(String, Sheet), Error> {
        match &self.system {
            Some(AddSystem::Adg(args)) => Ok((args.name.clone(), args.sheet())),
            Some(AddSystem::Vsd(args)) => Ok((args.name.clone(), args.sheet())),
            None => Ok((
                self.old_form.name.clone().unwrap_or_default(),
                self.old_form.sheet()?,
            )),
        }
    }
}

/// `character add NAME --system adg|vsd …`: hidden from help, and still taken.
#[derive(Debug, Args)]
pub struct OldAddArgs {
    /// The character's name.
    #[arg(hide = true, required = true)]
    pub name: Option<String>,
    /// The rule system the character plays.
    #[arg(long, value_enum, hide = true, required = true)]
    pub system: Option<SystemArg>,
    /// Adventurer Level (ADG, 1-10) or Level (VsD).
    #[arg(long, hide = true)]
    pub level: Option<u32>,
    /// ADG: Agility.
    #[arg(long, hide = true)]
    pub agility: Option<u32>,
    /// ADG: Brawn.
    #[arg(long, hide = true)]
    pub brawn: Option<u32>,
    /// ADG: Cunning.
    #[arg(long, hide = true)]
    pub cunning: Option<u32>,
    /// Maximum health (required for ADG, optional for VsD).
    #[arg(long, hide = true)]
    pub health: Option<u32>,
    /// ADG: silver on hand (default 0).
    #[arg(long, hide = true)]
    pub silver: Option<u64>,
    /// VsD: vocation.
    #[arg(long, hide = true)]
    pub vocation: Option<String>,
    /// VsD: a Spell Lore as NAME=BONUS:RANKS.
    #[arg(long, hide = true, value_parser = Lore::parse, value_name = "NAME=BONUS:RANKS")]
    pub lore: Vec<Lore>,
    /// VsD: maximum magic points.
    #[arg(long, hide = true)]
    pub mp: Option<u32>,
    /// VsD: Drive points.
    #[arg(long, hide = true)]
    pub drive: Option<u32>,
    /// VsD: Body skill bonus.
    #[arg(long, hide = true, allow_negative_numbers = true)]
    pub body: Option<i32>,
    /// VsD: Willpower save (WSR) bonus.
    #[arg(long, hide = true, allow_negative_numbers = true)]
    pub wsr: Option<i32>,
    /// VsD: Defense.
    #[arg(long, hide = true, allow_negative_numbers = true)]
    pub defense: Option<i32>,
}

const ADG_FLAGS: &str =
    "an ADG sheet takes --level --agility --brawn --cunning --health [--silver]";
const VSD_FLAGS: &str = "a VsD sheet takes --level --vocation --mp --drive --body --wsr --defense [--lore NAME=BONUS:RANKS …] [--health]";

impl OldAddArgs {
    fn sheet(&self) -> Result<Sheet, Error> {
        let wrong = |flag: &str, present: bool, system: &str, takes: &str| -> Result<(), Error> {
            if present {
                return Err(Error::Usage(format!(
                    "{flag} is not part of {system} sheet; {takes}"
                )));
            }
            Ok(())
        };
        fn need<T: Clone>(value: &Option<T>, flag: &str, takes: &str) -> Result<T, Error> {
            value
                .clone()
                .ok_or_else(|| Error::Usage(format!("{flag} is missing; {takes}")))
        }
        match self.system.unwrap_or(SystemArg::Adg) {
            SystemArg::Adg => {
                for (flag, present) in [
                    ("--vocation", self.vocation.is_some()),
                    ("--lore", !self.lore.is_empty()),
                    ("--mp", self.mp.is_some()),
                    ("--drive", self.drive.is_some()),
                    ("--body", self.body.is_some()),
                    ("--wsr", self.wsr.is_some()),
                    ("--defense", self.defense.is_some()),
                ] {
                    wrong(flag, present, "an ADG", ADG_FLAGS)?;
                }
                Ok(Sheet::Adg(AdgSheet {
                    level: need(&self.level, "--level", ADG_FLAGS)?,
                    agility: need(&self.agility, "--agility", ADG_FLAGS)?,
                    brawn: need(&self.brawn, "--brawn", ADG_FLAGS)?,
                    cunning: need(&self.cunning, "--cunning", ADG_FLAGS)?,
                    health: need(&self.health, "--health", ADG_FLAGS)?,
                    silver: self.silver.unwrap_or(0),
                }))
            }
            SystemArg::Vsd => {
                for (flag, present) in [
                    ("--agility", self.agility.is_some()),
                    ("--brawn", self.brawn.is_some()),
                    ("--cunning", self.cunning.is_some()),
                    ("--silver", self.silver.is_some()),
                ] {
                    wrong(flag, present, "a VsD", VSD_FLAGS)?;
                }
                Ok(Sheet::Vsd(VsdSheet {
                    level: need(&self.level, "--level", VSD_FLAGS)?,
                    vocation: need(&self.vocation, "--vocation", VSD_FLAGS)?
                        .trim()
                        .to_lowercase(),
                    lores: self.lore.clone(),
                    mp: need(&self.mp, "--mp", VSD_FLAGS)?,
                    drive: need(&self.drive, "--drive", VSD_FLAGS)?,
                    body: need(&self.body, "--body", VSD_FLAGS)?,
                    wsr: need(&self.wsr, "--wsr", VSD_FLAGS)?,
                    defense: need(&self.defense, "--defense", VSD_FLAGS)?,
                    health: self.health,
                }))
            }
        }
    }
}
