//! How A Quiet Game's characters play in the generator's long campaigns: they steady themselves.

use super::Quiet;
use super::rules::QuietCommand;
use super::sheet::QuietSheet;
use crate::systems::contract::port::View;
use crate::systems::contract::sample::{Sampled, SystemSample};
use rand::rngs::StdRng;

impl SystemSample for Quiet {
    const SAMPLE_NAME: &'static str = "Calm";

    fn sample_sheet(i: usize) -> QuietSheet {
        QuietSheet {
            level: 1 + (i as u32 % 3),
            calm: 12,
        }
    }

    fn sample_start(_name: &str) -> Vec<QuietCommand> {
        Vec::new()
    }

    fn sample_step(
        _state: &dyn View<Quiet>,
        who: &str,
        _roll: u32,
        _rng: &mut StdRng,
    ) -> Sampled<Quiet> {
        Sampled::Own(QuietCommand::Steady {
            character: who.to_string(),
        })
    }
}
