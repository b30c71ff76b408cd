//! Character sheets as entered when a character is added. Everything that changes later is computed by
//! replay; the sheet is only the starting point.

use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::systems::adg::sheet::AdgSheet;
pub use crate::systems::vsd::sheet::{Lore, VsdSheet};

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

/// A character's sheet: one rule system's.
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
        match self {
            Sheet::Adg(s) => s.validate(),
            Sheet::Vsd(s) => s.validate(),
        }
    }
}
