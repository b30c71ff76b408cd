//! The GM's tables for A Dungeon Game (docs/rules.md ADG-C5, ADG-R2, ADG-R7, ADG-S3, ADG-S6): word lists,
//! mishaps, the damaged-scrolls chart, scroll costs, recovery dice and house-rule settings.
//!
//! Tables travel inside the log (an `adg_tables_loaded` event carries the whole table and its hash),
//! so replay never depends on a file that may change. The built-in defaults in
//! `fixtures/tables/adg-sample.json` are original sample content, not the official tables; README.md
//! ("A Dungeon Game tables") documents the format for loading the official ones or a GM's own.

use crate::dice::DiceExpr;
pub use crate::systems::adg::tables::*;
use sha2::{Digest, Sha256};

const SAMPLE: &str = include_str!("../../../../fixtures/tables/adg-sample.json");

impl AdgTables {
    /// The built-in sample tables.
    pub fn sample() -> AdgTables {
        serde_json::from_str(SAMPLE)
            .expect("the built-in sample tables are valid (a test checks them)")
    }

    /// Reads a tables file, checking everything the rules rely on.
    pub fn parse(text: &str) -> Result<AdgTables, String> {
        let tables: AdgTables = serde_json::from_str(text).map_err(|e| {
            format!(
                "not a tables file: {} (line {}, column {}); README's \"A Dungeon Game tables\" gives the format, and fixtures/tables/adg-sample.json is one",
                crate::text::json_problem(&e, None),
                e.line(),
                e.column()
            )
        })?;
        tables.validate()?;
        Ok(tables)
    }

    /// SHA-256 of the canonical JSON form, recorded with the tables so anyone can tell two apart.
    pub fn sha256(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        hex::encode(Sha256::digest(json.as_bytes()))
    }

    pub fn validate(&self) -> Result<(), String> {
        self.check_texts()?;
        if self.word_lists.len() != 2 || self.word_lists.iter().any(|l| l.len() != 20) {
            return Err("word_lists must be two lists of exactly 20 words (one d20 each)".into());
        }
        check_ranges("mishaps", &self.mishaps)?;
        check_ranges("damaged_scrolls", &self.damaged_scrolls)?;
        for level in 1..=10 {
            if !self.scroll_costs.iter().any(|c| c.level == level) {
                return Err(format!("scroll_costs has no row for Scroll Level {level}"));
            }
            if !self
                .recovery
                .iter()
                .any(|r| (r.min_level..=r.max_level).contains(&level))
            {
                return Err(format!("recovery has no die for level {level}"));
            }
        }
        Ok(())
    }

    /// Every text one line of sensible length, and no table longer than a d20 chart could need, so a
    /// loaded table (recorded whole in one event) stays within what the log and an import take.
    fn check_texts(&self) -> Result<(), String> {
        use crate::text::{NAME_MAX, NOTE_MAX, check};
        let text = |what: &'static str, text: &str, max: usize| {
            check(what, text, max).map_err(|e| e.to_string())
        };
        text("tables' name", &self.name, NOTE_MAX)?;
        for entry in self.word_lists.iter().flatten() {
            text("word", &entry.word, NAME_MAX)?;
            if entry.word.trim().is_empty() {
                return Err("a word in word_lists is empty".into());
            }
            if let Some(reverse) = &entry.reverse {
                text("reversed word", reverse, NAME_MAX)?;
            }
        }
        for (name, entries) in [
            ("mishaps", &self.mishaps),
            ("damaged_scrolls", &self.damaged_scrolls),
        ] {
            if entries.len() > MAX_ENTRIES {
                return Err(format!(
                    "{name} has {} entries; at most {MAX_ENTRIES} are allowed",
                    entries.len()
                ));
            }
            for entry in entries {
                text("table entry's text", &entry.text, NOTE_MAX)?;
                if entry.effects.len() > MAX_EFFECTS {
                    return Err(format!(
                        "an entry of {name} has {} effects; at most {MAX_EFFECTS} are allowed",
                        entry.effects.len()
                    ));
                }
            }
        }
        if self.scroll_costs.len() > MAX_ENTRIES || self.recovery.len() > MAX_ENTRIES {
            return Err(format!(
                "scroll_costs and recovery may have at most {MAX_ENTRIES} rows each"
            ));
        }
        Ok(())
    }

    pub fn mishap(&self, total: i64) -> &TableEntry {
        lookup(&self.mishaps, total)
    }

    pub fn damaged_scroll(&self, total: i64) -> &TableEntry {
        lookup(&self.damaged_scrolls, total)
    }

    pub fn scroll_cost(&self, level: u32, kind: super::RitualKind) -> Option<u64> {
        let row = self.scroll_costs.iter().find(|c| c.level == level)?;
        Some(match kind {
            super::RitualKind::Phrase => row.phrase,
            super::RitualKind::Sigil => row.sigil,
            super::RitualKind::Ceremony => row.ceremony,
        })
    }

    pub fn recovery_die(&self, level: u32) -> Option<&DiceExpr> {
        self.recovery
            .iter()
            .find(|r| (r.min_level..=r.max_level).contains(&level))
            .map(|r| &r.die)
    }

    /// The entry on `list` (0 or 1) for a d20 face.
    pub fn word(&self, list: usize, face: u32) -> Option<&WordEntry> {
        self.word_lists
            .get(list)?
            .get(face.checked_sub(1)? as usize)
    }

    /// The reversed form of `word`, looked up in either list (either form reverses to the other).
    pub fn reverse_of(&self, word: &str) -> Option<String> {
        self.word_lists.iter().flatten().find_map(|e| {
            if e.word.eq_ignore_ascii_case(word) {
                e.reverse.clone()
            } else if e
                .reverse
                .as_deref()
                .is_some_and(|r| r.eq_ignore_ascii_case(word))
            {
                Some(e.word.clone())
            } else {
                None
            }
        })
    }
}

/// The most entries a table may have: far more than any chart rolled on dice needs.
const MAX_ENTRIES: usize = 100;
/// The most effects one entry may have.
const MAX_EFFECTS: usize = 10;

/// Entries must run upwards without gaps or overlaps, and the last must be open-ended, so every total
/// finds exactly one entry.
fn check_ranges(name: &str, entries: &[TableEntry]) -> Result<(), String> {
    let Some(last) = entries.last() else {
        return Err(format!("{name} has no entries"));
    };
    if last.max.is_some() {
        return Err(format!(
            "the last entry of {name} must have no max (it covers everything above)"
        ));
    }
    for pair in entries.windows(2) {
        let max = pair[0]
            .max
            .ok_or_else(|| format!("only the last entry of {name} may omit max"))?;
        if pair[0].min > max || pair[1].min != max + 1 {
            return Err(format!(
                "{name}: the entry after {}-{max} must start at {}",
                pair[0].min,
                max + 1
            ));
        }
    }
    Ok(())
}

/// A total below the first entry reads the first entry.
fn lookup(entries: &[TableEntry], total: i64) -> &TableEntry {
    entries
        .iter()
        .find(|e| total <= e.max.unwrap_or(i64::MAX))
        .or(entries.last())
        .expect("validated tables have entries")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adg_c5_the_sample_tables_are_valid_and_marked_as_samples() {
        let tables = AdgTables::sample();
        assert!(tables.sample);
        assert!(tables.name.contains("not the official"));
        tables.validate().unwrap();
        assert_eq!(tables.recovery_die(1).unwrap().to_string(), "d3");
        assert_eq!(tables.recovery_die(8).unwrap().to_string(), "d6+1");
        assert_eq!(tables.recovery_die(10).unwrap().to_string(), "d6+2");
    }

    #[test]
    fn adg_r7_mishap_totals_find_one_entry_each() {
        let tables = AdgTables::sample();
        assert_eq!(tables.mishap(2).min, 2);
        assert_eq!(
            tables.mishap(1).min,
            2,
            "below the table reads the first entry"
        );
        assert_eq!(
            tables.mishap(99).max,
            None,
            "above reads the open-ended last entry"
        );
    }

    #[test]
    fn adg_r5_words_reverse_both_ways() {
        let tables = AdgTables::sample();
        assert_eq!(
            tables.reverse_of("Concealing").as_deref(),
            Some("Revealing")
        );
        assert_eq!(tables.reverse_of("light").as_deref(), Some("Darkness"));
        assert_eq!(tables.reverse_of("Gibberish"), None);
    }

    #[test]
    fn adg_c5_tables_with_gaps_or_short_lists_are_refused() {
        let mut tables = AdgTables::sample();
        tables.mishaps[1].min += 1;
        assert!(tables.validate().unwrap_err().contains("must start at"));
        let mut tables = AdgTables::sample();
        tables.word_lists[0].pop();
        assert!(tables.validate().unwrap_err().contains("exactly 20"));
        let mut tables = AdgTables::sample();
        tables.scroll_costs.retain(|c| c.level != 4);
        assert!(tables.validate().unwrap_err().contains("Scroll Level 4"));
        assert!(
            AdgTables::parse("{}")
                .unwrap_err()
                .contains("not a tables file")
        );
        // In grimoire's words, not serde's.
        let said = AdgTables::parse("x").unwrap_err();
        assert!(
            said.contains("it is not well-formed JSON (line 1, column 1)"),
            "{said}"
        );
        assert!(!said.contains("at line"), "{said}");
    }
}
