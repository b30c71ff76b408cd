//! Import: an export's lines into an empty campaign, all or nothing, each row held as it arrives
//! to the checks its caller gives, its secrets to what grimoire writes.

use super::StoreError;
use super::append::{EPOCH_SEED, SEALED_SEED};
use super::backend::{InsertError, LogWrite};
use super::chain::StoredRow;
use super::jsonl::{self, Line};
use super::log::Store;
use super::replay::{ImportReplay, SNAPSHOT_KEEP_EVERY, save_snapshot};
use crate::dice::SealedSecret;
use crate::event::Event;
use crate::seq::Seq;
use std::sync::mpsc;

/// What import holds each row to as it arrives, before the next is read (the caller's checks:
/// the verify module's chain check, which knows what a true record holds).
pub trait RowCheck: Send {
    /// Checks the next row; returns its event, read from the payload, or why it is refused.
    fn check(&mut self, row: &StoredRow) -> Result<Event, String>;
}

impl Store {
    /// Imports an export into this empty log, all or nothing: rows are checked (see
    /// [`ChainCheck`]) and inserted in one transaction as they stream in. `lines` yields each
    /// non-blank line with its 1-based line number, or the reason a line could not be read.
    pub(crate) fn import(
        &mut self,
        lines: impl IntoIterator<Item = (u64, Result<String, String>)>,
        chain: &mut dyn RowCheck,
    ) -> Result<(u64, u64), StoreError> {
        let place = self.place();
        let mut log = self.backend.write()?;
        if log.head()?.is_some() {
            return Err(StoreError::NotEmpty(place));
        }
        let mut arriving = Arriving::default();
        if log.inserts_wait_on_a_server() {
            check_alongside(lines, chain, &mut arriving, &mut *log)?;
        } else {
            for (line, text) in lines {
                arriving.take(&mut *log, line, check_line(text, chain))?;
            }
        }
        arriving.finish(&mut *log)?;
        log.commit()?;
        Ok((arriving.events, arriving.secrets))
    }
}

/// Takes in `lines` as a serial import does, each checked on a thread of its own while this one
/// inserts and replays the lines checked before it: the server's inserts (its round trips and
/// foreign-key checks) no longer wait for grimoire's checks, nor those for the server. Every
/// line is still taken in its order, so a refusal names the line it always named.
fn check_alongside(
    lines: impl IntoIterator<Item = Numbered>,
    chain: &mut dyn RowCheck,
    arriving: &mut Arriving,
    log: &mut dyn LogWrite,
) -> Result<(), StoreError> {
    std::thread::scope(|scope| {
        // Lines go over in chunks: a message per line cost more in waking threads than the
        // check it handed over. Eight chunks ahead lets the checker work on while an insert waits.
        let (to_check, unchecked) = mpsc::sync_channel::<Vec<Numbered>>(8);
        let (checked_out, checked) = mpsc::channel::<Vec<(u64, Result<Checked, String>)>>();
        scope.spawn(move || {
            for chunk in unchecked {
                let mut outcomes = Vec::with_capacity(chunk.len());
                let mut refused = false;
                for (line, text) in chunk {
                    let outcome = check_line(text, chain);
                    refused = outcome.is_err();
                    outcomes.push((line, outcome));
                    if refused {
                        break;
                    }
                }
                if checked_out.send(outcomes).is_err() || refused {
                    break;
                }
            }
        });
        let mut lines = lines.into_iter().peekable();
        'reading: while lines.peek().is_some() {
            let mut chunk: Vec<Numbered> = lines.by_ref().take(CHECK_CHUNK).collect();
            // While the checker is behind, this thread takes in what it has checked rather
            // than wait idle to hand it more.
            loop {
                match to_check.try_send(chunk) {
                    Ok(()) => break,
                    Err(mpsc::TrySendError::Full(again)) => {
                        chunk = again;
                        match checked.recv() {
                            Ok(outcomes) => arriving.take_all(log, outcomes)?,
                            Err(_) => break 'reading,
                        }
                    }
                    // The checker has stopped at a refused line, which `checked` holds.
                    Err(mpsc::TrySendError::Disconnected(_)) => break 'reading,
                }
            }
            while let Ok(outcomes) = checked.try_recv() {
                arriving.take_all(log, outcomes)?;
            }
        }
        drop(to_check);
        for outcomes in checked {
            arriving.take_all(log, outcomes)?;
        }
        Ok(())
    })
}

/// A line of the file with its number, or why it could not be read.
type Numbered = (u64, Result<String, String>);

/// Lines handed to the checking thread at a time.
const CHECK_CHUNK: usize = 256;

/// One line, read and checked: a row with its event, or a secret; or why the line is refused.
fn check_line(text: Result<String, String>, chain: &mut dyn RowCheck) -> Result<Checked, String> {
    match jsonl::parse_line(&text?)? {
        Line::Event(row) => {
            let event = chain.check(&row)?;
            Ok(Checked::Event(row, event))
        }
        Line::Secret { kind, key, value } => Ok(Checked::Secret { kind, key, value }),
    }
}

/// A line that passed its checks. Not boxed: an event is most of a kilobyte, but a box each,
/// allocated on the checking thread and freed on the other, made a PostgreSQL import a tenth
/// slower.
#[allow(clippy::large_enum_variant)]
enum Checked {
    Event(StoredRow, Event),
    Secret {
        kind: String,
        key: String,
        value: String,
    },
}

/// What an import has taken in so far, in the order its lines came.
#[derive(Default)]
struct Arriving {
    events: u64,
    secrets: u64,
    /// Replayed as it arrives, so the import leaves snapshots without reading the log again.
    replay: ImportReplay,
    head_hash: String,
    /// Rows checked but not yet inserted, with their line numbers: sent together, and always
    /// before anything reads the log back or another line's refusal could come first.
    pending: PendingRows,
    seeds: ImportedSecrets,
}

impl Arriving {
    fn take_all(
        &mut self,
        log: &mut dyn LogWrite,
        outcomes: Vec<(u64, Result<Checked, String>)>,
    ) -> Result<(), StoreError> {
        for (line, outcome) in outcomes {
            self.take(log, line, outcome)?;
        }
        Ok(())
    }

    /// Takes in the next line's outcome: a refusal ends the import, naming its line.
    fn take(
        &mut self,
        log: &mut dyn LogWrite,
        line: u64,
        outcome: Result<Checked, String>,
    ) -> Result<(), StoreError> {
        let refuse = |why: String| StoreError::Import { line, why };
        match outcome.map_err(refuse)? {
            Checked::Event(row, event) => {
                self.events += 1;
                self.seeds.note(&event);
                let (seq, hash) = (row.seq, row.hash.clone());
                self.pending.push(line, row);
                // A retraction's or an amendment's replay reads the rows before it back.
                let snapshot_due = seq.get().is_multiple_of(SNAPSHOT_KEEP_EVERY);
                if matches!(event, Event::Retracted { .. } | Event::Amended { .. })
                    || snapshot_due
                    || self.pending.rows.len() >= IMPORT_BATCH
                {
                    self.pending.insert(log)?;
                }
                self.replay.feed(log, seq, event)?;
                // Kept for `--at` far in the past, as writes keep them.
                if snapshot_due {
                    save_snapshot(log, self.replay.caught_up(), &hash)?;
                }
                self.head_hash = hash;
            }
            Checked::Secret { kind, key, value } => {
                self.pending.insert(log)?;
                self.seeds.keep(line, &kind, &key, &value).map_err(refuse)?;
                log.insert_secret(&kind, &key, &value)
                    .map_err(|e| match e {
                        InsertError::Duplicate => {
                            refuse(format!("secret {kind} {key} appears twice"))
                        }
                        InsertError::Failed(e) => e,
                    })?;
                self.secrets += 1;
            }
        }
        Ok(())
    }

    /// Inserts what waits and checks the whole: every seed present, and at least one event.
    fn finish(&mut self, log: &mut dyn LogWrite) -> Result<(), StoreError> {
        self.pending.insert(log)?;
        self.seeds.check()?;
        if self.events == 0 {
            return Err(StoreError::NothingToImport);
        }
        // Without one at the head every command after the import would replay the whole log.
        save_snapshot(log, self.replay.caught_up(), &self.head_hash)
    }
}

/// What an import needs to check the secrets it copies: each is one grimoire writes, and a seed
/// kept for an epoch not yet revealed must open the commitment the log published for it, or that
/// epoch's dice could never be checked. Seeds are known by their kind ([`EPOCH_SEED`], or
/// [`SEALED_SEED`] for an epoch's second) and epoch.
#[derive(Default)]
struct ImportedSecrets {
    commitments: std::collections::BTreeMap<(&'static str, u32), String>,
    revealed: std::collections::BTreeSet<(&'static str, u32)>,
    /// Each seed kept: its line, kind, epoch and value.
    kept: Vec<(u64, &'static str, u32, String)>,
}

/// How a seed of `kind` is named in a message: "a seed", or "a seed for sealed dice".
fn seed_words(kind: &str) -> &'static str {
    match kind {
        SEALED_SEED => "seed for sealed dice",
        _ => "seed",
    }
}

impl ImportedSecrets {
    fn note(&mut self, event: &Event) {
        let began = match event {
            Event::CampaignCreated {
                seed_commitment, ..
            } => Some((1, seed_commitment)),
            Event::EpochStarted {
                epoch,
                seed_commitment,
                ..
            } => Some((*epoch, seed_commitment)),
            Event::SeedRevealed { epoch, .. } => {
                self.revealed.insert((EPOCH_SEED, *epoch));
                None
            }
            Event::SealedSeedRevealed { epoch, .. } => {
                self.revealed.insert((SEALED_SEED, *epoch));
                None
            }
            _ => None,
        };
        if let Some((epoch, commitment)) = began {
            self.commitments
                .insert((EPOCH_SEED, epoch), commitment.clone());
            if let Some(sealed) = event.sealed_commitment() {
                self.commitments
                    .insert((SEALED_SEED, epoch), sealed.to_string());
            }
        }
    }

    /// Takes in one secret line: refused unless it is a secret grimoire writes, under its key.
    fn keep(&mut self, line: u64, kind: &str, key: &str, value: &str) -> Result<(), String> {
        match kind {
            EPOCH_SEED | SEALED_SEED => {
                let kind = if kind == EPOCH_SEED {
                    EPOCH_SEED
                } else {
                    SEALED_SEED
                };
                let epoch = key
                    .parse::<u32>()
                    .ok()
                    .filter(|epoch| *epoch > 0 && epoch.to_string() == key)
                    .ok_or_else(|| {
                        format!(
                            "an epoch's {} is kept under its epoch's number (1, 2, …), not '{key}'",
                            seed_words(kind)
                        )
                    })?;
                self.kept.push((line, kind, epoch, value.to_string()));
            }
            "sealed_die" => {
                let named = key.split_once(':').is_some_and(|(seq, n)| {
                    let canonical =
                        |part: &str| part.parse::<u64>().is_ok_and(|v| v.to_string() == part);
                    canonical(seq) && canonical(n)
                });
                if !named {
                    return Err(format!(
                        "a sealed die is kept under its event and place, as SEQ:N, not '{key}'"
                    ));
                }
                if serde_json::from_str::<SealedSecret>(value).is_err() {
                    return Err(format!(
                        "the sealed die {key} is not what grimoire keeps for one"
                    ));
                }
            }
            "request_secret" => {
                let named = key
                    .parse::<u32>()
                    .is_ok_and(|n| n > 0 && n.to_string() == key);
                if !named {
                    return Err(format!(
                        "a request's secret is kept under the request's number (1, 2, …), not '{key}'"
                    ));
                }
                if crate::dice::fairness::parse_seed(value).is_none() {
                    return Err(format!(
                        "request {key}'s secret is not 64 hexadecimal digits"
                    ));
                }
            }
            other => {
                return Err(format!(
                    "'{other}' is not a kind of secret grimoire keeps (epoch_seed, sealed_seed, sealed_die, request_secret)"
                ));
            }
        }
        Ok(())
    }

    fn check(&self) -> Result<(), StoreError> {
        let refuse = |line: u64, why: String| StoreError::Import { line, why };
        for (line, kind, epoch, value) in &self.kept {
            let what = seed_words(kind);
            let Some(commitment) = self.commitments.get(&(*kind, *epoch)) else {
                return Err(refuse(
                    *line,
                    format!(
                        "a {what} is kept for dice epoch {epoch}, which the log never began with one"
                    ),
                ));
            };
            if self.revealed.contains(&(*kind, *epoch)) {
                continue;
            }
            if !crate::dice::fairness::opens(value, commitment) {
                return Err(refuse(
                    *line,
                    format!(
                        "the {what} kept for dice epoch {epoch} does not open the commitment the log published for it, so that epoch's dice could never be checked"
                    ),
                ));
            }
        }
        // An export with secrets carries every seed not yet published; one without, none.
        if let Some((last_line, _, _, _)) = self.kept.last() {
            let missing = self.commitments.keys().find(|seed| {
                !self.revealed.contains(seed)
                    && !self
                        .kept
                        .iter()
                        .any(|(_, kind, epoch, _)| (*kind, *epoch) == **seed)
            });
            if let Some((kind, epoch)) = missing {
                return Err(refuse(
                    *last_line,
                    format!(
                        "the file carries the seeds of other dice epochs but not epoch {epoch}'s {}, which is not yet published: its dice could never be checked; export the campaign again with its secrets",
                        seed_words(kind)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Rows an import sends to the database together (PostgreSQL takes them in one statement rather
/// than a round trip each).
const IMPORT_BATCH: usize = 1_000;

/// An import's rows waiting to be inserted, each with the line it came from.
#[derive(Default)]
struct PendingRows {
    lines: Vec<u64>,
    rows: Vec<StoredRow>,
}

impl PendingRows {
    fn push(&mut self, line: u64, row: StoredRow) {
        self.lines.push(line);
        self.rows.push(row);
    }

    /// Inserts the waiting rows; a repeated event id is refused by the line that repeats it.
    fn insert(&mut self, log: &mut dyn LogWrite) -> Result<(), StoreError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        log.insert_rows(&self.rows).map_err(|(at, e)| match e {
            InsertError::Duplicate => StoreError::Import {
                line: self.lines.get(at).copied().unwrap_or_default(),
                why: format!(
                    "#{} repeats an event id",
                    self.rows.get(at).map_or(Seq::START, |row| row.seq)
                ),
            },
            InsertError::Failed(e) => e,
        })?;
        self.lines.clear();
        self.rows.clear();
        Ok(())
    }
}
