//! A caster's own choices made on their player's linked phone (#47): offered in the player's
//! words, made as theirs, and never the GM's picks.

use super::*;
use crate::ids::DeviceId;
use crate::rules::players::{Refused as DeviceRefused, made_on, waiting_on};

/// Bea's phone (device 1) plays Mira; Cal's (device 2) plays Bran.
fn linked(w: &mut World) {
    link_phones(w, &[("Bea", "Mira"), ("Cal", "Bran")]);
}

/// Ember (W1 elemental) fails: 3, 40 on the casting table makes 8; the failure roll 40 + 50 = 90
/// leaves Mira to lose half the MPs or hold the spell (VSD-9).
fn ember_fails(w: &mut World) {
    w.vsd(cast("Ember"), &[3, 40, 40]);
}

fn picks(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn vsd9_given_miras_failed_cast_when_her_player_looks_then_the_phone_offers_her_choice_in_words() {
    let mut w = world();
    linked(&mut w);
    ember_fails(&mut w);
    let waiting = waiting_on(&w.state(), "mira");
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].character, "Mira");
    assert!(
        waiting[0].about.starts_with("Ember (#"),
        "{}",
        waiting[0].about
    );
    assert_eq!(waiting[0].pick, 1);
    let words: Vec<&str> = waiting[0].options.iter().map(|o| o.word).collect();
    assert_eq!(words, ["lose-half-mps", "fires-later"]);
    assert_eq!(
        waiting[0].options[1].meaning,
        "the spell is held and fires two rounds later"
    );
    assert!(
        waiting_on(&w.state(), "Bran").is_empty(),
        "Bran cast nothing"
    );
}

#[test]
fn vsd9_given_miras_failed_cast_when_bea_picks_on_her_phone_then_the_choice_is_recorded_as_the_choose_command()
 {
    let mut w = world();
    linked(&mut w);
    ember_fails(&mut w);
    let (asked, event) = made_on(
        &w.state(),
        DeviceId(1),
        "mira",
        &picks(&["lose-half-mps"]),
        None,
    )
    .expect("Bea plays Mira, whose choice waits");
    assert_eq!(asked.acting(), Some("Mira"));
    assert_eq!(
        asked.words(),
        "choose --character Mira --choices lose-half-mps"
    );
    assert_eq!(
        event,
        Event::ChoiceAnswered {
            device: DeviceId(1),
            asked
        }
    );
}

#[test]
fn vsd9_given_miras_failed_cast_when_picks_do_not_fit_or_another_phone_picks_then_it_is_refused() {
    let mut w = world();
    linked(&mut w);
    ember_fails(&mut w);
    let state = w.state();
    let refused = |device: u32, picks: &[String]| {
        made_on(&state, DeviceId(device), "Mira", picks, None).expect_err("refused")
    };
    assert!(matches!(
        refused(1, &picks(&["keep-mps"])),
        RuleError::Players(DeviceRefused::PicksDoNotFit { pick: 1, .. })
    ));
    assert!(matches!(
        refused(1, &picks(&["lose-half-mps", "fires-later"])),
        RuleError::Players(DeviceRefused::PicksDoNotFit { .. })
    ));
    assert!(matches!(
        refused(2, &picks(&["fires-later"])),
        RuleError::Players(DeviceRefused::NotTheirs { .. })
    ));
    assert!(matches!(
        refused(3, &picks(&["fires-later"])),
        RuleError::Players(DeviceRefused::Revoked)
    ));
}

#[test]
fn vsd10_given_a_resonance_result_the_gm_picks_when_the_casters_phone_tries_then_no_choice_waits_on_the_player()
 {
    let mut w = world();
    linked(&mut w);
    // A double 33 rolls resonance, 50 + 2: awareness; within the hour 60 and 70 + 2 = 72:
    // attention, whose pick is the GM's.
    w.vsd(cast("Shield"), &[33, 50]);
    w.next_round();
    w.vsd(cast("Shield"), &[60, 70]);
    let gm_picks = w.of("Mira").pending;
    assert!(!gm_picks.is_empty(), "the resonance result leaves a pick");
    assert!(gm_picks.iter().all(|p| p.by == "GM"), "{gm_picks:?}");
    assert!(waiting_on(&w.state(), "Mira").is_empty());
    let words: Vec<String> = gm_picks
        .first()
        .map(|p| p.options.iter().map(|o| o.word().to_string()).collect())
        .unwrap_or_default();
    for word in words {
        assert!(matches!(
            made_on(&w.state(), DeviceId(1), "Mira", &[word], None),
            Err(RuleError::Players(DeviceRefused::NoChoiceWaits(_)))
        ));
    }
}
