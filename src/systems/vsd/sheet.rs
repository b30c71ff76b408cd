//! An Against the Darkmaster character's sheet as entered when they are added. Everything that
//! changes later is computed by replay.

use crate::systems::contract::event::{SystemModel, SystemSheet, within};
use serde::{Deserialize, Serialize};

/// One Spell Lore of a VsD caster: its total bonus and the ranks bought in it.
/// The most Drive a sheet holds; play never takes it past this either.
pub const MAX_DRIVE: u32 = 99;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lore {
    pub name: String,
    pub bonus: i32,
    pub ranks: u32,
}

/// An Against the Darkmaster character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VsdSheet {
    pub level: u32,
    /// Lowercase; `wizard` and `animist` matter to the rules (overcasting), any other is allowed.
    pub vocation: String,
    pub lores: Vec<Lore>,
    pub mp: u32,
    pub drive: u32,
    pub body: i32,
    pub wsr: i32,
    pub defense: i32,
    /// Optional: VsD tables that track hits with grimoire give a health maximum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<u32>,
}

impl SystemModel for super::Vsd {
    const KEY: &'static str = "vsd";
    const NAME: &'static str = "Against the Darkmaster";
    type Sheet = VsdSheet;
    type Event = super::event::VsdEvent;
    type RestShare = super::event::MpRestored;
}

impl SystemSheet for VsdSheet {
    fn max_health(&self) -> Option<u32> {
        self.health
    }

    fn validate(&self) -> Result<(), String> {
        within("level", self.level, 1, 50)?;
        within("mp", self.mp, 0, 999)?;
        within("drive", self.drive, 0, MAX_DRIVE)?;
        within("body", self.body, 1, 999)?;
        within("wsr", self.wsr, -100, 300)?;
        within("defense", self.defense, -100, 300)?;
        if let Some(health) = self.health {
            within("health", health, 1, 999)?;
        }
        if self.vocation.trim().is_empty() {
            return Err("the vocation must name one, e.g. wizard or animist".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for lore in &self.lores {
            within(
                &format!("the bonus of lore {}", lore.name),
                lore.bonus,
                -100,
                300,
            )?;
            within(
                &format!("the ranks of lore {}", lore.name),
                lore.ranks,
                0,
                50,
            )?;
            if !seen.insert(lore.name.to_lowercase()) {
                return Err(format!("lore {} is given twice", lore.name));
            }
        }
        Ok(())
    }
}

impl Lore {
    /// Reads `NAME=BONUS:RANKS`, e.g. `Elementalism=45:6`.
    pub fn parse(text: &str) -> Result<Lore, String> {
        let hint = "write a lore as NAME=BONUS:RANKS, e.g. Elementalism=45:6";
        let (name, numbers) = text
            .split_once('=')
            .ok_or_else(|| format!("'{text}' has no '='; {hint}"))?;
        let (bonus, ranks) = numbers
            .split_once(':')
            .ok_or_else(|| format!("'{text}' has no ':' between bonus and ranks; {hint}"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("'{text}' has no lore name; {hint}"));
        }
        let bonus = bonus
            .trim()
            .parse()
            .map_err(|_| format!("'{bonus}' is not a whole-number bonus; {hint}"))?;
        let ranks = ranks
            .trim()
            .parse()
            .map_err(|_| format!("'{ranks}' is not a number of ranks; {hint}"))?;
        Ok(Lore {
            name: name.to_string(),
            bonus,
            ranks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lores_parse_from_name_bonus_and_ranks() {
        assert_eq!(
            Lore::parse("Elementalism=45:6").unwrap(),
            Lore {
                name: "Elementalism".into(),
                bonus: 45,
                ranks: 6
            }
        );
        assert_eq!(Lore::parse(" Dark Arts = -5 : 0").unwrap().bonus, -5);
        for bad in ["Elementalism", "E=45", "=4:5", "E=x:1", "E=4:-1"] {
            assert!(
                Lore::parse(bad).unwrap_err().contains("NAME=BONUS:RANKS"),
                "{bad}"
            );
        }
    }
}
