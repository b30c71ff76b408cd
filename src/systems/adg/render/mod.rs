//! Log lines of A Dungeon Game's events.

mod scrolls;

use scrolls::what_reading_did;
pub use scrolls::{scroll_outcome, scroll_read, scroll_written};

use crate::dice::Die;
use crate::seq::Seq;
use crate::systems::adg::Adg;
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::event::{
    Cast, EffectKind, EffectRoll, LearnAttempt, PendingOutcome, RestResult, ScrollWritten,
    TableResult,
};
use crate::systems::adg::state::AdgState;
use crate::systems::adg::tables::{AdgTables, Attribute};
use crate::systems::contract::event::DowntimeOf;
use crate::systems::contract::port::{Someone, View};
use crate::systems::contract::render::spells_on_line;
use crate::systems::contract::render::{Chart, Gauge, PerDay, Table};
use crate::words::Folded;
use crate::words::Words;
use crate::words::{capitalized, list_or_none};

/// The log line of an A Dungeon Game event.
impl crate::systems::contract::render::SystemWords for super::Adg {
    fn describe(event: &AdgEvent) -> String {
        describe(event)
    }
    fn sheet_words(s: &crate::systems::adg::sheet::AdgSheet) -> String {
        let mut words = format!(
            "A Dungeon Game, level {}: Agility {}, Brawn {}, Cunning {}, health {}, silver {}",
            s.level, s.agility, s.brawn, s.cunning, s.health, s.silver
        );
        if !s.knows.is_empty() {
            let known: Vec<String> = s
                .knows
                .iter()
                .map(|r| format!("{} ({})", r.name, r.kind.word()))
                .collect();
            words.push_str(&format!("; knows {} from the start", known.join(", ")));
        }
        words
    }
    const SHEET_FIELDS: &'static [(&'static str, &'static str)] = &[
        ("agility", "Agility"),
        ("brawn", "Brawn"),
        ("cunning", "Cunning"),
        ("health", "maximum health"),
    ];
    fn rest_words(rested: &RestResult) -> String {
        match rested.healed {
            0 => format!("{} regains no health", rested.character),
            healed => format!("{} heals {healed}", rested.character),
        }
    }
    /// Exertion, silver, and the scrolls written in the span.
    fn after_downtime(
        adg: &AdgState,
        spent: &DowntimeOf,
        events: &[(Seq, &AdgEvent)],
    ) -> Vec<String> {
        let mut now = Vec::new();
        let exerted: Vec<String> = [Attribute::Agility, Attribute::Brawn, Attribute::Cunning]
            .into_iter()
            .filter(|a| adg.exerted.get(*a) > 0)
            .map(|a| format!("{a} {}", adg.exerted.get(a)))
            .collect();
        now.push(match (spent.restored_exertion, exerted.is_empty()) {
            (true, true) => "exertion recovered".to_string(),
            (false, true) => "nothing exerted".to_string(),
            (true, false) => format!("exertion recovered, then {} exerted", exerted.join(", ")),
            (false, false) => format!("still exerted: {}", exerted.join(", ")),
        });
        let scrolls: Vec<(Seq, &ScrollWritten)> = events
            .iter()
            .filter_map(|&(seq, event)| match event {
                // Written in the span's weeks: a scroll written by its own command after is not.
                AdgEvent::ScrollWritten(w) if w.in_downtime && w.writer == spent.character => {
                    Some((seq, w))
                }
                _ => None,
            })
            .collect();
        let paid: u64 = scrolls.iter().map(|(_, w)| w.cost).sum();
        now.push(format!("silver {} ({paid} spent)", adg.silver));
        if !scrolls.is_empty() {
            let ids: Vec<String> = scrolls
                .iter()
                .map(|(seq, w)| format!("S{seq} {} SL {}", w.ritual, w.level))
                .collect();
            now.push(format!("wrote {}", ids.join(", ")));
        }
        now
    }
    /// The rituals known or discovered.
    fn names(adg: &AdgState) -> Vec<String> {
        let known = adg.known.values().map(|r| r.name.clone());
        known
            .chain(adg.discovered.values().map(|(name, _)| name.clone()))
            .collect()
    }
    /// Scrolls, as `S12`.
    fn campaign_names(state: &dyn View<Adg>) -> Vec<String> {
        let scrolls = state.campaign().scrolls.keys();
        scrolls.map(|id| format!("S{id}")).collect()
    }
    const TALLIES: &'static [&'static str] = &[
        "rituals_cast",
        "mishaps",
        "scrolls_written",
        "scrolls_read",
        "scrolls_lost",
    ];
    const HIGHLIGHTS: &'static [&'static str] = &["mishaps", "scrolls_written", "scrolls_lost"];
    /// A scroll written in a span's scribing weeks.
    fn of_downtime(event: &AdgEvent) -> bool {
        matches!(event, AdgEvent::ScrollWritten(written) if written.in_downtime)
    }
    fn tally(event: &AdgEvent, add: &mut dyn FnMut(&'static str)) {
        match event {
            AdgEvent::RitualCast(cast) => {
                add("rituals_cast");
                if cast.mishap.is_some() {
                    add("mishaps");
                }
            }
            AdgEvent::ScrollWritten(_) => add("scrolls_written"),
            AdgEvent::ScrollRead { reading, .. } => {
                add("scrolls_read");
                // Read and turned to ash, or damaged.
                if reading.damaged.is_some() || !reading.kept {
                    add("scrolls_lost");
                }
            }
            _ => {}
        }
    }
    fn tally_lines(count: &dyn Fn(&'static str) -> u64) -> Vec<String> {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        vec![
            format!(
                "{} ({} with a mishap)",
                plural(count("rituals_cast"), "ritual cast", "rituals cast"),
                count("mishaps")
            ),
            format!(
                "{} written, {} read, {} lost (ash or damaged)",
                plural(count("scrolls_written"), "scroll", "scrolls"),
                count("scrolls_read"),
                count("scrolls_lost")
            ),
        ]
    }
    fn field_label(path: &[&str]) -> Option<String> {
        let attribute = |a: &str| {
            let mut word = a.to_string();
            if let Some(first) = word.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            word
        };
        Some(match path {
            ["exerted", a] => format!("{} exerted", attribute(a)),
            ["max", a] => format!("{} maximum", attribute(a)),
            ["known", ritual] => format!("ritual {ritual}"),
            ["known", ritual, rest @ ..] => format!("ritual {ritual}: {}", rest.join(" ")),
            ["lost", ritual] => format!("ritual {ritual} lost for ever"),
            ["discovered", ritual, ..] => format!("ritual {ritual} discovered"),
            ["scrolls", id] => format!("scroll {id}"),
            ["scrolls", id, field] => format!("scroll {id} {field}"),
            _ => return None,
        })
    }
    /// The scrolls the character holds, by id (`S12`): what the sheet lists of each, and the
    /// effect's words.
    fn holdings(who: &str, state: &dyn View<Adg>) -> serde_json::Map<String, serde_json::Value> {
        let scrolls: serde_json::Map<String, serde_json::Value> = held_by(who, state)
            .map(|s| {
                let held = serde_json::json!({
                    "ritual": s.ritual,
                    "level": s.level,
                    "effect": s.effect,
                    "reads": s.reads,
                    "writer": s.writer,
                });
                (format!("S{}", s.id), held)
            })
            .collect();
        serde_json::Map::from_iter([("scrolls".to_string(), scrolls.into())])
    }
    /// Scrolls held by a character of another game (anyone can read one, ADG-S5).
    fn held_lines(who: &str, state: &dyn View<Adg>) -> Vec<String> {
        let scrolls = scrolls_held(who, state);
        match scrolls.is_empty() {
            true => Vec::new(),
            false => vec![format!("  Scrolls held: {}", scrolls.join(", "))],
        }
    }
    /// A discovered ritual is its name and words: that it is there is what changed.
    fn shown_as_presence(path: &[&str]) -> bool {
        path.first() == Some(&"discovered")
    }
    const SHORT: &'static str = "ADG";
    /// Attributes, rituals today against the safe number, silver, scrolls held, a pending roll.
    fn glance(who: &Someone<'_, Adg>, adg: &AdgState, state: &dyn View<Adg>) -> Vec<String> {
        let attributes: Vec<String> = [Attribute::Agility, Attribute::Brawn, Attribute::Cunning]
            .into_iter()
            .map(|a| {
                let (current, max) = (adg.current(a), adg.max.get(a));
                let short: String = a.to_string().chars().take(3).collect();
                if current == max {
                    format!("{short} {max}")
                } else {
                    format!("{short} {current}/{max}")
                }
            })
            .collect();
        let mut parts = vec![
            attributes.join(" "),
            format!(
                "rituals {}/{} today{}",
                adg.rituals_today,
                adg.safe_rituals_per_day(),
                if adg.locked_out { ", LOCKED OUT" } else { "" }
            ),
            format!("silver {}", adg.silver),
        ];
        let held: Vec<String> = state
            .campaign()
            .scrolls
            .values()
            .filter(|s| Folded::of(&s.holder) == Folded::of(who.name))
            .map(|s| format!("S{}", s.id))
            .collect();
        if !held.is_empty() {
            parts.push(format!("scrolls {}", held.join(", ")));
        }
        if adg.pending_roll.is_some() {
            parts.push("dice pending (scroll resolve)".into());
        }
        parts
    }
    /// The computed sheet (ADG-C1 to ADG-R9, ADG-S9).
    fn sheet_lines(c: &Someone<'_, Adg>, adg: &AdgState, state: &dyn View<Adg>) -> Vec<String> {
        let mut lines = vec![format!(
            "  Level {}{}",
            adg.level,
            if adg.dead { ", DEAD" } else { "" }
        )];
        let attribute = |a: Attribute| {
            let (max, exerted) = (adg.max.get(a), adg.exerted.get(a));
            if exerted == 0 {
                format!("{a} {max}")
            } else {
                format!("{a} {} (max {max}, {exerted} exerted)", adg.current(a))
            }
        };
        lines.push(format!(
            "  {}   {}   {}",
            attribute(Attribute::Agility),
            attribute(Attribute::Brawn),
            attribute(Attribute::Cunning)
        ));
        lines.push(format!("  {}", capitalized(&c.health_text())));
        lines.push(format!("  Silver {}", adg.silver));
        let safe = adg.safe_rituals_per_day();
        let next = match adg.next_ritual_cost() {
            0 => "the next is safe".to_string(),
            cost => format!("the next costs {cost} Cunning first"),
        };
        lines.push(format!(
            "  Rituals since last rest: {} (safe per day: {safe}); {next}",
            adg.rituals_today
        ));
        if adg.locked_out {
            lines.push("  LOCKED OUT of rituals until a night's rest".into());
        }
        let known: Vec<String> = adg
            .known
            .values()
            .map(|k| {
                let kind = k.kind.word();
                let words = if k.words.join(" ") == k.name {
                    String::new()
                } else {
                    format!(", words {}", k.words.join(" "))
                };
                let reversible = if k.reversible { "" } else { ", not reversible" };
                format!("{} ({kind}{words}{reversible})", k.name)
            })
            .collect();
        lines.push(format!("  Rituals known: {}", list_or_none(&known)));
        let discovered: Vec<String> = adg
            .discovered
            .values()
            .map(|(name, _)| name.clone())
            .collect();
        if !discovered.is_empty() {
            lines.push(format!(
                "  Discovered, not learned: {}",
                discovered.join(", ")
            ));
        }
        let lost: Vec<String> = adg.lost.values().cloned().collect();
        lines.push(format!("  Lost forever: {}", list_or_none(&lost)));
        lines.push(format!(
            "  Scrolls held: {}",
            list_or_none(&scrolls_held(c.name, state))
        ));
        let active: Vec<String> = adg
            .effects
            .iter()
            .filter(|e| e.until > state.clock())
            .map(|e| format!("{} until {}", e.ritual, state.until_words(e.until)))
            .collect();
        lines.push(format!("  Active effects: {}", list_or_none(&active)));
        if !adg.sigils.is_empty() {
            let waiting: Vec<String> = adg
                .sigils
                .iter()
                .map(|s| {
                    format!(
                        "{} (drawn at #{}; {})",
                        s.ritual, s.cast_seq, s.waits.trigger
                    )
                })
                .collect();
            lines.push(format!(
                "  Sigils waiting to go off: {}",
                waiting.join(", ")
            ));
        }
        if !c.spells_on.is_empty() {
            lines.push(spells_on_line(c, state));
        }
        if let Some(pending) = &adg.pending_roll {
            lines.push(format!(
                "  Pending: {} from scroll S{}; roll it with `grimoire scroll resolve {}`",
                pending_words(&pending.outcome),
                pending.scroll,
                c.name
            ));
        }
        lines
    }
    /// Each ritual known with how its kind works at the caster's level (ADG-R1).
    fn known(
        _who: &Someone<'_, Adg>,
        adg: &AdgState,
        _state: &dyn View<Adg>,
    ) -> Vec<(String, String)> {
        (adg.known.values())
            .map(|k| (k.name.clone(), ritual_works(k.kind, adg.level)))
            .collect()
    }

    fn level(adg: &AdgState) -> u32 {
        adg.level
    }
    fn milestones(adg: &AdgState) -> Vec<usize> {
        vec![adg.known.len(), adg.lost.len()]
    }
    fn charts(adg: &AdgState) -> Vec<(Chart, Vec<Gauge>)> {
        let chart = Chart {
            id: "attributes",
            title: "attributes",
            caption: "Attributes over in-game time: current (less what is exerted), and each maximum dashed.",
        };
        let gauges = [
            (Attribute::Agility, "Agility", "Agility maximum"),
            (Attribute::Brawn, "Brawn", "Brawn maximum"),
            (Attribute::Cunning, "Cunning", "Cunning maximum"),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, (attribute, label, max_label))| Gauge {
            label,
            max_label,
            colour: i + 1,
            current: adg.current(attribute),
            max: adg.max.get(attribute),
        })
        .collect();
        vec![(chart, gauges)]
    }
    const PER_DAY: Option<PerDay> = Some(PerDay {
        id: "rituals",
        title: "rituals per day",
        counted: "rituals cast",
        limit: "safe number",
        caption: "Rituals cast per in-game day against the safe number",
        days: "days with a ritual",
        none_yet: "No rituals cast yet.",
    });
    /// A ritual cast, against the caster's safe number (ADG-C2).
    fn counted_per_day<'e>(state: &dyn View<Adg>, event: &'e AdgEvent) -> Option<(&'e str, u32)> {
        let AdgEvent::RitualCast(cast) = event else {
            return None;
        };
        let adg = state.someone(&cast.character)?.mine?;
        Some((&cast.character, adg.safe_rituals_per_day()))
    }
    fn report_tables(state: &dyn View<Adg>) -> Vec<Table> {
        let scrolls = &state.campaign().scrolls;
        vec![Table {
            id: "scrolls",
            heading: "Scrolls",
            empty: "No scroll is held.",
            columns: vec![
                "Scroll",
                "Ritual",
                "Level",
                "Held by",
                "Written by",
                "Read",
                "Effect",
            ],
            rows: scrolls
                .values()
                .map(|scroll| {
                    vec![
                        format!("#{}", scroll.id),
                        scroll.ritual.clone(),
                        scroll.level.to_string(),
                        scroll.holder.clone(),
                        scroll.writer.clone(),
                        match scroll.reads {
                            1 => "1 time".to_string(),
                            n => format!("{n} times"),
                        },
                        scroll.effect.clone(),
                    ]
                })
                .collect(),
        }]
    }
}

pub fn describe(event: &AdgEvent) -> String {
    match event {
        AdgEvent::AdgTablesLoaded {
            source,
            sha256,
            tables,
        } => tables_loaded(source, sha256, tables),
        AdgEvent::RitualDiscovered {
            character, ritual, ..
        } => format!("{character} discovers the ritual {ritual}"),
        AdgEvent::Exerted {
            character,
            attribute,
            amount,
            reason,
        } => format!("{character} exerts {amount} {attribute}: {reason}"),
        AdgEvent::RitualLearnAttempted(attempt) => learn_attempt(attempt),
        AdgEvent::RitualCast(ritual) => cast(ritual),
        AdgEvent::SigilTriggered(t) => {
            let mut line = format!(
                "{}'s sigil {} (drawn at #{}) goes off",
                t.character, t.ritual, t.cast_seq
            );
            if let Some(e) = &t.effect {
                line.push_str(&format!("; {}", effect(e)));
            }
            if let Some(until) = t.effect_until {
                line.push_str(&format!("; in force until {until}"));
            }
            line
        }
        AdgEvent::DowntimeSpent {
            character,
            weeks,
            restored_exertion,
            ..
        } => downtime_spent(character, *weeks, *restored_exertion),
        AdgEvent::ScrollWritten(written) => scroll_written(written),
        AdgEvent::ScrollRead { reading, dice } => scroll_read(reading, dice),
        AdgEvent::ScrollOutcomeRolled(outcome) => scroll_outcome(outcome),
        AdgEvent::SilverChanged {
            character,
            delta,
            reason,
        } if *delta < 0 => format!(
            "{character} spends {} silver: {reason}",
            delta.unsigned_abs()
        ),
        AdgEvent::SilverChanged {
            character,
            delta,
            reason,
        } => format!("{character} gains {delta} silver: {reason}"),
        AdgEvent::ScrollGiven { scroll, from, to } => {
            format!("{from} gives scroll S{scroll} to {to}")
        }
    }
}

/// What a reading left pending, in words.
pub fn pending_words(outcome: &PendingOutcome) -> String {
    match outcome {
        PendingOutcome::Mishap { difference } => {
            format!("its mishap (failed by {difference})")
        }
        PendingOutcome::Effect { kind, level, .. } => {
            format!("its {level}d6 of {}", effect_kind(*kind))
        }
    }
}

fn effect_kind(kind: EffectKind) -> &'static str {
    match kind {
        EffectKind::Damage => "damage",
        EffectKind::Healing => "healing",
    }
}

/// A table result: its text, then what it did.
fn table(r: &TableResult) -> String {
    format!(
        "\"{}\" (table total {}){}",
        r.text,
        r.total,
        consequences(r)
    )
}

/// A mishap told as it was rolled: the two dice, what the check failed by, the total, then the
/// entry ("mishap 2d6 (3, 5) + 2 = 10: ..."). The dice are found by their purpose; a mishap whose
/// dice are not both in `dice` (sealed ones) is told by its total.
fn mishap(m: &TableResult, dice: &[Die]) -> String {
    let faces: Vec<u32> = dice
        .iter()
        .filter(|d| d.purpose == "mishap 2d6")
        .filter_map(|d| d.value)
        .collect();
    match faces[..] {
        [a, b] => format!(
            "mishap 2d6 ({a}, {b}) + {} = {}: \"{}\"{}",
            m.total - i64::from(a + b),
            m.total,
            m.text,
            consequences(m)
        ),
        _ => format!("mishap: {}", table(m)),
    }
}

/// What a table entry did, each part after a comma ("" when nothing).
fn consequences(r: &TableResult) -> String {
    let mut parts = Vec::new();
    if r.damage > 0 {
        parts.push(format!("{} damage", r.damage));
    }
    for (a, n) in &r.exertions {
        parts.push(format!("{n} {a} exerted"));
    }
    if let Some(w) = &r.replaced {
        parts.push(format!(
            "{} became {}{}",
            w.old,
            w.new,
            if w.remembered { " for good" } else { "" }
        ));
    }
    if r.lockout {
        parts.push("no rituals until a night's rest".into());
    }
    parts.iter().map(|p| format!(", {p}")).collect()
}

/// Names keep the case they were entered in; only the kind is a plain word.
fn effect(e: &EffectRoll) -> String {
    format!("{} {} to {}", e.amount, effect_kind(e.kind), e.target)
}

pub fn tables_loaded(source: &str, sha256: &str, tables: &AdgTables) -> String {
    let sample = if tables.sample {
        ", sample content"
    } else {
        ""
    };
    format!(
        "A Dungeon Game tables loaded from {source} (\"{}\"{sample}; sha256 {})",
        tables.name,
        sha256.get(..16).unwrap_or(sha256)
    )
}

pub fn learn_attempt(a: &LearnAttempt) -> String {
    let paid = format!("pays {} {}", a.cost, a.pay.word());
    let scroll = a.from_scroll.as_ref().map_or(String::new(), |s| {
        // An accidental cast is a reading: what it did (its damage, the scroll burned) is said.
        let accident = match (&s.reading, s.accidental) {
            (Some(reading), true) => {
                let did = what_reading_did(reading, &a.dice);
                match did.is_empty() {
                    true => ", cast it by accident".to_string(),
                    false => format!(", cast it by accident: {}", did.join("; ")),
                }
            }
            (None, true) => ", cast it by accident".to_string(),
            (_, false) => String::new(),
        };
        format!(" from scroll S{} (check {}{accident})", s.scroll, s.roll)
    });
    let outcome = if a.died {
        "and dies of the cost".to_string()
    } else if let Some(c) = &a.check {
        let exerted = if c.exerted > 0 {
            format!(", exerting {}", c.exerted)
        } else {
            String::new()
        };
        let result = if a.learned {
            "learns it"
        } else {
            "loses it forever"
        };
        format!(
            "rolls {} against Cunning {}{exerted}: {result}",
            c.roll, c.target
        )
    } else {
        String::new()
    };
    format!(
        "{} studies {}{scroll}, {paid}, {outcome}",
        a.character, a.ritual
    )
}

pub fn cast(c: &Cast) -> String {
    let mut parts = vec![match c.took {
        Some(took) => format!("{} casts {} over {took}", c.character, c.words.join(" ")),
        None => format!("{} casts {}", c.character, c.words.join(" ")),
    }];
    if c.reversal_cost > 0 {
        parts.push(format!(
            "exerts {} Cunning to reverse both words",
            c.reversal_cost
        ));
    }
    if c.over_limit_cost > 0 {
        parts.push(format!(
            "exerts {} Cunning for casting beyond the safe number today",
            c.over_limit_cost
        ));
    }
    let verdict = match (c.check.success, c.check.exact) {
        (true, true) => "exact success".to_string(),
        (true, false) => "success".to_string(),
        // Within Cunning, yet not above the damage taken this round (ADG-R8): the mishap's
        // difference is still the distance between the die and Cunning.
        (false, _) if c.check.roll <= c.check.target => format!(
            "failure, not above the {} damage taken this round (difference {})",
            c.damage_taken.unwrap_or_default(),
            c.check.roll.abs_diff(c.check.target)
        ),
        (false, _) => format!("failure by {}", c.check.roll - c.check.target),
    };
    let exerted = if c.check.exerted > 0 {
        format!(" after exerting {}", c.check.exerted)
    } else {
        String::new()
    };
    parts.push(format!(
        "rolls {} against Cunning {}: {verdict}{exerted}",
        c.check.roll, c.check.target
    ));
    if let Some(choice) = &c.exact_choice {
        parts.push(format!("double {choice}"));
    }
    if let Some(e) = &c.effect {
        parts.push(effect(e));
    }
    if let Some(w) = &c.waits {
        parts.push(format!("the sigil waits to go off: {}", w.trigger));
    }
    if let Some(m) = &c.mishap {
        parts.push(mishap(m, &c.dice));
    }
    // A table entry that locks the caster out has said so already.
    if c.lockout && !c.mishap.as_ref().is_some_and(|m| m.lockout) {
        parts.push("locked out until a night's rest".into());
    }
    parts.join("; ")
}

pub fn downtime_spent(character: &str, weeks: u32, restored_exertion: bool) -> String {
    let restored = if restored_exertion {
        "; exertion recovered"
    } else {
        ""
    };
    let weeks = match weeks {
        1 => "a week".to_string(),
        n => format!("{n} weeks"),
    };
    format!("{character} spends {weeks} of downtime{restored}")
}

/// The scrolls `who` holds, oldest first.
fn held_by<'s>(
    who: &str,
    state: &'s dyn View<Adg>,
) -> impl Iterator<Item = &'s super::state::Scroll> {
    let who = Folded::of(who);
    state
        .campaign()
        .scrolls
        .values()
        .filter(move |s| who.is(&s.holder))
}

/// The scrolls `who` holds as a sheet lists them (`S12 Warding Light SL 2 read 1x`).
fn scrolls_held(who: &str, state: &dyn View<Adg>) -> Vec<String> {
    held_by(who, state)
        .map(|s| format!("S{} {} SL {} read {}x", s.id, s.ritual, s.level, s.reads))
        .collect()
}

/// How a ritual of `kind` works for a caster of `level` (ADG-R1), in a few words.
fn ritual_works(kind: super::event::RitualKind, level: u32) -> String {
    use super::event::RitualKind;
    match kind {
        RitualKind::Phrase => "phrase: a round to cast; works at once, then fades".into(),
        RitualKind::Sigil => format!(
            "sigil: a minute to draw; set off at will or on a condition; lasts {} minutes",
            10 * level
        ),
        RitualKind::Ceremony => format!(
            "ceremony: an hour or more; works once complete; lasts {}",
            crate::words::count(u64::from(level), "day", "days")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::adg::event::RitualKind;

    #[test]
    fn adg_r1_given_a_level_3_caster_when_their_card_lists_rituals_then_each_kind_says_how_it_works()
     {
        assert_eq!(
            ritual_works(RitualKind::Phrase, 3),
            "phrase: a round to cast; works at once, then fades"
        );
        assert!(ritual_works(RitualKind::Sigil, 3).ends_with("lasts 30 minutes"));
        assert!(ritual_works(RitualKind::Ceremony, 3).ends_with("lasts 3 days"));
        assert!(ritual_works(RitualKind::Ceremony, 1).ends_with("lasts 1 day"));
    }
}
