//! One event in full, as `explain` shows it: its envelope and marks, every die with where it came
//! from and, once it can be checked, its derivation re-computed from what the log publishes, and
//! the sheets the rules decided it on.

use super::Shown;
use super::event::{Marks, event_view};
use super::sheet::{character_json, glance};
use crate::Error;
use crate::dice::{DiePosition, Provenance, SealedOrigin, fairness};
use crate::event::Event;
use crate::ids::RequestId;
use crate::render::count;
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::store::{Point, Store};
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::on_system;
use serde_json::json;

/// Event `seq` in full: its envelope and marks, every die with its provenance and, once checkable,
/// its derivation re-computed, what its system adds, and the sheets of the characters it concerns
/// just before it (or at point `at`).
pub fn explain(store: &mut Store, seq: Seq, at: Option<Point>) -> Result<Shown, Error> {
    let state = store.replay(None)?;
    let r = store
        .event(seq)?
        .ok_or(RuleError::NoSuchEvent(seq, state.head))?;
    let campaign_id = state
        .campaign
        .as_ref()
        .map(|c| c.campaign_id.clone())
        .unwrap_or_default();
    let marks = Marks::of(&state, &r);
    let mut lines = vec![
        format!(
            "#{} {}: {}",
            r.seq,
            r.event.kind(),
            crate::render::describe(&r.event)
        ),
        format!(
            "  recorded {} by {}, {}, in-game {}",
            r.recorded_at,
            r.actor,
            r.session
                .map(|s| format!("session {s}"))
                .unwrap_or_else(|| "outside any session".into()),
            state.time_of(r.seq, r.game_time)
        ),
        format!("  event id {}", r.event_id),
        format!("  hash {} (previous {})", r.hash, r.prev_hash),
    ];
    if let Some(reason) = marks.retracted {
        lines.push(format!("  RETRACTED: {reason}"));
    }
    if let Some(answered) = marks.undone_with {
        lines.push(format!(
            "  UNDONE with #{answered}, which it answers and which no longer counts: neither does this"
        ));
    }
    if let Some(by) = marks.restored_by {
        lines.push(format!(
            "  RESTORED by #{by}, which retracted its retraction: it counts again"
        ));
    }
    if let [.., newest] = marks.rolled_again_after {
        let seqs: Vec<String> = marks
            .rolled_again_after
            .iter()
            .map(|s| format!("#{s}"))
            .collect();
        lines.push(format!(
            "  ROLLED AFTER A RETRACTION: {} rolled dice and {} retracted, and this roll came after it in its session or first after its retraction; `grimoire explain {newest}` shows the dice it had",
            seqs.join(", "),
            if seqs.len() == 1 { "was" } else { "were" }
        ));
    }
    if !marks.put_again_after.is_empty() {
        let taken_back: Vec<String> = marks
            .put_again_after
            .iter()
            .map(|n| format!("request {n}"))
            .collect();
        lines.push(format!(
            "  PUT AGAIN AFTER A WITHDRAWAL OR A REFUSAL: {} to the same phone was withdrawn by the GM, or answered and refused by the rules, while this roll was put to it; either is honest when the table changed its mind or the rules said no, but a GM who took back an answered-looking roll could be choosing the die",
            taken_back.join(" and ")
        ));
    }
    // What replay reads in its place, with the same dice.
    if let Some(by) = marks.amended_by
        && let Some(amendment) = store.event(by)?
    {
        lines.push(format!(
            "  AMENDED by #{by}: {}",
            crate::render::describe(&amendment.event)
        ));
    }
    let mut dice_json = Vec::new();
    let dice = r.event.dice();
    if !dice.is_empty() {
        let session_entropy = store.entropy_before(r.seq)?;
        lines.push("  dice, in draw order:".into());
        for die in dice {
            let position = |epoch: u32, entropy| DiePosition {
                campaign_id: &campaign_id,
                epoch,
                seq: r.seq,
                roll: die.provenance.roll(),
                n: die.n,
                entropy,
            };
            let face = die
                .value
                .map(|v| v.to_string())
                .unwrap_or_else(|| "sealed".into());
            let mut line = format!("    n={} d{} → {face}  ({})", die.n, die.sides, die.purpose);
            let mut derivation = json!(null);
            match &die.provenance {
                Provenance::Entered => {
                    line.push_str("\n         entered at the table with --rolls")
                }
                Provenance::Device { request, witnessed } => {
                    let (words, json) = device_die_words(store, *request, *witnessed, die)?;
                    line.push_str(&words);
                    derivation = json;
                }
                Provenance::Sealed { commitment, origin } => {
                    let entropy = die.provenance.entropy(&session_entropy);
                    let own_seed = match origin {
                        Some(SealedOrigin::Seeded { epoch, .. }) => {
                            store.has_sealed_dice_seed(*epoch)?
                        }
                        _ => false,
                    };
                    line.push_str(&format!(
                        "\n         sealed; commitment {commitment}\n         {}",
                        sealed_origin_words(origin.as_ref(), entropy, own_seed)
                    ));
                    let opened = store
                        .revealed_sealed(r.seq)?
                        .and_then(|dice| dice.into_iter().find(|d| d.n == die.n));
                    let faces = opened.as_ref().map(|d| d.faces());
                    let opens = opened.as_ref().is_some_and(|d| {
                        crate::dice::sealed::reveal_matches(commitment, &d.faces(), &d.nonce)
                    });
                    // Once revealed, and once the seed it came from is out, say what each proves.
                    let derived = match (origin, &faces) {
                        (Some(SealedOrigin::Seeded { epoch, .. }), Some(faces)) => store
                            .revealed_sealed_dice_seed(*epoch)?
                            .and_then(|s| fairness::parse_seed(&s))
                            .map(|seed| {
                                fairness::seeded_faces(
                                    &seed,
                                    &position(*epoch, entropy),
                                    die.sides,
                                    faces.len(),
                                )
                            }),
                        _ => None,
                    };
                    if let Some(faces) = &faces {
                        let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
                        line.push_str(&format!(
                            "\n         revealed: {}; {}",
                            shown.join(", "),
                            if opens {
                                "it opens the commitment"
                            } else {
                                "it DOES NOT open the commitment"
                            }
                        ));
                        if let Some(derived) = &derived {
                            line.push_str(if derived == faces {
                                "; the published seed gives the same: grimoire rolled it"
                            } else {
                                "; the published seed gives OTHER faces: it was not grimoire's roll"
                            });
                        }
                    }
                    derivation = json!({
                        "sealed_by": match origin {
                            Some(SealedOrigin::Entered) => "entered",
                            Some(SealedOrigin::Seeded { .. }) => "seeded",
                            None => "not recorded",
                        },
                        "revealed": faces,
                        "opens_commitment": faces.as_ref().map(|_| opens),
                        "seed_gives": derived,
                    });
                }
                Provenance::Seeded {
                    epoch,
                    witness,
                    roll,
                } => {
                    let entropy = die.provenance.entropy(&session_entropy);
                    let pos = position(*epoch, entropy);
                    // The derivation's own message (block 0), so explain can never print another.
                    let message = fairness::message(&pos, 0, 0);
                    line.push_str(&format!(
                        "\n         seeded, epoch {epoch}: HMAC-SHA256(seed, \"{message}\")"
                    ));
                    line.push_str(&match roll {
                        Some(roll) => format!(
                            "\n         bound to roll {roll}: {} of the epoch rolled seeded dice before it, so no event that rolls nothing can move it",
                            count(*roll, "command", "commands")
                        ),
                        None => "\n         bound to its event's seq (an epoch begun before roll numbers): events that roll nothing could have moved it".to_string(),
                    });
                    line.push_str(&match witness {
                        _ if entropy.is_empty() => "\n         no player entropy: the GM could have predicted this die".to_string(),
                        Some(w) => format!("\n         entropy given by {} for this command (entropy the GM types proves nothing)", w.by),
                        None => "\n         with the session's player entropy".to_string(),
                    });
                    match store
                        .revealed_seed(*epoch)?
                        .and_then(|s| fairness::parse_seed(&s).map(|b| (s, b)))
                    {
                        Some((seed_hex, seed)) => {
                            let expected = fairness::seeded_face(&seed, &pos, die.sides);
                            let verdict = if Some(expected) == die.value {
                                "matches"
                            } else {
                                "DOES NOT MATCH"
                            };
                            line.push_str(&format!(
                                "\n         seed {seed_hex} gives {expected}: {verdict}"
                            ));
                            derivation = json!({ "message": message, "unwitnessed": entropy.is_empty(), "seed": seed_hex, "derived": expected, "matches": Some(expected) == die.value });
                        }
                        None => {
                            line.push_str(&format!("\n         epoch {epoch}'s seed is not revealed yet; `grimoire seed reveal` publishes it"));
                            derivation = json!({ "message": message, "unwitnessed": entropy.is_empty(), "seed": null });
                        }
                    }
                }
            }
            lines.push(line);
            dice_json.push(json!({ "die": die, "derivation": derivation }));
        }
        if let Event::DiceRolled {
            expression,
            total: Some(_),
            ..
        } = &r.event
        {
            let faces: Vec<u32> = dice.iter().filter_map(|d| d.value).collect();
            if let Some((breakdown, _)) = expression.breakdown(&faces) {
                lines.push(format!("  total: {expression} = {breakdown}"));
            }
        }
    }
    if let Event::System(event) = &r.event {
        lines.extend(on_system!(event, AnyEvent, |S, event| S::explain(event)));
    }
    // The sheets the event concerns, as they stood when it was decided (or at --at).
    let concerned: Vec<String> = state
        .characters_named(&r.event)
        .into_iter()
        .map(|c| c.name.clone())
        .collect();
    let mut sheets_json = Vec::new();
    let context_seq = match at {
        Some(point) => store.resolve_state(point)?,
        None => r.seq - 1,
    };
    if !concerned.is_empty() {
        let then = store.replay(Some(context_seq))?;
        lines.push(match at {
            Some(_) => format!("  sheets at #{context_seq}:"),
            None => format!("  sheets just before it (#{context_seq}), as the rules read them:"),
        });
        for name in &concerned {
            match then.character(name) {
                Some(c) => {
                    lines.push(format!("    {}", glance(c, &then)));
                    sheets_json.push(character_json(c, &then));
                }
                None => lines.push(format!("    {name}: not in the campaign at #{context_seq}")),
            }
        }
    }
    let json = json!({
        "event": event_view(&r, &state, marks),
        "prev_hash": r.prev_hash,
        "dice": dice_json,
        "sheets": { "as_of_seq": context_seq, "characters": sheets_json },
    });
    Ok(Shown::new(lines.join("\n"), json))
}

/// Who chose a sealed die's value, in words for `explain`; `own_seed` when its epoch has a second
/// seed for sealed dice.
fn sealed_origin_words(origin: Option<&SealedOrigin>, entropy: &str, own_seed: bool) -> String {
    match origin {
        Some(SealedOrigin::Entered) => {
            "the GM typed this value (--rolls): it proves nothing about fairness".into()
        }
        Some(SealedOrigin::Seeded { epoch, .. }) => format!(
            "rolled by grimoire from epoch {epoch}'s seed{}{}: once revealed and the seed is published, `grimoire verify` re-derives it",
            if own_seed { " for sealed dice" } else { "" },
            if entropy.is_empty() {
                " with no player entropy (the GM could have predicted it)"
            } else {
                ""
            }
        ),
        None => "rolled by grimoire from the operating system's randomness (recorded before grimoire noted who rolled sealed dice)".into(),
    }
}

/// What explain says of a die a player's device made (C-5, C-6): which device, for which request,
/// and the face the published secret and the device's bytes give, checked against the record.
fn device_die_words(
    store: &mut Store,
    request: RequestId,
    witnessed: bool,
    die: &crate::dice::Die,
) -> Result<(String, serde_json::Value), Error> {
    let state = store.replay(None)?;
    let Some(asked) = state.players.requests.get(&request) else {
        return Ok((
            format!("\n         claims request {request}, which the log does not hold"),
            json!({ "request": request, "matches": false }),
        ));
    };
    let player = state
        .players
        .devices
        .get(&asked.device)
        .map_or("someone", |d| d.player.as_str());
    let mut words = match witnessed {
        true => format!(
            "\n         the GM's roll, witnessed by {player}'s device (device {}), request {request} (#{})",
            asked.device, asked.seq
        ),
        false => format!(
            "\n         rolled on {player}'s device (device {}), request {request} (#{})",
            asked.device, asked.seq
        ),
    };
    let answer = match asked.status {
        crate::state::players::RequestStatus::Answered { seq } => store.event(seq)?,
        _ => None,
    };
    let Some(crate::event::Recorded {
        event:
            Event::RollAnswered {
                contribution,
                secret,
                ..
            },
        seq: answered_at,
        ..
    }) = answer
    else {
        words.push_str("\n         its answer is not in the log");
        return Ok((words, json!({ "request": request, "matches": false })));
    };
    let bytes = hex::decode(&contribution).unwrap_or_default();
    let derived = fairness::parse_seed(&secret)
        .filter(|g| fairness::seed_commitment(g) == asked.commitment)
        .map(|g| fairness::device_part(&g, request, &bytes, die.n, 0, die.sides));
    let message = fairness::device_message(request, die.n, 0, 0, &bytes);
    words.push_str(&format!(
        "\n         HMAC-SHA256(secret, \"{message}\"); the secret and the bytes were published by #{answered_at}"
    ));
    words.push_str(&match derived {
        Some(face) if Some(face) == die.value => format!("\n         they give {face}: matches"),
        Some(face) => format!("\n         they give {face}: DOES NOT MATCH"),
        None => "\n         the published secret DOES NOT open the request's commitment".into(),
    });
    Ok((
        words,
        json!({
            "request": request,
            "device": asked.device,
            "witnessed": witnessed,
            "message": message,
            "secret": secret,
            "commitment": asked.commitment,
            "derived": derived,
            "matches": derived.is_some() && derived == die.value,
        }),
    ))
}
