//! The winning moves of single heaps: heap by heap, and counted over a
//! range of heaps by value (`grundy moves`).
//!
//! A heap alone is a sum of one component, so by the winning-move rule
//! ([`winning_targets`](super::winning_targets)) its winning moves are the
//! moves to a position of value `g(n) ^ g(n) = 0`. For each heap this
//! module counts them (distinct moves, as [`super::move_counts`] counts
//! them), and finds the fewest and the most tokens a winning move removes.
//!
//! Codes whose moves remove a bounded number of tokens and leave at most
//! two heaps (octal codes, finite subtraction sets) are counted digit by
//! digit, through the proven period where the heap lies past the table
//! ([`KnownValues::count_pairs`], `O(L + p)` a heap). Over a long range
//! their counts follow a theorem (see [`period_totals`]); other rules are
//! counted heap by heap, by visiting the options.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::ControlFlow;

use super::{Component, KnownValues, check_listable, known_values, leaves};
use crate::analysis::{Periodicity, TABULATE_LIMIT};
use crate::rules::{HeapGame, SubtractionSet};
use crate::{Error, HeapRuleset, Knob, Nimber, Result, TableSolver};

/// One heap's winning moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapWins {
    /// The heap size.
    pub heap: usize,
    /// Its value.
    pub value: Nimber,
    /// Its distinct moves to a position of value 0: none exactly when the
    /// value is 0.
    pub count: u64,
    /// The fewest tokens a winning move removes (the heap less the tokens
    /// its heaps keep); `None` when there is no winning move.
    pub fewest_taken: Option<i64>,
    /// The most tokens a winning move removes.
    pub most_taken: Option<i64>,
}

/// The heaps of a range with one value, and their winning moves in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinsByValue {
    /// The value.
    pub value: Nimber,
    /// The heaps of the range with this value.
    pub heaps: u128,
    /// Their winning moves, summed over those heaps.
    pub winning_moves: u128,
}

/// The winning moves of a range of heaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapMoveTable {
    /// The first heap of the range.
    pub from: usize,
    /// The last heap of the range.
    pub to: usize,
    /// Each heap of the range, when asked for.
    pub rows: Option<Vec<HeapWins>>,
    /// The heaps of the range and their winning moves, by value, in
    /// increasing order of value.
    pub by_value: Vec<WinsByValue>,
    /// The heaps' winning moves, in all.
    pub winning_moves: u128,
    /// The proven period the counts past the first heaps came from, if
    /// any (else every heap was counted).
    pub through_period: Option<Periodicity>,
}

/// The most heaps [`heap_move_table`] lists one by one.
pub const MOVE_ROWS_LIMIT: usize = 1 << 20;

/// The winning moves of heaps `from..=to` of `game`: each heap listed when
/// `rows` (at most [`MOVE_ROWS_LIMIT`] of them), and the range counted by
/// value. A range longer than [`TABULATE_LIMIT`] heaps is counted through a
/// proven period ([`period_totals`]) and refused where there is none.
/// `progress(done, total)` hears the heaps counted one by one; `false`
/// stops with [`Error::Interrupted`]. A heap of a code that moves into
/// many heaps with more than `max_options` options is refused as by
/// [`super::move_counts`].
pub fn heap_move_table<G: HeapRuleset + fmt::Display>(
    game: &G,
    from: usize,
    to: usize,
    rows: bool,
    solver: &TableSolver,
    max_options: u64,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<HeapMoveTable> {
    if from > to {
        return Err(Error::InvalidRange {
            reason: format!("the range {from}..={to} is empty"),
        });
    }
    let heaps = to - from + 1;
    if rows && heaps > MOVE_ROWS_LIMIT {
        return Err(Error::Refused {
            reason: format!(
                "listing the winning moves of {heaps} heaps, over the limit of {MOVE_ROWS_LIMIT} \
                 rows"
            ),
            knob: Knob::Rows,
        });
    }
    let digits = bounded_digits(game);
    let too_long = || Error::Refused {
        reason: format!(
            "counting the winning moves of {heaps} heaps of {game} one by one, over the limit of \
             {TABULATE_LIMIT} heaps: a longer range is counted through a proven period of a code \
             whose moves leave at most two heaps, which {game} does not have"
        ),
        knob: Knob::To,
    };
    // A long range needs the period, and is refused before a table of it
    // is computed.
    let known = if heaps as u64 > TABULATE_LIMIT {
        match digits {
            Some(_) => KnownValues::proven(game, to, solver, progress)?.ok_or_else(too_long)?,
            None => return Err(too_long()),
        }
    } else {
        known_values(
            std::slice::from_ref(game),
            &[Component { game: 0, heap: to }],
            solver,
            progress,
        )?
        .remove(0)
    };
    let counter = Counter {
        game,
        known: &known,
        digits: digits.as_deref(),
        max_options,
        memory_limit: solver.memory_limit(),
    };
    // Without rows, the heaps past the theorem's first heap are counted
    // through the period.
    let by_period = known.period.filter(|_| !rows && digits.is_some());
    let counted_to = match by_period {
        Some(period) => to.min(first_regular_heap(digits.as_deref().unwrap_or(&[]), period) - 1),
        None => to,
    };
    let one_by_one = (counted_to + 1).saturating_sub(from);
    if one_by_one as u64 > TABULATE_LIMIT {
        return Err(too_long());
    }
    let mut listed = Vec::new();
    let mut totals = BTreeMap::new();
    for n in from..=counted_to {
        if (n - from).is_multiple_of(4096) && !progress(n - from, one_by_one) {
            return Err(Error::Interrupted {
                heaps: (n - from) as u64,
            });
        }
        let wins = counter.wins(n)?;
        add(&mut totals, wins.value, 1, u128::from(wins.count))?;
        if rows {
            listed.push(wins);
        }
    }
    let through_period = by_period.filter(|_| counted_to < to);
    if let Some(period) = through_period {
        period_totals(&counter, period, from.max(counted_to + 1), to, &mut totals)?;
    }
    let winning_moves = totals
        .values()
        .try_fold(0u128, |sum, t| sum.checked_add(t.1))
        .ok_or_else(overflow)?;
    Ok(HeapMoveTable {
        from,
        to,
        winning_moves,
        rows: rows.then_some(listed),
        by_value: totals
            .into_iter()
            .map(|(value, (heaps, winning_moves))| WinsByValue {
                value,
                heaps,
                winning_moves,
            })
            .collect(),
        through_period,
    })
}

/// For each number of tokens `t` a move may remove, `(t, leaves,
/// unequal)` as [`crate::TakeBreak::octal_digits`] gives them, for the
/// rules whose moves remove a bounded number of tokens and leave at most
/// two heaps: such codes, and finite subtraction sets (removing `s` leaves
/// one heap or none, the octal digit 3).
fn bounded_digits<G: HeapRuleset + ?Sized>(game: &G) -> Option<Vec<(usize, u8, bool)>> {
    if let Some(code) = game.as_take_break() {
        return code.octal_digits();
    }
    match game.as_heap_game()? {
        HeapGame::Subtraction(game) => match game.set() {
            SubtractionSet::Finite(amounts) => {
                Some(amounts.iter().map(|&s| (s, 0b011, false)).collect())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Adds `heaps` heaps of value `value` with `moves` winning moves.
fn add(
    totals: &mut BTreeMap<Nimber, (u128, u128)>,
    value: Nimber,
    heaps: u128,
    moves: u128,
) -> Result<()> {
    let entry = totals.entry(value).or_insert((0, 0));
    entry.0 = entry.0.checked_add(heaps).ok_or_else(overflow)?;
    entry.1 = entry.1.checked_add(moves).ok_or_else(overflow)?;
    Ok(())
}

/// The error of a count past `u128`.
fn overflow() -> Error {
    Error::InvalidRange {
        reason: "the counts pass 2^128".into(),
    }
}

/// Counts the winning moves of one heap.
struct Counter<'a, G: ?Sized> {
    game: &'a G,
    known: &'a KnownValues,
    digits: Option<&'a [(usize, u8, bool)]>,
    max_options: u64,
    memory_limit: u64,
}

impl<G: HeapRuleset + fmt::Display + ?Sized> Counter<'_, G> {
    /// Heap `n`'s winning moves: digit by digit for codes with bounded
    /// digits, else by visiting its options.
    fn wins(&self, n: usize) -> Result<HeapWins> {
        let value = self.known.at(n);
        let mut wins = HeapWins {
            heap: n,
            value,
            count: 0,
            fewest_taken: None,
            most_taken: None,
        };
        let mut note = |taken: i64, count: u64| {
            if count > 0 {
                wins.count += count;
                wins.fewest_taken = Some(wins.fewest_taken.map_or(taken, |t| t.min(taken)));
                wins.most_taken = Some(wins.most_taken.map_or(taken, |t| t.max(taken)));
            }
        };
        if value.is_zero() {
            // A P-position: no move reaches another (the theorem), so none
            // is searched.
        } else if let Some(digits) = self.digits {
            for &(t, leaves, unequal) in digits {
                let Some(m) = n.checked_sub(t) else { break };
                let mut count = u64::from(leaves & 1 != 0 && m == 0);
                count += u64::from(leaves & 2 != 0 && m > 0 && self.known.at(m).is_zero());
                if leaves & 4 != 0 && m >= 2 {
                    let last = if unequal && m % 2 == 0 {
                        m / 2 - 1
                    } else {
                        m / 2
                    };
                    count += self.known.count_pairs(m, last, Nimber::ZERO);
                }
                note(t as i64, count);
            }
        } else {
            check_listable(self.game, n, self.max_options)?;
            let mut seen = rustc_hash::FxHashSet::default();
            let mut kept = 0u128;
            let limit = u128::from(self.memory_limit);
            let _ = self.game.visit_options(n, &mut |option| {
                let reached: Nimber = option.iter().map(|&part| self.known.at(part)).sum();
                if reached.is_zero() {
                    let left = leaves(option);
                    kept += super::OPTION_ENTRY_BYTES + 8 * left.len() as u128;
                    if kept > limit {
                        return ControlFlow::Break(());
                    }
                    let kept_tokens: i128 = left.iter().map(|&h| h as i128).sum();
                    if seen.insert(left) {
                        note((n as i128 - kept_tokens) as i64, 1);
                    }
                }
                ControlFlow::Continue(())
            });
            if kept > limit {
                return Err(Error::MemoryLimit {
                    what: format!(
                        "the winning moves of heap {n} of {}, kept to count each once,",
                        self.game
                    ),
                    needed: format!("more than {}", crate::error::human_bytes_near(kept, limit)),
                    limit: crate::error::human_bytes_near(limit, kept),
                });
            }
            crate::cancel::check()?;
        }
        Ok(wins)
    }
}

/// The first heap from which [`period_totals`]'s theorem holds for a code
/// with `digits` periodic from `n0`: `max t + 2 n0 + 1`.
fn first_regular_heap(digits: &[(usize, u8, bool)], period: Periodicity) -> usize {
    let max_take = digits.iter().map(|d| d.0).max().unwrap_or(0);
    max_take + 2 * period.preperiod + 1
}

/// Adds the heaps `lo..=hi` (`lo` at least [`first_regular_heap`]) of a
/// code with bounded digits and a proven period to `totals`, without
/// visiting them.
///
/// **Theorem.** Let `g` be periodic with period `p` from `n0`, and let
/// `W(n)` be heap `n`'s winning moves. For `n >= N1 = max t + 2 n0 + 1`,
/// `W(n + 2p) = W(n) + D(n mod 2p)` for a `D` that depends on `n mod 2p`
/// alone. *Proof.* Moves of digit `t` work on `m = n - t >= 2 n0 + 1`.
/// Leaving one heap wins when `g(m) = 0`: periodic in `m` (`m >= n0`).
/// Leaving `a + (m - a)` (`1 <= a <= last(m)`, `last(m) = floor(m/2)`, less
/// one for even `m` when the parts must differ) wins when `g(a) = g(m - a)`.
/// For `a < n0` the test depends on `g(m - a)` with `m - a >= n0`, so on
/// `m mod p`. For `n0 <= a <= last(m)` both parts are periodic, so the test
/// depends on `a mod p` and `m mod p`; `last(m + 2p) = last(m) + p`, so
/// `m + 2p` has the same winning `a` up to `last(m)` as `m`, and `p` more
/// values of `a`, which cover each residue once: as many more wins as
/// there are winning residues, a function of `m mod p`. Summing over
/// digits gives `D`. ∎
///
/// So each class of heaps `N1 + r + 2pk` (`0 <= r < 2p`) has winning moves
/// `W(N1 + r) + k D(r)`, an arithmetic progression in `k`, and one value
/// `g(N1 + r)` (`2p` is a multiple of `p`): the `4p` heaps from `N1` are
/// counted, and the range is summed class by class.
fn period_totals<G: HeapRuleset + fmt::Display + ?Sized>(
    counter: &Counter<'_, G>,
    period: Periodicity,
    lo: usize,
    hi: usize,
    totals: &mut BTreeMap<Nimber, (u128, u128)>,
) -> Result<()> {
    let start = first_regular_heap(counter.digits.unwrap_or(&[]), period);
    debug_assert!(lo >= start);
    let step = 2 * period.period;
    for r in 0..step {
        let first = start + r;
        // The class's members in lo..=hi: first + step k, k_lo..=k_hi.
        let k_lo = lo.saturating_sub(first).div_ceil(step);
        if first + k_lo * step > hi {
            continue;
        }
        let k_hi = (hi - first) / step;
        let base = counter.wins(first)?;
        let next = counter.wins(first + step)?;
        let difference = u128::from(next.count - base.count);
        let members = (k_hi - k_lo + 1) as u128;
        // sum of k over k_lo..=k_hi, halved exactly: one of the two
        // factors is even.
        let (a, b) = ((k_lo + k_hi) as u128, members);
        let k_sum = if a % 2 == 0 { a / 2 * b } else { b / 2 * a };
        let moves = difference
            .checked_mul(k_sum)
            .and_then(|d| d.checked_add(u128::from(base.count).checked_mul(members)?))
            .ok_or_else(overflow)?;
        add(totals, base.value, members, moves)?;
    }
    Ok(())
}
