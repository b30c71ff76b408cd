//! Which journal belongs to which file. SQLite applies a write-ahead log (`-wal`) to whatever
//! database file sits beside it, so a journal left by a killed process, beside a file copied into
//! its place, would be folded into the wrong file. grimoire ties the two together itself:
//!
//! - every campaign file carries an identity in `PRAGMA user_version` (page 1 of the file, bytes
//!   60–63): a random number given by the first write to a file that has none;
//! - every write transaction sets it again, which puts page 1, with the identity, into every
//!   journal that holds a commit;
//! - before SQLite opens a file, the journal beside it is read: when the versions of page 1 in it
//!   (of the journal's current generation) carry identities and none is the file's, the journal
//!   is another file's, and the file is not opened; both are left as they are, and named.
//!
//! A file with no identity yet (made before this rule, or never written since) accepts any journal,
//! as before. docs/architecture.md ("A journal belongs to its file") says the same.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Where the identity sits in page 1 (SQLite's "user version" field).
const IDENTITY_AT: usize = 60;
const WAL_HEADER: usize = 32;
const FRAME_HEADER: usize = 24;
/// The two magic numbers a write-ahead log starts with (big- or little-endian checksums).
const WAL_MAGIC: [u32; 2] = [0x377f_0682, 0x377f_0683];

/// A campaign file's identity as it stands on disk (not through its journal): `None` when the file
/// cannot be read or is too short to be a database.
pub fn on_disk(file: &Path) -> Option<i32> {
    let mut header = [0u8; 100];
    std::fs::File::open(file)
        .ok()?
        .read_exact(&mut header)
        .ok()?;
    Some(identity_in(&header))
}

fn identity_in(page: &[u8]) -> i32 {
    let bytes = [
        page[IDENTITY_AT],
        page[IDENTITY_AT + 1],
        page[IDENTITY_AT + 2],
        page[IDENTITY_AT + 3],
    ];
    i32::from_be_bytes(bytes)
}

/// The identities page 1 carries in the journal `wal`, in the journal's current generation (frames
/// whose salts match its header): empty when there is no journal, it holds no page 1, or it is
/// not a write-ahead log at all.
pub fn in_journal(wal: &Path) -> Vec<i32> {
    let Ok(mut file) = std::fs::File::open(wal) else {
        return Vec::new();
    };
    let mut header = [0u8; WAL_HEADER];
    if file.read_exact(&mut header).is_err() {
        return Vec::new();
    }
    let word = |bytes: &[u8], at: usize| {
        u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let page_size = word(&header, 8) as usize;
    if !WAL_MAGIC.contains(&word(&header, 0)) || !(512..=65536).contains(&page_size) {
        return Vec::new();
    }
    let salts = (word(&header, 16), word(&header, 20));
    let mut found = Vec::new();
    let mut frame = [0u8; FRAME_HEADER];
    let mut page = vec![0u8; page_size];
    let mut at = WAL_HEADER as u64;
    while file.seek(SeekFrom::Start(at)).is_ok()
        && file.read_exact(&mut frame).is_ok()
        && file.read_exact(&mut page).is_ok()
    {
        at += (FRAME_HEADER + page_size) as u64;
        if (word(&frame, 8), word(&frame, 12)) != salts {
            // Frames of an earlier generation, left behind the current one: SQLite reads none.
            break;
        }
        if word(&frame, 0) == 1 {
            let identity = identity_in(&page);
            if !found.contains(&identity) {
                found.push(identity);
            }
        }
    }
    found
}

/// Whether the journal `wal` may be applied to `file`: `Err` with an identity it carries when it
/// belongs to another file. A journal may hold several versions of page 1, the file's history
/// since its last fold (none yet, then its identity; a tour's mark put in place of one): it
/// belongs when the identity on disk is among them, or when it names none.
pub fn belongs(file: &Path, wal: &Path) -> Result<(), i32> {
    let Some(identity) = on_disk(file).filter(|&id| id != 0) else {
        return Ok(());
    };
    let named: Vec<i32> = in_journal(wal).into_iter().filter(|&id| id != 0).collect();
    match named.first() {
        Some(&other) if !named.contains(&identity) => Err(other),
        _ => Ok(()),
    }
}

/// A fresh identity: never 0 (no identity) nor the tour's mark.
pub fn fresh(rng: &mut impl rand::Rng) -> i32 {
    loop {
        let id: i32 = rng.random();
        if id != 0 && id != super::TOUR_MARK {
            return id;
        }
    }
}
