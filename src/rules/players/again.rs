//! A phone's answer decided again from the log (C-5), for `verify`. The GM's server sees the
//! phone's bytes before it writes what they decided, so a die's face alone does not show which
//! rule took it: the rules, run again on the campaign as it stood with the same dice, say what
//! the command recorded.

use crate::dice::{Dice, SealedSecret};
use crate::event::Event;
use crate::ids::RequestId;
use crate::rules::campaign::{Input, Released};
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::time::GameTime;
use rand::SeedableRng;

/// What deciding an answer again reads of the log, where the write that recorded it read the log
/// and the GM's secrets.
pub trait AnswerLog {
    /// An earlier event, with its in-game time.
    fn event_at(&mut self, seq: Seq) -> Option<(Event, GameTime)>;
    /// The sealed dice of the event at `seq` that the command opens (a Ceremony scroll's check,
    /// read): the write took them from the GM's secrets, and the reveal it records publishes them.
    fn sealed(&mut self, seq: Seq) -> Vec<SealedSecret>;
}

/// What an answered request's command comes to when decided again.
#[derive(Debug)]
pub enum DecidedAgain {
    /// The events it records after the answer, in order, and the seeds it sets free, whose
    /// reveals the write records after them (each read from the GM's secrets).
    Records {
        events: Vec<Event>,
        seeds_set_free: Vec<Released>,
    },
    /// The rules refuse it with those dice, for this reason: grimoire records such an answer as
    /// refused, and nothing after it.
    Refused(String),
}

/// `command`, which request `request` asked for, decided again as `Campaign::answer` decided it:
/// on `before` (the campaign as it stood just before the answer, which is at `answer_seq`) with
/// the answer folded in, and the dice the phone's `contribution` and the GM side's secret `g`
/// make; `log` gives what the command reads, an amended event as amended when `reads_amended`
/// (the answer's payload version read so: [`crate::event::READS_AMENDED_SINCE`]). Err says why it cannot be decided again here: no
/// such request was put, or the command reads what a phone's command never reads (an epoch's
/// seed, a retraction's target).
pub fn decided_again(
    before: &CampaignState,
    answer_seq: Seq,
    request: RequestId,
    mut command: crate::rules::Command,
    contribution: &[u8],
    (g, reads_amended): ([u8; 32], bool),
    log: &mut dyn AnswerLog,
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
                let read = |at: Seq| Ok::<_, std::convert::Infallible>(log.event_at(at));
                let found = match reads_amended {
                    true => crate::rules::campaign::in_force(&after, seq, read),
                    false => Ok(log.event_at(seq)),
                };
                if let Ok(Some((event, at))) = found {
                    into(event, at);
                }
            }
            Input::SealedDice { seq, into } => *into = log.sealed(seq),
            _ => return Err("its command reads what a phone's command never reads".into()),
        }
    }
    // A device's dice are never sealed, so nothing draws from this.
    let mut unused = rand::rngs::StdRng::seed_from_u64(0);
    let contribution = contribution.to_vec();
    let mut dice = Dice::device(g, request, contribution, put.witnessed, &mut unused);
    match crate::rules::decide(&after, command, &mut dice) {
        Ok(events) => Ok(DecidedAgain::Records {
            seeds_set_free: crate::rules::campaign::seeds_released(&after, &events),
            events,
        }),
        // The write read them from the GM's secrets: missing here, the log never revealed them,
        // and what the command came to cannot be told (not a refusal of the rules).
        Err(crate::rules::RuleError::SecretMissing { seq, .. }) => Err(format!(
            "it opens the sealed dice of #{seq}, which the log never reveals"
        )),
        Err(why) => Ok(DecidedAgain::Refused(why.to_string())),
    }
}
