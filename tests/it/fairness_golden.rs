//! The fairness derivation's golden vectors: the worked example in README.md, checked against the code
//! and against the README text itself, so the two cannot drift apart.

use grimoire::dice::{DiePosition, fairness};
use grimoire::ids::RequestId;
use grimoire::seq::Seq;
use hmac::{Hmac, Mac};
use sha2::Sha256;

const SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const CAMPAIGN: &str = "5e7c0b1a-3f2d-4c8e-9a61-2b4d8f0e7c13";
const ENTROPY: &str = "owls at midnight";

fn seed() -> [u8; 32] {
    fairness::parse_seed(SEED_HEX).unwrap()
}

fn position(n: u32) -> DiePosition<'static> {
    DiePosition {
        campaign_id: CAMPAIGN,
        epoch: 1,
        seq: Seq(42),
        roll: None,
        n,
        entropy: ENTROPY,
    }
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The second derivation's worked example in README.md: the same seed, bound to roll 7 of the
/// epoch rather than to seq 42.
#[test]
fn the_readme_worked_example_of_the_second_derivation_derives_a_d20_of_7() {
    let message = format!("grimoire-die-v2|{CAMPAIGN}|1|7|0|0|{ENTROPY}");
    let mut mac = Hmac::<Sha256>::new_from_slice(&seed()).unwrap();
    mac.update(message.as_bytes());
    let digest = hex::encode(mac.finalize().into_bytes());
    assert_eq!(
        digest,
        "e10326fa380e67ae111a50077598cb227a417b529d78fc235a282073de62e06e"
    );
    let at_roll_7 = DiePosition {
        roll: Some(7),
        ..position(0)
    };
    assert_eq!(fairness::message(&at_roll_7, 0, 0), message);
    assert_eq!(fairness::seeded_face(&seed(), &at_roll_7, 20), 7);
    let text = readme();
    for needle in [message.as_str(), digest.as_str(), "3775080186", "= 7"] {
        assert!(
            text.contains(needle),
            "README.md's second worked example lacks {needle}"
        );
    }
}

#[test]
fn the_readme_worked_example_derives_a_d20_of_12() {
    assert_eq!(
        fairness::seed_commitment(&seed()),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
    let message = format!("grimoire-die-v1|{CAMPAIGN}|1|42|0|0|{ENTROPY}");
    let mut mac = Hmac::<Sha256>::new_from_slice(&seed()).unwrap();
    mac.update(message.as_bytes());
    let digest = hex::encode(mac.finalize().into_bytes());
    assert_eq!(
        digest,
        "8000f9c7a301e9d84510a27a41f08ac4a3634ea92bb557f5f0ad56bea81545d1"
    );
    assert_eq!(fairness::seeded_face(&seed(), &position(0), 20), 12);

    let text = readme();
    for needle in [
        SEED_HEX,
        CAMPAIGN,
        message.as_str(),
        digest.as_str(),
        "2147547591",
        "4294967280",
        "= 12",
    ] {
        assert!(
            text.contains(needle),
            "README.md's worked example lacks {needle}"
        );
    }
}

#[test]
fn further_golden_dice_of_the_same_event() {
    assert_eq!(fairness::seeded_face(&seed(), &position(1), 6), 2);
    assert_eq!(fairness::seeded_face(&seed(), &position(2), 100), 26);
}

#[test]
fn a_rejected_word_is_skipped_never_folded_with_modulo() {
    // With 2^31+1 sides almost half of all words fall in the rejected zone; at n = 0 the first two
    // words do (2147547591 and 2734811608), so the face comes from a later word.
    let sides = (1u32 << 31) + 1;
    let face = fairness::seeded_face(&seed(), &position(0), sides);
    assert_eq!(face, 1_158_718_075);
    assert_ne!(
        face,
        2_147_547_591 % sides + 1,
        "the first word was rejected, not reduced"
    );
}

/// The worked example of a die a player's phone rolls, in README.md.
#[test]
fn the_readme_worked_example_of_a_device_die_derives_a_d20_of_20() {
    let secret: [u8; 32] = std::array::from_fn(|i| 32 + i as u8);
    let contribution = [0x5a; 32];
    let commitment = fairness::seed_commitment(&secret);
    assert_eq!(
        commitment,
        "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
    );
    let message = fairness::device_message(RequestId(3), 0, 0, 0, &contribution);
    assert_eq!(
        message,
        format!("grimoire-device-die-v1|3|0|0|{}", "5a".repeat(32))
    );
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).unwrap();
    mac.update(message.as_bytes());
    let digest = hex::encode(mac.finalize().into_bytes());
    assert_eq!(
        digest,
        "855333571e8574ec9ebfaa32574cd0f4909ff9168e2d095db6a5b569e1993a2b"
    );
    assert_eq!(
        fairness::device_part(&secret, RequestId(3), &contribution, 0, 0, 20),
        20
    );
    let text = readme();
    for needle in [
        hex::encode(secret).as_str(),
        commitment.as_str(),
        message.as_str(),
        digest.as_str(),
        "2236822359",
        "= 20",
    ] {
        assert!(
            text.contains(needle),
            "README.md's device worked example lacks {needle}"
        );
    }
}
