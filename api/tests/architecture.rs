//! The shape of the `api` crate, checked (docs/architecture.md):
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a panic is the failure report
//!
//! - the top-level modules form no import cycle (a `crate::x` path in
//!   module `a` is an edge a -> x; `crate::X` of a name `lib.rs`
//!   re-exports from `x`, too),
//! - the table of the modules in docs/architecture.md ("The modules of
//!   `api`") is true both ways: it has a row for every module and none
//!   for a module that is gone, and each module's "may use" cell lists
//!   exactly the modules it imports, and
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
    // A module's tests in a file of their own (`tests.rs`, `*_tests.rs`,
    // included under `#[cfg(test)]`) are test code, like a `tests` module
    // within the file.
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return String::new();
    }
    let text = fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names of the crate's roots (`lib.rs`, `main.rs`): files under
/// `src/` that belong to no module. The table may name them, with
/// "everything": the scan does not read their imports (`main` imports
/// the library as `api::`, not `crate::`).
fn crate_roots() -> BTreeSet<String> {
    ["lib", "main"]
        .into_iter()
        .filter(|root| src().join(format!("{root}.rs")).is_file())
        .map(str::to_owned)
        .collect()
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

/// The names `lib.rs` re-exports from a module (`pub use m::{A, b};`) ->
/// that module: `crate::A` is an import of `m`.
fn reexports(modules: &BTreeMap<String, Vec<PathBuf>>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in code_of(&src().join("lib.rs")).split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        if !modules.contains_key(module) {
            continue;
        }
        let items = items.trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            // The name it is known by: the last segment, or its `as` name.
            let item = item.trim();
            let name = item.rsplit([':', ' ']).next().unwrap_or_default();
            if !name.is_empty() && name != "self" {
                names.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    names
}

fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let reexports = reexports(&modules);
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
                let target = reexports.get(&target).cloned().unwrap_or(target);
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
    // A name lib.rs re-exports is an import of its module.
    let reexports = reexports(&modules());
    assert_eq!(reexports.get("ApiError").map(String::as_str), Some("error"));
    assert_eq!(
        reexports.get("Application").map(String::as_str),
        Some("startup")
    );
    let cycles: Vec<Vec<String>> = edges
        .keys()
        .filter_map(|start| cycle_from(&edges, start))
        .collect();
    assert!(
        cycles.is_empty(),
        "import cycles between modules of api: {cycles:?}"
    );
}

/// What a row of the module table says a module may use.
#[derive(Debug, Clone, PartialEq, Eq)]
enum MayUse {
    /// "everything": not checked.
    Everything,
    /// Exactly these modules (none for a leaf).
    Only(BTreeSet<String>),
}

/// The section of docs/architecture.md whose table is checked.
const TABLE_SECTION: &str = "## The modules of `api`";

fn architecture_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The names in backticks of a table cell, which holds nothing else (but
/// the commas between them): `Err` with what else it holds.
fn names_in_cell(cell: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = String::new();
    for (i, part) in cell.split('`').enumerate() {
        if i % 2 == 1 {
            if part.is_empty() || !part.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(format!("`{part}` is not the name of a module"));
            }
            names.push(part.to_owned());
        } else {
            rest.push_str(part);
        }
    }
    if cell.matches('`').count() % 2 == 1 {
        return Err("an unclosed backtick".to_owned());
    }
    let prose = rest.replace(',', " ");
    let prose = prose.trim();
    if prose.is_empty() {
        Ok(names)
    } else {
        Err(format!("text that is not a module: {prose:?}"))
    }
}

/// The rows of the module table in `markdown` (docs/architecture.md):
/// each row's modules and what they may use. `Err` names a row that
/// cannot be read.
fn module_table(markdown: &str) -> Result<Vec<(Vec<String>, MayUse)>, String> {
    let section = markdown
        .split_once(TABLE_SECTION)
        .ok_or_else(|| format!("no section {TABLE_SECTION:?}"))?
        .1;
    // The section ends at the next heading; its table is the first run of
    // lines that start with `|`.
    let section = section.split("\n#").next().unwrap_or_default();
    let lines: Vec<&str> = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .collect();
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_start_matches('|')
            .trim_end_matches('|')
            .split('|')
            .map(|cell| cell.trim().to_owned())
            .collect()
    };
    match lines.first().map(|line| cells(line)) {
        Some(header) if header == ["module", "what it holds", "may use"] => {}
        other => {
            return Err(format!(
                "the table's header is not | module | what it holds | may use |: {other:?}"
            ))
        }
    }
    let mut rows = Vec::new();
    for line in lines.iter().skip(2) {
        let [modules, _holds, may_use] = <[String; 3]>::try_from(cells(line))
            .map_err(|cells| format!("not three cells: {cells:?}"))?;
        let modules = names_in_cell(&modules).map_err(|e| format!("{line}\n  module: {e}"))?;
        if modules.is_empty() {
            return Err(format!("{line}\n  names no module"));
        }
        let may_use = if may_use == "everything" {
            MayUse::Everything
        } else {
            let names = names_in_cell(&may_use).map_err(|e| {
                format!(
                    "{line}\n  may use: {e} \
                     (list the modules in backticks, or write \"everything\")"
                )
            })?;
            MayUse::Only(names.into_iter().collect())
        };
        rows.push((modules, may_use));
    }
    Ok(rows)
}

/// Where the table `rows` and the modules' imports (`edges`, `roots`: the
/// crate's roots) disagree, one line each.
fn table_problems(
    rows: &[(Vec<String>, MayUse)],
    edges: &BTreeMap<String, BTreeSet<String>>,
    roots: &BTreeSet<String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rows_of: BTreeMap<&str, &MayUse> = BTreeMap::new();
    for (modules, may_use) in rows {
        for module in modules {
            if rows_of.insert(module, may_use).is_some() {
                problems.push(format!("`{module}` has more than one row"));
            }
        }
    }
    for module in edges.keys() {
        if !rows_of.contains_key(module.as_str()) {
            problems.push(format!(
                "`{module}` (api/src/{module}) has no row: add one, with what it holds and what it may use"
            ));
        }
    }
    for (module, may_use) in &rows_of {
        let Some(used) = edges.get(*module) else {
            if !roots.contains(*module) {
                problems.push(format!(
                    "`{module}` has a row but there is no such module in api/src"
                ));
            } else if **may_use != MayUse::Everything {
                problems.push(format!(
                    "`{module}` is a crate root, whose imports the scan does not read: its \"may use\" must be \"everything\""
                ));
            }
            continue;
        };
        let MayUse::Only(allowed) = may_use else {
            continue;
        };
        for target in used.difference(allowed) {
            problems.push(format!(
                "`{module}` imports `{target}` (crate::{target}), which its \"may use\" does not list"
            ));
        }
        for target in allowed.difference(used) {
            if edges.contains_key(target) {
                problems.push(format!(
                    "`{module}`'s \"may use\" lists `{target}`, which it does not import"
                ));
            } else {
                problems.push(format!(
                    "`{module}`'s \"may use\" lists `{target}`, which is no module of api/src"
                ));
            }
        }
    }
    problems
}

#[test]
fn the_module_table_in_the_docs_is_true() {
    let rows = module_table(&architecture_md())
        .unwrap_or_else(|e| panic!("docs/architecture.md, {TABLE_SECTION:?}: {e}"));
    let problems = table_problems(&rows, &edges(), &crate_roots());
    assert!(
        problems.is_empty(),
        "docs/architecture.md, {TABLE_SECTION:?}, does not match the imports of api/src \
         (test code excluded); fix the table or the imports:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_table_check_would_see_a_wrong_row() {
    let table = format!(
        "{TABLE_SECTION}\n\n| module | what it holds | may use |\n|---|---|---|\n\
         | `main` | the binary | everything |\n\
         | `routes` | handlers | `games`, `db` |\n\
         | `games` | commands | `storage` |\n\
         | `gone`, `storage` | leaves | |\n\n## Next\n| `x` | y | z |\n"
    );
    let rows = module_table(&table).unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    let edge = |from: &str, to: &[&str]| {
        (
            from.to_owned(),
            to.iter().map(|t| (*t).to_owned()).collect::<BTreeSet<_>>(),
        )
    };
    let edges: BTreeMap<String, BTreeSet<String>> = [
        edge("routes", &["games", "storage"]),
        edge("games", &["storage"]),
        edge("storage", &[]),
        edge("db", &[]),
    ]
    .into_iter()
    .collect();
    let roots = ["main".to_owned()].into_iter().collect();
    let problems = table_problems(&rows, &edges, &roots);
    assert_eq!(
        problems,
        [
            "`db` (api/src/db) has no row: add one, with what it holds and what it may use",
            "`gone` has a row but there is no such module in api/src",
            "`routes` imports `storage` (crate::storage), which its \"may use\" does not list",
            "`routes`'s \"may use\" lists `db`, which it does not import",
        ]
    );
    let prose = format!(
        "{TABLE_SECTION}\n| module | what it holds | may use |\n|---|---|---|\n\
         | `state` | handlers' state | the services it holds |\n"
    );
    assert!(module_table(&prose).is_err());
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

/// The files longer than this are hard to read as one concern
/// (docs/architecture.md, "Files").
const LONGEST_FILE: usize = 800;

/// The one file allowed past [`LONGEST_FILE`], and why (its top says so).
const LONG_ON_PURPOSE: [&str; 1] = ["domain/src/game.rs"];

/// The Rust files of the workspace longer than [`LONGEST_FILE`] lines,
/// as paths from its root.
fn long_files(root: &Path) -> Vec<(String, usize)> {
    let mut long = Vec::new();
    for dir in [
        "api/src",
        "api/tests",
        "domain/src",
        "domain/tests",
        "tests/src",
        "tests/tests",
    ] {
        for file in rust_files(&root.join(dir)) {
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            let name = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if lines > LONGEST_FILE {
                long.push((name, lines));
            }
        }
    }
    long
}

#[test]
fn no_file_is_longer_than_a_reader_can_follow() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let long: Vec<_> = long_files(&root)
        .into_iter()
        .filter(|(name, _)| !LONG_ON_PURPOSE.contains(&name.as_str()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {LONGEST_FILE} lines (split them by concern): {long:?}"
    );
    // The check reads the files it names: the one long on purpose is seen.
    let seen = long_files(&root);
    assert!(
        seen.iter().any(|(name, _)| name == LONG_ON_PURPOSE[0]),
        "{seen:?}"
    );
    let game = fs::read_to_string(root.join(LONG_ON_PURPOSE[0])).unwrap();
    assert!(
        game.lines()
            .take(12)
            .any(|line| line.contains("One file on purpose")),
        "{} must say at its top why it is one file",
        LONG_ON_PURPOSE[0]
    );
}
