use super::*;
use crate::rules::RuleError;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyError;
use crate::systems::vsd::rules::VsdError;

// ---- VSD-1: the open-ended roll ------------------------------------------------------------------

#[test]
fn vsd1_a_casting_roll_is_open_ended_both_ways() {
    let mut w = world();
    let up = w.vsd(cast("Shield"), &[98, 97, 10]);
    assert_eq!(the_cast(&up).roll, 205);
    assert_eq!(the_cast(&up).dice.len(), 3);
    assert_eq!(the_cast(&up).outcome, Outcome::Outstanding);
    w.vsd(choose(&[Choice::FreeWarping]), &[]);
    w.next_round();
    let down = w.vsd(cast("Ember"), &[4, 99, 30, 60]);
    assert_eq!(the_cast(&down).roll, 4 - 99 - 30);
}

// ---- VSD-2: requirements -------------------------------------------------------------------------

#[test]
fn vsd2_each_unmet_requirement_is_refused_with_its_own_error() {
    let mut w = world();
    assert!(matches!(
        w.refused(cast("Fireball"), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::UnknownSpell { .. }))
    ));
    assert!(matches!(
        w.refused(cast("Storm"), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::WeaveAboveLevel {
            weave: 5,
            level: 3,
            ..
        }))
    ));
    assert_eq!(
        w.refused(cast_with("Shield", |o| o.cannot_see = true), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::CannotSee("Mira".into())))
    );
    assert_eq!(
        w.refused(cast_with("Shield", |o| o.silenced = true), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::CannotSpeak("Mira".into())))
    );
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Mira".into(),
            spell: NewSpell {
                mp: Some(20),
                ..spell("Meteor", 3, SpellKind::Elemental)
            },
        }),
        &[],
    );
    assert_eq!(
        w.refused(cast("Meteor"), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::NotEnoughMp {
            name: "Mira".into(),
            has: 12,
            cost: 20
        }))
    );
    w.vsd(cast("Shield"), &[60]);
    assert_eq!(
        w.refused(cast("Light"), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::RoundUsed("Mira".into()))),
        "one spell per round"
    );
    w.next_round();
    w.vsd(cast("Shield"), &[10]);
    w.next_round();
    assert_eq!(
        w.refused(cast("Light"), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::ChoicePending("Mira".into())))
    );
}

// ---- VSD-3: concentration ------------------------------------------------------------------------

/// From the clause review of issue 45 (item 7), VSD-3: an instantaneous spell is half an action,
/// so a second may follow it in its round, and nothing that takes the whole action (a cast, a
/// round of concentration); the GM may let one be cast out of turn, in response to an event, and
/// the record says so; a spell that is not instantaneous may not.
#[test]
fn vsd3_instantaneous_spells_are_half_an_action_and_may_be_cast_out_of_turn() {
    let mut w = world();
    let out_of_turn = |spell| cast_with(spell, |o| o.out_of_turn = true);
    let first = w.vsd(out_of_turn("Light"), &[50]);
    let first = the_cast(&first);
    assert!(first.half_action && first.out_of_turn);
    assert!(
        crate::systems::vsd::render::spell_cast(first)
            .contains("cast out of turn, in response to an event"),
        "{}",
        crate::systems::vsd::render::spell_cast(first)
    );
    let used = RuleError::System(AnyError::Vsd(VsdError::RoundUsed("Mira".into())));
    assert_eq!(
        w.refused(cast("Shield"), &[60]),
        used,
        "half the action is gone"
    );
    assert_eq!(w.refused(concentrate("Shield"), &[]), used);
    w.vsd(cast("Light"), &[50]);
    assert_eq!(
        w.refused(cast("Light"), &[50]),
        used,
        "both halves are gone"
    );
    w.next_round();
    assert_eq!(
        w.refused(out_of_turn("Shield"), &[60]),
        RuleError::System(AnyError::Vsd(VsdError::OutOfTurnNotInstantaneous(
            "Shield".into()
        )))
    );
    assert!(!the_cast(&w.vsd(cast("Shield"), &[60])).half_action);
    // An instantaneous spell lasts no time: a duration given for one is refused, not dropped.
    let lasting = VsdCommand::Learn(SpellLearning {
        character: "Mira".into(),
        spell: NewSpell {
            instantaneous: true,
            duration: Some(GameDuration::parse("10m").unwrap()),
            ..spell("Flash", 1, SpellKind::Utility)
        },
    });
    assert!(matches!(
        w.refused(lasting, &[]),
        RuleError::System(AnyError::Vsd(VsdError::InvalidSpell(why))) if why.contains("leave out --duration")
    ));
}

#[test]
fn vsd3_each_round_of_concentration_adds_ten_and_none_is_improvised() {
    let mut w = world();
    let improvised = w.vsd(cast("Shield"), &[50]);
    assert_eq!(the_cast(&improvised).modifiers[0].value, -10);
    for _ in 0..2 {
        w.next_round();
        w.vsd(concentrate("Shield"), &[]);
    }
    assert_eq!(w.of("Mira").mp_current(), 10, "concentrating spends no MPs");
    w.next_round();
    let focused = w.vsd(cast("Shield"), &[50]);
    assert_eq!(the_cast(&focused).modifiers[0].value, 20);
    assert_eq!(the_cast(&focused).total, 50 + 45 + 20);
}

#[test]
fn vsd3_concentration_is_capped_at_forty_and_lost_when_broken() {
    let mut w = world();
    for _ in 0..6 {
        w.vsd(concentrate("Shield"), &[]);
        w.next_round();
    }
    assert_eq!(
        the_cast(&w.vsd(cast("Shield"), &[50])).modifiers[0].value,
        40
    );
    w.next_round();
    w.vsd(concentrate("Shield"), &[]);
    w.next_round();
    w.next_round();
    assert_eq!(
        the_cast(&w.vsd(cast("Shield"), &[50])).modifiers[0].value,
        -10,
        "a skipped round breaks it"
    );
    w.next_round();
    w.vsd(concentrate("Shield"), &[]);
    w.vsd(
        VsdCommand::Interrupt(Who {
            character: "Mira".into(),
        }),
        &[],
    );
    w.next_round();
    assert_eq!(
        the_cast(&w.vsd(cast("Shield"), &[50])).modifiers[0].value,
        -10,
        "interrupted"
    );
    assert_eq!(
        w.refused(
            VsdCommand::Interrupt(Who {
                character: "Mira".into()
            }),
            &[]
        ),
        RuleError::System(AnyError::Vsd(VsdError::NotConcentrating("Mira".into())))
    );
}

#[test]
fn vsd3_instantaneous_spells_gain_nothing_from_concentration_and_are_never_improvised() {
    let mut w = world();
    let err = w.refused(concentrate("Light"), &[]);
    assert_eq!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::InstantaneousNeedsNoConcentration(
            "Light".into()
        )))
    );
    let quick = w.vsd(cast("Light"), &[50]);
    assert!(the_cast(&quick).modifiers.is_empty());
    assert_eq!(the_cast(&quick).total, 95);
}

// ---- VSD-4: modifiers ----------------------------------------------------------------------------

#[test]
fn vsd4_range_static_armour_and_gm_modifiers_add_up() {
    let w = world();
    let total_with = |change: fn(&mut CastOrder)| {
        let events = w
            .when(
                Command::System(AnyCommand::Vsd(Box::new(cast_with("Light", change)))),
                &[50],
            )
            .unwrap();
        the_cast(&events).total - 95
    };
    assert_eq!(total_with(|o| o.range = Range::Touch), 30);
    assert_eq!(total_with(|o| o.range = Range::Metres(3)), 10);
    assert_eq!(total_with(|o| o.range = Range::Metres(15)), 0);
    assert_eq!(total_with(|o| o.range = Range::Metres(30)), -10);
    assert_eq!(total_with(|o| o.range = Range::Metres(90)), -20);
    assert_eq!(total_with(|o| o.range = Range::Far), -30);
    assert_eq!(total_with(|o| o.static_target = true), 10);
    assert_eq!(total_with(|o| o.armor_penalty = 15), -15);
    assert_eq!(total_with(|o| o.gm_modifier = -5), -5);
}

// ---- VSD-5: the casting table --------------------------------------------------------------------

#[test]
fn vsd5_a_partial_success_without_a_save_offers_the_caster_three_choices() {
    let mut w = world();
    let events = w.vsd(cast("Shield"), &[10]);
    let c = the_cast(&events);
    assert_eq!((c.total, c.outcome, c.mp_spent), (45, Outcome::Partial, 2));
    assert_eq!(
        c.pending[0].options,
        vec![Choice::HalfDuration, Choice::HalfArea, Choice::KeepMps]
    );
    w.vsd(choose(&[Choice::KeepMps]), &[]);
    assert_eq!(w.of("Mira").mp_current(), 12, "no effect, MPs kept");
    assert!(w.of("Mira").pending.is_empty());
}

#[test]
fn vsd5_a_partial_success_halved_is_in_force_and_replaces_older_castings() {
    let mut w = world();
    // Shield (10 minutes) at full strength on Bran, then a partial success on him.
    w.vsd(cast_with("Shield", |o| o.target = "Bran".into()), &[60]);
    let full = w.seq();
    w.next_round();
    w.vsd(cast_with("Shield", |o| o.target = "Bran".into()), &[10]);
    let partial = w.seq();
    let cast_at = w.state().clock;
    w.next_round();
    w.vsd(choose(&[Choice::HalfDuration]), &[]);
    let shield = &w.on("Bran")["shield"];
    assert_eq!(
        shield.cast_seq, partial,
        "the newest casting replaced the full one at #{full}"
    );
    assert_eq!(
        shield.until,
        Some(cast_at.after(GameDuration(300))),
        "half of ten minutes, from the cast"
    );
    assert_eq!(w.of("Mira").mp_current(), 12 - 2 - 2, "both castings paid");

    w.next_round();
    w.vsd(cast_with("Shield", |o| o.target = "Tom".into()), &[10]);
    let at = w.state().clock;
    w.vsd(choose(&[Choice::HalfArea]), &[]);
    let shield = &w.on("Tom")["shield"];
    assert!(shield.half_area);
    assert_eq!(shield.until, Some(at.after(GameDuration(600))));
}

#[test]
fn vsd5_a_partial_success_with_a_save_means_targets_resist_automatically() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[10]);
    let c = the_cast(&events);
    assert!(c.auto_resisted && c.pending.is_empty());
    let seq = w.seq();
    let at = w.state().clock;
    let cast = c.clone();
    let err = w.refused(
        VsdCommand::Save(SaveRoll {
            target: "the orc".into(),
            wsr: Some(5),
            against: seq,
            cast: Some((
                crate::systems::vsd::rules::Answered::Cast(Box::new(cast)),
                at,
            )),
        }),
        &[50],
    );
    assert!(matches!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { .. }))
    ));
}

#[test]
fn vsd5_an_outstanding_success_offers_half_cost_rounded_up_or_a_free_warping() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Mira".into(),
            spell: NewSpell {
                save: true,
                ..spell("Wall", 3, SpellKind::Defensive)
            },
        }),
        &[],
    );
    let events = w.vsd(cast_with("Wall", |o| o.gm_modifier = 30), &[90]);
    let c = the_cast(&events);
    assert_eq!(
        (c.total, c.outcome, c.save_difficulty),
        (155, Outcome::Outstanding, Some(105))
    );
    w.vsd(choose(&[Choice::HalfMp]), &[]);
    assert_eq!(w.of("Mira").mp_current(), 12 - 2, "half of 3, rounded up");
}

#[test]
fn vsd4_given_a_modifier_no_table_reads_when_the_cast_is_added_up_then_it_never_wraps_around() {
    let mut w = world();
    let huge = w.vsd(cast_with("Shield", |o| o.gm_modifier = i64::MAX), &[50]);
    assert_eq!(the_cast(&huge).total, i64::MAX);
    assert_ne!(the_cast(&huge).outcome, Outcome::Failure);
    let mut w = world();
    let low = w.vsd(cast_with("Shield", |o| o.gm_modifier = i64::MIN), &[50, 20]);
    assert!(
        the_cast(&low).total < i64::MIN / 2,
        "no wrap to a high total"
    );
    assert_eq!(the_cast(&low).outcome, Outcome::Failure);
}

/// VSD-7 on a player's phone (#47): a save put to a phone reads whose spell it resists, and what
/// the roll must beat: open-ended d100 plus the saver's Willpower, greater than the difficulty.
#[test]
fn vsd7_given_miras_sleep_when_a_save_against_it_is_put_to_a_phone_then_it_reads_what_to_beat() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[50]);
    let c = the_cast(&events).clone();
    let difficulty = c.save_difficulty.expect("a save may answer it");
    let (seq, at) = (w.seq(), w.state().clock);
    let save = VsdCommand::Save(SaveRoll {
        target: "the orc".into(),
        wsr: Some(5),
        against: seq,
        cast: Some((crate::systems::vsd::rules::Answered::Cast(Box::new(c)), at)),
    });
    let said =
        <Vsd as crate::systems::contract::rules::SystemRules>::asked_words(&save, &w.state());
    assert_eq!(
        said.as_deref(),
        Some(
            format!(
                "the orc: save against Mira's Sleep (#{seq}) — open-ended d100 +5 Willpower must beat {difficulty}"
            )
            .as_str()
        )
    );
}
