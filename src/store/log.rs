//! The campaign log over any backend: appending chained rows, replay with snapshots, import and
//! verify. Everything here is written once for every backend; a backend only stores rows.

use super::StoreError;
use super::append::{Appender, Batch, Running, Stamp, WriteView};
use super::backend::Backend;
use super::chain::{Checkpoint, GENESIS_HASH, StoredRow};
use super::location::Location;
use super::postgres::PgBackend;
use super::replay::{
    self, FromSnapshot, SNAPSHOT_EVERY, SNAPSHOT_KEEP_EVERY, SpanEvent, decode, replay_from,
    replay_span, revisions, to_recorded,
};
use super::sqlite::SqliteBackend;
use crate::Error;
use crate::dice::SealedSecret;
use crate::event::{Event, Recorded};
use crate::ids::DeviceId;
use crate::seq::Seq;
use crate::state::{CampaignState, Replay};
use std::ops::ControlFlow;
use std::rc::Rc;

/// What a write appended, and the state just after it (shared with the store that keeps it in
/// memory, so handing it over copies nothing).
#[derive(Debug)]
pub struct Written {
    pub events: Vec<Recorded>,
    pub state: Rc<CampaignState>,
}

/// A campaign's log, in whichever backend holds it.
pub struct Store {
    pub(super) backend: Box<dyn Backend>,
    snapshot_every: u64,
    /// The state at the head after this store's last write, kept between commands when the store
    /// stays open (the shell): `None` until then, or when it is not kept.
    kept: Option<Kept>,
    keeps_state: bool,
}

/// A state kept in memory, and the hash of the head it was computed at: it stands in for a replay
/// only while the log's head still carries that hash (nothing was written since, by anyone).
struct Kept {
    head_hash: String,
    state: Rc<CampaignState>,
    snapshot_at: Seq,
}

impl Kept {
    /// The state to append on: the kept one itself once the last command let go of it.
    fn into_running(self) -> Running {
        Running {
            state: Rc::try_unwrap(self.state).unwrap_or_else(|shared| (*shared).clone()),
            snapshot_at: self.snapshot_at,
        }
    }
}

/// A campaign being built by [`Store::create_new`]: it appears under its name only when published,
/// whole. Dropped unpublished, it leaves nothing behind.
pub struct NewCampaign {
    store: Store,
}

impl NewCampaign {
    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Makes the campaign visible. Fails with [`StoreError::Exists`] when another command created
    /// it meanwhile; nothing is replaced.
    pub fn publish(self) -> Result<Store, StoreError> {
        let Store {
            backend,
            snapshot_every,
            kept,
            keeps_state,
        } = self.store;
        Ok(Store {
            backend: backend.publish()?,
            snapshot_every,
            kept,
            keeps_state,
        })
    }
}

impl Store {
    /// Opens an existing campaign, migrating its database to this build's schema.
    pub fn open(location: impl Into<Location>) -> Result<Store, StoreError> {
        let backend: Box<dyn Backend> = match location.into() {
            Location::File(path) => Box::new(SqliteBackend::open(&path)?),
            Location::Postgres(pg) => Box::new(PgBackend::open(&pg)?),
        };
        Ok(Store::on(backend))
    }

    /// Opens a campaign file only to read it, changing nothing (see
    /// [`SqliteBackend::open_to_read`]); `None` for anything else, a PostgreSQL campaign included.
    pub fn open_to_read(location: &Location) -> Option<Store> {
        let Location::File(path) = location else {
            return None;
        };
        Some(Store::on(Box::new(SqliteBackend::open_to_read(path)?)))
    }

    /// Starts a new campaign where none is yet (see [`NewCampaign`]).
    pub fn create_new(location: impl Into<Location>) -> Result<NewCampaign, StoreError> {
        let backend: Box<dyn Backend> = match location.into() {
            Location::File(path) => Box::new(SqliteBackend::create_new(&path)?),
            Location::Postgres(pg) => Box::new(PgBackend::create_new(&pg)?),
        };
        Ok(NewCampaign {
            store: Store::on(backend),
        })
    }

    /// Whether something already answers to this location (a file, even an empty or foreign one;
    /// a campaign of that name, even one being created).
    pub fn exists(location: &Location) -> Result<bool, StoreError> {
        match location {
            Location::File(path) => Ok(path.symlink_metadata().is_ok()),
            Location::Postgres(pg) => PgBackend::exists(pg),
        }
    }

    pub(super) fn on(backend: Box<dyn Backend>) -> Store {
        Store {
            backend,
            snapshot_every: SNAPSHOT_EVERY,
            kept: None,
            keeps_state: false,
        }
    }

    /// Keeps the state at the head in memory after each write, for a store that stays open across
    /// commands (the shell): the next command starts from it instead of a snapshot, unless the log
    /// has moved on since (another process wrote), which its head's hash tells.
    pub fn keep_state_in_memory(&mut self) {
        self.keeps_state = true;
    }

    /// Takes snapshots every `events` instead of [`SNAPSHOT_EVERY`] (tests and the benchmark).
    pub fn with_snapshot_interval(mut self, events: u64) -> Store {
        self.snapshot_every = events.max(1);
        self
    }

    /// Where the campaign lives, for messages (never a password).
    pub fn place(&self) -> String {
        self.backend.place()
    }

    /// Marks this campaign as the tour's, so a later `tour` may replace it and nothing else.
    pub fn mark_as_tour(&mut self) -> Result<(), StoreError> {
        self.backend.mark_as_tour()
    }

    /// Whether `tour` made this campaign.
    pub fn is_tour(&mut self) -> Result<bool, StoreError> {
        self.backend.is_tour()
    }

    /// The last row's checkpoint, or `None` for an empty log.
    pub fn head(&mut self) -> Result<Option<Checkpoint>, StoreError> {
        Ok(self
            .backend
            .read()?
            .head()?
            .map(|(seq, hash)| Checkpoint::of(seq, &hash)))
    }

    /// The state after replaying the log up to `upto` (all of it when `None`).
    pub fn replay(&mut self, upto: Option<Seq>) -> Result<CampaignState, StoreError> {
        let mut log = self.backend.read()?;
        if let Some(kept) = &self.kept
            && upto.is_none_or(|seq| seq >= kept.state.head)
            && log.head()?.is_some_and(|(_, hash)| hash == kept.head_hash)
        {
            return Ok((*kept.state).clone());
        }
        Ok(replay_from(&mut *log, upto.unwrap_or(Seq::END), FromSnapshot::Whole)?.0)
    }

    /// The state at the log's head, shared rather than copied when this store keeps it (the
    /// shell): what a prompt or a completion reads between commands.
    pub fn head_state(&mut self) -> Result<Rc<CampaignState>, StoreError> {
        let mut log = self.backend.read()?;
        if let Some(kept) = &self.kept
            && log.head()?.is_some_and(|(_, hash)| hash == kept.head_hash)
        {
            return Ok(Rc::clone(&kept.state));
        }
        Ok(Rc::new(
            replay_from(&mut *log, Seq::END, FromSnapshot::Whole)?.0,
        ))
    }

    /// A full replay from the first event, ignoring snapshots (for checks and the benchmark).
    pub fn replay_without_snapshots(
        &mut self,
        upto: Option<Seq>,
    ) -> Result<CampaignState, StoreError> {
        let mut log = self.backend.read()?;
        Ok(replay_from(&mut *log, upto.unwrap_or(Seq::END), FromSnapshot::Never)?.0)
    }

    /// One full replay from the first event up to `upto`, showing `visit` each event with the
    /// state just after it (a retracted event leaves the state as it was; an amended one is shown
    /// as amended, C-3): for work that follows the campaign through time, such as the report's
    /// charts.
    pub fn replay_each(
        &mut self,
        upto: Option<Seq>,
        mut visit: impl FnMut(&Recorded, &CampaignState),
    ) -> Result<CampaignState, StoreError> {
        let mut log = self.backend.read()?;
        let upto = upto.unwrap_or(Seq::END);
        let mut replay = Replay::new(&revisions(&mut *log, Seq::START, upto)?);
        log.rows(Seq(1), upto, &mut |row| {
            let mut recorded = to_recorded(row)?;
            let applied = replay.feed(recorded.seq, &recorded.event);
            if let Some(amended) = replay.in_place_of(recorded.seq).filter(|_| applied) {
                recorded.event = amended.clone();
            }
            visit(&recorded, replay.state());
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(replay.finish())
    }

    /// The log from `from` to `upto` as replay sees it at `upto`: `visit` is shown the state at
    /// `from`, then each later event, whether it was applied (a retracted one is not) and the state
    /// just after it ([`replay::replay_span`]). Returns the state at `upto`.
    pub fn replay_span(
        &mut self,
        from: Seq,
        upto: Seq,
        mut visit: impl FnMut(Option<SpanEvent<'_>>, &CampaignState),
    ) -> Result<CampaignState, StoreError> {
        let mut log = self.backend.read()?;
        replay_span(&mut *log, from, upto, &mut visit)
    }

    /// Drops every snapshot and takes new ones along one full replay: the ones kept for the far
    /// past and one at the head.
    pub fn rebuild_snapshots(&mut self) -> Result<u64, StoreError> {
        self.rebuild_snapshots_watching(&mut |_| {})
    }

    /// [`Store::rebuild_snapshots`], telling `watch` the seq of each row replayed (for progress).
    pub fn rebuild_snapshots_watching(
        &mut self,
        watch: &mut dyn FnMut(Seq),
    ) -> Result<u64, StoreError> {
        let mut log = self.backend.write()?;
        log.clear_snapshots()?;
        let taken = replay::take_snapshots(&mut *log, watch)?;
        log.commit()?;
        Ok(taken)
    }

    /// Drops every snapshot; answers stay the same, only slower.
    pub fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        let mut log = self.backend.write()?;
        let removed = log.clear_snapshots()?;
        log.commit()?;
        Ok(removed)
    }

    /// Calls `visit` with every event in seq order from `from` up to `upto`, streaming.
    pub fn for_each_event(
        &mut self,
        from: Seq,
        upto: Option<Seq>,
        mut visit: impl FnMut(Recorded) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.for_each_row(from, upto, |row| visit(to_recorded(row)?))
    }

    /// Calls `visit` with every stored row in seq order, unparsed, streaming.
    pub fn for_each_row(
        &mut self,
        from: Seq,
        upto: Option<Seq>,
        mut visit: impl FnMut(StoredRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut log = self.backend.read()?;
        log.rows(from, upto.unwrap_or(Seq::END), &mut |row| {
            visit(row).map(ControlFlow::Continue)
        })
    }

    /// The rows of one kind up to `upto`, in order, found through the kind's index.
    pub fn for_each_row_of_kind(
        &mut self,
        kind: &str,
        upto: Option<Seq>,
        mut visit: impl FnMut(StoredRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut log = self.backend.read()?;
        log.rows_of_kind(kind, Seq::START, upto.unwrap_or(Seq::END), &mut |row| {
            visit(row).map(ControlFlow::Continue)
        })
    }

    /// The events of one kind up to `upto`, in order, found through the kind's index.
    pub fn for_each_event_of_kind(
        &mut self,
        kind: &str,
        upto: Option<Seq>,
        visit: impl FnMut(Recorded) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.for_each_event_of_kind_between(kind, Seq(1), upto.unwrap_or(Seq::END), visit)
    }

    /// The events of one kind from `from` to `upto`, in order, found through the kind's index.
    pub fn for_each_event_of_kind_between(
        &mut self,
        kind: &str,
        from: Seq,
        upto: Seq,
        mut visit: impl FnMut(Recorded) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut log = self.backend.read()?;
        let after = Seq(from.get().saturating_sub(1));
        log.rows_of_kind(kind, after, upto, &mut |row| {
            visit(to_recorded(row)?).map(ControlFlow::Continue)
        })
    }

    /// The device a player's link opens, by the SHA-256 (hex) of its token: `None` for a token no
    /// link was made with. Whether the link still stands is the log's to say.
    pub fn device_of_token(&mut self, token_hash: &str) -> Result<Option<DeviceId>, StoreError> {
        let found = self.backend.read()?.secret("device_token", token_hash)?;
        Ok(found.and_then(|device| device.parse().ok()))
    }

    pub fn event(&mut self, seq: Seq) -> Result<Option<Recorded>, StoreError> {
        self.backend.read()?.row(seq)?.map(to_recorded).transpose()
    }

    /// One write: lock, replay, let `decide` choose the events, append them chained, keep the secrets.
    /// If anything fails nothing is written. Only the campaign's door (`Campaign`) calls it: the
    /// compiler holds every write behind it (tests reach it through the `testkit` feature).
    pub(crate) fn write<F>(&mut self, stamp: Stamp, decide: F) -> Result<Written, Error>
    where
        F: FnOnce(&CampaignState, &mut WriteView<'_>) -> Result<Batch, Error>,
    {
        let every = self.snapshot_every;
        let (events, state) =
            self.transact(stamp, every, |appender| appender.decide_and_append(decide))?;
        Ok(Written { events, state })
    }

    /// Many decisions in one transaction (the campaign generator): `work` decides on the running state
    /// and appends batch after batch; nothing is written unless it returns Ok. Snapshots are taken
    /// every [`SNAPSHOT_KEEP_EVERY`] events along the way (where they are kept anyway) and once at the end, so
    /// the next command starts from the head.
    pub(crate) fn bulk<T, F>(
        &mut self,
        stamp: Stamp,
        work: F,
    ) -> Result<(T, Rc<CampaignState>), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>,
    {
        self.transact(stamp, SNAPSHOT_KEEP_EVERY, |appender| {
            let result = work(appender)?;
            appender
                .running
                .snapshot_if_due(&mut *appender.log, 1, &appender.prev_hash)?;
            Ok(result)
        })
    }

    /// One write transaction with an [`Appender`] taking snapshots every `snapshot_every` events.
    fn transact<T, F>(
        &mut self,
        stamp: Stamp,
        snapshot_every: u64,
        work: F,
    ) -> Result<(T, Rc<CampaignState>), Error>
    where
        F: FnOnce(&mut Appender<'_>) -> Result<T, Error>,
    {
        let place = self.backend.place();
        let mut log = self.backend.write()?;
        let prev_hash = log
            .head()?
            .map_or_else(|| GENESIS_HASH.to_string(), |(_, hash)| hash);
        let running = match self.kept.take() {
            Some(kept) if kept.head_hash == prev_hash => kept.into_running(),
            Some(kept) => {
                // Others may have written since; but the event this store last wrote or saw at
                // its head must still be there, as it was, or the file is another one now.
                let seq = kept.state.head;
                let held = log.row(seq)?.is_some_and(|row| row.hash == kept.head_hash);
                if !held {
                    return Err(StoreError::Io {
                        path: place.into(),
                        action: "written",
                        why: format!(
                            "the campaign is no longer the one open here (#{seq} no longer holds the event this session wrote or read there): another file took its place; start the shell (or serve) again to open the campaign as it is now"
                        ),
                    }
                    .into());
                }
                Running::load(&mut *log)?
            }
            None => Running::load(&mut *log)?,
        };
        let start = (running.state.head, prev_hash.clone());
        let mut appender = Appender {
            log,
            running,
            prev_hash,
            stamp,
            snapshot_every,
        };
        let result = work(&mut appender);
        let Appender {
            log,
            running,
            prev_hash,
            ..
        } = appender;
        // A part of the snapshot the decision read did not read as this build keeps it: it was
        // decided on an empty part, so nothing of it is recorded, and a refusal decided on it
        // would give a false reason, so the damage is named instead.
        let result = match running.refuse_an_unreadable_part() {
            Ok(()) => result,
            Err(damaged) => Err(damaged.into()),
        };
        let result = match result {
            Ok(result) => result,
            Err(e) => {
                // Refused before anything was appended: the state still stands for the head.
                // Kept, it answers the reads that follow: read whole first, as after a write.
                if self.keeps_state && running.state.head == start.0 && running.state.read_whole() {
                    self.kept = Some(Kept {
                        head_hash: start.1,
                        snapshot_at: running.snapshot_at,
                        state: Rc::new(running.state),
                    });
                }
                return Err(e);
            }
        };
        log.commit()?;
        let state = Rc::new(running.state);
        // A kept state answers the reads that follow, which need all of it: read whole once here,
        // and not kept should a part not read.
        if self.keeps_state && state.read_whole() {
            self.kept = Some(Kept {
                head_hash: prev_hash,
                state: Rc::clone(&state),
                snapshot_at: running.snapshot_at,
            });
        }
        Ok((result, state))
    }

    /// A read of the whole log in one consistent view, for the checks above the store
    /// (the verify module).
    pub(crate) fn reader(&mut self) -> Result<Box<dyn super::backend::LogRead + '_>, StoreError> {
        self.backend.read()
    }

    /// Problems the database's own check of its storage finds (0: the file is sound); `thorough`
    /// reads every page.
    pub(crate) fn storage_problems(&mut self, thorough: bool) -> Result<u64, StoreError> {
        self.backend.storage_problems(thorough)
    }

    /// Checks the database's storage and fails if its structure is damaged. Commands notice damage
    /// only in the pages they read, and a snapshot spares them most of the log, so `session start`
    /// runs this (for SQLite its quick check: linear in the file, about 0.7 s at a million events)
    /// to catch damage before an evening is played onto it.
    pub fn check_every_page(&mut self) -> Result<(), StoreError> {
        if self.backend.storage_problems(false)? > 0 {
            return Err(StoreError::Corrupt(self.place().into()));
        }
        Ok(())
    }

    /// The players' entropy in force for dice of event `seq`: that of the session open at the time
    /// (empty outside a session).
    pub fn entropy_before(&mut self, seq: Seq) -> Result<String, StoreError> {
        let mut log = self.backend.read()?;
        let last = log.last_of_kinds(&["session_started", "session_ended"], seq)?;
        // The newer of the two: a session started and not yet ended, or none open.
        let Some(Event::SessionStarted { entropy, .. }) = last.as_ref().map(decode).transpose()?
        else {
            return Ok(String::new());
        };
        Ok(entropy)
    }

    /// The seed published for `epoch`, if it has been revealed.
    pub fn revealed_seed(&mut self, epoch: u32) -> Result<Option<String>, StoreError> {
        self.published_seed("seed_revealed", epoch)
    }

    /// The first seed of `epoch` the events of `kind` publish (`seed_revealed`, or
    /// `sealed_seed_revealed` for its seed for sealed dice).
    fn published_seed(&mut self, kind: &str, epoch: u32) -> Result<Option<String>, StoreError> {
        self.first_of_kind(kind, |event| match event {
            Event::SeedRevealed {
                epoch: revealed,
                seed,
            }
            | Event::SealedSeedRevealed {
                epoch: revealed,
                seed,
            } => (revealed == epoch).then_some(seed),
            _ => None,
        })
    }

    /// Whether epoch `epoch` began with a second seed, the one its sealed dice come from.
    pub fn has_sealed_dice_seed(&mut self, epoch: u32) -> Result<bool, StoreError> {
        let began = |event: Event| {
            let (started, sealed) = match &event {
                Event::CampaignCreated { .. } => (1, event.sealed_commitment()),
                Event::EpochStarted { epoch, .. } => (*epoch, event.sealed_commitment()),
                _ => return None,
            };
            (started == epoch).then_some(sealed.is_some())
        };
        let kind = if epoch == 1 {
            "campaign_created"
        } else {
            "epoch_started"
        };
        Ok(self.first_of_kind(kind, began)?.unwrap_or(false))
    }

    /// The published seed epoch `epoch`'s sealed dice come from, if it is published: its second
    /// in an epoch that has one, else its one seed.
    pub fn revealed_sealed_dice_seed(&mut self, epoch: u32) -> Result<Option<String>, StoreError> {
        if !self.has_sealed_dice_seed(epoch)? {
            return self.revealed_seed(epoch);
        }
        self.published_seed("sealed_seed_revealed", epoch)
    }

    /// The reveal of the sealed dice of event `seq`, if it has been made.
    pub fn revealed_sealed(
        &mut self,
        seq: Seq,
    ) -> Result<Option<Vec<crate::event::RevealedDie>>, StoreError> {
        self.first_of_kind("sealed_revealed", |event| {
            let Event::SealedRevealed { seq: opened, dice } = event else {
                return None;
            };
            (opened == seq).then_some(dice)
        })
    }

    /// The first event of `kind` (in seq order) that `pick` takes.
    fn first_of_kind<T>(
        &mut self,
        kind: &str,
        pick: impl Fn(Event) -> Option<T>,
    ) -> Result<Option<T>, StoreError> {
        let mut found = None;
        self.backend
            .read()?
            .rows_of_kind(kind, Seq::START, Seq::END, &mut |row| {
                found = pick(decode(&row)?);
                Ok(match found {
                    Some(_) => ControlFlow::Break(()),
                    None => ControlFlow::Continue(()),
                })
            })?;
        Ok(found)
    }

    /// What the GM keeps secret about the sealed dice of the event at `seq`, in draw order.
    pub fn sealed_secrets(&mut self, seq: Seq) -> Result<Vec<SealedSecret>, StoreError> {
        super::append::sealed_secrets(&mut *self.backend.read()?, seq)
    }

    /// Every secret, as (kind, key, value), for a full backup.
    pub fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError> {
        self.backend.read()?.secrets()
    }
}
