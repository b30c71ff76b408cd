//! A long replay's payloads read into events on a second thread while this one folds them. Reading
//! a payload into its event is two thirds of a full replay, and independent of the state, so on two
//! cores the fold no longer waits for it; and while the second thread is behind, this one reads the
//! chunk in hand itself. A short replay (a snapshot's tail) never starts a thread.

use super::StoreError;
use super::backend::{Payload, VisitPayload};
use crate::event::Event;
use crate::seq::Seq;
use std::collections::VecDeque;
use std::sync::mpsc;

/// When a replay starts its second thread, and how much it hands over at a time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pace {
    /// Rows read into events on this thread before the second one is worth starting.
    read_here_first: usize,
    /// Rows handed over at a time: a message per row cost more in waking threads than reading
    /// it did, and a chunk of 1,024 rows replayed a tenth quicker than one of 256 (or 4,096).
    chunk: usize,
}

impl Pace {
    pub(super) const REPLAY: Pace = Pace {
        read_here_first: 1024,
        chunk: 1024,
    };
}

/// Chunks handed over and not yet read back: the second thread works on while this one folds, and
/// a long replay never piles up in memory (eight ahead replayed no quicker than two, with a
/// third more memory at its peak).
const AHEAD: usize = 2;

/// Shows `visit` each event of the rows `rows` gives (a log's [`payloads`](super::backend::LogRead::payloads)), in their
/// order; the first row that does not read ends the replay with its damage, as a replay on one
/// thread would.
pub(super) fn each_event(
    pace: Pace,
    rows: impl FnOnce(VisitPayload<'_>) -> Result<(), StoreError>,
    visit: &mut dyn FnMut(Seq, &Event),
) -> Result<(), StoreError> {
    std::thread::scope(|scope| {
        let mut read_here = 0;
        let mut ahead: Option<Ahead> = None;
        // Whether the replay ended on an event it could not read or fold, rather than on a row the
        // log could not give.
        let mut ended_here = false;
        let given = rows(&mut |row| {
            let shown = if read_here < pace.read_here_first {
                read_here += 1;
                decode_payload(&row).map(|event| visit(row.seq, &event))
            } else {
                ahead
                    .get_or_insert_with(|| Ahead::start(scope))
                    .take(row, pace.chunk, visit)
            };
            ended_here = shown.is_err();
            shown
        });
        if ended_here {
            return given;
        }
        // The rows handed over before one the log could not give are read first: one of them may
        // be the first damage, as a replay on one thread would find it.
        let finished = match ahead {
            Some(ahead) => ahead.finish(visit),
            None => Ok(()),
        };
        finished.and(given)
    })
}

/// Reads a payload's event, as `replay::decode` reads a row's; a payload that does not read is
/// damage, named by its seq.
pub(super) fn decode_payload(row: &Payload<'_>) -> Result<Event, StoreError> {
    Event::from_stored(row.kind, row.schema_version, row.payload).map_err(|reason| {
        StoreError::Damaged {
            seq: row.seq,
            reason,
        }
    })
}

/// Rows copied for the second thread: their kinds and payloads one after another in one string.
#[derive(Default)]
struct Rows {
    text: String,
    /// Each row's seq, payload version, and where its kind and its payload end in `text`.
    rows: Vec<(Seq, u32, usize, usize)>,
}

impl Rows {
    fn push(&mut self, row: &Payload<'_>) {
        self.text.push_str(row.kind);
        let kind_end = self.text.len();
        self.text.push_str(row.payload);
        self.rows
            .push((row.seq, row.schema_version, kind_end, self.text.len()));
    }

    /// Empty rows with room for as many as these hold.
    fn as_large_again(&self) -> Rows {
        Rows {
            text: String::with_capacity(self.text.len()),
            rows: Vec::with_capacity(self.rows.len()),
        }
    }

    fn each(&self) -> impl Iterator<Item = Payload<'_>> {
        let mut start = 0;
        self.rows
            .iter()
            .map(move |&(seq, schema_version, kind_end, end)| {
                let row = Payload {
                    seq,
                    kind: &self.text[start..kind_end],
                    schema_version,
                    payload: &self.text[kind_end..end],
                };
                start = end;
                row
            })
    }
}

type Read = Vec<Result<(Seq, Event), StoreError>>;

/// The rows' events, in their order.
fn read_rows(rows: &Rows) -> Read {
    rows.each()
        .map(|row| decode_payload(&row).map(|event| (row.seq, event)))
        .collect()
}

/// A chunk of rows handed on, in the order they are folded.
enum Chunk {
    /// Read by the second thread: its events come back in the order the chunks went.
    There,
    /// Read here, while the second thread was behind.
    Here(Read),
}

/// The second thread, as this one sees it.
struct Ahead {
    filling: Rows,
    to_read: mpsc::SyncSender<Rows>,
    read: mpsc::Receiver<Read>,
    /// Events already folded go back to be freed where they were made: freeing memory another
    /// thread allocated cost a sixth of this thread's time.
    folded: mpsc::Sender<Read>,
    /// The chunks handed on and not yet folded, oldest first.
    unfolded: VecDeque<Chunk>,
}

impl Ahead {
    fn start<'scope>(scope: &'scope std::thread::Scope<'scope, '_>) -> Self {
        let (to_read, unread) = mpsc::sync_channel::<Rows>(AHEAD);
        let (read_out, read) = mpsc::channel::<Read>();
        let (folded, to_free) = mpsc::channel::<Read>();
        scope.spawn(move || {
            for rows in unread {
                while let Ok(done) = to_free.try_recv() {
                    drop(done);
                }
                if read_out.send(read_rows(&rows)).is_err() {
                    break;
                }
            }
        });
        Ahead {
            filling: Rows::default(),
            to_read,
            read,
            folded,
            unfolded: VecDeque::new(),
        }
    }

    fn take(
        &mut self,
        row: Payload<'_>,
        chunk: usize,
        visit: &mut dyn FnMut(Seq, &Event),
    ) -> Result<(), StoreError> {
        self.filling.push(&row);
        if self.filling.rows.len() < chunk {
            return Ok(());
        }
        let next = self.filling.as_large_again();
        let rows = std::mem::replace(&mut self.filling, next);
        self.hand_on(rows)?;
        self.fold_ready(visit, false)
    }

    /// Hands a chunk to the second thread, or reads it here while that thread is behind: reading
    /// payloads is twice the folding, so on two cores this thread shares it rather than wait idle.
    fn hand_on(&mut self, rows: Rows) -> Result<(), StoreError> {
        match self.to_read.try_send(rows) {
            Ok(()) => self.unfolded.push_back(Chunk::There),
            Err(mpsc::TrySendError::Full(rows)) => {
                self.unfolded.push_back(Chunk::Here(read_rows(&rows)))
            }
            Err(mpsc::TrySendError::Disconnected(_)) => return Err(Self::gone()),
        }
        Ok(())
    }

    /// Folds the chunks handed on, oldest first, as far as they are read: all of them when
    /// `every`, else until the second thread's next is not read yet (waiting for it once this
    /// thread holds more chunks of its own than the second thread has ahead of it).
    fn fold_ready(
        &mut self,
        visit: &mut dyn FnMut(Seq, &Event),
        every: bool,
    ) -> Result<(), StoreError> {
        while let Some(oldest) = self.unfolded.pop_front() {
            match oldest {
                Chunk::Here(events) => fold_here(events, visit)?,
                Chunk::There => {
                    let held_here = self
                        .unfolded
                        .iter()
                        .filter(|c| matches!(c, Chunk::Here(_)))
                        .count();
                    let events = match every || held_here >= AHEAD {
                        true => self.read.recv().map_err(|_| Self::gone())?,
                        false => match self.read.try_recv() {
                            Ok(events) => events,
                            Err(mpsc::TryRecvError::Empty) => {
                                self.unfolded.push_front(Chunk::There);
                                return Ok(());
                            }
                            Err(mpsc::TryRecvError::Disconnected) => return Err(Self::gone()),
                        },
                    };
                    self.fold(events, visit)?;
                }
            }
        }
        Ok(())
    }

    fn fold(&self, events: Read, visit: &mut dyn FnMut(Seq, &Event)) -> Result<(), StoreError> {
        fold(&self.folded, events, visit)
    }

    fn finish(mut self, visit: &mut dyn FnMut(Seq, &Event)) -> Result<(), StoreError> {
        let last = std::mem::take(&mut self.filling);
        if !last.rows.is_empty() {
            self.unfolded.push_back(Chunk::Here(read_rows(&last)));
        }
        self.fold_ready(visit, true)
    }

    /// The second thread ends only once this one stops handing it rows, unless it panicked (which
    /// the scope passes on when it ends).
    fn gone() -> StoreError {
        StoreError::Internal("the thread reading the log's payloads stopped".to_string())
    }
}

/// Shows `visit` the events read, and sends them back to be freed; the first that did not read
/// ends the replay.
fn fold(
    folded: &mpsc::Sender<Read>,
    mut events: Read,
    visit: &mut dyn FnMut(Seq, &Event),
) -> Result<(), StoreError> {
    let damaged = events.iter().position(Result::is_err);
    let good = damaged.unwrap_or(events.len());
    for (seq, event) in events[..good].iter().flatten() {
        visit(*seq, event);
    }
    if let Some(at) = damaged {
        return Err(events.swap_remove(at).err().unwrap_or_else(Ahead::gone));
    }
    // Once the second thread has stopped, what is left is freed here.
    let _ = folded.send(events);
    Ok(())
}

/// Shows `visit` the events read on this thread; the first that did not read ends the replay.
fn fold_here(events: Read, visit: &mut dyn FnMut(Seq, &Event)) -> Result<(), StoreError> {
    for read in events {
        let (seq, event) = read?;
        visit(seq, &event);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Pace, each_event};
    use crate::event::{Event, SCHEMA_VERSION};
    use crate::seq::Seq;
    use crate::store::StoreError;
    use crate::store::backend::Payload;
    use crate::time::GameDuration;
    use proptest::prelude::*;

    /// A log of `count` clock advances, each by as many seconds as its seq; the row at `damaged`
    /// holds a payload that does not read.
    fn log(count: u64, damaged: Option<u64>) -> Vec<(Seq, String)> {
        (1..=count)
            .map(|n| {
                let payload = if Some(n) == damaged {
                    r#"{"kind":"clock_advanced","by":"an hour"}"#.to_string()
                } else {
                    Event::ClockAdvanced {
                        by: GameDuration(n),
                    }
                    .to_payload()
                };
                (Seq(n), payload)
            })
            .collect()
    }

    /// Replays `rows` at `pace`: what `visit` was shown, in order, and how the replay ended.
    fn replayed(rows: &[(Seq, String)], pace: Pace) -> (Vec<(Seq, Event)>, Result<(), StoreError>) {
        replayed_until(rows, pace, None)
    }

    /// As [`replayed`], the log failing to give the row at `cut` (as a file whose row holds text
    /// that is not UTF-8 fails).
    fn replayed_until(
        rows: &[(Seq, String)],
        pace: Pace,
        cut: Option<Seq>,
    ) -> (Vec<(Seq, Event)>, Result<(), StoreError>) {
        let mut seen = Vec::new();
        let ended = each_event(
            pace,
            |visit| {
                rows.iter().try_for_each(|(seq, payload)| {
                    if Some(*seq) == cut {
                        return Err(StoreError::Internal(format!("row {seq} not given")));
                    }
                    visit(Payload {
                        seq: *seq,
                        kind: "clock_advanced",
                        schema_version: SCHEMA_VERSION,
                        payload,
                    })
                })
            },
            &mut |seq, event| seen.push((seq, event.clone())),
        );
        (seen, ended)
    }

    fn pace() -> impl Strategy<Value = Pace> {
        (0usize..40, 1usize..12).prop_map(|(read_here_first, chunk)| Pace {
            read_here_first,
            chunk,
        })
    }

    proptest! {
        /// However the rows are split between the two threads, replay is shown every event once,
        /// in seq order, as one thread reading each row in turn shows it.
        #[test]
        fn every_event_is_shown_once_in_seq_order(count in 0u64..300, pace in pace()) {
            let rows = log(count, None);
            let (seen, ended) = replayed(&rows, pace);
            prop_assert!(ended.is_ok());
            let expected: Vec<(Seq, Event)> = (1..=count)
                .map(|n| (Seq(n), Event::ClockAdvanced { by: GameDuration(n) }))
                .collect();
            prop_assert_eq!(seen, expected);
        }

        /// A row that does not read ends the replay with its damage, named by its seq, and no
        /// event after it is shown, whichever thread read it.
        #[test]
        fn a_damaged_row_ends_the_replay_there(
            count in 1u64..300,
            at in any::<prop::sample::Index>(),
            pace in pace(),
        ) {
            let damaged = at.index(count as usize) as u64 + 1;
            let (seen, ended) = replayed(&log(count, Some(damaged)), pace);
            prop_assert!(
                matches!(ended, Err(StoreError::Damaged { seq, .. }) if seq == Seq(damaged)),
                "ended {ended:?}"
            );
            let shown: Vec<Seq> = seen.iter().map(|(seq, _)| *seq).collect();
            prop_assert_eq!(shown, (1..damaged).map(Seq).collect::<Vec<_>>());
        }

        /// A row the log cannot give ends the replay, but only after every row before it, which
        /// the second thread may still hold: a damaged one among them is named first, as one
        /// thread reading each row in turn names it, and nothing after the first problem is shown.
        #[test]
        fn a_row_the_log_cannot_give_ends_the_replay_after_the_rows_before_it(
            count in 2u64..300,
            at in any::<prop::sample::Index>(),
            damaged in any::<Option<prop::sample::Index>>(),
            pace in pace(),
        ) {
            let cut = at.index(count as usize) as u64 + 1;
            let damaged = damaged.map(|d| d.index(count as usize) as u64 + 1);
            let (seen, ended) = replayed_until(&log(count, damaged), pace, Some(Seq(cut)));
            let first = damaged.filter(|&d| d < cut).unwrap_or(cut);
            match ended {
                Err(StoreError::Damaged { seq, .. }) => prop_assert_eq!(seq, Seq(first)),
                Err(StoreError::Internal(said)) => {
                    prop_assert_eq!(first, cut);
                    prop_assert_eq!(said, format!("row {cut} not given"));
                }
                other => prop_assert!(false, "ended {:?}", other),
            }
            let shown: Vec<Seq> = seen.iter().map(|(seq, _)| *seq).collect();
            prop_assert_eq!(shown, (1..first).map(Seq).collect::<Vec<_>>());
        }
    }
}
