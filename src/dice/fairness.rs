//! The provably fair die: HMAC-SHA256 of a secret epoch seed, turned into a uniform face by
//! rejection sampling. README.md ("Checking a roll yourself") writes the same steps out for people who
//! want to re-implement the check; keep the two in step.

use crate::ids::RequestId;
use crate::seq::Seq;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// The derivation new epochs use: each seeded die bound to its command's roll number in the epoch.
pub const ROLL_BOUND_DERIVATION: u32 = 2;

/// Everything, besides the seed, that a seeded die depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiePosition<'a> {
    pub campaign_id: &'a str,
    pub epoch: u32,
    /// The seq of the event holding the die: what binds it in epochs of the first derivation.
    pub seq: Seq,
    /// The command's roll number in its epoch (how many earlier commands of the epoch drew seeded
    /// dice, retracted ones included): what binds it in epochs of the second derivation, so an
    /// event that rolls nothing moves no die. `None` in epochs of the first.
    pub roll: Option<u64>,
    /// The die's index in its command's draw order, from 0.
    pub n: u32,
    /// The text the players gave at `session start` (empty outside a session or when none was given).
    pub entropy: &'a str,
}

/// The message for block `k` of a die. The entropy comes last, so text containing `|` cannot be
/// confused with the numeric fields before it. `part` numbers the further dice of one sealed result
/// (an open-ended chain sealed whole is one entry in the draw order): part 0 is the die itself and
/// is written `N`, part k ≥ 1 is written `N/k`. The first derivation (`grimoire-die-v1`) binds a
/// die to its event's seq; the second (`grimoire-die-v2`) to its command's roll number.
pub fn message(pos: &DiePosition<'_>, part: u32, block: u32) -> String {
    let n = if part == 0 {
        pos.n.to_string()
    } else {
        format!("{}/{part}", pos.n)
    };
    let (version, place) = match pos.roll {
        Some(roll) => (2, roll),
        None => (1, pos.seq.get()),
    };
    format!(
        "grimoire-die-v{version}|{}|{}|{place}|{n}|{block}|{}",
        pos.campaign_id, pos.epoch, pos.entropy
    )
}

/// The face (1..=sides) of the die at `pos` under `seed`.
///
/// Each HMAC block gives eight 32-bit big-endian words. A word at or above the largest multiple of
/// `sides` below 2^32 is rejected (taking it `% sides` would favour low faces); the first accepted
/// word gives `word % sides + 1`. If all eight are rejected, block k+1 is computed.
pub fn seeded_face(seed: &[u8; 32], pos: &DiePosition<'_>, sides: u32) -> u32 {
    seeded_part(seed, pos, 0, sides)
}

/// The face of part `part` of the sealed result at `pos` (part 0 is [`seeded_face`]).
pub fn seeded_part(seed: &[u8; 32], pos: &DiePosition<'_>, part: u32, sides: u32) -> u32 {
    face_of(seed, sides, |block| message(pos, part, block))
}

/// The face (1..=sides) the HMAC blocks keyed by `key` over `message(block)` give, by rejection
/// sampling: the one procedure behind seeded and device dice alike.
fn face_of(key: &[u8; 32], sides: u32, message: impl Fn(u32) -> String) -> u32 {
    // A die with no faces (only a forged record holds one) shows nothing any face could match.
    if sides == 0 {
        return 0;
    }
    let range = 1u64 << 32;
    let limit = range - range % u64::from(sides);
    let mut block = 0u32;
    loop {
        let mut mac = HmacSha256::new_from_slice(key).expect("HMAC accepts keys of any length");
        mac.update(message(block).as_bytes());
        let digest = mac.finalize().into_bytes();
        for word in digest.chunks_exact(4) {
            let w = u64::from(u32::from_be_bytes([word[0], word[1], word[2], word[3]]));
            if w < limit {
                return (w % u64::from(sides)) as u32 + 1;
            }
        }
        block += 1;
    }
}

/// How many bytes a player's device adds to a roll put to it: as many as the secret it meets.
pub const CONTRIBUTION_BYTES: usize = 32;

/// The message for block `block` of part `part` of die `n` of a roll put to a device (README,
/// "Dice a player's phone rolls"): the request's number binds the die to the request the log
/// records, and the device's bytes come last, in lowercase hex.
pub fn device_message(
    request: RequestId,
    n: u32,
    part: u32,
    block: u32,
    contribution: &[u8],
) -> String {
    let n = if part == 0 {
        n.to_string()
    } else {
        format!("{n}/{part}")
    };
    format!(
        "grimoire-device-die-v1|{request}|{n}|{block}|{}",
        hex::encode(contribution)
    )
}

/// The face of part `part` of die `n` of request `request`, from the GM side's secret `g` (whose
/// SHA-256 the request recorded) and the bytes the device sent after it saw the request.
pub fn device_part(
    g: &[u8; 32],
    request: RequestId,
    contribution: &[u8],
    n: u32,
    part: u32,
    sides: u32,
) -> u32 {
    face_of(g, sides, |block| {
        device_message(request, n, part, block, contribution)
    })
}

/// The faces of a sealed result of `count` dice at `pos` (an open-ended chain sealed whole): part 0,
/// then parts 1, 2, … as the README's derivation writes `n/k`.
pub fn seeded_faces(seed: &[u8; 32], pos: &DiePosition<'_>, sides: u32, count: usize) -> Vec<u32> {
    (0..count)
        .map(|part| seeded_part(seed, pos, u32::try_from(part).unwrap_or(u32::MAX), sides))
        .collect()
}

/// The public commitment to an epoch seed: lowercase hex SHA-256 of its 32 bytes.
pub fn seed_commitment(seed: &[u8; 32]) -> String {
    hex::encode(Sha256::digest(seed))
}

/// Reads a 64-hex-digit seed.
pub fn parse_seed(hex_text: &str) -> Option<[u8; 32]> {
    let bytes = hex::decode(hex_text.trim()).ok()?;
    bytes.try_into().ok()
}

/// Whether `hex_text` is a seed that opens `commitment`: what a published or kept seed must do.
pub fn opens(hex_text: &str, commitment: &str) -> bool {
    parse_seed(hex_text).is_some_and(|seed| seed_commitment(&seed) == commitment)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device die depends on the secret, the request, its place and every byte the device sent.
    #[test]
    fn a_device_die_depends_on_the_secret_the_request_and_the_devices_bytes() {
        let faces = |g: [u8; 32], request: u32, bytes: &[u8]| -> Vec<u32> {
            (0..16)
                .map(|n| device_part(&g, RequestId(request), bytes, n, 0, 1000))
                .collect()
        };
        let base = faces([1; 32], 1, &[5; 32]);
        assert_eq!(base, faces([1; 32], 1, &[5; 32]));
        assert_ne!(base, faces([2; 32], 1, &[5; 32]), "another secret");
        assert_ne!(base, faces([1; 32], 2, &[5; 32]), "another request");
        let mut one_bit = [5u8; 32];
        one_bit[31] ^= 1;
        assert_ne!(base, faces([1; 32], 1, &one_bit), "one bit of the device's");
        assert_ne!(
            device_part(&[1; 32], RequestId(1), &[5; 32], 0, 0, 1000),
            device_part(&[1; 32], RequestId(1), &[5; 32], 0, 1, 1000),
            "a chain's further part"
        );
        assert_eq!(
            device_message(RequestId(3), 1, 2, 0, &[0xab, 0x01]),
            "grimoire-device-die-v1|3|1/2|0|ab01"
        );
    }

    fn pos(n: u32) -> DiePosition<'static> {
        DiePosition {
            campaign_id: "c",
            epoch: 1,
            seq: Seq(7),
            roll: None,
            n,
            entropy: "",
        }
    }

    #[test]
    fn faces_stay_in_range_for_every_common_die() {
        let seed = [9u8; 32];
        for sides in [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 1000] {
            for n in 0..200 {
                let face = seeded_face(&seed, &pos(n), sides);
                assert!((1..=sides).contains(&face), "d{sides} gave {face}");
            }
        }
    }

    #[test]
    fn a_die_depends_on_seed_position_and_entropy() {
        let faces = |seed: [u8; 32], make: &dyn Fn(u32) -> DiePosition<'static>| -> Vec<u32> {
            (0..16)
                .map(|n| seeded_face(&seed, &make(n), 1000))
                .collect()
        };
        let base = faces([1u8; 32], &pos);
        assert_eq!(
            base,
            faces([1u8; 32], &pos),
            "same inputs give the same faces"
        );
        assert_ne!(base, faces([2u8; 32], &pos), "another seed");
        assert_ne!(
            base,
            faces([1u8; 32], &|n| DiePosition {
                seq: Seq(8),
                ..pos(n)
            }),
            "another seq"
        );
        assert_ne!(
            base,
            faces([1u8; 32], &|n| DiePosition { epoch: 2, ..pos(n) }),
            "another epoch"
        );
        assert_ne!(
            base,
            faces([1u8; 32], &|n| DiePosition {
                roll: Some(7),
                ..pos(n)
            }),
            "the second derivation, even at a roll number equal to the seq"
        );
        assert_ne!(
            base,
            faces([1u8; 32], &|n| DiePosition {
                campaign_id: "d",
                ..pos(n)
            }),
            "another campaign"
        );
        assert_ne!(
            base,
            faces([1u8; 32], &|n| DiePosition {
                entropy: "owl",
                ..pos(n)
            }),
            "other entropy"
        );
    }

    #[test]
    fn d20_faces_are_roughly_uniform() {
        let seed = [3u8; 32];
        let mut counts = [0u32; 20];
        for n in 0..20_000 {
            counts[seeded_face(&seed, &pos(n), 20) as usize - 1] += 1;
        }
        // Expected 1000 each; a fair die lands within ±15% of that here with overwhelming odds.
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn commitment_is_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes, a widely published value.
        assert_eq!(
            seed_commitment(&[0u8; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
