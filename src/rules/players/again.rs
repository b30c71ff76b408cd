//! A phone's answer decided again from the log (C-5), for `verify`. The GM's server sees the
//! phone's bytes before it writes what they decided, so a die's face alone does not show which
//! rule took it: the rules, run again on the campaign as it stood with the same dice, say what
//! the command recorded.

use crate::dice::Dice;
use crate::event::Event;
use crate::ids::RequestId;
use crate::rules::campaign::Input;
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::time::GameTime;
use rand::SeedableRng;

/// What an answered request's command comes to when decided again.
#[derive(Debug)]
pub enum DecidedAgain {
    /// The events it records after the answer, in order.
    Records(Vec<Event>),
    /// The rules refuse it with those dice, for this reason: grimoire records such an answer as
    /// refused, and nothing after it.
    Refused(String),
}

/// `command`, which request `request` asked for, decided again as `Campaign::answer` decided it:
/// on `before` (the campaign as it stood just before the answer, which is at `answer_seq`) with
/// the answer folded in, and the dice the phone's `contribution` and the GM side's secret `g`
/// make. `read` gives an earlier event and its in-game time, as the write's lock did.
/// Err says why it cannot be decided again here: no such request was put, or the command reads
/// what only the GM's secrets hold or sets a seed free.
pub fn decided_again(
    before: &CampaignState,
    answer_seq: Seq,
    request: RequestId,
    mut command: crate::rules::Command,
    contribution: &[u8],
    g: [u8; 32],
    read: &mut dyn FnMut(Seq) -> Option<(Event, GameTime)>,
) -> Result<DecidedAgain, String> {
    let put = (before.players.requests.get(&request))
        .ok_or_else(|| format!("no request {request} was put to a phone before it"))?;
    let answered = Event::RollAnswered {
        request,
        contribution: hex::encode(contribution),
        secret: hex::encode(g),
        refused: None,
    };
    let mut after = before.clone();
    after.apply(answer_seq, &answered);
    for input in command.inputs() {
        match input {
            Input::Event { seq, into } => {
                if let Some((event, at)) = read(seq) {
                    into(event, at);
                }
            }
            _ => return Err("its command reads what only the GM's secrets hold".into()),
        }
    }
    // A device's dice are never sealed, so nothing draws from this.
    let mut unused = rand::rngs::StdRng::seed_from_u64(0);
    let contribution = contribution.to_vec();
    let mut dice = Dice::device(g, request, contribution, put.witnessed, &mut unused);
    match crate::rules::decide(&after, command, &mut dice) {
        Ok(events) if crate::rules::campaign::seeds_released(&after, &events).is_empty() => {
            Ok(DecidedAgain::Records(events))
        }
        Ok(_) => Err("it sets a seed free, read from the GM's secrets".into()),
        Err(why) => Ok(DecidedAgain::Refused(why.to_string())),
    }
}
