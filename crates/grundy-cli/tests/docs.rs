//! Every example in the README and the guides under `docs/` runs, and
//! prints what the page says it prints.
//!
//! An example is a fenced block marked `console`: each line that starts
//! with `$ ` is a command, run by `sh` with this build's `grundy` first on
//! the `PATH`, and the lines after it, up to the next command, are what it
//! prints (stdout and stderr together). In the expected text a line `...`
//! stands for any number of lines and `[..]` for any part of a line. A
//! command that fails must show its `error:` line. The commands of one page
//! run in order in one scratch folder holding a copy of `examples/`, so a
//! page may write a file and read it back.
//!
//! An example may not name a file that is not shipped: what it prints
//! must not say "No such file or directory".
//!
//! `GRUNDY_BLESS=1 cargo test -p grundy-cli --test docs` writes what the
//! commands print into the pages, where it differs.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pages whose examples run.
fn pages() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    pages.extend(guides);
    pages
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command of a page and what the page says it prints.
struct Example {
    /// The line of the command, from 1.
    line: usize,
    command: String,
    /// The lines of the page holding the expected output.
    expected: std::ops::Range<usize>,
}

/// The examples of a page, in order.
fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut in_console = false;
    let mut fence = "";
    let mut current: Option<Example> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if !in_console {
            if let Some(info) = trimmed.strip_prefix("```")
                && info.trim() == "console"
            {
                in_console = true;
                fence = &line[..line.len() - trimmed.len()];
            }
            continue;
        }
        if trimmed.starts_with("```") {
            if let Some(mut example) = current.take() {
                example.expected.end = i;
                found.push(example);
            }
            in_console = false;
            continue;
        }
        let text = line.strip_prefix(fence).unwrap_or(line);
        if let Some(command) = text.strip_prefix("$ ") {
            if let Some(mut example) = current.take() {
                example.expected.end = i;
                found.push(example);
            }
            current = Some(Example {
                line: i + 1,
                command: command.to_owned(),
                expected: i + 1..i + 1,
            });
        }
    }
    found
}

/// Whether `actual` is what `expected` shows, with its `...` lines and
/// `[..]` parts.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && matches(rest, more)),
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let expected = expected.trim_end();
    let actual = actual.trim_end();
    let mut parts = expected.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs `command` as a page shows it, in `folder`: its exit status and
/// what it printed.
fn run(command: &str, folder: &Path) -> (bool, String) {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_grundy"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1 </dev/null; {command}"))
        .current_dir(folder)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut printed = Vec::new();
        let _ = stdout.read_to_end(&mut printed);
        printed
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > EXAMPLE_TIME {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let printed = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    match status {
        Some(status) => (status.success(), printed),
        None => (
            false,
            format!("{printed}\n(stopped after {EXAMPLE_TIME:?}: an example must be quick)"),
        ),
    }
}

/// The longest an example may take (a debug build, a busy CI machine).
const EXAMPLE_TIME: Duration = Duration::from_secs(20);

#[test]
fn every_example_in_the_readme_and_the_guides_prints_what_it_shows() {
    let bless = std::env::var_os("GRUNDY_BLESS").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let found = examples(&lines);
        if found.is_empty() {
            continue;
        }
        let folder = tempfile::tempdir().unwrap();
        copy_dir(
            &repository().join("examples"),
            &folder.path().join("examples"),
        );
        let mut blessed: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        // Replacements made from the end, so earlier ranges stay valid.
        let mut replacements = Vec::new();
        for example in &found {
            ran += 1;
            let (succeeded, printed) = run(&example.command, folder.path());
            let fence: String = lines[example.line - 1]
                .chars()
                .take_while(|c| c.is_whitespace())
                .collect();
            // Blank lines between one example's output and the next
            // command are the page's layout, not output.
            let mut shown = example.expected.clone();
            while shown.end > shown.start && lines[shown.end - 1].trim().is_empty() {
                shown.end -= 1;
            }
            let expected: Vec<String> = lines[shown.clone()]
                .iter()
                .map(|l| l.strip_prefix(fence.as_str()).unwrap_or(l).to_owned())
                .collect();
            let actual: Vec<&str> = printed.lines().collect();
            let shows_error = expected.iter().any(|l| l.starts_with("error:"));
            // A file an example names must be shipped in `examples/`.
            let missing = printed.contains("No such file or directory");
            if matches(&expected, &actual) && (succeeded || shows_error) && !missing {
                continue;
            }
            failures.push(format!(
                "{}:{}: $ {}\n--- the page shows\n{}\n--- it prints{}\n{}",
                page.display(),
                example.line,
                example.command,
                expected.join("\n"),
                if succeeded { "" } else { " (and fails)" },
                printed.trim_end()
            ));
            replacements.push((
                shown,
                actual
                    .iter()
                    .map(|l| format!("{fence}{l}").trim_end().to_owned())
                    .collect::<Vec<_>>(),
            ));
        }
        if bless && !replacements.is_empty() {
            for (range, new) in replacements.into_iter().rev() {
                blessed.splice(range, new);
            }
            std::fs::write(&page, blessed.join("\n") + "\n").unwrap();
        }
    }
    assert!(ran > 0, "no examples found");
    assert!(
        failures.is_empty(),
        "{} of {ran} examples differ{}:\n\n{}",
        failures.len(),
        if bless {
            " (written into the pages)"
        } else {
            ""
        },
        failures.join("\n\n")
    );
}

#[test]
fn expected_text_matches_with_elisions() {
    let page = ["...".to_owned(), "b [..] d".to_owned()];
    assert!(matches(&page, &["a", "b c d"]));
    assert!(matches(&page, &["b  d"]));
    assert!(!matches(&page, &["b c e"]));
    assert!(!matches(&["a".to_owned()], &["a", "b"]));
    assert!(line_matches("x [..]", "x yz"));
    assert!(!line_matches("x [..] z", "x y"));
}
