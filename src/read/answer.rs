//! A phone's answer as one write: the answer and the events of the command it completed.

use crate::Error;
use crate::event::{Event, Recorded};
use crate::seq::Seq;
use crate::store::Store;

/// The answer at `seq` and the events its command recorded in the same write (same moment and
/// actor, up to the next answer).
pub fn with_what_it_completed(store: &mut Store, seq: Seq) -> Result<Vec<Recorded>, Error> {
    let Some(answer) = store.event(seq)? else {
        return Ok(Vec::new());
    };
    let mut events = vec![answer];
    let mut next = seq + 1;
    while let Some(r) = store.event(next)? {
        let same_write = r.recorded_at == events[0].recorded_at && r.actor == events[0].actor;
        if !same_write || matches!(r.event, Event::RollAnswered { .. }) {
            break;
        }
        events.push(r);
        next += 1;
    }
    Ok(events)
}
