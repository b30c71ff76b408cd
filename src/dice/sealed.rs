//! Sealed dice: a GM's secret roll that the log commits to now and reveals later (ADG-S4).
//!
//! The log holds only `SHA-256(nonce ‖ faces)`, where the nonce is 16 random bytes and the faces are
//! written as ASCII decimal digits separated by commas: one face for a die ("14"), every face of an
//! open-ended chain sealed whole ("97,45"), so the record shows one commitment however many dice
//! the result took. The nonce stops anyone from guessing the value by hashing each possible face;
//! revealing faces and nonce lets anyone recompute the commitment.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What the GM keeps secret about one sealed die until it is revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedSecret {
    /// The die's index in its command's draw order.
    pub n: u32,
    pub value: u32,
    /// 32 hex digits (16 bytes).
    pub nonce: String,
    /// The faces after `value` when the sealed result is an open-ended chain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<u32>,
    /// Which of the command's events holds the die (0: the first): where the store files the
    /// secret, not part of it.
    #[serde(skip)]
    pub event: u32,
}

impl SealedSecret {
    /// Seals `value` with a fresh nonce drawn from `rng`.
    pub fn seal(n: u32, value: u32, rng: &mut dyn RngCore) -> SealedSecret {
        Self::seal_faces(n, &[value], rng)
    }

    /// Seals a result of one or more faces (never empty) under one commitment.
    pub fn seal_faces(n: u32, faces: &[u32], rng: &mut dyn RngCore) -> SealedSecret {
        let mut nonce = [0u8; 16];
        rng.fill_bytes(&mut nonce);
        SealedSecret {
            n,
            value: faces.first().copied().unwrap_or_default(),
            nonce: hex::encode(nonce),
            then: faces.get(1..).unwrap_or_default().to_vec(),
            event: 0,
        }
    }

    pub fn faces(&self) -> Vec<u32> {
        faces(self.value, &self.then)
    }

    pub fn commitment(&self) -> Option<String> {
        commitment(&self.nonce, &self.faces())
    }
}

/// A sealed result's faces in draw order: the first, then any further ones of a chain.
pub fn faces(first: u32, then: &[u32]) -> Vec<u32> {
    std::iter::once(first).chain(then.iter().copied()).collect()
}

/// The length of every nonce grimoire has written: 16 bytes, 32 hex digits.
pub const NONCE_HEX_DIGITS: usize = 32;

/// The nonce's 16 bytes, when `nonce_hex` is exactly 32 lowercase hex digits. Nothing else opens a
/// commitment: the committed message is the nonce's bytes followed by the faces' digits, so a longer
/// "nonce" could carry digits of its own (a sealed 13 would open as a 3 with the nonce lengthened
/// by the byte "1").
pub fn nonce_bytes(nonce_hex: &str) -> Option<[u8; 16]> {
    if nonce_hex.len() != NONCE_HEX_DIGITS
        || !nonce_hex
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    hex::decode(nonce_hex).ok()?.try_into().ok()
}

/// `SHA-256(nonce bytes ‖ faces in decimal, comma-separated)` in lowercase hex; `None` when the nonce
/// is not 32 lowercase hex digits ([`nonce_bytes`]). For one face this is `SHA-256(nonce ‖ value)`,
/// as every sealed die has been.
pub fn commitment(nonce_hex: &str, faces: &[u32]) -> Option<String> {
    let nonce = nonce_bytes(nonce_hex)?;
    let text = faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut hasher = Sha256::new();
    hasher.update(nonce);
    hasher.update(text.as_bytes());
    Some(hex::encode(hasher.finalize()))
}

/// Whether revealed faces and nonce open the commitment the log holds.
pub fn reveal_matches(commitment_hex: &str, faces: &[u32], nonce_hex: &str) -> bool {
    !faces.is_empty() && commitment(nonce_hex, faces).is_some_and(|c| c == commitment_hex)
}

/// Who chose the values of a command's sealed dice, in words for its log line.
pub fn chosen_by(dice: &[super::Die]) -> &'static str {
    use crate::dice::{Provenance, SealedOrigin};
    let origins: Vec<_> = dice
        .iter()
        .filter_map(|d| match &d.provenance {
            Provenance::Sealed { origin, .. } => Some(origin),
            _ => None,
        })
        .collect();
    if origins
        .iter()
        .all(|o| matches!(o, Some(SealedOrigin::Entered)))
    {
        "typed by the GM"
    } else if origins
        .iter()
        .all(|o| matches!(o, Some(SealedOrigin::Seeded { .. })))
    {
        "rolled by grimoire from a seed its epoch committed to"
    } else {
        "rolled by grimoire"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn given_a_sealed_value_when_revealed_honestly_then_it_matches() {
        let mut rng = StdRng::seed_from_u64(1);
        let secret = SealedSecret::seal(0, 14, &mut rng);
        let committed = secret.commitment().unwrap();
        assert!(reveal_matches(&committed, &[14], &secret.nonce));
    }

    #[test]
    fn given_a_sealed_value_when_a_different_value_is_claimed_then_the_reveal_is_caught() {
        let mut rng = StdRng::seed_from_u64(2);
        let secret = SealedSecret::seal(0, 3, &mut rng);
        let committed = secret.commitment().unwrap();
        for wrong in [1, 2, 4, 13, 30] {
            assert!(
                !reveal_matches(&committed, &[wrong], &secret.nonce),
                "{wrong}"
            );
        }
        let other_nonce = SealedSecret::seal(0, 3, &mut rng).nonce;
        assert!(
            !reveal_matches(&committed, &[3], &other_nonce),
            "right value, wrong nonce"
        );
        assert!(!reveal_matches(&committed, &[3], "not hex"));
    }

    /// The committed message is the nonce's bytes then the faces' digits: a sealed 13 hashes
    /// `nonce ‖ "13"`, and so does a claimed 3 with the nonce lengthened by the byte "1" (hex 31).
    /// Only a nonce of exactly 16 bytes opens anything, so no value opens as another.
    #[test]
    fn given_a_sealed_value_when_the_nonce_is_lengthened_to_shift_digits_then_nothing_opens() {
        let mut rng = StdRng::seed_from_u64(5);
        // The GM sealed 13; the lengthened nonce (old nonce ‖ "1") with the value 3 hashes the same.
        let secret = SealedSecret::seal(0, 13, &mut rng);
        let committed = secret.commitment().unwrap();
        let lengthened = format!("{}31", secret.nonce);
        let mut message = hex::decode(&lengthened).unwrap();
        message.extend_from_slice(b"3");
        assert_eq!(
            hex::encode(Sha256::digest(&message)),
            committed,
            "the forgery would hash to the commitment"
        );
        assert!(!reveal_matches(&committed, &[3], &lengthened));
        assert!(reveal_matches(&committed, &[13], &secret.nonce));
        for bad in [
            &secret.nonce[..30],
            &secret.nonce.to_uppercase(),
            &format!("{} ", secret.nonce),
        ] {
            assert!(!reveal_matches(&committed, &[13], bad), "{bad:?}");
        }
    }

    #[test]
    fn a_chain_sealed_whole_opens_only_with_all_its_faces_in_order() {
        let mut rng = StdRng::seed_from_u64(4);
        let secret = SealedSecret::seal_faces(0, &[97, 45], &mut rng);
        let committed = secret.commitment().unwrap();
        assert!(reveal_matches(&committed, &[97, 45], &secret.nonce));
        for wrong in [&[97][..], &[45, 97], &[97, 45, 3], &[9, 745]] {
            assert!(
                !reveal_matches(&committed, wrong, &secret.nonce),
                "{wrong:?}"
            );
        }
        let one = SealedSecret::seal(0, 14, &mut rng);
        assert_eq!(one.commitment(), commitment(&one.nonce, &[14]));
        assert!(
            one.then.is_empty(),
            "a single die keeps the first stored shape"
        );
    }

    #[test]
    fn two_seals_of_the_same_value_look_different() {
        let mut rng = StdRng::seed_from_u64(3);
        let a = SealedSecret::seal(0, 20, &mut rng).commitment();
        let b = SealedSecret::seal(0, 20, &mut rng).commitment();
        assert_ne!(a, b, "the nonce hides repeated values");
    }
}

/// A sealed die not yet revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSeal {
    pub n: u32,
    pub commitment: String,
    /// The epoch whose seed the sealed value was derived from: that seed stays unpublished while
    /// this seal is pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u32>,
}

/// A sealed die opened: the value and the nonce that hash to its commitment. Always a JSON object
/// (see [`crate::text::ReadFields`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct RevealedDie {
    pub n: u32,
    pub value: u32,
    pub nonce: String,
    /// The further faces of an open-ended chain sealed whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<u32>,
}

crate::text::read_only_as_objects! {
    RevealedDie: "an opened die written as a group of fields",
}

impl RevealedDie {
    /// Every face the reveal opens, in draw order.
    pub fn faces(&self) -> Vec<u32> {
        faces(self.value, &self.then)
    }
}
