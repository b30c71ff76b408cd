//! What a player's link writes through the campaign's one door (C-5, #47): a device's answer to
//! a roll put to it, and a choice its player makes. Each is recorded as the player's, now.

use super::{Campaign, Made, pages};
use crate::Error;
use crate::cli::Context;
use crate::ids::{DeviceId, RequestId};

impl Campaign {
    /// Records a device's answer through the campaign's one door; answers what it recorded (or
    /// recorded before, for the very same bytes), or why the rules refused it.
    pub(super) fn answer(
        &mut self,
        device: DeviceId,
        player: &str,
        request: RequestId,
        contribution: Vec<u8>,
        ctx: &mut Context,
    ) -> Made {
        use crate::campaign::{Answered, DeviceAnswer};
        let run = self.players_run(player, ctx);
        let answer = DeviceAnswer {
            request,
            device,
            contribution,
        };
        let recorded = self.reads.open().and_then(|store| {
            let mut campaign = crate::campaign::Campaign::on(store);
            match campaign.answer(run, answer)? {
                Answered::Now(written) => Ok((written.events, false)),
                Answered::Before(seq) => Ok((
                    crate::read::answer::with_what_it_completed(campaign.store(), seq)?,
                    true,
                )),
            }
        });
        match recorded {
            Ok((events, again)) => {
                let mut answered = said(&events);
                answered["request"] = serde_json::json!(request);
                answered["answer"] = serde_json::json!(events.first().map(|r| r.seq));
                answered["again"] = serde_json::json!(again);
                pages::json_made(200, &answered)
            }
            Err(e) => self.not_recorded(e),
        }
    }

    /// A player's write that recorded nothing: the rules' refusal, or a snapshot part that did
    /// not read (refused as the terminal refuses it, naming the mend, and said to the GM too),
    /// as the phone reads a refusal; any other trouble as the pages say it.
    fn not_recorded(&mut self, e: Error) -> Made {
        match e {
            Error::Rule(why) => refused(why),
            Error::Store(damaged @ crate::store::StoreError::DamagedSnapshot { .. }) => {
                self.say_trouble(format!(
                    "grimoire serve: a player's write recorded nothing: {damaged}"
                ));
                pages::json_made(409, &serde_json::json!({ "refused": damaged.to_string() }))
            }
            e => self.unreadable(&e),
        }
    }

    /// A write on a player's behalf: recorded by them, now, with grimoire's seeded dice for
    /// whatever its command rolls that the device did not.
    fn players_run(&self, player: &str, ctx: &mut Context) -> crate::campaign::Run {
        use rand::SeedableRng;
        use rand::rngs::StdRng;
        crate::campaign::Run {
            stamp: crate::store::Stamp {
                recorded_at: self
                    .now()
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                actor: player.to_string(),
                id_rng: StdRng::from_rng(&mut ctx.rng),
            },
            dice: crate::campaign::DiceSource::Seeded {
                player_entropy: None,
            },
            rng: StdRng::from_rng(&mut ctx.rng),
        }
    }

    /// Records a player's choice through the campaign's one door, as theirs; answers what it
    /// recorded, or why the rules refused it (nothing is recorded then).
    pub(super) fn choose(
        &mut self,
        player: &str,
        choice: crate::campaign::PlayerChoice<'_>,
        ctx: &mut Context,
    ) -> Made {
        let run = self.players_run(player, ctx);
        let recorded = self
            .reads
            .open()
            .and_then(|store| crate::campaign::Campaign::on(store).choose(run, choice));
        match recorded {
            Ok(written) => pages::json_made(200, &said(&written.events)),
            Err(e) => self.not_recorded(e),
        }
    }
}

/// A write the rules refused: 409, with why (nothing was recorded).
fn refused(why: crate::rules::RuleError) -> Made {
    pages::json_made(409, &serde_json::json!({ "refused": why.to_string() }))
}

/// What a player's write recorded, as its lines read: `{"said": ["#12 …", …]}`.
fn said(events: &[crate::event::Recorded]) -> serde_json::Value {
    let said: Vec<String> = events
        .iter()
        .map(|r| format!("#{} {}", r.seq, crate::render::describe(&r.event)))
        .collect();
    serde_json::json!({ "said": said })
}
