//! The characters of a campaign state.

use super::Character;
use crate::words::Folded;
use std::collections::BTreeMap;

/// Characters keyed by their folded name.
pub type Characters = BTreeMap<Folded, Character>;

#[cfg(test)]
mod tests {
    use crate::event::Event;
    use crate::seq::Seq;
    use crate::sheet::Sheet;
    use crate::state::CampaignState;
    use crate::systems::adg::Adg;
    use crate::systems::adg::sheet::AdgSheet;
    use crate::systems::adg::state::ActiveEffect;
    use crate::time::{GameDuration, GameTime};

    /// Two ADG characters, each under an effect that runs out ten minutes in.
    fn party_under_effects() -> CampaignState {
        let mut state = CampaignState::default();
        for (seq, name) in [(Seq(1), "Aldric"), (Seq(2), "Bryn")] {
            let sheet = Sheet::Adg(AdgSheet {
                level: 1,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 8,
                silver: 0,
                knows: Vec::new(),
            });
            let added = Event::CharacterAdded {
                name: name.into(),
                sheet,
            };
            state.apply(seq, &added);
            let adg = crate::systems::contract::port::Fold::<crate::systems::adg::Adg>::mine_mut(
                &mut state, name,
            )
            .expect("an ADG character");
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
    fn a_character_loaded_from_a_snapshot_drops_what_runs_out_as_the_clock_moves() {
        let mut whole = party_under_effects();
        let mut loaded = through_a_snapshot(&whole);
        let later = Event::ClockAdvanced {
            by: GameDuration(3600),
        };
        whole.apply(Seq(3), &later);
        loaded.apply(Seq(3), &later);
        let aldric = loaded.character("Aldric").expect("still there");
        assert!(aldric.state::<Adg>().expect("ADG").effects.is_empty());
        assert_eq!(loaded, whole);
        assert_eq!(through_a_snapshot(&loaded), whole);
    }

    #[test]
    fn a_character_changed_after_loading_is_saved_as_changed() {
        let mut whole = party_under_effects();
        let mut loaded = through_a_snapshot(&whole);
        let hurt = Event::DamageTaken {
            character: "Bryn".into(),
            amount: 3,
            reason: None,
        };
        whole.apply(Seq(3), &hurt);
        loaded.apply(Seq(3), &hurt);
        let saved = through_a_snapshot(&loaded);
        let bryn = saved.character("Bryn").expect("still there");
        assert_eq!(bryn.health.map(|h| h.current), Some(5));
        assert_eq!(saved, whole);
    }
}
