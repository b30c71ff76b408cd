//! `character list`: the party at a glance, one line each.

use super::health_text;
use crate::state::{CampaignState, Character};
use crate::systems::adg::state::AdgState;
use crate::systems::adg::tables::Attribute;
use crate::systems::vsd::state::VsdState;

/// One character's line: who, their level, health, and what their system tracks that a GM glances
/// at between turns.
pub(super) fn line(c: &Character, state: &CampaignState) -> String {
    let details = match (c.adg(), c.vsd()) {
        (Some(adg), _) => adg_details(c, adg, state),
        (None, Some(vsd)) => vsd_details(vsd, state),
        (None, None) => Vec::new(),
    };
    let (system, level) = match (c.adg(), c.vsd()) {
        (Some(adg), _) => ("ADG", adg.level),
        (None, Some(vsd)) => ("VsD", vsd.level),
        (None, None) => ("", 0),
    };
    let mut parts = vec![format!(
        "{:<20} {system} level {level:<3} {}",
        c.name,
        health_text(c)
    )];
    parts.extend(details);
    parts.join("   ")
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
        .scrolls
        .values()
        .filter(|s| crate::rules::campaign::same_character(&s.holder, &c.name))
        .map(|s| format!("S{}", s.id))
        .collect();
    if !held.is_empty() {
        parts.push(format!("scrolls {}", held.join(",")));
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
