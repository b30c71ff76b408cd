//! A fight as readers see it (T-3): its round, what each caster did in it, who is yet to act.

use super::Shown;
use crate::state::CampaignState;
use crate::text::printable;
use serde_json::json;

/// The fight under way as data (null when none is).
pub fn json(state: &CampaignState) -> serde_json::Value {
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

/// What `fight show` prints and the live page shows: the fight, its round and the clock, what each
/// caster did this round, and who is yet to act.
pub fn show(state: &CampaignState) -> Shown {
    let Some(fight) = &state.fight else {
        let text = match state.fights_started {
            0 => "No fight is under way, and none has been fought yet.".to_string(),
            n => format!(
                "No fight is under way ({} fought so far).",
                crate::words::count(u64::from(n), "fight", "fights")
            ),
        };
        return Shown::new(text, json!({ "as_of_seq": state.head, "fight": null }));
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
    Shown::new(
        lines.join("\n"),
        json!({ "as_of_seq": state.head, "fight": json(state) }),
    )
}
