//! The scrolls no longer in anyone's hands: each kept as its id and its fate only, so a long
//! campaign's state does not grow with every scroll ever used up.

use crate::seq::Seq;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScrollState {
    Intact,
    Ash,
    Damaged,
}

crate::words::words!(ScrollState {
    Intact => "intact",
    Ash => "ash",
    Damaged => "damaged",
});

/// Scrolls that can never be used again, by fate: two lists of ids rather than a map of records, as
/// a long campaign spends thousands. Each list is kept sorted, for a binary search; a list rather
/// than a set because it is read whole from a snapshot whenever a command uses it.
///
/// In a snapshot each list is one string of ids ("12 40 97"). A write checks the snapshot's
/// history as JSON without reading it ([`crate::deferred`]): a string is checked at a glance,
/// where thousands of numbers are each parsed (the most of that check at 1M events).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SpentScrolls {
    #[serde(with = "ids_in_a_string")]
    ash: Vec<Seq>,
    #[serde(with = "ids_in_a_string")]
    damaged: Vec<Seq>,
}

/// A sorted list of ids as one string, the ids apart by single spaces.
mod ids_in_a_string {
    use crate::seq::Seq;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::fmt::Write;

    pub fn serialize<S: Serializer>(ids: &[Seq], to: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(ids.len() * 8);
        for id in ids {
            if !text.is_empty() {
                text.push(' ');
            }
            let _ = write!(text, "{id}");
        }
        to.serialize_str(&text)
    }

    /// The ids, put in order should the snapshot not have them so.
    pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Vec<Seq>, D::Error> {
        let text = String::deserialize(from)?;
        let mut ids = (text.split_ascii_whitespace())
            .map(|id| id.parse::<u64>().map(Seq))
            .collect::<Result<Vec<Seq>, _>>()
            .map_err(|_| D::Error::custom("a spent scroll's id is not a whole number"))?;
        if !ids.is_sorted() {
            ids.sort_unstable();
        }
        ids.dedup();
        Ok(ids)
    }
}

impl SpentScrolls {
    pub fn fate(&self, id: Seq) -> Option<ScrollState> {
        if self.ash.binary_search(&id).is_ok() {
            Some(ScrollState::Ash)
        } else if self.damaged.binary_search(&id).is_ok() {
            Some(ScrollState::Damaged)
        } else {
            None
        }
    }

    pub(super) fn insert(&mut self, id: Seq, fate: ScrollState) {
        let ids = match fate {
            ScrollState::Ash => &mut self.ash,
            ScrollState::Damaged => &mut self.damaged,
            ScrollState::Intact => return,
        };
        if let Err(at) = ids.binary_search(&id) {
            ids.insert(at, id);
        }
    }

    /// Every spent scroll, in id order.
    pub fn all(&self) -> Vec<(Seq, ScrollState)> {
        let mut all: Vec<(Seq, ScrollState)> = self
            .ash
            .iter()
            .map(|&id| (id, ScrollState::Ash))
            .chain(self.damaged.iter().map(|&id| (id, ScrollState::Damaged)))
            .collect();
        all.sort_by_key(|&(id, _)| id);
        all
    }
}

#[cfg(test)]
mod spent_scroll_tests {
    use super::{ScrollState, SpentScrolls};
    use crate::seq::Seq;

    fn through_a_snapshot(spent: &SpentScrolls) -> SpentScrolls {
        let text = serde_json::to_string(spent).expect("serialises");
        serde_json::from_str(&text).expect("reads back")
    }

    #[test]
    fn spent_scrolls_read_from_a_snapshot_keep_their_fates_and_take_new_ones() {
        let mut spent = SpentScrolls::default();
        spent.insert(Seq(12), ScrollState::Ash);
        spent.insert(Seq(40), ScrollState::Damaged);
        let mut loaded = through_a_snapshot(&spent);
        assert_eq!(loaded.fate(Seq(12)), Some(ScrollState::Ash));
        assert_eq!(loaded.fate(Seq(40)), Some(ScrollState::Damaged));
        assert_eq!(loaded.fate(Seq(41)), None);
        loaded.insert(Seq(7), ScrollState::Ash);
        let saved = through_a_snapshot(&loaded);
        assert_eq!(
            saved.all(),
            vec![
                (Seq(7), ScrollState::Ash),
                (Seq(12), ScrollState::Ash),
                (Seq(40), ScrollState::Damaged)
            ]
        );
        spent.insert(Seq(7), ScrollState::Ash);
        assert_eq!(saved, spent);
        assert_eq!(
            serde_json::to_string(&spent).unwrap(),
            r#"{"ash":"7 12","damaged":"40"}"#
        );
        assert!(serde_json::from_str::<SpentScrolls>(r#"{"ash":"7 x","damaged":""}"#).is_err());
    }

    /// A snapshot written by hand, or by a build that kept sets, may list ids in any order and
    /// twice: each is found all the same, and the state equals the one replay builds.
    #[test]
    fn spent_scrolls_listed_out_of_order_or_twice_are_found_all_the_same() {
        let loaded: SpentScrolls =
            serde_json::from_str(r#"{"ash":"40 7 12 7","damaged":"99 3"}"#).expect("reads");
        for (id, fate) in [
            (7, ScrollState::Ash),
            (12, ScrollState::Ash),
            (40, ScrollState::Ash),
            (3, ScrollState::Damaged),
            (99, ScrollState::Damaged),
        ] {
            assert_eq!(loaded.fate(Seq(id)), Some(fate), "#{id}");
        }
        let mut replayed = SpentScrolls::default();
        for id in [12, 40, 7] {
            replayed.insert(Seq(id), ScrollState::Ash);
        }
        for id in [99, 3] {
            replayed.insert(Seq(id), ScrollState::Damaged);
        }
        replayed.insert(Seq(12), ScrollState::Ash);
        assert_eq!(loaded, replayed);
    }
}
