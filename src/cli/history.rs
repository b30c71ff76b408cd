//! Reading the record: `log` and `explain`.

use super::Globals;
use super::output::{Columns, Marks, Report, event_line, event_view};
use crate::Error;
use crate::audit::Askers;
use crate::dice::{DiePosition, Provenance, SealedOrigin, fairness};
use crate::event::{Event, Recorded};
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::state::fold_name;
use crate::store::Point;
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::on_system;
use crate::text::printable;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::ops::ControlFlow;

/// Show the log, oldest first. Records nothing.
///
/// Filters combine: `log --character Aldric --kind dice_rolled --limit 5` shows Aldric's last five
/// rolls. With --limit the newest events are read first, so a short look at a long campaign is quick.
#[derive(Debug, Default, Args)]
pub struct LogArgs {
    /// Only events about this character (rolls made with `roll --character` included).
    #[arg(long, value_name = "NAME")]
    pub character: Option<String>,
    /// Only events of this game session.
    #[arg(long, value_name = "N")]
    pub session: Option<u32>,
    /// Only events of this kind, as `log --json` names them (e.g. dice_rolled, ritual_cast).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Only events entered by this actor (any case): the name `--actor` gave, or the OS user.
    #[arg(long, value_name = "ACTOR")]
    pub by: Option<String>,
    /// Only events whose line contains this text (any case).
    #[arg(long, value_name = "TEXT")]
    pub grep: Option<String>,
    /// Only the last N matching events.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Start at the event a point names: an event number, session:N (the end of session N),
    /// session-start:N, day:D (the last event of in-game day D) or now.
    #[arg(long, value_name = "POINT")]
    pub from: Option<Point>,
    /// Stop at (and include) the event a point names.
    #[arg(long, value_name = "POINT")]
    pub to: Option<Point>,
}

impl LogArgs {
    /// Whether an event passes every filter given.
    /// `askers` says who acts for a roll a phone witnessed: the GM who put it (C-6).
    fn keeps(&self, r: &Recorded, who: Option<&str>, grep: Option<&str>, askers: &Askers) -> bool {
        self.session.is_none_or(|s| r.session == Some(s))
            && self.kind.as_deref().is_none_or(|k| r.event.kind() == k)
            && self
                .by
                .as_deref()
                .is_none_or(|a| fold_name(a) == fold_name(askers.actor_of(r)))
            && who.is_none_or(|w| r.event.concerns(w))
            && grep.is_none_or(|g| crate::render::describe(&r.event).to_lowercase().contains(g))
    }
}

pub fn log(g: &Globals, streams: bool, args: &LogArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    if let Some(kind) = &args.kind
        && !crate::event::kinds().contains(&kind.as_str())
    {
        return Err(Error::Usage(format!(
            "'{kind}' is not a kind of event; the kinds are: {}",
            crate::event::kinds().join(", ")
        )));
    }
    let head = store.head()?.map_or(Seq::START, |h| h.seq);
    let from = args
        .from
        .map(|p| store.resolve(p))
        .transpose()?
        .unwrap_or(Seq(1));
    let to = args
        .to
        .map(|p| store.resolve(p))
        .transpose()?
        .unwrap_or(head);
    if (args.from.is_some() || args.to.is_some()) && from > to {
        return Err(Error::Usage(format!(
            "--from names #{from}, which comes after #{to}, named by --to; give the earlier point to --from"
        )));
    }
    // The newest state (from its snapshot) knows every retraction; no need to read the whole log.
    let state = store.replay(None)?;
    let who = args.character.as_deref().map(fold_name);
    if let Some(name) = &args.character
        && state.character(name).is_none()
    {
        return Err(RuleError::UnknownCharacter {
            name: name.clone(),
            known: state.characters.values().map(|c| c.name.clone()).collect(),
        }
        .into());
    }
    // The character's name as a sieve for the read: only a plain name, whose stored text in any
    // payload is itself (JSON escapes nothing in it) and whose case the database can fold.
    let needle = who.as_deref().filter(|name| {
        name.bytes()
            .all(|b| (b.is_ascii_graphic() && b != b'"' && b != b'\\') || b == b' ')
    });
    let grep = args.grep.as_deref().map(str::to_lowercase);
    let mut askers = Askers::default();
    if args.by.is_some() && !state.players.requests.is_empty() {
        store.for_each_event_of_kind("roll_requested", None, |r| {
            askers.note(&r);
            Ok(())
        })?;
    }
    let keeps = |r: &Recorded| args.keeps(r, who.as_deref(), grep.as_deref(), &askers);
    let marks = |r: &Recorded| Marks::of(&state, r);
    // Seeded dice with no player entropy are marked: the GM, holding the seed, could foresee them.
    // `witness` gives the entropy in force for each event shown (its session's, or none).
    let unwitnessed = |r: &Recorded, witness: &str| {
        r.event.dice().iter().any(|d| {
            matches!(d.provenance, Provenance::Seeded { .. })
                && d.provenance.entropy(witness).is_empty()
        })
    };
    let width = Columns::up_to(to.get(), &state);
    // On a terminal, long lines wrap under their description; piped, they stay whole.
    let fit_to = super::output::terminal_width();
    let line = |r: &Recorded, witness: &str| {
        let mut line = event_line(r, &state, marks(r), width);
        if unwitnessed(r, witness) {
            line.push_str("  [no player entropy]");
        }
        if let Some(made) = device_made(r) {
            line.push_str(&format!("  [{made}]"));
        }
        width.fit(line, fit_to)
    };
    if args.limit.is_none() && !g.json {
        // The whole log as text: streamed to the terminal as it is read, never held in memory.
        let entropies = store.entropy_along_the_log()?;
        let witness = |r: &Recorded| entropies.at(r.seq);
        let mut held = Vec::new();
        let mut terminal;
        let colour = streams && super::paint::shows_colour(&std::io::stdout(), g.color.choice());
        let out: &mut dyn Write = if streams {
            // Straight to stdout unless the lines are painted (then the stream keeps or drops the
            // colour as the terminal wants).
            terminal = std::io::BufWriter::new(match colour {
                true => anstream::AutoStream::new(std::io::stdout().lock(), g.color.choice()),
                false => anstream::AutoStream::new(
                    std::io::stdout().lock(),
                    anstream::ColorChoice::AlwaysAnsi,
                ),
            });
            &mut terminal
        } else {
            &mut held
        };
        let mut shown = 0u64;
        let mut unwritten = None;
        store.for_each_event_while(from, to, |r| {
            if !keeps(&r) {
                return Ok(ControlFlow::Continue(()));
            }
            shown += 1;
            let text = line(&r, witness(&r));
            // A line wrapped to the terminal is escaped piece by piece, keeping its breaks.
            let safe = text
                .split('\n')
                .map(printable)
                .collect::<Vec<_>>()
                .join("\n");
            // Painted for the terminal (the stream drops the colour where it is not wanted); the
            // tour's transcript keeps the plain words, painted when it is printed.
            let written = match colour {
                true => writeln!(out, "{}", super::paint::paint(&safe)),
                false => writeln!(out, "{safe}"),
            };
            Ok(match written {
                Ok(()) => ControlFlow::Continue(()),
                // The reader went away (`grimoire log | head`), or the disk filled: stop reading.
                Err(e) => {
                    unwritten = Some(e);
                    ControlFlow::Break(())
                }
            })
        })?;
        let ended = match unwritten {
            Some(e) => Err(e),
            None if shown == 0 => writeln!(out, "No matching events.").and_then(|()| out.flush()),
            None => out.flush(),
        };
        super::outcome::to_stdout(ended)?;
        return Ok(if streams {
            Report::silent()
        } else {
            Report::new(
                String::from_utf8_lossy(&held).trim_end().to_string(),
                json!({ "shown": shown }),
            )
        });
    }
    let mut kept: Vec<Recorded> = Vec::new();
    match args.limit {
        // The newest first, stopping at the limit: the read costs what it prints.
        Some(limit) => {
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            store.for_each_event_backwards_mentioning(from, to, needle, |r| {
                if keeps(&r) {
                    kept.push(r);
                }
                Ok(if kept.len() >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            })?;
            kept.reverse();
        }
        None => store.for_each_event(from, Some(to), |r| {
            if keeps(&r) {
                kept.push(r);
            }
            Ok(())
        })?,
    }
    // A few events (--limit): each one's session entropy is looked up by itself (only events with
    // seeded dice need it), not every session's; the whole log reads every session's once.
    let sessions = match args.limit {
        Some(_) => None,
        None => Some(store.entropy_along_the_log()?),
    };
    let mut witnesses = Vec::with_capacity(kept.len());
    for r in &kept {
        let seeded = r
            .event
            .dice()
            .iter()
            .any(|d| matches!(d.provenance, Provenance::Seeded { .. }));
        witnesses.push(match (&sessions, seeded) {
            (_, false) => String::new(),
            (Some(sessions), true) => sessions.at(r.seq).to_string(),
            (None, true) => store.entropy_before(r.seq)?,
        });
    }
    if !g.json {
        let lines: Vec<String> = kept
            .iter()
            .zip(&witnesses)
            .map(|(r, witness)| line(r, witness))
            .collect();
        let text = if lines.is_empty() {
            "No matching events.".to_string()
        } else {
            lines.join("\n")
        };
        return Ok(Report::new(text, serde_json::Value::Null));
    }
    let views: Vec<_> = kept
        .iter()
        .zip(&witnesses)
        .map(|(r, witness)| {
            let mut view = json!(event_view(r, &state, marks(r)));
            if unwitnessed(r, witness) {
                view["unwitnessed_dice"] = json!(true);
            }
            if let Some(made) = device_made(r) {
                view["device_dice"] = json!(made);
            }
            view
        })
        .collect();
    Ok(Report::new(String::new(), json!({ "events": views })))
}

/// Explain one event: its envelope, every die with its provenance and, for seeded dice of a revealed
/// epoch, the full derivation re-computed, and the sheets of the characters it concerns just before
/// it (what the rules decided on; --at shows them at another point). Records nothing.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The event's number (#SEQ in `grimoire log`).
    pub seq: Seq,
    /// Show the sheets at this point instead of just before the event: an event number, session:N,
    /// session-start:N, day:D or now.
    #[arg(long, value_name = "POINT")]
    pub at: Option<Point>,
}

pub fn explain(g: &Globals, args: &ExplainArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let state = store.replay(None)?;
    let r = store
        .event(args.seq)?
        .ok_or(RuleError::NoSuchEvent(args.seq, state.head))?;
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
        let withdrawn: Vec<String> = marks
            .put_again_after
            .iter()
            .map(|n| format!("request {n}"))
            .collect();
        lines.push(format!(
            "  PUT AGAIN AFTER A WITHDRAWAL: the GM withdrew {} from the same phone just before this roll was put to it; a withdrawal is honest when the table changed its mind, but a GM who withdrew an answered-looking roll could be choosing the die",
            withdrawn.join(" and ")
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
                    let (words, json) = device_die_words(&mut store, *request, *witnessed, die)?;
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
                            super::output::count(*roll, "command", "commands")
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
    let context_seq = match args.at {
        Some(point) => store.resolve_state(point)?,
        None => r.seq - 1,
    };
    if !concerned.is_empty() {
        let then = store.replay(Some(context_seq))?;
        lines.push(match args.at {
            Some(_) => format!("  sheets at #{context_seq}:"),
            None => format!("  sheets just before it (#{context_seq}), as the rules read them:"),
        });
        for name in &concerned {
            match then.character(name) {
                Some(c) => {
                    lines.push(format!("    {}", super::character::glance(c, &then)));
                    sheets_json.push(super::character::character_json(c, &then));
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
    Ok(Report::new(lines.join("\n"), json))
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

/// Who made an event's dice on a device, as `log` marks the line (C-5, C-6): "rolled on a player's
/// device, request 3" or "witnessed by a player's device, request 4".
fn device_made(r: &Recorded) -> Option<String> {
    r.event.dice().iter().find_map(|d| match d.provenance {
        Provenance::Device {
            request,
            witnessed: false,
        } => Some(format!("rolled on a player's device, request {request}")),
        Provenance::Device {
            request,
            witnessed: true,
        } => Some(format!("witnessed by a player's device, request {request}")),
        _ => None,
    })
}

/// What explain says of a die a player's device made (C-5, C-6): which device, for which request,
/// and the face the published secret and the device's bytes give, checked against the record.
fn device_die_words(
    store: &mut crate::store::Store,
    request: u32,
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
