//! Fights by the round (T-3): `fight start`, `next`, `fight end` and `fight show`.

use super::output::Report;
use super::{At, Context, Globals, record};
use crate::Error;
use crate::rules::Command;
use crate::rules::campaign::FightStep;
use crate::state::CampaignState;
use crate::text::printable;
use clap::{Args, Subcommand};
use serde_json::json;

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
        FightCommand::Show(at) => return Ok(show(&at.state(g)?)),
    };
    step_on(g, ctx, step)
}

pub fn next(g: &Globals, ctx: &mut Context) -> Result<Report, Error> {
    step_on(g, ctx, FightStep::NextRound)
}

fn step_on(g: &Globals, ctx: &mut Context, step: FightStep) -> Result<Report, Error> {
    let written = record(g, ctx, Command::Fight(step))?;
    let mut report = super::table::moved_the_clock(&written);
    report.json["fight"] = fight_json(&written.state);
    Ok(report)
}

/// The fight under way as JSON (null when none is).
fn fight_json(state: &CampaignState) -> serde_json::Value {
    let Some(fight) = &state.fight else {
        return serde_json::Value::Null;
    };
    let turns: Vec<_> = (state.round.turns_at(state.clock))
        .map(|t| json!({ "character": t.name, "did": t.did, "damage": t.damage, "acts_last": t.acts_last, "half_action_left": t.halves == 1 }))
        .collect();
    json!({
        "number": fight.number,
        "name": fight.name,
        "words": fight.words(),
        "round": fight.round_at(state.clock),
        "began_at": fight.began.seconds(),
        "started_seq": fight.started_seq,
        "this_round": turns,
        "yet_to_act": yet_to_act(state),
    })
}

/// The characters who can still act and have not spent the round's whole action, in the order
/// of their names.
fn yet_to_act(state: &CampaignState) -> Vec<String> {
    if state.fight.is_none() {
        return Vec::new();
    }
    state
        .characters
        .values()
        // The dead and the down (at 0 health) take no turn.
        .filter(|c| c.status().is_none())
        .filter(|c| {
            !state
                .round
                .acted(state.clock, &crate::words::Folded::of(&c.name))
        })
        .map(|c| c.name.clone())
        .collect()
}

pub(super) fn show(state: &CampaignState) -> Report {
    let Some(fight) = &state.fight else {
        let text = match state.fights_started {
            0 => "No fight is under way, and none has been fought yet.".to_string(),
            n => format!(
                "No fight is under way ({} fought so far).",
                crate::words::count(u64::from(n), "fight", "fights")
            ),
        };
        return Report::new(text, json!({ "as_of_seq": state.head, "fight": null }));
    };
    let mut lines = vec![format!(
        "{}: round {}, begun at {} (#{}). It is {}.",
        crate::render::capitalized(&printable(&fight.words())),
        fight.round_at(state.clock),
        fight.began,
        fight.started_seq,
        state.clock_text()
    )];
    let mut turns: Vec<_> = state.round.turns_at(state.clock).collect();
    // A scroll reader in combat acts after everyone else (ADG-S5).
    turns.sort_by_key(|t| t.acts_last);
    if turns.is_empty() {
        lines.push("Nothing is recorded for this round yet.".into());
    } else {
        lines.push("This round:".into());
        for turn in turns {
            let mut parts = turn.did.clone();
            if turn.damage > 0 {
                parts.push(format!("took {} damage", turn.damage));
            }
            let last = match (turn.acts_last, turn.halves == 1) {
                (true, _) => " (acts last this round)",
                (false, true) => " (half an action left)",
                (false, false) => "",
            };
            lines.push(format!(
                "  {}: {}{last}",
                printable(&turn.name),
                printable(&parts.join(", "))
            ));
        }
    }
    let waiting = yet_to_act(state);
    if !waiting.is_empty() {
        lines.push(format!("Yet to act: {}", printable(&waiting.join(", "))));
    }
    Report::new(
        lines.join("\n"),
        json!({ "as_of_seq": state.head, "fight": fight_json(state) }),
    )
}
