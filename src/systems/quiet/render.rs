//! A Quiet Game's words.

use super::Quiet;
use super::event::{Eased, QuietEvent};
use super::sheet::QuietSheet;
use crate::systems::contract::render::SystemWords;

impl SystemWords for Quiet {
    fn describe(event: &QuietEvent) -> String {
        match event {
            QuietEvent::Steadied {
                character, strain, ..
            } => format!("{character} steadies: strain +{strain}"),
        }
    }
    fn sheet_words(sheet: &QuietSheet) -> String {
        format!("A Quiet Game, level {}: calm {}", sheet.level, sheet.calm)
    }
    const SHORT: &'static str = "Quiet";
    fn level(character: &super::state::QuietCharacter) -> u32 {
        character.level
    }
    fn rest_words(share: &Eased) -> String {
        format!("{} eases {} strain", share.character, share.eased)
    }
}
