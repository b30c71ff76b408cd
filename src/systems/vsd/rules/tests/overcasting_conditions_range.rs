use super::*;
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyError;
use crate::systems::vsd::rules::VsdError;

// ---- VSD-12: overcasting -------------------------------------------------------------------------

#[test]
fn vsd12_only_wizards_and_animists_with_enough_ranks_overcast() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Tom".into(),
            spell: spell("Storm", 6, SpellKind::Elemental),
        }),
        &[],
    );
    let err = w.refused(
        cast_by("Tom", "Storm", |o| {
            o.overcast = Some(OvercastMethod::Sacrifice)
        }),
        &[50],
    );
    assert_eq!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::CannotOvercast {
            name: "Tom".into(),
            vocation: "warrior".into()
        }))
    );
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        }),
        &[],
    );
    let err = w.refused(
        cast_by("Bran", "Storm", |o| {
            o.overcast = Some(OvercastMethod::Sacrifice)
        }),
        &[50],
    );
    assert!(matches!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::TooFewRanks {
            ranks: 2,
            weave: 5,
            ..
        }))
    ));
    let err = w.refused(
        cast_with("Shield", |o| o.overcast = Some(OvercastMethod::Sacrifice)),
        &[50],
    );
    assert!(matches!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::NoNeedToOvercast { .. }))
    ));
}

#[test]
fn vsd12_a_sacrifice_spends_drive_and_takes_soul_damage_per_weave_over() {
    let mut w = world();
    // Storm W5 at Level 3: two d10s of soul damage (3+1, 4+1), then the roll at -20 and improvised -10.
    let events = w.vsd(
        cast_with("Storm", |o| o.overcast = Some(OvercastMethod::Sacrifice)),
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
        VsdCommand::Learn(SpellLearning {
            character: "Wisp".into(),
            spell: spell("Storm", 2, SpellKind::Elemental),
        }),
        &[],
    );
    let events = frail.vsd(
        cast_by("Wisp", "Storm", |o| {
            o.overcast = Some(OvercastMethod::Sacrifice)
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
        VsdCommand::Drive(DriveChange {
            character: "Mira".into(),
            delta: -3,
            reason: "spent".into(),
        }),
        &[],
    );
    let err = broke.refused(
        cast_with("Storm", |o| o.overcast = Some(OvercastMethod::Sacrifice)),
        &[1, 1, 50],
    );
    assert_eq!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::NoDrive("Mira".into())))
    );
}

#[test]
fn vsd12_a_ritual_allows_one_weave_per_other_participant_and_shares_a_failure() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        }),
        &[],
    );
    let one = |who: &[&str]| {
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastMethod::Ritual);
            o.with = who.iter().map(|s| s.to_string()).collect();
        })
    };
    assert_eq!(
        w.refused(one(&[]), &[]),
        RuleError::System(AnyError::Vsd(VsdError::RitualWithoutCasters)),
        "a ritual names its other casters"
    );
    let sacrifice_with_others = cast_with("Storm", |o| {
        o.overcast = Some(OvercastMethod::Sacrifice);
        o.with = vec!["Bran".into()];
    });
    assert_eq!(
        w.refused(sacrifice_with_others, &[]),
        RuleError::System(AnyError::Vsd(VsdError::CastersWithoutRitual)),
        "other casters named beside a sacrifice are refused, not dropped"
    );
    assert!(
        matches!(
            w.refused(one(&["Bran"]), &[50]),
            RuleError::System(AnyError::Vsd(VsdError::RitualParticipants(_)))
        ),
        "two Weaves over need two others"
    );
    assert!(
        matches!(
            w.refused(one(&["Bran", "Tom"]), &[50]),
            RuleError::System(AnyError::Vsd(VsdError::RitualParticipants(_)))
        ),
        "Tom does not know Storm"
    );
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Tom".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        }),
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
            VsdCommand::Learn(SpellLearning {
                character: who.into(),
                spell: spell("Storm", 5, SpellKind::Elemental),
            }),
            &[],
        );
    }
    let ritual = || {
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastMethod::Ritual);
            o.with = vec!["Bran".into(), "Tom".into()];
        })
    };
    // A helper who already cast this round cannot also concentrate on the ritual.
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Bran".into(),
            spell: spell("Ember", 1, SpellKind::Elemental),
        }),
        &[],
    );
    w.vsd(cast_by("Bran", "Ember", |_| {}), &[50]);
    let refused = w.refused(ritual(), &[50]);
    assert!(
        matches!(&refused, RuleError::System(AnyError::Vsd(VsdError::RitualParticipants(why))) if why.contains("Bran has already acted")),
        "{refused:?}"
    );
    // In a fresh round the ritual goes ahead, and no participant can cast in that round after it.
    w.next_round();
    w.vsd(ritual(), &[60]);
    assert_eq!(
        w.refused(cast_by("Tom", "Storm", |_| {}), &[50]),
        RuleError::System(AnyError::Vsd(VsdError::RoundUsed("Tom".into())))
    );
}

#[test]
fn vsd12_a_ritual_fits_its_own_allowance_not_the_alignments_added() {
    let mut w = world();
    w.vsd(
        VsdCommand::Learn(SpellLearning {
            character: "Bran".into(),
            spell: spell("Storm", 5, SpellKind::Elemental),
        }),
        &[],
    );
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    // Storm is two Weaves over Mira's Level: one helper allows one, and Benefic's three are not added.
    let refused = w.refused(
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastMethod::Ritual);
            o.with = vec!["Bran".into()];
        }),
        &[50],
    );
    assert!(
        matches!(
            refused,
            RuleError::System(AnyError::Vsd(VsdError::RitualParticipants(_)))
        ),
        "{refused:?}"
    );
    // Under Benefic alone (no ritual) the same cast fits.
    let events = w.vsd(cast("Storm"), &[50]);
    assert_eq!(
        the_cast(&events).overcast.as_ref().unwrap().method,
        "alignment"
    );
    // No soul damage was taken, so the log line names none.
    let lines: Vec<String> = events.iter().map(crate::render::describe).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("overcast by 2 (alignment)"))
            && !lines.iter().any(|l| l.contains("soul damage")),
        "{lines:?}"
    );
}

#[test]
fn vsd12_celestial_alignments_widen_or_tax_casting() {
    let mut w = world();
    w.vsd(VsdCommand::SetAlignment(Alignment::Auspicious), &[]);
    assert!(
        matches!(
            w.refused(cast("Storm"), &[50]),
            RuleError::System(AnyError::Vsd(VsdError::WeaveAboveLevel { .. }))
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
        VsdCommand::ClearCondition(ConditionClearing {
            action: ConditionAction::Clear,
            character: "Mira".into(),
            condition: Condition::Stunned,
        }),
        &[],
    );
    assert!(
        !w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock)
    );
    let err = w.refused(
        VsdCommand::ClearCondition(ConditionClearing {
            action: ConditionAction::Clear,
            character: "Mira".into(),
            condition: Condition::Weary,
        }),
        &[],
    );
    assert!(matches!(
        err,
        RuleError::System(AnyError::Vsd(VsdError::NoSuchCondition { .. }))
    ));
}

/// From the clause review of issue 45 (item 5), VSD-13 ruling: a stunned caster can neither cast
/// nor start concentrating on a spell, but the concentration a held spell needs goes on (the
/// failure table itself asks it of a stunned caster); when the stun ends, casting is open again.
#[test]
fn vsd13_a_stunned_caster_cannot_cast_or_start_concentrating_but_keeps_a_held_spell() {
    let mut w = world();
    // Shield fails (3, then 40 subtracted) and its failure roll 70 + 10 offers holding it.
    w.vsd(
        cast_with("Shield", |o| o.target = "Bran".into()),
        &[3, 40, 70],
    );
    w.vsd(
        VsdCommand::Choose(Choosing {
            character: "Mira".into(),
            choices: vec![Choice::FiresLater],
            target: None,
        }),
        &[],
    );
    w.next_round();
    assert!(
        w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock)
    );
    let stunned = |doing| {
        RuleError::System(AnyError::Vsd(VsdError::Stunned {
            name: "Mira".into(),
            doing,
        }))
    };
    assert_eq!(w.refused(cast("Ember"), &[60]), stunned("cast"));
    assert_eq!(
        w.refused(concentrate("Storm"), &[]),
        stunned("concentrate on a spell not held to fire")
    );
    assert!(
        stunned("cast")
            .to_string()
            .contains("only concentration on a spell held to fire goes on"),
        "{}",
        stunned("cast")
    );
    w.vsd(concentrate("Shield"), &[]);
    w.next_round();
    assert!(
        !w.of("Mira")
            .has_condition(Condition::Stunned, w.state().clock)
    );
    w.vsd(concentrate("Shield"), &[]);
    w.next_round();
    // The stun is over: Ember casts (60 + 45, improvised −10).
    assert_eq!(the_cast(&w.vsd(cast("Ember"), &[60])).total, 95);
}

/// VSD-13 ruling: a weary caster takes −10 on every casting and attack roll, named on the record,
/// until the GM clears it.
#[test]
fn vsd13_a_weary_caster_takes_minus_10_on_casting_and_attack_rolls() {
    let mut w = world();
    // The 151+ row (Ember, elemental +50, failure d100 95 and the GM's +20): lose the MPs and
    // become Weary, with another target.
    w.vsd(
        cast_with("Ember", |o| o.failure_modifier = 20),
        &[3, 40, 95],
    );
    w.vsd(
        VsdCommand::Choose(Choosing {
            character: "Mira".into(),
            choices: vec![Choice::LoseMpsAndWeary, Choice::OtherTarget],
            target: Some("the orc's captain".into()),
        }),
        &[],
    );
    assert!(
        w.of("Mira")
            .has_condition(Condition::Weary, w.state().clock)
    );
    w.next_round();
    w.next_round();
    let events = w.vsd(cast("Shield"), &[60]);
    let weary = the_cast(&events);
    assert!(
        weary
            .modifiers
            .iter()
            .any(|m| m.what == "weary" && m.value == super::super::casting::WEARY_MODIFIER),
        "{:?}",
        weary.modifiers
    );
    // 60 + 45, improvised −10, weary −10, at 15 m (0).
    assert_eq!(weary.total, 85);
    // A bolt's attack roll too: 60 + 45, improvised −10, weary −10, 15 m (0), the orc's Defense 0.
    w.next_round();
    let events = w.vsd(cast("Fire Bolt"), &[60]);
    assert_eq!(the_cast(&events).total, 85);
    w.vsd(
        VsdCommand::ClearCondition(ConditionClearing {
            action: ConditionAction::Clear,
            character: "Mira".into(),
            condition: Condition::Weary,
        }),
        &[],
    );
    w.next_round();
    assert_eq!(the_cast(&w.vsd(cast("Ember"), &[60])).total, 95);
}

// ---- VSD-14: bolt and area spells ----------------------------------------------------------------

#[test]
fn vsd14_a_bolt_is_an_attack_roll_less_the_targets_defense() {
    let w = world();
    let at_orc = w
        .when(
            Command::System(AnyCommand::Vsd(Box::new(cast_with("Fire Bolt", |o| {
                o.defense = Some(25)
            })))),
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
            Command::System(AnyCommand::Vsd(Box::new(cast_with("Fire Bolt", |o| {
                o.target = "Bran".into()
            })))),
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
            Command::System(AnyCommand::Vsd(Box::new(cast_with(spell, |o| {
                o.range = range;
                o.defense = Some(0)
            })))),
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
            matches!(
                total("Fire Bolt", range),
                Err(RuleError::System(AnyError::Vsd(
                    VsdError::OutOfReach { .. }
                )))
            ),
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
        .when(
            Command::System(AnyCommand::Vsd(Box::new(cast("Fire Bolt")))),
            &[3, 40],
        )
        .unwrap();
    let c = the_cast(&events);
    assert_eq!((c.outcome, c.roll, c.fumbled), (Outcome::Failure, 3, true));
    assert_eq!(c.failure.as_ref().unwrap().roll, 40);
    assert_eq!(c.dice.len(), 2, "no open-ended chain after a fumble");
    // The log says why it failed.
    let line = crate::systems::vsd::render::spell_cast(c);
    assert!(
        line.contains("a fumble, since the attack roll's first die was 01–10"),
        "{line}"
    );
    // 12 is no fumble: the attack stands.
    let events = w
        .when(
            Command::System(AnyCommand::Vsd(Box::new(cast("Fire Bolt")))),
            &[12],
        )
        .unwrap();
    assert_eq!(the_cast(&events).outcome, Outcome::Attack);
    assert!(!the_cast(&events).fumbled);
}

#[test]
fn vsd_commands_on_an_adg_character_are_refused() {
    let mut w = world();
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet: Sheet::Adg(crate::systems::adg::sheet::AdgSheet {
                level: 1,
                agility: 9,
                brawn: 9,
                cunning: 9,
                health: 5,
                silver: 0,
                knows: Vec::new(),
            }),
        },
        &[],
    );
    let err = w.refused(
        VsdCommand::Learn(SpellLearning {
            character: "Aldric".into(),
            spell: spell("Shield", 1, SpellKind::Defensive),
        }),
        &[],
    );
    assert!(
        err.to_string().contains(
            "Aldric plays A Dungeon Game, and this is for Against the Darkmaster characters"
        ),
        "{err}"
    );
}

/// VSD-12: the other casters concentrate throughout: a helper who broke off to cast their own
/// spell while the lead built concentration is refused by name; helpers who kept at it join.
#[test]
fn vsd12_ritual_helpers_concentrate_through_every_round_the_lead_built() {
    let concentrating = |who: &str| {
        VsdCommand::Concentrate(Concentration {
            character: who.into(),
            spell: "Storm".into(),
        })
    };
    let ritual = || {
        cast_with("Storm", |o| {
            o.overcast = Some(OvercastMethod::Ritual);
            o.with = vec!["Bran".into(), "Tom".into()];
        })
    };
    let ready = || {
        let mut w = world();
        for who in ["Bran", "Tom"] {
            for (name, weave) in [("Storm", 5), ("Ember", 1)] {
                w.vsd(
                    VsdCommand::Learn(SpellLearning {
                        character: who.into(),
                        spell: spell(name, weave, SpellKind::Elemental),
                    }),
                    &[],
                );
            }
        }
        w
    };
    // Two rounds of concentration; in the second Tom casts Ember instead.
    let mut w = ready();
    for who in ["Mira", "Bran", "Tom"] {
        w.vsd(concentrating(who), &[]);
    }
    w.next_round();
    w.vsd(concentrating("Mira"), &[]);
    w.vsd(concentrating("Bran"), &[]);
    w.vsd(cast_by("Tom", "Ember", |_| {}), &[50]);
    w.next_round();
    let refused = w.refused(ritual(), &[60]);
    assert!(
        matches!(&refused, RuleError::System(AnyError::Vsd(VsdError::RitualParticipants(why)))
            if why == "Tom did not concentrate on Storm through the 2 rounds the ritual was built over"),
        "{refused:?}"
    );
    // All three keep at it: the ritual goes ahead.
    let mut w = ready();
    for _ in 0..2 {
        for who in ["Mira", "Bran", "Tom"] {
            w.vsd(concentrating(who), &[]);
        }
        w.next_round();
    }
    w.vsd(ritual(), &[60]);
}

/// VSD-10 with VSD-13: a caster scorched by the Darkmaster's gaze can do nothing, concentrating
/// included.
#[test]
fn vsd10_vsd13_a_scorched_caster_cannot_concentrate() {
    let mut w = world();
    w.vsd(VsdCommand::SetAlignment(Alignment::Benefic), &[]);
    // Storm on a double, 44; resonance 90 + Weave 5 = 95: assault; the GM picks the gaze, 4 rounds.
    w.vsd(cast("Storm"), &[44, 90]);
    w.vsd(choose(&[Choice::Scorched]), &[4]);
    w.next_round();
    assert_eq!(
        w.refused(concentrate("Storm"), &[]),
        RuleError::System(AnyError::Vsd(VsdError::CannotAct {
            name: "Mira".into(),
            condition: "scorched".into()
        }))
    );
}

/// VSD-10 (ruling): an Assessment Roll's mechanics are the table's; the GM records that an
/// assailed caster passed one, naming the free roll made for Mira if there was one, and the
/// condition ends.
#[test]
fn vsd10_a_passed_assessment_ends_assailed_and_names_only_an_open_roll_for_the_caster() {
    use crate::rules::campaign::DiceRoll;
    let assess = |roll: Option<Seq>| {
        VsdCommand::Assess(crate::systems::vsd::rules::Assessment {
            character: "mira".into(),
            roll,
            rolled: None,
        })
    };
    let mut w = world();
    assert_eq!(
        w.refused(assess(None), &[]),
        RuleError::System(AnyError::Vsd(VsdError::NoSuchCondition {
            name: "Mira".into(),
            condition: "assailed".into(),
        }))
    );
    assailed(&mut w);
    let roll = |character: &str, sealed: bool| {
        Command::Roll(DiceRoll {
            expression: crate::dice::DiceExpr::parse("oe+20").unwrap(),
            purpose: Some("assessment".into()),
            sealed,
            character: Some(character.into()),
        })
    };
    w.then(roll("Bran", false), &[60]);
    let brans = w.seq();
    w.then(roll("Mira", true), &[60]);
    let sealed = w.seq();
    w.then(roll("Mira", false), &[60]);
    let miras = w.seq();
    for (seq, why) in [
        (brans, "it was not rolled for Mira"),
        (sealed, "it is sealed"),
        (Seq(2), "it is not a free roll"),
    ] {
        let refused = w.refused(assess(Some(seq)), &[]);
        assert!(refused.to_string().contains(why), "#{seq}: {refused}");
    }
    assert!(matches!(
        w.refused(assess(Some(miras + 9)), &[]),
        RuleError::NoSuchEvent(..)
    ));
    let events = w.vsd(assess(Some(miras)), &[]);
    assert_eq!(
        events,
        vec![Event::System(AnyEvent::Vsd(VsdEvent::AssessmentPassed {
            character: "Mira".into(),
            roll: Some(miras),
        }))]
    );
    assert!(
        !w.of("Mira")
            .has_condition(Condition::Assailed, w.state().clock)
    );
}

/// From the second hostile pass (VSD-10 ruling): the roll for an Assessment is made after the
/// caster was assailed; an older one, even one that ended an earlier spell of it, does not count.
#[test]
fn vsd10_an_assessment_roll_comes_after_the_caster_was_assailed() {
    use crate::rules::campaign::DiceRoll;
    let mut w = world();
    let roll = Command::Roll(DiceRoll {
        expression: crate::dice::DiceExpr::parse("oe+20").unwrap(),
        purpose: None,
        sealed: false,
        character: Some("Mira".into()),
    });
    w.then(roll, &[60]);
    let early = w.seq();
    assailed(&mut w);
    let since = w.seq();
    let refused = w.refused(
        VsdCommand::Assess(crate::systems::vsd::rules::Assessment {
            character: "Mira".into(),
            roll: Some(early),
            rolled: None,
        }),
        &[],
    );
    assert_eq!(
        refused,
        RuleError::System(AnyError::Vsd(VsdError::NotAnAssessmentRoll {
            seq: early,
            why: format!("it was rolled before Mira was assailed at #{since}"),
        }))
    );
}

/// The GM's pick after a pursuit result leaves Mira assailed, with no end of its own.
fn assailed(w: &mut World) {
    w.given(Event::System(AnyEvent::Vsd(VsdEvent::ChoiceMade(
        crate::systems::vsd::event::ChoiceMade {
            character: "Mira".into(),
            cast_seq: Seq(1),
            chosen: vec![Choice::Assailed],
            mp_refund: 0,
            mp_lost: vec![],
            conditions: vec![crate::systems::vsd::event::ConditionChange {
                character: "Mira".into(),
                condition: Condition::Assailed,
                until: None,
            }],
            fires_at_round: None,
            resonance: None,
            in_force: None,
            pending: None,
            struck: None,
            dice: vec![],
        },
    ))));
}
