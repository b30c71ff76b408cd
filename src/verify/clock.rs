//! The in-game clock as each event was recorded, against which its stored time is checked.

use crate::event::Event;
use crate::seq::Seq;
use std::collections::{BTreeMap, BTreeSet};

/// The in-game clock as the table saw it when each event was recorded, kept in one pass: every event
/// moves it as replay would, and a retraction takes effect from where it was recorded (winding back
/// what it undid, or forward what it restored), while events stamped before it keep their time. An
/// event's stored `game_time` must be this clock: a time written into the file or an export by hand
/// (Day 106751991167301, then Day 1) is caught.
#[derive(Debug, Default)]
pub struct RecordedClock {
    clock: u64,
    /// How far each event that moved the clock moved it.
    moves: BTreeMap<Seq, u64>,
    /// Each retraction's target.
    targets: BTreeMap<Seq, Seq>,
    /// The retractions in effect so far, by the event each undoes: an event is undone while any
    /// retraction of it is in effect (a retraction undone itself is not), as replay settles them.
    undoing: BTreeMap<Seq, BTreeSet<Seq>>,
}

impl RecordedClock {
    /// Checks `event`'s stored time against the clock, then moves the clock past it.
    pub fn check(&mut self, seq: Seq, game_time: u64, event: &Event) -> Result<(), String> {
        let result = if game_time == self.clock {
            Ok(())
        } else {
            Err(format!(
                "#{seq} is stamped {} ({game_time} s), but the in-game clock stood at {} ({} s) when it was recorded (its time was edited)",
                crate::time::GameTime(game_time),
                crate::time::GameTime(self.clock),
                self.clock
            ))
        };
        // How far the event moves the clock: what replay's own fold makes of it, from zero.
        let mut probe = crate::state::CampaignState::default();
        probe.apply(seq, event);
        let moved = probe.clock.seconds();
        if moved > 0 {
            self.moves.insert(seq, moved);
            self.clock = self.clock.saturating_add(moved);
        }
        // Only a retraction of an earlier event takes effect (`verify` names any other as forged).
        if let Event::Retracted { seq: target, .. } = event
            && *target < seq
        {
            self.targets.insert(seq, *target);
            self.retraction_takes_effect(seq, true);
        }
        result
    }

    /// The event the retraction at `retraction` undoes, if it is one.
    pub fn target_of(&self, retraction: Seq) -> Option<Seq> {
        self.targets.get(&retraction).copied()
    }

    /// Whether the event at `seq` is in effect: no retraction of it is.
    pub fn in_effect(&self, seq: Seq) -> bool {
        self.undoing.get(&seq).is_none_or(BTreeSet::is_empty)
    }

    /// The retraction `retraction` comes into effect (`on`) or ceases to (undone itself); its
    /// target is undone or restored when that changes whether any retraction of it is in effect,
    /// and so on down the chain (restoring a retraction undoes its target again).
    fn retraction_takes_effect(&mut self, retraction: Seq, on: bool) {
        let mut changes = vec![(retraction, on)];
        while let Some((retraction, on)) = changes.pop() {
            let Some(&target) = self.targets.get(&retraction) else {
                continue;
            };
            let undoing = self.undoing.entry(target).or_default();
            let was_in_effect = undoing.is_empty();
            if on {
                undoing.insert(retraction);
            } else {
                undoing.remove(&retraction);
            }
            let in_effect = undoing.is_empty();
            if in_effect == was_in_effect {
                continue;
            }
            if let Some(&moved) = self.moves.get(&target) {
                self.clock = if in_effect {
                    self.clock.saturating_add(moved)
                } else {
                    self.clock.saturating_sub(moved)
                };
            }
            // The target, when a retraction itself, takes effect again or ceases to.
            changes.push((target, in_effect));
        }
    }
}
