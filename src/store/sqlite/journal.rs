//! Which journal belongs to which file. SQLite applies a write-ahead log (`-wal`) to whatever
//! database file sits beside it, so a journal left by a killed process, beside a file copied into
//! its place, would be folded into the wrong file. grimoire ties the two together itself:
//!
//! - every campaign file carries a stamp in `PRAGMA user_version` (page 1 of the file, bytes
//!   60–63): an identity in the high 4 bits, a random number given by the first write to a file
//!   that has none; a count of its writes (wrapping at 256) in the next 8; then the random mark of
//!   the write before, and in the low 10 bits a random mark drawn afresh at every write;
//! - every write transaction stamps the file anew, which puts page 1, with the stamp, into every
//!   journal that holds a commit;
//! - before SQLite opens a file, and under the write lock before every write, the journal beside
//!   it is read: the versions of page 1 in it (of the journal's current generation) are the file's
//!   history since its last fold. The journal belongs to the file when it names no identity, or
//!   when the file's stamp is one of them (a fold took in part of it) or the one its first commit
//!   followed (the count one less, the mark the one that commit names). Otherwise it is another
//!   file's, or another moment's of this campaign: an earlier or later copy, or one that went on
//!   by itself. The file is not opened, nor written, nor folded into at close; both are left as
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
/// The stamp's parts, from the low bits: this write's random mark, the write before's, the count
/// of writes, and the identity. Another file's journal folds in only when the identity (1 in 16)
/// and a whole stamp or the journal's start (1 in 2^18) match; a copy of the same campaign only
/// when count and marks match: a copy that went on by itself 1 in 1,024 for the commit it shares
/// a count with, an earlier one never written since far less.
const MARK_BITS: u32 = 10;
const COUNT_BITS: u32 = 8;
const COUNTS: u32 = 1 << COUNT_BITS;
const MARKS: u32 = 1 << MARK_BITS;
const IDENTITY_AT_BIT: u32 = COUNT_BITS + 2 * MARK_BITS;
/// The two magic numbers a write-ahead log starts with (big- or little-endian checksums).
const WAL_MAGIC: [u32; 2] = [0x377f_0682, 0x377f_0683];

/// A campaign file's stamp as it stands on disk (not through its journal): `None` when the file
/// cannot be read or is too short to be a database.
pub fn on_disk(file: &Path) -> Option<i32> {
    let mut header = [0u8; 100];
    // Never through a descriptor of its own, whose close would drop the process's locks.
    super::header::read_start(file, &mut header)?;
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
    stamp as u32 >> IDENTITY_AT_BIT
}

/// The count of writes a stamp carries.
fn writes(stamp: i32) -> u32 {
    (stamp as u32 >> (2 * MARK_BITS)) % COUNTS
}

/// The random mark of the write before the one a stamp is of.
fn mark_before(stamp: i32) -> u32 {
    (stamp as u32 >> MARK_BITS) % MARKS
}

/// The random mark of the write a stamp is of.
fn mark(stamp: i32) -> u32 {
    stamp as u32 % MARKS
}

/// Whether two stamps are of one file (at any moment).
pub fn same_file(a: i32, b: i32) -> bool {
    identity(a) == identity(b)
}

/// The stamp after one more write: the same identity (a fresh one when there is none), one more
/// write counted, the last write's mark kept as the one before, a new random mark. A tour's mark
/// stays as it is.
pub fn after_a_write(stamp: i32, rng: &mut impl rand::Rng) -> i32 {
    if stamp == super::TOUR_MARK {
        return stamp;
    }
    let id = match identity(stamp) {
        0 => fresh(rng),
        id => id,
    };
    let count = (writes(stamp) + 1) % COUNTS;
    loop {
        let new = rng.random::<u32>() % MARKS;
        let next = ((id << IDENTITY_AT_BIT)
            | (count << (2 * MARK_BITS))
            | (mark(stamp) << MARK_BITS)
            | new) as i32;
        // No campaign reads as a tour.
        if next != super::TOUR_MARK {
            return next;
        }
    }
}

/// What a connection has read of its journal so far, so the look before each write reads only the
/// frames added since: a generation's committed frames never change (SQLite starts the journal
/// afresh, with new salts, before writing over them), so the stamps up to the last commit seen
/// are kept; frames past it may still be written over, and are read again each time. Walking the
/// whole journal before every write cost a shell's write as much again as the write itself.
#[derive(Debug, Default)]
pub struct JournalScan {
    /// The journal read, its generation's salts, and where its last commit seen ends.
    seen: Option<(std::path::PathBuf, (u32, u32), u64)>,
    /// The stamps of page 1 up to that commit, in the order written.
    committed: Vec<i32>,
}

impl JournalScan {
    /// The stamps page 1 carries in the journal `wal`, in the journal's current generation
    /// (frames whose salts match its header), in the order written: empty when there is no
    /// journal, it holds no page 1, or it is not a write-ahead log at all. Reads only what this
    /// scan has not read yet.
    pub fn stamps(&mut self, wal: &Path) -> Vec<i32> {
        let Ok(mut file) = std::fs::File::open(wal) else {
            *self = Self::default();
            return Vec::new();
        };
        let mut header = [0u8; WAL_HEADER];
        if file.read_exact(&mut header).is_err() {
            *self = Self::default();
            return Vec::new();
        }
        let word = |bytes: &[u8], at: usize| {
            u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let page_size = word(&header, 8) as usize;
        if !WAL_MAGIC.contains(&word(&header, 0)) || !(512..=65536).contains(&page_size) {
            *self = Self::default();
            return Vec::new();
        }
        let salts = (word(&header, 16), word(&header, 20));
        let length = file.metadata().map_or(0, |m| m.len());
        // Another journal, another generation, or one cut short: read from its start.
        let mut at = match &self.seen {
            Some((path, seen_salts, end))
                if path == wal && *seen_salts == salts && *end <= length =>
            {
                *end
            }
            _ => {
                self.committed.clear();
                WAL_HEADER as u64
            }
        };
        let mut since_commit = Vec::new();
        let mut frame = [0u8; FRAME_HEADER];
        // Only page 1's first 100 bytes (the header) are read: it is looked at before every write.
        let mut header_of_page = [0u8; 100];
        while file.seek(SeekFrom::Start(at)).is_ok() && file.read_exact(&mut frame).is_ok() {
            if (word(&frame, 8), word(&frame, 12)) != salts {
                // Frames of an earlier generation, left behind the current one: SQLite reads none.
                break;
            }
            if word(&frame, 0) == 1 {
                if file.read_exact(&mut header_of_page).is_err() {
                    break;
                }
                since_commit.push(stamp_in(&header_of_page));
            }
            at += (FRAME_HEADER + page_size) as u64;
            // A commit frame names the database's size after it: what came before is settled.
            if word(&frame, 4) != 0 {
                self.committed.append(&mut since_commit);
                self.seen = Some((wal.to_path_buf(), salts, at));
            }
        }
        if self
            .seen
            .as_ref()
            .is_none_or(|(_, seen_salts, _)| *seen_salts != salts)
        {
            self.seen = Some((wal.to_path_buf(), salts, WAL_HEADER as u64));
        }
        let mut found = self.committed.clone();
        found.extend(since_commit);
        found
    }
}

/// Why a journal may not be applied to the file beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotItsJournal {
    /// It was written on another file.
    AnotherFile,
    /// It was written on this campaign, but the file is a copy of another moment: an earlier or a
    /// later one, or one that went on by itself.
    AnotherMoment,
}

/// Whether the journal `wal` may be applied to `file` (see the module's words).
pub fn belongs(file: &Path, wal: &Path) -> Result<(), NotItsJournal> {
    belongs_as_scanned(file, wal, &mut JournalScan::default())
}

/// [`belongs`], reading the journal through `scan`, which keeps what it read for the next look.
pub fn belongs_as_scanned(
    file: &Path,
    wal: &Path,
    scan: &mut JournalScan,
) -> Result<(), NotItsJournal> {
    let Some(on_disk) = on_disk(file).filter(|&stamp| identity(stamp) != 0) else {
        return Ok(());
    };
    let named: Vec<i32> = scan
        .stamps(wal)
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
    let own: Vec<i32> = named
        .iter()
        .copied()
        .filter(|&stamp| same_file(stamp, on_disk))
        .collect();
    let Some(&first) = own.first() else {
        return Err(NotItsJournal::AnotherFile);
    };
    // A version the journal holds (a fold took in part of it), or the one its first write followed.
    let before_first = (writes(first) + COUNTS - 1) % COUNTS;
    let is_its_start = writes(on_disk) == before_first && mark(on_disk) == mark_before(first);
    if own.contains(&on_disk) || is_its_start {
        Ok(())
    } else {
        Err(NotItsJournal::AnotherMoment)
    }
}

/// A fresh identity: never 0 (none) nor the tour's mark's.
fn fresh(rng: &mut impl rand::Rng) -> u32 {
    loop {
        let id = rng.random::<u32>() >> IDENTITY_AT_BIT;
        if id != 0 && id != identity(super::TOUR_MARK) {
            return id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A scan kept across writes reads what a fresh one reads, write after write, across a fold
    /// that starts the journal afresh, and for another journal read through the same scan.
    #[test]
    fn a_scan_kept_across_writes_reads_what_a_fresh_one_reads() {
        let dir = tempfile::tempdir().unwrap();
        let open = |name: &str| {
            let conn = rusqlite::Connection::open(dir.path().join(name)).unwrap();
            conn.pragma_update(None, "journal_mode", "wal").unwrap();
            // Folded by hand only, so the journal grows write after write.
            conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
            conn.execute_batch("CREATE TABLE t (x)").unwrap();
            conn
        };
        let (a, b) = (open("a.db"), open("b.db"));
        let (wal_a, wal_b) = (dir.path().join("a.db-wal"), dir.path().join("b.db-wal"));
        let mut kept = JournalScan::default();
        let fresh = |wal: &Path| JournalScan::default().stamps(wal);
        for version in 1..=30 {
            a.pragma_update(None, "user_version", version).unwrap();
            a.execute("INSERT INTO t VALUES (?1)", [version]).unwrap();
            let seen = kept.stamps(&wal_a);
            assert_eq!(seen, fresh(&wal_a), "after write {version}");
            assert_eq!(seen.last(), Some(&version));
            if version == 20 {
                // Folded and started afresh: the next frames are a new generation.
                a.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))
                    .unwrap();
            }
        }
        assert!(
            kept.stamps(&wal_a).iter().all(|&s| s > 20),
            "only the new generation"
        );
        b.pragma_update(None, "user_version", 99).unwrap();
        // Its table's creation, then the stamp.
        assert_eq!(
            kept.stamps(&wal_b),
            vec![0, 99],
            "another journal is read from its start"
        );
        assert_eq!(kept.stamps(&wal_a), fresh(&wal_a));
    }

    fn stamp(id: u32, count: u32, before: u32, now: u32) -> i32 {
        ((id << IDENTITY_AT_BIT) | (count << (2 * MARK_BITS)) | (before << MARK_BITS) | now) as i32
    }

    #[test]
    fn a_write_counts_itself_keeps_the_identity_and_chains_the_marks() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let before = stamp(0x6, COUNTS - 1, 3, 5);
        let next = after_a_write(before, &mut rng);
        assert!(same_file(before, next));
        assert_eq!(
            (writes(next), mark_before(next)),
            (0, 5),
            "counts wrap; the mark is kept"
        );
        assert_eq!(
            after_a_write(super::super::TOUR_MARK, &mut rng),
            super::super::TOUR_MARK
        );
        assert_ne!(
            identity(after_a_write(0, &mut rng)),
            0,
            "a first write gives an identity"
        );
    }

    /// A journal belongs to the file it continues (at its start, or part of it folded in), never
    /// to a copy of another moment: earlier or later, however far (a count of 12 bits once let an
    /// earlier copy take a journal 4,100 writes on), nor one that went on by itself, whether from
    /// the count the journal starts at or the one before it (a count alone once let both).
    #[test]
    fn a_journal_continues_only_the_moments_it_holds() {
        // Writes 100 to 139, each naming the mark of the one before (write 99's: 77).
        let mut journal = Vec::new();
        let mut before = 77;
        for n in 100..140 {
            let now = n * 7 % MARKS;
            journal.push(stamp(0x6, n % COUNTS, before, now));
            before = now;
        }
        assert_eq!(
            continues(stamp(0x6, 99, 12, 77), &journal),
            Ok(()),
            "its start"
        );
        for at in [0, 10, 39] {
            assert_eq!(continues(journal[at], &journal), Ok(()), "{at}");
        }
        for other in [
            stamp(0x6, 98, 1, 2),
            stamp(0x6, 140, 1, 2),
            // At the journal's starting count, but another write.
            stamp(0x6, 99, 12, 78),
            // Went on by itself from write 99: its write 100 has another mark.
            stamp(0x6, 100, 77, 1023),
        ] {
            assert_eq!(
                continues(other, &journal),
                Err(NotItsJournal::AnotherMoment)
            );
        }
        assert_eq!(
            continues(stamp(0x7, 120, 1, 840), &journal),
            Err(NotItsJournal::AnotherFile)
        );
    }
}
