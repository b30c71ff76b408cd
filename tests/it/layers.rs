//! The layers of docs/architecture.md, checked: every path a source file names inside the crate
//! (`crate::…`, or `super::…` resolved to where it lands) must point at its own layer or one below.
//! A rule system's files sit in the layer of their role (`systems/adg/event.rs` is model,
//! `systems/adg/state.rs` state, and so on), so a system cannot reach around the core's layering.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Model,
    State,
    Rules,
    Render,
    /// The commands people type, as each system describes them (`contract/command.rs`,
    /// `systems/<system>/spec.rs`): they build the rules' commands and put results into words.
    Commands,
    Store,
    /// Verification (`verify`): what a true record holds, read from the store's rows; the store
    /// knows rows and how they chain, never the record's rules. It runs the rules on a command a
    /// phone answered, to decide it again (`verify/answers.rs`).
    Verify,
    /// The read side (`read`, and `audit`'s counting): what the campaign says, computed from the
    /// state and the log for every front end to render; it names no front end.
    Read,
    /// The CLI, the library entry point, the generator and the binaries: they may use everything.
    Top,
    /// `systems/registry.rs`, the one file naming every system: it names each system's layers to
    /// list them, and every layer reaches systems through it (each layer calls only its own
    /// layer's part of a system).
    Registry,
}

/// The layer a module path (`["systems", "adg", "state"]`, `["event", "by_kind"]`) belongs to.
fn layer(module: &[String]) -> Layer {
    let role = match module {
        [systems, registry, ..] if systems == "systems" && registry == "registry" => {
            return Layer::Registry;
        }
        // A system's own type (`systems::adg::Adg`), declared beside its modules: the model.
        [systems, _system, item, ..]
            if systems == "systems" && item.starts_with(|c: char| c.is_uppercase()) =>
        {
            return Layer::Model;
        }
        [systems, _system, role, ..] if systems == "systems" => role.as_str(),
        [systems, ..] if systems == "systems" => return Layer::Model,
        [first, ..] => first.as_str(),
        [] => return Layer::Top,
    };
    match role {
        "event" | "tables" | "sheet" | "dice" | "time" | "words" | "text" | "seq" | "web"
        | "ids" | "deferred" => Layer::Model,
        "state" | "port" => Layer::State,
        "rules" => Layer::Rules,
        "render" => Layer::Render,
        "command" | "spec" => Layer::Commands,
        "store" => Layer::Store,
        "verify" => Layer::Verify,
        "read" | "audit" => Layer::Read,
        _ => Layer::Top,
    }
}

/// Whether code in `from` may name `to`. The store's write runs the caller's decision, whose errors
/// are the library's (`Error`, with `RuleError` in it); nothing else above it.
fn allowed(from: Layer, to: Layer, target: &[String]) -> bool {
    if to == Layer::Registry {
        return true;
    }
    match from {
        Layer::Model => to == Layer::Model,
        Layer::State => to <= Layer::State,
        Layer::Rules => to <= Layer::Rules,
        Layer::Render => matches!(to, Layer::Model | Layer::State | Layer::Render),
        Layer::Commands => to <= Layer::Commands,
        Layer::Store => {
            let named = |path: &[&str]| {
                target.len() >= path.len() && target.iter().zip(path).all(|(a, b)| a == b)
            };
            matches!(to, Layer::Model | Layer::State | Layer::Store)
                || named(&["rules", "RuleError"])
                || named(&["Error"])
        }
        // It decides a phone's answered command again: the rules, on the command as typed.
        Layer::Verify => to <= Layer::Verify && to != Layer::Render,
        // The library's error, whose refusals a read passes on (an unknown character, a point
        // the log does not reach).
        Layer::Read => {
            to <= Layer::Render
                || matches!(to, Layer::Store | Layer::Verify | Layer::Read)
                || target.first().is_some_and(|t| t == "Error")
        }
        Layer::Top | Layer::Registry => true,
    }
}

fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Test code may reach up (the rules' tests check log lines through `render`): files named
/// `tests.rs`, files under a `tests/` folder, and a file's `#[cfg(test)] mod tests { … }`.
fn is_test_file(src: &Path, file: &Path) -> bool {
    let relative = file.strip_prefix(src).expect("under src");
    relative.iter().any(|p| p == "tests" || p == "tests.rs")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The `a::b::c` segments at the start of `text`, and what follows them (after a trailing `::`
/// when the path goes on into a brace group).
fn leading_segments(text: &str) -> (Vec<String>, &str) {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if end == 0 {
            return (segments, rest);
        }
        segments.push(rest[..end].to_string());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return (segments, rest),
        }
    }
}

/// Every crate path named in `code`, as module segments from the crate root (`super::` resolved
/// from `module`). One level of braces is opened (`crate::systems::{adg::event as adg, …}`).
fn paths_named(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut named = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (start, _) in code.match_indices(prefix) {
            // A `super::` inside `super::super::` is counted from the first one.
            if code[..start].ends_with(|c: char| is_word(c) || c == ':') {
                continue;
            }
            let mut rest = &code[start..];
            let mut path: Vec<String> = Vec::new();
            if let Some(after) = rest.strip_prefix("crate::") {
                rest = after;
            } else {
                path = module.to_vec();
                while let Some(after) = rest.strip_prefix("super::") {
                    path.pop();
                    rest = after;
                }
            }
            let (head, after) = leading_segments(rest);
            path.extend(head);
            match after.strip_prefix('{').and_then(|g| g.split_once('}')) {
                Some((group, _)) => {
                    for item in group.split(',') {
                        let mut inner = path.clone();
                        inner.extend(leading_segments(item.trim()).0);
                        named.push(inner);
                    }
                }
                None => named.push(path),
            }
        }
    }
    named
}

#[test]
fn each_layer_names_only_its_own_and_the_ones_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    assert!(files.len() > 50, "found the sources");
    let mut wrong = Vec::new();
    for file in &files {
        if is_test_file(&src, file) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        let code = without_tests_module(&text);
        let module = module_of(&src, file);
        let from = layer(&module);
        for target in paths_named(code, &module) {
            let to = layer(&target);
            if !allowed(from, to, &target) {
                wrong.push(format!(
                    "{} ({from:?}) names {} ({to:?})",
                    file.strip_prefix(&src).unwrap_or(file).display(),
                    target.join("::")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "layers crossed:\n{}", wrong.join("\n"));
}

#[test]
fn the_layer_check_sees_a_crossing_through_crate_super_and_a_brace_group() {
    let module: Vec<String> = ["systems", "adg", "event"].map(String::from).to_vec();
    let from = layer(&module);
    assert_eq!(from, Layer::Model);
    for code in [
        "use crate::state::CampaignState;",
        "use crate::systems::{adg::rules as r, vsd::event};",
        "let x = super::rules::decide;",
    ] {
        let crossing = paths_named(code, &module)
            .iter()
            .any(|target| !allowed(from, layer(target), target));
        assert!(crossing, "{code}");
    }
    let fine = "use crate::dice::Die; use super::tables::Attribute;";
    assert!(
        paths_named(fine, &module)
            .iter()
            .all(|target| allowed(from, layer(target), target)),
        "{fine}"
    );
}

/// A file's code before its `#[cfg(test)] mod tests { … }` (other `#[cfg(test)]` items, such as a
/// test helper module declared at the top, do not end the code).
fn without_tests_module(text: &str) -> &str {
    let cut = text.match_indices("#[cfg(test)]").find(|&(at, marker)| {
        text[at + marker.len()..]
            .trim_start()
            .starts_with("mod tests {")
    });
    cut.map_or(text, |(at, _)| &text[..at])
}

/// The rule systems in the tree: each folder of `src/systems/` but the contract they implement.
fn systems_in_the_tree() -> Vec<String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/systems");
    let mut systems: Vec<String> = std::fs::read_dir(&folder)
        .expect("readable src/systems")
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "contract")
        .collect();
    systems.sort();
    systems
}

/// The rule systems of `systems` a piece of code names: a path segment or field named as the
/// system's folder (`adg`), or a type whose name begins with the folder's, capitalised (`AdgSheet`,
/// `Vsd`, `QuietEvent`). Comments are left out.
fn systems_named(code: &str, systems: &[String]) -> std::collections::BTreeSet<String> {
    let mut named = std::collections::BTreeSet::new();
    let prefixes: Vec<(&String, String)> = systems
        .iter()
        .map(|system| {
            let mut chars = system.chars();
            let type_prefix = chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            (system, type_prefix)
        })
        .collect();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        for token in line.split(|c: char| !is_word(c)) {
            for (system, type_prefix) in &prefixes {
                let names_type = token
                    .strip_prefix(type_prefix.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_uppercase));
                if token == system.as_str() || names_type {
                    named.insert(system.to_string());
                }
            }
        }
    }
    named
}

/// A rule system is its folder: outside `src/systems/<system>/`, only the registry names it (and
/// `systems/mod.rs` lists the folders). The test-only system `quiet` proves a system needs nothing
/// more, and no file of the core, the command line or the tour names a shipped one.
#[test]
fn only_the_registry_names_a_rule_system() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let systems = systems_in_the_tree();
    assert!(
        ["adg", "quiet", "vsd"]
            .iter()
            .all(|s| systems.contains(&s.to_string())),
        "the shipped systems and the test one are folders of src/systems: {systems:?}"
    );
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap_or(file);
        let name = relative.to_string_lossy().replace('\\', "/");
        let own_folder = |system: &str| name.starts_with(&format!("systems/{system}/"));
        if name == "systems/registry.rs" || name == "systems/mod.rs" || is_test_file(&src, file) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        let foreign: Vec<String> = systems_named(without_tests_module(&text), &systems)
            .into_iter()
            .filter(|system| !own_folder(system))
            .collect();
        if !foreign.is_empty() {
            wrong.push(format!("{name} names {foreign:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "rule systems named outside the registry:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_system_check_sees_a_type_a_path_and_a_field_but_not_a_comment() {
    let systems = systems_in_the_tree();
    let named = |code: &str| {
        systems_named(code, &systems)
            .into_iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(named("use crate::systems::adg::Adg;"), ["adg"]);
    assert_eq!(
        named("let s: VsdSheet = x; state.systems.quiet.y"),
        ["quiet", "vsd"]
    );
    assert!(named("// the Adg system; let adgx = Adverb;").is_empty());
    // A system is known by its folder: a fifth would be seen as soon as it has one.
    let fifth = ["fifth".to_string()];
    assert_eq!(
        systems_named("use crate::systems::fifth::Fifth;", &fifth)
            .into_iter()
            .collect::<Vec<_>>(),
        ["fifth"]
    );
}

/// One door records: outside `src/campaign/` and the store, no code of the program builds a
/// batch of events to append (`Batch`, what `Store::write` and `Store::bulk` take), imports straight
/// into a store (`.import(`; `Campaign::import` is the door's), or asks the rules to decide
/// (`decide(`; the rules and the systems decide, and the door calls them). Tests may go round it.
#[test]
fn only_the_campaign_records() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let systems = systems_in_the_tree();
    assert!(
        ["adg", "quiet", "vsd"]
            .iter()
            .all(|s| systems.contains(&s.to_string())),
        "the shipped systems and the test one are folders of src/systems: {systems:?}"
    );
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap_or(file);
        let name = relative.to_string_lossy().replace('\\', "/");
        let the_door_or_beneath = name == "testkit.rs"
            || ["campaign/", "store/", "rules/", "systems/"]
                .iter()
                .any(|folder| name.starts_with(folder));
        if the_door_or_beneath || is_test_file(&src, file) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        for line in without_tests_module(&text).lines() {
            let code = line.split("//").next().unwrap_or_default();
            let batch = code
                .split(|c: char| !is_word(c))
                .any(|token| token == "Batch");
            if batch || code.contains(".import(") || code.contains("decide(") {
                wrong.push(format!("{name}: {}", line.trim()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "recording outside the campaign's door:\n{}",
        wrong.join("\n")
    );
}

/// The command line owns its parsing library: the rules, the rule systems and the store describe
/// commands as plain data and take plain structs, so `clap` is named only under `src/cli/` and by
/// the binaries that parse (test code may drive the command line).
#[test]
fn only_the_command_line_names_clap() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let parses = name.starts_with("cli/") || name == "main.rs" || name.starts_with("bin/");
        if is_test_file(&src, &file) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable source");
        let code = without_tests_module(&text);
        let names_clap = code.lines().any(|line| {
            let code = line.split("//").next().unwrap_or_default();
            code.split(|c: char| !is_word(c))
                .any(|token| token == "clap")
        });
        if names_clap && !parses {
            wrong.push(name);
        }
    }
    assert!(
        wrong.is_empty(),
        "clap named outside the command line: {wrong:?}"
    );
}

/// The unit a module belongs to for [`no_import_circle_between_the_core_and_the_systems`]: a
/// system's folder, the contract or the registry under `systems/`, else a top-level module.
fn unit(module: &[String]) -> String {
    match module {
        [systems, part, ..] if systems == "systems" => format!("systems::{part}"),
        [first, ..] => first.clone(),
        [] => "crate".to_string(),
    }
}

/// Which units (as `unit_of` groups modules) the program's code imports from which, test code
/// left out.
fn imports_between(
    unit_of: fn(&[String]) -> String,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for file in &files {
        if is_test_file(&src, file) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        let module = module_of(&src, file);
        let from = unit_of(&module);
        for target in paths_named(without_tests_module(&text), &module) {
            let to = unit_of(&target);
            if to != from {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// The core holds the systems (through the registry), and nothing leads back: no path of imports
/// goes from a system or the contract into a module that reaches a system again. A system sees
/// the campaign only through the contract's ports, and the model below them (time, dice, words,
/// text), which names no system. Test code is left out: it plays through the core's door.
#[test]
fn no_import_circle_between_the_core_and_the_systems() {
    let edges = imports_between(unit);
    let circles = circles_through_a_system(&edges);
    assert!(
        circles.is_empty(),
        "import circles through a system:\n{}",
        circles.join("\n")
    );
}

/// Each unit of a system (or the contract) that its imports lead back to, as the path that does.
fn circles_through_a_system(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<String> {
    use std::collections::BTreeMap;
    let is_system_side = |unit: &str| unit.starts_with("systems::") && unit != "systems::registry";
    let mut circles = Vec::new();
    for start in edges.keys().filter(|u| is_system_side(u)) {
        // Breadth first from the unit, keeping how each unit was reached, until it comes back.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue: std::collections::VecDeque<&str> = [start.as_str()].into();
        while let Some(at) = queue.pop_front() {
            for next in edges.get(at).into_iter().flatten() {
                if next == start {
                    let mut path = vec![start.as_str(), at];
                    let mut back = at;
                    while let Some(&before) = came_from.get(back) {
                        path.push(before);
                        back = before;
                    }
                    path.reverse();
                    circles.push(path.join(" → "));
                    queue.clear();
                    break;
                }
                if next != start && !came_from.contains_key(next.as_str()) {
                    came_from.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
    }
    circles
}

#[test]
fn the_circle_check_finds_a_system_that_reaches_back_into_the_core() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        for (from, to) in pairs {
            edges
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
        }
        edges
    };
    let circle = edges(&[
        ("state", "systems::registry"),
        ("systems::registry", "systems::adg"),
        ("systems::adg", "systems::contract"),
        ("systems::adg", "state"),
    ]);
    assert_eq!(
        circles_through_a_system(&circle),
        ["systems::adg → state → systems::registry → systems::adg"]
    );
    let held = edges(&[
        ("state", "systems::registry"),
        ("systems::registry", "systems::adg"),
        ("systems::adg", "systems::contract"),
        ("systems::contract", "time"),
    ]);
    assert!(circles_through_a_system(&held).is_empty());
}

#[test]
fn the_circle_check_names_a_module_by_its_unit() {
    let unit_of = |path: &str| unit(&path.split("::").map(String::from).collect::<Vec<_>>());
    assert_eq!(unit_of("systems::adg::rules::scrolls"), "systems::adg");
    assert_eq!(unit_of("systems::contract::port"), "systems::contract");
    assert_eq!(unit_of("state::ports"), "state");
}

/// A unit for the circle check below: a top-level module, or one part of `systems`, `cli` or
/// `store`; the types the crate's root re-exports are their modules'.
fn module_unit(module: &[String]) -> String {
    match module {
        [first, part, ..] if ["systems", "cli", "store"].contains(&first.as_str()) => {
            format!("{first}::{part}")
        }
        [first, ..] if first == "Error" => "error".into(),
        [first, ..] if first == "Campaign" => "campaign".into(),
        [first, ..] => first.clone(),
        [] => "crate".into(),
    }
}

/// No two modules import each other, down any path (#46): each unit of the library stands on the
/// ones below it, so any of them can be read, tested and changed from the bottom up. The command
/// line's parts are held to it too: its pages and its commands render the read side
/// ([`read`](../../src/read/mod.rs)), and no command is built by calling another's.
#[test]
fn no_import_circle_anywhere() {
    use std::collections::BTreeSet;
    let edges = imports_between(module_unit);
    let reached_from = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut next = vec![start.to_string()];
        while let Some(at) = next.pop() {
            for to in edges.get(&at).into_iter().flatten() {
                if seen.insert(to.clone()) {
                    next.push(to.clone());
                }
            }
        }
        seen
    };
    let circles: Vec<String> = edges
        .keys()
        .filter_map(|unit| {
            let back: Vec<&String> = (edges.get(unit).into_iter().flatten())
                .filter(|to| reached_from(to).contains(unit))
                .collect();
            (!back.is_empty()).then(|| format!("{unit} → {back:?} → … → {unit}"))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// No file under src/ runs over 800 lines, Rust (its own tests included), JavaScript or CSS (#46):
/// a file says one thing, and a longer one is split by what each part is for (the players' check
/// is five files, `src/web/checker/`, read as one script).
#[test]
fn no_file_under_src_is_over_800_lines() {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path
                .extension()
                .is_some_and(|e| e == "rs" || e == "js" || e == "css")
            {
                found.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    assert!(
        files
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "js")),
        "the walk finds the scripts"
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file)
                .expect("readable")
                .lines()
                .count();
            (lines > 800).then(|| format!("{} ({lines} lines)", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over 800 lines:\n{}",
        long.join("\n")
    );
}
