//! Heap games whose moves depend on the divisors of the heap size.
//!
//! - `proper-divisors`: remove a proper divisor `d` of `n` (`d | n`,
//!   `d < n`); heap 1 has no move.
//! - `divisors`: remove any divisor of `n`, the whole heap included.
//! - `equal-split`: split the heap into `k >= 2` equal heaps, for a divisor
//!   `k` of `n` (the impartial form of Maundy cake's cuts; `k` equal heaps
//!   are worth `g(n/k)` when `k` is odd and 0 when it is even).
//! - `mark`: remove one token, or halve the heap rounding down (MARK, OEIS
//!   A229764).

use std::fmt;
use std::ops::ControlFlow;

use crate::{HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// A divisor-based heap game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivisorGame {
    /// Remove a proper divisor.
    ProperDivisors,
    /// Remove any divisor.
    Divisors,
    /// Split into `k >= 2` equal heaps, `k | n`.
    EqualSplit,
    /// Remove one token or halve, rounding down.
    Mark,
}

impl DivisorGame {
    /// The game named `name`, if it is one of these.
    pub fn named(name: &str) -> Option<DivisorGame> {
        match name {
            "proper-divisors" => Some(DivisorGame::ProperDivisors),
            "divisors" => Some(DivisorGame::Divisors),
            "equal-split" => Some(DivisorGame::EqualSplit),
            "mark" => Some(DivisorGame::Mark),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            DivisorGame::ProperDivisors => "proper-divisors",
            DivisorGame::Divisors => "divisors",
            DivisorGame::EqualSplit => "equal-split",
            DivisorGame::Mark => "mark",
        }
    }

    /// Calls `f` with every divisor `d` of `n >= 1`, in no particular order.
    fn for_each_divisor(n: usize, mut f: impl FnMut(usize)) {
        let mut d = 1;
        while d * d <= n {
            if n.is_multiple_of(d) {
                f(d);
                if d * d != n {
                    f(n / d);
                }
            }
            d += 1;
        }
    }

    /// Calls `f` with each move as `(heap size, copies)`: the move leaves
    /// `copies` heaps of that size (none when the size is 0).
    fn for_each_move(self, n: usize, mut f: impl FnMut(usize, usize)) {
        if n == 0 {
            return;
        }
        match self {
            DivisorGame::ProperDivisors => {
                Self::for_each_divisor(n, |d| {
                    if d < n {
                        f(n - d, 1);
                    }
                });
            }
            DivisorGame::Divisors => Self::for_each_divisor(n, |d| f(n - d, 1)),
            DivisorGame::EqualSplit => {
                Self::for_each_divisor(n, |k| {
                    if k >= 2 {
                        f(n / k, k);
                    }
                });
            }
            DivisorGame::Mark => {
                f(n - 1, 1);
                f(n / 2, 1);
            }
        }
    }
}

impl fmt::Display for DivisorGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Ruleset for DivisorGame {
    type Position = usize;

    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        let _ = self.visit_options(n, &mut |parts| {
            out.push(parts.iter().copied());
            ControlFlow::Continue(())
        });
    }
}

impl HeapRuleset for DivisorGame {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        _max: Nimber,
        seen: &mut MexScratch,
        _scratch: &mut Options<usize>,
    ) -> Result<()> {
        // `copies` equal heaps are worth the heap's value when their number
        // is odd and nothing when it is even.
        self.for_each_move(n, |size, copies| {
            let value = if size == 0 || copies.is_multiple_of(2) {
                Nimber::ZERO
            } else {
                values[size]
            };
            seen.insert(value);
        });
        Ok(())
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // At most `n` moves: the rest are skipped once `visit` breaks.
        let mut parts = Vec::new();
        let mut flow = ControlFlow::Continue(());
        self.for_each_move(n, |size, copies| {
            if flow.is_continue() {
                parts.clear();
                if size > 0 {
                    parts.resize(copies, size);
                }
                flow = visit(&parts);
            }
        });
        flow
    }
}
