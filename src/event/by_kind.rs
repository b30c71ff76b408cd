//! Performance machinery, kept apart from the model it reads: a stored payload read straight into
//! its event by the kind its row names, instead of through serde's general path for a tagged enum
//! (which copies the whole payload into a generic tree first to find the tag).

use super::{Event, EventOfKind};
use crate::systems::contract::event::SystemModel;
use crate::systems::contract::event::{ReadsByKind, variant_names};
use crate::systems::registry::{AnyEvent, SystemId, on_system};

/// Reads a payload of `version` (one of today's shapes) stored under `kind`. A payload grimoire
/// wrote begins with its `kind` field; when that matches the column, the variant is read straight
/// from the payload through `EventOfKind` (the payload's own `kind` field is then just a field the
/// variant does not have), as serde's externally tagged form `{"<kind>": <payload>}` reads it.
/// Any other payload takes serde's general path.
pub(super) fn read_current(kind: &str, version: u32, payload: &str) -> serde_json::Result<Event> {
    let begins_with_its_kind = payload
        .strip_prefix(r#"{"kind":""#)
        .and_then(|rest| rest.strip_prefix(kind))
        .is_some_and(|rest| rest.starts_with('"'));
    if !begins_with_its_kind {
        return serde_json::from_str(payload);
    }
    if version < super::CANONICAL_SINCE {
        // Before the canonical form, how deep a payload nests was serde's alone to limit, and the
        // grimoire that wrote it read it copied into the tagged form, one level deeper: read as it
        // did, so what it refused is still refused. `kind` is valid inside a JSON string, as the
        // payload just showed.
        let named = format!("{{\"{kind}\":{payload}}}");
        let mut reader = serde_json::Deserializer::from_str(&named);
        let event = read_named(kind, &mut reader)?;
        reader.end()?;
        return Ok(event);
    }
    let mut reader = serde_json::Deserializer::from_str(payload);
    let event = read_named(
        kind,
        Named {
            kind,
            payload: &mut reader,
        },
    )?;
    reader.end()?;
    Ok(event)
}

/// The event of `kind` read from serde's externally tagged form of it.
fn read_named<'de, D>(kind: &str, named: D) -> serde_json::Result<Event>
where
    D: serde::Deserializer<'de, Error = serde_json::Error>,
{
    Ok(match owner(kind) {
        None => EventOfKind::deserialize(named)?,
        Some(system) => Event::System(on_system!(system, SystemId, |S| {
            AnyEvent::from(<S as SystemModel>::Event::read_named(named)?)
        })),
    })
}

/// A payload with the kind its row names, read as serde reads an externally tagged enum's
/// `{"<kind>": <payload>}` (serde_json's own reading of that form, step for step) without copying
/// the payload into that form first: the copy was a tenth of reading an event. A canonical
/// payload nests at most 126 deep, so the level the copy added never mattered to one.
struct Named<'a, 'de> {
    kind: &'a str,
    payload: &'a mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
}

impl<'de> serde::Deserializer<'de> for Named<'_, 'de> {
    type Error = serde_json::Error;

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_enum(self)
    }

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom(
            "only an event is read by its kind",
        ))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// An enum read by a deserializer that knows its variant's name (`self.kind`): serde asks for the
/// variant, and is given that name.
macro_rules! variant_named_by_kind {
    ($type:ty, $error:ty) => {
        impl<'de> serde::de::EnumAccess<'de> for $type {
            type Error = $error;
            type Variant = Self;

            fn variant_seed<V: serde::de::DeserializeSeed<'de>>(
                self,
                seed: V,
            ) -> Result<(V::Value, Self), Self::Error> {
                let kind = serde::de::value::StrDeserializer::<Self::Error>::new(self.kind);
                Ok((seed.deserialize(kind)?, self))
            }
        }
    };
}

variant_named_by_kind!(Named<'_, 'de>, serde_json::Error);

impl<'de> serde::de::VariantAccess<'de> for Named<'_, 'de> {
    type Error = serde_json::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        serde::Deserialize::deserialize(self.payload)
    }

    fn newtype_variant_seed<T: serde::de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        seed.deserialize(self.payload)
    }

    fn tuple_variant<V: serde::de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        serde::Deserializer::deserialize_seq(self.payload, visitor)
    }

    fn struct_variant<V: serde::de::Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        serde::Deserializer::deserialize_struct(self.payload, "", fields, visitor)
    }
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
        crate::text::json_problem(&error, field.as_deref()),
        error.line()
    )
}

/// serde_json's account of a failed read of an older payload (read whole, without a field's path),
/// said plainly.
pub(super) fn said_plainly(error: &serde_json::Error) -> String {
    if error.line() == 0 {
        return crate::text::json_problem(error, None);
    }
    format!(
        "{} (line {}, column {} of its payload)",
        crate::text::json_problem(error, None),
        error.line(),
        error.column()
    )
}

/// Each rule system's kinds of event with the system's key (`ritual_cast` → `adg`), for the
/// players' page, which holds a roll put to a phone to its system as `verify` does.
pub fn kinds_by_system() -> &'static [(&'static str, &'static str)] {
    static OWNED: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
        std::sync::OnceLock::new();
    OWNED.get_or_init(|| {
        kinds()
            .into_iter()
            .filter_map(|kind| owner(kind).map(|system| (kind, system.key())))
            .collect()
    })
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
/// The kinds brought after the first payload version, each with the version that brought it: an
/// event of an older version cannot be of that kind. Both checkers read this one list (the page
/// has it written before its script). Made once: every event of an older log is read against it.
pub fn kinds_since() -> &'static [(&'static str, u32)] {
    static KINDS: std::sync::OnceLock<Vec<(&'static str, u32)>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let mut kinds = vec![
            ("sealed_seed_revealed", super::SEALED_SEED_SINCE),
            ("choice_answered", super::PLAYERS_CHOICES_SINCE),
        ];
        for &system in SystemId::ALL {
            kinds.extend(on_system!(system, SystemId, |S| {
                <<S as SystemModel>::Event as crate::systems::contract::event::SystemEvent>::kinds_since()
            }));
        }
        kinds
    })
}

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

/// The kinds whose payload holds its dice in a `dice` field of its own: the ones whose dice both
/// checkers read there (the page has this list written before its script). Learnt from each
/// kind's derived shape, as [`kinds`] learns the names, so a new kind with dice is on it.
pub fn kinds_with_dice() -> &'static [&'static str] {
    static KINDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        kinds()
            .into_iter()
            .filter(|kind| fields_of(kind).contains(&"dice"))
            .collect()
    })
}

/// The fields serde's derive reads for a payload of `kind` (none for a kind without fields).
fn fields_of(kind: &'static str) -> Vec<&'static str> {
    let mut found = Vec::new();
    let probe = FieldProbe {
        kind,
        found: &mut found,
    };
    let _ = match owner(kind) {
        None => EventOfKind::deserialize(probe).map(|_| ()),
        Some(system) => on_system!(system, SystemId, |S| {
            <S as SystemModel>::Event::read_named(probe).map(|_| ())
        }),
    };
    found
}

/// A deserializer that reads nothing: it names `kind` when an enum asks for its variant, and
/// notes the fields that variant's struct (or the struct it wraps) declares.
struct FieldProbe<'a> {
    kind: &'static str,
    found: &'a mut Vec<&'static str>,
}

impl<'de> serde::Deserializer<'de> for FieldProbe<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_enum(self)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.found.extend(fields);
        Err(serde::de::Error::custom("fields noted"))
    }

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("only a kind's shape is read here"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map identifier ignored_any
    }
}

variant_named_by_kind!(FieldProbe<'_>, serde::de::value::Error);

impl<'de> serde::de::VariantAccess<'de> for FieldProbe<'_> {
    type Error = serde::de::value::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: serde::de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: serde::de::Visitor<'de>>(
        self,
        _len: usize,
        _: V,
    ) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("no kind is a tuple"))
    }

    fn struct_variant<V: serde::de::Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.found.extend(fields);
        Err(serde::de::Error::custom("fields noted"))
    }
}
