//! The values kept secret for sealed dice, as the GM reads them (`peek`, and what a sealed roll
//! shows its roller at once). Only the GM's own terminal shows them: no page, export or report
//! carries them until `reveal`.

use super::Shown;
use crate::Error;
use crate::dice::Provenance;
use crate::event::{Event, Recorded};
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::store::Store;
use serde_json::json;

/// Whether the event holds a die sealed by the GM.
pub fn holds_sealed(event: &Event) -> bool {
    event
        .dice()
        .iter()
        .any(|d| matches!(d.provenance, Provenance::Sealed { .. }))
}

/// The sealed values waiting to be revealed, for the GM's eyes: every one, or event `seq`'s (a
/// retracted one's too, as it was rolled).
pub fn waiting(store: &mut Store, seq: Option<Seq>) -> Result<Shown, Error> {
    let state = store.replay(None)?;
    let shown: Vec<Seq> = match seq {
        Some(seq) => {
            let recorded = store
                .event(seq)?
                .filter(|_| seq > 0)
                .ok_or(RuleError::NoSuchEvent(seq, state.head))?;
            let waiting = state.sealed_pending.contains_key(&seq)
                || (state.retracted.contains_key(&seq) && holds_sealed(&recorded.event));
            if !waiting {
                return Err(match holds_sealed(&recorded.event) {
                    true => RuleError::RevealedAlready(seq),
                    false => RuleError::NothingSealed(seq),
                }
                .into());
            }
            vec![seq]
        }
        None => state.sealed_pending.keys().copied().collect(),
    };
    let mut lines = Vec::new();
    let mut json = Vec::new();
    for seq in shown {
        let Some(recorded) = store.event(seq)? else {
            continue;
        };
        let seen = peeked(store, &recorded)?;
        let retracted = state
            .retracted
            .get(&seq)
            .map(|why| format!(" (retracted: {why}; still to be revealed, as it was rolled)"))
            .unwrap_or_default();
        lines.push(format!(
            "#{seq} {}: {}{retracted}",
            crate::render::describe(&recorded.event),
            seen.words
        ));
        json.push(seen.json);
    }
    if lines.is_empty() {
        lines.push("No sealed die is waiting to be revealed.".into());
    }
    Ok(Shown::new(lines.join("\n"), json!({ "sealed": json })))
}

/// A sealed event's values as the GM reads them.
pub struct Peeked {
    pub words: String,
    pub json: serde_json::Value,
}

/// The values kept secret for `recorded`'s sealed dice: a roll's as its expression adds them up,
/// any other event's die by die. Refused when the file lacks a die's secret (imported without).
pub fn peeked(store: &mut Store, recorded: &Recorded) -> Result<Peeked, Error> {
    let secrets = store.sealed_secrets(recorded.seq)?;
    let dice = recorded.event.dice();
    let mut each = Vec::new();
    for die in dice
        .iter()
        .filter(|d| matches!(d.provenance, Provenance::Sealed { .. }))
    {
        let secret = secrets
            .iter()
            .find(|s| s.n == die.n)
            .ok_or(RuleError::SecretMissing {
                seq: recorded.seq,
                n: die.n,
            })?;
        each.push((die.purpose.clone(), secret.faces()));
    }
    let faces: Vec<u32> = each.iter().flat_map(|(_, f)| f.iter().copied()).collect();
    let mut json = json!({
        "seq": recorded.seq,
        "faces": faces,
        "dice": each
            .iter()
            .map(|(purpose, faces)| json!({ "purpose": purpose, "faces": faces }))
            .collect::<Vec<_>>(),
    });
    if let Event::DiceRolled { expression, .. } = &recorded.event
        && let Some((breakdown, total)) = expression.breakdown(&faces)
    {
        json["total"] = json!(total);
        return Ok(Peeked {
            words: format!("{expression}: {breakdown}"),
            json,
        });
    }
    let words = each
        .iter()
        .map(|(purpose, faces)| {
            let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
            format!("{purpose}: {}", faces.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Peeked { words, json })
}
