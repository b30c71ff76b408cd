//! What A Dungeon Game's commands read from what was typed (a scroll's number, a casting time,
//! the order of a casting), and what its reads and recordings add in words.

use super::super::Adg;
use super::super::event::AdgEvent;
use super::super::rules::Verdict;
use super::super::rules::tables::TableEntry;
use super::super::rules::{AdgCommand, AdgError, CastOrder, CastTime, RitualKind, SpellDuration};
use super::super::sheet::StartingRitual;
use crate::seq::Seq;
use crate::systems::contract::command::{Action, Block, Given, Said, word};
use crate::systems::contract::port::{Refusal, View};
use crate::systems::contract::rules::Who;
use crate::time::{GameDuration, ROUND_SECONDS};
use crate::words::Words;
use crate::words::same_name;
use serde_json::json;

pub(super) fn who(given: &Given) -> Result<Who, String> {
    Ok(Who {
        character: given.text("character")?,
    })
}

pub(super) const fn records(
    rolls: bool,
    build: fn(&Given) -> Result<AdgCommand, String>,
) -> Action<Adg> {
    Action::Records {
        rolls,
        build,
        then: None,
    }
}

/// A scroll's id as typed: `S12` or `12`, digits only after the one `S`.
pub(super) fn scroll_id(text: &str) -> Result<Seq, String> {
    let digits = text.strip_prefix(['S', 's']).unwrap_or(text);
    let wrong = || format!("'{text}' is not a scroll id; write it as S12 or 12");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(wrong());
    }
    digits.parse().map_err(|_| wrong())
}

/// A spell's casting time as typed (ADG-R10): `action`, `1r`, `3r`, or a longer duration.
pub(super) fn cast_time(text: &str) -> Result<CastTime, String> {
    let text = text.trim().to_lowercase();
    if matches!(text.as_str(), "action" | "actions") {
        return Ok(CastTime::Actions);
    }
    if matches!(text.as_str(), "round" | "1r") {
        return Ok(CastTime::OneRound);
    }
    let duration = GameDuration::parse(&text).map_err(|e| e.to_string())?;
    Ok(if duration.seconds() < ROUND_SECONDS {
        CastTime::Actions
    } else if duration.seconds() == ROUND_SECONDS {
        CastTime::OneRound
    } else if text.ends_with('r') {
        CastTime::Rounds
    } else {
        CastTime::Longer
    })
}

/// A spell's duration as typed: `instant`, or a duration.
pub(super) fn spell_duration(text: &str) -> Result<SpellDuration, String> {
    if matches!(
        text.trim().to_lowercase().as_str(),
        "instant" | "instantaneous" | "0"
    ) {
        return Ok(SpellDuration(None));
    }
    GameDuration::parse(text)
        .map(|d| SpellDuration(Some(d)))
        .map_err(|e| e.to_string())
}

pub(super) fn cast_order(g: &Given) -> Result<CastOrder, String> {
    Ok(CastOrder {
        reverse: g.maybe_word("reverse")?,
        damage_taken: g.maybe_read("damage_taken")?,
        moved: g.switch("moved"),
        effect: g.maybe_word("effect")?,
        target: g.maybe("target").map(str::to_string),
        exact: g.maybe_word("exact")?,
        exert: g.switch("exert"),
        when: g.maybe("when").map(str::to_string),
        took: g.maybe_with("took", performing_time)?,
    })
}

/// A Ceremony's performing time as typed: a duration.
pub(super) fn performing_time(text: &str) -> Result<GameDuration, String> {
    GameDuration::parse(text).map_err(|e| e.to_string())
}

/// A starting ritual as typed: `NAME=KIND`, e.g. `Concealing Darkness=phrase`.
pub(super) fn starting_ritual(text: &str) -> Result<StartingRitual, String> {
    let (name, kind) = text.rsplit_once('=').ok_or_else(|| {
        format!("'{text}' is not NAME=KIND; write e.g. \"Concealing Darkness=phrase\"")
    })?;
    Ok(StartingRitual {
        name: name.trim().to_string(),
        kind: word::<RitualKind>(&kind.trim().to_lowercase())?,
    })
}

/// After `silver`: the purse's new total.
pub(super) fn silver_now(
    command: &AdgCommand,
    state: &dyn View<Adg>,
    _: &[(Seq, &AdgEvent)],
) -> Said {
    let AdgCommand::Silver(change) = command else {
        return Said::default();
    };
    match state.someone(&change.character).and_then(|c| c.mine) {
        Some(adg) => Said::new(
            vec![Block::Line(format!("Silver now {}.", adg.silver))],
            json!({ "silver": adg.silver }),
        ),
        None => Said::default(),
    }
}

/// After `scroll write`: the new scroll's id, the first event's number.
pub(super) fn scroll_written(
    _: &AdgCommand,
    _: &dyn View<Adg>,
    events: &[(Seq, &AdgEvent)],
) -> Said {
    match events.first() {
        Some(&(seq, _)) => Said::new(
            vec![Block::Line(format!("The scroll is S{seq}."))],
            json!({ "scroll": seq }),
        ),
        None => Said::default(),
    }
}

/// `scroll list`: usable scrolls (one character's, or all), then the campaign's spent ones.
pub(super) fn scroll_list(given: &Given, state: &dyn View<Adg>) -> Verdict<Said> {
    let name = given.maybe("name");
    if let Some(n) = name {
        state.find(n)?;
    }
    let adg = state.campaign();
    let scrolls: Vec<_> = adg
        .scrolls
        .values()
        .filter(|s| name.is_none_or(|n| same_name(&s.holder, n)))
        .collect();
    let mut blocks = vec![if scrolls.is_empty() {
        Block::Line("No usable scrolls.".into())
    } else {
        Block::Table {
            columns: vec!["Scroll", "Ritual", "Level", "Read", "Held by", "Effect"],
            rows: scrolls
                .iter()
                .map(|s| {
                    vec![
                        format!("S{}", s.id),
                        s.ritual.clone(),
                        s.level.to_string(),
                        crate::words::count(s.reads.into(), "time", "times"),
                        s.holder.clone(),
                        s.effect.clone(),
                    ]
                })
                .collect(),
        }
    }];
    // Spent scrolls belong to no one any more; they are listed with the whole campaign's.
    let spent = if name.is_none() {
        adg.spent_scrolls.all()
    } else {
        Vec::new()
    };
    if !spent.is_empty() {
        let shown: Vec<String> = spent
            .iter()
            .map(|(id, fate)| format!("S{id} {}", fate.word()))
            .collect();
        blocks.push(Block::Line(format!("Spent: {}", shown.join(", "))));
    }
    let spent: Vec<serde_json::Value> = spent
        .into_iter()
        .map(|(id, fate)| json!({ "id": id, "state": fate }))
        .collect();
    Ok(Said::new(
        blocks,
        json!({ "scrolls": scrolls, "spent": spent }),
    ))
}

/// `tables show`: every table in force, as loaded.
pub(super) fn tables_show(_: &Given, state: &dyn View<Adg>) -> Verdict<Said> {
    let tables = state
        .campaign()
        .adg_tables
        .as_ref()
        .ok_or(Refusal::Own(AdgError::NoAdgTables))?;
    let mut lines = vec![format!("{} (sha256 {})", tables.name, tables.sha256())];
    if tables.sample {
        lines.push("These are sample tables made for grimoire, not the official ones.".into());
    }
    for (i, list) in tables.word_lists.iter().enumerate() {
        let words: Vec<String> = list
            .iter()
            .enumerate()
            .map(|(n, w)| {
                let reverse = w.reverse.as_ref().map(|r| format!("/{r}"));
                format!("{}. {}{}", n + 1, w.word, reverse.unwrap_or_default())
            })
            .collect();
        lines.push(format!("Word list {}: {}", i + 1, words.join(", ")));
    }
    let entries = |name: &str, entries: &[TableEntry]| {
        let mut out = vec![format!("{name}:")];
        for e in entries {
            let range = e
                .max
                .map(|m| format!("{}-{m}", e.min))
                .unwrap_or_else(|| format!("{}+", e.min));
            out.push(format!("  {range:<6} {}", e.text));
        }
        out
    };
    lines.extend(entries("Mishaps (2d6 + difference)", &tables.mishaps));
    lines.extend(entries(
        "Damaged scrolls (d20 + SL)",
        &tables.damaged_scrolls,
    ));
    lines.push("Scroll costs in silver (SL: phrase / sigil / ceremony):".into());
    for c in &tables.scroll_costs {
        lines.push(format!(
            "  SL {:<2} {} / {} / {}",
            c.level, c.phrase, c.sigil, c.ceremony
        ));
    }
    let recovery: Vec<String> = tables
        .recovery
        .iter()
        .map(|r| format!("L{}-{} {}", r.min_level, r.max_level, r.die))
        .collect();
    lines.push(format!("Recovery dice: {}", recovery.join(", ")));
    lines.push(format!(
        "Settings: a night's rest heals: {}; downtime restores exertion: {}",
        tables.settings.night_rest_heals, tables.settings.downtime_restores_exertion
    ));
    Ok(Said::new(
        lines.into_iter().map(Block::Line).collect(),
        json!({ "tables": tables, "sha256": tables.sha256() }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adg_r10_cast_times_parse_into_their_classes() {
        assert_eq!(cast_time("action").unwrap(), CastTime::Actions);
        assert_eq!(cast_time("1r").unwrap(), CastTime::OneRound);
        assert_eq!(cast_time("3r").unwrap(), CastTime::Rounds);
        assert_eq!(cast_time("10m").unwrap(), CastTime::Longer);
        assert!(cast_time("soon").is_err());
        assert!(spell_duration("instant").unwrap().0.is_none());
    }

    #[test]
    fn a_scroll_id_is_one_s_and_digits() {
        assert_eq!(scroll_id("S12"), Ok(Seq(12)));
        assert_eq!(scroll_id("s7"), Ok(Seq(7)));
        assert_eq!(scroll_id("12"), Ok(Seq(12)));
        for loose in ["SS12", "+12", " 12", "S", "", "S-1", "S1x"] {
            assert!(scroll_id(loose).is_err(), "{loose:?}");
        }
    }
}
