//! Take-and-break games given by a code `d0.d1d2d3…` (Guy & Smith 1956).
//!
//! Digit `d_t` says what may be left after removing `t` tokens from one heap:
//! bit 1 — nothing (the heap had exactly `t` tokens); bit 2 — one non-empty
//! heap; bit 4 — two non-empty heaps. So `0.77` is Kayles (remove one or two
//! pins, possibly splitting the row), `0.07` Dawson's Kayles and `0.137`
//! Dawson's chess. Digit `d0` (before the point) removes no tokens, so only a
//! pure split (bit 4) is a real move there: `4.07` may split any heap in two.
//!
//! Bit `2^k` in general lets the move leave `k` heaps: hexadecimal digit 8
//! leaves three. Following CGSuite's notation, digits past 9 are written
//! `A`…`Z` (10 to 35) and `&n;` beyond; a digit may also be given as the set
//! of heap counts it allows, `{2,3}` (the same as `C`), with ranges of
//! counts of any size, `{2..200}` (split into 2 to 200 heaps), and
//! open-ended as in `{2+}` (split into two or more heaps, any number).
//! Moves into many heaps are valued through sets of nim-sums of
//! compositions (`CompositionCache`), never by listing partitions, so a
//! count of 200 costs what its sets cost. A digit followed by
//! `!` requires the heaps it leaves to be pairwise unequal (Grundy's game is
//! `4!.0`), `?` not all equal, `=` all equal — constraints on moves that
//! leave two or more heaps; a move leaving one heap or none is never
//! constrained — and a bracketed block repeats forever: `0.[3]` is Nim and
//! `4.[3]` Lasker's Nim.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::Mutex;

use crate::bitset::xor_translate_into;
use crate::cancel::{self, Ticker};
use crate::error::human_bytes_near;
use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// An inclusive range of heap counts, `(low, high)`.
type CountRange = (u64, u64);

/// What one code digit allows after removing its number of tokens.
///
/// The counts of heaps a move may leave are kept as a bitmask below 63
/// (every digit of a classical code, so that the kernel tests a bit) and as
/// ranges from 63 on, so that `{2..200}` or `{3,1000}` cost a few words, not
/// a bit per count.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Digit {
    /// Bit `2^k` set: the move may leave `k` non-empty heaps (for `k` below
    /// 63 and below `open`).
    leaves: u64,
    /// The counts from 63 on that the move may leave, below `open`: sorted
    /// inclusive ranges `(low, high)`, no two touching. Empty for the
    /// digits written with counts below 63.
    large: Vec<CountRange>,
    /// `Some(k)`: the move may also leave any number `>= k` of heaps.
    open: Option<u64>,
    /// How the heaps left must relate.
    parts: Parts,
}

/// A constraint on the heaps a move leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Parts {
    /// Any sizes.
    #[default]
    Any,
    /// Pairwise unequal (`!`).
    Distinct,
    /// Not all equal (`?`).
    NotAllEqual,
    /// All equal (`=`).
    AllEqual,
}

const LEAVE_NOTHING: u64 = 1;
const LEAVE_ONE: u64 = 2;
const LEAVE_TWO: u64 = 4;

/// The first count kept as a range rather than a bit of [`Digit::leaves`]
/// (`&n;` digits reach bit 62).
const FIRST_LARGE: u64 = 63;

/// The digit that allows nothing, for the removals past a finite code.
static NO_MOVE: Digit = Digit {
    leaves: 0,
    large: Vec::new(),
    open: None,
    parts: Parts::Any,
};

impl Digit {
    /// The digit whose bit `2^k` allows leaving `k` heaps.
    fn new(leaves: u64, parts: Parts) -> Digit {
        let ranges = (0..FIRST_LARGE)
            .filter(|k| leaves >> k & 1 != 0)
            .map(|k| (k, k))
            .collect();
        Digit::with_counts(ranges, None, parts)
    }

    /// The digit that allows the counts of the inclusive ranges `(low,
    /// high)`, in any order and overlapping, and every count from `open`
    /// on, in canonical form: equal digits compare equal.
    fn with_counts(mut ranges: Vec<CountRange>, open: Option<u64>, parts: Parts) -> Digit {
        // The open counts are the range up to the largest count; a range
        // reaching it is open (no heap splits into 2^64 - 1 parts).
        ranges.extend(open.map(|k| (k, u64::MAX)));
        ranges.sort_unstable();
        let mut merged: Vec<CountRange> = Vec::with_capacity(ranges.len());
        for (low, high) in ranges {
            match merged.last_mut() {
                // Overlapping or touching ranges join: {2,3+} is {2+}.
                Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
                _ => merged.push((low, high)),
            }
        }
        let open = merged.pop_if(|last| last.1 == u64::MAX).map(|last| last.0);
        let mut leaves = 0u64;
        let mut large = Vec::new();
        for (low, high) in merged {
            if low < FIRST_LARGE {
                let top = high.min(FIRST_LARGE - 1);
                leaves |= (u64::MAX >> (63 - (top - low))) << low;
            }
            if high >= FIRST_LARGE {
                large.push((low.max(FIRST_LARGE), high));
            }
        }
        let mut digit = Digit {
            leaves,
            large,
            open,
            parts,
        };
        // Constraints bite only on moves that leave two or more heaps, and
        // for two heaps "not all equal" is "unequal".
        let most = digit.max_parts().unwrap_or(u64::MAX);
        digit.parts = match parts {
            _ if most < 2 => Parts::Any,
            Parts::NotAllEqual if most < 3 => Parts::Distinct,
            other => other,
        };
        digit
    }

    fn is_zero(&self) -> bool {
        self.leaves == 0 && self.large.is_empty() && self.open.is_none()
    }

    /// Whether the move may leave `k` heaps.
    fn allows(&self, k: usize) -> bool {
        let k = k as u64;
        self.open.is_some_and(|open| k >= open)
            || (k < FIRST_LARGE && self.leaves >> k & 1 != 0)
            || self.large.iter().any(|&(low, high)| low <= k && k <= high)
    }

    /// The largest number of heaps the digit can leave, `None` when any
    /// number can be left.
    fn max_parts(&self) -> Option<u64> {
        match (self.open, self.large.last()) {
            (Some(_), _) => None,
            (None, Some(&(_, high))) => Some(high),
            (None, None) => Some(u64::from(
                (u64::BITS - self.leaves.leading_zeros()).saturating_sub(1),
            )),
        }
    }

    /// [`Digit::max_parts`] as a heap count: one with more parts than
    /// `usize` counts never applies.
    fn max_parts_usize(&self) -> Option<usize> {
        self.max_parts()
            .map(|k| usize::try_from(k).unwrap_or(usize::MAX))
    }

    /// The counts the digit allows below `open`, as inclusive ranges in
    /// increasing order, no two touching (a run of bits reaching 62 joins a
    /// range from 63).
    fn finite_ranges(&self) -> impl Iterator<Item = CountRange> + '_ {
        let mut bits = self.leaves;
        let runs = std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let low = u64::from(bits.trailing_zeros());
                let run = u64::from((bits >> low).trailing_ones());
                bits &= !((u64::MAX >> (64 - run)) << low);
                (low, low + run - 1)
            })
        });
        let mut all = runs.chain(self.large.iter().copied());
        let mut pending = None;
        std::iter::from_fn(move || {
            loop {
                match (pending, all.next()) {
                    (None, None) => return None,
                    (None, Some(range)) => pending = Some(range),
                    // Finite ranges end below 2^64 - 1.
                    (Some((low, high)), Some((next_low, next_high))) if high + 1 == next_low => {
                        pending = Some((low, next_high));
                    }
                    (Some(range), next) => {
                        pending = next;
                        return Some(range);
                    }
                }
            }
        })
    }
}

impl fmt::Display for Digit {
    /// A digit below 36 as one character, a larger set of counts below 63
    /// as `&n;` (CGSuite's spelling), and any other set in braces, runs of
    /// four or more counts as a range: `{2..200}`, `{1,3,5+}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.leaves, self.large.is_empty() && self.open.is_none()) {
            (d @ 0..=9, true) => write!(f, "{d}")?,
            (d @ 10..=35, true) => write!(f, "{}", char::from(b'A' + (d - 10) as u8))?,
            (d, true) => write!(f, "&{d};")?,
            (_, false) => {
                let mut items = Vec::new();
                for (low, high) in self.finite_ranges() {
                    if high - low >= 3 {
                        items.push(format!("{low}..{high}"));
                    } else {
                        items.extend((low..=high).map(|k| k.to_string()));
                    }
                }
                items.extend(self.open.map(|k| format!("{k}+")));
                write!(f, "{{{}}}", items.join(","))?;
            }
        }
        f.write_str(match self.parts {
            Parts::Any => "",
            Parts::Distinct => "!",
            Parts::NotAllEqual => "?",
            Parts::AllEqual => "=",
        })
    }
}

/// Games whose values a theorem gives in closed form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClosedForm {
    /// `0.[3]`: `g(n) = n` (Bouton).
    Nim,
    /// `4.[3]`: `g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4,
    /// g(4k+4) = 4k+3` (Lasker; Berlekamp, Conway & Guy, *Winning Ways*).
    Lasker,
}

/// A take-and-break game given by its code, in canonical form.
///
/// Codes that describe the same game compare equal and print the same:
/// trailing zeros are dropped, a repeating block is reduced to its shortest
/// form and absorbs the digits before it that repeat it.
///
/// ```
/// use grundy::TakeBreak;
/// let kayles: TakeBreak = "0.770".parse().unwrap();
/// assert_eq!(kayles.to_string(), "0.77");
/// let nim: TakeBreak = "0.33[3]".parse().unwrap();
/// assert_eq!(nim.to_string(), "0.[3]");
/// assert!("0.2".parse::<TakeBreak>().is_ok());
/// assert!("2.0".parse::<TakeBreak>().is_err()); // would leave the heap unchanged
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBreak {
    /// `digits[t]` for `t` below `digits.len()`; `digits[0]` always exists.
    digits: Vec<Digit>,
    /// Repeats forever after `digits`; empty for a finite code.
    tail: Vec<Digit>,
    closed_form: Option<ClosedForm>,
    /// Sets of values of many-heap splits, for digits such as `{2+}`.
    compositions: CompositionCache,
}

/// Sets of values of the moves that leave many heaps of any sizes, for
/// digits such as `0.{62}`, `0.&9223372036854775807;`, `{2..200}.0` or
/// `{2+}.0`:
/// `E_j(m)`, the set of values `g(a_1) ^ ... ^ g(a_j)` over the ways to
/// write `m` as exactly `j` non-empty heaps, and `C_j(m)`, the same over
/// `i >= j` heaps, as bitsets. Order does not change a XOR, so ordered
/// compositions give the same sets as partitions, and splitting off the
/// first heap `a` gives, for `j >= 2`,
/// `X_j(m) = U_{a=1}^{m-j+1} (g(a) ^ X_{j-1}(m - a))` for either family,
/// with `E_1(m) = {g(m)}` and `C_1(m) = {g(m)} U C_2(m)`. That is `O(j m)`
/// bitset operations per heap instead of one per partition (there are 190
/// million partitions of 100; enumerating them, `0.{62}` to 200 ran for
/// minutes). A range of counts `a..=b` is `C_a` on the heaps up to `b`,
/// where every count from `a` up to the heap is allowed, and the union of
/// `E_a`, ..., `E_b` past them ([`through_at_least`]): `{2..10^9}` costs
/// what `{2+}` does.
///
/// A pure function of the game's values, so one cache serves every table
/// of the game; it compares equal and clones empty. Boxed, so that a code
/// stays small.
#[derive(Default)]
struct CompositionCache(Mutex<Box<Compositions>>);

impl Clone for CompositionCache {
    fn clone(&self) -> Self {
        CompositionCache::default()
    }
}

impl PartialEq for CompositionCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for CompositionCache {}

impl fmt::Debug for CompositionCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CompositionCache")
    }
}

#[derive(Default)]
struct Compositions {
    /// Words per bitset: every value is below `64 * words`.
    words: usize,
    /// `E_j`, for the digits that leave exactly `j >= 2` heaps (counts in a
    /// range the heaps have passed).
    exact: Family,
    /// `C_j`, for the digits that leave `j` heaps or more (open counts, and
    /// ranges of counts that reach past the heaps).
    at_least: Family,
    /// `P_1`, for the digits whose heaps must be pairwise unequal.
    unequal: Ordered,
    /// `P_0`, for the digits whose heaps must not all be equal.
    multisets: Ordered,
    /// Every family holds the sets of heaps `m < done`.
    done: usize,
    /// Whether `exact` and `at_least` also hold the sets of heap `done` of
    /// two or more heaps ([`Family::push_splits`]).
    splits_ahead: bool,
    /// The most bytes the sets may take, once a table has set it: they
    /// grow with the table (by `words` words per heap and set), so a long
    /// table of a many-part code could outgrow memory.
    limit: Option<u64>,
}

/// One family of composition sets, `E_j` or `C_j`, for `j = 1..=depth`.
///
/// The levels are built as the heaps reach them: `X_j(m)` is empty for
/// `m < j` (a heap of `m` tokens splits into at most `m` parts), so a level
/// starts empty at heap `j` and a deep family such as `C_1000` costs
/// nothing on the heaps below it.
#[derive(Default)]
struct Family {
    /// `C_j` (`i >= j` heaps) rather than `E_j` (exactly `j`).
    at_least: bool,
    /// The deepest level the code needs.
    depth: usize,
    /// `sets[j - 1]`: the sets of heaps `0, 1, …`, `words` words each, for
    /// the levels built so far.
    sets: Vec<Vec<u64>>,
}

impl Family {
    fn new(at_least: bool, depth: usize) -> Family {
        Family {
            at_least,
            depth,
            sets: Vec::new(),
        }
    }

    /// Makes the family as deep as `depth`, given that the heaps below
    /// `built` have their sets: a shallower family drops the levels past
    /// `depth`, which no lower level uses; a deeper one grows in place
    /// while every level it adds is empty on those heaps (each heap `m`
    /// has its levels up to `m`), and `false` says it must be rebuilt from
    /// heap 0 (a count such as `{1000+}` costs nothing until a heap
    /// reaches it, then every level below it at once).
    fn fit_depth(&mut self, depth: usize, built: usize) -> bool {
        if depth > self.depth && self.depth + 1 < built {
            return false;
        }
        self.depth = depth;
        self.sets.truncate(depth);
        true
    }

    /// The levels built once heap `m` is: every level `j <= m` the code
    /// needs, and at least the first two (`C_1` is made from `C_2`).
    fn levels(&self, m: usize) -> usize {
        self.depth.min(m.max(2))
    }

    /// Appends the sets of heap `m` for every `j >= 2`, given those of the
    /// smaller heaps: they need only the values of heaps below `m`, so they
    /// are made before `g(m)` is known, and the gather of heap `m` reads
    /// them rather than composing them a second time. `set` is scratch of
    /// `words` words.
    fn push_splits(&mut self, m: usize, values: &[Nimber], words: usize, set: &mut [u64]) {
        // A level new at heap m is empty on the heaps before it.
        while self.sets.len() < self.levels(m) {
            self.sets.push(vec![0; m * words]);
        }
        for j in 2..=self.sets.len() {
            self.composed(j, m, values, words, set);
            self.sets[j - 1].extend_from_slice(set);
        }
    }

    /// Appends the first set of heap `m`, once `g(m)` is known and the
    /// others are made ([`Family::push_splits`]): `E_1(m) = {g(m)}`,
    /// `C_1(m) = {g(m)} U C_2(m)`.
    fn push_whole(&mut self, m: usize, values: &[Nimber], words: usize, set: &mut [u64]) {
        if self.sets.is_empty() {
            return;
        }
        match self.at_least {
            true => set.copy_from_slice(self.get(2, m, words)),
            false => set.fill(0),
        }
        if m > 0 {
            let v = values[m].index();
            set[v / 64] |= 1 << (v % 64);
        }
        self.sets[0].extend_from_slice(set);
    }

    /// `X_j(m)` into `out`, for `j >= 2`, from the stored `X_{j-1}` of
    /// smaller heaps. Stops early once `out` holds every value its words
    /// can: no more heaps can add one.
    fn composed(&self, j: usize, m: usize, values: &[Nimber], words: usize, out: &mut [u64]) {
        out.fill(0);
        let last = (m + 2).saturating_sub(j);
        for (a, g) in values.iter().enumerate().take(last).skip(1) {
            xor_translate_into(self.get(j - 1, m - a, words), g.get(), out);
            if a % 16 == 0 && out.iter().all(|&w| w == u64::MAX) {
                break;
            }
        }
    }

    /// The stored `X_j(m)`.
    fn get(&self, j: usize, m: usize, words: usize) -> &[u64] {
        &self.sets[j - 1][m * words..(m + 1) * words]
    }
}

/// For digits whose heaps must be pairwise unequal (`!`) or not all equal
/// (`?`), where order matters to the constraint: `P_s(j, m, lo)`, the set
/// of values of `j` heaps of at least `lo` tokens summing to `m`, in
/// non-decreasing order (`s = 0`) or increasing order (`s = 1`). Splitting
/// off the smallest heap,
/// `P(j, m, lo) = P(j, m, lo + 1) U (g(lo) ^ P(j - 1, m - lo, lo + s))`,
/// with `P(1, m, lo) = {g(m)}` for `m >= lo`. Unequal heaps are
/// `P_1(k, m, 1)`. Heaps not all equal whose smallest is `a` leave `k - 1`
/// heaps of at least `a` summing to `m - a` that are not all `a`: every such
/// multiset when `k a < m`, none when `k a = m`; so they are
/// `U_{k a < m} g(a) ^ P_0(k - 1, m - a, a)`. A heap costs `O(m log k)`
/// bitset operations instead of one per partition (there are 4·10^8
/// partitions of 200 into unequal parts).
#[derive(Default)]
struct Ordered {
    /// `s`: 1 for increasing heaps, 0 for non-decreasing.
    step: usize,
    /// The largest `j` stored (0: none).
    depth: usize,
    /// `rows[m]`: `P(j, m, lo)` for `j = 2..=depth` and
    /// `lo = 1..=lo_max(j, m)`, `words` words each, `j` by `j`.
    rows: Vec<Vec<u64>>,
    /// The bytes the rows take.
    bytes: u128,
}

impl Ordered {
    fn new(step: usize, depth: usize) -> Ordered {
        Ordered {
            step,
            depth,
            ..Ordered::default()
        }
    }

    /// Makes the rows reach `depth`: in place while every row holds all
    /// its levels (row `m` has its `j <= m`: `depth` has never been below
    /// a row), `false` when they must be rebuilt from heap 0.
    fn fit_depth(&mut self, depth: usize) -> bool {
        if depth > self.depth && self.depth + 1 < self.rows.len() {
            return false;
        }
        self.depth = self.depth.max(depth);
        true
    }

    /// The largest smallest heap of `j` heaps summing to `m` (0 when there
    /// are none): `j lo + s j (j - 1) / 2 <= m`.
    fn lo_max(&self, j: usize, m: usize) -> usize {
        let steps = self.step * j * (j - 1) / 2;
        match m.checked_sub(steps) {
            Some(room) if room >= j => room / j,
            _ => 0,
        }
    }

    /// The stored `P(j, m, lo)`, for `2 <= j <= depth`; `None` when empty.
    fn get(&self, j: usize, m: usize, lo: usize, words: usize) -> Option<&[u64]> {
        if lo == 0 || lo > self.lo_max(j, m) {
            return None;
        }
        let before: usize = (2..j).map(|i| self.lo_max(i, m)).sum();
        let at = (before + lo - 1) * words;
        Some(&self.rows[m][at..at + words])
    }

    /// `out |= g(lo) ^ P(j - 1, m - lo, lo + s)`: the ways whose smallest
    /// heap is `lo`.
    fn add_smallest(&self, j: usize, m: usize, lo: usize, values: &[Nimber], out: &mut [u64]) {
        let (rest, least) = (m - lo, lo + self.step);
        if j == 2 {
            if rest >= least {
                let v = (values[lo] ^ values[rest]).index();
                out[v / 64] |= 1 << (v % 64);
            }
        } else if let Some(set) = self.get(j - 1, rest, least, out.len()) {
            xor_translate_into(set, values[lo].get(), out);
        }
    }

    /// `U_{lo=1}^{last} g(lo) ^ P(k - 1, m - lo, lo + s)` into `out`.
    fn smallest_up_to(&self, k: usize, m: usize, last: usize, values: &[Nimber], out: &mut [u64]) {
        out.fill(0);
        for lo in 1..=last {
            self.add_smallest(k, m, lo, values, out);
        }
    }

    /// Appends the row of heap `m`, given the rows of smaller heaps.
    fn push(&mut self, m: usize, values: &[Nimber], words: usize) {
        let mut row = Vec::new();
        // No more than m heaps sum to m: the deeper rows are empty.
        for j in 2..=self.depth.min(m) {
            let count = self.lo_max(j, m);
            let start = row.len();
            row.resize(start + count * words, 0);
            for lo in (1..=count).rev() {
                let at = start + (lo - 1) * words;
                if lo < count {
                    row.copy_within(at + words..at + 2 * words, at);
                }
                self.add_smallest(j, m, lo, values, &mut row[at..at + words]);
            }
        }
        self.bytes += (row.len() * 8) as u128;
        self.rows.push(row);
    }
}

/// How deep each family of split sets must go for a code, at a heap.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Depths {
    exact: usize,
    at_least: usize,
    unequal: usize,
    multisets: usize,
}

impl Compositions {
    /// Makes `E_j(m)` for `j <= exact`, `C_j(m)` for `j <= at_least` and
    /// the rows of the ordered families available for `m < values.len()`,
    /// and `E_j(m)`, `C_j(m)` for `j >= 2` at `m = values.len()` too, within
    /// the memory limit; stops with the current
    /// [`Cancel`](crate::Cancel) token's error, with the sets of every heap
    /// finished so far kept (one heap costs `O(j m)` bitset operations, a
    /// tenth of a second at `m = 10^5`).
    fn extend(&mut self, values: &[Nimber], depths: Depths) -> Result<()> {
        let Depths {
            exact,
            at_least,
            unequal,
            multisets,
        } = depths;
        let max = values.iter().copied().max().unwrap_or(Nimber::ZERO).get();
        let bits = u32::BITS - max.leading_zeros();
        let words = ((1usize << bits) / 64).max(1);
        let built = self.done + usize::from(self.splits_ahead);
        if words > self.words
            || !self.exact.fit_depth(exact, built)
            || !self.at_least.fit_depth(at_least, built)
            || !self.unequal.fit_depth(unequal)
            || !self.multisets.fit_depth(multisets)
        {
            // Wider values or a deeper digit: start again.
            *self = Compositions {
                words: words.max(self.words),
                exact: Family::new(false, exact),
                at_least: Family::new(true, at_least),
                unequal: Ordered::new(1, unequal),
                multisets: Ordered::new(0, multisets),
                done: 0,
                splits_ahead: false,
                limit: self.limit,
            };
        }
        if values.len() < self.done {
            // A shorter table of the game: its heaps' sets are made.
            return Ok(());
        }
        let words = self.words;
        let mut set = vec![0u64; words];
        // Heap `values.len()` gets its sets of two or more heaps too, for
        // the gather of that heap.
        loop {
            cancel::check()?;
            let m = self.done;
            if !self.splits_ahead {
                let sets = self.exact.levels(m) + self.at_least.levels(m);
                let needed = (m as u128 + 1) * (sets * words * 8) as u128
                    + self.unequal.bytes
                    + self.multisets.bytes;
                if let Some(limit) = self.limit.filter(|&limit| needed > u128::from(limit)) {
                    return Err(Error::TableTooLarge {
                        to: values.len() as u64,
                        needed: human_bytes_near(needed, u128::from(limit)),
                        limit: human_bytes_near(u128::from(limit), needed),
                    });
                }
                self.exact.push_splits(m, values, words, &mut set);
                self.at_least.push_splits(m, values, words, &mut set);
                self.splits_ahead = true;
            }
            if m == values.len() {
                return Ok(());
            }
            self.exact.push_whole(m, values, words, &mut set);
            self.at_least.push_whole(m, values, words, &mut set);
            self.unequal.push(m, values, words);
            self.multisets.push(m, values, words);
            self.done += 1;
            self.splits_ahead = false;
        }
    }
}

/// Whether an unconstrained digit's range of counts `low..=high` (`low >=
/// 2`) is gathered for heap `n` through `C_low`: while `high >= n`, every
/// count from `low` up to what the move leaves is allowed, so the set of
/// "at least `low` heaps" is exact, and a range such as `{2..10^9}` costs
/// what `{2+}` does; once the heaps pass it, through `E_low`, ...,
/// `E_high`.
fn through_at_least(high: u64, n: usize) -> bool {
    high >= n as u64
}

impl TakeBreak {
    /// How deep each family of [`Compositions`] must go for heap `n`, where
    /// only the counts of at most `n` heaps apply: the largest count of
    /// heaps an unconstrained digit leaves exactly, among those gathered
    /// through `E_j` ([`through_at_least`]); the largest open count or low
    /// end of a range gathered through `C_j` (at least 2, the base of
    /// `C_1`); and for `!` and `?` digits one less than their largest count
    /// (they split off the smallest heap).
    fn split_depths(&self, n: usize) -> Depths {
        let n64 = n as u64;
        let digits = || self.digits.iter().chain(&self.tail);
        let of = |parts: Parts| digits().filter(move |d| d.parts == parts);
        let splits = |parts| {
            of(parts).flat_map(|d| {
                d.finite_ranges()
                    .filter(|&(low, high)| high >= 2 && low <= n64)
            })
        };
        let depth = |k: u64| usize::try_from(k.max(2)).unwrap_or(usize::MAX);
        let largest = |parts| {
            splits(parts)
                .map(|(_, high)| high.min(n64) as usize)
                .max()
                .unwrap_or(0)
        };
        Depths {
            exact: splits(Parts::Any)
                .filter(|&(_, high)| !through_at_least(high, n))
                .map(|(_, high)| depth(high))
                .max()
                .unwrap_or(0),
            at_least: splits(Parts::Any)
                .filter(|&(_, high)| through_at_least(high, n))
                .map(|(low, _)| low)
                .chain(of(Parts::Any).filter_map(|d| d.open).filter(|&k| k <= n64))
                .map(depth)
                .max()
                .unwrap_or(0),
            unequal: largest(Parts::Distinct).saturating_sub(1),
            multisets: largest(Parts::NotAllEqual).saturating_sub(1),
        }
    }

    /// Bounds the memory of the sets of many-heap splits (see
    /// `CompositionCache`) that tables of this game build, in bytes.
    pub fn limit_split_sets(&self, bytes: u64) {
        self.compositions
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .limit = Some(bytes);
    }

    /// [`HeapRuleset::gather`] for the codes the pair kernel does not
    /// cover: unconstrained moves into two or more heaps through
    /// [`CompositionCache`] (a range of counts as one set of "at least"
    /// while it reaches past the heap, see [`through_at_least`]), moves
    /// into equal heaps by their value (`k` heaps of size `s` are worth
    /// `g(s)` for odd `k`, 0 for even), and moves into unequal or
    /// not-all-equal heaps through the ordered split sets ([`Ordered`]).
    /// Stops with the current [`Cancel`](crate::Cancel) token's error while
    /// the sets are extended, leaving `seen` incomplete.
    fn gather_composed(&self, n: usize, values: &[Nimber], seen: &mut MexScratch) -> Result<()> {
        let mut cache = self
            .compositions
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.extend(&values[..n], self.split_depths(n))?;
        let words = cache.words;
        let mut fresh = vec![0u64; words];
        // The sets of heap n itself (t = 0) are made too.
        let insert_set = |seen: &mut MexScratch, family: &Family, j, rest| {
            seen.insert_bits(family.get(j, rest, words));
        };
        let last_t = self.max_take().map_or(n, |max| max.min(n));
        for t in 0..=last_t {
            let digit = self.digit(t);
            let rest = n - t;
            if digit.allows(0) && rest == 0 {
                seen.insert(Nimber::ZERO);
            }
            if digit.allows(1) && rest > 0 {
                seen.insert(values[rest]);
            }
            if digit.parts == Parts::Any {
                // Counts past the heap leave nothing, so they fit usize.
                let clip = |k: u64| usize::try_from(k).unwrap_or(usize::MAX);
                for (low, high) in digit.finite_ranges() {
                    let (low, high) = (clip(low).max(2), clip(high));
                    if low > rest {
                        break;
                    }
                    if high < low {
                        // Leaving nothing or one heap, gathered above.
                        continue;
                    }
                    if through_at_least(high as u64, n) {
                        insert_set(seen, &cache.at_least, low, rest);
                    } else {
                        for k in low..=high.min(rest) {
                            insert_set(seen, &cache.exact, k, rest);
                        }
                    }
                }
                if let Some(open) = digit.open.map(|k| clip(k).max(2))
                    && open <= rest
                {
                    insert_set(seen, &cache.at_least, open, rest);
                }
                continue;
            }
            let most = digit.max_parts_usize().map_or(rest, |k| k.min(rest));
            for k in (2..=most).filter(|&k| digit.allows(k)) {
                if digit.parts == Parts::AllEqual {
                    if rest.is_multiple_of(k) {
                        seen.insert(match k % 2 {
                            1 => values[rest / k],
                            _ => Nimber::ZERO,
                        });
                    }
                    continue;
                }
                // Unequal heaps, or heaps not all equal.
                let (family, last) = match digit.parts {
                    Parts::Distinct => (&cache.unequal, cache.unequal.lo_max(k, rest)),
                    _ => (&cache.multisets, (rest - 1) / k),
                };
                family.smallest_up_to(k, rest, last, values, &mut fresh);
                seen.insert_bits(&fresh);
            }
        }
        Ok(())
    }

    /// The digit for removing `t` tokens.
    #[inline]
    fn digit(&self, t: usize) -> &Digit {
        match self.digits.get(t) {
            Some(d) => d,
            None if self.tail.is_empty() => &NO_MOVE,
            None => &self.tail[(t - self.digits.len()) % self.tail.len()],
        }
    }

    /// For codes without a repeating block whose moves leave at most two
    /// heaps and constrain them at most to be unequal: for each number of
    /// tokens `t` a move may remove, `(t, leaves, unequal)`, where `leaves`
    /// has bit `2^k` set when the move may leave `k` heaps.
    pub fn octal_digits(&self) -> Option<Vec<(usize, u8, bool)>> {
        let max = self.max_take()?;
        if self.max_parts()? > 2 || self.digits.iter().any(|d| d.parts == Parts::AllEqual) {
            return None;
        }
        Some(
            (0..=max)
                .map(|t| self.digit(t))
                .enumerate()
                .filter(|(_, d)| !d.is_zero())
                .map(|(t, d)| (t, d.leaves as u8, d.parts == Parts::Distinct))
                .collect(),
        )
    }

    /// The most tokens a move can remove, `None` when unbounded.
    pub fn max_take(&self) -> Option<usize> {
        self.tail.is_empty().then(|| self.digits.len() - 1)
    }

    /// Whether some digit constrains the parts it leaves (`!`, `?`, `=`).
    pub fn has_constraints(&self) -> bool {
        self.digits
            .iter()
            .chain(&self.tail)
            .any(|d| d.parts != Parts::Any)
    }

    /// The largest number of heaps a move can leave, `None` when a digit
    /// such as `{2+}` lets a move leave any number.
    pub fn max_parts(&self) -> Option<usize> {
        self.digits
            .iter()
            .chain(&self.tail)
            .map(Digit::max_parts_usize)
            .try_fold(0, |most, k| Some(most.max(k?)))
    }

    /// Calls `f` with the parts of every option of heap `n`: `[]` when the
    /// move leaves nothing, `[r]` for one heap, `[a, b]` with `a <= b` for
    /// two, and so on in non-decreasing order. Breaks when `f` does, or
    /// when the current [`Cancel`](crate::Cancel) token stops (checked
    /// every few thousand options: a heap may have billions).
    ///
    /// Written straight from the digits and deliberately independent of the
    /// kernel's walk (in `gather_in_words`), so that solving through
    /// [`Plain`](crate::solve::Plain), which sees only these options,
    /// cross-checks the kernel.
    fn for_each_option(
        &self,
        n: usize,
        mut f: impl FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut ticker = Ticker::default();
        let last_t = self.max_take().map_or(n, |max| max.min(n));
        for t in 0..=last_t {
            self.options_of_digit(self.digit(t), n - t, usize::MAX, &mut ticker, &mut f)?;
        }
        ControlFlow::Continue(())
    }

    /// How many options heap `n` lists, stopping at `cap`: for each digit
    /// the partitions of what it leaves into the counts it allows (an upper
    /// bound where `!`, `?` or `=` rules some out), so that a caller can
    /// refuse before listing 4·10^12 options (`0.{2+}` at heap 200). The
    /// partitions of `r` into exactly `k` parts follow
    /// `p(r, k) = p(r - 1, k - 1) + p(r - k, k)` (the smallest part is 1,
    /// or every part loses one), one row of `k` at a time.
    pub fn option_count(&self, n: usize, cap: u64) -> u64 {
        let mut total = 0u64;
        let last_t = self.max_take().map_or(n, |max| max.min(n));
        for t in 0..=last_t {
            let digit = self.digit(t);
            let rest = n - t;
            total +=
                u64::from(digit.allows(0) && rest == 0) + u64::from(digit.allows(1) && rest > 0);
            let most = digit.max_parts_usize().map_or(rest, |k| k.min(rest));
            if most <= 2 {
                // p(r, 2) = floor(r / 2), without a row.
                total += if most == 2 && digit.allows(2) {
                    rest as u64 / 2
                } else {
                    0
                };
                continue;
            }
            // p(., 1): one way to leave any non-empty heap.
            let mut row: Vec<u64> = (0..=rest).map(|r| u64::from(r > 0)).collect();
            for k in 2..=most {
                let mut next = vec![0u64; rest + 1];
                for r in k..=rest {
                    next[r] = row[r - 1].saturating_add(next[r - k]);
                }
                row = next;
                if digit.allows(k) {
                    total = total.saturating_add(row[rest]);
                }
                if total >= cap {
                    return cap;
                }
            }
            if total >= cap {
                return cap;
            }
        }
        total
    }

    /// Calls `f` with the parts of every move of `digit` that leaves `rest`
    /// tokens in fewer than `below` heaps, until `f` breaks or `ticker`
    /// stops.
    fn options_of_digit(
        &self,
        digit: &Digit,
        rest: usize,
        below: usize,
        ticker: &mut Ticker,
        f: &mut impl FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut parts = Vec::new();
        // Heaps are non-empty, so at most `rest` of them (and the counts 0
        // and 1 are always looked at).
        let most = digit.max_parts_usize().map_or(rest, |k| k.min(rest)).max(1);
        for k in (0..=most.min(below.saturating_sub(1))).filter(|&k| digit.allows(k)) {
            match k {
                0 if rest == 0 => f(&[])?,
                0 => {}
                1 if rest > 0 => f(&[rest])?,
                1 => {}
                _ if digit.parts == Parts::AllEqual => {
                    if rest >= k && rest.is_multiple_of(k) {
                        parts.clear();
                        parts.resize(k, rest / k);
                        f(&parts)?;
                    }
                }
                _ => partitions(rest, k, 1, digit.parts, &mut parts, ticker, f)?,
            }
        }
        ControlFlow::Continue(())
    }

    /// Nim is periodic from 0 with period 1 and saltus 1; Lasker's Nim from
    /// 1 with period 4 and saltus 4: `(pre-period, period, saltus)` for
    /// games whose closed form is known.
    pub fn closed_form_periodicity(&self) -> Option<(usize, usize, u64)> {
        match self.closed_form? {
            ClosedForm::Nim => Some((0, 1, 1)),
            ClosedForm::Lasker => Some((1, 4, 4)),
        }
    }

    /// The gather kernel compiled with AVX2, where the pair loop runs on
    /// 256-bit vectors (about four times faster than baseline x86-64).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn gather_avx2(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
    ) -> Result<()> {
        self.gather_portable(n, values, max, seen)
    }

    /// The gather kernel compiled with AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn gather_avx512(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
    ) -> Result<()> {
        self.gather_portable(n, values, max, seen)
    }

    /// Picks the smallest bitset that holds every option value. Stops with
    /// the current [`Cancel`](crate::Cancel) token's error, `seen`
    /// incomplete, when a many-heap listing is cancelled, and with
    /// [`Error::TableTooLarge`] when the split sets outgrow their limit.
    #[inline(always)]
    fn gather_portable(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
    ) -> Result<()> {
        // XOR never sets a bit above the highest bit of its operands.
        let bits_needed = u32::BITS - max.get().leading_zeros();
        let kernel_applies = self.max_parts().is_some_and(|k| k <= 2)
            && self
                .digits
                .iter()
                .chain(&self.tail)
                .all(|d| d.parts != Parts::AllEqual);
        let mut listed = |parts: &[usize]| {
            seen.insert(parts.iter().map(|&p| values[p]).sum());
            ControlFlow::Continue(())
        };
        match bits_needed {
            _ if !kernel_applies => return self.gather_composed(n, values, seen),
            0..=6 => self.gather_in_words::<1>(n, values, seen),
            7 => self.gather_in_words::<2>(n, values, seen),
            8 => self.gather_in_words::<4>(n, values, seen),
            9 => self.gather_in_words::<8>(n, values, seen),
            _ => return finished(self.for_each_option(n, &mut listed)),
        }
        Ok(())
    }

    /// [`HeapRuleset::gather`] for tables whose values are all below
    /// `64 * WORDS` (a power of two), marking them in a local bitset.
    #[inline(always)]
    fn gather_in_words<const WORDS: usize>(
        &self,
        n: usize,
        values: &[Nimber],
        seen: &mut MexScratch,
    ) {
        let mut bits = [0u64; WORDS];
        // Branch-free: every word is updated, all but one with zero.
        let mut mark = |v: u32| {
            let word = (v as usize >> 6) & (WORDS - 1);
            let bit = 1u64 << (v & 63);
            for (w, slot) in bits.iter_mut().enumerate() {
                *slot |= if w == word { bit } else { 0 };
            }
        };
        // The walk over digits is written out here rather than shared
        // through a closure: the whole loop must inline into the
        // feature-specific callers to be compiled for their vector units.
        let last_t = self.max_take().map_or(n, |max| max.min(n));
        for t in 0..=last_t {
            let digit = self.digit(t);
            let rest = n - t;
            if digit.leaves & LEAVE_NOTHING != 0 && rest == 0 {
                mark(0);
            }
            if digit.leaves & LEAVE_ONE != 0 && rest >= 1 {
                mark(values[rest].get());
            }
            if digit.leaves & LEAVE_TWO != 0 && rest >= 2 {
                let pairs = if digit.parts == Parts::Distinct {
                    (rest - 1) / 2
                } else {
                    rest / 2
                };
                // g(a) ^ g(rest - a) for a = 1..=pairs: a slice against a
                // reversed slice.
                let low = &values[1..=pairs];
                let high = &values[rest - pairs..rest];
                for (a, b) in low.iter().zip(high.iter().rev()) {
                    mark(a.get() ^ b.get());
                }
            }
        }
        seen.insert_bits(&bits);
    }

    fn canonicalize(&mut self) {
        // A repeating block of zeros is no block at all.
        if self.tail.iter().all(|d| d.is_zero()) {
            self.tail.clear();
        }
        // Reduce the block to its primitive root: [33] -> [3].
        let len = self.tail.len();
        if let Some(p) =
            (1..len).find(|&p| len.is_multiple_of(p) && self.tail[p..] == self.tail[..len - p])
        {
            self.tail.truncate(p);
        }
        // Let the block absorb digits that repeat it: 0.3[3] -> 0.[3].
        while !self.tail.is_empty()
            && self.digits.len() > 1
            && self.digits.last() == self.tail.last()
        {
            self.digits.pop();
            self.tail.rotate_right(1);
        }
        if self.tail.is_empty() {
            while self.digits.len() > 1 && self.digits.last().is_some_and(|d| d.is_zero()) {
                self.digits.pop();
            }
        }
        self.closed_form = self.recognize();
    }

    fn recognize(&self) -> Option<ClosedForm> {
        let take_any = [Digit::new(LEAVE_NOTHING | LEAVE_ONE, Parts::Any)];
        if self.tail != take_any || self.digits.len() != 1 {
            return None;
        }
        match &self.digits[0] {
            d if d.is_zero() => Some(ClosedForm::Nim),
            d if *d == Digit::new(LEAVE_TWO, Parts::Any) => Some(ClosedForm::Lasker),
            _ => None,
        }
    }
}

/// Calls `f` with every way to write `rest` as `k` heaps of at least `least`
/// in non-decreasing order after those already in `parts`, that satisfy
/// `rule`, until `f` breaks or `ticker` stops. Every branch of the search
/// ends in a partition, so ticking once per partition bounds the work
/// between two checks.
fn partitions(
    rest: usize,
    k: usize,
    least: usize,
    rule: Parts,
    parts: &mut Vec<usize>,
    ticker: &mut Ticker,
    f: &mut impl FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if k == 1 {
        if rest >= least {
            if ticker.stop() {
                return ControlFlow::Break(());
            }
            parts.push(rest);
            let first = parts[0];
            let all_equal = parts.iter().all(|&p| p == first);
            let keep = match rule {
                Parts::Any | Parts::Distinct => true,
                Parts::NotAllEqual => !all_equal,
                Parts::AllEqual => all_equal,
            };
            let flow = if keep {
                f(parts)
            } else {
                ControlFlow::Continue(())
            };
            parts.pop();
            return flow;
        }
        return ControlFlow::Continue(());
    }
    // The smallest heap `a` leaves k - 1 heaps of at least `a` (or a + 1).
    let step = usize::from(rule == Parts::Distinct);
    let mut a = least;
    while a * k + step * k * (k - 1) / 2 <= rest {
        parts.push(a);
        let flow = partitions(rest - a, k - 1, a + step, rule, parts, ticker, f);
        parts.pop();
        flow?;
        a += 1;
    }
    ControlFlow::Continue(())
}

impl fmt::Display for TakeBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        if !self.tail.is_empty() {
            f.write_str("[")?;
            for d in &self.tail {
                write!(f, "{d}")?;
            }
            f.write_str("]")?;
        } else if self.digits.len() == 1 {
            f.write_str("0")?;
        }
        Ok(())
    }
}

impl FromStr for TakeBreak {
    type Err = Error;

    /// Parses `d0.d1d2…`, with an optional `d0` (`.77`), an optional `!`,
    /// `?` or `=` after any digit and an optional repeating block `[…]` at
    /// the end. Digits are `0`–`9`, `A`–`Z`, `&n;` or sets `{k,…}`.
    fn from_str(code: &str) -> Result<TakeBreak> {
        Parser::new(code).parse()
    }
}

struct Parser<'a> {
    code: &'a str,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl<'a> Parser<'a> {
    fn new(code: &'a str) -> Self {
        Parser {
            code,
            chars: code.char_indices().peekable(),
        }
    }

    /// An error at the character starting at byte `at`.
    fn error(&self, at: usize, reason: impl Into<String>) -> Error {
        Error::InvalidCode {
            code: self.code.to_owned(),
            position: self.code[..at].chars().count() + 1,
            reason: reason.into(),
        }
    }

    fn parse(mut self) -> Result<TakeBreak> {
        if self.code.is_empty() {
            return Err(self.error(0, "the code is empty"));
        }
        let mut digits = Vec::new();
        let mut tail = Vec::new();
        // Before the point: `d0`, or nothing as in `.77`.
        let d0 = match self.chars.peek() {
            Some(&(_, '.')) => Digit::default(),
            _ => self.digit()?,
        };
        if d0.allows(0) || d0.allows(1) {
            return Err(self.error(
                0,
                format!(
                    "digit {d0} before the point removes no tokens, so it may only split \
                     the heap (a multiple of 4, such as 4 or 8); {d0} would {}",
                    if d0.allows(1) {
                        "leave the heap unchanged, a cycle"
                    } else {
                        "let the empty heap move"
                    }
                ),
            ));
        }
        digits.push(d0);
        match self.chars.next() {
            None => {}
            Some((point, '.')) => {
                if self.chars.peek().is_none() {
                    return Err(self.error(
                        point,
                        "no digit after the point (write 0.0 for the game with no moves)",
                    ));
                }
                while let Some(&(at, c)) = self.chars.peek() {
                    if c == '[' {
                        self.chars.next();
                        tail = self.block(at)?;
                        break;
                    }
                    digits.push(self.digit()?);
                }
                if let Some((at, c)) = self.chars.next() {
                    return Err(
                        self.error(at, format!("unexpected '{c}' after the repeating block"))
                    );
                }
            }
            Some((at, c)) => {
                return Err(self.error(
                    at,
                    format!("expected '.' after the first digit, found '{c}'"),
                ));
            }
        }
        let mut game = TakeBreak {
            digits,
            tail,
            closed_form: None,
            compositions: CompositionCache::default(),
        };
        game.canonicalize();
        Ok(game)
    }

    /// One digit with an optional `!`, `?` or `=`.
    fn digit(&mut self) -> Result<Digit> {
        let end = self.code.len();
        let Some((at, c)) = self.chars.next() else {
            return Err(self.error(end, "expected a digit, found the end of the code"));
        };
        let (ranges, open) = match c {
            '{' => self.heap_counts(at)?,
            _ => {
                let leaves = match c {
                    '0'..='9' => u64::from(c as u8 - b'0'),
                    'A'..='Z' => u64::from(c as u8 - b'A') + 10,
                    'a'..='z' => u64::from(c as u8 - b'a') + 10,
                    '&' => self.entity(at)?,
                    _ => {
                        return Err(self.error(
                            at,
                            format!("expected a digit (0-9, A-Z, &n; or {{...}}), found '{c}'"),
                        ));
                    }
                };
                let bits = (0..FIRST_LARGE).filter(|k| leaves >> k & 1 != 0);
                (bits.map(|k| (k, k)).collect(), None)
            }
        };
        let parts = match self.chars.next_if(|&(_, c)| matches!(c, '!' | '?' | '=')) {
            Some((_, '!')) => Parts::Distinct,
            Some((_, '?')) => Parts::NotAllEqual,
            Some((_, '=')) => Parts::AllEqual,
            _ => Parts::Any,
        };
        let digit = Digit::with_counts(ranges, open, parts);
        if digit.open.is_some() && matches!(digit.parts, Parts::Distinct | Parts::NotAllEqual) {
            return Err(self.error(
                at,
                "'!' and '?' are not supported on an open-ended digit such as {2+} \
                 (use '=' or no constraint)",
            ));
        }
        Ok(digit)
    }

    /// A digit written `&n;`, after its `&` at byte `open`.
    fn entity(&mut self, open: usize) -> Result<u64> {
        let mut text = String::new();
        while let Some((_, c)) = self.chars.next_if(|&(_, c)| c.is_ascii_digit()) {
            text.push(c);
        }
        if self.chars.next_if(|&(_, c)| c == ';').is_none() || text.is_empty() {
            return Err(self.error(open, "a digit '&n;' needs a number and a closing ';'"));
        }
        text.parse::<u64>()
            .ok()
            .filter(|&d| d < 1 << 63)
            .ok_or_else(|| {
                self.error(
                    open,
                    format!("digit &{text}; is too large (at most 2^63 - 1)"),
                )
            })
    }

    /// A digit written as the set of heap counts it allows, after its `{`
    /// at byte `open`: counts `k`, inclusive ranges `a..b` and, last, an
    /// open count `k+` (any number from `k` on), separated by commas, as in
    /// `{2,3}`, `{2..200}` or `{1,4+}`, of any size up to 2^64 - 1. The
    /// ranges (a count `k` as `(k, k)`) and the open count, if any.
    fn heap_counts(&mut self, open: usize) -> Result<(Vec<CountRange>, Option<u64>)> {
        let unclosed =
            |parser: &Self| parser.error(open, "the set of heap counts has no closing '}'");
        let mut ranges = Vec::new();
        loop {
            let (at, low) = self.count(open)?;
            let mut high = low;
            if self.chars.next_if(|&(_, c)| c == '.').is_some() {
                if self.chars.next_if(|&(_, c)| c == '.').is_none() {
                    return Err(self.error(at, "a range of heap counts is written low..high"));
                }
                high = self.count(open)?.1;
                if high < low {
                    return Err(self.error(
                        at,
                        format!("the range {low}..{high} is empty: write it low..high"),
                    ));
                }
            } else if self.chars.next_if(|&(_, c)| c == '+').is_some() {
                return match self.chars.next() {
                    Some((_, '}')) => Ok((ranges, Some(low))),
                    Some((after, c)) => Err(self.error(
                        after,
                        format!("expected '}}' after the open count 'k+', found '{c}'"),
                    )),
                    None => Err(unclosed(self)),
                };
            }
            ranges.push((low, high));
            match self.chars.next() {
                Some((_, ',')) => {}
                Some((_, '}')) => return Ok((ranges, None)),
                Some((after, c)) => {
                    return Err(self.error(
                        after,
                        format!("expected ',' or '}}' after a heap count, found '{c}'"),
                    ));
                }
                None => return Err(unclosed(self)),
            }
        }
    }

    /// A heap count in the set opened at byte `open`: the byte it starts
    /// at, and its value.
    fn count(&mut self, open: usize) -> Result<(usize, u64)> {
        let Some(&(at, first)) = self.chars.peek() else {
            return Err(self.error(open, "the set of heap counts has no closing '}'"));
        };
        let mut text = String::new();
        while let Some((_, c)) = self.chars.next_if(|&(_, c)| c.is_ascii_digit()) {
            text.push(c);
        }
        if text.is_empty() {
            return Err(self.error(at, format!("expected a heap count, found '{first}'")));
        }
        let count = text.parse::<u64>().map_err(|_| {
            self.error(
                at,
                format!("heap count {text} is too large (at most 2^64 - 1)"),
            )
        })?;
        Ok((at, count))
    }

    /// The digits of a repeating block, after its `[` at byte `open`.
    fn block(&mut self, open: usize) -> Result<Vec<Digit>> {
        let mut block = Vec::new();
        loop {
            match self.chars.peek() {
                Some(&(_, ']')) => {
                    self.chars.next();
                    if block.is_empty() {
                        return Err(self.error(open, "the repeating block '[]' is empty"));
                    }
                    return Ok(block);
                }
                None => return Err(self.error(open, "the repeating block has no closing ']'")),
                Some(_) => block.push(self.digit()?),
            }
        }
    }
}

impl Ruleset for TakeBreak {
    type Position = usize;

    /// Every option, unless the current [`Cancel`](crate::Cancel) token
    /// stops the listing (callers under a token check it afterwards).
    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        let _ = self.for_each_option(n, |parts| {
            out.push(parts.iter().copied());
            ControlFlow::Continue(())
        });
    }
}

/// A gather that broke stopped for the current token: its error.
fn finished(flow: ControlFlow<()>) -> Result<()> {
    match flow {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(cancel::stopped_error()),
    }
}

impl HeapRuleset for TakeBreak {
    /// The option values of heap `n`, collected by a kernel that works on
    /// slices of the table: a split of `r` pairs `g(a)` with `g(r - a)`, so
    /// one split digit is an XOR of a slice with a reversed slice. While the
    /// values fit in a few words the kernel marks them in a register-sized
    /// bitset, which the compiler vectorises; larger values fall back to
    /// [`MexScratch::insert`]. Moves into many heaps stop with the current
    /// [`Cancel`](crate::Cancel) token's error.
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        _scratch: &mut Options<usize>,
    ) -> Result<()> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vl") {
                // SAFETY: the CPU supports these features, checked above.
                #[allow(unsafe_code)]
                return unsafe { self.gather_avx512(n, values, max, seen) };
            }
            if has!("avx2") {
                // SAFETY: the CPU supports AVX2, checked above.
                #[allow(unsafe_code)]
                return unsafe { self.gather_avx2(n, values, max, seen) };
            }
        }
        self.gather_portable(n, values, max, seen)
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.for_each_option(n, visit)
    }

    fn as_take_break(&self) -> Option<&TakeBreak> {
        Some(self)
    }

    fn closed_form(&self, n: usize) -> Option<u64> {
        let n = n as u64;
        match self.closed_form? {
            ClosedForm::Nim => Some(n),
            ClosedForm::Lasker => Some(match n % 4 {
                3 => n + 1,
                0 if n > 0 => n - 1,
                _ => n,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_counts_print_canonically() {
        assert_eq!(canonical("0.{2+}"), "0.{2+}");
        assert_eq!(canonical("0.{2,3+}"), "0.{2+}");
        assert_eq!(canonical("0.{1,4+}="), "0.{1,4+}=");
        assert_eq!(canonical("0.{0,1,2+}"), "0.{0+}");
        assert_eq!("{2+}.0".parse::<TakeBreak>().unwrap().max_parts(), None);
        for bad in [
            "0.{2+", "0.{2+,3}", "0.{+}", "0.{2+}!", "0.{2+}?", "{1+}.0", "{0+}.1",
        ] {
            assert!(bad.parse::<TakeBreak>().is_err(), "{bad}");
        }
    }

    #[test]
    fn splitting_into_any_number_of_heaps_gives_n_minus_one() {
        // {2+}.0: g(n) = n - 1 for n >= 1 (checked against partitions up
        // to 30 in the differential tests); to 200 the composition sets
        // widen from one word to four.
        let game = crate::HeapGame::TakeBreak("{2+}.0".parse().unwrap());
        let values = crate::TableSolver::new().values(&game, 200).unwrap();
        for n in 1..=200 {
            assert_eq!(values.at(n).get() as usize, n - 1, "g({n})");
        }
    }

    fn canonical(code: &str) -> String {
        code.parse::<TakeBreak>().unwrap().to_string()
    }

    #[test]
    fn equal_codes_print_the_same() {
        assert_eq!(canonical(".77"), "0.77");
        assert_eq!(canonical("0.7700"), "0.77");
        assert_eq!(canonical("0.3[0]"), "0.3");
        assert_eq!(canonical("0.3[3]"), "0.[3]");
        assert_eq!(canonical("0.[33]"), "0.[3]");
        assert_eq!(canonical("0.12[12]"), "0.[12]");
        assert_eq!(canonical("4"), "4.0");
        assert_eq!(canonical("4!.0"), "4!.0");
        assert_eq!(canonical("0.3!"), "0.3");
        assert_eq!("0.3[0]".parse::<TakeBreak>(), "0.3".parse::<TakeBreak>());
    }

    #[test]
    fn malformed_codes_name_the_character() {
        let position = |code: &str| match code.parse::<TakeBreak>() {
            Err(Error::InvalidCode { position, .. }) => position,
            other => panic!("{code}: expected an error, got {other:?}"),
        };
        assert_eq!(position(""), 1);
        assert_eq!(position("0.7%"), 4);
        assert_eq!(position("0.&;"), 3);
        assert_eq!(position("0.&12"), 3);
        assert_eq!(position("0.{}"), 4);
        assert_eq!(position("0.{2,x}"), 6);
        assert_eq!(position("0.{99999999999999999999}"), 4);
        assert_eq!(position("0.{5..2}"), 4);
        assert_eq!(position("0.{1..}"), 7);
        assert_eq!(position("0.{1.2}"), 4);
        assert_eq!(position("0.{1..2..3}"), 8);
        assert_eq!(position("0.{2..5+}"), 8);
        assert_eq!(position("0.{2,}"), 6);
        assert_eq!(position("0.{2"), 3);
        assert_eq!(position("{1}.0"), 1);
        assert_eq!(position("0,7"), 2);
        assert_eq!(position("2.7"), 1);
        assert_eq!(position("0.[]"), 3);
        assert_eq!(position("0.[3"), 3);
        assert_eq!(position("0.[3]1"), 6);
        assert_eq!(position("0.é"), 3);
        assert_eq!(position("."), 1);
        assert_eq!(position("0."), 2);
        assert_eq!(position("4!."), 3);
    }

    #[test]
    fn every_way_of_writing_a_digit_means_the_same() {
        assert_eq!(canonical("0.8"), "0.8");
        assert_eq!(canonical("0.{3}"), "0.8");
        assert_eq!(canonical("0.{0,1}"), "0.3");
        assert_eq!(canonical("0.&12;"), "0.C");
        assert_eq!(canonical("0.c"), "0.C");
        assert_eq!(canonical("0.{2,5}"), "0.&36;");
        assert_eq!(canonical("0.&36;"), "0.&36;");
        assert_eq!(canonical("0.G"), "0.G");
        // Constraints that cannot bite are dropped; "not all equal" is
        // "unequal" for two heaps.
        assert_eq!(canonical("0.3?"), "0.3");
        assert_eq!(canonical("0.4?"), "0.4!");
        assert_eq!(canonical("0.8?"), "0.8?");
        assert_eq!(canonical("0.4="), "0.4=");
    }

    #[test]
    fn moves_into_three_heaps_respect_their_constraints() {
        let options = |code: &str, n: usize| {
            let code: TakeBreak = code.parse().unwrap();
            let mut out = Options::new();
            code.options(&n, &mut out);
            out.iter().map(<[usize]>::to_vec).collect::<Vec<_>>()
        };
        // Remove one token, leave exactly three heaps: 7 -> 6 = 1+1+4,
        // 1+2+3, 2+2+2.
        assert_eq!(
            options("0.8", 7),
            [vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]
        );
        assert_eq!(options("0.8!", 7), [vec![1, 2, 3]]);
        assert_eq!(options("0.8?", 7), [vec![1, 1, 4], vec![1, 2, 3]]);
        assert_eq!(options("0.8=", 7), [vec![2, 2, 2]]);
        assert_eq!(options("0.4=", 8), Vec::<Vec<usize>>::new());
        assert_eq!(options("0.4=", 9), [vec![4, 4]]);
        // Digit C = leave two or three heaps.
        assert_eq!(options("0.C", 5), [vec![1, 3], vec![2, 2], vec![1, 1, 2]]);
    }

    #[test]
    fn closed_forms_are_recognised() {
        let lasker: TakeBreak = "4.[3]".parse().unwrap();
        let got: Vec<u64> = (0..9).map(|n| lasker.closed_form(n).unwrap()).collect();
        assert_eq!(got, [0, 1, 2, 4, 3, 5, 6, 8, 7]);
        let nim: TakeBreak = "0.3[3]".parse().unwrap();
        assert_eq!(nim.closed_form(77), Some(77));
        let kayles: TakeBreak = "0.77".parse().unwrap();
        assert_eq!(kayles.closed_form(5), None);
    }

    #[test]
    fn option_counts_match_the_listing() {
        for code in [
            "0.77",
            "0.{62}",
            "0.{2+}",
            "{2,3,5}.0",
            "4.[3]",
            "0.{1,4+}",
            "0.F7",
        ] {
            let game: TakeBreak = code.parse().unwrap();
            for n in 0..=24 {
                let mut listed = 0;
                let _ = game.for_each_option(n, |_| {
                    listed += 1;
                    ControlFlow::Continue(())
                });
                assert_eq!(game.option_count(n, u64::MAX), listed, "{code} at {n}");
            }
        }
        let open: TakeBreak = "0.{2+}".parse().unwrap();
        assert_eq!(open.option_count(200, 1000), 1000);
    }

    #[test]
    fn ranges_of_counts_are_the_counts_listed_and_print_back() {
        let same = |ranged: &str, listed: &str| {
            let (a, b) = (ranged.parse::<TakeBreak>(), listed.parse::<TakeBreak>());
            assert_eq!(a.unwrap(), b.unwrap(), "{ranged} = {listed}");
        };
        same("0.{2..5}", "0.{2,3,4,5}");
        same("{2..6}.0", "{2,3,4,5,6}.0");
        same("0.{1..3,5}!", "0.{1,2,3,5}!");
        same("0.{3..3}", "0.8");
        same("0.{0..2}", "0.7");
        same("0.{2,4..6,3}", "0.{2..6}");
        same("0.{2..200,201+}", "0.{2+}");
        same("0.{1..6,4+}", "0.{1+}");
        // A range up to the largest count is open: no heap has that many.
        same("0.{2..18446744073709551615}", "0.{2+}");
        // Sets past 62 are written in braces, runs of four or more as ranges.
        assert_eq!(canonical("{2..200}.0"), "{2..200}.0");
        assert_eq!(canonical("0.{2,3,63..70}"), "0.{2,3,63..70}");
        assert_eq!(canonical("0.{60..70}="), "0.{60..70}=");
        assert_eq!(canonical("0.{63,64,65}"), "0.{63,64,65}");
        assert_eq!(
            canonical("0.{1,1000000,3000000..3000003}"),
            "0.{1,1000000,3000000..3000003}"
        );
        assert_eq!(canonical("0.{1..4,6+}"), "0.{1..4,6+}");
        assert_eq!(canonical("0.{1..5}"), "0.&62;");
        for code in [
            "{2..200}.0",
            "0.{1,64..66}?",
            "4.{2,100+}=",
            "0.[{63}]",
            "0.{1..4,6+}",
        ] {
            let game: TakeBreak = code.parse().unwrap();
            assert_eq!(
                game.to_string().parse::<TakeBreak>().unwrap(),
                game,
                "{code}"
            );
        }
        let wide: TakeBreak = "0.{2..1000000}".parse().unwrap();
        assert_eq!(wide.max_parts(), Some(1_000_000));
        assert!("0.{2..5+}".parse::<TakeBreak>().is_err());
        assert!("0.{2..18446744073709551615}!".parse::<TakeBreak>().is_err());
    }

    #[test]
    fn option_counts_of_ranges_match_the_listing() {
        for code in ["0.{2..5}", "{3..40}.0", "0.{1,20..30}", "0.{2,63..70}"] {
            let game: TakeBreak = code.parse().unwrap();
            for n in [0, 1, 5, 24, 70] {
                let mut listed = 0;
                let _ = game.for_each_option(n, |_| {
                    listed += 1;
                    ControlFlow::Continue(())
                });
                assert_eq!(game.option_count(n, u64::MAX), listed, "{code} at {n}");
            }
        }
    }

    #[test]
    fn options_follow_the_digits() {
        let code: TakeBreak = "4!.137".parse().unwrap();
        let mut out = Options::new();
        code.options(&6, &mut out);
        let listed: Vec<Vec<usize>> = out.iter().map(<[usize]>::to_vec).collect();
        // d0 = 4!: unequal splits of 6; d1 = 1: none (6 != 1);
        // d2 = 3: heap 4; d3 = 7: heap 3 or split 3 into 1 + 2.
        assert_eq!(
            listed,
            [vec![1, 5], vec![2, 4], vec![4], vec![3], vec![1, 2]]
        );
        assert_eq!(code.max_parts(), Some(2));
        assert_eq!(code.max_take(), Some(3));
    }
}
