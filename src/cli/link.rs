//! Players' links: the host a link names, the token's hash the campaign keeps, and the link drawn
//! as a QR code for a phone to scan. `player link` makes them and `serve` opens them.

/// A host as a link may name it: a name or an IPv4 address (letters, digits, dots and hyphens), or
/// an IPv6 address in brackets. Anything else could break the link, or the terminal it is
/// printed on.
pub fn host(text: &str) -> Result<String, String> {
    let name = !text.is_empty()
        && text.len() <= 253
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let bracketed = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .is_some_and(|t| t.parse::<std::net::Ipv6Addr>().is_ok());
    match name || bracketed {
        true => Ok(text.to_string()),
        false => Err(
            "give a host name or address as phones reach this machine, e.g. 192.168.1.20, gm-laptop.local or [fd00::1]"
                .to_string(),
        ),
    }
}

/// What the campaign keeps of a link's token: its SHA-256, in hex.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// `address` as a QR code of text blocks (two rows of modules a line), light on dark as a
/// terminal shows it best, with its quiet zone.
pub fn qr_code(address: &str) -> String {
    use qrcode::render::unicode::Dense1x2;
    match qrcode::QrCode::new(address.as_bytes()) {
        Ok(code) => {
            let mut drawn = code
                .render::<Dense1x2>()
                .dark_color(Dense1x2::Light)
                .light_color(Dense1x2::Dark)
                .build();
            drawn.push('\n');
            drawn
        }
        Err(_) => String::new(),
    }
}
