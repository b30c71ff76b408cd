//! The campaign's one in-game clock (docs/rules.md T-1) and the durations typed at the table.
//!
//! Time is counted in seconds since Day 1, 00:00. Seconds are finer than any rule needs, but a combat
//! round is six seconds here (ten rounds to the minute), and counting seconds keeps rounds, minutes and
//! days on one integer scale with no rounding.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Length of a combat round in seconds. Neither rule text fixes it; six seconds is the common
/// convention and lets "1 minute" be exactly ten rounds.
pub const ROUND_SECONDS: u64 = 6;
const MINUTE: u64 = 60;
/// A minute, in the clock's seconds.
pub const MINUTE_SECONDS: u64 = MINUTE;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;
/// An hour, in the clock's seconds.
pub const HOUR_SECONDS: u64 = HOUR;
/// The length of an in-game day, in the clock's seconds.
pub const DAY_SECONDS: u64 = DAY;
const WEEK: u64 = 7 * DAY;

/// The longest single advance accepted (a hundred years): anything more is a typo, and the limit keeps
/// every sum of advances far from overflowing.
pub const MAX_ADVANCE_SECONDS: u64 = 100 * 365 * DAY;

/// A moment on the campaign clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameTime(pub u64);

impl GameTime {
    pub fn seconds(self) -> u64 {
        self.0
    }

    /// The clock after `by` has passed; saturates rather than wrapping on absurd sums.
    pub fn after(self, by: GameDuration) -> GameTime {
        GameTime(self.0.saturating_add(by.0))
    }

    pub fn day(self) -> u64 {
        self.0 / DAY + 1
    }
}

/// "Day 3, 14:20": the clock to the minute. A round within the minute is never shown on the clock
/// itself; inside a fight the fight's own round is named beside it (T-1, see
/// `CampaignState::clock_text`), and outside one the rounds a fight counted do not linger.
impl fmt::Display for GameTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let within_day = self.0 % DAY;
        let (hour, minute) = (within_day / HOUR, within_day % HOUR / MINUTE);
        write!(f, "Day {}, {:02}:{:02}", self.day(), hour, minute)
    }
}

/// A span of in-game time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameDuration(pub u64);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{input}' is not a duration: {why}. Write a number and a unit, e.g. 10m, 2h, 3d, 1w or 5r (combat rounds); parts may be combined, as in 1h30m"
)]
pub struct DurationError {
    pub input: String,
    pub why: &'static str,
}

impl GameDuration {
    pub fn seconds(self) -> u64 {
        self.0
    }

    /// Parses `10m`, `2h`, `3d`, `1w`, `5r` and combinations such as `1d6h` or `1h 30m`.
    pub fn parse(input: &str) -> Result<GameDuration, DurationError> {
        let fail = |why| DurationError {
            input: input.chars().take(40).collect(),
            why,
        };
        let text: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        if text.is_empty() {
            return Err(fail("it is empty"));
        }
        let mut total: u64 = 0;
        let mut digits = String::new();
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if digits.is_empty() {
                return Err(fail("each unit needs a whole number before it"));
            }
            let unit = match c.to_ascii_lowercase() {
                'r' => ROUND_SECONDS,
                'm' => MINUTE,
                'h' => HOUR,
                'd' => DAY,
                'w' => WEEK,
                _ => return Err(fail("the units are r, m, h, d and w")),
            };
            let count: u64 = digits
                .parse()
                .map_err(|_| fail("the number is too large"))?;
            digits.clear();
            total = count
                .checked_mul(unit)
                .and_then(|part| total.checked_add(part))
                .filter(|&t| t <= MAX_ADVANCE_SECONDS)
                .ok_or_else(|| fail("it is longer than a hundred years"))?;
        }
        if !digits.is_empty() {
            return Err(fail("the last number has no unit"));
        }
        if total == 0 {
            return Err(fail("it is zero"));
        }
        Ok(GameDuration(total))
    }
}

impl GameDuration {
    /// How long, as a person says it to the minute (rounded up): "10 min", "1 h 30 min",
    /// "2 days 3 h".
    pub fn in_words(self) -> String {
        let minutes = self.0.div_ceil(MINUTE);
        let (days, hours, minutes) = (
            minutes / (DAY / MINUTE),
            minutes % (DAY / MINUTE) / 60,
            minutes % 60,
        );
        let mut parts = Vec::new();
        if days > 0 {
            parts.push(crate::words::count(days, "day", "days"));
        }
        if hours > 0 {
            parts.push(format!("{hours} h"));
        }
        if minutes > 0 || parts.is_empty() {
            parts.push(format!("{minutes} min"));
        }
        parts.join(" ")
    }
}

impl fmt::Display for GameDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        let mut parts = Vec::new();
        for (unit, name) in [
            (WEEK, "w"),
            (DAY, "d"),
            (HOUR, "h"),
            (MINUTE, "m"),
            (ROUND_SECONDS, "r"),
        ] {
            if rest >= unit {
                parts.push(format!("{}{name}", rest / unit));
                rest %= unit;
            }
        }
        if rest > 0 {
            parts.push(format!("{rest}s"));
        }
        write!(f, "{}", parts.join(""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t1_durations_in_every_unit_become_seconds() {
        assert_eq!(GameDuration::parse("10m").unwrap().seconds(), 600);
        assert_eq!(GameDuration::parse("2h").unwrap().seconds(), 7200);
        assert_eq!(GameDuration::parse("3d").unwrap().seconds(), 3 * 86_400);
        assert_eq!(GameDuration::parse("1w").unwrap().seconds(), 7 * 86_400);
        assert_eq!(GameDuration::parse("5r").unwrap().seconds(), 30);
        assert_eq!(GameDuration::parse("1h 30M").unwrap().seconds(), 5400);
    }

    #[test]
    fn t1_malformed_durations_are_refused_with_the_reason() {
        for (bad, why) in [
            ("", "empty"),
            ("10", "no unit"),
            ("m", "whole number"),
            ("10y", "units"),
            ("0h", "zero"),
            ("-3d", "whole number"),
            ("99999999999999999999d", "too large"),
            ("6000w", "hundred years"),
        ] {
            let err = GameDuration::parse(bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn t1_the_clock_reads_to_the_minute_with_no_round_mark() {
        assert_eq!(GameTime(0).to_string(), "Day 1, 00:00");
        let t = GameTime(0).after(GameDuration::parse("1d14h20m2r").unwrap());
        assert_eq!(t.to_string(), "Day 2, 14:20");
        assert_eq!(GameDuration::parse("1w1d2r").unwrap().to_string(), "1w1d2r");
    }
}
