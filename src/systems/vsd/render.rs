//! Log lines of Against the Darkmaster's events.

use crate::seq::Seq;
use crate::systems::contract::port::{Someone, View};
use crate::systems::contract::render::spells_on_line;
use crate::systems::contract::render::{Chart, Gauge};
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::Choice;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{
    AttackRolled, ChoiceMade, DelayedResolved, Modifier, Outcome, SaveRolled, Severed, SpellCast,
    SpellLearned,
};
use crate::systems::vsd::state::VsdState;
use crate::words::Words;
use crate::words::{capitalized, list_or_none};

/// The log line of an Against the Darkmaster event.
impl crate::systems::contract::render::SystemWords for super::Vsd {
    fn describe(event: &VsdEvent) -> String {
        describe(event)
    }
    fn sheet_words(s: &crate::systems::vsd::sheet::VsdSheet) -> String {
        format!(
            "Against the Darkmaster, level {} {}, {} MP, Drive {}, Body {}",
            s.level, s.vocation, s.mp, s.drive, s.body
        )
    }
    const SHEET_FIELDS: &'static [(&'static str, &'static str)] = &[
        ("mp", "MP"),
        ("drive", "Drive"),
        ("body", "Body"),
        ("wsr", "WSR"),
        ("defense", "Defense"),
        ("health", "maximum health"),
    ];
    /// The numbers as the default says them; each lore by name, added, changed or dropped.
    fn sheet_changes(
        was: &crate::systems::vsd::sheet::VsdSheet,
        now: &crate::systems::vsd::sheet::VsdSheet,
    ) -> Vec<String> {
        let lores_aside = crate::systems::vsd::sheet::VsdSheet {
            lores: now.lores.clone(),
            ..was.clone()
        };
        let mut changes = crate::systems::contract::render::entered_changes(
            &lores_aside,
            now,
            Self::SHEET_FIELDS,
        );
        for lore in &now.lores {
            match was.lores.iter().find(|old| old.name == lore.name) {
                Some(old) if old == lore => {}
                Some(old) => changes.push(format!(
                    "{} {:+} → {:+}, ranks {} → {}",
                    lore.name, old.bonus, lore.bonus, old.ranks, lore.ranks
                )),
                None => changes.push(format!(
                    "{} {:+} with {} (new lore)",
                    lore.name,
                    lore.bonus,
                    crate::words::count(u64::from(lore.ranks), "rank", "ranks")
                )),
            }
        }
        for old in &was.lores {
            if !now.lores.iter().any(|lore| lore.name == old.name) {
                changes.push(format!("{} dropped", old.name));
            }
        }
        changes
    }
    fn after_downtime(
        vsd: &VsdState,
        _spent: &crate::systems::contract::event::DowntimeOf,
        _events: &[(Seq, &VsdEvent)],
    ) -> Vec<String> {
        vec![format!("MP {}/{}", vsd.mp_current(), vsd.mp_max)]
    }
    /// Every total of the event by its parts: the casting or attack roll's modifiers, and a
    /// resonance roll's (with the cap, when one applied).
    fn explain(event: &VsdEvent) -> Vec<String> {
        let resonance = |r: &crate::systems::vsd::event::ResonanceRoll| {
            format!("  the resonance roll: {} → {}", r.parts(), r.words())
        };
        // Every modifier by name, as the JSON payload holds them.
        let parts = |roll: i64, lore: i64, modifiers: &[Modifier], total: i64| {
            let mut each = vec![format!("rolled {roll}"), format!("lore bonus {lore:+}")];
            each.extend(
                modifiers
                    .iter()
                    .map(|m| format!("{} {:+}", m.what, m.value)),
            );
            format!("  the roll: {}; total {total}", each.join(", "))
        };
        match event {
            VsdEvent::SpellCast(cast) => {
                let mut lines = vec![parts(
                    cast.roll,
                    cast.lore_bonus,
                    &cast.modifiers,
                    cast.total,
                )];
                lines.extend(cast.resonance.iter().map(resonance));
                lines
            }
            VsdEvent::AttackRolled(a) => vec![parts(a.roll, a.lore_bonus, &a.modifiers, a.total)],
            VsdEvent::ChoiceMade(choice) => choice.resonance.iter().map(resonance).collect(),
            _ => Vec::new(),
        }
    }
    /// The spells known.
    fn names(vsd: &VsdState) -> Vec<String> {
        vsd.spells.values().map(|s| s.name.clone()).collect()
    }
    const TALLIES: &'static [&'static str] = &["spells_cast", "spell_failures", "resonances"];
    const HIGHLIGHTS: &'static [&'static str] = &["spell_failures", "resonances"];
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
    const SHORT: &'static str = "VsD";
    /// MPs, Drive, conditions in force, choices pending.
    fn glance(_who: &Someone<'_, Vsd>, vsd: &VsdState, state: &dyn View<Vsd>) -> Vec<String> {
        let mut parts = vec![
            format!("MP {}/{}", vsd.mp_current(), vsd.mp_max),
            format!("Drive {}", vsd.drive),
        ];
        let conditions: Vec<String> = vsd
            .active_conditions(state.clock())
            .into_iter()
            .map(|c| c.name())
            .collect();
        if !conditions.is_empty() {
            parts.push(conditions.join(", "));
        }
        if !vsd.pending.is_empty() {
            let choices = vsd.pending.len();
            parts.push(format!(
                "{choices} choice{} pending",
                if choices == 1 { "" } else { "s" }
            ));
        }
        parts
    }
    /// The computed sheet (VSD-2 to VSD-13).
    fn sheet_lines(c: &Someone<'_, Vsd>, vsd: &VsdState, state: &dyn View<Vsd>) -> Vec<String> {
        let mut lines = vec![format!(
            "  Level {} {}{}",
            vsd.level,
            vsd.vocation,
            if vsd.consumed { ", CONSUMED" } else { "" }
        )];
        let soul = if vsd.soul_damage > 0 {
            format!(" (after {} soul damage)", vsd.soul_damage)
        } else {
            String::new()
        };
        lines.push(format!(
            "  MP {}/{}   Drive {}   Body {:+}{soul}   WSR {:+}   Defense {:+}",
            vsd.mp_current(),
            vsd.mp_max,
            vsd.drive,
            vsd.body,
            vsd.wsr,
            vsd.defense
        ));
        for lore in &vsd.lores {
            lines.push(format!(
                "  Spell Lore {}: {:+} ({} ranks)",
                lore.name, lore.bonus, lore.ranks
            ));
        }
        lines.push(format!("  {}", capitalized(&c.health_text())));
        let spells: Vec<String> = vsd
            .spells
            .values()
            .map(|s| {
                let mut traits = vec![
                    s.lore.clone(),
                    format!("Weave {}", s.weave),
                    s.kind.word().to_string(),
                ];
                traits.extend(s.tags.iter().map(|t| t.word().to_string()));
                if let Some(a) = s.attack {
                    traits.push(a.word().to_string());
                }
                if s.instantaneous {
                    traits.push("instantaneous".into());
                }
                if s.save {
                    traits.push("save".into());
                }
                format!("{} ({})", s.name, traits.join(", "))
            })
            .collect();
        lines.push(format!("  Spells known: {}", list_or_none(&spells)));
        if let Some(conc) = &vsd.concentration {
            let rounds = conc.last_round - conc.first_round + 1;
            lines.push(format!(
                "  Concentrating on {}: {}, +{} if cast next round",
                conc.spell,
                crate::words::count(rounds, "round", "rounds"),
                10 * rounds.min(4)
            ));
        }
        let conditions: Vec<String> = conditions_in_force(vsd, state)
            .into_iter()
            .map(|(condition, until)| condition_words(condition, until, state))
            .collect();
        lines.push(format!("  Conditions: {}", list_or_none(&conditions)));
        lines.push(spells_on_line(c, state));
        if let Some(until) = vsd.awareness_until.filter(|u| *u > state.clock()) {
            lines.push(format!("  The Darkmaster is aware of them until {}: a spell before then brings a resonance roll", state.until_words(until)));
        }
        lines.extend(waiting_of(c, vsd, state));
        lines
    }
    /// Each spell known with its cost in MPs (VSD-6) and how it works.
    fn known(
        _who: &Someone<'_, Vsd>,
        vsd: &VsdState,
        _state: &dyn View<Vsd>,
    ) -> Vec<(String, String)> {
        (vsd.spells.values())
            .map(|s| {
                let mut what = vec![
                    format!("costs {} MP", s.mp_cost()),
                    format!("Weave {}, {} lore, {}", s.weave, s.lore, s.kind.word()),
                ];
                if s.instantaneous {
                    what.push("instantaneous".into());
                }
                if let Some(duration) = s.duration {
                    what.push(format!("lasts {duration}"));
                }
                if s.save {
                    what.push("a Willpower save resists it".into());
                }
                if let Some(attack) = s.attack {
                    what.push(format!("makes a {} attack roll", attack.word()));
                }
                (s.name.clone(), what.join("; "))
            })
            .collect()
    }

    /// Each condition in force on them with what it does (VSD-13), for their player's card.
    fn in_force(
        _who: &Someone<'_, Vsd>,
        vsd: &VsdState,
        state: &dyn View<Vsd>,
    ) -> Vec<(String, &'static str)> {
        conditions_in_force(vsd, state)
            .into_iter()
            .map(|(condition, until)| {
                (condition_words(condition, until, state), condition.effect())
            })
            .collect()
    }

    /// For each character: a failed spell held to fire (VSD-9), each choice still to make (VSD-8),
    /// and each save still to roll against a spell cast on them (VSD-7).
    fn waiting(state: &dyn View<Vsd>) -> Vec<String> {
        let mut lines = Vec::new();
        for who in state.everyone() {
            if let Some(vsd) = who.mine {
                lines.extend(
                    waiting_of(&who, vsd, state)
                        .into_iter()
                        .map(|line| format!("{}: {}", who.name, line.trim())),
                );
            }
            let castings = state
                .campaign()
                .castings_on
                .get(&crate::words::Folded::of(who.name));
            // A spell that grants a save takes hold only once the save fails (VSD-7): until the
            // save is rolled, the newest casting on them waits for it.
            for (spell, casting) in castings.into_iter().flatten() {
                let took_hold = who
                    .spells_on
                    .get(spell)
                    .is_some_and(|active| active.cast_seq == casting.cast_seq);
                if !casting.saved && !took_hold {
                    lines.push(format!(
                        "{name}: a save against the spell cast at #{seq} is still to roll — `grimoire save {name} --cast {seq}`",
                        name = who.name,
                        seq = casting.cast_seq
                    ));
                }
            }
        }
        lines
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
    // The text gives no healing rules: health comes back only as the GM records it (T-2).
    fn rest_leaves_health(name: &str) -> Option<String> {
        Some(format!(
            "{name}'s health does not heal by resting in Against the Darkmaster; record what heals with `grimoire heal {name} N` (T-2)"
        ))
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
        VsdEvent::AssessmentPassed { character, roll } => match roll {
            Some(seq) => format!(
                "{character} passes an Assessment Roll (rolled at #{seq}): no longer assailed"
            ),
            None => format!("{character} passes an Assessment Roll: no longer assailed"),
        },
        VsdEvent::ChoiceMade(made) => choice_made(made),
        VsdEvent::SaveRolled(save) => save_rolled(save),
        VsdEvent::AttackRolled(attack) => attack_rolled(attack),
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
        "{} learns {} ({} lore, Weave {}, {}{})",
        l.character,
        l.spell.name,
        l.spell.lore,
        l.spell.weave,
        l.spell.kind.word(),
        if l.spell.instantaneous {
            ", instantaneous"
        } else {
            ""
        }
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
    parts.push(if c.fumbled {
        "a fumble, since the attack roll's first die was 01–10: a failure".to_string()
    } else {
        outcome_words(c.outcome).to_string()
    });
    if c.out_of_turn {
        parts.push("cast out of turn, in response to an event".into());
    }
    if let Some(d) = c.save_difficulty {
        parts.push(format!("save difficulty {d}"));
    }
    if c.auto_resisted {
        parts.push("targets resist automatically".into());
    }
    parts.push(format!("{} MP spent", c.mp_spent));
    if let Some(o) = &c.overcast {
        // Only a sacrifice costs soul damage; a ritual's helpers pay another way.
        let soul = match o.soul_damage {
            0 => String::new(),
            n => format!(", soul damage {n}"),
        };
        parts.push(format!(
            "overcast by {} ({}){soul}",
            o.weaves_over, o.method
        ));
    }
    if let Some(f) = &c.failure {
        let gm = match f.gm_modifier {
            0 => String::new(),
            n => format!(" {n:+} (GM)"),
        };
        parts.push(format!(
            "failure roll {} {:+}{gm} = {}",
            f.roll, f.modifier, f.total
        ));
    }
    if let Some(r) = &c.resonance {
        parts.push(r.words());
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
    if let Some(s) = &c.struck {
        let paid = if s.mp_spent == 0 && !c.mp_lost.is_empty() {
            "paid by the MPs lost".to_string()
        } else {
            format!("{} MP spent", s.mp_spent)
        };
        line.push_str(&format!(
            "; {} strikes {} instead, {paid}",
            s.spell, s.target
        ));
        match s.save_difficulty {
            Some(difficulty) => line.push_str(&format!("; save difficulty {difficulty}")),
            None if c.in_force.is_some() => line.push_str(", in force"),
            None => {}
        }
        if s.attack_due {
            line.push_str(&format!(
                "; its attack roll is still to roll (`grimoire spell fire {}`)",
                c.character
            ));
        }
    }
    if let Some(r) = &c.resonance {
        line.push_str(&format!("; {}", r.words()));
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

pub fn attack_rolled(a: &AttackRolled) -> String {
    let who = format!(
        "{}'s {} (failed at #{}) attacks {}",
        a.caster, a.spell, a.cast_seq, a.target
    );
    if a.fumbled {
        return format!(
            "{who}: roll {}, a fumble, since the attack roll's first die was 01–10: it misses",
            a.roll
        );
    }
    // Each modifier by name, as the GM reads them off the table.
    let modifiers: String = (a.modifiers.iter())
        .map(|m| format!(", {} {:+}", m.what, m.value))
        .collect();
    format!(
        "{who}: roll {} + lore {}{modifiers} = {}; attack roll, for the GM's attack table",
        a.roll, a.lore_bonus, a.total
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
                + &match d.attack_due {
                    true => format!(
                        "; its attack roll is still to roll (`grimoire spell fire {}`)",
                        d.caster
                    ),
                    false => String::new(),
                }
        )
    } else {
        let why = match d.replaced_by {
            Some(seq) => format!("the spell of #{seq} is held in its place"),
            None => "concentration was not held".to_string(),
        };
        format!(
            "{}'s held {} (from #{}) fizzles: {why}; no MP spent",
            d.caster, d.spell, d.cast_seq
        )
    }
}

/// The lines of a caster's sheet that wait on the table: a failed spell held to fire (VSD-9) and
/// each choice still to make (VSD-8).
fn waiting_of(c: &Someone<'_, Vsd>, vsd: &VsdState, state: &dyn View<Vsd>) -> Vec<String> {
    let mut waiting = Vec::new();
    if let Some(d) = &vsd.delayed {
        let round = state.clock().seconds() / crate::time::ROUND_SECONDS;
        waiting.push(match vsd.hold_broken(round) {
            true => format!(
                "  {} (failed at #{}) fizzles {}: {}'s concentration on it was broken",
                d.spell,
                d.cast_seq,
                state.end_of_round_words(d.fires_at_round),
                c.name
            ),
            false => format!(
                "  {} (failed at #{}) fires {} if {} concentrates on it until then",
                d.spell,
                d.cast_seq,
                state.end_of_round_words(d.fires_at_round),
                c.name
            ),
        });
    }
    // A caster consumed takes no further action: what they owed is not waited on.
    for due in vsd.attacks_due.iter().filter(|_| !vsd.consumed) {
        waiting.push(format!(
            "  {} (failed at #{}) fired at {}: its attack roll is still to roll — `grimoire spell fire {}`",
            due.spell, due.cast_seq, due.target, c.name
        ));
    }
    for p in &vsd.pending {
        let options: Vec<&str> = p
            .options
            .iter()
            .map(|o| crate::words::Words::word(*o))
            .collect();
        let naming = if p
            .options
            .contains(&crate::systems::vsd::event::Choice::OtherTarget)
        {
            " (other-target with --target WHO)"
        } else {
            ""
        };
        waiting.push(format!(
            "  PENDING {} (from #{}): the {} picks {} of {} — `grimoire choose {} OPTION`{naming}",
            p.about,
            p.cast_seq,
            p.by,
            p.pick,
            options.join(", "),
            c.name
        ));
    }
    waiting
}

/// The conditions in force on a character, each with when it ends (`None`: until cleared). A
/// condition given again while in force is one condition, lasting to the later end.
fn conditions_in_force(
    vsd: &VsdState,
    state: &dyn View<Vsd>,
) -> Vec<(
    crate::systems::vsd::event::Condition,
    Option<crate::time::GameTime>,
)> {
    let mut in_force: Vec<(
        crate::systems::vsd::event::Condition,
        Option<crate::time::GameTime>,
    )> = Vec::new();
    for c in vsd
        .conditions
        .iter()
        .filter(|c| c.until.is_none_or(|u| u > state.clock()))
    {
        match in_force.iter_mut().find(|(kind, _)| *kind == c.condition) {
            Some((_, until)) => *until = until.zip(c.until).map(|(a, b)| a.max(b)),
            None => in_force.push((c.condition, c.until)),
        }
    }
    in_force
}

/// "stunned until Day 1, 00:00 (2 more rounds)", or "weary until cleared".
fn condition_words(
    condition: crate::systems::vsd::event::Condition,
    until: Option<crate::time::GameTime>,
    state: &dyn View<Vsd>,
) -> String {
    match until {
        Some(until) => format!("{} until {}", condition.name(), state.until_words(until)),
        None => format!("{} until cleared", condition.name()),
    }
}
