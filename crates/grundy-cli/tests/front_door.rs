//! The front door: every kind of game a user can name, asked every question
//! through the real binary. Each answer is checked by a second route — a
//! scripted Kayles against the built-in one, a graph against the same game
//! as heaps, `rook(A,B)` against the sum of `A` and `B` — or the refusal is
//! checked for its typed, one-line message (exit code 2).

use assert_cmd::Command;
use serde_json::Value;

fn run(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

fn json_of(args: &[&str]) -> Value {
    let output = run(args).success().get_output().stdout.clone();
    serde_json::from_slice(&output).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Exit code 2 and one line on stderr mentioning every needle.
fn refuses(args: &[&str], needles: &[&str]) {
    let assert = run(args).code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
    }
}

fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The JSON of a command without the fields that name the game (or
/// describe it in words).
fn answer(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        for key in ["game", "canonical", "positions", "games"] {
            object.remove(key);
        }
        for (_, v) in object.iter_mut() {
            *v = answer(v.take());
        }
    } else if let Some(items) = value.as_array_mut() {
        for v in items {
            *v = answer(v.take());
        }
    }
    value
}

#[test]
fn a_scripted_kayles_answers_every_heap_question_as_the_built_in_one() {
    let script = example("kayles.rhai");
    let questions: [&[&str]; 8] = [
        &["values", "GAME", "--to", "60", "--format", "json"],
        &["analyze", "GAME", "--to", "200", "--format", "json"],
        &["guess", "GAME", "--to", "200", "--format", "json"],
        &["sum", "GAME", "4", "7", "9", "--format", "json"],
        &[
            "count", "GAME", "--to", "150", "--heaps", "3", "--format", "json",
        ],
        &["count", "GAME", "--moves", "7", "9", "--format", "json"],
        &["misere", "GAME", "3", "5", "--format", "json"],
        &["misere", "GAME", "--to", "12", "--format", "json"],
    ];
    for question in questions {
        let with = |game: &str| -> Vec<String> {
            question
                .iter()
                .map(|&a| if a == "GAME" { game } else { a }.to_owned())
                .collect()
        };
        let args = |game: &str| with(game);
        let scripted = answer(json_of(&refs(&args(&script))));
        let built_in = answer(json_of(&refs(&args("kayles"))));
        if question[0] == "analyze" || question[0] == "guess" {
            // The script has no periodicity theorem: same values and
            // period, only observed.
            for key in ["values", "period", "preperiod", "formula"] {
                assert_eq!(scripted.get(key), built_in.get(key), "{question:?}: {key}");
            }
        } else {
            assert_eq!(scripted, built_in, "{question:?}");
        }
    }
    // Compare proves nothing without two theorems, but finds no difference.
    let compared = json_of(&[
        "compare", &script, "kayles", "--to", "300", "--format", "json",
    ]);
    assert_eq!(compared["first_difference"], Value::Null, "{compared}");
    // Sums may mix kinds: a scripted heap beside a built-in one.
    let mixed = json_of(&[
        "sum",
        "nim",
        "3",
        &format!("{script}:4"),
        "--format",
        "json",
    ]);
    let plain = json_of(&["sum", "nim", "3", "kayles:4", "--format", "json"]);
    assert_eq!(mixed["winning_moves"], plain["winning_moves"]);
    assert_eq!(mixed["nim_sum"], plain["nim_sum"]);
}

#[test]
fn games_on_pairs_count_and_sum_like_their_parts() {
    // rook(A,B) is the sum of A and B: its positions counted by value are
    // pairs of heaps counted by nim-sum.
    let rook = json_of(&[
        "count",
        "rook(kayles,sub(1,2))",
        "--from",
        "0",
        "--to",
        "40",
        "--format",
        "json",
    ]);
    let parts = json_of(&[
        "count",
        "--range",
        "kayles:0..40",
        "--range",
        "sub(1,2):0..40",
        "--all",
        "--format",
        "json",
    ]);
    // Rows are [value, "count"] in both.
    let rows = |v: &Value| -> Vec<Value> { v.as_array().unwrap().clone() };
    assert_eq!(rows(&rook["histogram"]), rows(&parts["by_nim_sum"]));
    assert_eq!(rook["heaps"], parts["total"]);
    // A Wythoff position sums like the table says: (1,2) and (3,5) are
    // P-positions, so their sum is lost for the player to move.
    let sum = json_of(&["sum", "wythoff", "1,2", "3,5", "--format", "json"]);
    assert_eq!(sum["winner"], "second");
    let sum = json_of(&["sum", "wythoff", "2,2", "--format", "json"]);
    assert_eq!(sum["winner"], "first");
    assert!(
        sum["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["to"] == serde_json::json!(["(0,0)"])),
        "{sum}"
    );
    refuses(&["sum", "wythoff", "3"], &["pair", "A,B"]);
}

#[test]
fn kinds_that_do_not_answer_a_question_say_why_and_what_does() {
    refuses(
        &["count", "maze:x.txt", "--to", "5"],
        &["a maze", "count", "grundy maze"],
    );
    refuses(
        &["analyze", "graph:x.txt"],
        &["a game graph", "analyze", "grundy graph"],
    );
    refuses(
        &["misere", "mock-turtles", "3"],
        &["coin-turning", "grundy coins"],
    );
    refuses(
        &["values", "(()())", "--to", "3"],
        &["Hackenbush", "grundy hackenbush"],
    );
    refuses(
        &["plot", "fibonacci-nim", "--to", "9", "-o", "x.svg"],
        &["Fibonacci Nim", "it is no sum"],
    );
    refuses(
        &["analyze", "wythoff"],
        &["pairs", "values, sum, count or moves"],
    );
}

#[test]
fn proven_periods_answer_long_ranges_at_once() {
    // Dawson's Kayles: period 34 from heap 53, proven after 175 heaps.
    let values = json_of(&[
        "values",
        "dawsons-kayles",
        "--to",
        "1e6",
        "--format",
        "json",
    ]);
    let values = values["values"].as_array().unwrap();
    assert_eq!(values.len(), 1_000_001);
    let short = json_of(&[
        "values",
        "dawsons-kayles",
        "--to",
        "200",
        "--format",
        "json",
    ]);
    for n in [999_999usize, 500_000, 123_457] {
        // n and the heap of the first period it repeats.
        let image = 53 + (n - 53) % 34;
        assert_eq!(values[n], short["values"][image], "heap {n}");
    }
    let counted = json_of(&["count", "dawsons-kayles", "--to", "1e6", "--format", "json"]);
    let source = counted["source"].as_str().unwrap();
    assert!(
        source.contains("proven period 34 from heap 53"),
        "{counted}"
    );
}

#[test]
fn a_script_whose_heaps_grow_gets_generalized_values() {
    let dir = std::env::temp_dir().join(format!("grundy-front-door-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("grow.rhai");
    std::fs::write(
        &script,
        "fn options(n) { if n < 5 { [n + 1] } else { [] } }",
    )
    .unwrap();
    let found = json_of(&[
        "values",
        script.to_str().unwrap(),
        "--to",
        "3",
        "--format",
        "json",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found["loopy"], true, "{found}");
    // 5 has no move; 4 -> 5 wins; 3 -> 4 loses.
    assert_eq!(found["heaps"][3]["outcome"], "loss", "{found}");
    assert_eq!(
        found["heaps"][4].get("heap"),
        None,
        "only heaps 0..=3 are listed"
    );
}
