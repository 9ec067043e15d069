//! Tables of coin-turning games ([`CoinRule`]): the values of coins
//! `1..=N` by the definition, with the option values of the coins asked
//! for (what finding a move needs), and the Tartan table of a product.

use rustc_hash::FxHashMap;

use crate::bitset::{contains, first_absent, xor_translate_into};
use crate::error::human_bytes_near;
use crate::rules::CoinRule;
use crate::{Error, Nimber, Result, nim_field};

/// Where a coin table may stop, at coin `n`: when `progress(n)` says so
/// ([`Error::Interrupted`]) or the thread's [`Cancel`](crate::Cancel) token
/// has stopped (a server's deadline).
fn stop_point(n: usize, progress: &mut dyn FnMut(usize) -> bool) -> Result<()> {
    crate::cancel::check()?;
    if progress(n) {
        Ok(())
    } else {
        Err(Error::Interrupted { heaps: n as u64 })
    }
}

/// The values of coins `1..=to` of a rule, and for each coin the set of
/// nim-sums its moves can add (its option values), as bitsets when kept.
#[derive(Clone, Debug)]
pub struct CoinTable {
    /// `values[n] = g(n)`; `values[0]` is 0 (there is no coin 0).
    pub values: Vec<Nimber>,
    /// For the coins asked for, the bitset of `g(S)` over the sets `S` of
    /// other coins a move turning that coin may turn.
    options: FxHashMap<usize, Vec<u64>>,
}

impl CoinTable {
    /// Whether a move turning coin `n` can turn other coins worth `v`
    /// (false unless `n`'s options were kept).
    pub fn can_add(&self, n: usize, v: Nimber) -> bool {
        self.options
            .get(&n)
            .is_some_and(|set| contains(set, v.get()))
    }

    /// The option values of coin `n` (kept ones only), in increasing order.
    pub fn option_values(&self, n: usize) -> impl Iterator<Item = Nimber> + '_ {
        let set = self.options.get(&n).map_or(&[][..], |s| &s[..]);
        (0..set.len() as u32 * 64)
            .filter(|&v| contains(set, v))
            .map(Nimber::new)
    }
}

/// Values of the product game `columns * rows` on coins `(x, y)`, `1 <= x, y
/// <= to`: `table[y][x] = g_columns(x) ⊗ g_rows(y)` (Tartan theorem).
///
/// The rules' tables are bounded by `memory_limit` and `work_limit` (as
/// [`CoinRule::table`]).
pub fn tartan_table(
    columns: &CoinRule,
    rows: &CoinRule,
    to: u64,
    memory_limit: u64,
    work_limit: u64,
) -> Result<Vec<Vec<Nimber>>> {
    let side = u128::from(to) + 1;
    if side * side * 4 > u128::from(memory_limit) {
        return Err(Error::TableTooLarge {
            to,
            needed: human_bytes_near(side * side * 4, u128::from(memory_limit)),
            limit: human_bytes_near(u128::from(memory_limit), side * side * 4),
        });
    }
    let across = columns.values_within(to, memory_limit, work_limit, &mut |_| true)?;
    let down = rows.values_within(to, memory_limit, work_limit, &mut |_| true)?;
    Ok(down
        .iter()
        .map(|&gy| across.iter().map(|&gx| nim_product(gx, gy)).collect())
        .collect())
}

/// The nim-product `a ⊗ b` of two values (Tartan theorem: a grid's head
/// is worth the product of its column's and row's values).
pub fn nim_product(a: Nimber, b: Nimber) -> Nimber {
    // Values below 2^32 lie in the subfield GF(2^32), closed under products.
    Nimber::new(nim_field::mul(u64::from(a.get()), u64::from(b.get())) as u32)
}

impl CoinRule {
    /// The value of coin `n` (closed form, or computed up to `n` within
    /// `memory_limit` bytes).
    pub fn value(&self, n: u64, memory_limit: u64) -> Result<u64> {
        if n == 0 {
            return Err(Error::InvalidPosition {
                text: "0".into(),
                reason: "coins are numbered from 1".into(),
            });
        }
        if let Some(v) = self.closed_form(n) {
            return Ok(v);
        }
        let table = self.table(n, &[], memory_limit, super::DEFAULT_WORK)?;
        Ok(u64::from(table.values[n as usize]))
    }

    /// `g(0..=to)` (`g(0) = 0`: there is no coin 0), from the closed form
    /// when there is one, else by [`CoinRule::table`], calling
    /// `progress(n)` every few thousand coins (`false` stops the run with
    /// [`Error::Interrupted`]).
    pub fn values(
        &self,
        to: u64,
        memory_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Vec<Nimber>> {
        self.values_within(to, memory_limit, u64::MAX, progress)
    }

    /// [`CoinRule::values`] within `work_limit` machine-word operations of
    /// a table by the definition ([`Error::WorkLimit`] as soon as the table
    /// is sure to pass it; see [`CoinRule::table`]). Grunt's values are
    /// Grundy's game's, from its heap engine, with `progress` too.
    pub(crate) fn values_within(
        &self,
        to: u64,
        memory_limit: u64,
        work_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Vec<Nimber>> {
        if self.closed_form(1).is_some() {
            let needed = (u128::from(to) + 1) * 4;
            if needed > u128::from(memory_limit) {
                return Err(Error::TableTooLarge {
                    to,
                    needed: human_bytes_near(needed, u128::from(memory_limit)),
                    limit: human_bytes_near(u128::from(memory_limit), needed),
                });
            }
            return std::iter::once(Ok(Nimber::ZERO))
                .chain((1..=to).map(|n| {
                    let v = self.closed_form(n).unwrap_or(0);
                    u32::try_from(v)
                        .map(Nimber::new)
                        .map_err(|_| Error::NimberOverflow { value: v })
                }))
                .collect();
        }
        if *self == CoinRule::Grunt {
            // Coin n + 1 is heap n of Grundy's game, computed by its engine.
            // Its table and the four-byte values returned fit the limit
            // together.
            let grundy: crate::HeapGame = "grundy".parse()?;
            let solver = crate::TableSolver::new().with_memory_limit(memory_limit);
            let last = to.saturating_sub(1);
            let returned = (u128::from(to) + 1) * 4;
            solver.check_bytes(to, solver.table_bytes(last) + returned)?;
            let mut heaps = crate::ValueTable::new();
            solver.extend(&grundy, &mut heaps, last, progress)?;
            return Ok(std::iter::once(Nimber::ZERO)
                .chain(heaps.iter().take(to as usize))
                .collect());
        }
        Ok(self
            .table_with_progress(to, &[], memory_limit, work_limit, progress)?
            .values)
    }

    /// Values of coins `1..=to` by the definition (no closed forms), with
    /// the option bitsets of the coins in `keep` (sorted).
    ///
    /// For `turn(k)` and `turn(=k)`, `reach[j]` holds the nim-sums of every
    /// `j` distinct coins seen so far; coin `n` may add any of `reach[0..k]`
    /// (`turn(k)`) or `reach[k - 1]` (`turn(=k)`), and then joins them:
    /// `reach[j] |= reach[j - 1] ^ g(n)`. Values stay below twice the coin
    /// count, so a table of `N` coins costs `O(N k N / 64)` word operations.
    /// The other rules list each coin's moves: `n` runs for the ruler
    /// (closed form aside), `n / 2` symmetric sets for Grunt, the allowed
    /// run lengths up to `n` for `runs(...)`, each run's nim-sum one XOR
    /// of two prefix sums `g(1) ^ ... ^ g(i)` (so a gap between lengths
    /// costs nothing).
    ///
    /// A table that would pass `work_limit` machine-word operations (a move
    /// listed counts as one) is refused with [`Error::WorkLimit`]: before
    /// it starts where the count is known (the listed rules), as soon as it
    /// is sure to pass it otherwise.
    pub fn table(
        &self,
        to: u64,
        keep: &[usize],
        memory_limit: u64,
        work_limit: u64,
    ) -> Result<CoinTable> {
        self.table_with_progress(to, keep, memory_limit, work_limit, &mut |_| true)
    }

    /// The moves listed by a table of coins `1..=to` of a rule whose moves
    /// are listed ([`CoinRule::each_completion`]), at most.
    fn listed_moves(&self, to: u64) -> u128 {
        let to = u128::from(to);
        match *self {
            CoinRule::Ruler => to * (to + 1) / 2,
            CoinRule::Grunt => to * (to + 1) / 4 + to,
            CoinRule::Runs(ref lengths) => lengths.runs_listed(to as u64),
            CoinRule::UpTo(_) | CoinRule::Exactly(_) => 0,
        }
    }

    fn table_with_progress(
        &self,
        to: u64,
        keep: &[usize],
        memory_limit: u64,
        work_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<CoinTable> {
        let to = usize::try_from(to).unwrap_or(usize::MAX);
        let coins = to.saturating_add(1);
        // Bitsets of at most 2(to + 1) bits, one per reachable count, plus
        // the options kept per coin.
        let words = (2 * coins as u128).next_power_of_two().div_ceil(64);
        let kept = keep.len() as u128;
        // Runs keep the prefix sums too: four bytes more per coin.
        let per_coin = if self.longest_run().is_some() || *self == CoinRule::Ruler {
            8
        } else {
            4
        };
        // The bytes of the table with bitsets of `words` words each.
        let bytes =
            |words: u128| (self.turned() as u128 + 1 + kept) * words * 8 + coins as u128 * per_coin;
        let too_large = |needed: u128| Error::TableTooLarge {
            to: to as u64,
            needed: human_bytes_near(needed, u128::from(memory_limit)),
            limit: human_bytes_near(u128::from(memory_limit), needed),
        };
        if bytes(words) > u128::from(memory_limit) {
            return Err(too_large(bytes(words)));
        }
        let listed = self.listed_moves(to as u64);
        if listed > u128::from(work_limit) {
            return Err(Error::WorkLimit {
                what: format!("a table of {self} to coin {to}, listing every move,"),
                at_least: listed,
                limit: work_limit,
            });
        }
        let mut values = vec![Nimber::ZERO; coins];
        let mut options = FxHashMap::default();
        let kept = |n: usize| keep.binary_search(&n).is_ok();
        match *self {
            CoinRule::UpTo(k) | CoinRule::Exactly(k) => {
                let exactly = matches!(self, CoinRule::Exactly(_));
                let mut width = 1usize; // words per bitset, doubled as values grow
                let mut reach: Vec<Vec<u64>> = vec![vec![0; width]; k];
                reach[0][0] = 1;
                let mut union = Vec::new();
                // Word operations: a coin ORs `counts` bitsets and shifts
                // `k - 1` of them, `width` words each; the rest of the
                // table costs at least that much per coin, as the values
                // (and `width`) only grow.
                let per_word = if exactly { 1 } else { k } as u128 + k as u128 - 1;
                let mut work = 0u128;
                for (n, value) in values.iter_mut().enumerate().skip(1) {
                    if n % 1024 == 0 {
                        stop_point(n, progress)?;
                    }
                    work += per_word * width as u128;
                    let at_least = work + per_word * width as u128 * (coins - 1 - n) as u128;
                    if at_least > u128::from(work_limit) {
                        return Err(Error::WorkLimit {
                            what: format!("a table of {self} to coin {to}"),
                            at_least,
                            limit: work_limit,
                        });
                    }
                    union.clear();
                    union.resize(width, 0);
                    let counts = if exactly { k - 1..k } else { 0..k };
                    for set in &reach[counts] {
                        union.iter_mut().zip(set).for_each(|(u, s)| *u |= s);
                    }
                    let g = first_absent(&union);
                    *value = Nimber::new(g);
                    if kept(n) {
                        options.insert(n, union.clone());
                    }
                    while g as usize >= width * 64 {
                        width *= 2;
                        // Values grow past twice the coins for k >= 4.
                        if bytes(width as u128) > u128::from(memory_limit) {
                            return Err(too_large(bytes(width as u128)));
                        }
                        reach.iter_mut().for_each(|set| set.resize(width, 0));
                    }
                    for j in (1..k).rev() {
                        let (lower, upper) = reach.split_at_mut(j);
                        xor_translate_into(&lower[j - 1], g, &mut upper[0]);
                    }
                }
            }
            CoinRule::Ruler | CoinRule::Runs(_) | CoinRule::Grunt => {
                let runs = *self != CoinRule::Grunt;
                // prefix[i] = g(1) ^ ... ^ g(i), for the runs.
                let mut prefix = Vec::with_capacity(if runs { coins } else { 0 });
                prefix.extend(runs.then_some(Nimber::ZERO));
                let mut found = Vec::new();
                for n in 1..coins {
                    if n % 1024 == 0 {
                        stop_point(n, progress)?;
                    }
                    found.clear();
                    if runs {
                        // The j coins left of n: g(n - j) ^ ... ^ g(n - 1).
                        let left = |j: usize| prefix[n - 1] ^ prefix[n - 1 - j];
                        self.each_run(n, &left, &mut |sum, _| {
                            found.push(sum);
                            false
                        });
                    } else {
                        self.each_completion(&values, n, &mut |sum, _| {
                            found.push(sum);
                            false
                        });
                    }
                    let mut set =
                        vec![0u64; (found.iter().max().map_or(0, |v| v.index()) / 64) + 2];
                    for v in &found {
                        set[v.index() / 64] |= 1 << (v.get() % 64);
                    }
                    values[n] = Nimber::new(first_absent(&set));
                    if runs {
                        prefix.push(prefix[n - 1] ^ values[n]);
                    }
                    if kept(n) {
                        options.insert(n, set);
                    }
                }
            }
        }
        Ok(CoinTable { values, options })
    }
}
