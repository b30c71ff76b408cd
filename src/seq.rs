//! A place in a campaign's log. Events are numbered from 1 in the order they were appended, and
//! everything that names an event (a retraction, a save against a cast, a scroll, which is known
//! by the seq of its writing) names it by this number.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};
use std::str::FromStr;

/// The seq of an event in the log (#1 is the first); `Seq(0)` is the place before the first,
/// the head of an empty log.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Seq(pub u64);

impl Seq {
    /// The place before the first event.
    pub const START: Seq = Seq(0);
    /// Past any event: a range up to it runs to the log's end.
    pub const END: Seq = Seq(u64::MAX);

    /// The event after this one.
    pub fn next(self) -> Seq {
        Seq(self.0.saturating_add(1))
    }

    /// The event before this one (`START` stays `START`).
    pub fn previous(self) -> Seq {
        Seq(self.0.saturating_sub(1))
    }

    /// The seq as a number, for storage and arithmetic on counts.
    pub fn get(self) -> u64 {
        self.0
    }
}

/// `n` events further on.
impl Add<u64> for Seq {
    type Output = Seq;
    fn add(self, n: u64) -> Seq {
        Seq(self.0.saturating_add(n))
    }
}

/// `n` events back (never before [`Seq::START`]).
impl Sub<u64> for Seq {
    type Output = Seq;
    fn sub(self, n: u64) -> Seq {
        Seq(self.0.saturating_sub(n))
    }
}

impl AddAssign<u64> for Seq {
    fn add_assign(&mut self, n: u64) {
        *self = *self + n;
    }
}

/// A seq against a number written out (`seq == 1`, `seq > 0`).
impl PartialEq<u64> for Seq {
    fn eq(&self, n: &u64) -> bool {
        self.0 == *n
    }
}

impl PartialOrd<u64> for Seq {
    fn partial_cmp(&self, n: &u64) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(n)
    }
}

impl FromStr for Seq {
    type Err = std::num::ParseIntError;
    /// `12` or `#12`, as `log` shows it.
    fn from_str(text: &str) -> Result<Seq, Self::Err> {
        text.strip_prefix('#').unwrap_or(text).parse().map(Seq)
    }
}

impl fmt::Display for Seq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Seq> for u64 {
    fn from(seq: Seq) -> u64 {
        seq.0
    }
}

impl From<u64> for Seq {
    fn from(n: u64) -> Seq {
        Seq(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seq_is_stored_as_its_number() {
        assert_eq!(serde_json::to_string(&Seq(12)).unwrap(), "12");
        assert_eq!(serde_json::from_str::<Seq>("12").unwrap(), Seq(12));
        let keyed: std::collections::BTreeMap<Seq, &str> = [(Seq(3), "x")].into();
        let text = serde_json::to_string(&keyed).unwrap();
        assert_eq!(text, r#"{"3":"x"}"#);
        assert_eq!(
            serde_json::from_str::<std::collections::BTreeMap<Seq, String>>(&text).unwrap(),
            [(Seq(3), "x".to_string())].into()
        );
    }

    #[test]
    fn a_seq_counts_on_without_wrapping() {
        assert_eq!(Seq(4).next(), Seq(5));
        assert_eq!(Seq::START.previous(), Seq::START);
        assert_eq!(Seq(u64::MAX).next(), Seq(u64::MAX));
        assert_eq!(format!("#{}", Seq(7) + 2), "#9");
        assert_eq!("#12".parse::<Seq>(), Ok(Seq(12)));
        assert_eq!("12".parse::<Seq>(), Ok(Seq(12)));
        assert!("#".parse::<Seq>().is_err() && "-1".parse::<Seq>().is_err());
    }
}
