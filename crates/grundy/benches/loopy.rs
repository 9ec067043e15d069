//! Games with cycles: the generalized Sprague–Grundy labelling and the
//! retrograde win/lose/draw analysis on a random graph, against the plain
//! acyclic solver (`GameGraph::solve`) on a random DAG of the same size, in
//! the same process. Prints edges per second and the ratios.
//!
//! Run: `cargo bench -p grundy --bench loopy`

use std::time::Duration;

mod common;
use common::best_of_three;

use grundy::rules::GameGraph;
use grundy::solve::{Adjacency, loopy_values, retrograde};

const POSITIONS: usize = 1_000_000;
const MOVES_EACH: usize = 4;

/// A pseudo-random graph: each position gets `MOVES_EACH` moves, to any
/// position (`cyclic`) or only to smaller ones (a DAG). xorshift, seeded.
fn random_graph(cyclic: bool) -> (Vec<usize>, Vec<u32>) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut starts = vec![0];
    let mut targets = Vec::with_capacity(POSITIONS * MOVES_EACH);
    for p in 0..POSITIONS {
        for _ in 0..MOVES_EACH {
            let bound = if cyclic { POSITIONS } else { p };
            if bound > 0 {
                // Mostly short moves, so values stay small as in real games.
                let reach = (next() % 64) as usize + 1;
                let to = if cyclic && next() % 8 == 0 {
                    (p + reach) % POSITIONS
                } else {
                    p.saturating_sub(reach)
                };
                if to < bound || cyclic {
                    targets.push(to as u32);
                }
            }
        }
        starts.push(targets.len());
    }
    (starts, targets)
}

fn edge_list((starts, targets): &(Vec<usize>, Vec<u32>)) -> String {
    let mut text = String::new();
    for p in 0..starts.len() - 1 {
        if starts[p] == starts[p + 1] {
            text.push_str(&format!("p{p}\n"));
        }
        for &q in &targets[starts[p]..starts[p + 1]] {
            text.push_str(&format!("p{p} p{q}\n"));
        }
    }
    text
}

fn main() {
    let dag = random_graph(false);
    let dag_graph = GameGraph::parse(&edge_list(&dag)).expect("a valid graph");
    let baseline = best_of_three(|| {
        dag_graph.solve().expect("acyclic");
    });
    let cyclic = random_graph(true);
    let graph = Adjacency {
        starts: &cyclic.0,
        targets: &cyclic.1,
    };
    let mut largest = 0;
    let labelling = best_of_three(|| {
        let values = loopy_values(graph).expect("values");
        largest = values.len();
    });
    let plain = best_of_three(|| {
        retrograde(graph);
    });
    let edges = cyclic.1.len() as f64;
    let rate = |d: Duration| edges / d.as_secs_f64() / 1e6;
    println!("{POSITIONS} positions, {} moves", cyclic.1.len());
    println!(
        "baseline: acyclic GameGraph::solve (DAG, {} moves)  {:>8.1} ms  {:>6.1} M moves/s",
        dag.1.len(),
        baseline.as_secs_f64() * 1e3,
        dag.1.len() as f64 / baseline.as_secs_f64() / 1e6
    );
    println!(
        "loopy_values (generalized Grundy)           {:>8.1} ms  {:>6.1} M moves/s  {:.2}x the baseline's time",
        labelling.as_secs_f64() * 1e3,
        rate(labelling),
        labelling.as_secs_f64() / baseline.as_secs_f64()
    );
    println!(
        "retrograde (win/lose/draw, remoteness)      {:>8.1} ms  {:>6.1} M moves/s  {:.2}x the baseline's time",
        plain.as_secs_f64() * 1e3,
        rate(plain),
        plain.as_secs_f64() / baseline.as_secs_f64()
    );
    assert_eq!(largest, POSITIONS);
}
