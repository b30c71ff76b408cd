//! A part of the state that a snapshot holds, read only once something uses it.
//!
//! Every write starts from the newest snapshot, and a long campaign's snapshot is mostly its
//! history: every retraction with its reason, every scroll ever spent. Most commands read none of
//! it, yet building it was most of the time a write took. Such a part is kept as the snapshot's
//! text, checked to be JSON, and read the first time it is looked at or changed.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// A `T` read from a snapshot's text the first time it is used. It serialises as `T` does, so a
/// snapshot reads and writes the same bytes with or without it.
pub struct Deferred<T> {
    /// The part as the snapshot wrote it, until it is read.
    text: Option<Box<RawValue>>,
    value: OnceLock<T>,
    /// Set when the text, though JSON, did not read as a `T` (only a snapshot edited by hand
    /// does that): the part then reads as empty, and [`Deferred::is_unreadable`] says so.
    /// Shared by every copy, as they share the text it judges: a decision made on a copy (a
    /// phone's command is decided on one) must leave the state it was copied from refusing too.
    unreadable: Arc<AtomicBool>,
}

impl<T: DeserializeOwned + Default> Deferred<T> {
    /// Reads the part now, if it is still text: whether it reads as a `T`.
    pub fn read_now(&self) -> bool {
        let _ = &**self;
        !self.is_unreadable()
    }

    /// Whether the snapshot's text for this part did not read as a `T` when it was used.
    pub fn is_unreadable(&self) -> bool {
        self.unreadable.load(Ordering::Relaxed)
    }

    /// The part, read now if it is still text and judged by `sound` as it is read: text that is
    /// not a `T`, or a `T` that `sound` refuses, reads as `T::default()` and marks the part
    /// unreadable. A part read once is not judged again.
    pub fn read_judged(&self, sound: impl FnOnce(&T) -> bool) -> &T {
        self.value.get_or_init(|| {
            let Some(text) = &self.text else {
                return T::default();
            };
            match serde_json::from_str(text.get()) {
                Ok(value) if sound(&value) => value,
                _ => {
                    self.unreadable.store(true, Ordering::Relaxed);
                    T::default()
                }
            }
        })
    }

    /// [`Deferred::read_judged`], for a change: once changed, the text no longer says what the
    /// part holds.
    pub fn read_judged_mut(&mut self, sound: impl FnOnce(&T) -> bool) -> &mut T {
        self.read_judged(sound);
        self.text = None;
        match self.value.get_mut() {
            Some(value) => value,
            None => unreachable!("a deferred part is read before it is changed"),
        }
    }

    /// The part itself, read as [`Deferred::read_judged`] reads it.
    pub fn into_judged(mut self, sound: impl FnOnce(&T) -> bool) -> T {
        self.read_judged(sound);
        self.value.take().unwrap_or_default()
    }
}

impl<T: DeserializeOwned + Default> Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.read_judged(|_| true)
    }
}

impl<T: DeserializeOwned + Default> DerefMut for Deferred<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.read_judged_mut(|_| true)
    }
}

impl<T> From<T> for Deferred<T> {
    fn from(value: T) -> Deferred<T> {
        Deferred {
            text: None,
            value: OnceLock::from(value),
            unreadable: Arc::default(),
        }
    }
}

impl<T: Default> Default for Deferred<T> {
    fn default() -> Deferred<T> {
        Deferred::from(T::default())
    }
}

impl<T: Clone> Clone for Deferred<T> {
    fn clone(&self) -> Deferred<T> {
        Deferred {
            text: self.text.clone(),
            value: self.value.clone(),
            unreadable: Arc::clone(&self.unreadable),
        }
    }
}

impl<T: DeserializeOwned + Default + PartialEq> PartialEq for Deferred<T> {
    fn eq(&self, other: &Deferred<T>) -> bool {
        **self == **other
    }
}

impl<T: DeserializeOwned + Default + Eq> Eq for Deferred<T> {}

impl<T: DeserializeOwned + Default + std::fmt::Debug> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: DeserializeOwned + Default + Serialize> Serialize for Deferred<T> {
    fn serialize<S: Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        match &self.text {
            // Never read, so never changed: the snapshot's own text, as it was written; and a
            // part that did not read is written as it was too, never as the empty part it stood as.
            Some(text) if self.value.get().is_none() || self.is_unreadable() => text.serialize(to),
            _ => (**self).serialize(to),
        }
    }
}

impl<'de, T> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Deferred<T>, D::Error> {
        Ok(Deferred {
            text: Some(Box::<RawValue>::deserialize(from)?),
            value: OnceLock::new(),
            unreadable: Arc::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Deferred;
    use std::collections::BTreeMap;

    type Part = BTreeMap<u64, String>;

    fn read(text: &str) -> Deferred<Part> {
        serde_json::from_str(text).expect("JSON")
    }

    #[test]
    fn a_part_never_used_is_written_back_as_the_snapshot_held_it() {
        let text = r#"{"7":"entered twice","12":"wrong character"}"#;
        let part = read(text);
        assert_eq!(serde_json::to_string(&part).unwrap(), text);
        assert_eq!(part.get(&7).map(String::as_str), Some("entered twice"));
        assert_eq!(serde_json::to_string(&part).unwrap(), text);
        assert!(!part.is_unreadable());
    }

    #[test]
    fn a_part_changed_is_written_as_it_now_stands_and_equals_one_read_at_once() {
        let mut part = read(r#"{"7":"entered twice"}"#);
        part.insert(9, "a typo".into());
        assert_eq!(
            serde_json::to_string(&part).unwrap(),
            r#"{"7":"entered twice","9":"a typo"}"#
        );
        let whole: Part = [(7, "entered twice".into()), (9, "a typo".into())].into();
        assert_eq!(part, Deferred::from(whole));
    }

    #[test]
    fn a_part_that_is_json_but_not_the_part_reads_empty_and_says_so() {
        let part = read("[1, 2]");
        assert!(!part.is_unreadable(), "not known until used");
        assert!(part.is_empty());
        assert!(part.is_unreadable());
        assert!(!read("[1]").read_now());
        assert!(read("{}").read_now());
        assert!(serde_json::from_str::<Deferred<Part>>("{").is_err());
    }

    /// From the hostile pass: a phone's command is decided on a copy of the write's state, and a
    /// part that did not read there left the write itself unaware, so it recorded a refusal the
    /// rules made on an empty part.
    #[test]
    fn a_part_that_does_not_read_in_a_copy_marks_the_state_it_was_copied_from() {
        let part = read("[1, 2]");
        let copy = part.clone();
        assert!(copy.is_empty());
        assert!(part.is_unreadable());
        let sound = read("{}");
        let copy = sound.clone();
        assert!(copy.read_now() && !sound.is_unreadable());
    }
}
