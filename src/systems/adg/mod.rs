//! A Dungeon Game: rituals learned or lost for good, casting, exertion, mishaps, safe rituals per
//! day, and scrolls written in downtime, read, reused, damaged and learned from (docs/rules.md
//! ADG-*).

pub mod event;
pub mod render;
pub mod rules;
pub mod sample;
pub mod sheet;
pub mod spec;
pub mod state;
pub mod tables;

/// A Dungeon Game, as the registry holds it: the contract's traits are implemented in the layer
/// files of this folder.
pub struct Adg;
