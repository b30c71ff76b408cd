//! The rule systems, one closed module each: its sheet, its events and the tables they carry, its
//! per-character state and how events change it, its commands, rules and refusals, and its log
//! lines. What crosses systems stays in the core (`event/`, `state/`, `rules/`): characters and
//! health, the clock, sessions, dice and epochs, rests and party downtime, spells in force on anyone.
//!
//! Inside a system the layers keep their order: `event`, `tables` and `sheet` are the model and
//! import nothing above it; `state` folds the model; `rules` decides; `render` words the events.
//! docs/architecture.md has the checklist for adding a third system.

pub mod adg;
pub mod contract;
#[cfg(test)]
pub mod quiet;
pub mod registry;
pub mod vsd;
