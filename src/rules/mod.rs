//! Rules: pure `decide` functions. Each takes the replayed state, a command and the dice, validates
//! the command, and returns the events to append — or a [`RuleError`] and nothing.

pub mod amend;
pub mod asked;
pub mod campaign;
pub mod downtime;
pub mod players;
pub mod rest;
pub mod text;

use crate::seq::Seq;
use crate::systems::contract::port::Refusal;
use crate::systems::contract::rules::SystemRules;
use crate::systems::registry::{AnyError, Registered};

use crate::dice::{Dice, DiceError, SeedContext};
use crate::state::CampaignState;
use rand::RngCore;
use thiserror::Error;

pub use campaign::{Command, decide};

pub use crate::systems::contract::rules::Who;

/// Entropy given for one command outside a session (`--player-entropy`), and who typed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenEntropy {
    pub text: String,
    pub by: String,
}

/// The provably fair dice for the next command on `state`: each die bound to the next seq and to the
/// open session's entropy, or outside a session to `given` entropy if any. Without the epoch's seed
/// (a file imported without secrets) any draw is refused with a message that says to enter physical
/// dice.
pub fn seeded_dice<'r>(
    state: &CampaignState,
    seed: Option<[u8; 32]>,
    sealed_seed: Option<[u8; 32]>,
    given: Option<GivenEntropy>,
    rng: &'r mut dyn RngCore,
) -> Dice<'r> {
    // A session opened before this epoch's commitment (possible only in a log from before `seed
    // reveal` was refused during sessions) has entropy the seed could have been chosen against.
    if let Some(session) = &state.open_session
        && session.started_seq < state.epoch_started_seq
    {
        return Dice::refusing(
            DiceError::StaleEntropy {
                session: session.number,
                epoch: state.epoch,
            },
            rng,
        );
    }
    match (seed, &state.campaign) {
        (Some(seed), Some(campaign)) => Dice::seeded(
            SeedContext {
                seed,
                // An epoch that committed to a second seed draws its sealed dice from it.
                sealed_seed: match state.epoch_sealed_commitment {
                    Some(_) => sealed_seed,
                    None => Some(seed),
                },
                campaign_id: campaign.campaign_id.clone(),
                epoch: state.epoch,
                seq: state.head + 1,
                entropy: match (&state.open_session, &given) {
                    (Some(session), _) => session.entropy.clone(),
                    (None, Some(given)) => given.text.clone(),
                    (None, None) => String::new(),
                },
                witness_by: given.filter(|_| state.open_session.is_none()).map(|g| g.by),
                roll: state.epoch_counts_rolls.then_some(state.epoch_rolls),
            },
            rng,
        ),
        _ => Dice::without_seed(state.epoch.max(1), rng),
    }
}

/// Why the rules refuse a command: each message states what was wrong, with the values; a front
/// end adds what to do about it in its own terms (the command line's are in `cli/hints.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    #[error("the campaign file already holds the campaign \"{0}\"")]
    AlreadyCreated(String),
    #[error("the log has no campaign yet")]
    NoCampaign,
    #[error("no character named '{name}'{}", known_list(known))]
    UnknownCharacter { name: String, known: Vec<String> },
    #[error("a character named '{0}' already exists; names are unique, ignoring case")]
    DuplicateCharacter(String),
    #[error("a character needs a name")]
    EmptyName,
    #[error(transparent)]
    Text(#[from] crate::text::TextProblem),
    #[error("the '{kind}' event cannot be recorded: {why}")]
    Unrecordable { kind: &'static str, why: String },
    #[error(
        "'{name}' looks just like the existing character '{existing}' (only case, invisible or look-alike letters differ); choose a name the table can tell apart"
    )]
    ConfusableName { name: String, existing: String },
    #[error("the sheet is not valid: {0}")]
    InvalidSheet(String),
    #[error("{0} has no health track")]
    NoHealth(String),
    #[error("session {0} is still open")]
    SessionOpen(u32),
    #[error(
        "session {0} is open: a seed is revealed between sessions, so the next epoch's dice mix in entropy given after its commitment"
    )]
    RevealInSession(u32),
    #[error("session {0} is open, and its entropy already goes into every seeded die")]
    EntropyInSession(u32),
    #[error("no session is open")]
    NoSessionOpen,
    #[error("{0} is under way, and one fight ends before the next begins")]
    FightOn(String),
    #[error("no fight is under way")]
    NoFight,
    #[error(
        "#{0} shapes a fight that later events moving the clock (rounds, rests, downtime, castings, scrolls, time advanced) follow; a fight's events are undone newest first"
    )]
    FightBuiltOn(Seq),
    #[error(
        "{0} is under way, and what takes hours or more (a rest, downtime, a scroll's week, a Ceremony, an advance of an hour) comes after it ends"
    )]
    InAFight(String),
    #[error(
        "{0} has come to an hour of the clock (600 rounds), the longest a fight may run: end it with `grimoire fight end` before the clock moves on"
    )]
    FightTooLong(String),
    #[error(
        "#{round} began a round in which #{standing} still stands; undo the round's events first, newest first, then the round"
    )]
    RoundActedIn { round: Seq, standing: Seq },
    #[error(
        "#{moved} moved the clock, and #{standing} (an action or a fight's start) still stands after it: undoing or restoring #{moved} would replay #{standing} at another time, in another round; retract what comes after it first, newest first"
    )]
    ClockMoveBuiltOn { moved: Seq, standing: Seq },
    #[error(
        "restoring #{moved} would take {fight} an hour or more past its start, the longest a fight runs; hours pass outside fights"
    )]
    HoursInAFight { moved: Seq, fight: String },
    #[error(
        "#{moved} ends a fight that is not under way where it stands (its start is undone): restoring it would end nothing; restore the fight's start first"
    )]
    NoFightToEnd { moved: Seq },
    #[error(
        "#{moved} starts or ends a fight, and {fight} is under way: undoing or restoring it would make two fights overlap; end {fight} first"
    )]
    AnotherFightOn { moved: Seq, fight: String },
    #[error("no session has been played yet")]
    NoSessionYet,
    #[error("#{0} is not in the log (the log ends at #{1})")]
    NoSuchEvent(Seq, Seq),
    #[error("#{0} is already retracted ({1})")]
    AlreadyRetracted(Seq, String),
    #[error(
        "#{seq} is a '{kind}' event, which cannot be retracted: the campaign's bookkeeping (its sessions, dice epochs and reveals) and what play builds on (tables loaded, scrolls written and read) stay in force"
    )]
    NotRetractable { seq: Seq, kind: String },
    #[error(
        "#{0} is a downtime span whose weeks wrote scrolls, and a scroll once written stays written, so the span cannot be retracted either; record what should change instead (the clock, damage or healing, silver)"
    )]
    SpanWroteScrolls(Seq),
    #[error(
        "{name} plays {plays}, but the sheet given is for {given}; a character keeps their game"
    )]
    SheetOfAnotherGame {
        name: String,
        plays: String,
        given: String,
    },
    #[error("a retraction names the event it undoes")]
    NoEventNamed,
    #[error(
        "#{seq} is an amendment of #{first}: amend #{first} itself (the newest amendment of an event is the one in force)"
    )]
    AmendAnAmendment { seq: Seq, first: Seq },
    #[error(
        "#{seq} is a '{kind}' event, and the command given, decided as the campaign stood just before it, is refused: {why}"
    )]
    RefusedBefore {
        seq: Seq,
        kind: String,
        why: Box<RuleError>,
    },
    #[error(
        "#{0}'s dice were made on a player's device for the very command put to it, and an answered roll is final; retract it, and put the roll again"
    )]
    AmendDeviceRoll(Seq),
    #[error("#{0} is retracted ({1}), so there is nothing of it to amend")]
    AmendRetracted(Seq, String),
    #[error(
        "#{seq} is a '{kind}' event, which cannot be amended: only play that could be retracted can be (not the campaign's bookkeeping, a retraction, or what play builds on)"
    )]
    NotAmendable { seq: Seq, kind: String },
    #[error(
        "#{0} is one of several events one command recorded, and an amendment replaces a single event; retract the events and record the command again instead"
    )]
    AmendOneOfMany(Seq),
    #[error(
        "#{0} holds a sealed die not yet revealed, and an amendment would show what it rests on; reveal it first (`grimoire reveal {0}`)"
    )]
    AmendSealed(Seq),
    #[error(
        "#{seq} is a '{was}' event, but the command given records {now}: an amendment fixes the inputs of what was done, not what was done"
    )]
    AmendsInto { seq: Seq, was: String, now: String },
    #[error(
        "the amended command leaves {} of #{seq}'s dice unused; an amendment keeps the original's dice, so retract #{seq} and record it again instead",
        crate::words::count(*unused as u64, "die", "dice")
    )]
    AmendLeavesDice { seq: Seq, unused: usize },
    #[error("the command given records #{0} exactly as it now reads: there is nothing to amend")]
    AmendsNothing(Seq),
    #[error(
        "the command given records #{seq} as it was first recorded: retract the amendment #{amendment} to bring that back"
    )]
    AmendsBackToOriginal { seq: Seq, amendment: Seq },
    #[error(
        "#{seq} answers #{was}, and the command given would answer #{now}: an amendment fixes an input, not which event a roll answers; retract #{seq} and record the right one instead"
    )]
    AmendAnswersAnother { seq: Seq, was: Seq, now: Seq },
    #[error(
        "amended, #{0} would move the clock by another amount, and every later event was recorded at the time it set; retract it and record it again instead"
    )]
    AmendMovesClock(Seq),
    #[error(
        "#{later} came after #{seq} and may rest on its outcome (it names someone #{seq} names, or #{seq} changes the campaign beyond them); an amendment only fixes an event nothing since has built on (retract #{later} first, or record a correction)"
    )]
    AmendBuiltOn { seq: Seq, later: Seq },
    #[error("nothing in the log may be retracted: every event that may be is already retracted")]
    NothingToRetract,
    #[error(
        "#{seq} holds a sealed die rolled from dice epoch {epoch}'s seed, which is now published: restoring it would bring back a value anyone can work out; record the roll again instead"
    )]
    RestoreWouldOpenSeal { seq: Seq, epoch: u32 },
    #[error(
        "#{seq} is an action of {who}'s in a round in which {who} also acts at #{again}: with this retraction {who} would have more than the round's one action (an instantaneous spell is half of one); leave it, or undo one of the two first"
    )]
    RestoreActsTwice { seq: Seq, who: String, again: Seq },
    #[error(
        "#{seq} added a character named {name}, and the campaign has a character named {existing} now: this retraction would bring #{seq}'s character back under that name, and the log keeps one character per name, so it is refused; retract {existing}'s joining first, or add the first one again under another name"
    )]
    RestoreNameTaken {
        seq: Seq,
        name: String,
        existing: String,
    },
    #[error("a change to a sheet needs a reason, so the table knows why")]
    NoReasonForSheet,
    #[error("{0}'s sheet already holds those values; nothing to change")]
    SheetUnchanged(String),
    #[error("a retraction needs a reason, so the table knows why")]
    EmptyReason,
    #[error("#{0} has no sealed dice awaiting a reveal")]
    NothingSealed(Seq),
    #[error("#{0}'s sealed dice are revealed already")]
    RevealedAlready(Seq),
    #[error(
        "the GM's secret for #{seq} die {n} does not open its commitment; the secrets table does not match the log"
    )]
    SecretMismatch { seq: Seq, n: u32 },
    #[error(
        "the GM's secrets hold no value for #{seq} die {n}: the file was imported without secrets, or the secret was removed from it; restore its secrets from a backup or an export that carries them"
    )]
    SecretMissing { seq: Seq, n: u32 },
    #[error(
        "the stored seed of epoch {0} does not match its published commitment; the secrets table does not match the log"
    )]
    SeedMismatch(u32),
    #[error(
        "the campaign file keeps the seeds of other dice epochs but not epoch {0}'s, which its dice need to be checked: the secret was removed from the file; restore its secrets from a backup"
    )]
    SeedMissing(u32),
    #[error(
        "the stored seed for the sealed dice of epoch {0} does not match its published commitment; the secrets table does not match the log"
    )]
    SealedSeedMismatch(u32),
    #[error(
        "the campaign file keeps the seeds of other dice epochs but not epoch {0}'s seed for sealed dice, which its sealed dice need to be checked: the secret was removed from the file; restore its secrets from a backup"
    )]
    SealedSeedMissing(u32),
    /// A seed the command publishes, in a file that keeps no seeds at all.
    #[error(
        "this campaign file does not keep dice epoch {epoch}'s seed{} (it was imported without secrets), and this command publishes it; restore the campaign from a backup, or import an export made with --with-secrets",
        if *sealed { " for sealed dice" } else { "" }
    )]
    SeedNotKept { epoch: u32, sealed: bool },
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error(transparent)]
    Players(#[from] players::Refused),
    #[error("{name} plays {plays}, and this is for {needs} characters")]
    WrongSystem {
        name: String,
        plays: String,
        needs: &'static str,
    },
    #[error("{0} is dead and can take no further action")]
    Dead(String),
    #[error("no one is able to rest")]
    NoOneToRest,
    #[error("{0} is not among those spending the weeks")]
    NotInDowntime(String),
    #[error("{name} is given more weeks than the span's {weeks}")]
    TooManyWeeks { name: String, weeks: u32 },
    /// Physical dice entered for a command that draws none.
    #[error("this command draws no dice, so the dice entered for it do not apply")]
    DiceUnused,
    /// Player entropy given for a command that rolled no seeded die to mix it into.
    #[error("this command rolled no seeded dice, so the player entropy given does not apply")]
    EntropyUnused,
    #[error(transparent)]
    System(AnyError),
}

/// One of a system's refusals, as the library's: a refusal the core's ports made, or the
/// system's own (`RuleError::System`).
pub fn refused<S: Registered>(refusal: Refusal<S::Error>) -> RuleError {
    match refusal {
        Refusal::Core(refused) => refused.into(),
        Refusal::Own(error) => RuleError::System(S::wrap_error(error)),
    }
}

/// A system's refusals turn into the library's with `?`: one pair of conversions for each system
/// of the registry's one declaration (`the_systems!`), generated here, where `RuleError` is, so the
/// registry names no rules.
macro_rules! refusals_of_each_system {
    ({} $( $(#[$only:meta])* $S:ident in $module:ident { $($_:tt)* }, )*) => {
        $(
            $(#[$only])*
            impl From<<crate::systems::$module::$S as SystemRules>::Error> for RuleError {
                fn from(error: <crate::systems::$module::$S as SystemRules>::Error) -> RuleError {
                    refused::<crate::systems::$module::$S>(Refusal::Own(error))
                }
            }

            $(#[$only])*
            impl From<Refusal<<crate::systems::$module::$S as SystemRules>::Error>> for RuleError {
                fn from(
                    refusal: Refusal<<crate::systems::$module::$S as SystemRules>::Error>,
                ) -> RuleError {
                    refused::<crate::systems::$module::$S>(refusal)
                }
            }
        )*
    };
}
crate::systems::registry::the_systems!([refusals_of_each_system] {});

impl From<crate::systems::contract::port::Refused> for RuleError {
    fn from(refused: crate::systems::contract::port::Refused) -> RuleError {
        use crate::systems::contract::port::Refused;
        match refused {
            Refused::UnknownCharacter { name, known } => {
                RuleError::UnknownCharacter { name, known }
            }
            Refused::ConfusableName { name, existing } => {
                RuleError::ConfusableName { name, existing }
            }
            Refused::WrongSystem { name, plays, needs } => {
                RuleError::WrongSystem { name, plays, needs }
            }
            Refused::Dead(name) => RuleError::Dead(name),
            Refused::NoHealth(name) => RuleError::NoHealth(name),
            Refused::InAFight(fight) => RuleError::InAFight(fight),
            Refused::NoSuchEvent(seq, head) => RuleError::NoSuchEvent(seq, head),
            Refused::NothingSealed(seq) => RuleError::NothingSealed(seq),
            Refused::SecretMissing { seq, n } => RuleError::SecretMissing { seq, n },
            Refused::SecretMismatch { seq, n } => RuleError::SecretMismatch { seq, n },
            Refused::Dice(error) => RuleError::Dice(error),
            Refused::Text(problem) => RuleError::Text(problem),
        }
    }
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; the campaign has no characters yet".to_string()
    } else {
        format!("; known: {}", known.join(", "))
    }
}
