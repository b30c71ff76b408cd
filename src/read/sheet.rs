//! A character as readers see them: at a glance (one line: who, level, health, and what their
//! system tracks between turns) and as data (the JSON of `character show`, `diff` and `explain`).

use crate::render::health_text;
use crate::state::{CampaignState, Character};
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::{SystemId, on_system};
use serde_json::{Value, json};

/// One character's line: who, their level, health, and what their system tracks that a GM glances
/// at between turns.
pub fn glance(c: &Character, state: &CampaignState) -> String {
    let (system, level) = system_and_level(c);
    let mut parts = vec![format!(
        "{:<20} {system} level {level:<3} {}",
        c.name,
        health_text(c)
    )];
    parts.extend(details(c, state));
    parts.join("   ")
}

/// The short name of a character's rule system and their level in it.
pub fn system_and_level(c: &Character) -> (&'static str, u32) {
    on_system!(&c.system, AnyState, |S, mine| (S::SHORT, S::level(mine)))
}

/// What a character's system shows of them at a glance, a phrase each.
pub fn details(c: &Character, state: &CampaignState) -> Vec<String> {
    on_system!(&c.system, AnyState, |S, mine| S::glance(
        &c.as_seen_by::<S>(),
        mine,
        state
    ))
}

/// A character as JSON: their state as replay computed it, their status ("dead", "down") when
/// they have one, and what they hold of the campaign's things (scrolls, whoever holds them), so
/// the JSON shows every value the sheet does.
pub fn character_json(c: &Character, state: &CampaignState) -> Value {
    let mut value = json!(c);
    if let Some(status) = c.status() {
        value["status"] = json!(status);
    }
    let mut holds = serde_json::Map::new();
    for &system in SystemId::ALL {
        holds.extend(on_system!(system, SystemId, |S| S::holdings(
            &c.name, state
        )));
    }
    value["holds"] = Value::Object(holds);
    value
}

/// One of a character's pools as it stands: what is left of how much.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub label: String,
    pub current: u32,
    pub max: u32,
}

/// A character's pools, as a player's page draws them in bars: health first, then what their
/// system tracks (magic points; attributes less what is exerted), as the report charts them.
pub fn pools(c: &Character) -> Vec<Pool> {
    let mut pools: Vec<Pool> = c
        .health
        .map(|h| Pool {
            label: "Health".into(),
            current: h.current,
            max: h.max,
        })
        .into_iter()
        .collect();
    let charts = on_system!(&c.system, AnyState, |S, mine| S::charts(mine));
    for (chart, gauges) in charts {
        let alone = gauges.len() == 1;
        for gauge in gauges {
            // A chart's one gauge is named with the chart ("magic points left"); of several,
            // each by its own name ("Agility").
            let label = match alone {
                true => crate::render::capitalized(&format!("{} {}", chart.title, gauge.label)),
                false => gauge.label.to_string(),
            };
            pools.push(Pool {
                label,
                current: gauge.current,
                max: gauge.max,
            });
        }
    }
    pools
}
