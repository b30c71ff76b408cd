//! The dice checks of [`Verifier`]: seeded, sealed and device dice, and the seeds a file keeps
//! (the players' requests and answers are in `requests.rs`).

use super::MetSeal;
use super::Verifier;
use crate::dice::{DiePosition, fairness, sealed};
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
