//! The tests of `args.rs`: every setting read, refused or defaulted as
//! documented.

#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;
use clap::{CommandFactory, FromArgMatches, Parser};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: ServerArgs,
}

/// The arguments as clap parses them, with the environment ignored (so
/// that a variable set where the tests run changes nothing); errors as
/// `main` prints them.
fn try_args(extra: &[&str]) -> Result<ServerArgs, String> {
    let mut argv = vec!["api"];
    argv.extend_from_slice(extra);
    let matches = Cli::command()
        .mut_args(|arg| arg.env(None::<&str>))
        .try_get_matches_from(argv)
        .map_err(|e| clap_error_line(&e))?;
    Cli::from_arg_matches(&matches)
        .map(|cli| cli.args)
        .map_err(|e| clap_error_line(&e))
}

fn args(extra: &[&str]) -> ServerArgs {
    try_args(extra).unwrap()
}

const SECRET: &str = "--jwt-secret=0123456789abcdef0123456789abcdef";

#[test]
fn postgres_requires_a_secret() {
    let err = args(&["--database-url=postgres://localhost/x"])
        .resolve()
        .unwrap_err();
    assert!(err.to_string().contains("JWT_SECRET is required"));
    let err = args(&[
        "--database-url=postgres://localhost/x",
        "--jwt-secret=short",
    ])
    .resolve()
    .unwrap_err();
    assert!(err.to_string().contains("at least 32 bytes"));
    assert!(args(&["--database-url=postgres://localhost/x", SECRET])
        .resolve()
        .is_ok());
}

#[test]
fn bad_values_are_reported_in_one_line_naming_the_variable() {
    for (flag, variable) in [
        ("--bind-address=nowhere", "BIND_ADDRESS"),
        ("--access-token-ttl-seconds=abc", "ACCESS_TOKEN_TTL_SECONDS"),
        ("--access-token-ttl-seconds=9", "ACCESS_TOKEN_TTL_SECONDS"),
        (
            "--refresh-token-ttl-seconds=61",
            "REFRESH_TOKEN_TTL_SECONDS",
        ),
        ("--cors-allowed-origins=example.org", "CORS_ALLOWED_ORIGINS"),
        ("--log-format=xml", "LOG_FORMAT"),
        ("--log-level=[[[", "LOG_LEVEL"),
        ("--jwt-issuer= ", "JWT_ISSUER"),
        ("--database-pool-size=0", "DATABASE_POOL_SIZE"),
        ("--database-timeout-seconds=301", "DATABASE_TIMEOUT_SECONDS"),
        ("--login-rate-limit=-1", "LOGIN_RATE_LIMIT"),
        ("--max-body-bytes=1023", "MAX_BODY_BYTES"),
        (
            "--request-body-timeout-seconds=0",
            "REQUEST_BODY_TIMEOUT_SECONDS",
        ),
        ("--keep-alive-seconds=3601", "KEEP_ALIVE_SECONDS"),
        ("--trust-proxy-headers=maybe", "TRUST_PROXY_HEADERS"),
        ("--workers=0", "WORKERS"),
        ("--shutdown-grace-seconds=3601", "SHUTDOWN_GRACE_SECONDS"),
        (
            "--shutdown-timeout-seconds=3601",
            "SHUTDOWN_TIMEOUT_SECONDS",
        ),
        ("--max-streams-per-user=1001", "MAX_STREAMS_PER_USER"),
        (
            "--database-replica-url=sqlite://r.db",
            "DATABASE_REPLICA_URL",
        ),
        (
            "--database-replica-max-lag-millis=50",
            "DATABASE_REPLICA_MAX_LAG_MILLIS",
        ),
        (
            "--deadline-reminder-percent=100",
            "DEADLINE_REMINDER_PERCENT",
        ),
        ("--event-retention-days=0", "EVENT_RETENTION_DAYS"),
        ("--vacation-days-per-year=367", "VACATION_DAYS_PER_YEAR"),
        ("--vacation-carry-over-days=x", "VACATION_CARRY_OVER_DAYS"),
        ("--database-url=redis://x", "DATABASE_URL"),
    ] {
        let mut argv = vec![SECRET];
        if !flag.starts_with("--database-url") {
            argv.push("--database-url=postgres://h/d");
        }
        argv.push(flag);
        let outcome = try_args(&argv).and_then(|a| a.resolve().map_err(|e| e.to_string()));
        let message = outcome.map(|_| ()).expect_err(flag);
        assert!(message.contains(variable), "{flag}: {message}");
        assert!(!message.contains('\n'), "{flag}: {message}");
    }
    let message = try_args(&["--log-format=xml"]).map(|_| ()).unwrap_err();
    assert!(message.contains("text, json"), "{message}");
}

#[test]
fn values_are_trimmed_and_empty_ones_mean_unset_where_that_was_allowed() {
    let parsed = args(&[
        "--database-pool-size= 7 ",
        "--log-format= JSON ",
        "--trust-proxy-headers=",
        "--workers=",
        "--cors-allowed-origins=",
    ]);
    assert_eq!(parsed.database_pool_size, 7);
    assert_eq!(parsed.log_format, LogFormat::Json);
    assert!(!parsed.trust_proxy_headers);
    assert_eq!(parsed.workers, Some(None));
    assert_eq!(parsed.cors_allowed_origins, CorsOrigins::List(vec![]));
    assert_eq!(args(&["--workers=4"]).workers, Some(Some(4)));
    assert!(args(&["--trust-proxy-headers=on"]).trust_proxy_headers);
    for range_end in ["--workers=1024", "--shutdown-timeout-seconds=0"] {
        assert!(try_args(&[range_end]).is_ok(), "{range_end}");
    }
}

#[test]
fn config_new_is_the_parsed_defaults() {
    let secret = "0123456789abcdef0123456789abcdef";
    let parsed = args(&["--database-url=postgres://h/d", SECRET])
        .resolve()
        .unwrap()
        .config;
    let new = Config::new(
        DatabaseUrl::Postgres("postgres://h/d".into()),
        Secret::new(secret),
    );
    assert_eq!(format!("{parsed:?}"), format!("{new:?}"));
    assert_eq!(parsed.jwt_secret, new.jwt_secret);
}

/// The rows of the README's configuration table: each variable with the
/// default the table shows (`None` for a default in words, such as
/// "one per core").
fn documented_defaults() -> Vec<(String, Option<String>)> {
    let readme = include_str!("../../../README.md");
    let section = readme
        .split("### Configuration")
        .nth(1)
        .expect("README.md has a configuration section");
    let quoted = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let mut rows = Vec::new();
    for line in section.lines().skip_while(|l| !l.starts_with('|')) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(names), Some(values)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let names = quoted(names);
        if names.is_empty() {
            continue; // the header and its rule
        }
        let values = quoted(values);
        for (i, name) in names.into_iter().enumerate() {
            rows.push((name, values.get(i).cloned()));
        }
    }
    rows
}

#[test]
fn the_readme_documents_every_variable_with_its_default() {
    let documented = documented_defaults();
    let command = Cli::command();
    let mut variables = Vec::new();
    for arg in command.get_arguments() {
        let Some(variable) = arg.get_env().and_then(|v| v.to_str()) else {
            continue;
        };
        variables.push(variable.to_owned());
        let default = arg
            .get_default_values()
            .first()
            .and_then(|v| v.to_str())
            .filter(|v| !v.is_empty())
            .map(str::to_owned);
        let row = documented
            .iter()
            .find(|(name, _)| name == variable)
            .unwrap_or_else(|| panic!("{variable} is missing from README.md"));
        assert_eq!(row.1, default, "README.md: default of {variable}");
    }
    for (name, _) in &documented {
        assert!(
            variables.contains(name),
            "README.md documents {name}, which is no setting"
        );
    }
}
#[test]
fn origins_parse() {
    assert_eq!(parse_origins("").unwrap(), CorsOrigins::List(vec![]));
    assert_eq!(parse_origins("*").unwrap(), CorsOrigins::Any);
    assert_eq!(
        parse_origins("https://a.example, http://localhost:3000").unwrap(),
        CorsOrigins::List(vec![
            "https://a.example".into(),
            "http://localhost:3000".into()
        ])
    );
    assert!(parse_origins("https://a.example/path").is_err());
}

#[test]
fn a_public_url_is_kept_as_parsed_without_its_last_slash() {
    assert_eq!(
        public_url(" https://Stratego.Example.org/play/ ").as_deref(),
        Ok("https://stratego.example.org/play")
    );
    assert_eq!(
        public_url("https://stratego.example.org").as_deref(),
        Ok("https://stratego.example.org")
    );
    // What the parser would silently drop never reaches a mail header.
    assert_eq!(
        public_url("https://stratego.exa\tmple.org/\r\nBcc: x")
            .map(|u| u.contains(['\t', '\r', '\n'])),
        Ok(false)
    );
    for bad in [
        "ftp://example.org",
        "https://example.org/?a=1",
        "https://u:p@example.org",
        "example.org",
    ] {
        assert!(public_url(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_shutdown_grace_has_an_older_name_that_counts_only_when_it_is_unset() {
    let grace = |argv: &[&str]| {
        let mut all = vec![SECRET, "--database-url=postgres://h/d"];
        all.extend_from_slice(argv);
        args(&all).resolve().unwrap().config.shutdown_grace_seconds
    };
    assert_eq!(grace(&[]), 30);
    assert_eq!(grace(&["--shutdown-timeout-seconds=12"]), 12);
    assert_eq!(grace(&["--shutdown-grace-seconds=7"]), 7);
    assert_eq!(
        grace(&[
            "--shutdown-grace-seconds=7",
            "--shutdown-timeout-seconds=12"
        ]),
        7
    );
}

#[test]
fn replicas_are_postgres_urls_beside_a_postgres_primary_and_never_echoed() {
    let resolve = |argv: &[&str]| {
        let mut all = vec![SECRET];
        all.extend_from_slice(argv);
        try_args(&all).and_then(|a| a.resolve().map_err(|e| e.to_string()))
    };
    let config = resolve(&[
        "--database-url=postgres://h/d",
        "--database-replica-url=postgres://u:pw@r1/d, postgres://u:pw@r2/d,",
    ])
    .unwrap()
    .config;
    assert_eq!(
        config.database_replicas,
        ["postgres://u:pw@r1/d", "postgres://u:pw@r2/d"]
    );
    assert_eq!(config.database_replica_max_lag.as_millis(), 1000);
    let message = resolve(&[
        "--database-url=sqlite://./x.db",
        "--database-replica-url=postgres://u:pw@r1/d",
    ])
    .map(|_| ())
    .unwrap_err();
    assert!(
        message.contains("needs a PostgreSQL DATABASE_URL"),
        "{message}"
    );
    let message = resolve(&[
        "--database-url=postgres://h/d",
        "--database-replica-url=postgres://u:pw@r1/d,mysql://u:secret@r2/d",
    ])
    .map(|_| ())
    .unwrap_err();
    assert!(message.contains("replica 2"), "{message}");
    assert!(!message.contains("secret"), "{message}");
}
