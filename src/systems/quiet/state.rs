//! What replay keeps for a Quiet Game character: their strain.

use super::Quiet;
use super::event::{Eased, QuietEvent};
use super::sheet::QuietSheet;
use crate::seq::Seq;
use crate::systems::contract::port::Fold;
use crate::systems::contract::state::SystemFold;
use crate::time::GameTime;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietCharacter {
    pub level: u32,
    pub calm: u32,
    pub strain: u32,
}

impl SystemFold for Quiet {
    type Character = QuietCharacter;
    type Campaign = ();

    fn new_character(sheet: &QuietSheet) -> QuietCharacter {
        QuietCharacter {
            level: sheet.level,
            calm: sheet.calm,
            strain: 0,
        }
    }
    fn follow_sheet(character: &mut QuietCharacter, _old: &QuietSheet, new: &QuietSheet) {
        character.level = new.level;
        character.calm = new.calm;
    }
    fn correct(character: &mut QuietCharacter, old: &QuietSheet, new: &QuietSheet) -> bool {
        Quiet::follow_sheet(character, old, new);
        Quiet::is_dead(character)
    }
    fn is_dead(character: &QuietCharacter) -> bool {
        character.strain > character.calm
    }
    fn end(character: &mut QuietCharacter) {
        character.strain = character.calm + 1;
    }
    fn forget_expired(_character: &mut QuietCharacter, _now: GameTime) {}
    fn apply(state: &mut dyn Fold<Quiet>, _seq: Seq, event: &QuietEvent) {
        match event {
            QuietEvent::Steadied {
                character, strain, ..
            } => {
                if let Some(mine) = state.mine_mut(character) {
                    mine.strain += strain;
                }
            }
        }
    }
    fn apply_rest(state: &mut dyn Fold<Quiet>, share: &Eased) {
        if let Some(mine) = state.mine_mut(&share.character) {
            mine.strain = mine.strain.saturating_sub(share.eased);
        }
    }
}
