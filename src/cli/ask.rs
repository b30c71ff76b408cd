//! `--rolls ask`: physical dice asked for on the terminal, one die at a time, as the command needs
//! them. The asking happens outside the write lock (see [`Campaign::execute_asking`]).
//!
//! [`Campaign::execute_asking`]: crate::campaign::Campaign::execute_asking

use crate::Error;
use crate::campaign::{DiceAsker, DieWanted};
use crate::seq::Seq;
use std::io::{BufRead, IsTerminal, Write};

/// The one answer to any entry for a sealed die that is not one roll of it (not a number, a face
/// the die lacks, an open-ended roll that needed more faces or ended before the last): a message
/// that varied would tell what was typed, or that a roll went on.
const WRONG_SEALED_ANSWER: &str =
    "not taken: type the sealed roll again, every face it took on one line, separated by commas";

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

/// Reads one line from the terminal without showing it. Echo is turned off before the prompt is
/// written (typed-ahead text, already shown, is discarded), and the terminal is read a key at a
/// time so that Ctrl-C and Ctrl-D give up here, with the terminal's settings put back, rather than
/// end the program with echo still off. `None` when the person gives up.
fn read_unseen(prompt: &str) -> std::io::Result<Option<String>> {
    use rustix::termios::{LocalModes, OptionalActions, SpecialCodeIndex, tcgetattr, tcsetattr};
    use std::io::Read;
    let mut tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")?;
    let saved = tcgetattr(&tty)?;
    let mut unseen = saved.clone();
    unseen
        .local_modes
        .remove(LocalModes::ECHO | LocalModes::ICANON | LocalModes::ISIG);
    unseen.special_codes[SpecialCodeIndex::VMIN] = 1;
    unseen.special_codes[SpecialCodeIndex::VTIME] = 0;
    tcsetattr(&tty, OptionalActions::Flush, &unseen)?;
    let read = (|| {
        tty.write_all(prompt.as_bytes())?;
        tty.flush()?;
        let mut line = Vec::new();
        let mut key = [0u8; 1];
        loop {
            if tty.read(&mut key)? == 0 {
                return Ok(None);
            }
            match key[0] {
                // Ctrl-C, Ctrl-D
                3 | 4 => return Ok(None),
                b'\r' | b'\n' => break,
                // Backspace, Delete
                8 | 127 => {
                    line.pop();
                }
                byte => line.push(byte),
            }
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    })();
    let restored = tcsetattr(&tty, OptionalActions::Now, &saved);
    let _ = tty.write_all(b"\n");
    restored?;
    read
}

impl DiceAsker for TerminalAsker {
    fn ask(&mut self, die: &DieWanted) -> Result<Option<Vec<u32>>, Error> {
        let DieWanted {
            number,
            sides,
            purpose,
            sealed,
        } = die;
        // What a die is for may carry text typed with the command: shown, never acted on.
        let purpose = crate::text::printable(purpose);
        loop {
            let typed = if *sealed {
                let prompt = format!(
                    "{purpose}: sealed d{sides} (die {number}), not shown; for an open-ended roll type every face, separated by commas (q gives up): "
                );
                match read_unseen(&prompt) {
                    Ok(Some(text)) => text,
                    // No terminal to read from unseen, input closed or Ctrl-C: give up, record
                    // nothing.
                    Ok(None) | Err(_) => return Ok(None),
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
                Err(_) if *sealed => self.wrong_sealed_answer(),
                Err(why) => eprintln!("{why}"),
            }
        }
    }

    fn wrong_sealed_answer(&mut self) {
        eprintln!("{WRONG_SEALED_ANSWER}");
    }

    fn log_moved(&mut self, head: Seq) {
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
