//! Character sheets as entered when a character is added. Everything that changes later is computed by
//! replay; the sheet is only the starting point.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which rule system a character plays under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    Adg,
    Vsd,
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            System::Adg => "A Dungeon Game",
            System::Vsd => "Against the Darkmaster",
        })
    }
}

/// An A Dungeon Game character (docs/rules.md ADG-C1, ADG-C2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdgSheet {
    pub level: u32,
    pub agility: u32,
    pub brawn: u32,
    pub cunning: u32,
    pub health: u32,
    pub silver: u64,
}

/// One Spell Lore of a VsD caster: its total bonus and the ranks bought in it.
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "lowercase")]
pub enum Sheet {
    Adg(AdgSheet),
    Vsd(VsdSheet),
}

impl Sheet {
    pub fn system(&self) -> System {
        match self {
            Sheet::Adg(_) => System::Adg,
            Sheet::Vsd(_) => System::Vsd,
        }
    }

    pub fn max_health(&self) -> Option<u32> {
        match self {
            Sheet::Adg(s) => Some(s.health),
            Sheet::Vsd(s) => s.health,
        }
    }

    /// Checks the ranges a sheet must respect; the message says which value is off and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        fn within<T: PartialOrd + fmt::Display>(
            what: &str,
            value: T,
            low: T,
            high: T,
        ) -> Result<(), String> {
            if value < low || value > high {
                return Err(format!("{what} must be {low} to {high}, not {value}"));
            }
            Ok(())
        }
        match self {
            Sheet::Adg(s) => {
                // Adventurer Levels run 1–10 (ADG-C2); attributes are checked with a d20, so above 20
                // a check could never fail.
                within("--level", s.level, 1, 10)?;
                within("--agility", s.agility, 1, 20)?;
                within("--brawn", s.brawn, 1, 20)?;
                within("--cunning", s.cunning, 1, 20)?;
                within("--health", s.health, 1, 999)?;
                within("--silver", s.silver, 0, 1_000_000_000)
            }
            Sheet::Vsd(s) => {
                within("--level", s.level, 1, 50)?;
                within("--mp", s.mp, 0, 999)?;
                within("--drive", s.drive, 0, 99)?;
                within("--body", s.body, 1, 999)?;
                within("--wsr", s.wsr, -100, 300)?;
                within("--defense", s.defense, -100, 300)?;
                if let Some(health) = s.health {
                    within("--health", health, 1, 999)?;
                }
                if s.vocation.trim().is_empty() {
                    return Err("--vocation must name a vocation, e.g. wizard or animist".into());
                }
                let mut seen = std::collections::BTreeSet::new();
                for lore in &s.lores {
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

    #[test]
    fn adg_c2_levels_run_one_to_ten() {
        let sheet = |level| {
            Sheet::Adg(AdgSheet {
                level,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 8,
                silver: 0,
            })
        };
        assert!(sheet(1).validate().is_ok());
        assert!(sheet(10).validate().is_ok());
        assert!(
            sheet(0)
                .validate()
                .unwrap_err()
                .contains("--level must be 1 to 10")
        );
        assert!(sheet(11).validate().is_err());
    }
}
