//! The server's own tests: its links and what a page is asked for.

use super::*;
use rand::SeedableRng;

/// The terminal's QR code is a square of block characters, the same width on every line, with
/// room for its quiet zone; a key is 128 bits in hex, and only that key opens.
#[test]
fn the_link_is_drawn_as_a_square_qr_code_and_its_key_opens_only_itself() {
    let drawn =
        crate::cli::link::qr_code("http://192.168.1.20:8737/5c1e0a7d9b3f48e2a6c4d8f0b2e4a6c8/");
    let lines: Vec<&str> = drawn.lines().collect();
    let width = lines[0].chars().count();
    assert!(
        width >= 29 + 8,
        "a version 3 code and its quiet zone: {width}"
    );
    assert!(lines.iter().all(|line| line.chars().count() == width));
    // Two rows of modules a line: as many lines as half the width, rounded up.
    assert_eq!(lines.len(), width.div_ceil(2), "{drawn}");
    assert!(drawn.contains('▀') || drawn.contains('▄'), "{drawn}");

    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let key = Key::new(&mut rng);
    assert_eq!(key.0.len(), 32);
    assert!(key.0.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(key.opens(&key.0));
    assert!(key.0 == key.0.to_uppercase() || !key.opens(&key.0.to_uppercase()));
    assert!(!key.opens(&key.0[..31]));
    assert_ne!(Key::new(&mut rng).0, key.0);
}
