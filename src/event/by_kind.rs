//! Performance machinery, kept apart from the model it reads: a stored payload read straight into
//! its event by the kind its row names, instead of through serde's general path for a tagged enum
//! (which copies the whole payload into a generic tree first to find the tag).

use super::{Event, EventOfKind};
use crate::systems::contract::event::SystemModel;
use crate::systems::contract::event::{ReadsByKind, variant_names};
use crate::systems::registry::{AnyEvent, SystemId, on_system};

/// Reads a payload of today's version stored under `kind`. A payload grimoire wrote begins with its
/// `kind` field; when that matches the column, the variant is read straight from the payload through
/// `EventOfKind` (the payload's own `kind` field is then just a field the variant does not have).
/// Any other payload takes serde's general path.
pub(super) fn read_current(kind: &str, payload: &str) -> serde_json::Result<Event> {
    let begins_with_its_kind = payload
        .strip_prefix(r#"{"kind":""#)
        .and_then(|rest| rest.strip_prefix(kind))
        .is_some_and(|rest| rest.starts_with('"'));
    if !begins_with_its_kind {
        return serde_json::from_str(payload);
    }
    // `{"<kind>": <payload>}`: serde's externally tagged form. `kind` is valid inside a JSON string,
    // as the payload just showed.
    let mut named = String::with_capacity(payload.len() + kind.len() + 5);
    named.push_str("{\"");
    named.push_str(kind);
    named.push_str("\":");
    named.push_str(payload);
    named.push('}');
    let mut reader = serde_json::Deserializer::from_str(&named);
    let event = match owner(kind) {
        None => EventOfKind::deserialize(&mut reader)?,
        Some(system) => Event::System(on_system!(system, SystemId, |S| {
            AnyEvent::from(<S as SystemModel>::Event::read_named(&mut reader)?)
        })),
    };
    reader.end()?;
    Ok(event)
}

/// Why a payload of `kind` could not be read, in grimoire's words rather than serde's: the field
/// (its path in the payload), what it holds and what belongs there, and where in the payload. Only
/// asked once a read has failed, so reading it again with the path tracked costs nothing otherwise.
pub(super) fn why_unreadable(kind: &str, payload: &str) -> String {
    let prefix = kind.len() + 4;
    let named = format!("{{\"{kind}\":{payload}}}");
    let mut reader = serde_json::Deserializer::from_str(&named);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut reader, &mut track);
    let read = match owner(kind) {
        None => EventOfKind::deserialize(tracked).map(|_| ()),
        Some(system) => on_system!(system, SystemId, |S| {
            <S as SystemModel>::Event::read_named(tracked).map(|_| ())
        }),
    };
    let Err(error) = read.and_then(|()| reader.end()) else {
        return "it does not have the shape of that kind of event".into();
    };
    let path = track.path().to_string();
    let field = path
        .strip_prefix(kind)
        .map(|p| p.trim_start_matches('.'))
        .filter(|p| !p.is_empty() && *p != "?")
        .map(str::to_string);
    let column = if error.line() == 1 {
        error.column().saturating_sub(prefix)
    } else {
        error.column()
    };
    format!(
        "{} (line {}, column {column} of its payload)",
        problem_in_words(&error, field.as_deref()),
        error.line()
    )
}

/// serde_json's account of a failed read of an older payload (read whole, without a field's path),
/// said plainly.
pub(super) fn said_plainly(error: &serde_json::Error) -> String {
    if error.line() == 0 {
        return problem_in_words(error, None);
    }
    format!(
        "{} (line {}, column {} of its payload)",
        problem_in_words(error, None),
        error.line(),
        error.column()
    )
}

/// serde_json's account of a failed read, said plainly.
pub fn problem_in_words(error: &serde_json::Error, field: Option<&str>) -> String {
    use serde_json::error::Category;
    let the_field = field.map_or_else(|| "a field".to_string(), |f| format!("the field '{f}'"));
    if !matches!(error.classify(), Category::Data) {
        return "it is not well-formed JSON".into();
    }
    // serde's own message, without its position (said above in grimoire's terms).
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    if let Some(missing) = message.strip_prefix("missing field ") {
        let missing = missing.trim_matches('`');
        return match field {
            Some(f) => format!("the field '{f}.{missing}' is missing"),
            None => format!("the field '{missing}' is missing"),
        };
    }
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .or_else(|| message.strip_prefix("invalid length "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        // "floating point `1e+29`", "integer `-1`", "string \"x\"", "map": the value itself where
        // serde quotes it, else what kind of value it is.
        let found = match (found.find('`'), found.rfind('`')) {
            (Some(open), Some(close)) if open < close => &found[open + 1..close],
            _ => match found.split_once(' ') {
                Some(("string", value)) => value,
                _ if found == "map" => "a group of fields",
                _ if found == "sequence" => "a list",
                _ => found,
            },
        };
        return format!(
            "{the_field} holds {found} where {} belongs",
            expected_in_words(expected)
        );
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let value = rest.split(',').next().unwrap_or_default().trim_matches('`');
        return format!(
            "{the_field} holds '{value}', which is not one of the values grimoire writes there"
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let name = rest.split(',').next().unwrap_or_default().trim_matches('`');
        return format!("it has a field '{name}' that grimoire does not write there");
    }
    if let Some(rest) = message.strip_prefix("duplicate field ") {
        return format!("the field '{}' appears twice", rest.trim_matches('`'));
    }
    format!("{the_field} does not hold what grimoire writes there")
}

/// What serde says a field expects, as a person would say it.
fn expected_in_words(expected: &str) -> String {
    match expected {
        "u8" => "a whole number from 0 to 255".into(),
        "u16" => "a whole number from 0 to 65535".into(),
        "u32" => "a whole number from 0 to 4294967295".into(),
        "u64" => "a whole number from 0 to 18446744073709551615".into(),
        "i32" | "i64" => "a whole number".into(),
        "a string" | "a boolean" | "a sequence" | "a map" => expected.into(),
        other if other.starts_with("struct ") || other.starts_with("internally tagged") => {
            "a group of fields".into()
        }
        other if other.starts_with("a ") || other.starts_with("an ") => other.into(),
        _ => "another kind of value".into(),
    }
}

/// The rule system whose enum declares an event kind (`None`: the core's own).
pub(super) fn owner(kind: &str) -> Option<SystemId> {
    static KINDS: std::sync::OnceLock<Vec<(SystemId, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        SystemId::ALL
            .iter()
            .map(|&system| {
                let kinds = on_system!(system, SystemId, |S| <S as SystemModel>::Event::kinds());
                (system, kinds)
            })
            .collect()
    });
    kinds
        .iter()
        .find(|(_, kinds)| kinds.contains(&kind))
        .map(|&(system, _)| system)
}

/// Every kind of event the log can hold, as stored (`dice_rolled`, `ritual_cast`, …), sorted.
pub fn kinds() -> Vec<&'static str> {
    let mut kinds = variant_names(|d| EventOfKind::deserialize(d).map(|_| ()));
    for &system in SystemId::ALL {
        kinds.extend(on_system!(system, SystemId, |S| {
            <S as SystemModel>::Event::kinds()
        }));
    }
    kinds.sort_unstable();
    kinds
}
