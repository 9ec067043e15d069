//! A script's parameters on the command line: constants outside its
//! functions, seen by every function, listed by `grundy games FILE.rhai`
//! and given other values by `--define NAME=VALUE` on every command that
//! takes a script.

use assert_cmd::Command;
use serde_json::{Value, json};

mod common;
use common::Scratch;

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

fn stdout_json(args: &[&str]) -> Value {
    let output = grundy(args).success().get_output().stdout.clone();
    serde_json::from_slice(&output).expect("valid JSON")
}

fn stdout(args: &[&str]) -> String {
    String::from_utf8_lossy(&grundy(args).success().get_output().stdout).into_owned()
}

/// `examples/take-up-to.rhai`: take 1 to K tokens, K = 3 unless defined.
fn take_up_to() -> String {
    format!(
        "{}/../../examples/take-up-to.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_define_gives_the_constant_another_value_in_every_command() {
    let script = take_up_to();
    let script = script.as_str();
    // g(n) = n mod (K + 1).
    let values = |defines: &[&str]| {
        let mut args = vec!["values", script, "--to", "7", "--format", "json"];
        args.extend(defines);
        stdout_json(&args)
    };
    assert_eq!(values(&[])["values"], json!([0, 1, 2, 3, 0, 1, 2, 3]));
    let defined = values(&["--define", "K=5"]);
    assert_eq!(defined["values"], json!([0, 1, 2, 3, 4, 5, 0, 1]));
    // The game's name carries the define: two K's are never one game.
    assert_eq!(defined["canonical"], format!("{script}(K=5)"));
    let analysis = stdout_json(&["analyze", script, "--define", "K=5", "--format", "json"]);
    assert_eq!(analysis["period"], 6);
    assert_eq!(analysis["canonical"], format!("{script}(K=5)"));
    // A sweep, positions played together, a sum, a comparison, a count.
    let swept = stdout_json(&[
        "outcomes", script, "--states", "20", "--define", "K=1", "--format", "json",
    ]);
    assert_eq!(swept["script"], format!("{script}(K=1)"));
    assert_eq!(swept["p_positions"]["count"], 10);
    let played = stdout(&[
        "values",
        script,
        "--position",
        "7",
        "--position",
        "8",
        "--define",
        "K=9",
    ]);
    assert!(
        played.contains("first player wins (nim-sum 15)"),
        "{played}"
    );
    let sum = stdout(&["sum", script, "6", "--define", "K=5"]);
    assert!(sum.contains("second player wins"), "{sum}");
    let compared = stdout(&[
        "compare",
        script,
        "sub(1,2,3,4,5,6,7)",
        "--define",
        "K=7",
        "--to",
        "100",
    ]);
    assert!(compared.starts_with("equal"), "{compared}");
    let counted = stdout_json(&[
        "count", script, "--to", "11", "--define", "K=2", "--format", "json",
    ]);
    assert_eq!(counted["game"], format!("{script}(K=2)"));
    assert_eq!(counted["histogram"], json!([[0, "3"], [1, "4"], [2, "4"]]));
}

#[test]
fn constants_follow_the_defines_of_those_before_them() {
    let dir = Scratch::new("derived-constants");
    let path = dir.join("derived.rhai");
    std::fs::write(
        &path,
        "const K = 2;\n// Twice K.\nconst TWICE = K * 2;\n\
         fn options(n) { let out = []; for k in 1..=TWICE { out.push(n - k); } out }\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let listed = stdout_json(&["games", path, "--define", "K=3", "--format", "json"]);
    assert_eq!(listed["parameters"][1]["default"], "6");
    let values = stdout_json(&[
        "values", path, "--to", "7", "--define", "K=3", "--format", "json",
    ]);
    // TWICE = 6: g(n) = n mod 7.
    assert_eq!(values["values"], json!([0, 1, 2, 3, 4, 5, 6, 0]));
}

#[test]
fn games_lists_a_scripts_parameters_with_their_documentation() {
    let script = take_up_to();
    assert_eq!(
        stdout(&["games", &script]),
        format!(
            "{script}: 1 parameter (set with --define NAME=VALUE)\n  K = 3  The most tokens one \
             move takes. (line 6)\n"
        )
    );
    assert_eq!(
        stdout_json(&["games", &script, "--define", "K=8", "--format", "json"]),
        json!({"script": format!("{script}(K=8)"), "parameters": [{
            "name": "K", "line": 6, "default": "3", "value": "8",
            "doc": "The most tokens one move takes."}]})
    );
    let kayles = format!("{}/../../examples/kayles.rhai", env!("CARGO_MANIFEST_DIR"));
    assert!(stdout(&["games", &kayles]).contains("no parameters"));
}

#[test]
fn bad_defines_are_refused_in_one_line() {
    let script = take_up_to();
    let script = script.as_str();
    for (args, needle) in [
        (
            vec!["analyze", script, "--define", "B=7"],
            "no constant B to define; the script's parameters: K",
        ),
        (
            vec!["analyze", script, "--define", "K=seven"],
            "invalid define 'K=seven'",
        ),
        (
            vec!["values", script, "--to", "5", "--define", "K"],
            "NAME=VALUE",
        ),
        (
            vec![
                "values", script, "--to", "5", "--define", "K=1", "--define", "K=2",
            ],
            "K is given a value twice",
        ),
        (
            vec!["analyze", "kayles", "--define", "K=2"],
            "no game here is a script",
        ),
        (vec!["games", "kayles"], "not a script"),
    ] {
        common::refused(grundy(&args), &args, &[needle]);
    }
    // Reusing a constant's name inside a function would change its meaning
    // (the constant's value is written in): refused, naming the line.
    let dir = Scratch::new("hidden-constant");
    let path = dir.join("hidden.rhai");
    std::fs::write(&path, "const K = 2;\nfn options(K) {\n  [K - 1]\n}\n").unwrap();
    let path = path.to_str().unwrap();
    let args = ["values", path, "--to", "3"];
    common::refused(grundy(&args), &args, &["line 2", "constant K"]);
    std::fs::write(path, "let K = 2;\nfn options(n) { [n - K] }\n").unwrap();
    common::refused(grundy(&args), &args, &["line 1", "only constants"]);
}
