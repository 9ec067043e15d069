//! Games written as Rhai scripts: values against built-in families and the
//! literature, sums, and every way a script can go wrong.

use std::time::Duration;

use grundy::rules::{PairGame, ScriptGame, ScriptLimits, ScriptPosition};
use grundy::solve::script_sum;
use grundy::{Component, Error, HeapGame, TableSolver, analyze_sum};

fn compile(source: &str) -> Result<ScriptGame, Error> {
    ScriptGame::compile("game.rhai", source, ScriptLimits::default())
}

fn values(source: &str, to: u64) -> Vec<u32> {
    let game = compile(source).unwrap();
    game.heap_values(to)
        .unwrap()
        .iter()
        .map(|v| v.get())
        .collect()
}

fn builtin(spec: &str, to: u64) -> Vec<u32> {
    let game: HeapGame = spec.parse().unwrap();
    let values = TableSolver::new().values(&game, to).unwrap();
    values.iter().map(|v| v.get()).collect()
}

#[test]
fn scripted_heap_games_equal_the_built_in_ones() {
    // Kayles: knock down one or two adjacent pins, maybe splitting the row.
    let kayles = "fn options(n) {
        let out = [];
        for take in 1..=2 {
            for left in 0..=(n - take) { out.push(sum(left, n - take - left)); }
        }
        out
    }";
    assert_eq!(values(kayles, 120), builtin("kayles", 120));
    // Subtract a square.
    let squares = "fn options(n) {
        let out = [];
        let k = 1;
        while k * k <= n { out.push(n - k * k); k += 1; }
        out
    }";
    assert_eq!(values(squares, 300), builtin("sub(squares)", 300));
    // split(m, k) lists sums; negative heaps are left out.
    let take_and_split = "fn options(n) { [n - 1, n - 2, split(n - 2, 2)] }";
    assert_eq!(values(take_and_split, 200), builtin("0.37", 200));
    // Split into three heaps after taking one: hexadecimal digit 8.
    assert_eq!(
        values("fn options(n) { split(n - 1, 3) }", 60),
        builtin("0.8", 60)
    );
}

#[test]
fn tuple_positions_play_wythoffs_game() {
    let wythoff = "fn options(p) {
        let a = p[0]; let b = p[1];
        let out = [];
        for k in 1..=a { out.push([a - k, b]); out.push([a - k, b - k]); }
        for k in 1..=b { out.push([a, b - k]); }
        out
    }";
    let game = compile(wythoff).unwrap();
    let table = PairGame::Wythoff.table(12, 1 << 20).unwrap();
    for a in 0..=12 {
        for b in 0..=12 {
            let position = ScriptPosition::Tuple(vec![a, b]);
            let found = script_sum(&game, std::slice::from_ref(&position)).unwrap();
            assert_eq!(found.values[0], table[a as usize][b as usize], "({a}, {b})");
        }
    }
}

#[test]
fn sums_of_scripted_positions_find_every_winning_move() {
    let script = "fn options(n) { [n - 1, n - 2, split(n - 2, 2)] }";
    let game = compile(script).unwrap();
    let heaps = [5u64, 9, 14];
    let positions: Vec<ScriptPosition> = heaps.iter().map(|&h| ScriptPosition::Heap(h)).collect();
    let found = script_sum(&game, &positions).unwrap();
    let code: HeapGame = "0.37".parse().unwrap();
    let components: Vec<Component> = heaps
        .iter()
        .map(|&h| Component {
            game: 0,
            heap: h as usize,
        })
        .collect();
    let expected = analyze_sum(
        &[code],
        &components,
        &TableSolver::new(),
        grundy::LISTED_OPTIONS_LIMIT,
    )
    .unwrap();
    assert_eq!(found.values, expected.values);
    assert_eq!(found.nim_sum, expected.nim_sum);
    let mut got: Vec<(usize, Vec<u64>)> = found
        .winning_moves
        .into_iter()
        .map(|m| {
            let mut heaps: Vec<u64> =
                m.to.iter()
                    .filter_map(|p| match p {
                        ScriptPosition::Heap(0) => None,
                        ScriptPosition::Heap(h) => Some(*h),
                        ScriptPosition::Tuple(_) => panic!("heaps only"),
                    })
                    .collect();
            heaps.sort_unstable();
            (m.component, heaps)
        })
        .collect();
    got.sort();
    got.dedup();
    let want: Vec<(usize, Vec<u64>)> = expected
        .winning_moves
        .iter()
        .map(|m| (m.component, m.to.iter().map(|&h| h as u64).collect()))
        .collect();
    assert_eq!(got, want);
}

fn failure(source: &str, limits: ScriptLimits) -> String {
    let result = ScriptGame::compile("game.rhai", source, limits).and_then(|g| g.heap_values(10));
    match result {
        Err(e) => e.to_string(),
        Ok(values) => panic!("expected an error, got {values:?}"),
    }
}

#[test]
fn endless_scripts_are_stopped_by_their_limits() {
    let endless = failure("fn options(n) { loop {} }", ScriptLimits::default());
    assert!(
        endless.starts_with("game.rhai: options(0) stopped after 1000000 operations"),
        "{endless}"
    );
    let hoarding = failure(
        "fn options(n) { let a = []; loop { a.push(n); } }",
        ScriptLimits {
            operations: u64::MAX,
            size: 10_000,
            ..ScriptLimits::default()
        },
    );
    assert!(hoarding.contains("game.rhai"), "{hoarding}");
    assert!(hoarding.to_lowercase().contains("size"), "{hoarding}");
    let slow = failure(
        "fn options(n) { loop {} }",
        ScriptLimits {
            operations: u64::MAX,
            time: Duration::from_millis(200),
            ..ScriptLimits::default()
        },
    );
    assert!(slow.contains("time limit"), "{slow}");
    let growing = failure(
        "fn options(n) { [n + 1] }",
        ScriptLimits {
            positions: 1000,
            ..ScriptLimits::default()
        },
    );
    assert!(growing.contains("more than 1000 positions"), "{growing}");
}

#[test]
fn script_errors_name_the_script_and_the_line() {
    let syntax = failure("fn options(n) {\n  [n - 1,, n]\n}", ScriptLimits::default());
    assert!(syntax.starts_with("game.rhai: syntax error"), "{syntax}");
    assert!(syntax.contains("line 2"), "{syntax}");
    let runtime = failure(
        "fn options(n) {\n  let x = 1;\n  nonsense(n)\n}",
        ScriptLimits::default(),
    );
    assert!(runtime.contains("options(0)"), "{runtime}");
    assert!(runtime.contains("line 3"), "{runtime}");
    let missing = failure("fn moves(n) { [] }", ScriptLimits::default());
    assert!(missing.contains("defines no function options"), "{missing}");
    let wrong_type = failure("fn options(n) { [\"a\"] }", ScriptLimits::default());
    assert!(wrong_type.contains("expected a heap"), "{wrong_type}");
    let cycle = failure(
        "fn options(n) { if n > 0 { [n - 1] } else { [1] } }",
        ScriptLimits::default(),
    );
    assert!(cycle.contains("cycle"), "{cycle}");
}

#[test]
fn positions_parse_as_heaps_or_tuples() {
    assert_eq!(
        "7".parse::<ScriptPosition>().unwrap(),
        ScriptPosition::Heap(7)
    );
    assert_eq!(
        "[3, 4]".parse::<ScriptPosition>().unwrap(),
        ScriptPosition::Tuple(vec![3, 4])
    );
    assert_eq!(
        "3,4".parse::<ScriptPosition>().unwrap(),
        ScriptPosition::Tuple(vec![3, 4])
    );
    for bad in ["", "x", "[3,4", "-1", "[1,-2]"] {
        assert!(bad.parse::<ScriptPosition>().is_err(), "{bad}");
    }
}
