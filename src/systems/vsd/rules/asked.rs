//! Against the Darkmaster's rolls put to a player's phone, said in the rules' words (#47): whose
//! roll, for what, and what the dice are read against, worked out from the campaign as it stands.

use super::{Answered, Choice, VsdCommand};
use crate::systems::contract::port::View;
use crate::systems::vsd::Vsd;
use crate::words::Words;

/// What a roll the rules would now refuse says in place of what it is read against.
const NOT_NOW: &str = "the rules would refuse this roll now, so the GM may withdraw it";

/// `command` in a player's words, or `None` for a command that rolls no die.
pub fn words(command: &VsdCommand, state: &dyn View<Vsd>) -> Option<String> {
    // The name as the log records it; as typed when no one here goes by it.
    let named = |typed: &str| {
        state
            .someone(typed)
            .map_or(typed.to_string(), |c| c.name.to_string())
    };
    match command {
        VsdCommand::Save(save) => {
            let (answered, _) = save.cast.as_ref()?;
            let (spell, caster, difficulty) = match answered {
                Answered::Cast(cast) => (&cast.spell, &cast.caster, cast.save_difficulty),
                Answered::Held(held) => (&held.spell, &held.caster, held.save_difficulty),
                Answered::Struck { caster, struck } => {
                    (&struck.spell, caster, struck.save_difficulty)
                }
            };
            let saver = state.someone(&save.target);
            let name = saver.as_ref().map_or(save.target.as_str(), |c| c.name);
            let wsr = (saver.as_ref())
                .and_then(|c| c.mine)
                .map(|v| i64::from(v.wsr))
                .or(save.wsr)
                .unwrap_or(0);
            let mut words = format!(
                "{name}: save against {caster}'s {spell} (#{})",
                save.against
            );
            if state.is_retracted(save.against) {
                words.push_str(&format!(" — #{} was retracted: {NOT_NOW}", save.against));
                return Some(words);
            }
            if let Some(difficulty) = difficulty {
                words.push_str(&format!(
                    " — open-ended d100 {wsr:+} Willpower must beat {difficulty}"
                ));
            }
            Some(words)
        }
        VsdCommand::Cast(cast) => Some(format!(
            "{}: cast {} at {} — open-ended d100 on the casting table",
            named(&cast.character),
            cast.spell,
            cast.order.target
        )),
        // The bolt the rules would fire: the one named, or the only one owed (VSD-9, VSD-14).
        VsdCommand::Fire(firing) => {
            let caster = state.someone(&firing.character)?;
            Some(match caster.mine?.attack_owed(firing.cast) {
                Some(due) => format!(
                    "{}: fire {} at {} (cast #{}) — open-ended d100 attack, less the target's Defense",
                    caster.name, due.spell, due.target, due.cast_seq
                ),
                None => format!(
                    "{}: fire a bolt, but no bolt owed is that one now — {NOT_NOW}",
                    caster.name
                ),
            })
        }
        // A point of Drive buys the resonance roll again, 20 lower for each severing (VSD-11).
        VsdCommand::Sever(who) => {
            let caster = state.someone(&who.character)?;
            let open = caster.mine?.resonance_open.as_ref()?;
            let lower = 20 * (i64::from(open.severs) + 1);
            Some(format!(
                "{}: sever the thread of {}'s resonance (#{}) for a point of Drive — d100 on the \
                 resonance table again, {lower} lower",
                caster.name, open.spell, open.cast_seq
            ))
        }
        // The pending choice the picks resolve, as the rules find it (VSD-5, VSD-9, VSD-10).
        VsdCommand::Choose(choosing) => {
            let caster = state.someone(&choosing.character)?;
            let Some(pending) = caster.mine?.pending_offering(&choosing.choices) else {
                let typed: Vec<&str> = choosing.choices.iter().map(|c| c.word()).collect();
                return Some(format!(
                    "{}: choose {} — no choice waiting offers it now: {NOT_NOW}",
                    caster.name,
                    typed.join(", ")
                ));
            };
            let picks = (choosing.choices.iter())
                .map(|&choice| match (choice, &choosing.target) {
                    (Choice::OtherTarget, Some(target)) => {
                        format!("{}: {target}", choice.meaning())
                    }
                    _ if pending.by == "GM" => choice.word().to_string(),
                    _ => choice.meaning().to_string(),
                })
                .collect::<Vec<_>>()
                .join(", and ");
            let whose = if pending.by == "GM" {
                " the GM's pick:"
            } else {
                ""
            };
            let mut words = format!(
                "{}'s {} (cast #{}, {}):{whose} {picks}",
                caster.name, pending.spell, pending.cast_seq, pending.about
            );
            let picked = |choice| choosing.choices.contains(&choice);
            if picked(Choice::Resonance) {
                words.push_str(" — d100 on the resonance table");
            } else if picked(Choice::Scorched) {
                words.push_str(" — 1d10 rounds scorched");
            }
            Some(words)
        }
        _ => None,
    }
}
