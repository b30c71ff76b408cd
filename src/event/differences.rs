//! What an amendment changes (C-3): the fields that differ between an event and the one put in its
//! place, in words. The rules compute it when amending; `verify` computes it again and refuses a
//! list that says otherwise.

use super::Event;
use std::collections::BTreeSet;

/// The fields that differ between two events of one kind, in words ("ob: 55 → 65"), their dice
/// left out (the same dice, by construction).
pub fn differences(was: &Event, now: &Event) -> Vec<String> {
    let as_json = |event: &Event| serde_json::to_value(event).unwrap_or_default();
    let mut found = Vec::new();
    differ("", &as_json(was), &as_json(now), &mut found);
    found
}

fn differ(path: &str, was: &serde_json::Value, now: &serde_json::Value, found: &mut Vec<String>) {
    use serde_json::Value;
    if was == now {
        return;
    }
    let at = |key: &str| match path.is_empty() {
        true => key.to_string(),
        false => format!("{path}.{key}"),
    };
    let none = Value::Null;
    match (was, now) {
        (Value::Object(was), Value::Object(now)) => {
            let keys: BTreeSet<&String> = was.keys().chain(now.keys()).collect();
            for key in keys.into_iter().filter(|key| *key != "dice") {
                let (w, n) = (was.get(key).unwrap_or(&none), now.get(key).unwrap_or(&none));
                differ(&at(key), w, n, found);
            }
        }
        // A list of named parts (a cast's modifiers) is compared part by part, by name.
        (Value::Array(w), Value::Array(n)) if labelled(w) && labelled(n) => {
            let mut seen = BTreeSet::new();
            let labels = w.iter().chain(n).filter_map(label);
            for name in labels.filter(|name| seen.insert(*name)) {
                let part = |list: &[Value]| {
                    list.iter()
                        .find(|v| label(v) == Some(name))
                        .map(|v| v.get("value").unwrap_or(v))
                        .cloned()
                        .unwrap_or(Value::Null)
                };
                differ(name, &part(w), &part(n), found);
            }
        }
        (Value::Array(w), Value::Array(n)) if w.len() == n.len() => {
            for (i, (w, n)) in w.iter().zip(n).enumerate() {
                differ(&at(&(i + 1).to_string()), w, n, found);
            }
        }
        _ => found.push(format!("{path}: {} → {}", shown(was), shown(now))),
    }
}

/// What names a part in a list of parts (`{"what": "range", "value": 30}`).
fn label(value: &serde_json::Value) -> Option<&str> {
    value.get("what").and_then(serde_json::Value::as_str)
}

fn labelled(list: &[serde_json::Value]) -> bool {
    list.iter().all(|v| label(v).is_some())
}

/// A value as the change names it: text without its quotes, nothing as "none", anything large cut.
fn shown(value: &serde_json::Value) -> String {
    const LONGEST: usize = 60;
    let text = match value {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(text) => text.clone(),
        // A part that is there on one side only: its fields are the other side's "none".
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => "recorded".to_string(),
        other => other.to_string(),
    };
    match text.chars().count() > LONGEST {
        true => format!("{}…", text.chars().take(LONGEST).collect::<String>()),
        false => text,
    }
}
