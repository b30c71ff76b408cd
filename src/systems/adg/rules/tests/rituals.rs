use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::{HealthChange, Resting};
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::rules::AdgError;
use crate::systems::contract::event::SystemSheet;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::words::Folded;

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
    // The Sigil takes its minute to draw, then lasts 2 × 10 minutes (level 2).
    assert_eq!(
        the_cast(&w.adg(cast("Burning Frost"), &[5]))
            .effect_until
            .unwrap()
            .seconds(),
        60 + 2 * 600
    );
    w.then(Command::Rest(Resting::night(&[])), &[1]);
    // After the minute and the 8-hour night, the Ceremony takes its hour, then lasts 2 days.
    let until = the_cast(&w.adg(cast("Calling Moon"), &[5]))
        .effect_until
        .unwrap()
        .seconds();
    assert_eq!(until, 60 + 8 * 3600 + 3600 + 2 * 86_400);
}

#[test]
fn adg_r1_t1_drawing_a_sigil_and_performing_a_ceremony_move_the_clock() {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.knows("Burning Frost", RitualKind::Sigil);
    w.knows("Calling Moon", RitualKind::Ceremony);
    let start = w.state().clock.seconds();
    w.adg(cast("Concealing Darkness"), &[5]);
    assert_eq!(
        w.state().clock.seconds(),
        start,
        "a Phrase is spoken in the round"
    );
    w.adg(cast("Burning Frost"), &[5]);
    assert_eq!(w.state().clock.seconds(), start + 60);
    // A Ceremony of three hours (the GM's word) moves the clock three hours, its day per level
    // counted from its end: 2 days.
    let three_hours = cast_with("Calling Moon", |o: &mut CastOrder| {
        o.took = Some(GameDuration(3 * 3600));
    });
    let c = the_cast(&w.adg(three_hours, &[5])).clone();
    assert_eq!(c.took, Some(GameDuration(3 * 3600)));
    let done = start + 60 + 3 * 3600;
    assert_eq!(w.state().clock.seconds(), done);
    assert_eq!(c.effect_until.unwrap().seconds(), done + 2 * 86_400);
    // A failed Ceremony took its time all the same: 12 is under... no, 14 is over Cunning 13.
    let before = w.state().clock.seconds();
    w.adg(cast("Calling Moon"), &[14, 1, 1, 2]);
    assert_eq!(w.state().clock.seconds(), before + 3600);
    // Refused: a Ceremony under an hour, a time for anything else, a Phrase drawn to wait.
    let short = cast_with("Calling Moon", |o: &mut CastOrder| {
        o.took = Some(GameDuration(1800));
    });
    assert_eq!(
        w.refused(short, &[5]),
        RuleError::System(AnyError::Adg(AdgError::CeremonyUnderAnHour(GameDuration(
            1800
        ))))
    );
    let timed_sigil = cast_with("Burning Frost", |o: &mut CastOrder| {
        o.took = Some(GameDuration(3600));
    });
    assert_eq!(
        w.refused(timed_sigil, &[5]),
        RuleError::System(AnyError::Adg(AdgError::OnlyCeremoniesTakeTime(
            "Burning Frost".into()
        )))
    );
    let waiting_phrase = cast_with("Concealing Darkness", |o: &mut CastOrder| {
        o.when = Some("at will".into());
    });
    assert_eq!(
        w.refused(waiting_phrase, &[5]),
        RuleError::System(AnyError::Adg(AdgError::OnlySigilsWait(
            "Concealing Darkness".into()
        )))
    );
}

#[test]
fn adg_r1_adg_r6_a_sigil_drawn_to_wait_goes_off_when_triggered() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Sigil);
    // Mira stands in for the one who walks through the door.
    add_mira(&mut w);
    w.then(
        Command::AddCharacter {
            name: "Bryn".into(),
            sheet: adg_sheet(1, 10),
        },
        &[],
    );
    let waiting = cast_with("Burning Frost", |o: &mut CastOrder| {
        o.when = Some("a door opens".into());
        o.effect = Some(EffectKind::Damage);
        o.target = Some("Bryn".into());
    });
    // An exact 13 against Cunning 13: no damage die yet; the doubling waits with the Sigil.
    let drawn = the_cast(&w.adg(waiting, &[13])).clone();
    let drawn_at = w.seq_of_last();
    assert!(drawn.effect.is_none() && drawn.effect_until.is_none());
    assert_eq!(drawn.exact_choice.as_deref(), Some("duration"));
    assert_eq!(w.aldric().sigils.len(), 1);
    let trigger = || {
        AdgCommand::Trigger(crate::systems::adg::rules::SigilTrigger {
            character: "aldric".into(),
            ritual: "burning frost".into(),
        })
    };
    // An hour later the door opens: level 2 → 2d6 = 3 + 4 on Bryn (8 → 1), for 2 × 2 × 10 minutes.
    w.then(
        Command::AdvanceClock(crate::rules::campaign::ClockAdvance {
            by: GameDuration(3600),
        }),
        &[],
    );
    let now = w.state().clock;
    let events = w.adg(trigger(), &[3, 4]);
    let Event::System(AnyEvent::Adg(AdgEvent::SigilTriggered(t))) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(t.cast_seq, drawn_at);
    assert_eq!(t.effect.as_ref().map(|e| e.amount), Some(7));
    assert_eq!(t.effect_until, Some(now.after(GameDuration(2 * 2 * 600))));
    assert_eq!(
        w.state().character("Bryn").unwrap().health.unwrap().current,
        1
    );
    assert!(w.aldric().sigils.is_empty());
    // Nothing waits now: a second trigger is refused, saying so.
    assert_eq!(
        w.refused(trigger(), &[3, 4]),
        RuleError::System(AnyError::Adg(AdgError::NoSigilWaiting {
            name: "Aldric".into(),
            ritual: "burning frost".into(),
            waiting: vec![],
        }))
    );
}

#[test]
fn adg_r3_c1_a_character_may_start_knowing_rituals_at_no_cost_and_a_correction_keeps_them() {
    let mut w = Log::campaign();
    let mut sheet = AdgSheet {
        level: 2,
        agility: 11,
        brawn: 9,
        cunning: 13,
        health: 8,
        silver: 40,
        knows: vec![crate::systems::adg::sheet::StartingRitual {
            name: "Concealing  Darkness".into(),
            kind: RitualKind::Phrase,
        }],
    };
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet: Sheet::Adg(sheet.clone()),
        },
        &[],
    );
    // Known, with no cost paid: health and Cunning stand as entered.
    // The doubled space is the same name (ADG-R3 ruling).
    assert_eq!(
        w.aldric().known[&Folded::of("concealing darkness")].name,
        "Concealing Darkness"
    );
    assert_eq!(w.health(), (8, 8));
    assert_eq!(w.aldric().max.cunning, 13);
    assert!(
        the_cast(&w.adg(cast("Concealing Darkness"), &[5]))
            .check
            .success
    );
    // A correction of Cunning keeps what the character started knowing.
    sheet.cunning = 14;
    w.then(
        Command::ChangeSheet {
            character: "Aldric".into(),
            sheet: Sheet::Adg(sheet.clone()),
            reason: "typo".into(),
            correction: true,
        },
        &[],
    );
    assert!(
        w.aldric()
            .known
            .contains_key(&Folded::of("Concealing Darkness"))
    );
    // The same ritual twice, or a nameless one, is refused with the sheet.
    let twice = AdgSheet {
        knows: vec![sheet.knows[0].clone(), sheet.knows[0].clone()],
        ..sheet.clone()
    };
    assert!(
        twice
            .validate()
            .unwrap_err()
            .contains("'Concealing Darkness' is given twice")
    );
}

#[test]
fn adg_r2_rolling_a_ritual_takes_one_word_from_each_list() {
    let mut w = world();
    let events = w.adg(
        AdgCommand::RollRitual(Who {
            character: "Aldric".into(),
        }),
        &[4, 4],
    );
    let Event::System(AnyEvent::Adg(AdgEvent::RitualDiscovered { ritual, dice, .. })) = &events[0]
    else {
        panic!()
    };
    assert_eq!(ritual, "Concealing Darkness");
    assert_eq!(dice.len(), 2);
    assert!(
        w.aldric()
            .discovered
            .contains_key(&crate::words::Folded::of("concealing darkness"))
    );
}

#[test]
fn adg_r3_learning_pays_1d3_permanently_then_checks_cunning() {
    let mut w = world();
    let events = w.adg(
        AdgCommand::Learn(crate::systems::adg::rules::Learning {
            character: "Aldric".into(),
            ritual: "Concealing Darkness".into(),
            kind: Some(RitualKind::Phrase),
            spell_level: None,
            cast_time: None,
            duration: None,
            pay: Pay::Cunning,
            exert: false,
        }),
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
    assert!(
        w.aldric()
            .lost
            .contains_key(&crate::words::Folded::of("concealing darkness"))
    );
    // Another case, a doubled space or a look-alike letter (a Cyrillic a) is the same ritual.
    for again in [
        "concealing darkness",
        "Concealing  Darkness",
        "Conce\u{430}ling Darkness",
    ] {
        let err = w.refused(learn(again, Some(RitualKind::Phrase), false), &[1, 1]);
        assert_eq!(
            err,
            RuleError::System(AnyError::Adg(AdgError::LostForever {
                name: "Aldric".into(),
                ritual: "Concealing Darkness".into()
            })),
            "{again}"
        );
    }
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
        RuleError::System(AnyError::Adg(AdgError::AlreadyKnown { .. }))
    ));
    assert_eq!(
        w.refused(learn("Burning Frost", None, false), &[1, 1]),
        RuleError::System(AnyError::Adg(AdgError::RitualKindNeeded))
    );
}

#[test]
fn adg_r4_an_exact_roll_doubles_duration_by_default_or_effect_by_choice() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Sigil);
    let events = w.adg(cast("Burning Frost"), &[13]);
    assert_eq!(the_cast(&events).exact_choice.as_deref(), Some("duration"));
    // From the end of its minute's drawing.
    assert_eq!(
        the_cast(&events).effect_until.unwrap().seconds(),
        60 + 2 * 2 * 600
    );
    let doubled = w.adg(
        cast_with("Burning Frost", |o: &mut CastOrder| {
            o.exact = Some(ExactChoice::Effect);
            o.effect = Some(EffectKind::Damage);
            o.target = Some("the ghoul".into());
        }),
        &[13, 1, 2, 3, 4],
    );
    assert_eq!(
        the_cast(&doubled).effect.as_ref().unwrap().amount,
        10,
        "level 2 doubled: four d6"
    );
}

/// From the clause review of issue 45: an exact success on a Phrase defaulted to doubling its
/// duration, which a Phrase has not; it doubles the effect.
#[test]
fn adg_r4_given_a_phrase_when_cast_with_an_exact_roll_then_its_effect_is_doubled_by_default() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Phrase);
    let events = w.adg(
        cast_with("Burning Frost", |o: &mut CastOrder| {
            o.effect = Some(EffectKind::Damage);
            o.target = Some("the ghoul".into());
        }),
        &[13, 1, 2, 3, 4],
    );
    let cast = the_cast(&events);
    assert_eq!(cast.exact_choice.as_deref(), Some("effect"));
    assert_eq!(
        cast.effect.as_ref().unwrap().amount,
        10,
        "level 2 doubled: four d6"
    );
    assert_eq!(cast.effect_until, None);
}

#[test]
fn adg_r4_damage_or_healing_with_no_one_to_receive_it_is_refused_before_any_die() {
    let mut w = world();
    w.knows("Burning Frost", RitualKind::Sigil);
    // No rolls are given: a die drawn would be refused as missing instead.
    let refused = w.refused(
        cast_with("Burning Frost", |o: &mut CastOrder| {
            o.effect = Some(EffectKind::Damage);
        }),
        &[],
    );
    assert_eq!(
        refused,
        RuleError::System(AnyError::Adg(AdgError::EffectWithoutTarget))
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
        w.aldric().known[&crate::words::Folded::of("concealing darkness")].words,
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
            o.effect = Some(EffectKind::Damage);
            o.target = Some("the Ghoul of Vel".into());
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
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 7,
            reason: None,
        }),
        &[],
    );
    let events = w.adg(
        cast_with("Mending Bone", |o: &mut CastOrder| {
            o.effect = Some(EffectKind::Healing);
            o.target = Some("Aldric".into());
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

/// #47 item 2: a casting or a learning put to a phone reads who rolls, for what, and what the
/// d20 must come under, worked out from the campaign as it stands (Aldric's Cunning is 13).
#[test]
fn adg_r4_given_aldric_when_his_casting_or_learning_is_put_to_a_phone_then_it_reads_what_the_d20_must_come_under()
 {
    let w = world();
    let said = |command: &AdgCommand| {
        <Adg as crate::systems::contract::rules::SystemRules>::asked_words(command, &w.state())
    };
    assert_eq!(
        said(&cast("concealing darkness")).as_deref(),
        Some(
            "Aldric: cast concealing darkness — d20 at or under 13, their Cunning (exactly 13: exact)"
        )
    );
    assert_eq!(
        said(&learn("Warding Glyph", None, false)).as_deref(),
        Some("Aldric: learn Warding Glyph — d20 at or under 13, their Cunning (exactly 13: exact)")
    );
    let resolve = AdgCommand::ResolvePending(crate::systems::contract::rules::Who {
        character: "aldric".into(),
    });
    assert_eq!(
        said(&resolve).as_deref(),
        Some("Aldric: roll what the scroll read left pending")
    );
}
