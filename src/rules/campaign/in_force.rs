//! An earlier event a command reads (a save's cast, an assessment's roll), as it stands.

use super::*;
use crate::time::GameTime;

/// The event at `seq` as the campaign holds it in force: an amended event is read as its newest
/// amendment made it (a save against a cast amended to another difficulty answers the amended
/// difficulty), at the time the original was recorded. `read` gives the log's rows.
pub fn in_force<E>(
    state: &CampaignState,
    seq: Seq,
    mut read: impl FnMut(Seq) -> Result<Option<(Event, GameTime)>, E>,
) -> Result<Option<(Event, GameTime)>, E> {
    let Some((original, at)) = read(seq)? else {
        return Ok(None);
    };
    let amended = match state.amended.get(&seq) {
        Some(&amendment) => match read(amendment)? {
            Some((Event::Amended { event, .. }, _)) => Some(*event),
            _ => None,
        },
        None => None,
    };
    Ok(Some((amended.unwrap_or(original), at)))
}
