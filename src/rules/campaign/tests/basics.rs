//! The campaign's own commands: creation, characters, health, the clock, sessions and rolls.

use super::*;

#[test]
fn given_no_campaign_when_anything_but_creation_then_refused() {
    let err = when(&given(&[]), Command::EndSession, vec![]).unwrap_err();
    assert_eq!(err, RuleError::NoCampaign);
}

#[test]
fn given_a_campaign_when_created_again_then_refused() {
    let command = Command::CreateCampaign {
        campaign_id: "x".into(),
        name: "Other".into(),
        seed_commitment: "c".into(),
        sealed_commitment: "d".into(),
    };
    assert_eq!(
        when(&given(&[created()]), command, vec![]),
        Err(RuleError::AlreadyCreated("The Sunken Vault".into()))
    );
}

#[test]
fn given_a_character_when_another_takes_the_name_in_other_case_then_refused() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let command = Command::AddCharacter {
        name: "ALDRIC".into(),
        sheet: a_novice_sheet(),
    };
    assert_eq!(
        when(&state, command, vec![]),
        Err(RuleError::DuplicateCharacter("Aldric".into()))
    );
}

#[test]
fn given_a_campaign_when_a_name_or_reason_is_not_one_short_line_then_refused() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let named = |name: &str| Command::AddCharacter {
        name: name.into(),
        sheet: a_novice_sheet(),
    };
    assert_eq!(
        when(&state, named("Bran\nthe Bold"), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::NotOneLine(
            "character's name"
        )))
    );
    assert_eq!(
        when(&state, named(&"y".repeat(61)), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::TooLong {
            what: "character's name",
            length: 61,
            max: 60
        }))
    );
    assert!(when(&state, named(&"Ÿ".repeat(60)), vec![]).is_ok());
    let retract = |reason: String| {
        Command::Retract(Retraction {
            seq: Some(Seq(2)),
            last: false,
            target: Some(adg("Aldric", 8)),
            restoring: None,
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            reason,
            names_after: Default::default(),
        })
    };
    assert_eq!(
        when(&state, retract("x".repeat(501)), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::TooLong {
            what: "reason",
            length: 501,
            max: 500
        }))
    );
    assert_eq!(
        when(&state, retract("a typo\tin the sheet".into()), vec![]),
        Err(RuleError::Text(crate::text::TextProblem::NotOneLine(
            "reason"
        )))
    );
}

#[test]
fn adg_c2_given_a_character_when_damaged_then_health_drops_and_never_below_zero() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let events = when(
        &state,
        Command::Damage(HealthChange {
            character: "aldric".into(),
            amount: 3,
            reason: None,
        }),
        vec![],
    )
    .unwrap();
    assert_eq!(
        events,
        vec![Event::DamageTaken {
            character: "Aldric".into(),
            amount: 3,
            reason: None
        }]
    );
    let after = given(&[created(), adg("Aldric", 8), events[0].clone()]);
    assert_eq!(
        after.character("Aldric").unwrap().health.unwrap().current,
        5
    );
    let overkill = given(&[
        created(),
        adg("Aldric", 8),
        Event::DamageTaken {
            character: "Aldric".into(),
            amount: 50,
            reason: None,
        },
    ]);
    assert_eq!(
        overkill
            .character("Aldric")
            .unwrap()
            .health
            .unwrap()
            .current,
        0
    );
}

#[test]
fn adg_c2_given_a_wounded_character_when_healed_then_health_is_capped_at_max() {
    let state = given(&[
        created(),
        adg("Aldric", 8),
        Event::DamageTaken {
            character: "Aldric".into(),
            amount: 3,
            reason: None,
        },
        Event::Healed {
            character: "Aldric".into(),
            amount: 10,
            reason: None,
        },
    ]);
    assert_eq!(
        state.character("Aldric").unwrap().health.unwrap().current,
        8
    );
}

#[test]
fn given_an_unknown_name_when_damaged_then_refused_listing_who_exists() {
    let state = given(&[created(), adg("Aldric", 8)]);
    let err = when(
        &state,
        Command::Damage(HealthChange {
            character: "Bob".into(),
            amount: 1,
            reason: None,
        }),
        vec![],
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "no character named 'Bob'; known: Aldric");
}

#[test]
fn given_a_vsd_character_without_health_when_damaged_then_refused() {
    let mira = Event::CharacterAdded {
        name: "Mira".into(),
        sheet: Sheet::Vsd(VsdSheet {
            level: 3,
            vocation: "wizard".into(),
            lores: vec![],
            mp: 12,
            drive: 3,
            body: 40,
            wsr: 20,
            defense: 10,
            health: None,
        }),
    };
    let state = given(&[created(), mira]);
    let err = when(
        &state,
        Command::Damage(HealthChange {
            character: "Mira".into(),
            amount: 1,
            reason: None,
        }),
        vec![],
    )
    .unwrap_err();
    assert_eq!(err, RuleError::NoHealth("Mira".into()));
}

#[test]
fn t1_given_a_campaign_when_time_advances_then_the_clock_moves() {
    let by = GameDuration::parse("2h").unwrap();
    let state = given(&[
        created(),
        Event::ClockAdvanced { by },
        Event::ClockAdvanced { by },
    ]);
    assert_eq!(state.clock.seconds(), 4 * 3600);
}

#[test]
fn given_an_open_session_when_another_starts_then_refused_and_numbers_follow_on() {
    let open = given(&[
        created(),
        Event::SessionStarted {
            number: 1,
            entropy: "".into(),
        },
    ]);
    assert_eq!(
        when(
            &open,
            Command::StartSession(SessionStart {
                entropy: "x".into()
            }),
            vec![]
        ),
        Err(RuleError::SessionOpen(1))
    );
    let closed = given(&[
        created(),
        Event::SessionStarted {
            number: 1,
            entropy: "".into(),
        },
        Event::SessionEnded { number: 1 },
    ]);
    let events = when(
        &closed,
        Command::StartSession(SessionStart {
            entropy: "owl".into(),
        }),
        vec![],
    )
    .unwrap();
    assert_eq!(
        events,
        vec![Event::SessionStarted {
            number: 2,
            entropy: "owl".into()
        }]
    );
    assert_eq!(
        when(&closed, Command::EndSession, vec![]),
        Err(RuleError::NoSessionOpen)
    );
}

#[test]
fn given_entered_dice_when_rolling_then_the_event_holds_every_die_and_the_total() {
    let state = given(&[created()]);
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("2d6+3").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
    let events = when(&state, command, vec![5, 1]).unwrap();
    let Event::DiceRolled { dice, total, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(*total, Some(9));
    assert_eq!(
        dice.iter().map(|d| d.value).collect::<Vec<_>>(),
        vec![Some(5), Some(1)]
    );
}

#[test]
fn vsd1_given_a_campaign_when_rolling_open_ended_then_the_chain_is_recorded() {
    let state = given(&[created()]);
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("oe").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
    let events = when(&state, command, vec![98, 96, 20]).unwrap();
    let Event::DiceRolled { dice, total, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((dice.len(), *total), (3, Some(214)));
}

#[test]
fn given_a_sealed_roll_when_revealed_with_the_right_secret_then_the_values_are_published() {
    let mut rng = StdRng::seed_from_u64(1);
    let state = given(&[created()]);
    let mut dice = Dice::entered(vec![17], &mut rng);
    let command = Command::Roll(DiceRoll {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        sealed: true,
        character: None,
    });
    let rolled = decide(&state, command, &mut dice).unwrap();
    let secrets = dice.finish().unwrap();
    let after = given(&[created(), rolled[0].clone()]);
    assert_eq!(after.sealed_pending.len(), 1);

    let reveal = when(
        &after,
        Command::RevealSealed(SealedReveal {
            seq: Seq(2),
            secrets: secrets.clone(),
        }),
        vec![],
    )
    .unwrap();
    let Event::SealedRevealed { dice, .. } = &reveal[0] else {
        panic!("{reveal:?}")
    };
    assert_eq!(dice[0].value, 17);

    let forged = vec![SealedSecret {
        value: 3,
        ..secrets[0].clone()
    }];
    assert_eq!(
        when(
            &after,
            Command::RevealSealed(SealedReveal {
                seq: Seq(2),
                secrets: forged
            }),
            vec![]
        ),
        Err(RuleError::SecretMismatch { seq: Seq(2), n: 0 })
    );
    let done = given(&[created(), rolled[0].clone(), reveal[0].clone()]);
    assert_eq!(
        when(
            &done,
            Command::RevealSealed(SealedReveal {
                seq: Seq(2),
                secrets
            }),
            vec![]
        ),
        Err(RuleError::NothingSealed(Seq(2)))
    );
    // An event past the log's end is not "without sealed dice": it is not there at all.
    assert_eq!(
        when(
            &done,
            Command::RevealSealed(SealedReveal {
                seq: Seq(99),
                secrets: Vec::new()
            }),
            vec![]
        ),
        Err(RuleError::NoSuchEvent(Seq(99), Seq(3)))
    );
}
