//! A PostgreSQL cluster of the test's own: `initdb` and `pg_ctl` on a free
//! loopback port in a temporary directory (as the `postgres` user when run
//! as root, since PostgreSQL refuses to run as root), stopped and removed
//! on drop. For tests that stop, crash or freeze the database
//! (`faults.rs`) or need settings of their own (`tls.rs`).
//!
//! Without PostgreSQL's server binaries a test that asks for a cluster
//! fails when `CI` is set and says it was skipped otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
}

impl Cluster {
    /// `initdb` and `pg_ctl` from `pg_config --bindir`, or the newest
    /// Debian-style `/usr/lib/postgresql/*/bin`.
    fn binaries() -> Option<PathBuf> {
        let from_pg_config = Command::new("pg_config")
            .arg("--bindir")
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
        let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path().join("bin"))
            .collect();
        debian.sort_by_key(|dir| {
            dir.parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
        });
        from_pg_config
            .into_iter()
            .chain(debian.into_iter().rev())
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    }

    /// A new cluster, started. `None` (after saying that `test` was
    /// skipped) when PostgreSQL's server binaries are not installed and
    /// `CI` is unset.
    pub fn start(test: &str) -> Option<Self> {
        let cluster = Self::init(test)?;
        cluster.pg_start();
        Some(cluster)
    }

    /// A new cluster, initialised (trust authentication, listening on
    /// 127.0.0.1 only, no Unix socket) but not started, so that a test can
    /// configure it first. `None` as for [`Cluster::start`].
    pub fn init(test: &str) -> Option<Self> {
        let Some(bin) = Self::binaries() else {
            let message = "initdb and pg_ctl not found (neither `pg_config --bindir` nor \
                           /usr/lib/postgresql/*/bin has them): install PostgreSQL's server";
            assert!(
                std::env::var_os("CI").is_none_or(|v| v.is_empty()),
                "{message}; CI must run {test}"
            );
            eprintln!("skipped: {test}: {message}");
            return None;
        };
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0");
        let data = std::env::temp_dir().join(format!(
            "stratego-cluster-{}",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::create_dir(&data).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cluster = Self {
            bin,
            data,
            port,
            as_postgres,
        };
        cluster.give_to_postgres(&cluster.data);
        cluster.tool(
            "initdb",
            &[
                "-D",
                cluster.data_dir(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
        );
        cluster.configure(&format!(
            "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n\
             max_connections = 40\nshared_buffers = 16MB\n"
        ));
        Some(cluster)
    }

    /// A streaming standby of `primary` (running), copied from it with
    /// `pg_basebackup -R`, on a port of its own, started. `None` as for
    /// [`Cluster::start`].
    pub fn standby_of(primary: &Cluster, test: &str) -> Option<Self> {
        let bin = Self::binaries()?;
        if !bin.join("pg_basebackup").is_file() {
            let message = "pg_basebackup not found beside initdb";
            assert!(
                std::env::var_os("CI").is_none_or(|v| v.is_empty()),
                "{message}; CI must run {test}"
            );
            eprintln!("skipped: {test}: {message}");
            return None;
        }
        let data = std::env::temp_dir().join(format!(
            "stratego-standby-{}",
            uuid::Uuid::new_v4().simple()
        ));
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let standby = Self {
            bin,
            data,
            port,
            as_postgres: primary.as_postgres,
        };
        // pg_basebackup makes the directory itself (owned by whoever runs
        // it, with the modes PostgreSQL wants) and writes the standby's
        // connection to the primary (-R).
        standby.tool(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &primary.port.to_string(),
                "-U",
                "postgres",
                "-D",
                standby.data_dir(),
                "-R",
                "-X",
                "stream",
                "-c",
                "fast",
                "--no-sync",
            ],
        );
        standby.configure(&format!("port = {port}\nhot_standby = on\n"));
        standby.pg_start();
        Some(standby)
    }

    /// Appends `settings` to `postgresql.conf` (read at the next start).
    pub fn configure(&self, settings: &str) {
        let conf = self.data.join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).unwrap();
        text.push('\n');
        text.push_str(settings);
        std::fs::write(&conf, text).unwrap();
    }

    /// Writes `contents` to `name` in the data directory, owned by the
    /// server's user and readable by it alone (as PostgreSQL wants its
    /// private key), and returns its path.
    pub fn write_private(&self, name: &str, contents: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.data.join(name);
        std::fs::write(&path, contents).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        self.give_to_postgres(&path);
        path
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The data directory (a temporary one of this cluster's own).
    pub fn data_path(&self) -> &Path {
        &self.data
    }

    fn data_dir(&self) -> &str {
        self.data.to_str().unwrap()
    }

    /// The superuser's URL (trust authentication, no TLS).
    pub fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// When run as root: hands `path` to the `postgres` user.
    fn give_to_postgres(&self, path: &Path) {
        if self.as_postgres {
            self.must(
                "chown",
                &["postgres:postgres", path.to_str().unwrap()],
                false,
            );
        }
    }

    /// Runs `program` with `args` (as `postgres` when run as root) and
    /// asserts that it succeeded.
    fn must(&self, program: &str, args: &[&str], as_postgres: bool) {
        let mut command = if as_postgres && self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", program]);
            c
        } else {
            Command::new(program)
        };
        let output = command.args(args).output().expect("run a PostgreSQL tool");
        assert!(
            output.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn tool(&self, name: &str, args: &[&str]) {
        let program = self.bin.join(name);
        self.must(program.to_str().unwrap(), args, true);
    }

    pub fn pg_start(&self) {
        let log = self.data.join("server.log");
        self.tool(
            "pg_ctl",
            &[
                "-D",
                self.data_dir(),
                "-l",
                log.to_str().unwrap(),
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
    }

    pub fn pg_stop(&self, mode: &str) {
        self.tool(
            "pg_ctl",
            &["-D", self.data_dir(), "-m", mode, "-w", "-t", "60", "stop"],
        );
    }

    /// The postmaster and every process it started.
    pub fn processes(&self) -> Vec<String> {
        let pid_file = std::fs::read_to_string(self.data.join("postmaster.pid")).unwrap();
        let postmaster = pid_file.lines().next().unwrap().trim().to_owned();
        let mut pids = vec![postmaster.clone()];
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid ...: the command may hold spaces.
            let after_comm = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            if after_comm.split_whitespace().nth(1) == Some(postmaster.as_str()) {
                pids.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        pids
    }

    pub fn signal(&self, signal: &str, pids: &[String]) {
        let mut args = vec![signal];
        args.extend(pids.iter().map(String::as_str));
        self.must("kill", &args, false);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Ok(pids) = std::panic::catch_unwind(|| self.processes()) {
            let _ = Command::new("kill").arg("-CONT").args(&pids).status();
            // Some may have exited already: nothing to say about those.
            let _ = Command::new("kill")
                .arg("-CONT")
                .args(&pids)
                .stderr(std::process::Stdio::null())
                .status();
        }
        let pg_ctl = self.bin.join("pg_ctl");
        let mut stop = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&pg_ctl);
            c
        } else {
            Command::new(&pg_ctl)
        };
        let _ = stop
            .args(["-D", self.data_dir(), "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}
