//! `character list`: the party at a glance, a row each.

use crate::read::sheet::{details, system_and_level};
use crate::state::CampaignState;

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
