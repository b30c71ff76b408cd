//! What a retraction or an amendment reads of the log under the write's lock, for the rules to
//! decide on: the event it names, what it would bring back or undo, and what that would break.

use super::*;

pub(super) fn read_event(
    log: &mut WriteView<'_>,
    seq: Seq,
    into: Box<dyn FnOnce(Event, crate::time::GameTime) + '_>,
) -> Result<(), Error> {
    if let Some((event, at)) = log.event_at(seq)? {
        into(event, at);
    }
    Ok(())
}

/// Fills in what an amendment reads of the log under the write's lock (see
/// [`crate::rules::amend::AmendmentRead`]), then what its command reads, as of the state just
/// before the original. Inputs that mint secrets or read a retraction are left empty: the
/// commands that need them record bookkeeping or retractions, which are never amended (the rules
/// refuse them by their kind).
pub(super) fn read_for_amendment(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    amendment: &mut crate::rules::amend::Amendment,
) -> Result<(), Error> {
    let seq = amendment.seq;
    let Some(original) = log.event(seq)? else {
        return Err(RuleError::NoSuchEvent(seq, state.head).into());
    };
    let continued = log
        .event(seq + 1)?
        .is_some_and(|next| next.continues_its_command());
    let revealed = log.revealed(seq)?;
    let (named_later, play_later) = log.named_after(seq, |at, event| {
        state.retracted.contains_key(&at)
            || matches!(event, Event::Amended { seq: amended, .. } if *amended == seq)
    })?;
    let before = log.state_before(seq)?;
    let in_force = match state.amended.get(&seq) {
        Some(&amendment) => match log.event(amendment)? {
            Some(Event::Amended { event, .. }) => Some(*event),
            _ => None,
        },
        None => None,
    };
    for input in amendment.command.inputs() {
        match input {
            Input::SealedDice { seq, into } => *into = log.sealed(seq)?,
            Input::Event { seq, into } => read_event(log, seq, into)?,
            Input::Retraction(_)
            | Input::Amendment(_)
            | Input::EpochSeed { .. }
            | Input::NewEpochSeed { .. }
            | Input::NewRequestSecret { .. }
            | Input::NewCampaignId { .. } => {}
        }
    }
    amendment.read = Some(Box::new(crate::rules::amend::AmendmentRead {
        original,
        in_force,
        before,
        continued,
        revealed,
        named_later,
        play_later,
    }));
    Ok(())
}

/// Fills in what a retraction reads of the log, under the write's lock: so `--last` names the
/// newest event at the moment of writing, whatever was recorded since the command was typed.
pub(super) fn read_for_retraction(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    retraction: &mut Retraction,
) -> Result<(), Error> {
    if retraction.last {
        let newest = log.newest_where(state.head, |seq, event| named_by_last(state, seq, event))?;
        retraction.seq = Some(newest.ok_or(RuleError::NothingToRetract)?);
    }
    let Some(seq) = retraction.seq else {
        return Ok(());
    };
    let target = log.event(seq)?;
    if let Some(target) = &target
        && let Some((back, event)) =
            crate::rules::campaign::brought_back(target, |at| log.event(at))?
    {
        // The action as the amendment in force has it, if one does.
        let in_force = match state.amended.get(&back) {
            Some(&amendment) => match log.event(amendment)? {
                Some(Event::Amended { event, .. }) => *event,
                _ => event.clone(),
            },
            None => event.clone(),
        };
        for action in in_force.actions() {
            let who = crate::words::fold_name(action.who);
            let (time, others) = log.acts_in_round(
                back,
                &who,
                |at| state.retracted.contains_key(&at),
                |at| state.amended.get(&at).copied(),
            )?;
            // Outside a fight a turn is no turn, unless the system's rules count it by the clock:
            // only a fight's rounds (the whole round it began in) hold one action each.
            let in_a_fight = state.fight_at(back).is_some()
                || (state.fights_along.iter()).any(|f| f.began == time);
            if (action.counted_outside_fights || in_a_fight)
                && let Some(again) = one_action_too_many(back, action.halves(), &others)
            {
                retraction.acted_again = Some((action.who.to_string(), again));
                break;
            }
        }
        retraction.restoring = Some((back, Box::new(event)));
    }
    if let Some(Event::RoundBegan { .. }) = &target {
        retraction.round_stands =
            log.first_standing_after(seq, |later| state.retracted.contains_key(&later))?;
    }
    // A fight's start, round or end undone or brought back (down any chain of retractions) with
    // later events that move the clock after it would reshape what those were recorded in (T-3).
    let mut root = target.clone().map(|event| (seq, event));
    // Down to earlier events only: a forged log's retraction of itself would go round for ever.
    while let Some((at, Event::Retracted { seq: undone, .. })) = &root
        && undone < at
    {
        let undone = *undone;
        root = log.event(undone)?.map(|event| (undone, event));
    }
    if let Some((
        shaped,
        Event::FightStarted { .. } | Event::RoundBegan { .. } | Event::FightEnded { .. },
    )) = root
    {
        const MOVING_THE_CLOCK: &[&str] = &[
            "fight_started",
            "round_began",
            "fight_ended",
            "clock_advanced",
            "rested",
            "downtime_taken",
            "ritual_cast",
            "scroll_written",
        ];
        // What is retracted already moves nothing: a fight's events come off newest first.
        retraction.fight_built_on = log.any_of_kinds_after(MOVING_THE_CLOCK, shaped, |seq| {
            state.retracted.contains_key(&seq)
        })?;
    }
    if let Some((moved, event)) = &root {
        let brought_back = (retraction.restoring.as_ref()).is_some_and(|(back, _)| back == moved);
        retraction.clock_reshaped = clock_reshaped(state, log, *moved, event, brought_back)?;
    }
    retraction.names_after = log.names_in_play_after_retracting(state.head, seq)?;
    retraction.target = target;
    Ok(())
}

/// What undoing or bringing back (`brought_back`) the event at `moved` would break, when it starts
/// or ends a fight or moves the clock: every event after it would be replayed at another time.
pub(super) fn clock_reshaped(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    moved: Seq,
    event: &Event,
    brought_back: bool,
) -> Result<Option<ClockReshaped>, Error> {
    let starts_or_ends = matches!(event, Event::FightStarted { .. } | Event::FightEnded { .. });
    if starts_or_ends
        && let Some(on) = &state.fight
        && on.started_seq != moved
    {
        let fight = on.words();
        return Ok(Some(ClockReshaped::AnotherFight { moved, fight }));
    }
    let before = log.state_before(moved)?;
    let mut after = before.clone();
    after.apply(moved, event);
    let by = after.clock.seconds().saturating_sub(before.clock.seconds());
    if by == 0 {
        return Ok(None);
    }
    if let Some(fight) = &before.fight
        && brought_back
        && by >= crate::time::HOUR_SECONDS
    {
        let fight = fight.words();
        return Ok(Some(ClockReshaped::HoursInAFight { moved, fight }));
    }
    let standing = log.first_after_where(
        moved,
        |later| !later.actions().is_empty() || matches!(later, Event::FightStarted { .. }),
        |at| state.retracted.contains_key(&at),
    )?;
    Ok(standing.map(|standing| ClockReshaped::BuiltOn { moved, standing }))
}

/// The action to name when restoring the one at `back` (taking `halves` of its round's action)
/// beside `others` in that round would take more than the round's one action: the first of them
/// after it, else the last before it; none when it fits (two instantaneous spells do, VSD-3).
pub(super) fn one_action_too_many(back: Seq, halves: u32, others: &[(Seq, u32)]) -> Option<Seq> {
    let spent: u32 = others.iter().map(|&(_, h)| h).sum();
    if spent + halves <= crate::state::fight::WHOLE_ACTION {
        return None;
    }
    (others.iter().find(|&&(at, _)| at > back))
        .or(others.last())
        .map(|&(at, _)| at)
}
