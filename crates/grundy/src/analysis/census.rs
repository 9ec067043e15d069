//! A census: every game of a family analysed, one row each, and the games
//! grouped into classes of equal value sequences.
//!
//! Researchers work in tables (Flammenkamp's pages of every `0.???` and
//! `4.???`, Czajka's lists of trivial, solved and unsolved games and his
//! lookup of equivalent codes), so the unit here is a family:
//!
//! - [`expand_family`] turns a pattern (`0.??`, `4.???`, `0.?7`,
//!   `0.[0-f][137]`) into its games, each code once;
//! - [`census_game`] analyses one game adaptively (as `grundy analyze`
//!   does) up to a largest heap, within a time budget (a
//!   [`Cancel`](crate::Cancel) token) and the solver's memory limit, and
//!   returns its [`CensusRow`]; a game cut by a budget says so and is never
//!   proven;
//! - [`classify`] groups rows into classes: identical sequences, or
//!   identical after the offset of Czajka's `GameLookup.md` (a game that may
//!   not take a lone token is often another game with every heap one
//!   smaller). A class is *proven* only through two periodicity proofs and
//!   [`equality_reach`]; otherwise it says up to which heap the members
//!   agree. Rows carry fingerprints of their values ([`Digest`]), so shards
//!   computed on different machines can be classified together.
//!
//! ```
//! use grundy::analysis::{CensusLimits, census_game, classify, expand_family};
//! use grundy::TableSolver;
//! let games = expand_family("0.?7")?;
//! assert_eq!(games.len(), 8); // 0.07, 0.17, ..., 0.77
//! let limits = CensusLimits { max: 1 << 12, time_per_game: None };
//! let mut rows: Vec<_> = games
//!     .iter()
//!     .map(|g| census_game(g, &limits, &TableSolver::new()))
//!     .collect::<Result<_, _>>()?;
//! classify(&mut rows);
//! let kayles = rows.iter().find(|r| r.game == "0.77").unwrap();
//! assert_eq!((kayles.preperiod, kayles.period, kayles.proven), (Some(71), Some(12), true));
//! # Ok::<(), grundy::Error>(())
//! ```

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use super::{Analysis, Limits, Periodicity, analyze_from, equality_reach};
use crate::report::{CensusRow, Digest, Stopped, czajka_spelling};
use crate::{Cancel, Error, HeapGame, Result, TableSolver, TakeBreak, ValueTable};

/// The largest heap of a census game's first step; each further step
/// doubles it, up to the census's largest heap.
pub const CENSUS_START: u64 = 1 << 10;

/// The most games a family pattern may expand to.
pub const FAMILY_LIMIT: usize = 1 << 16;

/// How far each game of a census is analysed.
#[derive(Clone, Debug)]
pub struct CensusLimits {
    /// The largest heap an analysis computes.
    pub max: u64,
    /// The wall time each game may take; `None` for no limit. A step not
    /// expected to end within it is not started (see [`census_game`]).
    pub time_per_game: Option<Duration>,
}

/// The games of a family pattern, each code once, in [`family_order`].
///
/// In a take-and-break code, `?` stands for any octal digit `0`–`7` and
/// `[…]` for a set of digits, with ranges (`[0-f]` for every hexadecimal
/// digit, `[137]`); every other character is taken as written. A pattern
/// without either is a single game (any heap game spec). Codes that differ
/// only by trailing zeros are one game (`0.70` is `0.7`), and the code
/// without moves (`0.0`) is left out.
pub fn expand_family(pattern: &str) -> Result<Vec<HeapGame>> {
    let pattern = pattern.trim();
    let invalid = |position: usize, reason: &str| Error::InvalidCode {
        code: pattern.to_owned(),
        position,
        reason: reason.to_owned(),
    };
    let mut choices: Vec<Vec<char>> = Vec::new();
    let mut chars = pattern.char_indices().peekable();
    let mut wild = false;
    while let Some((at, c)) = chars.next() {
        match c {
            '?' => {
                wild = true;
                choices.push(('0'..='7').collect());
            }
            '[' => {
                wild = true;
                let mut set = BTreeSet::new();
                let mut closed = false;
                while let Some((at, d)) = chars.next() {
                    if d == ']' {
                        closed = true;
                        break;
                    }
                    let digit = |d: char| {
                        d.to_digit(16)
                            .ok_or_else(|| invalid(at + 1, "expected a hexadecimal digit in [...]"))
                    };
                    let low = digit(d)?;
                    let high = if chars.peek().is_some_and(|&(_, c)| c == '-') {
                        chars.next();
                        let (at, e) = chars
                            .next()
                            .ok_or_else(|| invalid(at + 1, "a range needs an end"))?;
                        e.to_digit(16)
                            .ok_or_else(|| invalid(at + 1, "expected a hexadecimal digit"))?
                    } else {
                        low
                    };
                    if high < low {
                        return Err(invalid(at + 1, "a range must go up"));
                    }
                    set.extend((low..=high).filter_map(|v| char::from_digit(v, 16)));
                }
                if !closed || set.is_empty() {
                    return Err(invalid(at + 1, "a digit set needs digits and a closing ]"));
                }
                choices.push(set.into_iter().collect());
            }
            other => choices.push(vec![other]),
        }
    }
    if !wild {
        return Ok(vec![pattern.parse()?]);
    }
    let total = choices
        .iter()
        .try_fold(1usize, |n, c| n.checked_mul(c.len()))
        .filter(|&n| n <= FAMILY_LIMIT)
        .ok_or_else(|| {
            invalid(
                1,
                &format!(
                    "the family has more than {FAMILY_LIMIT} games; split it into smaller patterns"
                ),
            )
        })?;
    let mut games: Vec<HeapGame> = Vec::with_capacity(total);
    for index in 0..total {
        let mut rest = index;
        let mut code = String::with_capacity(choices.len());
        for choice in choices.iter().rev() {
            code.insert(0, choice[rest % choice.len()]);
            rest /= choice.len();
        }
        let game: TakeBreak = code.parse()?;
        if !game.to_string().chars().all(|c| c == '0' || c == '.') {
            games.push(HeapGame::TakeBreak(game));
        }
    }
    Ok(in_census_order(games))
}

/// The games of a list, one spec or pattern per line (blank lines and
/// `#` comments skipped), each through [`expand_family`].
pub fn expand_list(text: &str) -> Result<Vec<HeapGame>> {
    let mut games = Vec::new();
    for line in text.lines() {
        let spec = line.split('#').next().unwrap_or("").trim();
        if !spec.is_empty() {
            games.extend(expand_family(spec)?);
        }
    }
    Ok(in_census_order(games))
}

/// `games` each once (by canonical code), in [`family_order`].
pub fn in_census_order(games: Vec<HeapGame>) -> Vec<HeapGame> {
    let mut named: Vec<(String, HeapGame)> =
        games.into_iter().map(|g| (g.to_string(), g)).collect();
    named.sort_by_key(|a| family_order(&a.0));
    named.dedup_by(|a, b| a.0 == b.0);
    named.into_iter().map(|(_, game)| game).collect()
}

/// The `k`-th of `n` shares of games in census order: every `n`-th game
/// from the `k`-th, so that shares of a family mix cheap and costly games
/// alike. A share outside `1 <= k <= n` is an error ([`Error::InvalidShard`]).
pub fn shard(games: Vec<HeapGame>, k: usize, n: usize) -> Result<Vec<HeapGame>> {
    check_shard(k, n)?;
    Ok(games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, game)| game)
        .collect())
}

/// Whether `k/n` names a share: `1 <= k <= n`.
pub fn check_shard(k: usize, n: usize) -> Result<()> {
    if k == 0 || k > n {
        return Err(Error::InvalidShard { k, n });
    }
    Ok(())
}

/// A rough rank of how long a game's census takes, for starting the
/// costliest first (so that the last game to finish is a cheap one): games
/// that split heaps into more parts, with more splitting digits and longer
/// codes, tend to need longer tables and pay more per heap. Only the order
/// matters.
pub fn expected_cost(game: &HeapGame) -> u64 {
    match game {
        HeapGame::TakeBreak(code) => {
            let parts = code.max_parts().unwrap_or(usize::MAX).min(64) as u64;
            let take = code.max_take().unwrap_or(64).min(64) as u64;
            let splitting = code.octal_digits().map_or(64, |digits| {
                digits.iter().filter(|d| d.1 >= 4).count() as u64
            });
            (parts << 16) | (splitting << 8) | take
        }
        _ => 0,
    }
}

/// The order of a census (and the member that names a class): by the
/// length of the code in Czajka's spelling, then by that spelling, where a
/// code `0.d1d2…` is written `.d1d2…` and `d0.0` is written `d0`. So `.4`
/// comes before `.07` and `.51` before `4.1`, as in `GameLookup.md`.
pub fn family_order(code: &str) -> (usize, String) {
    let short = czajka_spelling(code);
    (short.len(), short)
}

/// Analyses `game` for a census: adaptively, as far as a proof needs and
/// at most to `limits.max`, in steps that double the largest heap (each
/// resuming from the values before), on one thread, under a time budget.
///
/// The row is the last step that finished: when the budget stops a step
/// (time, or the solver's memory limit for the next table), the row keeps
/// what the previous step found, with `stopped` saying why and `proven`
/// false. A step that is not expected to end within the time budget is
/// not started ([`next_step_fits`]), unless the period seen so far could
/// be proven within it: its work would be thrown away when the budget cut
/// it, and the row would be the same. Errors other than budgets (none for
/// take-and-break codes) are returned.
pub fn census_game(
    game: &HeapGame,
    limits: &CensusLimits,
    solver: &TableSolver,
) -> Result<CensusRow> {
    let started = Instant::now();
    let token = limits
        .time_per_game
        .map_or_else(Cancel::new, Cancel::with_time_limit);
    let solver = solver.clone().with_threads(1);
    let mut values = ValueTable::new();
    let mut last: Option<CensusRow> = None;
    let mut target = CENSUS_START.min(limits.max);
    let mut before: Option<Duration> = None;
    let stopped = loop {
        if solver.check_fits_for(game, target).is_err() {
            break Some(Stopped::Memory);
        }
        let step = Limits {
            to: None,
            max: target,
            ..Limits::default()
        };
        let taken = std::mem::take(&mut values);
        let step_started = Instant::now();
        match token.run(|| analyze_from(game, taken, &step, &solver, &mut |_| true)) {
            Ok(found) => {
                let took = step_started.elapsed();
                let proven = found.is_proven();
                last = Some(row_of(&found, limits.max));
                if proven {
                    break None;
                }
                if target >= limits.max {
                    break Some(Stopped::Max);
                }
                let next = target.saturating_mul(2).min(limits.max);
                let proof_in_reach = found
                    .heaps_needed_for_proof()
                    .is_some_and(|needed| needed as u64 <= next);
                if let Some(limit) = limits.time_per_game
                    && !proof_in_reach
                    && !next_step_fits(started.elapsed(), took, before, limit)
                {
                    break Some(Stopped::Time);
                }
                before = Some(took);
                values = found.values;
                target = next;
            }
            Err(Error::TimeLimit { .. } | Error::Cancelled) => break Some(Stopped::Time),
            Err(
                Error::TableTooLarge { .. }
                | Error::HistogramTooLarge { .. }
                | Error::OutOfMemory { .. },
            ) => break Some(Stopped::Memory),
            Err(other) => return Err(other),
        }
    };
    let mut row = last.unwrap_or_else(|| empty_row(game));
    row.stopped = stopped;
    row.seconds = started.elapsed().as_secs_f64();
    Ok(row)
}

/// Whether the next step of a census game (twice the heaps of the last) is
/// expected to end within the game's time budget `limit`, `elapsed` into
/// it, when its last step took `took` and the one before it `before`. The
/// next step is taken to cost `took` times the growth from `before` to
/// `took`, kept between 1 and 4: a step doubles the heaps, so an engine
/// linear in the heaps pays twice the step before, and one quadratic in
/// them (every split pair: the dense engine, or sparse games with most
/// heaps rare) four times. With no step before, it is expected to fit.
fn next_step_fits(
    elapsed: Duration,
    took: Duration,
    before: Option<Duration>,
    limit: Duration,
) -> bool {
    let Some(before) = before.filter(|b| !b.is_zero()) else {
        return true;
    };
    let growth = (took.as_secs_f64() / before.as_secs_f64()).clamp(1.0, 4.0);
    elapsed.as_secs_f64() + took.as_secs_f64() * growth <= limit.as_secs_f64()
}

/// The row of a game stopped before its first step finished (and the
/// fields [`row_of`] leaves as they are).
fn empty_row(game: &impl std::fmt::Display) -> CensusRow {
    CensusRow {
        game: game.to_string(),
        period: None,
        preperiod: None,
        saltus: None,
        proven: false,
        support: "none".into(),
        theorem: None,
        last_heap_needed: None,
        heaps_needed_for_proof: None,
        computed_to: 0,
        max_value: 0,
        max_value_at: 0,
        rare_mask: None,
        rare_count: None,
        last_rare: None,
        position_parity: None,
        stopped: None,
        seconds: 0.0,
        class: None,
        class_offset: 0,
        class_proven: false,
        class_equal_to: None,
        digests: Vec::new(),
    }
}

/// The row of an analysis (unclassified). A proven periodicity extends the
/// values to every heap, so its fingerprints reach `max` however early the
/// proof came.
fn row_of(found: &Analysis, max: u64) -> CensusRow {
    let (max_value, max_value_at) = found.max_value();
    let period = found.periodicity;
    let (theorem, last_heap_needed) = found.proof().unzip();
    let theorem = theorem.map(str::to_owned);
    let sparse = found.sparse.as_ref();
    let known = found.values.len();
    let proven = period.filter(|_| found.is_proven());
    let heaps = match proven {
        Some(_) => (known as u64).max(max.saturating_add(1)),
        None => known as u64,
    };
    CensusRow {
        game: found.game.clone(),
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        saltus: period.map(|p| p.saltus),
        proven: found.is_proven(),
        support: found.support_label().to_owned(),
        theorem,
        last_heap_needed,
        heaps_needed_for_proof: found.heaps_needed_for_proof(),
        computed_to: found.computed_to(),
        max_value: max_value.get(),
        max_value_at,
        rare_mask: sparse.map(|s| s.mask),
        rare_count: sparse.map(|s| s.rare_count),
        last_rare: sparse.and_then(|s| s.last_rare),
        position_parity: sparse.map(|s| s.position_parity),
        digests: digests(heaps, &found.values, proven),
        ..empty_row(&found.game)
    }
}

/// The Mersenne prime `2^61 - 1`, the modulus of the fingerprints.
const MODULUS: u64 = (1 << 61) - 1;

/// The two bases of the fingerprints (fixed, so that shards computed apart
/// agree).
const BASES: [u64; 2] = [
    0x1f2e_3d4c_5b6a_7989 % MODULUS,
    0x0123_4567_89ab_cdef % MODULUS,
];

/// A polynomial hash of a sequence, by two bases modulo `2^61 - 1`: two
/// different sequences of length `N` collide for a base with probability at
/// most `N / 2^61` (a non-zero polynomial of degree `N` has at most `N`
/// roots), so for both about `N^2 / 2^122`.
#[derive(Clone, Copy, Default)]
struct Fingerprint([u64; 2]);

/// `a * b` modulo `2^61 - 1`, reduced with shifts (`2^61 = 1` modulo the
/// prime) rather than a division.
fn mul_mod(a: u64, b: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    add_mod(x as u64 & MODULUS, (x >> 61) as u64)
}

/// `a + b` modulo `2^61 - 1`, for `a, b < 2^62`.
fn add_mod(a: u64, b: u64) -> u64 {
    let r = a + b;
    let r = (r & MODULUS) + (r >> 61);
    if r >= MODULUS { r - MODULUS } else { r }
}

impl Fingerprint {
    /// Appends `value`: `h <- h * base + value + 1 (mod 2^61 - 1)`.
    fn push(&mut self, value: u64) {
        let term = add_mod(value % MODULUS, 1);
        for (h, base) in self.0.iter_mut().zip(BASES) {
            *h = add_mod(mul_mod(*h, base), term);
        }
    }

    fn hex(self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }
}

/// The values of a game as far as a census row fingerprints them: the
/// table, and past it the proven periodicity, `g(n) = g(n - p) + s`.
struct Extended<'a> {
    values: &'a ValueTable,
    periodicity: Option<Periodicity>,
}

impl Extended<'_> {
    /// `g(n)`, for `n` in the table or past it through the periodicity.
    fn at(&self, n: u64) -> u64 {
        let known = self.values.len() as u64;
        match self.periodicity {
            Some(p) if n >= known => {
                let (pre, period) = (p.preperiod as u64, p.period as u64);
                let (periods, phase) = ((n - pre) / period, (n - pre) % period);
                u64::from(self.values.at((pre + phase) as usize))
                    .wrapping_add(periods.wrapping_mul(p.saltus))
            }
            _ => u64::from(self.values.at(n as usize)),
        }
    }

    /// Appends `g(from..to)` to `fingerprint`. Past the table, whole
    /// periods are appended at once: period `j` from here (values
    /// `g(n + i) + j * s`, `i < p`) maps `h` to `h * B + H + (L + j s) C`,
    /// with `B = b^p`, `H` the hash of one period, `L` its lift and
    /// `C = b^(p-1) + … + 1`; `k` periods compose to
    /// `h * B^k + H S1 + (L S1 + s S2) C` with `S1 = sum B^(k-1-j)` and
    /// `S2 = sum j B^(k-1-j)` over `j < k`, found by repeated squaring, so a
    /// proven game costs its table and a few periods, not `--max` pushes.
    fn append(&self, fingerprint: &mut Fingerprint, from: u64, to: u64) {
        let known = self.values.len() as u64;
        let mut n = from;
        while n < to.min(known) {
            fingerprint.push(self.at(n));
            n += 1;
        }
        let Some(p) = self.periodicity else {
            return;
        };
        let (pre, period) = (p.preperiod as u64, p.period as u64);
        // To the start of a period (a whole one fits only past it).
        while n < to && !(n - pre).is_multiple_of(period) {
            fingerprint.push(self.at(n));
            n += 1;
        }
        let periods = (to - n) / period;
        if periods > 0 {
            let lift = self
                .at(n)
                .wrapping_sub(u64::from(self.values.at(pre as usize)));
            for (h, base) in fingerprint.0.iter_mut().zip(BASES) {
                let (mut one, mut ones, mut power) = (0, 0, 1);
                for i in 0..period {
                    let v = u64::from(self.values.at((pre + i) as usize)) % MODULUS;
                    one = add_mod(mul_mod(one, base), add_mod(v, 1));
                    ones = add_mod(mul_mod(ones, base), 1);
                    power = mul_mod(power, base);
                }
                let (bk, s1, s2) = geometric(power, periods);
                let lifted = add_mod(mul_mod(lift % MODULUS, s1), mul_mod(p.saltus % MODULUS, s2));
                *h = add_mod(
                    add_mod(mul_mod(*h, bk), mul_mod(one, s1)),
                    mul_mod(lifted, ones),
                );
            }
            n += periods * period;
        }
        while n < to {
            fingerprint.push(self.at(n));
            n += 1;
        }
    }
}

/// `(B^k, S1, S2)` with `S1 = sum B^(k-1-j)` and `S2 = sum j B^(k-1-j)`
/// over `0 <= j < k`, modulo `2^61 - 1`, in `O(log k)` steps: `k` periods
/// are `a` periods then `b`, with `S1(a + b) = S1(a) B^b + S1(b)` and
/// `S2(a + b) = S2(a) B^b + a S1(b) + S2(b)`.
fn geometric(base: u64, k: u64) -> (u64, u64, u64) {
    let join = |(pa, s1a, s2a, a): (u64, u64, u64, u64),
                (pb, s1b, s2b, b): (u64, u64, u64, u64)| {
        (
            mul_mod(pa, pb),
            add_mod(mul_mod(s1a, pb), s1b),
            add_mod(add_mod(mul_mod(s2a, pb), mul_mod(a % MODULUS, s1b)), s2b),
            a + b,
        )
    };
    let mut done = (1, 0, 0, 0);
    for bit in (0..64 - k.leading_zeros()).rev() {
        done = join(done, done);
        if k >> bit & 1 == 1 {
            done = join(done, (base, 1, 0, 1));
        }
    }
    (done.0, done.1, done.2)
}

/// Fingerprints of `g(0..l)` and `g(1..=l)` for each length `l` that is a
/// power of two below `heaps`, and for `l = heaps - 1`, of the table
/// `values` extended by the proven `periodicity` (needed for `heaps` past
/// the table).
fn digests(heaps: u64, values: &ValueTable, periodicity: Option<Periodicity>) -> Vec<Digest> {
    if heaps < 2 {
        return Vec::new();
    }
    let last = heaps - 1;
    let values = Extended {
        values,
        periodicity,
    };
    let lengths = (0..64)
        .map(|k| 1u64 << k)
        .take_while(|&l| l < last)
        .chain([last]);
    let (mut same, mut shifted) = (Fingerprint::default(), Fingerprint::default());
    let mut reached = 0;
    let mut found = Vec::new();
    for l in lengths {
        // `same` holds g(0..reached), `shifted` g(1..=reached).
        values.append(&mut same, reached, l);
        values.append(&mut shifted, reached + 1, l + 1);
        reached = l;
        found.push(Digest {
            heaps: l,
            same: same.hex(),
            shifted: shifted.hex(),
        });
    }
    found
}

/// How a row joined its class, relative to the class's anchor (its
/// longest-computed game), or how two rows compare ([`same_values`]).
#[derive(Clone, Copy)]
struct Joined {
    /// The class.
    class: usize,
    /// `g_row(n) = g_anchor(n + offset)`.
    offset: i64,
    /// The heaps compared with the anchor (`u64::MAX` for the anchor).
    compared: u64,
    /// Proven equal to the anchor for every heap.
    proven: bool,
}

/// Groups rows into classes and fills in their `class` fields; sorts the
/// rows into [`family_order`].
///
/// Rows are taken longest-computed first; each joins the first class with
/// a member that has the same values on every heap both fingerprinted, at
/// offset 0 or ±1 (so offsets add up along a chain: `0.13` is `0.03` one
/// heap on, which is `0.02` one heap on), provided that member agrees with
/// the class's first row (its anchor, computed furthest) on at least as
/// many heaps; else the row starts a class. Every member then agrees with
/// the anchor, so with every other member, on the heaps both computed, and
/// two games that differ there are never grouped. A member is proven equal
/// to its class when each link of its chain is: both periodicities proven,
/// plain, and the values agreeing on `0..equality_reach` (for a shifted
/// game the pre-period of `g(n + 1)` is one less). Equality on fingerprints is up to hash collisions, which
/// `Fingerprint` makes improbable rather than impossible.
pub fn classify(rows: &mut [CensusRow]) {
    let horizon = |r: &CensusRow| r.digests.last().map_or(0, |d| d.heaps);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        horizon(&rows[b])
            .cmp(&horizon(&rows[a]))
            .then_with(|| family_order(&rows[a].game).cmp(&family_order(&rows[b].game)))
    });
    // Each class: its members, the anchor first.
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut joined: Vec<Option<Joined>> = vec![None; rows.len()];
    for &i in &order {
        let found = classes.iter().enumerate().find_map(|(c, members)| {
            members.iter().find_map(|&m| {
                let to = joined[m].expect("members are joined");
                let j = same_values(&rows[i], &rows[m]).filter(|j| j.compared <= to.compared)?;
                Some(Joined {
                    class: c,
                    offset: j.offset + to.offset,
                    compared: j.compared,
                    proven: j.proven && to.proven,
                })
            })
        });
        joined[i] = Some(found.unwrap_or_else(|| {
            classes.push(Vec::new());
            Joined {
                class: classes.len() - 1,
                offset: 0,
                compared: u64::MAX,
                proven: true,
            }
        }));
        if let Some(j) = joined[i] {
            classes[j.class].push(i);
        }
    }
    let joined: Vec<Joined> = joined.into_iter().flatten().collect();
    for members in &classes {
        let name = *members
            .iter()
            .min_by_key(|&&m| family_order(&rows[m].game))
            .expect("an anchor is its own member");
        let (to_name, class) = (joined[name], rows[name].game.clone());
        for &m in members {
            let row = &mut rows[m];
            row.class = Some(class.clone());
            row.class_offset = joined[m].offset - to_name.offset;
            row.class_proven = m == name || (joined[m].proven && to_name.proven);
            row.class_equal_to =
                (m != name).then(|| joined[m].compared.min(to_name.compared).saturating_sub(1));
        }
    }
    rows.sort_by_key(|a| family_order(&a.game));
}

/// Whether `row` has the values of `anchor` at offset 0, 1 or -1 on every
/// heap both fingerprinted: how, and whether it is proven (the `class` of
/// the answer is left 0).
fn same_values(row: &CensusRow, anchor: &CensusRow) -> Option<Joined> {
    let common = row.digests.iter().rev().find_map(|d| {
        anchor
            .digests
            .iter()
            .find(|e| e.heaps == d.heaps)
            .map(|e| (d, e))
    });
    let (mine, theirs) = common?;
    let offset = if mine.same == theirs.same {
        0
    } else if mine.same == theirs.shifted {
        1
    } else if mine.shifted == theirs.same {
        -1
    } else {
        return None;
    };
    let shifted = |r: &CensusRow, by: i64| -> Option<Periodicity> {
        r.proven.then_some(())?;
        let p = Periodicity {
            preperiod: r.preperiod?,
            period: r.period?,
            saltus: r.saltus?,
        };
        Some(Periodicity {
            preperiod: if by > 0 {
                p.preperiod.saturating_sub(1)
            } else {
                p.preperiod
            },
            ..p
        })
    };
    let reach = shifted(row, -offset)
        .zip(shifted(anchor, offset))
        .and_then(|(x, y)| equality_reach(&x, &y));
    Some(Joined {
        class: 0,
        offset,
        compared: mine.heaps,
        proven: reach.is_some_and(|reach| reach <= mine.heaps),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_expand_to_each_code_once() {
        let games = expand_family("0.?").unwrap();
        let codes: Vec<String> = games.iter().map(ToString::to_string).collect();
        assert_eq!(codes, ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"]);
        // 0.?? holds the 0.? games once each: 63 codes with a move.
        assert_eq!(expand_family("0.??").unwrap().len(), 63);
        assert_eq!(expand_family("0.[0-f]").unwrap().len(), 15);
        assert_eq!(expand_family("0.[13]7").unwrap().len(), 2);
        assert_eq!(expand_family("kayles").unwrap()[0].to_string(), "0.77");
        let listed = expand_list("# Kayles twice\n0.77\nkayles\n\n0.?7 # and its kin\n").unwrap();
        assert_eq!(listed.len(), 8);
        let shares: Vec<usize> = (1..=3)
            .map(|k| shard(listed.clone(), k, 3).unwrap().len())
            .collect();
        assert!(shard(listed.clone(), 0, 3).is_err() && shard(listed.clone(), 4, 3).is_err());
        assert_eq!(shares, [3, 3, 2]);
        for bad in ["0.[", "0.[z]", "0.[7-1]", "0.[]", "0.????????"] {
            assert!(expand_family(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn czajkas_order_names_the_classes_of_his_lookup_table() {
        assert_eq!(czajka_spelling("0.07"), ".07");
        assert_eq!(czajka_spelling("4.0"), "4");
        assert_eq!(czajka_spelling("4.12"), "4.12");
        assert!(family_order("0.4") < family_order("0.07"));
        assert!(family_order("0.51") < family_order("4.1"));
        assert!(family_order("4.0") < family_order("0.21"));
        assert!(family_order("0.776") < family_order("4.44"));
    }

    fn rows_of(codes: &[&str], max: u64) -> Vec<CensusRow> {
        let limits = CensusLimits {
            max,
            time_per_game: None,
        };
        let mut rows: Vec<CensusRow> = codes
            .iter()
            .map(|c| census_game(&c.parse().unwrap(), &limits, &TableSolver::new()).unwrap())
            .collect();
        classify(&mut rows);
        rows
    }

    /// GameLookup.md: 0.07 is 0.4 with every heap one smaller, 0.2 is 4.0,
    /// and 0.3 is 4.0 too, one heap on (g_0.3(n) = g_4.0(n + 1)); all proven, since each period is.
    #[test]
    fn classes_group_equal_and_offset_games_and_prove_them() {
        let rows = rows_of(&["0.07", "0.4", "0.2", "0.3", "4.0", "0.77"], 1 << 12);
        let row = |code: &str| rows.iter().find(|r| r.game == code).unwrap();
        assert_eq!(row("0.07").class.as_deref(), Some("0.4"));
        assert_eq!(row("0.07").class_offset, 1);
        assert!(row("0.07").class_proven);
        assert_eq!(row("0.2").class.as_deref(), Some("4.0"));
        assert_eq!(row("0.2").class_offset, 0);
        assert_eq!(row("0.3").class.as_deref(), Some("4.0"));
        assert_eq!(row("0.3").class_offset, 1);
        assert!(row("0.3").class_proven);
        assert_eq!(row("0.77").class.as_deref(), Some("0.77"));
        let order: Vec<&str> = rows.iter().map(|r| r.game.as_str()).collect();
        assert_eq!(order, ["4.0", "0.2", "0.3", "0.4", "0.07", "0.77"]);
    }

    /// Offsets checked against the values themselves.
    #[test]
    fn a_class_offset_means_what_it_says() {
        let solver = TableSolver::new();
        let rows = rows_of(&["0.07", "0.4", "0.3", "4.0"], 1 << 11);
        for row in &rows {
            let class = row.class.as_deref().unwrap();
            let mine = solver
                .values(&row.game.parse::<HeapGame>().unwrap(), 300)
                .unwrap();
            let theirs = solver
                .values(&class.parse::<HeapGame>().unwrap(), 302)
                .unwrap();
            for n in 1..299usize {
                let at = (n as i64 + row.class_offset) as usize;
                assert_eq!(mine.at(n), theirs.at(at), "{} heap {n}", row.game);
            }
        }
    }

    /// The fingerprints of a periodic extension, appended a period at a
    /// time, equal those of the values pushed one by one (the sequence
    /// written out by `g(n) = g(n - p) + s`), for plain and arithmetic
    /// periods, tables ending at any phase, and lengths not a multiple of
    /// the period.
    #[test]
    fn fingerprints_of_a_periodic_extension_equal_pushing_every_value() {
        for (pre, period, saltus, extra) in [
            (0, 1, 0, 0),
            (3, 2, 0, 1),
            (17, 5, 1, 3),
            (71, 12, 0, 7),
            (9, 34, 3, 33),
        ] {
            let known = pre + 2 * period + extra;
            // Any values for a pre-period and a period, then periodic.
            let mut first: Vec<u32> = (0..pre + period)
                .map(|n| ((n * 7 + n / 3) % 11) as u32)
                .collect();
            for n in pre + period..known {
                first.push(first[n - period] + saltus);
            }
            let table: ValueTable = first.into_iter().map(crate::Nimber::new).collect();
            let periodicity = Periodicity {
                preperiod: pre,
                period,
                saltus: u64::from(saltus),
            };
            for heaps in [known as u64, known as u64 + 1, 1000, 4097, (1 << 16) + 5] {
                let mut written: Vec<u64> = table.iter().map(u64::from).collect();
                while (written.len() as u64) < heaps {
                    written.push(written[written.len() - period] + u64::from(saltus));
                }
                let mut expected = Vec::new();
                let (mut same, mut shifted) = (Fingerprint::default(), Fingerprint::default());
                for l in 1..heaps {
                    same.push(written[l as usize - 1]);
                    shifted.push(written[l as usize]);
                    if l.is_power_of_two() || l == heaps - 1 {
                        expected.push(Digest {
                            heaps: l,
                            same: same.hex(),
                            shifted: shifted.hex(),
                        });
                    }
                }
                let found = digests(heaps, &table, Some(periodicity));
                assert_eq!(found, expected, "{pre} {period} {saltus} {heaps}");
            }
        }
    }

    /// The expected cost of a next step grows as the last two steps did,
    /// between 1 and 4 times the last.
    #[test]
    fn a_next_step_is_expected_to_grow_as_the_last_did() {
        let s = Duration::from_secs_f64;
        let limit = s(10.0);
        // Linear: 1 s then 2 s, 3 s gone; 4 s more fits, 6.5 s gone does not.
        assert!(next_step_fits(s(3.0), s(2.0), Some(s(1.0)), limit));
        assert!(!next_step_fits(s(6.5), s(2.0), Some(s(1.0)), limit));
        // Quadratic: 0.5 s then 2 s, 2.5 s gone: 8 s more does not fit.
        assert!(!next_step_fits(s(2.5), s(2.0), Some(s(0.5)), limit));
        // Growth above 4 counts as 4, below 1 as 1; no step before fits.
        assert!(next_step_fits(s(2.0), s(2.0), Some(s(0.01)), limit));
        assert!(!next_step_fits(s(2.1), s(2.0), Some(s(0.01)), limit));
        assert!(next_step_fits(s(7.0), s(2.0), Some(s(9.0)), limit));
        assert!(next_step_fits(s(9.0), s(2.0), None, limit));
    }

    /// A game cut by its time budget says so and is never proven, and an
    /// unproven game joins a class only "to heap N".
    #[test]
    fn budgets_cut_games_honestly() {
        let limits = CensusLimits {
            max: 1 << 20,
            time_per_game: Some(Duration::ZERO),
        };
        let row = census_game(&"0.6".parse().unwrap(), &limits, &TableSolver::new()).unwrap();
        assert_eq!(row.stopped, Some(Stopped::Time));
        assert!(!row.proven);
        let small = TableSolver::new().with_memory_limit(1 << 12);
        let limits = CensusLimits {
            max: 1 << 20,
            time_per_game: None,
        };
        let row = census_game(&"0.6".parse().unwrap(), &limits, &small).unwrap();
        assert_eq!(row.stopped, Some(Stopped::Memory));
        assert!(!row.proven);
    }

    /// Officers (0.6) is unsolved: at a small max its row is observed or
    /// aperiodic, "max", and a class of its own (nothing else in 0.? has its
    /// values).
    #[test]
    fn unsolved_games_stay_unproven() {
        let rows = rows_of(&["0.6", "0.7"], 1 << 11);
        let officers = rows.iter().find(|r| r.game == "0.6").unwrap();
        assert!(!officers.proven);
        assert_eq!(officers.stopped, Some(Stopped::Max));
        assert_eq!(officers.class.as_deref(), Some("0.6"));
        assert_eq!(officers.computed_to, 1 << 11);
    }
}
