//! An earlier event a command reads (a save's cast, an assessment's roll), as it stands.

use super::*;
use crate::time::GameTime;

/// The event at `seq` as the campaign holds it in force: an amended event is read as its newest
/// amendment made it (a save against a cast amended to another difficulty answers the amended
/// difficulty), at the time the original was recorded. `read` gives the log's rows.
pub fn in_force(
    state: &CampaignState,
    seq: Seq,
    read: &mut dyn FnMut(Seq) -> Option<(Event, GameTime)>,
) -> Option<(Event, GameTime)> {
    let (original, at) = read(seq)?;
    let amended = (state.amended.get(&seq)).and_then(|&amendment| match read(amendment) {
        Some((Event::Amended { event, .. }, _)) => Some(*event),
        _ => None,
    });
    Some((amended.unwrap_or(original), at))
}
