//! Sealed dice: a GM's secret roll that the log commits to now and reveals later (ADG-S4).
//!
//! The log holds only `SHA-256(nonce ‖ value)`, where the nonce is 16 random bytes and the value is
//! written as ASCII decimal digits. The nonce stops anyone from guessing the value by hashing each
//! possible face; revealing value and nonce lets anyone recompute the commitment.

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
}

impl SealedSecret {
    /// Seals `value` with a fresh nonce drawn from `rng`.
    pub fn seal(n: u32, value: u32, rng: &mut dyn RngCore) -> SealedSecret {
        let mut nonce = [0u8; 16];
        rng.fill_bytes(&mut nonce);
        SealedSecret {
            n,
            value,
            nonce: hex::encode(nonce),
        }
    }

    pub fn commitment(&self) -> Option<String> {
        commitment(&self.nonce, self.value)
    }
}

/// `SHA-256(nonce bytes ‖ decimal value)` in lowercase hex; `None` when the nonce is not valid hex.
pub fn commitment(nonce_hex: &str, value: u32) -> Option<String> {
    let nonce = hex::decode(nonce_hex).ok()?;
    let mut hasher = Sha256::new();
    hasher.update(&nonce);
    hasher.update(value.to_string().as_bytes());
    Some(hex::encode(hasher.finalize()))
}

/// Whether a revealed value and nonce open the commitment the log holds.
pub fn reveal_matches(commitment_hex: &str, value: u32, nonce_hex: &str) -> bool {
    commitment(nonce_hex, value).is_some_and(|c| c == commitment_hex)
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
        assert!(reveal_matches(&committed, 14, &secret.nonce));
    }

    #[test]
    fn given_a_sealed_value_when_a_different_value_is_claimed_then_the_reveal_is_caught() {
        let mut rng = StdRng::seed_from_u64(2);
        let secret = SealedSecret::seal(0, 3, &mut rng);
        let committed = secret.commitment().unwrap();
        for wrong in [1, 2, 4, 13, 30] {
            assert!(!reveal_matches(&committed, wrong, &secret.nonce), "{wrong}");
        }
        let other_nonce = SealedSecret::seal(0, 3, &mut rng).nonce;
        assert!(
            !reveal_matches(&committed, 3, &other_nonce),
            "right value, wrong nonce"
        );
        assert!(!reveal_matches(&committed, 3, "not hex"));
    }

    #[test]
    fn two_seals_of_the_same_value_look_different() {
        let mut rng = StdRng::seed_from_u64(3);
        let a = SealedSecret::seal(0, 20, &mut rng).commitment();
        let b = SealedSecret::seal(0, 20, &mut rng).commitment();
        assert_ne!(a, b, "the nonce hides repeated values");
    }
}
