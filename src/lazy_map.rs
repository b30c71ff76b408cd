//! Performance machinery, kept apart from the rules and the state that use it: a map whose values,
//! when read back from stored text, stay that text until something asks for them.
//!
//! A snapshot holds every character of a campaign while a command reads one or two, and parsing them
//! all was most of the cost of a write on a long campaign. To the state a [`LazyMap`] is an ordinary
//! map; only its (de)serialisation and its first read of a value differ.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// What a value read late must catch up with, so that reading it late or early makes no
/// difference (a character drops what ran out while it was still text).
pub trait CatchUp {
    /// The point caught up to (for a character: the clock).
    type Mark: Copy + Debug;

    fn catch_up(&mut self, mark: Self::Mark);
}

/// Values keyed by name; those loaded from text are parsed on first read.
#[derive(Debug, Clone)]
pub struct LazyMap<V: CatchUp> {
    slots: BTreeMap<String, Slot<V>>,
    /// The mark of the last [`LazyMap::catch_up`], applied to values parsed after it.
    caught_up_to: Option<V::Mark>,
}

#[derive(Debug, Clone)]
struct Slot<V> {
    /// The stored text, for a value not changed since it was loaded.
    text: Option<Box<RawValue>>,
    /// The value once read. `Some(None)`: its text did not parse, which only stored text edited
    /// behind grimoire's back can cause; the value then reads as absent rather than invented, and
    /// `verify` names the snapshot.
    parsed: OnceCell<Option<V>>,
}

impl<V: CatchUp + DeserializeOwned> Slot<V> {
    fn read(&self, caught_up_to: Option<V::Mark>) -> Option<&V> {
        self.parsed
            .get_or_init(|| {
                let text = self.text.as_ref()?;
                let mut value: V = serde_json::from_str(text.get()).ok()?;
                if let Some(mark) = caught_up_to {
                    value.catch_up(mark);
                }
                Some(value)
            })
            .as_ref()
    }
}

impl<V: CatchUp> Default for LazyMap<V> {
    fn default() -> LazyMap<V> {
        LazyMap {
            slots: BTreeMap::new(),
            caught_up_to: None,
        }
    }
}

impl<V: CatchUp + DeserializeOwned> LazyMap<V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.slots.get(key)?.read(self.caught_up_to)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        let slot = self.slots.get_mut(key)?;
        slot.read(self.caught_up_to);
        // Changed from here on: the stored text no longer describes it.
        slot.text = None;
        slot.parsed.get_mut()?.as_mut()
    }

    pub fn insert(&mut self, key: String, value: V) {
        let slot = Slot {
            text: None,
            parsed: OnceCell::from(Some(value)),
        };
        self.slots.insert(key, slot);
    }

    /// Every value, in key order (this reads them all).
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.iter().map(|(_, value)| value)
    }

    fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.slots
            .iter()
            .filter_map(|(key, slot)| Some((key, slot.read(self.caught_up_to)?)))
    }

    /// Brings the values already read up to `mark`, and the others when they are read.
    pub fn catch_up(&mut self, mark: V::Mark) {
        self.caught_up_to = Some(mark);
        for slot in self.slots.values_mut() {
            if let Some(Some(value)) = slot.parsed.get_mut() {
                value.catch_up(mark);
            }
        }
    }
}

impl<V: CatchUp + DeserializeOwned + PartialEq> PartialEq for LazyMap<V> {
    fn eq(&self, other: &LazyMap<V>) -> bool {
        self.slots.len() == other.slots.len() && self.iter().eq(other.iter())
    }
}

impl<V: CatchUp + DeserializeOwned + Eq> Eq for LazyMap<V> {}

impl<V: CatchUp + DeserializeOwned + Serialize> Serialize for LazyMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, V: CatchUp> Deserialize<'de> for LazyMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LazyMap<V>, D::Error> {
        let texts = BTreeMap::<String, Box<RawValue>>::deserialize(deserializer)?;
        let slots = texts
            .into_iter()
            .map(|(key, text)| {
                let slot = Slot {
                    text: Some(text),
                    parsed: OnceCell::new(),
                };
                (key, slot)
            })
            .collect();
        Ok(LazyMap {
            slots,
            caught_up_to: None,
        })
    }
}
