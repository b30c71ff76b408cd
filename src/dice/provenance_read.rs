//! How a die's provenance is read from a payload. It is written by serde's derive with its
//! `source` first; read by hand, because serde reads an enum tagged inside its own fields by
//! first copying the fields into a generic tree, and a replay reads one for every die in the log
//! (an eighth of a cold replay). A provenance whose `source` is not first (written by hand) is
//! gathered first and read all the same.

use super::{Provenance, SealedOrigin, Witness};
use crate::ids::RequestId;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// The sources a provenance may name, as written.
enum Source {
    Entered,
    Seeded,
    Device,
    Sealed,
}

const SOURCES: &[&str] = &["entered", "seeded", "device", "sealed"];

/// A source is a plain name (from the hostile pass: read as a serde enum, `{"seeded":null}` was
/// taken too, which the derive refused and the page's check does not read as seeded).
impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Source, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Source;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a die's source, a name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Source, E> {
                Ok(match name {
                    "entered" => Source::Entered,
                    "seeded" => Source::Seeded,
                    "device" => Source::Device,
                    "sealed" => Source::Sealed,
                    other => return Err(E::unknown_variant(other, SOURCES)),
                })
            }
        }
        from.deserialize_str(Name)
    }
}

/// Whether a field was given at all, whatever its value (`null` included): a second `source`.
#[derive(Default)]
struct Given(bool);

impl<'de> Deserialize<'de> for Given {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Given, D::Error> {
        de::IgnoredAny::deserialize(from).map(|_| Given(true))
    }
}

/// The fields beside each source, read as the derive reads them (unknown ones passed over); a
/// second `source` among them is refused, as the derive refuses it.
#[derive(Deserialize)]
struct Entered {
    #[serde(default)]
    source: Given,
}

#[derive(Deserialize)]
struct Seeded {
    #[serde(default)]
    source: Given,
    epoch: u32,
    #[serde(default)]
    roll: Option<u64>,
    #[serde(default)]
    witness: Option<Witness>,
}

#[derive(Deserialize)]
struct Device {
    #[serde(default)]
    source: Given,
    request: RequestId,
    #[serde(default)]
    witnessed: bool,
}

#[derive(Deserialize)]
struct Sealed {
    #[serde(default)]
    source: Given,
    commitment: String,
    #[serde(default)]
    origin: Option<SealedOrigin>,
}

impl<'de> Deserialize<'de> for Provenance {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Provenance, D::Error> {
        from.deserialize_map(Fields)
    }
}

struct Fields;

impl<'de> Visitor<'de> for Fields {
    type Value = Provenance;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a die's provenance")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Provenance, A::Error> {
        let mut key = map.next_key::<Key>()?;
        if let Some(Key::Source) = key {
            let source = map.next_value()?;
            return with_source(source, de::value::MapAccessDeserializer::new(map));
        }
        // The source comes later, or not at all: every field is gathered first.
        let mut fields = serde_json::Map::new();
        let mut source = None;
        while let Some(name) = key {
            match name {
                Key::Source if source.is_some() => {
                    return Err(de::Error::duplicate_field("source"));
                }
                Key::Source => source = Some(map.next_value::<Source>()?),
                Key::Other(name) => {
                    let value = map.next_value()?;
                    if fields.contains_key(&name) {
                        return Err(de::Error::custom(format!("duplicate field `{name}`")));
                    }
                    fields.insert(name, value);
                }
            }
            key = map.next_key()?;
        }
        let source = source.ok_or_else(|| de::Error::missing_field("source"))?;
        with_source(source, serde_json::Value::Object(fields)).map_err(de::Error::custom)
    }
}

/// The provenance of `source`, its fields read from `rest`.
fn with_source<'de, D: Deserializer<'de>>(source: Source, rest: D) -> Result<Provenance, D::Error> {
    let (again, provenance) = match source {
        Source::Entered => {
            let Entered { source } = Entered::deserialize(rest)?;
            (source, Provenance::Entered)
        }
        Source::Seeded => {
            let Seeded {
                source,
                epoch,
                roll,
                witness,
            } = Seeded::deserialize(rest)?;
            let seeded = Provenance::Seeded {
                epoch,
                roll,
                witness,
            };
            (source, seeded)
        }
        Source::Device => {
            let Device {
                source,
                request,
                witnessed,
            } = Device::deserialize(rest)?;
            (source, Provenance::Device { request, witnessed })
        }
        Source::Sealed => {
            let Sealed {
                source,
                commitment,
                origin,
            } = Sealed::deserialize(rest)?;
            (source, Provenance::Sealed { commitment, origin })
        }
    };
    match again {
        Given(true) => Err(de::Error::duplicate_field("source")),
        Given(false) => Ok(provenance),
    }
}

/// A field's name: `source`, or another kept as written (only read where `source` is not first).
enum Key {
    Source,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Key, D::Error> {
        struct Name;
        impl<'de> Visitor<'de> for Name {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field's name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(match name {
                    "source" => Key::Source,
                    other => Key::Other(other.to_string()),
                })
            }
        }
        from.deserialize_identifier(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Provenance, SealedOrigin, Witness};
    use crate::ids::RequestId;
    use serde::{Deserialize, Serialize};

    /// Provenance as serde's derive read it before: the hand reader is held to it.
    #[derive(Debug, Serialize, Deserialize)]
    #[serde(tag = "source", rename_all = "snake_case")]
    enum Derived {
        Entered,
        Seeded {
            epoch: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            roll: Option<u64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            witness: Option<Witness>,
        },
        Device {
            request: RequestId,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            witnessed: bool,
        },
        Sealed {
            commitment: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            origin: Option<SealedOrigin>,
        },
    }

    /// Each source as grimoire writes it, its fields in other orders, fields this build does not
    /// know, and forms either reader refuses: the hand reader takes what the derive took, with the
    /// same value, and refuses what it refused.
    #[test]
    fn a_provenance_is_read_as_serdes_derive_read_it() {
        let written = [
            Provenance::Entered,
            Provenance::Seeded {
                epoch: 2,
                roll: Some(41),
                witness: Some(Witness {
                    entropy: "owl".into(),
                    by: "Bea".into(),
                }),
            },
            Provenance::Seeded {
                epoch: 1,
                roll: None,
                witness: None,
            },
            Provenance::Device {
                request: RequestId(3),
                witnessed: true,
            },
            Provenance::Sealed {
                commitment: "ab".repeat(32),
                origin: Some(SealedOrigin::Seeded {
                    epoch: 1,
                    roll: Some(7),
                    witness: None,
                }),
            },
        ];
        let mut texts: Vec<String> = written
            .iter()
            .map(|p| serde_json::to_string(p).expect("serialises"))
            .collect();
        texts.extend(
            [
                r#"{"epoch":3,"source":"seeded"}"#,
                r#"{"request":4,"witnessed":false,"source":"device"}"#,
                r#"{"source":"entered","later":[1,{"x":2}]}"#,
                r#"{"commitment":"c","note":"n","source":"sealed"}"#,
                r#"{"source":"seeded","epoch":1,"source":"seeded"}"#,
                r#"{"epoch":1,"source":"seeded","source":"seeded"}"#,
                r#"{"source":"dreamed"}"#,
                r#"{"epoch":1}"#,
                r#"{"source":7}"#,
                r#"{"source":"seeded"}"#,
                r#"{"source":"device","request":"one"}"#,
                r#"{"source":"entered","source":"entered"}"#,
                r#"[]"#,
                // From the hostile pass: a source given as an object, a second source of null,
                // and a field given twice where the source comes later.
                r#"{"source":{"seeded":null},"epoch":1}"#,
                r#"{"epoch":1,"source":{"entered":null}}"#,
                r#"{"source":"seeded","epoch":1,"roll":1,"source":null}"#,
                r#"{"epoch":2,"epoch":1,"roll":1,"source":"seeded"}"#,
                r#"{"source":"seeded","epoch":2,"epoch":1}"#,
                r#"{"source":null,"epoch":1}"#,
            ]
            .map(String::from),
        );
        for text in &texts {
            let ours = serde_json::from_str::<Provenance>(text);
            let theirs = serde_json::from_str::<Derived>(text);
            match (&ours, &theirs) {
                (Ok(ours), Ok(theirs)) => assert_eq!(
                    serde_json::to_value(ours).expect("serialises"),
                    serde_json::to_value(theirs).expect("serialises"),
                    "{text}"
                ),
                (Err(_), Err(_)) => {}
                _ => panic!("{text}: ours {ours:?}, the derive's {theirs:?}"),
            }
        }
        for (i, provenance) in written.iter().enumerate() {
            assert_eq!(
                &serde_json::from_str::<Provenance>(&texts[i]).expect("reads"),
                provenance
            );
        }
    }
}
