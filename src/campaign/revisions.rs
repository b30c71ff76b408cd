//! What a retraction or an amendment reads of the log under the write's lock, for the rules to
//! decide on: the event it names, what it would bring back or undo, and what that would break.

use super::*;

/// The earlier event a command reads, as the campaign holds it in force (amended, it is read as
/// amended).
pub(super) fn read_event(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    seq: Seq,
    into: Box<dyn FnOnce(Event, crate::time::GameTime) + '_>,
) -> Result<(), Error> {
    if let Some((event, at)) = crate::rules::campaign::in_force(state, seq, |at| log.event_at(at))?
    {
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
            Input::Event { seq, into } => read_event(state, log, seq, into)?,
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
    // Down the chain of retractions to the event it undoes or brings back.
    let mut root = target.clone().map(|event| (seq, event));
    // Down to earlier events only: a forged log's retraction of itself would go round for ever.
    while let Some((at, Event::Retracted { seq: undone, .. })) = &root
        && undone < at
    {
        let undone = *undone;
        root = log.event(undone)?.map(|event| (undone, event));
    }
    if let Some(target) = &target
        && let Some((back, event)) =
            crate::rules::campaign::brought_back(target, |at| log.event(at))?
    {
        retraction.restoring = Some((back, Box::new(event)));
    }
    let brought_back = retraction.restoring.as_ref().map(|(back, _)| *back);
    // What the retraction does to the rounds from the earliest event it reaches (an amendment's
    // original included) on, in the rounds replay puts them in: replayed as the log stands and as
    // it would with this retraction, anything over a round's limits only the second has is its
    // doing. An event brought back may move what follows into another round, and an amendment
    // undone brings back what it replaced.
    let mut from = seq;
    for (at, event) in root
        .iter()
        .map(|(at, event)| (*at, Some(event)))
        .chain((retraction.restoring.iter()).map(|(back, event)| (*back, Some(event.as_ref()))))
    {
        from = from.min(at);
        if let Some(Event::Amended { seq: original, .. }) = event {
            from = from.min(*original);
        }
    }
    let now = log.rounds_over(from, None)?;
    let then = log.rounds_over(from, Some((state.head.next(), seq)))?;
    let new = |at: &Seq, who: &String| !(now.actions.iter()).any(|(a, w, _)| a == at && w == who);
    if let Some((at, who, theirs)) = then.actions.iter().find(|(at, who, _)| new(at, who))
        && let Some(again) = theirs.iter().copied().find(|other| other != at)
    {
        retraction.acted_again = Some((who.clone(), *at, again));
    }
    if let (Some((_, fight)), None) = (&then.fight_past_an_hour, &now.fight_past_an_hour) {
        retraction.clock_reshaped = Some(ClockReshaped::HoursInAFight {
            moved: brought_back.unwrap_or(seq),
            fight: fight.clone(),
        });
    }
    // A round's start is undone, down any chain, only once nothing stands in it (T-3).
    if let Some((round, Event::RoundBegan { .. })) = &root
        && brought_back != Some(*round)
    {
        let standing =
            log.first_standing_after(*round, |later| state.retracted.contains_key(&later))?;
        retraction.round_stands = standing.map(|standing| (*round, standing));
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
        // A casting or a scroll's writing moves the clock only when it takes time.
        const WHEN_TIMED: &[&str] = &["ritual_cast", "scroll_written"];
        // What is retracted already moves nothing: a fight's events come off newest first.
        retraction.fight_built_on = log.any_of_kinds_after(
            MOVING_THE_CLOCK,
            WHEN_TIMED,
            shaped,
            state.clock.seconds(),
            |seq| state.retracted.contains_key(&seq),
        )?;
    }
    if let Some((moved, event)) = &root {
        let brought_back = (retraction.restoring.as_ref()).is_some_and(|(back, _)| back == moved);
        let reshaped = clock_reshaped(state, log, *moved, event, brought_back)?;
        retraction.clock_reshaped = reshaped.or(retraction.clock_reshaped.take());
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
    let before = log.state_before(moved)?;
    let on = state.fight.as_ref();
    let another = |on: &crate::state::Fight| {
        let fight = on.words();
        Ok(Some(ClockReshaped::AnotherFight { moved, fight }))
    };
    match event {
        // A start brought back while a fight is on would make two; undone, only the start of the
        // fight on may be (an older one is behind later fights, refused below as built on).
        Event::FightStarted { .. } => {
            if let Some(on) = on
                && (brought_back || on.started_seq != moved)
            {
                return another(on);
            }
        }
        Event::FightEnded { fight: ended, .. } => {
            // The fight it ended must be the one on where it stands, and (brought back) now.
            let its_own = (before.fight.as_ref()).filter(|f| f.words() == *ended);
            let ends = its_own.map(|f| f.started_seq);
            match (brought_back, on) {
                (true, _) if ends.is_none() => {
                    return Ok(Some(ClockReshaped::NoFightToEnd { moved }));
                }
                (true, Some(on)) if ends != Some(on.started_seq) => return another(on),
                (true, None) => return Ok(Some(ClockReshaped::NoFightToEnd { moved })),
                // Undone, it reopens its fight: no other may be on.
                (false, Some(on)) => return another(on),
                _ => {}
            }
        }
        _ => {}
    }
    let mut after = before.clone();
    after.apply(moved, event);
    if after.clock == before.clock {
        return Ok(None);
    }
    let standing = log.first_after_where(
        moved,
        |later| !later.actions().is_empty() || matches!(later, Event::FightStarted { .. }),
        |at| state.retracted.contains_key(&at),
    )?;
    Ok(standing.map(|standing| ClockReshaped::BuiltOn { moved, standing }))
}
