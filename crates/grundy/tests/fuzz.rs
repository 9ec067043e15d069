//! A fuzz harness over every parser a user's input reaches: game
//! specifications, graph, maze and Hackenbush files, certificates,
//! checkpoints and game scripts (issue 16). Each target feeds random and
//! mutated input to the parser, and whatever parses to a small computation
//! that uses it; errors are fine, a panic fails the test.
//!
//! Cases per target come from `GRUNDY_FUZZ_CASES` (default 64, a few
//! seconds in all, so that it runs with the suite); for a longer run:
//!
//! ```text
//! GRUNDY_FUZZ_CASES=20000 cargo test --release -p grundy --test fuzz
//! ```
//!
//! proptest shrinks a failure to a small input and records its seed in
//! `fuzz.proptest-regressions`, which later runs replay first.

use std::time::Duration;

use grundy::analysis::{Certificate, Limits, analyze};
use grundy::rules::{GameGraph, Hackenbush, Maze, ScriptGame, ScriptLimits, parse_size};
use grundy::session::HeapRules;
use grundy::solve::Checkpoint;
use grundy::spec::{GameSpec, Question};
use grundy::{HeapGame, Nimber, TableSolver, ValueTable};
use proptest::prelude::*;

/// Cases per target: `GRUNDY_FUZZ_CASES`, or 64.
fn config() -> ProptestConfig {
    let cases = std::env::var("GRUNDY_FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        // Inputs are cheap; shrinking a failure should not stop early.
        max_shrink_iters: 10_000,
        ..ProptestConfig::default()
    }
}

/// Text from pieces a parser treats specially (so that random draws reach
/// past the first check), stray characters and arbitrary Unicode.
fn text_of(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => prop::sample::select(pieces).prop_map(str::to_owned),
        2 => "[0-9]{1,20}",
        1 => any::<char>().prop_map(String::from),
        1 => Just("\u{feff}".to_owned()),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|parts| parts.concat())
}

/// Small limits, so that whatever parses also runs quickly.
fn script_limits() -> ScriptLimits {
    ScriptLimits {
        operations: 20_000,
        time: Duration::from_millis(500),
        positions: 10_000,
        size: 10_000,
        ..ScriptLimits::default()
    }
}

const SPEC_PIECES: &[&str] = &[
    "0",
    "4",
    "8",
    ".",
    "7",
    "3",
    "!",
    "?",
    "=",
    "[",
    "]",
    "{",
    "}",
    ",",
    "+",
    "&",
    ";",
    "2+",
    "62",
    "(",
    ")",
    "sub",
    "sub(",
    "squares",
    "kayles",
    "nim",
    "grundy",
    "lasker",
    "wythoff",
    "rook(",
    "mock-turtles",
    "*",
    "ruler",
    "hackenbush:",
    "graph:",
    "maze:",
    "script:",
    ".rhai",
    "fibonacci-nim",
    "all-but(",
    "proper-divisors",
    "-",
    " ",
    "9223372036854775807",
    "1e18",
    "^",
];

const GRAPH_PIECES: &[&str] = &[
    "a",
    "b",
    "c",
    " ",
    "\n",
    "->",
    "take",
    "{",
    "}",
    "[",
    "]",
    "\"edges\"",
    "\"positions\"",
    ":",
    ",",
    "\"a\"",
    "\"b\"",
    "#",
    "\t",
    "\u{feff}",
    "null",
    "0",
    "1",
    "\"from\"",
    "\"to\"",
];

const MAP_PIECES: &[&str] = &["#", ".", "..", "A", "b", "7", "\n", " ", "\r\n", "...."];

const HACKENBUSH_PIECES: &[&str] = &[
    "ground", "g", "a", "b", " ", "\n", "#", "(", ")", "()", "(()", "x",
];

const SCRIPT_PIECES: &[&str] = &[
    "fn options(n) {",
    "}",
    "[",
    "]",
    "n - 1",
    "n - 2",
    "n + 1",
    ",",
    ";",
    "split(n - 1, 2)",
    "split(n, 3)",
    "sum(1, n - 2)",
    "if n > 0 {",
    "} else {",
    "[]",
    "for a in 0..n {",
    "let out = [];",
    "out.push(n - 1);",
    "out",
    "print(n);",
    "throw \"x\";",
    "9223372036854775807",
    "-1",
    "fn start() {",
    "[0, 1]",
    "loop {",
    "\n",
];

proptest! {
    #![proptest_config(config())]

    /// Game specifications: parsed, and heap games among them valued to 24.
    #[test]
    fn game_specs(text in text_of(SPEC_PIECES)) {
        if let Ok(spec) = GameSpec::parse(&text)
            && let Ok(game) = HeapRules::from_spec(&spec, Question::Values, &script_limits())
        {
            let _ = game.values(24, &TableSolver::new(), &mut |_| true);
        }
        let _ = text.parse::<HeapGame>();
        let _ = parse_size(&text);
    }

    /// Take-and-break codes built digit by digit, valued through the
    /// table solver (all its kernels) to 40.
    #[test]
    fn codes(
        digits in prop::collection::vec(
            prop_oneof![
                "[0-9A-Za-z]",
                "\\{[0-9]{1,2}(,[0-9]{1,2}){0,3}\\+?\\}",
                "&[0-9]{1,19};",
            ],
            1..5,
        ),
        marks in prop::collection::vec(prop::sample::select(vec!["", "!", "?", "="]), 5),
        repeat in any::<bool>(),
    ) {
        let mut code = format!("{}{}.", digits[0], marks[0]);
        for (d, mark) in digits[1..].iter().zip(&marks[1..]) {
            code += &format!("{d}{mark}");
        }
        if repeat {
            code += "[3]";
        }
        if let Ok(game) = code.parse::<HeapGame>() {
            let _ = TableSolver::new().values(&game, 40);
        }
    }

    /// Graph files, edge lists and JSON: parsed, then solved (cycles
    /// included).
    #[test]
    fn graphs(text in text_of(GRAPH_PIECES)) {
        if let Ok(graph) = GameGraph::parse(&text) {
            let _ = graph.solve();
            let _ = graph.loopy_values();
        }
    }

    /// Maze maps: parsed, then valued.
    #[test]
    fn mazes(text in text_of(MAP_PIECES)) {
        if let Ok(maze) = Maze::parse(&text) {
            let _ = maze.values(1 << 30);
        }
    }

    /// Hackenbush pictures and tree notation: parsed, valued, and the
    /// winning cuts listed.
    #[test]
    fn hackenbush(text in text_of(HACKENBUSH_PIECES)) {
        for picture in [Hackenbush::parse(&text), Hackenbush::tree(&text)].into_iter().flatten() {
            let _ = picture.cuts_to(Nimber::ZERO, 1 << 24);
            let _ = picture.value();
        }
    }

    /// Certificates: a genuine one with a field or value changed, or
    /// arbitrary JSON, checked.
    #[test]
    fn certificates(
        field in 0usize..6,
        number in prop_oneof![0u64..300, any::<u64>()],
        at in any::<prop::sample::Index>(),
        junk in text_of(&["{", "}", "\"format\"", ":", ",", "[", "]", "0", "\"game\""]),
    ) {
        let mut json = serde_json::to_value(genuine_certificate()).unwrap();
        let key = ["preperiod", "period", "saltus", "last_heap_needed", "values", "game"][field];
        match key {
            "values" => {
                let values = json["values"].as_array_mut().unwrap();
                let i = at.index(values.len());
                values[i] = serde_json::json!(number);
            }
            "game" => json["game"] = serde_json::json!(junk.clone()),
            _ => json[key] = serde_json::json!(number),
        }
        if let Ok(certificate) = serde_json::from_value::<Certificate>(json) {
            // Forged sizes must be refused, not computed for hours.
            if certificate.preperiod.max(certificate.period) < 1000 {
                let _ = certificate.check();
            }
        }
        if let Ok(certificate) = serde_json::from_str::<Certificate>(&junk) {
            let _ = certificate.check();
        }
    }

    /// Checkpoints: a genuine file with bytes changed or cut, or random
    /// bytes, loaded.
    #[test]
    fn checkpoints(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in prop::option::of(any::<prop::sample::Index>()),
        random in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let dir = std::env::temp_dir().join(format!("grundy-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{:?}.ckpt", std::thread::current().id()));
        let mut bytes = genuine_checkpoint(&path);
        for (at, byte) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *byte;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        for contents in [bytes, random] {
            std::fs::write(&path, contents).unwrap();
            let _ = Checkpoint::load(&path);
        }
        let _ = std::fs::remove_file(&path);
    }

    /// Game scripts: compiled with small limits, then valued to 12.
    #[test]
    fn scripts(
        pieces in prop::collection::vec(prop::sample::select(SCRIPT_PIECES), 0..16),
    ) {
        let source = pieces.join(" ");
        if let Ok(game) = ScriptGame::compile("fuzz.rhai", &source, script_limits()) {
            let game = HeapRules::script(game);
            let _ = game.values(12, &TableSolver::new(), &mut |_| true);
        }
    }
}

/// The certificate of Dawson's chess, proven at heap 174.
fn genuine_certificate() -> Certificate {
    let game: HeapGame = "0.137".parse().unwrap();
    let found = analyze(&game, &Limits::default(), &TableSolver::new(), &mut |_| {
        true
    })
    .unwrap();
    Certificate::from_analysis(&found).expect("a proven period")
}

/// The bytes of a checkpoint of Kayles to 300, written at `path`.
fn genuine_checkpoint(path: &std::path::Path) -> Vec<u8> {
    let game: HeapGame = "kayles".parse().unwrap();
    let values: ValueTable = TableSolver::new().values(&game, 300).unwrap();
    Checkpoint::save(path, "0.77", &values).unwrap();
    std::fs::read(path).unwrap()
}
