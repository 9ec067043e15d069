//! Shared by the benchmarks.

use std::time::{Duration, Instant};

/// The best of three runs of `run`.
pub fn best_of_three(mut run: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .expect("three runs")
}
