//! Sweeps over numbered states against plain game-tree search.

use grundy::rules::{ScriptGame, ScriptLimits};
use grundy::solve::sweep_outcomes;
use grundy::{MemoSolver, Options, Ruleset};
use proptest::prelude::*;

/// A bitmask game that is no sum: a move removes one piece `i` and, by a
/// table drawn at random, toggles some of the pieces below it.
struct Pieces {
    toggles: Vec<u32>,
}

impl Pieces {
    fn moves(&self, state: u64) -> Vec<u64> {
        (0..self.toggles.len())
            .filter(|&i| state >> i & 1 == 1)
            .map(|i| (state & !(1 << i)) ^ u64::from(self.toggles[i] & ((1 << i) - 1)))
            .collect()
    }
}

impl Ruleset for Pieces {
    type Position = u64;

    fn options(&self, &state: &u64, out: &mut Options<u64>) {
        for next in self.moves(state) {
            out.push([next]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn sweeps_match_search(toggles in prop::collection::vec(any::<u32>(), 1..=11)) {
        let game = Pieces { toggles };
        let states = 1u64 << game.toggles.len();
        let found = sweep_outcomes(states, u64::MAX, &mut |s, out| {
            out.extend(game.moves(s));
            Ok(())
        }, &mut |_| true).unwrap();
        let mut solver = MemoSolver::new(&game);
        for s in 0..states {
            prop_assert_eq!(found.is_loss(s), solver.value(&s).unwrap().is_zero(), "state {:b}", s);
        }
        prop_assert_eq!(found.loss_count(), found.losses().count() as u64);
    }
}

/// The digit game of `examples/digits.rhai`, written again in Rust.
struct Digits;

impl Ruleset for Digits {
    type Position = u64;

    fn options(&self, &n: &u64, out: &mut Options<u64>) {
        if n == 0 {
            return;
        }
        let text = n.to_string();
        for (i, c) in text.char_indices() {
            let rest = format!("{}{}", &text[..i], &text[i + 1..]);
            out.push([rest.parse().unwrap_or(0)]);
            if c != '0' {
                out.push([n - 10u64.pow((text.len() - i - 1) as u32)]);
            }
        }
    }
}

#[test]
fn the_digits_script_matches_search() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/digits.rhai");
    let source = std::fs::read_to_string(path).unwrap();
    let game = ScriptGame::compile("digits.rhai", &source, ScriptLimits::default()).unwrap();
    let found = game.outcomes(5000, u64::MAX, &mut |_| true).unwrap();
    let mut solver = MemoSolver::new(&Digits);
    for n in 0..5000 {
        assert_eq!(found.is_loss(n), solver.value(&n).unwrap().is_zero(), "{n}");
    }
}

#[test]
fn scripts_that_do_not_lower_the_state_or_sum_are_refused() {
    let up = ScriptGame::compile(
        "up.rhai",
        "fn options(n) { [n + 1] }",
        ScriptLimits::default(),
    )
    .unwrap();
    let error = up.outcomes(10, u64::MAX, &mut |_| true).unwrap_err();
    assert!(error.to_string().contains("not smaller"), "{error}");
    let sums = ScriptGame::compile(
        "sums.rhai",
        "fn options(n) { if n > 1 { [sum(1, n - 2)] } else { [] } }",
        ScriptLimits::default(),
    )
    .unwrap();
    let error = sums.outcomes(10, u64::MAX, &mut |_| true).unwrap_err();
    assert!(error.to_string().contains("not sums"), "{error}");
}

/// A sweep asks the script for many states in one engine call, yet each
/// call of `options` keeps its own operations limit: a state that needs
/// about 5000 operations passes under a limit of 10^4 however many states
/// came before it in the batch, one that loops is stopped, and the error
/// names that state, not the batch.
#[test]
fn batched_sweeps_keep_each_calls_operations_limit_and_name_the_state() {
    let limits = ScriptLimits {
        operations: 10_000,
        ..ScriptLimits::default()
    };
    let busy = "fn options(n) { let x = 0; for i in 0..1000 { x += 1; } \
                if n == 3000 { loop {} } if n > 0 { [n - 1] } else { [] } }";
    let game = ScriptGame::compile("busy.rhai", busy, limits).unwrap();
    let found = game.outcomes(2000, u64::MAX, &mut |_| true).unwrap();
    // Subtract one: the even states are lost.
    assert!(found.losses().eq((0..2000).step_by(2)));
    let error = game
        .outcomes(4000, u64::MAX, &mut |_| true)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("options(3000) stopped after 10000 operations"),
        "{error}"
    );
}
