//! The dice checks of [`Verifier`]: seeded, sealed and device dice, and the seeds
//! a file keeps.

use super::Verifier;
use super::{MetSeal, PutToDevice};
use crate::dice::{DiePosition, Provenance, fairness, sealed};
use crate::event::{Event, SEALED_WHOLE_SINCE};
use crate::ids::RequestId;
use crate::seq::Seq;
use std::collections::BTreeMap;

impl Verifier {
    /// A die a player's device made (C-5, C-6): its request was answered in this command's run
    /// of rows, and the face is the one the published secret and the device's bytes give.
    pub(super) fn check_device_die(
        &mut self,
        seq: Seq,
        request: RequestId,
        claims_witnessed: bool,
        die: &crate::dice::Die,
    ) {
        let found = self.requests.get_mut(&request).map(|r| {
            let refused = r.answered.is_some_and(|(_, refused, _)| refused);
            if let Some((_, _, claimed)) = &mut r.answered {
                *claimed = true;
            }
            (r.witnessed, r.answer.clone(), refused)
        });
        let (witnessed, (run, g, contribution)) = match found {
            Some((_, Some(_), true)) => {
                return self.dice_problem(
                    seq,
                    format!(
                        "#{seq}: die {} claims request {request}, whose answer records no roll",
                        die.n
                    ),
                );
            }
            Some((witnessed, Some(answer), false)) => (witnessed, answer),
            _ => {
                return self.dice_problem(
                    seq,
                    format!(
                        "#{seq}: die {} claims request {request}, which no earlier event answered",
                        die.n
                    ),
                );
            }
        };
        if witnessed != claims_witnessed {
            return self.dice_problem(
                seq,
                format!(
                    "#{seq}: die {} says request {request} was {}, but the request says otherwise",
                    die.n,
                    if claims_witnessed {
                        "witnessed"
                    } else {
                        "a player's roll"
                    }
                ),
            );
        }
        if run != self.run.0 {
            return self.dice_problem(
                seq,
                format!(
                    "#{seq}: die {} claims request {request}, answered by another command",
                    die.n
                ),
            );
        }
        // The answer's dice are numbered 0, 1, 2, … in draw order, on across the command's events:
        // a die given another `n` is another face of the same secret and bytes, which the GM's
        // server, knowing both, could choose.
        let next = self.requests.get_mut(&request).map_or(0, |r| {
            r.dice_claimed += 1;
            r.dice_claimed - 1
        });
        if die.n != next {
            return self.dice_problem(
                seq,
                format!(
                    "#{seq}: die {} of request {request} should be its die {next} in draw order: a die was taken from another place of the derivation",
                    die.n
                ),
            );
        }
        let face = fairness::device_part(&g, request, &contribution, die.n, 0, die.sides);
        if die.value != Some(face) {
            return self.dice_problem(
                seq,
                format!(
                    "#{seq}: die {} shows {}, but request {request}'s secret and the device's bytes give {face}",
                    die.n,
                    die.value.map_or("nothing".to_string(), |v| v.to_string())
                ),
            );
        }
        match witnessed {
            true => self.report.witnessed_dice_checked += 1,
            false => self.report.device_dice_checked += 1,
        }
        if self
            .requests
            .get(&request)
            .is_some_and(|r| matches!(r.asked, crate::event::AskedCommand::System { .. }))
        {
            self.report.device_dice_in_rules_commands += 1;
        }
    }

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

    /// A reveal at `seq` opens each of its dice: a sealed die the event it names holds, not yet
    /// opened (whether the opening matches the commitment is checked with the die).
    pub(super) fn check_reveal(
        &mut self,
        seq: Seq,
        target: Seq,
        dice: &[crate::event::RevealedDie],
    ) {
        for die in dice {
            let n = die.n;
            let what = match self.sealed_met.get_mut(&(target, n)) {
                None => {
                    format!("#{seq} reveals die {n} of #{target}, which holds no such sealed die")
                }
                Some(MetSeal { opened: true, .. }) => {
                    format!("#{seq} reveals die {n} of #{target} a second time")
                }
                Some(met) => {
                    met.opened = true;
                    continue;
                }
            };
            self.dice_problem(seq, what);
        }
    }

    /// A free roll's dice are the ones its expression rolls, and its total is them added up as it
    /// says; a sealed roll has no total until its dice are revealed.
    pub(super) fn check_free_roll(
        &mut self,
        (seq, version): (Seq, u32),
        expression: &crate::dice::DiceExpr,
        dice: &[crate::dice::Die],
        total: Option<i64>,
    ) {
        let faces: Option<Vec<u32>> = dice.iter().map(|d| d.value).collect();
        match (faces, total) {
            (Some(faces), total) => {
                let sides: Vec<u32> = dice.iter().map(|d| d.sides).collect();
                if expression.sides_of(&faces) != Some(sides) {
                    self.dice_problem(
                        seq,
                        format!("#{seq}: its dice are not the dice its expression {expression} rolls"),
                    );
                }
                let added = expression.breakdown(&faces).map(|(_, added)| added);
                if let Some(total) = total
                    && added != Some(total)
                {
                    self.dice_problem(
                        seq,
                        format!("#{seq}: the roll's total {total} is not what its dice add up to"),
                    );
                }
            }
            (None, Some(total)) => self.dice_problem(
                seq,
                format!("#{seq}: the roll shows a total of {total} while its dice are sealed: a total is known only once they are revealed"),
            ),
            // A sealed roll's faces are hidden, not its dice: a die of other sides than the
            // expression rolls is one the GM chose, its face with it.
            (None, None) => {
                let sides: Vec<u32> = dice.iter().map(|d| d.sides).collect();
                let fits = match expression.is_open_ended() && version < SEALED_WHOLE_SINCE {
                    false => sides == expression.sealed_sides(),
                    true => {
                        let sizes = expression.die_sizes();
                        sides.iter().all(|s| sizes.contains(s))
                    }
                };
                if !fits {
                    self.dice_problem(
                        seq,
                        format!("#{seq}: its dice are not the dice its expression {expression} rolls"),
                    );
                }
            }
        }
    }

    /// Notes the commitment to the second seed of the epoch `event` begins, if it has one.
    pub(super) fn note_sealed_commitment(&mut self, epoch: u32, event: &Event) {
        if let Some(commitment) = event.sealed_commitment() {
            self.sealed_commitments
                .insert(epoch, commitment.to_string());
        }
    }

    /// The seed epoch `epoch`'s sealed dice come from, if it is published: its second in an
    /// epoch that has one, else its one seed.
    pub(super) fn sealed_dice_seed(&self, epoch: u32) -> Option<[u8; 32]> {
        match self.sealed_commitments.get(&epoch) {
            Some(commitment) => self.reveals.sealed_seed(epoch, Some(commitment)),
            None => self.reveals.seed(epoch, self.commitments.get(&epoch)),
        }
    }

    /// An epoch with a seed for sealed dice that has ended publishes it as soon as none of its
    /// sealed dice waits to be revealed (grimoire does, in the same write): a log without it hides
    /// what those dice were derived from. Named at the event that began the next epoch.
    pub(super) fn check_sealed_seeds_published(&mut self) {
        let unpublished: Vec<u32> = (self.sealed_commitments.keys())
            .filter(|&&epoch| epoch < self.epoch && !self.sealed_seeds_revealed.contains(&epoch))
            .copied()
            .collect();
        for epoch in unpublished {
            let waiting =
                (self.sealed_met.values()).any(|met| !met.opened && met.epoch == Some(epoch));
            let next = (self.epoch_began.range(epoch + 1..))
                .map(|(_, &seq)| seq)
                .min();
            if let (false, Some(at)) = (waiting, next) {
                self.dice_problem(at, format!("#{at}: dice epoch {epoch} had ended and none of its sealed dice waits to be revealed, but its seed for sealed dice was never published, so they cannot be checked"));
            }
        }
    }

    /// Where a seeded die sits in this campaign, for the fairness derivation.
    pub(super) fn position<'a>(
        &'a self,
        epoch: u32,
        seq: Seq,
        die: &crate::dice::Die,
        entropy: &'a str,
    ) -> DiePosition<'a> {
        DiePosition {
            campaign_id: &self.campaign_id,
            epoch,
            seq,
            roll: die.provenance.roll(),
            n: die.n,
            entropy,
        }
    }

    pub(super) fn check_seeded(
        &mut self,
        seq: Seq,
        epoch: u32,
        die: &crate::dice::Die,
        entropy: &str,
    ) {
        let (n, sides, value) = (die.n, die.sides, die.value);
        if epoch != self.epoch {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: die {n} claims epoch {epoch} but the log was in epoch {}",
                    self.epoch
                ),
            );
            return;
        }
        let Some(seed) = self.reveals.seed(epoch, self.commitments.get(&epoch)) else {
            self.report.seeded_dice_awaiting_reveal += 1;
            return;
        };
        let pos = self.position(epoch, seq, die, entropy);
        let expected = (sides > 0).then(|| fairness::seeded_face(&seed, &pos, sides));
        self.report.seeded_dice_checked += 1;
        if value != expected {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: seeded die {n} shows {} but the revealed seed gives {}",
                    face_words(value),
                    face_words(expected)
                ),
            );
        }
    }

    pub(super) fn check_sealed(
        &mut self,
        seq: Seq,
        die: &crate::dice::Die,
        commitment: &str,
        entropy: &str,
    ) {
        let n = die.n;
        // As a seeded die does, a sealed one rolled from a seed names the epoch the log is in: one
        // naming an epoch that never began would wait for its seed for ever.
        if let Some(epoch) = die.provenance.seeded_epoch()
            && epoch != self.epoch
        {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: sealed die {n} claims epoch {epoch} but the log was in epoch {}",
                    self.epoch
                ),
            );
            return;
        }
        let opened = self
            .reveals
            .sealed
            .get(&seq)
            .and_then(|dice| dice.iter().find(|d| d.n == n))
            .cloned();
        let Some(reveal) = opened else {
            self.report.sealed_dice_awaiting_reveal += 1;
            return;
        };
        self.report.sealed_dice_checked += 1;
        let faces = reveal.faces();
        if !sealed::reveal_matches(commitment, &faces, &reveal.nonce) {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: the value revealed for sealed die {n} does not open its commitment"
                ),
            );
            return;
        }
        if !rolled_that_way(&faces, die.sides) {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: sealed die {n} was revealed as {}, which no d{} rolled as grimoire rolls shows",
                    join_faces(&faces),
                    die.sides
                ),
            );
            return;
        }
        // A sealed die grimoire rolled from the epoch's seed (its second, in an epoch that has
        // one): once that seed is out, the revealed faces must be the ones the derivation gives,
        // or the GM chose them.
        let Some(epoch) = die.provenance.seeded_epoch() else {
            return;
        };
        // Until that seed is published, the die waits for it like any seeded die.
        let Some(seed) = self.sealed_dice_seed(epoch) else {
            self.report.seeded_dice_awaiting_reveal += 1;
            return;
        };
        let pos = self.position(epoch, seq, die, entropy);
        let derived = fairness::seeded_faces(&seed, &pos, die.sides, faces.len());
        self.report.seeded_dice_checked += 1;
        if epoch != self.epoch || derived != faces {
            let which = match self.sealed_commitments.contains_key(&epoch) {
                true => " for sealed dice",
                false => "",
            };
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: sealed die {n} was revealed as {} but epoch {epoch}'s seed{which} gives {}",
                    join_faces(&faces),
                    join_faces(&derived)
                ),
            );
        }
    }

    /// Names each kept seed (`epoch_seed`, or `sealed_seed` for an epoch's second) whose key is
    /// not the number of an epoch the log began with such a seed.
    pub fn check_seed_keys<'k>(&mut self, keys: impl Iterator<Item = (&'k str, &'k str)>) {
        for (kind, key) in keys {
            let committed = match kind {
                crate::store::SEALED_SEED => &self.sealed_commitments,
                _ => &self.commitments,
            };
            let begun = key
                .parse::<u32>()
                .ok()
                .filter(|epoch| epoch.to_string() == key && committed.contains_key(epoch));
            if begun.is_none() {
                let what = match kind {
                    crate::store::SEALED_SEED => "a seed for sealed dice",
                    _ => "a seed",
                };
                self.dice_problem(self.expected_seq.previous(), format!("the file keeps {what} under '{key}', which names no dice epoch the log began with one; it would stop that epoch keeping its own seed: remove it, or restore the file's secrets from a backup"));
            }
        }
    }

    /// Names each kept sealed die (`SEQ:N`) that no event of the log holds: a file whose secrets
    /// were put beside another copy's events (a copy that went its own way, restored by hand)
    /// would otherwise reveal dice that were never sealed.
    pub fn check_sealed_keys<'k>(&mut self, keys: impl Iterator<Item = &'k str>) {
        for key in keys {
            let held = key.split_once(':').and_then(|(seq, n)| {
                let (seq, n) = (seq.parse::<u64>().ok()?, n.parse::<u32>().ok()?);
                let canonical = format!("{seq}:{n}") == key;
                (canonical && self.sealed_met.contains_key(&(Seq(seq), n))).then_some(Seq(seq))
            });
            if held.is_none() {
                let at = key
                    .split_once(':')
                    .and_then(|(seq, _)| seq.parse::<u64>().ok())
                    .filter(|&seq| seq >= 1 && seq < self.expected_seq.get())
                    .map_or(self.expected_seq.previous(), Seq);
                self.dice_problem(at, format!("the file keeps a sealed die under '{key}', which no event of the log holds sealed; its secrets and its events are not one campaign's (restore the file from a backup)"));
            }
        }
    }

    /// Names each die still sealed whose secret the file does not keep, or keeps as something
    /// that does not open its commitment: it could never be revealed (a Ceremony scroll's check
    /// never read, its epoch's seed for sealed dice never published). `kept` is every sealed die
    /// the file keeps, as (key `SEQ:N`, value); a file that keeps no secret at all (a public
    /// export imported) is not asked.
    pub fn check_kept_sealed<'k>(&mut self, kept: impl Iterator<Item = (&'k str, &'k str)>) {
        let kept: BTreeMap<&str, &str> = kept.collect();
        let waiting: Vec<((Seq, u32), String)> = (self.sealed_met.iter())
            .filter(|(_, met)| !met.opened)
            .map(|(die, met)| (*die, met.commitment.clone()))
            .collect();
        for ((seq, n), commitment) in waiting {
            let key = format!("{seq}:{n}");
            let opens = kept.get(key.as_str()).map(|value| {
                serde_json::from_str::<sealed::SealedSecret>(value)
                    .ok()
                    .and_then(|secret| secret.commitment())
                    .is_some_and(|c| c == commitment)
            });
            let fault = match opens {
                Some(true) => continue,
                Some(false) => "keeps a secret for it that does not open its commitment",
                None => "keeps no secret for it",
            };
            self.dice_problem(seq, format!("#{seq}: sealed die {n} waits to be revealed, but the file {fault}, so it never can be; restore the file's secrets from a backup"));
        }
    }

    /// Checks the seeds the file keeps for each epoch not yet revealed (its first, and its second
    /// in an epoch that has one) against the commitments published for them: a seed edited in the
    /// file would draw dice that no reveal could ever vouch for. `kept` reads a seed of a kind
    /// (`epoch_seed`, `sealed_seed`) for an epoch (`None` where the file keeps none, as in a
    /// public export, or where the reader may not see secrets, as a players' database role); a
    /// seed damaged in the file is reported like one that does not match.
    pub fn check_kept_seeds(
        &mut self,
        mut kept: impl FnMut(&str, u32) -> Result<Option<String>, crate::store::StoreError>,
    ) -> Result<(), crate::store::StoreError> {
        let first_seeds = (self.commitments.iter())
            .filter(|(epoch, _)| !self.report.epochs_revealed.contains(epoch))
            .map(|(epoch, commitment)| (crate::store::EPOCH_SEED, *epoch, commitment.clone()));
        let second_seeds = (self.sealed_commitments.iter())
            .filter(|(epoch, _)| !self.sealed_seeds_revealed.contains(epoch))
            .map(|(epoch, commitment)| (crate::store::SEALED_SEED, *epoch, commitment.clone()));
        let unrevealed: Vec<(&str, u32, String)> = first_seeds.chain(second_seeds).collect();
        // Each seed: whether it opens its commitment, or `None` where the file keeps none.
        let mut found = Vec::new();
        for (kind, epoch, commitment) in unrevealed {
            let opens = match kept(kind, epoch) {
                Ok(None) => None,
                // No secret may be read (a server ends the transaction at the refusal): the
                // seeds are for whoever holds them to check.
                Err(crate::store::StoreError::NotPermitted { .. }) => return Ok(()),
                Ok(Some(text)) => Some(fairness::opens(&text, &commitment)),
                Err(crate::store::StoreError::DamagedSecret { .. }) => Some(false),
                Err(other) => return Err(other),
            };
            found.push((kind, epoch, opens));
        }
        // A file with secrets keeps every unrevealed seed; an export without them, none.
        let keeps_seeds = found.iter().any(|(_, _, opens)| opens.is_some());
        for (kind, epoch, opens) in found {
            let seq = self.epoch_began.get(&epoch).copied().unwrap_or(Seq::START);
            let which = match kind {
                crate::store::SEALED_SEED => " for sealed dice",
                _ => "",
            };
            match opens {
                Some(true) => {}
                Some(false) => self.dice_problem(seq, format!("#{seq}: the seed{which} the file keeps for epoch {epoch} does not match the commitment published for it, so its dice could never be checked; restore the file's secrets from a backup")),
                None if keeps_seeds => self.dice_problem(seq, format!("#{seq}: the file keeps the seeds of other epochs but none{which} for epoch {epoch}, so its dice could never be checked; restore the file's secrets from a backup")),
                None => {}
            }
        }
        Ok(())
    }
}

/// What is wrong with a seed's reveal (`which` names the seed: "" or " for sealed dice"), if
/// anything: it names an epoch begun, once, and opens the commitment published for it.
pub(super) fn seed_reveal_fault(
    epoch: u32,
    current: u32,
    opens: bool,
    revealed: bool,
    which: &str,
) -> Option<String> {
    if epoch > current {
        Some(format!(
            "the seed{which} revealed for epoch {epoch} names an epoch the log has not begun"
        ))
    } else if !opens {
        Some(format!(
            "the seed{which} revealed for epoch {epoch} does not match the commitment published for it"
        ))
    } else if revealed {
        Some(format!(
            "the seed{which} of epoch {epoch} is revealed a second time"
        ))
    } else {
        None
    }
}

pub(super) fn join_faces(faces: &[u32]) -> String {
    faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A die's face in words for a report: "17", or "no value" where the log holds none.
pub(super) fn face_words(face: Option<u32>) -> String {
    face.map_or_else(|| "no value".to_string(), |f| f.to_string())
}

/// Whether a sealed die's revealed faces are ones its die shows, in a chain grimoire would roll:
/// each face on the die, a further face only after one that rolls again (an open-ended d100's
/// 96-100, or 01-05 first), and no chain of two or more stopped on a face that rolls again. (A
/// single low face may end an attack roll, so a lone face is never said to stop early.)
pub(super) fn rolled_that_way(faces: &[u32], sides: u32) -> bool {
    faces.iter().all(|face| (1..=sides).contains(face))
        && (1..faces.len()).all(|k| crate::dice::open_ended::needs_another(&faces[..k]))
        && !(faces.len() > 1 && faces.last().is_some_and(|&last| last >= 96))
}
