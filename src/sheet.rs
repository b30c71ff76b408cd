//! Character sheets as entered when a character is added. Everything that changes later is computed by
//! replay; the sheet is only the starting point. Each system's sheet is its own, in its folder; the
//! registry holds the closed list of them.

pub use crate::systems::registry::{Sheet, SystemId as System};
