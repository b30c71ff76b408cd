//! What a rule system implements for the core, one file per layer (the model's is `event.rs`). It
//! names no system: a system depends on the contract, and the core reaches a system only through it.

pub mod command;
pub mod event;
pub mod port;
pub mod render;
pub mod rules;
pub mod sample;
pub mod state;
