//! The sample half of the contract: how a rule system's characters play in the generator's long
//! campaigns (`grimoire dev generate`, the benchmarks), so the generator names no system.

use super::rules::SystemRules;
use crate::rules::Command;
use crate::state::CampaignState;
use rand::rngs::StdRng;

pub trait SystemSample: SystemRules {
    /// The word the generator's characters of the system are named by ("Adept" gives Adept0).
    const SAMPLE_NAME: &'static str;
    /// The sheet of the generator's `i`-th character, a character of this system.
    fn sample_sheet(i: usize) -> Self::Sheet;
    /// What a new character of the generator's does first (learning a ritual or a spell).
    fn sample_start(name: &str) -> Vec<Command>;
    /// One thing `who` does at the table, for `roll` (36 to 99: the core's own things take the
    /// rolls below), drawing any further choice from `rng`.
    fn sample_step(state: &CampaignState, who: &str, roll: u32, rng: &mut StdRng) -> Command;
}
