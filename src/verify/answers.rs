//! The phones' answers decided again (C-5). A die a phone's answer made is re-derived from the
//! request's published secret and the phone's bytes, but the GM's server saw those bytes before it
//! wrote the command: it could slip in an event that spends the first dice, list spare dice in the
//! command's own events, or write numbers its dice do not give, so that a cast took the die it
//! wanted. The rules, run again on the campaign as it stood before the answer with the same dice,
//! say exactly what the command records; the log must hold that, and no other event the answer's
//! dice.

use super::Problem;
use crate::dice::{Provenance, SealedSecret, fairness};
use crate::event::{Event, RevealedDie};
use crate::ids::RequestId;
use crate::rules::campaign::Released;
use crate::rules::players::{AnswerLog, DecidedAgain, decided_again};
use crate::seq::Seq;
use crate::state::{CampaignState, Replay, Revisions};
use crate::store::StoreError;
use crate::time::GameTime;
use std::collections::BTreeMap;

/// The log read a second time, for the answers: `verify` reads a campaign file or an export.
pub(super) trait ReadAgain {
    /// Feeds each readable event from `from` to `upto` in seq order.
    fn each(
        &mut self,
        from: Seq,
        upto: Seq,
        feed: &mut dyn FnMut(Seq, &Event),
    ) -> Result<(), StoreError>;
    /// The event at `seq` with its in-game time, when it can be read.
    fn event_at(&mut self, seq: Seq) -> Option<(Event, GameTime)>;
    /// The first reveal of the sealed dice of the event at `seq`, wherever it stands.
    fn reveal_of(&mut self, seq: Seq) -> Option<Vec<RevealedDie>>;
}

/// One answer the log records.
struct Answer {
    seq: Seq,
    /// Its payload version, which says how its command read the log.
    version: u32,
    request: RequestId,
    contribution: String,
    secret: String,
    refused: bool,
}

/// The answers met in the main pass, and which events hold each request's dice.
#[derive(Default)]
pub(super) struct Answers {
    answers: Vec<Answer>,
    /// Where each request was put.
    asked_at: BTreeMap<RequestId, Seq>,
    holding: BTreeMap<RequestId, Vec<Seq>>,
}

impl Answers {
    pub(super) fn note(&mut self, seq: Seq, version: u32, event: &Event) {
        if let Event::RollRequested { request, .. } = event {
            self.asked_at.entry(*request).or_insert(seq);
        }
        if let Event::RollAnswered {
            request,
            contribution,
            secret,
            refused,
        } = event
        {
            self.answers.push(Answer {
                seq,
                version,
                request: *request,
                contribution: contribution.clone(),
                secret: secret.clone(),
                refused: refused.is_some(),
            });
        }
        for die in event.dice() {
            if let Provenance::Device { request, .. } = die.provenance {
                let holding = self.holding.entry(request).or_default();
                if holding.last() != Some(&seq) {
                    holding.push(seq);
                }
            }
        }
    }

    /// Decides every answer's command again, before `end` (where the main pass stopped, if it
    /// did: nothing from there on means anything), and names each event the rules would not have
    /// recorded there, the earliest first. `revisions` are the whole log's.
    pub(super) fn check(
        self,
        revisions: &Revisions,
        end: Option<Seq>,
        log: &mut dyn ReadAgain,
    ) -> Result<Decided, StoreError> {
        let (mut problems, mut changed_while_waiting) = (Vec::new(), Vec::new());
        // Two walks through the log, each onward in the usual case: to each answer, and to each
        // request (answered in turn, later requests come after earlier answers).
        let (mut stood, mut stood_asked) = (AsItStood::default(), AsItStood::default());
        for answer in self.answers {
            if end.is_some_and(|end| answer.seq >= end) {
                break;
            }
            // An answer that does not open its request's commitment is reported where it stands.
            let (Some(g), Ok(contribution)) = (
                fairness::parse_seed(&answer.secret),
                hex::decode(&answer.contribution),
            ) else {
                continue;
            };
            let reads_amended = answer.version >= crate::event::READS_AMENDED_SINCE;
            let dice = (answer.request, contribution.as_slice(), (g, reads_amended));
            // What the dice would have done on the campaign as it stood right after the request:
            // events recorded while the roll waited may change it, and a server holding the
            // answer back saw the dice first. It is decided at the answer's own place, as events
            // that name their own (a failed cast's choice) would otherwise differ by it alone.
            let at_once = match self.asked_at.get(&answer.request) {
                Some(&asked) if asked.next() < answer.seq => {
                    let then = stood_asked.before(asked.next(), revisions, log)?;
                    Some(decided_on(then, answer.seq, dice, log))
                }
                _ => None,
            };
            let before = stood.before(answer.seq, revisions, log)?;
            let decided = decided_on(before, answer.seq, dice, log);
            let (seq, request) = (answer.seq, answer.request);
            if at_once.is_some_and(|then| !same_outcome(&then, &decided)) {
                changed_while_waiting.push(seq);
            }
            let holding = self.holding.get(&request).map_or(&[][..], Vec::as_slice);
            let mut say = |at: Seq, what: String| problems.push(Problem { seq: at, what });
            let recorded_after = match decided {
                Err(why) => {
                    // Named where its command's events would stand, or at a refusal.
                    let (at, what) = match answer.refused {
                        false => (seq.next(), "what the answer's dice decided"),
                        true => (seq, "its refusal"),
                    };
                    say(
                        at,
                        format!(
                            "#{at}: request {request}'s command cannot be decided again ({why}), so {what} is unchecked"
                        ),
                    );
                    continue;
                }
                Ok(DecidedAgain::Refused(why)) if !answer.refused => {
                    say(
                        seq,
                        format!(
                            "#{seq}: the rules refuse request {request}'s command with the phone's dice ({why}), yet the log records it done"
                        ),
                    );
                    seq
                }
                Ok(DecidedAgain::Refused(_)) => seq,
                Ok(DecidedAgain::Records { .. }) if answer.refused => {
                    say(
                        seq,
                        format!(
                            "#{seq}: request {request}'s answer is recorded as refused, yet the rules decide its command with the phone's dice: grimoire would have recorded what it records"
                        ),
                    );
                    seq
                }
                Ok(DecidedAgain::Records {
                    events,
                    seeds_set_free,
                }) => {
                    let mut at = seq;
                    let mut recorded = || {
                        at = at.next();
                        (at, log.event_at(at).map(|(event, _)| event))
                    };
                    let first_wrong = events.iter().find_map(|decided| {
                        let (at, recorded) = recorded();
                        let same = recorded
                            .as_ref()
                            .is_some_and(|r| same_but_words(r, decided));
                        (!same).then(|| differs(at, request, recorded.as_ref(), decided))
                    });
                    // Each seed set free is published after the command's events, as it opens
                    // its commitment (checked where the reveal stands).
                    let first_wrong = first_wrong.or_else(|| {
                        seeds_set_free.iter().find_map(|released| {
                            let (at, recorded) = recorded();
                            (!publishes(recorded.as_ref(), released)).then(|| format!(
                                "#{at}: request {request}'s command sets a seed free, and the log does not publish it here"
                            ))
                        })
                    });
                    if let Some(what) = first_wrong {
                        say(at, what);
                    }
                    at
                }
            };
            // Only the command's events hold the answer's dice; one before the answer is named by
            // the dice's own check.
            for &at in holding.iter().filter(|&&at| at > recorded_after) {
                say(
                    at,
                    format!(
                        "#{at} holds a die of request {request}'s answer, which the rules, deciding its command again, do not draw there"
                    ),
                );
            }
        }
        problems.sort_by_key(|p| p.seq);
        problems.truncate(super::verifier::MAX_PROBLEMS);
        Ok(Decided {
            problems,
            changed_while_waiting,
        })
    }
}

/// What deciding the answers again found.
#[derive(Default)]
pub(super) struct Decided {
    /// What the log holds that the rules would not have recorded.
    pub problems: Vec<Problem>,
    /// The answers whose dice decide otherwise on the campaign as it stood when they were put.
    pub changed_while_waiting: Vec<Seq>,
}

/// The command request `request` put decides again on `before`, with the answer at `answer`.
fn decided_on(
    before: &CampaignState,
    answer: Seq,
    (request, contribution, g): (RequestId, &[u8], ([u8; 32], bool)),
    log: &mut dyn ReadAgain,
) -> Result<DecidedAgain, String> {
    let put = before.players.requests.get(&request);
    match put.map(|put| crate::command::asked(&put.asked)) {
        None => Err(format!("no request {request} was put to a phone before it")),
        Some(Err(why)) => Err(why),
        Some(Ok(command)) => {
            let mut read = Following { log };
            decided_again(before, answer, request, command, contribution, g, &mut read)
        }
    }
}

/// Whether two decisions of one answer come to the same: the same events (words aside), or both
/// refused, or both beyond deciding.
fn same_outcome(one: &Result<DecidedAgain, String>, other: &Result<DecidedAgain, String>) -> bool {
    match (one, other) {
        (
            Ok(DecidedAgain::Records { events: a, .. }),
            Ok(DecidedAgain::Records { events: b, .. }),
        ) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_but_words(a, b)),
        (Ok(DecidedAgain::Refused(a)), Ok(DecidedAgain::Refused(b))) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// Whether `recorded` is the reveal of the seed `released` names.
fn publishes(recorded: Option<&Event>, released: &Released) -> bool {
    match (recorded, released) {
        (Some(Event::SeedRevealed { epoch, .. }), Released::Seed(released)) => epoch == released,
        (Some(Event::SealedSeedRevealed { epoch, .. }), Released::SealedSeed(released)) => {
            epoch == released
        }
        _ => false,
    }
}

/// The log as deciding an answer again reads it: earlier events as they stand, and the sealed
/// dice a command opens from their reveal in the log, the one the command recorded or any other
/// (the write read them from the GM's secrets; the sealed dice's own check holds a reveal to its
/// commitment). Dice never revealed are read as none: a command that opens them then decides
/// otherwise than it did, and is named, unless its answer was refused.
struct Following<'l> {
    log: &'l mut dyn ReadAgain,
}

impl AnswerLog for Following<'_> {
    fn event_at(&mut self, seq: Seq) -> Option<(Event, GameTime)> {
        self.log.event_at(seq)
    }

    fn sealed(&mut self, seq: Seq) -> Vec<SealedSecret> {
        let opened = self.log.reveal_of(seq).unwrap_or_default();
        (opened.into_iter())
            .map(|die| SealedSecret {
                n: die.n,
                value: die.value,
                nonce: die.nonce,
                then: die.then,
                event: 0,
            })
            .collect()
    }
}

/// Whether `recorded` is the event the rules decided, apart from each die's purpose: words for
/// people, which builds have put differently, and which decide nothing.
fn same_but_words(recorded: &Event, decided: &Event) -> bool {
    fn without_purposes(event: &Event) -> Option<serde_json::Value> {
        let mut value = serde_json::to_value(event).ok()?;
        let mut open = vec![&mut value];
        while let Some(value) = open.pop() {
            match value {
                serde_json::Value::Object(fields) => {
                    if fields.contains_key("provenance") && fields.contains_key("sides") {
                        fields.remove("purpose");
                    }
                    open.extend(fields.values_mut());
                }
                serde_json::Value::Array(items) => open.extend(items.iter_mut()),
                _ => {}
            }
        }
        Some(value)
    }
    recorded == decided
        || (recorded.kind() == decided.kind()
            && without_purposes(recorded).is_some_and(|r| Some(r) == without_purposes(decided)))
}

/// What a recorded event at `at` is, against the one the rules decide there.
fn differs(at: Seq, request: RequestId, recorded: Option<&Event>, decided: &Event) -> String {
    let decided_kind = decided.kind();
    match recorded {
        Some(recorded) if recorded.kind() == decided_kind => format!(
            "#{at}: the rules, deciding request {request}'s command again with the phone's dice, record this '{decided_kind}' with other values (another die taken, or a number its dice do not give)"
        ),
        Some(recorded) => format!(
            "#{at}: the rules, deciding request {request}'s command again with the phone's dice, record a '{decided_kind}' here, not a '{}'",
            recorded.kind()
        ),
        None => format!(
            "#{at}: the rules, deciding request {request}'s command again with the phone's dice, record a '{decided_kind}' here, and the log has none"
        ),
    }
}

/// The campaign as it stood just before each answer, as the write that recorded it saw it: only
/// the retractions and amendments recorded by then in force. One replay goes on from answer to
/// answer; when a revision recorded in between reaches back into what it has folded, it goes on
/// from the newest state kept before that point (one every [`KEEP_EVERY`] events, the last
/// [`STATES_KEPT`]), or from the start.
#[derive(Default)]
struct AsItStood {
    replay: Option<Replay>,
    /// The last seq folded in.
    folded: Seq,
    /// States met on the way, each as it stood at its seq.
    kept: BTreeMap<Seq, CampaignState>,
}

const KEEP_EVERY: u64 = 256;
const STATES_KEPT: usize = 32;

impl AsItStood {
    fn before(
        &mut self,
        at: Seq,
        revisions: &Revisions,
        log: &mut dyn ReadAgain,
    ) -> Result<&CampaignState, StoreError> {
        let upto = at.previous();
        let known: Vec<(Seq, Seq)> = (revisions.retractions.iter().copied())
            .chain((revisions.amendments.iter()).map(|(by, target, _)| (*by, *target)))
            .filter(|(by, _)| *by <= upto)
            .collect();
        // The state at `from` stands for the campaign as it stood there, and goes on to `upto`,
        // unless a revision recorded after it (by `upto`) reaches it.
        let goes_on_from = |from: Seq| {
            from <= upto && !(known.iter()).any(|&(by, target)| by > from && target <= from)
        };
        let in_force = Revisions {
            retractions: (revisions.retractions.iter())
                .filter(|(by, _)| *by <= upto)
                .copied()
                .collect(),
            amendments: (revisions.amendments.iter())
                .filter(|(by, _, _)| *by <= upto)
                .cloned()
                .collect(),
        };
        let mut replay = match self.replay.take() {
            Some(replay) if goes_on_from(self.folded) => Replay::resume(replay.finish(), &in_force),
            _ => match self
                .kept
                .iter()
                .rev()
                .find(|(from, _)| goes_on_from(**from))
            {
                Some((from, state)) => {
                    self.folded = *from;
                    Replay::resume(state.clone(), &in_force)
                }
                None => {
                    self.folded = Seq(0);
                    Replay::new(&in_force)
                }
            },
        };
        let kept = &mut self.kept;
        if self.folded < upto {
            log.each(self.folded.next(), upto, &mut |seq, event| {
                replay.feed(seq, event);
                if seq.0 % KEEP_EVERY == 0 && goes_on_from(seq) {
                    keep(kept, seq, replay.state());
                }
            })?;
        }
        self.folded = upto;
        Ok(self.replay.insert(replay).state())
    }
}

fn keep(kept: &mut BTreeMap<Seq, CampaignState>, seq: Seq, state: &CampaignState) {
    // Folded again after going back, a state kept already is the same.
    if kept.contains_key(&seq) {
        return;
    }
    kept.insert(seq, state.clone());
    if kept.len() > STATES_KEPT {
        kept.pop_first();
    }
}
