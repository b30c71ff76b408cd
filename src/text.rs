//! Free text entered at the table — names, reasons, a scroll's effect — is recorded for good and shown
//! on sheets and one-line log entries, so each must be one line of a length those can show. These
//! checks are a leaf of the model: the rules, the store and the CLI all hold text to them.

/// What is wrong with a text, naming the field it was given for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextProblem {
    #[error("the {0} must be one line: no line breaks, tabs or other control characters")]
    NotOneLine(&'static str),
    #[error(
        "the {0} holds a character that reorders the text around it (a bidirectional control); type it without one"
    )]
    Reorders(&'static str),
    #[error(
        "the {0} may not begin with '-', which a command line reads as the start of an option; begin it with a letter or another sign"
    )]
    LikeAFlag(&'static str),
    #[error("the {0} is empty; give it in a few words")]
    Empty(&'static str),
    #[error("the {0} is made only of invisible characters; give visible text")]
    Invisible(&'static str),
    #[error("the {what} is {length} characters long; at most {max} are allowed")]
    TooLong {
        what: &'static str,
        length: usize,
        max: usize,
    },
}

/// Names: of the campaign, characters, rituals, spells, lores and targets.
pub const NAME_MAX: usize = 60;
/// Reasons, purposes, session entropy and a scroll's effect.
pub const NOTE_MAX: usize = 500;

/// Every text the log stores, under any field, is at most this many characters: the one size limit
/// that keeps each event (and so each export line) within what import reads. Twice a note, because
/// the rules compose some texts from one (a die's purpose adds what the die was for).
pub const TEXT_MAX: usize = 2 * NOTE_MAX;

/// The largest payload the log takes, in bytes. Texts are bounded one by one; this bounds how many
/// an event can gather (a party's rest, a long --rolls list). Import reads lines of this size.
pub const PAYLOAD_MAX_BYTES: usize = 1024 * 1024;

/// Characters that reorder text on screen (bidirectional embeddings, overrides, isolates and marks):
/// a name holding one can make a log line read other than it is stored.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Characters that break a line: control characters (line feed, carriage return, NEL, …) and
/// Unicode's line and paragraph separators, which a reader splitting on them would show as a new
/// line (a forged "#14 … heals 99" after a reason).
pub fn breaks_the_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A character that shows something: not White_Space, not Default_Ignorable_Code_Point, not of
/// the general categories Cc, Cf, Zl, Zp, Co or Cn (controls, format marks, separators, private
/// use, unassigned) nor Mn or Me (combining marks, which show only on a letter before them), and
/// not the blank Braille pattern U+2800, which fonts draw as nothing.
pub fn is_visible(c: char) -> bool {
    use icu_properties::props::{
        DefaultIgnorableCodePoint, GeneralCategory, GeneralCategoryGroup, WhiteSpace,
    };
    use icu_properties::{CodePointMapData, CodePointSetData};
    if c.is_ascii() {
        return c.is_ascii_graphic();
    }
    const SHOWS_NOTHING: GeneralCategoryGroup = GeneralCategoryGroup::Control
        .union(GeneralCategoryGroup::Format)
        .union(GeneralCategoryGroup::LineSeparator)
        .union(GeneralCategoryGroup::ParagraphSeparator)
        .union(GeneralCategoryGroup::PrivateUse)
        .union(GeneralCategoryGroup::Unassigned)
        // A combining mark shows only on the letter before it: alone, nothing (or a dotted circle).
        .union(GeneralCategoryGroup::NonspacingMark)
        .union(GeneralCategoryGroup::EnclosingMark);
    c != '\u{2800}'
        && !CodePointSetData::new::<WhiteSpace>().contains(c)
        && !CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        && !SHOWS_NOTHING.contains(CodePointMapData::<GeneralCategory>::new().get(c))
}

/// A combining mark: shown on the letter before it.
fn is_mark(c: char) -> bool {
    use icu_properties::CodePointMapData;
    use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};
    GeneralCategoryGroup::NonspacingMark
        .union(GeneralCategoryGroup::EnclosingMark)
        .union(GeneralCategoryGroup::SpacingMark)
        .contains(CodePointMapData::<GeneralCategory>::new().get(c))
}

/// The characters beyond ASCII that show nothing ([`is_invisible`]), as ranges of code points in
/// hex (`ad,300-36f,…`): the players' page holds texts to this table rather than its browser's own
/// Unicode data, which may be older (a character new to Unicode would show for grimoire and be
/// unassigned, so invisible, to the page).
pub fn invisible_ranges() -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for code in 0x80..=0x10_FFFF_u32 {
        let Some(c) = char::from_u32(code) else {
            continue;
        };
        if !is_invisible(c) {
            continue;
        }
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == code => *end = code,
            _ => ranges.push((code, code)),
        }
    }
    ranges
        .iter()
        .map(|&(start, end)| {
            if start == end {
                format!("{start:x}")
            } else {
                format!("{start:x}-{end:x}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Characters that show nothing: the complement of [`is_visible`].
pub fn is_invisible(c: char) -> bool {
    !is_visible(c)
}

/// Refuses text holding line breaks, tabs or other control characters, or characters that reorder
/// the line around them; text made only of invisible characters; or text longer than `max`
/// characters once trimmed.
pub fn check(what: &'static str, text: &str, max: usize) -> Result<(), TextProblem> {
    if text.chars().any(breaks_the_line) {
        return Err(TextProblem::NotOneLine(what));
    }
    if text.chars().any(is_bidi_control) {
        return Err(TextProblem::Reorders(what));
    }
    // Spaces alone count as empty text, which each command refuses in its own words where it must.
    let trimmed = text.trim();
    if !trimmed.is_empty() && trimmed.chars().all(is_invisible) {
        return Err(TextProblem::Invisible(what));
    }
    let length = text.trim().chars().count();
    if length > max {
        return Err(TextProblem::TooLong { what, length, max });
    }
    Ok(())
}

/// A name the command line takes as a word of its own (a character's, a ritual's, a spell's): as
/// [`check`], and not beginning with `-`, which a command line and completion would read as a flag.
/// As [`check`], for text that must say something: spaces alone are refused too.
pub fn check_filled(what: &'static str, text: &str, max: usize) -> Result<(), TextProblem> {
    check(what, text, max)?;
    if text.trim().is_empty() {
        return Err(TextProblem::Empty(what));
    }
    Ok(())
}

pub fn check_name(what: &'static str, name: &str) -> Result<(), TextProblem> {
    check(what, name, NAME_MAX)?;
    if name.trim_start().starts_with('-') {
        return Err(TextProblem::LikeAFlag(what));
    }
    Ok(())
}

/// Checks every string in a stored payload (JSON text) against the rules of [`check`] with the one
/// limit [`TEXT_MAX`], and the payload's size against [`PAYLOAD_MAX_BYTES`]. The same check guards
/// every append and every imported event, so whatever the log takes, an import takes back. It reads
/// the JSON text itself, escapes included, without building a tree.
pub fn check_payload(payload: &str) -> Result<(), String> {
    check_texts(payload, true)
}

/// The one rule a payload of the first version, stored before the text rules, is held to: no text
/// in it holds a line feed. Earlier grimoires took other control characters, and their exports
/// still restore: every reader shows those as escapes. A line feed alone would print as a line of
/// its own (a forged "#14 … heals 99" under a name), since output is cut into lines before each is
/// escaped.
fn check_payload_is_one_line(payload: &str) -> Result<(), String> {
    check_texts(payload, false)
}

/// Every text of `payload` held to the text rules, or, without `every_rule`, only to having no line
/// feed.
fn check_texts(payload: &str, every_rule: bool) -> Result<(), String> {
    if every_rule && payload.len() > PAYLOAD_MAX_BYTES {
        return Err(format!(
            "the event is {} bytes; the log takes events of up to {PAYLOAD_MAX_BYTES}",
            payload.len()
        ));
    }
    // Walked byte by byte, with printable ASCII (the bulk of every payload) taken without
    // decoding: this check runs on every imported row, where decoding each character was a twentieth
    // of the import. Every other character is decoded whole. Inside a text `at` stops only between
    // characters: a text begins after a quote, and no byte of a multi-byte character is ASCII.
    let bytes = payload.as_bytes();
    let char_at = |at: usize| payload.get(at..).and_then(|rest| rest.chars().next());
    let mut at = 0;
    // Between texts only a quote matters.
    while let Some(quote) = bytes[at..].iter().position(|&b| b == b'"') {
        at += quote + 1;
        let mut length = 0usize;
        let (mut visible, mut blank) = (false, true);
        loop {
            let Some(&byte) = bytes.get(at) else {
                return Err("a text is not closed".into());
            };
            let c = match byte {
                b'"' => {
                    at += 1;
                    break;
                }
                b' '..=b'~' if byte != b'\\' => {
                    at += 1;
                    visible |= byte != b' ';
                    blank &= byte == b' ';
                    length += 1;
                    continue;
                }
                b'\\' => match bytes.get(at + 1) {
                    Some(b'u') => {
                        let unit = |at: usize| {
                            payload
                                .get(at + 2..at + 6)
                                .filter(|_| bytes.get(at) == Some(&b'\\'))
                                .filter(|_| bytes.get(at + 1) == Some(&b'u'))
                                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                        };
                        let code = unit(at).ok_or("a text holds a broken escape")?;
                        at += 6;
                        // A character beyond the first 65,536 is escaped as two halves (a
                        // surrogate pair), which serde reads as that one character: judged apart,
                        // each half would pass as a visible replacement character.
                        let low = unit(at).filter(|low| (0xDC00..=0xDFFF).contains(low));
                        match low {
                            Some(low) if (0xD800..=0xDBFF).contains(&code) => {
                                at += 6;
                                let code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                                char::from_u32(code).unwrap_or('\u{FFFD}')
                            }
                            _ => char::from_u32(code).unwrap_or('\u{FFFD}'),
                        }
                    }
                    Some(&letter @ (b'n' | b'r' | b't' | b'b' | b'f')) => {
                        at += 2;
                        match letter {
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'b' => '\u{8}',
                            _ => '\u{c}',
                        }
                    }
                    Some(_) => {
                        let c = char_at(at + 1).ok_or("a text holds a broken escape")?;
                        at += 1 + c.len_utf8();
                        c
                    }
                    None => return Err("a text is not closed".into()),
                },
                _ => {
                    let c = char_at(at).ok_or("a text holds a broken character")?;
                    at += c.len_utf8();
                    c
                }
            };
            if !every_rule {
                if c == '\n' {
                    return Err("a text holds a line break".into());
                }
                continue;
            }
            if breaks_the_line(c) {
                return Err("a text holds a line break or another control character".into());
            }
            if is_bidi_control(c) {
                return Err("a text holds a character that reorders the line around it".into());
            }
            visible |= !is_invisible(c);
            blank &= c.is_whitespace();
            length += 1;
        }
        if every_rule && !blank && !visible {
            return Err("a text is made only of invisible characters".into());
        }
        if every_rule && length > TEXT_MAX {
            return Err(format!(
                "a text is {length} characters long; at most {TEXT_MAX} are allowed"
            ));
        }
    }
    Ok(())
}

/// The texts of one row as the log takes them: its actor (a name) and its payload.
pub fn check_row(actor: &str, payload: &str) -> Result<(), String> {
    check("actor", actor, NAME_MAX).map_err(|e| e.to_string())?;
    check_payload(payload)
}

/// The texts of a row of the first version, held only to having no line feed (see
/// [`check_payload_is_one_line`]).
pub fn check_one_line_row(actor: &str, payload: &str) -> Result<(), String> {
    if actor.contains('\n') {
        return Err("its actor holds a line break".into());
    }
    check_payload_is_one_line(payload)
}

/// A character that takes no room and changes nothing a reader sees (a zero-width space, a soft
/// hyphen, a byte-order mark): two texts differing only by one look the same, though they differ
/// to a lookup and to the dice (players' entropy). The joiners and variation selectors that shape
/// visible letters and emoji are left to do their work. Format characters that are not ignorable
/// (an interlinear annotation mark, a script's format control) change the text unseen too.
fn hides_in_plain_sight(c: char) -> bool {
    use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
    use icu_properties::{CodePointMapData, CodePointSetData};
    !c.is_ascii()
        && !matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
        && (CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
            || CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::Format)
}

/// Whether a page shows `c` as an escape: it would reorder the text around it or pass unseen
/// (the line breaks and tabs a page's own text is laid out with are left alone).
pub fn acts_unseen(c: char) -> bool {
    shown_escaped(c) && !matches!(c, '\n' | '\t')
}

/// Text from the log made safe to print on one terminal line, whatever an old or forged event holds:
/// control and reordering characters, and characters that hide in plain sight, are shown as escapes
/// instead of acting on the terminal or passing unseen.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    // Most lines are plain printable ASCII, which a byte scan settles (`log` asks it of every line).
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) || !text.chars().any(shown_escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if shown_escaped(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// A character a reader is shown as an escape, never as itself: one that breaks or reorders the
/// line, or hides in plain sight.
pub fn shown_escaped(c: char) -> bool {
    breaks_the_line(c) || is_bidi_control(c) || hides_in_plain_sight(c)
}

/// JSON text with every character [`shown_escaped`] written as a `\uXXXX` escape. serde escapes
/// only the first 32 controls, and text the log took before the text rules may hold others (an
/// 8-bit CSI, a line separator, a reordering mark) that a terminal showing the JSON would act on.
/// Outside its strings JSON holds only ASCII, so each such character is inside a string, where the
/// escape reads as the same text.
pub fn inert_json(json: String) -> String {
    let acted_on = |c: char| !c.is_ascii() && shown_escaped(c);
    if json.is_ascii() || !json.chars().any(acted_on) {
        return json;
    }
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if acted_on(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// What a name looks like once invisible characters and look-alike letters are set aside (Unicode's
/// confusable skeleton), as written, in lower case and in capitals: two names that share any of
/// these cannot be told apart at the table ("ALDRlC" and "Aldric" share the capitals' one).
pub fn look_alike_keys(name: &str) -> [String; 3] {
    use unicode_security::confusable_detection::skeleton;
    // A combining mark stays: on its letter it shows, and "é" typed as e and an accent must look
    // like "é" typed as one character (the skeleton decomposes both alike).
    let visible: String = name
        .trim()
        .chars()
        .filter(|c| *c == ' ' || !is_invisible(*c) || is_mark(*c))
        .collect();
    // Two spaces where one was typed look the same at the table.
    let visible = visible.split_whitespace().collect::<Vec<_>>().join(" ");
    let key = |text: &str| skeleton(text).collect::<String>();
    [
        key(&visible),
        key(&visible.to_lowercase()),
        key(&visible.to_uppercase()),
    ]
}

/// Whether two names look alike (see [`look_alike_keys`]).
pub fn look_alike(a: &str, b: &str) -> bool {
    let (a, b) = (look_alike_keys(a), look_alike_keys(b));
    a.iter().any(|key| b.contains(key))
}

/// What serde says a field expects, as a person would say it.
fn expected_in_words(expected: &str) -> String {
    match expected {
        "u8" => "a whole number from 0 to 255".into(),
        "u16" => "a whole number from 0 to 65535".into(),
        "u32" => "a whole number from 0 to 4294967295".into(),
        "u64" => "a whole number from 0 to 18446744073709551615".into(),
        "i32" | "i64" => "a whole number".into(),
        "a string" | "a boolean" | "a sequence" | "a map" => expected.into(),
        other if other.starts_with("struct ") || other.starts_with("internally tagged") => {
            "a group of fields".into()
        }
        other if other.starts_with("a ") || other.starts_with("an ") => other.into(),
        _ => "another kind of value".into(),
    }
}

/// serde_json's account of a failed read, said plainly.
pub fn json_problem(error: &serde_json::Error, field: Option<&str>) -> String {
    use serde_json::error::Category;
    let the_field = field.map_or_else(|| "a field".to_string(), |f| format!("the field '{f}'"));
    if error.to_string().starts_with("recursion limit exceeded") {
        return "it nests lists or groups of fields deeper than grimoire reads".into();
    }
    if !matches!(error.classify(), Category::Data) {
        return "it is not well-formed JSON".into();
    }
    // serde's own message, without its position (said above in grimoire's terms).
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    if let Some(missing) = message.strip_prefix("missing field ") {
        let missing = missing.trim_matches('`');
        return match field {
            Some(f) => format!("the field '{f}.{missing}' is missing"),
            None => format!("the field '{missing}' is missing"),
        };
    }
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .or_else(|| message.strip_prefix("invalid length "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        // "floating point `1e+29`", "integer `-1`", "string \"x\"", "map": the value itself where
        // serde quotes it, else what kind of value it is.
        let found = match (found.find('`'), found.rfind('`')) {
            (Some(open), Some(close)) if open < close => &found[open + 1..close],
            _ => match found.split_once(' ') {
                Some(("string", value)) => value,
                _ if found == "map" => "a group of fields",
                _ if found == "sequence" => "a list",
                _ => found,
            },
        };
        return format!(
            "{the_field} holds {found} where {} belongs",
            expected_in_words(expected)
        );
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let value = rest.split(',').next().unwrap_or_default().trim_matches('`');
        return format!(
            "{the_field} holds '{value}', which is not one of the values grimoire writes there"
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let name = rest.split(',').next().unwrap_or_default().trim_matches('`');
        return format!("it has a field '{name}' that grimoire does not write there");
    }
    if let Some(rest) = message.strip_prefix("duplicate field ") {
        return format!("the field '{}' appears twice", rest.trim_matches('`'));
    }
    format!("{the_field} does not hold what grimoire writes there")
}

/// A group of fields as a stored payload holds it: serde's derive also reads one written as a list
/// of its values (`[0,"d20",20,7,{…}]` for a die), which no grimoire writes and the players' page
/// does not read, so a die forged in that form would be checked by one checker and not the other.
pub(crate) trait ReadFields<'de>: Sized {
    /// Reads the fields, from a deserializer that holds them as a JSON object.
    fn read_fields<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error>;
}

/// Reads a `T` from a JSON object only; anything else is refused as `expecting` says.
pub(crate) fn from_object<'de, D, T>(from: D, expecting: &'static str) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: ReadFields<'de>,
{
    struct Object<T>(&'static str, std::marker::PhantomData<T>);
    impl<'de, T: ReadFields<'de>> serde::de::Visitor<'de> for Object<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.0)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::read_fields(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    from.deserialize_map(Object(expecting, std::marker::PhantomData))
}

/// Makes each type read only from a JSON object ([`ReadFields`]). Each derives serde's traits
/// with `#[serde(remote = "Self")]`, which keeps the derive's code as inherent functions: the
/// traits are implemented here around them.
macro_rules! read_only_as_objects {
    ($($type:ty: $expecting:literal),* $(,)?) => {$(
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
                <$type>::serialize(self, to)
            }
        }
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
                $crate::text::from_object(from, $expecting)
            }
        }
        impl<'de> $crate::text::ReadFields<'de> for $type {
            fn read_fields<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
                <$type>::deserialize(from)
            }
        }
    )*};
}
pub(crate) use read_only_as_objects;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accent_typed_apart_looks_like_the_accented_letter_and_a_different_accent_does_not() {
        assert!(look_alike("Jose\u{301}", "Jos\u{e9}"));
        assert!(look_alike("Cafe\u{301}", "CAF\u{c9}"));
        assert!(!look_alike("Jos\u{e8}", "Jos\u{e9}"));
        assert!(look_alike("Ald\u{200b}ric", "Aldric"));
    }

    #[test]
    fn a_stored_payload_is_held_to_the_same_rules_escapes_included() {
        assert_eq!(check_payload(r#"{"name":"Aldric","n":3}"#), Ok(()));
        assert_eq!(check_payload(r#"{"blank":"  ","empty":""}"#), Ok(()));
        for bad in [
            r#"{"name":"Ald\nric"}"#,
            r#"{"name":"Ald\u0007ric"}"#,
            r#"{"name":"Ald\u202Eric"}"#,
            "{\"name\":\"Ald\u{202E}ric\"}",
            r#"{"name":"\u200b\u200b"}"#,
            r#"{"name":"\udb40\udc41"}"#,
            r#"{"name":"unclosed}"#,
        ] {
            assert!(check_payload(bad).is_err(), "{bad}");
        }
        let long = format!(r#"{{"reason":"{}"}}"#, "\u{e9}".repeat(TEXT_MAX + 1));
        assert!(check_payload(&long).unwrap_err().contains("at most 1000"));
        let at_limit = format!(r#"{{"reason":"{}"}}"#, "\u{e9}".repeat(TEXT_MAX));
        assert_eq!(check_payload(&at_limit), Ok(()));
        let huge = format!(r#"{{"rolls":[{}1]}}"#, "1,".repeat(PAYLOAD_MAX_BYTES / 2));
        assert!(check_payload(&huge).unwrap_err().contains("bytes"));
    }

    /// What the payload check says of a text, character by character: the rules it walks bytes to apply.
    fn verdict_of(text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let blank = chars.iter().all(|c| c.is_whitespace());
        !chars
            .iter()
            .any(|&c| breaks_the_line(c) || is_bidi_control(c))
            && (blank || chars.iter().any(|&c| is_visible(c)))
            && chars.len() <= TEXT_MAX
    }

    proptest::proptest! {
        /// Any text, as serde writes it and with every character written as an escape, gets the
        /// verdict its characters earn: the byte walk never mistakes where a character or a text ends.
        #[test]
        fn the_payload_check_reads_every_text_as_its_characters(
            text in proptest::string::string_regex(
                "( |a|~|\\\\|\"|.|[\\u{0}-\\u{1f}\\u{7f}-\\u{9f}\\u{2028}\\u{202e}\\u{200b}\\u{2800}\\u{e9}\\u{1f409}\\u{e0041}\\u{f0000}\\u{10ffff}]){0,12}"
            )
            .unwrap()
        ) {
            let expected = verdict_of(&text);
            let plain = serde_json::json!({ "k": text, "n": 1 }).to_string();
            proptest::prop_assert_eq!(check_payload(&plain).is_ok(), expected, "{}", plain);
            let escaped: String = text
                .encode_utf16()
                .map(|unit| format!("\\u{unit:04x}"))
                .collect();
            let escaped = format!(r#"{{"k":"{escaped}"}}"#);
            proptest::prop_assert_eq!(check_payload(&escaped).is_ok(), expected, "{}", escaped);
        }
    }

    /// A payload of the first version keeps the texts earlier grimoires took (long, blank, with a
    /// control or reordering character, which readers show escaped), but not a line feed.
    #[test]
    fn a_first_version_payload_is_held_only_to_having_no_line_feed() {
        for kept in [
            format!(
                r#"{{"reason":"{}","name":"\u200b"}}"#,
                "a".repeat(TEXT_MAX + 1)
            ),
            r#"{"name":"Ald\u0007ric","why":"a\tb\r"}"#.into(),
            "{\"name\":\"Ad\u{2028}x\",\"n\":\"Ald\u{202e}ric\"}".into(),
        ] {
            assert_eq!(check_payload_is_one_line(&kept), Ok(()), "{kept}");
        }
        for bad in [
            r#"{"name":"Ad\nAdept9"}"#,
            r#"{"name":"Ad\u000aAdept9"}"#,
            "{\"name\":\"Ad\nx\"}",
        ] {
            assert!(check_payload_is_one_line(bad).is_err(), "{bad}");
        }
    }

    /// JSON output writes what a reader would see escaped as `\u` escapes, reading back as the
    /// same text.
    #[test]
    fn json_output_holds_no_character_a_terminal_would_act_on() {
        let text = "Mag\u{85}\u{9b}2J\u{2028}\u{202e}X\u{200b} é 🐉";
        let json = serde_json::to_string_pretty(&serde_json::json!({ "name": text })).unwrap();
        let inert = inert_json(json);
        assert!(
            !inert.chars().any(|c| !c.is_ascii() && shown_escaped(c)),
            "{inert}"
        );
        assert!(inert.contains("é 🐉"), "{inert}");
        let back: serde_json::Value = serde_json::from_str(&inert).unwrap();
        assert_eq!(back["name"], text);
    }

    /// A reader that splits lines at U+2028 or U+2029 would show what follows as a line of its own
    /// (a forged "#14 … heals 99" at the end of a reason): no text door takes them.
    #[test]
    fn line_and_paragraph_separators_are_refused_at_every_door_and_escaped_when_shown() {
        for separator in ['\u{2028}', '\u{2029}', '\u{85}'] {
            let forged = format!("a slip{separator}#14 Aldric heals 99");
            assert_eq!(
                check("reason", &forged, NOTE_MAX),
                Err(TextProblem::NotOneLine("reason"))
            );
            let payload = serde_json::json!({ "reason": forged }).to_string();
            assert!(check_payload(&payload).is_err(), "{payload}");
            // The same separator written as a JSON escape, as an imported line may hold it.
            let escaped = format!(r#"{{"reason":"a\u{:04x}b"}}"#, u32::from(separator));
            assert!(check_payload(&escaped).is_err(), "{escaped}");
            assert!(!printable(&forged).contains(separator));
        }
    }

    /// A name must hold a character that shows: one not White_Space, Default_Ignorable, a
    /// control, format mark, separator, private-use or unassigned code point, nor the blank Braille
    /// pattern.
    #[test]
    fn a_name_of_characters_that_show_nothing_is_refused() {
        for blank in [
            "\u{2800}\u{2800}",
            "\u{1D173}",
            "\u{FFF9}\u{FFFA}",
            "\u{E000}",
            "\u{0378}",
            "\u{3164}",
            "\u{115F}\u{1160}",
            "\u{200B}\u{2060}",
            "\u{00A0}\u{3000}\u{200B}",
            "\u{FE0F}",
            "\u{E0041}",
            "\u{0301}",
            "\u{20E3}\u{0301}",
        ] {
            assert_eq!(
                check("character's name", blank, NAME_MAX),
                Err(TextProblem::Invisible("character's name")),
                "{blank:?}"
            );
            let payload = serde_json::json!({ "name": blank }).to_string();
            assert!(check_payload(&payload).is_err(), "{blank:?}");
        }
        for shown in [
            "Aldric",
            "Ærwyn",
            "李",
            "\u{2801}",
            "A\u{200B}B",
            "\u{1F409}",
        ] {
            assert_eq!(
                check("character's name", shown, NAME_MAX),
                Ok(()),
                "{shown:?}"
            );
        }
    }

    /// A name that begins with `-` would be read as an option on a command line, and offered by
    /// completion as one.
    #[test]
    fn a_name_that_begins_like_a_flag_is_refused() {
        for name in ["--db=/tmp/evil", "-rf", " -x"] {
            assert_eq!(
                check_name("character's name", name),
                Err(TextProblem::LikeAFlag("character's name"))
            );
        }
        assert_eq!(check_name("character's name", "Aldric-the-Bold"), Ok(()));
    }

    #[test]
    fn text_from_the_log_reaches_the_terminal_with_its_controls_shown_not_acted_on() {
        assert_eq!(printable("Aldric"), "Aldric");
        assert_eq!(printable("gm\u{1b}[31m"), "gm\\u{1b}[31m");
        assert_eq!(printable("a\u{202e}b"), "a\\u{202e}b");
    }

    /// A zero-width space, a soft hyphen or a byte-order mark in a name or the players' entropy is
    /// shown, so "Z\u{200b}w" and "Zw" no longer look alike; accents, emoji joiners and variation
    /// selectors print as they are.
    #[test]
    fn characters_that_hide_in_plain_sight_are_shown_as_escapes() {
        assert_eq!(printable("Z\u{200b}w"), "Z\\u{200b}w");
        assert_eq!(printable("a\u{ad}b"), "a\\u{ad}b");
        assert_eq!(printable("a\u{feff}b"), "a\\u{feff}b");
        // Format characters that are not ignorable hide too (an interlinear annotation anchor).
        assert_eq!(printable("x\u{fff9}y"), "x\\u{fff9}y");
        assert_eq!(printable("a\u{13430}b"), "a\\u{13430}b");
        for shown in [
            "Ele\u{301}onore",
            "\u{1f468}\u{200d}\u{1f469}",
            "\u{2764}\u{fe0f}",
            "Zoë",
        ] {
            assert_eq!(printable(shown), shown);
        }
    }

    #[test]
    fn length_counts_characters_not_bytes_and_ignores_surrounding_spaces() {
        assert_eq!(
            check("name", &format!("  {}  ", "é".repeat(60)), NAME_MAX),
            Ok(())
        );
        assert!(check("name", &"é".repeat(61), NAME_MAX).is_err());
    }
}
