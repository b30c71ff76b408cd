//! Players' devices and the rolls put to them (C-4, C-5, C-6). A device is linked for the
//! characters its player plays; the GM puts a roll to it, recording a commitment to a secret only
//! the GM side holds; the device answers with bytes of its own, and the asked command is decided
//! with dice derived from both, in the answer's write. Neither side can choose or foresee a die:
//! the GM never sees the device's bytes before the request is on record, and the device never sees
//! the secret before its bytes are.

mod again;
mod choices;

pub use again::{AnswerLog, DecidedAgain, decided_again};
pub use choices::{made_on, waiting_on};

use super::RuleError;
use crate::dice::fairness;
use crate::event::{AskedCommand, Event};
use crate::ids::{DeviceId, RequestId};
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::state::players::{Request, RequestStatus};

/// Why the rules refuse a device's link, a roll put to it, its answer or a withdrawal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("a device needs a player's name")]
    NoPlayer,
    #[error("{player}'s device plays no one: name the characters it rolls for")]
    NoCharacters { player: String },
    #[error(
        "{player} already has a linked device (device {device}); replace its link, or unlink it first"
    )]
    AlreadyLinked { player: String, device: DeviceId },
    #[error("no device is linked for {0}")]
    NoDevice(String),
    #[error(
        "{player}'s device plays {plays}, not {character}: a player rolls for the character who acts"
    )]
    NotTheirs {
        player: String,
        character: String,
        plays: String,
    },
    #[error("the command put to a device must roll dice, and this one rolls none")]
    RollsNothing,
    #[error("the command put to the device cannot be read: {0}")]
    Unreadable(String),
    #[error("the rules refuse the command put to the device as the campaign stands now: {0}")]
    RefusedNow(String),
    #[error("there is no request {0}")]
    NoSuchRequest(RequestId),
    #[error("request {request} was answered already (#{seq}); an answered roll is final")]
    Answered { request: RequestId, seq: Seq },
    #[error(
        "request {request} was answered (#{seq}), and the rules refused its command then: {why}"
    )]
    AnsweredButRefused {
        request: RequestId,
        seq: Seq,
        why: String,
    },
    #[error("request {request} was withdrawn (#{seq})")]
    Withdrawn { request: RequestId, seq: Seq },
    #[error("request {0} was put to another device")]
    OtherDevice(RequestId),
    #[error("this device's link was revoked")]
    Revoked,
    #[error("a device answers with exactly {} bytes", fairness::CONTRIBUTION_BYTES)]
    ContributionSize,
    #[error(
        "the GM's secret for request {0} is missing or does not match its commitment; the secrets table does not match the log"
    )]
    SecretMismatch(RequestId),
    #[error(
        "no choice waits on {0}'s player now: {0} has none pending, the GM makes it, or it waits until {0} can act again"
    )]
    NoChoiceWaits(String),
    #[error("the picks ({wanted}) do not fit {character}'s choice: pick {pick} of {options}")]
    PicksDoNotFit {
        character: String,
        wanted: String,
        pick: usize,
        options: String,
    },
}

/// The device linked for `player` (C-4): a new device number; replacing a live link revokes it
/// first, and withdraws what still waits for it.
pub fn link(
    state: &CampaignState,
    player: &str,
    characters: &[String],
    replace: bool,
) -> Result<Vec<Event>, RuleError> {
    let player = player.trim();
    if player.is_empty() {
        return Err(Refused::NoPlayer.into());
    }
    crate::text::check("player", player, crate::text::NAME_MAX)?;
    if characters.is_empty() {
        return Err(Refused::NoCharacters {
            player: player.into(),
        }
        .into());
    }
    let mut plays: Vec<String> = Vec::new();
    for name in characters {
        let character = super::campaign::find(state, name)?;
        if !plays.contains(&character.name) {
            plays.push(character.name.clone());
        }
    }
    let mut events = Vec::new();
    if let Some((device, _)) = state.players.device_of(player) {
        if !replace {
            return Err(Refused::AlreadyLinked {
                player: player.into(),
                device,
            }
            .into());
        }
        events.extend(unlinked(state, device));
    }
    events.push(Event::DeviceLinked {
        device: DeviceId::after(state.players.devices.keys().max().copied()),
        player: player.into(),
        characters: plays,
    });
    Ok(events)
}

/// `player`'s link revoked (C-4), and what waits for the device withdrawn.
pub fn unlink(state: &CampaignState, player: &str) -> Result<Vec<Event>, RuleError> {
    let (device, _) = state
        .players
        .device_of(player)
        .ok_or_else(|| Refused::NoDevice(player.trim().into()))?;
    Ok(unlinked(state, device))
}

fn unlinked(state: &CampaignState, device: DeviceId) -> Vec<Event> {
    let mut events: Vec<Event> = state
        .players
        .waiting_for(device)
        .map(|(request, _)| Event::RollWithdrawn { request })
        .collect();
    events.push(Event::DeviceUnlinked { device });
    events
}

/// A roll put to `player`'s device (C-5), or their device named the witness of the GM's roll
/// (C-6). `commitment` is SHA-256 of the secret the GM side keeps for it. A player rolls for the
/// character who acts, which must be one they play; whom the act aims at is no matter (a spell at
/// a foe, a healing ritual on an ally). A witnessed roll is the GM's: no character is checked.
pub fn request(
    state: &CampaignState,
    player: &str,
    asked: AskedCommand,
    witnessed: bool,
    commitment: String,
) -> Result<Vec<Event>, RuleError> {
    let (device, linked) = state
        .players
        .device_of(player)
        .ok_or_else(|| Refused::NoDevice(player.trim().into()))?;
    if !witnessed
        && let Some(acting) = asked.acting()
        && !crate::state::players::plays(&linked.characters, acting)
    {
        return Err(Refused::NotTheirs {
            player: linked.player.clone(),
            character: state
                .character(acting)
                .map_or_else(|| acting.trim().to_string(), |c| c.name.clone()),
            plays: linked.characters.join(", "),
        }
        .into());
    }
    Ok(vec![Event::RollRequested {
        request: RequestId::after(state.players.requests.keys().max().copied()),
        device,
        commitment,
        asked,
        witnessed,
    }])
}

/// The request an answer from `device` may settle, or why it may not. An answer to a request
/// already answered is no error when it brings the very bytes recorded (a phone that lost its
/// connection asks again): then the seq of the recorded answer is returned, and the caller hands
/// back what it recorded.
pub fn answerable<'s>(
    state: &'s CampaignState,
    request: RequestId,
    device: DeviceId,
) -> Result<Answerable<'s>, Refused> {
    let found = state
        .players
        .requests
        .get(&request)
        .ok_or(Refused::NoSuchRequest(request))?;
    if found.device != device {
        return Err(Refused::OtherDevice(request));
    }
    if !state.players.devices.get(&device).is_some_and(|d| d.linked) {
        return Err(Refused::Revoked);
    }
    match found.status {
        RequestStatus::Waiting => Ok(Answerable::Waiting(found)),
        RequestStatus::Answered { seq } => Ok(Answerable::Answered(seq)),
        RequestStatus::Withdrawn { seq } => Err(Refused::Withdrawn { request, seq }),
    }
}

pub enum Answerable<'s> {
    Waiting(&'s Request),
    /// Answered by the event at this seq.
    Answered(Seq),
}

/// The withdrawal of a request still waiting (C-5).
pub fn withdraw(state: &CampaignState, request: RequestId) -> Result<Vec<Event>, RuleError> {
    let found = state
        .players
        .requests
        .get(&request)
        .ok_or(Refused::NoSuchRequest(request))?;
    match found.status {
        RequestStatus::Waiting => Ok(vec![Event::RollWithdrawn { request }]),
        RequestStatus::Answered { seq } => Err(Refused::Answered { request, seq }.into()),
        RequestStatus::Withdrawn { seq } => Err(Refused::Withdrawn { request, seq }.into()),
    }
}

/// The bytes a device sent, checked for their size.
pub fn contribution(bytes: &[u8]) -> Result<(), Refused> {
    match bytes.len() == fairness::CONTRIBUTION_BYTES {
        true => Ok(()),
        false => Err(Refused::ContributionSize),
    }
}

#[cfg(test)]
mod tests;
