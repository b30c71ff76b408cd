//! What `verify` checked and found, as the terminal, `--json` and the players' page report it.

use crate::seq::Seq;
use serde::Serialize;

/// One thing `verify` found wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub seq: Seq,
    pub what: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckpointResult {
    pub checkpoint: String,
    pub holds: bool,
    /// Why it does not hold, as far as the file can tell.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub miss: Option<CheckpointMiss>,
}

/// What a checkpoint that does not hold met in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum CheckpointMiss {
    /// The log ends before the checkpoint's event: the file is shorter than the history noted
    /// (cut, or an older copy), or the event number was mistyped.
    PastTheEnd { log_ends_at: Seq },
    /// The event is there with another hash. A mistyped code differs in a few digits; another
    /// history, in nearly all of them (each digit of a different hash matches by chance 1 time in
    /// 16).
    Differs { digits_differing: usize, of: usize },
    /// A damaged row before it stopped the check.
    NotReached,
}

/// What `verify` checked and found.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VerifyReport {
    /// Problems SQLite's own integrity check found in the file's pages (0: the file is sound).
    pub file_problems: u64,
    pub events: u64,
    pub head: Option<String>,
    /// The first row where the chain breaks, if any.
    pub chain_break: Option<Problem>,
    pub seeded_dice_checked: u64,
    pub seeded_dice_awaiting_reveal: u64,
    /// Seeded dice rolled with no player entropy (outside a session, or in one started without
    /// any): the GM, who holds the seed, could have predicted them.
    pub seeded_dice_unwitnessed: u64,
    pub epochs_revealed: Vec<u32>,
    pub sealed_dice_checked: u64,
    pub sealed_dice_awaiting_reveal: u64,
    /// Dice rolled by a player's device, re-derived at once from the request and its answer (C-5).
    #[serde(default)]
    pub device_dice_checked: u64,
    /// The GM's dice a player's device witnessed, re-derived likewise (C-6).
    #[serde(default)]
    pub witnessed_dice_checked: u64,
    /// Of the dice players' devices made, those a rule system's command drew (a cast put to a
    /// phone): each face is the phone's; which of the answer's dice each rule took is checked by
    /// deciding the command again (`decided_again_problems`), which the players' page cannot.
    #[serde(default)]
    pub device_dice_in_rules_commands: u64,
    /// Rolls put to a device again after a request to it was withdrawn or its answer refused
    /// (C-5): each is marked.
    #[serde(default)]
    pub rolls_put_again: u64,
    /// Dice or reveals that do not match, first one first.
    pub dice_problems: Vec<Problem>,
    /// Commands answered on players' phones that the rules, decided again on the campaign as it
    /// stood with the phone's dice, do not record as the log does (C-5), first one first: the
    /// GM's server saw the phone's bytes before it wrote what they decided. The players' page does
    /// not run the rules, so it makes none of these checks.
    #[serde(default)]
    pub decided_again_problems: Vec<Problem>,
    /// Answers whose dice decide otherwise on the campaign as it stood when their roll was put:
    /// events recorded while the phone's roll waited changed what it did. The GM may record
    /// while a phone waits, but a server that held an answer back saw its dice first, and could
    /// record what turns them (a damage that blocks a cast) before writing it; so each is named.
    #[serde(default)]
    pub answers_changed_while_waiting: Vec<Seq>,
    /// The checkpoints asked about, in the order given.
    pub checkpoints: Vec<CheckpointResult>,
    /// Stored snapshots that commands would start from, compared with a replay of the log.
    pub snapshots_checked: u64,
    /// Stored snapshots no command starts from, so not compared: made by another state format
    /// (an older grimoire), taken at a hash the log no longer has, or reached back past by a
    /// retraction.
    pub snapshots_passed_over: u64,
    /// Snapshots that differ from the replay: edited outside grimoire, they would show a false state.
    pub snapshot_problems: Vec<Problem>,
    /// Epochs with seeded dice bound to their event's seq (the first derivation, before roll
    /// numbers): a GM holding the seed could move their dice with events that roll nothing.
    pub seq_bound_epochs: Vec<u32>,
}

impl VerifyReport {
    /// The first thing that does not hold, in a few words (`None` when everything holds).
    pub fn first_problem(&self) -> Option<String> {
        if self.file_problems > 0 {
            return Some(format!(
                "the file is damaged: SQLite's integrity check found {} problem(s)",
                self.file_problems
            ));
        }
        if let Some(problem) = &self.chain_break {
            return Some(format!("the chain breaks at #{}", problem.seq));
        }
        if let Some(problem) = self
            .dice_problems
            .iter()
            .chain(&self.decided_again_problems)
            .chain(&self.snapshot_problems)
            .next()
        {
            return Some(problem.what.clone());
        }
        self.checkpoints
            .iter()
            .find(|c| !c.holds)
            .map(|c| format!("checkpoint {} does not hold", c.checkpoint))
    }

    pub fn all_hold(&self) -> bool {
        self.file_problems == 0
            && self.chain_break.is_none()
            && self.dice_problems.is_empty()
            && self.decided_again_problems.is_empty()
            && self.snapshot_problems.is_empty()
            && self.checkpoints.iter().all(|c| c.holds)
    }
}
