//! Against the Darkmaster commands: `spell`, `choose`, `save`, `resonance`, `alignment`, `setting`,
//! `drive`, `condition`.

use super::output::{Report, appended};
use super::{Context, Globals, record, record_on};
use crate::Error;
use crate::event::vsd::VsdEvent;
use crate::event::{Event, Recorded};
use crate::rules::Command;
use crate::rules::vsd::{
    Alignment, AttackKind, CastOrder, Choice, Condition, OvercastOrder, Place, Range, SpellDef,
    SpellKind, Tag, VsdCommand,
};
use crate::time::GameDuration;
use clap::{Args, Subcommand, ValueEnum};

fn vsd(g: &Globals, ctx: &mut Context, command: VsdCommand) -> Result<Report, Error> {
    Ok(appended(
        &record(g, ctx, Command::Vsd(Box::new(command)))?.events,
    ))
}

#[derive(Debug, Subcommand)]
pub enum SpellCommand {
    Learn(LearnArgs),
    /// Spend this round concentrating on a spell: +10 to its casting roll per round, at most +40. No
    /// MPs are spent until the cast; skipping a round or being interrupted loses the bonus. Rolls no dice.
    Concentrate {
        /// The character's name (any case).
        name: String,
        /// The spell, as the character learned it (any case).
        spell: String,
    },
    /// Record that a caster's concentration was broken. Rolls no dice.
    Interrupt {
        /// The character's name (any case).
        name: String,
    },
    Cast(CastArgs),
}

/// Record a spell a character knows. Rolls no dice.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The character's name (any case).
    pub name: String,
    /// The spell's name, as it will be cast later, e.g. "Fire Bolt".
    pub spell: String,
    /// The Spell Lore it belongs to (one of the character's lores).
    #[arg(long)]
    pub lore: String,
    /// The spell's Weave, 1 to 50: the MPs it costs unless --mp says otherwise, and the Level needed to cast it without overcasting.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub weave: u32,
    /// The spell's kind, which sets its failure modifier (VSD-9).
    #[arg(long, value_enum)]
    pub kind: SpellKind,
    /// Comma-separated: attack, spirit, light, natural, elven, illusory.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub tags: Vec<Tag>,
    /// A half action; gains nothing from concentration and is never improvised.
    #[arg(long)]
    pub instantaneous: bool,
    /// Unwilling targets get a Willpower save.
    #[arg(long)]
    pub save: bool,
    /// A bolt or area spell: an attack roll instead of the casting table.
    #[arg(long, value_enum)]
    pub attack: Option<AttackKind>,
    /// MP cost, when not equal to the Weave.
    #[arg(long)]
    pub mp: Option<u32>,
    /// How long it lasts on its target, e.g. 10m or 1h.
    #[arg(long, value_parser = |t: &str| GameDuration::parse(t).map_err(|e| e.to_string()))]
    pub duration: Option<GameDuration>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OvercastMethod {
    /// Other casters who know the spell join in (name them with --with).
    Ritual,
    /// Spend 1 Drive and take 1d10+1 soul damage per Weave above Level.
    Sacrifice,
}

/// Cast a known spell: an open-ended d100 + Spell Lore bonus + modifiers on the casting table (or, for
/// bolt and area spells, an attack roll less the target's Defense). MPs are spent on a success or
/// partial success. A double on the first die (11, 22 … 99) brings a magical resonance roll.
///
/// Dice, in order: for --overcast sacrifice one d10 per Weave above Level (soul damage, +1 each); the
/// open-ended d100 (another d100 after 96-100, or after 01-05, and on while 96-100); on a failure the
/// d100 failure roll; on resonance the d100 resonance roll.
#[derive(Debug, Args)]
pub struct CastArgs {
    /// The character's name (any case).
    pub name: String,
    /// The spell, as the character learned it (any case).
    pub spell: String,
    /// Who the spell is aimed at: a character (any case) or anyone else, e.g. "the troll".
    #[arg(long)]
    pub target: String,
    /// Distance to the target in metres (e.g. 12), touch, or far (over 90 m). A casting roll takes
    /// the casting table's band for it (VSD-4); a bolt or area spell its attack table's (VSD-14),
    /// which reaches 30 m.
    #[arg(long, default_value = "15", value_parser = parse_range)]
    pub range: Range,
    /// The target is restrained, unconscious or unaware (+10).
    #[arg(long = "static")]
    pub static_target: bool,
    /// Armour movement penalty, after the Armour skill (subtracted).
    #[arg(long, default_value_t = 0)]
    pub armor_penalty: u32,
    /// A GM modifier, e.g. --mod -15.
    #[arg(long = "mod", default_value_t = 0, allow_negative_numbers = true)]
    pub gm_modifier: i64,
    /// The place's effect on resonance (VSD-10).
    #[arg(long, value_enum, default_value = "normal")]
    pub place: Place,
    /// The caster cannot see the target: the cast is refused.
    #[arg(long)]
    pub cannot_see: bool,
    /// The caster cannot speak: the cast is refused.
    #[arg(long)]
    pub silenced: bool,
    /// Cast a spell of a Weave above the caster's Level (VSD-12), and how.
    #[arg(long, value_enum)]
    pub overcast: Option<OvercastMethod>,
    /// The other casters of a magic ritual, comma-separated.
    #[arg(long, value_delimiter = ',', requires = "overcast")]
    pub with: Vec<String>,
    /// The target's Defense, for a bolt or area spell at a non-player target.
    #[arg(long, allow_negative_numbers = true)]
    pub defense: Option<i64>,
}

pub fn spell(g: &Globals, ctx: &mut Context, command: &SpellCommand) -> Result<Report, Error> {
    match command {
        SpellCommand::Learn(a) => {
            let spell = SpellDef {
                name: a.spell.trim().to_string(),
                lore: a.lore.clone(),
                weave: a.weave,
                kind: a.kind,
                tags: a.tags.clone(),
                instantaneous: a.instantaneous,
                save: a.save,
                attack: a.attack,
                mp: a.mp,
                duration: a.duration,
            };
            vsd(
                g,
                ctx,
                VsdCommand::Learn {
                    character: a.name.clone(),
                    spell,
                },
            )
        }
        SpellCommand::Concentrate { name, spell } => vsd(
            g,
            ctx,
            VsdCommand::Concentrate {
                character: name.clone(),
                spell: spell.clone(),
            },
        ),
        SpellCommand::Interrupt { name } => vsd(
            g,
            ctx,
            VsdCommand::Interrupt {
                character: name.clone(),
            },
        ),
        SpellCommand::Cast(a) => {
            let overcast = match a.overcast {
                None => None,
                Some(OvercastMethod::Sacrifice) => Some(OvercastOrder::Sacrifice),
                Some(OvercastMethod::Ritual) if a.with.is_empty() => {
                    return Err(Error::Usage(
                        "--overcast ritual needs the other casters: --with NAME,NAME".into(),
                    ));
                }
                Some(OvercastMethod::Ritual) => Some(OvercastOrder::Ritual(a.with.clone())),
            };
            let order = CastOrder {
                target: a.target.clone(),
                range: a.range,
                static_target: a.static_target,
                armor_penalty: a.armor_penalty,
                gm_modifier: a.gm_modifier,
                place: a.place,
                cannot_see: a.cannot_see,
                silenced: a.silenced,
                overcast,
                defense: a.defense,
            };
            vsd(
                g,
                ctx,
                VsdCommand::Cast {
                    character: a.name.clone(),
                    spell: a.spell.clone(),
                    order,
                },
            )
        }
    }
}

/// Resolve a pending choice: the caster's after a partial or outstanding success or a failure, or the
/// GM's pick after a resonance result. `character show` lists what is pending.
///
/// Dice: a d100 resonance roll if "resonance" is chosen; 1d10 rounds for the GM's "scorched".
#[derive(Debug, Args)]
pub struct ChooseArgs {
    /// The character's name (any case).
    pub name: String,
    /// The option picked (two where the result offers two, e.g. an outstanding success).
    #[arg(value_enum, num_args = 1..=2, required = true)]
    pub options: Vec<Choice>,
}

pub fn choose(g: &Globals, ctx: &mut Context, a: &ChooseArgs) -> Result<Report, Error> {
    vsd(
        g,
        ctx,
        VsdCommand::Choose {
            character: a.name.clone(),
            choices: a.options.clone(),
        },
    )
}

/// A Willpower save against a cast: open-ended d100 + WSR must beat the cast's save difficulty.
///
/// Dice: the open-ended d100.
#[derive(Debug, Args)]
pub struct SaveArgs {
    /// The target: a character (whose WSR is used) or anyone, with --wsr.
    pub target: String,
    /// The target's Willpower save bonus, for a target who is not a character here.
    #[arg(long, allow_negative_numbers = true)]
    pub wsr: Option<i64>,
    /// The cast's event number (#SEQ in `grimoire log`); `--against` is the older spelling.
    #[arg(long = "cast", alias = "against", value_name = "SEQ")]
    pub cast: u64,
}

fn parse_range(text: &str) -> Result<Range, String> {
    text.parse()
}

pub fn save(g: &Globals, ctx: &mut Context, a: &SaveArgs) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let cast = campaign.store().event(a.cast)?.and_then(|recorded| {
        let Recorded {
            event: Event::Vsd(VsdEvent::SpellCast(cast)),
            game_time,
            ..
        } = recorded
        else {
            return None;
        };
        Some((cast, game_time))
    });
    let command = VsdCommand::Save {
        target: a.target.clone(),
        wsr: a.wsr,
        against: a.cast,
        cast,
    };
    let written = record_on(g, ctx, &mut campaign, Command::Vsd(Box::new(command)))?;
    Ok(appended(&written.events))
}

#[derive(Debug, Subcommand)]
pub enum ResonanceCommand {
    /// Sever the Thread (optional rule): spend 1 Drive; the GM re-rolls the caster's latest resonance
    /// at a further -20 (the -20s add up). Dice: the d100 resonance roll.
    Sever {
        /// The character's name (any case).
        name: String,
    },
}

pub fn resonance(
    g: &Globals,
    ctx: &mut Context,
    command: &ResonanceCommand,
) -> Result<Report, Error> {
    let ResonanceCommand::Sever { name } = command;
    vsd(
        g,
        ctx,
        VsdCommand::Sever {
            character: name.clone(),
        },
    )
}

#[derive(Debug, Subcommand)]
pub enum AlignmentCommand {
    /// Set the celestial alignment in force: benefic (overcast up to 3 Weaves), auspicious (1),
    /// malefic (+1 MP per spell), disastrous (-10 and +1 MP), none. Rolls no dice.
    Set {
        /// The alignment now in force.
        #[arg(value_enum)]
        alignment: Alignment,
    },
}

pub fn alignment(
    g: &Globals,
    ctx: &mut Context,
    command: &AlignmentCommand,
) -> Result<Report, Error> {
    let AlignmentCommand::Set { alignment } = command;
    vsd(g, ctx, VsdCommand::SetAlignment(*alignment))
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SettingName {
    /// VSD-11: casters may spend Drive to have a resonance re-rolled at -20.
    SeverTheThread,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

/// Turn an optional rule on or off for the campaign. Rolls no dice.
#[derive(Debug, Args)]
pub struct SettingArgs {
    /// The optional rule.
    #[arg(value_enum)]
    pub setting: SettingName,
    /// Whether it is in force from now on.
    #[arg(value_enum)]
    pub value: OnOff,
}

pub fn setting(g: &Globals, ctx: &mut Context, a: &SettingArgs) -> Result<Report, Error> {
    let SettingName::SeverTheThread = a.setting;
    vsd(g, ctx, VsdCommand::SetSever(matches!(a.value, OnOff::On)))
}

/// Change a character's Drive, e.g. `drive Mira +1 --reason "a heroic deed"`. Rolls no dice.
#[derive(Debug, Args)]
pub struct DriveArgs {
    /// The character's name (any case).
    pub name: String,
    /// The change, e.g. +1 or -2.
    #[arg(allow_negative_numbers = true, value_parser = clap::value_parser!(i64).range(-99..=99))]
    pub delta: i64,
    /// Why, in a few words; kept in the log.
    #[arg(long)]
    pub reason: String,
}

pub fn drive(g: &Globals, ctx: &mut Context, a: &DriveArgs) -> Result<Report, Error> {
    vsd(
        g,
        ctx,
        VsdCommand::Drive {
            character: a.name.clone(),
            delta: a.delta,
            reason: a.reason.clone(),
        },
    )
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ConditionAction {
    Clear,
}

/// End a condition now, e.g. `condition Mira clear stunned` (the GM's call). Rolls no dice.
#[derive(Debug, Args)]
pub struct ConditionArgs {
    /// The character's name (any case).
    pub name: String,
    /// What to do with the condition.
    #[arg(value_enum)]
    pub action: ConditionAction,
    /// The condition.
    #[arg(value_enum)]
    pub condition: Condition,
}

pub fn condition(g: &Globals, ctx: &mut Context, a: &ConditionArgs) -> Result<Report, Error> {
    let ConditionAction::Clear = a.action;
    vsd(
        g,
        ctx,
        VsdCommand::ClearCondition {
            character: a.name.clone(),
            condition: a.condition,
        },
    )
}
