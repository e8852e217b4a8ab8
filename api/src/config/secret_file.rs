//! The secrets generated for an SQLite database when they are not
//! configured (the JWT secret, the VAPID key), each kept in a private file
//! beside the database.

use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use rand::RngCore;

use super::{ConfigError, Secret, GENERATED_SECRET_FILE, MIN_JWT_SECRET_BYTES};

/// The generated-secret file sits in the same directory as the database.
pub fn secret_file_for(database_file: &Path) -> PathBuf {
    beside(database_file, GENERATED_SECRET_FILE)
}

/// File `name` in the directory of the database.
pub fn beside(database_file: &Path, name: &str) -> PathBuf {
    let dir = database_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    dir.join(name)
}

/// Reads the secret kept in `file`, or creates the file (mode 0600) with a
/// fresh random secret. Returns the secret and whether it was just created.
pub fn load_or_create_secret(file: &Path) -> Result<(Secret, bool), ConfigError> {
    let fresh = || {
        let mut bytes = [0u8; 48];
        rand::rng().fill_bytes(&mut bytes);
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    };
    load_or_create(file, "JWT_SECRET", fresh, |secret| {
        (secret.len() >= MIN_JWT_SECRET_BYTES)
            .then_some(())
            .ok_or_else(|| format!("it holds fewer than {MIN_JWT_SECRET_BYTES} bytes"))
    })
}

/// Reads the secret kept in `file`, or creates the file (mode 0600) with
/// `fresh()`, for setting `variable` when it is unset; `check` says what
/// is wrong with a secret read back. Returns the secret and whether it was
/// just created.
pub fn load_or_create(
    file: &Path,
    variable: &str,
    fresh: impl FnOnce() -> String,
    check: impl Fn(&str) -> Result<(), String>,
) -> Result<(Secret, bool), ConfigError> {
    let unreadable = |e: std::io::Error| {
        ConfigError::new(format!(
            "{variable} is unset and the secret file {} cannot be used: {e}",
            file.display()
        ))
    };
    if let Some(dir) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(unreadable)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(file) {
        Ok(mut handle) => {
            let fresh = fresh();
            handle
                .write_all(fresh.as_bytes())
                .and_then(|()| handle.sync_all())
                .map_err(unreadable)?;
            Ok((Secret::new(fresh), true))
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            let mut text = String::new();
            std::fs::File::open(file)
                .and_then(|mut f| f.read_to_string(&mut text))
                .map_err(unreadable)?;
            let secret = text.trim().to_owned();
            check(&secret).map_err(|why| {
                ConfigError::new(format!(
                    "the secret file {} cannot be used: {why}; delete it or set {variable}",
                    file.display()
                ))
            })?;
            Ok((Secret::new(secret), false))
        }
        Err(e) => Err(unreadable(e)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn generated_secret_is_private_and_stable() {
        let dir = std::env::temp_dir().join(format!("stratego-cfg-{}", uuid::Uuid::new_v4()));
        let db = dir.join("stratego.db");
        let file = secret_file_for(&db);
        let (first, created) = load_or_create_secret(&file).unwrap();
        assert!(created);
        assert!(first.expose().len() >= MIN_JWT_SECRET_BYTES);
        let (second, created_again) = load_or_create_secret(&file).unwrap();
        assert!(!created_again);
        assert_eq!(first, second);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
