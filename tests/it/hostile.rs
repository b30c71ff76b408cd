//! Hostile input: whatever is typed or fed in, grimoire answers with an error, never a panic or a
//! partial write. 115,060 generated cases per run: 40,000 dice expressions, 40,000 durations,
//! 25,000 export lines, 10,000 --rolls lists and 60 whole imports with a hostile line.

use clap::Parser;
use grimoire::dice::DiceExpr;
use grimoire::store::Store;
use grimoire::store::jsonl::{Line, parse_line};
use grimoire::store::testkit::Writes;
use grimoire::time::GameDuration;
use grimoire::verify::ChainCheck;
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Text that looks a little like what the parsers expect, with huge numbers and odd characters.
fn dicey() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[0-9]{1,25}",
        Just("d".to_string()),
        Just("D".to_string()),
        Just("oe".to_string()),
        Just("d%".to_string()),
        Just("+".to_string()),
        Just("-".to_string()),
        Just(" ".to_string()),
        "[a-zA-Z%!,.]{1,3}",
        "\\PC{1,2}",
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|parts| parts.concat())
}

fn durationish() -> impl Strategy<Value = String> {
    let piece = prop_oneof!["[0-9]{1,22}", "[rmhdwRMHDW]", Just(" ".to_string()), "\\PC"];
    proptest::collection::vec(piece, 0..8).prop_map(|parts| parts.concat())
}

/// JSON-ish lines: deep nesting, huge numbers, unknown kinds, wrong types, fragments of real lines.
fn lineish() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..3000).prop_map(|depth| format!("{}{}", "[".repeat(depth), "]".repeat(depth))),
        (1usize..3000).prop_map(|depth| format!("{{\"payload\":{}1{}}}", "{\"a\":".repeat(depth), "}".repeat(depth))),
        "[0-9]{30,80}".prop_map(|n| format!("{{\"seq\":{n}}}")),
        "[a-z_]{1,20}".prop_map(|kind| format!(
            "{{\"seq\":1,\"event_id\":\"x\",\"kind\":\"{kind}\",\"schema_version\":1,\"payload\":{{\"kind\":\"{kind}\"}},\"game_time\":0,\"recorded_at\":\"t\",\"session\":null,\"actor\":\"a\",\"prev_hash\":\"0\",\"hash\":\"0\"}}"
        )),
        "\\PC{0,200}",
        any::<Vec<u8>>().prop_map(|b| String::from_utf8_lossy(&b).to_string()),
    ]
}

proptest! {
    #![proptest_config(config(40_000))]

    #[test]
    fn dice_expressions_never_panic(text in dicey()) {
        if let Ok(expr) = DiceExpr::parse(&text) {
            // Whatever parses prints back to something that parses to the same expression.
            prop_assert_eq!(DiceExpr::parse(&expr.to_string()).unwrap(), expr);
        }
    }

    #[test]
    fn durations_never_panic_and_stay_bounded(text in durationish()) {
        if let Ok(d) = GameDuration::parse(&text) {
            prop_assert!(d.seconds() > 0 && d.seconds() <= grimoire::time::MAX_ADVANCE_SECONDS);
        }
    }
}

proptest! {
    #![proptest_config(config(25_000))]

    #[test]
    fn export_lines_never_panic_and_never_pass_the_chain_check_by_accident(text in lineish()) {
        if let Ok(Line::Event(row)) = parse_line(&text) {
            prop_assert!(ChainCheck::default().check(&row).is_err());
        }
    }

}

proptest! {
    // clap builds the whole command line per case, so fewer cases here.
    #![proptest_config(config(10_000))]

    #[test]
    fn rolls_lists_never_panic(values in proptest::collection::vec(any::<u64>(), 0..40), junk in "\\PC{0,10}") {
        let text = values.iter().map(u64::to_string).collect::<Vec<_>>().join(",") + &junk;
        let parsed = grimoire::cli::Cli::try_parse_from(["grimoire", "--rolls", text.as_str(), "head"]).is_ok();
        let valid = text.split(',').all(|v| v.trim().parse::<u32>().is_ok());
        prop_assert_eq!(parsed, valid, "{}", text);
    }
}

/// One small campaign's export, made once for every case.
fn exported() -> &'static Vec<String> {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let source = crate::support::Campaign::with_party();
        source.ok(&["export"]).lines().map(str::to_string).collect()
    })
}

proptest! {
    #![proptest_config(config(60))]

    /// Through the real import, into a real file: a hostile line anywhere refuses the whole file.
    #[test]
    fn a_hostile_line_refuses_the_whole_import(line in lineish(), at in 0usize..5) {
        let mut lines = exported().clone();
        lines.insert(at.min(lines.len()), line);
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("target.db");
        let mut store = Store::create_new(&db).unwrap().publish().unwrap();
        let numbered = lines.into_iter().enumerate().map(|(i, l)| (i as u64 + 1, Ok(l)));
        prop_assert!(store
            .import(numbered, &mut ChainCheck::default())
            .is_err());
        prop_assert!(store.head().unwrap().is_none(), "nothing was written");
    }
}
