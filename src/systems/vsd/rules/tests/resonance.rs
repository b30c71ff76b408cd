use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::ClockAdvance;
use crate::seq::Seq;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::rules::VsdError;

// ---- VSD-10: resonance ---------------------------------------------------------------------------

#[test]
fn vsd10_a_double_on_the_first_die_brings_resonance_but_not_100_or_later_dice() {
    let w = world();
    let with = |rolls: &[u32]| {
        the_cast(
            &w.when(
                Command::System(AnyCommand::Vsd(Box::new(cast("Shield")))),
                rolls,
            )
            .unwrap(),
        )
        .resonance
        .clone()
    };
    assert_eq!(with(&[44, 20]).unwrap().total, 20 + 2);
    assert!(with(&[45]).is_none());
    assert!(with(&[100, 20]).is_none(), "100 is not a double");
    assert!(with(&[97, 22]).is_none(), "only the first die counts");
    for double in [11, 22, 33, 55, 66, 77, 88] {
        assert!(with(&[double, 1]).is_some(), "{double}");
    }
}

#[test]
fn vsd10_every_resonance_band_boundary_and_the_weave_four_cap() {
    let band = |weave: u32, die: u32| {
        let mut rng = StdRng::seed_from_u64(1);
        let mut dice = Dice::entered(vec![die], &mut rng);
        let mut record = vec![];
        let storm = def("Storm", weave, SpellKind::Elemental);
        roll_resonance(&mut dice, &mut record, &storm, Place::Normal, 0, 0, "test")
            .unwrap()
            .result
    };
    for (die, result) in [
        (35, "nothing"),
        (36, "awareness"),
        (55, "awareness"),
        (56, "attention"),
        (75, "attention"),
        (76, "pursuit"),
        (85, "pursuit"),
        (86, "assault"),
        (95, "assault"),
        (96, "lieutenant"),
    ] {
        assert_eq!(band(5, die), result, "Weave 5, d100 {die}");
    }
    assert_eq!(band(4, 86), "pursuit", "4 + 86 = 90");
    assert_eq!(band(4, 87), "pursuit", "91 capped at pursuit for Weave 4");
    assert_eq!(band(4, 100), "pursuit");
}

/// VSD-10: every total names its parts: the log line says when the Weave 4 cap turned a band
/// down, and `explain` lists the die and each modifier.
#[test]
fn vsd10_a_capped_resonance_says_so_and_explain_names_its_parts() {
    let roll = |weave: u32, die: u32| {
        let mut rng = StdRng::seed_from_u64(1);
        let mut dice = Dice::entered(vec![die], &mut rng);
        let storm = def("Storm", weave, SpellKind::Dark);
        roll_resonance(&mut dice, &mut vec![], &storm, Place::Normal, 0, 0, "test").unwrap()
    };
    // 57 + Weave 4 + dark 30 = 91: assault on the table, pursuit for a Weave 4 spell.
    let capped = roll(4, 57);
    assert_eq!(capped.total, 91);
    assert_eq!(
        capped.words(),
        "RESONANCE 91 → pursuit (assault, capped: Weave 4 or less)"
    );
    assert_eq!(
        capped.parts(),
        "rolled 57, Weave +4, dark spell +30; total 91"
    );
    // Weave 5: no cap, nothing added to the words.
    assert_eq!(roll(5, 57).words(), "RESONANCE 92 → assault");
    let cast = VsdEvent::ChoiceMade(crate::systems::vsd::event::ChoiceMade {
        character: "Mira".into(),
        cast_seq: Seq(7),
        chosen: vec![],
        mp_refund: 0,
        mp_lost: vec![],
        conditions: vec![],
        fires_at_round: None,
        resonance: Some(capped),
        in_force: None,
        pending: None,
        struck: None,
        dice: vec![],
    });
    let explained =
        <crate::systems::vsd::Vsd as crate::systems::contract::render::SystemWords>::explain(&cast);
    assert_eq!(
        explained,
        [
            "  the resonance roll: rolled 57, Weave +4, dark spell +30; total 91 → RESONANCE 91 → pursuit (assault, capped: Weave 4 or less)"
        ]
    );
}

#[test]
fn vsd10_resonance_modifiers_by_place_and_spell() {
    let total = |s: SpellDef, place: Place| {
        let mut rng = StdRng::seed_from_u64(1);
        let mut dice = Dice::entered(vec![50], &mut rng);
        roll_resonance(&mut dice, &mut vec![], &s, place, 0, 0, "test")
            .unwrap()
            .total
    };
    let plain = def("Plain", 1, SpellKind::Utility);
    assert_eq!(total(plain.clone(), Place::Normal), 51);
    assert_eq!(total(plain.clone(), Place::Haven), 31);
    assert_eq!(total(plain.clone(), Place::Blighted), 71);
    assert_eq!(total(def("Mend", 1, SpellKind::Healing), Place::Normal), 31);
    assert_eq!(
        total(
            SpellDef {
                tags: vec![Tag::Spirit, Tag::Light],
                ..plain.clone()
            },
            Place::Normal
        ),
        31,
        "one -20"
    );
    assert_eq!(
        total(
            SpellDef {
                tags: vec![Tag::Elven],
                ..plain.clone()
            },
            Place::Normal
        ),
        41
    );
    assert_eq!(
        total(
            SpellDef {
                attack: Some(AttackKind::Area),
                ..plain.clone()
            },
            Place::Normal
        ),
        71
    );
    assert_eq!(total(def("Curse", 1, SpellKind::Dark), Place::Normal), 81);
}

#[test]
fn vsd10_after_the_gazes_rounds_the_caster_chooses_all_mps_or_a_true_answer() {
    let mut w = world();
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    // Storm (Weave 5) on a double, 44; resonance 90 + Weave 5 = 95: assault.
    let events = w.vsd(cast("Storm"), &[44, 90]);
    assert_eq!(
        the_cast(&events).resonance.as_ref().unwrap().result,
        "assault"
    );
    let mps_before = w.of("Mira").mp_current();
    w.vsd(choose(&[Choice::Scorched]), &[4]);
    let mira = w.of("Mira");
    assert!(mira.has_condition(Condition::Scorched, w.state().clock));
    assert_eq!(
        mira.pending[0].options,
        vec![Choice::LoseRemainingMps, Choice::AnswerTruly]
    );
    assert_eq!(mira.pending[0].by, "caster");
    // During the gaze's 4 rounds the caster can do nothing, choosing included; they are counted
    // from the round after this one, whose action is spent.
    for _ in 0..4 {
        assert!(matches!(
            w.refused(choose(&[Choice::LoseRemainingMps]), &[]),
            RuleError::System(AnyError::Vsd(VsdError::CannotAct { .. }))
        ));
        w.next_round();
    }
    assert!(
        matches!(
            w.refused(choose(&[Choice::LoseRemainingMps]), &[]),
            RuleError::System(AnyError::Vsd(VsdError::CannotAct { .. }))
        ),
        "the fourth whole round after the gaze's"
    );
    w.next_round();
    w.vsd(choose(&[Choice::LoseRemainingMps]), &[]);
    assert!(mps_before > 0);
    assert_eq!(w.of("Mira").mp_current(), 0);
    assert!(w.of("Mira").pending.is_empty());
}

#[test]
fn vsd10_nature_magic_counts_as_natural_for_resonance() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = Dice::entered(vec![50], &mut rng);
    let nature = def("Barkskin", 1, SpellKind::Nature);
    let roll =
        roll_resonance(&mut dice, &mut vec![], &nature, Place::Normal, 0, 0, "test").unwrap();
    assert_eq!(roll.total, 41, "50 + Weave 1 − 10");
    // Tagged natural as well, it still takes the −10 once.
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = Dice::entered(vec![50], &mut rng);
    let tagged = SpellDef {
        tags: vec![Tag::Natural],
        ..nature
    };
    let roll =
        roll_resonance(&mut dice, &mut vec![], &tagged, Place::Normal, 0, 0, "test").unwrap();
    assert_eq!(roll.total, 41);
}

#[test]
fn vsd10_awareness_makes_the_next_spell_within_an_hour_roll_resonance_and_gm_picks_follow() {
    let mut w = world();
    // A double 33: resonance d100 50 + 2 = 52: awareness.
    let first = w.vsd(cast("Shield"), &[33, 50]);
    assert_eq!(
        the_cast(&first).resonance.as_ref().unwrap().result,
        "awareness"
    );
    w.next_round();
    // No double, but the window is open: d100 70 + 2 = 72: attention, the GM picks.
    let second = w.vsd(cast("Shield"), &[60, 70]);
    assert_eq!(
        the_cast(&second).resonance.as_ref().unwrap().result,
        "attention"
    );
    assert_eq!(w.of("Mira").pending[0].by, "GM");
    w.vsd(choose(&[Choice::Stunned]), &[]);
    assert!(
        w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock)
    );
    w.then(
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration(3600),
        }),
        &[],
    );
    let third = w.vsd(cast("Shield"), &[60]);
    assert!(
        the_cast(&third).resonance.is_none(),
        "the window used up, and no double"
    );
}

// ---- VSD-11: sever the thread --------------------------------------------------------------------

#[test]
fn vsd11_severing_spends_drive_and_rerolls_at_a_further_minus_twenty_each_time() {
    let mut w = world();
    w.vsd(cast("Shield"), &[44, 90]);
    assert_eq!(
        w.refused(
            VsdCommand::Sever(Who {
                character: "Mira".into()
            }),
            &[50]
        ),
        RuleError::System(AnyError::Vsd(VsdError::SeverOff))
    );
    w.vsd(VsdCommand::SetSever(true), &[]);
    let once = w.vsd(
        VsdCommand::Sever(Who {
            character: "Mira".into(),
        }),
        &[90],
    );
    let Event::System(AnyEvent::Vsd(VsdEvent::ThreadSevered(once))) = &once[0] else {
        panic!()
    };
    assert_eq!((once.severs, once.resonance.total), (1, 90 + 2 - 20));
    let twice = w.vsd(
        VsdCommand::Sever(Who {
            character: "Mira".into(),
        }),
        &[90],
    );
    let Event::System(AnyEvent::Vsd(VsdEvent::ThreadSevered(twice))) = &twice[0] else {
        panic!()
    };
    assert_eq!(
        (
            twice.severs,
            twice.resonance.total,
            twice.resonance.result.as_str()
        ),
        (2, 52, "awareness")
    );
    assert_eq!(w.of("Mira").drive, 1);
    assert!(
        w.of("Mira").pending.is_empty(),
        "awareness asks the GM for nothing"
    );
    w.vsd(
        VsdCommand::Sever(Who {
            character: "Mira".into(),
        }),
        &[10],
    );
    assert_eq!(
        w.refused(
            VsdCommand::Sever(Who {
                character: "Mira".into()
            }),
            &[10]
        ),
        RuleError::System(AnyError::Vsd(VsdError::NoDrive("Mira".into())))
    );
    assert!(matches!(
        w.refused(
            VsdCommand::Sever(Who {
                character: "Bran".into()
            }),
            &[10]
        ),
        RuleError::System(AnyError::Vsd(VsdError::NoResonance(_)))
    ));
}
