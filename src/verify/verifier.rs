//! The checks every row goes through, in seq order: the chain, the record's own rules (answers,
//! amendments, sessions), and every die against where it says it came from.

mod choices;
mod dice;
mod requests;
mod rolls;

use crate::ids::{DeviceId, RequestId};
use dice::seed_reveal_fault;

use super::clock::RecordedClock;
use super::names::CharacterNames;
use super::report::{CheckpointMiss, CheckpointResult, Problem, VerifyReport};
use super::reveals::Reveals;
use crate::dice::{Provenance, fairness};
use crate::event::Event;
use crate::seq::Seq;
use crate::store::chain::GENESIS_HASH;
use crate::store::{Checkpoint, StoredRow};
use std::collections::{BTreeMap, BTreeSet};

/// Streams the rows through the checks. Feed every row in seq order, then call [`Verifier::finish`].
pub struct Verifier {
    reveals: Reveals,
    report: VerifyReport,
    expected_seq: Seq,
    prev_hash: String,
    campaign_id: String,
    epoch: u32,
    /// Each epoch's published seed commitment: a withheld seed is revealed epochs later.
    commitments: BTreeMap<u32, String>,
    /// The commitment to each epoch's second seed, for the epochs that have one: their sealed
    /// dice come from it.
    sealed_commitments: BTreeMap<u32, String>,
    /// The epochs whose second seed has been revealed.
    sealed_seeds_revealed: BTreeSet<u32>,
    /// Where each epoch began (its commitment's event).
    epoch_began: BTreeMap<u32, Seq>,
    entropy: String,
    /// The session open at this point of the log, as its edges say: every row must be stamped
    /// with it (a roll restamped into a session would borrow its players' witness).
    open_session: Option<u32>,
    /// The checkpoints asked about, with how many of their digits differ from the hash found at
    /// their seq (`None`: not reached yet).
    checkpoints: Vec<(Checkpoint, Option<usize>)>,
    /// The current epoch binds seeded dice to roll numbers (the second derivation).
    counts_rolls: bool,
    /// Roll numbers seen in the current epoch: the next command that rolls must carry this one.
    rolls: u64,
    /// The draw indexes already used under the latest roll number (one command's dice, perhaps
    /// spread over several events).
    roll_draws: BTreeSet<u32>,
    /// The latest event holding seeded dice of the latest roll number, and the run of rows it
    /// stands in (another event of the same command follows it in that run).
    roll_last: Option<(Seq, Seq)>,
    /// Rows recorded at one moment, one after another, form a run (one command's events always
    /// do): its number, and the moment.
    run: (Seq, String),
    clock: RecordedClock,
    /// The amendments in the log by the event each amends: (the amendment's seq, its event),
    /// checked when that event is reached (C-3).
    amendments: BTreeMap<Seq, Vec<(Seq, Event)>>,
    /// Each amended event, from the original on, by its seq: every version met so far, as (where
    /// it was recorded, the event). An amendment's list of changed fields is computed against
    /// the version in force when it was recorded.
    versions: BTreeMap<Seq, Vec<(Seq, Event)>>,
    /// The sealed dice met so far, as (event, n): a reveal must open a sealed die of an earlier
    /// event, once.
    sealed_met: BTreeMap<(Seq, u32), MetSeal>,
    /// The newest payload version read so far.
    newest_version: u32,
    /// The rolls put to devices so far, by request number (C-5).
    requests: BTreeMap<RequestId, PutToDevice>,
    /// The devices linked so far (C-4), by number: the characters each plays, and whether its
    /// link stands.
    devices: BTreeMap<DeviceId, (Vec<String>, bool)>,
    /// Each linked device's player, by number: who records a choice made on it.
    device_players: BTreeMap<DeviceId, String>,
    /// A choice made on a phone whose command's event the next row must be.
    choice_due: Option<choices::ChoiceDue>,
    /// What was withdrawn from each device since a request was last put to it (C-5).
    withdrawn: crate::state::players::Withdrawals,
    names: CharacterNames,
    /// Where the players' events stand (links, requests, answers, withdrawals, choices): the
    /// record of how dice were made, which grimoire never retracts.
    players_rows: std::collections::BTreeSet<Seq>,
}

/// A sealed die as the verifier met it.
struct MetSeal {
    /// Whether a reveal has opened it.
    opened: bool,
    /// The epoch whose seed for sealed dice it came from, when grimoire rolled it from a seed.
    epoch: Option<u32>,
    /// Its commitment: a die still sealed must keep a secret that opens it.
    commitment: String,
}

/// A roll put to a device, as the verifier follows it.
struct PutToDevice {
    device: DeviceId,
    commitment: String,
    witnessed: bool,
    /// The answer: its run of rows (the dice it made belong to that run's command), the secret
    /// and the device's bytes.
    answer: Option<(Seq, [u8; 32], Vec<u8>)>,
    asked: crate::event::AskedCommand,
    /// Where the answer is, whether it says the rules refused the command, and whether a die of
    /// its command has claimed it yet: an answer that records a roll must be used by one.
    answered: Option<(Seq, bool, bool)>,
    withdrawn: bool,
    /// How many dice have claimed the answer so far: the next must be numbered so.
    dice_claimed: u32,
    /// The first event whose dice claimed the answer: a free roll is recorded by that one alone.
    claimed_by: Option<Seq>,
    /// Marked as put again (counted in the report once).
    put_again: bool,
}

pub(super) const MAX_PROBLEMS: usize = 20;

impl Verifier {
    pub fn new(reveals: Reveals, checkpoints: Vec<Checkpoint>) -> Verifier {
        Verifier {
            reveals,
            report: VerifyReport::default(),
            newest_version: 0,
            expected_seq: Seq(1),
            prev_hash: GENESIS_HASH.to_string(),
            campaign_id: String::new(),
            epoch: 1,
            commitments: BTreeMap::new(),
            sealed_commitments: BTreeMap::new(),
            sealed_seeds_revealed: BTreeSet::new(),
            epoch_began: BTreeMap::new(),
            entropy: String::new(),
            open_session: None,
            checkpoints: checkpoints.into_iter().map(|c| (c, None)).collect(),
            counts_rolls: false,
            rolls: 0,
            roll_draws: BTreeSet::new(),
            roll_last: None,
            run: (Seq::START, String::new()),
            clock: RecordedClock::default(),
            amendments: BTreeMap::new(),
            players_rows: Default::default(),
            versions: BTreeMap::new(),
            sealed_met: BTreeMap::new(),
            requests: BTreeMap::new(),
            devices: BTreeMap::new(),
            device_players: BTreeMap::new(),
            choice_due: None,
            withdrawn: Default::default(),
            names: CharacterNames::default(),
        }
    }

    /// Takes in the log's amendments, read beforehand: each must amend an earlier event of its
    /// own kind with that event's dice, die for die.
    pub fn expect_amendment(&mut self, at: Seq, amends: Seq, event: Event) {
        self.amendments.entry(amends).or_default().push((at, event));
    }

    fn check_amendments_of(&mut self, seq: Seq, original: &Event) {
        // The purpose is words; everything the fairness check reads must match.
        let unworded = |dice: &[crate::dice::Die]| -> Vec<crate::dice::Die> {
            dice.iter()
                .map(|d| crate::dice::Die {
                    purpose: String::new(),
                    ..d.clone()
                })
                .collect()
        };
        let amendments = self.amendments.remove(&seq).unwrap_or_default();
        if !amendments.is_empty() {
            self.versions.insert(seq, vec![(seq, original.clone())]);
        }
        for (at, amended) in amendments {
            let what = if at <= seq {
                Some(format!("#{at} amends #{seq}, which comes after it"))
            } else if matches!(original, Event::Amended { .. }) {
                // Amendments came in with their refusal to amend one: an event is amended again
                // by a new amendment of the event itself.
                Some(format!(
                    "#{at} amends #{seq}, itself an amendment, which grimoire never amends"
                ))
            } else if matches!(
                original,
                Event::DeviceLinked { .. }
                    | Event::DeviceUnlinked { .. }
                    | Event::RollRequested { .. }
                    | Event::RollAnswered { .. }
                    | Event::RollWithdrawn { .. }
                    | Event::ChoiceAnswered { .. }
            ) {
                // The record of how dice were made: an amended request would have a phone's
                // answer decided on a command its player never saw.
                Some(format!(
                    "#{at} amends #{seq}, a players' event (a link, request, answer, withdrawal or choice), which grimoire never amends"
                ))
            } else if amended.kind() != original.kind() {
                Some(format!(
                    "#{at} amends #{seq}, a '{}' event, with a '{}' event",
                    original.kind(),
                    amended.kind()
                ))
            } else if unworded(amended.dice()) != unworded(original.dice()) {
                Some(format!(
                    "#{at} amends #{seq} with dice other than the ones #{seq} rolled"
                ))
            } else {
                None
            };
            if let Some(what) = what {
                self.dice_problem(at, what);
            }
        }
    }

    /// An answered roll is final (C-5): every grimoire writing payload version
    /// [`crate::event::ANSWERED_ROLL_FINAL_SINCE`] or later refused to amend an event whose dice a
    /// player's device made, as its new expression or character would change what the phone's
    /// dice were asked for.
    fn check_not_a_device_roll(&mut self, row: &StoredRow, target: Seq) {
        let device_made = self
            .versions
            .get(&target)
            .and_then(|versions| versions.first())
            .is_some_and(|(_, original)| {
                (original.dice().iter()).any(|d| matches!(d.provenance, Provenance::Device { .. }))
            });
        if device_made && row.schema_version >= crate::event::ANSWERED_ROLL_FINAL_SINCE {
            let seq = row.seq;
            self.dice_problem(
                seq,
                format!("#{seq} amends #{target}, whose dice a player's device made: an answered roll is final, and grimoire never amends one"),
            );
        }
    }

    /// Where the chain was first found broken so far, if it was.
    pub fn chain_break(&self) -> Option<&Problem> {
        self.report.chain_break.as_ref()
    }

    /// Checks one row; returns its event when it can be read, so the caller can replay it.
    pub fn feed(&mut self, row: &StoredRow) -> Option<Event> {
        self.report.events += 1;
        self.report.head = Some(row.checkpoint().to_string());
        if self.report.chain_break.is_none()
            && let Some(what) = self.chain_fault(row)
        {
            self.report.chain_break = Some(Problem {
                seq: row.seq.min(self.expected_seq),
                what,
            });
        }
        self.expected_seq = row.seq + 1;
        self.prev_hash = row.hash.clone();
        for (checkpoint, found) in &mut self.checkpoints {
            if checkpoint.seq == row.seq {
                let differing = checkpoint
                    .hash_prefix
                    .chars()
                    .zip(row.hash.chars())
                    .filter(|(noted, found)| noted != found)
                    .count();
                *found = Some(differing);
            }
        }
        if let Some(what) = row.shape_problem().or_else(|| row.text_problem()) {
            self.dice_problem(row.seq, what);
        }
        if let Some(what) = row.version_went_back(self.newest_version) {
            self.dice_problem(row.seq, what);
        }
        self.newest_version = self.newest_version.max(row.schema_version);
        match row.event() {
            Ok(event) => {
                if let Err(what) = self.clock.check(row.seq, row.game_time, &event) {
                    self.dice_problem(row.seq, what);
                }
                self.check_event(row, &event);
                Some(event)
            }
            Err(what) => {
                self.dice_problem(row.seq, what);
                None
            }
        }
    }

    fn chain_fault(&self, row: &StoredRow) -> Option<String> {
        if row.seq != self.expected_seq {
            return Some(format!(
                "the log skips from #{} to #{}: event #{} is missing",
                self.expected_seq - 1,
                row.seq,
                self.expected_seq
            ));
        }
        if row.prev_hash != self.prev_hash {
            return Some(format!(
                "#{} does not link to the event before it (prev_hash differs)",
                row.seq
            ));
        }
        if row.compute_hash() != row.hash {
            return Some(format!(
                "#{} was changed after it was recorded (its hash does not match its content)",
                row.seq
            ));
        }
        if row.seq == 1 && row.kind != "campaign_created" {
            return Some("#1 is not the campaign's creation".to_string());
        }
        None
    }

    /// Reports a problem found outside the rows' own checks (an export's event id given twice).
    pub fn note_problem(&mut self, seq: Seq, what: String) {
        self.dice_problem(seq, what);
    }

    /// Keeps the problems of the earliest events, in the order of their seqs: a problem is found
    /// where it can be seen (an amendment's when its original is read), so many found early about
    /// late events must not crowd out an earlier one, nor be named first.
    fn dice_problem(&mut self, seq: Seq, what: String) {
        let problems = &mut self.report.dice_problems;
        let at = problems.partition_point(|p| p.seq <= seq);
        if at < MAX_PROBLEMS {
            problems.insert(at, Problem { seq, what });
            problems.truncate(MAX_PROBLEMS);
        }
    }

    fn check_event(&mut self, row: &StoredRow, event: &Event) {
        let seq = row.seq;
        self.check_choice_made(seq, event);
        if let Some(named) = event
            .names_event()
            .filter(|&named| named == 0 || named >= seq)
        {
            self.dice_problem(
                seq,
                format!("#{seq} names #{named}, which is not an earlier event (it was forged)"),
            );
        }
        self.check_amendments_of(seq, event);
        self.check_session_stamp(row, event);
        if let Err(what) = self.names.check(row, event, &self.clock) {
            self.dice_problem(seq, what);
        }
        self.check_roll_numbers(row, event);
        self.check_request_claims(seq, event);
        let mut last_n = None;
        for die in event.dice() {
            if last_n.is_some_and(|n| die.n <= n) {
                self.dice_problem(seq, format!("#{seq}: die {} is out of draw order", die.n));
            }
            last_n = Some(die.n);
            // A die no command rolls, or a face no die has (typed in, `--rolls` refuses it): forged.
            if !(1..=crate::dice::MAX_SIDES).contains(&die.sides) {
                self.dice_problem(
                    seq,
                    format!(
                        "#{seq}: die {} has {} sides, and no die grimoire rolls has",
                        die.n, die.sides
                    ),
                );
            } else if let Some(value) = die.value
                && !(1..=die.sides).contains(&value)
            {
                self.dice_problem(
                    seq,
                    format!(
                        "#{seq}: die {} shows {value}, a face a d{} does not have",
                        die.n, die.sides
                    ),
                );
            }
            match &die.provenance {
                Provenance::Entered => {}
                Provenance::Device { request, witnessed } => {
                    self.check_device_die(seq, *request, *witnessed, die)
                }
                Provenance::Seeded { epoch, .. } => {
                    let entropy = die.provenance.entropy(&self.entropy).to_string();
                    if entropy.is_empty() {
                        self.report.seeded_dice_unwitnessed += 1;
                    }
                    self.check_seeded(seq, *epoch, die, &entropy)
                }
                Provenance::Sealed { commitment, .. } => {
                    self.sealed_met.entry((seq, die.n)).or_insert(MetSeal {
                        opened: false,
                        epoch: die.provenance.seeded_epoch(),
                        commitment: commitment.clone(),
                    });
                    let entropy = die.provenance.entropy(&self.entropy).to_string();
                    if die.provenance.seeded_epoch().is_some() && entropy.is_empty() {
                        self.report.seeded_dice_unwitnessed += 1;
                    }
                    self.check_sealed(seq, die, commitment, &entropy)
                }
            }
        }
        match event {
            Event::CampaignCreated {
                campaign_id,
                seed_commitment,
                derivation,
                ..
            } => {
                self.campaign_id = campaign_id.clone();
                self.commitments.insert(1, seed_commitment.clone());
                self.note_sealed_commitment(1, event);
                self.epoch_began.insert(1, seq);
                self.start_epoch(row, 1, *derivation);
            }
            Event::DiceRolled {
                expression,
                dice,
                total,
                purpose,
                character,
            } => {
                self.check_free_roll((seq, row.schema_version), expression, dice, *total);
                let recorded = (expression, purpose.as_deref(), character.as_deref());
                self.check_asked_roll(seq, recorded, dice);
            }
            // An amended free roll keeps its original's dice (checked beside the chain), and its
            // new expression must still read them.
            Event::Amended {
                event,
                seq: target,
                changed,
                ..
            } => {
                self.check_changed(seq, *target, event, changed);
                self.check_not_a_device_roll(row, *target);
                if let Event::DiceRolled {
                    expression,
                    dice,
                    total,
                    ..
                } = event.as_ref()
                {
                    self.check_free_roll((seq, row.schema_version), expression, dice, *total);
                }
            }
            Event::SessionStarted { entropy, number } => {
                self.entropy = entropy.clone();
                self.open_session = Some(*number);
            }
            Event::SessionEnded { .. } => {
                self.entropy.clear();
                self.open_session = None;
            }
            Event::SealedRevealed { seq: target, dice } => self.check_reveal(seq, *target, dice),
            Event::SeedRevealed { epoch, seed } => {
                // A seed is revealed when its epoch ends, or later when held back for sealed dice.
                let opens = (self.commitments.get(epoch))
                    .is_some_and(|commitment| fairness::opens(seed, commitment));
                let revealed = self.report.epochs_revealed.contains(epoch);
                match seed_reveal_fault(*epoch, self.epoch, opens, revealed, "") {
                    Some(fault) => self.dice_problem(seq, format!("#{seq}: {fault}")),
                    None => self.report.epochs_revealed.push(*epoch),
                }
            }
            Event::SealedSeedRevealed { epoch, seed } => {
                let opens = (self.sealed_commitments.get(epoch))
                    .is_some_and(|commitment| fairness::opens(seed, commitment));
                let revealed = self.sealed_seeds_revealed.contains(epoch);
                match seed_reveal_fault(*epoch, self.epoch, opens, revealed, " for sealed dice") {
                    Some(fault) => self.dice_problem(seq, format!("#{seq}: {fault}")),
                    None => {
                        self.sealed_seeds_revealed.insert(*epoch);
                    }
                }
            }
            Event::EpochStarted {
                epoch,
                seed_commitment,
                derivation,
                ..
            } => {
                self.start_epoch(row, *epoch, *derivation);
                self.epoch = *epoch;
                self.commitments.insert(*epoch, seed_commitment.clone());
                self.note_sealed_commitment(*epoch, event);
                self.epoch_began.insert(*epoch, seq);
            }
            // Their dice were checked above; nothing else in them bears on the chain or the dice.
            Event::CharacterAdded { .. }
            | Event::SheetChanged { .. }
            | Event::SheetCorrected { .. }
            | Event::DamageTaken { .. }
            | Event::Healed { .. }
            | Event::ClockAdvanced { .. }
            | Event::FightStarted { .. }
            | Event::RoundBegan { .. }
            | Event::FightEnded { .. }
            | Event::SeedWithheld { .. }
            | Event::Rested(_)
            | Event::DowntimeTaken(_)
            // The rule systems' events carry dice (checked above) and nothing of the chain's.
            | Event::System(_) => {}
            // The players' events are the record of how dice were made: what they recorded is
            // retracted instead (C-5), and a retraction of one would drop marks from the views.
            Event::Retracted { seq: target, .. } => {
                if self.players_rows.contains(target) {
                    self.dice_problem(
                        seq,
                        format!("#{seq} retracts #{target}, a players' event (a link, request, answer, withdrawal or choice), which grimoire never retracts"),
                    );
                }
            }
            Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            | Event::ChoiceAnswered { .. } => {
                self.players_rows.insert(seq);
                self.check_request_event(seq, row.schema_version, &row.actor, event)
            }
        }
    }

    /// An amendment's list of changed fields is what differs from the version of its event in
    /// force when it was recorded (the newest amendment still in effect, else the original):
    /// readers show the list as stated, so a list that says otherwise is refused.
    fn check_changed(&mut self, at: Seq, target: Seq, event: &Event, changed: &[String]) {
        let Some(versions) = self.versions.get(&target) else {
            return;
        };
        let in_force = versions
            .iter()
            .rev()
            .find(|(recorded, _)| *recorded == target || self.clock.in_effect(*recorded))
            .map(|(_, version)| version);
        if let Some(in_force) = in_force {
            let differs = crate::event::differences(in_force, event);
            if differs != changed {
                let what = format!(
                    "#{at} says it changes [{}] of #{target}, but what differs is [{}]",
                    changed.join("; "),
                    differs.join("; ")
                );
                self.dice_problem(at, what);
            }
        }
        if let Some(versions) = self.versions.get_mut(&target) {
            versions.push((at, event.clone()));
        }
    }

    /// Every row is stamped with the session its edges say is open (a session's start with its
    /// own number), as grimoire stamps it: readers can then trust the stamp this vouches for.
    fn check_session_stamp(&mut self, row: &StoredRow, event: &Event) {
        let open = match event {
            Event::SessionStarted { number, .. } => Some(*number),
            _ => self.open_session,
        };
        if row.session != open {
            let words = |session: Option<u32>| {
                session.map_or("outside any session".to_string(), |n| {
                    format!("in session {n}")
                })
            };
            let what = format!(
                "#{} is stamped {}, but it was recorded {}",
                row.seq,
                words(row.session),
                words(open)
            );
            self.dice_problem(row.seq, what);
        }
    }

    pub fn finish(mut self) -> VerifyReport {
        self.close_roll();
        self.check_no_choice_left();
        self.check_sealed_seeds_published();
        // Listed in order: an epoch withheld for its sealed dice is revealed after later ones.
        self.report.epochs_revealed.sort_unstable();
        let unused: Vec<(Seq, RequestId)> = self
            .requests
            .iter()
            .filter_map(|(request, r)| match r.answered {
                Some((at, false, false)) => Some((at, *request)),
                _ => None,
            })
            .collect();
        for (at, request) in unused {
            self.dice_problem(
                at,
                format!("#{at} answers request {request}, but no die of a command recorded with it claims the answer"),
            );
        }
        for (amends, amendments) in std::mem::take(&mut self.amendments) {
            for (at, _) in amendments {
                self.dice_problem(
                    at,
                    format!("#{at} amends #{amends}, which the log does not hold"),
                );
            }
        }
        // A checkpoint past the end of the log does not hold: the history was cut.
        self.report.checkpoints = self
            .checkpoints
            .iter()
            .map(|(checkpoint, found)| {
                let miss = match *found {
                    Some(0) => None,
                    Some(digits_differing) => Some(CheckpointMiss::Differs {
                        digits_differing,
                        of: checkpoint.hash_prefix.len(),
                    }),
                    None => Some(CheckpointMiss::PastTheEnd {
                        log_ends_at: self.expected_seq.previous(),
                    }),
                };
                CheckpointResult {
                    checkpoint: checkpoint.to_string(),
                    holds: miss.is_none(),
                    miss,
                }
            })
            .collect();
        self.report
    }
}
