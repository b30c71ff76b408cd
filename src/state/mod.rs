//! Campaign state, computed by replaying the log. Nothing here is stored as truth: [`CampaignState::apply`]
//! folds events in, and [`Replay`] feeds it a log while skipping retracted events.

mod characters;
mod clock;
pub mod fight;
pub mod players;
mod ports;
mod replay;

use crate::seq::Seq;
use crate::systems::contract::state::SystemFold;
use crate::systems::registry::{AnyState, Campaigns, Registered, SystemId, on_system};

pub use crate::deferred::Deferred;
pub use crate::dice::sealed::PendingSeal;
pub use crate::systems::contract::port::{ActiveSpell, Health};
pub use characters::Characters;
pub use fight::{Fight, FightSpan, Round, Turn};
pub use replay::{Replay, Revisions, replay_all, undone_by};

use crate::dice::Provenance;
use crate::event::Event;
use crate::sheet::Sheet;
use crate::time::GameTime;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignInfo {
    pub campaign_id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenSession {
    pub number: u32,
    pub entropy: String,
    pub started_seq: Seq,
}

/// What the rules make of a corrected sheet (C-1), recorded with the correction. Its two flags
/// are stored shapes, one per system that can end a character this way; a system says which is
/// its own ([`Registered::ended_by`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Corrected {
    /// A maximum reached 0 (ADG-C4).
    pub dies: bool,
    /// Body reached 0 or below (VSD-12).
    pub consumed: bool,
}

impl Corrected {
    /// Records that the correction ends (or not) a character in `system`'s state.
    fn end(&mut self, system: &AnyState, ended: bool) {
        let (dies, consumed) = on_system!(system, AnyState, |S, _state| S::correction_flags(ended));
        self.dies |= dies;
        self.consumed |= consumed;
    }

    /// Whether it ends a character in `system`'s state.
    fn ends(&self, system: &AnyState) -> bool {
        on_system!(system, AnyState, |S, _state| S::ended_by(
            self.dies,
            self.consumed
        ))
    }
}

/// Written by serde's derive; read by hand (`characters.rs`), as every append reads each one from
/// the newest snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Character {
    pub name: String,
    pub sheet: Sheet,
    /// `None` for a VsD character added without a health maximum.
    pub health: Option<Health>,
    pub added_seq: Seq,
    /// The state of the one rule system the character plays (under the system's key in JSON).
    #[serde(flatten)]
    pub system: AnyState,
    /// Spells in force on this character (VSD-8), whichever system the character plays: an Against
    /// the Darkmaster spell may be cast on anyone. By folded spell name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spells_on: BTreeMap<Folded, ActiveSpell>,
}

impl Character {
    /// Corrects the sheet as entered to `new` (C-1): each computed value moves by as much as its
    /// entered value, what play has done kept as amounts (wounds, exertion, losses, silver and
    /// Drive spent), so correcting back restores the character exactly. Returns what the rules make
    /// of the result; the caller records it (and applies the recorded outcome, not this one).
    pub fn correct(&mut self, new: &Sheet) -> Corrected {
        let mut outcome = Corrected::default();
        self.health = match (self.health, self.sheet.max_health(), new.max_health()) {
            (Some(h), Some(old), Some(entered)) => {
                let wounds = i64::from(h.max) - i64::from(h.current) + i64::from(h.unshown);
                let max = i64::from(h.max) + i64::from(entered) - i64::from(old);
                let ends_at_zero = on_system!(&self.system, AnyState, |S, _state| {
                    S::ENDS_AT_ZERO_MAX_HEALTH
                });
                outcome.end(&self.system, max <= 0 && ends_at_zero);
                let max = max.max(0);
                let current = (max - wounds).clamp(0, max);
                Some(Health {
                    max: u32::try_from(max).unwrap_or(u32::MAX),
                    current: u32::try_from(current).unwrap_or(0),
                    unshown: u32::try_from(wounds - (max - current)).unwrap_or(0),
                })
            }
            // A health track given to a character who had none starts full.
            (_, _, Some(entered)) => Some(Health::full(entered)),
            (_, _, None) => None,
        };
        let sheets = (&self.sheet, new);
        let ended = on_system!(&mut self.system, AnyState, |S, state| {
            // A sheet of another system: the rules refuse it, so the log never holds one.
            let (Some(old), Some(new)) = (S::sheet(sheets.0), S::sheet(sheets.1)) else {
                return outcome;
            };
            S::correct(state, old, new)
        });
        outcome.end(&self.system, ended);
        self.sheet = new.clone();
        outcome
    }

    /// The state of the system the character plays, if it is `S`.
    pub fn state<S: Registered>(&self) -> Option<&S::Character> {
        S::state(&self.system)
    }

    pub fn state_mut<S: Registered>(&mut self) -> Option<&mut S::Character> {
        S::state_mut(&mut self.system)
    }

    /// Dead as its system has it: an ADG maximum reached 0 (ADG-C4), a VsD caster consumed by Soul
    /// Damage (VSD-12). The dead take no further action.
    pub fn is_dead(&self) -> bool {
        on_system!(&self.system, AnyState, |S, state| S::is_dead(state))
    }

    /// How the character stands, where it is worth saying: "dead" as its system has it, "down" at
    /// 0 current health (the texts give VsD no health rules, so both systems say "down" there).
    pub fn status(&self) -> Option<&'static str> {
        if self.is_dead() {
            Some("dead")
        } else if self.health.is_some_and(|h| h.current == 0) {
            Some("down")
        } else {
            None
        }
    }

    /// Drops this character's effects, conditions and windows that have run out by `now`.
    fn forget_expired(&mut self, now: GameTime) {
        self.spells_on
            .retain(|_, a| a.until.is_none_or(|u| u > now));
        on_system!(&mut self.system, AnyState, |S, state| S::forget_expired(
            state, now
        ))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CampaignState {
    pub campaign: Option<CampaignInfo>,
    /// The seq of the last event replayed (retracted events count: they are in the log).
    pub head: Seq,
    pub clock: GameTime,
    pub open_session: Option<OpenSession>,
    /// The fight under way, counted by the round (T-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fight: Option<Fight>,
    /// What each character has done in the clock's round under way (T-3), in a fight or not: a
    /// fight begun mid-round counts what was done in it before.
    #[serde(default)]
    pub round: Round,
    /// Every fight along the log, from the event that began it to the one that ended it, so a
    /// past event is said in its fight's round (T-1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fights_along: Vec<FightSpan>,
    /// How many fights have started; the next one is this number + 1.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fights_started: u32,
    /// How many sessions have started; the next one gets this number + 1.
    pub sessions_started: u32,
    pub epoch: u32,
    pub epoch_commitment: String,
    /// The seq of the event that started the current epoch (0 for epoch 1).
    #[serde(default)]
    pub epoch_started_seq: Seq,
    /// The current epoch binds each seeded die to its command's roll number (the second
    /// derivation) rather than to its event's seq.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub epoch_counts_rolls: bool,
    /// How many commands of the current epoch have drawn seeded dice, retracted ones included: the
    /// next such command's roll number.
    #[serde(default)]
    pub epoch_rolls: u64,
    /// Keyed by the name folded to lowercase: names are unique regardless of case.
    pub characters: Characters,
    /// Retracted seq → reason.
    pub retracted: Deferred<BTreeMap<Seq, String>>,
    /// The events undone with what they answer (a choice or a save, with a retracted cast, or
    /// with a choice itself undone so): kept here so a later answer to one is undone too.
    /// Each → the event it answers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub undone_with_answered: BTreeMap<Seq, Seq>,
    /// Restored seq → the seq of the retraction of its retraction.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub restored: BTreeMap<Seq, Seq>,
    /// Amended seq → the seq of the amendment in force for it (C-3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub amended: BTreeMap<Seq, Seq>,
    /// Retracted rolls whose retraction no roll has followed yet, by seq.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub awaiting_reroll: Vec<Seq>,
    /// A roll made after a retracted roll → the seqs of the retracted rolls it follows (C-2): every
    /// roll after a retracted one in its session up to its retraction, and the first roll after
    /// the retraction. Computed by the replay from the log, never read from a retraction.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rerolls: BTreeMap<Seq, Vec<Seq>>,
    /// seq → its sealed dice still awaiting a reveal.
    pub sealed_pending: BTreeMap<Seq, Vec<PendingSeal>>,
    /// Ended epochs whose seeds wait for their pending sealed dice to be revealed (epochs with
    /// one seed).
    #[serde(default)]
    pub withheld_seeds: std::collections::BTreeSet<u32>,
    /// The commitment to the current epoch's second seed, the one its sealed seeded dice come
    /// from; `None` in an epoch begun before epochs had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch_sealed_commitment: Option<String>,
    /// Ended epochs whose first seed is published and whose second (for sealed dice) waits for
    /// their pending sealed dice to be revealed.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub sealed_seeds_waiting: std::collections::BTreeSet<u32>,
    /// What each rule system keeps for the whole campaign, under each system's key.
    pub systems: Campaigns,
    /// Players' devices and the rolls put to them (C-4, C-5).
    #[serde(default, skip_serializing_if = "players::Players::is_empty")]
    pub players: players::Players,
}

pub use crate::words::{Folded, fold_name};

impl CampaignState {
    /// Reads every part a snapshot left as text ([`Deferred`]) now: whether each reads as this
    /// build keeps it. A replay for a read needs it all; a write reads only what it uses.
    pub fn read_whole(&self) -> bool {
        self.characters.read_now() & self.retracted.read_now() & self.systems.read_now()
    }

    /// Whether a part a snapshot left as text did not read as this build keeps it when it was
    /// used: what was decided on it then is not to be recorded.
    pub fn has_unreadable_part(&self) -> bool {
        self.characters.has_unreadable()
            || self.retracted.is_unreadable()
            || self.systems.is_unreadable()
    }

    /// The character `name` names, in any case and with any spaces around it.
    pub fn character(&self, name: &str) -> Option<&Character> {
        self.characters.get(&crate::words::Folded::of(name))
    }

    /// Whether the seed that epoch `epoch`'s sealed dice come from is published: its second seed
    /// in an epoch that has one, else its one seed. Until then a sealed die of the epoch is secret.
    pub fn sealed_dice_seed_published(&self, epoch: u32) -> bool {
        epoch < self.epoch
            && !self.withheld_seeds.contains(&epoch)
            && !self.sealed_seeds_waiting.contains(&epoch)
    }

    /// Changes a character's current health (damage negative), kept within 0..=max.
    pub(crate) fn change_health(&mut self, name: &str, delta: i64) {
        if let Some(health) = self
            .characters
            .get_mut(&crate::words::Folded::of(name))
            .and_then(|c| c.health.as_mut())
        {
            // Healing closes the wounds a correction left unshown first (C-1).
            let mut delta = delta;
            if delta > 0 {
                let closed = health.unshown.min(u32::try_from(delta).unwrap_or(u32::MAX));
                health.unshown -= closed;
                delta -= i64::from(closed);
            }
            let next = (i64::from(health.current) + delta).clamp(0, i64::from(health.max));
            health.current = u32::try_from(next).unwrap_or(0);
        }
    }

    /// The characters `event` names, each once, in the order it names them: free text that names
    /// no character (a cast's target "the rat") is left out, and only these characters are read.
    pub fn characters_named(&self, event: &Event) -> Vec<&Character> {
        let mut named: Vec<&Character> = Vec::new();
        event.mentions(&mut |name| {
            if let Some(c) = self.character(name)
                && !named.iter().any(|n| n.name == c.name)
            {
                named.push(c);
            }
            false
        });
        named
    }

    /// The in-game time and session an event appended now is stamped with.
    pub fn stamp_for(&self, event: &Event) -> (GameTime, Option<u32>) {
        let session = if let Event::SessionStarted { number, .. } = event {
            Some(*number)
        } else {
            self.open_session.as_ref().map(|s| s.number)
        };
        (self.clock, session)
    }

    /// A changed sheet moves each computed value by what its entered value moved: health (current
    /// with maximum, within bounds), and the system's own values.
    fn apply_sheet_changed(&mut self, name: &str, new: &Sheet) {
        let Some(c) = self.characters.get_mut(&crate::words::Folded::of(name)) else {
            return;
        };
        c.health = match (c.health, c.sheet.max_health(), new.max_health()) {
            (Some(h), Some(old), Some(new)) => {
                let moved = i64::from(new) - i64::from(old);
                let max = u32::try_from((i64::from(h.max) + moved).max(0)).unwrap_or(u32::MAX);
                let current = (i64::from(h.current) + moved).clamp(0, i64::from(max));
                Some(Health {
                    max,
                    current: u32::try_from(current).unwrap_or(max),
                    // Wounds a correction left unshown stay open through a level gained.
                    unshown: h.unshown,
                })
            }
            // A health track given to a character who had none starts full.
            (_, _, Some(new)) => Some(Health::full(new)),
            (_, _, None) => None,
        };
        let sheets = (&c.sheet, new);
        on_system!(&mut c.system, AnyState, |S, state| {
            // A sheet of another system: the rules refuse it, so the log never holds one.
            let (Some(old), Some(new)) = (S::sheet(sheets.0), S::sheet(sheets.1)) else {
                return;
            };
            S::follow_sheet(state, old, new)
        });
        c.sheet = new.clone();
    }

    /// Folds one event into the state. Total: an event that no longer makes sense (a character
    /// since retracted, say) changes nothing rather than failing, because the log is fact.
    pub fn apply(&mut self, seq: Seq, event: &Event) {
        let clock_before = self.clock;
        self.apply_event(seq, event);
        if self.clock != clock_before {
            self.forget_expired();
        }
    }

    /// Drops effects, conditions and windows that have run out, so a long campaign's state holds
    /// only what is in force (and replay memory stays flat).
    fn forget_expired(&mut self) {
        for character in self.characters.values_mut() {
            character.forget_expired(self.clock);
        }
    }

    fn apply_event(&mut self, seq: Seq, event: &Event) {
        // The arms below name a system's event `event`; its turn in a fight is the whole event's.
        let whole = event;
        self.head = seq;
        self.note_sealed(seq, event);
        self.note_reroll(seq, event);
        self.count_rolls(event);
        match event {
            Event::CampaignCreated {
                campaign_id,
                name,
                seed_commitment,
                derivation,
                sealed_commitment,
                ..
            } => {
                self.campaign = Some(CampaignInfo {
                    campaign_id: campaign_id.clone(),
                    name: name.clone(),
                });
                self.epoch = 1;
                self.epoch_commitment = seed_commitment.clone();
                self.epoch_sealed_commitment = sealed_commitment.clone();
                self.epoch_counts_rolls = derivation.is_some();
                self.epoch_rolls = 0;
            }
            Event::CharacterAdded { name, sheet } => {
                let health = sheet.max_health().map(Health::full);
                let system = on_system!(sheet, Sheet, |S, sheet| S::wrap_state(S::new_character(
                    sheet
                )));
                let character = Character {
                    name: name.clone(),
                    sheet: sheet.clone(),
                    health,
                    added_seq: seq,
                    system,
                    spells_on: BTreeMap::new(),
                };
                self.characters
                    .insert(crate::words::Folded::of(name), character);
            }
            Event::SheetChanged {
                character, sheet, ..
            } => self.apply_sheet_changed(character, sheet),
            Event::SheetCorrected {
                character,
                sheet,
                dies,
                consumed,
                ..
            } => {
                if let Some(c) = self
                    .characters
                    .get_mut(&crate::words::Folded::of(character))
                {
                    // The recorded outcome stands; and should a retraction undone later bring back
                    // a loss from before it, the correction's result is what the rules make of it
                    // now (no living character at a maximum of 0).
                    let now = c.correct(sheet);
                    let recorded = Corrected {
                        dies: *dies,
                        consumed: *consumed,
                    };
                    if recorded.ends(&c.system) || now.ends(&c.system) {
                        on_system!(&mut c.system, AnyState, |S, state| S::end(state));
                    }
                }
            }
            Event::DamageTaken {
                character, amount, ..
            } => {
                self.change_health(character, -i64::from(*amount));
                let turn = self.round.turn_mut(self.clock, character);
                turn.damage = turn.damage.saturating_add(*amount);
            }
            Event::Healed {
                character, amount, ..
            } => self.change_health(character, i64::from(*amount)),
            Event::ClockAdvanced { by } => {
                self.clock = self.clock.after(*by);
            }
            Event::FightStarted { number, name } => {
                self.fights_started = self.fights_started.max(*number);
                // Should a retraction undone bring back a fight's start while another is on, the
                // later start stands in for both (the rules never start one over another).
                if let Some(open) = self.fights_along.last_mut() {
                    open.to.get_or_insert(seq);
                }
                self.fights_along.push(FightSpan {
                    number: *number,
                    name: name.clone(),
                    began: self.clock,
                    from: seq,
                    to: None,
                });
                self.fight = Some(Fight {
                    number: *number,
                    name: name.clone(),
                    began: self.clock,
                    started_seq: seq,
                });
            }
            Event::RoundBegan { .. } => {
                self.clock = self
                    .clock
                    .after(crate::time::GameDuration(crate::time::ROUND_SECONDS));
            }
            Event::FightEnded { .. } => {
                self.clock = self
                    .clock
                    .after(crate::time::GameDuration(crate::time::ROUND_SECONDS));
                self.fight = None;
                if let Some(open) = self.fights_along.last_mut() {
                    open.to.get_or_insert(seq);
                }
            }
            Event::SessionStarted { number, entropy } => {
                self.sessions_started = self.sessions_started.max(*number);
                self.open_session = Some(OpenSession {
                    number: *number,
                    entropy: entropy.clone(),
                    started_seq: seq,
                });
            }
            Event::SessionEnded { .. } => self.open_session = None,
            Event::DiceRolled { .. } => {}
            Event::SealedRevealed { seq: revealed, .. } => {
                self.sealed_pending.remove(revealed);
            }
            Event::Retracted {
                seq: target,
                reason,
                restores,
                ..
            } => {
                self.retracted.insert(*target, reason.clone());
                if let Some(restored) = restores {
                    self.restored.insert(*restored, seq);
                }
            }
            // Replay puts the amendment's event in its original's place (see [`Replay`]); here it
            // is only noted.
            Event::Amended { seq: original, .. } => {
                self.amended.insert(*original, seq);
            }
            Event::SeedRevealed { epoch, .. } => {
                self.withheld_seeds.remove(epoch);
                // The epoch ends here: its second seed waits until its sealed dice are revealed
                // (published in the same write when none waits).
                if *epoch == self.epoch && self.epoch_sealed_commitment.is_some() {
                    self.sealed_seeds_waiting.insert(*epoch);
                }
            }
            Event::SealedSeedRevealed { epoch, .. } => {
                self.sealed_seeds_waiting.remove(epoch);
            }
            Event::SeedWithheld { epoch, .. } => {
                self.withheld_seeds.insert(*epoch);
            }
            Event::EpochStarted {
                epoch,
                seed_commitment,
                derivation,
                sealed_commitment,
            } => {
                self.epoch = *epoch;
                self.epoch_commitment = seed_commitment.clone();
                self.epoch_sealed_commitment = sealed_commitment.clone();
                self.epoch_started_seq = seq;
                self.epoch_counts_rolls = derivation.is_some();
                self.epoch_rolls = 0;
            }

            Event::Rested(rest) => {
                self.clock = self.clock.after(rest.by);
                for &system in SystemId::ALL {
                    on_system!(system, SystemId, |S| {
                        for share in S::rest_shares(rest) {
                            S::apply_rest(self, share);
                        }
                    });
                }
            }

            Event::DowntimeTaken(downtime) => {
                self.clock = self.clock.after(downtime.by);
                for spent in &downtime.characters {
                    self.change_health(&spent.character, i64::from(spent.healed));
                    let Some(system) = self.character(&spent.character).map(|c| c.system.system())
                    else {
                        continue;
                    };
                    on_system!(system, SystemId, |S| S::apply_downtime(self, spent));
                }
            }

            Event::DeviceLinked { .. }
            | Event::DeviceUnlinked { .. }
            | Event::RollRequested { .. }
            | Event::RollAnswered { .. }
            | Event::RollWithdrawn { .. }
            | Event::ChoiceAnswered { .. } => self.players.apply(seq, event),

            Event::System(event) => {
                on_system!(event, AnyEvent, |S, event| S::apply(self, seq, event));
                for action in whole.actions() {
                    let turn = self.round.turn_mut(self.clock, action.who);
                    turn.halves += action.halves();
                    turn.did.push(action.what);
                    turn.acts_last |= action.last;
                }
            }
        }
    }
}

impl CampaignState {
    /// Marks `event`, when it rolls dice, as rolled after the retracted rolls awaiting one (C-2):
    /// whatever it rolls and whoever it names, since a table can retract one roll and make it again
    /// under other words (a free roll for "Aldric climbs" in place of one for Aldric). The mark names
    /// them all and settles them.
    fn note_reroll(&mut self, seq: Seq, event: &Event) {
        if !self.awaiting_reroll.is_empty() && !event.dice().is_empty() {
            let awaiting = std::mem::take(&mut self.awaiting_reroll);
            self.mark_reroll(seq, awaiting);
        }
    }

    /// Marks the roll at `seq` as made after the retracted rolls `after`.
    fn mark_reroll(&mut self, seq: Seq, after: impl IntoIterator<Item = Seq>) {
        let marks = self.rerolls.entry(seq).or_default();
        marks.extend(after);
        marks.sort_unstable();
        marks.dedup();
    }

    /// Counts the command of `event` among the epoch's rolls when its seeded dice carry a roll
    /// number: the next command's is one more than the highest seen (a command's events share
    /// one). Retracted events count too: their dice were rolled, and a roll number is never reused.
    fn count_rolls(&mut self, event: &Event) {
        let epoch = self.epoch;
        if let Some(roll) = event
            .dice()
            .iter()
            .filter(|d| d.provenance.seeded_epoch() == Some(epoch))
            .filter_map(|d| d.provenance.roll())
            .max()
        {
            self.epoch_rolls = self.epoch_rolls.max(roll.saturating_add(1));
        }
    }

    /// Takes in an event that a retraction undid, in its place in seq order: it changes nothing but
    /// the head and what [`Self::note_undone`] keeps.
    pub fn pass_over(&mut self, seq: Seq, event: &Event) {
        self.head = seq;
        self.note_undone(seq, event);
    }

    /// What a retracted event still leaves in the record, since it did happen at the table: a
    /// roll made after a retracted one is still a roll made again, and a retraction undone later
    /// still made the next roll like its target a roll made again.
    fn note_undone(&mut self, seq: Seq, event: &Event) {
        // A sealed roll retracted was still rolled: it stays to be revealed, so a GM who rolled
        // again cannot keep the first value hidden for good (and its seed waits for it).
        self.note_sealed(seq, event);
        self.note_reroll(seq, event);
        self.count_rolls(event);
    }

    /// Notes the sealed dice of `event` as awaiting a reveal.
    fn note_sealed(&mut self, seq: Seq, event: &Event) {
        let sealed: Vec<PendingSeal> = event
            .dice()
            .iter()
            .filter_map(|d| match &d.provenance {
                Provenance::Sealed { commitment, .. } => Some(PendingSeal {
                    n: d.n,
                    commitment: commitment.clone(),
                    epoch: d.provenance.seeded_epoch(),
                }),
                _ => None,
            })
            .collect();
        if !sealed.is_empty() {
            self.sealed_pending.insert(seq, sealed);
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
