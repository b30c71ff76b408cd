//! The library's one entry point for recording: a campaign opened for commands. It keeps the
//! policies around `decide` that every front end must keep alike (the CLI today, a shell later):
//! which commands may take dice, when players' entropy applies, where each epoch's seed is kept,
//! which seeds the command sets free, what must be checked before an evening starts or a checkpoint
//! is printed.

use crate::Error;
use crate::dice::{Dice, DiceError, Provenance, fairness};
use crate::event::{Event, Recorded};
use crate::ids::{DeviceId, RequestId};
use crate::rules::campaign::{ClockReshaped, Input, Released, Retraction, named_by_last};
use crate::rules::{Command, GivenEntropy, RuleError, decide};
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::store::{Appender, Batch, Location, Stamp, Store, StoreError, WriteView, Written};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::borrow::BorrowMut;

mod dice;
mod revisions;
#[cfg(test)]
mod tests;

use dice::decide_with_dice;
use revisions::{read_event, read_for_amendment, read_for_retraction};

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
        request: RequestId,
        contribution: Vec<u8>,
        witnessed: bool,
    },
}

/// A player's device answering a roll put to it: the request, the device the answer came from
/// (by its link), and the bytes it made after it saw the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceAnswer {
    pub request: RequestId,
    pub device: DeviceId,
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

impl<S: BorrowMut<Store>> Campaign<S> {
    /// Records a choice a player made on their linked device (#47), all or nothing: the choice
    /// (who made it, on which device, with which picks) and what the choice command records,
    /// decided in the same write with the run's dice. Refused, with nothing recorded, unless the
    /// picks fit a choice the rules left to that player as the campaign stands.
    pub fn choose(&mut self, run: Run, choice: PlayerChoice<'_>) -> Result<Written, Error> {
        let Run {
            stamp,
            dice,
            mut rng,
        } = run;
        let mut secret_rng = StdRng::from_rng(&mut rng);
        self.store.borrow_mut().write(stamp, |state, secrets| {
            let (asked, answered) = crate::rules::players::made_on(
                state,
                choice.device,
                choice.character,
                choice.picks,
                choice.names,
            )?;
            // Decided on the campaign with the choice in it, as the log will hold it.
            let after = with_applied(state, std::slice::from_ref(&answered));
            let command = asked_command(&asked)?;
            let mut batch = decide_in_write(&after, secrets, command, &dice, &mut secret_rng)?;
            batch.events.insert(0, answered);
            Ok(batch)
        })
    }
}

/// A choice a player made on their device: for whom, the options picked, and whom an option
/// names (a failed spell's other target).
pub struct PlayerChoice<'a> {
    pub device: crate::ids::DeviceId,
    pub character: &'a str,
    pub picks: &'a [String],
    pub names: Option<&'a str>,
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

/// A roll put to a phone in the player's words (#47), as the campaign stands: its command built
/// as an answer would build it, what it reads of the log filled in from `store` (nothing secret
/// is read), and said by the rules; the words it was typed in where the rules have none, with
/// who acts first.
pub fn asked_in_words(
    store: &mut crate::store::Store,
    state: &CampaignState,
    asked: &crate::event::AskedCommand,
) -> String {
    let typed = || match asked.acting() {
        Some(name) => format!("{name}: {}", asked.words()),
        None => asked.words(),
    };
    let Ok(mut command) = crate::command::asked(asked) else {
        return typed();
    };
    for input in command.inputs() {
        if let Input::Event { seq, into } = input {
            // As the answer will read it: an amended cast by its amended difficulty.
            let read = |at: Seq| {
                let recorded = store.event(at)?;
                Ok::<_, StoreError>(recorded.map(|r| (r.event, r.game_time)))
            };
            if let Ok(Some((event, at))) = crate::rules::campaign::in_force(state, seq, read) {
                into(event, at);
            }
        }
    }
    crate::rules::asked::words(&command, state).unwrap_or_else(typed)
}

/// The command a request records, as the rules decide it; one this build cannot read is refused
/// by the rules' words.
fn asked_command(asked: &crate::event::AskedCommand) -> Result<Command, Error> {
    crate::command::asked(asked)
        .map_err(|why| RuleError::from(crate::rules::players::Refused::Unreadable(why)).into())
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
            Input::Event { seq, into } => read_event(state, secrets, seq, into)?,
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
