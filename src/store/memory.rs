//! The in-memory backend: a campaign that lives as long as the process, for tests that want the
//! whole store (chain, replay, snapshots, secrets) without a file or a server.
//!
//! It implements only what [`LogRead`] and [`LogWrite`] require, so the store conformance suite,
//! run on it as on SQLite and PostgreSQL, also checks the seam's provided methods (the ones the SQL
//! backends answer with a query of their own) against their plain definitions.

use super::StoreError;
use super::backend::{Backend, InsertError, LogRead, LogWrite, SnapshotInfo, Visit};
use super::chain::StoredRow;
use crate::seq::Seq;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};

/// One campaign's log in memory. Clones are handles to the same campaign (a second "process"
/// opening it), and each may be given to its own thread.
#[derive(Debug, Clone, Default)]
pub struct MemoryLog {
    data: Arc<Mutex<Data>>,
}

impl MemoryLog {
    pub fn new() -> MemoryLog {
        MemoryLog::default()
    }

    /// A campaign of its own holding what this one holds now (a copy of a file, not a second
    /// handle on it): what is recorded on either is not seen by the other.
    pub fn fork(&self) -> MemoryLog {
        MemoryLog {
            data: Arc::new(Mutex::new(self.lock().clone())),
        }
    }

    /// A store on this campaign: what [`super::Store::open`] gives for a file.
    pub fn open(&self) -> super::Store {
        super::Store::on(Box::new(MemoryBackend { log: self.clone() }))
    }

    /// The campaign's data, held for one transaction: a writer holds it until it commits or drops,
    /// so writers queue up as they do behind a database's write lock.
    fn lock(&self) -> MutexGuard<'_, Data> {
        // A thread that panicked mid-transaction changed only its own working copy.
        self.data
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(Debug, Clone, Default)]
struct Data {
    /// Row `seq` at index `seq - 1`: the store appends gapless seqs.
    rows: Vec<StoredRow>,
    event_ids: BTreeSet<String>,
    secrets: BTreeMap<(String, String), String>,
    snapshots: BTreeMap<Seq, Snapshot>,
    tour: bool,
}

#[derive(Debug, Clone)]
struct Snapshot {
    format: String,
    head_hash: String,
    state: String,
}

struct MemoryBackend {
    log: MemoryLog,
}

impl Backend for MemoryBackend {
    fn place(&self) -> String {
        "a campaign in memory".into()
    }

    fn read(&mut self) -> Result<Box<dyn LogRead + '_>, StoreError> {
        // A read sees one moment: a copy taken under the lock (memory campaigns are small).
        let data = self.log.lock().clone();
        Ok(Box::new(MemoryRead { data }))
    }

    fn write(&mut self) -> Result<Box<dyn LogWrite + '_>, StoreError> {
        let held = self.log.lock();
        let working = held.clone();
        Ok(Box::new(MemoryWrite { held, working }))
    }

    fn storage_problems(&mut self, _thorough: bool) -> Result<u64, StoreError> {
        Ok(0)
    }

    fn is_tour(&mut self) -> Result<bool, StoreError> {
        Ok(self.log.lock().tour)
    }

    fn mark_as_tour(&mut self) -> Result<(), StoreError> {
        self.log.lock().tour = true;
        Ok(())
    }

    fn publish(self: Box<Self>) -> Result<Box<dyn Backend>, StoreError> {
        Ok(self)
    }
}

struct MemoryRead {
    data: Data,
}

/// A write works on a copy of the data while holding the lock; commit puts the copy in place, and
/// dropping it uncommitted leaves the campaign as it was.
struct MemoryWrite<'a> {
    held: MutexGuard<'a, Data>,
    working: Data,
}

impl Data {
    fn head(&self) -> Option<(Seq, String)> {
        self.rows.last().map(|row| (row.seq, row.hash.clone()))
    }

    fn rows(&self, from: Seq, upto: Seq, visit: Visit<'_>) -> Result<(), StoreError> {
        for row in self
            .rows
            .iter()
            .filter(|row| (from..=upto).contains(&row.seq))
        {
            if visit(row.clone())?.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn secret(&self, kind: &str, key: &str) -> Option<String> {
        self.secrets.get(&(kind.into(), key.into())).cloned()
    }

    fn secrets(&self) -> Vec<(String, String, String)> {
        self.secrets
            .iter()
            .map(|((kind, key), value)| (kind.clone(), key.clone(), value.clone()))
            .collect()
    }

    fn snapshots(&self, upto: Seq, limit: u64) -> Vec<SnapshotInfo> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        self.snapshots
            .range(..=upto)
            .rev()
            .take(limit)
            .map(|(seq, snapshot)| SnapshotInfo {
                seq: *seq,
                format: snapshot.format.clone(),
                head_hash: snapshot.head_hash.clone(),
                event_hash: self
                    .rows
                    .get(
                        usize::try_from(seq.get())
                            .unwrap_or(usize::MAX)
                            .wrapping_sub(1),
                    )
                    .map(|row| row.hash.clone()),
            })
            .collect()
    }

    fn snapshot(&self, seq: Seq) -> Option<String> {
        self.snapshots.get(&seq).map(|s| s.state.clone())
    }
}

/// Both transactions read the same way, from their own data.
macro_rules! reads_from {
    ($tx:ty, $data:ident) => {
        impl LogRead for $tx {
            fn head(&mut self) -> Result<Option<(Seq, String)>, StoreError> {
                Ok(self.$data.head())
            }
            fn rows(&mut self, from: Seq, upto: Seq, visit: Visit<'_>) -> Result<(), StoreError> {
                self.$data.rows(from, upto, visit)
            }
            fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError> {
                Ok(self.$data.secret(kind, key))
            }
            fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError> {
                Ok(self.$data.secrets())
            }
            fn snapshots(
                &mut self,
                upto: Seq,
                limit: u64,
            ) -> Result<Vec<SnapshotInfo>, StoreError> {
                Ok(self.$data.snapshots(upto, limit))
            }
            fn snapshot(&mut self, seq: Seq) -> Result<Option<String>, StoreError> {
                Ok(self.$data.snapshot(seq))
            }
        }
    };
}

reads_from!(MemoryRead, data);
reads_from!(MemoryWrite<'_>, working);

impl LogWrite for MemoryWrite<'_> {
    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError> {
        let next = Seq(self.working.rows.len() as u64 + 1);
        if row.seq != next {
            // A seq already taken is a duplicate key, as in a database; a gap is a bug above.
            return Err(if row.seq < next {
                InsertError::Duplicate
            } else {
                InsertError::Failed(StoreError::Internal(format!(
                    "row #{} appended after #{}",
                    row.seq,
                    next - 1
                )))
            });
        }
        if !self.working.event_ids.insert(row.event_id.clone()) {
            return Err(InsertError::Duplicate);
        }
        self.working.rows.push(row.clone());
        Ok(())
    }

    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError> {
        match self.working.secrets.entry((kind.into(), key.into())) {
            std::collections::btree_map::Entry::Occupied(_) => Err(InsertError::Duplicate),
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(value.into());
                Ok(())
            }
        }
    }

    fn put_snapshot(
        &mut self,
        seq: Seq,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError> {
        self.working.snapshots.insert(
            seq,
            Snapshot {
                format: format.into(),
                head_hash: head_hash.into(),
                state: state.into(),
            },
        );
        Ok(())
    }

    fn snapshot_seqs(&mut self) -> Result<Vec<Seq>, StoreError> {
        Ok(self.working.snapshots.keys().copied().collect())
    }

    fn delete_snapshots(&mut self, seqs: &[Seq]) -> Result<(), StoreError> {
        for seq in seqs {
            self.working.snapshots.remove(seq);
        }
        Ok(())
    }

    fn commit(mut self: Box<Self>) -> Result<(), StoreError> {
        *self.held = std::mem::take(&mut self.working);
        Ok(())
    }
}
