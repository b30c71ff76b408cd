//! A Dungeon Game commands: `ritual`, `exert`, `rest`, `downtime`, `scroll`, `tables`.

use super::output::{Report, appended};
use super::{Context, Globals, record};
use crate::Error;
use crate::event::adg::EffectKind;
use crate::rules::Command;
use crate::rules::adg::AdgError;
use crate::rules::adg::rituals::CastOrder;
use crate::rules::adg::{
    AdgCommand, AdgTables, Attribute, CastTime, ExactChoice, ImportedSpell, Pay, Reverse,
    RitualKind,
};
use crate::time::GameDuration;
use clap::{Args, Subcommand};
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum RitualCommand {
    /// Discover a new ritual: draws two d20s, one on each word list, and records the ritual found
    /// (not yet learned).
    Roll {
        /// The character's name (any case).
        name: String,
    },
    Learn(LearnArgs),
    Cast(CastArgs),
}

/// Try to learn a ritual (ADG-R3): pay the cost permanently, then roll a d20 at or under Cunning.
/// Failure loses the ritual forever; a maximum brought to 0 kills the character.
///
/// Dice, in order: the 1d3 cost (none for a spell with --spell-level 1 or more, which costs its level),
/// then the d20 learning check.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The character's name (any case).
    pub name: String,
    /// The ritual, e.g. "Concealing Darkness" (as discovered), or a spell's name.
    pub ritual: String,
    /// The ritual's type; for a spell from another game it is worked out from --cast-time and --duration.
    #[arg(long = "type", value_enum)]
    pub kind: Option<RitualKind>,
    /// What pays the cost: maximum health or one attribute's maximum.
    #[arg(long, value_enum)]
    pub pay: Pay,
    /// If the check fails, exert exactly the Cunning needed to succeed (when Cunning stays at 1 or more).
    #[arg(long)]
    pub exert: bool,
    /// A spell from another game: its level (0 if it has none).
    #[arg(long, requires_all = ["cast_time", "duration"])]
    pub spell_level: Option<u32>,
    /// The spell's casting time: action, 1r (one round), 3r (rounds), or 10m, 1h, … for longer.
    #[arg(long, value_parser = parse_cast_time, requires = "spell_level")]
    pub cast_time: Option<CastTime>,
    /// The spell's duration: instant, or 5m, 1h, 1d, …
    #[arg(long, value_parser = parse_spell_duration, requires = "spell_level")]
    pub duration: Option<SpellDuration>,
}

#[derive(Debug, Clone, Copy)]
pub struct SpellDuration(Option<GameDuration>);

fn parse_cast_time(text: &str) -> Result<CastTime, String> {
    let text = text.trim().to_lowercase();
    if matches!(text.as_str(), "action" | "actions") {
        return Ok(CastTime::Actions);
    }
    if matches!(text.as_str(), "round" | "1r") {
        return Ok(CastTime::OneRound);
    }
    let duration = GameDuration::parse(&text).map_err(|e| e.to_string())?;
    Ok(if duration.seconds() < crate::time::ROUND_SECONDS {
        CastTime::Actions
    } else if duration.seconds() == crate::time::ROUND_SECONDS {
        CastTime::OneRound
    } else if text.ends_with('r') {
        CastTime::Rounds
    } else {
        CastTime::Longer
    })
}

fn parse_spell_duration(text: &str) -> Result<SpellDuration, String> {
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

/// Cast a known ritual (ADG-R4 to ADG-R9): a d20 at or under current Cunning. An exact roll doubles
/// duration or effect; a failure brings a mishap (2d6 + the difference). Beyond the safe number per
/// day, the k-th extra ritual first costs k Cunning, and a mishap on it locks the caster out until a
/// night's rest.
///
/// Dice, in order: 1d3 Cunning if both words are reversed, the d20 casting check, then on success
/// Level d6 (with --effect), or on failure the mishap's 2d6 followed by the dice its entry needs.
#[derive(Debug, Args)]
pub struct CastArgs {
    /// The character's name (any case).
    pub name: String,
    /// The ritual, as the character knows it (any case).
    pub ritual: String,
    /// Reverse one word (free) or both (costs 1d3 Cunning first).
    #[arg(long, value_enum)]
    pub reverse: Option<Reverse>,
    /// Damage taken earlier this combat round: the roll must then also be above it.
    #[arg(long, value_name = "N")]
    pub damage_taken: Option<u32>,
    /// The caster moved this round (casting is then refused).
    #[arg(long)]
    pub moved: bool,
    /// The ritual damages or heals: roll Level d6 against --target.
    #[arg(long, value_enum, requires = "target")]
    pub effect: Option<EffectKind>,
    /// Who the damage or healing goes to (a character's name updates their health).
    #[arg(long)]
    pub target: Option<String>,
    /// On an exact roll, double the duration (default) or the effect.
    #[arg(long, value_enum)]
    pub exact: Option<ExactChoice>,
    /// If the check fails, exert exactly the Cunning needed to succeed.
    #[arg(long)]
    pub exert: bool,
}

/// Exert an attribute (ADG-C3): its current value drops until recovered. Refused if it would go
/// below 1. Rolls no dice.
#[derive(Debug, Args)]
pub struct ExertArgs {
    /// The character's name (any case).
    pub name: String,
    /// The attribute exerted.
    #[arg(value_enum)]
    pub attribute: Attribute,
    /// How many points, 1 to 100.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=100))]
    pub amount: u32,
    /// Why, in a few words; kept in the log.
    #[arg(long)]
    pub reason: String,
}

/// Downtime weeks not spent scribing: the clock moves 7 days a week, each of the seven nights heals
/// by the character's recovery die (capped at maximum health), exerted points recover (both are
/// campaign settings), and the daily ritual count and any lockout end.
///
/// Dice: one recovery die per night, seven a week, in order.
#[derive(Debug, Args)]
pub struct DowntimeArgs {
    /// The character's name (any case).
    pub name: String,
    /// How many weeks, 1 to 52.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=52))]
    pub weeks: u32,
}

#[derive(Debug, Subcommand)]
pub enum ScrollCommand {
    Write(WriteArgs),
    Read(ReadArgs),
    Learn(ScrollLearnArgs),
    /// Hand a scroll to another character. Rolls no dice.
    Give {
        /// The scroll's id (S12 or 12).
        #[arg(value_parser = parse_scroll)]
        scroll: u64,
        /// The character who receives it (any case).
        to: String,
    },
    /// List scrolls, or those one character holds. Records nothing.
    List {
        /// The character's name (any case).
        name: Option<String>,
    },
    /// Roll what reading a Ceremony scroll left pending: its mishap if the GM's sealed check failed,
    /// or its damage or healing if the check passed.
    ///
    /// Those dice depend on the sealed check, so the reading records the check first and leaves them
    /// on the reader, who does nothing else until they are rolled. Dice, in order: the mishap's 2d6
    /// and its entry's dice, or SL d6 of damage or healing.
    Resolve {
        /// The reader's name (any case).
        name: String,
    },
}

/// Spend one downtime week writing a scroll of a known ritual (ADG-S1 to ADG-S4): the clock moves 7
/// days, silver is paid from the cost table (by SL and the ritual's type), and exertion does not
/// recover that week. The scroll's id is printed (S and the event number).
///
/// The week's seven nights heal by the writer's recovery die and end the daily ritual count and any
/// lockout; exerted points do not recover while scribing.
///
/// Dice: for a Ceremony only, the GM's sealed d20 check (revealed when the scroll is first used),
/// then one recovery die per night, seven in all.
#[derive(Debug, Args)]
pub struct WriteArgs {
    /// The character's name (any case).
    pub name: String,
    /// The ritual, as the character knows it (any case).
    pub ritual: String,
    /// Scroll Level, 1 up to the writer's level.
    #[arg(long)]
    pub level: u32,
    /// The exact effect, fixed now.
    #[arg(long)]
    pub effect: String,
    /// If the scroll damages or heals: it rolls SL d6 when read.
    #[arg(long, value_enum)]
    pub roll: Option<EffectKind>,
    /// Ceremony only: Cunning exerted before the GM's check, spent whatever happens.
    #[arg(long, default_value_t = 0)]
    pub pre_exert: u32,
    /// The effect lasts once read: 10 minutes × SL on the reader's sheet. A Sigil's or a
    /// Ceremony's effect lasts anyway.
    #[arg(long)]
    pub ongoing: bool,
}

/// Read a scroll (anyone can; it uses none of the daily rituals). In combat it takes the whole round.
///
/// Dice, in order: with --took-damage an Agility save d20 and, if failed, the damaged-scrolls d20 and
/// its entry's dice; for a damage or healing scroll without a sealed check, SL d6; then, unless
/// damaged, the reuse d20. A Ceremony scroll's sealed check is opened and recorded, and what depends
/// on it (a mishap, or the damage or healing) waits for `scroll resolve`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The character's name (any case).
    pub name: String,
    /// The scroll's id (S12 or 12).
    #[arg(value_parser = parse_scroll)]
    pub scroll: u64,
    /// Read in combat: it takes the whole round and the reader acts last.
    #[arg(long)]
    pub in_combat: bool,
    /// The reader took damage this round (implies --in-combat).
    #[arg(long)]
    pub took_damage: bool,
    /// Who the damage or healing goes to (default: the reader, for healing).
    #[arg(long)]
    pub target: Option<String>,
}

/// Learn the ritual on a scroll one holds (ADG-S8): as `ritual learn`, with an extra d20 after the cost
/// — strictly between SL and Cunning continues, otherwise the scroll is cast by accident first.
///
/// Dice, in order: the 1d3 cost, the scroll d20, any accidental reading's dice, the d20 learning check.
#[derive(Debug, Args)]
pub struct ScrollLearnArgs {
    /// The character's name (any case).
    pub name: String,
    /// The scroll's id (S12 or 12).
    #[arg(value_parser = parse_scroll)]
    pub scroll: u64,
    /// What pays the cost: maximum health or one attribute's maximum.
    #[arg(long, value_enum)]
    pub pay: Pay,
    /// If the learning check fails, exert exactly the Cunning needed to succeed (when Cunning stays at 1 or more).
    #[arg(long)]
    pub exert: bool,
}

fn parse_scroll(text: &str) -> Result<u64, String> {
    let digits = text.trim().trim_start_matches(['S', 's']);
    digits
        .parse()
        .map_err(|_| format!("'{text}' is not a scroll id; write it as S12 or 12"))
}

#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// Show the A Dungeon Game tables in force. Records nothing.
    Show,
    /// Load tables from a JSON file (format in README.md); recorded whole in the log, so later edits
    /// to the file change nothing. Rolls no dice.
    Load {
        /// The JSON file to load.
        file: PathBuf,
    },
}

fn adg(g: &Globals, ctx: &mut Context, command: AdgCommand) -> Result<Report, Error> {
    Ok(appended(
        &record(g, ctx, Command::Adg(Box::new(command)))?.events,
    ))
}

pub fn ritual(g: &Globals, ctx: &mut Context, command: &RitualCommand) -> Result<Report, Error> {
    match command {
        RitualCommand::Roll { name } => adg(
            g,
            ctx,
            AdgCommand::RollRitual {
                character: name.clone(),
            },
        ),
        RitualCommand::Learn(a) => {
            let spell = a.spell_level.map(|level| ImportedSpell {
                level,
                cast_time: a.cast_time.unwrap_or(CastTime::Longer),
                duration: a.duration.and_then(|d| d.0),
            });
            adg(
                g,
                ctx,
                AdgCommand::Learn(crate::rules::adg::Learning {
                    character: a.name.clone(),
                    ritual: a.ritual.clone(),
                    kind: a.kind,
                    spell,
                    pay: a.pay,
                    exert: a.exert,
                }),
            )
        }
        RitualCommand::Cast(a) => {
            let order = CastOrder {
                reverse: a.reverse,
                damage_taken: a.damage_taken,
                moved: a.moved,
                effect: a.effect.zip(a.target.clone()),
                exact: a.exact,
                exert: a.exert,
            };
            adg(
                g,
                ctx,
                AdgCommand::Cast {
                    character: a.name.clone(),
                    ritual: a.ritual.clone(),
                    order,
                },
            )
        }
    }
}

pub fn exert(g: &Globals, ctx: &mut Context, a: &ExertArgs) -> Result<Report, Error> {
    adg(
        g,
        ctx,
        AdgCommand::Exert {
            character: a.name.clone(),
            attribute: a.attribute,
            amount: a.amount,
            reason: a.reason.clone(),
        },
    )
}

pub fn downtime(g: &Globals, ctx: &mut Context, a: &DowntimeArgs) -> Result<Report, Error> {
    adg(
        g,
        ctx,
        AdgCommand::Downtime {
            character: a.name.clone(),
            weeks: a.weeks,
        },
    )
}

pub fn scroll(g: &Globals, ctx: &mut Context, command: &ScrollCommand) -> Result<Report, Error> {
    match command {
        ScrollCommand::Write(a) => {
            let command = AdgCommand::WriteScroll(crate::rules::adg::Scribing {
                character: a.name.clone(),
                ritual: a.ritual.clone(),
                level: a.level,
                effect: a.effect.clone(),
                effect_roll: a.roll,
                pre_exert: a.pre_exert,
                ongoing: a.ongoing,
            });
            let events = record(g, ctx, Command::Adg(Box::new(command)))?.events;
            let mut report = appended(&events);
            if let Some(first) = events.first() {
                report
                    .text
                    .push_str(&format!("\nThe scroll is S{}.", first.seq));
                report.json["scroll"] = json!(first.seq);
            }
            Ok(report)
        }
        // A Ceremony scroll's sealed check is looked up inside the write (Campaign::execute).
        ScrollCommand::Read(a) => adg(
            g,
            ctx,
            AdgCommand::ReadScroll(crate::rules::adg::ScrollReading {
                character: a.name.clone(),
                scroll: a.scroll,
                in_combat: a.in_combat,
                took_damage: a.took_damage,
                target: a.target.clone(),
                sealed: Vec::new(),
            }),
        ),
        ScrollCommand::Learn(a) => adg(
            g,
            ctx,
            AdgCommand::LearnScroll {
                character: a.name.clone(),
                scroll: a.scroll,
                pay: a.pay,
                exert: a.exert,
                sealed: Vec::new(),
            },
        ),
        ScrollCommand::Give { scroll, to } => adg(
            g,
            ctx,
            AdgCommand::GiveScroll {
                scroll: *scroll,
                to: to.clone(),
            },
        ),
        ScrollCommand::Resolve { name } => adg(
            g,
            ctx,
            AdgCommand::ResolvePending {
                character: name.clone(),
            },
        ),
        ScrollCommand::List { name } => {
            let state = g.open()?.replay(None)?;
            if let Some(n) = name {
                crate::rules::campaign::find(&state, n)?;
            }
            let scrolls: Vec<_> = state
                .scrolls
                .values()
                .filter(|s| {
                    name.as_deref()
                        .is_none_or(|n| crate::rules::campaign::same_character(&s.holder, n))
                })
                .collect();
            let mut lines: Vec<String> = scrolls
                .iter()
                .map(|s| {
                    format!(
                        "S{:<5} {:<22} SL {:<2} read {}x  held by {:<12} \"{}\"",
                        s.id, s.ritual, s.level, s.reads, s.holder, s.effect
                    )
                })
                .collect();
            if lines.is_empty() {
                lines.push("No usable scrolls.".into());
            }
            // Spent scrolls belong to no one any more; they are listed with the whole campaign's.
            let spent: Vec<serde_json::Value> = if name.is_none() {
                state
                    .spent_scrolls
                    .all()
                    .into_iter()
                    .map(|(id, fate)| json!({ "id": id, "state": fate }))
                    .collect()
            } else {
                Vec::new()
            };
            if !spent.is_empty() {
                let shown: Vec<String> = state
                    .spent_scrolls
                    .all()
                    .iter()
                    .map(|(id, fate)| format!("S{id} {fate:?}").to_lowercase())
                    .collect();
                lines.push(format!("Spent: {}", shown.join(", ")));
            }
            Ok(Report::new(
                lines.join("\n"),
                json!({ "scrolls": scrolls, "spent": spent }),
            ))
        }
    }
}

pub fn tables(g: &Globals, ctx: &mut Context, command: &TablesCommand) -> Result<Report, Error> {
    match command {
        TablesCommand::Load { file } => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| crate::store::io_error(file, "read", &e))?;
            let tables = AdgTables::parse(&text)
                .map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
            let source = file.display().to_string();
            adg(
                g,
                ctx,
                AdgCommand::LoadTables {
                    source,
                    tables: Box::new(tables),
                },
            )
        }
        TablesCommand::Show => {
            let state = g.open()?.replay(None)?;
            let tables = state
                .adg_tables
                .ok_or(crate::rules::RuleError::Adg(AdgError::NoAdgTables))?;
            let mut lines = vec![format!("{} (sha256 {})", tables.name, tables.sha256())];
            if tables.sample {
                lines.push(
                    "These are sample tables made for grimoire, not the official ones.".into(),
                );
            }
            for (i, list) in tables.word_lists.iter().enumerate() {
                let words: Vec<String> = list
                    .iter()
                    .enumerate()
                    .map(|(n, w)| {
                        format!(
                            "{}. {}{}",
                            n + 1,
                            w.word,
                            w.reverse
                                .as_ref()
                                .map(|r| format!("/{r}"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                lines.push(format!("Word list {}: {}", i + 1, words.join(", ")));
            }
            let entries = |name: &str, entries: &[crate::rules::adg::tables::TableEntry]| {
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
            Ok(Report::new(
                lines.join("\n"),
                json!({ "tables": tables, "sha256": tables.sha256() }),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adg_r10_cast_times_parse_into_their_classes() {
        assert_eq!(parse_cast_time("action").unwrap(), CastTime::Actions);
        assert_eq!(parse_cast_time("1r").unwrap(), CastTime::OneRound);
        assert_eq!(parse_cast_time("3r").unwrap(), CastTime::Rounds);
        assert_eq!(parse_cast_time("10m").unwrap(), CastTime::Longer);
        assert!(parse_cast_time("soon").is_err());
        assert!(parse_spell_duration("instant").unwrap().0.is_none());
    }
}
