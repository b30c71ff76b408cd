//! `grimoire report`: the campaign as one self-contained HTML page. One replay of the public log
//! (nothing sealed is read) gathers what the page shows: each character's values over in-game
//! time, rituals cast per day, the sessions and what mattered in them, the dice, the scrolls held
//! and the chain's checkpoints. Everything gathered is bounded (charts downsampled, the timeline
//! capped), so a million-event campaign makes a page as light as a short one.

pub mod kit;
mod page;
mod svg;

use crate::audit::{LogTally, Tally};
use crate::event::{Event, Recorded};
use crate::seq::Seq;
use crate::state::{CampaignState, Character, fold_name};
use crate::store::{Checkpoint, Store, StoreError};
use crate::systems::contract::render::{Chart, Gauge, PerDay, SystemWords};
use crate::systems::registry::on_system;
use std::collections::BTreeMap;
use svg::{Axis, Series};

pub use page::{Text, escape};

/// Sessions shown one by one in the timeline (the newest); older ones are counted in its chart.
pub const SESSIONS_SHOWN: usize = 30;
/// Key events listed for one session; the rest are counted.
pub(super) const KEY_EVENTS_SHOWN: usize = 8;
/// What mattered kept for a session's list at most (the rest shown under "more"), so that a long
/// campaign's report stays small.
const KEY_EVENTS_KEPT: usize = 40;

/// How much what mattered in a session weighs (#47): the list shows the heaviest first, so a
/// death or a mishap is never hidden behind routine learning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Someone died or went down.
    Fell,
    /// What a rule system counts as notable: a mishap, a failed spell, resonance, a scroll
    /// written or lost.
    Notable,
    /// The record corrected: a retraction or an amendment.
    Corrected,
    /// Sealed dice or a seed revealed.
    Revealed,
    /// Routine: a character added, a level gained, a ritual or spell learned, back on their feet.
    Routine,
}
/// Days shown in a character's per-day chart (the latest days with a count).
pub const DAYS_SHOWN: usize = 60;

/// What the page is made from.
pub struct Gathered {
    pub state: CampaignState,
    /// The line charts' time axis: session by session, up to the clock.
    pub axis: Axis,
    pub characters: Vec<CharacterTrack>,
    pub sessions: Vec<SessionRow>,
    /// Events outside any session (set-up, downtime between sessions).
    pub between_sessions: u64,
    /// The downtime spans in force, in the order they were spent.
    pub downtime: Vec<DowntimeRow>,
    pub dice: Vec<Tally>,
    pub head: Option<Checkpoint>,
    /// The full hash of the last event read.
    pub head_hash: String,
    /// The public log read, as an export writes it (JSON Lines), for the player's check; `None`
    /// past [`kit::CARRIED_AT_MOST`] events.
    pub export: Option<String>,
    /// The page shows an earlier point than the log's end (`report --at`).
    pub as_of: bool,
}

/// One character's values over time.
pub struct CharacterTrack {
    pub name: String,
    pub health: Series,
    pub health_max: Series,
    /// The charts the character's rule system draws, in its order.
    pub charts: Vec<ChartTrack>,
    /// What the system counts per in-game day, if anything.
    pub per_day: Option<(PerDay, ByDay)>,
    /// How many rests (and downtime spans) have named the character so far.
    pub rests: u32,
}

/// (In-game day, the character's rests before) → (the count, its limit): a day a rest splits is
/// counted in two.
pub type ByDay = BTreeMap<(u64, u32), (u32, u32)>;

/// One of a system's charts, over time.
pub struct ChartTrack {
    pub chart: Chart,
    /// Each value's words, with its current and maximum series.
    pub lines: Vec<(Gauge, Series, Series)>,
}

/// One session in the timeline.
pub struct SessionRow {
    pub number: u32,
    pub first_seq: Seq,
    pub last_seq: Seq,
    pub started: crate::time::GameTime,
    pub ended: Option<crate::time::GameTime>,
    pub events: u64,
    /// What mattered, (its weight, seq, what happened), the heaviest [`KEY_EVENTS_KEPT`] of
    /// them, in the log's order: the page shows the heaviest first.
    pub key_events: Vec<(Weight, Seq, String)>,
    /// Those past [`KEY_EVENTS_KEPT`], the lightest, counted only.
    pub more_key_events: u64,
    /// The checkpoint of its `session ended` event.
    pub checkpoint: Option<Checkpoint>,
}

/// One downtime span in the report's season.
pub struct DowntimeRow {
    pub seq: Seq,
    /// When the weeks began.
    pub began: crate::time::GameTime,
    pub weeks: u32,
    /// Each character's weeks and where they stood after, as `downtime` prints them.
    pub summaries: Vec<String>,
    /// The rows its write recorded (the span, then what its weeks wrote).
    events: Vec<Recorded>,
}

impl DowntimeRow {
    /// Whether `r` was recorded by the span's own write: right after it, an event its system
    /// says the weeks recorded (a scroll written in them).
    fn holds(&self, r: &Recorded) -> bool {
        let Event::System(event) = &r.event else {
            return false;
        };
        self.events
            .last()
            .is_some_and(|last| r.seq == last.seq.next())
            && on_system!(event, AnyEvent, |S, event| S::of_downtime(event))
    }

    /// The summaries as they stand once `state` holds every event of the write seen so far.
    fn summarise(&mut self, state: &CampaignState) {
        if let Some(Event::DowntimeTaken(span)) = self.events.first().map(|r| &r.event) {
            self.summaries = span
                .characters
                .iter()
                .map(|spent| crate::render::downtime_summary(spent, &self.events, state))
                .collect();
        }
    }
}

/// What changes about a character are worth a line in the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Milestones {
    /// Dead, or down at 0 health: going down and getting up are worth a line too.
    status: Option<&'static str>,
    level: u32,
    /// The rule system's own (rituals known, spells known).
    counts: Vec<usize>,
}

impl Milestones {
    fn of(c: &Character) -> Milestones {
        let (level, counts) = on_system!(&c.system, AnyState, |S, mine| (
            S::level(mine),
            S::milestones(mine)
        ));
        Milestones {
            status: c.status(),
            level,
            counts,
        }
    }
}

/// Kinds of the core's events that are always worth a line (a system's say so through
/// `SystemWords::HIGHLIGHTS`).
/// The weight of an event that matters by its kind alone.
fn weight_of_kind(kind: &str) -> Option<Weight> {
    match kind {
        "retracted" | "amended" => Some(Weight::Corrected),
        "seed_revealed" | "sealed_seed_revealed" | "sealed_revealed" => Some(Weight::Revealed),
        "character_added" => Some(Weight::Routine),
        _ => None,
    }
}

/// Reads the log up to `upto` (all of it when `None`) once and gathers the page's material;
/// `watch` hears the seq of each event read (for progress).
pub fn gather(
    store: &mut Store,
    upto: Option<Seq>,
    watch: &mut dyn FnMut(Seq),
) -> Result<Gathered, StoreError> {
    // Where the charts end, known before the pass so that it can downsample as it goes.
    let end = store.replay(upto)?.clock.seconds();
    // The evenings' bounds, read through the kind index: sessions are numbered from 1 in order,
    // and each ends (if it has) before the next starts.
    let mut evenings: Vec<(u32, u64, Option<u64>)> = Vec::new();
    // Each evening's first and last event, its events spaced between them on the charts.
    let last_seq = store.head()?.map_or(0, |h| h.seq.get());
    let last_seq = upto.map_or(last_seq, |u| u.get().min(last_seq));
    let mut spans: Vec<(u32, u64, u64)> = Vec::new();
    store.for_each_row_of_kind("session_started", upto, |row| {
        evenings.push((evenings.len() as u32 + 1, row.game_time, None));
        spans.push((spans.len() as u32 + 1, row.seq.get(), last_seq));
        Ok(())
    })?;
    let mut ended = evenings.iter_mut().zip(spans.iter_mut());
    store.for_each_row_of_kind("session_ended", upto, |row| {
        if let Some((evening, span)) = ended.next() {
            evening.2 = Some(row.game_time);
            span.2 = row.seq.get();
        }
        Ok(())
    })?;
    let axis = Axis::of(&evenings, end).spaced_by_events(&spans);
    let mut tracks: BTreeMap<String, CharacterTrack> = BTreeMap::new();
    let mut milestones: BTreeMap<String, Milestones> = BTreeMap::new();
    let mut sessions: Vec<SessionRow> = Vec::new();
    let mut between_sessions = 0;
    let mut dice = LogTally::new(None, None);
    let mut head: Option<(Seq, String)> = None;
    let mut downtime: Vec<DowntimeRow> = Vec::new();
    let mut last_column = 0;
    let state = store.replay_each(upto, |r, state| {
        watch(r.seq);
        // The season's spans, each summed up once the rows of its write are all applied.
        match downtime.last_mut() {
            Some(span) if span.holds(r) => {
                span.events.push(r.clone());
                span.summarise(state);
            }
            _ => {
                if let Event::DowntimeTaken(span) = &r.event {
                    let mut row = DowntimeRow {
                        seq: r.seq,
                        began: r.game_time,
                        weeks: span.weeks,
                        summaries: Vec::new(),
                        events: vec![r.clone()],
                    };
                    row.summarise(state);
                    downtime.push(row);
                }
            }
        }
        head = Some((r.seq, r.hash.to_string()));
        dice.feed(r, true);
        // The log's order is the chart's: a clock taken back never draws a line backwards.
        let column = axis
            .column_at(r.game_time.seconds(), r.session, r.seq.get())
            .max(last_column);
        last_column = column;
        let named = state.characters_named(&r.event);
        let mut key = weight_of_kind(r.event.kind());
        if highlight(&r.event) {
            key = Some(Weight::Notable);
        }
        for c in &named {
            let folded = fold_name(&c.name);
            track(
                tracks.entry(folded.clone()).or_insert_with(|| new_track(c)),
                c,
                column,
            );
            let now = Milestones::of(c);
            if let Some(before) = milestones.get(&folded)
                && *before != now
            {
                // Falling (dead or down) outweighs all; getting up or learning is routine.
                let fell = now.status.is_some() && now.status != before.status;
                let weight = if fell { Weight::Fell } else { Weight::Routine };
                key = Some(key.map_or(weight, |k| k.min(weight)));
            }
            milestones.insert(folded, now);
        }
        // A rest or downtime starts a new count for whoever it names, even within one day: the
        // daily limit is a limit between rests.
        if matches!(r.event, Event::Rested(_) | Event::DowntimeTaken(_)) {
            r.event.mentions(&mut |name| {
                if let Some(track) = tracks.get_mut(&fold_name(name)) {
                    track.rests += 1;
                }
                false
            });
        }
        if let Event::System(event) = &r.event
            && let Some((who, limit)) = on_system!(event, AnyEvent, |S, event| {
                S::counted_per_day(state, event)
            })
            && let Some(track) = tracks.get_mut(&fold_name(who))
            && let Some((_, days)) = track.per_day.as_mut()
        {
            let day = days.entry((r.game_time.day(), track.rests)).or_default();
            day.0 += 1;
            day.1 = limit;
        }
        note_session(&mut sessions, &mut between_sessions, r, key);
    })?;
    // A span retracted since gave no one anything.
    downtime.retain(|span| !state.retracted.contains_key(&span.seq));
    let (head, head_hash) = match head {
        Some((seq, hash)) => (Some(Checkpoint::of(seq, &hash)), hash),
        None => (None, String::new()),
    };
    let events = head.as_ref().map_or(0, |h| h.seq.get());
    let mut export = (events <= kit::CARRIED_AT_MOST).then(String::new);
    if let Some(text) = &mut export {
        store.for_each_row(Seq(1), upto, |row| {
            text.push_str(&crate::store::jsonl::export_line(&row)?);
            text.push('\n');
            Ok(())
        })?;
    }
    Ok(Gathered {
        export,
        as_of: upto.is_some(),
        characters: tracks.into_values().collect(),
        state,
        axis,
        sessions,
        between_sessions,
        downtime,
        dice: dice.tallies(),
        head,
        head_hash,
    })
}

/// Whether a system's event is among those its system calls worth a session's highlights.
fn highlight(event: &Event) -> bool {
    let Event::System(event) = event else {
        return false;
    };
    on_system!(event, AnyEvent, |S, event| {
        let mut notable = false;
        S::tally(event, &mut |tally| {
            notable |= S::HIGHLIGHTS.contains(&tally)
        });
        notable
    })
}

fn new_track(c: &Character) -> CharacterTrack {
    CharacterTrack {
        name: c.name.clone(),
        health: Series::default(),
        health_max: Series::default(),
        charts: on_system!(&c.system, AnyState, |S, mine| S::charts(mine))
            .into_iter()
            .map(|(chart, gauges)| ChartTrack {
                chart,
                lines: gauges
                    .into_iter()
                    .map(|gauge| (gauge, Series::default(), Series::default()))
                    .collect(),
            })
            .collect(),
        per_day: on_system!(&c.system, AnyState, |S, _mine| S::PER_DAY)
            .map(|words| (words, BTreeMap::new())),
        rests: 0,
    }
}

/// Notes a character's charted values as they stand at `column`.
fn track(track: &mut CharacterTrack, c: &Character, column: u64) {
    if let Some(health) = c.health {
        track.health.note(column, health.current);
        track.health_max.note(column, health.max);
    }
    let now = on_system!(&c.system, AnyState, |S, mine| S::charts(mine));
    for (chart, (_, gauges)) in track.charts.iter_mut().zip(now) {
        for ((_, current, max), gauge) in chart.lines.iter_mut().zip(gauges) {
            current.note(column, gauge.current);
            max.note(column, gauge.max);
        }
    }
}

fn note_session(
    sessions: &mut Vec<SessionRow>,
    between: &mut u64,
    r: &Recorded,
    key: Option<Weight>,
) {
    if let Event::SessionStarted { number, .. } = &r.event {
        sessions.push(SessionRow {
            number: *number,
            first_seq: r.seq,
            last_seq: r.seq,
            started: r.game_time,
            ended: None,
            events: 0,
            key_events: Vec::new(),
            more_key_events: 0,
            checkpoint: None,
        });
    }
    let Some(row) = sessions
        .last_mut()
        .filter(|row| r.session == Some(row.number) && row.ended.is_none())
    else {
        *between += 1;
        return;
    };
    row.events += 1;
    row.last_seq = r.seq;
    if let Event::SessionEnded { .. } = &r.event {
        row.ended = Some(r.game_time);
        row.checkpoint = Some(Checkpoint::of(r.seq, r.hash.as_str()));
    }
    if let Some(weight) = key {
        row.key_events
            .push((weight, r.seq, crate::render::describe(&r.event)));
        // Past the most kept, the lightest (the newest of them) is dropped and counted.
        if row.key_events.len() > KEY_EVENTS_KEPT
            && let Some(lightest) = (0..row.key_events.len())
                .max_by_key(|&i| (row.key_events[i].0, row.key_events[i].1))
        {
            row.key_events.remove(lightest);
            row.more_key_events += 1;
        }
    }
}

/// The whole page for what was gathered; `generated_at` is printed in its footer.
pub fn html(gathered: &Gathered, generated_at: &str) -> String {
    page::render(gathered, generated_at)
}
