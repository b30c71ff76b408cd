//! Exports changed at random and on purpose, for the two checkers of docs/export.md to judge:
//! `grimoire verify`'s own check ([`grimoire_verdict`]) and the players' page
//! (`src/web/checker/`). The differential test (tests/it/differential.rs) and the benchmark
//! feed both the same texts and compare the verdict and the first event each names.
//!
//! Every change is drawn from a seeded generator, so a failing case is made again from its seed.
//! Changes of a kind only grimoire checks (a payload's fields and types, the game clock, names in
//! play, an amendment's list of changes: docs/export.md, "What only `grimoire verify` checks") are
//! left out, since the page says it does not judge them, as are the phones' commands decided again.

use crate::event::Event;
use crate::store::chain::StoredRow;
use crate::store::jsonl::{Line, event_line, parse_line};
use crate::verify::{CharacterNames, RecordedClock, export as verify_export};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One changed export, with a few words on what was changed.
pub struct Mutated {
    pub what: String,
    pub text: String,
}

/// `grimoire verify`'s check of an export's text: whether all holds, and the first seq it names
/// (where the chain breaks, else the first problem).
pub fn grimoire_verdict(text: &str) -> (bool, Option<u64>) {
    let (holds, first, _) = grimoire_verdict_in_words(text);
    (holds, first)
}

/// [`grimoire_verdict`], with what grimoire says at that seq.
pub fn grimoire_verdict_in_words(text: &str) -> (bool, Option<u64>, Option<String>) {
    let mut report = verify_export(text);
    report.decided_again_problems.clear();
    let first = match &report.chain_break {
        Some(problem) => Some(problem.clone()),
        None => report.dice_problems.iter().min_by_key(|p| p.seq).cloned(),
    };
    (
        report.all_hold(),
        first.as_ref().map(|p| p.seq.get()),
        first.map(|p| p.what),
    )
}

/// The event rows of an export.
pub fn rows_of(export: &str) -> Vec<StoredRow> {
    export
        .lines()
        .filter_map(|line| match parse_line(line) {
            Ok(Line::Event(row)) => Some(row),
            _ => None,
        })
        .collect()
}

/// The export of `rows`, one line each.
pub fn text_of(rows: &[StoredRow]) -> String {
    rows.iter()
        .filter_map(|row| event_line(row).map(|line| line + "\n"))
        .collect()
}

/// Every hash recomputed from the first row on, as a forger with grimoire's hashing would.
pub fn rechained(mut rows: Vec<StoredRow>) -> Vec<StoredRow> {
    let mut prev = crate::store::chain::GENESIS_HASH.to_string();
    for row in &mut rows {
        row.prev_hash = prev;
        row.hash = row.compute_hash();
        prev = row.hash.clone();
    }
    rows
}

/// `rows` raised to payload version `version` and re-chained: the same campaign, judged by that
/// version's rules.
pub fn at_version(rows: &[StoredRow], version: u32) -> Vec<StoredRow> {
    let raised = rows
        .iter()
        .map(|row| StoredRow {
            schema_version: version,
            ..row.clone()
        })
        .collect();
    rechained(raised)
}

/// `count` changed copies of the exports in `bases`, drawn from `seed`.
pub fn mutations(bases: &[Vec<StoredRow>], seed: u64, count: usize) -> Vec<Mutated> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut made = Vec::with_capacity(count);
    while made.len() < count {
        let base = &bases[rng.random_range(0..bases.len())];
        if let Some(mutated) = mutate(base, &mut rng) {
            made.push(mutated);
        }
    }
    made
}

/// One change of `base`, or `None` when the change drawn does not apply to it or lies where only
/// grimoire looks.
fn mutate(base: &[StoredRow], rng: &mut StdRng) -> Option<Mutated> {
    let mut rows = base.to_vec();
    let at = rng.random_range(0..rows.len());
    let rechain = rng.random_bool(0.75);
    let what = match rng.random_range(0..100) {
        0..15 => return Some(byte_edit(&text_of(base), rng)),
        15..25 => return Some(line_spelling(base, at, rng)),
        25..37 => line_field(&mut rows[at], rechain, rng)?,
        // What an amendment says it changed is grimoire's to check: its original is left alone.
        37..62 if !amended(base).contains(&rows[at].seq) => payload_value(&mut rows[at], rng)?,
        37..62 => return None,
        62..77 => payload_spelling(&mut rows[at], rng)?,
        77..85 => structure(&mut rows, at, rng)?,
        _ => named_forgery(&mut rows, rng)?,
    };
    let rows = if rechain {
        // A forger numbers the rows afresh around one dropped or added.
        for (at, row) in rows.iter_mut().enumerate() {
            row.seq = crate::seq::Seq(at as u64 + 1);
        }
        rechained(rows)
    } else {
        rows
    };
    if rechain && only_grimoire_sees(&rows) {
        return None;
    }
    Some(Mutated {
        what: format!("{what}{}", if rechain { ", rechained" } else { "" }),
        text: text_of(&rows),
    })
}

/// The events an amendment names.
fn amended(rows: &[StoredRow]) -> Vec<crate::seq::Seq> {
    rows.iter()
        .filter_map(|row| match row.event() {
            Ok(Event::Amended { seq, .. }) => Some(seq),
            _ => None,
        })
        .collect()
}

/// Whether the change broke what only grimoire checks: a payload in the canonical form that it
/// cannot read as its kind while the page can (an object of its kind, of a known version), the
/// game clock, or the names in play.
fn only_grimoire_sees(rows: &[StoredRow]) -> bool {
    let mut clock = RecordedClock::default();
    let mut names = CharacterNames::default();
    for row in rows {
        let Ok(event) = Event::from_stored(&row.kind, row.schema_version, &row.payload) else {
            let page_reads = serde_json::from_str::<serde_json::Value>(&row.payload)
                .ok()
                .is_some_and(|p| p.get("kind").and_then(|k| k.as_str()) == Some(&row.kind))
                && row.schema_version <= crate::event::SCHEMA_VERSION;
            // The canonical form is both checkers' own; a shape only grimoire's.
            if page_reads && row.canonical_problem().is_none() {
                return true;
            }
            continue;
        };
        if clock.check(row.seq, row.game_time, &event).is_err() {
            return true;
        }
        if row.text_problem().is_none() && names.check(row, &event, &clock).is_err() {
            return true;
        }
    }
    false
}

/// A byte of the text replaced, removed, or added (never re-chained: the hash breaks, or the line).
fn byte_edit(text: &str, rng: &mut StdRng) -> Mutated {
    const CHARS: [char; 18] = [
        '{', '}', '[', ']', '"', ',', ':', '0', '9', 'a', 'F', '-', '.', 'e', ' ', '\\', '\n', 'é',
    ];
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let at = bounds[rng.random_range(0..bounds.len())];
    let next = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let put = CHARS[rng.random_range(0..CHARS.len())].to_string();
    if rng.random_bool(0.2) {
        // A line of spaces between two events: JSON's own, or others a reader might trim.
        const SPACES: [&str; 8] = [
            " \t", "\r", "\u{c}", "\u{b}", "\u{a0}", "\u{3000}", "\u{85}", "\u{2028}",
        ];
        let space = SPACES[rng.random_range(0..SPACES.len())];
        let ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
        let end = ends[rng.random_range(0..ends.len())];
        return Mutated {
            what: format!("a line of {space:?} after byte {end}"),
            text: spliced(text, end..end, &format!("{space}\n")),
        };
    }
    let (what, changed) = match rng.random_range(0..3) {
        0 => ("replaced", spliced(text, at..next, &put)),
        1 => ("removed", spliced(text, at..next, "")),
        _ => ("added", spliced(text, at..at, &put)),
    };
    Mutated {
        what: format!("byte {at} {what} ({put:?})"),
        text: changed,
    }
}

/// A number field of one line written another way (`5.0`, `5e0`, `05`, `"5"`, `-5`), as a
/// forger's own tool could.
fn line_spelling(base: &[StoredRow], at: usize, rng: &mut StdRng) -> Mutated {
    let row = &base[at];
    let line = event_line(row).unwrap_or_default();
    let (field, value) = match rng.random_range(0..3) {
        0 => ("seq", row.seq.get().to_string()),
        1 => ("schema_version", row.schema_version.to_string()),
        _ => ("game_time", row.game_time.to_string()),
    };
    let respelled = spellings(&value)[rng.random_range(0..5)].clone();
    let line = line.replacen(
        &format!("\"{field}\":{value},"),
        &format!("\"{field}\":{respelled},"),
        1,
    );
    let mut lines: Vec<String> = base.iter().filter_map(event_line).collect();
    lines[at] = line;
    Mutated {
        what: format!("#{} {field} written {respelled}", at + 1),
        text: lines.join("\n") + "\n",
    }
}

/// Other ways to write the whole number `digits`, none of them grimoire's.
fn spellings(digits: &str) -> Vec<String> {
    vec![
        format!("{digits}.0"),
        format!("{digits}e0"),
        format!("0{digits}"),
        format!("\"{digits}\""),
        if digits == "0" {
            "-0".into()
        } else {
            format!("-{digits}")
        },
    ]
}

/// One field of a line given another value of its type.
fn line_field(row: &mut StoredRow, rechain: bool, rng: &mut StdRng) -> Option<String> {
    let seq = row.seq;
    Some(match rng.random_range(0..8) {
        0 => {
            row.event_id = random_uuid(rng);
            format!("#{seq} event id changed")
        }
        1 => {
            row.event_id = row.event_id.to_uppercase();
            format!("#{seq} event id in capitals")
        }
        2 => {
            // Times RFC 3339 readers part on: a space for the T, a leap second, the Unicode minus,
            // hour 24, days no month has.
            const TIMES: [&str; 10] = [
                "2026-12-24T00:00:00Z",
                "2026-12-24 00:00:00Z",
                "2026-12-24 00:00:00",
                "2026-12-31T23:59:60Z",
                "2026-12-24T10:00:00\u{2212}01:00",
                "2026-12-24T24:00:00Z",
                "2026-02-30T10:00:00Z",
                "2025-02-29T10:00:00Z",
                "2024-02-29T10:00:00+23:59",
                "yesterday",
            ];
            row.recorded_at = TIMES[rng.random_range(0..TIMES.len())].into();
            format!("#{seq} recorded_at changed to {}", row.recorded_at)
        }
        3 => {
            row.session = match row.session {
                Some(s) if rng.random_bool(0.5) => Some(s + 1),
                Some(_) => None,
                None => Some(rng.random_range(1..3)),
            };
            format!("#{seq} session restamped {:?}", row.session)
        }
        4 => {
            row.actor = odd_text(rng).to_string();
            format!("#{seq} actor changed to {:?}", row.actor)
        }
        5 => {
            row.schema_version = rng.random_range(0..=crate::event::SCHEMA_VERSION + 1);
            format!("#{seq} schema_version changed to {}", row.schema_version)
        }
        // The clock is grimoire's alone once re-chained.
        _ if rechain => return None,
        _ => {
            row.game_time += 60;
            format!("#{seq} game_time changed")
        }
    })
}

/// Texts that break the text rules, or pass them narrowly.
fn odd_text(rng: &mut StdRng) -> &'static str {
    const TEXTS: [&str; 14] = [
        "Zed",
        // New to Unicode lately: a browser's older data would call them unassigned.
        "\u{20C2}",
        "\u{1CEB0}",
        "",
        "   ",
        "two\nlines",
        "tab\there",
        "re\u{202E}versed",
        "\u{200B}",
        "\u{200B}\u{200D}",
        "e\u{301}",
        "\u{2800}",
        "\u{85}next",
        "\u{FEFF}Zed",
    ];
    TEXTS[rng.random_range(0..TEXTS.len())]
}

/// `digits` random lower-case hex digits.
fn random_hex(rng: &mut StdRng, digits: usize) -> String {
    (0..digits)
        .map(|_| char::from_digit(rng.random_range(0..16), 16).unwrap_or('0'))
        .collect()
}

/// `text` with the bytes in `span` replaced by `with`.
fn spliced(text: &str, span: std::ops::Range<usize>, with: &str) -> String {
    format!("{}{with}{}", &text[..span.start], &text[span.end..])
}

fn random_uuid(rng: &mut StdRng) -> String {
    let hex = random_hex(rng, 32);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// One value (a text, a number, true or false) of a JSON text, where it stands and under which key.
struct Leaf {
    start: usize,
    end: usize,
    key: Option<String>,
}

/// The values of a JSON text grimoire wrote (no spaces), and where each object's first member begins.
fn leaves(json: &str) -> (Vec<Leaf>, Vec<usize>) {
    enum Open {
        Object {
            key: Option<String>,
            expecting_key: bool,
        },
        Array {
            under: Option<String>,
        },
    }
    let current = |stack: &[Open]| match stack.last() {
        Some(Open::Object { key, .. }) => key.clone(),
        Some(Open::Array { under }) => under.clone(),
        None => None,
    };
    let bytes = json.as_bytes();
    let (mut leaves, mut objects, mut stack) = (Vec::new(), Vec::new(), Vec::new());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'{' => {
                objects.push(at + 1);
                stack.push(Open::Object {
                    key: None,
                    expecting_key: true,
                });
            }
            b'[' => {
                let under = current(&stack);
                stack.push(Open::Array { under });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Open::Object { expecting_key, .. }) = stack.last_mut() {
                    *expecting_key = true;
                }
            }
            b':' => {}
            b'"' => {
                let start = at;
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                let text = &json[start..(at + 1).min(json.len())];
                if let Some(Open::Object {
                    key,
                    expecting_key: expecting @ true,
                }) = stack.last_mut()
                {
                    *key = serde_json::from_str(text).ok();
                    *expecting = false;
                } else {
                    leaves.push(Leaf {
                        start,
                        end: start + text.len(),
                        key: current(&stack),
                    });
                }
            }
            _ => {
                let start = at;
                while at + 1 < bytes.len() && !matches!(bytes[at + 1], b',' | b'}' | b']') {
                    at += 1;
                }
                leaves.push(Leaf {
                    start,
                    end: at + 1,
                    key: current(&stack),
                });
            }
        }
        at += 1;
    }
    (leaves, objects)
}

/// One value of the payload given another of its type (texts among them ones the text rules
/// refuse, hex in capitals or of another length).
fn payload_value(row: &mut StoredRow, rng: &mut StdRng) -> Option<String> {
    let (leaves, _) = leaves(&row.payload);
    let leaf = leaves.get(rng.random_range(0..leaves.len().max(1)))?;
    let old = row.payload[leaf.start..leaf.end].to_string();
    let key = leaf.key.clone().unwrap_or_default();
    // The kind, and what an amendment says it changed (so anything of the event it carries but
    // the event it names), are grimoire's to check.
    if key == "kind" || (row.kind == "amended" && key != "seq") {
        return None;
    }
    let new = if old.starts_with('"') {
        let text: String = serde_json::from_str(&old).ok()?;
        let is_hex = !text.is_empty() && text.bytes().all(|b| b.is_ascii_hexdigit());
        let changed = match rng.random_range(0..4) {
            0 if is_hex => text.to_uppercase(),
            1 if is_hex => {
                let mut flipped: Vec<char> = text.chars().collect();
                let i = rng.random_range(0..flipped.len());
                flipped[i] = if flipped[i] == '0' { '1' } else { '0' };
                flipped.into_iter().collect()
            }
            2 if is_hex => format!(" {text}"),
            _ => odd_text(rng).to_string(),
        };
        serde_json::to_string(&changed).ok()?
    } else if old == "true" || old == "false" {
        (old == "false").to_string()
    } else {
        let n: i64 = old.parse().ok()?;
        (match rng.random_range(0..3) {
            0 => n + 1,
            1 => (n - 1).max(0),
            _ => rng.random_range(0..8),
        })
        .to_string()
    };
    let seq = row.seq;
    row.payload = spliced(&row.payload, leaf.start..leaf.end, &new);
    Some(format!("#{seq} {key} {old} changed to {new}"))
}

/// The payload written in a way grimoire never writes it: spaces, a key twice, a number respelled,
/// a needless escape.
fn payload_spelling(row: &mut StoredRow, rng: &mut StdRng) -> Option<String> {
    let (leaves, objects) = leaves(&row.payload);
    let p = &row.payload;
    let seq = row.seq;
    let (what, changed) = match rng.random_range(0..8) {
        4 => {
            // The object's first key given again with another value.
            let start = objects[rng.random_range(0..objects.len())];
            let close = closing_brace(p, start - 1)?;
            let key = &p[start..start + p[start + 1..].find('"')? + 2];
            if !key.starts_with('"') {
                return None;
            }
            (
                "a key given twice, with another value",
                spliced(p, close..close, &format!(",{key}:\"healed\"")),
            )
        }
        5 => {
            // A hex field holding a list or an object.
            let at = p.len() - 1;
            let field = ["seed", "nonce", "commitment"][rng.random_range(0..3)];
            let value = ["[]", "{}", "[\"00\"]", "{\"a\":\"b\"}"][rng.random_range(0..4)];
            (
                "a hex field holding a list or an object",
                spliced(p, at..at, &format!(",\"{field}\":{value}")),
            )
        }
        6 => {
            // Nested at and past serde's limit.
            let depth = rng.random_range(125..=128);
            let at = p.len() - 1;
            (
                "nested deep",
                spliced(
                    p,
                    at..at,
                    &format!(",\"deep\":{}{}", "[".repeat(depth), "]".repeat(depth)),
                ),
            )
        }
        7 => {
            // A field no event has: holding half a character (as a text or a key), or named as
            // something every JavaScript object has.
            let at = p.len() - 1;
            let field = [
                "\"x\":\"\\ud800\"",
                "\"x\":{\"\\ud800\":1}",
                "\"\\ud800\":1",
                "\"constructor\":\"x\"",
                "\"__proto__\":{}",
            ][rng.random_range(0..5)];
            (
                "a field no event has",
                spliced(p, at..at, &format!(",{field}")),
            )
        }
        0 => {
            let colon = p.find("\":")? + 2;
            ("a space after a colon", spliced(p, colon..colon, " "))
        }
        1 => {
            // The object's first member given again at its end.
            let start = objects[rng.random_range(0..objects.len())];
            let member_end = leaves.iter().find(|l| l.start > start)?.end;
            let member = &p[start..member_end];
            if !member.starts_with('"') || member.contains(['{', '[']) {
                return None;
            }
            let close = closing_brace(p, start - 1)?;
            (
                "a key given twice",
                spliced(p, close..close, &format!(",{member}")),
            )
        }
        2 => {
            let numbers: Vec<&Leaf> = leaves
                .iter()
                .filter(|l| p[l.start..l.end].bytes().all(|b| b.is_ascii_digit()))
                .collect();
            let leaf = numbers.get(rng.random_range(0..numbers.len().max(1)))?;
            let digits = &p[leaf.start..leaf.end];
            let respelled = spellings(digits)[rng.random_range(0..2)].clone();
            (
                "a number respelled",
                spliced(p, leaf.start..leaf.end, &respelled),
            )
        }
        _ => {
            let letter = p.find("\"a")? + 1;
            (
                "a letter escaped",
                spliced(p, letter..letter + 1, "\\u0061"),
            )
        }
    };
    row.payload = changed;
    Some(format!("#{seq} payload: {what}"))
}

/// The `}` closing the object that opens at `open`.
fn closing_brace(json: &str, open: usize) -> Option<usize> {
    let bytes = json.as_bytes();
    let (mut depth, mut at, mut in_text) = (0, open, false);
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if in_text => at += 1,
            b'"' => in_text = !in_text,
            b'{' | b'[' if !in_text => depth += 1,
            b'}' | b']' if !in_text => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// Rows dropped, swapped or given twice.
fn structure(rows: &mut Vec<StoredRow>, at: usize, rng: &mut StdRng) -> Option<String> {
    let n = rows.len();
    if at == 0 || at + 1 >= n {
        return None;
    }
    Some(match rng.random_range(0..3) {
        0 => {
            rows.remove(at);
            format!("#{} dropped", at + 1)
        }
        1 => {
            rows.swap(at, at + 1);
            format!("#{} and #{} swapped", at + 1, at + 2)
        }
        _ => {
            let copy = rows[at].clone();
            rows.insert(at + 1, copy);
            format!("#{} given twice", at + 1)
        }
    })
}

/// The forgeries the page once let through and grimoire refused: a seed revealed twice, an event
/// id given twice, an amendment of another kind, a name against the text rules, a seed in
/// capitals (which grimoire took before the canonical form, and the page now takes there too), a
/// version past grimoire's, rows of a version before epochs had a seed for sealed dice, and an
/// epoch's seed for sealed dice left unpublished.
fn named_forgery(rows: &mut Vec<StoredRow>, rng: &mut StdRng) -> Option<String> {
    let find = |kind: &str| rows.iter().position(|r| r.kind == kind);
    // A seed's reveal: an epoch's first seed, or its seed for sealed dice.
    let reveal = match rng.random_bool(0.5) {
        true => "seed_revealed",
        false => "sealed_seed_revealed",
    };
    Some(match rng.random_range(0..7) {
        0 => {
            let at = find(reveal)?;
            let mut again = rows[at].clone();
            again.event_id = random_uuid(rng);
            // The same seed, or another that opens nothing (honest dice must not take the blame).
            let other = rng.random_bool(0.5);
            if other {
                let seed = again.payload.find("\"seed\":\"")? + 8;
                let forged = random_hex(rng, 64);
                again.payload = spliced(&again.payload, seed..seed + 64, &forged);
            }
            rows.insert(at + 1, again);
            format!(
                "#{} the seed revealed again{}",
                at + 2,
                if other { ", another seed" } else { "" }
            )
        }
        1 => {
            let later = rng.random_range(1..rows.len());
            let earlier = rng.random_range(0..later);
            rows[later].event_id = rows[earlier].event_id.clone();
            format!("#{} given the event id of #{}", later + 1, earlier + 1)
        }
        2 => {
            let at = find("amended")?;
            let other = &rows[rng.random_range(0..at)];
            if other.kind == "dice_rolled" {
                return None;
            }
            let (kind, payload) = (other.kind.clone(), other.payload.clone());
            let p = &rows[at].payload;
            let start = p.find("\"event\":")? + 8;
            let end = closing_brace(p, start)? + 1;
            rows[at].payload = spliced(p, start..end, &payload);
            format!("#{} amends with a {kind} event", at + 1)
        }
        3 => {
            let at = find("character_added")?;
            let p = &rows[at].payload;
            let start = p.find("\"name\":")? + 7;
            let end = start + p[start + 1..].find('"')? + 2;
            let name = serde_json::to_string(odd_text(rng)).ok()?;
            rows[at].payload = spliced(p, start..end, &name);
            format!("#{} names a character {name}", at + 1)
        }
        4 => seed_in_capitals(rows, reveal)?,
        5 => {
            let at = rng.random_range(0..rows.len());
            rows[at].schema_version = crate::event::SCHEMA_VERSION + 1;
            format!("#{} of a version past grimoire's", at + 1)
        }
        6 => {
            let at = find("sealed_seed_revealed")?;
            rows.remove(at);
            format!("#{} (the seed for sealed dice) dropped", at + 1)
        }
        _ => {
            // Written as the version before: the epoch's second commitment passed over, a
            // reveal of a kind that version did not know.
            let at = rows
                .iter()
                .position(|r| r.kind == reveal || r.payload.contains("\"sealed_commitment\""))?;
            let before = crate::event::SEALED_SEED_SINCE - 1;
            for row in &mut rows[..=at] {
                row.schema_version = row.schema_version.min(before);
            }
            format!("#1 to #{} of payload version {before}", at + 1)
        }
    })
}

/// The first reveal of kind `reveal` with its seed in capitals; `None` when `rows` hold none.
fn seed_in_capitals(rows: &mut [StoredRow], reveal: &str) -> Option<String> {
    let at = rows.iter().position(|r| r.kind == reveal)?;
    let p = &rows[at].payload;
    let seed = p.find("\"seed\":\"")? + 8;
    rows[at].payload = spliced(p, seed..seed + 64, &p[seed..seed + 64].to_uppercase());
    Some(format!("#{} the seed in capitals", at + 1))
}

/// `base` with its first seed's reveal in capitals, re-chained as a forger with grimoire's hashing
/// would: made for certain, where [`mutations`] may not draw it.
pub fn seed_in_capitals_rechained(base: &[StoredRow]) -> Option<Mutated> {
    let mut rows = base.to_vec();
    let what = seed_in_capitals(&mut rows, "seed_revealed")?;
    let text = text_of(&rechained(rows));
    Some(Mutated { what, text })
}

/// Writes into `dir` one page that runs the players' check (with WebCrypto taken away, as on a
/// plain-http page) on every export, loading them a batch of `per_batch` at a time, one script
/// each, so no script is larger than a batch. Each batch is checked as it loads; the page then
/// holds every verdict (whether all holds, the first seq named) as JSON in its `<pre id="out">`,
/// read by [`page_verdicts`]. Returns the page's path.
pub fn write_check_page(
    dir: &std::path::Path,
    exports: &[String],
    per_batch: usize,
) -> std::io::Result<std::path::PathBuf> {
    let mut page = String::from(
        r#"<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre>
<script>Object.defineProperty(window, "crypto", { value: undefined });</script>
<script>"#,
    );
    page.push_str(crate::report::kit::verifier());
    page.push_str(
        r#"</script>
<script>
var VERDICTS = [];
function batch(texts) {
  texts.forEach(function (text) {
    try {
      var r = GrimoireCheck.verify(text);
      VERDICTS.push([r.allHold, r.firstProblem, r.firstWhat]);
    } catch (e) {
      VERDICTS.push(String(e && e.stack || e));
    }
  });
}
</script>
"#,
    );
    for (n, texts) in exports.chunks(per_batch.max(1)).enumerate() {
        let script = format!(
            "batch({});\n",
            serde_json::to_string(texts).map_err(std::io::Error::other)?
        );
        std::fs::write(dir.join(format!("batch-{n}.js")), script)?;
        page.push_str(&format!("<script src=\"batch-{n}.js\"></script>\n"));
    }
    page.push_str(
        r#"<script>document.getElementById("out").textContent = JSON.stringify(VERDICTS);</script>
</body></html>"#,
    );
    let path = dir.join("differential.html");
    std::fs::write(&path, page)?;
    Ok(path)
}

/// The page's verdict: whether all holds, the first seq it names, and what it says there.
pub type PageVerdict = (bool, Option<u64>, Option<String>);

/// The verdicts the page of [`write_check_page`] wrote, read from its DOM as Chromium dumps it:
/// each whether all holds, the first seq named and what is said there, or what the check threw.
pub fn page_verdicts(dom: &str) -> Option<Vec<Result<PageVerdict, String>>> {
    let start = dom.find(r#"<pre id="out">"#)? + r#"<pre id="out">"#.len();
    let end = start + dom[start..].find("</pre>")?;
    let text = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let verdicts: Vec<serde_json::Value> = serde_json::from_str(&text).ok()?;
    Some(
        verdicts
            .into_iter()
            .map(|verdict| {
                serde_json::from_value::<(bool, Option<u64>, Option<String>)>(verdict.clone())
                    .map_err(|_| verdict.as_str().unwrap_or("no verdict").to_string())
            })
            .collect(),
    )
}
