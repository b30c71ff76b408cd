//! The repository's own rules document (docs/rules.md) names every clause grimoire implements, and
//! each clause has at least one test whose name carries its ID, so `cargo test adg_r9` finds them.

use std::path::Path;

/// Every function name in the Rust sources below `dir`.
fn function_names(dir: &Path, names: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            function_names(&path, names);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines() {
                if let Some(rest) = line.trim_start().strip_prefix("fn ") {
                    names.push(
                        rest.split(['(', '<'])
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                    );
                }
            }
        }
    }
}

/// `ADG-R9` → `adg_r9`, `VSD-12` → `vsd12`, `T-2` → `t2`, `C-1` → `c1`: how test names spell a
/// clause.
fn test_key(id: &str) -> String {
    let lower = id.to_lowercase();
    match lower.split_once('-') {
        Some(("adg", rest)) => format!("adg_{rest}"),
        Some((system, rest)) => format!("{system}{rest}"),
        None => lower,
    }
}

#[test]
fn every_clause_of_the_rules_document_has_a_test_named_after_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("docs/rules.md")).unwrap();
    let ids: Vec<&str> = rules
        .split("**")
        .filter_map(|part| part.split_whitespace().next())
        .filter(|word| {
            let word = word.trim_end_matches('.');
            (word.starts_with("ADG-")
                || word.starts_with("VSD-")
                || word.starts_with("T-")
                || word.starts_with("C-"))
                && word.chars().last().is_some_and(|c| c.is_ascii_digit())
        })
        .map(|word| word.trim_end_matches('.'))
        .collect();
    assert!(ids.len() >= 40, "the clauses were not found: {ids:?}");
    let mut names = Vec::new();
    function_names(&root.join("src"), &mut names);
    function_names(&root.join("tests"), &mut names);
    let untested: Vec<&&str> = ids
        .iter()
        .filter(|id| {
            let key = test_key(id);
            !names
                .iter()
                .any(|n| n.starts_with(&format!("{key}_")) || n.contains(&format!("_{key}_")))
        })
        .collect();
    assert!(
        untested.is_empty(),
        "clauses without a test named after them: {untested:?}"
    );
}

#[test]
fn the_readme_and_the_help_point_at_the_rules_document_and_never_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains("docs/rules.md"));
    assert!(
        !readme.contains("RULINGS"),
        "the README cites a document the repository does not hold"
    );
    let help = assert_cmd::Command::cargo_bin("grimoire")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("docs/rules.md"));
}
