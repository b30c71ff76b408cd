//! The dice audit's counting and its chi-square test, on rolls made fair and made not.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn tally(sides: u32, faces: impl IntoIterator<Item = u32>) -> Tally {
    let mut audit = Audit::default();
    for face in faces {
        audit.count(sides, Source::Entered, face, &Roller::default());
    }
    audit.tallies().remove(0)
}

fn flagged(findings: &[Finding], question: Question) -> bool {
    findings.iter().any(|f| f.question == question && f.flagged)
}

/// 100 typed d20s where Aldric always rolls 11 to 20 and the goblin 1 to 10: the pool is as
/// even as can be (five of each face), so the test against a fair die passes, and only the
/// comparison between the characters catches it. (50 rolls each allow 50 / 5 = 10 ranges of two
/// faces; each roller has 10 in five ranges and 0 in the other five, every cell expected 5:
/// chi-square 20 × (5²/5) = 100 on (2 − 1) × (10 − 1) = 9 degrees of freedom.)
#[test]
fn a_rigged_split_whose_pool_looks_fair_is_flagged_by_the_comparison_between_characters() {
    let mut audit = Audit::default();
    for i in 0..50u32 {
        let aldric = Roller {
            character: "aldric".into(),
            actor: "gm".into(),
        };
        let goblin = Roller {
            character: "the goblin".into(),
            actor: "gm".into(),
        };
        audit.count(20, Source::Entered, 11 + i % 10, &aldric);
        audit.count(20, Source::Entered, 1 + i % 10, &goblin);
    }
    let tallies = audit.tallies();
    assert!(matches!(tallies[0].verdict(), Verdict::Judged { p_value, .. } if p_value > 0.99));
    let findings = judge(&tallies);
    let split = findings
        .iter()
        .find(|f| f.question == Question::Characters)
        .unwrap();
    assert!((split.chi_square - 100.0).abs() < 1e-9, "{split:?}");
    assert_eq!((split.degrees_of_freedom, split.face_ranges), (9, Some(10)));
    assert!(split.flagged, "{split:?}");
    assert!(!flagged(&findings, Question::Uneven));
    // Five of each face is also more even than chance makes 100 rolls: flagged as too good.
    assert!(flagged(&findings, Question::TooEven));
}

#[test]
fn rollers_too_few_for_a_test_of_their_own_are_pooled_and_still_count() {
    let mut audit = Audit::default();
    // Twelve players with 8 rolls each (too few for two ranges alone): pooled as "others".
    for p in 0..12u32 {
        for i in 0..8u32 {
            let who = Roller {
                character: format!("p{p}"),
                actor: "gm".into(),
            };
            audit.count(20, Source::Entered, 1 + (p * 8 + i) % 20, &who);
        }
    }
    // One more who always rolls high.
    let cheat = Roller {
        character: "cheat".into(),
        actor: "gm".into(),
    };
    for i in 0..40u32 {
        audit.count(20, Source::Entered, 16 + i % 5, &cheat);
    }
    let findings = judge(&audit.tallies());
    let split = findings
        .iter()
        .find(|f| f.question == Question::Characters)
        .unwrap();
    assert_eq!(split.compared, ["cheat", "others"]);
    assert!(split.flagged, "{split:?}");
}

/// A split by alternate ranges of faces (A only 1–5 and 11–15, B only 6–10 and 16–20, each
/// half of the die alike) hides from a test in two ranges, to which a third roller with ten
/// rolls would coarsen the comparison; the fine test, at the busy rollers' resolution, flags it.
#[test]
fn a_small_roller_cannot_coarsen_the_comparison_to_hide_a_split() {
    let mut audit = Audit::default();
    let mut rng = StdRng::seed_from_u64(5);
    let who = |name: &str| Roller {
        character: name.into(),
        actor: "gm".into(),
    };
    for _ in 0..300 {
        let low = rng.random_range(1..=5);
        let a = if rng.random_bool(0.5) { low } else { low + 10 };
        let b = if rng.random_bool(0.5) {
            low + 5
        } else {
            low + 15
        };
        audit.count(20, Source::Entered, a, &who("a"));
        audit.count(20, Source::Entered, b, &who("b"));
    }
    for _ in 0..10 {
        audit.count(20, Source::Entered, rng.random_range(1..=20), &who("c"));
    }
    let findings = judge(&audit.tallies());
    let between: Vec<_> = findings
        .iter()
        .filter(|f| f.question == Question::Characters)
        .collect();
    assert_eq!(
        between.iter().map(|f| f.face_ranges).collect::<Vec<_>>(),
        [Some(2), Some(20)]
    );
    assert!(!between[0].flagged, "the coarse test alone misses it");
    assert!(between[1].flagged, "{:?}", between[1]);
}

/// Fair dice from many seeds, split among several characters and actors: no test is flagged
/// once adjusted for how many were run.
#[test]
fn fair_dice_split_among_rollers_are_not_flagged() {
    for seed in 0..20u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut audit = Audit::default();
        for i in 0..3000u32 {
            let who = Roller {
                character: format!("c{}", i % 7),
                actor: format!("a{}", i % 3),
            };
            audit.count(20, Source::Seeded, rng.random_range(1..=20), &who);
            audit.count(6, Source::Entered, rng.random_range(1..=6), &who);
        }
        let findings = judge(&audit.tallies());
        assert!(
            findings.iter().all(|f| !f.flagged),
            "seed {seed}: {findings:?}"
        );
    }
}

fn p_value(tally: &Tally) -> f64 {
    match tally.verdict() {
        Verdict::Judged { p_value, .. } => p_value,
        Verdict::TooFew { needs } => panic!("needs {needs}"),
    }
}

#[test]
fn a_perfectly_even_run_has_chi_square_zero_and_p_one() {
    let even = tally(6, (0..60).map(|i| i % 6 + 1));
    assert_eq!(
        even.verdict(),
        Verdict::Judged {
            chi_square: 0.0,
            degrees_of_freedom: 5,
            p_value: 1.0,
        }
    );
}

#[test]
fn the_statistic_and_p_value_match_a_worked_example() {
    // 60 rolls of a d6 showing 5, 8, 9, 8, 10, 20: chi-square 13.4 on 5 degrees of freedom,
    // p ≈ 0.0199 (tables of the chi-square distribution).
    let faces = [(1, 5), (2, 8), (3, 9), (4, 8), (5, 10), (6, 20)]
        .into_iter()
        .flat_map(|(face, times)| std::iter::repeat_n(face, times));
    let t = tally(6, faces);
    let Verdict::Judged {
        chi_square,
        p_value,
        ..
    } = t.verdict()
    else {
        panic!("judged");
    };
    assert!((chi_square - 13.4).abs() < 1e-9, "{chi_square}");
    assert!((p_value - 0.0199).abs() < 0.0005, "{p_value}");
    assert!(judge(std::slice::from_ref(&t)).iter().all(|f| !f.flagged));
    assert_eq!(t.most_frequent(), Some((6, 20)));
}

#[test]
fn fair_dice_from_a_fixed_seed_pass_and_loaded_ones_are_flagged() {
    let mut rng = StdRng::seed_from_u64(11);
    let fair = tally(20, (0..10_000).map(|_| rng.random_range(1..=20)));
    assert!(p_value(&fair) > FLAG_BELOW, "{}", p_value(&fair));
    // A die that shows 20 one time in ten instead of one in twenty.
    let loaded = tally(
        20,
        (0..2_000).map(|i| {
            if i % 10 == 0 {
                20
            } else {
                rng.random_range(1..=19)
            }
        }),
    );
    assert!(p_value(&loaded) < FLAG_BELOW, "{}", p_value(&loaded));
}

#[test]
fn too_few_rolls_say_how_many_are_needed() {
    assert_eq!(tally(20, 1..=20).verdict(), Verdict::TooFew { needs: 100 });
    assert!(matches!(
        tally(20, (0..100).map(|i| i % 20 + 1)).verdict(),
        Verdict::Judged { .. }
    ));
}

#[test]
fn faces_off_the_die_are_left_out() {
    assert_eq!(tally(6, [0, 7, 3]).counts, vec![0, 0, 1, 0, 0, 0]);
}
