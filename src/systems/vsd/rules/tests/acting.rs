//! C-5 with Against the Darkmaster's commands: a player's phone rolls for the character who acts,
//! whoever the act aims at; a save is the saving character's act.

use super::*;
use crate::event::AskedCommand;
use crate::ids::{DeviceId, RequestId};
use crate::rules::players::Refused;
use crate::testkit::put_to as put;

/// Eli's phone plays Mira, Cal's plays Tom (devices 1 and 2).
fn table() -> World {
    let mut w = world();
    link_phones(&mut w, &[("Eli", "Mira"), ("Cal", "Tom")]);
    w
}

fn asked(path: &str, given: &[(&str, &str)]) -> AskedCommand {
    AskedCommand::System {
        system: "vsd".into(),
        path: path.into(),
        given: given
            .iter()
            .map(|(id, value)| (id.to_string(), vec![value.to_string()]))
            .collect(),
    }
}

/// Mira's Sleep at Tom, as the command line typed it before `--failure-mod` was added: an
/// argument added since a request was recorded takes its default when the phone answers.
fn sleep_at_tom() -> AskedCommand {
    asked(
        "spell cast",
        &[
            ("character", "Mira"),
            ("spell", "Sleep"),
            ("target", "Tom"),
            ("range", "15"),
            ("armor_penalty", "0"),
            ("gm_modifier", "0"),
            ("place", "normal"),
        ],
    )
}

#[test]
fn c5_given_eli_plays_mira_when_her_sleep_at_toms_is_put_to_elis_phone_then_it_is_put_and_the_answer_casts_at_tom()
 {
    let mut w = table();
    let put = w.then(put("Eli", sleep_at_tom(), false), &[]);
    assert!(
        matches!(
            put.as_slice(),
            [Event::RollRequested {
                device: DeviceId(1),
                witnessed: false,
                ..
            }]
        ),
        "{put:?}"
    );
    let answered = w
        .answer(RequestId(1), DeviceId(1), &[0x21; 32])
        .unwrap()
        .unwrap();
    assert_eq!(the_cast(&answered).target, "Tom", "{answered:?}");
}

#[test]
fn c5_given_miras_sleep_at_tom_when_toms_save_is_put_to_his_players_phone_then_put_and_to_elis_then_refused()
 {
    let mut w = table();
    w.vsd(cast_with("Sleep", |o| o.target = "Tom".into()), &[50]);
    let cast = w.seq().to_string();
    let save = asked("save", &[("target", "tom"), ("against", &cast)]);
    assert_eq!(
        w.when(put("Eli", save.clone(), false), &[]),
        Err(Refused::NotTheirs {
            player: "Eli".into(),
            character: "Tom".into(),
            plays: "Mira".into(),
        }
        .into()),
        "the save is Tom's act, not Mira's"
    );
    let put = w.then(put("Cal", save, false), &[]);
    assert!(
        matches!(
            put.as_slice(),
            [Event::RollRequested {
                device: DeviceId(2),
                ..
            }]
        ),
        "{put:?}"
    );
}

#[test]
fn c5_given_a_cast_by_mira_when_put_to_cals_phone_then_refused_but_his_phone_may_witness_it() {
    let mut w = table();
    assert_eq!(
        w.when(put("Cal", sleep_at_tom(), false), &[]),
        Err(Refused::NotTheirs {
            player: "Cal".into(),
            character: "Mira".into(),
            plays: "Tom".into(),
        }
        .into()),
        "aimed at his character, but Mira acts"
    );
    let witnessed = w.then(put("Cal", sleep_at_tom(), true), &[]);
    assert!(
        matches!(
            witnessed.as_slice(),
            [Event::RollRequested {
                device: DeviceId(2),
                witnessed: true,
                ..
            }]
        ),
        "{witnessed:?}"
    );
}
