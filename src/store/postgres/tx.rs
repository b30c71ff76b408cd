//! One PostgreSQL transaction over one campaign's rows, secrets and snapshots.

use super::pg_error;
use crate::seq::Seq;
use crate::store::StoreError;
use crate::store::backend::{
    InsertError, LogRead, LogWrite, Payload, SnapshotInfo, Visit, VisitPayload,
};
use crate::store::chain::StoredRow;
use crate::store::migrations;
use postgres::error::SqlState;
use postgres::{Row, Statement, Transaction};
use std::ops::ControlFlow;

/// Rows fetched per query when streaming the log: memory stays flat however long the log is.
const PAGE: i64 = 2_000;

const ROW_COLUMNS: &str = "seq, event_id, kind, schema_version, payload, game_time, recorded_at, session, actor, prev_hash, hash";

/// One PostgreSQL transaction over one campaign's rows.
pub(super) struct PgTx<'c> {
    pub(super) tx: Transaction<'c>,
    pub(super) campaign: i64,
    pub(super) place: String,
    /// The row insert, prepared on first use: an import inserts every row of an export in one
    /// transaction, and a statement given as text is parsed by the server on every call (and
    /// costs a round trip for it).
    pub(super) insert_event: Option<Statement>,
}

impl PgTx<'_> {
    fn fail(&self) -> impl Fn(postgres::Error) -> StoreError + '_ {
        move |e| pg_error(&self.place, &e)
    }

    /// Runs a keyset query page by page, so memory stays flat however long the log is: `sql` takes
    /// the campaign ($1), the seq to start after ($2), then `more` parameters, and ends with
    /// `ORDER BY seq LIMIT` the page. `each` gets every row and says the row's seq, and whether to
    /// go on.
    fn pages(
        &mut self,
        sql: &str,
        after: Seq,
        more: &[&(dyn postgres::types::ToSql + Sync)],
        mut each: impl FnMut(&Row) -> Result<(i64, ControlFlow<()>), StoreError>,
    ) -> Result<(), StoreError> {
        let mut after = to_pg(after);
        loop {
            let mut params: Vec<&(dyn postgres::types::ToSql + Sync)> =
                vec![&self.campaign, &after];
            params.extend_from_slice(more);
            params.push(&PAGE);
            let rows = self.tx.query(sql, &params).map_err(self.fail())?;
            for row in &rows {
                let (seq, flow) = each(row)?;
                after = seq;
                if flow.is_break() {
                    return Ok(());
                }
            }
            if (rows.len() as i64) < PAGE {
                return Ok(());
            }
        }
    }

    /// Streams whole rows (columns as [`ROW_COLUMNS`]) into `visit`.
    fn stream(
        &mut self,
        sql: &str,
        after: Seq,
        more: &[&(dyn postgres::types::ToSql + Sync)],
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let place = self.place.clone();
        self.pages(sql, after, more, |row| {
            let row = read_row(row).map_err(|e| pg_error(&place, &e))??;
            let seq = to_pg(row.seq);
            Ok((seq, visit(row)?))
        })
    }

    fn insert<T: postgres::ToStatement + ?Sized>(
        &mut self,
        statement: &T,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<(), InsertError> {
        match self.tx.execute(statement, params) {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(InsertError::Duplicate),
            Err(e) => Err(InsertError::Failed(pg_error(&self.place, &e))),
        }
    }
}

impl LogRead for PgTx<'_> {
    fn head(&mut self) -> Result<Option<(Seq, String)>, StoreError> {
        let row = self
            .tx
            .query_opt(
                "SELECT seq, hash FROM events WHERE campaign = $1 ORDER BY seq DESC LIMIT 1",
                &[&self.campaign],
            )
            .map_err(self.fail())?;
        match row {
            Some(r) => Ok(Some((
                from_pg(cell(&r, 0, &self.place)?),
                cell(&r, 1, &self.place)?,
            ))),
            None => Ok(None),
        }
    }

    fn rows(&mut self, from: Seq, upto: Seq, visit: Visit<'_>) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE campaign = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4"
        );
        self.stream(&sql, from.previous(), &[&to_pg(upto)], visit)
    }

    fn payloads(
        &mut self,
        from: Seq,
        upto: Seq,
        visit: VisitPayload<'_>,
    ) -> Result<(), StoreError> {
        let place = self.place.clone();
        let sql = "SELECT seq, kind, schema_version, payload FROM events \
                   WHERE campaign = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4";
        self.pages(sql, from.previous(), &[&to_pg(upto)], |row| {
            let seq: i64 = cell(row, 0, &place)?;
            let version: i32 = cell(row, 2, &place)?;
            let (Ok(seq_number), Ok(schema_version)) = (u64::try_from(seq), u32::try_from(version))
            else {
                return Err(StoreError::DamagedRow {
                    seq: from_pg(seq),
                    what:
                        "its seq or schema_version holds a number outside the range grimoire writes"
                            .into(),
                });
            };
            visit(Payload {
                seq: Seq(seq_number),
                kind: cell(row, 1, &place)?,
                schema_version,
                payload: cell(row, 3, &place)?,
            })?;
            Ok((seq, ControlFlow::Continue(())))
        })
    }

    fn rows_of_kind(
        &mut self,
        kind: &str,
        after: Seq,
        upto: Seq,
        visit: Visit<'_>,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE campaign = $1 AND seq > $2 AND seq <= $3 AND kind = $4 ORDER BY seq LIMIT $5"
        );
        self.stream(&sql, after, &[&to_pg(upto), &kind], visit)
    }

    fn last_of_kinds(
        &mut self,
        kinds: &[&str],
        before: Seq,
    ) -> Result<Option<StoredRow>, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM events WHERE campaign = $1 AND kind = ANY($2) AND seq < $3 ORDER BY seq DESC LIMIT 1"
        );
        let row = self
            .tx
            .query_opt(&sql, &[&self.campaign, &kinds, &to_pg(before)])
            .map_err(self.fail())?;
        match row {
            Some(row) => Ok(Some(read_row(&row).map_err(self.fail())??)),
            None => Ok(None),
        }
    }

    fn last_before_time(&mut self, game_time: u64) -> Result<Option<Seq>, StoreError> {
        let row = self
            .tx
            .query_one(
                "SELECT max(seq) FROM events WHERE campaign = $1 AND game_time < $2",
                &[&self.campaign, &to_pg(game_time)],
            )
            .map_err(self.fail())?;
        let newest: Option<i64> = cell(&row, 0, &self.place)?;
        Ok(newest.map(from_pg))
    }

    fn secret(&mut self, kind: &str, key: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .tx
            .query_opt(
                "SELECT value FROM secrets WHERE campaign = $1 AND kind = $2 AND key = $3",
                &[&self.campaign, &kind, &key],
            )
            .map_err(self.fail())?;
        row.map(|r| cell(&r, 0, &self.place)).transpose()
    }

    fn secrets_with_prefix(&mut self, kind: &str, prefix: &str) -> Result<Vec<String>, StoreError> {
        let rows = self
            .tx
            .query(
                "SELECT value FROM secrets WHERE campaign = $1 AND kind = $2 AND left(key, length($3)) = $3 ORDER BY key",
                &[&self.campaign, &kind, &prefix],
            )
            .map_err(self.fail())?;
        rows.iter().map(|r| cell(r, 0, &self.place)).collect()
    }

    fn secrets(&mut self) -> Result<Vec<(String, String, String)>, StoreError> {
        let rows = self
            .tx
            .query(
                "SELECT kind, key, value FROM secrets WHERE campaign = $1 ORDER BY kind COLLATE \"C\", key COLLATE \"C\"",
                &[&self.campaign],
            )
            .map_err(self.fail())?;
        rows.iter()
            .map(|r| {
                Ok((
                    cell(r, 0, &self.place)?,
                    cell(r, 1, &self.place)?,
                    cell(r, 2, &self.place)?,
                ))
            })
            .collect()
    }

    fn snapshots(&mut self, upto: Seq, limit: u64) -> Result<Vec<SnapshotInfo>, StoreError> {
        // Each snapshot's event hash is looked up by its whole key. As a join, a campaign whose
        // rows the planner has no statistics for yet (one being imported, or grown since the
        // last ANALYZE) was planned as few rows, and every snapshot scanned all of its events:
        // 80 ms at 60,000 events, once per write of an import, growing with the log.
        let rows = self
            .tx
            .query(
                "SELECT s.seq, s.code_version, s.head_hash, \
                 (SELECT e.hash FROM events e WHERE e.campaign = s.campaign AND e.seq = s.seq) \
                 FROM snapshots s \
                 WHERE s.campaign = $1 AND s.seq <= $2 ORDER BY s.seq DESC LIMIT $3",
                &[&self.campaign, &to_pg(upto), &to_pg(limit)],
            )
            .map_err(self.fail())?;
        rows.iter()
            .map(|r| {
                Ok(SnapshotInfo {
                    seq: from_pg(cell(r, 0, &self.place)?),
                    format: cell(r, 1, &self.place)?,
                    head_hash: cell(r, 2, &self.place)?,
                    event_hash: cell(r, 3, &self.place)?,
                })
            })
            .collect()
    }

    fn snapshot(&mut self, seq: Seq) -> Result<Option<String>, StoreError> {
        let row = self
            .tx
            .query_opt(
                "SELECT state FROM snapshots WHERE campaign = $1 AND seq = $2",
                &[&self.campaign, &to_pg(seq)],
            )
            .map_err(self.fail())?;
        row.map(|r| cell(&r, 0, &self.place)).transpose()
    }
}

impl LogWrite for PgTx<'_> {
    fn inserts_wait_on_a_server(&self) -> bool {
        true
    }

    fn insert_row(&mut self, row: &StoredRow) -> Result<(), InsertError> {
        let statement = match &self.insert_event {
            Some(statement) => statement.clone(),
            None => {
                let sql = format!(
                    "INSERT INTO events (campaign, {ROW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                );
                let prepared = self
                    .tx
                    .prepare(&sql)
                    .map_err(|e| InsertError::Failed(pg_error(&self.place, &e)))?;
                self.insert_event.insert(prepared).clone()
            }
        };
        let schema_version = i32::try_from(row.schema_version).unwrap_or(i32::MAX);
        let session = row.session.map(|s| i32::try_from(s).unwrap_or(i32::MAX));
        let campaign = self.campaign;
        self.insert(
            &statement,
            &[
                &campaign,
                &to_pg(row.seq),
                &row.event_id,
                &row.kind,
                &schema_version,
                &row.payload,
                &to_pg(row.game_time),
                &row.recorded_at,
                &session,
                &row.actor,
                &row.prev_hash,
                &row.hash,
            ],
        )
    }

    /// All the rows in one binary COPY: one stream for the lot, which PostgreSQL takes faster
    /// than any INSERT (no statement per row, no text to parse). Inside a savepoint, so that when
    /// one row repeats an id the rows can be tried one by one to say which.
    fn insert_rows(&mut self, rows: &[StoredRow]) -> Result<(), (usize, InsertError)> {
        use postgres::binary_copy::BinaryCopyInWriter;
        use postgres::types::Type;
        let failed =
            |place: &str, e: &postgres::Error| (0, InsertError::Failed(pg_error(place, e)));
        let campaign = self.campaign;
        let place = self.place.clone();
        let mut savepoint = self.tx.savepoint("rows").map_err(|e| failed(&place, &e))?;
        let copied = (|| {
            let sink = savepoint.copy_in(&format!(
                "COPY events (campaign, {ROW_COLUMNS}) FROM STDIN (FORMAT binary)"
            ))?;
            let mut writer = BinaryCopyInWriter::new(
                sink,
                &[
                    Type::INT8,
                    Type::INT8,
                    Type::TEXT,
                    Type::TEXT,
                    Type::INT4,
                    Type::TEXT,
                    Type::INT8,
                    Type::TEXT,
                    Type::INT4,
                    Type::TEXT,
                    Type::TEXT,
                    Type::TEXT,
                ],
            );
            for r in rows {
                let version = i32::try_from(r.schema_version).unwrap_or(i32::MAX);
                let session = r.session.map(|s| i32::try_from(s).unwrap_or(i32::MAX));
                writer.write(&[
                    &campaign,
                    &to_pg(r.seq),
                    &r.event_id,
                    &r.kind,
                    &version,
                    &r.payload,
                    &to_pg(r.game_time),
                    &r.recorded_at,
                    &session,
                    &r.actor,
                    &r.prev_hash,
                    &r.hash,
                ])?;
            }
            writer.finish()
        })();
        match copied {
            Ok(_) => savepoint.commit().map_err(|e| failed(&place, &e)),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                // Dropped, the savepoint rolls back; the rows one by one name the repeat.
                drop(savepoint);
                for (at, row) in rows.iter().enumerate() {
                    self.insert_row(row).map_err(|e| (at, e))?;
                }
                Err((0, InsertError::Duplicate))
            }
            Err(e) => Err(failed(&place, &e)),
        }
    }

    fn insert_secret(&mut self, kind: &str, key: &str, value: &str) -> Result<(), InsertError> {
        let campaign = self.campaign;
        self.insert(
            "INSERT INTO secrets (campaign, kind, key, value) VALUES ($1, $2, $3, $4)",
            &[&campaign, &kind, &key, &value],
        )
    }

    fn put_snapshot(
        &mut self,
        seq: Seq,
        format: &str,
        head_hash: &str,
        state: &str,
    ) -> Result<(), StoreError> {
        let version = i32::try_from(migrations::PG_LATEST_VERSION).unwrap_or(i32::MAX);
        self.tx
            .execute(
                "INSERT INTO snapshots (campaign, seq, code_version, schema_version, head_hash, state) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (campaign, seq) DO UPDATE SET \
                 code_version = EXCLUDED.code_version, schema_version = EXCLUDED.schema_version, \
                 head_hash = EXCLUDED.head_hash, state = EXCLUDED.state",
                &[&self.campaign, &to_pg(seq), &format, &version, &head_hash, &state],
            )
            .map(|_| ())
            .map_err(self.fail())
    }

    fn snapshot_seqs(&mut self) -> Result<Vec<Seq>, StoreError> {
        let rows = self
            .tx
            .query(
                "SELECT seq FROM snapshots WHERE campaign = $1 ORDER BY seq",
                &[&self.campaign],
            )
            .map_err(self.fail())?;
        rows.iter()
            .map(|r| Ok(from_pg(cell(r, 0, &self.place)?)))
            .collect()
    }

    fn delete_snapshots(&mut self, seqs: &[Seq]) -> Result<(), StoreError> {
        let seqs: Vec<i64> = seqs.iter().map(|&s| to_pg(s)).collect();
        self.tx
            .execute(
                "DELETE FROM snapshots WHERE campaign = $1 AND seq = ANY($2)",
                &[&self.campaign, &seqs],
            )
            .map(|_| ())
            .map_err(self.fail())
    }

    fn clear_snapshots(&mut self) -> Result<u64, StoreError> {
        self.tx
            .execute(
                "DELETE FROM snapshots WHERE campaign = $1",
                &[&self.campaign],
            )
            .map_err(self.fail())
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        let place = self.place;
        self.tx.commit().map_err(|e| pg_error(&place, &e))
    }
}

/// One value of a row. A value grimoire never writes (a column changed outside grimoire) is named
/// as such rather than taken for a driver fault.
pub(super) fn cell<'r, T: postgres::types::FromSql<'r>>(
    row: &'r Row,
    index: usize,
    place: &str,
) -> Result<T, StoreError> {
    row.try_get(index).map_err(|_| StoreError::Server {
        place: place.to_string(),
        why: "a stored value is not one grimoire writes (the database was changed outside grimoire); restore it from a backup or an export".into(),
    })
}

/// PostgreSQL's integers are signed; seqs beyond i64 never occur, so clamp rather than wrap.
fn to_pg(n: impl Into<u64>) -> i64 {
    i64::try_from(n.into()).unwrap_or(i64::MAX)
}

fn from_pg(n: i64) -> Seq {
    Seq(u64::try_from(n).unwrap_or(0))
}

/// Reads one stored row (columns as [`ROW_COLUMNS`]). The outer error is the driver's; the inner one
/// a row whose numbers this build never writes, edited in from outside.
fn read_row(row: &Row) -> Result<Result<StoredRow, StoreError>, postgres::Error> {
    let raw_seq: i64 = row.try_get(0)?;
    let seq = from_pg(raw_seq);
    let damaged = |what: String| Ok(Err(StoreError::DamagedRow { seq, what }));
    if raw_seq < 1 {
        return damaged(format!("its seq is {raw_seq}"));
    }
    let (schema_version, game_time, session): (i32, i64, Option<i32>) =
        (row.try_get(3)?, row.try_get(5)?, row.try_get(7)?);
    let Ok(schema_version) = u32::try_from(schema_version) else {
        return damaged(
            "its schema_version holds a number outside the range grimoire writes".into(),
        );
    };
    let Ok(game_time) = u64::try_from(game_time) else {
        return damaged("its game_time holds a number outside the range grimoire writes".into());
    };
    let session = match session.map(u32::try_from) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            return damaged("its session holds a number outside the range grimoire writes".into());
        }
    };
    Ok(Ok(StoredRow {
        seq,
        event_id: row.try_get(1)?,
        kind: row.try_get(2)?,
        schema_version,
        payload: row.try_get(4)?,
        game_time,
        recorded_at: row.try_get(6)?,
        session,
        actor: row.try_get(8)?,
        prev_hash: row.try_get(9)?,
        hash: row.try_get(10)?,
    }))
}
