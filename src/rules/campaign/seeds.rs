//! Seeds and sealed dice (ADG-S4, C-2): which seeds a write sets free, which wait, and the reveal
//! of a sealed roll.

use super::*;

/// The events whose pending sealed dice were derived from `epoch`'s seed (its second, in an epoch
/// that has one).
pub fn holding_back(state: &CampaignState, epoch: u32) -> Vec<Seq> {
    state
        .sealed_pending
        .iter()
        .filter(|(_, seals)| seals.iter().any(|s| s.epoch == Some(epoch)))
        .map(|(seq, _)| *seq)
        .collect()
}

/// A seed that waited for an epoch's sealed dice, set free: the one seed of an epoch that has one,
/// or the second seed (for sealed dice) of an epoch that has two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Released {
    Seed(u32),
    SealedSeed(u32),
}

/// The seeds waiting for their epochs' sealed dice that `events` set free: after them no sealed
/// die derived from the seed is still pending (the last was revealed; a retracted one still waits,
/// C-2). Their events go in the same write, so a seed is published the moment nothing it could
/// open is left.
pub fn seeds_released(state: &CampaignState, events: &[Event]) -> Vec<Released> {
    let settled: Vec<Seq> = events
        .iter()
        .filter_map(|e| {
            let Event::SealedRevealed { seq, .. } = e else {
                return None;
            };
            Some(*seq)
        })
        .collect();
    if settled.is_empty() {
        return Vec::new();
    }
    let free = |epoch: &u32| {
        holding_back(state, *epoch)
            .iter()
            .all(|seq| settled.contains(seq))
    };
    let seeds = state.withheld_seeds.iter().filter(|e| free(e));
    let sealed_seeds = state.sealed_seeds_waiting.iter().filter(|e| free(e));
    seeds
        .map(|&epoch| Released::Seed(epoch))
        .chain(sealed_seeds.map(|&epoch| Released::SealedSeed(epoch)))
        .collect()
}

/// Whether `grimoire reveal` may open the sealed dice of event `seq`: a rule system may keep a seal
/// for a command of its own to open (a Ceremony scroll's check waits for its reading, ADG-S4).
pub fn opens_by_reveal(state: &CampaignState, seq: Seq) -> Result<(), RuleError> {
    for &system in SystemId::ALL {
        on_system!(system, SystemId, |S| S::opens_its_own_seal(state, seq)
            .map_err(RuleError::from))?;
    }
    Ok(())
}

/// Opens one sealed die of event `seq` with the GM's secrets, refusing a secret that is missing or
/// does not match the commitment the log holds.
pub(super) fn reveal_sealed(
    state: &CampaignState,
    seq: Seq,
    secrets: &[SealedSecret],
) -> Result<Event, RuleError> {
    if seq == 0 || seq > state.head {
        return Err(RuleError::NoSuchEvent(seq, state.head));
    }
    let pending = state
        .sealed_pending
        .get(&seq)
        .ok_or(RuleError::NothingSealed(seq))?;
    opens_by_reveal(state, seq)?;
    let dice = pending
        .iter()
        .map(|seal| open_seal(seq, seal, secrets))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Event::SealedRevealed { seq, dice })
}
