//! The characters of a campaign state, each read from a snapshot only when something asks for it.

use super::Character;
use crate::time::GameTime;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::cell::OnceCell;
use std::collections::BTreeMap;

/// Characters keyed by their folded name.
///
/// A snapshot holds every character of the campaign while a command reads one or two, and parsing
/// them all was most of the cost of a write on a long campaign. So a character loaded from a
/// snapshot stays the JSON text it was stored as until it is first read; it then drops whatever ran
/// out since, exactly as it would have had it been parsed all along.
#[derive(Debug, Clone, Default)]
pub struct Characters {
    slots: BTreeMap<String, Slot>,
    /// The clock at the last expiry sweep, applied to characters parsed after it.
    swept_at: Option<GameTime>,
}

#[derive(Debug, Clone)]
struct Slot {
    /// The snapshot's text, for a character not yet changed since it was loaded.
    text: Option<Box<RawValue>>,
    /// The character once read. `Some(None)`: its text did not parse, which only a snapshot edited
    /// behind grimoire's back can cause; the character then reads as absent rather than invented,
    /// and `verify` names the snapshot.
    parsed: OnceCell<Option<Character>>,
}

impl Slot {
    fn read(&self, swept_at: Option<GameTime>) -> Option<&Character> {
        self.parsed
            .get_or_init(|| {
                let text = self.text.as_ref()?;
                let mut character: Character = serde_json::from_str(text.get()).ok()?;
                if let Some(now) = swept_at {
                    character.forget_expired(now);
                }
                Some(character)
            })
            .as_ref()
    }
}

impl Characters {
    pub fn get(&self, key: &str) -> Option<&Character> {
        self.slots.get(key)?.read(self.swept_at)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Character> {
        let slot = self.slots.get_mut(key)?;
        slot.read(self.swept_at);
        // Changed from here on: the stored text no longer describes it.
        slot.text = None;
        slot.parsed.get_mut()?.as_mut()
    }

    pub fn insert(&mut self, key: String, character: Character) {
        let slot = Slot {
            text: None,
            parsed: OnceCell::from(Some(character)),
        };
        self.slots.insert(key, slot);
    }

    /// Every character, in key order (this reads them all).
    pub fn values(&self) -> impl Iterator<Item = &Character> {
        self.iter().map(|(_, character)| character)
    }

    fn iter(&self) -> impl Iterator<Item = (&String, &Character)> {
        self.slots
            .iter()
            .filter_map(|(key, slot)| Some((key, slot.read(self.swept_at)?)))
    }

    /// Drops what has run out by `now` from the characters already read, and from the others when
    /// they are.
    pub fn forget_expired(&mut self, now: GameTime) {
        self.swept_at = Some(now);
        for slot in self.slots.values_mut() {
            if let Some(Some(character)) = slot.parsed.get_mut() {
                character.forget_expired(now);
            }
        }
    }
}

impl PartialEq for Characters {
    fn eq(&self, other: &Characters) -> bool {
        self.slots.len() == other.slots.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Characters {}

impl Serialize for Characters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Characters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Characters, D::Error> {
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
        Ok(Characters {
            slots,
            swept_at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::event::Event;
    use crate::sheet::{AdgSheet, Sheet};
    use crate::state::CampaignState;
    use crate::state::adg::ActiveEffect;
    use crate::time::{GameDuration, GameTime};

    /// Two ADG characters, each under an effect that runs out ten minutes in.
    fn party_under_effects() -> CampaignState {
        let mut state = CampaignState::default();
        for (seq, name) in [(1, "Aldric"), (2, "Bryn")] {
            let sheet = Sheet::Adg(AdgSheet {
                level: 1,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 8,
                silver: 0,
            });
            let added = Event::CharacterAdded {
                name: name.into(),
                sheet,
            };
            state.apply(seq, &added);
            let adg = state.adg_mut(name).expect("an ADG character");
            adg.effects.push(ActiveEffect {
                ritual: "Warding Light".into(),
                until: GameTime(600),
            });
        }
        state
    }

    fn through_a_snapshot(state: &CampaignState) -> CampaignState {
        let text = serde_json::to_string(state).expect("serialises");
        serde_json::from_str(&text).expect("reads back")
    }

    #[test]
    fn a_character_read_after_the_clock_moved_has_dropped_what_ran_out_meanwhile() {
        let mut whole = party_under_effects();
        let mut lazy = through_a_snapshot(&whole);
        let later = Event::ClockAdvanced {
            by: GameDuration(3600),
        };
        whole.apply(3, &later);
        lazy.apply(3, &later);
        let aldric = lazy.character("Aldric").expect("still there");
        assert!(aldric.adg().expect("ADG").effects.is_empty());
        assert_eq!(lazy, whole);
        assert_eq!(through_a_snapshot(&lazy), whole);
    }

    #[test]
    fn a_character_changed_after_loading_is_saved_as_changed() {
        let mut whole = party_under_effects();
        let mut lazy = through_a_snapshot(&whole);
        let hurt = Event::DamageTaken {
            character: "Bryn".into(),
            amount: 3,
        };
        whole.apply(3, &hurt);
        lazy.apply(3, &hurt);
        let saved = through_a_snapshot(&lazy);
        let bryn = saved.character("Bryn").expect("still there");
        assert_eq!(bryn.health.map(|h| h.current), Some(5));
        assert_eq!(saved, whole);
    }

    #[test]
    fn a_character_whose_stored_text_does_not_parse_reads_as_absent_without_panicking() {
        let whole = party_under_effects();
        let mut text = serde_json::to_value(&whole).expect("serialises");
        text["characters"]["bryn"] = serde_json::json!({ "name": 7 });
        let edited: CampaignState =
            serde_json::from_str(&text.to_string()).expect("still JSON of the right outline");
        assert!(edited.character("Bryn").is_none());
        assert!(edited.character("Aldric").is_some());
        assert_ne!(edited, whole);
    }
}
