//! The players' check in the report (src/web/checker/), run in real headless Chromium with
//! WebCrypto taken away, and held to `grimoire verify`: the same verdict, naming the same first
//! seq, on a good export and on hundreds of tampered ones (fields edited, rows dropped, events
//! swapped, dice, openings and seeds forged and the chain rebuilt around them).

use crate::report::{browse, browse_as};
use crate::support::Campaign;
use grimoire::differential::{rechained, rows_of, text_of};
use grimoire::seq::Seq;
use grimoire::store::StoredRow;
use serde_json::Value;

/// Chromium, or `None` when the machine has none and CI does not ask for it.
fn browser() -> Option<std::path::PathBuf> {
    super::browser::chromium_or_skip("the player's check")
}

/// Two epochs: the first's seed published (its seeded dice checkable, a sealed roll opened, an
/// amendment), the second's still secret (its dice awaiting). Returns the amended roll's seq too.
pub(crate) fn campaign() -> (Campaign, u64) {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls at midnight"]);
    c.ok(&["roll", "d20", "--for", "the gate"]);
    c.ok(&["--rolls", "4,6", "roll", "2d6", "--for", "falling stones"]);
    c.ok(&["roll", "oe+45"]);
    let sealed = c.seq_of(&["roll", "oe", "--sealed", "--for", "the guardian"]);
    c.ok(&["reveal", &sealed.to_string()]);
    // A sealed die the GM typed: only its faces and its commitment vouch for it.
    let typed = c.seq_of(&[
        "--rolls", "12", "roll", "d20", "--sealed", "--for", "the trap",
    ]);
    c.ok(&["reveal", &typed.to_string()]);
    let hit = c.seq_of(&["roll", "2d6+3", "--for", "a climb"]);
    c.ok(&[
        "amend",
        &hit.to_string(),
        "--",
        "roll",
        "2d6+5",
        "--for",
        "a climb",
    ]);
    let slip = c.seq_of(&["roll", "d6", "--for", "a slip"]).to_string();
    // A roll between the slip and its retraction: C-2 marks it too.
    c.ok(&["roll", "d4", "--for", "the goblin"]);
    c.ok(&["retract", &slip, "--reason", "rolled for the wrong thing"]);
    c.ok(&["roll", "d6", "--for", "the lock"]);
    c.ok(&["damage", "Aldric", "3", "--reason", "a ghoul's claw"]);
    c.ok(&["session", "end"]);
    c.ok(&["seed", "reveal"]);
    c.ok(&["session", "start", "--entropy", "rain"]);
    c.ok(&["roll", "d100", "--for", "epoch two"]);
    c.ok(&["roll", "d20", "--sealed", "--for", "still secret"]);
    // A roll a player's phone made, and one of the GM's it witnessed: checkable at once.
    let bea = crate::players_dice::link(&c, "Bea", "Aldric");
    c.ok(&[
        "roll",
        "2d6",
        "--character",
        "Aldric",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    c.ok(&[
        "roll",
        "d20",
        "--for",
        "the weather",
        "--witnessed-by",
        "Bea",
        "--no-wait",
    ]);
    let served = crate::serve::Served::start(&c);
    for (request, bytes) in [(1, "5a"), (2, "c3")] {
        let answered = crate::players_dice::answer(&served, &bea, request, &bytes.repeat(32));
        assert_eq!(answered.status, 200, "{}", answered.body);
    }
    drop(served);
    // A Fire Bolt that fumbles (3), fails (60 + 50 = 110) and strikes the goblin instead: its
    // attack roll, owed, is rolled by `spell fire` (a kind of payload version 5).
    c.ok(&crate::support::LEARN_FIRE_BOLT);
    c.ok(&[
        "--rolls",
        "3,60",
        "spell",
        "cast",
        "Mira",
        "Fire Bolt",
        "--target",
        "the troll",
    ]);
    c.ok(&["choose", "Mira", "other-target", "--target", "the goblin"]);
    c.ok(&["--rolls", "50", "spell", "fire", "Mira", "--defense", "10"]);
    (c, hit)
}

fn edit_payload(row: &mut StoredRow, edit: impl FnOnce(&mut Value)) {
    let mut payload: Value = serde_json::from_str(&row.payload).unwrap();
    edit(&mut payload);
    row.payload = serde_json::to_string(&payload).unwrap();
}

/// Every tampered export, each with a few words on what was done.
fn tampered(good: &[StoredRow]) -> Vec<(String, Vec<StoredRow>)> {
    let mut cases = Vec::new();
    let n = good.len();
    // One edit of a fresh copy; `rechain` rebuilds the chain around it, as a forger would.
    let mut case = |what: String, rechain: bool, edit: &dyn Fn(&mut Vec<StoredRow>)| {
        let mut rows = good.to_vec();
        edit(&mut rows);
        cases.push((what, if rechain { rechained(rows) } else { rows }));
    };
    for i in 0..n {
        let at = i + 1;
        case(format!("#{at} recorded_at edited"), false, &|r| {
            r[i].recorded_at = "2026-12-24T00:00:00Z".into()
        });
        case(format!("#{at} actor edited"), false, &|r| {
            r[i].actor.push('x')
        });
        case(format!("#{at} event_id edited"), false, &|r| {
            r[i].event_id = r[i].event_id.replace('-', "_")
        });
        case(format!("#{at} game_time edited"), false, &|r| {
            r[i].game_time += 60
        });
        case(format!("#{at} session edited"), false, &|r| {
            r[i].session = Some(r[i].session.map_or(9, |s| s + 1))
        });
        // Re-chained, a row restamped into another session (or out of one) is still caught:
        // both checkers follow the sessions' edges themselves.
        case(format!("#{at} session restamped, rechained"), true, &|r| {
            r[i].session = match r[i].session {
                Some(_) => None,
                None => Some(1),
            }
        });
        case(format!("#{at} schema_version edited"), false, &|r| {
            r[i].schema_version = 1
        });
        // Re-chained, a row taken back to the first payload version would skip today's text
        // rules: both checkers say it was written by hand.
        if i > 0 {
            case(
                format!("#{at} schema_version taken back, rechained"),
                true,
                &|r| r[i].schema_version = 1,
            );
        }
        case(format!("#{at} prev_hash edited"), false, &|r| {
            r[i].prev_hash = "1".repeat(64)
        });
        case(format!("#{at} hash edited"), false, &|r| {
            r[i].hash = "f".repeat(64)
        });
        case(format!("#{at} payload edited"), false, &|r| {
            edit_payload(&mut r[i], |p| p["forged"] = Value::Bool(true))
        });
        // (The last row dropped is a shorter log, which only a checkpoint tells.)
        if i > 0 && i + 1 < n {
            case(format!("#{at} dropped"), false, &|r| {
                r.remove(i);
            });
        }
        if i + 1 < n {
            // The events trade places; each keeps the place's number.
            case(format!("#{at} and #{} swapped", at + 1), false, &|r| {
                let (a, b) = (r[i].clone(), r[i + 1].clone());
                r[i] = StoredRow {
                    seq: a.seq,
                    ..b.clone()
                };
                r[i + 1] = StoredRow { seq: b.seq, ..a };
            });
        }
    }
    // Forgeries with the chain rebuilt around them: only the shapes and the dice can tell.
    for i in 0..n {
        let at = i + 1;
        case(
            format!("#{at} event id not a UUID, rechained"),
            true,
            &|r| r[i].event_id = "not-a-uuid".into(),
        );
        case(
            format!("#{at} recorded_at not a time, rechained"),
            true,
            &|r| r[i].recorded_at = "yesterday".into(),
        );
        let payload: Value = serde_json::from_str(&good[i].payload).unwrap();
        let kind = good[i].kind.as_str();
        if let Some(dice) = payload["dice"]
            .as_array()
            .filter(|_| kind != "sealed_revealed")
        {
            for (d, die) in dice.iter().enumerate() {
                let sides = die["sides"].as_u64().unwrap();
                if let Some(value) = die["value"].as_u64() {
                    case(format!("#{at} die {d} forged, rechained"), true, &|r| {
                        edit_payload(&mut r[i], |p| {
                            p["dice"][d]["value"] = (value % sides + 1).into()
                        })
                    });
                    case(
                        format!("#{at} die {d} shows a face it lacks, rechained"),
                        true,
                        &|r| {
                            edit_payload(&mut r[i], |p| p["dice"][d]["value"] = (sides + 3).into())
                        },
                    );
                }
                if let Some(roll) = die["provenance"]["roll"].as_u64() {
                    case(
                        format!("#{at} die {d}'s roll moved, rechained"),
                        true,
                        &|r| {
                            edit_payload(&mut r[i], |p| {
                                p["dice"][d]["provenance"]["roll"] = (roll + 1).into()
                            })
                        },
                    );
                }
            }
        }
        let opening = |edit: fn(&mut Value)| {
            move |r: &mut Vec<StoredRow>| edit_payload(&mut r[i], |p| edit(&mut p["dice"][0]))
        };
        match kind {
            "dice_rolled" if payload["total"].is_null() => case(
                format!("#{at} a sealed roll given a total, rechained"),
                true,
                &|r| edit_payload(&mut r[i], |p| p["total"] = 7.into()),
            ),
            "dice_rolled" => {
                let die = &payload["dice"][0];
                let (sides, value) = (
                    die["sides"].as_u64().unwrap(),
                    die["value"].as_u64().unwrap(),
                );
                // Another die that could show the same face: the total still adds up.
                let other = if sides > value.max(2) {
                    value.max(2)
                } else {
                    sides + 1
                };
                case(
                    format!("#{at} die 0 said to be a d{other}, rechained"),
                    true,
                    &|r| edit_payload(&mut r[i], |p| p["dice"][0]["sides"] = other.into()),
                );
                // A roll a device made, presented as another than the one its request asked for,
                // or its dice passed off as typed at the table (the answer then used by none).
                if die["provenance"]["source"] == "device" {
                    case(
                        format!("#{at} device roll's purpose changed, rechained"),
                        true,
                        &|r| edit_payload(&mut r[i], |p| p["purpose"] = "something else".into()),
                    );
                    case(
                        format!("#{at} device roll's character changed, rechained"),
                        true,
                        &|r| edit_payload(&mut r[i], |p| p["character"] = "Mira".into()),
                    );
                    case(
                        format!("#{at} device's dice relabelled entered, rechained"),
                        true,
                        &|r| {
                            edit_payload(&mut r[i], |p| {
                                for die in p["dice"].as_array_mut().unwrap() {
                                    die["provenance"] = serde_json::json!({ "source": "entered" });
                                }
                            })
                        },
                    );
                }
            }
            "amended" => {
                case(
                    format!("#{at} amendment's dice forged, rechained"),
                    true,
                    &|r| {
                        edit_payload(&mut r[i], |p| {
                            let value = p["event"]["dice"][0]["value"].as_u64().unwrap();
                            p["event"]["dice"][0]["value"] = (value % 6 + 1).into();
                        })
                    },
                );
                case(
                    format!("#{at} an amended roll's total changed, rechained"),
                    true,
                    &|r| {
                        edit_payload(&mut r[i], |p| {
                            p["event"]["total"] = (p["event"]["total"].as_i64().unwrap() + 1).into()
                        })
                    },
                );
            }
            "sealed_revealed" => {
                // Faces no die rolled that way shows, sealed anew to match (the GM holds the
                // nonce): the commitment opens, the faces still cannot be.
                let target = payload["seq"].as_u64().unwrap();
                let nonce = payload["dice"][0]["nonce"].as_str().unwrap().to_string();
                let resealed = |faces: Vec<u32>| {
                    let nonce = nonce.clone();
                    move |r: &mut Vec<StoredRow>| {
                        let commitment =
                            grimoire::dice::sealed::commitment(&nonce, &faces).unwrap();
                        edit_payload(&mut r[i], |p| {
                            p["dice"][0]["value"] = faces[0].into();
                            p["dice"][0]["then"] = faces[1..].to_vec().into();
                        });
                        let sealed = r.iter().position(|row| row.seq == target).unwrap();
                        edit_payload(&mut r[sealed], |p| {
                            p["dice"][0]["provenance"]["commitment"] = commitment.into()
                        });
                    }
                };
                case(
                    format!("#{at} opened on a face off its die, resealed, rechained"),
                    true,
                    &resealed(vec![150]),
                );
                case(
                    format!("#{at} opened as a chain that goes on after 10, resealed, rechained"),
                    true,
                    &resealed(vec![10, 4]),
                );
                case(
                    format!("#{at} opening forged, rechained"),
                    true,
                    &opening(|d| d["value"] = (d["value"].as_u64().unwrap() % 100 + 1).into()),
                );
                case(
                    format!("#{at} nonce in capitals, rechained"),
                    true,
                    &opening(|d| d["nonce"] = d["nonce"].as_str().unwrap().to_uppercase().into()),
                );
                case(
                    format!("#{at} nonce lengthened, rechained"),
                    true,
                    &opening(|d| d["nonce"] = format!("{}00", d["nonce"].as_str().unwrap()).into()),
                );
                case(
                    format!("#{at} reveals a die its event never sealed, rechained"),
                    true,
                    &opening(|d| d["n"] = 5.into()),
                );
                case(
                    format!("#{at} opened a second time, rechained"),
                    true,
                    &|r| {
                        let last = r.last().unwrap().clone();
                        r.push(StoredRow {
                            seq: last.seq + 1,
                            event_id: "00000000-0000-4000-8000-000000000001".into(),
                            game_time: last.game_time,
                            session: last.session,
                            ..r[i].clone()
                        });
                    },
                );
            }
            "retracted" => case(format!("#{at} retracts #0, rechained"), true, &|r| {
                edit_payload(&mut r[i], |p| p["seq"] = 0.into())
            }),
            "roll_requested" => {
                case(format!("#{at} commitment changed, rechained"), true, &|r| {
                    edit_payload(&mut r[i], |p| p["commitment"] = "ab".repeat(32).into())
                });
                case(
                    format!("#{at} put to a device never linked, rechained"),
                    true,
                    &|r| edit_payload(&mut r[i], |p| p["device"] = 9.into()),
                );
                if payload["witnessed"] == false {
                    case(
                        format!("#{at} rolls for a character its player does not play, rechained"),
                        true,
                        &|r| edit_payload(&mut r[i], |p| p["asked"]["character"] = "Mira".into()),
                    );
                }
            }
            "roll_answered" => {
                case(
                    format!("#{at} device's secret swapped, rechained"),
                    true,
                    &|r| edit_payload(&mut r[i], |p| p["secret"] = "ab".repeat(32).into()),
                );
                case(
                    format!("#{at} device's bytes changed, rechained"),
                    true,
                    &|r| edit_payload(&mut r[i], |p| p["contribution"] = "cd".repeat(32).into()),
                );
                case(
                    format!("#{at} device's answer given twice, rechained"),
                    true,
                    &|r| {
                        let again = r[i].clone();
                        r.insert(i + 1, again);
                        for (k, row) in r.iter_mut().enumerate() {
                            row.seq = Seq(k as u64 + 1);
                        }
                        r[i + 1].event_id = "00000000-0000-4000-8000-000000000002".into();
                    },
                );
            }
            "seed_revealed" => case(format!("#{at} seed swapped, rechained"), true, &|r| {
                edit_payload(&mut r[i], |p| p["seed"] = "ab".repeat(32).into())
            }),
            // Written as an older version, it is of a kind that version did not have.
            "attack_rolled" => case(
                format!("#1 to #{at} of payload version 4, rechained"),
                true,
                &|r| {
                    for row in &mut r[..=i] {
                        row.schema_version = 4;
                    }
                },
            ),
            "sealed_seed_revealed" => {
                case(
                    format!("#{at} seed for sealed dice swapped, rechained"),
                    true,
                    &|r| edit_payload(&mut r[i], |p| p["seed"] = "ab".repeat(32).into()),
                );
                // Left out, its epoch's sealed dice could be anything the GM chose.
                case(
                    format!("#{at} seed for sealed dice never published, rechained"),
                    true,
                    &|r| {
                        r.remove(i);
                        for (k, row) in r.iter_mut().enumerate() {
                            row.seq = Seq(k as u64 + 1);
                        }
                    },
                );
            }
            "session_started" => case(format!("#{at} entropy changed, rechained"), true, &|r| {
                edit_payload(&mut r[i], |p| p["entropy"] = "other words".into())
            }),
            _ => {}
        }
    }
    cases
}

/// `grimoire verify` on `rows` put in place of a copy of the campaign's log (its secrets and
/// snapshots removed, as in a public copy): whether all holds, and the first seq named.
pub(crate) fn grimoire_verdict(
    c: &Campaign,
    rows: &[StoredRow],
    at: &std::path::Path,
) -> (bool, Option<u64>) {
    std::fs::copy(&c.db, at).unwrap();
    let conn = rusqlite::Connection::open(at).unwrap();
    conn.execute_batch(
        "DROP TRIGGER events_refuse_update; DROP TRIGGER events_refuse_delete;
         DELETE FROM events; DELETE FROM snapshots; DELETE FROM secrets;",
    )
    .unwrap();
    for r in rows {
        conn.execute(
            "INSERT INTO events (seq, event_id, kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            rusqlite::params![r.seq.get() as i64, r.event_id, r.kind, r.schema_version, r.payload, r.game_time as i64, r.recorded_at, r.session, r.actor, r.prev_hash, r.hash],
        )
        .unwrap();
    }
    drop(conn);
    let out = c
        .cmd()
        .args(["--db", at.to_str().unwrap(), "--json", "verify"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("verify's JSON");
    let chain = report["chain_break"]["seq"].as_u64();
    let dice = report["dice_problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["seq"].as_u64())
        .min();
    (report["all_hold"] == true, chain.or(dice))
}

/// One page that runs the check on every export with `crypto.subtle` taken away, and writes each
/// verdict (all holds, first seq named) into the page.
pub(crate) fn page_checking(
    exports: &[String],
    explain: Seq,
    rerolled: Seq,
    codes: &[String],
) -> String {
    let codes = serde_json::to_string(codes).unwrap();
    let cases = serde_json::to_string(exports)
        .unwrap()
        .replace('<', "\\u003c");
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre><script>
Object.defineProperty(window, "crypto", {{ value: undefined }});
var CASES = {cases};</script><script>{}</script><script>
var verdicts = CASES.map(function (text) {{
  var r = GrimoireCheck.verify(text);
  return [r.allHold, r.firstProblem, r.seededChecked, r.sealedChecked, r.deviceChecked, r.witnessedChecked, r.problems, r.chainBreak, r.deviceInRules];
}});
var first = GrimoireCheck.verify(CASES[0]);
var explained = GrimoireCheck.explain(first, "{explain}");
var rerolled = GrimoireCheck.explain(first, "{rerolled}");
var codes = GrimoireCheck.verify(CASES[0], {codes}).checkpoints.map(function (c) {{ return c.holds; }});
var marks = GrimoireCheck.rerollMarks(first);
document.getElementById("out").textContent = JSON.stringify({{ selfTest: GrimoireCheck.selfTest(), noCrypto: window.crypto === undefined, verdicts: verdicts, explained: explained, rerolled: rerolled, marks: marks, problems: first.problems, codes: codes }});
</script></body></html>"#,
        grimoire::report::kit::verifier()
    )
}

pub(crate) fn out_of(dom: &str) -> Value {
    let start = dom.find(r#"<pre id="out">"#).expect("the output") + r#"<pre id="out">"#.len();
    let end = start + dom[start..].find("</pre>").expect("its end");
    let text = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn the_players_check_agrees_with_grimoire_verify_on_a_good_export_and_every_tampered_one() {
    let Some(browser) = browser() else { return };
    let (c, amended) = campaign();
    let export = c.ok(&["export"]);
    let good = rows_of(&export);
    let verified = c.json(&["verify"]);
    let cases = tampered(&good);
    assert!(cases.len() >= 200, "only {} tampered exports", cases.len());

    let mut exports = vec![export.clone()];
    exports.extend(cases.iter().map(|(_, rows)| text_of(rows)));
    let page = c.dir.path().join("cross-check.html");
    let rerolled = good
        .iter()
        .rev()
        .find(|r| r.kind == "dice_rolled" && r.payload.contains("the lock"))
        .expect("the roll after the retracted one")
        .seq;
    // Checkpoints read as grimoire reads them: 8 to 64 hex digits, the number from 1.
    let third = &good[2].hash;
    let codes = [
        format!("3:{}", &third[..8]),
        format!("003:{}", &third[..16].to_uppercase()),
        format!("3:{}", &third[..7]),
        format!("3:{}:zz", &third[..8]),
        format!("4:{}", &third[..8]),
        format!("0:{}", &third[..8]),
    ];
    std::fs::write(
        &page,
        page_checking(&exports, Seq(amended), rerolled, &codes),
    )
    .unwrap();
    let (dom, _) = browse(&browser, &page, &["--dump-dom"]);
    let out = out_of(&dom);
    assert_eq!(out["selfTest"], true, "SHA-256 or HMAC fails its vectors");
    assert_eq!(out["noCrypto"], true, "WebCrypto was still there");
    let verdicts = out["verdicts"].as_array().unwrap();

    // The good export: every count as grimoire's.
    assert_eq!(
        verdicts[0][0], true,
        "{:?}: {}; grimoire verify: {verified}; the export:\n{export}",
        verdicts[0], out["problems"]
    );
    assert_eq!(verdicts[0][2], verified["seeded_dice_checked"]);
    assert_eq!(verdicts[0][3], verified["sealed_dice_checked"]);
    assert_eq!(verdicts[0][4], verified["device_dice_checked"]);
    assert_eq!(verdicts[0][5], verified["witnessed_dice_checked"]);
    assert_eq!(verdicts[0][8], verified["device_dice_in_rules_commands"]);
    assert_eq!(
        (verdicts[0][4].as_u64(), verdicts[0][5].as_u64()),
        (Some(2), Some(1)),
        "a player's 2d6 and the GM's witnessed d20"
    );
    assert!(
        verified["seeded_dice_checked"].as_u64().unwrap() >= 4,
        "{verified}"
    );
    // A disputed roll in words: its two seeded dice re-derived, and the amendment named.
    let explained = out["explained"].as_str().unwrap();
    assert!(
        explained.contains(&format!("#{amended} (dice_rolled) rolled 2 dice"))
            && explained.matches(", as recorded").count() == 2
            && explained.contains("amended by #"),
        "{explained}"
    );
    assert_eq!(
        out["codes"],
        serde_json::json!([true, true, false, false, false, false]),
        "{codes:?}"
    );
    let rerolled = out["rerolled"].as_str().unwrap();
    assert!(
        rerolled.contains("rolled after #") && rerolled.contains("was retracted"),
        "{rerolled}"
    );
    // The C-2 marks, computed by each from the log: the roll between and the roll made again.
    let logged = c.json(&["log"]);
    let grimoire_marks: serde_json::Map<String, Value> = logged["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| Some((e["seq"].to_string(), e.get("rolled_again_after")?.clone())))
        .collect();
    assert_eq!(grimoire_marks.len(), 2, "{grimoire_marks:?}");
    assert_eq!(out["marks"], Value::Object(grimoire_marks));

    let mut disagreements = Vec::new();
    for (i, ((what, rows), verdict)) in cases.iter().zip(&verdicts[1..]).enumerate() {
        // A file of its own each: a copy over an earlier one could meet that one's journal.
        let scratch = c.dir.path().join(format!("tampered-{i}.db"));
        let (holds, first) = grimoire_verdict(&c, rows, &scratch);
        let theirs = (verdict[0].as_bool().unwrap(), verdict[1].as_u64());
        if (holds, first) != theirs {
            disagreements.push(format!(
                "{what}: grimoire says {holds} at {first:?}, the page {theirs:?}"
            ));
        }
        // Re-chained, most edits pass the chain and wait for a reveal; these never do.
        let caught_anyway = [
            "taken back",
            "given a total",
            "said to be a d",
            "an amended roll's total",
            "resealed",
            "device's",
            "commitment changed",
        ];
        assert!(
            !holds
                || (what.contains("rechained") && !caught_anyway.iter().any(|c| what.contains(c))),
            "{what}: grimoire found nothing"
        );
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// The report carries the check: opened in Chromium it says the log holds and counts what
/// grimoire counts.
#[test]
fn the_report_checks_its_own_log_in_the_browser() {
    let Some(browser) = browser() else { return };
    let (c, _) = campaign();
    let (result, dom) = the_reports_check(&browser, &c);
    assert!(dom.contains("All checks hold"), "the verdict is not shown");
    assert_eq!(result["all_hold"], true, "{result}");
}

/// What the campaign's report says of its log, opened in Chromium, after checking that it counts
/// what `grimoire verify` counts; with the page itself.
fn the_reports_check(browser: &std::path::Path, c: &Campaign) -> (Value, String) {
    let verified = c.json(&["verify"]);
    c.ok(&["report", "--out", "campaign.html"]);
    let file = c.dir.path().join("campaign.html");
    let (dom, _) = browse(browser, &file, &["--dump-dom"]);
    let start = dom
        .find("<pre id=\"check-result\" hidden=\"\">")
        .expect("the result")
        + 33;
    let end = start + dom[start..].find("</pre>").unwrap();
    let result: Value = serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).unwrap();
    for field in [
        "all_hold",
        "events",
        "seeded_dice_checked",
        "seeded_dice_awaiting_reveal",
        "sealed_dice_checked",
        "sealed_dice_awaiting_reveal",
    ] {
        assert_eq!(result[field], verified[field], "{field}: {result}");
    }
    (result, dom)
}

/// ADG-S4 (#45 item 2): a Ceremony scroll that is never read keeps no dice uncheckable. Its sealed
/// check comes from the epoch's second seed, so `seed reveal` publishes the first at once: the
/// evening's rolls (a disputed one among them) are checked by `verify` and by the players' own
/// page, while the check stays sealed and its seed secret. Reading the scroll at last publishes
/// that seed, and the check is checked too.
#[test]
fn adg_s4_an_unread_ceremony_scroll_holds_no_epochs_dice_hostage() {
    let c = Campaign::with_a_ceremony_writer();
    let scroll = c.seq_of(&crate::support::WRITE_CEREMONY);
    c.ok(&["session", "start", "--entropy", "a long evening"]);
    for purpose in ["the bridge", "the ambush", "the door"] {
        c.ok(&["roll", "d20", "--for", purpose]);
    }
    let disputed = c.seq_of(&["roll", "d100", "--for", "the disputed leap"]);
    c.ok(&["session", "end"]);
    let out = c.ok(&["seed", "reveal"]);
    assert!(out.contains("dice epoch 1 seed revealed"), "{out}");
    assert!(out.contains(&format!("pending (#{scroll})")), "{out}");

    let verify = c.json(&["verify"]);
    assert_eq!(verify["all_hold"], true, "{verify}");
    assert_eq!(verify["seeded_dice_awaiting_reveal"], 0, "{verify}");
    assert_eq!(
        verify["sealed_dice_awaiting_reveal"], 1,
        "the check: {verify}"
    );
    let explained = c.json(&["explain", &disputed.to_string()]);
    let derivation = &explained["dice"][0]["derivation"];
    assert_eq!(derivation["matches"], true, "{explained}");
    // The check's value and its seed stay out of everything the players see.
    let export = c.ok(&["export"]);
    assert!(!export.contains("sealed_seed_revealed"), "{export}");
    assert!(!export.contains("sealed_revealed"), "{export}");

    if let Some(browser) = browser() {
        let (result, _) = the_reports_check(&browser, &c);
        assert_eq!(result["all_hold"], true, "{result}");
        assert!(
            result["seeded_dice_checked"].as_u64() >= Some(4),
            "the evening's rolls: {result}"
        );
    }

    c.ok(&["scroll", "read", "Wen", &format!("S{scroll}")]);
    let verify = c.json(&["verify"]);
    assert_eq!(verify["all_hold"], true, "{verify}");
    assert_eq!(verify["sealed_dice_awaiting_reveal"], 0, "{verify}");
    if let Some(browser) = browser() {
        the_reports_check(&browser, &c);
    }
}

/// The log the report carries (its `var GRIMOIRE_EXPORT = "…";`), replaced by `export`.
fn carrying(page: &str, export: &str) -> String {
    let start = page.find("var GRIMOIRE_EXPORT = ").unwrap() + "var GRIMOIRE_EXPORT = ".len();
    let end = start + page[start..].find("; var GRIMOIRE_AS_OF").unwrap();
    let literal = serde_json::to_string(export)
        .unwrap()
        .replace('<', "\\u003c");
    format!("{}{literal}{}", &page[..start], &page[end..])
}

fn witness_of(dom: &str) -> Value {
    let start = dom
        .find("<pre id=\"check-result\" hidden=\"\">")
        .expect("the result")
        + 33;
    let end = start + dom[start..].find("</pre>").unwrap();
    let result: Value = serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).unwrap();
    result["witness"].clone()
}

/// A browser that saw the log remembers it: a later page whose log extends it passes; one whose
/// history was rewritten (the chain rebuilt around a changed event, so the chain alone holds) is
/// named at the first event that differs; one cut short is named where it ends.
#[test]
fn a_browser_that_saw_the_log_names_the_first_event_a_later_page_changed() {
    let Some(browser) = browser() else { return };
    let (c, _) = campaign();
    c.ok(&["report", "--out", "first.html"]);
    let first = std::fs::read_to_string(c.dir.path().join("first.html")).unwrap();
    let good = rows_of(&c.ok(&["export"]));
    let profile = tempfile::tempdir().unwrap();
    let open = |name: &str, page: String| {
        let file = c.dir.path().join(name);
        std::fs::write(&file, page).unwrap();
        let (dom, _) = browse_as(&browser, profile.path(), &file, &["--dump-dom"]);
        (witness_of(&dom), dom)
    };
    let (seen, _) = open("first.html", first.clone());
    assert_eq!(seen["state"], "first", "{seen}");
    // A page of an earlier point is shorter by design: no warning.
    c.ok(&["report", "--at", "5", "--out", "then.html"]);
    let then = std::fs::read_to_string(c.dir.path().join("then.html")).unwrap();
    let (seen, _) = open("then.html", then);
    assert_eq!(seen["state"], "earlier", "{seen}");

    let mut rewritten = good.clone();
    rewritten[6].recorded_at = "2026-03-15T00:00:00Z".into();
    let (seen, dom) = open(
        "rewritten.html",
        carrying(&first, &text_of(&rechained(rewritten))),
    );
    assert_eq!(seen["state"], "rewritten", "{seen}");
    assert_eq!(seen["seq"], 7, "{seen}");
    assert!(dom.contains("event #7 differs from the one it saw then"));

    let (seen, _) = open("cut.html", carrying(&first, &text_of(&good[..10])));
    assert_eq!(
        (seen["state"].as_str(), seen["seq"].as_u64()),
        (Some("cut"), Some(11)),
        "{seen}"
    );

    // What was seen stays the evidence; a later log that extends it passes.
    c.ok(&["roll", "d20", "--for", "later"]);
    c.ok(&["report", "--out", "later.html"]);
    let later = std::fs::read_to_string(c.dir.path().join("later.html")).unwrap();
    let (seen, _) = open("later.html", later);
    assert_eq!(seen["state"], "extends", "{seen}");
}
