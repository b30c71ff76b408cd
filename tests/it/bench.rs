//! The benchmark harness as a person running it meets it: a mistyped mode or flag is a usage
//! error naming every mode, and a run that fails makes the harness fail. (Nothing here times
//! anything: speed is the harness's own business, never a test's.)

use std::process::Command;

fn bench(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grimoire-bench"))
        .args(args)
        .output()
        .expect("the harness runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const MODES: [&str; 8] = [
    "postgres URL",
    "serve-load",
    "players-load",
    "players-fair",
    "differential",
    "replay-peak DB",
    "profile DB",
    "append DB",
];

#[test]
fn a_mistyped_mode_or_flag_exits_2_with_a_usage_that_names_every_mode() {
    for args in [
        vec!["--bogus"],
        vec!["nope"],
        vec!["--sizes", "ten"],
        vec!["serve-load", "--phones"],
        vec!["differential", "--cases", "many"],
        vec!["postgres"],
        vec!["replay-peak"],
        vec!["append"],
        vec!["append", "campaign.db", "--appends", "many"],
    ] {
        let (code, out, err) = bench(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed a table: {out}");
        for mode in MODES {
            assert!(
                err.contains(&format!("grimoire-bench {mode}")),
                "{args:?}: {err}"
            );
        }
    }
    let (code, out, _) = bench(&["--help"]);
    assert_eq!(code, 0);
    assert!(MODES.iter().all(|mode| out.contains(mode)), "{out}");
}

#[test]
fn a_run_that_fails_makes_the_harness_exit_1_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such.db");
    for mode in ["replay-peak", "append"] {
        let (code, _, err) = bench(&[mode, missing.to_str().unwrap()]);
        assert_eq!(code, 1, "{mode}: {err}");
        assert!(err.contains("there is no campaign file"), "{mode}: {err}");
    }
}
