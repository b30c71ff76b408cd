//! Appending inside one write transaction: chaining each row to the one before, keeping the
//! batch's secrets, and the state replayed alongside with its snapshots.

use super::StoreError;
use super::backend::{InsertError, LogRead, LogWrite};
use super::chain::StoredRow;
use super::replay::{FromSnapshot, decode, recorded, replay_from, save_snapshot};
use crate::Error;
use crate::dice::SealedSecret;
use crate::event::{Event, Recorded, SCHEMA_VERSION};
use crate::ids::RequestId;
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::time::GameTime;
use rand::Rng;
use rand::rngs::StdRng;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// Who and when, stamped on every event a write appends.
pub struct Stamp {
    pub recorded_at: String,
    pub actor: String,
    /// Source of the events' unique ids.
    pub id_rng: StdRng,
}

/// What a decision produces: events to append, plus secrets to keep beside the log.
#[derive(Debug, Default)]
pub struct Batch {
    pub events: Vec<Event>,
    /// Sealed dice drawn by the command, each filed under the event that holds it.
    pub sealed: Vec<SealedSecret>,
    /// Epoch seeds to keep (a new epoch's seed).
    pub seeds: Vec<(u32, [u8; 32])>,
    /// Second seeds to keep, the ones a new epoch's sealed dice come from.
    pub sealed_seeds: Vec<(u32, [u8; 32])>,
    /// Other secrets to keep, as (kind, key, value): a request's secret, a device link's hash.
    pub kept: Vec<(&'static str, String, String)>,
}

/// The kind of secret an epoch's seed is kept as, under the epoch's number.
pub const EPOCH_SEED: &str = "epoch_seed";
/// The kind of secret an epoch's second seed (for its sealed dice) is kept as, under its number.
pub const SEALED_SEED: &str = "sealed_seed";

/// Appends decided batches inside one write transaction, keeping the replayed state up to date.
pub struct Appender<'c> {
    pub(super) log: Box<dyn LogWrite + 'c>,
    pub(super) running: Running,
    pub(super) prev_hash: String,
    pub(super) stamp: Stamp,
    pub(super) snapshot_every: u64,
}

impl Appender<'_> {
    pub fn state(&self) -> &CampaignState {
        &self.running.state
    }

    pub fn secrets(&mut self) -> WriteView<'_> {
        WriteView {
            log: &mut *self.log,
        }
    }

    /// Decides a batch on the state so far, with what the write may read besides, and appends it.
    pub fn decide_and_append(
        &mut self,
        decide: impl FnOnce(&CampaignState, &mut WriteView<'_>) -> Result<Batch, Error>,
    ) -> Result<Vec<Recorded>, Error> {
        let batch = decide(
            &self.running.state,
            &mut WriteView {
                log: &mut *self.log,
            },
        )?;
        self.append(batch)
    }

    /// Chains and inserts the batch's events, keeps its secrets, and takes a snapshot once the
    /// snapshot interval has passed since the last one.
    pub fn append(&mut self, batch: Batch) -> Result<Vec<Recorded>, Error> {
        let inserted = |e: InsertError| match e {
            // Ids and keys are fresh: a repeat is a bug, not the user's doing.
            InsertError::Duplicate => {
                Error::Internal("an event id or secret key was used twice".into())
            }
            InsertError::Failed(e) => Error::Store(e),
        };
        let first_seq = self.running.state.head + 1;
        let mut appended = Vec::with_capacity(batch.events.len());
        for event in batch.events {
            let seq = self.running.state.head + 1;
            let (game_time, session) = self.running.state.stamp_for(&event);
            let payload = event.to_payload();
            // Never append what could not be read back: a shape bug must fail loudly, not corrupt the log.
            if Event::from_stored(event.kind(), SCHEMA_VERSION, &payload).as_ref() != Ok(&event) {
                return Err(Error::Internal(format!(
                    "a '{}' event does not read back as written",
                    event.kind()
                )));
            }
            // Nor what both checkers would refuse as not canonical (a commitment not in hex).
            if let Some(why) = crate::event::canonical::problem(&payload, SCHEMA_VERSION) {
                return Err(Error::Internal(format!(
                    "a '{}' event is not in the canonical form: {why}",
                    event.kind()
                )));
            }
            // What an import would refuse is never recorded: every event must restore from a backup.
            crate::text::check_row(&self.stamp.actor, &payload).map_err(|why| {
                crate::rules::RuleError::Unrecordable {
                    kind: event.kind(),
                    why,
                }
            })?;
            let mut row = StoredRow {
                seq,
                event_id: new_event_id(&mut self.stamp.id_rng, seq),
                kind: event.kind().to_string(),
                schema_version: SCHEMA_VERSION,
                payload,
                game_time: game_time.seconds(),
                recorded_at: self.stamp.recorded_at.clone(),
                session,
                actor: self.stamp.actor.clone(),
                prev_hash: std::mem::take(&mut self.prev_hash),
                hash: String::new(),
            };
            row.hash = row.compute_hash();
            self.log.insert_row(&row).map_err(inserted)?;
            self.running.feed(&mut *self.log, seq, &event)?;
            self.prev_hash = row.hash.clone();
            appended.push(recorded(row, event)?);
        }
        for secret in &batch.sealed {
            let value = serde_json::to_string(secret)
                .map_err(|e| Error::Internal(format!("a sealed die could not be encoded ({e})")))?;
            let key = format!("{}:{}", first_seq + u64::from(secret.event), secret.n);
            self.log
                .insert_secret("sealed_die", &key, &value)
                .map_err(inserted)?;
        }
        let seeds = (batch.seeds.iter().map(|seed| (EPOCH_SEED, seed)))
            .chain(batch.sealed_seeds.iter().map(|seed| (SEALED_SEED, seed)));
        for (kind, (epoch, seed)) in seeds {
            let key = epoch.to_string();
            self.log
                .insert_secret(kind, &key, &hex::encode(seed))
                .map_err(|e| match e {
                    // A new epoch's seed is never kept before the epoch begins: one already there
                    // was put in the file by hand.
                    InsertError::Duplicate => Error::Store(StoreError::DamagedSecret {
                        kind: kind.into(),
                        key,
                        why: "the file already keeps a seed for an epoch the log has not begun",
                    }),
                    InsertError::Failed(e) => Error::Store(e),
                })?;
        }
        for (kind, key, value) in &batch.kept {
            self.log.insert_secret(kind, key, value).map_err(inserted)?;
        }
        self.running
            .snapshot_if_due(&mut *self.log, self.snapshot_every, &self.prev_hash)?;
        Ok(appended)
    }
}

/// The state replayed alongside a write transaction, and the snapshot it rests on.
pub(super) struct Running {
    pub(super) state: CampaignState,
    /// The seq of the snapshot the state was loaded from or last saved as (0: none).
    pub(super) snapshot_at: Seq,
}

impl Running {
    pub(super) fn load(log: &mut dyn LogRead) -> Result<Running, StoreError> {
        let (state, snapshot_at) = replay_from(log, Seq::END, FromSnapshot::AsUsed)?;
        Ok(Running { state, snapshot_at })
    }

    /// Folds in an event just inserted. A retraction or an amendment reaches back into events already folded in,
    /// and events cannot be unapplied, so the state is replayed again from the log, which now
    /// holds the retraction (folding it in directly once let a snapshot keep the retracted event).
    fn feed(&mut self, log: &mut dyn LogWrite, seq: Seq, event: &Event) -> Result<(), StoreError> {
        if matches!(event, Event::Retracted { .. } | Event::Amended { .. }) {
            // The state is read again below: what it knew of a part that did not read must not
            // be forgotten with it.
            self.refuse_an_unreadable_part()?;
            *self = Running::load(log)?;
        } else {
            self.state.apply(seq, event);
        }
        Ok(())
    }

    /// Refuses the write when a part of the snapshot it started from did not read when used.
    pub(super) fn refuse_an_unreadable_part(&self) -> Result<(), StoreError> {
        match self.state.has_unreadable_part() {
            true => Err(StoreError::DamagedSnapshot {
                seq: self.snapshot_at,
            }),
            false => Ok(()),
        }
    }

    /// Saves a snapshot once `every` events have passed since the one the state rests on.
    pub(super) fn snapshot_if_due(
        &mut self,
        log: &mut dyn LogWrite,
        every: u64,
        head_hash: &str,
    ) -> Result<(), StoreError> {
        if self.state.head >= self.snapshot_at + every {
            // A snapshot is made only of a state read whole, so a part that did not read is
            // never written again as if it had.
            self.state.read_whole();
            self.refuse_an_unreadable_part()?;
            save_snapshot(log, &self.state, head_hash)?;
            self.snapshot_at = self.state.head;
        }
        Ok(())
    }
}

/// What a write may read besides the state it decides on, under its lock: the GM's secrets, and
/// the log's events (a retraction's target, what `--last` names).
pub struct WriteView<'c> {
    pub(super) log: &'c mut dyn LogWrite,
}

impl WriteView<'_> {
    /// The event at `seq`, if the log holds one.
    pub fn event(&mut self, seq: Seq) -> Result<Option<Event>, StoreError> {
        self.log.row(seq)?.map(|row| decode(&row)).transpose()
    }

    /// The event at `seq` with the in-game time it was recorded at.
    pub fn event_at(&mut self, seq: Seq) -> Result<Option<(Event, GameTime)>, StoreError> {
        self.log
            .row(seq)?
            .map(|row| Ok((decode(&row)?, GameTime(row.game_time))))
            .transpose()
    }

    /// The characters in play once a retraction of `target` takes effect (after `head`), by the
    /// seq of their addition, under the names they then hold.
    pub fn names_in_play_after_retracting(
        &mut self,
        head: Seq,
        target: Seq,
    ) -> Result<BTreeMap<Seq, String>, StoreError> {
        let mut revisions = super::replay::revisions(&mut *self.log, Seq::START, head)?;
        revisions.retract(head.next(), target);
        let mut additions = BTreeMap::new();
        self.log
            .rows_of_kind("character_added", Seq::START, head, &mut |row| {
                if let Event::CharacterAdded { name, .. } = decode(&row)? {
                    additions.insert(row.seq, name);
                }
                Ok(ControlFlow::Continue(()))
            })?;
        Ok(revisions.names_in_play(&additions))
    }

    /// The first event after `after` that is not a retraction and that `passed` does not pick
    /// (events retracted since).
    pub fn first_standing_after(
        &mut self,
        after: Seq,
        passed: impl Fn(Seq) -> bool,
    ) -> Result<Option<Seq>, StoreError> {
        let mut found = None;
        self.log.rows(after + 1, Seq::END, &mut |row| {
            if row.kind == "retracted" || passed(row.seq) {
                return Ok(ControlFlow::Continue(()));
            }
            found = Some(row.seq);
            Ok(ControlFlow::Break(()))
        })?;
        Ok(found)
    }

    /// The first event after `seq` that `wanted` picks, other than those `passed` picks (events
    /// retracted since).
    pub fn first_after_where(
        &mut self,
        after: Seq,
        mut wanted: impl FnMut(&Event) -> bool,
        passed: impl Fn(Seq) -> bool,
    ) -> Result<Option<Seq>, StoreError> {
        let mut found = None;
        self.log.rows(after + 1, Seq::END, &mut |row| {
            if passed(row.seq) || !wanted(&decode(&row)?) {
                return Ok(ControlFlow::Continue(()));
            }
            found = Some(row.seq);
            Ok(ControlFlow::Break(()))
        })?;
        Ok(found)
    }

    /// Whether an event of one of `kinds` follows `after` in the log, other than those `passed`
    /// picks (events retracted since). One of the `when_timed` kinds counts only when it moved
    /// the clock (a Phrase is cast in a moment, a Ceremony takes hours): when what came next, or
    /// the clock now (`clock` in seconds) for the newest event, is stamped later than it.
    pub fn any_of_kinds_after(
        &mut self,
        kinds: &[&str],
        when_timed: &[&str],
        after: Seq,
        clock: u64,
        passed: impl Fn(Seq) -> bool,
    ) -> Result<bool, StoreError> {
        for kind in kinds {
            let timed = when_timed.contains(kind);
            let mut standing = Vec::new();
            self.log.rows_of_kind(kind, after, Seq::END, &mut |row| {
                if passed(row.seq) {
                    return Ok(ControlFlow::Continue(()));
                }
                standing.push((row.seq, row.game_time));
                Ok(match timed {
                    true => ControlFlow::Continue(()),
                    false => ControlFlow::Break(()),
                })
            })?;
            for (seq, time) in standing {
                let next = self.log.row(seq + 1)?.map_or(clock, |row| row.game_time);
                if !timed || next > time {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The newest event up to `head` that `wanted` picks, read back a chunk at a time.
    pub fn newest_where(
        &mut self,
        head: Seq,
        mut wanted: impl FnMut(Seq, &Event) -> bool,
    ) -> Result<Option<Seq>, StoreError> {
        const CHUNK: u64 = 256;
        let mut high = head;
        while high >= 1 {
            let low = (high - (CHUNK - 1)).max(Seq(1));
            let mut chunk = Vec::new();
            self.log.rows(low, high, &mut |row| {
                chunk.push((row.seq, decode(&row)?));
                Ok(ControlFlow::Continue(()))
            })?;
            if let Some((seq, _)) = chunk.iter().rev().find(|(seq, event)| wanted(*seq, event)) {
                return Ok(Some(*seq));
            }
            high = low - 1;
        }
        Ok(None)
    }

    /// The seed the file keeps for `epoch`, if any; one that is not a seed is damage, named.
    pub fn seed(&mut self, epoch: u32) -> Result<Option<[u8; 32]>, StoreError> {
        self.kept_seed(EPOCH_SEED, epoch)
    }

    /// The second seed the file keeps for `epoch`, the one its sealed dice come from, if any.
    pub fn sealed_seed(&mut self, epoch: u32) -> Result<Option<[u8; 32]>, StoreError> {
        self.kept_seed(SEALED_SEED, epoch)
    }

    fn kept_seed(&mut self, kind: &str, epoch: u32) -> Result<Option<[u8; 32]>, StoreError> {
        let key = epoch.to_string();
        let Some(text) = self.log.secret(kind, &key)? else {
            return Ok(None);
        };
        crate::dice::fairness::parse_seed(&text)
            .map(Some)
            .ok_or(StoreError::DamagedSecret {
                kind: kind.into(),
                key,
                why: "it is not a seed (64 hexadecimal digits)",
            })
    }

    /// The secret kept for request `request` (C-5), if any; one that is not a secret is damage.
    pub fn request_secret(&mut self, request: RequestId) -> Result<Option<[u8; 32]>, StoreError> {
        let key = request.to_string();
        let Some(text) = self.log.secret("request_secret", &key)? else {
            return Ok(None);
        };
        crate::dice::fairness::parse_seed(&text)
            .map(Some)
            .ok_or(StoreError::DamagedSecret {
                kind: "request_secret".into(),
                key,
                why: "it is not a secret (64 hexadecimal digits)",
            })
    }

    pub fn sealed(&mut self, seq: Seq) -> Result<Vec<SealedSecret>, StoreError> {
        sealed_secrets(&mut *self.log, seq)
    }

    /// What the log from `from` on puts over a round's limits as it replays now, or as it would
    /// with `retracting` (a retraction after the head, and the event it retracts) recorded.
    pub fn rounds_over(
        &mut self,
        from: Seq,
        retracting: Option<(Seq, Seq)>,
    ) -> Result<super::replay::RoundsOver, StoreError> {
        super::replay::rounds_over(&mut *self.log, from, retracting)
    }

    /// The state just before the event at `seq`, as the log replays it now (with the retractions
    /// and amendments recorded since).
    pub fn state_before(&mut self, seq: Seq) -> Result<CampaignState, StoreError> {
        super::replay::state_before(&mut *self.log, seq)
    }

    /// The faces of the sealed dice of the event at `seq` that a reveal has opened, by `n`.
    pub fn revealed(&mut self, seq: Seq) -> Result<BTreeMap<u32, Vec<u32>>, StoreError> {
        let mut faces = BTreeMap::new();
        self.log
            .rows_of_kind("sealed_revealed", seq, Seq::END, &mut |row| {
                if let Event::SealedRevealed { seq: opened, dice } = decode(&row)?
                    && opened == seq
                {
                    faces.extend(dice.iter().map(|die| (die.n, die.faces())));
                    return Ok(ControlFlow::Break(()));
                }
                Ok(ControlFlow::Continue(()))
            })?;
        Ok(faces)
    }

    /// Each character (folded name) an event after `seq` names, with the first such event, and
    /// the first event of play after it (not the campaign's bookkeeping); events `passed` picks
    /// are left out.
    pub fn named_after(
        &mut self,
        seq: Seq,
        passed: impl Fn(Seq, &Event) -> bool,
    ) -> Result<(BTreeMap<String, Seq>, Option<Seq>), StoreError> {
        let mut named = BTreeMap::new();
        let mut play = None;
        self.log.rows(seq + 1, Seq::END, &mut |row| {
            let event = decode(&row)?;
            if passed(row.seq, &event) {
                return Ok(ControlFlow::Continue(()));
            }
            let of_play = matches!(event, Event::System(_))
                || (event.is_retractable() && !matches!(event, Event::Retracted { .. }));
            if of_play {
                play.get_or_insert(row.seq);
            }
            event.mentions(&mut |name| {
                named
                    .entry(crate::words::fold_name(name))
                    .or_insert(row.seq);
                false
            });
            Ok(ControlFlow::Continue(()))
        })?;
        Ok((named, play))
    }
}

/// A random UUID, mixed with the seq so ids stay unique in a log even when tests pin the randomness
/// (every pinned process starts from the same random state).
fn new_event_id(rng: &mut StdRng, seq: Seq) -> String {
    let random: [u8; 16] = rng.random();
    let digest = Sha256::new()
        .chain_update(random)
        .chain_update(seq.get().to_be_bytes())
        .finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .to_string()
}

/// The secrets kept for the sealed dice of the event at `seq`, in draw order.
pub(super) fn sealed_secrets(
    log: &mut dyn LogRead,
    seq: Seq,
) -> Result<Vec<SealedSecret>, StoreError> {
    let mut sealed: Vec<SealedSecret> = log
        .secrets_with_prefix("sealed_die", &format!("{seq}:"))?
        .iter()
        .filter_map(|text| serde_json::from_str(text).ok())
        .collect();
    // Keys sort as text ("12:10" before "12:2"): put the dice back in draw order.
    sealed.sort_by_key(|secret| secret.n);
    Ok(sealed)
}
