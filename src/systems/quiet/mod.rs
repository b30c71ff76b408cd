//! A Quiet Game: a third rule system compiled only in tests, to prove that a system is its folder
//! and one line in each of the registry's lists. It has a sheet, one per-character value, one
//! command drawing one die, one event and a share of a rest, and names nothing of the core's rule
//! systems. A character steadies their nerves (strain rises by a d4) and rest eases strain; strain
//! beyond calm takes them out of play.

pub mod event;
pub mod render;
pub mod rules;
pub mod sample;
pub mod sheet;
pub mod spec;
pub mod state;
#[cfg(test)]
mod tests;

/// A Quiet Game, as the registry holds it: the contract's traits are implemented in the layer
/// files of this folder.
pub struct Quiet;
