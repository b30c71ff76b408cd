use super::*;
use crate::dice::Provenance;
use crate::systems::registry::AnyEvent;
use by_kind::owner;

#[test]
fn the_kind_column_matches_the_payload_tag() {
    let event = Event::Healed {
        character: "Aldric".into(),
        amount: 3,
        reason: None,
    };
    let payload = event.to_payload();
    assert!(payload.contains("\"kind\":\"healed\""), "{payload}");
    assert_eq!(Event::from_stored("healed", 1, &payload).unwrap(), event);
    assert!(matches!(
        Event::from_stored("damage_taken", 1, &payload),
        Err(PayloadError::KindMismatch { .. })
    ));
}

/// Payloads grimoire wrote are read by naming their variant; anything else by serde's general
/// path. Both must read a payload the same way, or refuse it.
#[test]
fn a_payload_reads_the_same_by_its_kind_as_by_its_tag() {
    let healed = Event::Healed {
        character: "Aldric".into(),
        amount: 3,
        reason: None,
    };
    let reordered = r#"{"character":"Aldric","amount":3,"kind":"healed"}"#;
    assert_eq!(
        Event::from_stored("healed", 1, reordered),
        Ok(healed.clone())
    );
    let extra_field = r#"{"kind":"healed","character":"Aldric","amount":3,"note":"x"}"#;
    assert_eq!(
        serde_json::from_str::<Event>(extra_field).ok(),
        Some(healed.clone())
    );
    assert_eq!(Event::from_stored("healed", 1, extra_field), Ok(healed));
    for unreadable in [
        r#"{"kind":"healed","character":"Aldric","amount":3}x"#,
        r#"{"kind":"healed","character":"Aldric"}"#,
        r#"{"kind":"healed","character":"Aldric","amount":-3}"#,
        r#"{"kind":"healed""#,
    ] {
        assert!(
            serde_json::from_str::<Event>(unreadable).is_err(),
            "the general path refuses {unreadable}"
        );
        assert!(
            matches!(
                Event::from_stored("healed", 1, unreadable),
                Err(PayloadError::Unreadable { .. })
            ),
            "{unreadable}"
        );
    }
    // A kind no variant has is refused on either path.
    let unknown = r#"{"kind":"fireball","character":"Aldric"}"#;
    assert!(Event::from_stored("fireball", 1, unknown).is_err());
}

#[test]
fn an_old_payload_is_upcast_step_by_step_before_it_is_read() {
    // A pretend history: `healed` once stored `hp`, renamed to `amount` at version 2, and a
    // version 3 that added nothing but a marker field later dropped.
    fn rename(mut v: serde_json::Value) -> serde_json::Value {
        if let Some(hp) = v.as_object_mut().and_then(|o| o.remove("hp")) {
            v["amount"] = hp;
        }
        v
    }
    fn unmark(mut v: serde_json::Value) -> serde_json::Value {
        v.as_object_mut().map(|o| o.remove("marker"));
        v
    }
    let steps = [
        Upcaster {
            kind: "healed",
            from: 1,
            step: rename,
        },
        Upcaster {
            kind: "healed",
            from: 2,
            step: unmark,
        },
    ];
    let old =
        serde_json::json!({ "kind": "healed", "character": "Aldric", "hp": 3, "marker": true });
    let value = upcast("healed", 1, 3, old, &steps).unwrap();
    let event: Event = serde_json::from_value(value).unwrap();
    assert_eq!(
        event,
        Event::Healed {
            character: "Aldric".into(),
            amount: 3,
            reason: None
        }
    );
    let missing = upcast("damage_taken", 1, 2, serde_json::json!({}), &steps);
    assert!(matches!(missing, Err(PayloadError::Unreadable { .. })));
    // An unknown old version with no upcaster is refused, not misread.
    let payload = Event::SessionEnded { number: 1 }.to_payload();
    assert!(Event::from_stored("session_ended", 0, &payload).is_err());
}

#[test]
fn a_payload_from_a_newer_grimoire_is_refused_not_misread() {
    let payload = Event::SessionEnded { number: 1 }.to_payload();
    assert!(matches!(
        Event::from_stored("session_ended", SCHEMA_VERSION + 1, &payload),
        Err(PayloadError::Newer { .. })
    ));
}

#[test]
fn dice_are_found_in_events_that_hold_them() {
    let die = Die {
        n: 0,
        purpose: "p".into(),
        sides: 6,
        value: Some(3),
        provenance: Provenance::Entered,
    };
    let event = Event::DiceRolled {
        expression: DiceExpr::parse("d6").unwrap(),
        purpose: None,
        dice: vec![die.clone()],
        total: Some(3),
        character: None,
    };
    assert_eq!(event.dice(), &[die]);
}

/// Each kind is read through the enum that declares it: the core's, or its rule system's, whose
/// names come from the derive itself.
#[test]
fn a_system_kind_reads_through_its_own_system_enum_by_its_kind() {
    use crate::systems::registry::SystemId;
    assert_eq!(owner("healed"), None);
    assert_eq!(owner("ritual_cast"), Some(SystemId::Adg));
    assert_eq!(owner("scroll_outcome_rolled"), Some(SystemId::Adg));
    assert_eq!(owner("spell_cast"), Some(SystemId::Vsd));
    assert_eq!(owner("condition_cleared"), Some(SystemId::Vsd));
    assert_eq!(owner("fireball"), None);
    let exerted = Event::System(AnyEvent::Adg(
        crate::systems::adg::event::AdgEvent::Exerted {
            character: "Aldric".into(),
            attribute: crate::systems::adg::tables::Attribute::Brawn,
            amount: 2,
            reason: "a climb".into(),
        },
    ));
    let payload = exerted.to_payload();
    assert!(payload.starts_with(r#"{"kind":"exerted""#), "{payload}");
    assert_eq!(
        Event::from_stored("exerted", 2, &payload),
        Ok(exerted.clone())
    );
    assert_eq!(serde_json::from_str::<Event>(&payload).ok(), Some(exerted));
    // A system kind stored under another kind's column is refused, as a core one is.
    assert!(matches!(
        Event::from_stored("spell_cast", 2, &payload),
        Err(PayloadError::KindMismatch { .. }) | Err(PayloadError::Unreadable { .. })
    ));
}

/// Reads find a character's events by the folded name; the quick comparison must agree with folding
/// for every name, plain or not.
#[test]
fn a_name_folds_to_what_fold_name_gives_whatever_its_letters() {
    for (name, folded) in [
        ("Aldric", "aldric"),
        ("  ALDRIC ", "aldric"),
        ("Aldric", "aldrik"),
        ("Ærwen", "ærwen"),
        ("ÆRWEN", "ærwen"),
        ("Ὀδυσσεύς", "ὀδυσσεύς"),
        ("Aldric", "Aldric"),
        ("Bryn", "aldric"),
    ] {
        assert_eq!(
            folds_to(name, folded),
            fold_name(name) == folded,
            "{name} / {folded}"
        );
    }
}

/// A list of an event's values is not that event, at any version: no grimoire wrote one, and the
/// page's check refuses it (serde's general path alone would read one).
#[test]
fn a_payload_that_is_not_an_object_is_refused_at_every_version() {
    for version in 0..=SCHEMA_VERSION {
        for payload in [
            r#"["healed","Aldric",3]"#,
            r#" ["healed","Aldric",3,null]"#,
            r#""healed""#,
            "3",
            "null",
        ] {
            let read = Event::from_stored("healed", version, payload);
            assert!(
                matches!(&read, Err(PayloadError::Unreadable { detail, .. }) if detail == "it is not a JSON object"),
                "version {version}, {payload}: {read:?}"
            );
        }
    }
}

/// Before the canonical form, a payload was read inside one more level than it holds: one nested
/// as deep as serde allows in that form was refused by the grimoire that wrote it, and still is,
/// in words; a canonical payload (at most 126 deep) is read without that level.
#[test]
fn a_pre_canonical_payload_nested_past_serdes_limit_is_still_refused() {
    // An amendment of an amendment of … a healing: each amendment one level deeper.
    let nested = |depth: usize| {
        let healed = r#"{"kind":"healed","character":"Aldric","amount":3}"#.to_string();
        (0..depth).fold(healed, |event, _| {
            format!(
                r#"{{"kind":"amended","seq":1,"event":{event},"changed":[],"outcome_changed":false}}"#
            )
        })
    };
    let deepest_read = |version: u32| {
        (100..140)
            .take_while(|&depth| Event::from_stored("amended", version, &nested(depth)).is_ok())
            .last()
    };
    for version in 1..CANONICAL_SINCE {
        let deepest = deepest_read(version).expect("shallow payloads read");
        assert_eq!(
            Some(deepest + 1),
            deepest_read(CANONICAL_SINCE),
            "version {version}"
        );
        let read = Event::from_stored("amended", version, &nested(deepest + 1));
        assert!(
            matches!(&read, Err(PayloadError::Unreadable { detail, .. }) if detail.contains("deeper than grimoire reads")),
            "{read:?}"
        );
    }
}

/// The page reads dice where grimoire does: every kind whose events hold dice (each kind of the
/// fixture that holds them) is on the list the page is given, and a kind without dice is not.
#[test]
fn every_kind_whose_events_hold_dice_is_on_the_list_the_page_reads() {
    let listed = kinds_with_dice();
    let mut holding = std::collections::BTreeSet::new();
    for line in include_str!("../../fixtures/state/every-kind.jsonl").lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = row["kind"].as_str().unwrap();
        let version = row["schema_version"].as_u64().unwrap() as u32;
        let event = Event::from_stored(kind, version, &row["payload"].to_string()).unwrap();
        if !event.dice().is_empty() {
            holding.insert(event.kind());
        }
    }
    assert!(holding.len() >= 8, "{holding:?}");
    for kind in &holding {
        assert!(listed.contains(kind), "{kind} holds dice: {listed:?}");
    }
    for kind in [
        "healed",
        "damage_taken",
        "amended",
        "retracted",
        "seed_revealed",
    ] {
        assert!(!listed.contains(&kind), "{kind}: {listed:?}");
    }
    assert!(
        listed.contains(&"sealed_revealed"),
        "its openings: {listed:?}"
    );
}

/// A die (its sealed origin and witness too), a sealed die's opening and the event an amendment
/// carries are read only from a JSON object: serde's derive would also read a list of their values, which no grimoire writes and the
/// page does not read (a forged die in that form was checked by one checker only).
#[test]
fn a_die_an_opening_or_an_amending_event_written_as_a_list_is_refused() {
    let die = r#"{"n":0,"purpose":"free roll d20","sides":20,"value":7,"provenance":{"source":"entered"}}"#;
    let as_list = r#"[0,"free roll d20",20,7,{"source":"entered"}]"#;
    let rolled = |die: &str| {
        format!(r#"{{"kind":"dice_rolled","expression":"d20","dice":[{die}],"total":7}}"#)
    };
    let opened =
        |opening: &str| format!(r#"{{"kind":"sealed_revealed","seq":3,"dice":[{opening}]}}"#);
    let amended = |event: &str| {
        format!(
            r#"{{"kind":"amended","seq":3,"event":{event},"changed":[],"outcome_changed":false}}"#
        )
    };
    let healed = r#"{"kind":"healed","character":"Aldric","amount":3}"#;
    for version in [2, CANONICAL_SINCE, SCHEMA_VERSION] {
        assert!(Event::from_stored("dice_rolled", version, &rolled(die)).is_ok());
        assert!(
            Event::from_stored(
                "sealed_revealed",
                version,
                &opened(r#"{"n":0,"value":7,"nonce":"00000000000000000000000000000000"}"#)
            )
            .is_ok()
        );
        assert!(Event::from_stored("amended", version, &amended(healed)).is_ok());
        for (kind, payload, said) in [
            (
                "dice_rolled",
                rolled(as_list),
                "a die written as a group of fields",
            ),
            (
                "sealed_revealed",
                opened(r#"[0,7,"00000000000000000000000000000000"]"#),
                "an opened die written as a group of fields",
            ),
            (
                "amended",
                amended(r#"["healed","Aldric",3]"#),
                "an event written as a group of fields",
            ),
            (
                "dice_rolled",
                rolled(&die.replace(
                    r#"{"source":"entered"}"#,
                    r#"{"source":"sealed","commitment":"00","origin":["seeded",1]}"#,
                )),
                "a sealed die's origin written as a group of fields",
            ),
            (
                "dice_rolled",
                rolled(&die.replace(
                    r#"{"source":"entered"}"#,
                    r#"{"source":"seeded","epoch":1,"witness":["owls","Bea"]}"#,
                )),
                "a witness written as a group of fields",
            ),
        ] {
            let read = Event::from_stored(kind, version, &payload);
            assert!(
                matches!(&read, Err(PayloadError::Unreadable { detail, .. }) if detail.contains(said) && detail.contains("a list")),
                "version {version}: {read:?}"
            );
        }
    }
}
