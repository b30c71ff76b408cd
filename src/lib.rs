//! grimoire keeps a tabletop campaign's spellcasters as an append-only, hash-chained event log in
//! SQLite and computes every sheet by replaying it.
//!
//! One flow serves every command: [`rules::decide`] turns the replayed [`state::CampaignState`], a
//! command and the [`dice::Dice`] into [`event::Event`]s; the [`store::Store`] appends them in one
//! transaction; [`state::CampaignState::apply`] folds them back into state. `decide` and `apply` are
//! pure: randomness and time come in as parameters.

pub mod audit;
pub mod campaign;
pub mod cli;
pub mod command;
pub mod deferred;
pub mod dice;
pub mod differential;
pub mod error;
pub mod event;
pub mod generate;
pub mod ids;
pub mod read;
pub mod render;
pub mod report;
pub mod rules;
pub mod seq;
pub mod sheet;
pub mod state;
pub mod store;
pub mod systems;
#[cfg(test)]
pub(crate) mod testkit;
pub mod text;
pub mod time;
pub mod verify;
pub mod web;
pub mod words;

pub use campaign::Campaign;
pub use error::Error;
