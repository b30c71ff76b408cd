//! A held or redirected bolt's attack roll (VSD-9 with VSD-14), and what a retracted failure takes
//! with it (C-2).

use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::ClockAdvance;
use crate::seq::Seq;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::rules::VsdError;

/// Mira fires `spell fire` with `range` and, for a target who is no character, `defense`.
fn fire(range: Range, defense: Option<i64>) -> VsdCommand {
    VsdCommand::Fire(Firing {
        character: "Mira".into(),
        cast: None,
        range,
        gm_modifier: 0,
        defense,
    })
}

fn the_attack(events: &[Event]) -> crate::systems::vsd::event::AttackRolled {
    events
        .iter()
        .find_map(|e| match e {
            Event::System(AnyEvent::Vsd(VsdEvent::AttackRolled(a))) => Some(a.clone()),
            _ => None,
        })
        .expect("an attack roll")
}

/// From the clause review of issue 45 (item 4): a held Fire Bolt that fires owes its attack roll,
/// shown as waiting on Mira until `spell fire` rolls it: open-ended d100 + lore + the attack
/// range's modifier − the target's Defense from their sheet. A second is refused: none is owed.
#[test]
fn vsd9_vsd14_a_held_bolt_that_fires_owes_an_attack_roll_rolled_by_spell_fire() {
    let mut w = world();
    // A fumble (3), then the failure roll 30 + elemental 50 = 80: the spell may be held.
    let failed = {
        w.vsd(
            cast_with("Fire Bolt", |o| o.target = "Tom".into()),
            &[3, 30],
        );
        w.seq()
    };
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    assert_eq!(
        w.refused(fire(Range::Metres(15), None), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::NoAttackDue("Mira".into()))),
        "nothing is owed while the spell is held"
    );
    for _ in 0..2 {
        w.next_round();
        w.vsd(concentrate("Fire Bolt"), &[]);
    }
    let fired = w.then(
        Command::AdvanceClock(ClockAdvance {
            by: crate::time::GameDuration(6),
        }),
        &[],
    );
    let held = fired
        .iter()
        .find_map(|e| match e {
            Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(d))) => Some(d.clone()),
            _ => None,
        })
        .expect("it fires");
    assert!(held.fired && held.attack_due, "{held:?}");
    let due = &w.of("Mira").attacks_due;
    assert_eq!((due.len(), due[0].cast_seq), (1, failed));
    let line = crate::systems::vsd::render::delayed_resolved(&held);
    assert!(line.contains("`grimoire spell fire Mira`"), "{line}");

    let attack = the_attack(&w.vsd(fire(Range::Metres(15), None), &[57]));
    // 57 + Elementalism 45, at 15 m (0), less Tom's Defense 10.
    assert_eq!(
        (
            attack.roll,
            attack.lore_bonus,
            attack.total,
            attack.cast_seq
        ),
        (57, 45, 92, failed)
    );
    assert_eq!(attack.target, "Tom");
    assert!(w.of("Mira").attacks_due.is_empty());
    assert_eq!(
        w.refused(fire(Range::Metres(15), None), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::NoAttackDue("Mira".into())))
    );
}

/// VSD-9 with VSD-14 (ruling): a failed bolt that strikes another target owes its attack roll at
/// them; a character's Defense is their sheet's, not a number typed; the attack range's table
/// applies; a fumble misses, and goes to no failure table again.
#[test]
fn vsd9_vsd14_a_bolt_that_strikes_another_target_owes_its_attack_roll_there() {
    let mut w = world();
    // A fumble (3), then the failure roll 60 + 50 = 110: it may strike another target.
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    w.next_round();
    let made =
        super::failure::made_in(&w.vsd(choose_striking(&[Choice::OtherTarget], "Bran"), &[]));
    assert!(
        made.struck.as_ref().is_some_and(|s| s.attack_due),
        "{made:?}"
    );
    assert_eq!(
        w.refused(fire(Range::Metres(15), Some(5)), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::DefenseOfTheirOwn {
            name: "Bran".into(),
            defense: 10
        }))
    );
    assert!(matches!(
        w.refused(fire(Range::Metres(40), None), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::OutOfReach { .. }))
    ));
    let attack = the_attack(&w.vsd(fire(Range::Metres(3), None), &[4]));
    assert!(attack.fumbled);
    assert_eq!(attack.dice.len(), 1, "a fumble ends the roll");
    // 4 + 45 + 35 at 3 m; a miss takes no Defense off.
    assert_eq!(attack.total, 84);
    let line = crate::systems::vsd::render::attack_rolled(&attack);
    assert!(
        line.contains("a fumble") && line.contains("it misses"),
        "{line}"
    );
    assert!(w.of("Mira").attacks_due.is_empty());
}

/// From the hostile pass: a bolt whose failed cast is retracted after it fired owes nothing (it
/// is not waited on, and `spell fire` refuses); one whose spell is no longer known is refused
/// rather than rolled with no lore bonus.
#[test]
fn vsd9_vsd14_c2_a_bolt_whose_cast_is_retracted_owes_no_attack_roll() {
    let mut w = world();
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    let failed = w.seq();
    w.next_round();
    w.vsd(choose_striking(&[Choice::OtherTarget], "the goblin"), &[]);
    assert_eq!(w.of("Mira").attacks_due.len(), 1);
    let fires = |w: &World| {
        crate::render::waiting(&w.state())
            .iter()
            .any(|line| line.contains("`grimoire spell fire Mira`"))
    };
    assert!(fires(&w), "waited on while owed");
    w.retract(failed, "the wrong caster");
    assert_eq!(
        w.refused(fire(Range::Metres(15), None), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::NoAttackDue("Mira".into())))
    );
    assert!(!fires(&w), "not waited on once its cast is retracted");
}

/// Two bolts owed at once: the table names which with `--cast` (a roll put to a phone is then
/// bound to its bolt, whatever is rolled at the table meanwhile); a cast that owes nothing is
/// refused, naming what is owed.
#[test]
fn vsd9_vsd14_of_two_bolts_owed_spell_fire_rolls_the_one_named() {
    let mut w = world();
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    let first = w.seq();
    w.next_round();
    w.vsd(choose_striking(&[Choice::OtherTarget], "the goblin"), &[]);
    // Stunned through this round, Mira fails again two rounds on.
    w.next_round();
    w.next_round();
    w.vsd(cast("Fire Bolt"), &[3, 60]);
    let second = w.seq();
    w.next_round();
    w.vsd(choose_striking(&[Choice::OtherTarget], "the wolf"), &[]);
    let named = |cast| {
        VsdCommand::Fire(Firing {
            character: "Mira".into(),
            cast,
            range: Range::Metres(15),
            gm_modifier: 0,
            defense: None,
        })
    };
    let which = w.refused(named(None), &[50]);
    assert!(
        matches!(&which, RuleError::System(AnyError::Vsd(VsdError::WhichAttack { owed, .. })) if owed.len() == 2),
        "{which:?}"
    );
    assert!(
        which.to_string().contains(&format!(
            "Fire Bolt at the goblin (from #{first}) and Fire Bolt at the wolf (from #{second}): name the one to roll with --cast SEQ"
        )),
        "{which}"
    );
    assert!(matches!(
        w.refused(named(Some(Seq(1))), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::NotThatAttack { .. }))
    ));
    let attack = the_attack(&w.vsd(named(Some(second)), &[50]));
    assert_eq!(
        (attack.cast_seq, attack.target.as_str()),
        (second, "the wolf")
    );
    // One left: named or not, it is the goblin's.
    let attack = the_attack(&w.vsd(named(None), &[50]));
    assert_eq!(attack.target, "the goblin");
}

/// A bolt held or struck elsewhere before payload version 5 fired with no attack roll: read as
/// its grimoire read it, it owes none, whatever a forged flag says; and no grimoire before wrote
/// an attack roll of this kind.
#[test]
fn vsd14_a_bolt_that_fired_before_payload_version_5_owes_no_attack_roll() {
    let payload = r#"{"kind":"delayed_spell_resolved","caster":"Mira","spell":"Fire Bolt","target":"Tom","cast_seq":9,"fired":true,"mp_spent":2,"took_hold":false,"attack_due":true}"#;
    let read = |version| Event::from_stored("delayed_spell_resolved", version, payload);
    let owes = |event: Event| match event {
        Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(d))) => d.attack_due,
        other => panic!("{other:?}"),
    };
    assert!(!owes(read(4).unwrap()));
    assert!(owes(
        read(crate::systems::vsd::event::ATTACK_DUE_SINCE).unwrap()
    ));
    let attack = r#"{"kind":"attack_rolled","caster":"Mira","spell":"Fire Bolt","target":"Tom","cast_seq":9,"modifiers":[],"lore_bonus":45,"roll":57,"total":102,"dice":[]}"#;
    assert!(Event::from_stored("attack_rolled", 4, attack).is_err());
    assert!(Event::from_stored("attack_rolled", 5, attack).is_ok());
}

/// From the hostile pass, C-2 with VSD-9: a failed cast retracted takes with it what its choice
/// did (the MPs lost, Weary, the strike elsewhere), since the choice answered a cast that never
/// happened; bringing the cast back brings the choice back too.
#[test]
fn c2_vsd9_a_retracted_failure_takes_its_choice_with_it() {
    let mut w = world();
    let mps = w.of("Mira").mp_current();
    // The 151+ row (Ember, elemental +50, failure d100 95 and the GM's +20).
    w.vsd(
        cast_with("Ember", |o| o.failure_modifier = 20),
        &[3, 40, 95],
    );
    let failed = w.seq();
    w.vsd(
        choose_striking(&[Choice::LoseMpsAndWeary, Choice::OtherTarget], "Tom"),
        &[],
    );
    let now = w.state().clock;
    assert!(w.of("Mira").has_condition(Condition::Weary, now));
    assert!(w.of("Mira").mp_current() < mps);
    w.retract(failed, "the wrong caster");
    let retraction = w.seq();
    let now = w.state().clock;
    let mira = w.of("Mira");
    assert!(
        !mira.has_condition(Condition::Weary, now),
        "{:?}",
        mira.conditions
    );
    assert!(!mira.has_condition(Condition::Stunned, now));
    assert_eq!(mira.mp_current(), mps);
    // The retraction undone: the cast, and its choice, stand again.
    let mut undo = w.retraction(retraction, "the wrong caster");
    if let Command::Retract(r) = &mut undo {
        r.restoring = Some((
            failed,
            Box::new(w.events()[failed.get() as usize - 1].clone()),
        ));
    }
    w.then(undo, &[]);
    assert!(
        w.of("Mira")
            .has_condition(Condition::Weary, w.state().clock)
    );
}
