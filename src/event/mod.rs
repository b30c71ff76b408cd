//! Events: the facts the log records. Adding a variant is fine; changing the shape of a shipped one is
//! not (old logs must still read): give it a new variant, or an upcaster in [`Event::from_stored`].

mod asked;
mod by_kind;
pub mod canonical;
mod differences;

// Each system's events are its own (src/systems/); the core names them by these short paths.
use crate::ids::{DeviceId, RequestId};
use crate::seq::Seq;
use crate::systems::contract::event::Downtime;
use crate::systems::registry::{AnyEvent, Rest, on_system};

pub use crate::systems::contract::event::SystemEvent;
pub(crate) use crate::systems::contract::event::event_enum;
pub use crate::words::{Words, fold_name, folds_to};
pub use asked::AskedCommand;
pub use by_kind::{kinds, kinds_by_system, kinds_since, kinds_with_dice};
pub use differences::differences;

use crate::dice::{DiceExpr, Die};
use crate::sheet::Sheet;
use crate::time::{GameDuration, GameTime};
use serde::{Deserialize, Serialize};

/// The payload schema version this build writes for every kind. Versions 2 to 4 changed no shape:
/// 2 marks events recorded under the text rules (`text::check_row`), which import holds them to;
/// 3 marks a roll put to a phone under the acting rule (C-5: the acting character is one its
/// player plays), which both checkers hold it to; 4 marks payloads in the canonical form
/// ([`canonical`], docs/export.md); 5 marks the events that may name an epoch's second seed, the
/// one for sealed dice ([`SEALED_SEED_SINCE`]), and a bolt's attack roll owed after a failed cast
/// (Against the Darkmaster's own); 6 brings a player's choice made on their phone
/// (`choice_answered`, [`PLAYERS_CHOICES_SINCE`]); 7 marks the commands that read an earlier
/// event (a save its cast) reading it as amended ([`READS_AMENDED_SINCE`]). Older events are
/// judged as the grimoire that wrote them judged them.
pub const SCHEMA_VERSION: u32 = 7;

/// The first version whose events import holds to the text rules.
pub const TEXT_RULES_SINCE: u32 = 2;

/// The first version whose rolls put to a phone name an acting character its player plays (C-5);
/// before it, a player's roll might name any value but another player's character.
pub const ACTING_RULE_SINCE: u32 = 3;

/// The first version every grimoire writing it named the derivation of each dice epoch it began
/// (the second, bound to roll numbers, came in while version 2 was written): an epoch of a later
/// row without one was written by hand.
pub const DERIVATION_NAMED_SINCE: u32 = 3;

/// The first version every grimoire writing it sealed an open-ended chain whole, as one die (it
/// came in while version 2 was written, and some grimoire may have sealed a die a face before).
pub const SEALED_WHOLE_SINCE: u32 = 3;

/// The first version every grimoire writing it refused to amend a roll a player's device made (an
/// answered roll is final: it came in while version 2 was written).
pub const ANSWERED_ROLL_FINAL_SINCE: u32 = 3;

/// The first version whose payloads both checkers hold to the canonical form (docs/export.md):
/// whole numbers in plain digits, each key once, hex fields in lower case.
pub const CANONICAL_SINCE: u32 = 4;

/// The first version whose epochs may commit to a second seed for their sealed dice
/// (`sealed_commitment`) and publish it (`sealed_seed_revealed`). Before it grimoire passed over a
/// `sealed_commitment` key as one no event has, and knew no `sealed_seed_revealed` kind: an older
/// event is read so still.
pub const SEALED_SEED_SINCE: u32 = 5;

/// The first version in which a player may make a choice the rules left them on their phone
/// (`choice_answered`): no grimoire wrote the kind before.
pub const PLAYERS_CHOICES_SINCE: u32 = 6;

/// The first version whose commands read an earlier event they answer as the campaign holds it
/// in force: a save against a cast amended to another difficulty answers the amended one. Before
/// it they read the event as first recorded, and `verify` decides their phones' answers so.
pub const READS_AMENDED_SINCE: u32 = 7;

/// The oldest version whose payload shapes are today's: read directly, with no upcaster.
const SAME_SHAPES_SINCE: u32 = 1;

event_enum! {
    /// What the log records: the campaign's own facts, and each rule system's.
    // A system's events are as large as they always were; boxing them would cost an allocation
    // for each one replay reads, and events are held one at a time.
    #[allow(clippy::large_enum_variant)]
    Event / EventOfKind = "Event" {
    /// The first event of every log.
    CampaignCreated {
        campaign_id: String,
        name: String,
        /// SHA-256 of dice epoch 1's secret seed.
        seed_commitment: String,
        grimoire_version: String,
        /// How epoch 1's seeded dice are derived: 2 binds each to its command's roll number
        /// (README, "Checking a roll yourself"); absent in logs begun before it, whose dice are
        /// bound to their event's seq.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        derivation: Option<u32>,
        /// SHA-256 of epoch 1's second secret seed, the one its sealed seeded dice are derived
        /// from (README, "A seed and the sealed dice it made"); absent in logs begun before it,
        /// whose sealed dice come from the epoch's one seed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sealed_commitment: Option<String>,
    },
    CharacterAdded {
        name: String,
        sheet: Sheet,
    },
    /// The sheet as entered, changed: a level gained, or the GM's correction. Each value the sheet
    /// holds moves the character's computed one by as much (a learning loss stays taken).
    SheetChanged {
        character: String,
        sheet: Sheet,
        reason: String,
        /// The sheet as entered before, so the log can say what changed (recorded since
        /// 2026-12-02; older events lack it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        was: Option<Sheet>,
    },
    /// The GM's correction of the sheet as entered (C-1): each computed value moves by as much as
    /// the entered one, what play has done kept as amounts (wounds, exertion, losses, silver and
    /// Drive spent), so a correction undone by another restores the sheet exactly. What the rules
    /// make of the result is recorded with it: a maximum brought to 0 kills (ADG-C4), a Body
    /// brought to 0 or below consumes (VSD-12). `sheet_changed` events before it keep their own
    /// reading.
    SheetCorrected {
        character: String,
        sheet: Sheet,
        reason: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dies: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        consumed: bool,
        /// The sheet as entered before (as in `sheet_changed`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        was: Option<Sheet>,
    },
    DamageTaken {
        character: String,
        amount: u32,
        /// What dealt it, in a few words (recorded since 2026-12-02, when given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Healed {
        character: String,
        amount: u32,
        /// What healed it, in a few words (when given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    ClockAdvanced {
        by: GameDuration,
    },
    SessionStarted {
        number: u32,
        /// Player-chosen text mixed into every seeded die of the session.
        entropy: String,
    },
    SessionEnded {
        number: u32,
    },
    /// A free roll (`grimoire roll`), public or sealed.
    DiceRolled {
        expression: DiceExpr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        purpose: Option<String>,
        dice: Vec<Die>,
        /// Absent while the roll is sealed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<i64>,
        /// The character the roll was for (`roll --character`), so the log finds it under them.
        /// Added after the first rolls were stored: absent, a stored roll reads exactly as before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<String>,
    },
    /// Opens the sealed dice of the event at `seq`.
    SealedRevealed {
        seq: Seq,
        dice: Vec<RevealedDie>,
    },
    /// Undoes the event at `seq`; replay skips it from here on. Both stay in the log. Undoing a
    /// retraction restores what it undid.
    Retracted {
        seq: Seq,
        reason: String,
        /// When the event undone rolled dice: what it was, so the next roll like it is marked as
        /// made again after a retraction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<RetractedRoll>,
        /// When the event undone is itself a retraction: the event this brings back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restores: Option<Seq>,
    },
    /// Fixes the inputs of the event at `seq` without rolling again (C-3): `event` is its command
    /// decided anew with the corrected inputs, on the state just before it and with its very dice,
    /// and replay puts it in that event's place. Undoing this brings the original back.
    Amended {
        seq: Seq,
        #[serde(deserialize_with = "amending_event")]
        event: Box<Event>,
        /// What differs from the original, a field at a time ("ob: 55 → 65").
        changed: Vec<String>,
        /// Whether it changes what the original left in the campaign (a sheet, an effect, the
        /// clock), not just the words of the record.
        outcome_changed: bool,
    },
    /// Publishes an epoch's seed so anyone can re-derive its dice (in an epoch with a seed for
    /// sealed dice, its dice that were never sealed).
    SeedRevealed {
        epoch: u32,
        seed: String,
    },
    /// Publishes the second seed of an epoch that has one, from which its sealed seeded dice were
    /// derived: at `seed reveal` when none of them waits to be revealed, or later with the reveal
    /// of the last of them.
    SealedSeedRevealed {
        epoch: u32,
        seed: String,
    },
    /// An epoch with one seed ended but its seed stays secret: sealed dice derived from it are
    /// still pending (a Ceremony scroll may wait months to be read), and publishing the seed would
    /// open them. The reveal of the last of them publishes the seed. Epochs begun since sealed
    /// dice have a seed of their own never withhold their main seed.
    SeedWithheld {
        epoch: u32,
        /// The events whose sealed dice hold the seed back.
        until: Vec<Seq>,
    },
    /// Starts a new dice epoch; follows a seed reveal (or a withheld seed) in the same write.
    EpochStarted {
        epoch: u32,
        seed_commitment: String,
        /// As [`Event::CampaignCreated`]'s, for this epoch.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        derivation: Option<u32>,
        /// As [`Event::CampaignCreated`]'s, for this epoch.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sealed_commitment: Option<String>,
    },
    /// A fight begins (T-3): its round 1 starts at the clock as it stands.
    FightStarted {
        /// The campaign's count of fights, this one included.
        number: u32,
        /// Where or what it is, as it reads after "the fight" ("at the bridge"), when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The fight's next round begins: the clock moves on by one round (T-3).
    RoundBegan {
        /// The fight's own words ("the fight at the bridge"), as they were when it was recorded.
        fight: String,
        /// The round that begins, counted from the fight's first.
        round: u32,
    },
    /// The fight ends: its last round runs out, so the clock moves on by one round (T-3).
    FightEnded {
        fight: String,
        /// How many rounds it lasted.
        rounds: u32,
    },
    /// A rest for one or more characters (T-2): what each one's system gives them (ADG-C5,
    /// ADG-R9, VSD-6).
    Rested(Rest),
    /// A span of downtime weeks, one activity a week for each character in it (ADG-C5, T-2).
    DowntimeTaken(Downtime),
    /// A player's device given a link to the campaign for the characters they play (C-4). The
    /// link's token is kept only as a hash among the GM's secrets, never in the log.
    DeviceLinked {
        /// The campaign's count of devices linked, this one included: how requests name it.
        device: DeviceId,
        player: String,
        characters: Vec<String>,
    },
    /// A device's link revoked (C-4): it opens nothing from here on, and answers nothing.
    DeviceUnlinked {
        device: DeviceId,
    },
    /// A roll put to a player's device (C-5): `asked` is the command it completes, decided when the
    /// device answers with the dice it makes. `commitment` is SHA-256 of the GM side's secret for
    /// this request, published by the answer.
    RollRequested {
        /// The campaign's count of requests, this one included.
        request: RequestId,
        device: DeviceId,
        commitment: String,
        asked: AskedCommand,
        /// The GM's own roll, witnessed: the device adds its bytes without anyone tapping (C-6).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        witnessed: bool,
    },
    /// The device's answer (C-5): its bytes and the secret they meet, both in lowercase hex. The
    /// asked command's events follow it in the same write; when the rules refused the command
    /// then, `refused` says why and nothing follows.
    RollAnswered {
        request: RequestId,
        contribution: String,
        secret: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// An unanswered request withdrawn by the GM (C-5): no answer is taken for it any more.
    RollWithdrawn {
        request: RequestId,
    },
    /// A choice the rules left to a character's player (a failed cast's consequence, a
    /// success's extra), made by the player on their linked device (#47). `asked` is the system's
    /// command that makes it, as the device gave it; its events follow in the same write. No dice
    /// come from the device and no secret is kept: what the choice rolls (a resonance roll) is
    /// rolled as any command's dice are. Recorded by the player; the GM's own picks stay the GM's.
    ChoiceAnswered {
        device: DeviceId,
        asked: AskedCommand,
    },
}
nested {
    /// A rule system's events: each system declares its own kinds.
    #[serde(untagged)]
    System(AnyEvent),
}
}

pub use crate::dice::sealed::RevealedDie;

/// System `S`'s own events among those recorded, each with its seq.
pub fn own_events<S: crate::systems::registry::Registered>(
    recorded: &[Recorded],
) -> Vec<(Seq, &S::Event)> {
    recorded
        .iter()
        .filter_map(|r| match &r.event {
            Event::System(any) => S::event(any).map(|event| (r.seq, event)),
            _ => None,
        })
        .collect()
}

/// One step that rewrites a stored payload of `kind` from version `from` to `from + 1`, so old logs
/// keep reading after an event's shape changes.
pub struct Upcaster {
    pub kind: &'static str,
    pub from: u32,
    pub step: fn(serde_json::Value) -> serde_json::Value,
}

/// The upcasters this build applies to old payloads. Empty while every shipped kind is at version 1;
/// when a shape changes, its step goes here with SCHEMA_VERSION raised.
pub const UPCASTERS: &[Upcaster] = &[];

/// What serde_json found wrong in a text read as JSON, in grimoire's words: the field (by its path,
/// when known), what it holds and what belongs there, and the line and column.
pub fn json_problem_in_words(error: &serde_json::Error, field: Option<&str>) -> String {
    let place = if error.line() == 0 {
        String::new()
    } else {
        format!(" (line {}, column {})", error.line(), error.column())
    };
    format!("{}{place}", crate::text::json_problem(error, field))
}

/// Brings a payload of `kind` from version `from` up to `to`, one step at a time.
pub fn upcast(
    kind: &str,
    from: u32,
    to: u32,
    mut value: serde_json::Value,
    upcasters: &[Upcaster],
) -> Result<serde_json::Value, PayloadError> {
    for version in from..to {
        let step = upcasters
            .iter()
            .find(|u| u.kind == kind && u.from == version)
            .ok_or_else(|| PayloadError::Unreadable {
                kind: kind.to_string(),
                detail: format!("no upcaster from version {version}"),
            })?;
        value = (step.step)(value);
    }
    Ok(value)
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("its payload is not a readable '{kind}' event: {detail}")]
    Unreadable { kind: String, detail: String },
    #[error(
        "it is a '{kind}' event of payload version {version}, newer than this grimoire reads (up to {SCHEMA_VERSION}); upgrade grimoire"
    )]
    Newer { kind: String, version: u32 },
    #[error("its kind column says '{column}' but its payload says '{payload}'")]
    KindMismatch { column: String, payload: String },
}

/// The event an amendment carries, read only from a JSON object, as every payload is.
fn amending_event<'de, D: serde::Deserializer<'de>>(from: D) -> Result<Box<Event>, D::Error> {
    crate::text::from_object(from, "an event written as a group of fields")
}

impl<'de> crate::text::ReadFields<'de> for Box<Event> {
    fn read_fields<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        Deserialize::deserialize(from)
    }
}

impl Event {
    /// The stable name stored in the `kind` column (the same as the payload's `kind` field).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::CampaignCreated { .. } => "campaign_created",
            Event::CharacterAdded { .. } => "character_added",
            Event::SheetChanged { .. } => "sheet_changed",
            Event::SheetCorrected { .. } => "sheet_corrected",
            Event::DamageTaken { .. } => "damage_taken",
            Event::Healed { .. } => "healed",
            Event::ClockAdvanced { .. } => "clock_advanced",
            Event::SessionStarted { .. } => "session_started",
            Event::SessionEnded { .. } => "session_ended",
            Event::DiceRolled { .. } => "dice_rolled",
            Event::SealedRevealed { .. } => "sealed_revealed",
            Event::Retracted { .. } => "retracted",
            Event::Amended { .. } => "amended",
            Event::SeedRevealed { .. } => "seed_revealed",
            Event::SealedSeedRevealed { .. } => "sealed_seed_revealed",
            Event::SeedWithheld { .. } => "seed_withheld",
            Event::EpochStarted { .. } => "epoch_started",
            Event::FightStarted { .. } => "fight_started",
            Event::RoundBegan { .. } => "round_began",
            Event::FightEnded { .. } => "fight_ended",
            Event::Rested(_) => "rested",
            Event::DowntimeTaken(_) => "downtime_taken",
            Event::DeviceLinked { .. } => "device_linked",
            Event::DeviceUnlinked { .. } => "device_unlinked",
            Event::RollRequested { .. } => "roll_requested",
            Event::RollAnswered { .. } => "roll_answered",
            Event::RollWithdrawn { .. } => "roll_withdrawn",
            Event::ChoiceAnswered { .. } => "choice_answered",
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.kind()),
        }
    }

    /// The compact JSON stored as the payload.
    pub fn to_payload(&self) -> String {
        serde_json::to_string(self).expect("events serialise: every field is plain data")
    }

    /// Reads a stored payload of the given kind and version, upcasting older versions to today's shape.
    pub fn from_stored(
        kind: &str,
        schema_version: u32,
        payload: &str,
    ) -> Result<Event, PayloadError> {
        if schema_version > SCHEMA_VERSION {
            return Err(PayloadError::Newer {
                kind: kind.to_string(),
                version: schema_version,
            });
        }
        let unreadable = |detail: String| PayloadError::Unreadable {
            kind: kind.to_string(),
            detail,
        };
        // No grimoire wrote a payload that is not an object; serde's general path would read a
        // list of an event's values as that event, which the page's check rightly refuses.
        if !payload
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with('{')
        {
            return Err(unreadable("it is not a JSON object".into()));
        }
        let event: Event = if schema_version >= SAME_SHAPES_SINCE {
            by_kind::read_current(kind, schema_version, payload)
                .map_err(|_| unreadable(by_kind::why_unreadable(kind, payload)))?
        } else {
            let value =
                serde_json::from_str(payload).map_err(|e| unreadable(by_kind::said_plainly(&e)))?;
            let value = upcast(kind, schema_version, SCHEMA_VERSION, value, UPCASTERS)?;
            serde_json::from_value(value).map_err(|e| unreadable(by_kind::said_plainly(&e)))?
        };
        if event.kind() != kind {
            return Err(PayloadError::KindMismatch {
                column: kind.to_string(),
                payload: event.kind().to_string(),
            });
        }
        if schema_version < SCHEMA_VERSION {
            return as_written_in(event, schema_version).map_err(unreadable);
        }
        Ok(event)
    }

    /// The commitment to the second seed of the epoch this event begins, if it begins one that has
    /// one: that epoch's sealed seeded dice are derived from the second seed.
    pub fn sealed_commitment(&self) -> Option<&str> {
        match self {
            Event::CampaignCreated {
                sealed_commitment, ..
            }
            | Event::EpochStarted {
                sealed_commitment, ..
            } => sealed_commitment.as_deref(),
            _ => None,
        }
    }

    /// Whether the event concerns the character (folded name), for `log --character`.
    pub fn concerns(&self, folded: &str) -> bool {
        self.mentions(&mut |name| folds_to(name, folded))
    }

    /// Whether `is` holds for a character the event names, asked of each name in turn until it
    /// does (so an `is` that never holds sees every name).
    pub fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            Event::CharacterAdded { name, .. } => is(name),
            Event::SheetChanged { character, .. } | Event::SheetCorrected { character, .. } => {
                is(character)
            }
            Event::DamageTaken { character, .. } | Event::Healed { character, .. } => is(character),
            Event::Rested(rest) => rest.characters().into_iter().any(is),
            Event::DowntimeTaken(d) => d.characters.iter().any(|c| is(&c.character)),
            Event::DiceRolled { character, .. } => character.as_deref().is_some_and(is),
            Event::Amended { event, .. } => event.mentions(is),
            // The campaign's bookkeeping names no character (nor do the players' devices and
            // requests: the events an answer records name whom they concern).
            Event::CampaignCreated { .. }
            | Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            | Event::ChoiceAnswered { .. }
            | Event::ClockAdvanced { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::SealedRevealed { .. }
            | Event::Retracted { .. }
            | Event::SeedRevealed { .. }
            | Event::SealedSeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. }
            | Event::FightStarted { .. }
            | Event::RoundBegan { .. }
            | Event::FightEnded { .. } => false,
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.mentions(is)),
        }
    }

    /// The earlier event whose roll this one answers, as its rule system says (a save against a
    /// cast): an amendment keeps it.
    pub fn answers(&self) -> Option<Seq> {
        match self {
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.answers()),
            _ => None,
        }
    }

    /// The earlier event this one undoes, amends or opens, which only an earlier one can be: a log
    /// where one names itself or a later one was forged (and would send a chain of retractions
    /// round in a circle).
    pub fn names_event(&self) -> Option<Seq> {
        match self {
            Event::Retracted { seq, .. }
            | Event::Amended { seq, .. }
            | Event::SealedRevealed { seq, .. } => Some(*seq),
            _ => None,
        }
    }

    /// The actions the event is in its round (T-3): one character's, several (a VsD ritual's
    /// participants), or none.
    pub fn actions(&self) -> Vec<crate::systems::contract::event::Action<'_>> {
        match self {
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.actions()),
            _ => Vec::new(),
        }
    }

    /// Every die the event holds, in draw order. `verify` checks them without knowing each kind.
    /// Whether the rules record it only after another event of the same command that holds dice
    /// (see [`SystemEvent::continues_its_command`]).
    pub fn continues_its_command(&self) -> bool {
        match self {
            Event::System(event) => {
                on_system!(event, AnyEvent, |S, event| event.continues_its_command())
            }
            Event::CampaignCreated { .. }
            | Event::CharacterAdded { .. }
            | Event::SheetChanged { .. }
            | Event::SheetCorrected { .. }
            | Event::DamageTaken { .. }
            | Event::Healed { .. }
            | Event::ClockAdvanced { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::DiceRolled { .. }
            | Event::SealedRevealed { .. }
            | Event::Retracted { .. }
            | Event::Amended { .. }
            | Event::SeedRevealed { .. }
            | Event::SealedSeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. }
            | Event::FightStarted { .. }
            | Event::RoundBegan { .. }
            | Event::FightEnded { .. }
            | Event::Rested(_)
            | Event::DowntimeTaken(_)
            | Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            | Event::ChoiceAnswered { .. } => false,
        }
    }

    pub fn dice(&self) -> &[Die] {
        match self {
            Event::DiceRolled { dice, .. } | Event::Rested(Rest { dice, .. }) => dice,
            Event::DowntimeTaken(d) => &d.dice,
            Event::CampaignCreated { .. }
            | Event::CharacterAdded { .. }
            | Event::SheetChanged { .. }
            | Event::SheetCorrected { .. }
            | Event::DamageTaken { .. }
            | Event::Healed { .. }
            | Event::ClockAdvanced { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::SealedRevealed { .. }
            | Event::Retracted { .. }
            // Its dice are its original's, rolled once: counted there, checked against them.
            | Event::Amended { .. }
            | Event::SeedRevealed { .. }
            | Event::SealedSeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. }
            | Event::FightStarted { .. }
            | Event::RoundBegan { .. }
            | Event::FightEnded { .. }
            | Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            | Event::ChoiceAnswered { .. } => &[],
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.dice()),
        }
    }

    /// Whether a retraction may undo this event. The campaign's bookkeeping (its creation, sessions,
    /// dice epochs, reveals and retractions) must stay in force: the fairness check depends on it.
    pub fn is_retractable(&self) -> bool {
        match self {
            Event::CharacterAdded { .. }
            | Event::SheetChanged { .. }
            | Event::SheetCorrected { .. }
            | Event::DamageTaken { .. }
            | Event::Healed { .. }
            | Event::ClockAdvanced { .. }
            | Event::FightStarted { .. }
            | Event::RoundBegan { .. }
            | Event::FightEnded { .. }
            | Event::DiceRolled { .. }
            | Event::Rested(_)
            | Event::DowntimeTaken(_)
            // Undoing a retraction restores what it undid, an amendment its original.
            | Event::Retracted { .. }
            | Event::Amended { .. } => true,
            Event::CampaignCreated { .. }
            | Event::SessionStarted { .. }
            | Event::SessionEnded { .. }
            | Event::SealedRevealed { .. }
            | Event::SeedRevealed { .. }
            | Event::SealedSeedRevealed { .. }
            | Event::SeedWithheld { .. }
            | Event::EpochStarted { .. }
            // A request and its answer are the record of how dice were made: what the answer
            // recorded is retracted instead (C-5).
            | Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            // What the choice recorded is retracted instead, as with an answered roll.
            | Event::ChoiceAnswered { .. } => false,
            Event::System(event) => on_system!(event, AnyEvent, |S, event| event.is_retractable()),
        }
    }
}

/// An event of an older payload version as the grimoire that wrote it read it: of no kind a later
/// version brought ([`kinds_since`]); before [`SEALED_SEED_SINCE`], an epoch with no second seed
/// (a `sealed_commitment` key was one no event had). A rule system's events say their own.
fn as_written_in(mut event: Event, version: u32) -> Result<Event, String> {
    if let Some((_, since)) = kinds_since()
        .iter()
        .find(|&&(kind, since)| kind == event.kind() && version < since)
    {
        return Err(format!(
            "no grimoire wrote this kind before payload version {since}"
        ));
    }
    if let Event::System(system) = event {
        return Ok(Event::System(on_system!(system, AnyEvent, |S, own| {
            AnyEvent::from(SystemEvent::read_as_version(own, version)?)
        })));
    }
    if version >= SEALED_SEED_SINCE {
        return Ok(event);
    }
    match &mut event {
        Event::CampaignCreated {
            sealed_commitment, ..
        }
        | Event::EpochStarted {
            sealed_commitment, ..
        } => *sealed_commitment = None,
        _ => {}
    }
    Ok(event)
}

/// A retracted event that rolled dice: its kind and the characters it concerned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetractedRoll {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<String>,
}

/// An event's hash in the chain: SHA-256 as 64 lowercase hex characters. Only text of that form
/// becomes one, so an event read from the log carries hashes that are at least well formed
/// (whether they chain is `verify`'s to say).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct EventHash(String);

impl EventHash {
    /// `text` as a hash, if it is 64 lowercase hex characters.
    pub fn parse(text: &str) -> Option<EventHash> {
        let well_formed = text.len() == 64
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        well_formed.then(|| EventHash(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EventHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An event as the log holds it: the envelope around the payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub seq: Seq,
    pub event_id: String,
    pub schema_version: u32,
    pub game_time: GameTime,
    pub recorded_at: String,
    pub session: Option<u32>,
    pub actor: String,
    pub prev_hash: EventHash,
    pub hash: EventHash,
    pub event: Event,
}

#[cfg(test)]
mod tests;
