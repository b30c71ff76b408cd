use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::Resting;
use crate::seq::Seq;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::rules::VsdError;

// ---- VSD-6: magic points -------------------------------------------------------------------------

#[test]
fn vsd6_mps_are_spent_on_casting_and_restored_by_rest() {
    let mut w = world();
    w.vsd(cast("Shield"), &[60]);
    w.next_round();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Mira".into(),
            spell: NewSpell {
                mp: Some(5),
                ..spell("Blink", 1, SpellKind::Utility)
            },
        }),
        &[],
    );
    w.vsd(cast("Blink"), &[60]);
    assert_eq!(w.of("Mira").mp_current(), 12 - 2 - 5);
    w.then(Command::Rest(Resting::hours(&["Mira"], 4)), &[]);
    assert_eq!(
        w.of("Mira").mp_current(),
        11,
        "4 hours restore floor(12 × 4 / 8) = 6, up to the maximum"
    );
    w.then(Command::Rest(Resting::night(&[])), &[]);
    assert_eq!(w.of("Mira").mp_current(), 12);
}

#[test]
fn vsd6_a_failure_spends_only_what_its_result_says() {
    let mut w = world();
    // Ember: a 3 opens a low chain, 3 - 40 = -37, a failure; its d100 20 + 50 = 70 asks nothing more.
    let events = w.vsd(cast("Ember"), &[3, 40, 20]);
    assert_eq!(
        (the_cast(&events).outcome, the_cast(&events).mp_spent),
        (Outcome::Failure, 0)
    );
    assert_eq!(w.of("Mira").mp_current(), 12);
}

// ---- VSD-7: saves --------------------------------------------------------------------------------

#[test]
fn vsd7_given_a_retracted_cast_when_a_save_is_rolled_against_it_then_it_is_refused() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[50]);
    let sleep = the_cast(&events).clone();
    let seq = w.seq();
    let at = w.state().clock;
    w.retract(seq, "never cast");
    let save = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: seq,
        cast: Some((
            crate::systems::vsd::rules::Answered::Cast(Box::new(sleep)),
            at,
        )),
    });
    assert_eq!(
        w.refused(save, &[30]),
        RuleError::System(AnyError::Vsd(VsdError::CastRetracted(seq)))
    );
    let beyond = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: w.seq() + 5,
        cast: None,
    });
    assert!(matches!(
        w.refused(beyond, &[30]),
        RuleError::NoSuchEvent(..)
    ));
}

#[test]
fn vsd7_given_a_bonus_no_sheet_holds_when_the_save_is_added_up_then_it_never_wraps_around() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[50]);
    let sleep = the_cast(&events).clone();
    let (seq, at) = (w.seq(), w.state().clock);
    let save = VsdCommand::Save(SaveRoll {
        target: "the orc".into(),
        wsr: Some(i64::MAX),
        against: seq,
        cast: Some((
            crate::systems::vsd::rules::Answered::Cast(Box::new(sleep)),
            at,
        )),
    });
    match &w
        .when(Command::System(AnyCommand::Vsd(Box::new(save))), &[50])
        .unwrap()[0]
    {
        Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(s))) => {
            assert_eq!((s.total, s.resisted), (i64::MAX, true))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn vsd7_given_a_spell_that_grants_no_save_when_a_save_is_rolled_then_the_refusal_says_so() {
    let mut w = world();
    let events = w.vsd(cast("Shield"), &[60]);
    let shield = the_cast(&events).clone();
    assert_ne!(shield.outcome, Outcome::Failure);
    let (seq, at) = (w.seq(), w.state().clock);
    let save = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: seq,
        cast: Some((
            crate::systems::vsd::rules::Answered::Cast(Box::new(shield)),
            at,
        )),
    });
    assert_eq!(
        w.refused(save, &[30]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded {
            seq,
            why: "the spell grants no save".into(),
        }))
    );
}

#[test]
fn vsd7_a_save_must_beat_the_difficulty() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[50]);
    let sleep = the_cast(&events).clone();
    assert_eq!(sleep.save_difficulty, Some(60));
    let seq = w.seq();
    let at = w.state().clock;
    let save = |roll: u32| {
        let command = VsdCommand::Save(SaveRoll {
            target: "the orc".into(),
            wsr: Some(10),
            against: seq,
            cast: Some((
                crate::systems::vsd::rules::Answered::Cast(Box::new(sleep.clone())),
                at,
            )),
        });
        match &w
            .when(Command::System(AnyCommand::Vsd(Box::new(command))), &[roll])
            .unwrap()[0]
        {
            Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(s))) => (s.total, s.resisted),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(save(50), (60, false), "equal is not enough");
    assert_eq!(save(51), (61, true));
    let bran = VsdCommand::Save(SaveRoll {
        target: "Bran".into(),
        wsr: None,
        against: seq,
        cast: Some((
            crate::systems::vsd::rules::Answered::Cast(Box::new(sleep.clone())),
            at,
        )),
    });
    match &w.vsd(bran, &[30])[0] {
        Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(s))) => {
            assert_eq!((s.wsr, s.total, s.resisted), (20, 50, false))
        }
        other => panic!("{other:?}"),
    }
    assert!(w.on("Bran").contains_key("sleep"));
    let no_wsr = VsdCommand::Save(SaveRoll {
        target: "a goblin".into(),
        wsr: None,
        against: seq,
        cast: Some((
            crate::systems::vsd::rules::Answered::Cast(Box::new(sleep)),
            at,
        )),
    });
    assert_eq!(
        w.refused(no_wsr, &[30]),
        RuleError::System(AnyError::Vsd(VsdError::WsrNeeded("a goblin".into())))
    );
}

// ---- VSD-8: stacking -----------------------------------------------------------------------------

#[test]
fn vsd8_only_the_latest_casting_of_a_spell_applies_but_different_spells_stack() {
    let mut w = world();
    w.vsd(cast_with("Shield", |o| o.target = "Bran".into()), &[50]);
    let first = w.seq();
    w.next_round();
    w.vsd(cast_with("Shield", |o| o.target = "Bran".into()), &[60]);
    let second = w.seq();
    let bran = w.on("Bran");
    assert_eq!(bran.len(), 1);
    assert_eq!(bran["shield"].cast_seq, second);
    assert_ne!(first, second);
    w.next_round();
    w.vsd(cast_with("Sleep", |o| o.target = "Bran".into()), &[50]);
    let sleep = the_cast(&w.events()[w.events().len() - 1..]).clone();
    let seq = w.seq();
    let at = w.state().clock;
    w.vsd(
        VsdCommand::Save(SaveRoll {
            target: "Bran".into(),
            wsr: None,
            against: seq,
            cast: Some((
                crate::systems::vsd::rules::Answered::Cast(Box::new(sleep)),
                at,
            )),
        }),
        &[10],
    );
    assert_eq!(w.on("Bran").len(), 2, "Shield and Sleep stack");
}

#[test]
fn vsd7_vsd8_one_save_per_target_per_cast_against_the_newest_casting_and_durations_run_from_the_cast()
 {
    let mut w = world();
    let sleep_on_bran = |w: &mut World| {
        w.vsd(cast_with("Sleep", |o| o.target = "Bran".into()), &[50]);
        let cast = the_cast(&w.events()[w.events().len() - 1..]).clone();
        (w.seq(), cast, w.state().clock)
    };
    let save = |against: Seq, cast: &SpellCast, at| {
        VsdCommand::Save(SaveRoll {
            target: "Bran".into(),
            wsr: None,
            against,
            cast: Some((
                crate::systems::vsd::rules::Answered::Cast(Box::new(cast.clone())),
                at,
            )),
        })
    };
    let (first, first_cast, first_at) = sleep_on_bran(&mut w);
    // Two rounds pass before Bran's save: Sleep's ten minutes still run from the cast.
    w.next_round();
    w.next_round();
    let events = w.vsd(save(first, &first_cast, first_at), &[10]);
    let Event::System(AnyEvent::Vsd(VsdEvent::SaveRolled(failed))) = &events[0] else {
        panic!("{events:?}")
    };
    assert!(!failed.resisted);
    assert_eq!(failed.active_until, Some(first_at.after(GameDuration(600))));
    // A second save against the same cast is refused.
    assert!(matches!(
        w.refused(save(first, &first_cast, first_at), &[90]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { why, .. })) if why.contains("already saved")
    ));
    // A newer casting replaces it; a save against the older one is refused and cannot bring it back.
    w.next_round();
    let (second, second_cast, second_at) = sleep_on_bran(&mut w);
    assert!(matches!(
        w.refused(save(first, &first_cast, first_at), &[90]),
        RuleError::System(AnyError::Vsd(VsdError::NoSaveNeeded { why, .. })) if why.contains("only the newest casting counts")
    ));
    w.vsd(save(second, &second_cast, second_at), &[10]);
    assert_eq!(w.on("Bran")["sleep"].cast_seq, second);
}

#[test]
fn vsd8_an_instantaneous_spell_is_never_in_force_and_spells_hold_on_the_other_system_too() {
    let mut w = world();
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet: Sheet::Adg(crate::systems::adg::sheet::AdgSheet {
                level: 1,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 6,
                silver: 0,
                knows: Vec::new(),
            }),
        },
        &[],
    );
    w.vsd(cast_with("Light", |o| o.target = "Bran".into()), &[50]);
    assert!(
        w.on("Bran").is_empty(),
        "an instantaneous spell did its work once cast"
    );
    w.next_round();
    w.vsd(cast_with("Shield", |o| o.target = "Aldric".into()), &[50]);
    let aldric = w.on("Aldric");
    assert_eq!(
        aldric["shield"].caster, "Mira",
        "an ADG character carries a VsD spell"
    );
}
