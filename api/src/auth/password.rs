//! Password hashing with argon2id at OWASP's minimum parameters
//! (19 MiB of memory, 2 iterations, 1 lane). Hashing is deliberately slow,
//! so the async helpers run it on a dedicated thread (see [`HashPool`]).

use std::cell::RefCell;

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::RngCore;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;

fn hasher() -> Argon2<'static> {
    // Params::DEFAULT is exactly OWASP's m=19456 KiB, t=2, p=1 (pinned by a test).
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::DEFAULT)
}

/// What a work area reserves, at least: 33 MiB of 1 KiB blocks. glibc
/// serves an allocation above 32 MiB (its largest mmap threshold on 64-bit
/// systems) with a mapping of its own, and unmaps it when it is freed,
/// without raising its threshold. Argon2's 19 MiB alone would not be: once
/// one such area has been freed, glibc raises its threshold past 19 MiB and
/// serves the next ones from its heap, where freed areas stay resident (200
/// registrations once left the server at 400-600 MiB). Reserved at this
/// size, an area is returned to the system when it is dropped, and only
/// the pages argon2 touches (its 19 MiB) are ever resident.
const RESERVED_BLOCKS: usize = 33 * 1024;

/// How long a hashing thread keeps its work area with nothing to hash: a
/// burst of logins reuses one area (mapping and touching a fresh one adds
/// about 10 ms to a hash), an idle server holds none.
const KEEP_IDLE: Duration = Duration::from_secs(2);

thread_local! {
    /// This thread's work area, reused from one hash to the next until
    /// [`release_work_area`].
    static WORK_AREA: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Runs argon2 (`argon`'s algorithm, version and parameters) into `out`,
/// in this thread's work area (made as [`RESERVED_BLOCKS`] says).
fn argon2_into(
    argon: &Argon2<'_>,
    params: &Params,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> argon2::Result<()> {
    let blocks = params.block_count();
    WORK_AREA.with(|area| {
        let mut area = area.borrow_mut();
        if area.len() < blocks {
            let mut larger = Vec::with_capacity(blocks.max(RESERVED_BLOCKS));
            larger.resize(blocks, Block::default());
            *area = larger;
        }
        argon.hash_password_into_with_memory(password, salt, out, &mut area[..blocks])
    })
}

/// Gives this thread's work area back to the system.
fn release_work_area() {
    WORK_AREA.with(|area| *area.borrow_mut() = Vec::new());
}

/// Hashing could not be done (a bug, or the hashing threads are gone).
#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(pub String);

/// Hashes a password into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`).
pub fn hash(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| HashError(e.to_string()))?;
    // As `PasswordHasher::hash_password` does: the salt's decoded bytes go in.
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt
        .decode_b64(&mut salt_bytes)
        .map_err(|e| HashError(e.to_string()))?;
    let argon = hasher();
    let params = Params::DEFAULT;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    argon2_into(&argon, &params, password.as_bytes(), salt_bytes, &mut out)
        .map_err(|e| HashError(e.to_string()))?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| HashError(e.to_string()))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| HashError(e.to_string()))?),
    };
    Ok(phc.to_string())
}

/// Checks a password against a stored PHC string, with the algorithm,
/// version and parameters recorded in that string. A malformed hash never
/// matches.
pub fn verify(password: &str, phc: &str) -> bool {
    verify_phc(password, phc).unwrap_or(false)
}

fn verify_phc(password: &str, phc: &str) -> Option<bool> {
    let parsed = PasswordHash::new(phc).ok()?;
    let algorithm = Algorithm::try_from(parsed.algorithm).ok()?;
    let version = parsed
        .version
        .map(Version::try_from)
        .transpose()
        .ok()?
        .unwrap_or_default();
    let expected = parsed.hash?;
    let stored = Params::try_from(&parsed).ok()?;
    let params = Params::new(
        stored.m_cost(),
        stored.t_cost(),
        stored.p_cost(),
        Some(expected.len()),
    )
    .ok()?;
    let argon = Argon2::new(algorithm, version, params.clone());
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = parsed.salt?.decode_b64(&mut salt_bytes).ok()?;
    let mut out = vec![0u8; expected.len()];
    argon2_into(&argon, &params, password.as_bytes(), salt_bytes, &mut out).ok()?;
    // `Output`'s equality is constant-time.
    Some(Output::new(&out).ok()? == expected)
}

/// Argon2 needs 19 MiB per hash. Run on actix's blocking pool (up to
/// hundreds of threads), a burst of logins would hash on as many threads at
/// once, and the allocator keeps each thread's freed 19 MiB for reuse: a few
/// hundred registrations left the process at about 700 MiB. One dedicated
/// thread bounds both the CPU and the memory hashing can take to one hash
/// at a time (a few dozen a second; logins are rate-limited far below
/// that); requests beyond it wait in line. Its work area is given back
/// after [`KEEP_IDLE`] without work, so an idle server holds none.
struct HashPool {
    jobs: mpsc::Sender<Job>,
}

type Job = Box<dyn FnOnce() + Send>;

/// Passwords hashed at the same time (see [`HashPool`]).
const HASHING_THREADS: usize = 1;

impl HashPool {
    fn start() -> HashPool {
        let threads = HASHING_THREADS;
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let receiver = Arc::clone(&receiver);
            let spawned = std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || loop {
                    // The guard is dropped before the job runs, so the
                    // other threads can take the next one meanwhile.
                    let job = match receiver.lock() {
                        Ok(guard) => guard.recv_timeout(KEEP_IDLE),
                        Err(poisoned) => poisoned.into_inner().recv_timeout(KEEP_IDLE),
                    };
                    match job {
                        Ok(job) => job(),
                        Err(mpsc::RecvTimeoutError::Timeout) => release_work_area(),
                        // The pool is gone.
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                });
            if let Err(error) = spawned {
                tracing::error!(%error, "could not start a password hashing thread");
            }
        }
        HashPool { jobs: sender }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The requester may have gone away; nothing to do then.
            let _ = reply.send(work());
        });
        let sent = self.jobs.send(job);
        sent.map_err(|_| HashError("the password hashing threads are gone".into()))?;
        answer
            .await
            .map_err(|_| HashError("a password hashing thread failed".into()))
    }
}

fn pool() -> &'static HashPool {
    static POOL: OnceLock<HashPool> = OnceLock::new();
    POOL.get_or_init(HashPool::start)
}

/// [`hash`] on the password hashing threads.
pub async fn hash_blocking(password: String) -> Result<String, HashError> {
    pool().run(move || hash(&password)).await?
}

/// [`verify`] on the password hashing threads.
pub async fn verify_blocking(password: String, phc: String) -> Result<bool, HashError> {
    pool().run(move || verify(&password, &phc)).await
}

/// [`dummy_hash`] on the password hashing threads (so that no other thread
/// keeps an argon2 work area).
pub async fn dummy_hash_blocking() -> Result<String, HashError> {
    pool().run(dummy_hash).await?
}

/// A hash of a random password nobody knows, for logins naming unknown users.
pub fn dummy_hash() -> Result<String, HashError> {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    let password: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    hash(&password)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn uses_argon2id_with_owasp_parameters() {
        let phc = hash("correct horse battery").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    }

    #[test]
    fn verifies_only_the_right_password() {
        let phc = hash("correct horse battery").unwrap();
        assert!(verify("correct horse battery", &phc));
        assert!(!verify("correct horse batterY", &phc));
        assert!(!verify("correct horse battery", "not a hash"));
    }

    #[tokio::test]
    async fn the_hashing_threads_serve_many_requests_at_once() {
        let hashes = futures_util::future::join_all(
            (0..6).map(|n| hash_blocking(format!("password number {n}"))),
        )
        .await;
        for (n, phc) in hashes.into_iter().enumerate() {
            let phc = phc.unwrap();
            assert!(verify_blocking(format!("password number {n}"), phc.clone())
                .await
                .unwrap());
            assert!(!verify_blocking("another password".to_owned(), phc)
                .await
                .unwrap());
        }
    }

    #[test]
    fn agrees_with_the_argon2_crates_own_hasher_and_verifier() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        // Ours verifies theirs (also with other parameters) ...
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let other = Params::new(8192, 3, 1, Some(24)).unwrap();
        for argon in [
            hasher(),
            Argon2::new(Algorithm::Argon2id, Version::V0x13, other),
        ] {
            let theirs = argon
                .hash_password(b"correct horse battery", &salt)
                .unwrap()
                .to_string();
            assert!(verify("correct horse battery", &theirs), "{theirs}");
            assert!(!verify("correct horse batterx", &theirs), "{theirs}");
        }
        // ... and theirs verifies ours.
        let ours = hash("correct horse battery").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(hasher()
            .verify_password(b"correct horse battery", &parsed)
            .is_ok());
        assert!(hasher()
            .verify_password(b"correct horse batterx", &parsed)
            .is_err());
    }

    #[test]
    fn a_work_area_is_reserved_above_glibcs_largest_mmap_threshold_and_released() {
        let area_bytes =
            || WORK_AREA.with(|a| a.borrow().capacity() * std::mem::size_of::<Block>());
        verify("pw", &hash("pw").unwrap());
        // Above 32 MiB: mapped on its own, and unmapped when released.
        assert!(area_bytes() > 32 * 1024 * 1024);
        let kept = area_bytes();
        verify("pw", &hash("pw").unwrap());
        assert_eq!(area_bytes(), kept, "the area was not reused");
        release_work_area();
        assert_eq!(area_bytes(), 0);
    }

    #[test]
    fn salts_differ() {
        assert_ne!(
            hash("same password").unwrap(),
            hash("same password").unwrap()
        );
    }
}
