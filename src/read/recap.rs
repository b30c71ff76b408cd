//! Between two points: what changed for each character, and by which events (`diff`), and an
//! evening in numbers followed by the same changes from its start to its end (`session recap`).

use super::Shown;
use super::changes::*;
use super::event::Marks;
use crate::Error;
use crate::dice::Provenance;
use crate::event::Event;
use crate::ids::RequestId;
use crate::render::count;
use crate::rules::RuleError;
use crate::rules::campaign::find;
use crate::seq::Seq;
use crate::state::{CampaignState, Character, fold_name};
use crate::store::{Point, Store};
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::{SystemId, on_system};
use crate::time::GameDuration;
use crate::words::Folded;
use serde_json::json;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// Two points of the log and whom to compare between them.
#[derive(Debug, Clone)]
pub struct Between {
    pub who: Whom,
    /// The earlier point.
    pub from: Point,
    /// The later point.
    pub to: Point,
}

/// The characters a comparison covers.
#[derive(Debug, Clone)]
pub enum Whom {
    /// Everyone in either state.
    Party,
    /// These (any case; each once however often named).
    Named(Vec<String>),
}

/// What changed for characters between two points: every value of their sheets that differs, and
/// the events that touched them.
pub fn diff(store: &mut Store, question: &Between, width: Option<u16>) -> Result<Shown, Error> {
    let from = store.resolve_state(question.from)?;
    let to = store.resolve_state(question.to)?;
    if from > to {
        return Err(Error::Usage(format!(
            "--from names #{from}, which comes after #{to}, named by --to; give the earlier point to --from"
        )));
    }
    let (before, after) = (store.replay(Some(from))?, store.replay(Some(to))?);
    let names = match &question.who {
        Whom::Party => everyone(&before, &after),
        Whom::Named(named) => {
            let mut names: Vec<String> = Vec::new();
            for name in named {
                // Known then or now (a character retracted since still has a past).
                if before.character(name).is_none() {
                    find(&after, name)?;
                }
                // Each character once, however often named.
                if !names.iter().any(|n| Folded::of(n) == Folded::of(name)) {
                    names.push(name.clone());
                }
            }
            names
        }
    };
    let mut touched = Touched::of(&names);
    if after.head > before.head {
        store.for_each_event(before.head + 1, Some(after.head), |r| {
            touched.note(r.seq, &r.event);
            Ok(())
        })?;
    }
    touched.follow_retractions(store)?;
    let changes = changes(&before, &after, &names, &touched, width);
    let title = format!(
        "From #{from} ({}) to #{to} ({}):",
        before.clock_text(),
        after.clock_text()
    );
    Ok(Shown::new(
        [title, changes.text].join("\n"),
        json!({ "from_seq": from, "to_seq": to, "characters": changes.json }),
    ))
}

/// Everyone in either state, in name order.
fn everyone(before: &CampaignState, after: &CampaignState) -> Vec<String> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for c in before.characters.values().chain(after.characters.values()) {
        names.insert(fold_name(&c.name), c.name.clone());
    }
    names.into_values().collect()
}

/// An evening in numbers: session `number` (the newest when `None`), its time passed, damage and
/// healing, castings, mishaps, failures, resonance, scrolls, retractions, dice by origin, then each
/// character's changes from the session's start to its end.
pub fn recap(store: &mut Store, number: Option<u32>, width: Option<u16>) -> Result<Shown, Error> {
    let now = store.replay(None)?;
    let number = match number {
        Some(n) => n,
        None if now.sessions_started > 0 => now.sessions_started,
        None => {
            return Err(RuleError::NoSessionYet.into());
        }
    };
    let start = store.resolve(Point::SessionStart(number))?;
    let (end, open) = match store.resolve(Point::SessionEnd(number)) {
        Ok(end) => (end, false),
        // Still open: recap it so far.
        Err(_)
            if now
                .open_session
                .as_ref()
                .is_some_and(|s| s.number == number) =>
        {
            (now.head, true)
        }
        Err(e) => return Err(e.into()),
    };
    // One pass over the evening as replay applied it: its numbers, and who each event concerns.
    let mut tally = Tally::new();
    let mut touched = Touched::anyone();
    let mut at_start = None;
    let after = store.replay_span(start, end, |step, state| match step {
        None => {
            tally.health.follow(state);
            at_start = Some(state.clone());
        }
        Some(step) => {
            touched.note(step.seq, step.event);
            tally.add(step.seq, step.event, step.applied, state);
        }
    })?;
    let at_start =
        at_start.ok_or_else(|| Error::Internal("the recap's replay gave no start".into()))?;
    // The sheets compare with the session's start as it was recorded then; it differs from the
    // replay's start only where a retraction this evening reached back before it, and then the
    // difference is named on its own.
    let before = match touched.reaches_back_to(start) {
        true => {
            let before = store.replay(Some(start))?;
            tally.health.reaching_back = ReachingBack::between(&before, &at_start);
            before
        }
        false => at_start,
    };
    touched.follow_retractions(store)?;
    let names = everyone(&before, &after);
    let changes = changes(&before, &after, &names, &touched, width);
    let deaths: Vec<&str> = after
        .characters
        .values()
        .filter(|c| c.is_dead() && before.character(&c.name).is_none_or(|was| !was.is_dead()))
        .map(|c| c.name.as_str())
        .collect();
    // Retracting a rest or a span can take the clock back past where the session began.
    let (start_at, end_at) = (before.clock.seconds(), after.clock.seconds());
    let passed_words = match end_at.cmp(&start_at) {
        Ordering::Equal => "no time passed".to_string(),
        Ordering::Greater => format!("{} passed", GameDuration(end_at - start_at)),
        Ordering::Less => format!("the clock went back {}", GameDuration(start_at - end_at)),
    };
    let seconds_passed = i128::from(end_at) - i128::from(start_at);
    let mut lines = vec![format!(
        "Session {number}{}: #{start} to #{end}, {} to {} ({passed_words})",
        if open { " (still open)" } else { "" },
        before.clock_text(),
        after.clock_text()
    )];
    lines.extend(tally.lines());
    lines.push(match deaths.is_empty() {
        true => "No one died.".to_string(),
        false => format!("Died: {}.", deaths.join(", ")),
    });
    lines.push("Characters, from the session's start:".into());
    lines.push(changes.text);
    Ok(Shown::new(
        lines.join("\n"),
        json!({
            "session": number,
            "open": open,
            "from_seq": start,
            "to_seq": end,
            "seconds_passed": seconds_passed,
            "tally": tally,
            "deaths": deaths,
            "characters": changes.json,
        }),
    ))
}

/// An evening in numbers, counted from what replay applied: a retracted event adds nothing but
/// its dice (they were rolled all the same).
#[derive(Debug, serde::Serialize)]
struct Tally {
    /// Every event recorded, the session's start included.
    events: u64,
    #[serde(flatten)]
    health: HealthTally,
    retractions: u64,
    /// Earlier events' inputs fixed without rolling again (C-3).
    amendments: u64,
    /// Each amendment recorded.
    amended: Vec<AmendedIn>,
    dice_entered: u64,
    dice_seeded: u64,
    dice_sealed: u64,
    dice_from_devices: u64,
    /// Rolls put to a phone right after a roll to it was withdrawn (C-5): (the request's seq,
    /// its number, the requests withdrawn before it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    put_again: Vec<(Seq, RequestId, Vec<RequestId>)>,
    /// Each rule system's counts, by name ([`SystemWords::TALLIES`]).
    #[serde(flatten)]
    systems: BTreeMap<&'static str, u64>,
}

/// An amendment recorded in the session: the event it fixes, what changed and whether the outcome
/// did (C-3).
#[derive(Debug, serde::Serialize)]
struct AmendedIn {
    seq: Seq,
    by: Seq,
    changed: Vec<String>,
    outcome_changed: bool,
}

/// Health lost and regained, whatever the source (damage, a mishap, a ritual, a scroll, a spell, a
/// rest, a sheet's correction): each character's current health followed event by event, so the
/// sums always match what the sheets show from the session's start to its end.
#[derive(Debug, Default, serde::Serialize)]
struct HealthTally {
    damage: u64,
    healing: u64,
    /// Health regained and lost because the session retracted (or restored) events from before
    /// it: not the evening's own damage or healing, but a change the sheets show all the same.
    reaching_back: ReachingBack,
    /// Health a changed sheet moved (a level gained, the GM's correction): neither damage nor
    /// healing, though the sheets show it.
    sheet_changes: SheetMoved,
    /// Current health that went with maximum health lost for good (a learning cost, ADG-R3): the
    /// sheets show it lower, but nothing dealt it.
    with_maxima_lost: u64,
    /// Each character's current and maximum health after the last event followed.
    #[serde(skip)]
    current: HashMap<Folded, (u32, u32)>,
}

/// Current health a changed sheet raised or lowered.
#[derive(Debug, Default, serde::Serialize)]
struct SheetMoved {
    gained: u64,
    lost: u64,
}

/// Health changed by retractions, or undone retractions, of events from before the session.
#[derive(Debug, Default, serde::Serialize)]
struct ReachingBack {
    regained: u64,
    lost: u64,
}

impl ReachingBack {
    /// What tells `start` (the replay's start of the session) apart from `before` (the start as
    /// recorded then), character by character.
    fn between(before: &CampaignState, start: &CampaignState) -> ReachingBack {
        let mut health = HealthTally::default();
        health.follow(before);
        health.follow(start);
        ReachingBack {
            regained: health.healing,
            lost: health.damage + health.with_maxima_lost,
        }
    }
}

impl HealthTally {
    /// Counts each character's change of current health since the last state followed; someone
    /// seen for the first time (joined, or given a health track) starts where they stand.
    fn follow(&mut self, state: &CampaignState) {
        for (name, character) in &state.characters {
            self.see(name, character);
        }
    }

    /// [`Self::follow`] for the characters `event` names: only they can have changed by it.
    fn follow_event(&mut self, event: &Event, state: &CampaignState) {
        let (damage, healing, with_maxima) = (self.damage, self.healing, self.with_maxima_lost);
        event.mentions(&mut |name| {
            let name = Folded::of(name);
            if let Some(character) = state.characters.get(&name) {
                self.see(&name, character);
            }
            false
        });
        // A sheet changed is not a wound nor a cure: what it moved is counted apart.
        if matches!(
            event,
            Event::SheetChanged { .. } | Event::SheetCorrected { .. }
        ) {
            self.sheet_changes.gained += self.healing - healing;
            self.sheet_changes.lost += self.damage - damage + self.with_maxima_lost - with_maxima;
            (self.damage, self.healing, self.with_maxima_lost) = (damage, healing, with_maxima);
        }
    }

    fn see(&mut self, name: &Folded, character: &Character) {
        let Some(health) = character.health else {
            return;
        };
        let Some((was, was_max)) = self.current.get_mut(name) else {
            self.current
                .insert(name.clone(), (health.current, health.max));
            return;
        };
        match health.current.cmp(was) {
            Ordering::Less => {
                // Health a lowered maximum took with it was lost, not dealt.
                let lost = *was - health.current;
                let with_max = lost.min(was_max.saturating_sub(health.max));
                self.with_maxima_lost += u64::from(with_max);
                self.damage += u64::from(lost - with_max);
            }
            Ordering::Greater => self.healing += u64::from(health.current - *was),
            Ordering::Equal => {}
        }
        (*was, *was_max) = (health.current, health.max);
    }
}

impl Tally {
    fn new() -> Tally {
        let mut systems = BTreeMap::new();
        for &system in SystemId::ALL {
            let names = on_system!(system, SystemId, |S| S::TALLIES);
            systems.extend(names.iter().map(|&name| (name, 0)));
        }
        Tally {
            // The session's start, which the span follows from.
            events: 1,
            health: HealthTally::default(),
            retractions: 0,
            amendments: 0,
            amended: Vec::new(),
            dice_entered: 0,
            dice_seeded: 0,
            dice_sealed: 0,
            dice_from_devices: 0,
            put_again: Vec::new(),
            systems,
        }
    }

    /// Counts an event of the evening; `after` is the state replay left once it was `applied` (or
    /// passed over).
    fn add(&mut self, seq: Seq, event: &Event, applied: bool, after: &CampaignState) {
        self.events += 1;
        for die in event.dice() {
            match die.provenance {
                Provenance::Entered => self.dice_entered += 1,
                Provenance::Seeded { .. } => self.dice_seeded += 1,
                Provenance::Sealed { .. } => self.dice_sealed += 1,
                Provenance::Device { .. } => self.dice_from_devices += 1,
            }
        }
        if !applied {
            return;
        }
        self.health.follow_event(event, after);
        if let Event::RollRequested { request, .. } = event
            && let Some(asked) = after.players.requests.get(request)
            && !asked.put_again_after.is_empty()
        {
            self.put_again
                .push((seq, *request, asked.put_again_after.clone()));
        }
        // Only the kinds an evening is summed up by; every other kind counts as an event.
        if let Event::Retracted { .. } = event {
            self.retractions += 1;
        } else if let Event::Amended {
            seq: amends,
            changed,
            outcome_changed,
            ..
        } = event
        {
            self.amendments += 1;
            self.amended.push(AmendedIn {
                seq: *amends,
                by: seq,
                changed: changed.clone(),
                outcome_changed: *outcome_changed,
            });
        } else if let Event::System(event) = event {
            let systems = &mut self.systems;
            on_system!(event, AnyEvent, |S, event| S::tally(event, &mut |name| {
                *systems.entry(name).or_default() += 1;
            }));
        }
    }

    fn lines(&self) -> Vec<String> {
        let health = &self.health;
        let mut lines = vec![format!(
            "{}; {} damage taken, {} healed; {}{}",
            count(self.events, "event", "events"),
            health.damage,
            health.healing,
            count(self.retractions, "retraction", "retractions"),
            match self.amendments {
                0 => String::new(),
                n => format!(", {}", count(n, "amendment", "amendments")),
            }
        )];
        if health.with_maxima_lost > 0 {
            lines.push(format!(
                "Maximum health lost for good (learning costs) took {} current health with it",
                health.with_maxima_lost
            ));
        }
        let sheets = &health.sheet_changes;
        if sheets.gained + sheets.lost > 0 {
            lines.push(format!(
                "Sheets changed (a level gained, a correction): {} health gained, {} lost",
                sheets.gained, sheets.lost
            ));
        }
        let back = &health.reaching_back;
        if back.regained + back.lost > 0 {
            lines.push(format!(
                "Events from before the session retracted, restored or amended: {} health regained, {} lost",
                back.regained, back.lost
            ));
        }
        for amended in &self.amended {
            lines.push(format!(
                "Amended: #{} by #{} ({}; {})",
                amended.seq,
                amended.by,
                amended.changed.join(", "),
                match amended.outcome_changed {
                    true => "the outcome changed",
                    false => "the outcome stood",
                }
            ));
        }
        let counted = |name: &'static str| self.systems.get(name).copied().unwrap_or(0);
        for &system in SystemId::ALL {
            lines.extend(on_system!(system, SystemId, |S| S::tally_lines(&counted)));
        }
        let mut dice = format!(
            "Dice: {} entered at the table, {} seeded by grimoire, {} sealed by the GM",
            self.dice_entered, self.dice_seeded, self.dice_sealed
        );
        // Said only once a campaign uses players' devices, so earlier recaps read as they did.
        if self.dice_from_devices > 0 {
            dice.push_str(&format!(
                ", {} made on players' devices",
                self.dice_from_devices
            ));
        }
        lines.push(dice);
        for (seq, request, after) in &self.put_again {
            lines.push(format!(
                "Put to a phone again: request {request} (#{seq}){}",
                Marks::put_again_words(after)
            ));
        }
        lines
    }
}
