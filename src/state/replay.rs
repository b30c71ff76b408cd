//! Replay: the log folded in seq order, with what later retractions and amendments change known
//! beforehand, so it streams through once.

use super::CampaignState;
use crate::event::Event;
use crate::seq::Seq;
use std::collections::{BTreeMap, BTreeSet};

/// Later events that change how earlier ones replay: retractions, given as (the retraction's seq,
/// the seq it undoes), and amendments, as (the amendment's seq, the seq it amends, the event it puts
/// in that one's place). A replay must know them before it reaches the events they change.
#[derive(Debug, Clone, Default)]
pub struct Revisions {
    pub retractions: Vec<(Seq, Seq)>,
    pub amendments: Vec<(Seq, Seq, Event)>,
}

impl Revisions {
    /// The revisions a whole in-memory log records.
    pub fn of<'a>(events: impl IntoIterator<Item = (Seq, &'a Event)>) -> Revisions {
        let mut revisions = Revisions::default();
        for (at, event) in events {
            revisions.note(at, event);
        }
        revisions
    }

    /// Takes in `event`, recorded at `at`, when it revises an earlier one.
    pub fn note(&mut self, at: Seq, event: &Event) {
        match event {
            Event::Retracted { seq, .. } => self.retract(at, *seq),
            Event::Amended { seq, event, .. } => {
                self.amendments.push((at, *seq, event.as_ref().clone()));
            }
            _ => {}
        }
    }

    /// Takes in a retraction of `target` at `at`: one about to be recorded, to see what it does.
    pub fn retract(&mut self, at: Seq, target: Seq) {
        self.retractions.push((at, target));
    }

    /// The characters in play by the seq of their addition, under the names they hold: of the
    /// log's `additions` (as recorded), those undone are left out and those amended take their
    /// amendment's name, as replay does.
    pub fn names_in_play(&self, additions: &BTreeMap<Seq, String>) -> BTreeMap<Seq, String> {
        let (undone, amended) = self.in_force();
        additions
            .iter()
            .filter(|(added, _)| !undone.contains(added))
            .map(|(&added, name)| match amended.get(&added) {
                Some(Event::CharacterAdded { name, .. }) => (added, name.clone()),
                _ => (added, name.clone()),
            })
            .collect()
    }

    pub fn extend(&mut self, more: Revisions) {
        self.retractions.extend(more.retractions);
        self.amendments.extend(more.amendments);
    }

    /// Whether one recorded after `seq` changes an event at or before it: a state replayed up to
    /// `seq` before it was recorded no longer stands.
    pub fn reach_back_to(&self, seq: Seq) -> bool {
        let reaches = |at: Seq, target: Seq| at > seq && target <= seq;
        self.retractions
            .iter()
            .any(|&(at, target)| reaches(at, target))
            || self
                .amendments
                .iter()
                .any(|(at, target, _)| reaches(*at, *target))
    }

    /// The seqs left undone, and the event that stands in each amended seq's place: the newest
    /// amendment of it not itself undone.
    fn in_force(&self) -> (BTreeSet<Seq>, BTreeMap<Seq, Event>) {
        let undone = undone_by(&self.retractions);
        let mut newest: BTreeMap<Seq, (Seq, &Event)> = BTreeMap::new();
        for (at, target, event) in &self.amendments {
            if undone.contains(at) {
                continue;
            }
            let slot = newest.entry(*target).or_insert((*at, event));
            if *at >= slot.0 {
                *slot = (*at, event);
            }
        }
        let amended = newest
            .into_iter()
            .map(|(target, (_, event))| (target, event.clone()))
            .collect();
        (undone, amended)
    }
}

/// Replays a log in seq order. The seqs retracted or amended (up to the replay's end) are known
/// beforehand, so the log streams through once and nothing is undone after the fact. Knowing the
/// retractions to come, it also marks the rolls made after a roll that is later retracted (C-2).
pub struct Replay {
    state: CampaignState,
    retracted: BTreeSet<Seq>,
    /// Amended seq → the event replayed in its place (C-3).
    amended: BTreeMap<Seq, Event>,
    /// Every retracted seq → its newest retraction, in force or not: a retraction undone later
    /// still marks the rolls made around it, since they were made.
    retracted_by: BTreeMap<Seq, Seq>,
    /// Retracted rolls whose retraction is still to come: (the roll's seq, its session, its newest
    /// retraction). A roll in the same session before that retraction is marked as made after it.
    open_spans: Vec<(Seq, SessionSpan, Seq)>,
    /// The retracted events replayed so far that rolled dice: their retraction waits for a roll.
    rolled: BTreeSet<Seq>,
}

/// Which stretch of play an event belongs to: a session by its number, or the time between two
/// sessions (after the `sessions_started`-th one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SessionSpan {
    sessions_started: u32,
    open: bool,
}

impl SessionSpan {
    fn of(state: &CampaignState) -> SessionSpan {
        SessionSpan {
            sessions_started: state.sessions_started,
            open: state.open_session.is_some(),
        }
    }
}

impl Replay {
    pub fn new(revisions: &Revisions) -> Replay {
        Replay::resume(CampaignState::default(), revisions)
    }

    /// Continues from a state replayed up to `state.head`; `revisions` must hold every one after
    /// it (a snapshot is only resumed when none in the tail reaches back).
    pub fn resume(state: CampaignState, revisions: &Revisions) -> Replay {
        let (retracted, amended) = revisions.in_force();
        let mut retracted_by = BTreeMap::new();
        for &(at, target) in &revisions.retractions {
            let newest = retracted_by.entry(target).or_insert(at);
            *newest = (*newest).max(at);
        }
        Replay {
            state,
            retracted,
            amended,
            retracted_by,
            open_spans: Vec::new(),
            rolled: BTreeSet::new(),
        }
    }

    /// Folds in the event at `seq` (or the amendment's event in its place), or passes over it
    /// when it is retracted; says which.
    pub fn feed(&mut self, seq: Seq, event: &Event) -> bool {
        // What answers a retracted event (a cast's choice, a save against it) goes with it, and
        // so does what answers that in turn (a save against the choice): the cast never
        // happened, and nothing it left to settle stands.
        let answers_undone = event.answers().filter(|answered| {
            self.retracted.contains(answered)
                || self.state.undone_with_answered.contains_key(answered)
        });
        if let Some(answered) = answers_undone
            && !self.retracted.contains(&seq)
        {
            self.state.undone_with_answered.insert(seq, answered);
        }
        let answers_undone = answers_undone.is_some();
        let rolls = !event.dice().is_empty();
        let span = SessionSpan::of(&self.state);
        self.open_spans.retain(|&(_, _, until)| until > seq);
        // A roll undone with what it answers is no roll made again after a retracted one: it
        // went with it.
        if rolls && !answers_undone {
            let after: Vec<Seq> = (self.open_spans.iter())
                .filter(|&&(_, of, _)| of == span)
                .map(|&(roll, _, _)| roll)
                .collect();
            if !after.is_empty() {
                self.state.mark_reroll(seq, after);
            }
        }
        let applied = !self.retracted.contains(&seq) && !answers_undone;
        if !applied {
            self.state.pass_over(seq, event);
        } else if let Some(amended) = self.amended.get(&seq) {
            self.state.apply(seq, amended);
        } else {
            self.state.apply(seq, event);
        }
        if rolls && let Some(&until) = self.retracted_by.get(&seq) {
            self.open_spans.push((seq, span, until));
            self.rolled.insert(seq);
        }
        // The first roll after a retraction of a roll is marked too, whenever it comes.
        if let Event::Retracted { seq: target, .. } = event
            && self.rolled.contains(target)
        {
            self.state.awaiting_reroll.push(*target);
        }
        applied
    }

    /// The event an amendment puts in the place of the one at `seq`, if any.
    pub fn in_place_of(&self, seq: Seq) -> Option<&Event> {
        self.amended.get(&seq)
    }

    pub fn state(&self) -> &CampaignState {
        &self.state
    }

    pub fn finish(self) -> CampaignState {
        self.state
    }
}

/// The seqs that retractions, given as (the retraction's seq, the seq it undoes), leave undone: a
/// retraction that is itself undone undoes nothing, so its target is restored, and so on down a
/// chain. A retraction only reaches back, so reading them newest first settles each in turn.
pub fn undone_by(retractions: &[(Seq, Seq)]) -> BTreeSet<Seq> {
    let mut newest_first = retractions.to_vec();
    newest_first.sort_unstable_by_key(|&(at, _)| std::cmp::Reverse(at));
    let mut undone = BTreeSet::new();
    for (at, target) in newest_first {
        if !undone.contains(&at) {
            undone.insert(target);
        }
    }
    undone
}

/// Replays a whole in-memory log; what it retracts and amends is read from the log itself.
pub fn replay_all<'a>(events: impl IntoIterator<Item = (Seq, &'a Event)> + Clone) -> CampaignState {
    let mut replay = Replay::new(&Revisions::of(events.clone()));
    for (seq, event) in events {
        replay.feed(seq, event);
    }
    replay.finish()
}
