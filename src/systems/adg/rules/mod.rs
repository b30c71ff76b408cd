//! A Dungeon Game: rituals, exertion, mishaps, daily limits and scrolls (docs/rules.md ADG-*).

mod checks;
mod commands;
mod downtime;
mod error;
pub mod rituals;
mod scrolls;
pub mod tables;

use crate::dice::{Dice, SealedSecret};
use crate::seq::Seq;
use crate::systems::adg::Adg;
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::event::RestResult;
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::adg::state::AdgState;
use crate::systems::contract::port::{Decided, Refusal, Refused, Someone, View};
use crate::systems::contract::rules::{Needs, RestLength, Who};
use crate::time::GameDuration;
use crate::words::words;

pub use crate::systems::adg::event::{Pay, RitualKind};
pub use crate::systems::adg::state::SCRIBING_WEEK;
pub use commands::{
    CastOrder, Casting, Exertion, Learning, MAX_SILVER, Scribing, ScrollGift, ScrollLearning,
    ScrollReading, SigilTrigger, SilverChange, SpellDuration,
};
pub use error::AdgError;

/// What A Dungeon Game's rules decide, or why they refuse.
pub(crate) type Verdict<T> = Result<T, Refusal<AdgError>>;
pub use tables::{AdgTables, Attribute, WordSlot};

/// Which words of a ritual to reverse (ADG-R5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reverse {
    First,
    Second,
    Both,
}

words!(Reverse {
    First => "first",
    Second => "second",
    Both => "both",
});

/// An exact success's bonus (ADG-R4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExactChoice {
    Duration,
    Effect,
}

words!(ExactChoice {
    Duration => "duration",
    Effect => "effect",
});

/// How long a spell from another game takes to cast (ADG-R10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastTime {
    /// Measured in actions (shorter than a round).
    Actions,
    /// One round.
    OneRound,
    /// Several rounds.
    Rounds,
    /// Minutes, hours or longer.
    Longer,
}

impl AdgCommand {
    /// The scroll whose sealed check this command needs, and where its sealed dice go: reading a
    /// scroll or learning from it (a Ceremony scroll's check is sealed until then).
    pub fn sealed_slot(&mut self) -> Option<(Seq, &mut Vec<SealedSecret>)> {
        match self {
            AdgCommand::ReadScroll(reading) => Some((reading.scroll, &mut reading.sealed)),
            AdgCommand::LearnScroll(learning) => Some((learning.scroll, &mut learning.sealed)),
            AdgCommand::LoadTables { .. }
            | AdgCommand::RollRitual(_)
            | AdgCommand::Learn(_)
            | AdgCommand::Cast(_)
            | AdgCommand::Trigger(_)
            | AdgCommand::Exert(_)
            | AdgCommand::WriteScroll(_)
            | AdgCommand::GiveScroll(_)
            | AdgCommand::ResolvePending(_)
            | AdgCommand::Silver(_) => None,
        }
    }

    /// Whether deciding it may draw dice (a command that never does refuses dice given for it).
    pub fn draws_dice(&self) -> bool {
        match self {
            AdgCommand::RollRitual(_)
            | AdgCommand::Learn(_)
            | AdgCommand::Cast(_)
            | AdgCommand::Trigger(_)
            | AdgCommand::WriteScroll(_)
            | AdgCommand::ReadScroll(_)
            | AdgCommand::LearnScroll(_)
            | AdgCommand::ResolvePending(_) => true,
            AdgCommand::LoadTables { .. }
            | AdgCommand::Exert(_)
            | AdgCommand::GiveScroll(_)
            | AdgCommand::Silver(_) => false,
        }
    }
}

/// A spell brought in from another game (ADG-R10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportedSpell {
    pub level: u32,
    pub cast_time: CastTime,
    /// `None` for an instantaneous spell.
    pub duration: Option<GameDuration>,
}

impl ImportedSpell {
    /// ADG-R10: Phrase if cast in a round or in actions and lasting under 10 minutes; else Sigil if
    /// cast in rounds (one or more) and lasting under an hour; else Ceremony. A spell cast in actions
    /// is not cast in rounds: lasting 10 minutes or more, it is a Ceremony.
    pub fn ritual_kind(&self) -> RitualKind {
        let lasts = self.duration.map_or(0, GameDuration::seconds);
        let quick = matches!(self.cast_time, CastTime::Actions | CastTime::OneRound);
        let in_rounds = matches!(self.cast_time, CastTime::OneRound | CastTime::Rounds);
        if quick && lasts < 600 {
            RitualKind::Phrase
        } else if in_rounds && lasts < 3600 {
            RitualKind::Sigil
        } else {
            RitualKind::Ceremony
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdgCommand {
    LoadTables {
        source: String,
        tables: Box<AdgTables>,
    },
    RollRitual(Who),
    Learn(Learning),
    Cast(Casting),
    Trigger(SigilTrigger),
    Exert(Exertion),
    WriteScroll(Scribing),
    ReadScroll(ScrollReading),
    LearnScroll(ScrollLearning),
    GiveScroll(ScrollGift),
    ResolvePending(Who),
    Silver(SilverChange),
}

impl crate::systems::contract::rules::SystemRules for Adg {
    type Command = AdgCommand;
    type Error = AdgError;
    type Week = Scribing;

    fn draws_dice(command: &AdgCommand) -> bool {
        command.draws_dice()
    }

    /// A roll put to a phone says who rolls and for what, and for a casting or a learning what
    /// the d20 must come under (ADG-R3, ADG-R4: at or under current Cunning, exactly it an exact
    /// roll).
    fn asked_words(command: &AdgCommand, state: &dyn View<Adg>) -> Option<String> {
        let name = |who: &str| {
            state
                .someone(who)
                .map_or(who.to_string(), |c| c.name.to_string())
        };
        let under = |who: &str| {
            (state
                .someone(who)
                .and_then(|c| c.mine.map(|a| a.current(Attribute::Cunning))))
            .map_or(String::new(), |cunning| {
                format!(" — d20 at or under {cunning}, their Cunning (exactly {cunning}: exact)")
            })
        };
        let words = match command {
            AdgCommand::Cast(c) => format!(
                "{}: cast {}{}",
                name(&c.character),
                c.ritual,
                under(&c.character)
            ),
            AdgCommand::Learn(l) => format!(
                "{}: learn {}{}",
                name(&l.character),
                l.ritual,
                under(&l.character)
            ),
            AdgCommand::Trigger(t) => format!("{}: set off {}", name(&t.character), t.ritual),
            AdgCommand::RollRitual(w) => format!(
                "{}: roll a new ritual's two words (two d20s)",
                name(&w.character)
            ),
            AdgCommand::ReadScroll(r) => {
                format!("{}: read scroll S{}", name(&r.character), r.scroll)
            }
            AdgCommand::LearnScroll(l) => format!(
                "{}: learn the ritual on scroll S{}",
                name(&l.character),
                l.scroll
            ),
            AdgCommand::ResolvePending(w) => format!(
                "{}: roll what the scroll read left pending",
                name(&w.character)
            ),
            AdgCommand::WriteScroll(_)
            | AdgCommand::LoadTables { .. }
            | AdgCommand::Exert(_)
            | AdgCommand::GiveScroll(_)
            | AdgCommand::Silver(_) => return None,
        };
        Some(words)
    }

    fn inputs(command: &mut AdgCommand) -> Vec<Needs<'_, AdgEvent>> {
        command
            .sealed_slot()
            .map(|(seq, into)| Needs::SealedDice { seq, into })
            .into_iter()
            .collect()
    }

    /// A Ceremony scroll's sealed check is opened by its reading, which needs it still sealed:
    /// revealed before, the scroll could never be read (ADG-S4).
    fn opens_its_own_seal(state: &dyn View<Adg>, seq: Seq) -> Result<(), AdgError> {
        match state.campaign().scrolls.get(&seq) {
            Some(scroll) if scroll.sealed_check => Err(AdgError::CheckOpensWithReading(seq)),
            _ => Ok(()),
        }
    }

    /// The names of the rituals a character starts with, as a learned ritual's are held.
    fn check_sheet_text(sheet: &AdgSheet) -> Result<(), crate::text::TextProblem> {
        use crate::text::{NAME_MAX, check_filled, check_name};
        sheet.knows.iter().try_for_each(|r| {
            check_name("ritual's name", &r.name)?;
            check_filled("ritual's name", &r.name, NAME_MAX)
        })
    }

    fn check_text(command: &AdgCommand) -> Result<(), crate::text::TextProblem> {
        use crate::text::{NAME_MAX, NOTE_MAX, check, check_filled, check_name};
        match command {
            AdgCommand::Learn(Learning { ritual, .. }) => {
                check_name("ritual's name", ritual)?;
                check_filled("ritual's name", ritual, NAME_MAX)
            }
            AdgCommand::LoadTables { source, .. } => check("tables file's name", source, NOTE_MAX),
            AdgCommand::Cast(Casting { order, .. }) => {
                if let Some(when) = &order.when {
                    check_filled("Sigil's trigger", when, NOTE_MAX)?;
                }
                order
                    .target
                    .as_deref()
                    .map_or(Ok(()), |t| check_filled("target", t, NAME_MAX))
            }
            AdgCommand::Exert(Exertion { reason, .. }) => check_filled("reason", reason, NOTE_MAX),
            AdgCommand::Silver(change) => check_filled("reason", &change.reason, NOTE_MAX),
            AdgCommand::WriteScroll(Scribing { effect, .. }) => {
                check_filled("scroll's effect", effect, NOTE_MAX)
            }
            AdgCommand::ReadScroll(ScrollReading { target, .. }) => target
                .as_deref()
                .map_or(Ok(()), |t| check_filled("target", t, NAME_MAX)),
            // These record no new text: their names must match what the campaign holds.
            AdgCommand::RollRitual(_)
            | AdgCommand::Trigger(_)
            | AdgCommand::LearnScroll(_)
            | AdgCommand::GiveScroll(_)
            | AdgCommand::ResolvePending(_) => Ok(()),
        }
    }

    fn plan_week(character: &str, activity: &str) -> Option<Result<Scribing, String>> {
        downtime::plan_week(character, activity)
    }

    fn check_week_text(scroll: &Scribing) -> Result<(), crate::text::TextProblem> {
        crate::text::check("scroll's effect", &scroll.effect, crate::text::NOTE_MAX)
    }

    fn downtime(
        state: &dyn View<Adg>,
        who: &Someone<'_, Adg>,
        adg: &AdgState,
        weeks: Vec<crate::systems::contract::rules::Planned<Scribing>>,
        record: &mut Vec<crate::dice::Die>,
        after: &mut Vec<AdgEvent>,
        dice: &mut Dice<'_>,
    ) -> Verdict<crate::systems::contract::event::DowntimeOf> {
        downtime::downtime_weeks(state, (*who, adg), weeks, record, after, dice)
    }

    /// The sample tables, the first time an ADG character joins a campaign without tables.
    fn before_join(state: &dyn View<Adg>, _sheet: &AdgSheet) -> Vec<AdgEvent> {
        if state.campaign().adg_tables.is_some() {
            return Vec::new();
        }
        let tables = AdgTables::sample();
        vec![AdgEvent::AdgTablesLoaded {
            source: "built-in sample tables".into(),
            sha256: tables.sha256(),
            tables,
        }]
    }

    fn decide(
        state: &dyn View<Adg>,
        command: AdgCommand,
        dice: &mut Dice<'_>,
    ) -> Verdict<Vec<Decided<AdgEvent>>> {
        decide(state, command, dice)
    }

    /// Only a full night (ADG-C5): it heals by the level's recovery die, when the campaign's
    /// tables say nights heal.
    fn rest(
        state: &dyn View<Adg>,
        who: &Someone<'_, Adg>,
        length: RestLength,
        dice: &mut Dice<'_>,
        record: &mut Vec<crate::dice::Die>,
    ) -> Verdict<Option<RestResult>> {
        let Some(adg) = who.mine else {
            return Ok(None);
        };
        if length != RestLength::Night {
            return Err(AdgError::RestsByNight(who.name.to_string()).into());
        }
        let tables = tables(state)?;
        let healed = match tables.recovery_die(adg.level) {
            Some(die) if tables.settings.night_rest_heals => {
                let rolled = die.roll(dice, &format!("{}'s recovery die", who.name), false)?;
                record.extend(rolled.dice);
                // What the night gave back, not the die: nothing above the maximum.
                u32::try_from(rolled.total.unwrap_or(0).max(0))
                    .unwrap_or(0)
                    .min(who.health_room())
            }
            _ => 0,
        };
        Ok(Some(RestResult {
            character: who.name.to_string(),
            healed,
        }))
    }
}

fn decide(
    state: &dyn View<Adg>,
    command: AdgCommand,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    match command {
        AdgCommand::LoadTables { source, tables } => {
            tables
                .validate()
                .map_err(|why| Refusal::Own(AdgError::InvalidTables(why)))?;
            if let Some(in_force) = &state.campaign().adg_tables
                && in_force.sha256() == tables.sha256()
            {
                return Err(Refusal::Own(AdgError::TablesInForce(in_force.name.clone())));
            }
            Ok(vec![Decided::Own(AdgEvent::AdgTablesLoaded {
                source,
                sha256: tables.sha256(),
                tables: *tables,
            })])
        }
        AdgCommand::RollRitual(Who { character }) => rituals::roll(state, &character, dice),
        AdgCommand::Learn(learning) => rituals::learn(state, &learning, dice),
        AdgCommand::Cast(casting) => rituals::cast(state, casting, dice),
        AdgCommand::Trigger(trigger) => rituals::trigger(state, &trigger, dice),
        AdgCommand::Exert(Exertion {
            character,
            attribute,
            amount,
            reason,
        }) => {
            let (who, adg) = living(state, &character)?;
            checks::can_exert(adg, attribute, amount)?;
            Ok(vec![Decided::Own(AdgEvent::Exerted {
                character: who.name.to_string(),
                attribute,
                amount,
                reason,
            })])
        }
        AdgCommand::WriteScroll(scribing) => scrolls::write(state, scribing, dice),
        AdgCommand::ReadScroll(reading) => scrolls::read(state, &reading, dice),
        AdgCommand::LearnScroll(learning) => scrolls::learn(state, &learning, dice),
        AdgCommand::GiveScroll(ScrollGift { scroll, to }) => scrolls::give(state, scroll, &to),
        AdgCommand::ResolvePending(Who { character }) => scrolls::resolve(state, &character, dice),
        AdgCommand::Silver(change) => silver(state, change),
    }
}

/// ADG-C2 ruling: silver moves by events, never below 0 nor past [`MAX_SILVER`].
fn silver(state: &dyn View<Adg>, change: SilverChange) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, adg) = living(state, &change.character)?;
    let refused = |e| Err(Refusal::Own(e));
    if change.delta == 0 {
        return refused(AdgError::NoSilverChange);
    }
    let has = i64::try_from(adg.silver).unwrap_or(i64::MAX);
    let total = has.saturating_add(change.delta);
    if total < 0 {
        return refused(AdgError::PurseTooLight {
            name: who.name.to_string(),
            has: adg.silver,
            spend: change.delta.unsigned_abs(),
        });
    }
    if total > MAX_SILVER {
        return refused(AdgError::PurseTooHeavy {
            name: who.name.to_string(),
            total: total.unsigned_abs(),
        });
    }
    Ok(vec![Decided::Own(AdgEvent::SilverChanged {
        character: who.name.to_string(),
        delta: change.delta,
        reason: change.reason,
    })])
}

/// Whether a ritual's or a scroll's damage or healing can reach `target`: not once they are dead
/// (ADG-C4), when the log would show an effect that changed nothing.
fn reachable(state: &dyn View<Adg>, target: &str) -> Verdict<()> {
    match state.someone(target) {
        Some(c) if c.dead => Err(Refusal::Own(AdgError::TargetDead(c.name.to_string()))),
        _ => Ok(()),
    }
}

/// The damage recorded against `name` in the fight's round under way, if a fight is on and any
/// was (T-3).
fn damage_this_round(state: &dyn View<Adg>, name: &str) -> Option<u32> {
    state.damage_this_round(name).filter(|&d| d > 0)
}

/// In a fight, one action a round: a ritual cast, or a scroll read (which takes the whole round,
/// ADG-S5). Out of a fight the rounds are the GM's to keep.
fn free_to_act(state: &dyn View<Adg>, name: &str) -> Verdict<()> {
    if state.acted_this_round(name) {
        return Err(Refusal::Own(AdgError::ActedThisRound(name.to_string())));
    }
    Ok(())
}

pub(crate) fn tables(state: &dyn View<Adg>) -> Verdict<&AdgTables> {
    state
        .campaign()
        .adg_tables
        .as_ref()
        .ok_or(Refusal::Own(AdgError::NoAdgTables))
}

/// ADG-C5 and its ruling: `nights` nights' rest, each its recovery die (recorded), the total capped
/// at maximum health. Nothing when the campaign's nights do not heal.
pub(crate) fn nights_heal(
    who: Someone<'_, Adg>,
    adg: &AdgState,
    tables: &AdgTables,
    nights: u32,
    record: &mut Vec<crate::dice::Die>,
    dice: &mut Dice<'_>,
) -> Verdict<u32> {
    let rolled = roll_nights(who, adg, tables, nights, record, dice)?;
    Ok(rolled.min(who.health_room()))
}

/// `nights` nights' recovery dice (recorded), added up and not yet capped.
fn roll_nights(
    who: Someone<'_, Adg>,
    adg: &AdgState,
    tables: &AdgTables,
    nights: u32,
    record: &mut Vec<crate::dice::Die>,
    dice: &mut Dice<'_>,
) -> Verdict<u32> {
    let Some(die) = tables
        .recovery_die(adg.level)
        .filter(|_| tables.settings.night_rest_heals)
    else {
        return Ok(0);
    };
    let mut total = 0i64;
    for night in 1..=nights {
        let rolled = die.roll(
            dice,
            &format!("{}'s recovery die, night {night}", who.name),
            false,
        )?;
        record.extend(rolled.dice);
        total += rolled.total.unwrap_or(0).max(0);
    }
    Ok(u32::try_from(total).unwrap_or(u32::MAX))
}

/// An ADG character who can act: known, of this system, alive, and with no dice pending from a
/// reading (those come first).
pub(super) fn living<'s>(
    state: &'s dyn View<Adg>,
    name: &str,
) -> Verdict<(Someone<'s, Adg>, &'s AdgState)> {
    let (who, adg) = alive(state, name)?;
    living_state(who, adg)?;
    Ok((who, adg))
}

/// Refuses a character who still has dice pending from a reading: those come first.
pub(super) fn living_state(who: Someone<'_, Adg>, adg: &AdgState) -> Verdict<()> {
    match &adg.pending_roll {
        Some(pending) => Err(Refusal::Own(AdgError::RollPending {
            name: who.name.to_string(),
            scroll: pending.scroll,
        })),
        None => Ok(()),
    }
}

/// An ADG character known, of this system and alive.
pub(super) fn alive<'s>(
    state: &'s dyn View<Adg>,
    name: &str,
) -> Verdict<(Someone<'s, Adg>, &'s AdgState)> {
    let who = state.find(name)?;
    let adg = who.own()?;
    if adg.dead {
        return Err(Refusal::Core(Refused::Dead(who.name.to_string())));
    }
    Ok((who, adg))
}

#[cfg(test)]
mod tests;
