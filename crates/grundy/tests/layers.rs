//! The front ends (the CLI and web server in `grundy-cli`, the Python
//! binding in `grundy-py`) ask the session and render its reports: they
//! name nothing from the engine's modules `analysis`, `solve` and `rules`.
//! A front-end file that does fails here, naming the file and the count.

use std::collections::BTreeMap;
use std::path::Path;

/// The engine names `source` uses: each item of `analysis::{a, b}` (but
/// `self`), and each `analysis::name` path, likewise for `solve` and
/// `rules`, whoever's (a front end's own module is not named like the
/// engine's, so that neither a reader nor this count can mix them up);
/// comments do not count.
fn engine_names(source: &str) -> usize {
    let mut count = 0;
    for line in source.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for module in ["analysis::", "solve::", "rules::"] {
            let mut rest = line;
            while let Some(at) = rest.find(module) {
                let before = &rest[..at];
                let word_start = before
                    .chars()
                    .last()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
                let after = &rest[at + module.len()..];
                if !word_start {
                    count += if after.starts_with('{') {
                        // Counted below, across lines, by `grouped`.
                        0
                    } else {
                        1
                    };
                }
                rest = after;
            }
        }
    }
    count + grouped(source)
}

/// The items of grouped imports `use grundy::{analysis,solve,rules}::{...}`,
/// which may span lines, `self` left out.
fn grouped(source: &str) -> usize {
    let mut count = 0;
    for module in [
        "grundy::analysis::{",
        "grundy::solve::{",
        "grundy::rules::{",
    ] {
        let mut rest = source;
        while let Some(at) = rest.find(module) {
            let body = &rest[at + module.len()..];
            let end = body.find('}').expect("a closed import group");
            count += body[..end]
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty() && *item != "self")
                .count();
            rest = &body[end..];
        }
    }
    count
}

/// Every `.rs` file under `dir`, by its path from `crates/`.
fn sources(crates: &Path, dir: &str, found: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(crates.join(dir)).unwrap() {
        let path = entry.unwrap().path();
        let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
        if path.is_dir() {
            sources(crates, &name, found);
        } else if name.ends_with(".rs") {
            found.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn front_ends_name_nothing_of_the_engine() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = BTreeMap::new();
    sources(crates, "grundy-cli/src", &mut found);
    sources(crates, "grundy-py/src", &mut found);
    assert!(found.contains_key("grundy-cli/src/serve.rs"));
    let wrong: Vec<String> = found
        .iter()
        .map(|(file, source)| (file, engine_names(source)))
        .filter(|&(_, names)| names > 0)
        .map(|(file, names)| format!("{file}: {names} engine names"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn engine_names_are_counted_in_paths_and_groups_but_not_in_comments() {
    let source = "use grundy::analysis::{self, Limits,\n    Tuples};\n\
                  use grundy::session::HeapRules;\n\
                  use crate::rules::Rules;\n\
                  // grundy::solve::Memo in a comment\n\
                  fn f() { grundy::rules::parse_size(\"1\"); analysis::guess_report(); }\n";
    // Limits, Tuples, Rules (a front end's module named like the engine's),
    // parse_size, guess_report.
    assert_eq!(engine_names(source), 5);
}
