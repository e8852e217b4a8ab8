//! For unit tests: a migrated SQLite database in a temporary file of its
//! own, deleted (with its WAL files) when dropped.

use std::path::PathBuf;
use std::time::Duration;

use super::{migrate, pool, DbPool, PooledConnection};
use crate::config::{DatabaseUrl, SqliteSynchronous};

pub struct ScratchSqlite {
    pub pool: DbPool,
    path: PathBuf,
}

impl ScratchSqlite {
    /// A fresh database named after `name`, every migration applied.
    #[allow(clippy::unwrap_used, clippy::expect_used)]
    pub fn migrated(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("stratego-{name}-{}.db", uuid::Uuid::new_v4()));
        let pool = pool(
            &DatabaseUrl::Sqlite(path.clone()),
            1,
            Duration::from_secs(2),
            SqliteSynchronous::Full,
        )
        .expect("a SQLite pool in the temporary directory");
        migrate(&mut pool.get().expect("a connection")).expect("the migrations");
        Self { pool, path }
    }

    /// A connection of its pool.
    #[allow(clippy::expect_used)]
    pub fn conn(&self) -> PooledConnection {
        self.pool.get().expect("a connection")
    }
}

impl Drop for ScratchSqlite {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.path.display()));
        }
    }
}
