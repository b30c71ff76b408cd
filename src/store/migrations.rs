//! Embedded refinery migrations, run whenever a campaign is opened: `migrations/sqlite` for
//! campaign files, `migrations/postgres` for PostgreSQL databases.

use rusqlite::Connection;

mod sqlite {
    refinery::embed_migrations!("migrations/sqlite");
}
mod postgres {
    refinery::embed_migrations!("migrations/postgres");
}

/// refinery's bookkeeping table.
const HISTORY_TABLE: &str = "refinery_schema_history";

/// The newest schema version this build knows: the highest V<n> in `migrations/`. A constant, because
/// building refinery's runner to find it costs time on every open; a test keeps the two equal.
pub const LATEST_VERSION: i64 = 3;

/// The oldest schema this build reads as it stands. Every migration after it changes no answer (V3
/// only drops an index no query uses), so a file that cannot be written, such as a copy shared
/// read-only with the players, opens at it unmigrated instead of being refused.
pub const READABLE_FROM: i64 = 2;

/// Whether a file at schema `applied` can be read by this build without migrating it first.
pub fn readable_as_it_stands(applied: i64) -> bool {
    (READABLE_FROM..=LATEST_VERSION).contains(&applied)
}

/// The newest PostgreSQL schema version this build knows (the highest V<n> in `migrations/postgres`).
pub const PG_LATEST_VERSION: i64 = 1;

pub fn latest_version() -> i64 {
    LATEST_VERSION
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

/// Applies the missing migrations. Grouped, so the schema change and refinery's record of it commit
/// in one transaction: applied one by one, a crash between the two left a schema that the next open
/// tried to create again, and failed.
pub fn run(conn: &mut Connection) -> Result<(), refinery::Error> {
    sqlite::migrations::runner()
        .set_grouped(true)
        .run(conn)
        .map(|_| ())
}

/// The newest schema version applied to a PostgreSQL database (0 for one never migrated).
pub fn pg_applied_version(client: &mut ::postgres::Client) -> Result<i64, ::postgres::Error> {
    let row = client.query_one("SELECT to_regclass($1) IS NOT NULL", &[&HISTORY_TABLE])?;
    if !row.get::<_, bool>(0) {
        return Ok(0);
    }
    let row = client.query_one(
        &format!("SELECT COALESCE(MAX(version), 0)::BIGINT FROM {HISTORY_TABLE}"),
        &[],
    )?;
    Ok(row.get(0))
}

/// Applies the missing PostgreSQL migrations, grouped in one transaction.
pub fn pg_run(client: &mut ::postgres::Client) -> Result<(), refinery::Error> {
    postgres::migrations::runner()
        .set_grouped(true)
        .run(client)
        .map(|_| ())
}

/// The SQLite error beneath a failed migration, if that is what stopped it.
pub fn sqlite_cause(error: &refinery::Error) -> Option<&rusqlite::Error> {
    match error.kind() {
        refinery::error::Kind::Connection(_, source) => source.downcast_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_postgres_latest_version_constant_matches_the_embedded_migrations() {
        let embedded = super::postgres::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| i64::from(m.version()))
            .max();
        assert_eq!(embedded, Some(super::PG_LATEST_VERSION));
    }

    #[test]
    fn the_latest_version_constant_matches_the_embedded_migrations() {
        let embedded = super::sqlite::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| i64::from(m.version()))
            .max();
        assert_eq!(
            embedded,
            Some(super::LATEST_VERSION),
            "add the new migration's number to LATEST_VERSION"
        );
    }
}
