//! The dice audit as `audit dice` shows it: each group of dice counted and tested against a fair
//! die, what was flagged, and the rolls the table undid or redid. (The counting and the tests are
//! `crate::audit`'s, which the report reads too.)

use super::Shown;
use super::event::Marks;
use crate::Error;
use crate::audit::{Askers, FLAG_BELOW, LogTally, Origin, Question, Verdict, judge};
use crate::event::Event;
use crate::ids::RequestId;
use crate::render::count;
use crate::rules::campaign::find;
use crate::seq::Seq;
use crate::state::fold_name;
use crate::store::Store;
use serde_json::json;
use std::collections::BTreeMap;

/// Which dice to audit: every filter given narrows the pick.
#[derive(Debug, Default, Clone)]
pub struct DiceQuestion {
    /// Only dice of commands entered by this actor (any case).
    pub by: Option<String>,
    /// Only dice of events about this character.
    pub character: Option<String>,
    /// Only dice of this origin.
    pub provenance: Option<Origin>,
    /// Only dice of this size.
    pub die: Option<u32>,
}

/// Whether the dice of the log `question` picks look fair: each group's counts and tests, what
/// was flagged, and the rolls the table undid or redid.
pub fn dice(store: &mut Store, args: &DiceQuestion) -> Result<Shown, Error> {
    let who = args.character.as_deref().map(fold_name);
    // The newest state knows every retraction, restoration and roll made again.
    let state = store.replay(None)?;
    if let Some(name) = &args.character {
        find(&state, name)?;
    }
    let mut undone = Undone::default();
    let mut dice = LogTally::new(args.die, args.provenance);
    let mut askers = Askers::default();
    store.for_each_event(Seq(1), None, |r| {
        askers.note(&r);
        let kept = args
            .by
            .as_deref()
            .is_none_or(|by| fold_name(by) == fold_name(askers.actor_of(&r)))
            && who.as_deref().is_none_or(|w| r.event.concerns(w));
        if let Event::Amended {
            changed,
            outcome_changed,
            ..
        } = &r.event
        {
            undone
                .amendments
                .insert(r.seq, (changed.clone(), *outcome_changed));
        }
        if dice.feed(&r, kept) {
            undone.note(&Marks::of(&state, &r), r.seq);
        }
        Ok(())
    })?;
    let tallies = dice.tallies();
    let findings = judge(&tallies);
    let mut lines = Vec::new();
    let mut groups = Vec::new();
    for (index, tally) in tallies.iter().enumerate() {
        let name = format!("d{} {}", tally.sides, tally.source.word());
        let rolls = tally.rolls();
        let verdict = tally.verdict();
        let mine: Vec<_> = findings.iter().filter(|f| f.group == index).collect();
        let flag = |question: Question| mine.iter().find(|f| f.question == question && f.flagged);
        lines.push(match &verdict {
            Verdict::TooFew { needs } => format!(
                "{name}: {}, too few to judge against a fair die: the test needs {needs} ({} more)",
                count(rolls, "roll", "rolls"),
                needs - rolls
            ),
            Verdict::Judged {
                chi_square,
                degrees_of_freedom,
                p_value,
                ..
            } => {
                let most = tally
                    .most_frequent()
                    .map(|(face, times)| {
                        format!(
                            "; most often {face} ({times} times, {:.1} expected)",
                            tally.expected()
                        )
                    })
                    .unwrap_or_default();
                let judgement = match flag(Question::Uneven).or(flag(Question::TooEven)) {
                    Some(f) => format!(
                        "FLAGGED: {} (adjusted p = {:.4}, below {FLAG_BELOW})",
                        f.flag_words(),
                        f.adjusted_p
                    ),
                    None => "consistent with fair dice".to_string(),
                };
                format!(
                    "{name}: {}, chi-square {chi_square:.2} on {degrees_of_freedom} degrees of freedom, p = {p_value:.4}: {judgement}{most}",
                    count(rolls, "roll", "rolls")
                )
            }
        });
        for f in mine.iter().filter(|f| f.question.compares_rollers()) {
            let verdict = if f.flagged {
                format!(
                    "FLAGGED: {} (adjusted p = {:.4})",
                    f.flag_words(),
                    f.adjusted_p
                )
            } else {
                "no more different than fair dice's".to_string()
            };
            let test = match f.question {
                Question::Characters | Question::Actors => format!(
                    "between {} ({}; faces in {} ranges): chi-square {:.2}",
                    if f.question == Question::Characters {
                        "characters"
                    } else {
                        "actors"
                    },
                    f.compared.join(", "),
                    f.face_ranges.unwrap_or_default(),
                    f.chi_square,
                ),
                Question::CharacterRanks => format!(
                    "ranks between characters ({}, each its own group; Kruskal-Wallis): H {:.2}",
                    count(f.compared.len() as u64, "character", "characters"),
                    f.chi_square,
                ),
                _ => format!(
                    "ranks of players' characters against the rest (Kruskal-Wallis): H {:.2}",
                    f.chi_square,
                ),
            };
            lines.push(format!(
                "  {test} on {} degrees of freedom, p = {:.4}: {verdict}",
                f.degrees_of_freedom, f.p_value,
            ));
        }
        groups.push(json!({
            "die": tally.sides,
            "origin": tally.source.origin(),
            "source": tally.source,
            "rolls": rolls,
            "counts": tally.counts,
            "expected_per_face": tally.expected(),
            "verdict": verdict,
            "findings": mine,
        }));
    }
    if lines.is_empty() {
        lines.push("No dice with faces to count match.".into());
    } else if !findings.is_empty() {
        lines.push(format!(
            "{} run; p-values adjusted for their number (Holm), so fair dice are flagged in at most one audit in {:.0}.",
            count(findings.len() as u64, "test", "tests"),
            1.0 / FLAG_BELOW
        ));
    }
    lines.extend(undone.lines());
    let put_again: Vec<(RequestId, Seq, &[RequestId])> = state
        .players
        .requests
        .iter()
        .filter(|(_, r)| !r.put_again_after.is_empty())
        .map(|(n, r)| (*n, r.seq, r.put_again_after.as_slice()))
        .collect();
    if !put_again.is_empty() {
        let each: Vec<String> = put_again
            .iter()
            .map(|(n, seq, after)| {
                let withdrawn: Vec<String> = after.iter().map(RequestId::to_string).collect();
                format!(
                    "request {n} (#{seq}) after request {}",
                    withdrawn.join(", ")
                )
            })
            .collect();
        lines.push(format!(
            "Put to a phone again right after a roll to it was withdrawn or refused: {}.",
            each.join("; ")
        ));
    }
    let withdrawals = withdrawals_by_player(&state);
    if !withdrawals.is_empty() {
        let each: Vec<String> = withdrawals
            .iter()
            .map(|(player, n)| format!("{player} {n}"))
            .collect();
        lines.push(format!(
            "Rolls withdrawn from players' phones before an answer was recorded: {} (a roll put again to the same phone right after is marked).",
            each.join(", ")
        ));
    }
    let flagged = findings.iter().any(|f| f.flagged);
    Ok(Shown::new(
        lines.join("\n"),
        json!({
            "groups": groups,
            "flag_below": FLAG_BELOW,
            "any_flagged": flagged,
            "retracted_rolls": undone.retracted,
            "withdrawn_by_player": withdrawals,
            "put_again": put_again.iter().map(|(request, seq, after)| json!({ "request": request, "seq": seq, "after_withdrawn": after })).collect::<Vec<_>>(),
            "rolled_again": undone.rolled_again.iter().map(|(seq, after)| json!({ "seq": seq, "after": after })).collect::<Vec<_>>(),
            "restored": undone.restored.iter().map(|(seq, by)| json!({ "seq": seq, "by": by })).collect::<Vec<_>>(),
            "amended": undone.amended.iter().map(|(seq, by)| {
                let (changed, outcome_changed) = undone.amendment(*by);
                json!({ "seq": seq, "by": by, "changed": changed, "outcome_changed": outcome_changed })
            }).collect::<Vec<_>>(),
        }),
    ))
}

/// Rolls the table undid or redid: how a GM fishing for a better die would show. Their dice count
/// in the groups all the same, since they were rolled.
#[derive(Default)]
struct Undone {
    retracted: u64,
    /// (seq, the retracted rolls it was made after)
    rolled_again: Vec<(Seq, Vec<Seq>)>,
    /// (seq, the retraction that restored it)
    restored: Vec<(Seq, Seq)>,
    /// (seq, the amendment in force for it): the same dice, other inputs (C-3)
    amended: Vec<(Seq, Seq)>,
    /// Every amendment in the log: what it changed, and whether the outcome changed.
    amendments: BTreeMap<Seq, (Vec<String>, bool)>,
}

impl Undone {
    fn note(&mut self, marks: &Marks<'_>, seq: Seq) {
        self.retracted += u64::from(marks.retracted.is_some());
        if !marks.rolled_again_after.is_empty() {
            self.rolled_again
                .push((seq, marks.rolled_again_after.to_vec()));
        }
        if let Some(by) = marks.restored_by {
            self.restored.push((seq, by));
        }
        if let Some(by) = marks.amended_by {
            self.amended.push((seq, by));
        }
    }

    /// What the amendment at `by` changed, and whether the outcome changed with it.
    fn amendment(&self, by: Seq) -> (&[String], bool) {
        self.amendments
            .get(&by)
            .map_or((&[], false), |(changed, outcome)| {
                (changed.as_slice(), *outcome)
            })
    }

    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.retracted > 0 {
            lines.push(format!(
                "Retracted: {} (their dice count above: they were rolled).",
                count(self.retracted, "roll", "rolls")
            ));
        }
        if !self.rolled_again.is_empty() {
            let each: Vec<String> = self
                .rolled_again
                .iter()
                .map(|(seq, after)| {
                    let after: Vec<String> = after.iter().map(|a| format!("#{a}")).collect();
                    format!("#{seq} after {}", after.join(" and "))
                })
                .collect();
            lines.push(format!(
                "Rolled after a roll was retracted (each roll in its session until the retraction, and the first roll after it): {}.",
                each.join(", ")
            ));
        }
        if !self.restored.is_empty() {
            let each: Vec<String> = self
                .restored
                .iter()
                .map(|(seq, by)| format!("#{seq} by #{by}"))
                .collect();
            lines.push(format!(
                "Restored after being retracted: {}.",
                each.join(", ")
            ));
        }
        if !self.amended.is_empty() {
            let each: Vec<String> = self
                .amended
                .iter()
                .map(|(seq, by)| {
                    let (changed, outcome_changed) = self.amendment(*by);
                    let outcome = match outcome_changed {
                        true => "the outcome changed",
                        false => "the outcome stood",
                    };
                    format!("#{seq} by #{by} ({}; {outcome})", changed.join(", "))
                })
                .collect();
            lines.push(format!(
                "Amended with their own dice (counted once, above): {}.",
                each.join(", ")
            ));
        }
        lines
    }
}

/// How many rolls were withdrawn from each player's phones (C-5), by whatever means: `player
/// withdraw`, `player unlink` or a replaced link.
fn withdrawals_by_player(state: &crate::state::CampaignState) -> BTreeMap<String, u64> {
    let mut by_player = BTreeMap::new();
    for request in state.players.requests.values() {
        if let crate::state::players::RequestStatus::Withdrawn { .. } = request.status
            && let Some(device) = state.players.devices.get(&request.device)
        {
            *by_player.entry(device.player.clone()).or_insert(0) += 1;
        }
    }
    by_player
}
