//! Rules: pure `decide` functions. Each takes the replayed state, a command and the dice, validates
//! the command, and returns the events to append — or a [`RuleError`] and nothing.

pub mod adg;
pub mod campaign;
pub mod rest;
#[cfg(test)]
pub(crate) mod testkit;
pub mod text;
pub mod vsd;

use crate::dice::{Dice, DiceError, SeedContext};
use crate::state::CampaignState;
use rand::RngCore;
use thiserror::Error;

pub use campaign::{Command, decide};

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
                campaign_id: campaign.campaign_id.clone(),
                epoch: state.epoch,
                seq: state.head + 1,
                entropy: match (&state.open_session, &given) {
                    (Some(session), _) => session.entropy.clone(),
                    (None, Some(given)) => given.text.clone(),
                    (None, None) => String::new(),
                },
                witness_by: given.filter(|_| state.open_session.is_none()).map(|g| g.by),
            },
            rng,
        ),
        _ => Dice::without_seed(state.epoch.max(1), rng),
    }
}

/// Why the rules refuse a command. Every message says what was wrong and, where it helps, what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    #[error("this file already holds the campaign \"{0}\"; use another --db to start a new one")]
    AlreadyCreated(String),
    #[error("the log has no campaign yet; create one with `grimoire init --name NAME`")]
    NoCampaign,
    #[error("no character named '{name}'{}", known_list(known))]
    UnknownCharacter { name: String, known: Vec<String> },
    #[error("a character named '{0}' already exists; names are unique, ignoring case")]
    DuplicateCharacter(String),
    #[error("a character needs a name")]
    EmptyName,
    #[error("the {0} must be one line: no line breaks, tabs or other control characters")]
    TextNotOneLine(&'static str),
    #[error("the '{kind}' event cannot be recorded: {why}")]
    Unrecordable { kind: &'static str, why: String },
    #[error(
        "the {0} holds a character that reorders the text around it (a bidirectional control); type it without one"
    )]
    TextReorders(&'static str),
    #[error("the {0} is made only of invisible characters; give visible text")]
    TextInvisible(&'static str),
    #[error(
        "'{name}' looks just like the existing character '{existing}' (only case, invisible or look-alike letters differ); choose a name the table can tell apart"
    )]
    ConfusableName { name: String, existing: String },
    #[error("the {what} is {length} characters long; at most {max} are allowed")]
    TextTooLong {
        what: &'static str,
        length: usize,
        max: usize,
    },
    #[error("the sheet is not valid: {0}")]
    InvalidSheet(String),
    #[error("{0} has no health track (a VsD character gets one with --health when added)")]
    NoHealth(String),
    #[error("session {0} is still open; end it with `grimoire session end` first")]
    SessionOpen(u32),
    #[error(
        "session {0} is open: a seed is revealed between sessions, so the next epoch's dice mix in entropy given after its commitment; end the session with `grimoire session end` first"
    )]
    RevealInSession(u32),
    #[error(
        "session {0} is open, and its entropy already goes into every seeded die; --player-entropy is for rolls between sessions"
    )]
    EntropyInSession(u32),
    #[error("no session is open; start one with `grimoire session start`")]
    NoSessionOpen,
    #[error("#{0} is not in the log (the log ends at #{1})")]
    NoSuchEvent(u64, u64),
    #[error("#{0} is already retracted ({1})")]
    AlreadyRetracted(u64, String),
    #[error(
        "#{seq} is a '{kind}' event, which cannot be retracted: the campaign's sessions, dice epochs, reveals and retractions must stay in force"
    )]
    NotRetractable { seq: u64, kind: String },
    #[error("a retraction needs a reason, so the table knows why")]
    EmptyReason,
    #[error("#{0} has no sealed dice awaiting a reveal")]
    NothingSealed(u64),
    #[error(
        "the GM's secret for #{seq} die {n} does not open its commitment; the secrets table does not match the log"
    )]
    SecretMismatch { seq: u64, n: u32 },
    #[error(
        "the GM's secrets hold no value for #{seq} die {n} (was this file imported without secrets?)"
    )]
    SecretMissing { seq: u64, n: u32 },
    #[error(
        "the stored seed of epoch {0} does not match its published commitment; the secrets table does not match the log"
    )]
    SeedMismatch(u32),
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("the tables are not valid: {0}")]
    InvalidTables(String),
    #[error(
        "no A Dungeon Game tables are loaded yet; add an ADG character or `grimoire tables load FILE`"
    )]
    NoAdgTables,
    #[error("{name} plays {plays}; this is {needs} command")]
    WrongSystem {
        name: String,
        plays: String,
        needs: &'static str,
    },
    #[error(
        "{name} has dice pending from reading scroll S{scroll}; roll them first with `grimoire scroll resolve {name}`"
    )]
    RollPending { name: String, scroll: u64 },
    #[error("{0} has no dice pending from a scroll")]
    NothingPending(String),
    #[error("{0} is dead and can take no further action")]
    Dead(String),
    #[error("exerting {amount} {attribute} would leave it below 1 (it is {current} now); at most {} can be exerted", current.saturating_sub(1))]
    ExertionTooHigh {
        attribute: String,
        current: u32,
        amount: u32,
    },
    #[error(
        "this would be {name}'s ritual number {beyond} beyond today's safe number, which costs {beyond} Cunning before the roll, and {name} has {cunning} Cunning (at least 1 must remain); a night's rest (`grimoire rest {name} --night`) resets the count"
    )]
    BeyondSafeRituals {
        name: String,
        beyond: u32,
        cunning: u32,
    },
    #[error("{name} already knows {ritual}")]
    AlreadyKnown { name: String, ritual: String },
    #[error("{ritual} is lost to {name} forever: a failed learning roll can never be retried")]
    LostForever { name: String, ritual: String },
    #[error(
        "say what kind of ritual it is with --type phrase|sigil|ceremony (or, for a spell from another game, give --spell-level, --cast-time and --duration)"
    )]
    RitualKindNeeded,
    #[error(
        "{name} does not know a ritual called '{ritual}'{}",
        known_rituals(known)
    )]
    UnknownRitual {
        name: String,
        ritual: String,
        known: Vec<String>,
    },
    #[error("{0} is locked out of rituals until a night's rest (`grimoire rest NAME --night`)")]
    LockedOut(String),
    #[error("{0} moved this round, and cannot also cast a ritual")]
    MovedThisRound(String),
    #[error("{0} is a spell from another game and is cast only as written: it cannot be reversed")]
    NotReversible(String),
    #[error("the word '{0}' has no reversed form in the word lists")]
    NoReverse(String),
    #[error("no one is able to rest")]
    NoOneToRest,
    #[error("{0} plays A Dungeon Game, where rest comes by the night: use --night")]
    AdgRestsByNight(String),
    #[error("{name} can write scrolls of level 1 to {max} (their Adventurer Level), not {level}")]
    ScrollLevel { name: String, level: u32, max: u32 },
    #[error("{name} has {has} silver but the scroll costs {cost}")]
    NotEnoughSilver { name: String, has: u64, cost: u64 },
    #[error(
        "--pre-exert only applies to scrolls of Ceremonies, which are the only ones with a check"
    )]
    NothingToExertFor,
    #[error("there is no scroll S{0}; `grimoire scroll list` shows them")]
    NoSuchScroll(u64),
    #[error("scroll S{id} is {state} and can never be used again")]
    ScrollUnusable { id: u64, state: String },
    #[error("scroll S{id} is held by {holder}")]
    ScrollNotHeld { id: u64, holder: String },
    #[error("{name} already knows {spell}")]
    SpellKnown { name: String, spell: String },
    #[error("{name} has no Spell Lore '{lore}'{}", if lores.is_empty() { "; they have none".to_string() } else { format!("; their lores: {}", lores.join(", ")) })]
    UnknownLore {
        name: String,
        lore: String,
        lores: Vec<String>,
    },
    #[error(
        "{spell} is a bolt or area spell, whose attack reaches 30 m; the target at {distance} is out of range"
    )]
    OutOfReach { spell: String, distance: String },
    #[error("the spell is not valid: {0}")]
    InvalidSpell(String),
    #[error("{name} does not know a spell called '{spell}'{}", if known.is_empty() { String::new() } else { format!("; they know: {}", known.join(", ")) })]
    UnknownSpell {
        name: String,
        spell: String,
        known: Vec<String>,
    },
    #[error("{0} is instantaneous: it gains nothing from concentration")]
    InstantaneousNeedsNoConcentration(String),
    #[error(
        "{0} has already acted this round (one spell or round of concentration per round); advance the clock with `grimoire time advance 1r`"
    )]
    RoundUsed(String),
    #[error("{0} is not concentrating")]
    NotConcentrating(String),
    #[error(
        "{0} has a choice to make first; `grimoire character show` lists it, `grimoire choose` makes it"
    )]
    ChoicePending(String),
    #[error("{name} cannot act while {condition}")]
    CannotAct { name: String, condition: String },
    #[error("{0} cannot see the target, and a spell needs a target in sight")]
    CannotSee(String),
    #[error("{0} cannot speak, and a spell's words must be spoken")]
    CannotSpeak(String),
    #[error("{name} has {has} MP but the spell costs {cost}")]
    NotEnoughMp { name: String, has: u32, cost: u32 },
    #[error(
        "{spell} is Weave {weave}, above Level {level}: overcast it with --overcast ritual --with NAMES or --overcast sacrifice"
    )]
    WeaveAboveLevel {
        spell: String,
        weave: u32,
        level: u32,
    },
    #[error("{spell} is Weave {weave}, within Level {level}: there is nothing to overcast")]
    NoNeedToOvercast {
        spell: String,
        weave: u32,
        level: u32,
    },
    #[error("only Wizards and Animists can overcast; {name} is a {vocation}")]
    CannotOvercast { name: String, vocation: String },
    #[error(
        "{name} has {ranks} ranks in {lore}; overcasting a Weave {weave} spell needs at least {weave}"
    )]
    TooFewRanks {
        name: String,
        lore: String,
        ranks: u32,
        weave: u32,
    },
    #[error("{0} has no Drive left to spend")]
    NoDrive(String),
    #[error("a magic ritual needs other casters who know the spell: {0}")]
    RitualParticipants(String),
    #[error("{0} has no choice to make")]
    NothingToChoose(String),
    #[error("that is not a choice {name} can make now; pending: {pending}")]
    InvalidChoice { name: String, pending: String },
    #[error("#{0} is not a spell casting")]
    NotACast(u64),
    #[error("no save against #{seq}: {why}")]
    NoSaveNeeded { seq: u64, why: String },
    #[error("give the target's Willpower save bonus with --wsr N ({0} is not a VsD character)")]
    WsrNeeded(String),
    #[error(
        "the optional Sever the Thread rule is off; the GM turns it on with `grimoire setting sever-the-thread on`"
    )]
    SeverOff,
    #[error("{0} faces no resonance roll to sever")]
    NoResonance(String),
    #[error("{name} has {drive} Drive: a change of {delta:+} would take it below 0 (or is zero)")]
    DriveBelowZero {
        name: String,
        drive: u32,
        delta: i64,
    },
    #[error("{name} is not {condition} now")]
    NoSuchCondition { name: String, condition: String },
}

fn known_rituals(known: &[String]) -> String {
    if known.is_empty() {
        "; they know no rituals yet".to_string()
    } else {
        format!("; they know: {}", known.join(", "))
    }
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; the campaign has no characters yet (add one with `grimoire character add`)".to_string()
    } else {
        format!("; known: {}", known.join(", "))
    }
}
