//! Inputs too long for a command line, read from files (issue 52, item 6):
//! a Hackenbush tree of megabytes as `hackenbush:FILE`, wherever the
//! bracket text itself is accepted, and any arguments as `@FILE`.

use assert_cmd::Command;

mod common;
use common::Scratch;

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

fn stdout(args: &[&str]) -> String {
    let output = grundy(args).success().get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

/// An edge carrying `twigs` twigs, written a few brackets to a line under a
/// comment: worth 1 + (twigs mod 2), its one winning cut the first edge
/// when `twigs` is even.
fn bush(twigs: usize) -> String {
    let mut text = String::from("# an edge carrying twigs\n(\n");
    for line in 0..twigs.div_ceil(32) {
        let on_line = 32.min(twigs - 32 * line);
        text.push_str(&"() ".repeat(on_line));
        text.push('\n');
    }
    text.push_str(")\n");
    text
}

#[test]
fn a_tree_longer_than_a_command_line_is_read_from_its_file() {
    let dir = Scratch::new("long-tree");
    // 1,000,000 twigs in 3 MB: past Linux's 2 MiB for all the arguments
    // together (and its 128 KiB for one).
    let twigs = 1_000_000;
    let text = bush(twigs);
    assert!(text.len() > 2 << 20, "{}", text.len());
    let path = dir.join("bush.txt");
    std::fs::write(&path, &text).unwrap();
    let spec = format!("hackenbush:{}", path.display());
    let shown = stdout(&["hackenbush", &spec]);
    assert!(
        shown.starts_with(&format!("picture 1  {spec}  value 1\n")),
        "{shown}"
    );
    assert!(shown.contains("first player wins (nim-sum 1)"), "{shown}");
    assert!(
        shown.contains("cut edge 1 (ground - v1) of picture 1"),
        "{shown}"
    );
    // The same file as a component of a sum, with a heap of Nim.
    let summed = stdout(&["sum", &spec, "nim:1"]);
    assert!(summed.contains("second player wins"), "{summed}");
    // A small file gives what its text gives on the command line.
    let small = dir.join("small.txt");
    std::fs::write(&small, bush(3)).unwrap();
    let from_file = stdout(&["hackenbush", &format!("hackenbush:{}", small.display())]);
    let from_text = stdout(&["hackenbush", "(()()())"]);
    let tail = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(tail(&from_file), tail(&from_text));
}

#[test]
fn a_bad_tree_file_is_one_line_naming_the_file_and_the_line() {
    let dir = Scratch::new("bad-tree");
    let path = dir.join("broken.txt");
    std::fs::write(&path, "# comment\n(()\n ())) ()\n").unwrap();
    let spec = format!("hackenbush:{}", path.display());
    let file = path.display().to_string();
    for args in [
        vec!["hackenbush", spec.as_str()],
        vec!["sum", spec.as_str()],
    ] {
        common::refused(
            grundy(&args),
            &args,
            &[&file, "line 3", "column 5", "')' closes nothing"],
        );
    }
    let missing = dir.join("missing.txt");
    let spec = format!("hackenbush:{}", missing.display());
    for args in [
        vec!["hackenbush", spec.as_str()],
        vec!["sum", spec.as_str()],
    ] {
        common::refused(grundy(&args), &args, &["cannot read", "missing.txt"]);
    }
}

#[test]
fn a_long_tree_on_the_command_line_is_not_repeated_in_its_error() {
    // 20,000 characters, one bracket short.
    let tree = format!("{}{}", "(".repeat(10_000), ")".repeat(9_999));
    let args = ["hackenbush", tree.as_str()];
    common::refused(grundy(&args), &args, &["at character 1:", "not closed"]);
    let output = grundy(&args).get_output().stderr.clone();
    assert!(output.len() < 200, "{}", String::from_utf8_lossy(&output));
}

/// `@FILE` stands for the words of FILE wherever arguments go: a row of
/// coins longer than Linux allows for one argument (128 KiB), a sum of
/// more heaps than fit on a command line; a file naming another file is
/// read as words, never followed.
#[test]
fn any_arguments_are_read_from_an_at_file() {
    let dir = Scratch::new("at-file");
    // Turning Turtles: coin n is worth n; heads at coins 5 and 9 of a
    // row of 150,000 coins.
    let row = dir.join("row.txt");
    let coins = format!("TTTTHTTTH{}", "T".repeat(150_000 - 9));
    std::fs::write(&row, format!("--row\n{coins}\n")).unwrap();
    let shown = stdout(&["coins", "turtles", &format!("@{}", row.display())]);
    assert!(shown.contains("nim-sum 12"), "{shown}");
    // 300,001 heaps of one token of Kayles (worth 1 each), a comment
    // line among them: nim-sum 1.
    let heaps = dir.join("heaps.txt");
    let mut text = String::from("# heaps of one\n");
    text.push_str(&"1 ".repeat(300_001));
    std::fs::write(&heaps, text).unwrap();
    let summed = stdout(&[
        "sum",
        "kayles",
        &format!("@{}", heaps.display()),
        "--format",
        "json",
    ]);
    let summed: serde_json::Value = serde_json::from_str(&summed).unwrap();
    assert_eq!(summed["nim_sum"], 1);
    // A file that names itself is read once, as words.
    let itself = dir.join("itself.txt");
    std::fs::write(&itself, format!("3 @{}", itself.display())).unwrap();
    common::refused(
        grundy(&["sum", "kayles", &format!("@{}", itself.display())]),
        &["sum", "@itself"],
        &["@"],
    );
    // A missing file is one line and exit code 2.
    let missing = dir.join("missing.txt");
    common::refused(
        grundy(&["sum", "kayles", &format!("@{}", missing.display())]),
        &["sum", "@missing"],
        &["@FILE", "missing.txt"],
    );
}
