//! Where a campaign lives, as `--db` (or `GRIMOIRE_DB`) names it: a SQLite file's path, or a
//! campaign by name in a PostgreSQL database (`postgres://USER@HOST/DB?campaign=NAME`).

use crate::rules::text;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    Postgres(PgLocation),
}

/// A campaign in a PostgreSQL database.
#[derive(Clone, PartialEq, Eq)]
pub struct PgLocation {
    /// The connection URL as the driver takes it: `campaign` taken off, everything else kept.
    pub(crate) url: String,
    pub campaign: String,
    /// The server and database for messages: no password, no query but the socket folder.
    pub server: String,
}

impl Location {
    /// Reads `--db`: a `postgres://` or `postgresql://` URL, or else a file path.
    pub fn parse(text: &str) -> Result<Location, String> {
        let lower = text.get(..13).unwrap_or(text).to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            return PgLocation::parse(text).map(Location::Postgres);
        }
        if text.is_empty() {
            return Err("--db is empty; give a campaign file's path, e.g. --db campaign.db".into());
        }
        Ok(Location::File(PathBuf::from(text)))
    }

    /// The campaign file, when the campaign lives in one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Location::File(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }
}

impl PgLocation {
    fn parse(text: &str) -> Result<PgLocation, String> {
        let mut url = url::Url::parse(text).map_err(|e| {
            format!("--db is not a PostgreSQL URL ({e}); e.g. postgres://gm@db.example.org/campaigns?campaign=Sunken%20Vault")
        })?;
        let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        let campaign = pairs
            .iter()
            .find(|(k, _)| k == "campaign")
            .map(|(_, v)| v.trim().to_string())
            .ok_or_else(|| {
                "a PostgreSQL --db names its campaign: add ?campaign=NAME to the URL (one database holds many campaigns)".to_string()
            })?;
        text::check(
            "the campaign's name (?campaign=)",
            &campaign,
            text::NAME_MAX,
        )
        .map_err(|e| e.to_string())?;
        let kept: Vec<&(String, String)> = pairs.iter().filter(|(k, _)| k != "campaign").collect();
        if kept.is_empty() {
            url.set_query(None);
        } else {
            url.query_pairs_mut()
                .clear()
                .extend_pairs(kept.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        }
        let driver_url = url.to_string();
        let mut shown = url.clone();
        let _ = shown.set_password(None);
        let socket = pairs
            .iter()
            .find(|(k, _)| k == "host")
            .map(|(_, v)| v.clone());
        shown.set_query(None);
        if let Some(folder) = socket {
            shown.query_pairs_mut().append_pair("host", &folder);
        }
        Ok(PgLocation {
            url: driver_url,
            campaign,
            server: shown.to_string(),
        })
    }
}

/// Never shows a password: the debug form is the display form.
impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File(path) => write!(f, "{}", path.display()),
            Location::Postgres(pg) => write!(f, "campaign \"{}\" on {}", pg.campaign, pg.server),
        }
    }
}

impl From<&Location> for Location {
    fn from(location: &Location) -> Self {
        location.clone()
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        Location::File(path.to_path_buf())
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::File(path)
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Self {
        Location::File(path.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_its_campaign_and_the_password_is_never_shown() {
        let Location::Postgres(pg) =
            Location::parse("postgres://gm:hunter2@db.example.org:5433/club?campaign=Sunken%20Vault&sslmode=require")
                .unwrap()
        else {
            panic!("a postgres URL is a PostgreSQL location");
        };
        assert_eq!(pg.campaign, "Sunken Vault");
        assert_eq!(pg.server, "postgres://gm@db.example.org:5433/club");
        assert!(pg.url.contains("sslmode=require") && !pg.url.contains("campaign"));
        let shown = format!(
            "{:?} {}",
            Location::Postgres(pg.clone()),
            Location::Postgres(pg)
        );
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn a_url_without_a_campaign_is_refused_saying_how_to_name_one() {
        let error = Location::parse("postgresql://gm@localhost/club").unwrap_err();
        assert!(error.contains("?campaign=NAME"), "{error}");
    }

    #[test]
    fn anything_else_is_a_file_path() {
        assert_eq!(
            Location::parse("campaign.db").unwrap().file(),
            Some(Path::new("campaign.db"))
        );
        assert!(Location::parse("").is_err());
    }
}
