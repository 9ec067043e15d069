//! Formats researchers exchange: OEIS b-files written by `values` and
//! `stream values` and read back by `guess --file`, LaTeX tables of values
//! and of a census, and values written as nimbers (`*n`).

use assert_cmd::Command;

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

fn stdout(args: &[&str]) -> String {
    let output = grundy(args).success().get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_b_file_of_values_reads_back_as_the_same_sequence() {
    let bfile = stdout(&["values", "sub(1,3,4)", "--to", "64", "--format", "bfile"]);
    let lines: Vec<&str> = bfile.lines().collect();
    assert_eq!(lines.len(), 65);
    for (n, line) in lines.iter().enumerate() {
        let (index, value) = line.split_once(' ').unwrap();
        assert_eq!(index, n.to_string());
        // g(n) = [0 1 0 1 2 3 2][n mod 7] for sub(1,3,4).
        assert_eq!(value, [0, 1, 0, 1, 2, 3, 2][n % 7].to_string());
    }
    // Read back, the indices are not taken for values: the guess is the
    // game's own formula.
    let path = scratch("sub134.b", &format!("# sub(1,3,4)\n{bfile}"));
    let path = path.to_str().unwrap();
    let guessed = stdout(&["guess", "--file", path, "--format", "json"]);
    let guessed: serde_json::Value = serde_json::from_str(&guessed).unwrap();
    assert_eq!(guessed["formula"], "g(n) = [0 1 0 1 2 3 2][n mod 7]");
    assert_eq!(guessed["computed_to"], 64);
}

#[test]
fn a_b_file_without_g0_or_with_a_gap_is_refused_with_its_line() {
    for (text, line, needle) in [
        ("1 1\n2 1\n3 2\n", 1, "start at n = 0"),
        ("0 0\n1 1\n3 2\n", 3, "expected 2, found 3"),
    ] {
        let path = scratch("bad.b", text);
        let assert = grundy(&["guess", "--file", path.to_str().unwrap()]).code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(&format!("at line {line}")), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
    }
    // A plain sequence, several numbers a line, is read as it is.
    let path = scratch(
        "plain.txt",
        "0 1 0 1 2 3 2\n0 1 0 1 2 3 2\n0 1 0 1 2 3 2, 0",
    );
    let guessed = stdout(&[
        "guess",
        "--file",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(guessed.contains("\"computed_to\":21"), "{guessed}");
}

#[test]
fn latex_tables_have_a_row_per_ten_heaps_and_a_row_per_game() {
    let table = stdout(&["values", "kayles", "--to", "24", "--format", "latex"]);
    assert!(table.contains("\\begin{tabular}{r|*{10}{c}}"), "{table}");
    assert!(table.trim_end().ends_with("\\end{tabular}"), "{table}");
    // Rows 0, 10 and 20, each with ten cells (the last padded).
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.ends_with("\\\\") && !l.starts_with("$n$"))
        .collect();
    assert_eq!(rows.len(), 3, "{table}");
    assert!(rows.iter().all(|row| row.matches('&').count() == 10));
    assert!(
        rows[0].starts_with("0 & $0$ & $1$ & $2$ & $3$"),
        "{}",
        rows[0]
    );
    let census = stdout(&["census", "0.?", "--max", "2^10", "--format", "latex"]);
    let games = census.lines().filter(|l| l.starts_with("0.")).count();
    assert_eq!(games, 7, "{census}");
    assert!(census.contains("game & pre-period & period"), "{census}");
}

#[test]
fn nimbers_are_written_with_stars_where_asked() {
    let text = stdout(&["values", "nim", "--to", "3", "--star"]);
    assert!(text.lines().any(|l| l == "0:  0  * *2 *3"), "{text}");
    // JSON and b-files keep numbers.
    let json = stdout(&["values", "nim", "--to", "3", "--star", "--format", "json"]);
    assert!(json.contains("\"values\":[0,1,2,3]"), "{json}");
    let bfile = stdout(&["values", "nim", "--to", "1", "--star", "--format", "bfile"]);
    assert_eq!(bfile, "0 0\n1 1\n");
}

#[test]
fn answers_that_are_not_sequences_or_tables_refuse_those_formats() {
    let script = format!("{}/../../examples/digits.rhai", env!("CARGO_MANIFEST_DIR"));
    for format in ["bfile", "latex"] {
        let assert = grundy(&["outcomes", &script, "--states", "100", "--format", format]).code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains(&format!("--format {format} writes")),
            "{stderr}"
        );
    }
}
