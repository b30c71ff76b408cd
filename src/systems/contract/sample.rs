//! The sample half of the contract: how a rule system's characters play in the generator's long
//! campaigns (`grimoire dev generate`, the benchmarks), so the generator names no system.

use super::port::View;
use super::rules::SystemRules;
use crate::time::GameDuration;
use rand::rngs::StdRng;

/// One thing a generated character does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sampled<S: SystemRules> {
    /// One of the system's commands.
    Own(S::Command),
    /// Nothing worth a command: time passes.
    Wait(GameDuration),
    /// A span of downtime weeks for the character alone: `own` is their one week of the
    /// system's own activity, if any, and the other weeks rest.
    Downtime { weeks: u32, own: Option<S::Week> },
}

pub trait SystemSample: SystemRules {
    /// The word the generator's characters of the system are named by ("Adept" gives Adept0).
    const SAMPLE_NAME: &'static str;
    /// The sheet of the generator's `i`-th character, a character of this system.
    fn sample_sheet(i: usize) -> Self::Sheet;
    /// What a new character of the generator's does first (learning a ritual or a spell).
    fn sample_start(name: &str) -> Vec<Self::Command>;
    /// One thing `who` does at the table, for `roll` (36 to 99: the core's own things take the
    /// rolls below), drawing any further choice from `rng`.
    fn sample_step(state: &dyn View<Self>, who: &str, roll: u32, rng: &mut StdRng)
    -> Sampled<Self>;
}
