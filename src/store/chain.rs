//! The hash chain: how a row's hash is computed, and `verify`, which re-checks the chain, the seeded
//! dice of revealed epochs, the revealed sealed dice and, optionally, a checkpoint noted earlier.

use crate::dice::{DiePosition, Provenance, fairness, sealed};
use crate::event::{Event, RevealedDie};
use crate::seq::Seq;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The `prev_hash` of the first row.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Hex digits of the hash shown in a checkpoint code (64 bits: plenty to catch a rewrite, short
/// enough to copy onto a character sheet).
pub const CHECKPOINT_HEX: usize = 16;
const MIN_CHECKPOINT_HEX: usize = 8;

/// A row exactly as stored: the unit that is hashed, exported and imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRow {
    pub seq: Seq,
    pub event_id: String,
    pub kind: String,
    pub schema_version: u32,
    pub payload: String,
    pub game_time: u64,
    pub recorded_at: String,
    pub session: Option<u32>,
    pub actor: String,
    pub prev_hash: String,
    pub hash: String,
}

impl StoredRow {
    /// A column holding what grimoire never writes there: an event id that is not a UUID, a
    /// recorded time that is not an RFC 3339 time, a payload not on one line. (All are free text
    /// to the database, so an export or a file edited by hand could carry a forged line or a
    /// terminal escape in them.)
    pub fn shape_problem(&self) -> Option<String> {
        let seq = self.seq;
        if self.event_id.len() != 36 || uuid::Uuid::try_parse(&self.event_id).is_err() {
            return Some(format!(
                "#{seq}: its event id is not a UUID, as grimoire writes every event id"
            ));
        }
        if chrono::DateTime::parse_from_rfc3339(&self.recorded_at).is_err() {
            return Some(format!(
                "#{seq}: its recorded time is not an RFC 3339 time, as grimoire writes it"
            ));
        }
        // An export carries each payload verbatim on its event's line: one that spans lines, or
        // has space around it, could not be carried byte for byte.
        let p = &self.payload;
        if p.bytes().any(|b| b == b'\n' || b == b'\r') || p.trim() != p {
            return Some(format!(
                "#{seq}: its payload is not one line of JSON with nothing around it, as grimoire writes every payload"
            ));
        }
        None
    }

    /// A payload of [`crate::event::CANONICAL_SINCE`] or later not in the canonical form
    /// (docs/export.md): such a row cannot be read, and nothing more of it is checked.
    pub fn canonical_problem(&self) -> Option<String> {
        if self.schema_version < crate::event::CANONICAL_SINCE {
            return None;
        }
        crate::event::canonical::problem(&self.payload, self.schema_version).map(|why| {
            format!(
                "#{} cannot be read: its payload is not in the canonical form grimoire writes (docs/export.md): {why}",
                self.seq
            )
        })
    }

    /// The row's event, when it can be read: in the canonical form where its version requires
    /// it, and of a shape grimoire knows.
    pub fn event(&self) -> Result<Event, String> {
        if let Some(problem) = self.canonical_problem() {
            return Err(problem);
        }
        Event::from_stored(&self.kind, self.schema_version, &self.payload)
            .map_err(|e| format!("#{} cannot be read: {e}", self.seq))
    }

    /// Texts that break the rules of the row's payload version: from
    /// [`crate::event::TEXT_RULES_SINCE`] the text rules (`text::check_row`), before it only a
    /// line feed, which the first grimoire already refused.
    pub fn text_problem(&self) -> Option<String> {
        let checked = if self.schema_version >= crate::event::TEXT_RULES_SINCE {
            crate::text::check_row(&self.actor, &self.payload)
        } else {
            crate::text::check_one_line_row(&self.actor, &self.payload)
        };
        checked.err().map(|e| format!("#{}: {e}", self.seq))
    }

    /// A row written in an older payload version than a row before it: grimoire writes each row in
    /// the newest version it knows, and a campaign only ever moves on to a newer grimoire, so
    /// versions never go back. (An older version also skips the text rules of later ones.)
    pub fn version_went_back(&self, newest_before: u32) -> Option<String> {
        (self.schema_version < newest_before).then(|| {
            format!(
                "#{}: its payload is version {}, after events of version {newest_before}: grimoire never goes back to an older version, so this row was written by hand",
                self.seq, self.schema_version
            )
        })
    }

    /// SHA-256 over `prev_hash` (as its 64 hex characters) followed by each stored field, in column
    /// order, as an 8-byte big-endian byte length and the field's UTF-8 text. Numbers are written in
    /// decimal; an absent session is the empty string. Length prefixes make the encoding unambiguous.
    pub fn compute_hash(&self) -> String {
        let session = self.session.map(|s| s.to_string()).unwrap_or_default();
        let fields: [&str; 9] = [
            &self.seq.to_string(),
            &self.event_id,
            &self.kind,
            &self.schema_version.to_string(),
            &self.payload,
            &self.game_time.to_string(),
            &self.recorded_at,
            &session,
            &self.actor,
        ];
        let mut hasher = Sha256::new();
        hasher.update(self.prev_hash.as_bytes());
        for field in fields {
            hasher.update((field.len() as u64).to_be_bytes());
            hasher.update(field.as_bytes());
        }
        hex::encode(hasher.finalize())
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint::of(self.seq, &self.hash)
    }
}

/// A `SEQ:HASH` code the players note down to anchor the chain outside the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checkpoint {
    pub seq: Seq,
    pub hash_prefix: String,
}

impl Checkpoint {
    pub fn of(seq: Seq, hash: &str) -> Checkpoint {
        // Any text: `verify` makes one of a row as stored, whatever it holds.
        Checkpoint {
            seq,
            hash_prefix: hash.chars().take(CHECKPOINT_HEX).collect(),
        }
    }
}

impl std::fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.seq, self.hash_prefix)
    }
}

impl std::str::FromStr for Checkpoint {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hint = "a checkpoint is SEQ:HASH as `grimoire head` or `session end` printed it, e.g. 42:9f86d081884c7d65";
        let (seq, hash) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("'{text}' has no ':'; {hint}"))?;
        let seq: Seq =
            seq.parse().ok().filter(|&seq| seq > 0).ok_or_else(|| {
                format!("'{seq}' is not an event number (they start at 1); {hint}")
            })?;
        let hash = hash.to_ascii_lowercase();
        if hash.len() < MIN_CHECKPOINT_HEX
            || hash.len() > 64
            || !hash.chars().all(|c| c.is_ascii_hexdigit())
        {
            return Err(format!("'{hash}' is not 8 to 64 hex digits; {hint}"));
        }
        Ok(Checkpoint {
            seq,
            hash_prefix: hash,
        })
    }
}

/// One thing `verify` found wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub seq: Seq,
    pub what: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckpointResult {
    pub checkpoint: String,
    pub holds: bool,
    /// Why it does not hold, as far as the file can tell.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub miss: Option<CheckpointMiss>,
}

/// What a checkpoint that does not hold met in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum CheckpointMiss {
    /// The log ends before the checkpoint's event: the file is shorter than the history noted
    /// (cut, or an older copy), or the event number was mistyped.
    PastTheEnd { log_ends_at: Seq },
    /// The event is there with another hash. A mistyped code differs in a few digits; another
    /// history, in nearly all of them (each digit of a different hash matches by chance 1 time in
    /// 16).
    Differs { digits_differing: usize, of: usize },
    /// A damaged row before it stopped the check.
    NotReached,
}

/// What `verify` checked and found.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VerifyReport {
    /// Problems SQLite's own integrity check found in the file's pages (0: the file is sound).
    pub file_problems: u64,
    pub events: u64,
    pub head: Option<String>,
    /// The first row where the chain breaks, if any.
    pub chain_break: Option<Problem>,
    pub seeded_dice_checked: u64,
    pub seeded_dice_awaiting_reveal: u64,
    /// Seeded dice rolled with no player entropy (outside a session, or in one started without
    /// any): the GM, who holds the seed, could have predicted them.
    pub seeded_dice_unwitnessed: u64,
    pub epochs_revealed: Vec<u32>,
    pub sealed_dice_checked: u64,
    pub sealed_dice_awaiting_reveal: u64,
    /// Dice rolled by a player's device, re-derived at once from the request and its answer (C-5).
    #[serde(default)]
    pub device_dice_checked: u64,
    /// The GM's dice a player's device witnessed, re-derived likewise (C-6).
    #[serde(default)]
    pub witnessed_dice_checked: u64,
    /// Rolls put to a device again after a request to it was withdrawn (C-5): each is marked.
    #[serde(default)]
    pub rolls_put_again: u64,
    /// Dice or reveals that do not match, first one first.
    pub dice_problems: Vec<Problem>,
    /// The checkpoints asked about, in the order given.
    pub checkpoints: Vec<CheckpointResult>,
    /// Stored snapshots that commands would start from, compared with a replay of the log.
    pub snapshots_checked: u64,
    /// Stored snapshots no command starts from, so not compared: made by another state format
    /// (an older grimoire), taken at a hash the log no longer has, or reached back past by a
    /// retraction.
    pub snapshots_passed_over: u64,
    /// Snapshots that differ from the replay: edited outside grimoire, they would show a false state.
    pub snapshot_problems: Vec<Problem>,
    /// Epochs with seeded dice bound to their event's seq (the first derivation, before roll
    /// numbers): a GM holding the seed could move their dice with events that roll nothing.
    pub seq_bound_epochs: Vec<u32>,
}

impl VerifyReport {
    /// The first thing that does not hold, in a few words (`None` when everything holds).
    pub fn first_problem(&self) -> Option<String> {
        if self.file_problems > 0 {
            return Some(format!(
                "the file is damaged: SQLite's integrity check found {} problem(s)",
                self.file_problems
            ));
        }
        if let Some(problem) = &self.chain_break {
            return Some(format!("the chain breaks at #{}", problem.seq));
        }
        if let Some(problem) = self
            .dice_problems
            .iter()
            .chain(&self.snapshot_problems)
            .next()
        {
            return Some(problem.what.clone());
        }
        self.checkpoints
            .iter()
            .find(|c| !c.holds)
            .map(|c| format!("checkpoint {} does not hold", c.checkpoint))
    }

    pub fn all_hold(&self) -> bool {
        self.file_problems == 0
            && self.chain_break.is_none()
            && self.dice_problems.is_empty()
            && self.snapshot_problems.is_empty()
            && self.checkpoints.iter().all(|c| c.holds)
    }
}

/// What `verify` must know before streaming the log: the seeds published later and the sealed dice
/// revealed later than the events that hold them.
#[derive(Debug, Default)]
pub struct Reveals {
    /// Every seed published for each epoch, in log order (a forged log may publish more than one).
    pub seeds: BTreeMap<u32, Vec<String>>,
    /// Likewise every second seed, the one an epoch's sealed dice come from.
    pub sealed_seeds: BTreeMap<u32, Vec<String>>,
    pub sealed: BTreeMap<Seq, Vec<RevealedDie>>,
}

impl Reveals {
    /// The seed published for `epoch`, if any: the first that opens its commitment, so a second,
    /// forged reveal cannot make honest dice look forged (it is named itself); else the last.
    fn seed(&self, epoch: u32, commitment: Option<&String>) -> Option<[u8; 32]> {
        Self::opening(self.seeds.get(&epoch)?, commitment)
    }

    /// The second seed published for `epoch`, chosen as [`Reveals::seed`] chooses.
    fn sealed_seed(&self, epoch: u32, commitment: Option<&String>) -> Option<[u8; 32]> {
        Self::opening(self.sealed_seeds.get(&epoch)?, commitment)
    }

    fn opening(published: &[String], commitment: Option<&String>) -> Option<[u8; 32]> {
        let opening = published
            .iter()
            .find(|seed| commitment.is_some_and(|c| fairness::opens(seed, c)));
        opening
            .or(published.last())
            .and_then(|seed| fairness::parse_seed(seed))
    }

    pub fn note(&mut self, event: &Event) {
        if let Event::SeedRevealed { epoch, seed } = event {
            self.seeds.entry(*epoch).or_default().push(seed.clone());
        } else if let Event::SealedSeedRevealed { epoch, seed } = event {
            self.sealed_seeds
                .entry(*epoch)
                .or_default()
                .push(seed.clone());
        } else if let Event::SealedRevealed { seq, dice } = event {
            self.sealed
                .entry(*seq)
                .or_default()
                .extend(dice.iter().cloned());
        }
    }
}

/// The in-game clock as the table saw it when each event was recorded, kept in one pass: every event
/// moves it as replay would, and a retraction takes effect from where it was recorded (winding back
/// what it undid, or forward what it restored), while events stamped before it keep their time. An
/// event's stored `game_time` must be this clock: a time written into the file or an export by hand
/// (Day 106751991167301, then Day 1) is caught.
#[derive(Debug, Default)]
pub struct RecordedClock {
    clock: u64,
    /// How far each event that moved the clock moved it.
    moves: BTreeMap<Seq, u64>,
    /// Each retraction's target.
    targets: BTreeMap<Seq, Seq>,
    /// The retractions in effect so far, by the event each undoes: an event is undone while any
    /// retraction of it is in effect (a retraction undone itself is not), as replay settles them.
    undoing: BTreeMap<Seq, BTreeSet<Seq>>,
}

impl RecordedClock {
    /// Checks `event`'s stored time against the clock, then moves the clock past it.
    pub fn check(&mut self, seq: Seq, game_time: u64, event: &Event) -> Result<(), String> {
        let result = if game_time == self.clock {
            Ok(())
        } else {
            Err(format!(
                "#{seq} is stamped {} ({game_time} s), but the in-game clock stood at {} ({} s) when it was recorded (its time was edited)",
                crate::time::GameTime(game_time),
                crate::time::GameTime(self.clock),
                self.clock
            ))
        };
        // How far the event moves the clock: what replay's own fold makes of it, from zero.
        let mut probe = crate::state::CampaignState::default();
        probe.apply(seq, event);
        let moved = probe.clock.seconds();
        if moved > 0 {
            self.moves.insert(seq, moved);
            self.clock = self.clock.saturating_add(moved);
        }
        // Only a retraction of an earlier event takes effect (`verify` names any other as forged).
        if let Event::Retracted { seq: target, .. } = event
            && *target < seq
        {
            self.targets.insert(seq, *target);
            self.retraction_takes_effect(seq, true);
        }
        result
    }

    /// The event the retraction at `retraction` undoes, if it is one.
    pub fn target_of(&self, retraction: Seq) -> Option<Seq> {
        self.targets.get(&retraction).copied()
    }

    /// Whether the event at `seq` is in effect: no retraction of it is.
    pub fn in_effect(&self, seq: Seq) -> bool {
        self.undoing.get(&seq).is_none_or(BTreeSet::is_empty)
    }

    /// The retraction `retraction` comes into effect (`on`) or ceases to (undone itself); its
    /// target is undone or restored when that changes whether any retraction of it is in effect,
    /// and so on down the chain (restoring a retraction undoes its target again).
    fn retraction_takes_effect(&mut self, retraction: Seq, on: bool) {
        let mut changes = vec![(retraction, on)];
        while let Some((retraction, on)) = changes.pop() {
            let Some(&target) = self.targets.get(&retraction) else {
                continue;
            };
            let undoing = self.undoing.entry(target).or_default();
            let was_in_effect = undoing.is_empty();
            if on {
                undoing.insert(retraction);
            } else {
                undoing.remove(&retraction);
            }
            let in_effect = undoing.is_empty();
            if in_effect == was_in_effect {
                continue;
            }
            if let Some(&moved) = self.moves.get(&target) {
                self.clock = if in_effect {
                    self.clock.saturating_add(moved)
                } else {
                    self.clock.saturating_sub(moved)
                };
            }
            // The target, when a retraction itself, takes effect again or ceases to.
            changes.push((target, in_effect));
        }
    }
}

/// The characters added so far, by the seq of their addition, under their folded names: replay
/// keeps one character per name, so a second under a name in play would make the first vanish
/// without a word. Import and `verify` both hold a log to this.
///
/// What is in play is read from the clock's retractions as they stand (not from what a
/// retraction says it restores, which a forger may leave out), and an amendment of an addition
/// in force renames its character, as replay does.
///
/// Names that only look alike ("Aldric" and "AIdric") replay as two characters, but the rules have
/// refused them since the text rules: an event of that version that leaves two such names in play,
/// where they were not before, is refused too.
#[derive(Default)]
pub struct CharacterNames {
    added: BTreeMap<Seq, GivenName>,
    /// The amendments of each addition: (the amendment's seq, the name it gives).
    renamed: BTreeMap<Seq, Vec<(Seq, GivenName)>>,
    /// The pairs of characters in play, by their additions, whose names look alike after the last
    /// event (taken from rows older than the text rules).
    looking_alike: BTreeSet<(Seq, Seq)>,
}

/// A name as given, folded for lookup and with what it looks like at the table.
struct GivenName {
    written: String,
    folded: crate::words::Folded,
    looks: [String; 3],
}

impl GivenName {
    fn of(name: &str) -> GivenName {
        GivenName {
            written: name.to_string(),
            folded: crate::words::Folded::of(name),
            looks: crate::text::look_alike_keys(name),
        }
    }
}

impl CharacterNames {
    /// Checks `event` once `clock` has taken it in (so a retraction in it is in effect): a
    /// character is added or renamed under a name the rules take today (in a row of the current
    /// version), and after it no two characters in play hold one name, as the rules require.
    pub fn check(
        &mut self,
        row: &StoredRow,
        event: &Event,
        clock: &RecordedClock,
    ) -> Result<(), String> {
        let seq = row.seq;
        match event {
            Event::CharacterAdded { name, .. } => {
                Self::check_text(row, name, "adds a character")?;
                self.added.insert(seq, GivenName::of(name));
            }
            Event::Amended {
                seq: original,
                event: amended,
                ..
            } => {
                let Event::CharacterAdded { name, .. } = amended.as_ref() else {
                    return Ok(());
                };
                Self::check_text(row, name, "renames a character")?;
                self.renamed
                    .entry(*original)
                    .or_default()
                    .push((seq, GivenName::of(name)));
            }
            Event::Retracted {
                seq: target,
                restores: Some(restored),
                ..
            } if clock.target_of(*target) != Some(*restored) => {
                return Err(format!(
                    "#{seq} says it brings back #{restored}, but the event it undoes, #{target}, did not undo #{restored}"
                ));
            }
            Event::Retracted { .. } => {}
            _ => return Ok(()),
        }
        if let Some((first, second)) = self.clash(clock) {
            return Err(format!(
                "after #{seq} the characters added at #{first} and #{second} both hold the name {:?} in play: the rules refuse that, and replay would keep only one of them",
                self.in_play_name(second, clock)
                    .map_or("", |name| name.folded.as_str())
            ));
        }
        let looking_alike = self.looking_alike(clock);
        let new_pair = looking_alike.difference(&self.looking_alike).next();
        if let Some(&(first, second)) = new_pair
            && row.schema_version >= crate::event::TEXT_RULES_SINCE
        {
            let written = |added| {
                self.in_play_name(added, clock)
                    .map_or("", |name| name.written.as_str())
            };
            return Err(format!(
                "after #{seq} the characters added at #{first} and #{second} hold names that look alike in play ({:?} and {:?}): the rules refuse a name that cannot be told from another at the table",
                written(first),
                written(second)
            ));
        }
        self.looking_alike = looking_alike;
        Ok(())
    }

    /// A name given in a row of the current version must be one the rules take today.
    fn check_text(row: &StoredRow, name: &str, what: &str) -> Result<(), String> {
        let seq = row.seq;
        if row.schema_version < crate::event::TEXT_RULES_SINCE {
            return Ok(());
        }
        if name.trim().is_empty() || name.trim() != name {
            return Err(format!(
                "#{seq} {what} under a name that is blank or begins or ends with spaces, which the rules never record"
            ));
        }
        crate::text::check_name("character's name", name)
            .map_err(|why| format!("#{seq} {what} under a name the rules refuse: {why}"))
    }

    /// The name the character added at `added` holds now, if it is in play: its newest amendment
    /// in force renames it.
    fn in_play_name(&self, added: Seq, clock: &RecordedClock) -> Option<&GivenName> {
        if !clock.in_effect(added) {
            return None;
        }
        let amended = self.renamed.get(&added).and_then(|amendments| {
            amendments
                .iter()
                .rev()
                .find(|&&(at, _)| clock.in_effect(at))
                .map(|(_, name)| name)
        });
        amended.or_else(|| self.added.get(&added))
    }

    /// Two characters in play under one name, by the seqs of their additions.
    fn clash(&self, clock: &RecordedClock) -> Option<(Seq, Seq)> {
        let mut holders: HashMap<&str, Seq> = HashMap::new();
        for &added in self.added.keys() {
            let Some(name) = self.in_play_name(added, clock) else {
                continue;
            };
            if let Some(&first) = holders.get(name.folded.as_str()) {
                return Some((first, added));
            }
            holders.insert(name.folded.as_str(), added);
        }
        None
    }

    /// The pairs of characters in play whose names look alike, by the seqs of their additions.
    fn looking_alike(&self, clock: &RecordedClock) -> BTreeSet<(Seq, Seq)> {
        let mut holders: HashMap<&str, Seq> = HashMap::new();
        let mut pairs = BTreeSet::new();
        for &added in self.added.keys() {
            let Some(name) = self.in_play_name(added, clock) else {
                continue;
            };
            for key in &name.looks {
                match holders.get(key.as_str()) {
                    Some(&first) if first != added => {
                        pairs.insert((first, added));
                    }
                    Some(_) => {}
                    None => {
                        holders.insert(key.as_str(), added);
                    }
                }
            }
        }
        pairs
    }
}

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
    requests: BTreeMap<u32, PutToDevice>,
    /// The devices linked so far (C-4), by number: the characters each plays, and whether its
    /// link stands.
    devices: BTreeMap<u32, (Vec<String>, bool)>,
    /// What was withdrawn from each device since a request was last put to it (C-5).
    withdrawn: crate::state::players::Withdrawals,
    names: CharacterNames,
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
    device: u32,
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
}

const MAX_PROBLEMS: usize = 20;

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
            versions: BTreeMap::new(),
            sealed_met: BTreeMap::new(),
            requests: BTreeMap::new(),
            devices: BTreeMap::new(),
            withdrawn: Default::default(),
            names: CharacterNames::default(),
        }
    }

    /// A die a player's device made (C-5, C-6): its request was answered in this command's run
    /// of rows, and the face is the one the published secret and the device's bytes give.
    fn check_device_die(
        &mut self,
        seq: Seq,
        request: u32,
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
    }

    /// A free roll whose dice a device made is the roll its request asked for (C-5): the same
    /// expression and purpose, for the same character, as the rules record them.
    fn check_asked_roll(
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
    /// each answer's secret opening its commitment.
    fn check_request_event(&mut self, seq: Seq, version: u32, event: &Event) {
        let problem = match event {
            Event::RollRequested {
                request,
                device,
                commitment,
                witnessed,
                asked,
            } => {
                let next = self.requests.keys().max().copied().unwrap_or(0) + 1;
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
                    },
                );
                if !self.withdrawn.put(*device).is_empty() {
                    self.report.rolls_put_again += 1;
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
                device, characters, ..
            } => {
                self.devices.insert(*device, (characters.clone(), true));
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
    fn check_reveal(&mut self, seq: Seq, target: Seq, dice: &[crate::event::RevealedDie]) {
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

    /// The second derivation's promise: the commands of an epoch that draw seeded dice carry roll
    /// numbers 0, 1, 2, … in log order, one each (shared by a command's events, never by two of
    /// its dice), retracted ones included, so no roll can be skipped or taken twice to choose a
    /// die. In an epoch of the first derivation, dice are bound to their seq and no roll number
    /// belongs on them.
    fn check_roll_numbers(&mut self, row: &StoredRow, event: &Event) {
        let seq = row.seq;
        if self.run.1 != row.recorded_at {
            self.run = (self.run.0 + 1, row.recorded_at.clone());
        }
        let epoch = self.epoch;
        let seeded: Vec<&crate::dice::Die> = event
            .dice()
            .iter()
            .filter(|d| d.provenance.seeded_epoch() == Some(epoch))
            .collect();
        if seeded.is_empty() {
            return;
        }
        if !self.counts_rolls {
            if !self.report.seq_bound_epochs.contains(&epoch) {
                self.report.seq_bound_epochs.push(epoch);
            }
            if seeded.iter().any(|d| d.provenance.roll().is_some()) {
                self.dice_problem(seq, format!("#{seq}: its seeded dice carry a roll number, but epoch {epoch} binds its dice to their event's seq"));
            }
            return;
        }
        let numbers: BTreeSet<Option<u64>> = seeded.iter().map(|d| d.provenance.roll()).collect();
        let Some(&Some(roll)) = numbers.first().filter(|_| numbers.len() == 1) else {
            self.dice_problem(
                seq,
                format!("#{seq}: its seeded dice do not all carry one roll number, as every seeded die of epoch {epoch} must"),
            );
            return;
        };
        if roll == self.rolls {
            self.close_roll();
            self.rolls += 1;
        } else if roll.checked_add(1) != Some(self.rolls) {
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: its seeded dice claim roll {roll} of epoch {epoch}, but the epoch's next roll is {}: a roll was skipped or taken again",
                    self.rolls
                ),
            );
            return;
        } else if !event.continues_its_command()
            || self.roll_last.is_none_or(|(_, run)| run != self.run.0)
        {
            // Only an event the rules record after another of its command (a scroll written in a
            // downtime span), in the same run of rows recorded at one moment, shares the
            // command's roll (a scroll that rolled nothing may stand between).
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: its seeded dice claim roll {roll} of epoch {epoch}, taken by an earlier command: a roll was taken again"
                ),
            );
            return;
        }
        self.roll_last = Some((seq, self.run.0));
        for die in seeded {
            if !self.roll_draws.insert(die.n) {
                self.dice_problem(
                    seq,
                    format!("#{seq}: die {} of roll {roll} was drawn before", die.n),
                );
            }
        }
    }

    /// The dice of the roll just finished must be numbered 0 to k − 1 in draw order, as grimoire
    /// draws them: a die whose `n` was moved would be another die of the derivation.
    fn close_roll(&mut self) {
        let draws = std::mem::take(&mut self.roll_draws);
        let Some((seq, _)) = self.roll_last.take() else {
            return;
        };
        if draws
            .iter()
            .copied()
            .ne(0..u32::try_from(draws.len()).unwrap_or(u32::MAX))
        {
            let roll = self.rolls.saturating_sub(1);
            self.dice_problem(
                seq,
                format!(
                    "#{seq}: the seeded dice of roll {roll} of epoch {} are not numbered 0 to {} in draw order: a die was taken from another place of the derivation",
                    self.epoch,
                    draws.len().saturating_sub(1)
                ),
            );
        }
    }

    /// A free roll's dice are the ones its expression rolls, and its total is them added up as it
    /// says; a sealed roll has no total until its dice are revealed.
    fn check_free_roll(
        &mut self,
        seq: Seq,
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
            (None, None) => {}
        }
    }

    fn check_event(&mut self, row: &StoredRow, event: &Event) {
        let seq = row.seq;
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
                self.start_epoch(derivation.is_some());
            }
            Event::DiceRolled {
                expression,
                dice,
                total,
                purpose,
                character,
            } => {
                self.check_free_roll(seq, expression, dice, *total);
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
                if let Event::DiceRolled {
                    expression,
                    dice,
                    total,
                    ..
                } = event.as_ref()
                {
                    self.check_free_roll(seq, expression, dice, *total);
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
                self.start_epoch(derivation.is_some());
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
            | Event::Retracted { .. }
            | Event::SeedWithheld { .. }
            | Event::Rested(_)
            | Event::DowntimeTaken(_)
            // The rule systems' events carry dice (checked above) and nothing of the chain's.
            | Event::System(_) => {}
            Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. } => {
                self.check_request_event(seq, row.schema_version, event)
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

    /// Notes the commitment to the second seed of the epoch `event` begins, if it has one.
    fn note_sealed_commitment(&mut self, epoch: u32, event: &Event) {
        if let Some(commitment) = event.sealed_commitment() {
            self.sealed_commitments
                .insert(epoch, commitment.to_string());
        }
    }

    /// The seed epoch `epoch`'s sealed dice come from, if it is published: its second in an
    /// epoch that has one, else its one seed.
    fn sealed_dice_seed(&self, epoch: u32) -> Option<[u8; 32]> {
        match self.sealed_commitments.get(&epoch) {
            Some(commitment) => self.reveals.sealed_seed(epoch, Some(commitment)),
            None => self.reveals.seed(epoch, self.commitments.get(&epoch)),
        }
    }

    /// An epoch with a seed for sealed dice that has ended publishes it as soon as none of its
    /// sealed dice waits to be revealed (grimoire does, in the same write): a log without it hides
    /// what those dice were derived from. Named at the event that began the next epoch.
    fn check_sealed_seeds_published(&mut self) {
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

    fn start_epoch(&mut self, counts_rolls: bool) {
        self.close_roll();
        self.counts_rolls = counts_rolls;
        self.rolls = 0;
    }

    /// Where a seeded die sits in this campaign, for the fairness derivation.
    fn position<'a>(
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

    fn check_seeded(&mut self, seq: Seq, epoch: u32, die: &crate::dice::Die, entropy: &str) {
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

    fn check_sealed(&mut self, seq: Seq, die: &crate::dice::Die, commitment: &str, entropy: &str) {
        let n = die.n;
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
                super::SEALED_SEED => &self.sealed_commitments,
                _ => &self.commitments,
            };
            let begun = key
                .parse::<u32>()
                .ok()
                .filter(|epoch| epoch.to_string() == key && committed.contains_key(epoch));
            if begun.is_none() {
                let what = match kind {
                    super::SEALED_SEED => "a seed for sealed dice",
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
        mut kept: impl FnMut(&str, u32) -> Result<Option<String>, super::StoreError>,
    ) -> Result<(), super::StoreError> {
        let first_seeds = (self.commitments.iter())
            .filter(|(epoch, _)| !self.report.epochs_revealed.contains(epoch))
            .map(|(epoch, commitment)| (super::EPOCH_SEED, *epoch, commitment.clone()));
        let second_seeds = (self.sealed_commitments.iter())
            .filter(|(epoch, _)| !self.sealed_seeds_revealed.contains(epoch))
            .map(|(epoch, commitment)| (super::SEALED_SEED, *epoch, commitment.clone()));
        let unrevealed: Vec<(&str, u32, String)> = first_seeds.chain(second_seeds).collect();
        // Each seed: whether it opens its commitment, or `None` where the file keeps none.
        let mut found = Vec::new();
        for (kind, epoch, commitment) in unrevealed {
            let opens = match kept(kind, epoch) {
                Ok(None) => None,
                // No secret may be read (a server ends the transaction at the refusal): the
                // seeds are for whoever holds them to check.
                Err(super::StoreError::NotPermitted { .. }) => return Ok(()),
                Ok(Some(text)) => Some(fairness::opens(&text, &commitment)),
                Err(super::StoreError::DamagedSecret { .. }) => Some(false),
                Err(other) => return Err(other),
            };
            found.push((kind, epoch, opens));
        }
        // A file with secrets keeps every unrevealed seed; an export without them, none.
        let keeps_seeds = found.iter().any(|(_, _, opens)| opens.is_some());
        for (kind, epoch, opens) in found {
            let seq = self.epoch_began.get(&epoch).copied().unwrap_or(Seq::START);
            let which = match kind {
                super::SEALED_SEED => " for sealed dice",
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

    pub fn finish(mut self) -> VerifyReport {
        self.close_roll();
        self.check_sealed_seeds_published();
        // Listed in order: an epoch withheld for its sealed dice is revealed after later ones.
        self.report.epochs_revealed.sort_unstable();
        let unused: Vec<(Seq, u32)> = self
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

/// What is wrong with a seed's reveal (`which` names the seed: "" or " for sealed dice"), if
/// anything: it names an epoch begun, once, and opens the commitment published for it.
fn seed_reveal_fault(
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

fn join_faces(faces: &[u32]) -> String {
    faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A die's face in words for a report: "17", or "no value" where the log holds none.
fn face_words(face: Option<u32>) -> String {
    face.map_or_else(|| "no value".to_string(), |f| f.to_string())
}

/// Whether a sealed die's revealed faces are ones its die shows, in a chain grimoire would roll:
/// each face on the die, a further face only after one that rolls again (an open-ended d100's
/// 96-100, or 01-05 first), and no chain of two or more stopped on a face that rolls again. (A
/// single low face may end an attack roll, so a lone face is never said to stop early.)
fn rolled_that_way(faces: &[u32], sides: u32) -> bool {
    faces.iter().all(|face| (1..=sides).contains(face))
        && (1..faces.len()).all(|k| crate::dice::open_ended::needs_another(&faces[..k]))
        && !(faces.len() > 1 && faces.last().is_some_and(|&last| last >= 96))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: Seq, prev_hash: &str) -> StoredRow {
        let mut row = StoredRow {
            seq,
            event_id: format!("id-{seq}"),
            kind: "session_ended".into(),
            schema_version: 1,
            payload: r#"{"kind":"session_ended","number":1}"#.into(),
            game_time: 0,
            recorded_at: "2026-01-01T00:00:00Z".into(),
            session: Some(1),
            actor: "gm".into(),
            prev_hash: prev_hash.into(),
            hash: String::new(),
        };
        row.hash = row.compute_hash();
        row
    }

    #[test]
    fn every_field_is_bound_into_the_hash() {
        let base = row(Seq(2), GENESIS_HASH);
        type Change = Box<dyn Fn(&mut StoredRow)>;
        let changes: Vec<Change> = vec![
            Box::new(|r| r.seq = Seq(3)),
            Box::new(|r| r.event_id.push('x')),
            Box::new(|r| r.kind.push('x')),
            Box::new(|r| r.schema_version = 2),
            Box::new(|r| r.payload.push(' ')),
            Box::new(|r| r.game_time = 1),
            Box::new(|r| r.recorded_at.push('x')),
            Box::new(|r| r.session = None),
            Box::new(|r| r.actor.push('x')),
            Box::new(|r| r.prev_hash = "1".repeat(64)),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = base.clone();
            change(&mut changed);
            assert_ne!(
                changed.compute_hash(),
                base.hash,
                "change {i} went unnoticed"
            );
        }
    }

    #[test]
    fn checkpoints_parse_from_the_printed_code_only() {
        let cp: Checkpoint = "42:9F86D081884C7D65".parse().unwrap();
        assert_eq!(
            cp,
            Checkpoint {
                seq: Seq(42),
                hash_prefix: "9f86d081884c7d65".into()
            }
        );
        for bad in ["42", "x:9f86d081", "42:9f86", "42:zzzzzzzzzz", ""] {
            assert!(bad.parse::<Checkpoint>().is_err(), "{bad}");
        }
    }
}
