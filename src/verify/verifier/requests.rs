//! The players' requests and answers as [`Verifier`] holds them (C-5, C-6): each request put in
//! turn to a device whose link stands, each answer opening its commitment, the events that claim
//! an answer's dice the ones its command records, and the rolls put again after a withdrawal or a
//! refused answer.

use super::{PutToDevice, Verifier};
use crate::dice::{Provenance, fairness};
use crate::event::Event;
use crate::ids::RequestId;
use crate::seq::Seq;

impl Verifier {
    /// The rolls put to `device` after `refused` and still waiting are rolls put again after it:
    /// the server could hold the refused answer, put the roll again, and only then record the
    /// refusal.
    fn mark_waiting_put_again(&mut self, device: crate::ids::DeviceId, refused: RequestId) {
        let later = (
            std::ops::Bound::Excluded(refused),
            std::ops::Bound::Unbounded,
        );
        for (_, again) in self.requests.range_mut(later) {
            if again.device == device
                && again.answer.is_none()
                && !again.withdrawn
                && !again.put_again
            {
                again.put_again = true;
                self.report.rolls_put_again += 1;
            }
        }
    }

    /// The events that claim an answer's dice are the ones its command records (C-5): a free
    /// roll's are all in one `dice_rolled` event, which holds no other die; a system command's
    /// are in events of that system. The GM's server knows the phone's bytes before it writes
    /// the dice, so an event it slipped in before the roll, spending the answer's first dice,
    /// would let the roll take a later die with the face it wanted.
    pub(super) fn check_request_claims(&mut self, seq: Seq, event: &Event) {
        let dice = event.dice();
        let mut requests: Vec<RequestId> = Vec::new();
        for die in dice {
            if let Provenance::Device { request, .. } = die.provenance
                && !requests.contains(&request)
            {
                requests.push(request);
            }
        }
        for request in requests {
            // A die claiming a request never made or answered says so itself.
            let Some(put) = self
                .requests
                .get_mut(&request)
                .filter(|r| r.answer.is_some())
            else {
                continue;
            };
            let first = *put.claimed_by.get_or_insert(seq);
            let kind = event.kind();
            let problem = match &put.asked {
                crate::event::AskedCommand::Roll { .. } if kind != "dice_rolled" => Some(format!(
                    "#{seq}: request {request} asked for a free roll, and a '{kind}' event claims its dice"
                )),
                crate::event::AskedCommand::Roll { .. } if first != seq => Some(format!(
                    "#{seq}: request {request}'s roll is recorded already, by #{first}"
                )),
                crate::event::AskedCommand::Roll { .. }
                    if dice.iter().any(|d| !matches!(d.provenance, Provenance::Device { request: of, .. } if of == request)) =>
                {
                    Some(format!(
                        "#{seq}: the roll made for request {request} holds a die its answer did not make"
                    ))
                }
                crate::event::AskedCommand::System { system, .. }
                    if crate::event::kinds_by_system()
                        .iter()
                        .all(|&(k, owner)| k != kind || owner != system) =>
                {
                    Some(format!(
                        "#{seq}: request {request} asked for a command of the {system} rules, and a '{kind}' event claims its dice"
                    ))
                }
                _ => None,
            };
            if let Some(problem) = problem {
                self.dice_problem(seq, problem);
            }
        }
    }

    /// A free roll whose dice a device made is the roll its request asked for (C-5): the same
    /// expression and purpose, for the same character, as the rules record them.
    pub(super) fn check_asked_roll(
        &mut self,
        seq: Seq,
        (expression, purpose, character): (&crate::dice::DiceExpr, Option<&str>, Option<&str>),
        dice: &[crate::dice::Die],
    ) {
        let Some(request) = dice.iter().find_map(|d| match d.provenance {
            Provenance::Device { request, .. } => Some(request),
            _ => None,
        }) else {
            return;
        };
        // A die claiming a request never made says so itself.
        let Some(put) = self.requests.get(&request) else {
            return;
        };
        let asked_for = match &put.asked {
            crate::event::AskedCommand::Roll {
                expression: asked,
                purpose: asked_purpose,
                character: asked_character,
            } => {
                let said = asked_purpose
                    .as_deref()
                    .map(str::trim)
                    .filter(|p| !p.is_empty());
                asked == expression
                    && said == purpose
                    && asked_character.as_deref().map(crate::words::fold_name)
                        == character.map(crate::words::fold_name)
            }
            crate::event::AskedCommand::System { .. } => false,
        };
        if !asked_for {
            self.dice_problem(
                seq,
                format!("#{seq}: the roll made for request {request} is not the one it asked for"),
            );
        }
    }

    /// The players' requests and answers (C-5): each request numbered in turn and put to a device
    /// whose link stands, a player's roll acting for a character its player plays (from the
    /// acting rule's version on), each answered or withdrawn at most once while it waits, and
    /// each answer's secret opening its commitment; a player's own choice made on a device whose
    /// link stands, for a character its player plays.
    pub(super) fn check_request_event(
        &mut self,
        seq: Seq,
        version: u32,
        actor: &str,
        event: &Event,
    ) {
        let problem = match event {
            Event::RollRequested {
                request,
                device,
                commitment,
                witnessed,
                asked,
            } => {
                let next = RequestId::after(self.requests.keys().max().copied());
                self.requests.insert(
                    *request,
                    PutToDevice {
                        device: *device,
                        commitment: commitment.clone(),
                        witnessed: *witnessed,
                        answer: None,
                        asked: asked.clone(),
                        answered: None,
                        withdrawn: false,
                        dice_claimed: 0,
                        claimed_by: None,
                        put_again: false,
                    },
                );
                if !self.withdrawn.put(*device).is_empty() {
                    self.report.rolls_put_again += 1;
                    if let Some(r) = self.requests.get_mut(request) {
                        r.put_again = true;
                    }
                }
                let acting = asked.acting().filter(|_| !*witnessed);
                match self.devices.get(device) {
                    _ if *request != next => Some(format!(
                        "#{seq}: request {request} is out of turn (the next was {next})"
                    )),
                    None => Some(format!(
                        "#{seq}: request {request} is put to device {device}, which was never linked"
                    )),
                    Some((_, false)) => Some(format!(
                        "#{seq}: request {request} is put to device {device}, whose link was revoked"
                    )),
                    Some((plays, true))
                        if version >= crate::event::ACTING_RULE_SINCE
                            && acting.is_some_and(|a| !crate::state::players::plays(plays, a)) =>
                    {
                        Some(format!(
                            "#{seq}: request {request} has device {device} roll for {}, whom its player does not play ({})",
                            acting.unwrap_or_default(),
                            plays.join(", ")
                        ))
                    }
                    Some(_) => None,
                }
            }
            Event::DeviceLinked {
                device,
                characters,
                player,
            } => {
                self.devices.insert(*device, (characters.clone(), true));
                self.device_players.insert(*device, player.clone());
                None
            }
            Event::DeviceUnlinked { device } => {
                if let Some((_, linked)) = self.devices.get_mut(device) {
                    *linked = false;
                }
                None
            }
            Event::RollAnswered {
                request,
                contribution,
                secret,
                refused,
            } => {
                let run = self.run.0;
                match self.requests.get_mut(request) {
                    None => Some(format!(
                        "#{seq} answers request {request}, which was never made"
                    )),
                    Some(r) if r.answer.is_some() || r.withdrawn => Some(format!(
                        "#{seq} answers request {request}, which no longer waited"
                    )),
                    Some(r) => {
                        let g = fairness::parse_seed(secret).filter(|g| hex::encode(g) == *secret);
                        let bytes = hex::decode(contribution).ok().filter(|b| {
                            b.len() == fairness::CONTRIBUTION_BYTES
                                && *contribution == hex::encode(b)
                        });
                        match (g, bytes) {
                            (Some(g), Some(bytes))
                                if fairness::seed_commitment(&g) == r.commitment =>
                            {
                                r.answer = Some((run, g, bytes));
                                r.answered = Some((seq, refused.is_some(), false));
                                // Refused, it recorded no roll: the next put to the device is
                                // a roll put again, as after a withdrawal, and so is one put to it
                                // already and still waiting.
                                if refused.is_some() {
                                    let device = r.device;
                                    self.withdrawn.withdraw(device, *request);
                                    self.mark_waiting_put_again(device, *request);
                                }
                                None
                            }
                            (Some(_), Some(_)) => Some(format!(
                                "#{seq}: the secret answering request {request} does not match its commitment"
                            )),
                            _ => Some(format!(
                                "#{seq}: the answer to request {request} is not a secret and {} bytes in lowercase hex",
                                fairness::CONTRIBUTION_BYTES
                            )),
                        }
                    }
                }
            }
            // A player's own choice (#47): made on a device whose link stands, for a character
            // its player plays. It brings no dice of its own, so nothing else is the checkers'.
            Event::ChoiceAnswered { device, asked } => {
                self.check_choice(seq, actor, *device, asked)
            }
            Event::RollWithdrawn { request } => match self.requests.get_mut(request) {
                Some(r) if r.answer.is_none() && !r.withdrawn => {
                    r.withdrawn = true;
                    self.withdrawn.withdraw(r.device, *request);
                    None
                }
                _ => Some(format!(
                    "#{seq} withdraws request {request}, which was not waiting"
                )),
            },
            _ => None,
        };
        if let Some(what) = problem {
            self.dice_problem(seq, what);
        }
    }
}
