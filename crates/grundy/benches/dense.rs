//! Dense heap tables: the ruleset's own gather kernel against the baseline
//! of listing every option through `Ruleset::options` ([`Plain`], the
//! default `HeapRuleset::gather`), in the same process. Prints one ratio per
//! game.
//!
//! Run: `cargo bench -p grundy --bench dense`

use std::hint::black_box;

mod common;
use common::best_of_three;

use grundy::solve::{Engine, Plain};
use grundy::{HeapGame, TableSolver};

fn main() {
    let solver = TableSolver::new()
        .with_engine(Engine::Dense)
        .without_closed_forms();
    println!(
        "{:<16} {:>8} {:>12} {:>12} {:>8}",
        "game", "heaps", "baseline", "kernel", "speed-up"
    );
    for (name, to) in [
        ("grundy", 20_000),
        ("kayles", 20_000),
        ("dawsons-chess", 20_000),
        ("0.007", 20_000),
        ("sub(squares)", 200_000),
    ] {
        let game: HeapGame = name.parse().expect("a built-in game");
        let baseline = best_of_three(|| {
            black_box(solver.values(&Plain(&game), to).expect("values"));
        });
        let kernel = best_of_three(|| {
            black_box(solver.values(&game, to).expect("values"));
        });
        println!(
            "{name:<16} {to:>8} {:>10.1}ms {:>10.1}ms {:>7.1}x",
            baseline.as_secs_f64() * 1e3,
            kernel.as_secs_f64() * 1e3,
            baseline.as_secs_f64() / kernel.as_secs_f64()
        );
    }
}
