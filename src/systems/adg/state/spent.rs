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
/// than a set because every append reads them from the newest snapshot, and a list of 10,000 ids
/// is read in a tenth of the time a set takes (the snapshot's JSON is the same).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SpentScrolls {
    #[serde(deserialize_with = "sorted")]
    ash: Vec<Seq>,
    #[serde(deserialize_with = "sorted")]
    damaged: Vec<Seq>,
}

/// A list of ids as a snapshot holds it, put in order should the snapshot not have it so.
fn sorted<'de, D: serde::Deserializer<'de>>(from: D) -> Result<Vec<Seq>, D::Error> {
    let mut ids = Vec::<Seq>::deserialize(from)?;
    if !ids.is_sorted() {
        ids.sort_unstable();
    }
    ids.dedup();
    Ok(ids)
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
    }

    /// A snapshot written by hand, or by a build that kept sets, may list ids in any order and
    /// twice: each is found all the same, and the state equals the one replay builds.
    #[test]
    fn spent_scrolls_listed_out_of_order_or_twice_are_found_all_the_same() {
        let loaded: SpentScrolls =
            serde_json::from_str(r#"{"ash":[40,7,12,7],"damaged":[99,3]}"#).expect("reads");
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
