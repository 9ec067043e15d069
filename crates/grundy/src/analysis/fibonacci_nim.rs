//! Fibonacci Nim solved ([`FibonacciNim`]): who wins and the least winning
//! take, by Whinihan's theorem (Zeckendorf representations) for the ratio
//! 2 and by a table for other ratios.

use crate::error::human_bytes_near;
use crate::rules::{FibonacciNim, Ratio};
use crate::{Error, Result};

/// Who wins a position of [`FibonacciNim`] and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeOutcome {
    /// Whether the player to move wins.
    pub first_player_wins: bool,
    /// Winning takes, in increasing order: all of them when the position
    /// was tabulated, else the one the theorem gives.
    pub winning_takes: Vec<u64>,
    /// The Zeckendorf representation of the heap (for `c = 2`), largest
    /// term first.
    pub zeckendorf: Option<Vec<u64>>,
}

/// The Zeckendorf representation of `n`: its greedy decomposition into
/// non-consecutive Fibonacci numbers, largest first.
///
/// ```
/// assert_eq!(grundy::analysis::zeckendorf(100), [89, 8, 3]);
/// ```
pub fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut fibonacci = vec![1u64, 2];
    while let Some(next) =
        fibonacci[fibonacci.len() - 2].checked_add(fibonacci[fibonacci.len() - 1])
    {
        if next > n {
            break;
        }
        fibonacci.push(next);
    }
    let mut terms = Vec::new();
    for &f in fibonacci.iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms
}

impl FibonacciNim {
    /// `w(0..=to)`, the least winning take of each heap when any take is
    /// allowed (`u64::MAX` for the empty heap, where the mover has lost).
    ///
    /// Heap `n` tries the takes `1..=w(n)`, so the table costs the sum of
    /// the least winning takes: about `to^2 / 2` where they grow with the
    /// heap (a large ratio makes the game Nim-like). It stops with
    /// [`Error::WorkLimit`] once the takes tried pass `work_limit`, and at
    /// the thread's [`Cancel`](crate::Cancel) token.
    pub fn least_winning_takes(
        &self,
        to: u64,
        memory_limit: u64,
        work_limit: u64,
    ) -> Result<Vec<u64>> {
        let needed = (u128::from(to) + 1) * 8;
        if needed > u128::from(memory_limit) || usize::try_from(to).is_err() {
            return Err(Error::TableTooLarge {
                to,
                needed: human_bytes_near(needed, u128::from(memory_limit)),
                limit: human_bytes_near(u128::from(memory_limit), needed),
            });
        }
        let mut least = vec![u64::MAX];
        let mut tried = 0u128;
        for n in 1..=to {
            // Taking everything always wins, so the search ends by t = n.
            let w = (1..=n)
                .find(|&t| least[(n - t) as usize] > self.ratio.limit_after(t).min(n - t))
                .unwrap_or(n);
            least.push(w);
            tried += u128::from(w);
            if tried > u128::from(work_limit) {
                return Err(Error::WorkLimit {
                    what: format!(
                        "the table of Fibonacci Nim (ratio {}) to heap {to}, past heap {n},",
                        self.ratio
                    ),
                    at_least: tried,
                    limit: work_limit,
                });
            }
            if n.is_multiple_of(4096) {
                crate::cancel::check()?;
            }
        }
        Ok(least)
    }

    /// Who wins `(heap, limit)` and with which takes: by Whinihan's theorem
    /// for `c = 2` when the heap is past `table_to`, else from the table
    /// of least winning takes (every winning take listed), within
    /// `memory_limit` and `work_limit` ([`FibonacciNim::least_winning_takes`]).
    pub fn outcome(
        &self,
        heap: u64,
        limit: u64,
        table_to: u64,
        memory_limit: u64,
        work_limit: u64,
    ) -> Result<TakeOutcome> {
        let limit = limit.min(heap);
        let zeckendorf = (self.ratio == Ratio::whole(2)).then(|| zeckendorf(heap));
        if heap > table_to {
            let Some(terms) = zeckendorf else {
                return Err(Error::InvalidRange {
                    reason: format!(
                        "a heap of {heap} is past the table ({table_to}); only c = 2 has a \
                         theorem for any heap"
                    ),
                });
            };
            let smallest = terms.last().copied().unwrap_or(u64::MAX);
            let wins = heap > 0 && smallest <= limit;
            return Ok(TakeOutcome {
                first_player_wins: wins,
                winning_takes: if wins { vec![smallest] } else { Vec::new() },
                zeckendorf: Some(terms),
            });
        }
        let least = self.least_winning_takes(heap, memory_limit, work_limit)?;
        let winning_takes: Vec<u64> = (1..=limit)
            .filter(|&t| least[(heap - t) as usize] > self.ratio.limit_after(t).min(heap - t))
            .collect();
        Ok(TakeOutcome {
            first_player_wins: !winning_takes.is_empty(),
            winning_takes,
            zeckendorf,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoSolver;

    #[test]
    fn zeckendorf_terms_are_greedy_and_non_consecutive() {
        assert_eq!(zeckendorf(0), Vec::<u64>::new());
        assert_eq!(zeckendorf(1), [1]);
        assert_eq!(zeckendorf(4), [3, 1]);
        assert_eq!(zeckendorf(u64::MAX).iter().sum::<u64>(), u64::MAX);
    }

    #[test]
    fn whinihans_theorem_matches_search() {
        let game = FibonacciNim::FIBONACCI;
        let mut solver = MemoSolver::new(&game);
        let least = game.least_winning_takes(150, 1 << 20, u64::MAX).unwrap();
        for heap in 1..=150u64 {
            assert_eq!(
                least[heap as usize],
                *zeckendorf(heap).last().unwrap(),
                "w({heap})"
            );
            for limit in 1..=heap {
                let wins = !solver.value(&(heap, limit)).unwrap().is_zero();
                let by_theorem = game.outcome(heap, limit, 0, 1 << 20, u64::MAX).unwrap();
                let by_table = game
                    .outcome(heap, limit, u64::MAX, 1 << 20, u64::MAX)
                    .unwrap();
                assert_eq!(by_theorem.first_player_wins, wins, "({heap}, {limit})");
                assert_eq!(by_table.first_player_wins, wins, "({heap}, {limit})");
                for &take in by_theorem
                    .winning_takes
                    .iter()
                    .chain(&by_table.winning_takes)
                {
                    let next = (heap - take, (2 * take).min(heap - take));
                    assert!(
                        solver.value(&next).unwrap().is_zero(),
                        "({heap}, {limit}) - {take}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_ratios_are_tabulated_and_match_search() {
        let ratios = ["1", "3", "4", "3/2", "1.5", "5/3", "0.5", "2.25"];
        for ratio in ratios.map(|r| r.parse::<Ratio>().unwrap()) {
            let game = FibonacciNim { ratio };
            let mut solver = MemoSolver::new(&game);
            for heap in 1..=80u64 {
                for limit in 1..=heap {
                    let found = game
                        .outcome(heap, limit, u64::MAX, 1 << 20, u64::MAX)
                        .unwrap();
                    let wins = !solver.value(&(heap, limit)).unwrap().is_zero();
                    assert_eq!(
                        found.first_player_wins, wins,
                        "c = {ratio} ({heap}, {limit})"
                    );
                }
            }
            assert!(game.outcome(1 << 40, 5, 1000, 1 << 20, u64::MAX).is_err());
        }
    }

    #[test]
    fn ratios_are_exact_and_refuse_what_is_not_one() {
        let r: Ratio = "1.5".parse().unwrap();
        assert_eq!(r, Ratio::new(3, 2).unwrap());
        assert_eq!(r.to_string(), "3/2");
        assert_eq!("6/4".parse::<Ratio>().unwrap(), r);
        assert_eq!("2".parse::<Ratio>().unwrap(), Ratio::whole(2));
        // floor(1.618 t), with no rounding error: 1618 t / 1000.
        let golden: Ratio = "1.618".parse().unwrap();
        assert_eq!(golden.limit_after(1000), 1618);
        assert_eq!(golden.limit_after(999), 1616);
        for bad in [
            "0",
            "0/3",
            "3/0",
            "-1",
            "x",
            "1.5.2",
            "",
            "1.0000000000000000001",
        ] {
            assert!(bad.parse::<Ratio>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_table_past_its_work_limit_is_refused() {
        // A ratio of 10^6 makes the game Nim-like: the least winning take
        // of heap n is n itself, and the table tries n^2 / 2 takes.
        let game = FibonacciNim {
            ratio: Ratio::new(1_000_000, 1).unwrap(),
        };
        match game.least_winning_takes(100_000, 1 << 30, 1_000_000) {
            Err(Error::WorkLimit { limit, .. }) => assert_eq!(limit, 1_000_000),
            other => panic!("not refused: {:?}", other.map(|t| t.len())),
        }
        assert_eq!(
            game.least_winning_takes(1000, 1 << 30, 1_000_000)
                .unwrap()
                .len(),
            1001
        );
    }
}
