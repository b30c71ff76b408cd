//! Whatever the log accepts must restore from a backup: every kind of event that carries text,
//! recorded with each text at its largest accepted size (in characters of up to four bytes, with
//! quotes and backslashes that JSON doubles), exports and imports back to the same chain head.

use crate::support::Campaign;
use proptest::prelude::*;

/// Text of exactly `length` characters drawn from `alphabet`, never starting or ending with a space.
fn text(length: usize) -> impl Strategy<Value = String> {
    let alphabet = vec!['a', 'Z', 'é', 'Ж', '"', '\\', '😀', '𝔊', ' ', '5'];
    proptest::collection::vec(proptest::sample::select(alphabet), length).prop_map(|chars| {
        let mut s: String = chars.into_iter().collect();
        s.replace_range(..s.chars().next().map_or(0, char::len_utf8), "A");
        if s.ends_with(' ') {
            s.pop();
            s.push('z');
        }
        s
    })
}

/// The sample tables grown to the largest a tables file may be: 100 entries in each chart, every
/// text 500 characters, every word 60.
fn largest_tables(note: &str, word: &str) -> serde_json::Value {
    let mut tables = crate::support::sample_tables();
    tables["name"] = note.into();
    for list in tables["word_lists"].as_array_mut().unwrap() {
        for (i, entry) in list.as_array_mut().unwrap().iter_mut().enumerate() {
            // Each word unique, so the lists stay usable.
            let mut w: String = word.chars().take(58).collect();
            w.push_str(&format!("{i:02}"));
            entry["word"] = w.clone().into();
            entry["reverse"] =
                format!("{}{i:02}", word.chars().rev().take(58).collect::<String>()).into();
        }
    }
    for chart in ["mishaps", "damaged_scrolls"] {
        let template = tables[chart][1].clone();
        let entries: Vec<serde_json::Value> = (0..100)
            .map(|i| {
                let mut e = template.clone();
                e["min"] = (i + 2).into();
                e["max"] = (i + 2).into();
                e["text"] = note.into();
                e
            })
            .collect();
        tables[chart] = entries.into();
        tables[chart][99].as_object_mut().unwrap().remove("max");
    }
    tables
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_event_kind_at_its_largest_accepted_size_exports_and_imports_back(
        name in text(60), other in text(60), note in text(500), word in text(60),
    ) {
        let c = Campaign::empty();
        c.ok(&["--actor", &other, "init", "--name", &name]);
        let file = c.dir.path().join("tables.json");
        std::fs::write(&file, largest_tables(&note, &word).to_string()).unwrap();
        c.ok(&["tables", "load", file.to_str().unwrap()]);
        c.ok(&["character", "add", &name, "--system", "adg", "--level", "2", "--agility", "11",
            "--brawn", "9", "--cunning", "13", "--health", "8", "--silver", "400"]);
        c.ok(&["character", "add", &other, "--system", "vsd", "--level", "3", "--vocation", &word,
            "--lore", &format!("{word}=45:6"), "--mp", "12", "--drive", "3", "--body", "40",
            "--wsr", "20", "--defense", "10", "--health", "14"]);
        c.ok(&["session", "start", "--entropy", &note]);
        c.ok(&["roll", "d20", "--for", &note, "--character", &name]);
        c.ok(&["roll", "oe", "--sealed", "--for", &note]);
        c.ok(&["exert", &name, "brawn", "1", "--reason", &note]);
        c.ok(&["silver", &name, "+1000000", "--reason", &note]);
        c.ok(&["character", "set", &name, "--silver", "401", "--reason", &note]);
        let damage = c.seq_of(&["damage", &name, "1"]);
        c.ok(&["retract", &damage.to_string(), "--reason", &note]);
        c.ok(&["--rolls", "1,4", "ritual", "learn", &name, &other, "--type", "phrase", "--pay", "health"]);
        c.ok(&["--rolls", "9", "ritual", "cast", &name, &other]);
        c.ok(&["spell", "learn", &other, &name, "--lore", &word, "--weave", "2", "--kind", "defensive"]);
        c.ok(&["drive", &other, "+1", "--reason", &note]);
        c.ok(&["session", "end"]);
        c.ok(&["scroll", "write", &name, &other, "--level", "1", "--effect", &note]);
        let restored = c.restored();
        prop_assert_eq!(restored.head(), c.head());
        prop_assert!(restored.ok(&["verify"]).contains("all checks hold"));
    }
}
