//! Dice: every roll is evidence. A die is drawn from one of three sources and recorded with its
//! provenance inside the event that used it (README, "Dice: every roll is evidence").

pub mod expr;
pub mod fairness;
pub mod open_ended;
mod provenance_read;
pub mod sealed;

use crate::ids::RequestId;
use crate::seq::Seq;
use rand::RngCore;
use serde::{Deserialize, Serialize};

pub use expr::{DiceExpr, MAX_SIDES};
pub use fairness::DiePosition;
pub use sealed::SealedSecret;

/// One die as the log records it: always as a JSON object (see [`crate::text::ReadFields`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Die {
    /// Index in the command's draw order, from 0: the order `--rolls` values are consumed in, and the
    /// `n` of the fairness derivation.
    pub n: u32,
    /// What the die was for, in words ("free roll 2d6+3", "open-ended d100, rolled again").
    pub purpose: String,
    pub sides: u32,
    /// The face; absent while the die is sealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    pub provenance: Provenance,
}

crate::text::read_only_as_objects! {
    Die: "a die written as a group of fields",
    SealedOrigin: "a sealed die's origin written as a group of fields",
    Witness: "a witness written as a group of fields",
}

/// Where a die's value came from. Written by serde's derive, `source` first; read by hand
/// (`provenance_read.rs`), as every die of a replay is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum Provenance {
    /// A physical die at the table, typed in with `--rolls`.
    Entered,
    /// Derived from the epoch's secret seed; checkable once the seed is revealed.
    Seeded {
        epoch: u32,
        /// The command's roll number in its epoch, in epochs whose dice are bound to it (the second
        /// derivation); absent in epochs bound to the seq.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u64>,
        /// Entropy given for this command with `--player-entropy`, outside a session (inside one the
        /// session's entropy is used, and found in the log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<Witness>,
    },
    /// Rolled by a player's device, or witnessed by one: derived from the secret whose hash the
    /// request `request` recorded and the bytes the device sent after it saw the request, both
    /// published by the answer (README, "Dice a player's phone rolls").
    Device {
        request: RequestId,
        /// The GM's roll, witnessed by the device rather than rolled by its player (C-6).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        witnessed: bool,
    },
    /// A GM's secret roll: only the commitment is public until it is revealed.
    Sealed {
        commitment: String,
        /// Who chose the value. Absent on sealed dice recorded before grimoire said (they were
        /// rolled by grimoire from the operating system's randomness).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        origin: Option<SealedOrigin>,
    },
}

/// Where a sealed value came from. Always a JSON object (see [`crate::text::ReadFields`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", tag = "source", rename_all = "snake_case")]
pub enum SealedOrigin {
    /// The GM typed it with `--rolls`: it proves nothing about fairness.
    Entered,
    /// Rolled by grimoire from the epoch's seed, like a seeded die; once revealed and the seed is
    /// published, anyone can check the GM did not choose it.
    Seeded {
        epoch: u32,
        /// As [`Provenance::Seeded`]'s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<Witness>,
    },
}

/// Entropy a person gave for one command's seeded dice outside a session, and who typed it. Entropy
/// typed by the GM proves nothing (the GM holds the seed and could try texts until one suits); typed
/// by a player, it binds the dice as a session's entropy does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Witness {
    pub entropy: String,
    pub by: String,
}

impl Provenance {
    /// The entropy a seeded die was derived with, given the session's (`session_entropy`): its own
    /// witness's when it has one.
    pub fn entropy<'a>(&'a self, session_entropy: &'a str) -> &'a str {
        match self {
            Provenance::Seeded {
                witness: Some(w), ..
            }
            | Provenance::Sealed {
                origin:
                    Some(SealedOrigin::Seeded {
                        witness: Some(w), ..
                    }),
                ..
            } => &w.entropy,
            _ => session_entropy,
        }
    }

    /// The roll number a seeded die (sealed or not) is bound to, in an epoch of the second
    /// derivation.
    pub fn roll(&self) -> Option<u64> {
        match self {
            Provenance::Seeded { roll, .. }
            | Provenance::Sealed {
                origin: Some(SealedOrigin::Seeded { roll, .. }),
                ..
            } => *roll,
            _ => None,
        }
    }

    /// The epoch of a die derived from an epoch's seed, sealed or not.
    pub fn seeded_epoch(&self) -> Option<u32> {
        match self {
            Provenance::Seeded { epoch, .. }
            | Provenance::Sealed {
                origin: Some(SealedOrigin::Seeded { epoch, .. }),
                ..
            } => Some(*epoch),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error(
        "the dice entered ran out: value number {} would be the {next_die} for {purpose}{}",
        given + 1,
        if *sealed { " (a sealed die)" } else { "" }
    )]
    TooFew {
        given: usize,
        next_die: String,
        purpose: String,
        /// The die's sides, for a front end that asks for it.
        sides: u32,
        /// The die is sealed: a front end asking for it must not echo it.
        sealed: bool,
    },
    #[error(
        "{} entered, but the command drew {}",
        crate::words::count(*given as u64, "dice value was", "dice values were"),
        if *used == 0 { "none".to_string() } else { format!("only {}", crate::words::count(*used as u64, "die", "dice")) }
    )]
    TooMany { given: usize, used: usize },
    /// The faces typed in one answer for a sealed die are not one whole result of it (an
    /// open-ended roll that needed more faces, or was over before the last): said in one message
    /// whatever the faces, since the reason would tell them.
    #[error("the faces typed for the sealed die are not one roll of it; nothing was recorded")]
    NotOneSealedRoll,
    #[error(
        "the dice value {value} (number {position} entered) cannot come from a d{sides} ({purpose}); it must be 1 to {sides}"
    )]
    OutOfRange {
        position: usize,
        value: u32,
        sides: u32,
        purpose: String,
    },
    #[error(
        "this campaign file has no seed for dice epoch {epoch} (it was imported without secrets), so grimoire cannot roll for you"
    )]
    NoSeed { epoch: u32 },
    /// The epoch's sealed dice come from a second seed, which this file does not keep (its row was
    /// removed) while it keeps the first.
    #[error(
        "this campaign file has no seed for dice epoch {epoch}'s sealed dice, so grimoire cannot roll a sealed die for you"
    )]
    NoSealedSeed { epoch: u32 },
    /// An amendment's command wants a die its original did not draw (C-3).
    #[error(
        "the amended command needs {wanted} as die {position}, but {}; {}",
        match drawn { Some(drawn) => format!("the original drew {drawn} there"), None => "the original drew no more dice".to_string() },
        match only_sealing { true => "give the command sealed or not, as the original was rolled", false => "an amendment keeps the original's dice, so retract the original and record it again instead" }
    )]
    NotTheOriginals {
        position: u32,
        wanted: String,
        drawn: Option<String>,
        /// The die there is the one wanted, but for being sealed or not.
        only_sealing: bool,
    },
    /// A sealed die cannot come from a player's device: the player would see what the GM keeps
    /// secret.
    #[error(
        "the command seals a die, and a die a player's device rolls is seen on that device; roll it at the GM's terminal"
    )]
    SealedOnDevice,
    #[error(
        "session {session} began before dice epoch {epoch}'s seed was committed, so its entropy could have been known when the seed was chosen; end the session and start a new one before grimoire rolls again"
    )]
    StaleEntropy { session: u32, epoch: u32 },
}

/// The seeded source's fixed inputs for one command.
#[derive(Debug, Clone)]
pub struct SeedContext {
    pub seed: [u8; 32],
    /// The seed the command's sealed dice come from: the epoch's second seed in an epoch that has
    /// one (so that publishing `seed` opens none of them), else `seed` itself. `None` when the
    /// epoch has a second seed the file does not keep: a sealed draw is then refused.
    pub sealed_seed: Option<[u8; 32]>,
    pub campaign_id: String,
    pub epoch: u32,
    /// The seq of the first event the command will append, which holds its dice unless the rules
    /// say otherwise ([`Dice::hold_in_event`]).
    pub seq: Seq,
    pub entropy: String,
    /// Who gave `entropy`, when it was given for this command rather than by the open session.
    pub witness_by: Option<String>,
    /// The command's roll number in an epoch of the second derivation: every seeded die it draws,
    /// in any of its events, is bound to it (and to its own `n`).
    pub roll: Option<u64>,
}

impl SeedContext {
    /// Die `n`, held in the command's event `event` (0: the first).
    fn position(&self, event: u32, n: u32) -> DiePosition<'_> {
        DiePosition {
            campaign_id: &self.campaign_id,
            epoch: self.epoch,
            seq: self.seq + u64::from(event),
            roll: self.roll,
            n,
            entropy: &self.entropy,
        }
    }

    fn witness(&self) -> Option<Witness> {
        self.witness_by.as_ref().map(|by| Witness {
            entropy: self.entropy.clone(),
            by: by.clone(),
        })
    }
}

enum Source {
    Seeded(SeedContext),
    Entered {
        values: Vec<u32>,
        /// Sealed dice typed as one answer each at a prompt (`--rolls ask`): where the answer
        /// starts in `values` → how many faces it gave. Such a die takes exactly those faces.
        sealed_answers: std::collections::BTreeMap<usize, usize>,
    },
    /// No seeded die may be drawn: every draw fails with this error.
    Refused(DiceError),
    /// A roll put to a player's device, answered: each die from the GM side's secret `g` and the
    /// device's bytes.
    Device {
        g: [u8; 32],
        request: RequestId,
        contribution: Vec<u8>,
        witnessed: bool,
    },
    /// An amended event's own dice, drawn again in order (C-3); a sealed one's faces come from
    /// its reveal (by `n`).
    Replayed {
        dice: Vec<Die>,
        faces: std::collections::BTreeMap<u32, Vec<u32>>,
    },
}

/// The dice a command draws from. Rules receive it as a parameter, so tests pin every value.
pub struct Dice<'r> {
    source: Source,
    /// Entries recorded so far: the next one's `n`.
    drawn: u32,
    /// `--rolls` values used so far (a sealed chain uses several for one entry).
    consumed: usize,
    /// Which of the command's events the next dice are stored in (0: the first).
    event: u32,
    /// Randomness for sealed nonces (and a sealed die's value when grimoire rolls it).
    secret_rng: &'r mut dyn RngCore,
    sealed: Vec<SealedSecret>,
}

impl<'r> Dice<'r> {
    pub fn seeded(context: SeedContext, secret_rng: &'r mut dyn RngCore) -> Self {
        Self::new(Source::Seeded(context), secret_rng)
    }

    /// Physical dice typed at the table, consumed in draw order.
    pub fn entered(values: Vec<u32>, secret_rng: &'r mut dyn RngCore) -> Self {
        Self::answered(values, Default::default(), secret_rng)
    }

    /// Physical dice asked for one at a time; each sealed die's faces were typed as one answer
    /// (start in `values` → count), which must be exactly one whole result of that die.
    pub fn answered(
        values: Vec<u32>,
        sealed_answers: std::collections::BTreeMap<usize, usize>,
        secret_rng: &'r mut dyn RngCore,
    ) -> Self {
        Self::new(
            Source::Entered {
                values,
                sealed_answers,
            },
            secret_rng,
        )
    }

    /// The dice of a roll put to a player's device (`request`), from the GM side's secret `g` and
    /// the bytes the device sent.
    pub fn device(
        g: [u8; 32],
        request: RequestId,
        contribution: Vec<u8>,
        witnessed: bool,
        secret_rng: &'r mut dyn RngCore,
    ) -> Self {
        Self::new(
            Source::Device {
                g,
                request,
                contribution,
                witnessed,
            },
            secret_rng,
        )
    }

    /// For a campaign file that lacks the current epoch's seed: any draw is refused.
    pub fn without_seed(epoch: u32, secret_rng: &'r mut dyn RngCore) -> Self {
        Self::refusing(DiceError::NoSeed { epoch }, secret_rng)
    }

    /// Dice that refuse every seeded draw with `why` (entered dice are another source).
    pub fn refusing(why: DiceError, secret_rng: &'r mut dyn RngCore) -> Self {
        Self::new(Source::Refused(why), secret_rng)
    }

    /// The dice an event recorded, drawn again in the same order for its amendment: each draw
    /// must want the die recorded there (its sides, sealed or not), and gets it as recorded.
    /// `faces` holds each revealed sealed die's faces by its `n`.
    pub fn replaying(
        dice: Vec<Die>,
        faces: std::collections::BTreeMap<u32, Vec<u32>>,
        secret_rng: &'r mut dyn RngCore,
    ) -> Self {
        Self::new(Source::Replayed { dice, faces }, secret_rng)
    }

    /// How many of the replayed dice no draw has taken (0 for any other source).
    pub fn left_unused(&self) -> usize {
        match &self.source {
            Source::Replayed { dice, .. } => dice.len().saturating_sub(self.drawn as usize),
            _ => 0,
        }
    }

    /// The recorded die the next draw takes, when it is a die of `sides`, sealed or not as wanted.
    fn replayed(&self, sides: u32, sealed: bool) -> Result<Die, DiceError> {
        let Source::Replayed { dice, .. } = &self.source else {
            return Err(DiceError::NoSeed { epoch: 0 });
        };
        let words = |sides: u32, sealed: bool| match sealed {
            true => format!("a sealed d{sides}"),
            false => format!("a d{sides}"),
        };
        let recorded = dice.get(self.drawn as usize);
        match recorded {
            Some(die)
                if die.sides == sides
                    && matches!(die.provenance, Provenance::Sealed { .. }) == sealed =>
            {
                Ok(die.clone())
            }
            _ => Err(DiceError::NotTheOriginals {
                position: self.drawn + 1,
                wanted: words(sides, sealed),
                drawn: recorded.map(|die| {
                    words(
                        die.sides,
                        matches!(die.provenance, Provenance::Sealed { .. }),
                    )
                }),
                only_sealing: recorded.is_some_and(|die| die.sides == sides),
            }),
        }
    }

    fn new(source: Source, secret_rng: &'r mut dyn RngCore) -> Self {
        Dice {
            source,
            drawn: 0,
            consumed: 0,
            event: 0,
            secret_rng,
            sealed: Vec::new(),
        }
    }

    /// The dice drawn from now on are stored in the command's event `index` (0: the first), for a
    /// command that records several events with dice of their own (a downtime span's scrolls): a
    /// seeded die's derivation then takes that event's seq, and a sealed die's secret is filed
    /// under it. The draw order (`n`) runs on across the events.
    pub fn hold_in_event(&mut self, index: u32) {
        self.event = index;
    }

    /// Rolls one public die.
    pub fn roll(&mut self, sides: u32, purpose: &str) -> Result<Die, DiceError> {
        if let Source::Replayed { .. } = &self.source {
            let die = self.replayed(sides, false)?;
            self.drawn += 1;
            return Ok(Die {
                purpose: purpose.to_string(),
                ..die
            });
        }
        let (value, provenance) = self.draw(sides, purpose)?;
        Ok(self.record(sides, purpose, Some(value), provenance))
    }

    /// Rolls one sealed die: the returned record hides the value, which stays in the GM's secrets.
    /// The value is returned beside it because rules may need it now.
    pub fn roll_sealed(&mut self, sides: u32, purpose: &str) -> Result<(Die, u32), DiceError> {
        let (die, faces) = self.roll_sealed_chain(sides, purpose, |_| false)?;
        Ok((die, faces.first().copied().unwrap_or_default()))
    }

    /// Rolls one sealed result: a die, then more while `another(faces so far)` says so (an
    /// open-ended chain). The record is one entry in the draw order with one commitment, so it shows
    /// nothing that depends on the faces, not even how many there were. Seeded faces follow the
    /// fairness derivation (part k of entry n), so once revealed and the seed is published anyone
    /// can check the GM did not choose them; entered ones are marked as the GM's.
    pub fn roll_sealed_chain(
        &mut self,
        sides: u32,
        purpose: &str,
        another: impl Fn(&[u32]) -> bool,
    ) -> Result<(Die, Vec<u32>), DiceError> {
        let n = self.drawn;
        if let Source::Replayed { faces, .. } = &self.source {
            let mut die = self.replayed(sides, true)?;
            // Revealed before it may be amended; and its faces must be one whole result again.
            let faces = faces.get(&die.n).cloned().unwrap_or_default();
            let whole = !faces.is_empty()
                && (1..=faces.len()).all(|k| another(&faces[..k]) == (k < faces.len()));
            if !whole {
                return Err(DiceError::NotOneSealedRoll);
            }
            die.purpose = purpose.to_string();
            self.drawn += 1;
            return Ok((die, faces));
        }
        let mut faces = Vec::new();
        // A sealed die typed as one answer takes exactly its faces, and they must be one result.
        let answer = match &self.source {
            Source::Entered { sealed_answers, .. } => sealed_answers.get(&self.consumed).copied(),
            Source::Seeded(_)
            | Source::Refused(_)
            | Source::Replayed { .. }
            | Source::Device { .. } => None,
        };
        loop {
            let part = u32::try_from(faces.len()).unwrap_or(u32::MAX);
            let face = match &self.source {
                Source::Seeded(ctx) => {
                    let seed = ctx
                        .sealed_seed
                        .as_ref()
                        .ok_or(DiceError::NoSealedSeed { epoch: ctx.epoch })?;
                    fairness::seeded_part(seed, &ctx.position(self.event, n), part, sides)
                }
                Source::Entered { .. } => self.take_entered(sides, purpose, true)?,
                Source::Refused(why) => return Err(why.clone()),
                Source::Device { .. } => return Err(DiceError::SealedOnDevice),
                Source::Replayed { .. } => unreachable!("drawn whole above"),
            };
            faces.push(face);
            let more = another(&faces);
            match answer {
                Some(count) if more != (faces.len() < count) => {
                    return Err(DiceError::NotOneSealedRoll);
                }
                _ if !more => break,
                _ => {}
            }
        }
        let origin = match &self.source {
            Source::Seeded(ctx) => SealedOrigin::Seeded {
                epoch: ctx.epoch,
                roll: ctx.roll,
                witness: ctx.witness(),
            },
            Source::Entered { .. }
            | Source::Refused(_)
            | Source::Replayed { .. }
            | Source::Device { .. } => SealedOrigin::Entered,
        };
        let secret = SealedSecret {
            event: self.event,
            ..SealedSecret::seal_faces(n, &faces, self.secret_rng)
        };
        let commitment = secret.commitment().unwrap_or_default();
        self.sealed.push(secret);
        let provenance = Provenance::Sealed {
            commitment,
            origin: Some(origin),
        };
        Ok((self.record(sides, purpose, None, provenance), faces))
    }

    fn draw(&mut self, sides: u32, purpose: &str) -> Result<(u32, Provenance), DiceError> {
        match &self.source {
            Source::Seeded(ctx) => Ok((
                fairness::seeded_face(&ctx.seed, &ctx.position(self.event, self.drawn), sides),
                Provenance::Seeded {
                    epoch: ctx.epoch,
                    roll: ctx.roll,
                    witness: ctx.witness(),
                },
            )),
            Source::Entered { .. } => Ok((
                self.take_entered(sides, purpose, false)?,
                Provenance::Entered,
            )),
            Source::Device {
                g,
                request,
                contribution,
                witnessed,
            } => Ok((
                fairness::device_part(g, *request, contribution, self.drawn, 0, sides),
                Provenance::Device {
                    request: *request,
                    witnessed: *witnessed,
                },
            )),
            Source::Refused(why) => Err(why.clone()),
            Source::Replayed { .. } => unreachable!("replayed dice are taken whole by `roll`"),
        }
    }

    /// The next `--rolls` value, checked against its die (`sealed`: a sealed die's face).
    fn take_entered(&mut self, sides: u32, purpose: &str, sealed: bool) -> Result<u32, DiceError> {
        let Source::Entered { values, .. } = &self.source else {
            return Err(DiceError::NoSeed { epoch: 0 });
        };
        let value = *values.get(self.consumed).ok_or_else(|| DiceError::TooFew {
            given: values.len(),
            next_die: format!("d{sides}"),
            purpose: purpose.to_string(),
            sides,
            sealed,
        })?;
        if !(1..=sides).contains(&value) {
            return Err(DiceError::OutOfRange {
                position: self.consumed + 1,
                value,
                sides,
                purpose: purpose.to_string(),
            });
        }
        self.consumed += 1;
        Ok(value)
    }

    fn record(
        &mut self,
        sides: u32,
        purpose: &str,
        value: Option<u32>,
        provenance: Provenance,
    ) -> Die {
        let die = Die {
            n: self.drawn,
            purpose: purpose.to_string(),
            sides,
            value,
            provenance,
        };
        self.drawn += 1;
        die
    }

    /// Ends the command's drawing: every entered value must have been used. Returns the sealed secrets
    /// the store keeps beside the log.
    pub fn finish(self) -> Result<Vec<SealedSecret>, DiceError> {
        if let Source::Entered { values, .. } = &self.source
            && values.len() > self.consumed
        {
            return Err(DiceError::TooMany {
                given: values.len(),
                used: self.consumed,
            });
        }
        Ok(self.sealed)
    }
}

/// A die a command needs next, asked for at the table (`--rolls ask`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DieWanted {
    /// Its place in the command's draw order, from 1.
    pub number: usize,
    pub sides: u32,
    /// What it is for, e.g. "mishap 2d6".
    pub purpose: String,
    /// A sealed die: whoever types it must not see it echoed.
    pub sealed: bool,
}

#[cfg(test)]
mod tests;
