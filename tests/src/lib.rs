//! End-to-end tests live in `tests/tests/e2e/` (one test binary); the
//! shared harness is `tests/tests/e2e/harness.rs`. The library holds the
//! load generator of `BENCHMARKS.md` ([`load`]), shared by the `load`
//! binary and its smoke test.

pub mod load;
