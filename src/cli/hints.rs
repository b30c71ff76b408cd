//! Refusals as the command line says them: the library's errors state facts (what was wrong, with
//! the values), and the command line adds what to type about them (a flag, a command), so the same
//! refusal can read right in another front end.

use crate::Error;

/// The error as the command line prints it.
pub fn say(error: &Error) -> String {
    error.to_string()
}

#[cfg(test)]
mod tests {
    use super::say;
    use crate::Error;
    use crate::dice::DiceError;
    use crate::rules::RuleError;
    use crate::systems::adg::rules::AdgError;
    use crate::systems::registry::AnyError;
    use crate::systems::vsd::rules::VsdError;

    /// Every refusal whose words name a flag or a command, as the command line prints it.
    #[test]
    fn refusals_read_at_the_command_line_as_before() {
        let adg = |e| Error::Rule(RuleError::System(AnyError::Adg(e)));
        let vsd = |e| Error::Rule(RuleError::System(AnyError::Vsd(e)));
        let rule = Error::Rule;
        let dice = |e| Error::Rule(RuleError::Dice(e));
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
            rule(RuleError::NoEventNamed),
            rule(RuleError::NoReasonForSheet),
            rule(RuleError::NotInDowntime("Bryn".into())),
            rule(RuleError::TooManyWeeks {
                name: "Bryn".into(),
                weeks: 2,
            }),
            rule(RuleError::InvalidSheet("level must be 1 to 10, not 0".into())),
            adg(AdgError::RestsByNight("Aldric".into())),
            adg(AdgError::NoAdgTables),
            adg(AdgError::RollPending {
                name: "Aldric".into(),
                scroll: 12,
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
            adg(AdgError::NoSuchScroll(12)),
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
            dice(DiceError::StaleEntropy {
                session: 3,
                epoch: 2,
            }),
        ];
        let said: Vec<String> = samples.iter().map(say).collect();
        insta::assert_snapshot!(said.join("\n"));
    }
}
