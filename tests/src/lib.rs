//! End-to-end tests live in `tests/tests/e2e/` (one test binary); the
//! shared harness is `tests/tests/e2e/harness.rs`.
