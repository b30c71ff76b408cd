//! Refusals as the command line says them: the library's errors state facts (what was wrong, with
//! the values), and the command line adds what to type about them (a flag, a command), so the same
//! refusal can read right in another front end.

use crate::Error;
use crate::dice::DiceError;
use crate::rules::RuleError;
use crate::store::StoreError;
use crate::systems::contract::command::SystemCommands;
use crate::systems::registry::on_system;

/// The error as the command line prints it: the fact, then the hint.
pub fn say(error: &Error) -> String {
    format!("{error}{}", hint(error).unwrap_or_default())
}

/// The error as the shell prints it: a command is typed there without `grimoire`, and the shell
/// keeps its one campaign open.
pub fn say_in_shell(error: &Error) -> String {
    let said = match error {
        Error::Rule(RuleError::AlreadyCreated(_)) => error.to_string(),
        _ => say(error),
    };
    said.replace("`grimoire ", "`")
}

/// What to type about `error`, written to follow its words.
fn hint(error: &Error) -> Option<String> {
    let rule = match error {
        Error::Rule(rule) => rule,
        Error::Store(store) => return store_hint(store),
        _ => return None,
    };
    Some(match rule {
        RuleError::AlreadyCreated(_) => "; give another --db to start a new one".into(),
        RuleError::NoCampaign => "; create one with `grimoire init --name NAME`".into(),
        RuleError::UnknownCharacter { known, .. } if known.is_empty() => {
            " (add one with `grimoire character add`)".into()
        }
        RuleError::NoHealth(name) => format!(
            " (give them one with `grimoire character set {} --health N --reason WHY`)",
            shell_words::quote(name)
        ),
        RuleError::SessionOpen(_) => "; end it with `grimoire session end` first".into(),
        RuleError::RevealInSession(_) => {
            "; end the session with `grimoire session end` first".into()
        }
        RuleError::EntropyInSession(_) => "; --player-entropy is for rolls between sessions".into(),
        RuleError::NoSessionOpen | RuleError::NoSessionYet => {
            "; start one with `grimoire session start`".into()
        }
        RuleError::FightOn(_) | RuleError::InAFight(_) => {
            "; end it with `grimoire fight end` first".into()
        }
        RuleError::NoFight => "; begin one with `grimoire fight start`".into(),
        RuleError::NoEventNamed => ": give its number (#SEQ in `grimoire log`)".into(),
        RuleError::NoReasonForSheet => " (--reason cannot be empty)".into(),
        RuleError::NotInDowntime(_) => "; name them too, or give --party".into(),
        RuleError::TooManyWeeks { weeks, .. } => format!("; give at most {weeks} --week for them"),
        RuleError::DiceUnused => " (--rolls)".into(),
        RuleError::SeedMismatch(_) | RuleError::SealedSeedMismatch(_) => {
            "; restore the file's secrets from a backup (`grimoire restore BACKUP`)".into()
        }
        RuleError::EntropyUnused => " (--player-entropy)".into(),
        RuleError::Dice(dice) => return dice_hint(dice),
        RuleError::Players(refused) => return players_hint(refused),
        RuleError::System(system) => {
            return on_system!(system, AnyError, |S, inner| S::hint(inner));
        }
        _ => return None,
    })
}

fn store_hint(error: &StoreError) -> Option<String> {
    Some(match error {
        StoreError::Missing(_) => "; create one with `grimoire init --name NAME`, or point --db (or GRIMOIRE_DB) at an existing one".into(),
        StoreError::NotGrimoire(_) => "; point --db at a file made by `grimoire init`".into(),
        StoreError::Exists(_) => "; point --db at it to use it, or choose a new path".into(),
        StoreError::Corrupt(_) => "; `grimoire verify` shows what is affected".into(),
        StoreError::FailsVerification { .. } => ". `grimoire verify` lists every problem".into(),
        StoreError::Damaged { .. } => "; run `grimoire verify` for details".into(),
        StoreError::NoCampaign { .. } => "; create it there with `grimoire init --name NAME` (or `grimoire import FILE`), or check ?campaign= in --db".into(),
        _ => return None,
    })
}

fn players_hint(refused: &crate::rules::players::Refused) -> Option<String> {
    use crate::rules::players::Refused;
    Some(match refused {
        Refused::NoDevice(player) => format!(
            "; link one with `grimoire player link {} --plays CHARACTER`",
            shell_words::quote(player)
        ),
        Refused::AlreadyLinked { player, .. } => format!(
            " (`grimoire player link {} --plays CHARACTER --replace`, or `grimoire player unlink {}`)",
            shell_words::quote(player),
            shell_words::quote(player)
        ),
        // A roll another character makes is still theirs to witness: the dice stay fair.
        Refused::NotTheirs { player, .. } => format!(
            ". Put the roll to the phone of the acting character's player; to have {player}'s phone make the dice all the same, make the roll yours with --witnessed-by {}",
            shell_words::quote(player)
        ),
        Refused::RollsNothing => {
            " (--rolled-by and --witnessed-by go on `roll` or a command that rolls)".into()
        }
        _ => return None,
    })
}

fn dice_hint(error: &DiceError) -> Option<String> {
    Some(match error {
        DiceError::TooFew { .. } => "; give one value per die with --rolls, in the order the command's help lists (or --rolls ask to be asked for each)".into(),
        DiceError::TooMany { .. } => "; give exactly one value per die with --rolls".into(),
        DiceError::NoSeed { .. } => "; enter physical dice with --rolls".into(),
        DiceError::NoSealedSeed { .. } => {
            "; restore the file's secrets from a backup, or enter the sealed die with --rolls"
                .into()
        }
        DiceError::StaleEntropy { .. } => ", or enter physical dice with --rolls".into(),
        DiceError::SealedOnDevice => ", without --rolled-by".into(),
        DiceError::OutOfRange { .. }
        | DiceError::NotOneSealedRoll
        | DiceError::NotTheOriginals { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::say;
    use crate::Error;
    use crate::dice::DiceError;
    use crate::ids::DeviceId;
    use crate::rules::RuleError;
    use crate::rules::players::Refused;
    use crate::seq::Seq;
    use crate::systems::adg::rules::AdgError;
    use crate::systems::registry::AnyError;
    use crate::systems::vsd::rules::VsdError;

    /// In the shell a command is typed without `grimoire`, and the shell keeps its one campaign:
    /// its hints say so.
    #[test]
    fn the_shell_says_hints_as_commands_are_typed_there() {
        let open = Error::Rule(RuleError::SessionOpen(2));
        assert_eq!(
            super::say_in_shell(&open),
            "session 2 is still open; end it with `session end` first"
        );
        let created = Error::Rule(RuleError::AlreadyCreated("Vault".into()));
        assert!(!super::say_in_shell(&created).contains("--db"));
    }

    /// Every refusal whose words name a flag or a command, as the command line prints it.
    #[test]
    fn refusals_read_at_the_command_line_as_before() {
        let adg = |e| Error::Rule(RuleError::System(AnyError::Adg(e)));
        let vsd = |e| Error::Rule(RuleError::System(AnyError::Vsd(e)));
        let rule = Error::Rule;
        let dice = |e| Error::Rule(RuleError::Dice(e));
        let players = |e| Error::Rule(RuleError::Players(e));
        let samples = [
            rule(RuleError::AlreadyCreated("The Sunken Vault".into())),
            rule(RuleError::NoCampaign),
            rule(RuleError::UnknownCharacter {
                name: "Bob".into(),
                known: vec![],
            }),
            rule(RuleError::UnknownCharacter {
                name: "Bob".into(),
                known: vec!["Aldric".into()],
            }),
            rule(RuleError::NoHealth("Mira".into())),
            rule(RuleError::SessionOpen(3)),
            rule(RuleError::RevealInSession(3)),
            rule(RuleError::EntropyInSession(3)),
            rule(RuleError::NoSessionOpen),
            rule(RuleError::NoSessionYet),
            rule(RuleError::NoEventNamed),
            rule(RuleError::NoReasonForSheet),
            rule(RuleError::NotInDowntime("Bryn".into())),
            rule(RuleError::TooManyWeeks {
                name: "Bryn".into(),
                weeks: 2,
            }),
            rule(RuleError::InvalidSheet(
                "level must be 1 to 10, not 0".into(),
            )),
            adg(AdgError::RestsByNight("Aldric".into())),
            adg(AdgError::NoAdgTables),
            adg(AdgError::RollPending {
                name: "Aldric".into(),
                scroll: Seq(12),
            }),
            adg(AdgError::EffectWithoutTarget),
            adg(AdgError::BeyondSafeRituals {
                name: "Aldric".into(),
                beyond: 2,
                cunning: 2,
            }),
            adg(AdgError::RitualKindNeeded),
            adg(AdgError::LockedOut("Aldric".into())),
            adg(AdgError::NothingToExertFor),
            adg(AdgError::NoSuchScroll(Seq(12))),
            vsd(VsdError::RitualWithoutCasters),
            vsd(VsdError::RoundUsed("Mira".into())),
            vsd(VsdError::ChoicePending("Mira".into())),
            vsd(VsdError::WeaveAboveLevel {
                spell: "Fire Bolt".into(),
                weave: 5,
                level: 3,
            }),
            vsd(VsdError::WsrNeeded("the troll".into())),
            vsd(VsdError::SeverOff),
            dice(DiceError::TooFew {
                given: 1,
                next_die: "d20".into(),
                purpose: "the casting check".into(),
                sides: 20,
                sealed: false,
            }),
            dice(DiceError::TooMany { given: 3, used: 2 }),
            dice(DiceError::OutOfRange {
                position: 2,
                value: 21,
                sides: 20,
                purpose: "the casting check".into(),
            }),
            dice(DiceError::NoSeed { epoch: 2 }),
            rule(RuleError::DiceUnused),
            Error::Store(crate::store::StoreError::Missing("vault.db".into())),
            Error::Store(crate::store::StoreError::NotGrimoire("notes.txt".into())),
            Error::Store(crate::store::StoreError::NoCampaign {
                name: "Vault".into(),
                server: "db.example".into(),
            }),
            rule(RuleError::EntropyUnused),
            dice(DiceError::StaleEntropy {
                session: 3,
                epoch: 2,
            }),
            players(Refused::NoDevice("Bea".into())),
            players(Refused::AlreadyLinked {
                player: "Bea Hall".into(),
                device: DeviceId(2),
            }),
            players(Refused::NotTheirs {
                player: "Bea".into(),
                character: "Aldric".into(),
                plays: "Mira".into(),
            }),
            players(Refused::RollsNothing),
        ];
        let said: Vec<String> = samples.iter().map(say).collect();
        insta::assert_snapshot!(said.join("\n"));
    }
}
