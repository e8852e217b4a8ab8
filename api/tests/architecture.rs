//! The shape of the `api` crate, checked (docs/architecture.md):
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a panic is the failure report
//!
//! - the top-level modules form no import cycle (a `crate::x` path in
//!   module `a` is an edge a -> x), and
//! - nothing below the routes knows HTTP: the game service, the event
//!   feed, storage and the database layer name no `actix_web` type, and
//!   the game service answers typed values, not JSON values.
//!
//! The check reads the sources as text (test code excluded), so it cannot
//! miss a module: every file under `src/` belongs to one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The source without `//` comments and without its `#[cfg(test)]` part.
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Top-level module name -> its files.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in rust_files(&src()) {
        let relative = file.strip_prefix(src()).unwrap();
        let first = relative.components().next().unwrap();
        let name = first.as_os_str().to_string_lossy();
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_owned();
        if name != "lib" && name != "main" {
            modules.entry(name).or_default().push(file);
        }
    }
    modules
}

fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, files) in &modules {
        let targets = edges.entry(name.clone()).or_default();
        for file in files {
            let code = code_of(file);
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                let target: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if target != *name && modules.contains_key(&target) {
                    targets.insert(target);
                }
            }
        }
    }
    edges
}

/// A cycle through `start`, if there is one.
fn cycle_from(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in edges.get(&node).into_iter().flatten() {
            if next == start {
                let mut cycle = path.clone();
                cycle.push(next.clone());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn top_level_modules_import_no_cycle() {
    let edges = edges();
    assert!(
        edges.len() >= 10,
        "the module scan found too little: {edges:?}"
    );
    // The scan sees real edges (so an empty result cannot pass by accident).
    assert!(edges["routes"].contains("games"), "{edges:?}");
    assert!(edges["games"].contains("storage"), "{edges:?}");
    let cycles: Vec<Vec<String>> = edges
        .keys()
        .filter_map(|start| cycle_from(&edges, start))
        .collect();
    assert!(
        cycles.is_empty(),
        "import cycles between modules of api: {cycles:?}"
    );
}

#[test]
fn below_the_routes_nothing_knows_http() {
    let modules = modules();
    let below = [
        "games", "players", "events", "storage", "db", "auth", "username", "clock", "schema",
    ];
    let mut offenders = Vec::new();
    for name in below {
        for file in &modules[name] {
            let code = code_of(file);
            for word in [
                "actix_web",
                "HttpRequest",
                "HttpResponse",
                "StatusCode",
                "ApiError",
            ] {
                if code.contains(word) {
                    offenders.push(format!("{} names {word}", file.display()));
                }
            }
        }
    }
    for file in &modules["games"] {
        if code_of(file).contains("serde_json::Value ") || code_of(file).contains("-> Value") {
            offenders.push(format!("{} answers a JSON value", file.display()));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// See `api/src/storage/mod.rs`: a one-row read must not bind a `LIMIT`.
#[test]
fn storage_reads_one_row_without_a_bound_limit() {
    let offenders: Vec<String> = modules()["storage"]
        .iter()
        .filter(|file| code_of(file).contains(".first("))
        .map(|file| file.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "use get_result (no LIMIT) in {offenders:?}"
    );
}

#[test]
fn the_scan_would_see_a_cycle() {
    let mut edges = edges();
    edges
        .entry("storage".to_owned())
        .or_default()
        .insert("routes".to_owned());
    assert!(cycle_from(&edges, "storage").is_some());
}
