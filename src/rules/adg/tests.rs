//! Given / when / then tests for every A Dungeon Game clause of docs/rules.md. Dice are entered, so each
//! test says exactly what was rolled.

use super::rituals::CastOrder;
use super::*;
use crate::dice::SealedSecret;
use crate::event::Event;
use crate::event::adg::{Activity, PendingOutcome};
use crate::event::adg::{Cast, LearnAttempt, Reading};
use crate::rules::Command;
use crate::rules::rest::RestLength;
use crate::rules::testkit::Log;
use crate::sheet::{AdgSheet, Sheet};
use crate::state::adg::{AdgState, ScrollState};

type World = Log;

fn adg_sheet(level: u32, cunning: u32) -> Sheet {
    Sheet::Adg(AdgSheet {
        level,
        agility: 11,
        brawn: 9,
        cunning,
        health: 8,
        silver: 400,
    })
}

/// A campaign with Aldric: level 2, Agility 11, Brawn 9, Cunning 13, health 8, 400 silver.
fn world() -> World {
    world_with(adg_sheet(2, 13))
}

fn world_with(sheet: Sheet) -> World {
    let mut w = Log::campaign();
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet,
        },
        &[],
    );
    w
}

/// A Dungeon Game helpers on the test log.
trait AdgWorld {
    fn adg(&mut self, command: AdgCommand, rolls: &[u32]) -> Vec<Event>;
    fn refused(&self, command: AdgCommand, rolls: &[u32]) -> RuleError;
    fn aldric(&self) -> AdgState;
    fn health(&self) -> (u32, u32);
    fn knows(&mut self, ritual: &str, kind: RitualKind);
    fn seq_of_last(&self) -> u64;
}

impl AdgWorld for World {
    fn adg(&mut self, command: AdgCommand, rolls: &[u32]) -> Vec<Event> {
        self.then(adg_cmd(command), rolls)
    }

    fn refused(&self, command: AdgCommand, rolls: &[u32]) -> RuleError {
        self.when(adg_cmd(command), rolls)
            .expect_err("the command is refused")
    }

    fn aldric(&self) -> AdgState {
        self.state()
            .character("Aldric")
            .unwrap()
            .adg
            .clone()
            .unwrap()
    }

    fn health(&self) -> (u32, u32) {
        let h = self.state().character("Aldric").unwrap().health.unwrap();
        (h.current, h.max)
    }

    /// Aldric knows `ritual` of `kind` (learning cost 1 from health, check 1).
    fn knows(&mut self, ritual: &str, kind: RitualKind) {
        self.adg(learn(ritual, Some(kind), false), &[1, 1]);
    }

    fn seq_of_last(&self) -> u64 {
        self.seq()
    }
}

fn adg_cmd(command: AdgCommand) -> Command {
    Command::Adg(Box::new(command))
}

fn learn(ritual: &str, kind: Option<RitualKind>, exert: bool) -> AdgCommand {
    AdgCommand::Learn {
        character: "Aldric".into(),
        ritual: ritual.into(),
        kind,
        spell: None,
        pay: Pay::Health,
        exert,
    }
}

fn cast(ritual: &str) -> AdgCommand {
    cast_with(ritual, |_| {})
}

fn cast_with(ritual: &str, change: impl FnOnce(&mut CastOrder)) -> AdgCommand {
    let mut order = CastOrder::default();
    change(&mut order);
    AdgCommand::Cast {
        character: "Aldric".into(),
        ritual: ritual.into(),
        order,
    }
}

fn the_cast(events: &[Event]) -> &Cast {
    events
        .iter()
        .find_map(|e| {
            if let Event::RitualCast(c) = e {
                Some(c)
            } else {
                None
            }
        })
        .expect("a cast")
}

fn the_learning(events: &[Event]) -> &LearnAttempt {
    events
        .iter()
        .find_map(|e| {
            if let Event::RitualLearnAttempted(a) = e {
                Some(a)
            } else {
                None
            }
        })
        .expect("a learning attempt")
}

fn the_reading(events: &[Event]) -> &Reading {
    events
        .iter()
        .find_map(|e| {
            if let Event::ScrollRead { reading, .. } = e {
                Some(reading)
            } else {
                None
            }
        })
        .expect("a reading")
}

/// A scribing week's dice: any sealed check, then the week's seven recovery dice (ones).
fn scribing(check: &[u32]) -> Vec<u32> {
    check.iter().copied().chain([1; 7]).collect()
}

fn write(ritual: &str, level: u32, pre_exert: u32) -> AdgCommand {
    AdgCommand::WriteScroll {
        character: "Aldric".into(),
        ritual: ritual.into(),
        level,
        effect: "reveals hidden doors within 10 m".into(),
        effect_roll: None,
        pre_exert,
        ongoing: false,
    }
}

fn read(scroll: u64, took_damage: bool, sealed: Vec<SealedSecret>) -> AdgCommand {
    AdgCommand::ReadScroll {
        character: "Aldric".into(),
        scroll,
        in_combat: took_damage,
        took_damage,
        target: None,
        sealed,
    }
}

// ---- Characters ----------------------------------------------------------------------------------

#[test]
fn adg_c1_a_check_succeeds_at_or_under_the_current_value_and_exactly_equal_is_exact() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let under = w.when(adg_cmd(cast("Concealing Darkness")), &[12]).unwrap();
    assert!(the_cast(&under).check.success && !the_cast(&under).check.exact);
    let exact = w.when(adg_cmd(cast("Concealing Darkness")), &[13]).unwrap();
    assert!(the_cast(&exact).check.success && the_cast(&exact).check.exact);
    let over = w
        .when(adg_cmd(cast("Concealing Darkness")), &[14, 1, 1])
        .unwrap();
    assert!(!the_cast(&over).check.success);
}

#[test]
fn adg_c1_checks_use_the_current_not_the_maximum_value() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Cunning,
            amount: 4,
            reason: "test".into(),
        },
        &[],
    );
    let events = w
        .when(adg_cmd(cast("Concealing Darkness")), &[10, 1, 1])
        .unwrap();
    assert_eq!(the_cast(&events).check.target, 9);
    assert!(!the_cast(&events).check.success);
}

#[test]
fn adg_c2_a_character_has_level_health_and_silver() {
    let w = world();
    let a = w.aldric();
    assert_eq!((a.level, a.silver, w.health()), (2, 400, (8, 8)));
}

#[test]
fn adg_c3_exertion_lowers_the_current_value_and_keeps_the_maximum() {
    let mut w = world();
    w.adg(
        AdgCommand::Exert {
            character: "aldric".into(),
            attribute: Attribute::Brawn,
            amount: 3,
            reason: "lift".into(),
        },
        &[],
    );
    let a = w.aldric();
    assert_eq!(
        (a.current(Attribute::Brawn), a.max.brawn, a.exerted.brawn),
        (6, 9, 3)
    );
}

#[test]
fn adg_c3_an_exertion_that_would_go_below_one_is_refused() {
    let w = world();
    let err = w.refused(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 9,
            reason: "x".into(),
        },
        &[],
    );
    assert_eq!(
        err,
        RuleError::ExertionTooHigh {
            attribute: "Brawn".into(),
            current: 9,
            amount: 9
        }
    );
    assert!(err.to_string().contains("at most 8 can be exerted"));
}

#[test]
fn adg_c3_a_failed_check_can_be_exerted_by_exactly_the_difference() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let events = w.adg(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.exert = true;
        }),
        &[16],
    );
    let check = &the_cast(&events).check;
    assert!(check.success);
    assert_eq!(check.exerted, 3);
    assert_eq!(w.aldric().current(Attribute::Cunning), 10);
}

#[test]
fn adg_c3_exertion_cannot_rescue_a_roll_that_would_leave_the_attribute_below_one() {
    let mut w = world_with(adg_sheet(2, 3));
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let events = w.adg(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.exert = true;
        }),
        &[6, 1, 1, 1],
    );
    assert!(
        !the_cast(&events).check.success,
        "exerting 3 of 3 would leave 0"
    );
    assert_eq!(the_cast(&events).check.exerted, 0);
}

#[test]
fn adg_c3_saving_throws_are_never_exerted() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    let scroll = w.seq_of_last();
    // Agility 11: a 12 fails the save, and nothing exerts it away.
    let events = w.adg(read(scroll, true, vec![]), &[12, 1]);
    let save = the_reading(&events).agility_save.clone().unwrap();
    assert!(!save.success && save.exerted == 0);
}

#[test]
fn adg_c4_a_maximum_reaching_zero_kills_and_the_dead_cannot_act() {
    let mut w = world_with(Sheet::Adg(AdgSheet {
        level: 1,
        agility: 10,
        brawn: 10,
        cunning: 12,
        health: 2,
        silver: 0,
    }));
    let events = w.adg(
        learn("Concealing Darkness", Some(RitualKind::Phrase), false),
        &[2],
    );
    let attempt = the_learning(&events);
    assert!(
        attempt.died && attempt.check.is_none(),
        "no learning roll after death"
    );
    assert!(w.aldric().dead);
    assert_eq!(w.health(), (0, 0));
    assert_eq!(
        w.refused(cast("Concealing Darkness"), &[1]),
        RuleError::Dead("Aldric".into())
    );
    assert_eq!(
        w.refused(
            AdgCommand::RollRitual {
                character: "Aldric".into()
            },
            &[1, 1]
        ),
        RuleError::Dead("Aldric".into())
    );
}

#[test]
fn adg_c4_damage_and_healing_on_the_dead_are_refused() {
    let mut w = world_with(Sheet::Adg(AdgSheet {
        level: 1,
        agility: 10,
        brawn: 10,
        cunning: 12,
        health: 2,
        silver: 0,
    }));
    w.adg(
        learn("Concealing Darkness", Some(RitualKind::Phrase), false),
        &[2],
    );
    assert!(w.aldric().dead);
    for command in [
        Command::Heal {
            character: "Aldric".into(),
            amount: 1,
        },
        Command::Damage {
            character: "aldric".into(),
            amount: 1,
        },
    ] {
        assert_eq!(w.when(command, &[]), Err(RuleError::Dead("Aldric".into())));
    }
}

#[test]
fn adg_c5_a_nights_rest_heals_by_the_level_recovery_die_capped_at_max() {
    let mut w = world();
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 5,
        },
        &[],
    );
    let events = w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[3],
    );
    assert!(matches!(&events[0], Event::Rested { results, .. } if results[0].healed == 3));
    assert_eq!(w.health(), (6, 8));
    w.then(
        Command::Rest {
            characters: vec!["Aldric".into()],
            length: RestLength::Night,
        },
        &[3],
    );
    assert_eq!(w.health(), (8, 8), "capped");
    assert_eq!(
        w.state().clock.seconds(),
        16 * 3600,
        "each night moves the clock 8 hours"
    );
    // Level 1-2 rolls a d3: a 4 cannot be entered.
    assert!(matches!(
        w.when(
            Command::Rest {
                characters: vec![],
                length: RestLength::Night
            },
            &[4]
        ),
        Err(RuleError::Dice(_))
    ));
}

#[test]
fn adg_c5_a_downtime_week_restores_every_exerted_point_and_moves_the_clock() {
    let mut w = world();
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Agility,
            amount: 4,
            reason: "climb".into(),
        },
        &[],
    );
    w.adg(
        AdgCommand::Downtime {
            character: "Aldric".into(),
            weeks: 2,
        },
        &[1; 14],
    );
    assert_eq!(w.aldric().exerted, crate::state::adg::Attributes::default());
    assert_eq!(w.state().clock.seconds(), 14 * 86_400);
}

#[test]
fn adg_c5_a_downtime_week_heals_as_seven_nights_and_ends_the_daily_count_and_lockout() {
    let mut w = world();
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 8,
        },
        &[],
    );
    assert_eq!(w.health(), (0, 8));
    // Level 2 recovers by d3 a night: seven dice of 1 heal 7 of the 8 lost.
    let events = w.adg(
        AdgCommand::Downtime {
            character: "Aldric".into(),
            weeks: 1,
        },
        &[1; 7],
    );
    let Event::DowntimeTaken(downtime) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(downtime.dice.len(), 7, "every night's die recorded");
    assert_eq!(downtime.characters[0].activities, vec![Activity::Rest]);
    assert_eq!(w.health(), (7, 8));
    // Capped at the maximum: a second week of threes heals only the last point.
    w.adg(
        AdgCommand::Downtime {
            character: "Aldric".into(),
            weeks: 1,
        },
        &[3; 7],
    );
    assert_eq!(w.health(), (8, 8));
}

#[test]
fn adg_s3_a_scribing_weeks_nights_heal_and_end_the_daily_count_but_not_exertion() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[1]);
    assert_eq!(w.aldric().rituals_today, 1);
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 3,
        },
        &[],
    );
    let (before, _) = w.health();
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 2,
            reason: "a heavy door".into(),
        },
        &[],
    );
    w.adg(write("Concealing Darkness", 1, 0), &[2, 2, 2, 2, 2, 2, 2]);
    assert_eq!(w.aldric().rituals_today, 0, "the daily count ended");
    assert_eq!(
        w.health().0,
        (before + 14).min(w.health().1),
        "seven nights healed"
    );
    assert_eq!(
        w.aldric().exerted.brawn,
        2,
        "no exertion recovers while scribing"
    );
}

#[test]
fn adg_c5_house_rules_can_turn_recovery_off() {
    let mut w = world();
    let mut tables = AdgTables::sample();
    tables.settings = tables::Settings {
        night_rest_heals: false,
        downtime_restores_exertion: false,
    };
    w.adg(
        AdgCommand::LoadTables {
            source: "house".into(),
            tables: Box::new(tables),
        },
        &[],
    );
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 2,
        },
        &[],
    );
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Agility,
            amount: 1,
            reason: "x".into(),
        },
        &[],
    );
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[],
    );
    w.adg(
        AdgCommand::Downtime {
            character: "Aldric".into(),
            weeks: 1,
        },
        &[],
    );
    assert_eq!(w.health(), (6, 8));
    assert_eq!(w.aldric().exerted.agility, 1);
}

// ---- Rituals -------------------------------------------------------------------------------------

#[test]
fn adg_r1_a_phrase_fades_a_sigil_lasts_ten_minutes_and_a_ceremony_a_day_per_level() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.knows("Burning Frost", RitualKind::Sigil);
    w.knows("Calling Moon", RitualKind::Ceremony);
    assert_eq!(
        the_cast(&w.adg(cast("Concealing Darkness"), &[5])).effect_until,
        None
    );
    assert_eq!(
        the_cast(&w.adg(cast("Burning Frost"), &[5]))
            .effect_until
            .unwrap()
            .seconds(),
        2 * 600
    );
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[1],
    );
    let until = the_cast(&w.adg(cast("Calling Moon"), &[5]))
        .effect_until
        .unwrap()
        .seconds();
    assert_eq!(until, 8 * 3600 + 2 * 86_400);
}

#[test]
fn adg_r2_rolling_a_ritual_takes_one_word_from_each_list() {
    let mut w = world();
    let events = w.adg(
        AdgCommand::RollRitual {
            character: "Aldric".into(),
        },
        &[4, 4],
    );
    let Event::RitualDiscovered { ritual, dice, .. } = &events[0] else {
        panic!()
    };
    assert_eq!(ritual, "Concealing Darkness");
    assert_eq!(dice.len(), 2);
    assert!(w.aldric().discovered.contains_key("concealing darkness"));
}

#[test]
fn adg_r3_learning_pays_1d3_permanently_then_checks_cunning() {
    let mut w = world();
    let events = w.adg(
        AdgCommand::Learn {
            character: "Aldric".into(),
            ritual: "Concealing Darkness".into(),
            kind: Some(RitualKind::Phrase),
            spell: None,
            pay: Pay::Cunning,
            exert: false,
        },
        &[2, 11],
    );
    let attempt = the_learning(&events);
    assert_eq!(
        (attempt.cost, attempt.check.as_ref().unwrap().target),
        (2, 11),
        "the check uses Cunning after the cost"
    );
    assert!(attempt.learned);
    assert_eq!(w.aldric().max.cunning, 11);
}

#[test]
fn adg_r3_a_failed_learning_roll_loses_the_ritual_forever() {
    let mut w = world();
    w.adg(
        learn("Concealing Darkness", Some(RitualKind::Phrase), false),
        &[1, 18],
    );
    assert!(w.aldric().lost.contains_key("concealing darkness"));
    let err = w.refused(
        learn("concealing darkness", Some(RitualKind::Phrase), false),
        &[1, 1],
    );
    assert_eq!(
        err,
        RuleError::LostForever {
            name: "Aldric".into(),
            ritual: "Concealing Darkness".into()
        }
    );
}

#[test]
fn adg_r3_a_known_ritual_cannot_be_learned_again_and_learning_may_be_exerted() {
    let mut w = world();
    let events = w.adg(
        learn("Concealing Darkness", Some(RitualKind::Phrase), true),
        &[1, 15],
    );
    assert_eq!(the_learning(&events).check.as_ref().unwrap().exerted, 2);
    assert!(matches!(
        w.refused(
            learn("Concealing Darkness", Some(RitualKind::Phrase), false),
            &[1, 1]
        ),
        RuleError::AlreadyKnown { .. }
    ));
    assert_eq!(
        w.refused(learn("Burning Frost", None, false), &[1, 1]),
        RuleError::RitualKindNeeded
    );
}

#[test]
fn adg_r4_an_exact_roll_doubles_duration_by_default_or_effect_by_choice() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Sigil);
    let events = w.adg(cast("Burning Frost"), &[13]);
    assert_eq!(the_cast(&events).exact_choice.as_deref(), Some("duration"));
    assert_eq!(
        the_cast(&events).effect_until.unwrap().seconds(),
        2 * 2 * 600
    );
    let doubled = w.adg(
        cast_with("Burning Frost", |o: &mut CastOrder| {
            o.exact = Some(ExactChoice::Effect);
            o.effect = Some((EffectKind::Damage, "the ghoul".into()));
        }),
        &[13, 1, 2, 3, 4],
    );
    assert_eq!(
        the_cast(&doubled).effect.as_ref().unwrap().amount,
        10,
        "level 2 doubled: four d6"
    );
}

#[test]
fn adg_r4_a_roll_over_cunning_fails_into_a_mishap_with_the_difference() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    // 17 against 13: difference 4; 2d6 of 1 and 1 → 6 on the table (5-6: the first word twists into
    // word 7 of the first list).
    let events = w.adg(cast("Concealing Darkness"), &[17, 1, 1, 7]);
    let mishap = the_cast(&events).mishap.clone().unwrap();
    assert_eq!(mishap.total, 6);
    let replaced = mishap.replaced.unwrap();
    assert_eq!(
        (
            replaced.old.as_str(),
            replaced.new.as_str(),
            replaced.remembered
        ),
        ("Concealing", "Echoing", false)
    );
    assert_eq!(
        w.aldric().known["concealing darkness"].words,
        vec!["Concealing", "Darkness"],
        "not remembered"
    );
}

#[test]
fn adg_r5_one_word_reverses_for_free_and_both_cost_1d3_cunning_before_the_roll() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let one = w.adg(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.reverse = Some(Reverse::First);
        }),
        &[5],
    );
    assert_eq!(the_cast(&one).words, vec!["Revealing", "Darkness"]);
    assert_eq!(the_cast(&one).reversal_cost, 0);
    let both = w.adg(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.reverse = Some(Reverse::Both);
        }),
        &[2, 11],
    );
    let c = the_cast(&both);
    assert_eq!(
        (c.words.join(" ").as_str(), c.reversal_cost, c.check.target),
        ("Revealing Light", 2, 11)
    );
    assert!(c.check.success);
    assert_eq!(w.aldric().current(Attribute::Cunning), 11);
}

#[test]
fn adg_r5_r9_the_log_says_why_cunning_was_paid_and_keeps_the_targets_name() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let reversed = w.adg(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.reverse = Some(Reverse::Both);
            o.effect = Some((EffectKind::Damage, "the Ghoul of Vel".into()));
        }),
        &[1, 5, 3, 4],
    );
    assert_eq!(
        crate::render::describe(&reversed[0]),
        "Aldric casts Revealing Light; exerts 1 Cunning to reverse both words; \
         rolls 5 against Cunning 12: success; 7 damage to the Ghoul of Vel"
    );
    w.adg(cast("Concealing Darkness"), &[1]);
    let extra = w.adg(cast("Concealing Darkness"), &[1]);
    assert_eq!(
        crate::render::describe(&extra[0]),
        "Aldric casts Concealing Darkness; exerts 1 Cunning for casting beyond the safe number \
         today; rolls 1 against Cunning 11: success"
    );
}

#[test]
fn adg_r6_damage_and_healing_are_1d6_per_adventurer_level() {
    let mut w = world_with(adg_sheet(3, 13));
    w.knows("Mending Bone", RitualKind::Phrase);
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 7,
        },
        &[],
    );
    let events = w.adg(
        cast_with("Mending Bone", |o: &mut CastOrder| {
            o.effect = Some((EffectKind::Healing, "Aldric".into()));
        }),
        &[4, 1, 2, 3],
    );
    assert_eq!(the_cast(&events).effect.as_ref().unwrap().amount, 6);
    assert_eq!(
        the_cast(&events).dice.len(),
        4,
        "one d20 and three d6 at level 3"
    );
    assert_eq!(
        w.health(),
        (6, 7),
        "learning cost 1 maximum health; 7 damage, then 6 healed"
    );
}

#[test]
fn adg_r7_mishap_entries_apply_damage_exertion_and_lockout() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    // 20 against 13: difference 7; 2d6 of 4 and 4 → 15: 2d6 damage, 1d3 Brawn, locked out.
    let events = w.adg(cast("Concealing Darkness"), &[20, 4, 4, 2, 3, 2]);
    let mishap = the_cast(&events).mishap.clone().unwrap();
    assert_eq!(
        (
            mishap.total,
            mishap.damage,
            mishap.exertions.clone(),
            mishap.lockout
        ),
        (15, 5, vec![(Attribute::Brawn, 2)], true)
    );
    assert_eq!(w.health(), (2, 7), "7 after the learning cost, less 5");
    assert_eq!(w.aldric().current(Attribute::Brawn), 7);
    assert_eq!(
        w.refused(cast("Concealing Darkness"), &[1]),
        RuleError::LockedOut("Aldric".into())
    );
    let line = crate::render::describe(&events[0]);
    assert_eq!(
        line.matches("night's rest").count(),
        1,
        "the lockout is said once: {line}"
    );
}

#[test]
fn adg_r7_a_remembered_word_replacement_changes_the_ritual_for_good() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    // 17 against 13: difference 4; 2d6 of 3 and 4 → 11 (11-12: second word changes, remembered).
    w.adg(cast("Concealing Darkness"), &[17, 3, 4, 1]);
    assert_eq!(
        w.aldric().known["concealing darkness"].words,
        vec!["Concealing", "Ash"]
    );
}

#[test]
fn adg_r8_a_caster_who_moved_cannot_cast() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let err = w.refused(
        cast_with("Concealing Darkness", |o: &mut CastOrder| {
            o.moved = true;
        }),
        &[5],
    );
    assert_eq!(err, RuleError::MovedThisRound("Aldric".into()));
}

#[test]
fn adg_r8_after_taking_damage_the_roll_must_be_above_it_and_the_difference_is_absolute() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    let hurt = |o: &mut CastOrder| {
        o.damage_taken = Some(6);
    };
    let above = w
        .when(adg_cmd(cast_with("Concealing Darkness", hurt)), &[7])
        .unwrap();
    assert!(the_cast(&above).check.success);
    // 4 is under Cunning but not above the damage: a mishap with |4 − 13| = 9 → 2d6 1+1 → 11.
    let under = w
        .when(
            adg_cmd(cast_with("Concealing Darkness", hurt)),
            &[4, 1, 1, 2],
        )
        .unwrap();
    let c = the_cast(&under);
    assert!(!c.check.success);
    assert_eq!(c.mishap.as_ref().unwrap().total, 11);
}

#[test]
fn adg_r9_safe_rituals_are_half_the_level_plus_one_and_reading_scrolls_does_not_count() {
    let w = world_with(adg_sheet(5, 13));
    assert_eq!(w.aldric().safe_rituals_per_day(), 3);
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    let scroll = w.seq_of_last();
    w.adg(read(scroll, false, vec![]), &[5]);
    assert_eq!(w.aldric().rituals_today, 0);
}

#[test]
fn adg_r9_second_extra_ritual_costs_two_cunning() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[1]);
    w.adg(cast("Concealing Darkness"), &[1]);
    let first_extra = w.adg(cast("Concealing Darkness"), &[1]);
    assert_eq!(the_cast(&first_extra).over_limit_cost, 1);
    let second_extra = w.adg(cast("Concealing Darkness"), &[1]);
    assert_eq!(
        (
            the_cast(&second_extra).over_limit_cost,
            the_cast(&second_extra).check.target
        ),
        (2, 10)
    );
    assert_eq!(w.aldric().current(Attribute::Cunning), 10);
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[1],
    );
    assert_eq!(
        w.aldric().next_ritual_cost(),
        0,
        "a night's rest resets the count"
    );
}

#[test]
fn adg_r9_a_mishap_on_an_extra_ritual_locks_the_caster_out_until_a_nights_rest() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[1]);
    w.adg(cast("Concealing Darkness"), &[1]);
    // 20 against 12 (one paid first): 2d6 of 1 and 1 + 8 → 10, a 1d6 burn of 1.
    let extra = w.adg(cast("Concealing Darkness"), &[20, 1, 1, 1]);
    assert!(the_cast(&extra).lockout);
    assert_eq!(
        w.refused(cast("Concealing Darkness"), &[1]),
        RuleError::LockedOut("Aldric".into())
    );
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[1],
    );
    assert!(!w.aldric().locked_out);
}

#[test]
fn adg_r9_an_over_limit_cost_that_cannot_be_paid_is_refused() {
    let mut w = world_with(adg_sheet(1, 3));
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[1]);
    w.adg(cast("Concealing Darkness"), &[1]);
    let err = w.refused(cast("Concealing Darkness"), &[1]);
    assert_eq!(
        err,
        RuleError::BeyondSafeRituals {
            name: "Aldric".into(),
            beyond: 2,
            cunning: 2
        }
    );
    // The message speaks of the ritual beyond the safe number, what is left, and the night's rest;
    // not of an exertion nobody asked for.
    let message = err.to_string();
    assert!(
        message.contains("ritual number 2 beyond today's safe number")
            && message.contains("has 2 Cunning")
            && message.contains("night's rest")
            && !message.contains("exerting"),
        "{message}"
    );
    let mut w = world_with(adg_sheet(1, 1));
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[1]);
    assert!(matches!(
        w.refused(cast("Concealing Darkness"), &[1]),
        RuleError::BeyondSafeRituals { beyond: 1, .. }
    ));
}

#[test]
fn adg_r10_a_spell_cast_in_actions_lasting_half_an_hour_is_a_ceremony_not_a_sigil() {
    let spell = ImportedSpell {
        level: 2,
        cast_time: CastTime::Actions,
        duration: Some(GameDuration(1800)),
    };
    assert_eq!(spell.ritual_kind(), RitualKind::Ceremony);
}

#[test]
fn adg_r10_a_spell_costs_its_level_and_its_type_follows_casting_time_and_duration() {
    let spell = |cast_time, duration: Option<u64>| ImportedSpell {
        level: 3,
        cast_time,
        duration: duration.map(GameDuration),
    };
    assert_eq!(
        spell(CastTime::Actions, None).ritual_kind(),
        RitualKind::Phrase
    );
    assert_eq!(
        spell(CastTime::OneRound, Some(599)).ritual_kind(),
        RitualKind::Phrase
    );
    assert_eq!(
        spell(CastTime::OneRound, Some(600)).ritual_kind(),
        RitualKind::Sigil
    );
    assert_eq!(
        spell(CastTime::Rounds, Some(3599)).ritual_kind(),
        RitualKind::Sigil
    );
    assert_eq!(
        spell(CastTime::Rounds, Some(3600)).ritual_kind(),
        RitualKind::Ceremony
    );
    assert_eq!(
        spell(CastTime::Longer, None).ritual_kind(),
        RitualKind::Ceremony
    );

    let mut w = world();
    let command = |level| AdgCommand::Learn {
        character: "Aldric".into(),
        ritual: "Fireball".into(),
        kind: None,
        spell: Some(ImportedSpell {
            level,
            cast_time: CastTime::OneRound,
            duration: None,
        }),
        pay: Pay::Health,
        exert: false,
    };
    let events = w.adg(command(3), &[9]);
    let attempt = the_learning(&events);
    assert_eq!(
        (attempt.cost, attempt.ritual_kind, attempt.dice.len()),
        (3, RitualKind::Phrase, 1),
        "no 1d3"
    );
    assert!(!w.aldric().known["fireball"].reversible);
    let err = w.refused(
        cast_with("Fireball", |o: &mut CastOrder| {
            o.reverse = Some(Reverse::First);
        }),
        &[1],
    );
    assert_eq!(err, RuleError::NotReversible("Fireball".into()));
    let mut zero = command(0);
    if let AdgCommand::Learn { ritual, .. } = &mut zero {
        *ritual = "Light".into();
    }
    let level_zero = w.when(adg_cmd(zero), &[2, 9]).unwrap();
    assert_eq!(
        the_learning(&level_zero).cost,
        2,
        "a level-0 spell rolls 1d3"
    );
}

// ---- Scrolls -------------------------------------------------------------------------------------

#[test]
fn adg_s1_a_scroll_fixes_its_effect_and_learning_from_it_gives_a_phrase() {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Sigil);
    w.adg(write("Calling Moon", 2, 0), &scribing(&[]));
    let id = w.seq_of_last();
    assert_eq!(
        w.state().scrolls[&id].effect,
        "reveals hidden doors within 10 m"
    );
    assert_eq!(w.state().scrolls[&id].original_kind, RitualKind::Sigil);
    let mut other = world();
    other.events = w.events.clone();
    other.then(
        Command::AddCharacter {
            name: "Bryn".into(),
            sheet: adg_sheet(1, 14),
        },
        &[],
    );
    other.adg(
        AdgCommand::GiveScroll {
            scroll: id,
            to: "Bryn".into(),
        },
        &[],
    );
    // cost 1, scroll d20 of 5 (between SL 2 and Cunning 14: no accident), learning 3.
    other.adg(
        AdgCommand::LearnScroll {
            character: "Bryn".into(),
            scroll: id,
            pay: Pay::Health,
            exert: false,
            sealed: vec![],
        },
        &[1, 5, 3],
    );
    let bryn = other
        .state()
        .character("Bryn")
        .unwrap()
        .adg
        .clone()
        .unwrap();
    assert_eq!(bryn.known["calling moon"].kind, RitualKind::Phrase);
}

#[test]
fn adg_s2_a_scroll_level_is_at_most_the_writers_level_and_rolls_sl_d6() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Phrase);
    let err = w.refused(write("Burning Frost", 3, 0), &[]);
    assert_eq!(
        err,
        RuleError::ScrollLevel {
            name: "Aldric".into(),
            level: 3,
            max: 2
        }
    );
    let mut damaging = write("Burning Frost", 2, 0);
    if let AdgCommand::WriteScroll { effect_roll, .. } = &mut damaging {
        *effect_roll = Some(EffectKind::Damage);
    }
    w.adg(damaging, &scribing(&[]));
    let id = w.seq_of_last();
    let mut at_troll = read(id, false, vec![]);
    if let AdgCommand::ReadScroll { target, .. } = &mut at_troll {
        *target = Some("the troll".into());
    }
    let events = w.adg(at_troll, &[6, 5, 9]);
    let effect = the_reading(&events).effect.clone().unwrap();
    assert_eq!((effect.amount, effect.target.as_str()), (11, "the troll"));
}

#[test]
fn adg_s2_an_ongoing_effect_lasts_a_turn_per_sl_on_the_readers_sheet() {
    let mut w = world();
    w.knows("Iron Ward", RitualKind::Sigil);
    w.knows("Concealing Darkness", RitualKind::Phrase);
    // A Sigil's effect is ongoing; so is a Phrase's the writer marks so; a plain Phrase's is not.
    w.adg(write("Iron Ward", 2, 0), &scribing(&[]));
    let sigil = w.seq_of_last();
    let mut marked = write("Concealing Darkness", 1, 0);
    if let AdgCommand::WriteScroll { ongoing, .. } = &mut marked {
        *ongoing = true;
    }
    w.adg(marked, &scribing(&[]));
    let phrase = w.seq_of_last();
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    let plain = w.seq_of_last();

    let now = w.state().clock;
    let events = w.adg(read(sigil, false, vec![]), &[2]);
    assert_eq!(
        the_reading(&events).ongoing_until,
        Some(now.after(GameDuration(2 * 600))),
        "SL 2: twenty minutes"
    );
    let effects = w.aldric().effects;
    assert!(
        effects
            .iter()
            .any(|e| e.ritual == "Iron Ward" && e.until == now.after(GameDuration(1200)))
    );
    let events = w.adg(read(phrase, false, vec![]), &[2]);
    assert_eq!(
        the_reading(&events).ongoing_until,
        Some(now.after(GameDuration(600)))
    );
    let events = w.adg(read(plain, false, vec![]), &[2]);
    assert_eq!(the_reading(&events).ongoing_until, None);
}

#[test]
fn adg_s3_writing_takes_a_week_and_silver_by_level_and_type() {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    w.adg(write("Calling Moon", 2, 0), &scribing(&[9]));
    let state = w.state();
    assert_eq!(state.clock.seconds(), 7 * 86_400);
    assert_eq!(
        w.aldric().silver,
        300,
        "the sample table charges 100 for an SL 2 Ceremony"
    );
    assert!(matches!(
        w.refused(write("Unknown Words", 1, 0), &[]),
        RuleError::UnknownRitual { .. }
    ));
    let mut poor = world_with(Sheet::Adg(AdgSheet {
        level: 2,
        agility: 11,
        brawn: 9,
        cunning: 13,
        health: 8,
        silver: 5,
    }));
    poor.knows("Calling Moon", RitualKind::Phrase);
    assert_eq!(
        poor.refused(write("Calling Moon", 1, 0), &[]),
        RuleError::NotEnoughSilver {
            name: "Aldric".into(),
            has: 5,
            cost: 10
        }
    );
}

#[test]
fn adg_s3_a_locked_out_writer_cannot_scribe_and_exertion_does_not_recover_that_week() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Agility,
            amount: 2,
            reason: "x".into(),
        },
        &[],
    );
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    assert_eq!(w.aldric().exerted.agility, 2);
    w.adg(cast("Concealing Darkness"), &[20, 4, 4, 1, 1, 1]);
    assert_eq!(
        w.refused(write("Concealing Darkness", 1, 0), &[]),
        RuleError::LockedOut("Aldric".into())
    );
}

#[test]
fn adg_s4_a_ceremony_scroll_hides_its_check_until_read_and_a_failed_one_misfires() {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    // The GM's sealed d20 shows 16 against Cunning 13 with 2 exerted ahead: 16 − 13 = 3 > 2, failed.
    let written = w.adg(write("Calling Moon", 1, 2), &scribing(&[16]));
    let Event::ScrollWritten(event) = &written[0] else {
        panic!()
    };
    assert_eq!(event.dice[0].value, None, "the log does not show the value");
    assert_eq!(
        w.aldric().exerted.cunning,
        2,
        "the buffer is spent whatever happens"
    );
    let id = w.seq_of_last();
    let secrets = w.secrets_for(id);
    // Reading: only the reuse roll 5; the check is opened and the mishap it calls for waits.
    let events = w.adg(read(id, false, secrets), &[5]);
    let reading = the_reading(&events);
    assert_eq!(reading.writing_check_passed, Some(false));
    assert!(reading.mishap.is_none() && reading.effect.is_none());
    assert_eq!(
        reading.pending.as_ref().map(|p| &p.outcome),
        Some(&PendingOutcome::Mishap { difference: 1 })
    );
    assert!(
        matches!(&events[1], Event::SealedRevealed { seq, dice } if *seq == id && dice[0].value == 16)
    );
    // The reader does nothing else until the pending dice are rolled: mishap 2d6 of 1 and 1 +
    // shortfall 1 → 3.
    assert!(matches!(
        w.refused(write("Calling Moon", 1, 0), &[16]),
        RuleError::RollPending { .. }
    ));
    let resolve = AdgCommand::ResolvePending {
        character: "aldric".into(),
    };
    let rolled = w.adg(resolve.clone(), &[1, 1]);
    let Event::ScrollOutcomeRolled(outcome) = &rolled[0] else {
        panic!("{rolled:?}")
    };
    assert_eq!(outcome.mishap.as_ref().unwrap().total, 3);
    assert_eq!(w.aldric().pending_roll, None);
    assert!(matches!(
        w.refused(resolve, &[]),
        RuleError::NothingPending(_)
    ));
}

#[test]
fn adg_s4_exertion_ahead_of_the_check_covers_a_shortfall() {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    w.adg(write("Calling Moon", 1, 3), &scribing(&[16]));
    let id = w.seq_of_last();
    let secrets = w.secrets_for(id);
    let events = w.adg(read(id, false, secrets.clone()), &[5]);
    assert_eq!(the_reading(&events).writing_check_passed, Some(true));
    let forged = vec![SealedSecret {
        value: 2,
        ..secrets[0].clone()
    }];
    let mut again = world();
    again.knows("Calling Moon", RitualKind::Ceremony);
    again.adg(write("Calling Moon", 1, 3), &scribing(&[16]));
    assert!(matches!(
        again.refused(read(id, false, forged), &[5]),
        RuleError::SecretMismatch { .. }
    ));
    assert!(matches!(
        again.refused(write("Calling Moon", 1, 13), &[1]),
        RuleError::ExertionTooHigh { .. }
    ));
}

#[test]
fn adg_s5_anyone_can_read_a_scroll_without_using_daily_rituals() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    let id = w.seq_of_last();
    w.then(
        Command::AddCharacter {
            name: "Bryn".into(),
            sheet: adg_sheet(1, 9),
        },
        &[],
    );
    w.adg(
        AdgCommand::GiveScroll {
            scroll: id,
            to: "bryn".into(),
        },
        &[],
    );
    let mut by_bryn = read(id, false, vec![]);
    if let AdgCommand::ReadScroll { character, .. } = &mut by_bryn {
        *character = "Bryn".into();
    }
    let events = w.adg(by_bryn, &[4]);
    assert_eq!(the_reading(&events).reader, "Bryn");
    assert_eq!(
        w.state()
            .character("Bryn")
            .unwrap()
            .adg
            .as_ref()
            .unwrap()
            .rituals_today,
        0
    );
}

#[test]
fn adg_s6_damage_while_reading_forces_an_agility_save_and_a_failure_damages_the_scroll() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 2, 0), &scribing(&[]));
    let id = w.seq_of_last();
    // Save 15 over Agility 11 fails; the chart d20 7 + SL 2 = 9 → the sparking entry, 1d4 = 3.
    let events = w.adg(read(id, true, vec![]), &[15, 7, 3]);
    let reading = the_reading(&events);
    assert_eq!(
        reading.damaged.as_ref().map(|d| (d.total, d.damage)),
        Some((9, 3))
    );
    assert_eq!(
        reading.reuse_roll, None,
        "a damaged scroll is not rolled for reuse"
    );
    assert_eq!(w.state().spent_scrolls.fate(id), Some(ScrollState::Damaged));
    assert!(matches!(
        w.refused(read(id, false, vec![]), &[5]),
        RuleError::ScrollUnusable { .. }
    ));
    let mut passed = world();
    passed.knows("Concealing Darkness", RitualKind::Phrase);
    passed.adg(write("Concealing Darkness", 2, 0), &scribing(&[]));
    let ok = passed.adg(read(id, true, vec![]), &[11, 5]);
    assert!(the_reading(&ok).damaged.is_none() && the_reading(&ok).kept);
}

#[test]
fn adg_s7_a_reuse_roll_between_cunning_and_sl_keeps_the_scroll_else_ash() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 2, 0), &scribing(&[]));
    let id = w.seq_of_last();
    for (roll, kept) in [(2, true), (13, true), (7, true), (1, false), (14, false)] {
        let events = w.when(adg_cmd(read(id, false, vec![])), &[roll]).unwrap();
        assert_eq!(the_reading(&events).kept, kept, "roll {roll}");
    }
    w.adg(read(id, false, vec![]), &[20]);
    assert_eq!(w.state().spent_scrolls.fate(id), Some(ScrollState::Ash));
    assert_eq!(
        w.refused(read(id, false, vec![]), &[5]),
        RuleError::ScrollUnusable {
            id,
            state: "ash".into()
        }
    );
}

#[test]
fn adg_s8_learning_from_a_scroll_may_cast_it_by_accident_and_then_continues() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 2, 0), &scribing(&[]));
    let id = w.seq_of_last();
    w.then(
        Command::AddCharacter {
            name: "Bryn".into(),
            sheet: adg_sheet(1, 12),
        },
        &[],
    );
    w.adg(
        AdgCommand::GiveScroll {
            scroll: id,
            to: "Bryn".into(),
        },
        &[],
    );
    // Cost 1 → the scroll d20 shows 2, at the SL: accidental cast; its reuse roll 20 turns it to ash;
    // learning then goes on: 6 against Cunning 12.
    let events = w.adg(
        AdgCommand::LearnScroll {
            character: "Bryn".into(),
            scroll: id,
            pay: Pay::Health,
            exert: false,
            sealed: vec![],
        },
        &[1, 2, 20, 6],
    );
    let attempt = the_learning(&events);
    let check = attempt.from_scroll.as_ref().unwrap();
    assert!(check.accidental);
    assert!(!check.reading.as_ref().unwrap().kept);
    assert!(attempt.learned);
    assert_eq!(w.state().spent_scrolls.fate(id), Some(ScrollState::Ash));
}

#[test]
fn adg_s9_scrolls_are_items_that_change_hands_and_only_the_holder_reads_them() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(write("Concealing Darkness", 1, 0), &scribing(&[]));
    let id = w.seq_of_last();
    w.then(
        Command::AddCharacter {
            name: "Bryn".into(),
            sheet: adg_sheet(1, 9),
        },
        &[],
    );
    w.adg(
        AdgCommand::GiveScroll {
            scroll: id,
            to: "Bryn".into(),
        },
        &[],
    );
    let scroll = w.state().scrolls[&id].clone();
    assert_eq!(
        (
            scroll.writer.as_str(),
            scroll.holder.as_str(),
            scroll.level,
            scroll.reads
        ),
        ("Aldric", "Bryn", 1, 0)
    );
    assert_eq!(
        w.refused(read(id, false, vec![]), &[5]),
        RuleError::ScrollNotHeld {
            id,
            holder: "Bryn".into()
        }
    );
    assert_eq!(
        w.refused(read(999, false, vec![]), &[5]),
        RuleError::NoSuchScroll(999)
    );
}

#[test]
fn adg_commands_on_a_vsd_character_are_refused() {
    let mut w = world();
    w.then(
        Command::AddCharacter {
            name: "Mira".into(),
            sheet: Sheet::Vsd(crate::sheet::VsdSheet {
                level: 3,
                vocation: "wizard".into(),
                lores: vec![],
                mp: 10,
                drive: 2,
                body: 30,
                wsr: 10,
                defense: 5,
                health: None,
            }),
        },
        &[],
    );
    let err = w.refused(
        AdgCommand::RollRitual {
            character: "Mira".into(),
        },
        &[1, 1],
    );
    assert!(
        err.to_string()
            .contains("Mira plays Against the Darkmaster; this is A Dungeon Game command"),
        "{err}"
    );
}

#[test]
fn adg_c3_a_mishaps_exertion_never_takes_an_attribute_below_one() {
    let mut w = world_with(adg_sheet(2, 3));
    w.knows("Concealing Darkness", RitualKind::Phrase);
    // 5 against Cunning 3: difference 2; 2d6 3+2 → 7 (a 1d3 Cunning headache, rolled 3): only 2 fit.
    let events = w.adg(cast("Concealing Darkness"), &[5, 3, 2, 3]);
    let mishap = the_cast(&events).mishap.clone().unwrap();
    assert_eq!(mishap.exertions, vec![(Attribute::Cunning, 2)]);
    assert_eq!(w.aldric().current(Attribute::Cunning), 1);
}

#[test]
fn t2_a_nights_rest_and_a_downtime_week_move_the_clock_and_bring_recovery() {
    let mut w = world();
    w.then(
        Command::Damage {
            character: "Aldric".into(),
            amount: 4,
        },
        &[],
    );
    w.adg(
        AdgCommand::Exert {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 2,
            reason: "a door".into(),
        },
        &[],
    );
    let before = w.state().clock.seconds();
    w.then(
        Command::Rest {
            characters: vec![],
            length: RestLength::Night,
        },
        &[2],
    );
    assert_eq!(
        w.state().clock.seconds() - before,
        8 * 3600,
        "a night is eight hours"
    );
    assert_eq!(w.health(), (6, 8), "the recovery die healed 2");
    assert_eq!(
        w.aldric().exerted.brawn,
        2,
        "a night does not restore exertion"
    );
    w.adg(
        AdgCommand::Downtime {
            character: "Aldric".into(),
            weeks: 1,
        },
        &[1; 7],
    );
    assert_eq!(
        w.state().clock.seconds() - before,
        8 * 3600 + 7 * 86_400,
        "a downtime week is seven days"
    );
    assert_eq!(w.aldric().exerted.brawn, 0, "the week restored it");
}
