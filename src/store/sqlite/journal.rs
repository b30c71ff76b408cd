//! Which journal belongs to which file. SQLite applies a write-ahead log (`-wal`) to whatever
//! database file sits beside it, so a journal left by a killed process, beside a file copied into
//! its place, would be folded into the wrong file. grimoire ties the two together itself:
//!
//! - every campaign file carries a stamp in `PRAGMA user_version` (page 1 of the file, bytes
//!   60–63): its identity in the high 12 bits, a random number given by the first write to a file
//!   that has none, and a count of its writes (wrapping at 1,048,576) in the low 20;
//! - every write transaction counts itself there, which puts page 1, with the stamp, into every
//!   journal that holds a commit;
//! - before SQLite opens a file, the journal beside it is read: when the versions of page 1 in it
//!   (of the journal's current generation) carry identities and none is the file's, the journal
//!   is another file's; when they carry the file's but its count of writes is not where the
//!   journal starts nor one it passes (a copy of the same campaign from an earlier or a later
//!   moment), the journal is another moment's. Either way the file is not opened; both are left as
//!   they are, and named.
//!
//! A file with no identity yet (made before this rule, or never written since) accepts any journal,
//! as before. docs/architecture.md ("A journal belongs to its file") says the same.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Where the stamp sits in page 1 (SQLite's "user version" field).
const STAMP_AT: usize = 60;
const WAL_HEADER: usize = 32;
const FRAME_HEADER: usize = 24;
/// The low bits of the stamp count writes; the high ones are the identity. A journal folds into
/// another file only when both match: another campaign's must share its identity (1 in 4,096)
/// and a count its commits pass; a copy of the same campaign must lie a multiple of 2^20 writes
/// from where the journal started.
const COUNT_BITS: u32 = 20;
const COUNTS: u32 = 1 << COUNT_BITS;
/// The two magic numbers a write-ahead log starts with (big- or little-endian checksums).
const WAL_MAGIC: [u32; 2] = [0x377f_0682, 0x377f_0683];

/// A campaign file's stamp as it stands on disk (not through its journal): `None` when the file
/// cannot be read or is too short to be a database.
pub fn on_disk(file: &Path) -> Option<i32> {
    let mut header = [0u8; 100];
    std::fs::File::open(file)
        .ok()?
        .read_exact(&mut header)
        .ok()?;
    Some(stamp_in(&header))
}

fn stamp_in(page: &[u8]) -> i32 {
    i32::from_be_bytes([
        page[STAMP_AT],
        page[STAMP_AT + 1],
        page[STAMP_AT + 2],
        page[STAMP_AT + 3],
    ])
}

/// The identity a stamp carries (0: none).
pub fn identity(stamp: i32) -> u32 {
    stamp as u32 >> COUNT_BITS
}

/// The count of writes a stamp carries.
fn writes(stamp: i32) -> u32 {
    stamp as u32 & (COUNTS - 1)
}

/// Whether two stamps are of one file (at any moment).
pub fn same_file(a: i32, b: i32) -> bool {
    identity(a) == identity(b)
}

/// The stamp after one more write: the same identity, one more write counted.
pub fn after_a_write(stamp: i32) -> i32 {
    ((stamp as u32 & !(COUNTS - 1)) | ((writes(stamp) + 1) % COUNTS)) as i32
}

/// The stamps page 1 carries in the journal `wal`, in the journal's current generation (frames
/// whose salts match its header), in the order written: empty when there is no journal, it holds
/// no page 1, or it is not a write-ahead log at all.
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
            found.push(stamp_in(&page));
        }
    }
    found
}

/// Why a journal may not be applied to the file beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotItsJournal {
    /// It was written on another file.
    AnotherFile,
    /// It was written on this campaign, but the file is a copy of an earlier (or a later) moment.
    AnotherMoment { earlier: bool },
}

/// Whether the journal `wal` may be applied to `file`. A journal holds the versions of page 1
/// since the file's last fold (none yet, then its stamp; a tour's mark put in place of one), each
/// write counted one more: it belongs when it names no identity, or when the file's is among them
/// and the file's count of writes is where the journal starts or one it passes (a fold may have
/// taken in part of it).
pub fn belongs(file: &Path, wal: &Path) -> Result<(), NotItsJournal> {
    let Some(on_disk) = on_disk(file).filter(|&stamp| identity(stamp) != 0) else {
        return Ok(());
    };
    let named: Vec<i32> = in_journal(wal)
        .into_iter()
        .filter(|&stamp| identity(stamp) != 0)
        .collect();
    if named.is_empty() {
        return Ok(());
    }
    continues(on_disk, &named)
}

/// Whether a journal whose versions of page 1 carry the stamps `named` (each with an identity, in
/// the order written) may be applied to a file stamped `on_disk`.
fn continues(on_disk: i32, named: &[i32]) -> Result<(), NotItsJournal> {
    let own: Vec<u32> = named
        .iter()
        .filter(|&&stamp| same_file(stamp, on_disk))
        .map(|&stamp| writes(stamp))
        .collect();
    let (Some(&first), Some(&last)) = (own.first(), own.last()) else {
        return Err(NotItsJournal::AnotherFile);
    };
    // Counted round the 2^20: the file's count must lie from the write before the journal's
    // first to its last. A journal of as many commits has gone all the way round: any count is
    // one it passes.
    if own.len() >= COUNTS as usize {
        return Ok(());
    }
    let from = (first + COUNTS - 1) % COUNTS;
    let after = |count: u32| (count + COUNTS - from) % COUNTS;
    let file = writes(on_disk);
    if after(file) <= after(last) {
        return Ok(());
    }
    let behind = (from + COUNTS - file) % COUNTS;
    let ahead = (file + COUNTS - last) % COUNTS;
    Err(NotItsJournal::AnotherMoment {
        earlier: behind < ahead,
    })
}

/// A fresh stamp: an identity never 0 (none) nor the tour's mark's, and no write counted yet.
pub fn fresh(rng: &mut impl rand::Rng) -> i32 {
    loop {
        let stamp = (rng.random::<u32>() & !(COUNTS - 1)) as i32;
        if identity(stamp) != 0 && !same_file(stamp, super::TOUR_MARK) {
            return stamp;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_counts_itself_and_keeps_the_identity() {
        let stamp = 0x123f_fffe_u32 as i32;
        let next = after_a_write(stamp);
        assert!(same_file(stamp, next));
        assert_eq!(writes(next), 0xf_ffff);
        assert_eq!(writes(after_a_write(next)), 0, "counts wrap at 2^20");
        assert!(same_file(after_a_write(next), stamp));
    }

    /// A journal belongs to the file it continues (at its start, or part of it folded in), never
    /// to a copy of another moment, even thousands of writes away across a wrap of 4,096 (a count
    /// of 12 bits once let an earlier copy take a journal 4,100 writes on).
    #[test]
    fn a_journal_continues_only_the_moments_its_commits_pass() {
        let id = 0x5a5 << COUNT_BITS;
        let stamp = |count: u32| (id | count) as i32;
        let journal: Vec<i32> = (4005..4105).map(stamp).collect();
        for file in [4004, 4005, 4050, 4104] {
            assert_eq!(continues(stamp(file), &journal), Ok(()), "{file}");
        }
        for (file, earlier) in [
            (0, true),
            (4003, true),
            (92, true),
            (4105, false),
            (9000, false),
        ] {
            assert_eq!(
                continues(stamp(file), &journal),
                Err(NotItsJournal::AnotherMoment { earlier }),
                "{file}"
            );
        }
        let stranger = (0x111_u32 << COUNT_BITS | 4050) as i32;
        assert_eq!(
            continues(stranger, &journal),
            Err(NotItsJournal::AnotherFile)
        );
    }
}
