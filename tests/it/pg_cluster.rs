//! A throwaway PostgreSQL cluster for the tests: one per test binary, started on first use in a
//! temporary folder, on a Unix socket only (no port to collide with), and stopped when the test
//! binary exits, however it exits. Each test gets a database of its own.
//!
//! PostgreSQL refuses to run as root, and CI runs as root, so there the server runs as the
//! `postgres` system user (`runuser`). Where no server binaries are found the tests that need one
//! print a line saying they were skipped and how to install them; with GRIMOIRE_REQUIRE_POSTGRES=1
//! (`.ci/run` sets it) that skip is a failure instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Cluster {
    /// The folder holding the data, the logs and the socket.
    pub dir: PathBuf,
    next_database: AtomicU32,
}

/// A database of its own for one test.
pub struct Database {
    pub name: String,
    pub socket_dir: PathBuf,
}

impl Database {
    /// The `--db` URL of campaign `campaign` in this database.
    pub fn url(&self, campaign: &str) -> String {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("host", &self.socket_dir.to_string_lossy())
            .append_pair("campaign", campaign)
            .finish();
        format!("postgres://grimoire@/{}?{query}", self.name)
    }

    /// A raw client, as the server's own tools (or a tamperer) would connect, as `user`.
    pub fn client_as(&self, user: &str) -> postgres::Client {
        postgres::Config::new()
            .host_path(&self.socket_dir)
            .user(user)
            .dbname(&self.name)
            .connect(postgres::NoTls)
            .expect("connect to the test cluster")
    }

    pub fn client(&self) -> postgres::Client {
        self.client_as("grimoire")
    }
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
static CARELESS: OnceLock<Result<Cluster, String>> = OnceLock::new();

/// A new database in the test cluster, or `None` (after saying so) where PostgreSQL is missing.
/// The cluster keeps commits as grimoire needs (`fsync` on: on a memory file system where the
/// machine has one, so syncing costs nothing).
pub fn database() -> Option<Database> {
    database_in(&CLUSTER, true)
}

/// A database in a cluster configured to lose acknowledged commits (`fsync = off`), which grimoire
/// must refuse to record onto.
pub fn careless_database() -> Option<Database> {
    database_in(&CARELESS, false)
}

fn database_in(which: &'static OnceLock<Result<Cluster, String>>, fsync: bool) -> Option<Database> {
    let cluster = match which.get_or_init(|| start(fsync)) {
        Ok(cluster) => cluster,
        Err(why) => {
            assert!(
                std::env::var_os("GRIMOIRE_REQUIRE_POSTGRES").is_none(),
                "PostgreSQL tests are required here (GRIMOIRE_REQUIRE_POSTGRES) but {why}"
            );
            // Said once, past the test harness's capture, so it shows in a passing run.
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped: the PostgreSQL tests ({why}; install the server, e.g. `apt-get install postgresql`, or put its pg_config on PATH)"
                );
            });
            return None;
        }
    };
    let n = cluster.next_database.fetch_add(1, Ordering::SeqCst);
    let name = format!("t{n}");
    let mut admin = postgres::Config::new()
        .host_path(&cluster.dir)
        .user("grimoire")
        .dbname("postgres")
        .connect(postgres::NoTls)
        .expect("connect to the test cluster");
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a test database");
    Some(Database {
        name,
        socket_dir: cluster.dir.clone(),
    })
}

/// The folder of PostgreSQL's server programs: `pg_config --bindir`, else Debian's usual place.
fn server_bin() -> Option<PathBuf> {
    let from_pg_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")));
    from_pg_config
        .into_iter()
        .chain(debian)
        .find(|bin| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Runs one of the server's programs, as `postgres` when we are root; its output goes to `log`.
fn server_program(bin: &Path, program: &str, log: &Path) -> Command {
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("open the cluster's log");
    let err = out.try_clone().expect("clone the log handle");
    let mut cmd = if running_as_root() {
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", "postgres", "--"]).arg(bin.join(program));
        cmd
    } else {
        Command::new(bin.join(program))
    };
    cmd.stdin(Stdio::null()).stdout(out).stderr(err);
    cmd
}

fn start(fsync: bool) -> Result<Cluster, String> {
    let bin = server_bin().ok_or("no PostgreSQL server programs (initdb, pg_ctl) were found")?;
    let memory = Path::new("/dev/shm");
    let dir = tempfile::Builder::new()
        .prefix("grimoire-pg-")
        .tempdir_in(if memory.is_dir() {
            memory
        } else {
            Path::new("/tmp")
        })
        .map_err(|e| format!("no temporary folder ({e})"))?
        .keep();
    // The server's user must enter it to keep its data and socket there.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777))
        .map_err(|e| format!("the cluster's folder cannot be opened up ({e})"))?;
    // The tools' own output goes to one log, the server's to another that the server creates (as
    // its own user).
    let (data, log, server_log) = (
        dir.join("data"),
        dir.join("tools.log"),
        dir.join("server.log"),
    );
    let initdb = server_program(&bin, "initdb", &log)
        .arg("-D")
        .arg(&data)
        .args(["-A", "trust", "-U", "grimoire", "--no-sync"])
        .status()
        .map_err(|e| format!("initdb could not start ({e})"))?;
    if !initdb.success() {
        return Err(format!("initdb failed (see {})", log.display()));
    }
    let options = format!(
        "-k {} -c listen_addresses='' -c fsync={} -c max_connections=200",
        dir.display(),
        if fsync { "on" } else { "off" }
    );
    let started = server_program(&bin, "pg_ctl", &log)
        .arg("-D")
        .arg(&data)
        .arg("-l")
        .arg(&server_log)
        .args(["-o", &options, "-w", "start"])
        .status()
        .map_err(|e| format!("pg_ctl could not start ({e})"))?;
    // Whether it started or not, the watcher stops it and clears the folder once we are gone.
    stop_when_we_exit(&bin, &data, &dir);
    if !started.success() {
        return Err(format!(
            "the server did not start (see {} and {})",
            log.display(),
            server_log.display()
        ));
    }
    Ok(Cluster {
        dir,
        next_database: AtomicU32::new(1),
    })
}

/// A watcher that outlives nothing but this process: once the test binary is gone (passed, failed,
/// killed) it stops the server at once and removes the folder. Its output goes nowhere, so it never
/// holds the test run's output open.
fn stop_when_we_exit(bin: &Path, data: &Path, dir: &Path) {
    let as_postgres = if running_as_root() {
        "runuser -u postgres -- "
    } else {
        ""
    };
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; {as_postgres}'{pg_ctl}' -D '{data}' stop -m immediate; rm -rf '{dir}'",
        pid = std::process::id(),
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.display(),
    );
    // Never waited for: it must outlive the test binary, and init reaps it.
    #[allow(clippy::zombie_processes)]
    Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the cluster's watcher");
}
