//! What the log's events look like to people: one line each, for `log` and for the command that
//! recorded them. Rendering lives here, apart from the events (what is stored) and the rules (what
//! they mean), and each match names every kind: a new event kind does not compile until it has its
//! line.

use crate::state::{CampaignState, Character};
use crate::systems::contract::event::{Activity, Downtime};
use crate::systems::contract::render::SystemWords;
use crate::systems::registry::{Registered, SystemId, on_system};

use crate::event::Event;
use crate::sheet::Sheet;
use crate::time::GameDuration;

/// A sheet as entered, in words.
fn sheet_words(sheet: &Sheet) -> String {
    on_system!(sheet, Sheet, |S, sheet| S::sheet_words(sheet))
}

/// What changed between two sheets as entered, in the system's words.
fn sheet_changes(was: &Sheet, now: &Sheet) -> String {
    on_system!(now, Sheet, |S, now| match S::sheet(was) {
        Some(was) => S::sheet_changes(was, now).join(", "),
        // A sheet never changes game; were a log to say so, the new sheet says it all.
        None => format!("now {}", S::sheet_words(now)),
    })
}

/// A reason given with an event, as the log line ends with it (`: a troll's club`).
fn because(reason: &Option<String>) -> String {
    reason
        .as_deref()
        .map(|reason| format!(": {reason}"))
        .unwrap_or_default()
}

/// One line in plain words. Always one line: a text the log holds is shown with any line break,
/// control or reordering character in it as an escape (payloads of the first version were stored
/// before the text rules, and a raw line break in a name would print as a forged line of its own).
pub fn describe(event: &Event) -> String {
    crate::text::printable(&words(event)).into_owned()
}

/// The commitment to an epoch's second seed, for its sealed dice, as its first event says it.
fn sealed_commitment_words(event: &Event) -> String {
    match event.sealed_commitment() {
        Some(commitment) => format!(", sealed dice seed commitment {commitment}"),
        None => String::new(),
    }
}

fn words(event: &Event) -> String {
    match event {
        Event::CampaignCreated {
            name,
            seed_commitment,
            ..
        } => format!(
            "campaign \"{name}\" created; dice epoch 1 seed commitment {seed_commitment}{}",
            sealed_commitment_words(event)
        ),
        Event::CharacterAdded { name, sheet } => format!("{name} joins ({})", sheet_words(sheet)),
        Event::SheetChanged {
            character,
            sheet,
            reason,
            was,
        } => match was {
            Some(was) => format!(
                "{character}'s sheet changes: {}: {reason}",
                sheet_changes(was, sheet)
            ),
            None => format!(
                "{character}'s sheet is now {}: {reason}",
                sheet_words(sheet)
            ),
        },
        Event::SheetCorrected {
            character,
            sheet,
            reason,
            dies,
            consumed,
            was,
        } => {
            let outcome = match (dies, consumed) {
                (true, _) => ", and dies: a maximum reached 0",
                (_, true) => ", and is consumed: Body at 0 or below",
                _ => "",
            };
            match was {
                Some(was) => format!(
                    "{character}'s sheet is corrected: {}: {reason}{outcome}",
                    sheet_changes(was, sheet)
                ),
                None => format!(
                    "{character}'s sheet is corrected to {}: {reason}{outcome}",
                    sheet_words(sheet)
                ),
            }
        }
        Event::DamageTaken {
            character,
            amount,
            reason,
        } => format!("{character} takes {amount} damage{}", because(reason)),
        Event::Healed {
            character,
            amount,
            reason,
        } => format!("{character} heals {amount}{}", because(reason)),
        Event::ClockAdvanced { by } => format!("time passes: {by}"),
        Event::FightStarted { number, name } => {
            format!(
                "{} begins: round 1",
                crate::state::Fight::title(*number, name.as_deref())
            )
        }
        Event::RoundBegan { fight, round } => format!("round {round} of {fight} begins"),
        Event::FightEnded { fight, rounds } => format!(
            "{fight} ends after {}",
            crate::words::count(u64::from(*rounds), "round", "rounds")
        ),
        Event::SessionStarted { number, entropy } if entropy.is_empty() => {
            format!("session {number} starts")
        }
        Event::SessionStarted { number, entropy } => {
            format!("session {number} starts; players' entropy \"{entropy}\"")
        }
        Event::SessionEnded { number } => format!("session {number} ends"),
        Event::DiceRolled {
            expression,
            purpose,
            dice,
            total,
            character,
        } => {
            let what = purpose
                .as_deref()
                .map(|p| format!(" for {p}"))
                .unwrap_or_default();
            let who = character
                .as_deref()
                .map(|c| format!("{c} "))
                .unwrap_or_default();
            match total {
                Some(total) => {
                    let faces: Vec<String> = dice
                        .iter()
                        .filter_map(|d| d.value)
                        .map(|v| v.to_string())
                        .collect();
                    format!(
                        "{who}rolled {expression}{what}: {total} (dice {})",
                        faces.join(", ")
                    )
                }
                None => format!(
                    "{who}rolled {expression}{what}, sealed ({} {}, {})",
                    dice.len(),
                    if dice.len() == 1 { "entry" } else { "entries" },
                    crate::dice::sealed::chosen_by(dice)
                ),
            }
        }
        Event::SealedRevealed { seq, dice } => {
            let faces: Vec<String> = dice
                .iter()
                .map(|d| {
                    d.faces()
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join("+")
                })
                .collect();
            format!("sealed dice of #{seq} revealed: {}", faces.join(", "))
        }
        Event::Retracted {
            seq,
            reason,
            restores: Some(restored),
            ..
        } => format!("#{seq} retracted, so #{restored} is restored: {reason}"),
        Event::Retracted { seq, reason, .. } => format!("#{seq} retracted: {reason}"),
        Event::Amended {
            seq,
            event,
            changed,
            outcome_changed,
        } => {
            let outcome = match outcome_changed {
                true => "the outcome changes",
                false => "the outcome stands",
            };
            let dice = match event.dice().is_empty() {
                true => "",
                false => " with its own dice",
            };
            format!(
                "#{seq} amended{dice} ({}; {outcome}): {}",
                changed.join(", "),
                describe(event)
            )
        }
        Event::SeedWithheld { epoch, until } => {
            let seqs: Vec<String> = until.iter().map(|s| format!("#{s}")).collect();
            format!(
                "dice epoch {epoch} seed withheld until the sealed dice of {} are revealed",
                seqs.join(", ")
            )
        }
        Event::SeedRevealed { epoch, seed } => {
            format!("dice epoch {epoch} seed revealed: {seed}")
        }
        Event::SealedSeedRevealed { epoch, seed } => {
            format!("dice epoch {epoch} seed for sealed dice revealed: {seed}")
        }
        Event::DeviceLinked {
            device,
            player,
            characters,
        } => format!(
            "{player}'s device linked (device {device}), rolling for {}",
            characters.join(", ")
        ),
        Event::DeviceUnlinked { device } => format!("device {device}'s link revoked"),
        Event::RollRequested {
            request,
            device,
            asked,
            witnessed: false,
            ..
        } => format!(
            "request {request}: {} put to device {device}",
            asked.words()
        ),
        Event::RollRequested {
            request,
            device,
            asked,
            witnessed: true,
            ..
        } => format!(
            "request {request}: the GM's {}, witnessed by device {device}",
            asked.words()
        ),
        Event::RollAnswered {
            request,
            refused: None,
            ..
        } => format!("request {request} answered"),
        Event::RollAnswered {
            request,
            refused: Some(why),
            ..
        } => format!("request {request} answered, and the rules refused its command then: {why}"),
        Event::RollWithdrawn { request } => format!("request {request} withdrawn"),
        Event::ChoiceAnswered { device, asked } => format!(
            "{}'s choice, made by their player on device {device}",
            asked.acting().unwrap_or("someone")
        ),
        Event::EpochStarted {
            epoch,
            seed_commitment,
            ..
        } => format!(
            "dice epoch {epoch} starts; seed commitment {seed_commitment}{}",
            sealed_commitment_words(event)
        ),

        Event::Rested(rest) => {
            let mut each = Vec::new();
            for &system in SystemId::ALL {
                on_system!(system, SystemId, |S| each
                    .extend(S::rest_shares(rest).iter().map(S::rest_words)));
            }
            let rest = match rest.by.seconds() {
                // A night is eight hours (T-2).
                28_800 => "a night's rest".to_string(),
                seconds => format!("{} of rest", GameDuration(seconds)),
            };
            format!("{rest}: {}", each.join(", "))
        }
        Event::DowntimeTaken(downtime) => downtime_words(downtime),

        Event::System(event) => on_system!(event, AnyEvent, |S, event| S::describe(event)),
    }
}

/// A downtime span in words: each character's weeks and what they gave back.
fn downtime_words(d: &Downtime) -> String {
    let each: Vec<String> = d
        .characters
        .iter()
        .map(|c| {
            let mut parts = vec![activities(&c.activities)];
            if c.healed > 0 {
                parts.push(format!("heals {}", c.healed));
            }
            if c.restored_exertion {
                parts.push("exertion recovered".into());
            }
            format!("{}: {}", c.character, parts.join(", "))
        })
        .collect();
    let weeks = if d.weeks == 1 { "week" } else { "weeks" };
    format!("{} {weeks} of downtime. {}", d.weeks, each.join("; "))
}

/// A character's weeks in order, runs of the same activity counted: "scribing Ward (SL 1), rest ×3".
pub fn activities(weeks: &[Activity]) -> String {
    let mut runs: Vec<(String, u32)> = Vec::new();
    for week in weeks {
        let words = match week {
            Activity::Rest => "rest".to_string(),
            Activity::Other { what, note: None } => what.clone(),
            Activity::Other {
                what,
                note: Some(note),
            } => format!("{what} ({note})"),
            Activity::Scribe { ritual, level } => format!("scribing {ritual} (SL {level})"),
        };
        match runs.last_mut() {
            Some((last, count)) if *last == words => *count += 1,
            _ => runs.push((words, 1)),
        }
    }
    let runs: Vec<String> = runs
        .into_iter()
        .map(|(words, count)| match count {
            1 => words,
            _ => format!("{words} ×{count}"),
        })
        .collect();
    runs.join(", ")
}

/// One character's downtime span, once it is over (`events`: those its write recorded, `state`:
/// the campaign after them): their weeks, where health, exertion, silver and MPs stand, and the
/// scrolls they wrote.
pub fn downtime_summary(
    spent: &crate::systems::contract::event::DowntimeOf,
    events: &[crate::event::Recorded],
    state: &CampaignState,
) -> String {
    let weeks = spent.activities.len();
    let mut lines = vec![format!(
        "{}, {weeks} week{}: {}",
        spent.character,
        if weeks == 1 { "" } else { "s" },
        activities(&spent.activities)
    )];
    let Some(who) = state.character(&spent.character) else {
        return lines.join("\n");
    };
    let mut now = vec![format!(
        "{}{}",
        health_text(who),
        if spent.healed > 0 {
            format!(" (+{})", spent.healed)
        } else {
            String::new()
        }
    )];
    now.extend(on_system!(&who.system, AnyState, |S, mine| {
        S::after_downtime(mine, spent, &crate::event::own_events::<S>(events))
    }));
    lines.push(format!("  {}", now.join("; ")));
    lines.extend(health_left_to_the_gm(who).map(|note| format!("  {note}")));
    lines.join("\n")
}

/// What a rest or downtime says of a hurt character whose system's rest does not heal them (T-2).
pub fn health_left_to_the_gm(who: &Character) -> Option<String> {
    let hurt = who.health.is_some_and(|h| h.current < h.max);
    if !hurt {
        return None;
    }
    on_system!(&who.system, AnyState, |S, _mine| S::rest_leaves_health(
        &who.name
    ))
}

/// A character's computed sheet as `character show` prints it under their name: their system's
/// lines, then what they hold of other systems' things, each line indented by two spaces.
pub fn sheet_lines(c: &Character, state: &CampaignState) -> Vec<String> {
    let mut lines = on_system!(&c.system, AnyState, |S, mine| {
        S::sheet_lines(&c.as_seen_by::<S>(), mine, state)
    });
    let own = c.sheet.system();
    for &system in SystemId::ALL.iter().filter(|&&s| s != own) {
        lines.extend(on_system!(system, SystemId, |S| S::held_lines(
            &c.name, state
        )));
    }
    lines
}

/// What a character knows and what each costs and does, as their system says (#47).
pub fn known(c: &Character, state: &CampaignState) -> Vec<(String, String)> {
    on_system!(&c.system, AnyState, |S, mine| {
        S::known(&c.as_seen_by::<S>(), mine, state)
    })
}

/// What is in force on a character and what it does, as their system says (#47).
pub fn in_force(c: &Character, state: &CampaignState) -> Vec<(String, &'static str)> {
    on_system!(&c.system, AnyState, |S, mine| {
        S::in_force(&c.as_seen_by::<S>(), mine, state)
    })
}

/// What waits on someone at the table in every rule system (a choice to make, a spell about to
/// fire, a save still open), each line naming who.
pub fn waiting(state: &CampaignState) -> Vec<String> {
    SystemId::ALL
        .iter()
        .flat_map(|&system| on_system!(system, SystemId, |S| S::waiting(state)))
        .collect()
}

/// A character's health as a sheet line says it, with their status ("health 5/8 (down)").
pub fn health_text(c: &Character) -> String {
    crate::systems::contract::port::health_words(c.health, c.status())
}

pub use crate::words::{capitalized, count, list_or_none};

/// Rows under a header, in columns as wide as their widest cell; given a `width` (a terminal's),
/// the widest columns wrap so that the table fits it, and given none (a pipe, a file, a page) every
/// line stays whole. No borders: a line under the header only.
pub fn table(header: &[&str], rows: Vec<Vec<String>>, width: Option<u16>) -> String {
    use comfy_table::{ContentArrangement, LineStyle, Table, TableStyle};
    const UNDERLINED_HEADER: TableStyle =
        TableStyle::new().header_separator(LineStyle::none().fill('-').junction('-'));
    let mut table = Table::new();
    table
        .load_style(UNDERLINED_HEADER)
        .set_header(header.to_vec())
        .add_rows(rows);
    match width {
        Some(width) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(width);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    table.trim_fmt()
}
