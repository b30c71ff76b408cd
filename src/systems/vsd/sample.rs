//! How Against the Darkmaster's characters play in the generator's long campaigns.

use super::Vsd;
use super::rules::{
    CastOrder, Casting, Choice, Choosing, Concentration, NewSpell, SpellKind, SpellLearning,
    VsdCommand,
};
use crate::systems::contract::port::View;
use crate::systems::contract::sample::{Sampled, SystemSample};
use crate::systems::vsd::sheet::{Lore, VsdSheet};
use crate::time::GameDuration;
use rand::rngs::StdRng;

impl SystemSample for Vsd {
    const SAMPLE_NAME: &'static str = "Magus";

    fn sample_sheet(i: usize) -> VsdSheet {
        VsdSheet {
            level: 1 + (i as u32 % 8),
            vocation: if i % 4 == 1 {
                "wizard".into()
            } else {
                "animist".into()
            },
            lores: vec![Lore {
                name: "Elementalism".into(),
                bonus: 50,
                ranks: 8,
            }],
            mp: 30,
            drive: 10,
            body: 60,
            wsr: 20,
            defense: 10,
            health: Some(30),
        }
    }

    /// A ward to cast on themselves.
    fn sample_start(name: &str) -> Vec<VsdCommand> {
        let ward = NewSpell {
            name: "Ward".into(),
            lore: "Elementalism".into(),
            weave: 1,
            kind: SpellKind::Defensive,
            tags: vec![],
            instantaneous: false,
            save: false,
            attack: None,
            mp: None,
            duration: Some(GameDuration(600)),
        };
        vec![VsdCommand::Learn(SpellLearning {
            character: name.to_string(),
            spell: ward,
        })]
    }

    /// A choice the last cast left pending first; otherwise concentrating, or casting the ward.
    fn sample_step(state: &dyn View<Vsd>, who: &str, roll: u32, _rng: &mut StdRng) -> Sampled<Vsd> {
        let own = Sampled::Own;
        let pending = state
            .someone(who)
            .and_then(|c| c.mine)
            .and_then(|v| v.pending.first().cloned());
        match pending {
            Some(p) => own(VsdCommand::Choose(Choosing {
                character: who.to_string(),
                choices: p
                    .options
                    .iter()
                    .take(p.pick)
                    .copied()
                    .collect::<Vec<Choice>>(),
                // Struck instead, the failed spell falls on someone nearby.
                target: p
                    .options
                    .iter()
                    .take(p.pick)
                    .any(|c| *c == Choice::OtherTarget)
                    .then(|| "someone nearby".to_string()),
            })),
            None if roll.is_multiple_of(3) => own(VsdCommand::Concentrate(Concentration {
                character: who.to_string(),
                spell: "Ward".into(),
            })),
            None => own(VsdCommand::Cast(Casting {
                character: who.to_string(),
                spell: "Ward".into(),
                order: CastOrder {
                    target: who.to_string(),
                    ..CastOrder::default()
                },
            })),
        }
    }
}
