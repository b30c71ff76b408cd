//! Retractions (C-2): what a retraction undoes or brings back, and when the rules refuse it.

use super::*;

/// Whether `--last` stops at the event at `seq`: the newest event of play, passing over the
/// campaign's bookkeeping (sessions, epochs, reveals), retractions (undoing one restores, which is
/// never a slip's fix) and what is undone already. When play there may not be undone (a scroll
/// written), `--last` names it and is refused, rather than reach past it to something older.
pub fn named_by_last(state: &CampaignState, seq: Seq, event: &Event) -> bool {
    let play = matches!(event, Event::System(_)) || event.is_retractable();
    play && !matches!(event, Event::Retracted { .. }) && !state.retracted.contains_key(&seq)
}

/// What a retraction of `target` brings back into effect, when `target` is itself a retraction
/// (`event_at` reads the log): the event it undid; or, when that is a retraction too, whatever
/// comes back at the chain's foot. Down a chain each link undoes the next, so the first event that
/// is not a retraction is undone now when an odd number of links lead to it, and comes back once
/// `target` is undone; with an even number it stays in force, and what comes back is the
/// retraction `target` undid (which undoes its own target again).
pub fn brought_back<E>(
    target: &Event,
    mut event_at: impl FnMut(Seq) -> Result<Option<Event>, E>,
) -> Result<Option<(Seq, Event)>, E> {
    let Event::Retracted { seq: undone, .. } = target else {
        return Ok(None);
    };
    let Some(first) = event_at(*undone)? else {
        return Ok(None);
    };
    let (mut links, mut foot) = (1, (*undone, first.clone()));
    // Down to earlier events only: a forged log's retraction of itself would go round for ever.
    while let (at, Event::Retracted { seq: next, .. }) = &foot
        && next < at
    {
        let next = *next;
        let Some(event) = event_at(next)? else {
            break;
        };
        (links, foot) = (links + 1, (next, event));
    }
    let comes_back = links % 2 == 1 && !matches!(foot.1, Event::Retracted { .. });
    Ok(Some(if comes_back { foot } else { (*undone, first) }))
}

/// A retraction of the event `seq`: what it rolled, if anything, so the next roll is marked (C-2);
/// or, for a retraction of a retraction, the event restored.
pub(super) fn retract(state: &CampaignState, retraction: Retraction) -> Result<Event, RuleError> {
    let fight_built_on = retraction.fight_built_on;
    let round_stands = retraction.round_stands;
    let clock_reshaped = retraction.clock_reshaped.clone();
    let acted_again = retraction.acted_again;
    let Retraction {
        seq,
        target,
        restoring,
        reason,
        names_after,
        ..
    } = retraction;
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(RuleError::EmptyReason);
    }
    let seq = seq.ok_or(RuleError::NoEventNamed)?;
    let target = target.ok_or(RuleError::NoSuchEvent(seq, state.head))?;
    if let Some(why) = state.retracted.get(&seq) {
        return Err(RuleError::AlreadyRetracted(seq, why.clone()));
    }
    // Undone alone, the span would leave its scrolls (and the silver paid for them) behind.
    if let Event::DowntimeTaken(span) = &target
        && span.characters.iter().any(|spent| {
            spent.activities.iter().any(|week| {
                matches!(
                    week,
                    crate::systems::contract::event::Activity::Scribe { .. }
                )
            })
        })
    {
        return Err(RuleError::SpanWroteScrolls(seq));
    }
    if !target.is_retractable() {
        return Err(RuleError::NotRetractable {
            seq,
            kind: target.kind().to_string(),
        });
    }
    // A fight's events are undone or brought back newest first (T-3): otherwise two fights could
    // overlap, hours pass inside one, or a round be counted twice.
    if fight_built_on {
        return Err(RuleError::FightBuiltOn(seq));
    }
    // A round is undone only once nothing stands in it (T-3): its turns would otherwise be
    // counted in the round before, by the rules and the fight's view alike.
    if let Some((round, standing)) = round_stands {
        return Err(RuleError::RoundActedIn { round, standing });
    }
    // A clock move undone or brought back re-times everything after it (T-1, T-3).
    match clock_reshaped {
        Some(ClockReshaped::BuiltOn { moved, standing }) => {
            return Err(RuleError::ClockMoveBuiltOn { moved, standing });
        }
        Some(ClockReshaped::HoursInAFight { moved, fight }) => {
            return Err(RuleError::HoursInAFight { moved, fight });
        }
        Some(ClockReshaped::AnotherFight { moved, fight }) => {
            return Err(RuleError::AnotherFightOn { moved, fight });
        }
        Some(ClockReshaped::NoFightToEnd { moved }) => {
            return Err(RuleError::NoFightToEnd { moved });
        }
        None => {}
    }
    // One action a round (T-3, VSD-3), in the rounds replay would put them in.
    if let Some((who, seq, again)) = acted_again {
        return Err(RuleError::RestoreActsTwice { seq, who, again });
    }
    let restores = match &target {
        Event::Retracted { seq: undone, .. } => {
            let (back, event) = restoring.ok_or(RuleError::NoSuchEvent(*undone, state.head))?;
            // A sealed die rolled from a seed since published is no secret any more: bringing it
            // back would let whoever read the seed choose whether to restore the roll.
            if let Some(epoch) = event
                .dice()
                .iter()
                .filter(|d| matches!(d.provenance, crate::dice::Provenance::Sealed { .. }))
                .filter_map(|d| d.provenance.seeded_epoch())
                .find(|&epoch| state.sealed_dice_seed_published(epoch))
            {
                return Err(RuleError::RestoreWouldOpenSeal { seq: back, epoch });
            }
            Some(*undone)
        }
        _ => None,
    };
    refuse_shared_names(state, &names_after)?;
    let roll = (!target.dice().is_empty()).then(|| RetractedRoll {
        kind: target.kind().to_string(),
        characters: state
            .characters_named(&target)
            .into_iter()
            .map(|c| c.name.clone())
            .collect(),
    });
    Ok(Event::Retracted {
        seq,
        reason,
        roll,
        restores,
    })
}

/// A character a retraction brings back (down any chain of retractions) or gives its first name
/// again (its amendment undone) under a name another holds, or one that looks the same, would not
/// come back: the log keeps one character per name. Refused, naming who holds it.
fn refuse_shared_names(
    state: &CampaignState,
    names_after: &BTreeMap<Seq, String>,
) -> Result<(), RuleError> {
    let in_play_so = |added: Seq, name: &str| {
        state
            .characters
            .values()
            .any(|c| c.added_seq == added && c.name == name)
    };
    for (&added, name) in names_after {
        if in_play_so(added, name) {
            continue;
        }
        let holder = names_after.iter().find(|&(&other, other_name)| {
            other != added
                && (crate::words::fold_name(other_name) == crate::words::fold_name(name)
                    || crate::text::look_alike(other_name, name))
        });
        if let Some((_, existing)) = holder {
            return Err(RuleError::RestoreNameTaken {
                seq: added,
                name: name.clone(),
                existing: existing.clone(),
            });
        }
    }
    Ok(())
}
