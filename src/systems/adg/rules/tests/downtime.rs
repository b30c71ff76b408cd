//! Downtime spans with activities (ADG-C5, ADG-S3, ADG-S4, T-2): several scrolls in one span, each
//! its own event and id, the weeks taken in order.

use super::*;
use crate::rules::RuleError;
use crate::rules::campaign::{DowntimeWeeks, HealthChange};
use crate::rules::downtime::PlannedWeek;
use crate::seq::Seq;
use crate::systems::adg::event::ScrollWritten;
use crate::systems::contract::rules::Planned;
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::registry::AnyWeek;

fn span(weeks: u32, plan: &[(&str, Planned<AnyWeek>)]) -> Command {
    Command::Downtime(DowntimeWeeks {
        characters: Vec::new(),
        party: true,
        weeks,
        plan: plan
            .iter()
            .map(|(who, activity)| PlannedWeek {
                character: who.to_string(),
                activity: activity.clone(),
            })
            .collect(),
    })
}

fn scribe(ritual: &str, level: u32, pre_exert: u32) -> Planned<AnyWeek> {
    let AdgCommand::WriteScroll(scroll) = write(ritual, level, pre_exert) else {
        unreachable!("write builds a scribing")
    };
    Planned::Own(AnyWeek::Adg(scroll))
}

fn training() -> Planned<AnyWeek> {
    Planned::Other {
        what: "training".into(),
        note: Some("swordplay with the watch".into()),
    }
}

fn written(events: &[Event]) -> Vec<&ScrollWritten> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::System(AnyEvent::Adg(AdgEvent::ScrollWritten(w))) => Some(w),
            _ => None,
        })
        .collect()
}

fn exert(attribute: Attribute, amount: u32) -> AdgCommand {
    AdgCommand::Exert(Exertion {
        character: "Aldric".into(),
        attribute,
        amount,
        reason: "a door".into(),
    })
}

#[test]
fn adg_s3_adg_c5_given_a_span_of_three_weeks_when_two_are_spent_scribing_then_each_scroll_is_its_own_event_and_id()
 {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.then(
        Command::Damage(HealthChange {
            character: "Aldric".into(),
            amount: 6,
            reason: None,
        }),
        &[],
    );
    let before = w.seq();
    let plan = [
        ("Aldric", scribe("Calling Moon", 2, 2)),
        ("aldric", scribe("Concealing Darkness", 1, 0)),
        ("Aldric", training()),
    ];
    // The Ceremony's sealed d20 (15), then seven ones a week.
    let dice: Vec<u32> = std::iter::once(15).chain([1; 21]).collect();
    let events = w.then(span(3, &plan), &dice);
    let Event::DowntimeTaken(spent) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(spent.dice.len(), 21, "the span holds every night's die");
    assert_eq!(
        spent.characters[0].activities,
        vec![
            Activity::Scribe {
                ritual: "Calling Moon".into(),
                level: 2
            },
            Activity::Scribe {
                ritual: "Concealing Darkness".into(),
                level: 1
            },
            Activity::Other {
                what: "training".into(),
                note: Some("swordplay with the watch".into())
            },
        ]
    );
    let scrolls = written(&events);
    assert_eq!(scrolls.len(), 2);
    assert!(scrolls.iter().all(|s| s.in_downtime && s.nights.is_none()));
    assert_eq!(
        scrolls[0].dice.len(),
        1,
        "the sealed check is in its scroll's event"
    );
    assert!(scrolls[1].dice.is_empty());
    // Ids are the scrolls' own seqs, after the span's event.
    let state = w.state();
    let (moon, darkness) = (before + 2, before + 3);
    assert_eq!(state.systems.adg.scrolls[&moon].ritual, "Calling Moon");
    assert_eq!(
        state.systems.adg.scrolls[&darkness].ritual,
        "Concealing Darkness"
    );
    assert_eq!(
        state.clock.seconds(),
        3 * 7 * 86_400,
        "the clock moved once"
    );
    assert_eq!(w.aldric().silver, 400 - 100 - 10);
    assert_eq!(w.health(), (6, 6), "21 nights heal what was lost, capped");
    // The training week recovered the Cunning exerted ahead of the check in the first week.
    assert!(scrolls[0].cushion_recovered);
    assert_eq!(w.aldric().exerted.cunning, 0);
    // The sealed secret is filed under the scroll's event, and opens when it is read:
    // 15 − 13 = 2, covered by the 2 exerted.
    let secrets = w.secrets_for(moon);
    assert_eq!(secrets.len(), 1);
    assert!(w.secrets_for(before + 1).is_empty());
    let events = w.adg(read(moon, false, secrets), &[5]);
    assert_eq!(the_reading(&events).writing_check_passed, Some(true));
}

#[test]
fn adg_s3_given_a_rest_week_before_a_ceremony_week_when_the_span_ends_then_only_the_cushion_stays_exerted()
 {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    w.adg(exert(Attribute::Brawn, 2), &[]);
    let plan = [
        ("Aldric", Planned::Rest),
        ("Aldric", scribe("Calling Moon", 1, 3)),
    ];
    let dice: Vec<u32> = [1; 7].into_iter().chain([9]).chain([1; 7]).collect();
    let events = w.then(span(2, &plan), &dice);
    assert!(!written(&events)[0].cushion_recovered);
    let aldric = w.aldric();
    assert_eq!(aldric.exerted.brawn, 0, "the rest week recovered it");
    assert_eq!(
        aldric.exerted.cunning, 3,
        "exerted after the last rest week"
    );
}

#[test]
fn adg_s3_given_a_span_of_scribing_when_the_silver_runs_out_in_a_later_week_then_the_span_is_refused()
 {
    let mut w = world();
    w.knows("Calling Moon", RitualKind::Ceremony);
    let plan: Vec<(&str, Planned<AnyWeek>)> = (0..5)
        .map(|_| ("Aldric", scribe("Calling Moon", 2, 0)))
        .collect();
    let dice: Vec<u32> = (0..4).flat_map(|_| scribing(&[9])).collect();
    assert_eq!(
        w.when(span(5, &plan), &dice),
        Err(RuleError::System(AnyError::Adg(
            AdgError::NotEnoughSilver {
                name: "Aldric".into(),
                has: 0,
                cost: 100
            }
        ))),
        "four SL 2 Ceremonies spent the 400"
    );
}

#[test]
fn adg_s3_given_a_locked_out_writer_when_a_span_begins_with_scribing_then_it_is_refused_but_a_rest_week_first_allows_it()
 {
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.adg(cast("Concealing Darkness"), &[20, 4, 4, 1, 1, 1]);
    assert!(w.aldric().locked_out);
    assert_eq!(
        w.when(
            span(1, &[("Aldric", scribe("Concealing Darkness", 1, 0))]),
            &[1; 7]
        ),
        Err(RuleError::System(AnyError::Adg(AdgError::LockedOut(
            "Aldric".into()
        ))))
    );
    let plan = [
        ("Aldric", Planned::Rest),
        ("Aldric", scribe("Concealing Darkness", 1, 0)),
    ];
    let events = w.then(span(2, &plan), &[1; 14]);
    assert_eq!(written(&events).len(), 1);
    assert!(!w.aldric().locked_out);
}

#[test]
fn t2_given_a_span_when_its_weeks_name_someone_outside_it_or_too_many_weeks_or_scribing_for_vsd_then_it_is_refused()
 {
    let mut w = world();
    add_mira(&mut w);
    let only_aldric = Command::Downtime(DowntimeWeeks {
        characters: vec!["Aldric".into()],
        party: false,
        weeks: 1,
        plan: vec![PlannedWeek {
            character: "mira".into(),
            activity: training(),
        }],
    });
    assert_eq!(
        w.when(only_aldric, &[1; 7]),
        Err(RuleError::NotInDowntime("Mira".into()))
    );
    assert_eq!(
        w.when(
            span(1, &[("Aldric", training()), ("Aldric", Planned::Rest)]),
            &[1; 7]
        ),
        Err(RuleError::TooManyWeeks {
            name: "Aldric".into(),
            weeks: 1
        })
    );
    let mut scribing_mira = scribe("Ember", 1, 0);
    if let Planned::Own(AnyWeek::Adg(scroll)) = &mut scribing_mira {
        scroll.character = "Mira".into();
    }
    assert!(matches!(
        w.when(span(1, &[("Mira", scribing_mira)]), &[1; 7]),
        Err(RuleError::WrongSystem { name, .. }) if name == "Mira"
    ));
    // Against the Darkmaster characters may spend weeks on the GM's activities.
    let events = w.then(span(1, &[("Mira", training())]), &[1; 7]);
    let Event::DowntimeTaken(spent) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(spent.characters[1].character, "Mira");
    assert_eq!(spent.characters[1].activities, vec![training_activity()]);
}

#[test]
fn t2_given_a_dead_character_when_a_party_span_plans_their_weeks_then_they_are_named_dead() {
    let mut w = world();
    w.then(
        Command::AddCharacter {
            name: "Pell".into(),
            sheet: Sheet::Adg(AdgSheet {
                level: 1,
                agility: 9,
                brawn: 9,
                cunning: 9,
                health: 1,
                silver: 0,
                knows: Vec::new(),
            }),
        },
        &[],
    );
    // A learning cost of 1 from Pell's only point of health: a maximum of 0 kills.
    let AdgCommand::Learn(mut learning) =
        learn("Concealing Darkness", Some(RitualKind::Phrase), false)
    else {
        unreachable!("learn builds a learning")
    };
    learning.character = "Pell".into();
    w.adg(AdgCommand::Learn(learning), &[1]);
    assert!(w.state().character("Pell").unwrap().is_dead());
    assert_eq!(
        w.when(span(1, &[("Pell", training())]), &[1; 7]),
        Err(RuleError::Dead("Pell".into()))
    );
}

fn training_activity() -> Activity {
    Activity::Other {
        what: "training".into(),
        note: Some("swordplay with the watch".into()),
    }
}

/// A scroll once written stays written (ADG-S3), so a span whose weeks wrote one cannot be
/// retracted: undone alone, it would leave the scroll and the silver paid for it behind. A span
/// of rest and the GM's own activities is retracted as any event is (C-2).
#[test]
fn adg_s3_c2_given_a_span_that_wrote_a_scroll_when_it_is_retracted_then_it_is_refused() {
    let retract = |seq: Seq| {
        Command::Retract(crate::rules::campaign::Retraction {
            seq: Some(seq),
            last: false,
            target: None,
            restoring: None,
            reason: "entered by mistake".into(),
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        })
    };
    let mut w = world();
    w.knows("Concealing Darkness", RitualKind::Phrase);
    w.then(
        span(1, &[("Aldric", scribe("Concealing Darkness", 1, 0))]),
        &[1; 7],
    );
    let wrote = w.seq() - 1;
    assert!(matches!(
        w.events()[wrote.get() as usize - 1],
        Event::DowntimeTaken(_)
    ));
    assert_eq!(
        w.when(retract(wrote), &[]),
        Err(RuleError::SpanWroteScrolls(wrote))
    );
    w.then(span(1, &[("Aldric", training())]), &[1; 7]);
    let trained = w.seq();
    let clock = w.state().clock;
    w.then(retract(trained), &[]);
    assert!(w.state().clock < clock, "the span's week is undone");
}
