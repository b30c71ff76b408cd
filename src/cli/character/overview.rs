//! `character list`: the party at a glance, a row each (and the same glance as one line, where
//! `explain` shows the sheets an event was decided on).

use super::health_text;
use crate::state::{CampaignState, Character};
use crate::systems::adg::Adg;
use crate::systems::adg::state::AdgState;
use crate::systems::adg::tables::Attribute;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::state::VsdState;

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
    match (c.state::<Adg>(), c.state::<Vsd>()) {
        (Some(adg), _) => ("ADG", adg.level),
        (None, Some(vsd)) => ("VsD", vsd.level),
        (None, None) => ("", 0),
    }
}

fn details(c: &Character, state: &CampaignState) -> Vec<String> {
    match (c.state::<Adg>(), c.state::<Vsd>()) {
        (Some(adg), _) => adg_details(c, adg, state),
        (None, Some(vsd)) => vsd_details(vsd, state),
        (None, None) => Vec::new(),
    }
}

fn adg_details(c: &Character, adg: &AdgState, state: &CampaignState) -> Vec<String> {
    let attributes: Vec<String> = [Attribute::Agility, Attribute::Brawn, Attribute::Cunning]
        .into_iter()
        .map(|a| {
            let (current, max) = (adg.current(a), adg.max.get(a));
            let short: String = a.to_string().chars().take(3).collect();
            if current == max {
                format!("{short} {max}")
            } else {
                format!("{short} {current}/{max}")
            }
        })
        .collect();
    let mut parts = vec![
        attributes.join(" "),
        format!(
            "rituals {}/{} today{}",
            adg.rituals_today,
            adg.safe_rituals_per_day(),
            if adg.locked_out { ", LOCKED OUT" } else { "" }
        ),
        format!("silver {}", adg.silver),
    ];
    let held: Vec<String> = state
        .systems
        .adg
        .scrolls
        .values()
        .filter(|s| crate::rules::campaign::same_character(&s.holder, &c.name))
        .map(|s| format!("S{}", s.id))
        .collect();
    if !held.is_empty() {
        parts.push(format!("scrolls {}", held.join(", ")));
    }
    if adg.pending_roll.is_some() {
        parts.push("dice pending (scroll resolve)".into());
    }
    parts
}

fn vsd_details(vsd: &VsdState, state: &CampaignState) -> Vec<String> {
    let mut parts = vec![
        format!("MP {}/{}", vsd.mp_current(), vsd.mp_max),
        format!("Drive {}", vsd.drive),
    ];
    let conditions: Vec<String> = vsd
        .active_conditions(state.clock)
        .into_iter()
        .map(|c| c.name())
        .collect();
    if !conditions.is_empty() {
        parts.push(conditions.join(", "));
    }
    if !vsd.pending.is_empty() {
        let choices = vsd.pending.len();
        parts.push(format!(
            "{choices} choice{} pending",
            if choices == 1 { "" } else { "s" }
        ));
    }
    parts
}
