//! The campaign's own commands: characters, damage and healing, the clock, sessions, free rolls,
//! sealed reveals, retractions and dice epochs. The rule systems' commands build on these.

use super::RuleError;
use crate::dice::{Dice, SealedSecret, fairness};
use crate::event::{Event, RetractedRoll};
use crate::ids::RequestId;
use crate::seq::Seq;
use crate::sheet::Sheet;
use crate::state::{CampaignState, Character};
use crate::systems::contract::port::Decided;
use crate::systems::contract::rules::{Logged, Needs, SystemRules, open_seal};
use crate::systems::registry::{AnyCommand, Registered, SystemId, on_system};
use std::collections::BTreeMap;

mod commands;
mod in_force;
mod retract;
mod seeds;

pub use super::downtime::{DowntimeWeeks, PlannedWeek};
pub use super::rest::Resting;
pub use commands::{
    ClockAdvance, ClockReshaped, DiceRoll, FightStep, HealthChange, Retraction, SealedReveal,
    SessionStart,
};
pub use in_force::in_force;
use retract::retract;
pub use retract::{brought_back, named_by_last};
use seeds::reveal_sealed;
pub use seeds::{Released, holding_back, opens_by_reveal, seeds_released};

// A command lives for one call; its size does not matter, so its variants stay unboxed but for a
// system's.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    CreateCampaign {
        campaign_id: String,
        name: String,
        seed_commitment: String,
        sealed_commitment: String,
    },
    AddCharacter {
        name: String,
        sheet: Sheet,
    },
    /// The sheet as entered, changed: a level gained or the GM's correction (`sheet` whole, as it
    /// is to be; the command line builds it from the current one and the values given).
    ChangeSheet {
        character: String,
        sheet: Sheet,
        reason: String,
        /// The GM's correction (`character set`), recorded as `sheet_corrected`; a level gained is
        /// not.
        correction: bool,
    },
    Damage(HealthChange),
    Heal(HealthChange),
    AdvanceClock(ClockAdvance),
    Fight(FightStep),
    StartSession(SessionStart),
    EndSession,
    Roll(DiceRoll),
    RevealSealed(SealedReveal),
    Retract(Retraction),
    /// A rest for the named characters (everyone able to, when none is named).
    Rest(Resting),
    /// Downtime weeks for the named characters (everyone able to, when none is named).
    Downtime(DowntimeWeeks),
    /// A rule system's commands, decided by the system.
    System(AnyCommand),
    /// An earlier event's command decided again with corrected inputs and its own dice (C-3).
    Amend(super::amend::Amendment),
    /// `seed` is the current epoch's secret (attached from the GM's secrets inside the write;
    /// `None` when the secrets hold none); `next_commitment` commits to the next epoch's.
    RevealSeed {
        seed: Option<[u8; 32]>,
        /// The epoch's second seed, for its sealed dice, in an epoch that has one.
        sealed_seed: Option<[u8; 32]>,
        next_commitment: String,
        next_sealed_commitment: String,
    },
    /// A player's device linked for the characters they play (C-4). The front end mints the
    /// link's token and shows it once; only `token_hash` (SHA-256, hex) is kept, among the secrets.
    LinkDevice {
        player: String,
        characters: Vec<String>,
        /// Revoke the player's live link, if any, and link anew.
        replace: bool,
        token_hash: String,
    },
    /// A player's device link revoked (C-4).
    UnlinkDevice {
        player: String,
    },
    /// A roll put to a player's device (C-5), or the GM's roll their device witnesses (C-6).
    /// `commitment` is filled in inside the write, when the secret it binds is minted and kept.
    RequestRoll {
        player: String,
        asked: crate::event::AskedCommand,
        witnessed: bool,
        commitment: String,
    },
    /// An unanswered request withdrawn (C-5).
    WithdrawRoll {
        request: RequestId,
    },
}

/// What a command needs filled in from outside the rules before it is decided. The rules are pure,
/// so the GM's secrets and fresh identities travel in the command: `grimoire::Campaign` fills each
/// inside the write, and front ends leave these fields empty.
pub enum Input<'c> {
    /// The sealed dice recorded with the event at `seq`.
    SealedDice {
        seq: Seq,
        into: &'c mut Vec<SealedSecret>,
    },
    /// The seeds of the current dice epoch, its first and (in an epoch that has one) its second,
    /// for sealed dice (`None` when the secrets hold none).
    EpochSeed {
        into: &'c mut Option<[u8; 32]>,
        sealed_into: &'c mut Option<[u8; 32]>,
    },
    /// The commitments to the two new secret seeds of the epoch the command opens, the second for
    /// its sealed dice; the seeds themselves are kept with the secrets.
    NewEpochSeed {
        commitment: &'c mut String,
        sealed_commitment: &'c mut String,
    },
    /// A new campaign's identity, unique among campaigns.
    NewCampaignId { into: &'c mut String },
    /// What a retraction reads of the log: the event `--last` names (see [`named_by_last`]), its
    /// target, the event a retraction it targets undid, and the first roll after the target.
    Retraction(&'c mut Retraction),
    /// What an amendment reads of the log (see [`super::amend::AmendmentRead`]), and then the
    /// inputs of the command it decides again.
    Amendment(&'c mut super::amend::Amendment),
    /// The commitment to a new secret for a roll put to a device (C-5); the secret itself is kept
    /// with the GM's secrets, under the request's number.
    NewRequestSecret { commitment: &'c mut String },
    /// The event recorded at `seq`, with the in-game time it was recorded at, handed to `into`
    /// (which is not called when there is none).
    Event {
        seq: Seq,
        into: Box<dyn FnOnce(Event, crate::time::GameTime) + 'c>,
    },
}

/// A fight begun, moved on a round, or ended (T-3).
fn fight(state: &CampaignState, step: FightStep) -> Result<Event, RuleError> {
    match (step, &state.fight) {
        (FightStep::Start { .. }, Some(_)) => Err(RuleError::FightOn(fight_now(state))),
        (FightStep::Start { name }, None) => Ok(Event::FightStarted {
            number: state.fights_started + 1,
            // Spaces alone name nothing: the fight is then known by its number.
            name: name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()),
        }),
        (FightStep::NextRound | FightStep::End, None) => Err(RuleError::NoFight),
        (FightStep::NextRound, Some(on)) => Ok(Event::RoundBegan {
            fight: on.words(),
            round: on.round_at(state.clock).saturating_add(1),
        }),
        (FightStep::End, Some(on)) => Ok(Event::FightEnded {
            fight: on.words(),
            rounds: on.round_at(state.clock),
        }),
    }
}

/// The fight under way and its round, in words ("the fight at the bridge (round 3)").
pub(crate) fn fight_now(state: &CampaignState) -> String {
    state.fight_words().unwrap_or_default()
}

/// Where a command stands to an evening of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SessionEdge {
    Start,
    End,
}

/// Which dice epoch a command opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EpochOpened {
    /// The campaign's first.
    First,
    /// The one after the current epoch, whose seed is revealed.
    Next,
}

/// What recording a command involves besides deciding it: one row per command in
/// [`Command::policy`], so a new command states all of it in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Policy {
    draws_dice: bool,
    session_edge: Option<SessionEdge>,
    opens_epoch: Option<EpochOpened>,
}

const RECORDS_ONLY: Policy = Policy {
    draws_dice: false,
    session_edge: None,
    opens_epoch: None,
};

impl Command {
    fn policy(&self) -> Policy {
        match self {
            Command::CreateCampaign { .. } => Policy {
                opens_epoch: Some(EpochOpened::First),
                ..RECORDS_ONLY
            },
            Command::AddCharacter { .. }
            | Command::ChangeSheet { .. }
            | Command::Damage(_)
            | Command::Heal(_)
            | Command::AdvanceClock(_)
            | Command::Fight(_)
            | Command::RevealSealed(_)
            | Command::Retract(_)
            // Its dice are its original's, drawn again: it rolls none.
            | Command::Amend(_)
            // A request's dice are drawn when the device answers, in the answer's write.
            | Command::LinkDevice { .. }
            | Command::UnlinkDevice { .. }
            | Command::RequestRoll { .. }
            | Command::WithdrawRoll { .. } => RECORDS_ONLY,
            Command::StartSession(_) => Policy {
                session_edge: Some(SessionEdge::Start),
                ..RECORDS_ONLY
            },
            Command::EndSession => Policy {
                session_edge: Some(SessionEdge::End),
                ..RECORDS_ONLY
            },
            Command::Roll(_) | Command::Rest(_) | Command::Downtime(_) => Policy {
                draws_dice: true,
                ..RECORDS_ONLY
            },
            Command::RevealSeed { .. } => Policy {
                opens_epoch: Some(EpochOpened::Next),
                ..RECORDS_ONLY
            },
            Command::System(command) => Policy {
                draws_dice: on_system!(command, AnyCommand, |S, command| S::draws_dice(command)),
                ..RECORDS_ONLY
            },
        }
    }

    /// Whether deciding this command may draw dice. A command that never does refuses physical
    /// dice (`--rolls`) and players' entropy given for it, rather than ignore them.
    pub fn draws_dice(&self) -> bool {
        self.policy().draws_dice
    }

    /// Whether this command prints a checkpoint the players keep: then the whole log is verified
    /// first, and the command refused if anything fails.
    pub fn vouches_for_the_log(&self) -> bool {
        self.policy().session_edge == Some(SessionEdge::End)
    }

    /// Whether this command starts an evening's play: then every page of the storage is checked
    /// first, so damage no other command would read is found before play goes onto it.
    pub fn checks_the_storage_first(&self) -> bool {
        self.policy().session_edge == Some(SessionEdge::Start)
    }

    /// The dice epoch this command opens, whose new seed its write keeps: a campaign's first, or
    /// the next one after a seed reveal.
    pub fn new_epoch(&self, state: &CampaignState) -> Option<u32> {
        self.policy().opens_epoch.map(|opened| match opened {
            EpochOpened::First => 1,
            EpochOpened::Next => state.epoch + 1,
        })
    }

    /// What must be filled in before the command is decided (see [`Input`]).
    pub fn inputs(&mut self) -> Vec<Input<'_>> {
        match self {
            Command::CreateCampaign {
                campaign_id,
                seed_commitment,
                sealed_commitment,
                ..
            } => vec![
                Input::NewCampaignId { into: campaign_id },
                Input::NewEpochSeed {
                    commitment: seed_commitment,
                    sealed_commitment,
                },
            ],
            Command::RevealSealed(reveal) => vec![Input::SealedDice {
                seq: reveal.seq,
                into: &mut reveal.secrets,
            }],
            Command::RevealSeed {
                seed,
                sealed_seed,
                next_commitment,
                next_sealed_commitment,
            } => vec![
                Input::EpochSeed {
                    into: seed,
                    sealed_into: sealed_seed,
                },
                Input::NewEpochSeed {
                    commitment: next_commitment,
                    sealed_commitment: next_sealed_commitment,
                },
            ],
            Command::System(command) => {
                on_system!(command, AnyCommand, |S, command| needs::<S>(S::inputs(
                    command
                )))
            }
            Command::AddCharacter { .. }
            | Command::ChangeSheet { .. }
            | Command::Damage(_)
            | Command::Heal(_)
            | Command::AdvanceClock(_)
            | Command::Fight(_)
            | Command::StartSession(_)
            | Command::EndSession
            | Command::Roll(_)
            | Command::Rest(_)
            | Command::Downtime(_) => Vec::new(),
            Command::Retract(retraction) => vec![Input::Retraction(retraction)],
            Command::Amend(amendment) => vec![Input::Amendment(amendment)],
            Command::RequestRoll { commitment, .. } => {
                vec![Input::NewRequestSecret { commitment }]
            }
            Command::LinkDevice { .. }
            | Command::UnlinkDevice { .. }
            | Command::WithdrawRoll { .. } => Vec::new(),
        }
    }
}

/// The events `command` records on `state`, and then what they set off by themselves in each rule
/// system (a failed spell held to fire later whose round they bring to an end, VSD-9).
pub fn decide(
    state: &CampaignState,
    command: Command,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    let mut events = decide_command(state, command, dice)?;
    let mut after: Option<CampaignState> = None;
    let applied = |events: &[Event]| {
        let mut after = state.clone();
        for (i, event) in events.iter().enumerate() {
            after.apply(state.head + 1 + i as u64, event);
        }
        after
    };
    // A fight lasts an hour of the clock at most (600 rounds), however the clock is moved on:
    // hours passing within one are a fight forgotten (T-3).
    if let Some(on) = &state.fight {
        let moved = after.insert(applied(&events));
        if moved.clock > state.clock
            && moved
                .fight
                .as_ref()
                .is_some_and(|still| still.number == on.number)
            && moved.clock.seconds().saturating_sub(on.began.seconds()) >= crate::time::HOUR_SECONDS
        {
            return Err(RuleError::FightTooLong(fight_now(state)));
        }
    }
    let mut set_off = Vec::new();
    for &system in SystemId::ALL {
        if !on_system!(system, SystemId, |S| S::watches(state)) {
            continue;
        }
        let after = after.get_or_insert_with(|| applied(&events));
        set_off.extend(on_system!(system, SystemId, |S| S::after_command(after)
            .into_iter()
            .map(|event| Event::System(S::wrap_event(event)))
            .collect::<Vec<_>>()));
    }
    events.extend(set_off);
    Ok(events)
}

/// A system's decision as the log records it.
fn recorded<S: Registered>(decided: Vec<Decided<S::Event>>) -> Vec<Event> {
    decided
        .into_iter()
        .map(|decided| match decided {
            Decided::Own(event) => Event::System(S::wrap_event(event)),
            Decided::SealedRevealed { seq, dice } => Event::SealedRevealed { seq, dice },
        })
        .collect()
}

/// What a system's command needs filled in, as the campaign fills it.
fn needs<S: Registered>(needs: Vec<Needs<'_, S::Event>>) -> Vec<Input<'_>> {
    needs
        .into_iter()
        .map(|need| match need {
            Needs::SealedDice { seq, into } => Input::SealedDice { seq, into },
            Needs::Event { seq, into } => Input::Event {
                seq,
                into: Box::new(move |event, at| {
                    into(
                        match event {
                            Event::System(any) => {
                                S::event(&any).cloned().map_or(Logged::Other, Logged::Own)
                            }
                            Event::DiceRolled { character, .. } => Logged::Roll { character },
                            _ => Logged::Other,
                        },
                        at,
                    )
                }),
            },
        })
        .collect()
}

fn decide_command(
    state: &CampaignState,
    command: Command,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    super::text::check_command(&command)?;
    if let Command::CreateCampaign {
        campaign_id,
        name,
        seed_commitment,
        sealed_commitment,
    } = command
    {
        if let Some(existing) = &state.campaign {
            return Err(RuleError::AlreadyCreated(existing.name.clone()));
        }
        return Ok(vec![Event::CampaignCreated {
            campaign_id,
            name,
            seed_commitment,
            grimoire_version: env!("CARGO_PKG_VERSION").to_string(),
            derivation: Some(crate::dice::fairness::ROLL_BOUND_DERIVATION),
            sealed_commitment: Some(sealed_commitment),
        }]);
    }
    if state.campaign.is_none() {
        return Err(RuleError::NoCampaign);
    }
    let event = match command {
        Command::CreateCampaign { .. } => unreachable!("handled above"),
        Command::AddCharacter { name, sheet } => {
            let name = name.trim().to_string();
            if name.is_empty() {
                return Err(RuleError::EmptyName);
            }
            if let Some(existing) = state.character(&name) {
                return Err(RuleError::DuplicateCharacter(existing.name.clone()));
            }
            if let Some(existing) = state
                .characters
                .values()
                .find(|c| crate::text::look_alike(&c.name, &name))
            {
                return Err(RuleError::ConfusableName {
                    name,
                    existing: existing.name.clone(),
                });
            }
            sheet.validate().map_err(RuleError::InvalidSheet)?;
            let mut events = on_system!(&sheet, Sheet, |S, sheet| S::before_join(state, sheet)
                .into_iter()
                .map(|event| Event::System(S::wrap_event(event)))
                .collect::<Vec<_>>());
            events.push(Event::CharacterAdded { name, sheet });
            return Ok(events);
        }
        Command::ChangeSheet {
            character,
            sheet,
            reason,
            correction,
        } => change_sheet(state, &character, sheet, reason, correction)?,
        Command::Damage(HealthChange {
            character,
            amount,
            reason,
        }) => {
            let who = with_health(state, &character)?;
            Event::DamageTaken {
                character: who.name.clone(),
                amount,
                reason: given_reason(reason)?,
            }
        }
        Command::Heal(HealthChange {
            character,
            amount,
            reason,
        }) => {
            let who = with_health(state, &character)?;
            Event::Healed {
                character: who.name.clone(),
                amount,
                reason: given_reason(reason)?,
            }
        }
        // A fight is counted in rounds: hours passing within one are a fight forgotten (T-3).
        Command::AdvanceClock(ClockAdvance { by })
            if state.fight.is_some() && by.seconds() >= crate::time::HOUR_SECONDS =>
        {
            return Err(RuleError::InAFight(fight_now(state)));
        }
        Command::AdvanceClock(ClockAdvance { by }) => Event::ClockAdvanced { by },
        Command::Fight(step) => fight(state, step)?,
        Command::StartSession(SessionStart { entropy }) => {
            if let Some(open) = &state.open_session {
                return Err(RuleError::SessionOpen(open.number));
            }
            Event::SessionStarted {
                number: state.sessions_started + 1,
                entropy,
            }
        }
        Command::EndSession => {
            let open = state
                .open_session
                .as_ref()
                .ok_or(RuleError::NoSessionOpen)?;
            Event::SessionEnded {
                number: open.number,
            }
        }
        Command::Roll(DiceRoll {
            expression,
            purpose,
            sealed,
            character,
        }) => {
            let character = character
                .map(|name| find(state, &name).map(|c| c.name.clone()))
                .transpose()?;
            // A purpose of only spaces says nothing: the roll is then labelled by its expression.
            let purpose = purpose
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty());
            let label = purpose
                .clone()
                .unwrap_or_else(|| format!("free roll {expression}"));
            let rolled = expression.roll(dice, &label, sealed)?;
            Event::DiceRolled {
                expression,
                purpose,
                dice: rolled.dice,
                total: rolled.total,
                character,
            }
        }
        Command::RevealSealed(SealedReveal { seq, secrets }) => {
            reveal_sealed(state, seq, &secrets)?
        }
        Command::Retract(retraction) => retract(state, retraction)?,
        Command::Amend(amendment) => super::amend::amend(state, amendment, dice)?,
        Command::Rest(_) | Command::Downtime(_) if state.fight.is_some() => {
            return Err(RuleError::InAFight(fight_now(state)));
        }
        Command::Rest(resting) => {
            return super::rest::rest(state, &resting.characters, resting.length(), dice);
        }
        Command::Downtime(span) => return super::downtime::downtime(state, &span, dice),
        Command::LinkDevice {
            player,
            characters,
            replace,
            ..
        } => return super::players::link(state, &player, &characters, replace),
        Command::UnlinkDevice { player } => return super::players::unlink(state, &player),
        Command::RequestRoll {
            player,
            asked,
            witnessed,
            commitment,
        } => return super::players::request(state, &player, asked, witnessed, commitment),
        Command::WithdrawRoll { request } => return super::players::withdraw(state, request),
        Command::System(command) => {
            return on_system!(command, AnyCommand, |S, command| Ok(recorded::<S>(
                S::decide(state, *command, dice)?
            )));
        }
        Command::RevealSeed {
            seed,
            sealed_seed,
            next_commitment,
            next_sealed_commitment,
        } => {
            // The next epoch's dice must mix in entropy the players give after its commitment: a
            // session's entropy is already known, and a GM could reveal, roll, and keep the best copy.
            if let Some(session) = &state.open_session {
                return Err(RuleError::RevealInSession(session.number));
            }
            let seed = seed.ok_or(crate::dice::DiceError::NoSeed { epoch: state.epoch })?;
            if fairness::seed_commitment(&seed) != state.epoch_commitment {
                return Err(RuleError::SeedMismatch(state.epoch));
            }
            let holding = holding_back(state, state.epoch);
            let revealed = Event::SeedRevealed {
                epoch: state.epoch,
                seed: hex::encode(seed),
            };
            let mut ended = match &state.epoch_sealed_commitment {
                // The sealed dice have a seed of their own: the first is always published, and
                // the second too unless a sealed die of the epoch still waits to be revealed (a
                // Ceremony scroll's check waits for its reading), whose reveal publishes it.
                Some(sealed_commitment) if holding.is_empty() => {
                    // The file keeps the first seed (checked above) but not the second.
                    let sealed_seed =
                        sealed_seed.ok_or(RuleError::SealedSeedMissing(state.epoch))?;
                    if &fairness::seed_commitment(&sealed_seed) != sealed_commitment {
                        return Err(RuleError::SealedSeedMismatch(state.epoch));
                    }
                    vec![
                        revealed,
                        Event::SealedSeedRevealed {
                            epoch: state.epoch,
                            seed: hex::encode(sealed_seed),
                        },
                    ]
                }
                Some(_) => vec![revealed],
                // An epoch with one seed: sealed dice derived from it and not yet revealed would
                // be opened by publishing it, so the seed waits for the last of them.
                None if holding.is_empty() => vec![revealed],
                None => vec![Event::SeedWithheld {
                    epoch: state.epoch,
                    until: holding,
                }],
            };
            ended.push(Event::EpochStarted {
                epoch: state.epoch + 1,
                seed_commitment: next_commitment,
                derivation: Some(crate::dice::fairness::ROLL_BOUND_DERIVATION),
                sealed_commitment: Some(next_sealed_commitment),
            });
            return Ok(ended);
        }
    };
    Ok(vec![event])
}

/// A reason given with a change of health: trimmed, and never empty or too long for the log.
fn given_reason(reason: Option<String>) -> Result<Option<String>, RuleError> {
    reason
        .map(|reason| {
            let reason = reason.trim().to_string();
            crate::text::check_filled("reason", &reason, crate::text::NOTE_MAX)
                .map_err(RuleError::Text)?;
            Ok(reason)
        })
        .transpose()
}

/// A sheet changed as a whole: the character's own system, valid, different, with a reason.
fn change_sheet(
    state: &CampaignState,
    name: &str,
    sheet: Sheet,
    reason: String,
    correction: bool,
) -> Result<Event, RuleError> {
    let who = find(state, name)?;
    if who.is_dead() {
        return Err(RuleError::Dead(who.name.clone()));
    }
    if sheet.system() != who.sheet.system() {
        return Err(RuleError::SheetOfAnotherGame {
            name: who.name.clone(),
            plays: who.sheet.system().to_string(),
            given: sheet.system().to_string(),
        });
    }
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(RuleError::NoReasonForSheet);
    }
    sheet.validate().map_err(RuleError::InvalidSheet)?;
    if sheet == who.sheet {
        return Err(RuleError::SheetUnchanged(who.name.clone()));
    }
    if !correction {
        return Ok(Event::SheetChanged {
            character: who.name.clone(),
            sheet,
            reason,
            was: Some(who.sheet.clone()),
        });
    }
    // What the rules make of the corrected sheet is decided now and recorded with it.
    let mut corrected = who.clone();
    let outcome = corrected.correct(&sheet);
    if let Some(why) = on_system!(&corrected.system, AnyState, |S, mine| {
        <S as crate::systems::contract::state::SystemFold>::past_the_sheet(mine)
    }) {
        return Err(RuleError::InvalidSheet(why));
    }
    Ok(Event::SheetCorrected {
        character: who.name.clone(),
        sheet,
        reason,
        dies: outcome.dies,
        consumed: outcome.consumed,
        was: Some(who.sheet.clone()),
    })
}

/// The character named `name`, or a refusal listing who the campaign has.
pub(crate) fn find<'s>(state: &'s CampaignState, name: &str) -> Result<&'s Character, RuleError> {
    state
        .character(name)
        .ok_or_else(|| RuleError::UnknownCharacter {
            name: name.to_string(),
            known: state.characters.values().map(|c| c.name.clone()).collect(),
        })
}

/// A living character with a health track: damage and healing are recorded only for them.
fn with_health<'s>(state: &'s CampaignState, name: &str) -> Result<&'s Character, RuleError> {
    let who = find(state, name)?;
    if who.is_dead() {
        return Err(RuleError::Dead(who.name.clone()));
    }
    if who.health.is_none() {
        return Err(RuleError::NoHealth(who.name.clone()));
    }
    Ok(who)
}

#[cfg(test)]
mod tests;
