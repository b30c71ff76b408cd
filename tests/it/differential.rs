//! The two checkers of docs/export.md held to one truth: `grimoire verify`'s own check and the
//! players' page (its JavaScript, in real headless Chromium with WebCrypto taken away) give the
//! same verdict, naming the same first event, on thousands of exports changed at random and on
//! purpose (src/differential.rs). The changes are drawn from a seed printed with the test (set
//! GRIMOIRE_DIFFERENTIAL_SEED to draw the same ones again); it changes with every run.

use crate::report::browse;
use grimoire::differential::{
    at_version, grimoire_verdict, grimoire_verdict_in_words, mutations, page_verdicts, rows_of,
    seed_in_capitals_rechained, text_of, write_check_page,
};
use grimoire::event::SCHEMA_VERSION;

/// How many changed exports each run judges (the benchmark judges more).
const CASES: usize = 2000;

fn seed() -> u64 {
    std::env::var("GRIMOIRE_DIFFERENTIAL_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |since| since.as_nanos() as u64)
        })
}

#[test]
fn both_checkers_give_the_same_verdict_on_thousands_of_changed_exports() {
    let Some(browser) = crate::browser::chromium_or_skip("both_checkers_give_the_same_verdict")
    else {
        return;
    };
    assert!(
        grimoire::report::kit::verifier()
            .contains(&format!("const SCHEMA_VERSION = {SCHEMA_VERSION};")),
        "the page's check must know the payload version grimoire writes"
    );
    let seed = seed();
    println!(
        "differential seed {seed}: GRIMOIRE_DIFFERENTIAL_SEED={seed} draws these changes again"
    );
    // Today's campaign, and an older one (every kind of event, of payload version 2) as it was
    // written and raised to today's version.
    let (c, _) = crate::player_check::campaign();
    let fresh = rows_of(&c.ok(&["export"]));
    let every_kind = rows_of(include_str!("../../fixtures/state/every-kind.jsonl"));
    let older = every_kind[..48].to_vec();
    let bases = vec![
        fresh.clone(),
        fresh,
        older.clone(),
        at_version(&older, SCHEMA_VERSION),
    ];

    let mut cases = mutations(&bases, seed, CASES);
    // A seed revealed in capitals, on the older campaign as written and as raised to today's
    // version, whatever the seed drew.
    cases.extend(
        [&older, &bases[3]].into_iter().map(|rows| {
            seed_in_capitals_rechained(rows).expect("the older campaign reveals a seed")
        }),
    );
    let mut exports: Vec<String> = bases.iter().map(|rows| text_of(rows)).collect();
    exports.extend(cases.iter().map(|case| case.text.clone()));
    let dir = tempfile::tempdir().unwrap();
    let page = write_check_page(dir.path(), &exports, 100).unwrap();
    let (dom, _) = browse(&browser, &page, &["--dump-dom"]);
    let verdicts = page_verdicts(&dom).expect("the page's verdicts");
    assert_eq!(verdicts.len(), exports.len(), "seed {seed}");

    for (base, verdict) in exports.iter().zip(&verdicts).take(bases.len()) {
        assert_eq!(grimoire_verdict(base), (true, None), "seed {seed}");
        assert_eq!(
            verdict.as_ref().map(|v| (v.0, v.1)),
            Ok((true, None)),
            "seed {seed}: the page on a good export: {verdict:?}"
        );
    }
    let mut disagreements = Vec::new();
    let mut refused = 0;
    for (case, page) in cases.iter().zip(&verdicts[bases.len()..]) {
        let grimoire = grimoire_verdict_in_words(&case.text);
        refused += usize::from(!grimoire.0);
        if Ok((grimoire.0, grimoire.1)) != page.as_ref().map(|v| (v.0, v.1)) {
            disagreements.push(format!(
                "{}: grimoire says {grimoire:?}, the page {page:?}",
                case.what
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "seed {seed}: {} of {} disagree:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
    // Most changes must be caught, or the test would prove little; and among them the forgeries
    // the page once let through while grimoire refused them.
    assert!(
        refused * 2 > CASES,
        "seed {seed}: only {refused} of {CASES} refused"
    );
    // A seed revealed in capitals is refused in today's version and taken in an older one, as
    // the grimoire that wrote it took it.
    let capitals: Vec<bool> = cases
        .iter()
        .filter(|case| case.what.contains("the seed in capitals"))
        .map(|case| grimoire_verdict(&case.text).0)
        .collect();
    assert!(
        capitals.contains(&true) && capitals.contains(&false),
        "seed {seed}: {capitals:?}"
    );
    for forgery in [
        "the seed revealed again",
        "given the event id of",
        "amends with a",
        "names a character",
        "the seed in capitals",
        "a number respelled",
        "a key given twice",
        "byte",
    ] {
        assert!(
            cases
                .iter()
                .any(|case| case.what.contains(forgery) && !grimoire_verdict(&case.text).0),
            "seed {seed}: no export changed by {forgery:?} was refused"
        );
    }
}

/// Problems are named by the earliest events: a forger who adds many bad amendments of an early
/// event (each found when that event is read, long before the die it forged) cannot push the
/// forged die out of the report, nor be named before it.
#[test]
fn many_bad_amendments_never_bury_an_earlier_forged_die() {
    let (c, _) = crate::player_check::campaign();
    let mut rows = rows_of(&c.ok(&["export"]));
    let gate = rows
        .iter()
        .position(|r| r.kind == "dice_rolled" && r.payload.contains("the gate"))
        .expect("the gate's roll");
    let forged = rows[gate].payload.replacen("\"value\":", "\"value\":1", 1);
    rows[gate].payload = forged;
    let amendment = rows
        .iter()
        .find(|r| r.kind == "amended")
        .expect("an amendment")
        .clone();
    let target = serde_json::from_str::<serde_json::Value>(&amendment.payload).unwrap()["seq"]
        .as_u64()
        .unwrap();
    for n in 0..25 {
        let mut bad = amendment.clone();
        bad.seq = grimoire::seq::Seq(rows.len() as u64 + 1);
        bad.event_id = format!("00000000-0000-4000-8000-{n:012}");
        // Each names the campaign's creation, of another kind than the roll it carries.
        bad.payload = bad
            .payload
            .replacen(&format!("\"seq\":{target}"), "\"seq\":1", 1);
        rows.push(bad);
    }
    let text = text_of(&grimoire::differential::rechained(rows));
    let report = grimoire::verify::export(&text);
    let seqs: Vec<u64> = report.dice_problems.iter().map(|p| p.seq.get()).collect();
    assert_eq!(seqs.first(), Some(&(gate as u64 + 1)), "{report:#?}");
    assert!(seqs.windows(2).all(|w| w[0] <= w[1]), "{seqs:?}");
}

/// A second seed published for an epoch, one that opens nothing, is named itself: the honest dice
/// of that epoch are still checked against the seed that opens the commitment.
#[test]
fn a_forged_second_seed_reveal_is_named_and_honest_dice_stay_honest() {
    let (c, _) = crate::player_check::campaign();
    let mut rows = rows_of(&c.ok(&["export"]));
    let at = rows
        .iter()
        .position(|r| r.kind == "seed_revealed")
        .expect("a reveal");
    let mut forged = rows[at].clone();
    forged.event_id = "00000000-0000-4000-8000-000000000001".into();
    let seed = forged.payload.find("\"seed\":\"").unwrap() + 8;
    forged
        .payload
        .replace_range(seed..seed + 64, &"ab".repeat(32));
    rows.insert(at + 1, forged);
    for (n, row) in rows.iter_mut().enumerate() {
        row.seq = grimoire::seq::Seq(n as u64 + 1);
    }
    let text = text_of(&grimoire::differential::rechained(rows));
    let (holds, first, what) = grimoire_verdict_in_words(&text);
    assert!(!holds);
    assert_eq!(first, Some(at as u64 + 2), "{what:?}");
    let report = grimoire::verify::export(&text);
    assert!(report.seeded_dice_checked >= 4, "{report:#?}");
}

/// Forgeries in a shape serde alone would read and the page would not (each rechained, so only
/// its shape is wrong) get one verdict from both checkers, at the same event, in today's version
/// and an older one: a payload, a die, a sealed die's origin or opening, the command a phone is
/// asked for or an amendment's event written as a list of its values is refused by both (a seeded
/// die forged as a list once passed the page); a
/// die forged into a field no event of its kind has is passed over by both, as grimoire reads no
/// die there.
#[test]
fn a_list_for_a_group_of_fields_is_refused_by_both_checkers() {
    let Some(browser) = crate::browser::chromium_or_skip("a_list_for_a_group_of_fields") else {
        return;
    };
    let (c, _) = crate::player_check::campaign();
    let every_kind = rows_of(include_str!("../../fixtures/state/every-kind.jsonl"));
    // Each object at the top of `value` (or the whole, when it is one) as the list of its values:
    // a forgery both checkers refuse.
    fn as_lists(value: &mut serde_json::Value) -> Option<bool> {
        let listed = |v: &serde_json::Value| {
            serde_json::Value::Array(
                v.as_object()
                    .map_or_else(Vec::new, |o| o.values().cloned().collect()),
            )
        };
        match value {
            serde_json::Value::Array(items) => {
                items.iter_mut().for_each(|item| *item = listed(item))
            }
            other => *other = listed(other),
        }
        Some(true)
    }
    type Forge = fn(&mut serde_json::Value) -> Option<bool>;
    // Each changes a payload it fits (or passes it over) and says whether it is refused.
    let forgeries: [(&str, &str, Forge); 22] = [
        ("damage_taken", "the payload", |p| as_lists(p)),
        ("dice_rolled", "a die", |p| {
            let dice = p.get_mut("dice")?;
            let value = dice.get_mut(0)?.get_mut("value")?;
            *value = serde_json::json!(value.as_u64()? % 6 + 1);
            as_lists(dice)
        }),
        ("sealed_revealed", "an opening", |p| {
            as_lists(p.get_mut("dice")?)
        }),
        ("dice_rolled", "a sealed die's origin", |p| {
            let dice = p.get_mut("dice")?.as_array_mut()?;
            as_lists(
                dice.iter_mut()
                    .find_map(|die| die.get_mut("provenance")?.get_mut("origin"))?,
            )
        }),
        ("roll_requested", "the command asked", |p| {
            as_lists(p.get_mut("asked")?)
        }),
        ("roll_requested", "the words given to a command", |p| {
            let asked = p.get_mut("asked")?;
            *asked = serde_json::json!({
                "command": "system", "system": "vsd", "path": "cast", "given": {"caster": ["Mira"]}
            });
            as_lists(asked.get_mut("given")?)
        }),
        ("amended", "the amending event", |p| {
            as_lists(p.get_mut("event")?)
        }),
        ("damage_taken", "a die in a field its kind lacks", |p| {
            p.as_object_mut()?.insert(
                "dice".into(),
                serde_json::json!([{"n":0,"purpose":"x","sides":20,"value":25,"provenance":{"source":"entered"}}]),
            );
            Some(false)
        }),
        (
            "dice_rolled",
            "a sealed die naming an epoch never begun",
            |p| {
                let dice = p.get_mut("dice")?.as_array_mut()?;
                let origin = dice
                    .iter_mut()
                    .find_map(|die| die.get_mut("provenance")?.get_mut("origin"))?;
                *origin.get_mut("epoch")? = serde_json::json!(99);
                Some(true)
            },
        ),
        // Fields another source has, written on a die whose source lacks them (even in shapes
        // grimoire would refuse where they belong): passed over by both.
        (
            "dice_rolled",
            "an origin and a witness a source lacks",
            |p| {
                let dice = p.get_mut("dice")?.as_array_mut()?;
                let provenance = dice.first_mut()?.get_mut("provenance")?.as_object_mut()?;
                let other = match provenance.get("source")?.as_str()? {
                    "seeded" | "entered" => "origin",
                    _ => "witness",
                };
                provenance.insert(other.into(), serde_json::json!([1, "x"]));
                Some(false)
            },
        ),
        (
            "amended",
            "the carried dice written in another order",
            |p| {
                // serde_json writes an object's keys sorted, not in the order grimoire writes them.
                p.get("event")?
                    .get("dice")?
                    .as_array()
                    .filter(|d| !d.is_empty())?;
                Some(false)
            },
        ),
        // A die the page would read otherwise than grimoire: refused by both.
        ("dice_rolled", "a die of a source neither knows", |p| {
            *p.get_mut("dice")?
                .get_mut(0)?
                .get_mut("provenance")?
                .get_mut("source")? = serde_json::json!("dreamed");
            Some(true)
        }),
        ("dice_rolled", "a die's face as text", |p| {
            let value = p.get_mut("dice")?.get_mut(0)?.get_mut("value")?;
            *value = serde_json::json!(value.to_string());
            Some(true)
        }),
        (
            "sealed_revealed",
            "an opening's further faces not a list",
            |p| {
                let opening = p.get_mut("dice")?.get_mut(0)?.as_object_mut()?;
                opening.insert("then".into(), serde_json::json!({"0": 3}));
                Some(true)
            },
        ),
        (
            "dice_rolled",
            "a sealed die of other sides than its expression rolls",
            |p| {
                // One still sealed (a revealed one's faces are held to its sides as well).
                if p.get("total").is_some() || p.get("purpose")? != "still secret" {
                    return None;
                }
                *p.get_mut("dice")?.get_mut(0)?.get_mut("sides")? = serde_json::json!(28);
                Some(true)
            },
        ),
        (
            "dice_rolled",
            "a sealed roll with fewer dice than its expression rolls",
            |p| {
                // The open-ended chain sealed whole, its expression now a d20 and that chain: the d20
                // left out (or, as a forger would, the chain taken for it).
                let chain = p.get("expression")?.as_str()?.to_string();
                if p.get("total").is_some() || !chain.ends_with("oe") || chain.contains('+') {
                    return None;
                }
                *p.get_mut("expression")? = serde_json::json!(format!("d20+{chain}"));
                Some(true)
            },
        ),
        ("dice_rolled", "an expression past grimoire's limits", |p| {
            let expression = p.get("expression")?.as_str()?.to_string();
            *p.get_mut("expression")? = serde_json::json!(format!("{expression}+0d6"));
            Some(true)
        }),
        ("session_started", "a session's entropy left out", |p| {
            p.as_object_mut()?.remove("entropy")?;
            Some(true)
        }),
        ("campaign_created", "the campaign's id as a number", |p| {
            *p.get_mut("campaign_id")? = serde_json::json!(7);
            Some(true)
        }),
        ("amended", "the carried dice not a list", |p| {
            *p.get_mut("event")?.get_mut("dice")? = serde_json::json!({"n": 0});
            Some(true)
        }),
        // A phone's request and answer read to grimoire's types (found by the sixth hostile
        // pass: the page held a request "witnessed" as text, and named a later event for an
        // answer "refused" as false).
        ("roll_requested", "a request witnessed as text", |p| {
            p.as_object_mut()?
                .insert("witnessed".into(), serde_json::json!("false"));
            Some(true)
        }),
        ("roll_answered", "an answer refused as false", |p| {
            p.as_object_mut()?
                .insert("refused".into(), serde_json::json!(false));
            Some(true)
        }),
    ];
    let mut exports = Vec::new();
    let mut expected = Vec::new();
    for base in [rows_of(&c.ok(&["export"])), every_kind[..48].to_vec()] {
        for (kind, what, forge) in &forgeries {
            let mut rows = base.clone();
            let Some((at, refused)) = rows.iter_mut().enumerate().find_map(|(at, row)| {
                if row.kind != *kind {
                    return None;
                }
                let mut payload: serde_json::Value = serde_json::from_str(&row.payload).ok()?;
                let refused = forge(&mut payload)?;
                row.payload = payload.to_string();
                Some((at, refused))
            }) else {
                continue;
            };
            exports.push(text_of(&grimoire::differential::rechained(rows)));
            expected.push((*what, refused.then_some(at as u64 + 1)));
        }
    }
    assert!(expected.len() >= 10, "{expected:?}");
    for what in [
        "a sealed die's origin",
        "the command asked",
        "the words given to a command",
        "a sealed die naming an epoch never begun",
        "the carried dice written in another order",
        "a die of a source neither knows",
        "an opening's further faces not a list",
        "a sealed die of other sides than its expression rolls",
        "a sealed roll with fewer dice than its expression rolls",
        "an expression past grimoire's limits",
    ] {
        assert!(
            expected.iter().any(|(w, _)| *w == what),
            "{what}: {expected:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let page = write_check_page(dir.path(), &exports, 1).unwrap();
    let (dom, _) = browse(&browser, &page, &["--dump-dom"]);
    let verdicts = page_verdicts(&dom).expect("the page's verdicts");
    for ((export, (what, refused_at)), page) in exports.iter().zip(expected).zip(verdicts) {
        let (holds, first, said) = grimoire_verdict_in_words(export);
        assert_eq!(
            (holds, first),
            (refused_at.is_none(), refused_at),
            "{what}: {said:?}"
        );
        // A shape is refused for its shape, not for something it happened to break.
        let why = match what {
            "a sealed die naming an epoch never begun" => "claims epoch 99",
            "the carried dice not a list" => "the field 'event'",
            "a die of a source neither knows" => "dreamed",
            "a sealed die of other sides than its expression rolls"
            | "a sealed roll with fewer dice than its expression rolls" => {
                "not the dice its expression"
            }
            "a session's entropy left out" => "entropy",
            "an expression past grimoire's limits" => "expression",
            "the campaign's id as a number" => "campaign_id",
            "a die's face as text" => "value",
            "an opening's further faces not a list" => "then",
            "a request witnessed as text" => "witnessed",
            "an answer refused as false" => "refused",
            _ => "a list",
        };
        if refused_at.is_some() {
            assert!(
                said.as_deref().is_some_and(|s| s.contains(why)
                    || (what == "the payload" && s.contains("not a JSON object"))),
                "{what}: {said:?}"
            );
        }
        let page = page.expect("the page judges it");
        assert_eq!(
            (page.0, page.1),
            (holds, first),
            "{what}: the page says {page:?}"
        );
    }
}

/// A forger who knows the published seed searches for a witness's entropy that derives the face
/// they want, and writes that witness where the die's source has none (an origin on a seeded
/// die): grimoire passes such a field over and derives with the session's entropy, and so must
/// the page, or it would say all holds on a die the GM chose.
#[test]
fn a_witness_where_a_dies_source_has_none_steers_neither_checker() {
    use grimoire::dice::fairness::{DiePosition, parse_seed, seeded_face};
    let Some(browser) = crate::browser::chromium_or_skip("a_witness_where_a_dies_source_has_none")
    else {
        return;
    };
    let (c, _) = crate::player_check::campaign();
    let mut rows = rows_of(&c.ok(&["export"]));
    let payload = |row: &grimoire::store::StoredRow| {
        serde_json::from_str::<serde_json::Value>(&row.payload).unwrap()
    };
    let campaign_id = payload(&rows[0])["campaign_id"]
        .as_str()
        .unwrap()
        .to_string();
    let seed = rows
        .iter()
        .map(payload)
        .find(|p| p["kind"] == "seed_revealed" && p["epoch"] == 1)
        .and_then(|p| parse_seed(p["seed"].as_str()?))
        .expect("epoch 1's seed, published");
    let at = rows
        .iter()
        .position(|r| r.kind == "dice_rolled" && r.payload.contains("the gate"))
        .expect("the gate's roll, a seeded d20 of epoch 1");
    let mut forged = payload(&rows[at]);
    let die = &mut forged["dice"][0];
    assert_eq!(die["provenance"]["source"], "seeded", "{die}");
    let (n, sides) = (
        die["n"].as_u64().unwrap() as u32,
        die["sides"].as_u64().unwrap() as u32,
    );
    let wanted = die["value"].as_u64().unwrap() as u32 % sides + 1;
    let roll = die["provenance"]["roll"].as_u64();
    let entropy = (0..100_000)
        .map(|k| format!("e{k}"))
        .find(|entropy| {
            let pos = DiePosition {
                campaign_id: &campaign_id,
                epoch: 1,
                seq: grimoire::seq::Seq(at as u64 + 1),
                roll,
                n,
                entropy,
            };
            seeded_face(&seed, &pos, sides) == wanted
        })
        .expect("an entropy giving the wanted face");
    die["value"] = serde_json::json!(wanted);
    die["provenance"]["origin"] = serde_json::json!({
        "source": "seeded", "epoch": 1, "witness": {"entropy": entropy, "by": "Bea"}
    });
    // A lone d20: its total is its face.
    forged["total"] = serde_json::json!(wanted);
    rows[at].payload = forged.to_string();
    both_refuse_at(&browser, rows, at as u64 + 1);
}

/// An epoch bound to the seq (begun by the first grimoire) still binds each die to its place in
/// the command's draws: a die given another `n` is another die of the derivation, which a GM could
/// pick for its face. Both checkers hold a command's seeded dice to 0 to k − 1 there too, and
/// refuse an epoch begun at a payload version whose grimoire always named its derivation when the
/// derivation is left out (so no later log can be made to bind its dice to the seq).
#[test]
fn a_seq_bound_epoch_holds_its_dice_to_their_draw_order_and_only_old_logs_have_one() {
    let Some(browser) = crate::browser::chromium_or_skip("a_seq_bound_epoch") else {
        return;
    };
    let old = crate::support::Campaign::from_the_first_schema();
    let rolled = old.json(&["roll", "3d6", "--for", "the stairs"]);
    let seq = rolled["appended"][0]["seq"]
        .as_u64()
        .expect("the roll's seq");
    let honest = rows_of(&old.ok(&["export"]));
    let mut moved = honest.clone();
    let at = (seq - 1) as usize;
    let payload = moved[at].payload.replacen("\"n\":2,", "\"n\":3,", 1);
    assert_ne!(payload, moved[at].payload, "the third die");
    moved[at].payload = payload;
    let (c, _) = crate::player_check::campaign();
    let mut unnamed = rows_of(&c.ok(&["export"]));
    unnamed[0].payload = unnamed[0].payload.replacen(",\"derivation\":2", "", 1);
    let exports = [
        text_of(&honest),
        text_of(&grimoire::differential::rechained(moved)),
        text_of(&grimoire::differential::rechained(unnamed)),
    ];
    let expected = [(true, None), (false, Some(seq)), (false, Some(1))];
    let dir = tempfile::tempdir().unwrap();
    let page = write_check_page(dir.path(), &exports, 1).unwrap();
    let (dom, _) = browse(&browser, &page, &["--dump-dom"]);
    let verdicts = page_verdicts(&dom).expect("the page's verdicts");
    for ((export, expected), page) in exports.iter().zip(expected).zip(verdicts) {
        let (holds, first, said) = grimoire_verdict_in_words(export);
        assert_eq!((holds, first), expected, "{said:?}");
        if !holds {
            let said = said.unwrap_or_default();
            assert!(
                said.contains("not numbered 0 to 2") || said.contains("names no derivation"),
                "{said}"
            );
        }
        let page = page.expect("the page judges it");
        assert_eq!((page.0, page.1), expected, "the page says {page:?}");
    }
}

/// The GM's server holds a request's secret and sees the phone's bytes before it writes the dice:
/// a die given another `n` is another face of the same secret and bytes, which it could choose.
/// Both checkers hold the answer's dice to 0, 1, 2, … in draw order (C-5: the dice are made from
/// the secret and the bytes, in the order the command draws them).
#[test]
fn c5_a_phones_die_given_another_place_in_the_draws_is_refused_by_both_checkers() {
    use grimoire::dice::fairness::device_part;
    let Some(browser) = crate::browser::chromium_or_skip("a_phones_die_given_another_place") else {
        return;
    };
    let PhoneRoll {
        mut rows,
        secret,
        contribution,
        at,
    } = phone_roll();
    let mut forged = payload(&rows[at]);
    let request = grimoire::ids::RequestId(1);
    let die = &mut forged["dice"][1];
    let sides = die["sides"].as_u64().unwrap() as u32;
    // Its second die read from another place of the same secret and bytes: still above the first,
    // as a die in draw order would be, and showing what that place gives.
    die["n"] = serde_json::json!(5);
    die["value"] = serde_json::json!(device_part(&secret, request, &contribution, 5, 0, sides));
    let faces: u64 = (0..2)
        .map(|k| forged["dice"][k]["value"].as_u64().unwrap())
        .sum();
    forged["total"] = serde_json::json!(faces);
    rows[at].payload = forged.to_string();
    let said = both_refuse_at(&browser, rows, at as u64 + 1);
    assert!(said.contains("in draw order"), "{said}");
}

/// A roll put to a phone is recorded once, by the roll it asked for, and holds only the dice its
/// answer made (C-5). The GM's server sees the phone's bytes before it writes the dice: an event
/// slipped in before the roll that spends the answer's first dice, a second copy of the roll, or a
/// die typed in among the phone's would each let it show a face of its choosing. Both checkers
/// refuse each at the event that does it (found by the sixth hostile pass).
#[test]
fn c5_a_roll_put_to_a_phone_is_recorded_once_by_the_roll_it_asked_for() {
    use grimoire::dice::fairness::device_part;
    let Some(browser) = crate::browser::chromium_or_skip("a_roll_put_to_a_phone_once") else {
        return;
    };
    let PhoneRoll {
        rows,
        secret,
        contribution,
        at,
    } = phone_roll();
    let request = grimoire::ids::RequestId(1);
    let phone_die = |n: u32, sides: u32| {
        serde_json::json!({
            "n": n, "purpose": "2d6", "sides": sides,
            "value": device_part(&secret, request, &contribution, n, 0, sides),
            "provenance": {"source": "device", "request": 1},
        })
    };
    // The roll with its dice taken from `first` on, and an event of `inserted` put before it in
    // the same run of rows; the log cut after the roll, so no later event names a moved seq.
    let forged = |first: u32, inserted: Option<serde_json::Value>| {
        let mut cut: Vec<grimoire::store::StoredRow> = rows[..=at].to_vec();
        let mut roll = payload(&rows[at]);
        roll["dice"] = serde_json::json!([phone_die(first, 6), phone_die(first + 1, 6)]);
        roll["total"] = serde_json::json!(
            (0..2)
                .map(|k| roll["dice"][k]["value"].as_u64().unwrap())
                .sum::<u64>()
        );
        cut[at].payload = roll.to_string();
        if let Some(inserted) = inserted {
            cut.insert(at, copied_as(&rows[at], at as u64 + 1, &inserted));
            for (k, row) in cut.iter_mut().enumerate() {
                row.seq = grimoire::seq::Seq(k as u64 + 1);
            }
        }
        cut
    };
    let slipped_in = serde_json::json!({
        "kind": "ritual_discovered", "character": "Aldric", "ritual": "Kindling Ash",
        "words": ["Kindling", "Ash"], "dice": [phone_die(0, 20), phone_die(1, 20)],
    });
    let said = both_refuse_at(&browser, forged(2, Some(slipped_in)), at as u64 + 1);
    assert!(said.contains("asked for a free roll"), "{said}");
    let mut copy = payload(&rows[at]);
    copy["dice"] = serde_json::json!([phone_die(0, 6), phone_die(1, 6)]);
    let said = both_refuse_at(&browser, forged(2, Some(copy)), at as u64 + 2);
    assert!(said.contains("recorded already"), "{said}");
    let mut typed = forged(0, None);
    let mut roll = payload(&typed[at]);
    roll["dice"][1] = serde_json::json!({
        "n": 1, "purpose": "2d6", "sides": 6, "value": 6, "provenance": {"source": "entered"},
    });
    roll["total"] = serde_json::json!(roll["dice"][0]["value"].as_u64().unwrap() + 6);
    typed[at].payload = roll.to_string();
    let said = both_refuse_at(&browser, typed, at as u64 + 1);
    assert!(said.contains("did not make"), "{said}");
    // An answered roll is final: an amendment of it (here its expression and total raised) is
    // one no grimoire writing this version records.
    let mut amended = forged(0, None);
    let mut roll = payload(&amended[at]);
    let total = roll["total"].as_u64().unwrap();
    roll["expression"] = serde_json::json!("2d6+5");
    roll["total"] = serde_json::json!(total + 5);
    let amendment = serde_json::json!({
        "kind": "amended", "seq": at + 1, "event": roll, "outcome_changed": true,
        "changed": ["expression: 2d6 → 2d6+5", format!("total: {total} → {}", total + 5)],
    });
    amended.push(copied_as(&amended[at], at as u64 + 2, &amendment));
    let said = both_refuse_at(&browser, amended, at as u64 + 2);
    assert!(said.contains("an answered roll is final"), "{said}");
    // An amendment is never amended: an event is amended again by a new amendment of itself.
    let mut twice = rows.clone();
    let first = twice
        .iter()
        .position(|r| r.kind == "amended")
        .expect("the climb's amendment");
    let again = serde_json::json!({
        "kind": "amended", "seq": first + 1, "event": payload(&twice[first]),
        "changed": [], "outcome_changed": false,
    });
    twice.push(copied_as(&twice[first], rows.len() as u64 + 1, &again));
    let said = both_refuse_at(&browser, twice, rows.len() as u64 + 1);
    assert!(said.contains("itself an amendment"), "{said}");
    // The players' events are the record of how dice were made: a retraction of an answer (which
    // would drop a put-again mark from grimoire's own views) is one grimoire never records.
    let mut undone = rows.clone();
    let answered_at = undone
        .iter()
        .position(|r| r.kind == "roll_answered")
        .expect("an answer");
    let mut retraction = payload(
        undone
            .iter()
            .find(|r| r.kind == "retracted")
            .expect("the slip's retraction"),
    );
    retraction["seq"] = serde_json::json!(answered_at + 1);
    undone.push(copied_as(
        &rows[rows.len() - 1],
        rows.len() as u64 + 1,
        &retraction,
    ));
    let said = both_refuse_at(&browser, undone, rows.len() as u64 + 1);
    assert!(said.contains("never retracts"), "{said}");
    // Nor does it amend one: a request amended before its answer would have the phone's dice
    // decide a command its player never saw (the ninth hostile pass).
    let mut changed = rows.clone();
    let asked_at = changed
        .iter()
        .position(|r| r.kind == "roll_requested")
        .expect("a request");
    let amendment = serde_json::json!({
        "kind": "amended", "seq": asked_at + 1, "event": payload(&changed[asked_at]),
        "changed": [], "outcome_changed": false,
    });
    changed.push(copied_as(
        &rows[rows.len() - 1],
        rows.len() as u64 + 1,
        &amendment,
    ));
    let said = both_refuse_at(&browser, changed, rows.len() as u64 + 1);
    assert!(said.contains("never amends"), "{said}");
    // A rule system's command put to the phone has its dice in that system's events, not in a
    // free roll's.
    let mut system = forged(0, None);
    let asked_at = system
        .iter()
        .position(|r| r.kind == "roll_requested" && r.payload.contains("\"request\":1"))
        .expect("request 1");
    let mut asked = payload(&system[asked_at]);
    asked["asked"] = serde_json::json!({
        "command": "system", "system": "adg", "path": "scroll read", "given": {},
    });
    system[asked_at].payload = asked.to_string();
    let said = both_refuse_at(&browser, system, at as u64 + 1);
    assert!(said.contains("of the adg rules"), "{said}");
    // The roll as it was still holds in both.
    let honest = text_of(&grimoire::differential::rechained(forged(0, None)));
    assert!(
        grimoire_verdict_in_words(&honest).0,
        "the honest roll holds"
    );
}

/// In an epoch bound to the seq, a downtime whose own event draws no die (nights that do not heal)
/// begins a command all the same: the Ceremony scroll written in it shares no draws with a free
/// roll recorded in the same second before it. Both checkers called this honest log forged ("die 0
/// of #N's command was drawn before"; found by the sixth hostile pass).
#[test]
fn a_downtime_scroll_after_a_roll_in_the_same_second_holds_in_both_checkers() {
    let Some(browser) = crate::browser::chromium_or_skip("a_downtime_scroll_after_a_roll") else {
        return;
    };
    let old = crate::support::Campaign::from_the_first_schema();
    let mut tables = crate::support::sample_tables();
    tables["settings"]["night_rest_heals"] = false.into();
    let file = old.dir.path().join("tables.json");
    std::fs::write(&file, tables.to_string()).unwrap();
    old.ok(&["tables", "load", file.to_str().unwrap()]);
    old.ok(&[
        "--rolls",
        "1,2",
        "ritual",
        "learn",
        "Aldric",
        "Burning Wind",
        "--type",
        "ceremony",
        "--pay",
        "health",
    ]);
    old.ok(&["silver", "Aldric", "+500", "--reason", "loot"]);
    old.ok(&["roll", "d20", "--for", "before the week"]);
    old.ok(&[
        "downtime",
        "--party",
        "--weeks",
        "1",
        "--week",
        "Aldric: scribe Burning Wind, level 1, effect: a warm hearth",
        "--week",
        "Mira: training: circle",
    ]);
    let text = text_of(&rows_of(&old.ok(&["export"])));
    let (holds, first, said) = grimoire_verdict_in_words(&text);
    assert_eq!((holds, first), (true, None), "{said:?}");
    let dir = tempfile::tempdir().unwrap();
    let page = write_check_page(dir.path(), &[text], 1).unwrap();
    let (dom, _) = browse(&browser, &page, &["--dump-dom"]);
    let verdict = page_verdicts(&dom).expect("the page's verdict").remove(0);
    assert_eq!(verdict.map(|v| (v.0, v.1)), Ok((true, None)));
}

/// The export of [`crate::player_check::campaign`], with the secret and bytes of request 1's
/// answer and where the 2d6 Bea's phone rolled for it stands.
struct PhoneRoll {
    rows: Vec<grimoire::store::StoredRow>,
    secret: [u8; 32],
    contribution: Vec<u8>,
    at: usize,
}

fn phone_roll() -> PhoneRoll {
    let (c, _) = crate::player_check::campaign();
    let rows = rows_of(&c.ok(&["export"]));
    let answer = rows
        .iter()
        .map(payload)
        .find(|p| p["kind"] == "roll_answered" && p["request"] == 1)
        .expect("request 1's answer");
    let secret: [u8; 32] = hex::decode(answer["secret"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    let contribution = hex::decode(answer["contribution"].as_str().unwrap()).unwrap();
    let at = rows
        .iter()
        .position(|r| r.kind == "dice_rolled" && r.payload.contains("\"request\":1"))
        .expect("the 2d6 Bea's phone rolled");
    PhoneRoll {
        rows,
        secret,
        contribution,
        at,
    }
}

/// A copy of `row` to put in the log at `seq` holding `payload` (of the kind it names), with another
/// event id: `row`'s with its last digit changed.
fn copied_as(
    row: &grimoire::store::StoredRow,
    seq: u64,
    payload: &serde_json::Value,
) -> grimoire::store::StoredRow {
    let last = if row.event_id.ends_with('0') {
        "1"
    } else {
        "0"
    };
    grimoire::store::StoredRow {
        seq: grimoire::seq::Seq(seq),
        event_id: format!("{}{last}", &row.event_id[..row.event_id.len() - 1]),
        kind: payload["kind"].as_str().unwrap_or_default().to_string(),
        payload: payload.to_string(),
        ..row.clone()
    }
}

fn payload(row: &grimoire::store::StoredRow) -> serde_json::Value {
    serde_json::from_str(&row.payload).unwrap()
}

/// Rechains `rows` and has both checkers judge them: each must name `seq` first. Returns what
/// grimoire says there.
fn both_refuse_at(
    browser: &std::path::Path,
    rows: Vec<grimoire::store::StoredRow>,
    seq: u64,
) -> String {
    let text = text_of(&grimoire::differential::rechained(rows));
    let (holds, first, said) = grimoire_verdict_in_words(&text);
    assert_eq!((holds, first), (false, Some(seq)), "{said:?}");
    let dir = tempfile::tempdir().unwrap();
    let page = write_check_page(dir.path(), &[text], 1).unwrap();
    let (dom, _) = browse(browser, &page, &["--dump-dom"]);
    let verdict = page_verdicts(&dom).expect("the page's verdict").remove(0);
    let verdict = verdict.expect("the page judges it");
    assert_eq!((verdict.0, verdict.1), (false, Some(seq)), "{verdict:?}");
    said.unwrap_or_default()
}
