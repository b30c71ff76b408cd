//! The order of [`Verifier`]'s seeded dice: roll numbers in the second derivation, draw order in
//! either, and how each epoch begins.

use super::Verifier;
use crate::event::{DERIVATION_NAMED_SINCE, Event};
use crate::seq::Seq;
use crate::store::StoredRow;
use std::collections::BTreeSet;

impl Verifier {
    /// Begins epoch `epoch` at `row`, its dice derived as `derivation` says (none: bound to the
    /// seq). Every grimoire that wrote payload version 3 or later named the derivation of each
    /// epoch it began, so an epoch of such a row without one was written by hand: its dice would
    /// be bound to nothing a player can hold it to but the seq.
    pub(super) fn start_epoch(&mut self, row: &StoredRow, epoch: u32, derivation: Option<u32>) {
        self.close_roll();
        if derivation.is_none() && row.schema_version >= DERIVATION_NAMED_SINCE {
            let seq = row.seq;
            self.dice_problem(
                seq,
                format!("#{seq}: dice epoch {epoch} names no derivation, which every grimoire writing payload version {DERIVATION_NAMED_SINCE} or later names"),
            );
        }
        self.counts_rolls = derivation.is_some();
        self.rolls = 0;
    }

    /// The second derivation's promise: the commands of an epoch that draw seeded dice carry roll
    /// numbers 0, 1, 2, … in log order, one each (shared by a command's events, never by two of
    /// its dice), retracted ones included, so no roll can be skipped or taken twice to choose a
    /// die. In an epoch of the first derivation, dice are bound to their seq and no roll number
    /// belongs on them.
    pub(super) fn check_roll_numbers(&mut self, row: &StoredRow, event: &Event) {
        let seq = row.seq;
        if self.run.1 != row.recorded_at {
            self.run = (self.run.0 + 1, row.recorded_at.clone());
        }
        let epoch = self.epoch;
        let seeded: Vec<&crate::dice::Die> = event
            .dice()
            .iter()
            .filter(|d| d.provenance.seeded_epoch() == Some(epoch))
            .collect();
        // An event that does not continue a command begins one, dice or not: a scroll written in
        // a downtime span whose downtime drew no die shares nothing with a roll made before it in
        // the same second.
        if !event.continues_its_command() {
            self.close_roll();
        }
        if seeded.is_empty() {
            return;
        }
        if !self.counts_rolls {
            if !self.report.seq_bound_epochs.contains(&epoch) {
                self.report.seq_bound_epochs.push(epoch);
            }
            if seeded.iter().any(|d| d.provenance.roll().is_some()) {
                self.dice_problem(seq, format!("#{seq}: its seeded dice carry a roll number, but epoch {epoch} binds its dice to their event's seq"));
                return;
            }
            // Bound to the seq, a command's seeded dice are still numbered 0 to k − 1 in draw
            // order, on across its events (a scroll written in a downtime span, in the same run
            // of rows): a die given another `n` would be another die of the derivation.
            let continues = event.continues_its_command()
                && self.roll_last.is_some_and(|(_, run)| run == self.run.0);
            if !continues {
                self.close_roll();
            }
            self.note_draws(seq, &seeded, &format!("#{seq}'s command"));
            return;
        }
        let numbers: BTreeSet<Option<u64>> = seeded.iter().map(|d| d.provenance.roll()).collect();
        let Some(&Some(roll)) = numbers.first().filter(|_| numbers.len() == 1) else {
            self.dice_problem(
                seq,
                format!("#{seq}: its seeded dice do not all carry one roll number, as every seeded die of epoch {epoch} must"),
            );
            return;
        };
        if roll == self.rolls {
            self.close_roll();
            self.rolls += 1;
        } else if roll.checked_add(1) != Some(self.rolls) {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: its seeded dice claim roll {roll} of epoch {epoch}, but the epoch's next roll is {}: a roll was skipped or taken again",
                    self.rolls
                ),
            );
            return;
        } else if !event.continues_its_command()
            || self.roll_last.is_none_or(|(_, run)| run != self.run.0)
        {
            // Only an event the rules record after another of its command (a scroll written in a
            // downtime span), in the same run of rows recorded at one moment, shares the
            // command's roll (a scroll that rolled nothing may stand between).
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: its seeded dice claim roll {roll} of epoch {epoch}, taken by an earlier command: a roll was taken again"
                ),
            );
            return;
        }
        self.note_draws(seq, &seeded, &format!("roll {roll}"));
    }

    /// Notes the seeded dice of the event at `seq` among its command's draws (`of`: which
    /// command, in words); a die drawn twice is named.
    fn note_draws(&mut self, seq: Seq, seeded: &[&crate::dice::Die], of: &str) {
        self.roll_last = Some((seq, self.run.0));
        for die in seeded {
            if !self.roll_draws.insert(die.n) {
                self.dice_problem(
                    seq,
                    format!("#{seq}: die {} of {of} was drawn before", die.n),
                );
            }
        }
    }

    /// The dice of the roll just finished must be numbered 0 to k − 1 in draw order, as grimoire
    /// draws them: a die whose `n` was moved would be another die of the derivation.
    pub(super) fn close_roll(&mut self) {
        let draws = std::mem::take(&mut self.roll_draws);
        let Some((seq, _)) = self.roll_last.take() else {
            return;
        };
        if draws
            .iter()
            .copied()
            .ne(0..u32::try_from(draws.len()).unwrap_or(u32::MAX))
        {
            let which = match self.counts_rolls {
                true => format!("roll {}", self.rolls.saturating_sub(1)),
                false => format!("#{seq}'s command"),
            };
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: the seeded dice of {which} of epoch {} are not numbered 0 to {} in draw order: a die was taken from another place of the derivation",
                    self.epoch,
                    draws.len().saturating_sub(1)
                ),
            );
        }
    }
}
