#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::super::*;
use super::*;

/// A SQLite pool whose writer keeps its transaction open for newcomers
/// for up to 10 s, with a table `counted` to write to.
fn lingering_pool(name: &str, size: u32) -> (DbPool, Arc<GroupWriter>, std::path::PathBuf) {
    let path = std::env::temp_dir().join(format!("stratego-{name}-{}.db", uuid::Uuid::new_v4()));
    let database = DatabaseUrl::Sqlite(path.clone());
    let timeout = Duration::from_secs(10);
    let mut pool = pool(&database, size, timeout, SqliteSynchronous::Full).unwrap();
    let manager = ConnectionManager::new(database, timeout, SqliteSynchronous::Full);
    let writer = Arc::new(GroupWriter::lingering(manager, Duration::from_secs(10)));
    pool.writer = Some(writer.clone());
    pool.get()
        .unwrap()
        .batch_execute(
            "CREATE TABLE counted (n INTEGER NOT NULL); \
             CREATE TABLE parent (id INTEGER PRIMARY KEY); \
             CREATE TABLE child (parent INTEGER NOT NULL \
                 REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);",
        )
        .unwrap();
    (pool, writer, path)
}

fn remove_sqlite(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// The values in `counted`, in order, as committed.
async fn counted(pool: &DbPool) -> Vec<i64> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    run(pool, |conn| {
        use diesel::RunQueryDsl;
        let DbConnection::Sqlite(sqlite) = conn else {
            unreachable!()
        };
        let rows = diesel::sql_query("SELECT n FROM counted ORDER BY n").load::<Row>(sqlite)?;
        Ok(rows.into_iter().map(|row| row.n).collect())
    })
    .await
    .unwrap()
}

fn insert(conn: &mut DbConnection, sql: String) -> Result<(), StoreError> {
    use diesel::RunQueryDsl;
    let DbConnection::Sqlite(sqlite) = conn else {
        unreachable!()
    };
    diesel::sql_query(sql).execute(sqlite)?;
    Ok(())
}

/// Starts a writer that writes with `first` and then holds its
/// transaction until `others` more writers wait behind it (5 s at
/// most); returns once it is inside.
async fn hold(
    pool: &DbPool,
    writer: &Arc<GroupWriter>,
    first: &'static str,
    others: usize,
) -> tokio::task::JoinHandle<Result<(), StoreError>> {
    let (inside, entered) = std::sync::mpsc::channel();
    let holder = writer.clone();
    let pool = pool.clone();
    let first = tokio::spawn(async move {
        run_write(&pool, move |conn| {
            insert(conn, first.to_owned())?;
            inside.send(()).unwrap();
            let until = Instant::now() + Duration::from_secs(5);
            while holder.waiting() < others && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(())
        })
        .await
    });
    tokio::task::spawn_blocking(move || entered.recv().unwrap())
        .await
        .unwrap();
    first
}

/// Starts writer 0 ([`hold`]), then `others` more, each writing `n`
/// into `counted` and refusing (after writing) when `refuses(n)`.
/// Returns every writer's result, writer 0's first.
async fn a_round(
    pool: &DbPool,
    writer: &Arc<GroupWriter>,
    first: &'static str,
    others: usize,
    refuses: fn(i64) -> bool,
) -> Vec<Result<(), StoreError>> {
    let first = hold(pool, writer, first, others).await;
    let rest: Vec<_> = (1..=others as i64)
        .map(|n| {
            let pool = pool.clone();
            tokio::spawn(async move {
                run_write(&pool, move |conn| {
                    insert(conn, format!("INSERT INTO counted (n) VALUES ({n})"))?;
                    if refuses(n) {
                        return Err(StoreError::Query(diesel::result::Error::NotFound));
                    }
                    Ok(())
                })
                .await
            })
        })
        .collect();
    let mut results = vec![first.await.unwrap()];
    for writer in rest {
        results.push(writer.await.unwrap());
    }
    results
}

/// Writers that come while another one is writing all join its
/// transaction: one commit for all of them; a writer that refuses
/// after writing rolls back only its own rows, and gets its own error.
#[actix_web::test]
async fn sqlite_writes_that_come_together_share_one_commit() {
    let (pool, writer, path) = lingering_pool("group", 12);
    let refuses = |n: i64| n % 3 == 0;
    let results = a_round(
        &pool,
        &writer,
        "INSERT INTO counted (n) VALUES (0)",
        9,
        refuses,
    )
    .await;
    for (n, result) in results.iter().enumerate() {
        match result {
            Err(StoreError::Query(diesel::result::Error::NotFound)) => {
                assert!(refuses(n as i64) && n > 0, "writer {n} was refused")
            }
            Ok(()) => assert!(n == 0 || !refuses(n as i64), "writer {n} was kept"),
            Err(other) => panic!("writer {n}: {other}"),
        }
    }
    assert_eq!(counted(&pool).await, vec![0, 1, 2, 4, 5, 7, 8]);
    assert_eq!(pool.group_commits(), Some(1), "one commit for the round");
    // Alone, a writer commits at once, in a round of its own.
    let alone = a_round(
        &pool,
        &writer,
        "INSERT INTO counted (n) VALUES (10)",
        0,
        refuses,
    )
    .await;
    assert!(alone[0].is_ok());
    assert_eq!(pool.group_commits(), Some(2));
    assert_eq!(counted(&pool).await.len(), 8);
    drop(pool);
    remove_sqlite(&path);
}

/// A commit that fails fails every writer of its round, each answered
/// "unavailable", none of their rows kept; the next write goes through.
#[actix_web::test]
async fn a_failed_group_commit_fails_everyone_in_it() {
    let (pool, writer, path) = lingering_pool("group-fail", 8);
    // A deferred foreign key is checked at the commit, which refuses it.
    let orphan = "INSERT INTO child (parent) VALUES (42)";
    let results = a_round(&pool, &writer, orphan, 5, |_| false).await;
    for (n, result) in results.iter().enumerate() {
        let error = result.as_ref().expect_err("the round's commit failed");
        assert!(error.lost_connection(), "writer {n}: {error}");
    }
    assert!(
        counted(&pool).await.is_empty(),
        "nothing of the round is kept"
    );
    assert_eq!(pool.group_commits(), Some(0));
    let next = a_round(
        &pool,
        &writer,
        "INSERT INTO counted (n) VALUES (7)",
        2,
        |_| false,
    )
    .await;
    assert!(next.iter().all(Result::is_ok));
    assert_eq!(counted(&pool).await, vec![1, 2, 7]);
    drop(pool);
    remove_sqlite(&path);
}

/// Starts a writer that writes 0 into `counted` and then holds the
/// writer until told to go on; returns once it is inside, with the way
/// to tell it and its outcome.
async fn held(
    pool: &DbPool,
) -> (
    std::sync::mpsc::Sender<()>,
    tokio::task::JoinHandle<Result<(), StoreError>>,
) {
    let (go, wait_for_go) = std::sync::mpsc::channel::<()>();
    let (inside, entered) = std::sync::mpsc::channel();
    let holder = pool.clone();
    let first = tokio::spawn(async move {
        run_write(&holder, move |conn| {
            insert(conn, "INSERT INTO counted (n) VALUES (0)".to_owned())?;
            inside.send(()).unwrap();
            wait_for_go.recv().unwrap();
            Ok::<_, StoreError>(())
        })
        .await
    });
    tokio::task::spawn_blocking(move || entered.recv().unwrap())
        .await
        .unwrap();
    (go, first)
}

/// A writer whose deadline passes while another holds the writer is
/// answered "unavailable" then, not when the writer is free, and its
/// write is never run: the round it would have joined commits without
/// it.
#[actix_web::test]
async fn a_write_whose_deadline_passes_before_its_turn_writes_nothing() {
    let (pool, writer, path) = lingering_pool("group-late", 4);
    let (go, first) = held(&pool).await;
    let late = tokio::task::spawn_blocking(move || {
        writer.write(
            Deadline::at(Instant::now() + Duration::from_millis(100)),
            |conn| insert(conn, "INSERT INTO counted (n) VALUES (1)".to_owned()),
        )
    });
    let late = tokio::time::timeout(Duration::from_secs(5), late)
        .await
        .expect("answered at its deadline, with the writer still held")
        .unwrap();
    assert!(late.unwrap_err().lost_connection());
    go.send(()).unwrap();
    first.await.unwrap().unwrap();
    assert_eq!(counted(&pool).await, vec![0], "the late write never ran");
    assert_eq!(pool.group_commits(), Some(1));
    drop(pool);
    remove_sqlite(&path);
}

/// The same for a task waiting without a thread of its own
/// (`write_async`): told "unavailable" at its deadline while the writer
/// is still held, and its write never runs.
#[actix_web::test]
async fn a_task_whose_deadline_passes_before_its_turn_is_told_then() {
    let (pool, writer, path) = lingering_pool("group-late-task", 4);
    let (go, first) = held(&pool).await;
    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let late_ran = ran.clone();
    let late = writer.write_async(Instant::now() + Duration::from_millis(100), move |conn| {
        late_ran.store(true, Ordering::SeqCst);
        insert(conn, "INSERT INTO counted (n) VALUES (1)".to_owned())
    });
    let late = tokio::time::timeout(Duration::from_secs(5), late)
        .await
        .expect("answered at its deadline, with the writer still held");
    assert!(late.unwrap_err().lost_connection());
    go.send(()).unwrap();
    first.await.unwrap().unwrap();
    // A write handed over after it goes through: the thread skipped the
    // given-up one.
    let after = writer
        .write_async(Instant::now() + Duration::from_secs(5), |conn| {
            insert(conn, "INSERT INTO counted (n) VALUES (2)".to_owned())
        })
        .await;
    assert!(after.is_ok(), "{after:?}");
    assert!(!ran.load(Ordering::SeqCst), "the late write never ran");
    assert_eq!(counted(&pool).await, vec![0, 2]);
    drop(pool);
    remove_sqlite(&path);
}

/// A writer that panics in a shared transaction rolls it back and its
/// round-mates are told, instead of waiting for a commit forever.
#[actix_web::test]
async fn a_writer_that_panics_does_not_leave_its_round_waiting() {
    let (pool, writer, path) = lingering_pool("group-panic", 6);
    let first = hold(&pool, &writer, "INSERT INTO counted (n) VALUES (0)", 1).await;
    // Answered as a failure of the server, with what the panic said, on
    // the task that waited, which goes on.
    let panicking = run_write(&pool, |_| -> Result<(), StoreError> { panic!("a bug") }).await;
    assert!(
        matches!(&panicking, Err(StoreError::Worker(said)) if said.contains("a bug")),
        "{panicking:?}"
    );
    let told = tokio::time::timeout(Duration::from_secs(5), first)
        .await
        .expect("the first writer was told")
        .unwrap();
    assert!(told.unwrap_err().lost_connection());
    assert!(counted(&pool).await.is_empty());
    let after = a_round(
        &pool,
        &writer,
        "INSERT INTO counted (n) VALUES (3)",
        0,
        |_| false,
    )
    .await;
    assert!(after[0].is_ok());
    assert_eq!(counted(&pool).await, vec![3]);
    drop(pool);
    remove_sqlite(&path);
}

/// A read made on the calling thread (`DbPool::read_idle_here`, SQLite)
/// that panics is answered as a failure of the server with what the
/// panic said, instead of unwinding through the task; the pool goes on
/// serving reads after it.
#[actix_web::test]
async fn a_read_here_that_panics_is_an_error_not_an_unwinding() {
    let (pool, _writer, path) = lingering_pool("read-here-panic", 1);
    let crashed = pool
        .read_idle_here(|_| -> Result<(), StoreError> { panic!("a bug in a read") })
        .expect("a connection was idle");
    assert!(
        matches!(&crashed, Err(StoreError::Worker(said)) if said.contains("a bug in a read")),
        "{crashed:?}"
    );
    // The pool's one connection was dropped (it may have been in the
    // middle of a statement); the pool opens another in the background.
    let until = Instant::now() + Duration::from_secs(5);
    let after = loop {
        let read = pool.read_idle_here(|conn| insert(conn, "SELECT 1".to_owned()));
        match read {
            Some(read) => break read,
            None if Instant::now() < until => tokio::time::sleep(Duration::from_millis(10)).await,
            None => panic!("no connection idle again within 5 s"),
        }
    };
    assert!(after.is_ok(), "{after:?}");
    drop(pool);
    remove_sqlite(&path);
}
