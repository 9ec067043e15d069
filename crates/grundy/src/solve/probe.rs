//! Where a sparse scan looks first.
//!
//! A scan (step 3 of the [sparse method](super::SparseSolver)) must find
//! every rare value below `c` among the splits `(a, rest - a)` of two
//! common heaps, and it reads them from `a = 1` on. Which pairs find them
//! soonest depends on the game: the first heaps' values are small, so the
//! first pairs are worth values near their partners' only, while the heaps
//! of some stretch further on can be worth the wanted values far more
//! often. The best point differs by game: counted on heaps past 2^21, a
//! probe of 2048 pairs from `a = 1000` cuts the pairs 0.161's scans read by
//! 30%, while Officers (0.6) and Grundy's game read more with it there and
//! about 30% fewer with a probe from any point past 10000, where 0.161
//! reads more (see docs/engine-history.md, "The scan's probe and the vector
//! fill"). No one point suits every game, so a run learns it: four heaps in
//! a row in 67 (in 269 past 2^17 heaps) try one of the candidates in turn
//! (no probe, or `a = 2^k + 1` for `k >= 8`, while the probe lies among the
//! heap's pairs), the first untimed (it brings the probe's pairs into the
//! cache), and the others use the candidate whose tries took the least
//! time, chosen again before every block of heaps; the tallies halve each
//! time the table doubles.
//! The scan after the probe still reads every pair from `a = 1`, so values
//! are exact whatever the choice; only the time and the counted pairs
//! depend on it.
//!
//! Each point is tried with and without the listed test of small sets of
//! one-byte values (see the `wanted` module), which is learned the same
//! way, since it pays on some games and costs time on others (see
//! docs/engine-history.md, "The listed test of small wanted sets").

use std::time::Duration;

use super::sparse::Scratch;
use super::wanted::can_list;

/// Pairs a probe reads (per splitting digit) before the scan from `a = 1`.
pub(super) const PROBE_PAIRS: usize = 2048;

/// A run of [`BURST`] heaps in this many tries a candidate, once the
/// table holds [`EXPLORE_OFTEN_BELOW`] heaps; one in [`EXPLORE_OFTEN`]
/// before. Both are odd primes, so that the heaps that try have every
/// residue modulo small periods (games of period 4 scan differently by
/// residue).
const EXPLORE_EVERY: usize = 269;
const EXPLORE_OFTEN: usize = 67;
const EXPLORE_OFTEN_BELOW: usize = 1 << 17;

/// Heaps in a row that try the same candidate; the first is not timed.
/// A probe reads a window of the table that moves one heap a heap, so the
/// heaps after the first find it in the cache, as every heap does for the
/// candidate in use: timed alone, a try pays for bringing its window in
/// and the candidate in use does not, which favours the incumbent by about
/// a fifth (see docs/engine-history.md, "Two threads: the crew's per-heap
/// costs and the probe's tries", item 4).
const BURST: usize = 4;

/// Probe points: index 0 is no probe, index `k >= 1` probes from
/// `2^(k + 7) + 1`.
const POINTS: usize = 24;

/// Candidates: candidate `c` probes at point `c / 2`, with the listed test
/// when `c` is odd.
const CANDIDATES: usize = 2 * POINTS;

/// The most nanoseconds one try counts for.
const LONGEST_TRY: u128 = 1_000_000;

/// Candidates slower than the best by more than this factor stop being
/// tried until the table doubles.
const CONTEND: f64 = 1.15;

/// A probe is chosen over none only when its tries took this factor less
/// time: for games whose scans take about as long from every point (0.376),
/// a probe that wins its tries by a hair costs more than it saves (see
/// docs/engine-history.md, "The scan's probe and the vector fill").
const PROBE_LEAD: f64 = 1.05;

/// Scans a candidate must have tried before it can be chosen.
const MIN_TRIES: u64 = 32;

/// The probe point of candidate `c` (0: none).
fn point(c: usize) -> usize {
    match c / 2 {
        0 => 0,
        k => (1 << (k + 7)) + 1,
    }
}

/// How a scan runs: where it probes first (0: no probe), and whether it
/// runs the listed test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) point: usize,
    pub(super) listed: bool,
}

impl Plan {
    fn of(c: usize) -> Plan {
        Plan {
            point: point(c),
            listed: c % 2 == 1,
        }
    }
}

/// The probe a run uses, learned from its scans.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    /// The candidate the heaps that do not try one use.
    best: usize,
    /// Candidates `0..active` fit the heaps of the table so far (kept by
    /// the run's probe; a thread's heaps read only `best` and the
    /// contenders).
    active: usize,
    /// The candidates the heaps that try take in turn, `contenders[..len]`:
    /// those with too few tries yet, and those within [`CONTEND`] of the
    /// best; a try of a clearly worse one only costs time.
    contenders: [u8; CANDIDATES],
    len: usize,
    /// Per candidate, the time its tries scanned and how many scans.
    nanos: [u64; CANDIDATES],
    tries: [u64; CANDIDATES],
    /// Whether the CPU runs the listed test: if not, the candidates with
    /// it are not tried.
    lists: bool,
}

impl Default for Probe {
    fn default() -> Probe {
        Probe {
            best: 0,
            active: 0,
            lists: can_list(),
            contenders: [0; CANDIDATES],
            len: 0,
            nanos: [0; CANDIDATES],
            tries: [0; CANDIDATES],
        }
    }
}

impl Probe {
    /// The plan for heap `n`, and the candidate it tries, if it is one of
    /// the heaps that try.
    #[inline(always)]
    pub(super) fn plan_for(&self, n: usize) -> (Plan, Option<usize>) {
        let every = if n < EXPLORE_OFTEN_BELOW {
            EXPLORE_OFTEN
        } else {
            EXPLORE_EVERY
        };
        if self.len > 1 && n % every < BURST {
            let c = usize::from(self.contenders[(n / every) % self.len]);
            (Plan::of(c), (!n.is_multiple_of(every)).then_some(c))
        } else {
            (Plan::of(self.best), None)
        }
    }

    /// Records a scan that took `time` by a heap that tried candidate
    /// `k`. A scan is timed rather than its pairs counted: the pairs are
    /// counted by whole blocks, and a probe's by its whole length, which
    /// would weigh against the probes.
    #[inline(always)]
    pub(super) fn record(&mut self, k: usize, time: Duration) {
        // A scan descheduled by other work must not decide alone.
        self.nanos[k] += time.as_nanos().min(LONGEST_TRY) as u64;
        self.tries[k] += 1;
    }

    /// Takes in the tries the threads' scratches recorded, chooses the
    /// best candidate, and hands the choice to every scratch, for a table
    /// of `heaps` heaps.
    pub(super) fn learn(&mut self, heaps: usize, scratches: &mut [Scratch]) {
        for scratch in scratches.iter_mut() {
            let tried = &mut scratch.probe;
            for k in 0..CANDIDATES {
                self.nanos[k] += std::mem::take(&mut tried.nanos[k]);
                self.tries[k] += std::mem::take(&mut tried.tries[k]);
            }
        }
        // A probe fits when its pairs lie below half the table: among a
        // heap's pairs (the scan checks that they do).
        self.active = 2
            * ((1..POINTS)
                .take_while(|&k| point(2 * k) + PROBE_PAIRS <= heaps / 2)
                .count()
                + 1);
        let mean = |k: usize| self.nanos[k] as f64 / self.tries[k] as f64;
        let lists = self.lists;
        let fitting = (0..self.active).filter(|&c| lists || c % 2 == 0);
        if let Some(best) = fitting
            .clone()
            .filter(|&k| self.tries[k] >= MIN_TRIES)
            .min_by(|&a, &b| mean(a).total_cmp(&mean(b)))
        {
            // A probe must win clearly over none (with the same test):
            // its cost to the heaps after it (lines brought into the cache)
            // is not in its time.
            let none = best % 2;
            let none_wins = self.tries[none] >= MIN_TRIES && mean(best) * PROBE_LEAD > mean(none);
            self.best = if none_wins { none } else { best };
        }
        self.len = 0;
        let best = (self.tries[self.best] >= MIN_TRIES).then(|| mean(self.best));
        for k in fitting {
            if self.tries[k] < MIN_TRIES || best.is_none_or(|best| mean(k) <= CONTEND * best) {
                self.contenders[self.len] = k as u8;
                self.len += 1;
            }
        }
        for scratch in scratches {
            scratch.probe.best = self.best;
            scratch.probe.contenders = self.contenders;
            scratch.probe.len = self.len;
        }
    }

    /// Halves the tallies of the contenders, so that the tries of recent
    /// heaps weigh more (the best point moves as the table grows), and
    /// forgets those of the others, which are tried again.
    pub(super) fn age(&mut self) {
        let contenders = &self.contenders[..self.len];
        for k in 0..CANDIDATES {
            let contends = contenders.contains(&(k as u8));
            for tally in [&mut self.nanos[k], &mut self.tries[k]] {
                *tally = if contends { *tally / 2 } else { 0 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BURST, CANDIDATES, EXPLORE_OFTEN, MIN_TRIES, Plan, Probe, point};
    use crate::solve::sparse::Scratch;
    use std::time::Duration;

    #[test]
    fn the_probe_goes_where_the_tries_scanned_least() {
        let mut probe = Probe {
            lists: true,
            ..Probe::default()
        };
        assert_eq!(
            probe.plan_for(0),
            (Plan::of(0), None),
            "no probe before any try"
        );
        let mut scratches = vec![Scratch::default(), Scratch::default()];
        let heaps = 1 << 20;
        probe.learn(heaps, &mut scratches);
        let active = probe.active;
        assert!(active > 4 && point(active - 1) + super::PROBE_PAIRS <= heaps / 2);
        // Candidate 3's scans take 100 ns, the others' 1000.
        for (i, scratch) in scratches.iter_mut().enumerate() {
            for k in 0..active {
                for _ in 0..MIN_TRIES {
                    let nanos = if k == 3 { 100 } else { 1000 + i as u64 };
                    scratch.probe.record(k, Duration::from_nanos(nanos));
                }
            }
        }
        probe.learn(heaps, &mut scratches);
        assert_eq!(probe.best, 3);
        for scratch in &scratches {
            assert_eq!(scratch.probe.plan_for(1), (Plan::of(3), None));
            assert!(scratch.probe.nanos.iter().all(|&p| p == 0));
        }
        // The others, ten times slower, are no longer tried ...
        assert_eq!(probe.plan_for(0), (Plan::of(3), None));
        assert_eq!(
            Plan::of(3),
            Plan {
                point: point(2),
                listed: true
            }
        );
        // ... until the table doubles: then runs of heaps of a short table
        // try each candidate in turn again, the first of a run untimed.
        probe.age();
        probe.learn(2 * heaps, &mut scratches);
        assert_eq!(probe.best, 3);
        for k in 0..probe.active {
            let first = k * EXPLORE_OFTEN;
            assert_eq!(probe.plan_for(first), (Plan::of(k), None));
            for n in first + 1..first + BURST {
                assert_eq!(probe.plan_for(n), (Plan::of(k), Some(k)));
            }
            assert_eq!(probe.plan_for(first + BURST), (Plan::of(3), None));
        }
    }

    /// On a CPU without the listed test, no candidate with it is tried or
    /// chosen, however fast its tries were.
    #[test]
    fn the_listed_test_is_not_tried_where_it_does_not_run() {
        let mut probe = Probe {
            lists: false,
            ..Probe::default()
        };
        let mut scratches = vec![Scratch::default()];
        let heaps = 1 << 20;
        for k in 0..CANDIDATES {
            for _ in 0..MIN_TRIES {
                let nanos = if k % 2 == 1 { 100 } else { 1000 + k as u64 };
                scratches[0].probe.record(k, Duration::from_nanos(nanos));
            }
        }
        probe.learn(heaps, &mut scratches);
        assert_eq!(probe.best, 0);
        assert!(probe.contenders[..probe.len].iter().all(|&c| c % 2 == 0));
        assert!(probe.len > 1);
    }
}
