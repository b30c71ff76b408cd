//! Log lines of A Dungeon Game's scrolls: written, read and resolved (ADG-S1 to ADG-S4).

use super::{effect, mishap, pending_words, table};
use crate::dice::Die;
use crate::systems::adg::event::{Reading, RitualKind, ScrollOutcome, ScrollWritten};

pub fn scroll_written(w: &ScrollWritten) -> String {
    let sealed = if w.original_kind == RitualKind::Ceremony {
        format!(
            "; the GM's check is sealed ({})",
            crate::dice::sealed::chosen_by(&w.dice)
        )
    } else {
        String::new()
    };
    let writes = if w.in_downtime {
        "writes, in a week of that downtime,"
    } else {
        "spends a week writing"
    };
    let recovered = if w.cushion_recovered {
        "; the Cunning exerted for it recovered later in the span"
    } else {
        ""
    };
    format!(
        "{} {writes} a scroll of {} (SL {}, \"{}\") for {} silver{sealed}{recovered}",
        w.writer, w.ritual, w.level, w.effect, w.cost
    )
}

pub fn scroll_read(reading: &Reading, dice: &[Die]) -> String {
    let mut parts = vec![format!(
        "{} reads scroll S{}",
        reading.reader, reading.scroll
    )];
    parts.extend(what_reading_did(reading, dice));
    parts.join("; ")
}

/// What a reading did, part by part: a save, damage to the scroll, a bad writing, a mishap or
/// the effect, whether the scroll holds, and what waits for `scroll resolve`.
pub(super) fn what_reading_did(reading: &Reading, dice: &[Die]) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(save) = &reading.agility_save {
        parts.push(format!(
            "Agility save {} vs {}: {}",
            save.roll,
            save.target,
            if save.success { "passed" } else { "failed" }
        ));
    }
    if let Some(d) = &reading.damaged {
        parts.push(format!("scroll damaged: {}", table(d)));
    }
    if reading.writing_check_passed == Some(false) {
        parts.push("it was badly written".into());
    }
    if let Some(m) = &reading.mishap {
        parts.push(mishap(m, dice));
    }
    if let Some(e) = &reading.effect {
        parts.push(effect(e));
    }
    match (reading.reuse_roll, reading.kept) {
        (Some(r), true) => parts.push(format!("the scroll can be read again (d20: {r})")),
        (Some(r), false) => parts.push(format!("the scroll crumbles to ash (d20: {r})")),
        (None, _) => {}
    }
    if let Some(pending) = &reading.pending {
        parts.push(format!(
            "{} waits for `grimoire scroll resolve {}`",
            pending_words(&pending.outcome),
            reading.reader
        ));
    }
    parts
}

pub fn scroll_outcome(o: &ScrollOutcome) -> String {
    let mut parts = vec![format!(
        "{} rolls what scroll S{} left pending",
        o.reader, o.scroll
    )];
    if let Some(m) = &o.mishap {
        parts.push(mishap(m, &o.dice));
    }
    if let Some(e) = &o.effect {
        parts.push(effect(e));
    }
    if let Some(dead) = &o.unreached {
        parts.push(format!(
            "its damage or healing reaches no one: {dead} is dead"
        ));
    }
    parts.join("; ")
}
