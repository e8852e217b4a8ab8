//! Decides at build time whether the PostgreSQL tests run (see
//! `backend_tests!` in `tests/e2e/harness.rs`):
//!
//! - `TEST_DATABASE_URL` set (non-empty): the `e2e_postgres` cfg is set and
//!   the PostgreSQL tests run;
//! - unset, and `CI` unset: the PostgreSQL tests are compiled as ignored
//!   (`cargo test` reports them as such, not as passed);
//! - unset while `CI` is set (any non-empty value): the build fails, so CI
//!   can never go green without having run them.

use std::env;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=TEST_DATABASE_URL");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rustc-check-cfg=cfg(e2e_postgres)");

    let set = |name: &str| env::var_os(name).is_some_and(|value| !value.is_empty());
    if set("TEST_DATABASE_URL") {
        println!("cargo::rustc-cfg=e2e_postgres");
    } else if set("CI") {
        println!(
            "cargo::error=CI is set but TEST_DATABASE_URL is not: the PostgreSQL half of the \
             end-to-end tests would not run. Set TEST_DATABASE_URL (e.g. \
             postgres://postgres@127.0.0.1:5432/postgres) or unset CI to skip them locally."
        );
    } else {
        println!(
            "cargo::warning=TEST_DATABASE_URL is not set: the PostgreSQL end-to-end tests are \
             compiled as ignored"
        );
    }
}
