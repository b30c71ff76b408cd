//! Colour at the table: the words that carry a verdict (a success, a failure, a mishap, resonance,
//! a refusal, a mark of something undone) stand out on a terminal. The words themselves never
//! change: the escapes are added last, after the text was made safe to print, and the output stream
//! drops them wherever colour is not wanted (not a terminal, NO_COLOR, `--color never`).

use anstyle::{AnsiColor, Color, Effects, Style};

const fn fg(color: AnsiColor) -> Style {
    Style::new().fg_color(Some(Color::Ansi(color)))
}

const GOOD: Style = fg(AnsiColor::Green);
const BAD: Style = fg(AnsiColor::Red);
const WARY: Style = fg(AnsiColor::Yellow);
const STRANGE: Style = fg(AnsiColor::Magenta);
const ASIDE: Style = Style::new().effects(Effects::DIMMED);

/// Whole words painted, longest first where one holds another ("exact success" before "success").
const WORDS: &[(&str, Style)] = &[
    ("exact success", GOOD.effects(Effects::BOLD)),
    ("success", GOOD),
    ("passed", GOOD),
    ("learns it", GOOD),
    ("failure", BAD),
    ("failed", BAD),
    ("loses it forever", BAD),
    ("LOCKED OUT", BAD),
    ("FLAGGED", BAD.effects(Effects::BOLD)),
    ("mishap", WARY),
    ("RESONANCE", STRANGE),
];

/// Marks set in brackets after a line, painted whole: (how the mark opens, its style).
const MARKS: &[(&str, Style)] = &[
    ("[retracted", ASIDE),
    ("[no player entropy", ASIDE),
    ("[rolled on a player's device", ASIDE),
    ("[witnessed by a player's device", ASIDE),
    ("[restored by", WARY),
    ("[rolled after", WARY),
];

/// A refusal's or failure's first word.
pub fn error_prefix() -> String {
    let style = BAD.effects(Effects::BOLD);
    format!("{style}error:{style:#}")
}

/// Whether output to `stream` will carry colour under `choice`: painting text that the stream would
/// strip again is work for nothing (the whole log may pass through here).
pub fn shows_colour<S: anstream::stream::RawStream>(
    stream: &S,
    choice: anstream::ColorChoice,
) -> bool {
    let effective = match choice {
        anstream::ColorChoice::Auto => anstream::AutoStream::choice(stream),
        chosen => chosen,
    };
    effective != anstream::ColorChoice::Never
}

/// `text` with its verdicts painted.
pub fn paint(text: &str) -> String {
    // Most lines hold no verdict at all: say so with a few quick searches.
    if !WORDS.iter().any(|(word, _)| text.contains(word))
        && !MARKS.iter().any(|(open, _)| text.contains(open))
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after_word = out.chars().last().is_none_or(|p| !p.is_alphanumeric());
        if let Some((_, style)) = MARKS.iter().find(|(open, _)| rest.starts_with(open)) {
            // The whole mark, to its closing bracket (or the line's end).
            let end = rest.find(']').map_or(rest.len(), |at| at + 1);
            out.push_str(&format!("{style}{}{style:#}", &rest[..end]));
            rest = &rest[end..];
            continue;
        }
        let word = WORDS.iter().find(|(word, _)| {
            after_word
                && rest.starts_with(word)
                && !rest[word.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
        });
        match word {
            Some((word, style)) => {
                out.push_str(&format!("{style}{word}{style:#}"));
                rest = &rest[word.len()..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(painted: &str) -> String {
        anstream::adapter::strip_str(painted).to_string()
    }

    #[test]
    fn painting_adds_only_escapes_around_whole_verdict_words() {
        let line = "#15 Aldric casts Ward; rolls 9 against Cunning 13: success, mishap: 7  [retracted: a slip]";
        let painted = paint(line);
        assert_eq!(plain(&painted), line, "the words stay as they were");
        assert!(
            painted.contains(&format!("{GOOD}success{GOOD:#}")),
            "{painted:?}"
        );
        assert!(
            painted.contains(&format!("{WARY}mishap{WARY:#}")),
            "{painted:?}"
        );
        assert!(
            painted.contains(&format!("{ASIDE}[retracted: a slip]{ASIDE:#}")),
            "{painted:?}"
        );
        // Inside another word it is not the verdict.
        assert_eq!(paint("unsuccessful failures"), "unsuccessful failures");
        assert!(paint("exact success").starts_with(&format!("{}", GOOD.effects(Effects::BOLD))));
    }
}
