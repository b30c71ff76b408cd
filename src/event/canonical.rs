//! The canonical form of a stored payload (docs/export.md, "The canonical form"): how grimoire
//! writes every payload, which events of [`super::CANONICAL_SINCE`] or later must keep. serde reads
//! more than grimoire writes (a `13.0` where a count stands, a key given twice in a map, a seed in
//! capitals), and the players' page reads the payload as text: each would judge such a payload
//! its own way, so both refuse it instead, by the same written rules.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// The fields that hold lower-case hex wherever they appear, how many digits, and from which
/// payload version: the seeds and commitments, a sealed die's nonce, and a device's secret and
/// bytes. (An epoch's `sealed_commitment` is new in version 5; before it, the key was one no
/// event had.)
pub const HEX_FIELDS: [(&str, usize, u32); 7] = [
    ("seed_commitment", 64, super::CANONICAL_SINCE),
    ("sealed_commitment", 64, super::SEALED_SEED_SINCE),
    ("seed", 64, super::CANONICAL_SINCE),
    ("commitment", 64, super::CANONICAL_SINCE),
    ("secret", 64, super::CANONICAL_SINCE),
    (
        "contribution",
        2 * crate::dice::fairness::CONTRIBUTION_BYTES,
        super::CANONICAL_SINCE,
    ),
    (
        "nonce",
        crate::dice::sealed::NONCE_HEX_DIGITS,
        super::CANONICAL_SINCE,
    ),
];

/// What keeps `payload`, of payload version `version`, from being in the canonical form, in
/// words; `None` when it is. (Its texts are held to the text rules apart, by
/// `text::check_payload`.)
pub fn problem(payload: &str, version: u32) -> Option<String> {
    if let Some(problem) = spelling_problem(payload) {
        return Some(problem);
    }
    let found = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_str(payload);
    let walked = Walk {
        key: None,
        depth: 0,
        version,
        found: &found,
    }
    .deserialize(&mut reader)
    .and_then(|()| reader.end());
    match (walked, found.into_inner()) {
        (_, Some(problem)) => Some(problem),
        (Ok(()), None) => None,
        (Err(_), None) => Some("it is not one JSON value".into()),
    }
}

/// What serde reads past without a word: spaces between the payload's parts, and a text escaping
/// more than JSON requires (grimoire escapes a quote, a backslash and the control characters only,
/// `\u` with lower-case digits and only where no short form exists).
fn spelling_problem(payload: &str) -> Option<String> {
    let mut bytes = payload.bytes();
    let mut in_text = false;
    while let Some(byte) = bytes.next() {
        match (in_text, byte) {
            (false, b' ' | b'\t' | b'\r' | b'\n') => {
                return Some("spaces stand between its parts".into());
            }
            (_, b'"') => in_text = !in_text,
            (true, b'\\') => {
                let what = bytes.next()?;
                let allowed = match what {
                    b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => true,
                    b'u' => {
                        let digits: Vec<u8> = bytes.by_ref().take(4).collect();
                        let lower = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
                        let code = std::str::from_utf8(&digits)
                            .ok()
                            .filter(|_| digits.len() == 4 && digits.iter().all(lower))
                            .and_then(|digits| u32::from_str_radix(digits, 16).ok());
                        code.is_some_and(|code| {
                            code < 0x20 && ![8, 9, 0xa, 0xc, 0xd].contains(&code)
                        })
                    }
                    _ => false,
                };
                if !allowed {
                    return Some(format!(
                        "a text escapes \\{}, which grimoire writes as itself",
                        char::from(what)
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

/// How deep a payload may nest, its own object counted as 1: grimoire reads some payloads inside
/// one more level (`{"KIND": payload}`), and serde refuses past 127 in all.
pub const DEEPEST: usize = 126;

/// One value of the payload, under the key that holds it (an array's items under the array's), at
/// its depth (the payload's object at 1).
struct Walk<'a> {
    key: Option<&'a str>,
    depth: usize,
    version: u32,
    found: &'a RefCell<Option<String>>,
}

impl Walk<'_> {
    fn refuse<E: de::Error>(&self, problem: String) -> Result<(), E> {
        self.found.borrow_mut().get_or_insert(problem);
        Err(E::custom("not canonical"))
    }

    /// The digits the value under this key must be written in, if it is a hex field.
    fn hex_digits(&self) -> Option<(&str, usize)> {
        let key = self.key?;
        HEX_FIELDS
            .iter()
            .find(|(field, _, since)| *field == key && *since <= self.version)
            .map(|(field, digits, _)| (*field, *digits))
    }

    /// Refuses a list or an object nested past [`DEEPEST`].
    fn nests<E: de::Error>(&self) -> Result<(), E> {
        if self.depth + 1 > DEEPEST {
            return self.refuse(format!(
                "it is nested more than {DEEPEST} deep, deeper than grimoire writes"
            ));
        }
        Ok(())
    }

    fn only_text<E: de::Error>(&self, what: &str) -> Result<(), E> {
        match self.hex_digits() {
            Some((field, digits)) => self.refuse(format!(
                "its \"{field}\" holds {what}, where {digits} lower-case hex digits belong"
            )),
            None => Ok(()),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.only_text("true or false")
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.only_text("a number")
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.only_text("a number")
    }

    // serde_json reads a fraction, an exponent, `-0` and a number past 64 bits as a float: none of
    // them is a number grimoire writes.
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        let under = self
            .key
            .map_or(String::new(), |key| format!(" in \"{key}\""));
        self.refuse(format!(
            "a number{under} is not a whole number in plain digits, as grimoire writes numbers (it reads as {value:?}: a fraction, an exponent, a minus on zero, or past 64 bits)"
        ))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        let Some((field, digits)) = self.hex_digits() else {
            return Ok(());
        };
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if text.len() == digits && text.bytes().all(lower_hex) {
            return Ok(());
        }
        self.refuse(format!(
            "its \"{field}\" is not {digits} lower-case hex digits, as grimoire writes it"
        ))
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.only_text("null")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        self.only_text("a list")?;
        self.nests()?;
        while items
            .next_element_seed(Walk {
                key: self.key,
                depth: self.depth + 1,
                version: self.version,
                found: self.found,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.only_text("an object")?;
        self.nests()?;
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                let walk = Walk {
                    key: None,
                    depth: self.depth,
                    version: self.version,
                    found: self.found,
                };
                return walk.refuse(format!(
                    "the key \"{key}\" is given twice in one object: grimoire writes each key once"
                ));
            }
            map.next_value_seed(Walk {
                key: Some(&key),
                depth: self.depth + 1,
                version: self.version,
                found: self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::problem;
    use crate::event::{CANONICAL_SINCE, SCHEMA_VERSION, SEALED_SEED_SINCE};

    /// An epoch's `sealed_commitment` is a hex field from the version that brought it; before,
    /// no event had the key, and its value was nobody's business.
    #[test]
    fn a_sealed_commitment_is_hex_from_the_version_that_brought_it() {
        let payload = |commitment: &str| {
            format!(
                r#"{{"kind":"epoch_started","epoch":2,"seed_commitment":"{}","sealed_commitment":"{commitment}"}}"#,
                "a".repeat(64)
            )
        };
        let upper = payload(&"A".repeat(64));
        assert!(
            problem(&upper, SEALED_SEED_SINCE)
                .is_some_and(|why| why.contains("\"sealed_commitment\"")),
        );
        assert_eq!(problem(&upper, CANONICAL_SINCE), None);
        assert_eq!(problem(&payload(&"b".repeat(64)), SEALED_SEED_SINCE), None);
    }

    #[test]
    fn a_payload_as_grimoire_writes_it_is_canonical() {
        let seed = "ab".repeat(32);
        let payload = format!(
            r#"{{"kind":"seed_revealed","epoch":1,"seed":"{seed}","list":[1,-2,{{"a":null}}]}}"#
        );
        assert_eq!(problem(&payload, SCHEMA_VERSION), None);
    }

    #[test]
    fn numbers_other_than_plain_whole_ones_are_refused() {
        for number in ["13.0", "2e0", "1E1", "-0", "18446744073709551616"] {
            let payload = format!(r#"{{"kind":"session_ended","number":{number}}}"#);
            let why =
                problem(&payload, SCHEMA_VERSION).unwrap_or_else(|| panic!("{number} passed"));
            assert!(why.contains("whole number in plain digits"), "{why}");
        }
    }

    #[test]
    fn a_payload_nests_at_most_126_deep() {
        let nested = |depth: usize| {
            let inner = depth - 1;
            format!(
                r#"{{"kind":"x","deep":{}{}}}"#,
                "[".repeat(inner),
                "]".repeat(inner)
            )
        };
        assert_eq!(problem(&nested(126), SCHEMA_VERSION), None);
        assert!(
            problem(&nested(127), SCHEMA_VERSION)
                .is_some_and(|why| why.contains("nested more than 126"))
        );
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        let twice = r#"{"kind":"x","a":{"b":1,"b":1}}"#;
        assert!(
            problem(twice, SCHEMA_VERSION).is_some_and(|why| why.contains("\"b\" is given twice"))
        );
    }

    #[test]
    fn hex_fields_hold_lower_case_hex_of_their_length() {
        for seed in [
            "AB".repeat(32),
            "ab".repeat(31),
            format!(" {}", "ab".repeat(32)),
        ] {
            let payload = format!(r#"{{"kind":"seed_revealed","epoch":1,"seed":"{seed}"}}"#);
            assert!(
                problem(&payload, SCHEMA_VERSION).is_some(),
                "{seed:?} passed"
            );
        }
        let number = r#"{"kind":"seed_revealed","epoch":1,"seed":7}"#;
        assert!(problem(number, SCHEMA_VERSION).is_some_and(|why| why.contains("holds a number")));
    }
}
