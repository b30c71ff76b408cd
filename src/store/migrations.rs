//! Embedded refinery migrations, run whenever a campaign file is opened.

use rusqlite::Connection;

refinery::embed_migrations!("migrations");

/// refinery's bookkeeping table.
const HISTORY_TABLE: &str = "refinery_schema_history";

/// The newest schema version this build knows.
pub fn latest_version() -> i64 {
    migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0)
}

/// The newest schema version applied to the file (0 for a file never migrated).
pub fn applied_version(conn: &Connection) -> rusqlite::Result<i64> {
    let has_history: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
        [HISTORY_TABLE],
        |row| row.get(0),
    )?;
    if !has_history {
        return Ok(0);
    }
    conn.query_row(
        &format!("SELECT COALESCE(MAX(version), 0) FROM {HISTORY_TABLE}"),
        [],
        |row| row.get(0),
    )
}

pub fn run(conn: &mut Connection) -> Result<(), refinery::Error> {
    migrations::runner().run(conn).map(|_| ())
}
