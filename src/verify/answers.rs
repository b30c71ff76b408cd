//! The phones' answers decided again (C-5). A die a phone's answer made is re-derived from the
//! request's published secret and the phone's bytes, but the GM's server saw those bytes before it
//! wrote the command: it could slip in an event that spends the first dice, list spare dice in the
//! command's own events, or write numbers its dice do not give, so that a cast took the die it
//! wanted. The rules, run again on the campaign as it stood before the answer with the same dice,
//! say exactly what the command records; the log must hold that, and no other event the answer's
//! dice.

use super::Problem;
use crate::dice::{Provenance, fairness};
use crate::event::Event;
use crate::ids::RequestId;
use crate::rules::players::{DecidedAgain, decided_again};
use crate::seq::Seq;
use crate::state::{Replay, Revisions};
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
}

/// One answer the log records.
struct Answer {
    seq: Seq,
    request: RequestId,
    contribution: String,
    secret: String,
    refused: bool,
}

/// The answers met in the main pass, and which events hold each request's dice.
#[derive(Default)]
pub(super) struct Answers {
    answers: Vec<Answer>,
    holding: BTreeMap<RequestId, Vec<Seq>>,
}

impl Answers {
    pub(super) fn note(&mut self, seq: Seq, event: &Event) {
        if let Event::RollAnswered {
            request,
            contribution,
            secret,
            refused,
        } = event
        {
            self.answers.push(Answer {
                seq,
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
    ) -> Result<Vec<Problem>, StoreError> {
        let mut problems = Vec::new();
        let mut stood = AsItStood::default();
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
            let before = stood.before(answer.seq, revisions, log)?;
            let read = &mut |seq: Seq| log.event_at(seq);
            let put = before.players.requests.get(&answer.request);
            let decided = match put.map(|put| crate::command::asked(&put.asked)) {
                None => Err(format!(
                    "no request {} was put to a phone before it",
                    answer.request
                )),
                Some(Err(why)) => Err(why),
                Some(Ok(command)) => decided_again(
                    before,
                    answer.seq,
                    answer.request,
                    command,
                    &contribution,
                    g,
                    read,
                ),
            };
            let (seq, request) = (answer.seq, answer.request);
            let holding = self.holding.get(&request).map_or(&[][..], Vec::as_slice);
            let mut say = |at: Seq, what: String| problems.push(Problem { seq: at, what });
            match decided {
                // Named where its command's events would stand.
                Err(why) if !answer.refused => {
                    let at = seq.next();
                    say(
                        at,
                        format!(
                            "#{at}: request {request}'s command cannot be decided again ({why}), so what the answer's dice decided is unchecked"
                        ),
                    );
                }
                Err(_) => {}
                Ok(DecidedAgain::Refused(why)) if !answer.refused => say(
                    seq,
                    format!(
                        "#{seq}: the rules refuse request {request}'s command with the phone's dice ({why}), yet the log records it done"
                    ),
                ),
                Ok(DecidedAgain::Refused(_)) => {}
                Ok(DecidedAgain::Records(_)) if answer.refused => say(
                    seq,
                    format!(
                        "#{seq}: request {request}'s answer is recorded as refused, yet the rules decide its command with the phone's dice: grimoire would have recorded what it records"
                    ),
                ),
                Ok(DecidedAgain::Records(events)) => {
                    let last = Seq(seq.0 + events.len() as u64);
                    for (at, decided) in (1..).map(|i| Seq(seq.0 + i)).zip(&events) {
                        let recorded = log.event_at(at).map(|(event, _)| event);
                        if !recorded
                            .as_ref()
                            .is_some_and(|r| same_but_words(r, decided))
                        {
                            say(at, differs(at, request, recorded.as_ref(), decided));
                            break;
                        }
                    }
                    // One before the answer is named by the dice's own check.
                    for &at in holding.iter().filter(|&&at| at > last) {
                        say(
                            at,
                            format!(
                                "#{at} holds a die of request {request}'s answer, which the rules, deciding its command again, do not draw there"
                            ),
                        );
                    }
                    continue;
                }
            }
            // Refused, whether the log or the rules say so: no event after it holds its dice.
            for &at in holding.iter().filter(|&&at| at > seq) {
                say(
                    at,
                    format!(
                        "#{at} holds a die of request {request}'s answer, whose command records nothing"
                    ),
                );
            }
        }
        problems.sort_by_key(|p| p.seq);
        problems.truncate(super::verifier::MAX_PROBLEMS);
        Ok(problems)
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
/// answer, and starts again only when a revision recorded in between reaches back into what it
/// has already folded.
#[derive(Default)]
struct AsItStood {
    replay: Option<Replay>,
    /// The last seq folded in.
    folded: Seq,
}

impl AsItStood {
    fn before(
        &mut self,
        at: Seq,
        revisions: &Revisions,
        log: &mut dyn ReadAgain,
    ) -> Result<&crate::state::CampaignState, StoreError> {
        let upto = at.previous();
        let known = Revisions {
            retractions: (revisions.retractions.iter())
                .filter(|(by, _)| *by <= upto)
                .copied()
                .collect(),
            amendments: (revisions.amendments.iter())
                .filter(|(by, _, _)| *by <= upto)
                .cloned()
                .collect(),
        };
        let folded = self.folded;
        let reaches_back = (known.retractions.iter())
            .map(|&(by, target)| (by, target))
            .chain(
                known
                    .amendments
                    .iter()
                    .map(|(by, target, _)| (*by, *target)),
            )
            .any(|(by, target)| by > folded && target <= folded);
        let mut replay = match self.replay.take() {
            Some(replay) if !reaches_back && folded <= upto => {
                Replay::resume(replay.finish(), &known)
            }
            _ => {
                self.folded = Seq(0);
                Replay::new(&known)
            }
        };
        if self.folded < upto {
            log.each(self.folded.next(), upto, &mut |seq, event| {
                replay.feed(seq, event);
            })?;
        }
        self.folded = upto;
        Ok(self.replay.insert(replay).state())
    }
}
