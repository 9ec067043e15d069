//! The real `grundy` binary on real inputs, good and bad.

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

/// Bad input: exit code 2, nothing on stdout, one line on stderr that
/// contains `needle`.
fn rejects(args: &[&str], needle: &str) {
    common::refused(grundy(args), args, &[needle]);
}

#[test]
fn values_as_json() {
    let values = stdout_json(&["values", "kayles", "--to", "12", "--format", "json"]);
    assert_eq!(
        values,
        json!({"game": "kayles", "canonical": "0.77",
               "values": [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]})
    );
}

#[test]
fn values_as_csv_and_text() {
    let csv = grundy(&["values", "grundy", "--to", "5", "--format", "csv"]).success();
    assert_eq!(
        String::from_utf8_lossy(&csv.get_output().stdout),
        "heap,value\n0,0\n1,0\n2,0\n3,1\n4,0\n5,2\n"
    );
    let text = grundy(&["values", "kayles", "--to", "100"]).success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(text.starts_with("kayles (0.77): g(0..=100)\n"), "{text}");
    assert!(text.contains("\n 10: 2 6 4 1 2 7 1 4 3 2\n"), "{text}");
    assert_eq!(text.lines().count(), 12);
}

#[test]
fn engines_agree() {
    let sparse = stdout_json(&[
        "values", "0.165", "--to", "3000", "--engine", "sparse", "--format", "json",
    ]);
    let dense = stdout_json(&[
        "values", "0.165", "--to", "3000", "--engine", "dense", "--format", "json",
    ]);
    assert_eq!(sparse, dense);
    let found = stdout_json(&["analyze", "0.165", "--format", "json"]);
    assert!(found["rare_count"].as_u64().is_some(), "{found}");
    assert_eq!(
        (found["preperiod"].clone(), found["period"].clone()),
        (json!(5181), json!(1550))
    );
}

#[test]
fn sizes_can_be_written_with_exponents() {
    let values = stdout_json(&["values", "sub(1,3,4)", "--to", "2^4", "--format", "json"]);
    assert_eq!(values["values"].as_array().unwrap().len(), 17);
    assert_eq!(values["canonical"], "sub(1,3,4)");
    // A modulus is a size like any other.
    let exact = stdout_json(&[
        "count", "kayles", "--to", "100", "--heaps", "3", "--format", "json",
    ]);
    let modulo = stdout_json(&[
        "count", "kayles", "--to", "100", "--heaps", "3", "--mod", "1e3", "--format", "json",
    ]);
    let p: u64 = exact["p_positions"].as_str().unwrap().parse().unwrap();
    assert_eq!(modulo["p_positions"], (p % 1000).to_string());
    let n: u64 = modulo["n_positions"].as_str().unwrap().parse().unwrap();
    assert_eq!(n, (1_000_000 - p) % 1000);
    // Past the table without a proven period: the refusal names the ways
    // on, counting by the values' formula among them.
    rejects(
        &["count", "proper-divisors", "--to", "1e14"],
        "--by-formula",
    );
}

/// `count --formula`: a formula the user writes (as `guess` prints it) is
/// checked against the heaps computed, then counts past them; a wrong one
/// is refused naming the first heap where it fails, a malformed one with
/// the place it goes wrong.
#[test]
fn counts_by_a_formula_the_user_writes() {
    let counted = stdout_json(&[
        "count",
        "proper-divisors",
        "--to",
        "2^40",
        "--formula",
        "g(n) = ctz(n)",
        "--max",
        "5000",
        "--format",
        "json",
    ]);
    assert_eq!(counted["p_positions"], (1u64 << 39).to_string());
    assert_eq!(
        counted["by_formula"],
        json!({"formula": "g(n) = ctz(n), the exponent of 2 in n", "verified_to": 5000, "proven": false})
    );
    // ctz(n) = 40 once in 1..=2^40.
    assert_eq!(counted["histogram"][40], json!([40, "1"]));
    rejects(
        &[
            "count",
            "proper-divisors",
            "--to",
            "1e14",
            "--formula",
            "ctz(n) + 1",
            "--max",
            "5000",
        ],
        "fails at heap 1: it gives 1, and g(1) = 0 (checked heaps 1..=5000",
    );
    rejects(
        &["count", "kayles", "--to", "1e14", "--formula", "floor(n /"],
        "invalid formula 'floor(n /': expected a number, found the end",
    );
}

#[test]
fn sum_text_names_the_winning_move() {
    let out = grundy(&["sum", "take-and-split", "6", "10"]).success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "first player wins (nim-sum 7)\nheap 2 (size 10) becomes 9\n"
    );
    let out = grundy(&["sum", "nim", "3", "3"]).success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "second player wins (nim-sum 0)\n"
    );
}

#[test]
fn sum_json_lists_every_winning_move() {
    let sum = stdout_json(&["sum", "take-and-split", "6", "10", "--format", "json"]);
    assert_eq!(sum["nim_sum"], 7);
    assert_eq!(sum["winner"], "first");
    assert_eq!(
        sum["winning_moves"],
        json!([{"component": 1, "from": 10, "to": [9]}])
    );
    // Kayles rows 1 and 4: values 1 and 1, so the sum is a loss.
    let sum = stdout_json(&["sum", "kayles", "1", "4", "--format", "json"]);
    assert_eq!(sum["winner"], "second");
    assert_eq!(sum["winning_moves"], json!([]));
}

#[test]
fn sum_mixes_games_and_splits_heaps() {
    // Kayles 5 (value 4) + nim 4 (value 4) + Kayles 2 (value 2): nim-sum 2.
    // The only move to a zero sum: take both pins of the Kayles row of 2.
    let sum = stdout_json(&["sum", "kayles", "5", "nim:4", "2", "--format", "json"]);
    assert_eq!(
        sum["components"][1],
        json!({"game": "nim", "heap": 4, "value": 4})
    );
    assert_eq!(sum["nim_sum"], 2);
    assert_eq!(
        sum["winning_moves"],
        json!([{"component": 2, "from": 2, "to": []}])
    );
    // Splitting moves are listed with both pieces.
    let sum = stdout_json(&["sum", "kayles", "7", "--format", "json"]);
    assert!(sum["winning_moves"].as_array().unwrap().contains(&json!(
        {"component": 0, "from": 7, "to": [3, 3]}
    )));
    // Kayles 7 (value 2) + nim 1: move Kayles 7 to value 1, e.g. 2 + 3.
    let out = grundy(&["sum", "kayles", "7", "nim:1"]).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.contains("\nheap 1 (kayles, size 7) becomes 2 + 3\n"),
        "{text}"
    );
    assert!(
        !text.contains("heap 2 (nim"),
        "nim 1 cannot reach value 2: {text}"
    );
}

#[test]
fn games_lists_every_built_in() {
    let out = grundy(&["games"]).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let names: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "nim",
            "kayles",
            "dawsons-kayles",
            "dawsons-chess",
            "treblecross",
            "officers",
            "grundy",
            "lasker",
            "take-and-split",
            "proper-divisors",
            "divisors",
            "equal-split",
            "mark",
            "rook(A,B)",
            "fibonacci-nim",
            "turn(K)",
            "ruler(K)",
            "hackenbush",
            "wythoff",
            "d0.d1d2...",
            "sub(a,b,...)",
            "sub(squares)",
            "sub(a+dk)",
            "allbut(a,b,...)",
            "FILE.rhai",
            "graph:FILE",
            "maze:FILE",
        ]
    );
    let games = stdout_json(&["games", "--format", "json"]);
    assert!(
        games
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["code"] == "4!.0")
    );
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    rejects(&["values", "chess", "--to", "5"], "unknown game 'chess'");
    rejects(&["values", "0.7%", "--to", "5"], "character 4");
    rejects(&["values", "0.7#", "--to", "5"], "invalid code");
    rejects(&["values", "2.7", "--to", "5"], "character 1");
    rejects(&["values", "sub(0,1)", "--to", "5"], "removing 0 tokens");
    rejects(&["values", "sub(-2,1)", "--to", "5"], "negative");
    rejects(&["values", "sub()", "--to", "5"], "empty");
    rejects(&["values", "sub(1,x)", "--to", "5"], "'x'");
    rejects(&["values", "kayles", "--to", "-5"], "negative");
    rejects(&["values", "kayles", "--to", "ten"], "'ten'");
    rejects(&["values", "kayles", "--to", "1e30"], "too large");
    rejects(&["values", "kayles", "--to", "1e12"], "over the limit");
    rejects(
        &["values", "kayles", "--to", "5", "--format", "xml"],
        "'xml'",
    );
    rejects(&["values", "kayles"], "--to");
    rejects(&["sum", "kayles", "3", "-1"], "negative");
    rejects(&["sum", "kayles", "3", "x"], "'x'");
    // Grundy's game has no periodicity theorem: its table is refused.
    rejects(&["sum", "grundy", "99999999999999"], "over the limit");
    rejects(&["sum", "kayles", "foo:3"], "unknown game 'foo'");
    rejects(&["sum", "kayles", "3", "--format", "csv"], "'csv'");
    rejects(&["sum", "kayles"], "at least one component");
    rejects(&["frobnicate"], "frobnicate");
    rejects(
        &["values", "kayles", "--to", "5", "--memory-limit", "lots"],
        "'lots'",
    );
}

#[test]
fn help_and_version_succeed() {
    grundy(&["--help"]).success();
    grundy(&["values", "--help"]).success();
    grundy(&["--version"]).success();
}

#[test]
fn analyze_reports_a_proven_period_as_json() {
    let found = stdout_json(&["analyze", "kayles", "--format", "json"]);
    assert_eq!(found["period"], 12);
    assert_eq!(found["preperiod"], 71);
    assert_eq!(found["saltus"], 0);
    assert_eq!(found["proven"], true);
    assert_eq!(found["max_value"], 8);
    assert_eq!(found["max_value_at"], 27);
    assert_eq!(found["p_positions"], json!([0]));
    let computed_to = found["computed_to"].as_u64().unwrap();
    let counted: u64 = found["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[1].as_u64().unwrap())
        .sum();
    assert_eq!(
        counted,
        computed_to + 1,
        "the histogram covers 0..=computed_to"
    );
    assert!(computed_to >= found["last_heap_needed"].as_u64().unwrap());

    let lasker = stdout_json(&["analyze", "lasker", "--format", "json"]);
    assert_eq!(
        (lasker["period"].clone(), lasker["saltus"].clone()),
        (json!(4), json!(4))
    );
}

#[test]
fn analyze_never_claims_an_unproven_period() {
    let found = stdout_json(&["analyze", "grundy", "--max", "3000", "--format", "json"]);
    assert_eq!(found["proven"], false);
    assert_eq!(found["computed_to"], 3000);
    let text = grundy(&["analyze", "sub(squares)", "--to", "500"]).success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(text.contains("none found in g(0..=500)"), "{text}");
    assert!(!text.contains("PROVEN"), "{text}");
    // --to computes exactly that far, even where a longer run would prove.
    let short = stdout_json(&["analyze", "kayles", "--to", "100", "--format", "json"]);
    assert_eq!(short["computed_to"], 100);
    assert_eq!(short["proven"], false);
}

#[test]
fn certificates_check_and_tampering_fails() {
    let dir = Scratch::new("cli-test");
    let path = dir.join("kayles.json");
    let path_text = path.to_str().unwrap();
    grundy(&["analyze", "kayles", "--certificate", path_text]).success();
    let out = grundy(&["check", path_text]).success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).starts_with("valid"));

    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let tampered = |edit: &dyn Fn(&mut Value), needle: &str| {
        let mut certificate = original.clone();
        edit(&mut certificate);
        std::fs::write(&path, certificate.to_string()).unwrap();
        let assert = grundy(&["check", path_text]).code(1);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.starts_with("invalid: ") && stderr.contains(needle),
            "{stderr}"
        );
    };
    tampered(&|c| c["values"][100] = json!(5), "g(100)");
    tampered(
        &|c| {
            c["values"].as_array_mut().unwrap().pop();
        },
        "values",
    );
    tampered(&|c| c["period"] = json!(24), "last_heap_needed");
    tampered(&|c| c["game"] = json!("0.771"), "");

    grundy(&[
        "analyze",
        "grundy",
        "--max",
        "200",
        "--certificate",
        path_text,
    ])
    .code(2);
    std::fs::write(&path, "not json").unwrap();
    rejects(&["check", path_text], "not a certificate");
    rejects(&["check", "/nonexistent/certificate.json"], "cannot read");
}

#[test]
fn compare_finds_differences_and_proves_equality() {
    let same = stdout_json(&["compare", "kayles", "0.771", "--format", "json"]);
    assert_eq!(same["proven_equal"], true);
    let differ = stdout_json(&["compare", "dawsons-chess", "0.07", "--format", "json"]);
    assert_eq!(
        differ["first_difference"],
        json!({"heap": 1, "values": [1, 0]})
    );
    // No theorem for subtract-a-square: equal as far as computed, no proof.
    let out = grundy(&["compare", "sub(squares)", "sub(squares)", "--to", "300"]).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("equal on g(0..="), "{text}");
}

#[test]
fn guess_finds_formulas_and_labels_them() {
    let nim = stdout_json(&["guess", "nim", "--format", "json"]);
    assert_eq!(nim["formula"], "g(n) = n");
    assert_eq!(nim["proven"], true);
    let sub = stdout_json(&["guess", "sub(1,2)", "--format", "json"]);
    assert_eq!(sub["formula"], "g(n) = n mod 3");
    assert_eq!(sub["proven"], true);
    // The P-positions follow from the proven period, for every heap.
    assert_eq!(sub["p_positions"], "n = 0 (mod 3)");
    assert_eq!(sub["p_positions_proven"], true);
    let subtraction = stdout_json(&["guess", "sub(1,3,4)", "--format", "json"]);
    assert_eq!(subtraction["p_positions"], "n = 0, 2 (mod 7)");
    assert_eq!(subtraction["p_positions_proven"], true);
    let kayles = stdout_json(&["guess", "kayles", "--format", "json"]);
    assert_eq!(kayles["p_positions"], "n = 0 only");
    assert_eq!(kayles["p_positions_proven"], true);
    assert_eq!(nim["p_positions"], "n = 0 only");
    assert_eq!(kayles["formula_from"], 71);
    assert_eq!(kayles["exceptions"].as_array().unwrap().len(), 14);
    // No theorem: a fitting formula is a conjecture, never proven.
    let dir = Scratch::new("guess");
    let file = dir.join("mock-turtles.txt");
    let odious: Vec<String> = (0u64..80)
        .map(|n| (2 * n + u64::from(n.count_ones() % 2)).to_string())
        .collect();
    std::fs::write(&file, odious.join(", ")).unwrap();
    let mock = stdout_json(&[
        "guess",
        "--file",
        file.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        mock["formula"],
        "g(n) = 2n + popcount(n) mod 2, the n-th odious number"
    );
    assert_eq!(mock["proven"], false);
    assert_eq!(mock["p_positions_proven"], false);
    std::fs::write(&file, "1 2 x").unwrap();
    rejects(&["guess", "--file", file.to_str().unwrap()], "'x'");
    rejects(&["guess"], "required");
}

#[test]
fn checkpoints_resume_byte_identical_even_after_sigkill() {
    let dir = Scratch::new("cli-ckpt");
    let path = dir.join("run.ckpt");
    let path_text = path.to_str().unwrap();
    let direct = grundy(&["values", "0.354", "--to", "300000", "--format", "csv"]).success();
    let direct = direct.get_output().stdout.clone();
    // A long run killed outright leaves a valid checkpoint behind.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args([
            "values",
            "0.354",
            "--to",
            "1e9",
            "--checkpoint",
            path_text,
            "--format",
            "csv",
        ])
        .args(["--memory-limit", "8G"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !path.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed = grundy(&[
        "values", "0.354", "--to", "300000", "--format", "csv", "--resume", path_text,
    ])
    .success();
    assert!(
        resumed.get_output().stdout == direct,
        "resumed table differs"
    );
    // Resuming the checkpoint of another game is refused.
    rejects(
        &["values", "0.137", "--to", "10", "--resume", path_text],
        "not of 0.137",
    );
}

#[test]
fn graphs_give_values_and_winning_moves() {
    let dir = Scratch::new("graph");
    let file = dir.join("tasks.txt");
    std::fs::write(
        &file,
        "# a small state machine\nstart a\nstart -> b take-two\na end\nb a\nend\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let solved = stdout_json(&["graph", path, "--format", "json"]);
    assert_eq!(solved["p_positions"], json!(["b", "end"]));
    assert_eq!(
        solved["positions"][0],
        json!({"name": "start", "value": 2, "winning_moves": [{"to": "b", "label": "take-two"}]})
    );
    let text = grundy(&["graph", path]).success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(
        text.starts_with("4 positions, 4 moves; 2 P-positions"),
        "{text}"
    );
    // Tokens on start (2), a (1) and a (1): nim-sum 2. The only winning
    // move takes start to b (value 0); a token on a would need to reach
    // value 3, which no move gives.
    let sum = stdout_json(&[
        "graph", path, "--sum", "start", "a", "a", "--format", "json",
    ]);
    assert_eq!(sum["nim_sum"], 2);
    assert_eq!(
        sum["winning_moves"],
        json!([{"component": 0, "from": "start", "to": "b", "label": "take-two"}])
    );
    let text = grundy(&["graph", path, "--sum", "b", "end"]).success();
    assert_eq!(
        String::from_utf8_lossy(&text.get_output().stdout),
        "second player wins (nim-sum 0)\n"
    );
    rejects(
        &["graph", path, "--sum", "nowhere"],
        "'nowhere': the graph has no such position",
    );
    // A graph with a cycle is no longer an error: it gets generalized values.
    std::fs::write(&file, "x y\ny z\nz x\n").unwrap();
    let chase = stdout_json(&["graph", path, "--format", "json"]);
    assert_eq!(chase["positions"][0]["outcome"], "draw");
    std::fs::write(&file, "{\"edges\": [[\"a\"]]}").unwrap();
    rejects(&["graph", path], "invalid graph");
    rejects(&["graph", "/nonexistent/graph.txt"], "cannot read");
}

#[test]
fn mazes_give_square_values_and_winning_moves() {
    let dir = Scratch::new("maze");
    let file = dir.join("maze.txt");
    std::fs::write(&file, "..#....\n.A...#.\n#..#...\n....B..\n.#.....\n").unwrap();
    let path = file.to_str().unwrap();
    let solved = stdout_json(&["maze", path, "--format", "json"]);
    assert_eq!(solved["values"][0], json!([0, 1, null, 0, 1, 2, 3]));
    assert_eq!(solved["nim_sum"], 5);
    assert_eq!(
        solved["winning_moves"],
        json!([
            {"figure": 1, "mark": "B", "from": [3, 4], "to": [3, 0]},
            {"figure": 1, "mark": "B", "from": [3, 4], "to": [2, 4]}
        ])
    );
    // Every winning move leaves the figures worth nothing together.
    let values = &solved["values"];
    for m in solved["winning_moves"].as_array().unwrap() {
        let to = &m["to"];
        let moved = values[to[0].as_u64().unwrap() as usize][to[1].as_u64().unwrap() as usize]
            .as_u64()
            .unwrap();
        assert_eq!(moved ^ solved["figures"][0]["value"].as_u64().unwrap(), 0);
    }
    std::fs::write(&file, "..\n.?\n").unwrap();
    rejects(&["maze", path], "line 2");
}

#[test]
fn wythoff_tables() {
    let table = stdout_json(&["values", "wythoff", "--to", "3", "--format", "json"]);
    assert_eq!(
        table["values"],
        json!([[0, 1, 2, 3], [1, 2, 0, 4], [2, 0, 1, 5], [3, 4, 5, 6]])
    );
    let csv = grundy(&["values", "wythoff", "--to", "1", "--format", "csv"]).success();
    assert_eq!(
        String::from_utf8_lossy(&csv.get_output().stdout),
        "a,b,value\n0,0,0\n0,1,1\n1,0,1\n1,1,2\n"
    );
    rejects(&["values", "wythoff", "--to", "1e7"], "over the limit");
}

/// A file in the repository's `examples/`.
fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn scripts_give_heap_values_and_play_tuples() {
    let script = example("take-and-split.rhai");
    let scripted = stdout_json(&["values", &script, "--to", "60", "--format", "json"]);
    let built_in = stdout_json(&["values", "0.37", "--to", "60", "--format", "json"]);
    assert_eq!(scripted["values"], built_in["values"]);
    let wythoff = example("wythoff.rhai");
    let sum = stdout_json(&[
        "values",
        &wythoff,
        "--position",
        "[3,5]",
        "--position",
        "2,2",
        "--format",
        "json",
    ]);
    assert_eq!(sum["positions"][0]["value"], 0, "(3, 5) is a P-position");
    assert_eq!(sum["winner"], "first");
    let moves: Vec<&Value> = sum["winning_moves"].as_array().unwrap().iter().collect();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|m| m["component"] == 1));
}

#[test]
fn bad_scripts_are_one_line_errors() {
    let dir = Scratch::new("scripts");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let endless = write("endless.rhai", "fn options(n) {\n  loop {}\n}\n");
    rejects(
        &["values", &endless, "--to", "5", "--ops-limit", "10000"],
        "stopped after 10000 operations",
    );
    let broken = write("broken.rhai", "fn options(n) {\n  [n - 1,, n]\n}\n");
    rejects(&["values", &broken, "--to", "5"], "line 2");
    rejects(
        &["values", &example("wythoff.rhai"), "--position", "[1,x]"],
        "'x'",
    );
    rejects(
        &["values", "kayles", "--position", "3"],
        "--position is for game scripts",
    );
    rejects(
        &["values", "missing.rhai", "--to", "3"],
        "cannot read missing.rhai",
    );
}

#[test]
fn scripted_heap_games_show_their_period() {
    let dir = Scratch::new("script-period");
    let path = dir.join("sub12.rhai");
    std::fs::write(&path, "fn options(n) { [n - 1, n - 2] }\n").unwrap();
    let path = path.display().to_string();
    let found = stdout_json(&["analyze", &path, "--format", "json"]);
    assert_eq!(
        (found["period"].clone(), found["preperiod"].clone()),
        (json!(3), json!(0))
    );
    assert_eq!(found["proven"], false);
    assert_eq!(found["computed_to"], 1000);
}

#[test]
fn count_answers_each_question_in_one_command() {
    // Unordered triples of heaps 1..=20 of Nim: losing exactly when a ^ b ^ c = 0.
    let mut losing = 0u64;
    for a in 1..=20u32 {
        for b in a..=20 {
            for c in b..=20 {
                losing += u64::from(a ^ b ^ c == 0);
            }
        }
    }
    let found = stdout_json(&[
        "count",
        "nim",
        "--to",
        "20",
        "--heaps",
        "3",
        "--unordered",
        "--format",
        "json",
    ]);
    assert_eq!(found["p_positions"], losing.to_string());
    assert_eq!(found["total"], (22 * 21 * 20 / 6).to_string());
    let modular = stdout_json(&[
        "count",
        "nim",
        "--to",
        "20",
        "--heaps",
        "3",
        "--unordered",
        "--mod",
        "7",
        "--format",
        "json",
    ]);
    assert_eq!(modular["p_positions"], (losing % 7).to_string());
    let huge = stdout_json(&["count", "kayles", "--to", "1e18", "--format", "json"]);
    assert_eq!(huge["heaps"], "1000000000000000000");
    let moves = stdout_json(&[
        "count", "kayles", "--moves", "4", "7", "9", "--format", "json",
    ]);
    assert_eq!(moves["winning_moves"], 2);
    rejects(
        &[
            "count", "kayles", "--to", "10", "--heaps", "3", "--mod", "0",
        ],
        "--mod",
    );
    rejects(
        &["count", "sub(squares)", "--to", "1e9", "--max", "1000"],
        "proven period",
    );
    rejects(&["count", "--range", "kayles:1-5"], "GAME:FROM..TO");
}

#[test]
fn nim_arithmetic() {
    let product = stdout_json(&["nim", "mul", "16", "16", "--format", "json"]);
    assert_eq!(product["result"], 24);
    let root = stdout_json(&["nim", "sqrt", "3", "--format", "json"]);
    assert_eq!(root["result"], 2);
    let inverse = stdout_json(&["nim", "inv", "2", "--format", "json"]);
    assert_eq!(inverse["result"], 3, "2 * 3 = 1");
    rejects(&["nim", "inv", "0"], "no nim-inverse");
    rejects(&["nim", "mul", "5"], "2 operand");
    rejects(&["nim", "sqrt", "-1"], "error");
}

#[test]
fn coin_turning_rows_and_grids() {
    let mock = stdout_json(&["coins", "mock-turtles", "--to", "8", "--format", "json"]);
    assert_eq!(
        mock["values"],
        serde_json::json!([1, 2, 4, 7, 8, 11, 13, 14])
    );
    let row = stdout_json(&["coins", "ruler", "--row", "TTHHTH", "--format", "json"]);
    assert_eq!(row["nim_sum"], 1 ^ 4 ^ 2);
    assert_eq!(row["winner"], "first");
    // Turning 2, 3, 4 takes away 4 and 1 and adds 2; turning 4, 5, 6 takes
    // away 2 and 4 and adds 1: both leave 7 ^ 7 = 0.
    assert_eq!(
        row["winning_moves"],
        serde_json::json!([{"turn": [2, 3, 4]}, {"turn": [4, 5, 6]}])
    );
    let lost = stdout_json(&["coins", "turtles", "1", "4", "5", "--format", "json"]);
    assert_eq!(lost["winner"], "second");
    let grid = stdout_json(&["coins", "turtles*turtles", "2,2", "--format", "json"]);
    assert_eq!(grid["nim_sum"], 3, "2 * 2 = 3 in the nim field");
    // The lone head is worth 3: turning it alone wins.
    assert_eq!(
        grid["winning_move"],
        serde_json::json!({"columns": [2], "rows": [2]})
    );
    let table = stdout_json(&["coins", "ruler*ruler", "--to", "4", "--format", "json"]);
    // Coin (4, 4): the ruler gives 4 to each, and 4 * 4 = 6 in the nim field.
    assert_eq!(table["values"][3][3], 6);
    assert_eq!(table["values"][2][1], 2, "coin (2, 3): 2 * 1");
    rejects(
        &["coins", "spin(2)", "3"],
        "invalid coin-turning rule 'spin(2)'",
    );
    rejects(&["coins", "ruler", "0"], "coins are numbered 1, 2, 3");
    rejects(&["coins", "ruler", "--row", "HXT"], "'X' is not a coin");
    rejects(&["coins", "ruler"], "give the heads");
    rejects(
        &["coins", "ruler*ruler", "3"],
        "write a head of a grid as X,Y",
    );
    rejects(&["coins", "turn(5)", "--to", "1e12"], "over the limit");
}

#[test]
fn hackenbush_pictures_and_winning_cuts() {
    let found = stdout_json(&["hackenbush", "(()())", "((()))", "()", "--format", "json"]);
    assert_eq!(found["nim_sum"], 1 ^ 3 ^ 1);
    assert_eq!(
        found["winning_cuts"][0]["edge"], 2,
        "cutting a twig leaves a stalk of 2"
    );
    let dir = Scratch::new("hackenbush");
    let triangle = dir.join("triangle.txt");
    std::fs::write(
        &triangle,
        "# a triangle on the ground\ng a\na b\nb ground\n",
    )
    .unwrap();
    let fused = stdout_json(&[
        "hackenbush",
        "--graph",
        triangle.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(fused["pictures"][0]["value"], 1, "three loops after fusion");
    rejects(&["hackenbush", "(()"], "an edge is not closed");
    rejects(&["hackenbush"], "give one or more trees");
    std::fs::write(&triangle, "g a b\n").unwrap();
    rejects(
        &["hackenbush", "--graph", triangle.to_str().unwrap()],
        "at line 1",
    );
}

#[test]
fn rook_products_beside_wythoff() {
    let rook = stdout_json(&[
        "values",
        "rook(sub(1,2),nim)",
        "--to",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(rook["game"], "rook(sub(1,2),0.[3])");
    // g(a, b) = (a mod 3) ^ b.
    assert_eq!(rook["values"][4][2], (4 % 3) ^ 2);
    let queen = stdout_json(&["values", "wythoff", "--to", "5", "--format", "json"]);
    assert_eq!(
        queen["values"][1][2], 0,
        "(1, 2) is a P-position of Wythoff's game"
    );
    rejects(&["values", "rook(kayles)", "--to", "5"], "rook(A,B)");
}

#[test]
fn fibonacci_nim_by_table_and_by_theorem() {
    let small = stdout_json(&["fibonacci-nim", "100", "--format", "json"]);
    assert_eq!(small["winner"], "first");
    assert_eq!(small["winning_takes"], serde_json::json!([3, 11]));
    let fibonacci = stdout_json(&["fibonacci-nim", "89", "--format", "json"]);
    assert_eq!(fibonacci["winner"], "second");
    let huge = stdout_json(&["fibonacci-nim", "1e15", "--format", "json"]);
    assert_eq!(huge["winning_takes"], serde_json::json!([3]));
    let limited = stdout_json(&["fibonacci-nim", "100", "--limit", "2", "--format", "json"]);
    assert_eq!(
        limited["winner"], "second",
        "the smallest Zeckendorf term, 3, is out of reach"
    );
    rejects(&["fibonacci-nim", "1e15", "--ratio", "3"], "only c = 2");
    rejects(&["fibonacci-nim", "ten"], "invalid heap size");
}

#[test]
fn outcomes_sweep_a_game_that_is_not_a_sum() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/digits.rhai");
    let found = stdout_json(&[
        "outcomes",
        script,
        "--states",
        "1000",
        "--position",
        "12",
        "--position",
        "11",
        "--format",
        "json",
    ]);
    assert_eq!(found["p_positions"]["states"][1], 11);
    assert_eq!(found["positions"][0]["winner"], "first");
    // JSON and CSV list every P-position, however many: past 1000 of them.
    let many = stdout_json(&["outcomes", script, "--states", "5000", "--format", "json"]);
    let states = many["p_positions"]["states"].as_array().unwrap();
    assert!(states.len() > 1000);
    assert_eq!(
        states.len() as u64,
        many["p_positions"]["count"].as_u64().unwrap()
    );
    // The same on one thread and on several (the default is every core).
    for threads in ["1", "3"] {
        let on = stdout_json(&[
            "outcomes",
            script,
            "--states",
            "5000",
            "--format",
            "json",
            "--threads",
            threads,
        ]);
        assert_eq!(on, many, "--threads {threads}");
    }
    rejects(
        &["outcomes", script, "--states", "10", "--threads", "0"],
        "--threads",
    );
    let csv = grundy(&["outcomes", script, "--states", "5000", "--format", "csv"]).success();
    let csv = String::from_utf8(csv.get_output().stdout.clone()).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "p_position");
    assert_eq!(rows.len() - 1, states.len());
    assert_eq!(rows[2], states[1].to_string());
    // From 12 the moves reach 2 (delete or lower the 1), 1 and 11; only 11 is lost.
    assert_eq!(
        found["positions"][0]["winning_moves"],
        serde_json::json!([11])
    );
    assert_eq!(found["positions"][1]["winner"], "second");
    rejects(
        &["outcomes", script, "--states", "10", "--position", "20"],
        "not among the states",
    );
    let dir = Scratch::new("outcomes");
    let up = dir.join("up.rhai");
    std::fs::write(&up, "fn options(n) { [n + 1] }").unwrap();
    rejects(
        &["outcomes", up.to_str().unwrap(), "--states", "5"],
        "not smaller",
    );
}

#[test]
fn graphs_and_scripts_with_cycles_get_generalized_values() {
    let dir = Scratch::new("loopy");
    let graph = dir.join("loopy.txt");
    // b <-> c with an exit c -> d; e <-> f, f -> g, g -> g: a chase with no exit.
    std::fs::write(&graph, "a b\nb c\nc b\nc d\nd\ne f\nf e\nf g\ng g\n").unwrap();
    let path = graph.to_str().unwrap();
    let table = stdout_json(&["graph", path, "--format", "json"]);
    assert_eq!(table["loopy"], true);
    let position = |name: &str| {
        table["positions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(position("c")["value"], 1);
    assert_eq!(position("c")["outcome"], "win");
    assert_eq!(position("c")["winning_moves"][0]["to"], "d");
    assert_eq!(position("b")["outcome"], "loss");
    assert!(position("e")["value"].is_null());
    assert_eq!(position("e")["outcome"], "draw");
    let sum = stdout_json(&["graph", path, "--sum", "a", "c", "--format", "json"]);
    assert_eq!(sum["outcome"], "loss", "1 ^ 1 = 0");
    let draw = stdout_json(&["graph", path, "--sum", "e", "a", "--format", "json"]);
    assert_eq!(draw["outcome"], "draw");
    assert!(draw["remoteness"].is_null());
    // e -> f keeps a lone infinite part with no finite option; a -> b (0)
    // leaves the others' nim-sum 0, not among e's finite options (none).
    assert_eq!(
        draw["drawing_moves"],
        serde_json::json!([
            {"component": 0, "from": "e", "to": "f"},
            {"component": 1, "from": "a", "to": "b"}
        ])
    );
    let script = dir.join("grow.rhai");
    std::fs::write(
        &script,
        "fn options(n) { let out = []; if n > 0 { out.push(n - 1); } \
         if n < 5 && n % 2 == 1 { out.push(n + 1); } out }",
    )
    .unwrap();
    let heaps = stdout_json(&[
        "values",
        script.to_str().unwrap(),
        "--to",
        "6",
        "--format",
        "json",
    ]);
    assert_eq!(heaps["loopy"], true);
    assert_eq!(heaps["heaps"][3]["value"], 1);
    let played = stdout_json(&[
        "values",
        script.to_str().unwrap(),
        "--position",
        "3",
        "--position",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(played["outcome"], "loss");
    std::fs::write(
        &script,
        "fn options(n) { if n > 0 { [sum(n - 1, 0), n] } else { [] } }",
    )
    .unwrap();
    rejects(
        &["values", script.to_str().unwrap(), "--position", "2"],
        "list single positions",
    );
}

#[test]
fn misere_genera_and_sums() {
    let genera = stdout_json(&["misere", "0.312", "--to", "6", "--format", "json"]);
    assert_eq!(
        genera["genera"][4]["genus"], "2^1420",
        "Plambeck's table for 0.312"
    );
    assert_eq!(genera["hereditarily_tame_below"], 4);
    let nim = stdout_json(&["misere", "nim", "1", "1", "1", "--format", "json"]);
    assert_eq!(nim["winner"], "second", "an odd number of single tokens");
    let kayles = stdout_json(&["misere", "kayles", "4", "7", "9", "--format", "json"]);
    assert_eq!(kayles["winner"], "first");
    assert_eq!(
        kayles["winning_moves"],
        serde_json::json!([
            {"component": 1, "from": 7, "to": [1, 5]},
            {"component": 2, "from": 9, "to": [1, 7]}
        ])
    );
    let quotient = stdout_json(&["misere", "nim", "--quotient", "2", "--format", "json"]);
    assert_eq!(quotient["size"], 6);
    assert_eq!(
        quotient["relations"],
        serde_json::json!(["a^2 = 1", "b^3 = b"])
    );
    assert_eq!(quotient["p_portion"], serde_json::json!(["a", "b^2"]));
    let played = stdout_json(&[
        "misere",
        "kayles",
        "--quotient",
        "5",
        "4",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(played["size"], 12);
    // Through the quotient, the same answer as the search.
    let searched = stdout_json(&["misere", "kayles", "4", "5", "--format", "json"]);
    assert_eq!(played["winner"], searched["winner"]);
    assert_eq!(played["winning_moves"], searched["winning_moves"]);
    rejects(
        &["misere", "kayles", "--quotient", "3", "7"],
        "covers heaps up to 3",
    );
    rejects(&["misere", "kayles"], "give heaps");
    rejects(
        &["misere", "kayles", "30", "--budget", "1000"],
        "position budget",
    );
}

#[test]
fn plots_draw_every_heap_and_mark_p_positions() {
    let dir = Scratch::new("plot");
    let values = stdout_json(&["values", "0.07", "--to", "100", "--format", "json"]);
    let zeros = values["values"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| **v == 0)
        .count();
    let svg = dir.join("scatter.svg");
    let report = stdout_json(&[
        "plot",
        "0.07",
        "--to",
        "100",
        "-o",
        svg.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        report["points"], 101,
        "one point per heap while heaps fit the width"
    );
    assert_eq!(report["p_positions"], zeros);
    let text = std::fs::read_to_string(&svg).unwrap();
    // One circle a heap, and one in the legend for each class drawn.
    let marks = |key: &str| report[key].as_u64().unwrap();
    let others = marks("points") - marks("p_marks") - marks("rare_marks");
    let legend = [marks("p_marks"), marks("rare_marks"), others]
        .iter()
        .filter(|&&n| n > 0)
        .count();
    assert_eq!(text.matches("<circle").count(), 101 + legend);
    assert_eq!(
        text.matches("fill=\"#D62728\"").count(),
        zeros + 1,
        "P-positions in red, and the legend's mark"
    );
    // Rare values apart: 0.16's values split by the mask 30.
    let rare = stdout_json(&[
        "plot",
        "0.16",
        "--to",
        "5000",
        "--log",
        "-o",
        dir.join("rare.svg").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(rare["rare_mask"], 30);
    assert!(rare["rare_marks"].as_u64().unwrap() > 0);
    let text = std::fs::read_to_string(dir.join("rare.svg")).unwrap();
    assert!(
        text.contains("rare values (mask 30)"),
        "the legend names them"
    );
    // The histogram: a bar for each value that occurs.
    let histogram = stdout_json(&[
        "plot",
        "kayles",
        "--to",
        "300",
        "--view",
        "histogram",
        "-o",
        dir.join("histogram.svg").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(histogram["points"], 9, "kayles takes the values 0 to 8");
    // The periodic table of Kayles: rows of the proven period 12.
    let table = dir.join("table.svg");
    let report = stdout_json(&[
        "plot",
        "kayles",
        "--to",
        "200",
        "--view",
        "table",
        "-o",
        table.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(report["period"]["period"], 12);
    assert_eq!(report["period"]["support"], "theorem");
    assert_eq!(report["points"], 201);
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(text.contains("rows of 12"));
    // A million heaps make a bounded picture.
    let png = dir.join("grundy.png");
    let report = stdout_json(&[
        "plot",
        "grundy",
        "--to",
        "2^20",
        "-o",
        png.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(report["points"].as_u64().unwrap() < 1200 * 700);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    rejects(
        &["plot", "kayles", "--to", "10", "-o", "x.txt"],
        "give a file ending in .svg or .png",
    );
    rejects(
        &["plot", "chess", "--to", "10", "-o", "x.svg"],
        "unknown game",
    );
    // A file that cannot be written is one plain line, PNG or SVG.
    for file in ["/nonexistent/dir/x.png", "/nonexistent/dir/x.svg"] {
        rejects(
            &["plot", "kayles", "--to", "10", "-o", file],
            &format!("cannot write {file}: No such file or directory"),
        );
    }
}

#[test]
fn graphs_with_position_names_past_the_formatter_width_do_not_panic() {
    // Issue 16, case 9: padding a 65,536-character name panicked.
    let dir = Scratch::new("long-names");
    let long = "a".repeat(70_000);
    for (file, text) in [
        ("acyclic.txt", format!("{long} b\nb c\n")),
        ("cyclic.txt", format!("{long} b\nb {long}\n")),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let out = grundy(&["graph", path.to_str().unwrap()]).success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(text.contains(&long), "{file}: the name is printed whole");
    }
}

#[test]
fn no_arguments_is_one_line_not_the_whole_help() {
    // Issue 16, case 12.
    rejects(&[], "grundy --help");
}

/// A published histogram stands for the heaps it counts: Rogalski's
/// histogram of 0.167 to 1024 (heaps 1..=1024: its one heap of value 0
/// is heap 2) counts the positions that heaps 1..=1024 of the game give, and the JSON says what was counted in fields,
/// not a sentence.
#[test]
fn counts_from_a_given_histogram_equal_counts_from_the_game() {
    let rogalski = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/octal/rogalski/histograms/0.167/1024"
    );
    for order in [
        &[][..],
        &["--unordered"],
        &["--distinct"],
        &["--unordered", "--distinct"],
    ] {
        let mut from_file = vec![
            "count",
            "--histogram",
            rogalski,
            "--heaps",
            "3",
            "--all",
            "--format",
            "json",
        ];
        from_file.extend_from_slice(order);
        let mut from_game = vec![
            "count", "0.167", "--from", "1", "--to", "1024", "--heaps", "3", "--all", "--format",
            "json",
        ];
        from_game.extend_from_slice(order);
        let (given, computed) = (stdout_json(&from_file), stdout_json(&from_game));
        for field in ["total", "p_positions", "n_positions", "by_nim_sum"] {
            assert_eq!(given[field], computed[field], "{field} {order:?}");
        }
        assert_eq!(given["positions"]["heaps"], 3);
        assert_eq!(given["positions"]["ranges"][0]["heaps"], "1024");
        assert_eq!(computed["positions"]["ranges"][0]["from"], 1);
        assert_eq!(computed["positions"]["ranges"][0]["to"], 1024);
    }
    // A table of values is a histogram too; a value listed twice is not.
    let dir = Scratch::new("given-histogram");
    let table = dir.join("values.txt");
    std::fs::write(&table, "0 1 1 2\n0 3  # kayles 0..=5\n").unwrap();
    let counted = stdout_json(&[
        "count",
        "--histogram",
        table.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(counted["p_positions"], "2");
    assert_eq!(counted["n_positions"], "4");
    std::fs::write(&table, "0 1\n0 2\n").unwrap();
    rejects(
        &["count", "--histogram", table.to_str().unwrap()],
        "listed twice",
    );
}

/// Counting Hackenbush cuts by value agrees with listing them: as many
/// winning cuts counted as listed, and every cut counted once.
#[test]
fn hackenbush_cut_counts_agree_with_the_listed_cuts() {
    let pictures = ["(()())", "((()))(())", "(((()))(()))"];
    let mut listed = vec!["hackenbush", "--format", "json"];
    listed.extend(pictures);
    let mut counted = listed.clone();
    counted.push("--count-moves");
    let (listed, counted) = (stdout_json(&listed), stdout_json(&counted));
    assert_eq!(
        counted["winning_moves"].as_u64().unwrap(),
        listed["winning_cuts"].as_array().unwrap().len() as u64
    );
    for (i, component) in counted["components"].as_array().unwrap().iter().enumerate() {
        let edges = pictures[i].len() as u64 / 2;
        assert_eq!(component["moves"], edges);
        let by_value: u64 = component["by_value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p[1].as_u64().unwrap())
            .sum();
        assert_eq!(by_value, edges);
    }
}

/// Issue 20, item 6: the positions of rows and grids of coins counted by
/// nim-sum, as far as the rules' closed forms go.
#[test]
fn count_counts_the_positions_of_coin_grids() {
    // 3 x 4 coins of ruler*ruler are worth the nim-products of 1, 2, 1 and
    // 1, 2, 1, 4: they span every number below 16, so each nim-sum has
    // 2^(12 - 4) positions.
    let grid = stdout_json(&[
        "count",
        "ruler*ruler",
        "--to",
        "3,4",
        "--nim-sum",
        "9",
        "--format",
        "json",
    ]);
    assert_eq!(grid["columns"], 3);
    assert_eq!(grid["rows"], 4);
    assert_eq!(grid["total"], "4096");
    assert_eq!(grid["p_positions"], "256");
    assert_eq!(grid["n_positions"], "3840");
    assert_eq!(grid["rank"], 4);
    assert_eq!(grid["span_basis"], json!([1, 2, 4, 8]));
    assert_eq!(
        grid["nim_sum"],
        json!({"value": 9, "occurs": true, "positions": "256"})
    );
    // 10^12 x 10^12: the values span GF(2^64), so P = 2^(10^24 - 64) mod
    // 10^9 + 7 (242941624 by Fermat's little theorem, reducing the exponent
    // mod 10^9 + 6).
    let huge = stdout_json(&[
        "count",
        "ruler*ruler",
        "--to",
        "1e12,1e12",
        "--mod",
        "1000000007",
        "--format",
        "json",
    ]);
    assert_eq!(huge["p_positions"], "242941624");
    assert_eq!(huge["total"], "39859806");
    assert_eq!(huge["n_positions"], "796918189");
    // A row: the positions of coins 1..=5 of Mock Turtles (values 1, 2, 4,
    // 7, 8; rank 4).
    let row = stdout_json(&["count", "mock-turtles", "--to", "5", "--format", "json"]);
    assert_eq!(row["rows"], 1);
    assert_eq!(row["p_positions"], "2");
    let text = grundy(&["count", "twins*ruler", "--to", "4"]).success();
    assert!(String::from_utf8_lossy(&text.get_output().stdout).contains("P-positions"));
    rejects(
        &["count", "grunt*ruler", "--to", "1e12,3", "--mod", "7"],
        "--memory-limit",
    );
    rejects(&["count", "ruler*ruler", "--to", "3000,3000"], "--mod");
    rejects(&["count", "ruler*ruler", "--to", "3,x"], "'x'");
    rejects(&["count", "ruler*ruler", "--to", "0,4"], "at least one");
    rejects(&["count", "mock-turtles", "--to", "3,4"], "A*B");
    rejects(
        &["count", "ruler*ruler", "--to", "3,4", "--heaps", "2"],
        "--heaps",
    );
    rejects(
        &["count", "ruler*ruler", "--to", "3,4", "--all"],
        "ask one) (--all)",
    );
    rejects(
        &["count", "kayles", "--to", "10", "--nim-sum", "1"],
        "--nim-sum",
    );
    rejects(&["count", "--range", "mock-turtles:1..5"], "alone (--to)");
    // Rules of runs through their proven periods, says the report.
    let runs = stdout_json(&[
        "count",
        "runs(2,5)*ruler(3)",
        "--to",
        "1e12,1e12",
        "--mod",
        "1000000007",
        "--format",
        "json",
    ]);
    for side in ["columns_values", "rows_values"] {
        assert_eq!(runs[side]["by"], "period", "{side}");
        assert_eq!(runs[side]["period"]["proven"], true, "{side}");
        assert_eq!(runs[side]["period"]["support"], "theorem", "{side}");
    }
    let text = grundy(&["count", "runs(2,5)", "--to", "1e15", "--mod", "7"]).success();
    assert!(String::from_utf8_lossy(&text.get_output().stdout).contains("PROVEN"));
}

/// `grundy count GAME --partitions N`: the partitions of N into heaps of
/// the game by nim-sum, against every partition listed from `grundy
/// values`; text and JSON say the same; what it does not take is refused
/// naming the flag.
#[test]
fn count_partitions_by_nim_sum() {
    fn partitions(n: usize, largest: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        (1..=largest.min(n))
            .flat_map(|part| {
                partitions(n - part, part).into_iter().map(move |mut rest| {
                    rest.push(part);
                    rest
                })
            })
            .collect()
    }
    let values = stdout_json(&["values", "0.137", "--to", "18", "--format", "json"]);
    let g: Vec<u64> = values["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    for (extra, keep) in [
        (
            &[][..],
            &(|_: &Vec<usize>| true) as &dyn Fn(&Vec<usize>) -> bool,
        ),
        (&["--distinct"], &|p| {
            p.iter().collect::<std::collections::BTreeSet<_>>().len() == p.len()
        }),
        (&["--parts", "1,3,5..9"], &|p| {
            p.iter().all(|s| [1, 3, 5, 6, 7, 8, 9].contains(s))
        }),
        (&["--heaps", "4"], &|p| p.len() == 4),
    ] {
        let mut expected = std::collections::BTreeMap::new();
        for p in partitions(18, 18).iter().filter(|p| keep(p)) {
            *expected
                .entry(p.iter().fold(0, |x, &s| x ^ g[s]))
                .or_insert(0u64) += 1;
        }
        let mut args = vec![
            "count",
            "0.137",
            "--partitions",
            "18",
            "--all",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let found = stdout_json(&args);
        let by_nim_sum: Vec<(u64, u64)> = found["by_nim_sum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                let count = pair[1].as_str().unwrap().parse().unwrap();
                (pair[0].as_u64().unwrap(), count)
            })
            .collect();
        let wanted: Vec<(u64, u64)> = expected.into_iter().collect();
        assert_eq!(by_nim_sum, wanted, "{extra:?}");
        let total: u64 = wanted.iter().map(|&(_, c)| c).sum();
        assert_eq!(found["total"], total.to_string(), "{extra:?}");
        assert_eq!(found["partitions_of"], 18);
    }
    let text = grundy(&["count", "kayles", "--partitions", "40"]).success();
    assert_eq!(
        String::from_utf8_lossy(&text.get_output().stdout),
        "partitions of 40 into heaps of kayles: 37338\n\
         P-positions (nim-sum 0, the player to move loses): 5016\n\
         N-positions (the player to move wins): 32322\n"
    );
    let modular = stdout_json(&[
        "count",
        "kayles",
        "--partitions",
        "2000",
        "--mod",
        "1000000007",
        "--format",
        "json",
    ]);
    // p(2000) = 4720819175619413888601432406799959512200344166.
    assert_eq!(modular["total"], "298613045");
    assert_eq!(modular["modulus"], 1000000007);
    for (args, needle) in [
        (
            &["count", "kayles", "--partitions", "1e5"][..],
            "--work-limit",
        ),
        (
            &["count", "kayles", "--partitions", "10", "--to", "5"],
            "(--to)",
        ),
        (
            &["count", "kayles", "--parts", "1,2", "--to", "5"],
            "--partitions",
        ),
        (&["count", "ruler", "--partitions", "10"], "(--partitions"),
        (
            &["count", "kayles", "--partitions", "10", "--parts", "0..3"],
            "invalid part sizes",
        ),
        (
            &["count", "kayles", "--partitions", "10", "--moves", "3"],
            "cannot be used",
        ),
    ] {
        rejects(args, needle);
    }
}

/// `grundy moves`: each heap's winning moves agree with the moves `grundy
/// sum` lists for the heap alone, and a long range is counted by value
/// through the proven period.
/// A script's tuples (`--position`) against the built-in game on pairs:
/// Wythoff's game written as a script has the values and the winning-move
/// counts of `grundy moves wythoff`, position by position, and each listed
/// move leads to a position of value 0.
#[test]
fn moves_of_a_scripts_tuples_agree_with_the_pair_game() {
    let script = example("wythoff.rhai");
    let tuples = stdout_json(&["moves", &script, "--position", "[4,4]", "--format", "json"]);
    let pairs = stdout_json(&["moves", "wythoff", "--to", "4", "--format", "json"]);
    let rows = tuples["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 25);
    assert_eq!(tuples["by_value"], pairs["by_value"]);
    let value_of = |position: &str| {
        rows.iter()
            .find(|r| r["position"] == position)
            .map(|r| r["value"].clone())
            .unwrap()
    };
    for pair in pairs["positions"].as_array().unwrap() {
        let written = format!("[{}, {}]", pair["a"], pair["b"]);
        let row = rows
            .iter()
            .find(|r| r["position"] == written.as_str())
            .unwrap();
        assert_eq!(row["value"], pair["value"], "{written}");
        assert_eq!(row["winning_moves"], pair["winning_moves"], "{written}");
        for to in row["moves"].as_array().unwrap() {
            assert_eq!(value_of(to[0].as_str().unwrap()), 0, "{written} -> {to}");
        }
    }
    // Counts alone, and the refusals.
    let counted = stdout_json(&[
        "moves",
        &script,
        "--position",
        "[4,4]",
        "--by-value",
        "--format",
        "json",
    ]);
    assert!(counted["positions"].is_null());
    assert_eq!(counted["winning_moves"], pairs["winning_moves"]);
    rejects(&["moves", "kayles", "--position", "3"], "for scripts");
    rejects(&["moves", &script, "--position", "[1,x]"], "[1,x]");
}

#[test]
fn moves_tables_agree_with_sums_and_count_long_ranges() {
    let table = stdout_json(&["moves", "0.137", "--to", "30", "--format", "json"]);
    let rows = table["heaps"].as_array().unwrap();
    assert_eq!(rows.len(), 31);
    for row in rows {
        let heap = row["heap"].as_u64().unwrap().to_string();
        let sum = stdout_json(&["sum", "0.137", &heap, "--format", "json"]);
        assert_eq!(
            row["winning_moves"], sum["winning_move_count"],
            "heap {heap}"
        );
        assert_eq!(row["value"], sum["nim_sum"], "heap {heap}");
    }
    let csv = grundy(&["moves", "sub(1,3,4)", "--to", "3", "--format", "csv"]).success();
    assert_eq!(
        String::from_utf8_lossy(&csv.get_output().stdout),
        "heap,value,winning_moves,fewest_taken,most_taken\n0,0,0,,\n1,1,1,1,1\n2,0,0,,\n3,1,2,1,3\n"
    );
    let far = stdout_json(&[
        "moves",
        "kayles",
        "--to",
        "1e15",
        "--by-value",
        "--format",
        "json",
    ]);
    assert_eq!(
        far["through_period"],
        json!({"preperiod": 71, "period": 12})
    );
    assert_eq!(far["heap_count"], "1000000000000001");
    assert!(far["heaps"].is_null());
    rejects(&["moves", "kayles", "--to", "1e7"], "--by-value");
    rejects(
        &["moves", "sub(squares)", "--to", "1e9", "--by-value"],
        "proven period",
    );
    rejects(&["moves", "wythoff", "--from", "1", "--to", "5"], "--from");
    let counted = stdout_json(&[
        "moves",
        "wythoff",
        "--to",
        "5",
        "--by-value",
        "--format",
        "json",
    ]);
    assert!(counted["positions"].is_null());
    assert_eq!(counted["position_count"], "36");
    let pairs = stdout_json(&["moves", "wythoff", "--to", "3", "--format", "json"]);
    assert_eq!(pairs["positions"].as_array().unwrap().len(), 16);
}
