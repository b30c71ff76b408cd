//! What changed on each character's sheet between two points, for `diff` and `session recap`:
//! the values that differ, walked only where they differ, each put into words.

use super::sheet::character_json;
use crate::Error;
use crate::event::Event;
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::store::Store;
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::{SystemId, on_system};
use crate::words::Folded;
use serde_json::{Value, json};
use std::collections::HashMap;

pub(super) struct Changes {
    pub(super) text: String,
    pub(super) json: Vec<Value>,
}

/// For each of some characters (or anyone), the events that concern them, noted as the events
/// stream by.
pub(super) struct Touched {
    /// Folded name → the seqs of the events that mention them.
    seqs: HashMap<Folded, Vec<Seq>>,
    /// Whether a name not listed at the start is noted too.
    anyone: bool,
    /// Retractions and amendments seen, as (their seq, the seq they undo or amend): one concerns
    /// whoever the event it undoes (or restores, or amends) concerns.
    retractions: Vec<(Seq, Seq)>,
}

impl Touched {
    pub(super) fn of(names: &[String]) -> Touched {
        Touched {
            seqs: names.iter().map(|n| (Folded::of(n), Vec::new())).collect(),
            anyone: false,
            retractions: Vec::new(),
        }
    }

    pub(super) fn anyone() -> Touched {
        Touched {
            seqs: HashMap::new(),
            anyone: true,
            retractions: Vec::new(),
        }
    }

    /// Each name the event mentions is looked up once, whatever the size of the party.
    pub(super) fn note(&mut self, seq: Seq, event: &Event) {
        if let Event::Retracted { seq: target, .. } | Event::Amended { seq: target, .. } = event {
            self.retractions.push((seq, *target));
        }
        let Touched {
            seqs,
            anyone,
            retractions: _,
        } = self;
        event.mentions(&mut |name| {
            let folded = Folded::of(name);
            let found = match seqs.get_mut(&folded) {
                Some(found) => Some(found),
                None if *anyone => Some(seqs.entry(folded).or_default()),
                None => None,
            };
            if let Some(found) = found
                && found.last() != Some(&seq)
            {
                found.push(seq);
            }
            false
        });
    }

    /// Notes each retraction seen as concerning whoever the event it undoes concerns, following a
    /// retraction of a retraction down to the event restored.
    pub(super) fn follow_retractions(&mut self, store: &mut Store) -> Result<(), Error> {
        for (at, mut target) in std::mem::take(&mut self.retractions) {
            while let Some(undone) = store.event(target)? {
                match undone.event {
                    // Down to earlier events only (a forged log's retraction of itself ends here).
                    Event::Retracted { seq, .. } if seq < undone.seq => target = seq,
                    Event::Retracted { .. } => break,
                    event => {
                        self.note(at, &event);
                        break;
                    }
                }
            }
        }
        for seqs in self.seqs.values_mut() {
            seqs.sort_unstable();
            seqs.dedup();
        }
        Ok(())
    }

    /// Whether a retraction or an amendment seen reaches back to `seq` or before it.
    pub(super) fn reaches_back_to(&self, seq: Seq) -> bool {
        self.retractions.iter().any(|&(_, target)| target <= seq)
    }

    /// The events that mention `name`, oldest first.
    pub(super) fn by(&self, name: &str) -> &[Seq] {
        self.seqs.get(&Folded::of(name)).map_or(&[], Vec::as_slice)
    }
}

/// Each character's changed values between the two states, and the events between them that
/// concern the character (`touched`, noted for the same names); the tables fit `width` when given.
pub(super) fn changes(
    before: &CampaignState,
    after: &CampaignState,
    names: &[String],
    touched: &Touched,
    width: Option<u16>,
) -> Changes {
    let mut lines = Vec::new();
    let mut json = Vec::new();
    for name in names {
        let (was, is) = (before.character(name), after.character(name));
        let shown = is.or(was).map_or(name.as_str(), |c| c.name.as_str());
        // One who joined shows each value from nothing; one who left, each value to nothing.
        let mut changed = Vec::new();
        let old = was.map(|c| character_json(c, before));
        let new = is.map(|c| character_json(c, after));
        let whole = was.is_none() || is.is_none();
        compare("", old.as_ref(), new.as_ref(), whole, &mut changed);
        let header = match (was, is) {
            (None, Some(_)) => format!("{shown}: joined"),
            (Some(_), None) => format!("{shown}: no longer in the campaign"),
            _ if changed.is_empty() => format!("{shown}: no change"),
            _ => format!("{shown}:"),
        };
        lines.push(header);
        if !changed.is_empty() {
            // A table of what changed, before and after, indented under the character.
            let rows = changed.iter().map(Change::row).collect();
            let (from, to) = (
                format!("at #{}", before.head),
                format!("at #{}", after.head),
            );
            let table = crate::render::table(&["", &from, &to], rows, width);
            lines.extend(table.lines().map(|l| format!("  {l}")));
        }
        let by = touched.by(name);
        if !by.is_empty() {
            let seqs: Vec<String> = by.iter().map(|s| format!("#{s}")).collect();
            lines.push(format!("  by {}", seqs.join(" ")));
        }
        json.push(json!({
            "character": shown,
            "joined": was.is_none() && is.is_some(),
            "left": was.is_some() && is.is_none(),
            "changes": changed
                .iter()
                .map(|c| json!({ "field": c.path, "from": c.from, "to": c.to }))
                .collect::<Vec<_>>(),
            "events": by,
        }));
    }
    Changes {
        text: lines.join("\n"),
        json,
    }
}

/// Bookkeeping a sheet keeps for the rules (event numbers, round counters), not for the table.
pub(super) const BOOKKEEPING: &[&str] = &[
    "added_seq",
    "cast_seq",
    "first_round",
    "last_round",
    "last_cast_round",
    "half_action_round",
    "started_seq",
];

/// One value of a sheet that differs between two points: `None` where it was not there.
pub(super) struct Change {
    path: String,
    from: Option<Value>,
    to: Option<Value>,
}

impl Change {
    /// The table's row: the field in words, then each side as the table reads it. An entry that
    /// appeared or went whole (a ritual learned, a scroll given away) is "added" or "gone".
    pub(super) fn row(&self) -> Vec<String> {
        let (from, to) = match (&self.from, &self.to) {
            (None, Some(Value::Object(_))) => ("-".to_string(), "added".to_string()),
            (Some(Value::Object(_)), None) => ("present".to_string(), "gone".to_string()),
            (from, to) => {
                let (before, after) = (
                    shown(&self.path, from.as_ref()),
                    shown(&self.path, to.as_ref()),
                );
                // Two moments of one minute read alike on the clock (T-1): the rounds between
                // them say which is later.
                let seconds = |v: &Option<Value>| v.as_ref().and_then(Value::as_u64);
                match (is_a_time(&self.path), seconds(from), seconds(to)) {
                    (true, Some(a), Some(b)) if a != b && before == after => {
                        let rounds = a.abs_diff(b).div_ceil(crate::time::ROUND_SECONDS);
                        let later = crate::words::count(rounds, "round", "rounds");
                        let which = if b > a { "later" } else { "earlier" };
                        (before, format!("{after} ({later} {which})"))
                    }
                    _ => (before, after),
                }
            }
        };
        vec![label(&self.path), from, to]
    }
}

/// The values that differ between two sheets, walking only into what differs. An entry that
/// appeared or went whole (a ritual learned, a spell cast on someone) is one change, but for a
/// character who joined or left (`whole`) each value is shown, empty lists left out; what was
/// entered once (`sheet`), the name the header shows and the rules' bookkeeping are left out.
pub(super) fn compare(
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    whole: bool,
    out: &mut Vec<Change>,
) {
    let shown = |v: &&Value| match v {
        Value::Null => false,
        Value::Array(items) if whole => !items.is_empty(),
        Value::Object(fields) if whole => !fields.is_empty(),
        _ => true,
    };
    let (old, new) = (old.filter(shown), new.filter(shown));
    if old == new {
        return;
    }
    let within = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    // A health track given or taken away is its values appearing or going, not an entry; so is
    // every value of a character who joined or left (`whole`).
    let nothing = Value::Object(serde_json::Map::new());
    let (old, new) = match (old, new) {
        (None, Some(Value::Object(_))) if whole || path == "health" => (Some(&nothing), new),
        (Some(Value::Object(_)), None) if whole || path == "health" => (old, Some(&nothing)),
        _ => (old, new),
    };
    if let (Some(Value::Object(before)), Some(Value::Object(after))) = (old, new) {
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for key in keys {
            if (path.is_empty() && (key == "sheet" || key == "name"))
                || BOOKKEEPING.contains(&key.as_str())
            {
                continue;
            }
            compare(&within(key), before.get(key), after.get(key), whole, out);
        }
        return;
    }
    out.push(Change {
        path: path.to_string(),
        from: old.cloned(),
        to: new.cloned(),
    });
}

/// A sheet's field as the table says it: "health", "Brawn exerted", "ritual fog: words". The JSON
/// output keeps the field's path; the text never shows a code name.
pub(super) fn label(path: &str) -> String {
    let parts: Vec<&str> = path.split('.').collect();
    let words = |part: &str| part.replace('_', " ");
    match parts.as_slice() {
        ["health", "current"] => "health".into(),
        ["health", "max"] => "maximum health".into(),
        // Campaign-wide things held (scrolls): whichever system's they are names them.
        ["holds", rest @ ..] => SystemId::ALL
            .iter()
            .find_map(|&system| on_system!(system, SystemId, |S| S::field_label(rest)))
            .unwrap_or_else(|| words(&rest.join(" › "))),
        [key, rest @ ..] => match SystemId::keyed(key) {
            Some(system) => on_system!(system, SystemId, |S| S::field_label(rest))
                .unwrap_or_else(|| words(&rest.join(" › "))),
            None => words(&parts.join(" › ")),
        },
        [] => String::new(),
    }
}

/// Whether the field at `path` is shown as there or not, as its rule system has it.
pub(super) fn shown_as_presence(path: &str) -> bool {
    let parts: Vec<&str> = path.split('.').collect();
    match parts.as_slice() {
        [key, rest @ ..] => SystemId::keyed(key)
            .is_some_and(|system| on_system!(system, SystemId, |S| S::shown_as_presence(rest))),
        [] => false,
    }
}

/// One value as the table reads it: text as it is, an in-game moment as a date, yes or no, a list
/// of words as words, nothing as "-" (a status of nothing: "up").
/// Whether the value at `path` is a moment on the clock (seconds since Day 1): when something runs
/// out (`until`), or when it was done (`cast_at`, `began_at`).
pub(super) fn is_a_time(path: &str) -> bool {
    let key = path.rsplit('.').next().unwrap_or(path);
    key == "until" || key.ends_with("_until") || key.ends_with("_at")
}

pub(super) fn shown(path: &str, value: Option<&Value>) -> String {
    match value {
        None if path == "status" => "up".into(),
        _ if shown_as_presence(path) => if value.is_some() { "yes" } else { "no" }.into(),
        None => "-".into(),
        Some(Value::Bool(yes)) => if *yes { "yes" } else { "no" }.into(),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        Some(Value::Array(items)) if items.is_empty() => "none".into(),
        // A list of records (effects in force, lores): each as its values, never as JSON.
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| shown(path, Some(item)))
            .collect::<Vec<_>>()
            .join("; "),
        // A record by its words, then its other values named: "Elementalism (bonus 45, ranks 6)".
        Some(Value::Object(fields)) => {
            let (words, values): (Vec<_>, Vec<_>) = fields
                .iter()
                .filter(|(_, v)| !v.is_null())
                .partition(|(_, v)| v.is_string());
            let words: Vec<String> = words
                .iter()
                .map(|(key, v)| shown(&format!("{path}.{key}"), Some(v)))
                .collect();
            let values: Vec<String> = values
                .iter()
                .map(|(key, v)| {
                    let value = shown(&format!("{path}.{key}"), Some(v));
                    format!("{} {value}", key.replace('_', " "))
                })
                .collect();
            match (words.is_empty(), values.is_empty()) {
                (_, true) => words.join(" "),
                (true, false) => values.join(", "),
                (false, false) => format!("{} ({})", words.join(" "), values.join(", ")),
            }
        }
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(n)) if is_a_time(path) => n
            .as_u64()
            .map_or_else(|| n.to_string(), |s| crate::time::GameTime(s).to_string()),
        Some(other) => other.to_string(),
    }
}
