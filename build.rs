//! Names the snapshot format after the code that computes state, so a snapshot made by other rules
//! is never trusted: STATE_FORMAT (`src/store/replay.rs`) carries a hash of every source file that
//! decides what `apply` computes, taken at build time. No one has to remember to bump it.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// What `apply` depends on: the state itself, the model it folds, the value types inside, and each
/// rule system's model and state.
const STATE_SOURCES: &[&str] = &[
    "src/state",
    "src/event",
    "src/dice",
    "src/sheet.rs",
    "src/time.rs",
    "src/lazy_map.rs",
    "src/systems/adg/event.rs",
    "src/systems/adg/tables.rs",
    "src/systems/adg/sheet.rs",
    "src/systems/adg/state",
    "src/systems/vsd/event.rs",
    "src/systems/vsd/sheet.rs",
    "src/systems/vsd/state.rs",
];

fn files(path: &Path, found: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for entry in entries {
            files(&entry, found);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        found.push(path.to_path_buf());
    }
}

fn main() {
    let mut found = Vec::new();
    for source in STATE_SOURCES {
        println!("cargo:rerun-if-changed={source}");
        files(Path::new(source), &mut found);
    }
    let mut hasher = Sha256::new();
    for file in &found {
        hasher.update(file.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update(std::fs::read(file).unwrap_or_default());
        hasher.update([0]);
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=GRIMOIRE_STATE_SOURCES={hex}");
}
