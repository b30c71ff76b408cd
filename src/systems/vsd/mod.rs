//! Against the Darkmaster: open-ended rolls, concentration, the casting table, magic points, saves,
//! resonance, spell failure and overcasting (docs/rules.md VSD-*).

pub mod event;
pub mod render;
pub mod rules;
pub mod sample;
pub mod sheet;
pub mod spec;
pub mod state;

/// Against the Darkmaster, as the registry holds it: the contract's traits are implemented in the
/// layer files of this folder.
pub struct Vsd;
