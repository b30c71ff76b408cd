//! The dice a write draws: the epoch's seeds and commitments, and which seeds a write sets free.

use super::*;

/// The commitments published for `epoch`'s seeds, its first and (in an epoch that has one) its
/// second: the current one's are in the state, an earlier one's (a seed that waited for its sealed
/// dice, released later) in the event that began it.
pub(super) fn commitments_of(
    state: &CampaignState,
    log: &mut WriteView<'_>,
    epoch: u32,
) -> Result<Option<(String, Option<String>)>, Error> {
    if epoch == state.epoch {
        let sealed = state.epoch_sealed_commitment.clone();
        return Ok(Some((state.epoch_commitment.clone(), sealed)));
    }
    let mut found = None;
    log.newest_where(state.head, |_, event| {
        let commitment = match event {
            Event::EpochStarted {
                epoch: started,
                seed_commitment,
                ..
            } if *started == epoch => seed_commitment,
            Event::CampaignCreated {
                seed_commitment, ..
            } if epoch == 1 => seed_commitment,
            _ => return false,
        };
        let sealed = event.sealed_commitment().map(str::to_string);
        found = Some((commitment.clone(), sealed));
        true
    })?;
    Ok(found)
}

/// Draws the dice, decides, publishes the seeds the command sets free and keeps a new epoch's
/// seeds.
pub(super) fn decide_with_dice(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    command: Command,
    source: &DiceSource,
    new_seed: Option<([u8; 32], [u8; 32])>,
    secret_rng: &mut StdRng,
) -> Result<Batch, Error> {
    let given = match source {
        DiceSource::Seeded { player_entropy } => player_entropy.clone(),
        DiceSource::Entered(_) | DiceSource::Asked { .. } | DiceSource::Device { .. } => None,
    };
    if let (Some(session), Some(_)) = (&state.open_session, &given) {
        return Err(RuleError::EntropyInSession(session.number).into());
    }
    let opened = command.new_epoch(state).zip(new_seed);
    let seeds = opened.map(|(epoch, (seed, _))| (epoch, seed));
    let sealed_seeds = opened.map(|(epoch, (_, sealed))| (epoch, sealed));
    let mut dice = match source {
        DiceSource::Entered(values) => Dice::entered(values.clone(), secret_rng),
        DiceSource::Asked {
            values,
            sealed_answers,
        } => Dice::answered(values.clone(), sealed_answers.clone(), secret_rng),
        DiceSource::Device {
            g,
            request,
            contribution,
            witnessed,
        } => Dice::device(*g, *request, contribution.clone(), *witnessed, secret_rng),
        DiceSource::Seeded { .. } if state.campaign.is_some() => {
            // Read only for a command that may draw from them, so damage to a seed stops only
            // the dice while the secrets are restored.
            let draws = command.draws_dice();
            let seed = match draws {
                true => secrets.seed(state.epoch)?,
                false => None,
            };
            let sealed_seed = match (draws, &state.epoch_sealed_commitment) {
                (true, Some(_)) => secrets.sealed_seed(state.epoch)?,
                _ => None,
            };
            // A seed that does not hash to the epoch's published commitment (the file's secrets
            // edited) would record dice no one could ever check: refused before any is drawn,
            // rather than found at the reveal.
            if seed.is_some_and(|seed| fairness::seed_commitment(&seed) != state.epoch_commitment) {
                return Err(RuleError::SeedMismatch(state.epoch).into());
            }
            if sealed_seed.is_some_and(|seed| {
                Some(fairness::seed_commitment(&seed)) != state.epoch_sealed_commitment
            }) {
                return Err(RuleError::SealedSeedMismatch(state.epoch).into());
            }
            crate::rules::seeded_dice(state, seed, sealed_seed, given.clone(), secret_rng)
        }
        DiceSource::Seeded { .. } => crate::rules::seeded_dice(state, None, None, None, secret_rng),
    };
    let mut events = decide(state, command, &mut dice)?;
    for released in crate::rules::campaign::seeds_released(state, &events) {
        events.push(published(state, secrets, released)?);
    }
    if given.is_some()
        && !events
            .iter()
            .flat_map(|e| e.dice())
            .any(|d| matches!(d.provenance, Provenance::Seeded { .. }))
    {
        return Err(RuleError::EntropyUnused.into());
    }
    let sealed = dice.finish()?;
    Ok(Batch {
        events,
        sealed,
        seeds: seeds.into_iter().collect(),
        sealed_seeds: sealed_seeds.into_iter().collect(),
        ..Batch::default()
    })
}

/// The event that publishes a seed set free, read from the secrets. Published, a seed is in the
/// log for good: one that is missing or does not open its epoch's commitment (edited in the file)
/// is refused while the secrets can still be restored.
pub(super) fn published(
    state: &CampaignState,
    secrets: &mut WriteView<'_>,
    released: Released,
) -> Result<Event, Error> {
    let (epoch, for_sealed_dice) = match released {
        Released::Seed(epoch) => (epoch, false),
        Released::SealedSeed(epoch) => (epoch, true),
    };
    let kept = match for_sealed_dice {
        true => secrets.sealed_seed(epoch)?,
        false => secrets.seed(epoch)?,
    };
    let seed = match kept {
        Some(seed) => seed,
        // A file that keeps the current epoch's seed but not the one these sealed dice need lost it.
        None if secrets.seed(state.epoch)?.is_some() => {
            return Err(match for_sealed_dice {
                true => RuleError::SealedSeedMissing(epoch),
                false => RuleError::SeedMissing(epoch),
            }
            .into());
        }
        None => {
            return Err(RuleError::SeedNotKept {
                epoch,
                sealed: for_sealed_dice,
            }
            .into());
        }
    };
    let (commitment, sealed_commitment) = commitments_of(state, secrets, epoch)?.unzip();
    let opens = |commitment: Option<String>| Some(fairness::seed_commitment(&seed)) == commitment;
    let seed = hex::encode(seed);
    Ok(match for_sealed_dice {
        true if opens(sealed_commitment.flatten()) => Event::SealedSeedRevealed { epoch, seed },
        true => return Err(RuleError::SealedSeedMismatch(epoch).into()),
        false if opens(commitment) => Event::SeedRevealed { epoch, seed },
        false => return Err(RuleError::SeedMismatch(epoch).into()),
    })
}
