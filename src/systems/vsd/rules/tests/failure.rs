use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::ClockAdvance;
use crate::seq::Seq;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::rules::VsdError;

// ---- VSD-9: spell failure ------------------------------------------------------------------------

#[test]
fn vsd9_every_failure_band_boundary_with_entered_dice() {
    // Ember is elemental (+50); a casting roll of 3 then 40 is a failure; the third die is the failure d100.
    let cases: [(u32, Option<Vec<Choice>>, usize); 7] = [
        (25, None, 0),
        (26, Some(vec![Choice::LoseHalfMps, Choice::FiresLater]), 1),
        (50, Some(vec![Choice::LoseHalfMps, Choice::FiresLater]), 1),
        (51, Some(vec![Choice::LoseAllMps, Choice::OtherTarget]), 1),
        (75, Some(vec![Choice::LoseAllMps, Choice::OtherTarget]), 1),
        (
            76,
            Some(vec![
                Choice::LoseMps,
                Choice::OtherTarget,
                Choice::Resonance,
            ]),
            2,
        ),
        (
            100,
            Some(vec![
                Choice::LoseMps,
                Choice::OtherTarget,
                Choice::Resonance,
            ]),
            2,
        ),
    ];
    let w = world();
    for (die, options, pick) in cases {
        let events = w
            .when(
                Command::System(AnyCommand::Vsd(Box::new(cast("Ember")))),
                &[3, 40, die],
            )
            .unwrap();
        let c = the_cast(&events);
        assert_eq!(c.failure.as_ref().unwrap().total, i64::from(die) + 50);
        assert_eq!(
            c.conditions[0].condition,
            Condition::Stunned,
            "always stunned"
        );
        assert_eq!(
            c.pending.first().map(|p| p.options.clone()),
            options,
            "failure total {}",
            die + 50
        );
        assert_eq!(c.pending.first().map_or(0, |p| p.pick), pick);
    }
    let base = || crate::systems::vsd::event::Pending {
        about: String::new(),
        by: "caster".into(),
        options: vec![],
        pick: 1,
        cast_seq: Seq(1),
        spell: "x".into(),
        place: Place::Normal,
        affected: vec![],
        mp_cost: 1,
        weave: 1,
        resonance_bonus: 0,
        target: None,
        cast_at: None,
    };
    assert_eq!(failure_pending(150, base()).unwrap().resonance_bonus, 20);
    let worst = failure_pending(151, base()).unwrap();
    assert_eq!(
        worst.options,
        vec![
            Choice::LoseMpsAndWeary,
            Choice::OtherTarget,
            Choice::Resonance,
            Choice::KnockedOut
        ]
    );
    assert_eq!((worst.pick, worst.resonance_bonus), (2, 50));
}

/// Shield fails (3, then 40 subtracted: −37 + 45 − 10 = −2) and its failure roll 70 + 10 offers
/// holding it to fire two rounds later.
fn a_held_shield(w: &mut World) -> Seq {
    w.vsd(
        cast_with("Shield", |o| o.target = "Bran".into()),
        &[3, 40, 70],
    );
    let failed = w.seq();
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    failed
}

/// From the clause review of issue 45: a hold whose concentration is broken can no longer fire,
/// and says so at once, rather than showing as waiting to fire until its round ends.
#[test]
fn vsd9_a_held_spell_whose_concentration_lapsed_is_shown_as_broken_at_once() {
    let round = |w: &World| w.state().clock.seconds() / crate::time::ROUND_SECONDS;
    // Held, and concentrated on in the round after the failure: it holds.
    let mut w = world();
    a_held_shield(&mut w);
    assert!(
        !w.of("Mira").hold_broken(round(&w)),
        "the round of the failure"
    );
    w.next_round();
    w.vsd(concentrate("Shield"), &[]);
    w.next_round();
    assert!(!w.of("Mira").hold_broken(round(&w)), "concentrating");
    // Held, and the round after the failure passes with no concentration: broken at once.
    let mut w = world();
    a_held_shield(&mut w);
    w.next_round();
    assert!(
        !w.of("Mira").hold_broken(round(&w)),
        "the next round, while she may still concentrate"
    );
    w.next_round();
    assert!(
        w.of("Mira").delayed.is_some(),
        "still held until its round ends"
    );
    assert!(w.of("Mira").hold_broken(round(&w)));
    let waiting = crate::render::waiting(&w.state());
    assert!(
        waiting
            .iter()
            .any(|line| line.contains("fizzles") && line.contains("concentration on it was broken")),
        "{waiting:?}"
    );
}

#[test]
fn vsd9_a_held_spell_fires_at_the_end_of_the_second_round_if_concentration_held() {
    let mut w = world();
    let mps = w.of("Mira").mp_current();
    a_held_shield(&mut w);
    let concentrate = || concentrate("Shield");
    for _ in 0..2 {
        w.next_round();
        w.vsd(concentrate(), &[]);
    }
    assert_eq!(
        w.of("Mira").mp_current(),
        mps,
        "nothing spent until it fires"
    );
    // The clock leaves the second round: the same write records the spell firing.
    w.next_round();
    let fired = w
        .events()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(d))) => Some(d.clone()),
            _ => None,
        })
        .expect("resolved");
    assert!(fired.fired && fired.took_hold);
    assert_eq!(fired.mp_spent, 2);
    assert_eq!(w.of("Mira").mp_current(), mps - 2);
    assert!(w.on("Bran").contains_key("shield"));
    assert!(w.of("Mira").delayed.is_none());
}

#[test]
fn vsd9_a_held_spell_fizzles_for_nothing_when_concentration_breaks() {
    let mut w = world();
    let mps = w.of("Mira").mp_current();
    a_held_shield(&mut w);
    w.next_round();
    w.vsd(concentrate("Shield"), &[]);
    // The second round goes by without concentration; the round after it, the spell fizzles.
    w.next_round();
    w.next_round();
    let resolved = w
        .events()
        .iter()
        .find_map(|e| match e {
            Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(d))) => Some(d.clone()),
            _ => None,
        })
        .expect("resolved");
    assert!(!resolved.fired && resolved.mp_spent == 0);
    assert_eq!(w.of("Mira").mp_current(), mps);
    assert!(!w.on("Bran").contains_key("shield"));
}

#[test]
fn vsd5_vsd9_vsd13_log_lines_use_the_words_people_type_not_code_names() {
    let mut w = world();
    // 95 + 45 − 10 + 30 (touch) = 160: outstanding.
    let events = w.vsd(cast_with("Shield", |o| o.range = Range::Touch), &[95]);
    let line = crate::render::describe(&events[0]);
    assert!(
        line.contains("outstanding success") && line.contains("half-mp, free-warping"),
        "{line}"
    );
    w.vsd(choose(&[Choice::HalfMp]), &[]);
    w.next_round();
    w.vsd(cast("Ember"), &[3, 40, 20]);
    let cleared = w.vsd(
        VsdCommand::ClearCondition(ConditionClearing {
            action: ConditionAction::Clear,
            character: "Mira".into(),
            condition: Condition::Stunned,
        }),
        &[],
    );
    assert_eq!(
        crate::render::describe(&cleared[0]),
        "Mira is no longer stunned"
    );
    // A held spell that fizzles says so in words.
    let mut w = world();
    a_held_shield(&mut w);
    for _ in 0..3 {
        w.next_round();
    }
    let line = w
        .events()
        .iter()
        .find(|e| {
            matches!(
                e,
                Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(_)))
            )
        })
        .map(crate::render::describe)
        .unwrap();
    assert!(
        line.contains("Mira's held Shield") && line.contains("fizzles"),
        "{line}"
    );
}

#[test]
fn vsd9_even_an_instantaneous_spell_can_be_held_by_concentration() {
    let mut w = world();
    // Light is instantaneous: no concentration normally...
    assert!(matches!(
        w.refused(concentrate("Light"), &[]),
        RuleError::System(AnyError::Vsd(VsdError::InstantaneousNeedsNoConcentration(
            _
        )))
    ));
    // ...but held after a failure (3, 40: −37 + 45 = 8; failure 70 + 10 = 80), it is concentrated on.
    w.vsd(cast("Light"), &[3, 40, 70]);
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    w.next_round();
    w.vsd(concentrate("Light"), &[]);
}

#[test]
fn vsd9_failure_choices_take_mps_delay_the_spell_or_bring_resonance() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Mira".into(),
            spell: spell("Quake", 3, SpellKind::Elemental),
        }),
        &[],
    );
    w.vsd(cast("Quake"), &[3, 40, 40]);
    w.vsd(choose(&[Choice::LoseHalfMps]), &[]);
    assert_eq!(w.of("Mira").mp_current(), 10, "half of 3, rounded up");
    // Stunned through the next round (VSD-13): the next cast waits a round more.
    w.next_round();
    w.next_round();
    w.vsd(cast("Quake"), &[3, 40, 30]);
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    assert_eq!(
        w.of("Mira").delayed.as_ref().map(|d| d.fires_at_round),
        Some(4)
    );
    w.next_round();
    w.next_round();
    // 90 + 50 = 140: two of lose-mps, other-target, resonance (+20): resonance d100 10 + 3 + 20 = 33.
    w.vsd(cast("Quake"), &[3, 40, 90]);
    assert!(
        matches!(
            w.refused(choose(&[Choice::LoseMps]), &[]),
            RuleError::System(AnyError::Vsd(VsdError::InvalidChoice { .. }))
        ),
        "two are needed"
    );
    let made = w.vsd(choose(&[Choice::LoseMps, Choice::Resonance]), &[10]);
    let Event::System(AnyEvent::Vsd(VsdEvent::ChoiceMade(made))) = &made[0] else {
        panic!()
    };
    assert_eq!(made.resonance.as_ref().unwrap().total, 33);
    assert_eq!(w.of("Mira").mp_current(), 7);
    assert!(w.of("Mira").pending.is_empty());
}

#[test]
fn vsd9_the_worst_failures_can_knock_the_caster_out_for_six_hours() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Mira".into(),
            spell: spell("Doom", 1, SpellKind::Dark),
        }),
        &[],
    );
    // Dark +50 with a failure d100 of 100: 150 → two of lose-mps, other-target, resonance.
    w.vsd(cast_with("Doom", |o| o.gm_modifier = -20), &[3, 40, 100]);
    w.vsd(
        choose_striking(&[Choice::OtherTarget, Choice::LoseMps], "the orc's captain"),
        &[],
    );
    assert_eq!(w.of("Mira").mp_current(), 11);
    // The 151+ band is reached by a command: the GM's modifier on the failure roll (a d100 + 50
    // alone cannot pass 150). Ember (elemental +50) failing with a failure d100 of 95 and the
    // GM's +20: 165.
    let mut world_ko = world();
    let cast = world_ko.vsd(
        cast_with("Ember", |o| o.failure_modifier = 20),
        &[3, 40, 95],
    );
    let failure = the_cast(&cast).failure.clone().expect("a failure roll");
    assert_eq!(
        (
            failure.roll,
            failure.modifier,
            failure.gm_modifier,
            failure.total
        ),
        (95, 50, 20, 165)
    );
    assert_eq!(
        world_ko.of("Mira").pending[0].options,
        vec![
            Choice::LoseMpsAndWeary,
            Choice::OtherTarget,
            Choice::Resonance,
            Choice::KnockedOut
        ]
    );
    world_ko.vsd(choose(&[Choice::KnockedOut, Choice::LoseMpsAndWeary]), &[]);
    let mira = world_ko.of("Mira");
    let now = world_ko.state().clock;
    assert!(
        mira.has_condition(Condition::KnockedOut, now) && mira.has_condition(Condition::Weary, now)
    );
    world_ko.then(
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration(6 * 3600),
        }),
        &[],
    );
    let later = world_ko.state().clock;
    assert!(
        !world_ko
            .of("Mira")
            .has_condition(Condition::KnockedOut, later),
        "six hours later"
    );
    assert!(
        world_ko.of("Mira").has_condition(Condition::Weary, later),
        "weary until cleared"
    );
}

/// The resolution of the newest held spell in `events`.
fn resolved_in(events: &[Event]) -> Option<crate::systems::vsd::event::DelayedResolved> {
    events.iter().rev().find_map(|e| match e {
        Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(d))) => Some(d.clone()),
        _ => None,
    })
}

/// VSD-9 with VSD-7: a held spell that allows a save fires as the lowest band of success, save
/// difficulty 50, and the target saves against it like any cast; failing, it takes hold, its
/// duration running from the end of the second round.
#[test]
fn vsd9_vsd7_a_held_spell_that_allows_a_save_can_be_saved_against() {
    let mut w = world();
    // Sleep on Bran fails (3, then 40 subtracted), and its failure roll 60 + 20 offers holding it.
    w.vsd(
        cast_with("Sleep", |o| o.target = "Bran".into()),
        &[3, 40, 60],
    );
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    for _ in 0..2 {
        w.next_round();
        w.vsd(concentrate("Sleep"), &[]);
    }
    w.next_round();
    let fired = resolved_in(&w.events()).expect("resolved");
    assert!(fired.fired && !fired.took_hold, "{fired:?}");
    assert_eq!(fired.save_difficulty, Some(50));
    let took_effect = fired.took_effect_at.expect("when it took effect");
    let at = w.seq();
    // Bran saves: open-ended 20 + WSR, not above 50: it takes hold for its ten minutes.
    let save = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: at,
        cast: None,
    });
    let saved = w.vsd(save, &[20]);
    let Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(rolled))) = &saved[0] else {
        panic!("{saved:?}")
    };
    assert!(!rolled.resisted, "{rolled:?}");
    assert_eq!(
        rolled.active_until,
        Some(took_effect.after(GameDuration(600)))
    );
    assert!(w.on("Bran").contains_key("sleep"));
    // One save per cast, as for any cast.
    let again = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: at,
        cast: None,
    });
    assert!(matches!(
        w.refused(again, &[20]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { .. }))
    ));
}

/// VSD-9: a caster holds one spell at a time: holding a second makes the first fizzle, on record,
/// naming the cast held in its place.
#[test]
fn vsd9_a_second_held_spell_makes_the_first_fizzle_on_record() {
    let mut w = world();
    a_held_shield(&mut w);
    // Stunned by the failure through the next round (VSD-13), Mira casts in the one after.
    w.next_round();
    w.next_round();
    w.vsd(
        cast_with("Sleep", |o| o.target = "Bran".into()),
        &[3, 40, 60],
    );
    let second = w.seq();
    let events = w.vsd(choose(&[Choice::FiresLater]), &[]);
    let fizzled = resolved_in(&events).expect("the first held spell ends on record");
    assert!(!fizzled.fired, "{fizzled:?}");
    assert_eq!(
        (fizzled.spell.as_str(), fizzled.replaced_by),
        ("Shield", Some(second))
    );
    assert!(
        crate::render::describe(&events[0]).contains("is held in its place"),
        "{}",
        crate::render::describe(&events[0])
    );
    assert_eq!(
        w.of("Mira").delayed.as_ref().map(|d| d.spell.as_str()),
        Some("Sleep")
    );
}

/// VSD-8 with VSD-9: a one-off spell (instantaneous, or an attack) is never in force on its target,
/// cast or held: Light lands and is done.
#[test]
fn vsd8_vsd9_a_one_off_spell_is_never_in_force_held_or_not() {
    let mut w = world();
    // A plain success: 60 + 45 = 105.
    w.vsd(cast_with("Light", |o| o.target = "Bran".into()), &[60]);
    assert!(!w.on("Bran").contains_key("light"));
    w.next_round();
    // Held after a failure (3, 40; failure roll 70 + 10 = 80), concentrated on, fired.
    w.vsd(
        cast_with("Light", |o| o.target = "Bran".into()),
        &[3, 40, 70],
    );
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    for _ in 0..2 {
        w.next_round();
        w.vsd(concentrate("Light"), &[]);
    }
    w.next_round();
    let fired = resolved_in(&w.events()).expect("resolved");
    assert!(fired.fired && !fired.took_hold, "{fired:?}");
    assert!(!w.on("Bran").contains_key("light"));
}

pub(super) fn made_in(events: &[Event]) -> crate::systems::vsd::event::ChoiceMade {
    events
        .iter()
        .find_map(|e| match e {
            Event::System(AnyEvent::Vsd(VsdEvent::ChoiceMade(m))) => Some(m.clone()),
            _ => None,
        })
        .expect("a choice")
}

/// VSD-9 (101–125, ruling): the spell strikes another target as the lowest band of success: its
/// MPs are spent, and it takes hold there for its duration from the cast.
#[test]
fn vsd9_a_failed_spell_that_strikes_another_target_takes_hold_there_and_spends_its_mps() {
    let mut w = world();
    let mps = w.of("Mira").mp_current();
    // Shield on Bran fails (3, then 40 subtracted); its failure roll 95 + 10 (defensive) = 105.
    w.vsd(
        cast_with("Shield", |o| o.target = "Bran".into()),
        &[3, 40, 95],
    );
    let cast_at = w.state().clock;
    // The target is named with the pick, and only with it; at 105 the caster cannot be it.
    assert_eq!(
        w.refused(choose(&[Choice::OtherTarget]), &[]),
        RuleError::System(AnyError::Vsd(VsdError::OtherTargetUnnamed("Mira".into())))
    );
    assert_eq!(
        w.refused(choose_striking(&[Choice::LoseAllMps], "Tom"), &[]),
        RuleError::System(AnyError::Vsd(VsdError::TargetWithoutOtherTarget))
    );
    assert_eq!(
        w.refused(choose_striking(&[Choice::OtherTarget], "mira"), &[]),
        RuleError::System(AnyError::Vsd(VsdError::CasterNotStruckBelow126(
            "Mira".into()
        )))
    );
    w.next_round();
    let made = made_in(&w.vsd(choose_striking(&[Choice::OtherTarget], "tom"), &[]));
    let struck = made.struck.as_ref().expect("struck");
    // Shield is Weave 2: 2 MP spent as it fires; no save; in force on Tom for ten minutes from
    // the cast, a round before the choice.
    assert_eq!(
        (
            struck.target.as_str(),
            struck.mp_spent,
            struck.save_difficulty
        ),
        ("Tom", 2, None)
    );
    assert_eq!(w.of("Mira").mp_current(), mps - 2);
    assert_eq!(
        w.on("Tom").get("shield").and_then(|a| a.until),
        Some(cast_at.after(GameDuration(600)))
    );
    assert!(!w.on("Bran").contains_key("shield"));
    let line = crate::render::describe(w.events().last().unwrap());
    assert!(
        line.contains("Shield strikes Tom instead, 2 MP spent, in force"),
        "{line}"
    );
}

/// VSD-9 with VSD-7: struck instead, a spell that allows a save is saved against at 50, its
/// duration from the cast; from 126 the caster may be struck, and MPs lost by the other pick are
/// the same MPs, lost once.
#[test]
fn vsd9_vsd7_a_struck_target_saves_at_50_and_from_126_the_caster_may_be_struck() {
    let mut w = world();
    // Sleep on Bran fails; its failure roll 90 + 20 (enchantment) = 110.
    w.vsd(
        cast_with("Sleep", |o| o.target = "Bran".into()),
        &[3, 40, 90],
    );
    let cast_at = w.state().clock;
    w.vsd(choose_striking(&[Choice::OtherTarget], "Tom"), &[]);
    let choice = w.seq();
    assert_eq!(
        made_in(&w.events()).struck.unwrap().save_difficulty,
        Some(50)
    );
    assert!(!w.on("Tom").contains_key("sleep"), "not before the save");
    // Tom saves: open-ended 20 + WSR 20 = 40, not above 50: asleep for ten minutes from the cast.
    let save = VsdCommand::Save(SaveRoll {
        target: "Tom".into(),
        wsr: None,
        against: choice,
        cast: None,
    });
    let saved = w.vsd(save, &[20]);
    let Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(rolled))) = &saved[0] else {
        panic!("{saved:?}")
    };
    assert!(!rolled.resisted);
    assert_eq!(rolled.active_until, Some(cast_at.after(GameDuration(600))));
    assert!(w.on("Tom").contains_key("sleep"));

    // Ember fails at 80 + 50 (elemental) = 130: two picks, and Mira herself may be struck.
    let mut w = world();
    let mps = w.of("Mira").mp_current();
    w.vsd(cast("Ember"), &[3, 40, 80]);
    let made = made_in(&w.vsd(
        choose_striking(&[Choice::LoseMps, Choice::OtherTarget], "Mira"),
        &[],
    ));
    assert_eq!(made.mp_lost, vec![("Mira".to_string(), 1)]);
    assert_eq!(made.struck.as_ref().map(|s| s.mp_spent), Some(0));
    // Ember is Weave 1: 1 MP in all, not 2.
    assert_eq!(w.of("Mira").mp_current(), mps - 1);
    assert!(w.on("Mira").contains_key("ember"));
}

/// VSD-9, VSD-8: a one-off spell struck elsewhere does its work and is never in force.
#[test]
fn vsd9_vsd8_a_one_off_spell_struck_elsewhere_is_never_in_force() {
    let mut w = world();
    // Light is instantaneous; it fails and its failure roll 95 + 10 (utility) = 105.
    w.vsd(cast("Light"), &[3, 40, 95]);
    let made = made_in(&w.vsd(choose_striking(&[Choice::OtherTarget], "Bran"), &[]));
    assert_eq!(made.struck.map(|s| s.mp_spent), Some(1));
    assert!(made.in_force.is_none());
    assert!(w.on("Bran").is_empty());
}

/// From the hostile pass: another target is not the spell's own, a name that only looks like the
/// caster's is the caster, and only the one struck saves.
#[test]
fn vsd9_vsd7_another_target_is_someone_else_and_only_they_save() {
    let mut w = world();
    // Sleep on Bran fails at 90 + 20 = 110: another target, not Mira.
    w.vsd(
        cast_with("Sleep", |o| o.target = "Bran".into()),
        &[3, 40, 90],
    );
    assert_eq!(
        w.refused(choose_striking(&[Choice::OtherTarget], " bran"), &[]),
        RuleError::System(AnyError::Vsd(VsdError::SameTarget("Bran".into())))
    );
    for look_alike in ["Ｍira", "Mi\u{200b}ra"] {
        assert_eq!(
            w.refused(choose_striking(&[Choice::OtherTarget], look_alike), &[]),
            RuleError::System(AnyError::Vsd(VsdError::CasterNotStruckBelow126(
                "Mira".into()
            ))),
            "{look_alike:?}"
        );
    }
    // A name that only looks like Tom's is refused rather than recorded as a stranger.
    assert!(matches!(
        w.refused(choose_striking(&[Choice::OtherTarget], "T\u{43e}m"), &[]),
        RuleError::ConfusableName { .. }
    ));
    w.vsd(choose_striking(&[Choice::OtherTarget], "Tom"), &[]);
    let choice = w.seq();
    let save = |who: &str| {
        VsdCommand::Save(SaveRoll {
            target: who.into(),
            wsr: Some(0),
            against: choice,
            cast: None,
        })
    };
    assert!(matches!(
        w.refused(save("the troll"), &[20]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { .. }))
    ));
    assert!(matches!(
        w.refused(save("Bran"), &[20]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { .. }))
    ));
}

// ---- VSD-9 with VSD-14: a bolt that fires after its cast failed -----------------------------------
