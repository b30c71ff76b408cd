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

/// `command` as a player's phone reads it when the GM puts it to them.
fn said(w: &World, command: VsdCommand) -> Option<String> {
    <Vsd as crate::systems::contract::rules::SystemRules>::asked_words(&command, &w.state())
}

fn fire_at(range: Range) -> VsdCommand {
    VsdCommand::Fire(Firing {
        character: "mira".into(),
        cast: None,
        range,
        gm_modifier: 0,
        defense: None,
    })
}

/// VSD-14 on a player's phone (#47): a failed bolt's attack put to a phone names the bolt, whom it
/// flies at and the cast it came from, and says what is rolled.
#[test]
fn vsd14_given_miras_bolt_struck_bran_when_its_attack_is_put_to_a_phone_then_it_reads_the_bolt_and_the_roll()
 {
    let mut w = world();
    // A fumble (3), then the failure roll 60 + 50 = 110: it may strike another target.
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    let failed = w.seq();
    w.next_round();
    w.vsd(choose_striking(&[Choice::OtherTarget], "Bran"), &[]);
    assert_eq!(
        said(&w, fire_at(Range::Metres(15))).as_deref(),
        Some(
            format!(
                "Mira: fire Fire Bolt at Bran (cast #{failed}) — open-ended d100 attack, less the target's Defense"
            )
            .as_str()
        )
    );
}

/// VSD-11 on a player's phone (#47): a severing put to a phone names the resonance it rolls
/// again, what it costs, and how far lower the roll now reads, the −20s added up.
#[test]
fn vsd11_given_miras_resonance_when_a_severing_is_put_to_a_phone_then_it_reads_the_cost_and_how_much_lower()
 {
    let mut w = world();
    w.vsd(VsdCommand::SetSever(true), &[]);
    // 44 is a double: Shield's cast calls for a resonance roll (90 + 2: assault).
    w.vsd(cast("Shield"), &[44, 90]);
    let cast_at = w.seq();
    let sever = || {
        VsdCommand::Sever(Who {
            character: "MIRA".into(),
        })
    };
    let expected = |lower: u32| {
        format!(
            "Mira: sever the thread of Shield's resonance (#{cast_at}) for a point of Drive — d100 on the resonance table again, {lower} lower"
        )
    };
    assert_eq!(said(&w, sever()), Some(expected(20)));
    w.vsd(sever(), &[90]);
    assert_eq!(said(&w, sever()), Some(expected(40)), "the −20s add up");
}

/// VSD-9 and VSD-10 on a player's phone (#47): a choice whose pick rolls, put to a phone, names
/// the failed cast, says each pick in words and what the dice are for; the GM's pick says whose
/// it is.
#[test]
fn vsd9_vsd10_given_a_choice_that_rolls_when_it_is_put_to_a_phone_then_it_reads_the_picks_and_the_dice()
 {
    let mut w = world();
    // Ember (W1 elemental) fails as in `ember_fails`, then the failure roll 80 + 50 = 130: two of
    // three picks.
    w.vsd(cast("Ember"), &[3, 40, 80]);
    let failed = w.seq();
    assert_eq!(
        said(&w, choose_striking(&[Choice::OtherTarget, Choice::Resonance], "Tom")).as_deref(),
        Some(
            format!(
                "Mira's Ember (cast #{failed}, spell failure (130)): it lands on someone else: Tom, and a resonance roll — d100 on the resonance table"
            )
            .as_str()
        )
    );
    assert_eq!(
        said(&w, choose(&[Choice::Stunned])).as_deref(),
        Some(
            "Mira: choose stunned — no choice waiting offers it now: the rules would refuse this roll now, so the GM may withdraw it"
        ),
        "no choice waiting offers it (from the hostile pass: a choice left on a phone after its cast was retracted read as typed)"
    );

    // Storm (Weave 5, overcast under a benefic sky) on a double, 44; resonance 90 + 5 = 95: an
    // assault, the GM's to pick.
    let mut w = world();
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    w.vsd(cast("Storm"), &[44, 90]);
    let cast_at = w.seq();
    assert_eq!(
        said(&w, choose(&[Choice::Scorched])).as_deref(),
        Some(
            format!(
                "Mira's Storm (cast #{cast_at}, resonance: assault): the GM's pick: scorched — 1d10 rounds scorched"
            )
            .as_str()
        )
    );
}

/// VSD-10 on a player's phone (#47): the gaze's choice is the caster's, but only once its rounds
/// are over: before then the phone offers no form the rules would refuse.
#[test]
fn vsd10_given_miras_mind_scorched_when_her_player_looks_then_the_gazes_choice_waits_for_its_rounds()
 {
    let mut w = world();
    linked(&mut w);
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    // Storm (Weave 5) on a double, 44; resonance 90 + 5 = 95, an assault: the GM scorches Mira's
    // mind for 4 rounds.
    w.vsd(cast("Storm"), &[44, 90]);
    w.vsd(choose(&[Choice::Scorched]), &[4]);
    for _ in 0..5 {
        assert!(
            waiting_on(&w.state(), "Mira").is_empty(),
            "nothing to pick while scorched"
        );
        w.next_round();
    }
    let waiting = waiting_on(&w.state(), "Mira");
    let words: Vec<&str> = waiting[0].options.iter().map(|o| o.word).collect();
    assert_eq!(words, ["lose-remaining-mps", "answer-truly"]);
}

/// From the hostile pass (#47): a roll left on a phone after the cast behind it was retracted
/// read as if it still stood ("fire their failed spell", "must beat 50"); it now says the rules
/// would refuse it, and that the GM may withdraw it.
#[test]
fn c2_given_a_roll_put_to_a_phone_when_the_cast_behind_it_is_retracted_then_it_says_the_rules_would_refuse_it()
 {
    let mut w = world();
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    let failed = w.seq();
    w.next_round();
    w.vsd(choose_striking(&[Choice::OtherTarget], "Bran"), &[]);
    w.retract(failed, "the wrong caster");
    let fire = said(&w, fire_at(Range::Metres(15))).expect("words");
    assert!(
        fire.starts_with("Mira: fire a bolt, but no bolt owed is that one now")
            && fire.ends_with("the rules would refuse this roll now, so the GM may withdraw it"),
        "{fire}"
    );

    let events = w.vsd(cast("Sleep"), &[50]);
    let c = the_cast(&events).clone();
    let (seq, at) = (w.seq(), w.state().clock);
    w.retract(seq, "never cast");
    let save = VsdCommand::Save(SaveRoll {
        target: "Tom".into(),
        wsr: None,
        against: seq,
        cast: Some((crate::systems::vsd::rules::Answered::Cast(Box::new(c)), at)),
    });
    assert_eq!(
        said(&w, save),
        Some(format!(
            "Tom: save against Mira's Sleep (#{seq}) — #{seq} was retracted: the rules would refuse this roll now, so the GM may withdraw it"
        ))
    );
}
