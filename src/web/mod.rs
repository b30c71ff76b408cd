//! What the pages carry besides their HTML: the style sheets and scripts, each a file in this
//! folder, included at build time so the binary serves and writes them with nothing beside it.
//!
//! - `report.css`: the report's styles, which the live pages share
//! - `live.css`, `live.js`: the live pages' own styles, and the script that follows the log
//! - `rolls.js`: a player's page's part: rolls put to the phone, their receipts and flags
//! - `checker/`: the players' check (`GrimoireCheck`), plain JavaScript written apart from the
//!   Rust, in five files read as one script in the order of their numbers (they share one scope):
//!   the hashes, the export's form and text rules, the dice, the verification, and what it tells
//!   (a roll explained, the browser's witness, the self-test)
//! - `check.js`: what a page does with the check (runs it, shows what it found, answers a
//!   checkpoint and a roll to explain)

/// The report's styles, which the live pages share.
pub const REPORT_STYLE: &str = include_str!("report.css");

/// The live pages' own styles.
pub const LIVE_STYLE: &str = include_str!("live.css");

/// Follows the campaign: on each new head the server announces, fetches this page again and puts
/// its new parts in place (the page is never reloaded, so what a player typed stays), then checks
/// the log again. A link that stops opening anything says so.
pub const LIVE_SCRIPT: &str = include_str!("live.js");

/// The player's part of the page. It draws the rolls waiting on the device and answers one when
/// tapped (a roll the GM's device witnesses, at once) with 32 bytes from the browser's
/// cryptographic randomness. Before the bytes leave, it writes down what it was shown (the
/// request's number, commitment and command) with them, once: a request is never answered with
/// other bytes, nor under another commitment, and a lost connection sends the very same bytes.
/// Each time the log moves it reads the public log and checks every record: the request is there
/// with the same commitment and command, and was answered with exactly these bytes. Anything else
/// raises a flag at the top of the page, kept until the player dismisses it.
pub const ROLLS_SCRIPT: &str = include_str!("rolls.js");

/// The players' check, its five files as one script: SHA-256, HMAC and the README's derivations,
/// with no WebCrypto.
pub const CHECKER: &str = concat!(
    include_str!("checker/1-hashes.js"),
    include_str!("checker/2-export-form.js"),
    include_str!("checker/3-dice.js"),
    include_str!("checker/4-verify.js"),
    include_str!("checker/5-explain.js"),
);

/// What a page does with the check: runs it on load, puts each finding in the page as text (never
/// as markup: a forged log's words must not become the page's), and answers the two questions a
/// player asks (does my checkpoint hold, what was this roll).
pub const CHECK_SCRIPT: &str = include_str!("check.js");
