//! The library's one entry point for recording: a campaign opened for commands. It keeps the
//! policies around `decide` that every front end must keep alike (the CLI today, a shell later):
//! which commands may take dice, when players' entropy applies, where each epoch's seed is kept,
//! which seeds the command sets free, what must be checked before an evening starts or a checkpoint
//! is printed.

use crate::Error;
use crate::dice::{Dice, DiceError, Provenance, fairness};
use crate::event::{Event, Recorded};
use crate::rules::campaign::{ClockReshaped, Input, Released, Retraction, named_by_last};
use crate::rules::{Command, GivenEntropy, RuleError, decide};
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::store::{Appender, Batch, Location, Stamp, Store, StoreError, WriteView, Written};
use crate::systems::contract::command::{Action, Given};
use crate::systems::registry::{Registered, SystemId, on_system};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::borrow::BorrowMut;

/// Where a command's dice come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceSource {
    /// grimoire's provably fair dice; between sessions, optionally with a player's entropy.
    Seeded {
        player_entropy: Option<GivenEntropy>,
    },
    /// Physical dice rolled at the table, in the command's draw order.
    Entered(Vec<u32>),
    /// Physical dice asked for one at a time (`--rolls ask`): as `Entered`, and each sealed die's
    /// faces typed as one answer (where it starts among the values → how many it gave), which
    /// must be exactly one result of that die.
    Asked {
        values: Vec<u32>,
        sealed_answers: std::collections::BTreeMap<usize, usize>,
    },
    /// A roll put to a player's device, answered (C-5): only [`Campaign::answer`] draws from it.
    Device {
        g: [u8; 32],
        request: u32,
        contribution: Vec<u8>,
        witnessed: bool,
    },
}

/// A player's device answering a roll put to it: the request, the device the answer came from
/// (by its link), and the bytes it made after it saw the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceAnswer {
    pub request: u32,
    pub device: u32,
    pub contribution: Vec<u8>,
}

/// What an answer came to.
#[derive(Debug)]
pub enum Answered {
    /// Recorded now: the answer and what its command recorded.
    Now(Written),
    /// The same bytes were recorded for the request before (a device asking again after it lost
    /// its connection): the answer is the event at this seq.
    Before(Seq),
}

/// One run's inputs besides the command: who and when, the dice, and fresh randomness.
pub struct Run {
    pub stamp: Stamp,
    pub dice: DiceSource,
    /// Secret randomness: sealed dice's nonces, a new epoch's seed, a new campaign's identity.
    pub rng: StdRng,
}

pub use crate::dice::DieWanted;

/// A person entering physical dice one at a time, as the command needs them.
pub trait DiceAsker {
    /// The faces of the die wanted (a sealed open-ended roll may take several at once, so that
    /// how many it took shows nowhere), or `None` when the person gives up.
    fn ask(&mut self, die: &DieWanted) -> Result<Option<Vec<u32>>, Error>;
    /// The log moved on while they typed (its head is now `head`): the dice entered so far were
    /// for a state that no longer stands, and are asked for again.
    fn log_moved(&mut self, head: Seq);
    /// The faces typed for a sealed die were not one roll of it (too few or too many for an
    /// open-ended roll, or not faces of the die): it is asked for again. Whatever was wrong, the
    /// words must be the same, since they would otherwise tell what was typed.
    fn wrong_sealed_answer(&mut self);
}

/// A campaign opened for commands, on a store it owns or one lent to it (the shell keeps one
/// open across commands).
pub struct Campaign<S: BorrowMut<Store> = Store> {
    store: S,
}

impl Campaign {
    pub fn open(location: &Location) -> Result<Campaign, Error> {
        Ok(Campaign::on(Store::open(location)?))
    }
}

impl<S: BorrowMut<Store>> Campaign<S> {
    pub fn on(store: S) -> Campaign<S> {
        Campaign { store }
    }

    /// The log beneath, for reads.
    pub fn store(&mut self) -> &mut Store {
        self.store.borrow_mut()
    }
}

impl Campaign {
    /// Refuses dice given for a command that draws none (physical dice would otherwise be silently
    /// ignored). Pure: front ends call it before opening anything, and `execute` again.
    pub fn check_dice(command: &Command, dice: &DiceSource) -> Result<(), Error> {
        if command.draws_dice() {
            return Ok(());
        }
        Err(match dice {
            DiceSource::Entered(_) | DiceSource::Asked { .. } | DiceSource::Device { .. } => {
                RuleError::DiceUnused
            }
            DiceSource::Seeded {
                player_entropy: Some(_),
            } => RuleError::EntropyUnused,
            DiceSource::Seeded {
                player_entropy: None,
            } => return Ok(()),
        }
        .into())
    }
}

impl<S: BorrowMut<Store>> Campaign<S> {
    /// Records `command`: see [`execute`].
    pub fn execute(&mut self, run: Run, command: Command) -> Result<Written, Error> {
        execute(self.store.borrow_mut(), run, command)
    }

    /// Records `command` with physical dice asked for one at a time. Each attempt decides inside
    /// the write lock with the dice entered so far; one that needs another die is rolled back, the
    /// lock released, and `asker` asks for that die, so no one holds the log while a person types.
    /// When the log has moved on since the dice were asked for, they are discarded and asked for
    /// again. Nothing is recorded unless every die the command needs has been entered.
    /// `run_with` builds each attempt's run around the dice entered so far.
    pub fn execute_asking(
        &mut self,
        mut run_with: impl FnMut(DiceSource) -> Result<Run, Error>,
        command: &Command,
        asker: &mut dyn DiceAsker,
    ) -> Result<Written, Error> {
        let mut values: Vec<u32> = Vec::new();
        let mut sealed_answers = std::collections::BTreeMap::new();
        // The head the dice entered so far were asked for under.
        let mut asked_at: Option<Seq> = None;
        // The sealed die last asked for, where its answer starts: asked again if its faces were
        // not one roll of it.
        let mut last_sealed: Option<(DieWanted, usize)> = None;
        loop {
            let run = run_with(DiceSource::Asked {
                values: values.clone(),
                sealed_answers: sealed_answers.clone(),
            })?;
            let mut decided_at = None;
            let attempt = execute_checked(self.store.borrow_mut(), run, command.clone(), |state| {
                decided_at = Some(state.head);
                asked_at.is_none_or(|head| head == state.head)
            });
            let wanted = match attempt {
                Err(Error::Rule(RuleError::Dice(DiceError::TooFew {
                    given,
                    purpose,
                    sides,
                    sealed,
                    ..
                }))) => {
                    asked_at = decided_at;
                    DieWanted {
                        number: given + 1,
                        sides,
                        purpose,
                        sealed,
                    }
                }
                // The faces typed for a sealed die were not one roll of it: the same prompt again,
                // after the one message every wrong answer gets (a reason would tell the faces).
                Err(Error::Rule(RuleError::Dice(DiceError::NotOneSealedRoll))) => {
                    let Some((wanted, start)) = last_sealed.take() else {
                        return Err(DiceError::NotOneSealedRoll.into());
                    };
                    values.truncate(start);
                    sealed_answers.remove(&start);
                    asker.wrong_sealed_answer();
                    wanted
                }
                Err(Error::LogMoved) => {
                    asker.log_moved(decided_at.unwrap_or_default());
                    values.clear();
                    sealed_answers.clear();
                    asked_at = None;
                    continue;
                }
                other => return other,
            };
            let start = values.len();
            match asker.ask(&wanted)? {
                Some(faces) => {
                    if wanted.sealed {
                        sealed_answers.insert(start, faces.len());
                        last_sealed = Some((wanted, start));
                    }
                    values.extend(faces);
                }
                None => return Err(Error::Abandoned(wanted)),
            }
        }
    }
}

impl<S: BorrowMut<Store>> Campaign<S> {
    /// Records a device's answer to a roll put to it (C-5), all or nothing: the answer (the bytes
    /// and the secret they meet) and what the asked command records with the dice they make, in
    /// one write. The rules may refuse the command as the campaign now stands (its character fell
    /// since): the answer is recorded all the same, saying why, since the dice are made and an
    /// answered roll is final. The very bytes sent again for an answered request get the recorded
    /// answer back; any other answer to it is refused, and nothing is recorded.
    pub fn answer(&mut self, run: Run, answer: DeviceAnswer) -> Result<Answered, Error> {
        crate::rules::players::contribution(&answer.contribution).map_err(RuleError::from)?;
        let store = self.store.borrow_mut();
        let state = store.replay(None)?;
        let contribution = hex::encode(&answer.contribution);
        if let crate::rules::players::Answerable::Answered(seq) =
            crate::rules::players::answerable(&state, answer.request, answer.device)
                .map_err(RuleError::from)?
        {
            return match store.event(seq)?.map(|r| r.event) {
                Some(Event::RollAnswered {
                    contribution: recorded,
                    ..
                }) if recorded == contribution => Ok(Answered::Before(seq)),
                _ => Err(RuleError::from(crate::rules::players::Refused::Answered {
                    request: answer.request,
                    seq,
                })
                .into()),
            };
        }
        let Run { stamp, mut rng, .. } = run;
        let mut secret_rng = StdRng::from_rng(&mut rng);
        let written = store.write(stamp, |state, secrets| {
            use crate::rules::players::{Answerable, Refused, answerable};
            let request =
                match answerable(state, answer.request, answer.device).map_err(RuleError::from)? {
                    Answerable::Waiting(request) => request.clone(),
                    // Answered between the look above and the write: by another answer.
                    Answerable::Answered(seq) => {
                        return Err(RuleError::from(Refused::Answered {
                            request: answer.request,
                            seq,
                        })
                        .into());
                    }
                };
            let g = secrets
                .request_secret(answer.request)?
                .filter(|g| fairness::seed_commitment(g) == request.commitment)
                .ok_or(RuleError::from(Refused::SecretMismatch(answer.request)))?;
            let answered = |refused: Option<String>| Event::RollAnswered {
                request: answer.request,
                contribution: contribution.clone(),
                secret: hex::encode(g),
                refused,
            };
            // The command is decided on the campaign with the answer in it, as the log will hold it.
            let after = with_applied(state, &[answered(None)]);
            let dice = DiceSource::Device {
                g,
                request: answer.request,
                contribution: answer.contribution.clone(),
                witnessed: request.witnessed,
            };
            let decided = asked_command(&request.asked).and_then(|command| {
                decide_in_write(&after, secrets, command, &dice, &mut secret_rng)
            });
            match decided {
                Ok(mut batch) => {
                    batch.events.insert(0, answered(None));
                    Ok(batch)
                }
                Err(Error::Rule(why)) => Ok(Batch {
                    events: vec![answered(Some(why.to_string()))],
                    ..Batch::default()
                }),
                Err(other) => Err(other),
            }
        })?;
        Ok(Answered::Now(written))
    }
}

impl Campaign {
    /// Creates the campaign `command` (a [`Command::CreateCampaign`]) describes at `location`. An
    /// existing file must be an empty campaign file (the rules refuse a second creation); a new
    /// one is built whole and appears only with its campaign in it, so a refused or failed
    /// creation leaves nothing behind.
    pub fn create(location: &Location, run: Run, command: Command) -> Result<Written, Error> {
        if Store::exists(location)? {
            return Campaign::open(location)?.execute(run, command);
        }
        let mut new = Store::create_new(location)?;
        let written = execute(new.store(), run, command)?;
        new.publish()?;
        Ok(written)
    }
}

impl Campaign {
    /// Imports an export's `lines` (numbered, or the reason a line could not be read) into the
    /// campaign at `location`: an existing empty campaign file, or a new one that appears only
    /// once the import is whole. Every row is checked as [`Store::import`] says; returns how many
    /// events and secrets arrived.
    pub fn import(
        location: &Location,
        lines: impl IntoIterator<Item = (u64, Result<String, String>)>,
    ) -> Result<(u64, u64), Error> {
        if Store::exists(location)? {
            // A campaign half built by a killed import is cleared by the next look at it once its
            // builder's lock is gone, which may happen between the two looks: then it is created.
            match Store::open(location) {
                Ok(mut store) => {
                    return Ok(store.import(lines, &mut crate::verify::ChainCheck::default())?);
                }
                Err(StoreError::NoCampaign { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let mut new = Store::create_new(location)?;
        let imported = (new.store()).import(lines, &mut crate::verify::ChainCheck::default())?;
        new.publish()?;
        Ok(imported)
    }
}

/// A roll put to a device is refused at once when the rules would refuse its command now, for
/// reasons that do not wait on the dice (an unknown character, a cast that grants no save): it is
/// decided on the campaign with the request in it, with dice the device did not send, and only
/// whether the rules refuse it is kept. (Whatever the dice will show, the answer is recorded.)
fn refused_now(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    events: &[Event],
    g: [u8; 32],
    secret_rng: &mut StdRng,
) -> Result<(), Error> {
    let Some((request, asked, witnessed)) = events.iter().find_map(|e| match e {
        Event::RollRequested {
            request,
            asked,
            witnessed,
            ..
        } => Some((*request, asked, *witnessed)),
        _ => None,
    }) else {
        return Ok(());
    };
    let after = with_applied(state, events);
    let probe = DiceSource::Device {
        g,
        request,
        contribution: vec![0; fairness::CONTRIBUTION_BYTES],
        witnessed,
    };
    let mut rng = StdRng::from_rng(secret_rng);
    match decide_in_write(&after, secrets, asked_command(asked)?, &probe, &mut rng) {
        Ok(_) => Ok(()),
        Err(Error::Rule(why)) => {
            Err(RuleError::from(crate::rules::players::Refused::RefusedNow(why.to_string())).into())
        }
        Err(other) => Err(other),
    }
}

/// `state` with `events` folded in after its head, as the log will hold them once written.
fn with_applied(state: &CampaignState, events: &[Event]) -> CampaignState {
    let mut after = state.clone();
    for (i, event) in events.iter().enumerate() {
        after.apply(state.head + 1 + i as u64, event);
    }
    after
}

/// The command a request records, as the rules decide it; one this build cannot read is refused
/// by the rules' words.
fn asked_command(asked: &crate::event::AskedCommand) -> Result<Command, Error> {
    build_asked(asked)
        .map_err(|why| RuleError::from(crate::rules::players::Refused::Unreadable(why)).into())
}

/// The command a roll put to a device completes, as the rules decide it: a free roll, or a
/// system's command built from what was typed for it by the builder the command line uses.
fn build_asked(asked: &crate::event::AskedCommand) -> Result<crate::rules::Command, String> {
    match asked {
        crate::event::AskedCommand::Roll {
            expression,
            purpose,
            character,
        } => Ok(crate::rules::Command::Roll(
            crate::rules::campaign::DiceRoll {
                expression: expression.clone(),
                purpose: purpose.clone(),
                sealed: false,
                character: character.clone(),
            },
        )),
        crate::event::AskedCommand::System {
            system,
            path,
            given,
        } => {
            let id = SystemId::keyed(system).ok_or_else(|| format!("no rule system '{system}'"))?;
            on_system!(id, SystemId, |S| system_command::<S>(path, given))
        }
    }
}

/// A system's command rebuilt from what was typed for it, by the same builder the command line
/// uses.
fn system_command<S: Registered>(
    path: &str,
    typed: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<crate::rules::Command, String> {
    let spec = S::commands()
        .iter()
        .find(|c| c.path == path)
        .ok_or_else(|| format!("no command `{path}`"))?;
    let Action::Records { build, .. } = &spec.action else {
        return Err(format!("`{path}` records nothing"));
    };
    let mut given = Given::default();
    for (id, values) in typed {
        let arg = spec
            .args
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| format!("`{path}` takes no --{id}"))?;
        given.put(arg.id, values.clone());
    }
    // An argument added since the request was recorded takes its default, as the command line
    // would have given it then.
    for arg in spec.args {
        if let Some(default) = arg.default
            && !typed.contains_key(arg.id)
        {
            given.put(arg.id, vec![default.to_string()]);
        }
    }
    let command = build(&given)?;
    Ok(crate::rules::Command::System(S::wrap_command(command)))
}

/// Records `command` on `store`: one write transaction, all or nothing. A command that starts an
/// evening first has every page of the storage checked; one that prints a checkpoint first has the
/// whole log verified (outside the write lock: these read everything).
fn execute(store: &mut Store, run: Run, command: Command) -> Result<Written, Error> {
    execute_checked(store, run, command, |_| true)
}

/// [`execute`], deciding only when `still_stands(state)` holds of the state inside the write; it
/// fails with [`Error::LogMoved`] otherwise.
fn execute_checked(
    store: &mut Store,
    run: Run,
    command: Command,
    still_stands: impl FnOnce(&CampaignState) -> bool,
) -> Result<Written, Error> {
    Campaign::check_dice(&command, &run.dice)?;
    // A roll put to a device must be one its answer can decide, with dice to make.
    if let Command::RequestRoll { asked, .. } = &command
        && !asked_command(asked)?.draws_dice()
    {
        return Err(RuleError::from(crate::rules::players::Refused::RollsNothing).into());
    }
    if command.checks_the_storage_first() {
        store.check_every_page()?;
    }
    // Verifying a long log takes seconds: only worth it when there is a session to end
    // (otherwise the rules refuse, and nothing is recorded either way).
    if command.vouches_for_the_log()
        && store.replay(None)?.open_session.is_some()
        && let Some(problem) = crate::verify::log(store, Vec::new())?.first_problem()
    {
        return Err(StoreError::FailsVerification {
            place: store.place(),
            problem,
        }
        .into());
    }
    let Run {
        stamp,
        dice,
        mut rng,
    } = run;
    let mut secret_rng = StdRng::from_rng(&mut rng);
    store.write(stamp, |state, secrets| {
        if !still_stands(state) {
            return Err(Error::LogMoved);
        }
        decide_in_write(state, secrets, command, &dice, &mut secret_rng)
    })
}

/// Decides `command` inside a write: fills in what it needs from outside the rules, draws its
/// dice and decides.
fn decide_in_write(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    mut command: Command,
    dice: &DiceSource,
    secret_rng: &mut StdRng,
) -> Result<Batch, Error> {
    let mut new_seed = None;
    let mut request_secret = None;
    for input in command.inputs() {
        match input {
            Input::NewRequestSecret { commitment } => {
                let g: [u8; 32] = secret_rng.random();
                *commitment = fairness::seed_commitment(&g);
                request_secret = Some(g);
            }
            Input::SealedDice { seq, into } => *into = secrets.sealed(seq)?,
            Input::EpochSeed { into, sealed_into } => {
                *into = secrets.seed(state.epoch)?;
                *sealed_into = secrets.sealed_seed(state.epoch)?;
            }
            Input::NewEpochSeed {
                commitment,
                sealed_commitment,
            } => {
                let seed: [u8; 32] = secret_rng.random();
                let sealed_seed: [u8; 32] = secret_rng.random();
                *commitment = fairness::seed_commitment(&seed);
                *sealed_commitment = fairness::seed_commitment(&sealed_seed);
                new_seed = Some((seed, sealed_seed));
            }
            Input::Retraction(retraction) => read_for_retraction(state, secrets, retraction)?,
            Input::Event { seq, into } => read_event(secrets, seq, into)?,
            Input::Amendment(amendment) => read_for_amendment(state, secrets, amendment)?,
            Input::NewCampaignId { into } => {
                *into = uuid::Builder::from_random_bytes(secret_rng.random())
                    .into_uuid()
                    .to_string();
            }
        }
    }
    if let Command::Amend(amendment) = &command {
        // Its dice are its original's: nothing is drawn, sealed or kept anew.
        let read = amendment.read.as_deref().ok_or_else(|| {
            Error::Internal("an amendment was decided before it read the log".into())
        })?;
        let mut dice = crate::rules::amend::original_dice(read, secret_rng);
        return Ok(Batch {
            events: decide(state, command, &mut dice)?,
            ..Batch::default()
        });
    }
    let token_hash = match &command {
        Command::LinkDevice { token_hash, .. } => Some(token_hash.clone()),
        _ => None,
    };
    let mut batch = decide_with_dice(state, secrets, command, dice, new_seed, secret_rng)?;
    if let Some(g) = request_secret {
        refused_now(state, secrets, &batch.events, g, secret_rng)?;
    }
    // What a link or a request keeps among the secrets, under the number the rules gave it.
    for event in &batch.events {
        match event {
            Event::DeviceLinked { device, .. } => {
                if let Some(hash) = &token_hash {
                    batch
                        .kept
                        .push(("device_token", hash.clone(), device.to_string()));
                }
            }
            Event::RollRequested { request, .. } => {
                if let Some(g) = request_secret {
                    batch
                        .kept
                        .push(("request_secret", request.to_string(), hex::encode(g)));
                }
            }
            _ => {}
        }
    }
    Ok(batch)
}

fn read_event(
    log: &mut WriteView<'_>,
    seq: Seq,
    into: Box<dyn FnOnce(Event, crate::time::GameTime) + '_>,
) -> Result<(), Error> {
    if let Some((event, at)) = log.event_at(seq)? {
        into(event, at);
    }
    Ok(())
}

/// Fills in what an amendment reads of the log under the write's lock (see
/// [`crate::rules::amend::AmendmentRead`]), then what its command reads, as of the state just
/// before the original. Inputs that mint secrets or read a retraction are left empty: the
/// commands that need them record bookkeeping or retractions, which are never amended (the rules
/// refuse them by their kind).
fn read_for_amendment(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    amendment: &mut crate::rules::amend::Amendment,
) -> Result<(), Error> {
    let seq = amendment.seq;
    let Some(original) = log.event(seq)? else {
        return Err(RuleError::NoSuchEvent(seq, state.head).into());
    };
    let continued = log
        .event(seq + 1)?
        .is_some_and(|next| next.continues_its_command());
    let revealed = log.revealed(seq)?;
    let (named_later, play_later) = log.named_after(seq, |at, event| {
        state.retracted.contains_key(&at)
            || matches!(event, Event::Amended { seq: amended, .. } if *amended == seq)
    })?;
    let before = log.state_before(seq)?;
    let in_force = match state.amended.get(&seq) {
        Some(&amendment) => match log.event(amendment)? {
            Some(Event::Amended { event, .. }) => Some(*event),
            _ => None,
        },
        None => None,
    };
    for input in amendment.command.inputs() {
        match input {
            Input::SealedDice { seq, into } => *into = log.sealed(seq)?,
            Input::Event { seq, into } => read_event(log, seq, into)?,
            Input::Retraction(_)
            | Input::Amendment(_)
            | Input::EpochSeed { .. }
            | Input::NewEpochSeed { .. }
            | Input::NewRequestSecret { .. }
            | Input::NewCampaignId { .. } => {}
        }
    }
    amendment.read = Some(Box::new(crate::rules::amend::AmendmentRead {
        original,
        in_force,
        before,
        continued,
        revealed,
        named_later,
        play_later,
    }));
    Ok(())
}

impl<S: BorrowMut<Store>> Campaign<S> {
    /// Many commands in one write transaction, each decided as [`execute`] decides it, with
    /// grimoire's seeded dice (the generator's long campaigns). `work` records command after
    /// command through a [`Bulk`]; nothing is written unless it returns Ok. Unlike `execute`, a
    /// bulk write checks neither the storage before a session starts nor the log before one ends:
    /// what it would vouch for is its own unfinished transaction.
    pub fn bulk<T>(
        &mut self,
        stamp: Stamp,
        rng: StdRng,
        work: impl FnOnce(&mut Bulk<'_, '_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let store = self.store.borrow_mut();
        let (result, _) = store.bulk(stamp, |appender| work(&mut Bulk { appender, rng }))?;
        Ok(result)
    }
}

/// The door of a [`Campaign::bulk`] write.
pub struct Bulk<'a, 'c> {
    appender: &'a mut Appender<'c>,
    rng: StdRng,
}

impl Bulk<'_, '_> {
    /// The state every command recorded so far leaves.
    pub fn state(&self) -> &CampaignState {
        self.appender.state()
    }

    /// Records `command` with seeded dice, returning what it appended. A refusal leaves the
    /// write as it was, so the work may go on with another command.
    pub fn execute(&mut self, command: Command) -> Result<Vec<Recorded>, Error> {
        let dice = DiceSource::Seeded {
            player_entropy: None,
        };
        let rng = &mut self.rng;
        self.appender.decide_and_append(|state, secrets| {
            decide_in_write(state, secrets, command, &dice, rng)
        })
    }
}

/// Fills in what a retraction reads of the log, under the write's lock: so `--last` names the
/// newest event at the moment of writing, whatever was recorded since the command was typed.
fn read_for_retraction(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    retraction: &mut Retraction,
) -> Result<(), Error> {
    if retraction.last {
        let newest = log.newest_where(state.head, |seq, event| named_by_last(state, seq, event))?;
        retraction.seq = Some(newest.ok_or(RuleError::NothingToRetract)?);
    }
    let Some(seq) = retraction.seq else {
        return Ok(());
    };
    let target = log.event(seq)?;
    if let Some(target) = &target
        && let Some((back, event)) =
            crate::rules::campaign::brought_back(target, |at| log.event(at))?
    {
        // The action as the amendment in force has it, if one does.
        let in_force = match state.amended.get(&back) {
            Some(&amendment) => match log.event(amendment)? {
                Some(Event::Amended { event, .. }) => *event,
                _ => event.clone(),
            },
            None => event.clone(),
        };
        for action in in_force.actions() {
            let who = crate::words::fold_name(action.who);
            let (time, others) = log.acts_in_round(
                back,
                &who,
                |at| state.retracted.contains_key(&at),
                |at| state.amended.get(&at).copied(),
            )?;
            // Outside a fight a turn is no turn, unless the system's rules count it by the clock:
            // only a fight's rounds (the whole round it began in) hold one action each.
            let in_a_fight = state.fight_at(back).is_some()
                || (state.fights_along.iter()).any(|f| f.began == time);
            if (action.counted_outside_fights || in_a_fight)
                && let Some(again) = one_action_too_many(back, action.halves(), &others)
            {
                retraction.acted_again = Some((action.who.to_string(), again));
                break;
            }
        }
        retraction.restoring = Some((back, Box::new(event)));
    }
    if let Some(Event::RoundBegan { .. }) = &target {
        retraction.round_stands =
            log.first_standing_after(seq, |later| state.retracted.contains_key(&later))?;
    }
    // A fight's start, round or end undone or brought back (down any chain of retractions) with
    // later events that move the clock after it would reshape what those were recorded in (T-3).
    let mut root = target.clone().map(|event| (seq, event));
    // Down to earlier events only: a forged log's retraction of itself would go round for ever.
    while let Some((at, Event::Retracted { seq: undone, .. })) = &root
        && undone < at
    {
        let undone = *undone;
        root = log.event(undone)?.map(|event| (undone, event));
    }
    if let Some((
        shaped,
        Event::FightStarted { .. } | Event::RoundBegan { .. } | Event::FightEnded { .. },
    )) = root
    {
        const MOVING_THE_CLOCK: &[&str] = &[
            "fight_started",
            "round_began",
            "fight_ended",
            "clock_advanced",
            "rested",
            "downtime_taken",
            "ritual_cast",
            "scroll_written",
        ];
        // What is retracted already moves nothing: a fight's events come off newest first.
        retraction.fight_built_on = log.any_of_kinds_after(MOVING_THE_CLOCK, shaped, |seq| {
            state.retracted.contains_key(&seq)
        })?;
    }
    if let Some((moved, event)) = &root {
        let brought_back = (retraction.restoring.as_ref()).is_some_and(|(back, _)| back == moved);
        retraction.clock_reshaped = clock_reshaped(state, log, *moved, event, brought_back)?;
    }
    retraction.names_after = log.names_in_play_after_retracting(state.head, seq)?;
    retraction.target = target;
    Ok(())
}

/// What undoing or bringing back (`brought_back`) the event at `moved` would break, when it starts
/// or ends a fight or moves the clock: every event after it would be replayed at another time.
fn clock_reshaped(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    moved: Seq,
    event: &Event,
    brought_back: bool,
) -> Result<Option<ClockReshaped>, Error> {
    let starts_or_ends = matches!(event, Event::FightStarted { .. } | Event::FightEnded { .. });
    if starts_or_ends
        && let Some(on) = &state.fight
        && on.started_seq != moved
    {
        let fight = on.words();
        return Ok(Some(ClockReshaped::AnotherFight { moved, fight }));
    }
    let before = log.state_before(moved)?;
    let mut after = before.clone();
    after.apply(moved, event);
    let by = after.clock.seconds().saturating_sub(before.clock.seconds());
    if by == 0 {
        return Ok(None);
    }
    if let Some(fight) = &before.fight
        && brought_back
        && by >= crate::time::HOUR_SECONDS
    {
        let fight = fight.words();
        return Ok(Some(ClockReshaped::HoursInAFight { moved, fight }));
    }
    let standing = log.first_after_where(
        moved,
        |later| !later.actions().is_empty() || matches!(later, Event::FightStarted { .. }),
        |at| state.retracted.contains_key(&at),
    )?;
    Ok(standing.map(|standing| ClockReshaped::BuiltOn { moved, standing }))
}

/// The action to name when restoring the one at `back` (taking `halves` of its round's action)
/// beside `others` in that round would take more than the round's one action: the first of them
/// after it, else the last before it; none when it fits (two instantaneous spells do, VSD-3).
fn one_action_too_many(back: Seq, halves: u32, others: &[(Seq, u32)]) -> Option<Seq> {
    let spent: u32 = others.iter().map(|&(_, h)| h).sum();
    if spent + halves <= crate::state::fight::WHOLE_ACTION {
        return None;
    }
    (others.iter().find(|&&(at, _)| at > back))
        .or(others.last())
        .map(|&(at, _)| at)
}

/// The commitments published for `epoch`'s seeds, its first and (in an epoch that has one) its
/// second: the current one's are in the state, an earlier one's (a seed that waited for its sealed
/// dice, released later) in the event that began it.
fn commitments_of(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    epoch: u32,
) -> Result<Option<(String, Option<String>)>, Error> {
    if epoch == state.epoch {
        let sealed = state.epoch_sealed_commitment.clone();
        return Ok(Some((state.epoch_commitment.clone(), sealed)));
    }
    let mut found = None;
    log.newest_where(state.head, |_, event| {
        let commitment = match event {
            Event::EpochStarted {
                epoch: started,
                seed_commitment,
                ..
            } if *started == epoch => seed_commitment,
            Event::CampaignCreated {
                seed_commitment, ..
            } if epoch == 1 => seed_commitment,
            _ => return false,
        };
        let sealed = event.sealed_commitment().map(str::to_string);
        found = Some((commitment.clone(), sealed));
        true
    })?;
    Ok(found)
}

/// Draws the dice, decides, publishes the seeds the command sets free and keeps a new epoch's
/// seeds.
fn decide_with_dice(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    command: Command,
    source: &DiceSource,
    new_seed: Option<([u8; 32], [u8; 32])>,
    secret_rng: &mut StdRng,
) -> Result<Batch, Error> {
    let given = match source {
        DiceSource::Seeded { player_entropy } => player_entropy.clone(),
        DiceSource::Entered(_) | DiceSource::Asked { .. } | DiceSource::Device { .. } => None,
    };
    if let (Some(session), Some(_)) = (&state.open_session, &given) {
        return Err(RuleError::EntropyInSession(session.number).into());
    }
    let opened = command.new_epoch(state).zip(new_seed);
    let seeds = opened.map(|(epoch, (seed, _))| (epoch, seed));
    let sealed_seeds = opened.map(|(epoch, (_, sealed))| (epoch, sealed));
    let mut dice = match source {
        DiceSource::Entered(values) => Dice::entered(values.clone(), secret_rng),
        DiceSource::Asked {
            values,
            sealed_answers,
        } => Dice::answered(values.clone(), sealed_answers.clone(), secret_rng),
        DiceSource::Device {
            g,
            request,
            contribution,
            witnessed,
        } => Dice::device(*g, *request, contribution.clone(), *witnessed, secret_rng),
        DiceSource::Seeded { .. } if state.campaign.is_some() => {
            // Read only for a command that may draw from them, so damage to a seed stops only
            // the dice while the secrets are restored.
            let draws = command.draws_dice();
            let seed = match draws {
                true => secrets.seed(state.epoch)?,
                false => None,
            };
            let sealed_seed = match (draws, &state.epoch_sealed_commitment) {
                (true, Some(_)) => secrets.sealed_seed(state.epoch)?,
                _ => None,
            };
            // A seed that does not hash to the epoch's published commitment (the file's secrets
            // edited) would record dice no one could ever check: refused before any is drawn,
            // rather than found at the reveal.
            if seed.is_some_and(|seed| fairness::seed_commitment(&seed) != state.epoch_commitment) {
                return Err(RuleError::SeedMismatch(state.epoch).into());
            }
            if sealed_seed.is_some_and(|seed| {
                Some(fairness::seed_commitment(&seed)) != state.epoch_sealed_commitment
            }) {
                return Err(RuleError::SealedSeedMismatch(state.epoch).into());
            }
            crate::rules::seeded_dice(state, seed, sealed_seed, given.clone(), secret_rng)
        }
        DiceSource::Seeded { .. } => crate::rules::seeded_dice(state, None, None, None, secret_rng),
    };
    let mut events = decide(state, command, &mut dice)?;
    for released in crate::rules::campaign::seeds_released(state, &events) {
        events.push(published(state, secrets, released)?);
    }
    if given.is_some()
        && !events
            .iter()
            .flat_map(|e| e.dice())
            .any(|d| matches!(d.provenance, Provenance::Seeded { .. }))
    {
        return Err(RuleError::EntropyUnused.into());
    }
    let sealed = dice.finish()?;
    Ok(Batch {
        events,
        sealed,
        seeds: seeds.into_iter().collect(),
        sealed_seeds: sealed_seeds.into_iter().collect(),
        ..Batch::default()
    })
}

/// The event that publishes a seed set free, read from the secrets. Published, a seed is in the
/// log for good: one that is missing or does not open its epoch's commitment (edited in the file)
/// is refused while the secrets can still be restored.
fn published(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    released: Released,
) -> Result<Event, Error> {
    let (epoch, for_sealed_dice) = match released {
        Released::Seed(epoch) => (epoch, false),
        Released::SealedSeed(epoch) => (epoch, true),
    };
    let kept = match for_sealed_dice {
        true => secrets.sealed_seed(epoch)?,
        false => secrets.seed(epoch)?,
    };
    let seed = match kept {
        Some(seed) => seed,
        // A file that keeps the current epoch's seed but not the one these sealed dice need lost it.
        None if secrets.seed(state.epoch)?.is_some() => {
            return Err(match for_sealed_dice {
                true => RuleError::SealedSeedMissing(epoch),
                false => RuleError::SeedMissing(epoch),
            }
            .into());
        }
        None => {
            return Err(RuleError::SeedNotKept {
                epoch,
                sealed: for_sealed_dice,
            }
            .into());
        }
    };
    let (commitment, sealed_commitment) = commitments_of(state, secrets, epoch)?.unzip();
    let opens = |commitment: Option<String>| Some(fairness::seed_commitment(&seed)) == commitment;
    let seed = hex::encode(seed);
    Ok(match for_sealed_dice {
        true if opens(sealed_commitment.flatten()) => Event::SealedSeedRevealed { epoch, seed },
        true => return Err(RuleError::SealedSeedMismatch(epoch).into()),
        false if opens(commitment) => Event::SeedRevealed { epoch, seed },
        false => return Err(RuleError::SeedMismatch(epoch).into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::campaign::{ClockAdvance, DiceRoll};
    use crate::systems::adg::rules::{AdgCommand, Attribute, Exertion};
    use crate::systems::registry::AnyCommand;
    use crate::time::GameDuration;

    fn entered() -> DiceSource {
        DiceSource::Entered(vec![3])
    }

    fn with_entropy() -> DiceSource {
        DiceSource::Seeded {
            player_entropy: Some(GivenEntropy {
                text: "three crows".into(),
                by: "Bryn".into(),
            }),
        }
    }

    #[test]
    fn given_a_command_that_draws_no_dice_when_dice_are_given_then_it_is_refused_naming_them() {
        let exert = Command::System(AnyCommand::Adg(Box::new(AdgCommand::Exert(Exertion {
            character: "Aldric".into(),
            attribute: Attribute::Brawn,
            amount: 1,
            reason: "a climb".into(),
        }))));
        for (dice, given) in [
            (entered(), "dice entered"),
            (with_entropy(), "player entropy"),
        ] {
            let refused = Campaign::check_dice(&exert, &dice).unwrap_err().to_string();
            assert!(
                refused.contains("not apply") && refused.contains(given),
                "{refused}"
            );
        }
        let seeded = DiceSource::Seeded {
            player_entropy: None,
        };
        assert!(Campaign::check_dice(&exert, &seeded).is_ok());
    }

    #[test]
    fn given_a_command_that_draws_dice_when_dice_are_given_then_they_are_taken() {
        let roll = Command::Roll(DiceRoll {
            expression: crate::dice::DiceExpr::parse("d6").unwrap(),
            purpose: None,
            sealed: false,
            character: None,
        });
        assert!(Campaign::check_dice(&roll, &entered()).is_ok());
        assert!(Campaign::check_dice(&roll, &with_entropy()).is_ok());
        let clock = Command::AdvanceClock(ClockAdvance {
            by: GameDuration(60),
        });
        assert!(Campaign::check_dice(&clock, &entered()).is_err());
    }

    fn run(seed: u64) -> Run {
        Run {
            stamp: Stamp {
                recorded_at: "2026-12-01T18:00:00Z".into(),
                actor: "gm".into(),
                id_rng: StdRng::seed_from_u64(seed),
            },
            dice: DiceSource::Seeded {
                player_entropy: None,
            },
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The seed the campaign's secrets keep as `kind` under `key`.
    fn kept(campaign: &mut Campaign, kind: &str, key: &str) -> [u8; 32] {
        let kept = campaign.store().secrets().unwrap();
        let (_, _, seed) = (kept.iter())
            .find(|(k, named, _)| k == kind && named == key)
            .unwrap_or_else(|| panic!("no {kind} {key} in {kept:?}"));
        hex::decode(seed).unwrap().try_into().unwrap()
    }

    fn created(seed: u64) -> (Campaign, String, String) {
        let mut campaign = Campaign::on(crate::store::MemoryLog::new().open());
        let create = Command::CreateCampaign {
            campaign_id: String::new(),
            name: "The Sunken Vault".into(),
            seed_commitment: String::new(),
            sealed_commitment: String::new(),
        };
        let written = campaign.execute(run(seed), create).unwrap();
        let Event::CampaignCreated {
            campaign_id,
            seed_commitment,
            ..
        } = &written.events[0].event
        else {
            panic!("{:?}", written.events);
        };
        (campaign, campaign_id.clone(), seed_commitment.clone())
    }

    /// The door mints a new campaign's identity and first seeds inside the write: front ends
    /// leave them empty, and the seeds it keeps are the ones the recorded commitments bind, the
    /// second (for sealed dice) apart from the first.
    #[test]
    fn given_a_new_campaign_when_created_then_its_id_and_seeds_are_fresh_and_the_seeds_are_kept() {
        let (mut first, id, commitment) = created(1);
        let (_, other_id, other_commitment) = created(2);
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
        assert_ne!(id, other_id);
        assert_ne!(commitment, other_commitment);
        let kinds: Vec<String> = (first.store().secrets().unwrap().into_iter())
            .map(|(kind, key, _)| format!("{kind} {key}"))
            .collect();
        assert_eq!(kinds, ["epoch_seed 1", "sealed_seed 1"]);
        let seed = kept(&mut first, "epoch_seed", "1");
        assert_eq!(crate::dice::fairness::seed_commitment(&seed), commitment);
        let sealed = kept(&mut first, "sealed_seed", "1");
        let state = first.store().replay(None).unwrap();
        assert_eq!(
            state.epoch_sealed_commitment,
            Some(crate::dice::fairness::seed_commitment(&sealed))
        );
        assert_ne!(seed, sealed);
    }

    /// A seed reveal publishes the seed the first commitment bound and records a commitment to a
    /// new seed, which it keeps.
    #[test]
    fn given_a_campaign_when_its_seed_is_revealed_then_the_next_epochs_seed_is_minted_and_kept() {
        let (mut campaign, _, commitment) = created(3);
        let reveal = Command::RevealSeed {
            seed: None,
            sealed_seed: None,
            next_commitment: String::new(),
            next_sealed_commitment: String::new(),
        };
        let written = campaign.execute(run(4), reveal).unwrap();
        let kinds: Vec<&str> = written.events.iter().map(|r| r.event.kind()).collect();
        assert_eq!(
            kinds,
            ["seed_revealed", "sealed_seed_revealed", "epoch_started"]
        );
        let Event::SeedRevealed { seed, .. } = &written.events[0].event else {
            panic!()
        };
        let seed: [u8; 32] = hex::decode(seed).unwrap().try_into().unwrap();
        assert_eq!(crate::dice::fairness::seed_commitment(&seed), commitment);
        let Event::SealedSeedRevealed { seed: sealed, .. } = &written.events[1].event else {
            panic!()
        };
        assert_eq!(
            *sealed,
            hex::encode(kept(&mut campaign, "sealed_seed", "1"))
        );
        let Event::EpochStarted {
            seed_commitment,
            sealed_commitment,
            ..
        } = &written.events[2].event
        else {
            panic!()
        };
        let next = kept(&mut campaign, "epoch_seed", "2");
        let next_sealed = kept(&mut campaign, "sealed_seed", "2");
        let commitment_of = crate::dice::fairness::seed_commitment;
        assert_eq!(&commitment_of(&next), seed_commitment);
        assert_eq!(Some(commitment_of(&next_sealed)), *sealed_commitment);
    }

    /// `--last` is resolved inside the write: an event recorded by another front end after the
    /// GM typed the retraction is the one it undoes, since it was the newest when the retraction
    /// was recorded.
    #[test]
    fn given_retract_last_typed_when_another_event_lands_first_then_the_newest_is_retracted() {
        let log = crate::store::MemoryLog::new();
        let mut gm = Campaign::on(log.open());
        let create = Command::CreateCampaign {
            campaign_id: String::new(),
            name: "The Sunken Vault".into(),
            seed_commitment: String::new(),
            sealed_commitment: String::new(),
        };
        gm.execute(run(1), create).unwrap();
        let tick = |minutes: u64| {
            Command::AdvanceClock(ClockAdvance {
                by: GameDuration(60 * minutes),
            })
        };
        gm.execute(run(2), tick(1)).unwrap();
        let typed = Command::Retract(crate::rules::campaign::Retraction {
            seq: None,
            last: true,
            reason: "a slip".into(),
            target: None,
            restoring: None,
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        });
        let mut shell = Campaign::on(log.open());
        let landed = shell.execute(run(3), tick(5)).unwrap().events[0].seq;
        let written = gm.execute(run(4), typed).unwrap();
        let Event::Retracted { seq, .. } = &written.events[0].event else {
            panic!("{:?}", written.events);
        };
        assert_eq!(*seq, landed);
        assert_eq!(written.state.clock.seconds(), 60);
    }
}
