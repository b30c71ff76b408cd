//! Where a campaign lives, as `--db` (or `GRIMOIRE_DB`) names it: a SQLite file's path, or a
//! campaign by name in a PostgreSQL database (`postgres://USER@HOST/DB?campaign=NAME`).

use crate::text;
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
        let (base, query) = text.split_once('?').unwrap_or((text, ""));
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        let campaign = pairs
            .iter()
            .find(|(k, _)| k == "campaign")
            .map(|(_, v)| v.trim().to_string())
            .ok_or_else(|| {
                "a PostgreSQL --db names its campaign: add ?campaign=NAME to the URL (one database holds many campaigns), e.g. postgres://gm@db.example.org/club?campaign=Sunken%20Vault".to_string()
            })?;
        if campaign.is_empty() {
            return Err("?campaign= is empty; name the campaign, e.g. postgres://gm@db.example.org/club?campaign=Sunken%20Vault".into());
        }
        text::check("campaign's name (?campaign=)", &campaign, text::NAME_MAX)
            .map_err(|e| e.to_string())?;
        let kept = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs.iter().filter(|(k, _)| k != "campaign"))
            .finish();
        let url = match kept.is_empty() {
            true => base.to_string(),
            false => format!("{base}?{kept}"),
        };
        // Shown in messages: no password, and of the settings only the socket folder.
        let mut server = without_password(base);
        if let Some((_, folder)) = pairs.iter().find(|(k, _)| k == "host") {
            server = format!("{server} (socket folder {folder})");
        }
        Ok(PgLocation {
            url,
            campaign,
            server,
        })
    }
}

/// `scheme://user:password@host/db` without its `:password`.
fn without_password(base: &str) -> String {
    let Some((scheme, rest)) = base.split_once("://") else {
        return base.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(name, _)| name);
            format!("{user}@{host}")
        }
        None => authority.to_string(),
    };
    format!("{scheme}://{authority}{path}")
}

impl fmt::Display for PgLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} as \"{}\"", self.server, self.campaign)
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
            Location::Postgres(pg) => write!(f, "{pg}"),
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
    /// A campaign's name in the URL breaking the text rules is named once, as "the campaign's
    /// name" (it read "the the campaign's name").
    #[test]
    fn a_campaign_name_in_the_url_that_breaks_the_text_rules_is_named_plainly() {
        let said = Location::parse("postgres://gm@db/club?campaign=a%0Ab").unwrap_err();
        assert!(
            said.starts_with("the campaign's name (?campaign=) must be one line"),
            "{said}"
        );
    }

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
        let Location::Postgres(socket) =
            Location::parse("postgres://gm:pw@/club?host=/run/pg&campaign=A").unwrap()
        else {
            panic!("a postgres URL is a PostgreSQL location");
        };
        assert_eq!(socket.server, "postgres://gm@/club (socket folder /run/pg)");
        assert_eq!(socket.url, "postgres://gm:pw@/club?host=%2Frun%2Fpg");
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
