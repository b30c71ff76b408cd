//! The scrolls no longer in anyone's hands: each kept as its id and its fate only, so a long
//! campaign's state does not grow with every scroll ever used up.

use crate::seq::Seq;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

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

/// Scrolls that can never be used again, by fate: two sets of ids rather than a map of records, as a
/// long campaign spends thousands.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SpentScrolls {
    ash: BTreeSet<Seq>,
    damaged: BTreeSet<Seq>,
}

impl SpentScrolls {
    pub fn fate(&self, id: Seq) -> Option<ScrollState> {
        if self.ash.contains(&id) {
            Some(ScrollState::Ash)
        } else if self.damaged.contains(&id) {
            Some(ScrollState::Damaged)
        } else {
            None
        }
    }

    pub(super) fn insert(&mut self, id: Seq, fate: ScrollState) {
        match fate {
            ScrollState::Ash => self.ash.insert(id),
            ScrollState::Damaged => self.damaged.insert(id),
            ScrollState::Intact => false,
        };
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
}
