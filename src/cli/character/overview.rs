//! `character list`: the party at a glance, a row each (and the same glance as one line, where
//! `explain` shows the sheets an event was decided on).

use crate::render::health_text;
use crate::state::{CampaignState, Character};
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::on_system;

/// One character's line: who, their level, health, and what their system tracks that a GM glances
/// at between turns.
pub(super) fn line(c: &Character, state: &CampaignState) -> String {
    let (system, level) = system_and_level(c);
    let mut parts = vec![format!(
        "{:<20} {system} level {level:<3} {}",
        c.name,
        health_text(c)
    )];
    parts.extend(details(c, state));
    parts.join("   ")
}

/// The party as a table: name, system, level, health, and the rest of the glance.
pub(super) fn table(state: &CampaignState) -> String {
    let rows = state
        .characters
        .values()
        .map(|c| {
            let (system, level) = system_and_level(c);
            let status = c.status().map(|s| format!(" ({s})")).unwrap_or_default();
            let health = c.health.map_or_else(
                || "none".to_string(),
                |h| format!("{}/{}", h.current, h.max),
            );
            vec![
                c.name.clone(),
                system.to_string(),
                level.to_string(),
                format!("{health}{status}"),
                details(c, state).join("; "),
            ]
        })
        .collect();
    crate::cli::output::table(&["Name", "System", "Level", "Health", "At a glance"], rows)
}

fn system_and_level(c: &Character) -> (&'static str, u32) {
    on_system!(&c.system, AnyState, |S, mine| (S::SHORT, S::level(mine)))
}

fn details(c: &Character, state: &CampaignState) -> Vec<String> {
    on_system!(&c.system, AnyState, |S, mine| S::glance(
        &c.as_seen_by::<S>(),
        mine,
        state
    ))
}
