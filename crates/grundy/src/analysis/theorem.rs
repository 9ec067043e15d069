//! Theorems that turn a finite check into a proof of periodicity.
//!
//! Each theorem says: if `g(n + p) = g(n)` for every `n` in a finite window
//! `n0 <= n < B`, then it holds for every `n >= n0`. Checking the window needs
//! the values of heaps `0..=B - 1 + p`; [`Theorem::last_heap_needed`] gives
//! that index, so callers compute exactly as far as the proof requires.

use serde::{Deserialize, Serialize};

use crate::{HeapGame, SubtractionSet};

/// A periodicity theorem that applies to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "theorem", rename_all = "kebab-case")]
pub enum Theorem {
    /// A subtraction game with a finite set whose largest element is `s`.
    ///
    /// `g(n)` is the mex of `g(n - s_i)` over the `s_i <= n`, so for `n >= s`
    /// it depends only on the `s` values before it. If `g(n + p) = g(n)` for
    /// `n0 <= n < n0 + s`, then for `n >= n0 + s` every `n - s_i` lies in
    /// `[n0, n)`, so by induction `g(n + p) = mex g(n + p - s_i) =
    /// mex g(n - s_i) = g(n)`. Window end `B = n0 + s`.
    SubtractionWindow {
        /// The largest amount a move removes.
        largest_move: usize,
    },

    /// A take-and-break game without constraints on the parts, removing at
    /// most `t` tokens and leaving at most `h` heaps: the octal periodicity
    /// theorem (Guy & Smith 1956), generalised to `h` heaps.
    ///
    /// Let `m = max(n0, 1)` and `B = h(m + p - 1) + 2 + t - p`. If
    /// `g(n + p) = g(n)` for `n0 <= n < B`, it holds for all `n >= n0`.
    ///
    /// Proof, by induction on `n >= B` (assume it for `n0 <= x < n`). A move
    /// from `n + p` removes `j <= t` tokens and leaves at most `h` parts
    /// summing to `n + p - j >= h(m + p - 1) + 2`, so by pigeonhole some part
    /// `a >= m + p`. Replacing it with `a - p >= m >= 1` gives a move of the
    /// same digit from `n` (no constraint can be violated, since there are
    /// none), and `g(a) = g(a - p)` because `n0 <= a - p < n`. Conversely a
    /// move from `n` leaves parts summing to `n - j >= h(m - 1) + 1`, so some
    /// part `a >= m`; replacing it with `a + p` gives a move from `n + p` with
    /// the same value. One-heap moves are the case of one part, and a move
    /// that leaves nothing needs `n + p = j <= t`, impossible here. So both
    /// option sets have the same values and `g(n + p) = g(n)`.
    ///
    /// With `h = 2` the window is `n0 <= n < 2m + p + t`, exactly Guy and
    /// Smith's bound. Starting from `m` rather than `n0` avoids shifting a
    /// part down to an empty heap, which would turn a split into a different
    /// move.
    TakeBreak {
        /// The most tokens a move removes.
        max_take: usize,
        /// The most heaps a move leaves (at least 1 in the bound).
        max_parts: usize,
    },

    /// A coin-turning rule whose moves turn a run of consecutive coins
    /// ending at the one turned from heads to tails, of allowed lengths up
    /// to `L` (`runs(a,b,...)`, `ruler(k)`; Winning Ways ch. 14).
    ///
    /// Coin `n` is worth `g(n) = mex { g(n-1) ^ ... ^ g(n-j) }` over the
    /// allowed lengths `j + 1 <= n`, so for `n >= L` it depends only on the
    /// `L - 1` values before it (and there are at most `L` options, so
    /// every value is at most `L`, and the sequence is eventually periodic:
    /// its states are finitely many). Let `m = max(n0, 1)`. If `g(n + p) =
    /// g(n)` for `n0 <= n < m + L - 1`, then for `n >= m + L - 1` (so `n
    /// >= L`) every `n - j`, `1 <= j <= L - 1`, lies in `[m, n)`, and by
    /// induction `g(n + p) = g(n)`. Window end `B = m + L - 1`.
    CoinRuns {
        /// The longest run a move turns.
        longest_run: usize,
    },
}

impl Theorem {
    /// The theorem that applies to `game`, if any.
    ///
    /// None applies to infinite subtraction sets, to codes with a repeating
    /// block (they may remove any number of tokens) or to codes whose digits
    /// constrain the parts (`!`: the shift in the proof can make two parts
    /// equal, so Grundy's game `4!.0` is not covered) or may leave any
    /// number of heaps (`{2+}`).
    pub fn for_game(game: &HeapGame) -> Option<Theorem> {
        match game {
            HeapGame::Subtraction(sub) => match sub.set() {
                SubtractionSet::Finite(amounts) => Some(Theorem::SubtractionWindow {
                    largest_move: *amounts.last()?,
                }),
                _ => None,
            },
            HeapGame::TakeBreak(code) if !code.has_constraints() => Some(Theorem::TakeBreak {
                max_take: code.max_take()?,
                max_parts: code.max_parts()?,
            }),
            HeapGame::TakeBreak(_) | HeapGame::Divisor(_) => None,
        }
    }

    /// The theorem that applies to a heap ruleset: the one for the built-in
    /// game it is ([`crate::HeapRuleset::as_heap_game`]), none for rules
    /// given only by their options (scripts, callbacks).
    pub fn for_rules<G: crate::HeapRuleset + ?Sized>(rules: &G) -> Option<Theorem> {
        Theorem::for_game(rules.as_heap_game()?)
    }

    /// Where the window `n0 <= n < B` of the theorem ends (`B`), for
    /// pre-period `n0` and period `p`; `None` on overflow.
    pub fn window_end(&self, preperiod: usize, period: usize) -> Option<usize> {
        match *self {
            Theorem::SubtractionWindow { largest_move } => preperiod.checked_add(largest_move),
            Theorem::TakeBreak {
                max_take,
                max_parts,
            } => {
                let m = preperiod.max(1);
                let h = max_parts.max(1);
                h.checked_mul(m.checked_add(period)? - 1)?
                    .checked_add(2 + max_take)?
                    .checked_sub(period)
            }
            Theorem::CoinRuns { longest_run } => {
                preperiod.max(1).checked_add(longest_run.max(1) - 1)
            }
        }
    }

    /// The largest heap whose value the proof needs: `B - 1 + p`.
    pub fn last_heap_needed(&self, preperiod: usize, period: usize) -> Option<usize> {
        (self.window_end(preperiod, period)? - 1).checked_add(period)
    }

    /// The longest period a proof within heaps `0..heaps` can prove: the
    /// largest `p` with [`Self::last_heap_needed`]`(0, p) < heaps`, or 0
    /// when none fits. The bound grows with the pre-period and with the
    /// period (every theorem's `B - 1 + p` does), so no period past this one
    /// is proven from these heaps, whatever its pre-period; a search for
    /// periods to prove need not look for longer ones.
    pub fn longest_provable_period(&self, heaps: usize) -> usize {
        let fits = |p: usize| self.last_heap_needed(0, p).is_some_and(|last| last < heaps);
        // Binary search for the last period that fits: `fits` holds on a
        // prefix of 1, 2, ...
        let (mut low, mut high) = (0, heaps);
        while low < high {
            let mid = low + (high - low).div_ceil(2);
            if fits(mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        low
    }

    /// A short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            Theorem::SubtractionWindow { .. } => "subtraction-game window",
            Theorem::TakeBreak { .. } => "octal periodicity theorem (Guy-Smith)",
            Theorem::CoinRuns { .. } => "coin-run window",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theorem(spec: &str) -> Option<Theorem> {
        Theorem::for_game(&spec.parse().unwrap())
    }

    #[test]
    fn which_games_have_a_theorem() {
        assert_eq!(
            theorem("kayles"),
            Some(Theorem::TakeBreak {
                max_take: 2,
                max_parts: 2
            })
        );
        assert_eq!(
            theorem("sub(2,5,7)"),
            Some(Theorem::SubtractionWindow { largest_move: 7 })
        );
        assert_eq!(theorem("grundy"), None);
        assert_eq!(theorem("sub(squares)"), None);
        assert_eq!(theorem("lasker"), None);
        assert_eq!(theorem("nim"), None);
    }

    #[test]
    fn two_heap_window_is_guy_and_smith() {
        let kayles = theorem("kayles").unwrap();
        // n0 <= n < 2 n0 + p + t: 71 <= n < 142 + 12 + 2.
        assert_eq!(kayles.window_end(71, 12), Some(156));
        assert_eq!(kayles.last_heap_needed(71, 12), Some(167));
        // n0 = 0 is treated as 1.
        assert_eq!(kayles.window_end(0, 12), Some(2 + 12 + 2));
    }

    #[test]
    fn the_longest_provable_period_is_the_last_whose_bound_fits() {
        let kayles = theorem("kayles").unwrap();
        // n0 = 0 (as 1): the proof of p needs heaps up to 2 + 2p + 2 - 1.
        assert_eq!(kayles.last_heap_needed(0, 10), Some(23));
        assert_eq!(kayles.longest_provable_period(24), 10);
        assert_eq!(kayles.longest_provable_period(23), 9);
        assert_eq!(kayles.longest_provable_period(3), 0);
    }

    #[test]
    fn a_coin_run_window_covers_the_values_a_coin_reads() {
        // Runs of up to 5 coins read the 4 coins before: from coin
        // max(n0, 1), four values past the pre-period and a period more.
        let runs = Theorem::CoinRuns { longest_run: 5 };
        assert_eq!(runs.window_end(0, 3), Some(1 + 4));
        assert_eq!(runs.window_end(7, 3), Some(7 + 4));
        assert_eq!(runs.last_heap_needed(7, 3), Some(7 + 4 - 1 + 3));
    }
}
