//! Why Against the Darkmaster's rules refuse a command. Every message says what was wrong and, where it helps,
//! what to do.

use crate::seq::Seq;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VsdError {
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
    #[error("a magic ritual needs its other casters")]
    RitualWithoutCasters,
    #[error("other casters join only a magic ritual; a sacrifice is the caster's alone")]
    CastersWithoutRitual,
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
        "{0} has already acted this round (one spell or round of concentration per round, or two instantaneous spells, each half an action)"
    )]
    RoundUsed(String),
    #[error(
        "{0} is not instantaneous: only an instantaneous spell may be cast out of turn, in response to an event"
    )]
    OutOfTurnNotInstantaneous(String),
    #[error("{0} is not concentrating")]
    NotConcentrating(String),
    #[error(
        "{0} has no bolt waiting for its attack roll (one fires after a failed cast, held or struck at another target)"
    )]
    NoAttackDue(String),
    #[error("{name} owes the attack rolls of {}: name the one to roll with --cast SEQ", owed.join(" and "))]
    WhichAttack { name: String, owed: Vec<String> },
    #[error("{name} owes no attack roll for the cast #{cast}; they owe {}", owed.join(" and "))]
    NotThatAttack {
        name: String,
        cast: Seq,
        owed: Vec<String>,
    },
    #[error(
        "{name}'s Defense is on their sheet ({defense}); --defense is for a target with no Defense on a sheet here"
    )]
    DefenseOfTheirOwn { name: String, defense: i64 },
    #[error("{0} has a choice to make first")]
    ChoicePending(String),
    #[error("{name} cannot act while {condition}")]
    CannotAct { name: String, condition: String },
    #[error(
        "{name} is stunned, so cannot {doing}: only concentration on a spell held to fire goes on through a stun, which ends at the end of the round after it began"
    )]
    Stunned { name: String, doing: &'static str },
    #[error("{0} cannot see the target, and a spell needs a target in sight")]
    CannotSee(String),
    #[error("{0} cannot speak, and a spell's words must be spoken")]
    CannotSpeak(String),
    #[error("{name} has {has} MP but the spell costs {cost}")]
    NotEnoughMp { name: String, has: u32, cost: u32 },
    #[error("{spell} is Weave {weave}, above Level {level}")]
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
    #[error("a magic ritual needs other casters who know the spell and can join it: {0}")]
    RitualParticipants(String),
    #[error("{0} has no choice to make")]
    NothingToChoose(String),
    #[error("that is not a choice {name} can make now; pending: {pending}")]
    InvalidChoice { name: String, pending: String },
    #[error("nothing to change: {0}")]
    SettingUnchanged(String),
    #[error("{0}'s failed spell strikes another target, but none is named")]
    OtherTargetUnnamed(String),
    #[error("a target is named only when the failed spell strikes another (other-target)")]
    TargetWithoutOtherTarget,
    #[error(
        "{0} cannot be struck by their own failed spell below a failure of 126; name someone else in range"
    )]
    CasterNotStruckBelow126(String),
    #[error("{0} is dead; a spell cannot strike them")]
    TargetDead(String),
    #[error("{0} is the target the spell was cast at; another target is someone else in range")]
    SameTarget(String),
    #[error("#{seq} cannot be the Assessment Roll: {why}")]
    NotAnAssessmentRoll { seq: Seq, why: String },
    #[error("#{0} is not a spell casting")]
    NotACast(Seq),
    #[error("#{0} was retracted: that cast never happened, so nothing can be saved against it")]
    CastRetracted(Seq),
    #[error("no save against #{seq}: {why}")]
    NoSaveNeeded { seq: Seq, why: String },
    #[error(
        "{0} is not an Against the Darkmaster character here, so the save needs their Willpower save bonus"
    )]
    WsrNeeded(String),
    #[error(
        "{name} saves with their own Willpower save bonus ({wsr:+}), which a bonus given for the save would replace"
    )]
    WsrOfTheirOwn { name: String, wsr: i64 },
    #[error("the optional Sever the Thread rule is off")]
    SeverOff,
    #[error("{0} faces no resonance roll to sever")]
    NoResonance(String),
    #[error("{name} has {drive} Drive, and a change of {delta:+} {}", drive_change_words(*drive, *delta))]
    DriveOutOfRange {
        name: String,
        drive: u32,
        delta: i64,
    },
    #[error("{name} is not {condition} now")]
    NoSuchCondition { name: String, condition: String },
}

/// Why a change of Drive is refused: it changes nothing, or leaves the 0 to 99 a sheet holds.
fn drive_change_words(drive: u32, delta: i64) -> String {
    if delta == 0 {
        "changes nothing".into()
    } else {
        let after = i64::from(drive).saturating_add(delta);
        let bound = if after < 0 { "below 0" } else { "above 99" };
        format!("would take it {bound}")
    }
}
