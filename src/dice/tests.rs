//! The dice source's tests: entered, seeded, sealed and asked-for dice, drawn in order.

use super::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

#[test]
fn dice_held_in_a_later_event_derive_from_its_seq_and_file_their_secrets_under_it() {
    let context = |seq| SeedContext {
        seed: [7; 32],
        sealed_seed: Some([7; 32]),
        campaign_id: "c".into(),
        epoch: 1,
        seq,
        entropy: String::new(),
        witness_by: None,
        roll: None,
    };
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::seeded(context(Seq(10)), &mut rng);
    let first = dice.roll(1000, "in the first event").unwrap();
    dice.hold_in_event(2);
    let (sealed, face) = dice.roll_sealed(1000, "in the third").unwrap();
    dice.hold_in_event(0);
    let last = dice.roll(1000, "back in the first").unwrap();
    assert_eq!(
        (first.n, sealed.n, last.n),
        (0, 1, 2),
        "the draw order runs on"
    );
    let at = |seq: Seq, n| fairness::seeded_face(&[7; 32], &context(seq).position(0, n), 1000);
    assert_eq!(first.value, Some(at(Seq(10), 0)));
    assert_eq!(face, at(Seq(12), 1), "derived from the third event's seq");
    assert_ne!(face, at(Seq(10), 1));
    assert_eq!(last.value, Some(at(Seq(10), 2)));
    let secrets = dice.finish().unwrap();
    assert_eq!((secrets[0].n, secrets[0].event), (1, 2));
}

/// An amendment draws its original's dice again (C-3): the same records, in order, under the
/// new purpose; a draw of another die, or past the last, is refused, and nothing is sealed anew.
#[test]
fn c3_replayed_dice_give_the_originals_records_and_refuse_any_other_die() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut original = Dice::entered(vec![4, 17], &mut rng);
    let recorded = vec![
        original.roll(6, "first").unwrap(),
        original.roll(20, "second").unwrap(),
    ];
    let mut rng = StdRng::seed_from_u64(1);
    let mut again = Dice::replaying(recorded.clone(), Default::default(), &mut rng);
    let first = again.roll(6, "first, +2").unwrap();
    assert_eq!(first.purpose, "first, +2");
    assert_eq!((first.n, first.value), (recorded[0].n, recorded[0].value));
    assert_eq!(again.left_unused(), 1);
    assert_eq!(
        again.roll(8, "second").unwrap_err(),
        DiceError::NotTheOriginals {
            position: 2,
            wanted: "a d8".into(),
            drawn: Some("a d20".into()),
            only_sealing: false,
        }
    );
    assert!(matches!(
        again.roll_sealed(20, "hidden"),
        Err(DiceError::NotTheOriginals { .. })
    ));
    assert_eq!(again.roll(20, "second").unwrap().value, Some(17));
    assert_eq!(
        again.roll(6, "third").unwrap_err(),
        DiceError::NotTheOriginals {
            position: 3,
            wanted: "a d6".into(),
            drawn: None,
            only_sealing: false,
        }
    );
    assert!(again.finish().unwrap().is_empty());
}

#[test]
fn entered_dice_are_used_in_order_and_recorded_as_entered() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::entered(vec![4, 17], &mut rng);
    let a = dice.roll(6, "first").unwrap();
    let b = dice.roll(20, "second").unwrap();
    assert_eq!((a.n, a.value, b.n, b.value), (0, Some(4), 1, Some(17)));
    assert_eq!(a.provenance, Provenance::Entered);
    assert!(dice.finish().unwrap().is_empty());
}

#[test]
fn entered_dice_refuse_a_face_the_die_does_not_have() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::entered(vec![7], &mut rng);
    let err = dice.roll(3, "learning cost").unwrap_err();
    assert_eq!(
        err,
        DiceError::OutOfRange {
            position: 1,
            value: 7,
            sides: 3,
            purpose: "learning cost".into()
        }
    );
    let mut dice = Dice::entered(vec![0], &mut rng);
    assert!(matches!(
        dice.roll(20, "x"),
        Err(DiceError::OutOfRange { value: 0, .. })
    ));
}

#[test]
fn entered_dice_refuse_too_few_and_too_many_values() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::entered(vec![2], &mut rng);
    dice.roll(6, "a").unwrap();
    assert!(matches!(
        dice.roll(6, "b"),
        Err(DiceError::TooFew { given: 1, .. })
    ));
    let mut dice = Dice::entered(vec![2, 3, 4], &mut rng);
    dice.roll(6, "a").unwrap();
    assert_eq!(dice.finish(), Err(DiceError::TooMany { given: 3, used: 1 }));
}

#[test]
fn seeded_dice_follow_the_fairness_derivation() {
    for roll in [None, Some(3)] {
        let mut rng = StdRng::seed_from_u64(0);
        let ctx = SeedContext {
            seed: [5u8; 32],
            sealed_seed: Some([5u8; 32]),
            campaign_id: "camp".into(),
            epoch: 2,
            seq: Seq(40),
            entropy: "moon".into(),
            witness_by: None,
            roll,
        };
        let mut dice = Dice::seeded(ctx, &mut rng);
        let first = dice.roll(20, "a").unwrap();
        let second = dice.roll(20, "b").unwrap();
        for die in [&first, &second] {
            let pos = DiePosition {
                campaign_id: "camp",
                epoch: 2,
                seq: Seq(40),
                roll,
                n: die.n,
                entropy: "moon",
            };
            assert_eq!(die.value, Some(fairness::seeded_face(&[5u8; 32], &pos, 20)));
            assert_eq!(
                die.provenance,
                Provenance::Seeded {
                    epoch: 2,
                    roll,
                    witness: None
                }
            );
        }
    }
}

/// In an epoch with a second seed, a sealed die comes from it and an open die from the first:
/// publishing the first opens no sealed die. A file without the second refuses a sealed draw
/// and still rolls an open one.
#[test]
fn a_sealed_die_comes_from_the_epochs_second_seed_when_it_has_one() {
    let context = |sealed_seed| SeedContext {
        seed: [7; 32],
        sealed_seed,
        campaign_id: "c".into(),
        epoch: 3,
        seq: Seq(10),
        entropy: "owls".into(),
        witness_by: None,
        roll: Some(0),
    };
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::seeded(context(Some([9; 32])), &mut rng);
    let open = dice.roll(1000, "open").unwrap();
    let (_, sealed) = dice
        .roll_sealed_chain(1000, "sealed", |f| f.len() < 3)
        .unwrap();
    let at =
        |seed: &[u8; 32], n| fairness::seeded_faces(seed, &context(None).position(0, n), 1000, 3);
    assert_eq!(open.value, Some(at(&[7; 32], 0)[0]));
    assert_eq!(sealed, at(&[9; 32], 1));
    assert_ne!(sealed, at(&[7; 32], 1));
    let mut dice = Dice::seeded(context(None), &mut rng);
    assert!(dice.roll(20, "open").is_ok());
    let refused = dice.roll_sealed(20, "sealed").unwrap_err();
    assert_eq!(refused, DiceError::NoSealedSeed { epoch: 3 });
    assert!(
        refused
            .to_string()
            .contains("no seed for dice epoch 3's sealed dice")
    );
}

/// In an epoch of the second derivation every die of a command is bound to the command's roll
/// number, in whichever of its events it is held: the seq plays no part, so an event that rolls
/// nothing, recorded before, moves no die.
#[test]
fn dice_bound_to_a_roll_number_do_not_move_with_the_seq() {
    let faces = |seq: Seq| {
        let mut rng = StdRng::seed_from_u64(0);
        let mut dice = Dice::seeded(
            SeedContext {
                seed: [7; 32],
                sealed_seed: Some([7; 32]),
                campaign_id: "c".into(),
                epoch: 1,
                seq,
                entropy: String::new(),
                witness_by: None,
                roll: Some(4),
            },
            &mut rng,
        );
        let first = dice.roll(1000, "first").unwrap();
        dice.hold_in_event(2);
        let (sealed, face) = dice.roll_sealed(1000, "in the third event").unwrap();
        assert_eq!(sealed.provenance.roll(), Some(4));
        (first.value, face)
    };
    assert_eq!(
        faces(Seq(10)),
        faces(Seq(12)),
        "two events that rolled nothing came between"
    );
}

#[test]
fn a_sealed_die_hides_its_value_and_keeps_an_opening_secret() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::entered(vec![11], &mut rng);
    let (die, value) = dice.roll_sealed(20, "GM check").unwrap();
    assert_eq!((die.value, value), (None, 11));
    let secrets = dice.finish().unwrap();
    let Provenance::Sealed { commitment, origin } = &die.provenance else {
        panic!("not sealed")
    };
    assert!(sealed::reveal_matches(commitment, &[11], &secrets[0].nonce));
    assert_eq!(origin, &Some(SealedOrigin::Entered), "the GM typed it");
}

#[test]
fn a_seedless_file_refuses_to_roll_naming_the_epoch_it_has_no_seed_for() {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::without_seed(3, &mut rng);
    let err = dice.roll(6, "x").unwrap_err();
    assert_eq!(err, DiceError::NoSeed { epoch: 3 });
    assert!(
        err.to_string().contains("no seed for dice epoch 3"),
        "{err}"
    );
}
