//! What waits on someone at the table, as the live page lists it.

use crate::state::CampaignState;

/// Everything that waits on someone at the table: each sealed die not yet revealed (never its
/// value, which the page does not know) and how it opens, then what each rule system says waits.
pub fn at_the_table(state: &CampaignState) -> Vec<String> {
    let mut lines: Vec<String> = state
        .sealed_pending
        .iter()
        .map(|(seq, dice)| {
            let dice = crate::words::count(dice.len() as u64, "die", "dice");
            match crate::rules::campaign::opens_by_reveal(state, *seq) {
                Ok(()) => {
                    format!("{dice} sealed at #{seq}, to be revealed (`grimoire reveal {seq}`)")
                }
                Err(why) => format!("{dice} sealed at #{seq}; {why}"),
            }
        })
        .collect();
    lines.extend(crate::render::waiting(state));
    lines
}
