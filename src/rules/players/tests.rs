use super::*;
use crate::dice::DiceExpr;
use crate::rules::Command;
use crate::sheet::Sheet;
use crate::systems::adg::sheet::AdgSheet;
use crate::testkit::Log;

fn joins(name: &str) -> Command {
    Command::AddCharacter {
        name: name.into(),
        sheet: Sheet::Adg(AdgSheet {
            level: 1,
            agility: 10,
            brawn: 10,
            cunning: 12,
            health: 5,
            silver: 0,
            knows: Vec::new(),
        }),
    }
}

fn link(player: &str, plays: &str, replace: bool) -> Command {
    Command::LinkDevice {
        player: player.into(),
        characters: vec![plays.into()],
        replace,
        token_hash: token(player, replace),
    }
}

/// The hash a test's link keeps: one for each player and each replacement.
fn token(player: &str, replace: bool) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(format!("{player}/{replace}")))
}

fn roll_for(character: &str) -> AskedCommand {
    AskedCommand::Roll {
        expression: DiceExpr::parse("2d6").unwrap(),
        purpose: Some("sneaking past the guard".into()),
        character: Some(character.into()),
    }
}

use crate::testkit::put_to as put;

/// Aldric played by Bea, Bryn by Cal, each with a linked phone (devices 1 and 2).
fn table() -> Log {
    let mut log = Log::campaign();
    log.then(joins("Aldric"), &[]);
    log.then(joins("Bryn"), &[]);
    log.then(link("Bea", "aldric", false), &[]);
    log.then(link("Cal", "Bryn", false), &[]);
    log
}

fn secret_of(log: &Log, request: RequestId) -> [u8; 32] {
    let (_, value) = log
        .secrets_of_kind("request_secret")
        .into_iter()
        .find(|(key, _)| *key == request.to_string())
        .expect("the request's secret is kept");
    fairness::parse_seed(&value).unwrap()
}

#[test]
fn c4_given_a_player_with_a_device_when_linked_again_then_refused_unless_replaced_which_revokes_the_old_and_withdraws_its_requests()
 {
    let mut log = table();
    assert_eq!(
        log.when(link("bea", "Aldric", false), &[]),
        Err(Refused::AlreadyLinked {
            player: "bea".into(),
            device: DeviceId(1)
        }
        .into())
    );
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    let replaced = log.then(link("Bea", "Aldric", true), &[]);
    assert_eq!(
        replaced,
        vec![
            Event::RollWithdrawn {
                request: RequestId(1)
            },
            Event::DeviceUnlinked {
                device: DeviceId(1)
            },
            Event::DeviceLinked {
                device: DeviceId(3),
                player: "Bea".into(),
                characters: vec!["Aldric".into()],
            },
        ]
    );
    assert_eq!(
        log.answer(RequestId(1), DeviceId(1), &[7; 32]),
        Err(Refused::Revoked.into()),
        "the old link answers nothing"
    );
}

#[test]
fn c4_given_a_link_when_made_then_the_log_names_the_device_and_only_the_tokens_hash_is_kept_as_a_secret()
 {
    let log = table();
    let mut kept = log.secrets_of_kind("device_token");
    kept.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(
        kept,
        vec![
            (token("Bea", false), "1".to_string()),
            (token("Cal", false), "2".to_string())
        ]
    );
    let state = log.state();
    assert_eq!(state.players.devices[&DeviceId(2)].player, "Cal");
    assert_eq!(
        state.players.devices[&DeviceId(2)].characters,
        vec!["Bryn".to_string()]
    );
    assert!(
        log.events()
            .iter()
            .all(|e| !e.to_payload().contains(&token("Bea", false))),
        "no event holds a link's hash"
    );
}

#[test]
fn c4_given_no_such_character_or_a_revoked_player_when_linking_or_unlinking_then_refused() {
    let mut log = table();
    assert!(matches!(
        log.when(link("Dee", "Zed", false), &[]),
        Err(RuleError::UnknownCharacter { .. })
    ));
    log.then(
        Command::UnlinkDevice {
            player: "CAL".into(),
        },
        &[],
    );
    assert_eq!(
        log.when(
            Command::UnlinkDevice {
                player: "Cal".into()
            },
            &[]
        ),
        Err(Refused::NoDevice("Cal".into()).into())
    );
    assert_eq!(
        log.when(put("Cal", roll_for("Bryn"), false), &[]),
        Err(Refused::NoDevice("Cal".into()).into())
    );
}

#[test]
fn c5_given_a_roll_put_to_a_device_when_it_answers_then_the_command_is_recorded_with_dice_from_the_secret_and_its_bytes()
 {
    let mut log = table();
    let requested = log.then(put("Bea", roll_for("Aldric"), false), &[]);
    let [
        Event::RollRequested {
            request: RequestId(1),
            device: DeviceId(1),
            commitment,
            witnessed: false,
            ..
        },
    ] = requested.as_slice()
    else {
        panic!("{requested:?}");
    };
    let g = secret_of(&log, RequestId(1));
    assert_eq!(
        *commitment,
        fairness::seed_commitment(&g),
        "the request commits to the secret kept"
    );
    let bytes = [0x5a; 32];
    let answered = log
        .answer(RequestId(1), DeviceId(1), &bytes)
        .unwrap()
        .unwrap();
    assert_eq!(
        answered[0],
        Event::RollAnswered {
            request: RequestId(1),
            contribution: hex::encode(bytes),
            secret: hex::encode(g),
            refused: None,
        }
    );
    let Event::DiceRolled {
        dice,
        total,
        character,
        ..
    } = &answered[1]
    else {
        panic!("{answered:?}");
    };
    assert_eq!(character.as_deref(), Some("Aldric"));
    let faces: Vec<u32> = dice.iter().map(|d| d.value.unwrap()).collect();
    let derived: Vec<u32> = (0..2)
        .map(|n| fairness::device_part(&g, RequestId(1), &bytes, n, 0, 6))
        .collect();
    assert_eq!(faces, derived);
    assert_eq!(*total, Some(i64::from(faces[0] + faces[1])));
    assert!(dice.iter().all(|d| d.provenance
        == crate::dice::Provenance::Device {
            request: RequestId(1),
            witnessed: false
        }));
    assert_eq!(
        log.state().players.requests[&RequestId(1)].status,
        RequestStatus::Answered { seq: Seq(8) }
    );
}

#[test]
fn c5_given_an_answered_request_when_other_bytes_arrive_then_refused_and_the_same_bytes_get_the_recorded_answer()
 {
    let mut log = table();
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    log.answer(RequestId(1), DeviceId(1), &[1; 32])
        .unwrap()
        .unwrap();
    let head = log.seq();
    assert_eq!(
        log.answer(RequestId(1), DeviceId(1), &[2; 32]),
        Err(Refused::Answered {
            request: RequestId(1),
            seq: Seq(8)
        }
        .into())
    );
    assert_eq!(
        log.answer(RequestId(1), DeviceId(1), &[1; 32]),
        Ok(Err(Seq(8))),
        "the phone that lost its connection"
    );
    assert_eq!(log.seq(), head, "nothing more was recorded");
}

#[test]
fn c5_given_requests_when_answered_by_another_device_after_a_withdrawal_or_with_too_few_bytes_then_refused_and_recorded_nowhere()
 {
    let mut log = table();
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    log.then(
        Command::WithdrawRoll {
            request: RequestId(2),
        },
        &[],
    );
    let head = log.seq();
    assert_eq!(
        log.answer(RequestId(1), DeviceId(2), &[3; 32]),
        Err(Refused::OtherDevice(RequestId(1)).into())
    );
    assert_eq!(
        log.answer(RequestId(2), DeviceId(1), &[3; 32]),
        Err(Refused::Withdrawn {
            request: RequestId(2),
            seq: Seq(9)
        }
        .into())
    );
    assert_eq!(
        log.answer(RequestId(9), DeviceId(1), &[3; 32]),
        Err(Refused::NoSuchRequest(RequestId(9)).into())
    );
    assert_eq!(
        log.answer(RequestId(1), DeviceId(1), &[3; 31]),
        Err(Refused::ContributionSize.into())
    );
    assert_eq!(log.seq(), head);
    assert_eq!(
        log.when(
            Command::WithdrawRoll {
                request: RequestId(2)
            },
            &[]
        ),
        Err(Refused::Withdrawn {
            request: RequestId(2),
            seq: Seq(9)
        }
        .into())
    );
    log.answer(RequestId(1), DeviceId(1), &[3; 32])
        .unwrap()
        .unwrap();
    assert_eq!(
        log.when(
            Command::WithdrawRoll {
                request: RequestId(1)
            },
            &[]
        ),
        Err(Refused::Answered {
            request: RequestId(1),
            seq: Seq(10)
        }
        .into()),
        "an answered roll is final"
    );
}

#[test]
fn c5_given_a_player_when_a_roll_for_another_players_character_is_put_to_them_then_refused() {
    let log = table();
    assert_eq!(
        log.when(put("Bea", roll_for("bryn"), false), &[]),
        Err(Refused::NotTheirs {
            player: "Bea".into(),
            character: "Bryn".into(),
            plays: "Aldric".into()
        }
        .into())
    );
}

#[test]
fn c5_given_a_request_when_its_character_is_gone_by_the_answer_then_the_answer_is_recorded_with_why_and_the_next_roll_put_again()
 {
    let mut log = table();
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    log.retract(Seq(3), "Aldric never joined");
    let weather = AskedCommand::Roll {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: Some("the weather".into()),
        character: None,
    };
    // Put to her phone again before the refusal was recorded: marked all the same.
    let mut early = log.fork();
    early.then(put("Bea", weather.clone(), true), &[]);
    early
        .answer(RequestId(1), DeviceId(1), &[4; 32])
        .unwrap()
        .unwrap();
    assert_eq!(
        early.state().players.requests[&RequestId(2)].put_again_after,
        vec![RequestId(1)]
    );
    let answered = log
        .answer(RequestId(1), DeviceId(1), &[4; 32])
        .unwrap()
        .unwrap();
    let [
        Event::RollAnswered {
            refused: Some(why), ..
        },
    ] = answered.as_slice()
    else {
        panic!("{answered:?}");
    };
    assert!(why.contains("Aldric"), "{why}");
    assert_eq!(
        log.answer(RequestId(1), DeviceId(1), &[5; 32]),
        Err(Refused::Answered {
            request: RequestId(1),
            seq: Seq(9)
        }
        .into())
    );
    // A refused answer recorded no roll: the next roll put to that phone is a roll put again, as
    // after a withdrawal (a refusal a GM's server made up could otherwise fish for a die).
    log.then(put("Bea", weather, true), &[]);
    assert_eq!(
        log.state().players.requests[&RequestId(2)].put_again_after,
        vec![RequestId(1)]
    );
}

#[test]
fn c6_given_the_gms_roll_witnessed_by_a_device_when_answered_then_its_dice_say_witnessed_and_any_character_may_be_named()
 {
    let mut log = table();
    log.then(put("Bea", roll_for("Bryn"), true), &[]);
    let answered = log
        .answer(RequestId(1), DeviceId(1), &[6; 32])
        .unwrap()
        .unwrap();
    let dice = answered[1].dice();
    assert_eq!(dice.len(), 2);
    assert!(dice.iter().all(|d| d.provenance
        == crate::dice::Provenance::Device {
            request: RequestId(1),
            witnessed: true
        }));
    let g = secret_of(&log, RequestId(1));
    assert_eq!(
        dice[1].value,
        Some(fairness::device_part(&g, RequestId(1), &[6; 32], 1, 0, 6))
    );
}

#[test]
fn c5_given_a_device_when_a_command_would_seal_a_die_then_the_dice_refuse() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let mut dice = crate::dice::Dice::device([1; 32], RequestId(1), vec![2; 32], false, &mut rng);
    assert_eq!(
        dice.roll_sealed(20, "a secret").unwrap_err(),
        crate::dice::DiceError::SealedOnDevice
    );
}

#[test]
fn c5_given_an_answered_roll_when_it_is_amended_then_refused_since_an_answered_roll_is_final() {
    let mut log = table();
    log.then(put("Bea", roll_for("Aldric"), false), &[]);
    log.answer(RequestId(1), DeviceId(1), &[8; 32])
        .unwrap()
        .unwrap();
    let rolled = log.seq();
    let moved = Command::Roll(crate::rules::campaign::DiceRoll {
        expression: DiceExpr::parse("2d6").unwrap(),
        purpose: Some("sneaking past the guard".into()),
        sealed: false,
        character: Some("Bryn".into()),
    });
    let amend = crate::rules::amend::Amendment {
        seq: rolled,
        command: Box::new(moved),
        read: None,
    };
    assert_eq!(
        log.when(Command::Amend(amend), &[]),
        Err(RuleError::AmendDeviceRoll(rolled))
    );
}

#[test]
fn c5_given_a_command_that_rolls_nothing_cannot_be_read_or_is_refused_now_when_put_to_a_device_then_refused_and_nothing_recorded()
 {
    let log = table();
    let system = |system: &str, path: &str| AskedCommand::System {
        system: system.into(),
        path: path.into(),
        given: [
            ("character".to_string(), vec!["Aldric".to_string()]),
            ("spell".to_string(), vec!["Fire Bolt".to_string()]),
        ]
        .into_iter()
        .collect(),
    };
    assert_eq!(
        log.when(put("Bea", system("vsd", "spell concentrate"), false), &[]),
        Err(Refused::RollsNothing.into())
    );
    assert_eq!(
        log.when(put("Bea", system("chess", "move"), false), &[]),
        Err(Refused::Unreadable("no rule system 'chess'".into()).into())
    );
    let unknown_ritual = AskedCommand::System {
        system: "adg".into(),
        path: "ritual cast".into(),
        given: [
            ("character".to_string(), vec!["Aldric".to_string()]),
            ("ritual".to_string(), vec!["Nonesuch".to_string()]),
        ]
        .into_iter()
        .collect(),
    };
    let Err(RuleError::Players(Refused::RefusedNow(why))) =
        log.when(put("Bea", unknown_ritual, false), &[])
    else {
        panic!("a ritual Aldric does not know is refused before it is put to a phone");
    };
    assert!(why.contains("Nonesuch"), "{why}");
}

#[test]
fn c5_given_bea_plays_aldric_when_his_healing_ritual_on_bryn_is_put_to_her_phone_then_it_is_put() {
    let mut log = Log::campaign();
    log.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet: Sheet::Adg(AdgSheet {
                level: 2,
                agility: 10,
                brawn: 10,
                cunning: 12,
                health: 5,
                silver: 0,
                knows: vec![crate::systems::adg::sheet::StartingRitual {
                    name: "Mend".into(),
                    kind: crate::systems::adg::event::RitualKind::Phrase,
                }],
            }),
        },
        &[],
    );
    log.then(joins("Bryn"), &[]);
    log.then(link("Bea", "Aldric", false), &[]);
    log.then(link("Cal", "Bryn", false), &[]);
    let healing = AskedCommand::System {
        system: "adg".into(),
        path: "ritual cast".into(),
        given: [
            ("character", "Aldric"),
            ("ritual", "Mend"),
            ("effect", "healing"),
            ("target", "Bryn"),
        ]
        .into_iter()
        .map(|(id, value)| (id.to_string(), vec![value.to_string()]))
        .collect(),
    };
    assert!(
        matches!(
            log.when(put("Cal", healing.clone(), false), &[]),
            Err(RuleError::Players(Refused::NotTheirs { .. }))
        ),
        "Bryn is healed, but Aldric acts"
    );
    let put = log.then(put("Bea", healing, false), &[]);
    assert!(
        matches!(
            put.as_slice(),
            [Event::RollRequested {
                device: DeviceId(1),
                ..
            }]
        ),
        "{put:?}"
    );
}

/// Every command that rolls names the one who acts, so a player's phone can be checked
/// against it; and the browser's check, written apart, names the same argument for each.
#[test]
fn c5_every_command_that_rolls_names_the_character_who_acts_as_the_browsers_check_reads_it() {
    use crate::systems::contract::command::SystemCommands;
    use crate::systems::registry::{SystemId, on_system};
    let checker = crate::report::kit::verifier();
    assert!(checker.contains(&format!(
        "const ACTING_RULE_SINCE = {};",
        crate::event::ACTING_RULE_SINCE
    )));
    for id in SystemId::ALL {
        let acting: Vec<(&str, Option<&str>)> = on_system!(*id, SystemId, |S| S::commands()
            .iter()
            .filter(|c| c.rolls())
            .map(|c| (c.path, c.acting()))
            .collect());
        for (path, arg) in acting {
            let Some(arg) = arg else {
                panic!("`{path}` rolls but names no one who acts");
            };
            // The table grimoire gives the page's script, every acting command in it.
            let entry = format!("\"{} {path}\":\"{arg}\"", id.key());
            assert!(
                checker.contains(&entry),
                "the browser's check lacks {entry}"
            );
        }
    }
}
