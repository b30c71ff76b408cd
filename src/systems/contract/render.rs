//! The render half of the contract: the words a rule system gives its events, and what it shows of
//! its characters and its campaign-wide state on the report's page.

use super::event::{DowntimeOf, SystemModel};
use super::port::{Someone, View};
use super::state::SystemFold;
use crate::seq::Seq;

pub trait SystemWords: SystemModel + SystemFold {
    /// One log line for the event, without its seq (`Aldric exerts Brawn 2 (a climb)`).
    fn describe(event: &Self::Event) -> String;
    /// A sheet as entered, in words, beginning with the system's name.
    fn sheet_words(sheet: &Self::Sheet) -> String;
    /// What changed between two sheets as entered, each value in a few words: the level as it
    /// went ("level 2 → 3"), numbers by how much they moved ("silver +20", "maximum health -1",
    /// which is also how the computed values move, C-1), anything else as it now reads.
    fn sheet_changes(was: &Self::Sheet, now: &Self::Sheet) -> Vec<String> {
        entered_changes(was, now, Self::SHEET_FIELDS)
    }
    /// The words for the sheet's fields where their names will not do (`("mp", "MP")`).
    const SHEET_FIELDS: &'static [(&'static str, &'static str)] = &[];
    /// Each character's part of a rest, in words (`Aldric heals 3`).
    fn rest_words(share: &Self::RestShare) -> String;
    /// What a rest or downtime says of a hurt character, `name`, whose health the system's rest
    /// does not heal (T-2); `None` where resting heals.
    fn rest_leaves_health(_name: &str) -> Option<String> {
        None
    }
    /// Where one of the system's characters stands after a downtime span, beside their health:
    /// `events` are those the span recorded.
    fn after_downtime(
        _mine: &Self::Character,
        _spent: &DowntimeOf,
        _events: &[(Seq, &Self::Event)],
    ) -> Vec<String> {
        Vec::new()
    }
    /// Whether the event is one a downtime span's weeks recorded beside it (a scroll written in
    /// the span), which the span's summary counts.
    fn of_downtime(_event: &Self::Event) -> bool {
        false
    }
    /// What `explain` adds for the event, after its dice: lines beginning with two spaces.
    fn explain(_event: &Self::Event) -> Vec<String> {
        Vec::new()
    }
    /// Names of the character's that a command line may take (rituals, spells), for completion.
    fn names(_character: &Self::Character) -> Vec<String> {
        Vec::new()
    }
    /// Names of campaign-wide things a command line may take (scrolls as `S12`).
    fn campaign_names(_state: &dyn View<Self>) -> Vec<String> {
        Vec::new()
    }
    /// What the character named `who`, of any system, holds of this system's campaign-wide
    /// things (scrolls, under `"scrolls"` by id), as their sheet shows it: added to the
    /// character's JSON under `holds`, so `character show --json` and `diff` show it too. Each
    /// kind of thing is there even when none is held, so what changes is the thing itself.
    fn holdings(_who: &str, _state: &dyn View<Self>) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
    /// The sheet's lines for what a character of another system holds of this system's things
    /// (none when nothing); the system's own characters show them in [`Self::sheet_lines`].
    fn held_lines(_who: &str, _state: &dyn View<Self>) -> Vec<String> {
        Vec::new()
    }
    /// The counts a session's recap keeps of the system's events, by the name its JSON gives
    /// each (every one shown, even at zero).
    const TALLIES: &'static [&'static str] = &[];
    /// Counts `event` in the recap: `add` once for each of [`Self::TALLIES`] it adds one to.
    fn tally(_event: &Self::Event, _add: &mut dyn FnMut(&'static str)) {}
    /// The tallies that make an event worth a line among a session's highlights on the report
    /// (a mishap, a failed spell), where most of what is counted is routine play.
    const HIGHLIGHTS: &'static [&'static str] = &[];
    /// The recap's lines for the system's counts (`count` reads one by name).
    fn tally_lines(_count: &dyn Fn(&'static str) -> u64) -> Vec<String> {
        Vec::new()
    }
    /// A field of the character's state, by its path under the system's key, in the table's
    /// words ("Brawn exerted"), where the path's own words would not do.
    fn field_label(_path: &[&str]) -> Option<String> {
        None
    }
    /// Whether a field is shown as there or not ("yes", "no") rather than by its value.
    fn shown_as_presence(_path: &[&str]) -> bool {
        false
    }
    /// The system's name in a table's narrow column ("ADG").
    const SHORT: &'static str;
    /// What a GM glances at between turns for `who` (`mine`: their state in this system), beside
    /// their name, level and health: a few short parts.
    fn glance(
        _who: &Someone<'_, Self>,
        _mine: &Self::Character,
        _state: &dyn View<Self>,
    ) -> Vec<String> {
        Vec::new()
    }
    /// The computed sheet of `who` (`mine`: their state in this system) as `character show`
    /// prints it under their name, each line indented by two spaces.
    fn sheet_lines(
        who: &Someone<'_, Self>,
        _mine: &Self::Character,
        _state: &dyn View<Self>,
    ) -> Vec<String> {
        vec![format!(
            "  {}",
            crate::words::capitalized(&who.health_text())
        )]
    }
    /// What is in force on `who` and what it does, for their player's card (#47): each as it
    /// reads on the sheet, with its effect in a few words.
    fn in_force(
        _who: &Someone<'_, Self>,
        _mine: &Self::Character,
        _state: &dyn View<Self>,
    ) -> Vec<(String, &'static str)> {
        Vec::new()
    }
    /// What `who` knows (spells, rituals), each with what it costs and how it works, for their
    /// player's card (#47).
    fn known(
        _who: &Someone<'_, Self>,
        _mine: &Self::Character,
        _state: &dyn View<Self>,
    ) -> Vec<(String, String)> {
        Vec::new()
    }
    /// What of this system waits on someone at the table (a choice to make, a spell about to
    /// fire, a save still open), each line naming who: the live view gathers them at its top.
    fn waiting(_state: &dyn View<Self>) -> Vec<String> {
        Vec::new()
    }
    /// The character's level, as a summary names it.
    fn level(character: &Self::Character) -> u32;
    /// Counts whose change is worth a line in a timeline (rituals known, spells known); the level
    /// and death are the core's.
    fn milestones(_character: &Self::Character) -> Vec<usize> {
        Vec::new()
    }
    /// The charts the report draws for one of the system's characters, in order, each value as
    /// it stands now.
    fn charts(_character: &Self::Character) -> Vec<(Chart, Vec<Gauge>)> {
        Vec::new()
    }
    /// What the system counts per in-game day against a limit on the report, if anything.
    const PER_DAY: Option<PerDay> = None;
    /// Whether `event` counts towards [`Self::PER_DAY`]: whose count, and that day's limit.
    fn counted_per_day<'e>(
        _state: &dyn View<Self>,
        _event: &'e Self::Event,
    ) -> Option<(&'e str, u32)> {
        None
    }
    /// The tables of campaign-wide things the report lists (the scrolls held), each shown even
    /// when empty.
    fn report_tables(_state: &dyn View<Self>) -> Vec<Table> {
        Vec::new()
    }
}

/// The spells in force on `who` (VSD-8), of whichever system they are, as a sheet line.
pub fn spells_on_line<S: SystemFold>(who: &Someone<'_, S>, state: &dyn View<S>) -> String {
    let now = state.clock();
    let active: Vec<String> = who
        .spells_on
        .values()
        .filter(|a| a.until.is_none_or(|u| u > now))
        .map(|a| {
            let area = if a.half_area {
                ", over half its area"
            } else {
                ""
            };
            match a.until {
                Some(until) => format!(
                    "{} (from {}{area}, until {})",
                    a.spell,
                    a.caster,
                    state.until_words(until)
                ),
                None => format!("{} (from {}{area})", a.spell, a.caster),
            }
        })
        .collect();
    format!("  Spells on them: {}", crate::words::list_or_none(&active))
}

/// [`SystemWords::sheet_changes`] read from the sheets' fields, the level first: `fields` names
/// some of them.
pub fn entered_changes<T: serde::Serialize>(
    was: &T,
    now: &T,
    fields: &[(&str, &str)],
) -> Vec<String> {
    let (Ok(serde_json::Value::Object(was)), Ok(serde_json::Value::Object(now))) =
        (serde_json::to_value(was), serde_json::to_value(now))
    else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    // The level first, then the rest by name.
    let mut keys: Vec<&String> = now.keys().collect();
    keys.sort_by_key(|key| *key != "level");
    for key in keys {
        let value = &now[key];
        let before = was.get(key);
        if before == Some(value) {
            continue;
        }
        let name = fields
            .iter()
            .find(|(field, _)| field == key)
            .map_or_else(|| key.replace('_', " "), |(_, words)| words.to_string());
        let (old, new) = (before.and_then(serde_json::Value::as_i64), value.as_i64());
        changes.push(match (old, new) {
            (Some(old), Some(new)) if key == "level" => format!("{name} {old} → {new}"),
            (Some(old), Some(new)) => format!("{name} {:+}", new - old),
            _ => format!("{name} now {}", plain(value)),
        });
    }
    changes
}

/// A sheet's value as it reads: text as it is, a list as its items, a record as its values.
fn plain(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(items) => items.iter().map(plain).collect::<Vec<_>>().join(", "),
        serde_json::Value::Object(fields) => {
            fields.values().map(plain).collect::<Vec<_>>().join(" ")
        }
        other => other.to_string(),
    }
}

/// A chart of a character's values over in-game time, each drawn beside its maximum (dashed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chart {
    /// Its name in the page (`data-chart`).
    pub id: &'static str,
    /// What it shows, after the character's name in its title ("attributes").
    pub title: &'static str,
    pub caption: &'static str,
}

/// One value on a chart as it stands now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gauge {
    pub label: &'static str,
    pub max_label: &'static str,
    /// Its colour, as a place in the report's palette (0 is health's).
    pub colour: usize,
    pub current: u32,
    pub max: u32,
}

/// Something counted per in-game day against a limit (rituals cast against the safe number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerDay {
    pub id: &'static str,
    /// After the character's name in the chart's title ("rituals per day").
    pub title: &'static str,
    /// The bars' and the marks' names ("rituals cast", "safe number").
    pub counted: &'static str,
    pub limit: &'static str,
    /// The caption, without its full stop ("Rituals cast per in-game day against the safe number").
    pub caption: &'static str,
    /// The days shown, when not all are ("days with a ritual").
    pub days: &'static str,
    /// Shown while nothing has been counted ("No rituals cast yet.").
    pub none_yet: &'static str,
}

/// A table of things the campaign holds, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub id: &'static str,
    pub heading: &'static str,
    /// Shown instead of an empty table ("No scroll is held.").
    pub empty: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}
