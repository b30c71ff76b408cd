//! The model half of the contract between the core and a rule system: what the core asks of a
//! system's events ([`SystemEvent`], one exhaustive match per method, so a system's new kind does not
//! compile until the system answers for it), the macro that declares an event enum, and the range
//! check a sheet uses. The core's `Event` hands a system's variant to it and never lists its kinds.

use crate::dice::Die;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Declares an event enum (the core's `Event`, or a system's) and, from the very same variant list, its twin
/// (`EventOfKind`, …): serde's remote twin of it that reads a variant *named from outside*
/// (externally tagged). Naming the variant up front lets each payload be read straight into its
/// event, which took a quarter of an import's time. One list, so the two can never differ.
macro_rules! event_enum {
    (
        $(#[$meta:meta])* $name:ident / $twin:ident = $remote:literal { $($variants:tt)* }
        $(nested { $($nested:tt)* })?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum $name { $($variants)* $($($nested)*)? }

        // The twin leaves the nested enums out: an untagged variant would make serde buffer every
        // payload to try it (a seventh of a replay); a nested kind is read by its own twin.
        #[derive(serde::Deserialize)]
        #[serde(remote = $remote, rename_all = "snake_case")]
        pub(crate) enum $twin { $($variants)* }

        impl $crate::systems::contract::event::ReadsByKind for $name {
            fn read_named<'de, D: serde::Deserializer<'de>>(named: D) -> Result<Self, D::Error> {
                $twin::deserialize(named)
            }
            fn kinds() -> Vec<&'static str> {
                $crate::systems::contract::event::variant_names(|d| {
                    $twin::deserialize(d).map(|_| ())
                })
            }
        }
    };
}
pub(crate) use event_enum;

/// An event enum read by the kind its row names ([`event_enum!`] implements it from the same
/// variant list). The enums nested in the core's `Event` are not among the core's kinds: each
/// system's enum answers for its own.
pub trait ReadsByKind: Sized {
    /// Reads the variant named from outside: `{"<kind>": <payload>}`, serde's externally tagged
    /// form.
    fn read_named<'de, D: serde::Deserializer<'de>>(named: D) -> Result<Self, D::Error>;
    /// Every kind it declares, as stored.
    fn kinds() -> Vec<&'static str>;
}

/// The kind names an enum's derived `Deserialize` accepts: serde hands them to the deserializer
/// when it asks for an enum, so a deserializer that only listens learns them, from the one list
/// the enum's derive keeps (nothing here repeats them).
pub fn variant_names(
    read: impl FnOnce(&mut NameCatcher) -> Result<(), serde::de::value::Error>,
) -> Vec<&'static str> {
    let mut catcher = NameCatcher(Vec::new());
    let _ = read(&mut catcher);
    catcher.0
}

/// A deserializer that only learns the variant names an enum asks for (see [`variant_names`]).
pub struct NameCatcher(Vec<&'static str>);

impl<'de> serde::Deserializer<'de> for &mut NameCatcher {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("only enums are read here"))
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = variants.to_vec();
        Err(serde::de::Error::custom("names taken"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// Refuses `value` outside `low..=high`, naming the flag and the range.
pub(crate) fn within<T: PartialOrd + fmt::Display>(
    what: &str,
    value: T,
    low: T,
    high: T,
) -> Result<(), String> {
    if value < low || value > high {
        return Err(format!("{what} must be {low} to {high}, not {value}"));
    }
    Ok(())
}

/// A span of downtime weeks, as `downtime_taken` rows store it (T-2): the clock moves once for
/// everyone in it, and each character spends each week on an activity. A shipped shape shared by
/// every system: a system says what its characters' weeks gave in their [`DowntimeOf`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Downtime {
    pub weeks: u32,
    pub by: crate::time::GameDuration,
    pub characters: Vec<DowntimeOf>,
    /// Every die the span drew, in draw order: each character's in turn.
    pub dice: Vec<Die>,
}

/// One character's part of a downtime span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DowntimeOf {
    pub character: String,
    /// One per week, in order.
    pub activities: Vec<Activity>,
    /// Health the span's nights restored (the core keeps the health track).
    pub healed: u32,
    /// Whether the weeks gave back what the character had spent of themselves (A Dungeon Game's
    /// exertion, ADG-C5); stored for every system, false where the system has no such thing.
    pub restored_exertion: bool,
}

impl DowntimeOf {
    /// A character whose weeks gave them nothing the core keeps.
    pub fn spent(character: &str, activities: Vec<Activity>) -> DowntimeOf {
        DowntimeOf {
            character: character.to_string(),
            activities,
            healed: 0,
            restored_exertion: false,
        }
    }
}

/// What a character does with a downtime week.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "activity", rename_all = "snake_case")]
pub enum Activity {
    Rest,
    /// Something of the GM's: training, travel, a job.
    Other {
        what: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// Writing a scroll (A Dungeon Game's, ADG-S3): the scroll is one of the events recorded right
    /// after the span.
    Scribe {
        ritual: String,
        level: u32,
    },
}

/// A system with no activities of its own reads its weeks as `Infallible`.
impl From<std::convert::Infallible> for Activity {
    fn from(never: std::convert::Infallible) -> Activity {
        match never {}
    }
}

/// A rule system as the model knows it: its names and the sheet its characters are entered with.
pub trait SystemModel: Sized + 'static {
    /// Its word on the command line and in JSON (`adg`): a character's state is stored under it.
    const KEY: &'static str;
    /// Its name as the table says it ("A Dungeon Game").
    const NAME: &'static str;
    type Sheet: SystemSheet;
    /// Its events, declared with [`event_enum!`]; their kinds are its own.
    type Event: SystemEvent + ReadsByKind;
    /// What a rest gives one of its characters, as a `rested` event stores it.
    type RestShare: Share;
}

/// One character's part of an event shared by several (a rest).
pub trait Share: Serialize + DeserializeOwned + Clone + Eq + fmt::Debug {
    /// The character's name, as recorded.
    fn character(&self) -> &str;
}

/// A character's sheet as entered: the starting point replay computes everything else from.
pub trait SystemSheet: Serialize + DeserializeOwned + Clone + Eq + fmt::Debug {
    /// The health maximum the sheet gives, if the system tracks health.
    fn max_health(&self) -> Option<u32>;
    /// Checks the ranges the sheet must respect; the message says which value is off and what is
    /// allowed.
    fn validate(&self) -> Result<(), String>;
}

/// A character's action, as a system's event names it for the round it falls in (T-3).
pub struct Action<'e> {
    pub who: &'e str,
    pub what: String,
    /// It puts them last in the round (a scroll read in combat, ADG-S5).
    pub last: bool,
    /// It takes half the round's action, not all of it (an instantaneous VsD spell, VSD-3).
    pub half: bool,
    /// The system's rules hold it to one a round by the clock's rounds, in a fight or not (VsD
    /// casting and concentration); otherwise only a fight's rounds hold one each.
    pub counted_outside_fights: bool,
}

/// A round's whole action, in halves.
pub const WHOLE_ACTION: u32 = 2;

impl Action<'_> {
    /// How much of the round's action it takes, in halves.
    pub fn halves(&self) -> u32 {
        match self.half {
            true => 1,
            false => WHOLE_ACTION,
        }
    }
}

/// What the core asks of a rule system's events.
pub trait SystemEvent: Serialize + DeserializeOwned + Clone + PartialEq + fmt::Debug {
    /// The stable name stored in the `kind` column and the payload's `kind` field.
    fn kind(&self) -> &'static str;
    /// Whether `is` holds for a character the event names, asked of each name in turn until it
    /// does: `log --character` asks for one name, a diff notes every name as it goes.
    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool;

    /// Whether the event names the character (folded name).
    fn concerns(&self, folded: &str) -> bool {
        self.mentions(&mut |name| crate::words::folds_to(name, folded))
    }
    /// Every die the event holds, in draw order; `verify` checks them without knowing the kind.
    fn dice(&self) -> &[Die];
    /// The actions characters took with it, for the round it falls in (T-3): who, what in a few
    /// words, whether it puts them last in the round. Most events are one character's action or
    /// none; a VsD ritual is also each participant's.
    fn actions(&self) -> Vec<Action<'_>>;
    /// Whether a retraction may undo it.
    fn is_retractable(&self) -> bool;
    /// Whether the rules record it only after another event of the same command, holding dice of
    /// that command (a scroll written during a downtime span follows the span): such an event
    /// shares its command's roll number, which `verify` allows it alone.
    fn continues_its_command(&self) -> bool;
    /// The event as the grimoire that wrote payload version `version` read it, for an event of a
    /// version older than today's: a field a later version brought is passed over. Today's reading
    /// by default. (A kind a version did not know is [`SystemEvent::kinds_since`]'s.)
    fn read_as_version(self, _version: u32) -> Result<Self, String> {
        Ok(self)
    }
    /// The earlier event whose roll this one answers or settles (a save against a cast, a cast's
    /// choice, a fired bolt's attack roll): an amendment fixes its inputs, never which event it
    /// answers, and an event whose answered one is retracted is undone with it.
    fn answers(&self) -> Option<crate::seq::Seq> {
        None
    }
    /// The kinds brought after the first payload version, each with the version that brought it:
    /// an event of an older version cannot be of that kind (both checkers hold it so).
    fn kinds_since() -> &'static [(&'static str, u32)]
    where
        Self: Sized,
    {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seq::Seq;
    use crate::systems::adg::event::AdgEvent;
    use crate::systems::adg::tables::Attribute;
    use crate::systems::vsd::event::{Alignment, VsdEvent};

    /// What every system's events must keep: the payload names its kind as `kind()` says, reads
    /// back equal, its dice are in range, and it concerns the character it names and nobody else.
    fn keeps_the_contract<E: SystemEvent>(samples: &[(E, Option<&str>)]) {
        for (event, named) in samples {
            let payload = serde_json::to_string(event).unwrap();
            assert!(
                payload.starts_with(&format!("{{\"kind\":\"{}\"", event.kind())),
                "{payload}"
            );
            assert_eq!(&serde_json::from_str::<E>(&payload).unwrap(), event);
            assert!(
                event
                    .dice()
                    .iter()
                    .all(|d| d.value.is_none_or(|v| v >= 1 && v <= d.sides))
            );
            if let Some(name) = named {
                assert!(event.concerns(&crate::words::fold_name(name)), "{payload}");
            }
            assert!(!event.concerns("nobody"), "{payload}");
        }
    }

    #[test]
    fn both_systems_keep_the_events_contract() {
        keeps_the_contract(&[
            (
                AdgEvent::Exerted {
                    character: "Aldric".into(),
                    attribute: Attribute::Brawn,
                    amount: 1,
                    reason: "a climb".into(),
                },
                Some("Aldric"),
            ),
            (
                AdgEvent::ScrollGiven {
                    scroll: Seq(4),
                    from: "Wen".into(),
                    to: "Aldric".into(),
                },
                Some("wen"),
            ),
        ]);
        keeps_the_contract(&[
            (
                VsdEvent::DriveChanged {
                    character: "Mira".into(),
                    delta: -1,
                    reason: "a vow".into(),
                },
                Some("MIRA"),
            ),
            (
                VsdEvent::AlignmentSet {
                    alignment: Alignment::Benefic,
                },
                None,
            ),
        ]);
    }
}
