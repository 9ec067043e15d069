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
    // On the compiled fast path (its module's tests hold it to Rhai).
    assert!(game.is_compiled());
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
/// names that state, not the batch. The same holds on the compiled fast
/// path, which hands the looping state to Rhai.
#[test]
fn batched_sweeps_keep_each_calls_operations_limit_and_name_the_state() {
    let limits = ScriptLimits {
        operations: 10_000,
        ..ScriptLimits::default()
    };
    let busy = "fn options(n) { let x = 0; for i in 0..1000 { x += 1; } \
                if n == 3000 { loop {} } if n > 0 { [n - 1] } else { [] } }";
    let compiled = ScriptGame::compile("busy.rhai", busy, limits.clone()).unwrap();
    assert!(compiled.is_compiled());
    let interpreted = ScriptGame::compile("busy.rhai", busy, limits.clone())
        .unwrap()
        .interpreted_only();
    for game in [compiled, interpreted] {
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
}

/// A sweep on `threads` threads: the outcomes, or the error as text, and
/// what the script printed.
fn sweep_on(
    source: &str,
    limits: ScriptLimits,
    states: u64,
    threads: usize,
) -> (Result<Vec<u64>, String>, Vec<String>) {
    let game = ScriptGame::compile("game.rhai", source, limits)
        .unwrap()
        .with_threads(threads);
    let found = game
        .outcomes(states, u64::MAX, &mut |_| true)
        .map(|found| found.losses().collect())
        .map_err(|e| e.to_string());
    (found, game.printed())
}

/// A rule drawn at random: subtract any of `takes`, divide by `divisor`,
/// and on states `n % modulus == rest` move to `n * factor % n`; states
/// that are multiples of 997 print a line.
fn random_rule(takes: &[u64], divisor: u64, modulus: u64, rest: u64, factor: u64) -> String {
    let takes: Vec<String> = takes.iter().map(u64::to_string).collect();
    format!(
        "fn options(n) {{ let out = []; \
         for t in [{}] {{ if t <= n {{ out.push(n - t); }} }} \
         if n > 0 {{ out.push(n / {divisor}); }} \
         if n > 0 && n % {modulus} == {rest} {{ out.push(n * {factor} % n); }} \
         if n % 997 == 0 {{ print(`at ${{n}}`); }} \
         out }}",
        takes.join(", ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// On any number of threads a sweep gives what it gives on one: the
    /// same outcomes and the same printed log, in the same order.
    #[test]
    fn parallel_sweeps_equal_one_thread(
        takes in prop::collection::vec(1u64..40, 1..5),
        divisor in 2u64..7,
        modulus in 1u64..9,
        rest in 0u64..9,
        factor in 0u64..50,
        states in 1u64..6000,
    ) {
        let source = random_rule(&takes, divisor, modulus, rest % modulus, factor);
        let one = sweep_on(&source, ScriptLimits::default(), states, 1);
        prop_assert!(one.0.is_ok(), "{:?}", one.0);
        for threads in [2, 3, 5] {
            prop_assert_eq!(&sweep_on(&source, ScriptLimits::default(), states, threads), &one);
        }
    }
}

/// The error of a parallel sweep is the one of the first state in order
/// that fails, whatever thread met it first, and the log holds what the
/// states before it printed: here a state that moves up (2050), a throw
/// (3000) and an endless loop (6000), in batches that run at once.
#[test]
fn parallel_sweeps_fail_at_the_first_failing_state() {
    let limits = ScriptLimits {
        operations: 10_000,
        ..ScriptLimits::default()
    };
    let failing = |cases: &str| {
        format!(
            "fn options(n) {{ {cases} if n % 500 == 0 {{ print(`at ${{n}}`); }} \
             if n > 0 {{ [n - 1] }} else {{ [] }} }}"
        )
    };
    for (cases, error) in [
        (
            "if n == 6000 { loop {} } if n == 3000 { throw \"bad\"; } if n == 2050 { return [n + 1]; }",
            "state 2050 has an option 2051",
        ),
        (
            "if n == 6000 { loop {} } if n == 3000 { throw \"bad\"; }",
            "options(3000)",
        ),
        (
            "if n == 6000 { loop {} } if n == 7000 { throw \"bad\"; }",
            "options(6000) stopped after 10000 operations",
        ),
    ] {
        let source = failing(cases);
        let (found, printed) = sweep_on(&source, limits.clone(), 9000, 1);
        let found = found.unwrap_err();
        assert!(found.contains(error), "{found}");
        for threads in [2, 4, 7] {
            assert_eq!(
                sweep_on(&source, limits.clone(), 9000, threads),
                (Err(found.clone()), printed.clone()),
                "{threads} threads"
            );
        }
    }
}

/// Each call keeps its operations limit on every thread, and the time
/// limit and a cancelled token stop every thread of a sweep.
#[test]
fn parallel_sweeps_keep_the_limits_and_stop_when_cancelled() {
    let limits = ScriptLimits {
        operations: 10_000,
        ..ScriptLimits::default()
    };
    let busy = "fn options(n) { let x = 0; for i in 0..1000 { x += 1; } \
                if n == 30000 { loop {} } if n > 0 { [n - 1] } else { [] } }";
    let (found, _) = sweep_on(busy, limits.clone(), 20_000, 4);
    assert!(found.unwrap().into_iter().eq((0..20_000).step_by(2)));
    let (found, _) = sweep_on(busy, limits, 40_000, 4);
    let error = found.unwrap_err();
    assert!(
        error.contains("options(30000) stopped after 10000 operations"),
        "{error}"
    );
    // Endless calls, without an operations limit: the time limit stops them.
    let spin = "fn options(n) { if n >= 5000 { loop {} } if n > 0 { [n - 1] } else { [] } }";
    let timed = ScriptLimits {
        operations: 0,
        time: std::time::Duration::from_millis(300),
        ..ScriptLimits::default()
    };
    let started = std::time::Instant::now();
    let (found, _) = sweep_on(spin, timed, 100_000, 4);
    let error = found.unwrap_err();
    assert!(error.contains("time limit"), "{error}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    // A token cancelled from another thread stops them too.
    let untimed = ScriptLimits {
        operations: 0,
        time: std::time::Duration::from_secs(3600),
        ..ScriptLimits::default()
    };
    let game = ScriptGame::compile("spin.rhai", spin, untimed)
        .unwrap()
        .with_threads(4);
    let token = grundy::Cancel::new();
    let canceller = token.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        canceller.cancel();
    });
    let found = token.run(|| game.outcomes(100_000, u64::MAX, &mut |_| true));
    stopper.join().unwrap();
    assert_eq!(found, Err(grundy::Error::Cancelled));
}
