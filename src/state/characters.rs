//! The characters of a campaign state: a [`LazyMap`], so those read from a snapshot are parsed
//! only when something asks for them (see `lazy_map.rs`, where that machinery lives).

use super::Character;
use crate::lazy_map::{CatchUp, LazyMap};
use crate::time::GameTime;

/// Characters keyed by their folded name.
pub type Characters = LazyMap<Character>;

/// A character parsed after the clock moved drops what ran out meanwhile, exactly as it would have
/// had it been parsed all along.
impl CatchUp for Character {
    type Mark = GameTime;

    fn catch_up(&mut self, now: GameTime) {
        self.forget_expired(now);
    }
}

#[cfg(test)]
mod tests {
    use crate::event::Event;
    use crate::sheet::{AdgSheet, Sheet};
    use crate::state::CampaignState;
    use crate::systems::adg::state::ActiveEffect;
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
