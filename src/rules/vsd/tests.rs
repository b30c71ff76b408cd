//! Given / when / then tests for every Against the Darkmaster clause of docs/rules.md, with entered dice.

use super::consequences::{failure_pending, roll_resonance};
use super::*;
use crate::dice::Dice;
use crate::event::Event;
use crate::event::vsd::{Outcome, SpellCast};
use crate::rules::Command;
use crate::rules::rest::RestLength;
use crate::rules::testkit::Log;
use crate::sheet::{Lore, Sheet, VsdSheet};
use crate::state::vsd::VsdState;
use crate::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;

type World = Log;

fn vsd_sheet(level: u32, vocation: &str, bonus: i32, ranks: u32, body: i32) -> Sheet {
    Sheet::Vsd(VsdSheet {
        level,
        vocation: vocation.into(),
        lores: vec![Lore {
            name: "Elementalism".into(),
            bonus,
            ranks,
        }],
        mp: 12,
        drive: 3,
        body,
        wsr: 20,
        defense: 10,
        health: None,
    })
}

fn spell(name: &str, weave: u32, kind: SpellKind) -> SpellDef {
    SpellDef {
        name: name.into(),
        lore: "Elementalism".into(),
        weave,
        kind,
        tags: vec![],
        instantaneous: false,
        save: false,
        attack: None,
        mp: None,
        duration: None,
    }
}

/// Mira: level 3 wizard, Elementalism +45 with 6 ranks, 12 MP, Drive 3, Body 40, WSR +20.
/// Bran: level 2 animist, Elementalism +30 (2 ranks). Tom: level 5 warrior, Elementalism +10 (6 ranks).
/// Mira knows Shield (W2 defensive, 10 minutes), Sleep (W1 enchantment, save), Light (W1 utility,
/// light, instantaneous), Fire Bolt (W2 elemental bolt), Ember (W1 elemental), Storm (W5 elemental).
fn world() -> World {
    let mut w = Log::campaign();
    w.then(
        Command::AddCharacter {
            name: "Mira".into(),
            sheet: vsd_sheet(3, "wizard", 45, 6, 40),
        },
        &[],
    );
    w.then(
        Command::AddCharacter {
            name: "Bran".into(),
            sheet: vsd_sheet(2, "animist", 30, 2, 30),
        },
        &[],
    );
    w.then(
        Command::AddCharacter {
            name: "Tom".into(),
            sheet: vsd_sheet(5, "warrior", 10, 6, 30),
        },
        &[],
    );
    let shield = SpellDef {
        duration: Some(GameDuration(600)),
        ..spell("Shield", 2, SpellKind::Defensive)
    };
    let sleep = SpellDef {
        save: true,
        duration: Some(GameDuration(600)),
        ..spell("Sleep", 1, SpellKind::Enchantment)
    };
    let light = SpellDef {
        instantaneous: true,
        tags: vec![Tag::Light],
        ..spell("Light", 1, SpellKind::Utility)
    };
    let bolt = SpellDef {
        attack: Some(AttackKind::Bolt),
        ..spell("Fire Bolt", 2, SpellKind::Elemental)
    };
    for s in [
        shield,
        sleep,
        light,
        bolt,
        spell("Ember", 1, SpellKind::Elemental),
        spell("Storm", 5, SpellKind::Elemental),
    ] {
        w.vsd(
            VsdCommand::Learn {
                character: "Mira".into(),
                spell: s,
            },
            &[],
        );
    }
    w
}

/// Mira concentrates a round on `spell`.
fn concentrate(spell: &str) -> VsdCommand {
    VsdCommand::Concentrate {
        character: "Mira".into(),
        spell: spell.into(),
    }
}

fn cast(spell: &str) -> VsdCommand {
    cast_by("Mira", spell, |_| {})
}

fn cast_with(spell: &str, change: impl FnOnce(&mut CastOrder)) -> VsdCommand {
    cast_by("Mira", spell, change)
}

fn cast_by(who: &str, spell: &str, change: impl FnOnce(&mut CastOrder)) -> VsdCommand {
    let mut order = CastOrder {
        target: "the orc".into(),
        ..CastOrder::default()
    };
    change(&mut order);
    VsdCommand::Cast {
        character: who.into(),
        spell: spell.into(),
        order,
    }
}

fn the_cast(events: &[Event]) -> &SpellCast {
    events
        .iter()
        .find_map(|e| {
            if let Event::SpellCast(c) = e {
                Some(c)
            } else {
                None
            }
        })
        .expect("a cast")
}

/// Against the Darkmaster helpers on the test log.
trait VsdWorld {
    fn vsd(&mut self, command: VsdCommand, rolls: &[u32]) -> Vec<Event>;
    fn refused(&self, command: VsdCommand, rolls: &[u32]) -> RuleError;
    fn next_round(&mut self);
    fn of(&self, name: &str) -> VsdState;
    /// The spells in force on a character of either system.
    fn on(&self, name: &str) -> BTreeMap<String, crate::state::vsd::ActiveSpell>;
}

impl VsdWorld for World {
    fn vsd(&mut self, command: VsdCommand, rolls: &[u32]) -> Vec<Event> {
        self.then(Command::Vsd(Box::new(command)), rolls)
    }

    fn refused(&self, command: VsdCommand, rolls: &[u32]) -> RuleError {
        self.when(Command::Vsd(Box::new(command)), rolls)
            .expect_err("the command is refused")
    }

    fn next_round(&mut self) {
        self.then(
            Command::AdvanceClock {
                by: GameDuration(6),
            },
            &[],
        );
    }

    fn of(&self, name: &str) -> VsdState {
        self.state().character(name).unwrap().vsd.clone().unwrap()
    }

    fn on(&self, name: &str) -> BTreeMap<String, crate::state::vsd::ActiveSpell> {
        self.state().character(name).unwrap().spells_on.clone()
    }
}

fn choose(choices: &[Choice]) -> VsdCommand {
    VsdCommand::Choose {
        character: "Mira".into(),
        choices: choices.to_vec(),
    }
}

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
        RuleError::UnknownSpell { .. }
    ));
    assert!(matches!(
        w.refused(cast("Storm"), &[50]),
        RuleError::WeaveAboveLevel {
            weave: 5,
            level: 3,
            ..
        }
    ));
    assert_eq!(
        w.refused(cast_with("Shield", |o| o.cannot_see = true), &[50]),
        RuleError::CannotSee("Mira".into())
    );
    assert_eq!(
        w.refused(cast_with("Shield", |o| o.silenced = true), &[50]),
        RuleError::CannotSpeak("Mira".into())
    );
    w.vsd(
        VsdCommand::Learn {
            character: "Mira".into(),
            spell: SpellDef {
                mp: Some(20),
                ..spell("Meteor", 3, SpellKind::Elemental)
            },
        },
        &[],
    );
    assert_eq!(
        w.refused(cast("Meteor"), &[50]),
        RuleError::NotEnoughMp {
            name: "Mira".into(),
            has: 12,
            cost: 20
        }
    );
    w.vsd(cast("Light"), &[50]);
    assert_eq!(
        w.refused(cast("Light"), &[50]),
        RuleError::RoundUsed("Mira".into()),
        "one spell per round"
    );
    w.next_round();
    w.vsd(cast("Shield"), &[10]);
    w.next_round();
    assert_eq!(
        w.refused(cast("Light"), &[50]),
        RuleError::ChoicePending("Mira".into())
    );
}

// ---- VSD-3: concentration ------------------------------------------------------------------------

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
        VsdCommand::Interrupt {
            character: "Mira".into(),
        },
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
            VsdCommand::Interrupt {
                character: "Mira".into()
            },
            &[]
        ),
        RuleError::NotConcentrating("Mira".into())
    );
}

#[test]
fn vsd3_instantaneous_spells_gain_nothing_from_concentration_and_are_never_improvised() {
    let mut w = world();
    let err = w.refused(concentrate("Light"), &[]);
    assert_eq!(
        err,
        RuleError::InstantaneousNeedsNoConcentration("Light".into())
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
            .when(Command::Vsd(Box::new(cast_with("Light", change))), &[50])
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
        VsdCommand::Save {
            target: "the orc".into(),
            wsr: Some(5),
            against: seq,
            cast: Some((cast, at)),
        },
        &[50],
    );
    assert!(matches!(err, RuleError::NoSaveNeeded { .. }));
}

#[test]
fn vsd5_an_outstanding_success_offers_half_cost_rounded_up_or_a_free_warping() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn {
            character: "Mira".into(),
            spell: SpellDef {
                save: true,
                ..spell("Wall", 3, SpellKind::Defensive)
            },
        },
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

// ---- VSD-6: magic points -------------------------------------------------------------------------

#[test]
fn vsd6_mps_are_spent_on_casting_and_restored_by_rest() {
    let mut w = world();
    w.vsd(cast("Shield"), &[60]);
    w.next_round();
    w.vsd(
        VsdCommand::Learn {
            character: "Mira".into(),
            spell: SpellDef {
                mp: Some(5),
                ..spell("Blink", 1, SpellKind::Utility)
            },
        },
        &[],
    );
    w.vsd(cast("Blink"), &[60]);
    assert_eq!(w.of("Mira").mp_current(), 12 - 2 - 5);
    w.then(
        Command::Rest {
            characters: vec!["Mira".into()],
            length: RestLength::Hours(4),
        },
        &[],
    );
    assert_eq!(
        w.of("Mira").mp_current(),
        11,
        "4 hours restore floor(12 × 4 / 8) = 6, up to the maximum"
    );
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[],
    );
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
fn vsd7_a_save_must_beat_the_difficulty() {
    let mut w = world();
    let events = w.vsd(cast("Sleep"), &[50]);
    let sleep = the_cast(&events).clone();
    assert_eq!(sleep.save_difficulty, Some(60));
    let seq = w.seq();
    let at = w.state().clock;
    let save = |roll: u32| {
        let command = VsdCommand::Save {
            target: "the orc".into(),
            wsr: Some(10),
            against: seq,
            cast: Some((sleep.clone(), at)),
        };
        match &w.when(Command::Vsd(Box::new(command)), &[roll]).unwrap()[0] {
            Event::SaveRolled(s) => (s.total, s.resisted),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(save(50), (60, false), "equal is not enough");
    assert_eq!(save(51), (61, true));
    let bran = VsdCommand::Save {
        target: "Bran".into(),
        wsr: None,
        against: seq,
        cast: Some((sleep.clone(), at)),
    };
    match &w.vsd(bran, &[30])[0] {
        Event::SaveRolled(s) => assert_eq!((s.wsr, s.total, s.resisted), (20, 50, false)),
        other => panic!("{other:?}"),
    }
    assert!(w.on("Bran").contains_key("sleep"));
    let no_wsr = VsdCommand::Save {
        target: "a goblin".into(),
        wsr: None,
        against: seq,
        cast: Some((sleep, at)),
    };
    assert_eq!(
        w.refused(no_wsr, &[30]),
        RuleError::WsrNeeded("a goblin".into())
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
    let sleep = the_cast(&w.events[w.events.len() - 1..]).clone();
    let seq = w.seq();
    let at = w.state().clock;
    w.vsd(
        VsdCommand::Save {
            target: "Bran".into(),
            wsr: None,
            against: seq,
            cast: Some((sleep, at)),
        },
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
        let cast = the_cast(&w.events[w.events.len() - 1..]).clone();
        (w.seq(), cast, w.state().clock)
    };
    let save = |against: u64, cast: &SpellCast, at| VsdCommand::Save {
        target: "Bran".into(),
        wsr: None,
        against,
        cast: Some((cast.clone(), at)),
    };
    let (first, first_cast, first_at) = sleep_on_bran(&mut w);
    // Two rounds pass before Bran's save: Sleep's ten minutes still run from the cast.
    w.next_round();
    w.next_round();
    let events = w.vsd(save(first, &first_cast, first_at), &[10]);
    let Event::SaveRolled(failed) = &events[0] else {
        panic!("{events:?}")
    };
    assert!(!failed.resisted);
    assert_eq!(failed.active_until, Some(first_at.after(GameDuration(600))));
    // A second save against the same cast is refused.
    assert!(matches!(
        w.refused(save(first, &first_cast, first_at), &[90]),
        RuleError::NoSaveNeeded { why, .. } if why.contains("already saved")
    ));
    // A newer casting replaces it; a save against the older one is refused and cannot bring it back.
    w.next_round();
    let (second, second_cast, second_at) = sleep_on_bran(&mut w);
    assert!(matches!(
        w.refused(save(first, &first_cast, first_at), &[90]),
        RuleError::NoSaveNeeded { why, .. } if why.contains("only the newest casting counts")
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
            sheet: Sheet::Adg(crate::sheet::AdgSheet {
                level: 1,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 6,
                silver: 0,
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
            .when(Command::Vsd(Box::new(cast("Ember"))), &[3, 40, die])
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
    let base = || crate::event::vsd::Pending {
        about: String::new(),
        by: "caster".into(),
        options: vec![],
        pick: 1,
        cast_seq: 1,
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
fn a_held_shield(w: &mut World) -> u64 {
    w.vsd(
        cast_with("Shield", |o| o.target = "Bran".into()),
        &[3, 40, 70],
    );
    let failed = w.seq();
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    failed
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
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::DelayedSpellResolved(d) => Some(d.clone()),
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
        .events
        .iter()
        .find_map(|e| match e {
            Event::DelayedSpellResolved(d) => Some(d.clone()),
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
        VsdCommand::ClearCondition {
            character: "Mira".into(),
            condition: Condition::Stunned,
        },
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
        .events
        .iter()
        .find(|e| matches!(e, Event::DelayedSpellResolved(_)))
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
        RuleError::InstantaneousNeedsNoConcentration(_)
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
        VsdCommand::Learn {
            character: "Mira".into(),
            spell: spell("Quake", 3, SpellKind::Elemental),
        },
        &[],
    );
    w.vsd(cast("Quake"), &[3, 40, 40]);
    w.vsd(choose(&[Choice::LoseHalfMps]), &[]);
    assert_eq!(w.of("Mira").mp_current(), 10, "half of 3, rounded up");
    w.next_round();
    w.vsd(cast("Quake"), &[3, 40, 30]);
    w.vsd(choose(&[Choice::FiresLater]), &[]);
    assert_eq!(
        w.of("Mira").delayed.as_ref().map(|d| d.fires_at_round),
        Some(3)
    );
    w.next_round();
    // 90 + 50 = 140: two of lose-mps, other-target, resonance (+20): resonance d100 10 + 3 + 20 = 33.
    w.vsd(cast("Quake"), &[3, 40, 90]);
    assert!(
        matches!(
            w.refused(choose(&[Choice::LoseMps]), &[]),
            RuleError::InvalidChoice { .. }
        ),
        "two are needed"
    );
    let made = w.vsd(choose(&[Choice::LoseMps, Choice::Resonance]), &[10]);
    let Event::ChoiceMade(made) = &made[0] else {
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
        VsdCommand::Learn {
            character: "Mira".into(),
            spell: spell("Doom", 1, SpellKind::Dark),
        },
        &[],
    );
    // Dark +50 with a failure d100 of 100: 150 → two of lose-mps, other-target, resonance.
    w.vsd(cast_with("Doom", |o| o.gm_modifier = -20), &[3, 40, 100]);
    w.vsd(choose(&[Choice::OtherTarget, Choice::LoseMps]), &[]);
    assert_eq!(w.of("Mira").mp_current(), 11);
    // The 151+ band comes from the pure table (a d100 + 50 cannot pass 150).
    let mut world_ko = world();
    world_ko.events.push(Event::SpellCast(SpellCast {
        pending: vec![crate::event::vsd::Pending {
            about: "spell failure (160)".into(),
            by: "caster".into(),
            options: vec![
                Choice::LoseMpsAndWeary,
                Choice::OtherTarget,
                Choice::Resonance,
                Choice::KnockedOut,
            ],
            pick: 2,
            cast_seq: 11,
            spell: "Ember".into(),
            place: Place::Normal,
            affected: vec!["Mira".into()],
            mp_cost: 1,
            weave: 1,
            resonance_bonus: 50,
            target: None,
            cast_at: None,
        }],
        ..the_cast(
            &world_ko
                .when(Command::Vsd(Box::new(cast("Ember"))), &[3, 40, 60])
                .unwrap(),
        )
        .clone()
    }));
    world_ko.vsd(choose(&[Choice::KnockedOut, Choice::LoseMpsAndWeary]), &[]);
    let mira = world_ko.of("Mira");
    let now = world_ko.state().clock;
    assert!(
        mira.has_condition(Condition::KnockedOut, now) && mira.has_condition(Condition::Weary, now)
    );
    world_ko.then(
        Command::AdvanceClock {
            by: GameDuration(6 * 3600),
        },
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

// ---- VSD-10: resonance ---------------------------------------------------------------------------

#[test]
fn vsd10_a_double_on_the_first_die_brings_resonance_but_not_100_or_later_dice() {
    let w = world();
    let with = |rolls: &[u32]| {
        the_cast(
            &w.when(Command::Vsd(Box::new(cast("Shield"))), rolls)
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
        let storm = spell("Storm", weave, SpellKind::Elemental);
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

#[test]
fn vsd10_resonance_modifiers_by_place_and_spell() {
    let total = |s: SpellDef, place: Place| {
        let mut rng = StdRng::seed_from_u64(1);
        let mut dice = Dice::entered(vec![50], &mut rng);
        roll_resonance(&mut dice, &mut vec![], &s, place, 0, 0, "test")
            .unwrap()
            .total
    };
    let plain = spell("Plain", 1, SpellKind::Utility);
    assert_eq!(total(plain.clone(), Place::Normal), 51);
    assert_eq!(total(plain.clone(), Place::Haven), 31);
    assert_eq!(total(plain.clone(), Place::Blighted), 71);
    assert_eq!(
        total(spell("Mend", 1, SpellKind::Healing), Place::Normal),
        31
    );
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
    assert_eq!(total(spell("Curse", 1, SpellKind::Dark), Place::Normal), 81);
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
    w.vsd(choose(&[Choice::LoseRemainingMps]), &[]);
    assert!(mps_before > 0);
    assert_eq!(w.of("Mira").mp_current(), 0);
    assert!(w.of("Mira").pending.is_empty());
}

#[test]
fn vsd10_nature_magic_counts_as_natural_for_resonance() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = Dice::entered(vec![50], &mut rng);
    let nature = spell("Barkskin", 1, SpellKind::Nature);
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
        Command::AdvanceClock {
            by: GameDuration(3600),
        },
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
            VsdCommand::Sever {
                character: "Mira".into()
            },
            &[50]
        ),
        RuleError::SeverOff
    );
    w.vsd(VsdCommand::SetSever(true), &[]);
    let once = w.vsd(
        VsdCommand::Sever {
            character: "Mira".into(),
        },
        &[90],
    );
    let Event::ThreadSevered(once) = &once[0] else {
        panic!()
    };
    assert_eq!((once.severs, once.resonance.total), (1, 90 + 2 - 20));
    let twice = w.vsd(
        VsdCommand::Sever {
            character: "Mira".into(),
        },
        &[90],
    );
    let Event::ThreadSevered(twice) = &twice[0] else {
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
        VsdCommand::Sever {
            character: "Mira".into(),
        },
        &[10],
    );
    assert_eq!(
        w.refused(
            VsdCommand::Sever {
                character: "Mira".into()
            },
            &[10]
        ),
        RuleError::NoDrive("Mira".into())
    );
    assert!(matches!(
        w.refused(
            VsdCommand::Sever {
                character: "Bran".into()
            },
            &[10]
        ),
        RuleError::NoResonance(_)
    ));
}

// ---- VSD-12: overcasting -------------------------------------------------------------------------

#[test]
fn vsd12_only_wizards_and_animists_with_enough_ranks_overcast() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn {
            character: "Tom".into(),
            spell: spell("Storm", 6, SpellKind::Elemental),
        },
        &[],
    );
    let err = w.refused(
        cast_by("Tom", "Storm", |o| {
            o.overcast = Some(OvercastOrder::Sacrifice)
        }),
        &[50],
    );
    assert_eq!(
        err,
        RuleError::CannotOvercast {
            name: "Tom".into(),
            vocation: "warrior".into()
        }
    );
    w.vsd(
        VsdCommand::Learn {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        },
        &[],
    );
    let err = w.refused(
        cast_by("Bran", "Storm", |o| {
            o.overcast = Some(OvercastOrder::Sacrifice)
        }),
        &[50],
    );
    assert!(matches!(
        err,
        RuleError::TooFewRanks {
            ranks: 2,
            weave: 5,
            ..
        }
    ));
    let err = w.refused(
        cast_with("Shield", |o| o.overcast = Some(OvercastOrder::Sacrifice)),
        &[50],
    );
    assert!(matches!(err, RuleError::NoNeedToOvercast { .. }));
}

#[test]
fn vsd12_a_sacrifice_spends_drive_and_takes_soul_damage_per_weave_over() {
    let mut w = world();
    // Storm W5 at Level 3: two d10s of soul damage (3+1, 4+1), then the roll at -20 and improvised -10.
    let events = w.vsd(
        cast_with("Storm", |o| o.overcast = Some(OvercastOrder::Sacrifice)),
        &[3, 4, 60],
    );
    let c = the_cast(&events);
    assert_eq!(c.overcast.as_ref().unwrap().soul_damage, 9);
    assert_eq!(c.total, 60 + 45 - 10 - 20);
    let mira = w.of("Mira");
    assert_eq!(
        (mira.drive, mira.body, mira.soul_damage, mira.mp_current()),
        (2, 31, 9, 7)
    );

    let mut frail = world();
    frail.then(
        Command::AddCharacter {
            name: "Wisp".into(),
            sheet: vsd_sheet(1, "wizard", 40, 6, 5),
        },
        &[],
    );
    frail.vsd(
        VsdCommand::Learn {
            character: "Wisp".into(),
            spell: spell("Storm", 2, SpellKind::Elemental),
        },
        &[],
    );
    let events = frail.vsd(
        cast_by("Wisp", "Storm", |o| {
            o.overcast = Some(OvercastOrder::Sacrifice)
        }),
        &[5, 60],
    );
    assert!(the_cast(&events).consumed, "Body 5 - 6 soul damage");
    assert_eq!(
        frail.refused(cast_by("Wisp", "Storm", |_| {}), &[50]),
        RuleError::Dead("Wisp".into())
    );
    let mut broke = world();
    broke.vsd(
        VsdCommand::Drive {
            character: "Mira".into(),
            delta: -3,
            reason: "spent".into(),
        },
        &[],
    );
    let err = broke.refused(
        cast_with("Storm", |o| o.overcast = Some(OvercastOrder::Sacrifice)),
        &[1, 1, 50],
    );
    assert_eq!(err, RuleError::NoDrive("Mira".into()));
}

#[test]
fn vsd12_a_ritual_allows_one_weave_per_other_participant_and_shares_a_failure() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        },
        &[],
    );
    let one = |who: &[&str]| {
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastOrder::Ritual(
                who.iter().map(|s| s.to_string()).collect(),
            ))
        })
    };
    assert!(
        matches!(
            w.refused(one(&["Bran"]), &[50]),
            RuleError::RitualParticipants(_)
        ),
        "two Weaves over need two others"
    );
    assert!(
        matches!(
            w.refused(one(&["Bran", "Tom"]), &[50]),
            RuleError::RitualParticipants(_)
        ),
        "Tom does not know Storm"
    );
    w.vsd(
        VsdCommand::Learn {
            character: "Tom".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        },
        &[],
    );
    let events = w.vsd(one(&["Bran", "Tom"]), &[3, 40, 10]);
    let c = the_cast(&events);
    assert_eq!(c.outcome, Outcome::Failure);
    let stunned: Vec<&str> = c.conditions.iter().map(|c| c.character.as_str()).collect();
    assert_eq!(stunned, vec!["Mira", "Bran", "Tom"]);
}

#[test]
fn vsd12_ritual_participants_spend_the_round_concentrating() {
    let mut w = world();
    for who in ["Bran", "Tom"] {
        w.vsd(
            VsdCommand::Learn {
                character: who.into(),
                spell: spell("Storm", 5, SpellKind::Elemental),
            },
            &[],
        );
    }
    let ritual = || {
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastOrder::Ritual(vec!["Bran".into(), "Tom".into()]))
        })
    };
    // A helper who already cast this round cannot also concentrate on the ritual.
    w.vsd(
        VsdCommand::Learn {
            character: "Bran".into(),
            spell: spell("Ember", 1, SpellKind::Elemental),
        },
        &[],
    );
    w.vsd(cast_by("Bran", "Ember", |_| {}), &[50]);
    let refused = w.refused(ritual(), &[50]);
    assert!(
        matches!(&refused, RuleError::RitualParticipants(why) if why.contains("Bran has already acted")),
        "{refused:?}"
    );
    // In a fresh round the ritual goes ahead, and no participant can cast in that round after it.
    w.next_round();
    w.vsd(ritual(), &[60]);
    assert_eq!(
        w.refused(cast_by("Tom", "Storm", |_| {}), &[50]),
        RuleError::RoundUsed("Tom".into())
    );
}

#[test]
fn vsd12_a_ritual_fits_its_own_allowance_not_the_alignments_added() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        },
        &[],
    );
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    // Storm is two Weaves over Mira's Level: one helper allows one, and Benefic's three are not added.
    let refused = w.refused(
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastOrder::Ritual(vec!["Bran".into()]))
        }),
        &[50],
    );
    assert!(
        matches!(refused, RuleError::RitualParticipants(_)),
        "{refused:?}"
    );
    // Under Benefic alone (no ritual) the same cast fits.
    let events = w.vsd(cast("Storm"), &[50]);
    assert_eq!(
        the_cast(&events).overcast.as_ref().unwrap().method,
        "alignment"
    );
}

#[test]
fn vsd12_celestial_alignments_widen_or_tax_casting() {
    let mut w = world();
    w.vsd(VsdCommand::SetAlignment(Alignment::Auspicious), &[]);
    assert!(
        matches!(
            w.refused(cast("Storm"), &[50]),
            RuleError::WeaveAboveLevel { .. }
        ),
        "auspicious allows 1"
    );
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    let events = w.vsd(cast("Storm"), &[50]);
    assert_eq!(
        the_cast(&events).overcast.as_ref().unwrap().method,
        "alignment"
    );
    w.next_round();
    w.vsd(VsdCommand::SetAlignment(Alignment::Malefic), &[]);
    assert_eq!(the_cast(&w.vsd(cast("Shield"), &[60])).mp_spent, 3);
    w.next_round();
    w.vsd(VsdCommand::SetAlignment(Alignment::Disastrous), &[]);
    let events = w.vsd(cast("Shield"), &[60]);
    assert_eq!(
        (the_cast(&events).mp_spent, the_cast(&events).total),
        (3, 60 + 45 - 10 - 10)
    );
}

// ---- VSD-13: conditions --------------------------------------------------------------------------

#[test]
fn vsd13_conditions_have_a_start_and_an_end_and_the_gm_can_clear_them() {
    let mut w = world();
    w.vsd(cast("Ember"), &[3, 40, 20]);
    let now = w.state().clock;
    assert!(w.of("Mira").has_condition(Condition::Stunned, now));
    w.next_round();
    w.next_round();
    assert!(
        !w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock),
        "over after two rounds"
    );
    w.vsd(cast("Ember"), &[3, 40, 20]);
    w.vsd(
        VsdCommand::ClearCondition {
            character: "Mira".into(),
            condition: Condition::Stunned,
        },
        &[],
    );
    assert!(
        !w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock)
    );
    let err = w.refused(
        VsdCommand::ClearCondition {
            character: "Mira".into(),
            condition: Condition::Weary,
        },
        &[],
    );
    assert!(matches!(err, RuleError::NoSuchCondition { .. }));
}

// ---- VSD-14: bolt and area spells ----------------------------------------------------------------

#[test]
fn vsd14_a_bolt_is_an_attack_roll_less_the_targets_defense() {
    let w = world();
    let at_orc = w
        .when(
            Command::Vsd(Box::new(cast_with("Fire Bolt", |o| o.defense = Some(25)))),
            &[60],
        )
        .unwrap();
    let c = the_cast(&at_orc);
    assert_eq!(
        (c.outcome, c.total, c.mp_spent),
        (Outcome::Attack, 60 + 45 - 10 - 25, 2)
    );
    let at_bran = w
        .when(
            Command::Vsd(Box::new(cast_with("Fire Bolt", |o| {
                o.target = "Bran".into()
            }))),
            &[60],
        )
        .unwrap();
    assert_eq!(
        the_cast(&at_bran).total,
        60 + 45 - 10 - 10,
        "a character's own Defense"
    );
}

#[test]
fn vsd14_attack_spells_take_their_own_range_table_and_the_casting_table_its_bands() {
    let w = world();
    let total = |spell: &str, range: &str| {
        let range: Range = range.parse().unwrap();
        w.when(
            Command::Vsd(Box::new(cast_with(spell, |o| {
                o.range = range;
                o.defense = Some(0)
            }))),
            &[60],
        )
        .map(|events| the_cast(&events).total - (60 + 45 - 10))
    };
    for (range, attack) in [
        ("touch", 35),
        ("3", 35),
        ("4", 10),
        ("10", 10),
        ("11", 0),
        ("20", 0),
        ("21", -20),
        ("30", -20),
    ] {
        assert_eq!(total("Fire Bolt", range), Ok(attack), "a bolt at {range}");
    }
    for range in ["31", "90", "far"] {
        assert!(
            matches!(total("Fire Bolt", range), Err(RuleError::OutOfReach { .. })),
            "{range}"
        );
    }
    // The casting table keeps its own bands: 12 m is 4–15 m, no modifier; a bolt there has 0 too.
    assert_eq!(total("Ember", "12"), Ok(0));
    assert_eq!(total("Ember", "3"), Ok(10));
    assert_eq!(total("Ember", "touch"), Ok(30));
    assert_eq!(total("Ember", "16"), Ok(-10));
    assert!("nearby".parse::<Range>().is_err());
}

#[test]
fn vsd14_an_attack_rolls_first_die_of_01_to_10_is_a_fumble_to_the_failure_table() {
    let w = world();
    // 3 would start a subtracting chain on a casting roll; on an attack it is a fumble, and the
    // next die is the spell failure roll (40 + elemental 50 = 90).
    let events = w
        .when(Command::Vsd(Box::new(cast("Fire Bolt"))), &[3, 40])
        .unwrap();
    let c = the_cast(&events);
    assert_eq!((c.outcome, c.roll), (Outcome::Failure, 3));
    assert_eq!(c.failure.as_ref().unwrap().roll, 40);
    assert_eq!(c.dice.len(), 2, "no open-ended chain after a fumble");
    // 12 is no fumble: the attack stands.
    let events = w
        .when(Command::Vsd(Box::new(cast("Fire Bolt"))), &[12])
        .unwrap();
    assert_eq!(the_cast(&events).outcome, Outcome::Attack);
}

#[test]
fn vsd_commands_on_an_adg_character_are_refused() {
    let mut w = world();
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet: Sheet::Adg(crate::sheet::AdgSheet {
                level: 1,
                agility: 9,
                brawn: 9,
                cunning: 9,
                health: 5,
                silver: 0,
            }),
        },
        &[],
    );
    let err = w.refused(
        VsdCommand::Learn {
            character: "Aldric".into(),
            spell: spell("Shield", 1, SpellKind::Defensive),
        },
        &[],
    );
    assert!(
        err.to_string()
            .contains("Aldric plays A Dungeon Game; this is an Against the Darkmaster command"),
        "{err}"
    );
}
