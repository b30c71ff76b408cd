//! Words, the lowest leaf of the model: names as the log compares them, and the closed lists the
//! log stores (attributes, ritual kinds, spell kinds, conditions, choices…),
//! each value with the one word people type and read for it: the command line offers these words,
//! the log lines print them, and no Rust name ever reaches the table. The model defines the words;
//! the command line offers them (`contract::command::words_of`).

/// A closed list with a word for each value.
pub trait Words: Copy + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// The value's word, as typed on the command line (`half-mp`, `knocked-out`).
    fn word(self) -> &'static str;
}

/// `words!(Type { Variant => "word", … })`: the generated match names every variant, so a value
/// added to the enum without its word does not compile.
macro_rules! words {
    ($ty:ident { $($variant:ident => $word:literal),+ $(,)? }) => {
        impl $crate::words::Words for $ty {
            const ALL: &'static [Self] = &[$($ty::$variant),+];
            fn word(self) -> &'static str {
                match self {
                    $($ty::$variant => $word),+
                }
            }
        }
    };
}
pub(crate) use words;

/// A number with its noun: `1 time`, `3 times`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A name as the log compares it: trimmed, any case. Characters, rituals and spells are found by it.
pub fn fold_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// A name folded as the log compares it, the key characters, rituals and spells are kept under: a
/// map keyed by it can only be asked with a name that went through [`Folded::of`], never with the
/// name as typed. Stored as the folded text.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Folded(String);

impl Folded {
    /// `name` folded: trimmed, any case.
    pub fn of(name: &str) -> Folded {
        Folded(fold_name(name))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `name` folds to this ([`folds_to`]).
    pub fn is(&self, name: &str) -> bool {
        folds_to(name, &self.0)
    }
}

impl std::fmt::Display for Folded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `name` folds to `folded` (already folded): `fold_name(name) == folded`, without building
/// the folded text for the usual plain-ASCII name, since reads ask it of every event and character.
pub fn folds_to(name: &str, folded: &str) -> bool {
    let name = name.trim();
    if name.is_ascii() {
        name.eq_ignore_ascii_case(folded) && !folded.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        fold_name(name) == folded
    }
}

/// Whether two spellings name the same character (names ignore case).
pub fn same_name(a: &str, b: &str) -> bool {
    fold_name(a) == fold_name(b)
}

/// Items joined for a sheet line, or "none".
pub fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join("; ")
    }
}

/// The text with its first letter capitalised.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
