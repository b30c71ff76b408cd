//! Fights by the round (T-3): `fight start`, `next`, `fight end` and `fight show`.

use super::output::Report;
use super::{At, Context, Globals, record};
use crate::Error;
use crate::rules::Command;
use crate::rules::campaign::FightStep;
use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum FightCommand {
    /// Begin a fight: its round 1 starts at the clock as it stands. Records the start; rolls no
    /// dice.
    ///
    /// While it is on, `grimoire next` begins each round; sheets and pending effects count in its
    /// rounds; a scroll is read in combat; damage recorded against a caster earlier in the round
    /// is the damage an ADG casting or reading must beat; and rests and downtime wait for its end.
    Start(FightStartArgs),
    /// End the fight: its last round runs out, so the clock moves on one round. Records the end;
    /// rolls no dice.
    End,
    /// Show the fight under way: its round, what each character did this round (a scroll reader
    /// acts last), the damage each took, and who has yet to act. Records nothing.
    Show(At),
}

/// Where or what the fight is.
#[derive(Debug, Args)]
pub struct FightStartArgs {
    /// Where or what, as it reads after "the fight": "at the bridge", "with the ghouls". Without
    /// it the fight is known by its number ("fight 2").
    #[arg(value_name = "WHERE")]
    pub name: Option<String>,
}

/// Begin the fight's next round: the clock moves on one round (6 seconds). Records it; rolls no
/// dice.
#[derive(Debug, Args)]
pub struct NextArgs {}

pub fn fight(g: &Globals, ctx: &mut Context, command: &FightCommand) -> Result<Report, Error> {
    let step = match command {
        FightCommand::Start(args) => FightStep::Start {
            name: args.name.clone(),
        },
        FightCommand::End => FightStep::End,
        FightCommand::Show(at) => return Ok(crate::read::fight::show(&at.state(g)?).into()),
    };
    step_on(g, ctx, step)
}

pub fn next(g: &Globals, ctx: &mut Context) -> Result<Report, Error> {
    step_on(g, ctx, FightStep::NextRound)
}

fn step_on(g: &Globals, ctx: &mut Context, step: FightStep) -> Result<Report, Error> {
    let written = record(g, ctx, Command::Fight(step))?;
    let mut report = super::table::moved_the_clock(&written);
    report.json["fight"] = crate::read::fight::json(&written.state);
    Ok(report)
}
