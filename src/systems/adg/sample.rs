//! How A Dungeon Game's characters play in the generator's long campaigns.

use super::Adg;
use super::event::EffectKind;
use super::rules::{
    AdgCommand, Attribute, CastOrder, Casting, Exertion, Learning, Pay, RitualKind, Scribing,
    ScrollReading,
};
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::contract::port::View;
use crate::systems::contract::rules::Who;
use crate::systems::contract::sample::{Sampled, SystemSample};
use crate::time::GameDuration;
use rand::Rng;
use rand::rngs::StdRng;

impl SystemSample for Adg {
    const SAMPLE_NAME: &'static str = "Adept";

    fn sample_sheet(i: usize) -> AdgSheet {
        AdgSheet {
            level: 1 + (i as u32 % 10),
            agility: 12,
            brawn: 11,
            cunning: 16,
            health: 30,
            silver: 100_000,
            knows: Vec::new(),
        }
    }

    /// A Phrase to cast and a Ceremony to write.
    fn sample_start(name: &str) -> Vec<AdgCommand> {
        [
            ("Concealing Darkness", RitualKind::Phrase),
            ("Calling Moon", RitualKind::Ceremony),
        ]
        .into_iter()
        .map(|(ritual, kind)| {
            AdgCommand::Learn(Learning {
                character: name.to_string(),
                ritual: ritual.into(),
                kind: Some(kind),
                spell_level: None,
                cast_time: None,
                duration: None,
                pay: Pay::Health,
                exert: true,
            })
        })
        .collect()
    }

    fn sample_step(state: &dyn View<Adg>, who: &str, roll: u32, rng: &mut StdRng) -> Sampled<Adg> {
        let own = Sampled::Own;
        let held = || {
            let scrolls = state.campaign().scrolls.values();
            scrolls.filter(move |s| s.holder == who)
        };
        match roll {
            // Two weeks: one writing a scroll of a ritual the adept knows, when there is one and
            // they hold few scrolls (nobody hoards hundreds), one resting. Not a Ceremony: the
            // generator reads scrolls without the GM's secrets, so a sealed one would never be
            // read and would pile up.
            36 => Sampled::Downtime {
                weeks: 2,
                own: state
                    .someone(who)
                    .and_then(|c| c.mine)
                    .filter(|_| held().count() < 3)
                    .and_then(|a| a.known.values().find(|k| k.kind != RitualKind::Ceremony))
                    .map(|known| Scribing {
                        character: who.to_string(),
                        ritual: known.name.clone(),
                        level: 1,
                        effect: "wards one door".into(),
                        effect_roll: None,
                        pre_exert: 0,
                        ongoing: false,
                    }),
            },
            37..=38 => own(AdgCommand::WriteScroll(Scribing {
                character: who.to_string(),
                ritual: "Concealing Darkness".into(),
                level: 1,
                effect: "hides one person".into(),
                effect_roll: Some(EffectKind::Healing),
                pre_exert: 0,
                ongoing: false,
            })),
            39..=41 => match held().next().map(|s| s.id) {
                Some(scroll) => own(AdgCommand::ReadScroll(ScrollReading {
                    character: who.to_string(),
                    scroll,
                    in_combat: false,
                    took_damage: rng.random_bool(0.2),
                    target: None,
                    sealed: vec![],
                })),
                // Discovering a new ritual is a rare find, far rarer than looking for a scroll.
                None if rng.random_range(0..20) == 0 => own(AdgCommand::RollRitual(Who {
                    character: who.to_string(),
                })),
                None => Sampled::Wait(GameDuration(60)),
            },
            42 => own(AdgCommand::Exert(Exertion {
                character: who.to_string(),
                attribute: Attribute::Agility,
                amount: 1,
                reason: "a climb".into(),
            })),
            _ => own(AdgCommand::Cast(Casting {
                character: who.to_string(),
                ritual: "Concealing Darkness".into(),
                order: CastOrder {
                    exert: true,
                    ..Default::default()
                },
            })),
        }
    }
}
