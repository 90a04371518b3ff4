//! A real PostgreSQL for the tests: Debian's `postgresql` binaries (`scripts/test.sh` installs
//! them when missing), a cluster made with `initdb` in a temporary directory and started with
//! `pg_ctl` on a free port of 127.0.0.1, once per test binary, stopped and removed when the binary
//! exits. Each test gets a database of its own (`database`).
//!
//! As root (CI, the containers here), the cluster runs as the `postgres` user, since PostgreSQL
//! refuses to run as root.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub struct Cluster {
    pub bin: PathBuf,
    pub dir: PathBuf,
    pub port: u16,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();

/// The directory of the newest installed PostgreSQL's binaries.
fn bin_dir() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path().join("bin")).filter(|p| p.join("pg_ctl").exists()).collect())
        .unwrap_or_default();
    versions.sort_by_key(|p| p.parent().and_then(|v| v.file_name()).and_then(|v| v.to_str()).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0));
    versions.pop().expect("PostgreSQL is not installed: run scripts/test.sh, which installs Debian's postgresql package")
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

/// A command of PostgreSQL's, run as the `postgres` user when we are root.
pub fn pg_command(bin: &Path, program: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn run(command: &mut Command, what: &str) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(out.status.success(), "{what} failed: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

extern "C" fn stop_at_exit() {
    if let Some(cluster) = CLUSTER.get() {
        cluster.remove();
    }
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

/// The test binary's cluster, started on first use.
pub fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(|| {
        let cluster = Cluster::create("shared");
        // SAFETY: registers a plain function to run when the process exits.
        unsafe { atexit(stop_at_exit) };
        cluster
    })
}

impl Cluster {
    /// A new cluster of its own, started; stopped and removed when dropped (for a test that stops
    /// and starts PostgreSQL under load, which would disturb the tests sharing `cluster()`).
    pub fn create(name: &str) -> Cluster {
        static N: AtomicUsize = AtomicUsize::new(0);
        let bin = bin_dir();
        // The process id and a count: clusters made by tests running side by side never share a directory.
        let dir = std::env::temp_dir().join(format!("tarot-pg-{name}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            run(Command::new("chown").args(["postgres:postgres"]).arg(&dir), "chown");
        }
        run(pg_command(&bin, "initdb").args(["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "-D"]).arg(dir.join("data")), "initdb");
        let cluster = Cluster { bin, dir, port: free_port() };
        cluster.start();
        cluster
    }

    pub fn start(&self) {
        let options = format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200", self.port, self.dir.display());
        run(pg_command(&self.bin, "pg_ctl").args(["start", "-w", "-t", "60", "-o", &options, "-l"]).arg(self.dir.join("log")).arg("-D").arg(self.dir.join("data")), "pg_ctl start");
    }

    /// Stops PostgreSQL at once, as a crash would (`immediate`: no checkpoint).
    pub fn stop(&self) {
        run(pg_command(&self.bin, "pg_ctl").args(["stop", "-m", "immediate", "-w", "-D"]).arg(self.dir.join("data")), "pg_ctl stop");
    }

    fn remove(&self) {
        let _ = pg_command(&self.bin, "pg_ctl").args(["stop", "-m", "immediate", "-D"]).arg(self.dir.join("data")).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// A new, empty database on this cluster; its URL.
    pub fn database(&self, name: &str) -> String {
        static N: AtomicUsize = AtomicUsize::new(0);
        let database = format!("{}_{}", name.to_lowercase().replace(|c: char| !c.is_ascii_alphanumeric(), "_"), N.fetch_add(1, Ordering::SeqCst));
        let database: String = format!("t_{}", database.chars().rev().take(55).collect::<Vec<_>>().into_iter().rev().collect::<String>());
        self.psql(&format!("CREATE DATABASE {database}"));
        self.url(&database)
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    pub fn psql(&self, sql: &str) {
        run(Command::new(self.bin.join("psql")).args(["-q", "-v", "ON_ERROR_STOP=1", "-d", &self.url("postgres"), "-c", sql]), sql);
    }
}

/// Runs `sql` in the database at `url` (of the shared cluster).
pub fn sql(url: &str, sql: &str) {
    run(Command::new(cluster().bin.join("psql")).args(["-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]), sql);
}

/// A new, empty database on the shared cluster; its URL.
pub fn database(name: &str) -> String {
    cluster().database(name)
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.remove();
    }
}
