//! A Quiet Game's events, and its share of a rest.

use crate::dice::Die;
use crate::systems::contract::event::{Share, SystemEvent};
use serde::{Deserialize, Serialize};

crate::systems::contract::event::event_enum! {
    /// A Quiet Game's events.
    QuietEvent / QuietEventOfKind = "QuietEvent" {
    /// A character steadied their nerves: strain rose by the die.
    Steadied {
        character: String,
        strain: u32,
        dice: Vec<Die>,
    },
    }
}

impl SystemEvent for QuietEvent {
    fn kind(&self) -> &'static str {
        match self {
            QuietEvent::Steadied { .. } => "steadied",
        }
    }
    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            QuietEvent::Steadied { character, .. } => is(character),
        }
    }
    fn dice(&self) -> &[Die] {
        match self {
            QuietEvent::Steadied { dice, .. } => dice,
        }
    }
    fn actions(&self) -> Vec<crate::systems::contract::event::Action<'_>> {
        match self {
            QuietEvent::Steadied { .. } => Vec::new(),
        }
    }
    fn is_retractable(&self) -> bool {
        match self {
            QuietEvent::Steadied { .. } => true,
        }
    }
    fn continues_its_command(&self) -> bool {
        match self {
            QuietEvent::Steadied { .. } => false,
        }
    }
}

/// The strain a rest eased for one character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eased {
    pub character: String,
    pub eased: u32,
}

impl Share for Eased {
    fn character(&self) -> &str {
        &self.character
    }
}
