//! Against the Darkmaster commands: `spell`, `choose`, `save`, `resonance`, `alignment`, `setting`,
//! `drive`, `condition`.

use super::output::{Report, appended};
use super::{Context, Globals, record, record_on};
use crate::Error;
use crate::event::{Event, Recorded};
use crate::rules::{Command, Who};
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::rules::{
    Alignment, Casting, Choosing, Concentration, ConditionClearing, DriveChange, SaveRoll,
    SpellLearning, VsdCommand,
};
use clap::{Args, Subcommand, ValueEnum};

fn vsd(g: &Globals, ctx: &mut Context, command: VsdCommand) -> Result<Report, Error> {
    Ok(appended(
        &record(g, ctx, Command::System(AnyCommand::Vsd(Box::new(command))))?.events,
    ))
}

#[derive(Debug, Subcommand)]
pub enum SpellCommand {
    Learn(SpellLearning),
    /// Spend this round concentrating on a spell: +10 to its casting roll per round, at most +40. No
    /// MPs are spent until the cast; skipping a round or being interrupted loses the bonus. Rolls no dice.
    Concentrate(Concentration),
    /// Record that a caster's concentration was broken. Rolls no dice.
    Interrupt(Who),
    Cast(Casting),
}

pub fn spell(g: &Globals, ctx: &mut Context, command: &SpellCommand) -> Result<Report, Error> {
    vsd(
        g,
        ctx,
        match command {
            SpellCommand::Learn(learning) => VsdCommand::Learn(learning.clone()),
            SpellCommand::Concentrate(concentration) => {
                VsdCommand::Concentrate(concentration.clone())
            }
            SpellCommand::Interrupt(who) => VsdCommand::Interrupt(who.clone()),
            SpellCommand::Cast(casting) => VsdCommand::Cast(casting.clone()),
        },
    )
}

pub fn choose(g: &Globals, ctx: &mut Context, choosing: &Choosing) -> Result<Report, Error> {
    vsd(g, ctx, VsdCommand::Choose(choosing.clone()))
}

pub fn save(g: &Globals, ctx: &mut Context, save: &SaveRoll) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    let cast = campaign.store().event(save.against)?.and_then(|recorded| {
        let Recorded {
            event: Event::System(AnyEvent::Vsd(VsdEvent::SpellCast(cast))),
            game_time,
            ..
        } = recorded
        else {
            return None;
        };
        Some((cast, game_time))
    });
    let command = VsdCommand::Save(SaveRoll {
        cast,
        ..save.clone()
    });
    let written = record_on(
        g,
        ctx,
        &mut campaign,
        Command::System(AnyCommand::Vsd(Box::new(command))),
    )?;
    Ok(appended(&written.events))
}

#[derive(Debug, Subcommand)]
pub enum ResonanceCommand {
    /// Sever the Thread (optional rule): spend 1 Drive; the GM re-rolls the caster's latest resonance
    /// at a further -20 (the -20s add up). Dice: the d100 resonance roll.
    Sever(Who),
}

pub fn resonance(
    g: &Globals,
    ctx: &mut Context,
    command: &ResonanceCommand,
) -> Result<Report, Error> {
    let ResonanceCommand::Sever(who) = command;
    vsd(g, ctx, VsdCommand::Sever(who.clone()))
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

pub fn drive(g: &Globals, ctx: &mut Context, change: &DriveChange) -> Result<Report, Error> {
    vsd(g, ctx, VsdCommand::Drive(change.clone()))
}

pub fn condition(
    g: &Globals,
    ctx: &mut Context,
    clearing: &ConditionClearing,
) -> Result<Report, Error> {
    vsd(g, ctx, VsdCommand::ClearCondition(clearing.clone()))
}
