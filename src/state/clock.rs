//! The clock as people read it (T-1, T-3): now, when a past event happened, and when what is in
//! force runs out.

use super::{CampaignState, Fight, FightSpan};
use crate::seq::Seq;
use crate::time::GameTime;

impl CampaignState {
    pub fn clock_text(&self) -> String {
        match &self.fight {
            Some(fight) => format!(
                "{}, round {} of {}",
                self.clock,
                fight.round_at(self.clock),
                fight.words()
            ),
            None => self.clock.to_string(),
        }
    }

    /// When the event at `seq`, stamped `at`, happened, as [`Self::clock_text`] says the clock:
    /// in its fight's round when one was on.
    pub fn time_of(&self, seq: Seq, at: GameTime) -> String {
        match self.fight_at(seq) {
            Some(fight) => format!(
                "{at}, round {} of {}",
                fight.round_at(at),
                Fight::title(fight.number, fight.name.as_deref())
            ),
            None => at.to_string(),
        }
    }

    /// The same, short enough for `log`'s time column ("Day 1, 08:10, round 4"): the fight is
    /// the one whose start is logged above it.
    pub fn time_of_in_column(&self, seq: Seq, at: GameTime) -> String {
        match self.fight_at(seq) {
            Some(fight) => format!("{at}, round {}", fight.round_at(at)),
            None => at.to_string(),
        }
    }

    /// The fight on when the event at `seq` was recorded, counting its beginning and its end.
    pub fn fight_at(&self, seq: Seq) -> Option<&FightSpan> {
        let after = self.fights_along.partition_point(|f| f.from <= seq);
        let span = self.fights_along.get(after.checked_sub(1)?)?;
        span.to.is_none_or(|to| seq <= to).then_some(span)
    }

    /// When something in force runs out, as the table says it: in the fight's rounds while a fight
    /// is on and it ends within its minute ("round 7 of the fight (3 more rounds)"); otherwise by
    /// the clock with the time left ("Day 1, 01:31 (10 min)", "Day 1, 00:00 (2 more rounds)"),
    /// never as a round a hundred rounds on.
    pub fn until_words(&self, until: GameTime) -> String {
        let left = until.seconds().saturating_sub(self.clock.seconds());
        let rounds = left.div_ceil(crate::time::ROUND_SECONDS);
        let more_rounds = || match rounds {
            1 => "1 more round".to_string(),
            n => format!("{n} more rounds"),
        };
        match &self.fight {
            _ if left == 0 => until.to_string(),
            Some(fight) if left <= crate::time::MINUTE_SECONDS => {
                format!(
                    "round {} of the fight ({})",
                    fight.round_at(until),
                    more_rounds()
                )
            }
            None if left < crate::time::MINUTE_SECONDS => format!("{until} ({})", more_rounds()),
            _ => format!("{until} ({})", crate::time::GameDuration(left).in_words()),
        }
    }

    /// When something that waits for the end of a round (counted since Day 1) happens: "at the
    /// end of this round", else how many rounds on, naming the fight's round while one is on.
    pub fn end_of_round_words(&self, round: u64) -> String {
        let now = self.clock.seconds() / crate::time::ROUND_SECONDS;
        let ahead = round.saturating_sub(now);
        if ahead == 0 {
            return "at the end of this round".to_string();
        }
        let later = crate::words::count(ahead, "round", "rounds");
        match &self.fight {
            Some(fight) => format!(
                "at the end of round {} of the fight, {later} from now",
                fight.round_at(crate::time::GameTime(round * crate::time::ROUND_SECONDS))
            ),
            None => format!("at the end of the round {later} from now"),
        }
    }
}
