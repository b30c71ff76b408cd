//! One SQLite transaction: the rows, secrets and snapshots of a campaign file.

use super::db_error;
use crate::seq::Seq;
use crate::store::StoreError;
use crate::store::backend::{
    InsertError, LogRead, LogWrite, Payload, SnapshotInfo, Visit, VisitPayload,
};
use crate::store::chain::StoredRow;
use crate::store::migrations;
use rusqlite::types::ValueRef;
use rusqlite::{ErrorCode, OptionalExtension, Transaction, params};
use std::ops::ControlFlow;
use std::path::PathBuf;

const ROW_COLUMNS: &str = "seq, event_id, kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash";

/// One SQLite transaction, read-only (deferred) or holding the write lock (immediate).
pub(super) struct SqliteTx<'c> {
    pub(super) tx: Transaction<'c>,
    pub(super) path: PathBuf,
}

impl SqliteTx<'_> {
    fn fail(&self, action: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| db_error(&self.path, action, e)
    }

    /// Streams the rows a query selects (columns as [`ROW_COLUMNS`]) into `visit`.
    fn stream(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let mut stmt = self.tx.prepare_cached(sql).map_err(self.fail("read"))?;
        let mut rows = stmt.query(params).map_err(self.fail("read"))?;
        while let Some(row) = rows.next().map_err(self.fail("read"))? {
            if visit(read_row(row).map_err(self.fail("read"))??)?.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn insert(&self, sql: &str, params: impl rusqlite::Params) -> Result<(), InsertError> {
        let mut stmt = self
            .tx
            .prepare_cached(sql)
            .map_err(|e| InsertError::Failed(db_error(&self.path, "written", e)))?;
        match stmt.execute(params) {
            Ok(_) => Ok(()),
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                Err(InsertError::Duplicate)
            }
            Err(e) => Err(InsertError::Failed(db_error(&self.path, "written", e))),
        }
    }
}

impl LogRead for SqliteTx<'_> {
    fn head(&mut self) -> Result<Option<(Seq, String)>, StoreError> {
        // Cached: every write and every read of a kept state asks for the head.
        self.tx
            .prepare_cached("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")
            .and_then(|mut stmt| {
                stmt.query_row([], |r| {
                    let seq = Seq(r.get(0)?);
                    // A hash that is not text is damage to that row, not a failing disk.
                    Ok(match r.get_ref(1)? {
                        ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
                            Ok(hash) => Ok((seq, hash.to_string())),
                            Err(_) => Err(seq),
                        },
                        _ => Err(seq),
                    })
                })
                .optional()
            })
            .map_err(self.fail("read"))?
            .map(|head| {
                head.map_err(|seq| StoreError::DamagedRow {
                    seq,
                    what: "its hash is not valid UTF-8 text".into(),
                })
            })
            .transpose()
    }

    fn rows(&mut self, from: Seq, upto: Seq, visit: Visit<'_>) -> Result<(), StoreError> {
        let sql =
            format!("SELECT {ROW_COLUMNS} FROM events WHERE seq >= ?1 AND seq <= ?2 ORDER BY seq");
        self.stream(&sql, params![to_sql_seq(from), to_sql_seq(upto)], visit)
    }

    fn rows_mentioning(
        &mut self,
        from: Seq,
        upto: Seq,
        needle: &str,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        // SQLite's lower() folds ASCII letters only, as the needle is.
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE seq >= ?1 AND seq <= ?2 AND instr(lower(payload), ?3) > 0 ORDER BY seq"
        );
        self.stream(
            &sql,
            params![to_sql_seq(from), to_sql_seq(upto), needle],
            visit,
        )
    }

    fn payloads(
        &mut self,
        from: Seq,
        upto: Seq,
        visit: VisitPayload<'_>,
    ) -> Result<(), StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT seq, kind, schema_version, payload FROM events WHERE seq >= ?1 AND seq <= ?2 ORDER BY seq",
            )
            .map_err(|e| db_error(&self.path, "read", e))?;
        let mut rows = stmt
            .query(params![to_sql_seq(from), to_sql_seq(upto)])
            .map_err(|e| db_error(&self.path, "read", e))?;
        while let Some(row) = rows.next().map_err(|e| db_error(&self.path, "read", e))? {
            let fail = |e| db_error(&self.path, "read", e);
            let seq = Seq(row.get(0).map_err(fail)?);
            let schema_version: u32 = row.get(2).map_err(fail)?;
            let text = |i: usize| match row.get_ref(i).map_err(fail)? {
                ValueRef::Text(bytes) => {
                    std::str::from_utf8(bytes).map_err(|_| StoreError::DamagedRow {
                        seq,
                        what: "its text is not valid UTF-8 (grimoire writes only UTF-8)".into(),
                    })
                }
                _ => Err(StoreError::DamagedRow {
                    seq,
                    what: "a text column holds something else".into(),
                }),
            };
            visit(Payload {
                seq,
                kind: text(1)?,
                schema_version,
                payload: text(3)?,
            })?;
        }
        Ok(())
    }

    fn rows_of_kind(
        &mut self,
        kind: &str,
        after: Seq,
        upto: Seq,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE kind = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq"
        );
        self.stream(
            &sql,
            params![kind, to_sql_seq(after), to_sql_seq(upto)],
            visit,
        )
    }

    fn last_of_kinds(
        &mut self,
        kinds: &[&str],
        before: Seq,
    ) -> Result<Option<StoredRow>, StoreError> {
        let mut newest: Option<StoredRow> = None;
        for kind in kinds {
            let sql = format!(
                "SELECT {ROW_COLUMNS} FROM events WHERE kind = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT 1"
            );
            self.stream(&sql, params![kind, to_sql_seq(before)], &mut |row| {
                if newest.as_ref().is_none_or(|n| n.seq < row.seq) {
                    newest = Some(row);
                }
                Ok(ControlFlow::Break(()))
            })?;
        }
        Ok(newest)
    }

    fn last_before_time(&mut self, game_time: u64) -> Result<Option<Seq>, StoreError> {
        // The clock moves back only when a time advance is retracted, so no index orders events
        // by it: this reads every row, once per `--at day:D`.
        self.tx
            .query_row(
                "SELECT max(seq) FROM events WHERE game_time < ?1",
                [to_sql_seq(game_time)],
                |r| r.get::<_, Option<u64>>(0).map(|seq| seq.map(Seq)),
            )
            .map_err(self.fail("read"))
    }

    fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError> {
        // Cached: every command that may roll looks up its epoch's seed.
        self.tx
            .prepare_cached("SELECT kind, key, value FROM secrets WHERE kind = ?1 AND key = ?2")
            .and_then(|mut stmt| stmt.query_row([kind, key], read_secret).optional())
            .map_err(self.fail("read"))?
            .map(|secret| secret.map(|(_, _, value)| value))
            .transpose()
    }

    fn secrets_with_prefix(&mut self, kind: &str, prefix: &str) -> Result<Vec<String>, StoreError> {
        // Keys are 'SEQ:N' or an epoch number: no LIKE wildcards to escape in a prefix of digits,
        // but substr keeps any prefix literal.
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT kind, key, value FROM secrets WHERE kind = ?1 AND substr(key, 1, length(?2)) = ?2 ORDER BY key",
            )
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([kind, prefix], read_secret)
            .map_err(self.fail("read"))?;
        rows.map(|row| Ok(row.map_err(self.fail("read"))??.2))
            .collect()
    }

    fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError> {
        let mut stmt = self
            .tx
            .prepare("SELECT kind, key, value FROM secrets ORDER BY kind, key")
            .map_err(self.fail("read"))?;
        let rows = stmt.query_map([], read_secret).map_err(self.fail("read"))?;
        rows.map(|row| row.map_err(self.fail("read"))?).collect()
    }

    fn snapshots(&mut self, upto: Seq, limit: u64) -> Result<Vec<SnapshotInfo>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT s.seq, s.code_version, s.head_hash, e.hash FROM snapshots s \
                 LEFT JOIN events e ON e.seq = s.seq WHERE s.seq <= ?1 ORDER BY s.seq DESC LIMIT ?2",
            )
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([to_sql_seq(upto), to_sql_seq(limit)], |row| {
                // A label whose text is damaged reads as one no snapshot is trusted by, as a
                // damaged state does: the snapshot is passed over, not every command stopped.
                let text = |i: usize| -> rusqlite::Result<Option<String>> {
                    Ok(match row.get_ref(i)? {
                        ValueRef::Text(bytes) => {
                            Some(String::from_utf8(bytes.to_vec()).unwrap_or_default())
                        }
                        ValueRef::Null => None,
                        _ => Some(String::new()),
                    })
                };
                Ok(SnapshotInfo {
                    seq: Seq(row.get(0)?),
                    format: text(1)?.unwrap_or_default(),
                    head_hash: text(2)?.unwrap_or_default(),
                    event_hash: text(3)?,
                })
            })
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn snapshot(&mut self, seq: Seq) -> Result<Option<String>, StoreError> {
        self.tx
            .prepare_cached("SELECT state FROM snapshots WHERE seq = ?1")
            .and_then(|mut stmt| {
                // A snapshot is a cache: bytes that are not UTF-8 are damage to it like any other,
                // so they read as text no parse accepts (commands pass it over, `verify` names it)
                // rather than as an error that would stop every command.
                stmt.query_row([to_sql_seq(seq)], |row| {
                    Ok(match row.get_ref(0)? {
                        ValueRef::Text(bytes) => {
                            String::from_utf8(bytes.to_vec()).unwrap_or_default()
                        }
                        _ => String::new(),
                    })
                })
                .optional()
            })
            .map_err(self.fail("read"))
    }
}

impl LogWrite for SqliteTx<'_> {
    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError> {
        let sql = format!(
            "INSERT INTO events ({ROW_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
        );
        self.insert(
            &sql,
            params![
                to_sql_seq(row.seq),
                row.event_id,
                row.kind,
                row.schema_version,
                row.payload,
                to_sql_seq(row.game_time),
                row.recorded_at,
                row.session,
                row.actor,
                row.prev_hash,
                row.hash,
            ],
        )
    }

    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError> {
        self.insert(
            "INSERT INTO secrets (kind, key, value) VALUES (?1, ?2, ?3)",
            [kind, key, value],
        )
    }

    fn put_snapshot(
        &mut self,
        seq: Seq,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO snapshots (seq, code_version, schema_version, head_hash, state) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    to_sql_seq(seq),
                    format,
                    migrations::latest_version(),
                    head_hash,
                    state
                ])
            })
            .map(|_| ())
            .map_err(self.fail("written"))
    }

    fn snapshot_seqs(&mut self) -> Result<Vec<Seq>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT seq FROM snapshots ORDER BY seq")
            .map_err(self.fail("read"))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, u64>(0).map(Seq))
            .map_err(self.fail("read"))?;
        rows.collect::<Result<_, _>>().map_err(self.fail("read"))
    }

    fn delete_snapshots(&mut self, seqs: &[Seq]) -> Result<(), StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached("DELETE FROM snapshots WHERE seq = ?1")
            .map_err(self.fail("written"))?;
        for seq in seqs {
            stmt.execute([to_sql_seq(*seq)])
                .map_err(|e| db_error(&self.path, "written", e))?;
        }
        Ok(())
    }

    fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        let removed = self
            .tx
            .execute("DELETE FROM snapshots", [])
            .map_err(self.fail("written"))?;
        Ok(removed as u64)
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        let path = self.path;
        self.tx.commit().map_err(|e| db_error(&path, "written", e))
    }
}

/// SQLite integers are signed; numbers beyond i64 never occur, so clamp rather than wrap.
fn to_sql_seq(n: impl Into<u64>) -> i64 {
    i64::try_from(n.into()).unwrap_or(i64::MAX)
}

/// Reads one stored row. The outer error is SQLite's; the inner one a row whose values this build
/// never writes (text that is not UTF-8, a negative time), edited into the file from outside.
/// A secrets row (kind, key, value): text that is not UTF-8 is damage to the file, said as such (the
/// driver's own error would blame the disk).
fn read_secret(
    row: &rusqlite::Row<'_>,
) -> rusqlite::Result<Result<(String, String, String), StoreError>> {
    let bytes = |i: usize| -> rusqlite::Result<Vec<u8>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => bytes.to_vec(),
            _ => Vec::new(),
        })
    };
    let (kind, key, value) = (bytes(0)?, bytes(1)?, bytes(2)?);
    Ok(
        match (
            String::from_utf8(kind),
            String::from_utf8(key),
            String::from_utf8(value),
        ) {
            (Ok(kind), Ok(key), Ok(value)) => Ok((kind, key, value)),
            (kind, key, _) => {
                let said = |text: Result<String, std::string::FromUtf8Error>| match text {
                    Ok(text) => text,
                    Err(bad) => String::from_utf8_lossy(bad.as_bytes()).into_owned(),
                };
                Err(StoreError::DamagedSecret {
                    kind: said(kind),
                    key: said(key),
                    why: "its text is not valid UTF-8",
                })
            }
        },
    )
}

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<StoredRow, StoreError>> {
    use rusqlite::types::ValueRef;
    let raw_seq: i64 = row.get(0)?;
    let seq = Seq(u64::try_from(raw_seq).unwrap_or(0));
    let damaged = |what: String| Ok(Err(StoreError::DamagedRow { seq, what }));
    if raw_seq < 1 {
        return damaged(format!("its seq is {raw_seq}"));
    }
    let text = |i: usize| -> rusqlite::Result<Option<String>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Text(bytes) => String::from_utf8(bytes.to_vec()).ok(),
            _ => None,
        })
    };
    let number = |i: usize| -> rusqlite::Result<Option<u64>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Integer(n) => u64::try_from(n).ok(),
            _ => None,
        })
    };
    // Named only when a row is damaged: every row read goes through here.
    let column = |i: usize| ROW_COLUMNS.split(", ").nth(i).unwrap_or("column");
    let bad_text = |i: usize| format!("its {} is not valid UTF-8 text", column(i));
    let bad_number = |i: usize| {
        format!(
            "its {} holds a number outside the range grimoire writes",
            column(i)
        )
    };
    macro_rules! text {
        ($i:expr) => {
            match text($i)? {
                Some(t) => t,
                None => return damaged(bad_text($i)),
            }
        };
    }
    macro_rules! number {
        ($i:expr) => {
            match number($i)? {
                Some(n) => n,
                None => return damaged(bad_number($i)),
            }
        };
    }
    let session = match row.get_ref(7)? {
        ValueRef::Null => None,
        ValueRef::Integer(n) => match u32::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => return damaged(bad_number(7)),
        },
        _ => return damaged(bad_number(7)),
    };
    let Ok(schema_version) = u32::try_from(number!(3)) else {
        return damaged(bad_number(3));
    };
    Ok(Ok(StoredRow {
        seq,
        event_id: text!(1),
        kind: text!(2),
        schema_version,
        payload: text!(4),
        game_time: number!(5),
        recorded_at: text!(6),
        session,
        actor: text!(8),
        prev_hash: text!(9),
        hash: text!(10),
    }))
}
