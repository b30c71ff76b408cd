//! An A Dungeon Game character's sheet as entered when they are added (docs/rules.md ADG-C1,
//! ADG-C2). Everything that changes later is computed by replay.

use crate::systems::contract::event::{SystemModel, SystemSheet, within};
use serde::{Deserialize, Serialize};

/// An A Dungeon Game character (docs/rules.md ADG-C1, ADG-C2).
/// The most silver a purse holds, entered or gained: far past any campaign.
pub const PURSE_MAX: u64 = 1_000_000_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdgSheet {
    pub level: u32,
    pub agility: u32,
    pub brawn: u32,
    pub cunning: u32,
    pub health: u32,
    pub silver: u64,
    /// The rituals the character starts play knowing, learned before the campaign at no cost
    /// (recorded since 2026-12-02).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knows: Vec<StartingRitual>,
}

/// A ritual a character knows from the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartingRitual {
    pub name: String,
    pub kind: super::event::RitualKind,
}

impl SystemModel for super::Adg {
    const KEY: &'static str = "adg";
    const NAME: &'static str = "A Dungeon Game";
    type Sheet = AdgSheet;
    type Event = super::event::AdgEvent;
    type RestShare = super::event::RestResult;
}

impl SystemSheet for AdgSheet {
    fn max_health(&self) -> Option<u32> {
        Some(self.health)
    }

    fn validate(&self) -> Result<(), String> {
        // Adventurer Levels run 1–10 (ADG-C2); attributes are checked with a d20, so above 20
        // a check could never fail.
        within("level", self.level, 1, 10)?;
        within("agility", self.agility, 1, 20)?;
        within("brawn", self.brawn, 1, 20)?;
        within("cunning", self.cunning, 1, 20)?;
        within("health", self.health, 1, 999)?;
        within("silver", self.silver, 0, PURSE_MAX)?;
        // A name differing only by case or spacing is the same ritual (ADG-R3 ruling).
        let spoken = |name: &str| name.split_whitespace().collect::<Vec<_>>().join(" ");
        for (i, ritual) in self.knows.iter().enumerate() {
            let name = spoken(&ritual.name);
            if name.is_empty() {
                return Err("a starting ritual needs a name".into());
            }
            if self.knows[..i].iter().any(|r| {
                crate::words::fold_name(&spoken(&r.name)) == crate::words::fold_name(&name)
                    || crate::text::look_alike(&r.name, &name)
            }) {
                return Err(format!("the starting ritual '{name}' is given twice"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adg_c2_levels_run_one_to_ten() {
        let sheet = |level| AdgSheet {
            level,
            agility: 10,
            brawn: 10,
            cunning: 10,
            health: 8,
            silver: 0,
            knows: Vec::new(),
        };
        assert!(sheet(1).validate().is_ok());
        assert!(sheet(10).validate().is_ok());
        assert!(
            sheet(0)
                .validate()
                .unwrap_err()
                .contains("level must be 1 to 10")
        );
        assert!(sheet(11).validate().is_err());
    }
}
