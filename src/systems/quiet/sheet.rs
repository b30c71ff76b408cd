//! A Quiet Game's sheet as entered: a level and how much calm the character has.

use super::Quiet;
use super::event::{Eased, QuietEvent};
use crate::systems::contract::event::{SystemModel, SystemSheet, within};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietSheet {
    pub level: u32,
    pub calm: u32,
}

impl SystemSheet for QuietSheet {
    fn max_health(&self) -> Option<u32> {
        None
    }
    fn validate(&self) -> Result<(), String> {
        within("level", self.level, 1, 20)?;
        within("calm", self.calm, 1, 20)
    }
}

impl SystemModel for Quiet {
    const KEY: &'static str = "quiet";
    const NAME: &'static str = "A Quiet Game";
    type Sheet = QuietSheet;
    type Event = QuietEvent;
    type RestShare = Eased;
}
