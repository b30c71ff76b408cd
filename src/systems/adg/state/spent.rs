//! The scrolls no longer in anyone's hands: each kept as its id and its fate only, so a long
//! campaign's state does not grow with every scroll ever used up.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::cell::OnceCell;
use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScrollState {
    Intact,
    Ash,
    Damaged,
}

crate::event::words::words!(ScrollState {
    Intact => "intact",
    Ash => "ash",
    Damaged => "damaged",
});

/// Scrolls that can never be used again, by fate: two sets of ids rather than a map of records, as a
/// long campaign spends thousands. Only a command about a spent scroll needs them, so a snapshot's
/// sets stay the text they were stored as until first used (reading them was the largest part of
/// loading a snapshot of a long campaign).
#[derive(Debug, Clone, Default)]
pub struct SpentScrolls {
    text: Option<Box<RawValue>>,
    /// The sets once read. A text that does not parse (a snapshot edited behind grimoire's back,
    /// which `verify` names) reads as no spent scrolls.
    sets: OnceCell<SpentSets>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
struct SpentSets {
    #[serde(deserialize_with = "id_set")]
    ash: BTreeSet<u64>,
    #[serde(deserialize_with = "id_set")]
    damaged: BTreeSet<u64>,
}

/// Reads a set of ids in one go: serde's own set reader inserts them one at a time, while
/// collecting a list builds the set at once.
fn id_set<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<BTreeSet<u64>, D::Error> {
    Ok(Vec::<u64>::deserialize(deserializer)?.into_iter().collect())
}

impl SpentScrolls {
    fn sets(&self) -> &SpentSets {
        self.sets.get_or_init(|| {
            self.text
                .as_ref()
                .and_then(|text| serde_json::from_str(text.get()).ok())
                .unwrap_or_default()
        })
    }

    pub fn fate(&self, id: u64) -> Option<ScrollState> {
        let sets = self.sets();
        if sets.ash.contains(&id) {
            Some(ScrollState::Ash)
        } else if sets.damaged.contains(&id) {
            Some(ScrollState::Damaged)
        } else {
            None
        }
    }

    pub(super) fn insert(&mut self, id: u64, fate: ScrollState) {
        self.sets();
        // Changed from here on: the stored text no longer describes the sets.
        self.text = None;
        if let Some(sets) = self.sets.get_mut() {
            match fate {
                ScrollState::Ash => sets.ash.insert(id),
                ScrollState::Damaged => sets.damaged.insert(id),
                ScrollState::Intact => false,
            };
        }
    }

    /// Every spent scroll, in id order.
    pub fn all(&self) -> Vec<(u64, ScrollState)> {
        let sets = self.sets();
        let mut all: Vec<(u64, ScrollState)> = sets
            .ash
            .iter()
            .map(|&id| (id, ScrollState::Ash))
            .chain(sets.damaged.iter().map(|&id| (id, ScrollState::Damaged)))
            .collect();
        all.sort_by_key(|&(id, _)| id);
        all
    }
}

impl PartialEq for SpentScrolls {
    fn eq(&self, other: &SpentScrolls) -> bool {
        self.sets() == other.sets()
    }
}

impl Eq for SpentScrolls {}

impl Serialize for SpentScrolls {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.sets().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SpentScrolls {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SpentScrolls, D::Error> {
        Ok(SpentScrolls {
            text: Some(Box::<RawValue>::deserialize(deserializer)?),
            sets: OnceCell::new(),
        })
    }
}

#[cfg(test)]
mod spent_scroll_tests {
    use super::{ScrollState, SpentScrolls};

    fn through_a_snapshot(spent: &SpentScrolls) -> SpentScrolls {
        let text = serde_json::to_string(spent).expect("serialises");
        serde_json::from_str(&text).expect("reads back")
    }

    #[test]
    fn spent_scrolls_read_from_a_snapshot_keep_their_fates_and_take_new_ones() {
        let mut spent = SpentScrolls::default();
        spent.insert(12, ScrollState::Ash);
        spent.insert(40, ScrollState::Damaged);
        let mut loaded = through_a_snapshot(&spent);
        assert_eq!(loaded.fate(12), Some(ScrollState::Ash));
        assert_eq!(loaded.fate(40), Some(ScrollState::Damaged));
        assert_eq!(loaded.fate(41), None);
        loaded.insert(7, ScrollState::Ash);
        let saved = through_a_snapshot(&loaded);
        assert_eq!(
            saved.all(),
            vec![
                (7, ScrollState::Ash),
                (12, ScrollState::Ash),
                (40, ScrollState::Damaged)
            ]
        );
        spent.insert(7, ScrollState::Ash);
        assert_eq!(saved, spent);
    }

    #[test]
    fn spent_scrolls_whose_text_does_not_parse_read_as_none_without_panicking() {
        let edited: SpentScrolls = serde_json::from_str(r#"{"ash": "not a list"}"#).expect("JSON");
        assert_eq!(edited.fate(12), None);
        assert!(edited.all().is_empty());
    }
}
