//! The PostgreSQL backend: many campaigns in one database, each found by its name, for groups that
//! outgrow one file (several GMs and devices writing to the same campaigns, the server's replication
//! and backups).
//!
//! A write transaction starts by locking its campaign's row (`SELECT … FOR UPDATE`), so writers of
//! one campaign queue up, from any machine, and each decides on the head the previous one left;
//! writers of different campaigns never wait for each other. Reads run in a read-only
//! repeatable-read transaction: one consistent view however many queries an answer takes.

mod tx;

use super::StoreError;
use super::backend::{Backend, LogRead, LogWrite};
use super::location::PgLocation;
use super::migrations;
use postgres::error::SqlState;
use postgres::{Client, IsolationLevel, Transaction};
use std::sync::Arc;
use tx::{PgTx, cell};

/// Advisory lock classes (the first key of PostgreSQL's two-key advisory locks).
const MIGRATION_LOCK: i32 = 1;
const BUILD_LOCK: i32 = 2;

/// How long a write waits for another writer of the same campaign before giving up (SQLite's
/// busy timeout is the same).
const LOCK_WAIT_SECONDS: u32 = 60;

/// One campaign in a PostgreSQL database. While `building`, it is a campaign `create_new` made and
/// nobody else sees yet; this connection holds its build lock.
pub struct PgBackend {
    client: Client,
    campaign: i64,
    place: String,
    building: bool,
    /// Why the server could lose a commit it has acknowledged (it runs with `fsync = off`): then
    /// grimoire reads but records nothing there.
    loses_commits: Option<String>,
}

/// What grimoire needs of a server to keep its promise that an acknowledged event survives a power
/// cut: `fsync` on (the server's whole durability), and this session's commits waiting for the
/// disk (`synchronous_commit` not `off`, which grimoire sets back on for itself). `None` when it
/// holds.
fn durability(client: &mut Client, place: &str) -> Result<Option<String>, StoreError> {
    let fail = |e: postgres::Error| pg_error(place, &e);
    let setting = |client: &mut Client, name: &str| -> Result<String, StoreError> {
        let row = client
            .query_one("SELECT current_setting($1)", &[&name])
            .map_err(fail)?;
        cell::<String>(&row, 0, place)
    };
    if setting(client, "synchronous_commit")? == "off" {
        client
            .batch_execute("SET synchronous_commit = on")
            .map_err(fail)?;
    }
    Ok((setting(client, "fsync")? == "off").then(|| {
        "it runs with fsync = off, so a power cut can lose commits it has acknowledged (or damage the database); grimoire reads from it but records nothing there. Set fsync = on in the server's configuration and reload it".to_string()
    }))
}

/// A PostgreSQL failure in words a person can act on; the driver's own text is used only where it
/// is the server's message (which never holds a password).
fn pg_error(place: &str, error: &postgres::Error) -> StoreError {
    let busy = [
        SqlState::T_R_SERIALIZATION_FAILURE,
        SqlState::T_R_DEADLOCK_DETECTED,
        SqlState::LOCK_NOT_AVAILABLE,
    ];
    if error.code().is_some_and(|code| busy.contains(code)) {
        return StoreError::Busy;
    }
    if error.code() == Some(&SqlState::INSUFFICIENT_PRIVILEGE) {
        return StoreError::NotPermitted {
            place: place.to_string(),
        };
    }
    let why = match error.as_db_error() {
        Some(db) => format!("the server said: {}", db.message()),
        None if error.is_closed() => "the connection to the server was lost".into(),
        None if std::error::Error::source(error)
            .is_some_and(|s| s.is::<postgres::types::WrongType>()) =>
        {
            return StoreError::Internal("a query's value did not fit its column".into());
        }
        None => match std::error::Error::source(error)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
        {
            Some(io) => format!("could not reach the server ({})", io.kind()),
            None => "could not talk to the server (check the URL, the server and its TLS settings)"
                .into(),
        },
    };
    StoreError::Server {
        place: place.to_string(),
        why,
    }
}

/// TLS through rustls with the system's root certificates; `sslmode` in the URL decides whether it
/// is used (`prefer` by default, `require` to insist, `disable`).
fn tls(place: &str) -> Result<tokio_postgres_rustls::MakeRustlsConnect, StoreError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        // A certificate the system holds but rustls cannot use is left out, as browsers do.
        let _ = roots.add(cert);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|builder| builder.with_root_certificates(roots).with_no_client_auth());
    config
        .map(tokio_postgres_rustls::MakeRustlsConnect::new)
        .map_err(|_| StoreError::Server {
            place: place.to_string(),
            why: "TLS could not be set up on this machine".into(),
        })
}

/// Connects and brings the database's schema up to this build's.
fn connect(location: &PgLocation) -> Result<Client, StoreError> {
    let place = location.server.clone();
    let config: postgres::Config = location.url.parse().map_err(|_| StoreError::Server {
        place: place.clone(),
        why: "the URL's settings are not ones PostgreSQL knows (see README, \"PostgreSQL\")".into(),
    })?;
    // TLS needs a host name to check the certificate against; a Unix socket has none (and needs
    // no TLS: it never leaves the machine).
    let tcp = config
        .get_hosts()
        .iter()
        .any(|host| matches!(host, postgres::config::Host::Tcp(_)));
    let connected = match tcp {
        true => config.connect(tls(&place)?),
        false => config.connect(postgres::NoTls),
    };
    let mut client = connected.map_err(|e| pg_error(&place, &e))?;
    let fail = |e: postgres::Error| pg_error(&place, &e);
    // A writer waits for the campaign's lock as long as a SQLite writer waits for its file's (a
    // minute), then gives up saying so, rather than hang on a client that vanished mid-write.
    client
        .batch_execute(&format!("SET lock_timeout = '{}s'", LOCK_WAIT_SECONDS))
        .map_err(fail)?;
    let known = migrations::PG_LATEST_VERSION;
    let mut applied = migrations::pg_applied_version(&mut client).map_err(fail)?;
    if applied < known {
        // One migrator at a time: the others wait, then find nothing left to do.
        client
            .execute("SELECT pg_advisory_lock($1, 0)", &[&MIGRATION_LOCK])
            .map_err(fail)?;
        applied = migrations::pg_applied_version(&mut client).map_err(fail)?;
        let ran = if applied < known {
            migrations::pg_run(&mut client)
        } else {
            Ok(())
        };
        client
            .execute("SELECT pg_advisory_unlock($1, 0)", &[&MIGRATION_LOCK])
            .map_err(fail)?;
        if ran.is_err() {
            return Err(StoreError::Server {
                place,
                why: "its schema could not be created or migrated (does the role have CREATE on the database?)".into(),
            });
        }
        applied = known;
    }
    if applied > known {
        return Err(StoreError::Newer {
            place,
            found: applied,
            known,
        });
    }
    Ok(client)
}

/// The campaign named by `location`: its id and whether it is published. A campaign whose creation
/// was abandoned (its builder's process gone, its build lock released with the connection) is
/// reclaimed here, so a killed `init` or `import` never blocks its name: it is removed and counts
/// as absent. Where the role may not remove it (players), it counts as absent all the same.
fn find_campaign(
    client: &mut Client,
    location: &PgLocation,
) -> Result<Option<(i64, bool)>, StoreError> {
    let fail = |e: postgres::Error| pg_error(&location.server, &e);
    let found = client
        .query_opt(
            "SELECT id, ready FROM campaigns WHERE name = $1",
            &[&location.campaign],
        )
        .map_err(fail)?;
    let Some(row) = found else {
        return Ok(None);
    };
    let (campaign, ready): (i64, bool) = (
        cell(&row, 0, &location.server)?,
        cell(&row, 1, &location.server)?,
    );
    if ready {
        return Ok(Some((campaign, true)));
    }
    let mut tx = client.transaction().map_err(fail)?;
    if !abandoned(&mut tx, campaign).map_err(fail)? {
        return Ok(Some((campaign, false)));
    }
    if remove_campaign(&mut tx, campaign).is_ok() {
        tx.commit().map_err(fail)?;
    }
    Ok(None)
}

/// Another campaign in the database whose name looks like `location`'s (in another case, or with
/// look-alike letters: "Alpha", "ALPHA", Cyrillic "Аlpha"), by the rules character names follow.
fn look_alike_of(
    client: &mut impl postgres::GenericClient,
    location: &PgLocation,
) -> Result<Option<String>, postgres::Error> {
    let names = client.query(
        "SELECT name FROM campaigns WHERE name <> $1 ORDER BY id",
        &[&location.campaign],
    )?;
    Ok(names
        .iter()
        .map(|row| row.get::<_, String>(0))
        .find(|name| crate::text::look_alike(name, &location.campaign)))
}

/// There is no campaign by `location`'s name: said so, naming one whose name looks like it.
fn no_campaign(client: &mut Client, location: &PgLocation) -> StoreError {
    match look_alike_of(client, location) {
        Ok(Some(existing)) => StoreError::LookAlikeCampaign {
            name: location.campaign.clone(),
            existing,
            server: location.server.clone(),
        },
        _ => StoreError::NoCampaign {
            name: location.campaign.clone(),
            server: location.server.clone(),
        },
    }
}

/// Whether the unpublished campaign `campaign` was left by a builder that is gone: its build lock
/// is free (taken here for the transaction) and it is still unpublished once the lock is held (the
/// builder may have published and let go of its lock since it was read).
fn abandoned(tx: &mut Transaction<'_>, campaign: i64) -> Result<bool, postgres::Error> {
    let locked: bool = tx
        .query_one(
            "SELECT pg_try_advisory_xact_lock($1, ($2::BIGINT % 2147483647)::INTEGER)",
            &[&BUILD_LOCK, &campaign],
        )?
        .get(0);
    if !locked {
        return Ok(false);
    }
    let ready: Option<bool> = tx
        .query_opt("SELECT ready FROM campaigns WHERE id = $1", &[&campaign])?
        .map(|row| row.get(0));
    Ok(ready == Some(false))
}

impl PgBackend {
    pub fn open(location: &PgLocation) -> Result<PgBackend, StoreError> {
        let mut client = connect(location)?;
        let loses_commits = durability(&mut client, &location.server)?;
        match find_campaign(&mut client, location)? {
            None => Err(no_campaign(&mut client, location)),
            Some((_, false)) => Err(StoreError::BeingCreated(location.to_string())),
            Some((campaign, true)) => Ok(PgBackend {
                client,
                campaign,
                place: location.to_string(),
                building: false,
                loses_commits,
            }),
        }
    }

    pub fn exists(location: &PgLocation) -> Result<bool, StoreError> {
        let mut client = connect(location)?;
        Ok(find_campaign(&mut client, location)?.is_some())
    }

    /// Starts a campaign under `location`'s name, unseen by others until published. Its row is
    /// inserted together with this connection's build lock, so a campaign left unpublished by a
    /// crashed builder (lock released with its connection) is cleared by the next creator, while
    /// one still being built makes the next creator fail with [`StoreError::Exists`].
    pub fn create_new(location: &PgLocation) -> Result<PgBackend, StoreError> {
        let mut client = connect(location)?;
        if let Some(why) = durability(&mut client, &location.server)? {
            return Err(StoreError::Server {
                place: location.server.clone(),
                why,
            });
        }
        let place = location.to_string();
        let fail = |e: postgres::Error| pg_error(&location.server, &e);
        for _ in 0..2 {
            let mut tx = client.transaction().map_err(fail)?;
            // Creators take turns at choosing names, so two look-alikes cannot both pass.
            tx.execute("SELECT pg_advisory_xact_lock($1, -1)", &[&BUILD_LOCK])
                .map_err(fail)?;
            if let Some(existing) = look_alike_of(&mut tx, location).map_err(fail)? {
                return Err(StoreError::LookAlikeCampaign {
                    name: location.campaign.clone(),
                    existing,
                    server: location.server.clone(),
                });
            }
            let inserted = tx
                .query_opt(
                    "INSERT INTO campaigns (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id",
                    &[&location.campaign],
                )
                .map_err(fail)?;
            if let Some(row) = inserted {
                let campaign: i64 = cell(&row, 0, &location.server)?;
                tx.execute(
                    "SELECT pg_advisory_lock($1, ($2::BIGINT % 2147483647)::INTEGER)",
                    &[&BUILD_LOCK, &campaign],
                )
                .map_err(fail)?;
                tx.commit().map_err(fail)?;
                return Ok(PgBackend {
                    client,
                    campaign,
                    place,
                    building: true,
                    loses_commits: None,
                });
            }
            let existing = tx
                .query_one(
                    "SELECT id, ready FROM campaigns WHERE name = $1",
                    &[&location.campaign],
                )
                .map_err(fail)?;
            let (campaign, ready): (i64, bool) = (
                cell(&existing, 0, &location.server)?,
                cell(&existing, 1, &location.server)?,
            );
            if ready {
                return Err(StoreError::Exists(place));
            }
            // Unpublished: still being built, or left by a builder whose lock is not yet released
            // (its server process outlives a killed command by a moment). Either way, a later try
            // finds it whole or cleared.
            if !abandoned(&mut tx, campaign).map_err(fail)? {
                return Err(StoreError::BeingCreated(place));
            }
            remove_campaign(&mut tx, campaign).map_err(fail)?;
            tx.commit().map_err(fail)?;
        }
        Err(StoreError::Exists(place))
    }

    fn begin(&mut self, write: bool) -> Result<PgTx<'_>, StoreError> {
        let place = self.place.clone();
        let fail = |e: postgres::Error| pg_error(&place, &e);
        let mut tx = if write {
            self.client.transaction().map_err(fail)?
        } else {
            self.client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(fail)?
        };
        if write {
            // The campaign's write lock: held until commit or rollback.
            tx.execute(
                "SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE",
                &[&self.campaign],
            )
            .map_err(fail)?;
        }
        Ok(PgTx {
            tx,
            campaign: self.campaign,
            place,
            insert_event: None,
        })
    }
}

/// Deletes an unpublished campaign and everything it holds (the triggers allow it only while the
/// campaign is not ready).
fn remove_campaign(tx: &mut Transaction<'_>, campaign: i64) -> Result<(), postgres::Error> {
    for table in ["events", "secrets", "snapshots"] {
        tx.execute(
            &format!("DELETE FROM {table} WHERE campaign = $1"),
            &[&campaign],
        )?;
    }
    tx.execute(
        "DELETE FROM campaigns WHERE id = $1 AND NOT ready",
        &[&campaign],
    )?;
    Ok(())
}

impl Backend for PgBackend {
    fn place(&self) -> String {
        self.place.clone()
    }

    fn read(&mut self) -> Result<Box<dyn LogRead + '_>, StoreError> {
        Ok(Box::new(self.begin(false)?))
    }

    fn write(&mut self) -> Result<Box<dyn LogWrite + '_>, StoreError> {
        if let Some(why) = &self.loses_commits {
            return Err(StoreError::Server {
                place: self.place.clone(),
                why: why.clone(),
            });
        }
        Ok(Box::new(self.begin(true)?))
    }

    /// PostgreSQL guards its own pages (data checksums, `amcheck`); nothing is counted here.
    fn storage_problems(&mut self, _thorough: bool) -> Result<u64, StoreError> {
        Ok(0)
    }

    fn is_tour(&mut self) -> Result<bool, StoreError> {
        let row = self
            .client
            .query_one(
                "SELECT tour FROM campaigns WHERE id = $1",
                &[&self.campaign],
            )
            .map_err(|e| pg_error(&self.place, &e))?;
        cell(&row, 0, &self.place)
    }

    fn mark_as_tour(&mut self) -> Result<(), StoreError> {
        self.client
            .execute(
                "UPDATE campaigns SET tour = true WHERE id = $1",
                &[&self.campaign],
            )
            .map(|_| ())
            .map_err(|e| pg_error(&self.place, &e))
    }

    fn publish(mut self: Box<Self>) -> Result<Box<dyn Backend>, StoreError> {
        if self.building {
            let fail = |e: postgres::Error| pg_error(&self.place, &e);
            self.client
                .execute(
                    "UPDATE campaigns SET ready = true WHERE id = $1",
                    &[&self.campaign],
                )
                .map_err(fail)?;
            self.client
                .execute(
                    "SELECT pg_advisory_unlock($1, ($2::BIGINT % 2147483647)::INTEGER)",
                    &[&BUILD_LOCK, &self.campaign],
                )
                .map_err(fail)?;
            self.building = false;
        }
        Ok(self)
    }
}

impl Drop for PgBackend {
    /// A campaign dropped unpublished (a refused import) leaves nothing behind. Should this fail,
    /// the build lock goes with the connection and the next creator clears the rest.
    fn drop(&mut self) {
        if self.building
            && let Ok(mut tx) = self.client.transaction()
            && remove_campaign(&mut tx, self.campaign).is_ok()
        {
            let _ = tx.commit();
        }
    }
}
