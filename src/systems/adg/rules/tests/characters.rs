use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::{DowntimeWeeks, HealthChange, Resting};
use crate::seq::Seq;
use crate::systems::adg::rules::AdgError;
use crate::systems::registry::AnyError;

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

fn silver(delta: i64, reason: &str) -> AdgCommand {
    AdgCommand::Silver(SilverChange {
        character: "aldric".into(),
        delta,
        reason: reason.into(),
    })
}

#[test]
fn adg_c2_silver_gained_and_spent_is_recorded_with_its_reason_and_never_goes_below_zero() {
    let mut w = world();
    let loot = w.adg(silver(35, "the crypt's offering bowl"), &[]);
    assert_eq!(
        crate::render::describe(&loot[0]),
        "Aldric gains 35 silver: the crypt's offering bowl"
    );
    assert_eq!(w.aldric().silver, 435);
    let rope = w.adg(silver(-12, "fifty feet of rope"), &[]);
    assert_eq!(
        crate::render::describe(&rope[0]),
        "Aldric spends 12 silver: fifty feet of rope"
    );
    assert_eq!(w.aldric().silver, 423);
    assert_eq!(
        w.refused(silver(-424, "a warhorse"), &[]),
        RuleError::System(AnyError::Adg(AdgError::PurseTooLight {
            name: "Aldric".into(),
            has: 423,
            spend: 424
        }))
    );
    assert_eq!(
        w.refused(silver(0, "nothing"), &[]),
        RuleError::System(AnyError::Adg(AdgError::NoSilverChange))
    );
    assert!(matches!(
        w.refused(silver(MAX_SILVER, "a dragon's hoard"), &[]),
        RuleError::System(AnyError::Adg(AdgError::PurseTooHeavy { .. }))
    ));
    // Spending it all is fine: the purse is then empty, not negative.
    w.adg(silver(-423, "a warhorse after all"), &[]);
    assert_eq!(w.aldric().silver, 0);
}

#[test]
fn adg_c1_checks_use_the_current_not_the_maximum_value() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Cunning,
            amount: 4,
            reason: "test".into(),
        }),
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
        AdgCommand::Exert(Exertion {
            character: "aldric".into(),
            attribute: Attribute::Brawn,
            amount: 3,
            reason: "lift".into(),
        }),
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
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 9,
            reason: "x".into(),
        }),
        &[],
    );
    assert_eq!(
        err,
        RuleError::System(AnyError::Adg(AdgError::ExertionTooHigh {
            attribute: "Brawn".into(),
            current: 9,
            amount: 9
        }))
    );
    assert!(err.to_string().contains("at most 8 can be exerted"));
    let spent = AdgError::ExertionTooHigh {
        attribute: "Brawn".into(),
        current: 1,
        amount: 1,
    };
    assert!(
        spent
            .to_string()
            .ends_with("(it is 1 now); none can be exerted"),
        "{spent}"
    );
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
        knows: Vec::new(),
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
            AdgCommand::RollRitual(Who {
                character: "Aldric".into()
            }),
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
        knows: Vec::new(),
    }));
    w.adg(
        learn("Concealing Darkness", Some(RitualKind::Phrase), false),
        &[2],
    );
    assert!(w.aldric().dead);
    for command in [
        Command::Heal(HealthChange {
            character: "Aldric".into(),
            amount: 1,
            reason: None,
        }),
        Command::Damage(HealthChange {
            character: "aldric".into(),
            amount: 1,
            reason: None,
        }),
        // C-1: nor does the sheet change.
        changed_sheet(|s| s.level = 3, "a level gained too late"),
    ] {
        assert_eq!(w.when(command, &[]), Err(RuleError::Dead("Aldric".into())));
    }
}

#[test]
fn adg_c5_a_nights_rest_heals_by_the_level_recovery_die_capped_at_max() {
    let mut w = world();
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 5,
            reason: None,
        }),
        &[],
    );
    let events = w.then(Command::Rest(Resting::night(&[])), &[3]);
    // The recovery die is recorded with the rest, so `verify` can check it.
    assert!(
        matches!(&events[0], Event::Rested(rest) if rest.results[0].healed == 3 && rest.dice.len() == 1)
    );
    assert_eq!(w.health(), (6, 8));
    w.then(Command::Rest(Resting::night(&["Aldric"])), &[3]);
    assert_eq!(w.health(), (8, 8), "capped");
    assert_eq!(
        w.state().clock.seconds(),
        16 * 3600,
        "each night moves the clock 8 hours"
    );
    // Level 1-2 rolls a d3: a 4 cannot be entered.
    assert!(matches!(
        w.when(Command::Rest(Resting::night(&[])), &[4]),
        Err(RuleError::Dice(_))
    ));
}

#[test]
fn adg_c5_a_downtime_week_restores_every_exerted_point_and_moves_the_clock() {
    let mut w = world();
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Agility,
            amount: 4,
            reason: "climb".into(),
        }),
        &[],
    );
    w.then(
        Command::Downtime(DowntimeWeeks {
            characters: vec!["Aldric".into()],
            party: false,
            weeks: 2,
            plan: Vec::new(),
        }),
        &[1; 14],
    );
    assert_eq!(
        w.aldric().exerted,
        crate::systems::adg::state::Attributes::default()
    );
    assert_eq!(w.state().clock.seconds(), 14 * 86_400);
}

#[test]
fn adg_c5_a_downtime_week_heals_as_seven_nights_and_ends_the_daily_count_and_lockout() {
    let mut w = world();
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 8,
            reason: None,
        }),
        &[],
    );
    assert_eq!(w.health(), (0, 8));
    // Level 2 recovers by d3 a night: seven dice of 1 heal 7 of the 8 lost.
    let events = w.then(
        Command::Downtime(DowntimeWeeks {
            characters: vec!["Aldric".into()],
            party: false,
            weeks: 1,
            plan: Vec::new(),
        }),
        &[1; 7],
    );
    let Event::DowntimeTaken(downtime) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(downtime.dice.len(), 7, "every night's die recorded");
    assert_eq!(downtime.characters[0].activities, vec![Activity::Rest]);
    assert_eq!(w.health(), (7, 8));
    // Capped at the maximum: a second week of threes heals only the last point.
    w.then(
        Command::Downtime(DowntimeWeeks {
            characters: vec!["Aldric".into()],
            party: false,
            weeks: 1,
            plan: Vec::new(),
        }),
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
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 3,
            reason: None,
        }),
        &[],
    );
    let (before, _) = w.health();
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 2,
            reason: "a heavy door".into(),
        }),
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
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 2,
            reason: None,
        }),
        &[],
    );
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Agility,
            amount: 1,
            reason: "x".into(),
        }),
        &[],
    );
    w.then(Command::Rest(Resting::night(&[])), &[]);
    w.then(
        Command::Downtime(DowntimeWeeks {
            characters: vec!["Aldric".into()],
            party: false,
            weeks: 1,
            plan: Vec::new(),
        }),
        &[],
    );
    assert_eq!(w.health(), (6, 8));
    assert_eq!(w.aldric().exerted.agility, 1);
}

fn changed_sheet(change: impl FnOnce(&mut AdgSheet), reason: &str) -> Command {
    let Sheet::Adg(mut sheet) = adg_sheet(2, 13) else {
        unreachable!("an ADG sheet")
    };
    change(&mut sheet);
    Command::ChangeSheet {
        character: "aldric".into(),
        sheet: Sheet::Adg(sheet),
        reason: reason.into(),
        correction: reason != "a level gained",
    }
}

#[test]
fn c1_a_level_gained_or_a_correction_moves_each_value_and_keeps_what_play_has_done() {
    let mut w = world();
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 2,
            reason: "the gate".into(),
        }),
        &[],
    );
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 3,
            reason: None,
        }),
        &[],
    );
    // A level, with 3 health: maximum and current both rise; the safe rituals follow the level.
    let up = w.then(
        changed_sheet(
            |s| {
                s.level = 3;
                s.health = 11;
            },
            "a level gained",
        ),
        &[],
    );
    assert!(
        crate::render::describe(&up[0]).contains("level 2 → 3, maximum health +3"),
        "{:?}",
        up[0]
    );
    assert_eq!(w.health(), (8, 11));
    assert_eq!(w.aldric().level, 3);
    assert_eq!(w.aldric().safe_rituals_per_day(), 2);
    // A correction of Brawn as entered, 9 → 10: the maximum moves by one, the exertion stays.
    w.then(
        changed_sheet(
            |s| {
                s.level = 3;
                s.health = 11;
                s.brawn = 10;
            },
            "typo at creation",
        ),
        &[],
    );
    assert_eq!(w.aldric().max.brawn, 10);
    assert_eq!(w.aldric().current(Attribute::Brawn), 8);
}

#[test]
fn c1_a_change_to_nothing_without_a_reason_out_of_range_or_of_another_game_is_refused() {
    let w = world();
    assert_eq!(
        w.when(changed_sheet(|_| {}, "nothing"), &[]),
        Err(RuleError::SheetUnchanged("Aldric".into()))
    );
    assert_eq!(
        w.when(changed_sheet(|s| s.level = 3, "  "), &[]),
        Err(RuleError::NoReasonForSheet)
    );
    assert!(matches!(
        w.when(changed_sheet(|s| s.level = 11, "too far"), &[]),
        Err(RuleError::InvalidSheet(_))
    ));
    let vsd = Command::ChangeSheet {
        character: "Aldric".into(),
        sheet: Sheet::Vsd(crate::systems::vsd::sheet::VsdSheet {
            level: 1,
            vocation: "wizard".into(),
            lores: vec![],
            mp: 5,
            drive: 1,
            body: 10,
            wsr: 0,
            defense: 0,
            health: None,
        }),
        reason: "a new game".into(),
        correction: true,
    };
    assert!(matches!(
        w.when(vsd, &[]),
        Err(RuleError::SheetOfAnotherGame { .. })
    ));
}

/// C-1: a correction keeps what play has done as amounts, so setting a value and setting it back
/// restores the sheet exactly. Aldric (Brawn 9, health 8) exerts 2 Brawn and takes 5 damage (3/8);
/// health corrected to 2 shows 0/2 with the 5 wounds kept (2 − 5 < 0: 3 unshown), and back to 8
/// shows 3/8 again, where clamping gave 6/8. His purse of 40 after spending 30 (10) corrected to
/// 20 shows 0 with 10 owed, and back to 40 shows 10.
#[test]
fn c1_a_correction_set_back_restores_the_sheet_exactly() {
    let mut w = world();
    w.adg(
        AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 2,
            reason: "the gate".into(),
        }),
        &[],
    );
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 5,
            reason: None,
        }),
        &[],
    );
    let before = w.state().character("Aldric").unwrap().clone();
    let down = w.then(changed_sheet(|s| s.health = 2, "health typo"), &[]);
    assert!(matches!(
        &down[0],
        Event::SheetCorrected {
            dies: false,
            consumed: false,
            ..
        }
    ));
    assert_eq!(w.health(), (0, 2));
    assert_eq!(
        w.state().character("Aldric").unwrap().status(),
        Some("down")
    );
    w.then(changed_sheet(|s| s.health = 8, "health as it was"), &[]);
    assert_eq!(w.health(), (3, 8), "not 6/8: the wounds were kept");
    assert_eq!(w.state().character("Aldric").unwrap(), &before);
}

/// C-1: a correction the rules call death is recorded as such in the same event. Aldric's
/// maximum health is 8 as entered; three rituals learned at 1 health each leave it 5. Health as
/// entered corrected to 3 moves it by −5 to 0, and a maximum at 0 kills (ADG-C4): a living
/// character may no longer sit at a maximum of 0.
#[test]
fn c1_a_correction_that_brings_a_maximum_to_zero_kills_and_says_so() {
    let mut w = world();
    for ritual in ["Calling Moon", "Silent Door", "Ash Veil"] {
        w.knows(ritual, RitualKind::Phrase);
    }
    assert_eq!(w.health().1, 5);
    let died = w.then(changed_sheet(|s| s.health = 3, "health typo"), &[]);
    assert!(
        matches!(&died[0], Event::SheetCorrected { dies: true, .. }),
        "{died:?}"
    );
    assert!(crate::render::describe(&died[0]).contains("and dies"));
    assert!(w.state().character("Aldric").unwrap().is_dead());
    assert_eq!(
        w.when(changed_sheet(|s| s.health = 8, "back"), &[]),
        Err(RuleError::Dead("Aldric".into()))
    );
}

/// C-1: wounds a correction left unshown stay open through a level gained: 3/8 → 0/2 (5 wounds,
/// 3 unshown) → a level with 1 health (1/3: 2 shown, 3 unshown) → health 9 as entered: 9 − 5 = 4/9,
/// as with no correction at all (3/8, then the level: 4/9).
#[test]
fn c1_unshown_wounds_stay_open_through_a_level_gained() {
    let mut w = world();
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 5,
            reason: None,
        }),
        &[],
    );
    w.then(changed_sheet(|s| s.health = 2, "typo"), &[]);
    w.then(
        changed_sheet(
            |s| {
                s.health = 3;
                s.level = 3;
            },
            "a level gained",
        ),
        &[],
    );
    w.then(
        changed_sheet(
            |s| {
                s.health = 9;
                s.level = 3;
            },
            "back",
        ),
        &[],
    );
    // Without the corrections: 8 − 5 = 3, a level with 1 health: 4/9.
    assert_eq!(w.health(), (4, 9));
}

/// C-1 with C-2: a correction recorded while a learning cost was retracted; undoing that
/// retraction brings the cost back before the correction, whose maximum is then 0: the character
/// is dead, not living at 0/0. (Health 8 as entered, 1 lost to learning; retracted: 8; corrected to
/// 1: 1/1; the loss restored: 1 − 1 = 0.)
#[test]
fn c1_a_correction_whose_maximum_reaches_zero_after_a_restore_kills() {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Phrase);
    let learned = w.seq_of_last();
    let event = |w: &crate::testkit::Log, seq: Seq| w.events().get(seq.get() as usize - 1).cloned();
    let retract = |w: &crate::testkit::Log, seq: Seq| {
        Command::Retract(crate::rules::campaign::Retraction {
            seq: Some(seq),
            last: false,
            target: event(w, seq),
            restoring: event(w, seq)
                .and_then(|e| {
                    crate::rules::campaign::brought_back(&e, |at| Ok::<_, ()>(event(w, at)))
                        .unwrap()
                })
                .map(|(back, e)| (back, Box::new(e))),
            reason: "x".into(),
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        })
    };
    let command = retract(&w, learned);
    w.then(command, &[]);
    let retraction = w.seq_of_last();
    w.then(changed_sheet(|s| s.health = 1, "low"), &[]);
    assert!(!w.state().character("Aldric").unwrap().is_dead());
    let command = retract(&w, retraction);
    w.then(command, &[]);
    assert!(w.state().character("Aldric").unwrap().is_dead());
}

proptest::proptest! {
    /// C-1: any correction of a living character's entered values, then the correction back,
    /// leaves the character exactly as before, whatever play did first (exertion, wounds, silver
    /// spent), unless the first correction killed them.
    #[test]
    fn c1_any_correction_set_back_restores_the_character(
        exerted in 0u32..5,
        wounds in 0u32..8,
        spent in 0u64..40,
        to_health in 1u32..20,
        to_brawn in 1u32..20,
        to_silver in 0u64..100,
    ) {
        let mut w = world();
        if exerted > 0 {
            w.adg(
                AdgCommand::Exert(Exertion {
                    character: "Aldric".into(),
                    attribute: Attribute::Cunning,
                    amount: exerted,
                    reason: "strain".into(),
                }),
                &[],
            );
        }
        if wounds > 0 {
            w.then(Command::Damage(HealthChange { character: "Aldric".into(), amount: wounds, reason: None }), &[]);
        }
        if spent > 0 {
            w.adg(
                AdgCommand::Silver(crate::systems::adg::rules::SilverChange {
                    character: "Aldric".into(),
                    delta: -i64::try_from(spent).unwrap(),
                    reason: "rope".into(),
                }),
                &[],
            );
        }
        let before = w.state().character("Aldric").unwrap().clone();
        let Sheet::Adg(entered) = before.sheet.clone() else { unreachable!() };
        let changed = changed_sheet(
            |s| {
                s.health = to_health;
                s.brawn = to_brawn;
                s.silver = to_silver;
            },
            "a correction",
        );
        if w.when(changed.clone(), &[]).is_err() {
            return Ok(());
        }
        let events = w.then(changed, &[]);
        proptest::prop_assume!(!matches!(&events[0], Event::SheetCorrected { dies: true, .. }));
        let back = changed_sheet(
            |s| {
                s.health = entered.health;
                s.brawn = entered.brawn;
                s.silver = entered.silver;
            },
            "set back",
        );
        if w.when(back.clone(), &[]) == Err(RuleError::SheetUnchanged("Aldric".into())) {
            return Ok(());
        }
        w.then(back, &[]);
        let after = w.state().character("Aldric").cloned();
        proptest::prop_assert_eq!(after.as_ref(), Some(&before));
    }
}
