//! `--rolls ask`: physical dice asked for on the terminal, one die at a time, as the command needs
//! them. The asking happens outside the write lock (see [`Campaign::execute_asking`]).
//!
//! [`Campaign::execute_asking`]: crate::campaign::Campaign::execute_asking

use crate::Error;
use crate::campaign::{DiceAsker, DieWanted};
use std::io::{BufRead, IsTerminal, Write};

/// Asks on standard error and reads standard input; a sealed die is read from the terminal without
/// being shown.
pub struct TerminalAsker;

impl TerminalAsker {
    pub fn new() -> Result<TerminalAsker, Error> {
        if !std::io::stdin().is_terminal() {
            return Err(Error::Usage(
                "--rolls ask asks for each die at a terminal, and standard input is not one; give the values instead, e.g. --rolls 14,3".into(),
            ));
        }
        Ok(TerminalAsker)
    }
}

/// What the person typed, read as faces of a `sides`-sided die; the reason otherwise, which never
/// repeats what was typed (it may be a sealed die).
fn faces(text: &str, sides: u32, several: bool) -> Result<Vec<u32>, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() > 1 && !several {
        return Err("one die, one value".into());
    }
    parts
        .iter()
        .map(|part| match part.parse::<u32>() {
            Ok(face) if (1..=sides).contains(&face) => Ok(face),
            _ => Err(format!(
                "that is not a face of a d{sides}: type 1 to {sides}"
            )),
        })
        .collect()
}

impl DiceAsker for TerminalAsker {
    fn ask(&mut self, die: &DieWanted) -> Result<Option<Vec<u32>>, Error> {
        let DieWanted {
            number,
            sides,
            purpose,
            sealed,
        } = die;
        loop {
            let typed = if *sealed {
                let prompt = format!(
                    "{purpose}: sealed d{sides} (die {number}), not shown; for an open-ended roll type every face, separated by commas (q gives up): "
                );
                match rpassword::prompt_password(prompt) {
                    Ok(text) => text,
                    // No terminal to read from unseen, or input closed: give up, record nothing.
                    Err(_) => return Ok(None),
                }
            } else {
                eprint!("{purpose}: d{sides} (die {number}; q gives up): ");
                let _ = std::io::stderr().flush();
                let mut line = String::new();
                match std::io::stdin().lock().read_line(&mut line) {
                    Ok(0) | Err(_) => return Ok(None),
                    Ok(_) => line,
                }
            };
            let typed = typed.trim();
            if typed.eq_ignore_ascii_case("q") {
                return Ok(None);
            }
            if typed.is_empty() {
                continue;
            }
            match faces(typed, *sides, *sealed) {
                Ok(faces) => return Ok(Some(faces)),
                Err(why) => eprintln!("{why}"),
            }
        }
    }

    fn log_moved(&mut self, head: u64) {
        eprintln!(
            "The log moved on while you typed (it is at #{head} now), so the dice entered were for a moment that has passed: enter them again."
        );
    }
}

#[cfg(test)]
mod tests {
    use super::faces;

    #[test]
    fn a_typed_face_is_checked_against_its_die_and_the_reason_never_repeats_it() {
        assert_eq!(faces("14", 20, false), Ok(vec![14]));
        let refused = faces("21", 20, false).unwrap_err();
        assert!(
            refused.contains("1 to 20") && !refused.contains("21"),
            "{refused}"
        );
        assert!(faces("x", 6, false).is_err());
        assert!(faces("0", 6, false).is_err());
        assert!(faces("3,4", 6, false).is_err(), "one value for an open die");
        assert_eq!(faces("97, 12", 100, true), Ok(vec![97, 12]));
    }
}
