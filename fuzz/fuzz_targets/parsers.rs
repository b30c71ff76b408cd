//! Every parser that reads what a person types or a file holds: none may panic, whatever the bytes.
#![no_main]

use grimoire::store::jsonl::{ChainCheck, Line, parse_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = grimoire::dice::DiceExpr::parse(text);
    let _ = grimoire::time::GameDuration::parse(text);
    let _ = grimoire::sheet::Lore::parse(text);
    let _ = text.parse::<grimoire::store::Checkpoint>();
    let _ = grimoire::rules::adg::AdgTables::parse(text);
    if let Ok(Line::Event(row)) = parse_line(text) {
        let _ = ChainCheck::default().check(&row);
    }
});
