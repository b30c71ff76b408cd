//! A player's own choices, made on their linked phone (#47): what the rules left to a
//! character's player (never the GM's own picks), and the command a phone's picks make. No dice
//! come from the phone and no secret is kept: the choice is the player's, recorded as theirs,
//! and what it rolls is rolled as any command's dice are.

use super::Refused;
use crate::event::{AskedCommand, Event};
use crate::ids::DeviceId;
use crate::rules::RuleError;
use crate::state::CampaignState;
use crate::systems::contract::rules::{PlayersChoice, SystemRules};
use crate::systems::registry::on_system;

/// The choices waiting on `character`'s player, oldest first, as their system says.
pub fn waiting_on(state: &CampaignState, character: &str) -> Vec<PlayersChoice> {
    let Some(found) = state.character(character) else {
        return Vec::new();
    };
    on_system!(found.system.system(), SystemId, |S| S::players_choices(
        state,
        &found.name
    ))
}

/// The choice `picks` make for `character` as a phone gives it (naming `names` where an option
/// needs someone more), checked as the campaign stands: a link that stands, for a character the
/// device's player plays, picks that fit a choice waiting on that player. The events to record
/// first: the command's follow, decided in the same write.
pub fn made_on(
    state: &CampaignState,
    device: DeviceId,
    character: &str,
    picks: &[String],
    names: Option<&str>,
) -> Result<(AskedCommand, Event), RuleError> {
    let linked = state
        .players
        .devices
        .get(&device)
        .filter(|d| d.linked)
        .ok_or(Refused::Revoked)?;
    let found = crate::rules::campaign::find(state, character)?;
    if !crate::state::players::plays(&linked.characters, &found.name) {
        return Err(Refused::NotTheirs {
            player: linked.player.clone(),
            character: found.name.clone(),
            plays: linked.characters.join(", "),
        }
        .into());
    }
    let system = found.system.system();
    let (waiting, command) = on_system!(system, SystemId, |S| (
        S::players_choices(state, &found.name),
        S::CHOICE_COMMAND
    ));
    let (Some(command), Some(first)) = (command, waiting.first()) else {
        return Err(Refused::NoChoiceWaits(found.name.clone()).into());
    };
    let fits = |choice: &PlayersChoice| {
        picks.len() == choice.pick
            && picks
                .iter()
                .all(|p| choice.options.iter().any(|o| o.word == p))
    };
    if !waiting.iter().any(fits) {
        let words: Vec<&str> = first.options.iter().map(|o| o.word).collect();
        return Err(Refused::PicksDoNotFit {
            character: found.name.clone(),
            wanted: if picks.is_empty() {
                "none".into()
            } else {
                picks.join(", ")
            },
            pick: first.pick,
            options: words.join(", "),
        }
        .into());
    }
    let mut given = std::collections::BTreeMap::new();
    given.insert(command.character.to_string(), vec![found.name.clone()]);
    given.insert(command.picks.to_string(), picks.to_vec());
    if let Some(names) = names.map(str::trim).filter(|n| !n.is_empty()) {
        given.insert(command.names.to_string(), vec![names.to_string()]);
    }
    let asked = AskedCommand::System {
        system: system.key().to_string(),
        path: command.path.to_string(),
        given,
    };
    Ok((asked.clone(), Event::ChoiceAnswered { device, asked }))
}
