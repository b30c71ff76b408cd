//! Log lines of Against the Darkmaster's events.

use crate::systems::contract::render::{Chart, Gauge};
use crate::systems::vsd::event::Choice;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{
    ChoiceMade, DelayedResolved, Outcome, SaveRolled, Severed, SpellCast, SpellLearned,
};
use crate::systems::vsd::state::VsdState;
use crate::words::Words;

/// The log line of an Against the Darkmaster event.
impl crate::systems::contract::render::SystemWords for super::Vsd {
    fn describe(event: &VsdEvent) -> String {
        describe(event)
    }
    fn sheet_words(s: &crate::sheet::VsdSheet) -> String {
        format!(
            "Against the Darkmaster, level {} {}, {} MP, Drive {}, Body {}",
            s.level, s.vocation, s.mp, s.drive, s.body
        )
    }
    fn after_downtime(
        vsd: &VsdState,
        _spent: &crate::systems::contract::event::DowntimeOf,
        _events: &[crate::event::Recorded],
    ) -> Vec<String> {
        vec![format!("MP {}/{}", vsd.mp_current(), vsd.mp_max)]
    }
    /// Every modifier a cast added, by name, as the JSON payload holds them.
    fn explain(event: &VsdEvent) -> Vec<String> {
        let VsdEvent::SpellCast(cast) = event else {
            return Vec::new();
        };
        let mut each = vec![
            format!("rolled {}", cast.roll),
            format!("lore bonus {:+}", cast.lore_bonus),
        ];
        each.extend(
            cast.modifiers
                .iter()
                .map(|m| format!("{} {:+}", m.what, m.value)),
        );
        vec![format!(
            "  the roll: {}; total {}",
            each.join(", "),
            cast.total
        )]
    }
    /// The spells known.
    fn names(vsd: &VsdState) -> Vec<String> {
        vsd.spells.values().map(|s| s.name.clone()).collect()
    }
    const TALLIES: &'static [&'static str] = &["spells_cast", "spell_failures", "resonances"];
    fn tally(event: &VsdEvent, add: &mut dyn FnMut(&'static str)) {
        if let VsdEvent::SpellCast(cast) = event {
            add("spells_cast");
            if cast.outcome == Outcome::Failure {
                add("spell_failures");
            }
            if cast.resonance.is_some() {
                add("resonances");
            }
        }
    }
    fn tally_lines(count: &dyn Fn(&'static str) -> u64) -> Vec<String> {
        let spells = count("spells_cast");
        vec![format!(
            "{spells} {} ({} failed, {} with resonance)",
            if spells == 1 {
                "spell cast"
            } else {
                "spells cast"
            },
            count("spell_failures"),
            count("resonances")
        )]
    }
    fn field_label(path: &[&str]) -> Option<String> {
        Some(match path {
            ["mp_spent"] => "MPs spent".into(),
            ["mp_max"] => "MP maximum".into(),
            ["spells", spell] => format!("spell {spell}"),
            ["spells", spell, rest @ ..] => {
                format!("spell {spell}: {}", rest.join(" ").replace('_', " "))
            }
            _ => return None,
        })
    }
    fn level(vsd: &VsdState) -> u32 {
        vsd.level
    }
    fn milestones(vsd: &VsdState) -> Vec<usize> {
        vec![vsd.spells.len()]
    }
    fn charts(vsd: &VsdState) -> Vec<(Chart, Vec<Gauge>)> {
        let chart = Chart {
            id: "mps",
            title: "magic points",
            caption: "Magic points over in-game time: those left, and the maximum dashed.",
        };
        vec![(
            chart,
            vec![Gauge {
                label: "left",
                max_label: "maximum",
                colour: 2,
                current: vsd.mp_max.saturating_sub(vsd.mp_spent),
                max: vsd.mp_max,
            }],
        )]
    }
    fn rest_words(rested: &crate::systems::vsd::event::MpRestored) -> String {
        match rested.restored {
            0 => format!("{} regains no MP", rested.character),
            n => format!("{} regains {n} MP", rested.character),
        }
    }
}

pub fn describe(event: &VsdEvent) -> String {
    match event {
        VsdEvent::SpellLearned(learned) => spell_learned(learned),
        VsdEvent::Concentrated {
            character, spell, ..
        } => format!("{character} concentrates on {spell}"),
        VsdEvent::ConcentrationInterrupted { character } => {
            format!("{character}'s concentration is broken")
        }
        VsdEvent::SpellCast(cast) => spell_cast(cast),
        VsdEvent::ChoiceMade(made) => choice_made(made),
        VsdEvent::SaveRolled(save) => save_rolled(save),
        VsdEvent::ThreadSevered(severed) => thread_severed(severed),
        VsdEvent::AlignmentSet { alignment } => {
            format!(
                "celestial alignment: {}",
                crate::words::Words::word(*alignment)
            )
        }
        VsdEvent::SeverTheThreadSet { on } => {
            format!("Sever the Thread is {}", if *on { "on" } else { "off" })
        }
        VsdEvent::DriveChanged {
            character,
            delta,
            reason,
        } => format!("{character} Drive {delta:+}: {reason}"),
        VsdEvent::ConditionCleared {
            character,
            condition,
        } => format!("{character} is no longer {}", condition.name()),
        VsdEvent::DelayedSpellResolved(resolved) => delayed_resolved(resolved),
    }
}

/// Where a cast landed, in words.
fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Failure => "failure",
        Outcome::Partial => "partial success",
        Outcome::Success => "success",
        Outcome::Outstanding => "outstanding success",
        Outcome::Attack => "attack roll",
    }
}

fn choices(c: &[Choice]) -> String {
    c.iter()
        .map(|choice| choice.word())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn spell_learned(l: &SpellLearned) -> String {
    format!(
        "{} learns {} ({} lore, Weave {}, {})",
        l.character,
        l.spell.name,
        l.spell.lore,
        l.spell.weave,
        l.spell.kind.word()
    )
}

pub fn spell_cast(c: &SpellCast) -> String {
    let mut parts = vec![format!(
        "{} casts {} at {}: roll {} {:+} lore {:+} modifiers = {}",
        c.caster,
        c.spell,
        c.target,
        c.roll,
        c.lore_bonus,
        c.modifiers.iter().map(|m| m.value).sum::<i64>(),
        c.total
    )];
    parts.push(outcome_words(c.outcome).to_string());
    if let Some(d) = c.save_difficulty {
        parts.push(format!("save difficulty {d}"));
    }
    if c.auto_resisted {
        parts.push("targets resist automatically".into());
    }
    parts.push(format!("{} MP spent", c.mp_spent));
    if let Some(o) = &c.overcast {
        parts.push(format!(
            "overcast by {} ({}), soul damage {}",
            o.weaves_over, o.method, o.soul_damage
        ));
    }
    if let Some(f) = &c.failure {
        parts.push(format!(
            "failure roll {} {:+} = {}",
            f.roll, f.modifier, f.total
        ));
    }
    if let Some(r) = &c.resonance {
        parts.push(format!("RESONANCE {} → {}", r.total, r.result));
    }
    for p in &c.pending {
        parts.push(format!(
            "{} to choose ({}): {}",
            p.by,
            p.about,
            choices(&p.options)
        ));
    }
    if c.consumed {
        parts.push("the caster is consumed".into());
    }
    parts.join("; ")
}

pub fn choice_made(c: &ChoiceMade) -> String {
    let mut line = format!("{} chooses {}", c.character, choices(&c.chosen));
    if let Some(r) = &c.resonance {
        line.push_str(&format!("; RESONANCE {} → {}", r.total, r.result));
    }
    line
}

pub fn save_rolled(s: &SaveRolled) -> String {
    format!(
        "{} saves against #{}: {} {:+} = {} vs {}: {}",
        s.target,
        s.against,
        s.roll,
        s.wsr,
        s.total,
        s.difficulty,
        if s.resisted { "resisted" } else { "affected" }
    )
}

pub fn thread_severed(s: &Severed) -> String {
    format!(
        "{} severs the thread (×{}): resonance re-rolled {} → {}",
        s.character, s.severs, s.resonance.total, s.resonance.result
    )
}

pub fn delayed_resolved(d: &DelayedResolved) -> String {
    if d.fired {
        format!(
            "{}'s held {} (from #{}) fires at {}, {} MP spent{}",
            d.caster,
            d.spell,
            d.cast_seq,
            d.target,
            d.mp_spent,
            d.save_difficulty
                .map(|s| format!("; save difficulty {s}"))
                .unwrap_or_default()
        )
    } else {
        format!(
            "{}'s held {} (from #{}) fizzles: concentration was not held; no MP spent",
            d.caster, d.spell, d.cast_seq
        )
    }
}
