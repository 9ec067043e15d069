//! The number theory behind the formula language's arithmetic functions
//! (`bigomega(n)`, `omega(n)`, `tau(n)`, `primepi(n)`): one number at a
//! time, and a whole range at a time by a segmented sieve.
//!
//! - One number ([`factorize`]): trial division by the small primes, then
//!   Miller–Rabin and Pollard's rho (Brent's cycle finding) on what is left,
//!   so any `u64` factors in microseconds; [`prime_count`] counts the primes
//!   up to `x` by Lucy Hedgehog's method, `O(x^(3/4))` steps in `O(sqrt x)`
//!   memory.
//! - A range ([`FactorSieve`]): a formula is counted over up to billions of
//!   heaps, one value each, so the factorizations come from a sieve of
//!   Eratosthenes over blocks of [`SEGMENT`] numbers: the factor 2 comes
//!   from each number's trailing zeros, then every odd prime power
//!   `p^k <= last` with `p <= sqrt(last)` strikes its multiples in the
//!   block, adding one prime factor each and multiplying a running product
//!   of the factors found; a number whose product falls short of it has
//!   exactly one more prime factor, above `sqrt(last)`. Memory is the block
//!   and the primes up to `sqrt(last)`, whatever the range; the primes up to
//!   a number (for `primepi`) are those counted below the range's start,
//!   by [`prime_count`], plus those the blocks find.
//!
//! What a range costs is known before it starts ([`sieve_cost`]), so a count
//! past [`SIEVE_WORK`] is refused rather than left running.

use crate::{Error, Knob, Result};

/// Numbers sieved at a time: the block's arrays (a running product of eight
/// bytes a number and a few small counts) stay within a core's cache.
pub(crate) const SEGMENT: usize = 1 << 16;

/// The most steps a count by a formula may take where it lists the heaps
/// one at a time (an expression's count): a step a heap, plus, for the
/// number-theoretic functions, the sieve's primes once a block and the
/// count of primes below the range. `bigomega(n)` over `10^9` heaps takes
/// about 7 seconds on one core, so this is a count of about `10^11` heaps,
/// minutes; past it a count is refused before it starts.
pub const SIEVE_WORK: u64 = 100_000_000_000;

/// The largest number the range sieve reaches: it keeps the odd prime
/// powers up to its square root, `2^25`, about two million of them
/// (48 MiB).
pub const SIEVE_LAST: u64 = 1 << 50;

/// The largest `x` whose primes are counted (for `primepi`): Lucy's
/// method takes `16 sqrt(x)` bytes, 16 MiB here, and about two seconds.
pub const PRIME_COUNT_LAST: u64 = 1 << 40;

/// The prime factors of `n >= 1` with their exponents, in increasing order
/// (none for 1).
pub(crate) fn factorize(n: u64) -> Vec<(u64, u32)> {
    let mut factors = Vec::new();
    let mut rest = n;
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut k = 0;
        while rest > 1 && rest.is_multiple_of(p) {
            rest /= p;
            k += 1;
        }
        if k > 0 {
            factors.push((p, k));
        }
    }
    // What is left has no factor below 41: split it into primes.
    let mut pending = if rest > 1 { vec![rest] } else { vec![] };
    let mut primes = Vec::new();
    while let Some(m) = pending.pop() {
        if super::count::is_prime(m) {
            primes.push(m);
        } else {
            let d = rho_divisor(m);
            pending.extend([d, m / d]);
        }
    }
    primes.sort_unstable();
    for p in primes {
        match factors.last_mut() {
            Some((q, k)) if *q == p => *k += 1,
            _ => factors.push((p, 1)),
        }
    }
    factors
}

/// A divisor `1 < d < m` of a composite `m` with no factor below 41, by
/// Pollard's rho with Brent's cycle finding: `x -> x^2 + c mod m` cycles
/// modulo each prime `p | m` within about `sqrt(p)` steps, and the gcd of
/// the differences with `m` catches the cycle. The gcds are taken over
/// batches of products; a batch that overshoots is replayed step by step,
/// and a constant `c` that finds only `m` itself is replaced by the next.
fn rho_divisor(m: u64) -> u64 {
    let mul = |a: u64, b: u64| (u128::from(a) * u128::from(b) % u128::from(m)) as u64;
    for c in 1..m {
        let step =
            |x: u64| ((u128::from(x) * u128::from(x) + u128::from(c)) % u128::from(m)) as u64;
        let (mut y, mut r, mut q, mut g) = (2u64, 1u64, 1u64, 1u64);
        let (mut x, mut saved) = (y, y);
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = step(y);
            }
            let mut done = 0;
            while done < r && g == 1 {
                saved = y;
                for _ in 0..128.min(r - done) {
                    y = step(y);
                    q = mul(q, x.abs_diff(y));
                }
                g = super::gcd(q, m);
                done += 128;
            }
            r *= 2;
        }
        if g == m {
            // The batch passed the cycle: replay it one step at a time.
            loop {
                saved = step(saved);
                g = super::gcd(x.abs_diff(saved), m);
                if g > 1 {
                    break;
                }
            }
        }
        if g != m {
            return g;
        }
    }
    m
}

/// The number of primes up to `x`, by Lucy Hedgehog's method: `S(v)`
/// starts as the count of `2..=v` and, for each prime `p <= sqrt x` in
/// turn, loses the numbers whose least prime factor is `p` (`S(v) -= S(v /
/// p) - S(p - 1)` for `v >= p^2`); only the values `v = x / i` occur,
/// `2 sqrt(x)` of them. Its callers keep `x` within [`PRIME_COUNT_LAST`].
pub(crate) fn prime_count(x: u64) -> u64 {
    if x < 2 {
        return 0;
    }
    let r = x.isqrt() as usize;
    let whole = x as usize;
    // small[v] = S(v) for v <= r; large[i] = S(x / i) for 1 <= i <= r.
    let mut small: Vec<u64> = (0..=r as u64).map(|v| v.saturating_sub(1)).collect();
    let mut large: Vec<u64> = (0..=r)
        .map(|i| whole.checked_div(i).map_or(0, |v| v as u64 - 1))
        .collect();
    for p in 2..=r {
        if small[p] == small[p - 1] {
            continue;
        }
        let below = small[p - 1];
        let square = p * p;
        for i in 1..=r.min(whole / square) {
            let d = i * p;
            let v = if d <= r { large[d] } else { small[whole / d] };
            large[i] -= v - below;
        }
        for v in (square..=r).rev() {
            small[v] -= small[v / p] - below;
        }
    }
    large[1]
}

/// The primes up to `limit`, by the sieve of Eratosthenes.
fn primes_up_to(limit: u64) -> Vec<u64> {
    let limit = limit as usize;
    let mut composite = vec![false; limit + 1];
    let mut primes = Vec::new();
    for p in 2..=limit {
        if !composite[p] {
            primes.push(p as u64);
            for m in (p * p..=limit).step_by(p) {
                composite[m] = true;
            }
        }
    }
    primes
}

/// The steps a sieve over the numbers `first..=last` takes, as
/// [`SIEVE_WORK`] counts them: a step a number, plus the primes up to
/// `sqrt(last)` sieved once and visited once a block, plus with `primes`
/// (for `primepi`) Lucy's count below `first`, about `first^(3/4)`.
pub(crate) fn sieve_cost(first: u64, last: u64, primes: bool) -> u128 {
    let root = u128::from(last.isqrt());
    let blocks = u128::from(last - first) / SEGMENT as u128 + 1;
    let below = if primes {
        (first as f64).powf(0.75) as u128
    } else {
        0
    };
    u128::from(last - first) + 1 + root * (blocks + 1) + below
}

/// Refuses to list the heaps `lo..=hi` one at a time for `what` (a
/// formula), with sieves over `(first, last, primes)` ([`sieve_cost`]),
/// past [`SIEVE_WORK`] steps in all, or a sieve past [`SIEVE_LAST`] or
/// [`PRIME_COUNT_LAST`] (a count of primes below its first number).
pub(crate) fn check_listing(
    what: &str,
    lo: u64,
    hi: u64,
    sieves: impl IntoIterator<Item = (u64, u64, bool)>,
) -> Result<()> {
    let refused = |reason: String| Error::Refused {
        reason: format!("counting heaps {lo}..={hi} by g(n) = {what}: {reason}"),
        knob: Knob::To,
    };
    let mut cost = u128::from(hi - lo) + 1;
    for (first, last, primes) in sieves {
        if last > SIEVE_LAST {
            return Err(refused(format!(
                "it sieves numbers up to {last}, past the sieve's limit of 2^50 (it keeps the \
                 primes up to the square root)"
            )));
        }
        if primes && first - 1 > PRIME_COUNT_LAST {
            return Err(refused(format!(
                "it counts the primes up to {}, past the limit of 2^40 for a count of primes",
                first - 1
            )));
        }
        cost += sieve_cost(first, last, primes);
    }
    if cost > u128::from(SIEVE_WORK) {
        return Err(refused(format!(
            "the heaps are listed one at a time, about {:.1e} steps, past the limit of {:.0e} \
             steps (about as many heaps); count a shorter range",
            cost as f64, SIEVE_WORK as f64
        )));
    }
    Ok(())
}

/// Which arithmetic functions a [`FactorSieve`] computes besides `bigomega`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wants {
    /// `omega`, the distinct prime factors.
    pub omega: bool,
    /// `tau`, the divisors.
    pub tau: bool,
    /// `primepi`, the primes up to each number.
    pub primepi: bool,
}

/// A prime power `q = p^k` and the next multiple of it the sieve strikes.
#[derive(Clone, Copy, Debug)]
struct Power {
    q: u64,
    next: u64,
    p: u32,
    k: u32,
}

/// The arithmetic functions of the numbers of one block
/// (see [`FactorSieve::fill`]): entry `i` is of `start + i`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Block {
    /// The first number of the block.
    pub start: u64,
    /// The product of the prime factors struck so far (scratch).
    product: Vec<u64>,
    /// `bigomega`: prime factors with multiplicity.
    pub bigomega: Vec<u8>,
    /// `omega`: distinct prime factors (when wanted).
    pub omega: Vec<u8>,
    /// `tau`: the number of divisors (when wanted).
    pub tau: Vec<u32>,
    /// `primepi`: the number of primes up to the number (when wanted).
    pub primepi: Vec<u64>,
}

/// A segmented sieve over `first..=last` (`1 <= first`, `last <=`
/// [`SIEVE_LAST`]), filled block after block in order (see the module).
#[derive(Clone, Debug)]
pub(crate) struct FactorSieve {
    powers: Vec<Power>,
    wants: Wants,
    /// The first number of the next block.
    next: u64,
    last: u64,
    /// The primes below `next` (with `wants.primepi`).
    primes_below: u64,
}

impl FactorSieve {
    /// A sieve of `first..=last`, within the limits [`check_listing`] states
    /// (the caller checks them: past them the sieve is slow and large,
    /// never wrong).
    pub(crate) fn new(first: u64, last: u64, wants: Wants) -> FactorSieve {
        let mut powers = Vec::new();
        // The odd primes: 2 is read off the trailing zeros.
        for p in primes_up_to(last.isqrt()).into_iter().skip(1) {
            let (mut q, mut k) = (p, 1);
            while q <= last {
                powers.push(Power {
                    q,
                    next: first.div_ceil(q) * q,
                    // p <= sqrt(last) < 2^32.
                    p: p as u32,
                    k,
                });
                match q.checked_mul(p) {
                    Some(next) => (q, k) = (next, k + 1),
                    None => break,
                }
            }
        }
        let primes_below = if wants.primepi {
            prime_count(first - 1)
        } else {
            0
        };
        FactorSieve {
            powers,
            wants,
            next: first,
            last,
            primes_below,
        }
    }

    /// Fills `block` with the functions of the `len` numbers from the
    /// block's start on (`start` must be where the last block ended, or the
    /// range's first number, and the block within `first..=last`).
    pub(crate) fn fill(&mut self, block: &mut Block, start: u64, len: usize) {
        debug_assert!(start == self.next && start + len as u64 - 1 <= self.last);
        let end = start + len as u64;
        block.start = start;
        // The factor 2 at once, from the trailing zeros: the sieve strikes
        // the odd primes only.
        let numbers = start..end;
        block.product.clear();
        block
            .product
            .extend(numbers.clone().map(|n| n & n.wrapping_neg()));
        block.bigomega.clear();
        block
            .bigomega
            .extend(numbers.clone().map(|n| n.trailing_zeros() as u8));
        let (omega, tau) = (self.wants.omega, self.wants.tau);
        if omega {
            block.omega.clear();
            block
                .omega
                .extend(numbers.clone().map(|n| u8::from(n.is_multiple_of(2))));
        }
        if tau {
            block.tau.clear();
            block.tau.extend(numbers.map(|n| n.trailing_zeros() + 1));
        }
        for power in &mut self.powers {
            if power.next >= end {
                continue;
            }
            let first = (power.next - start) as usize;
            let q = power.q as usize;
            for i in (first..len).step_by(q) {
                block.bigomega[i] += 1;
                block.product[i] *= u64::from(power.p);
            }
            if power.k == 1 {
                if omega {
                    for i in (first..len).step_by(q) {
                        block.omega[i] += 1;
                    }
                }
                if tau {
                    for i in (first..len).step_by(q) {
                        block.tau[i] *= 2;
                    }
                }
            } else if tau {
                // The exponent of p goes from k - 1 to k: a factor k of
                // the divisor count becomes k + 1.
                let k = power.k;
                for i in (first..len).step_by(q) {
                    block.tau[i] = block.tau[i] / k * (k + 1);
                }
            }
            let strikes = (len - 1 - first) / q + 1;
            power.next += strikes as u64 * power.q;
        }
        // One prime factor above sqrt(last) is what the product misses
        // (added without a branch: which numbers have one is random).
        let missed = |i: usize| u8::from(block.product[i] != start + i as u64);
        for (i, b) in block.bigomega.iter_mut().enumerate() {
            *b += missed(i);
        }
        if omega {
            for (i, w) in block.omega.iter_mut().enumerate() {
                *w += missed(i);
            }
        }
        if tau {
            for (i, t) in block.tau.iter_mut().enumerate() {
                *t <<= missed(i);
            }
        }
        if self.wants.primepi {
            block.primepi.clear();
            let mut count = self.primes_below;
            block.primepi.extend(block.bigomega.iter().map(|&b| {
                count += u64::from(b == 1);
                count
            }));
            self.primes_below = count;
        }
        self.next = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prime factors of `n` with multiplicity, by trial division.
    fn naive_factors(mut n: u64) -> Vec<u64> {
        let mut factors = Vec::new();
        let mut d = 2;
        while d * d <= n {
            while n.is_multiple_of(d) {
                factors.push(d);
                n /= d;
            }
            d += 1;
        }
        if n > 1 {
            factors.push(n);
        }
        factors
    }

    fn naive_tau(n: u64) -> u32 {
        let mut count = 0;
        let mut d = 1;
        while d * d <= n {
            if n.is_multiple_of(d) {
                count += if d * d == n { 1 } else { 2 };
            }
            d += 1;
        }
        count
    }

    /// Sieves `first..=last` in blocks and checks every number against
    /// its factors: by trial division at every `every`-th number, by
    /// [`factorize`] at the others (trial division of 10^5 numbers near
    /// 10^12 takes minutes). The primes up to each number (when `primepi`)
    /// are those below `first` by Lucy's count, then those the factors
    /// find.
    fn sieve_matches_factors(first: u64, last: u64, every: u64, primepi: bool) {
        let wants = Wants {
            omega: true,
            tau: true,
            primepi,
        };
        let mut sieve = FactorSieve::new(first, last, wants);
        let mut block = Block::default();
        let mut start = first;
        let mut primes = if primepi { prime_count(first - 1) } else { 0 };
        while start <= last {
            let len = (last - start + 1).min(SEGMENT as u64) as usize;
            sieve.fill(&mut block, start, len);
            for i in 0..len {
                let n = start + i as u64;
                let factors = if n.is_multiple_of(every) {
                    naive_factors(n)
                } else {
                    factorize(n)
                        .into_iter()
                        .flat_map(|(p, k)| std::iter::repeat_n(p, k as usize))
                        .collect()
                };
                let mut distinct = factors.clone();
                distinct.dedup();
                let tau: u32 = distinct
                    .iter()
                    .map(|p| factors.iter().filter(|&q| q == p).count() as u32 + 1)
                    .product();
                primes += u64::from(factors.len() == 1);
                assert_eq!(block.bigomega[i] as usize, factors.len(), "bigomega({n})");
                assert_eq!(block.omega[i] as usize, distinct.len(), "omega({n})");
                assert_eq!(block.tau[i], tau, "tau({n})");
                if every == 1 {
                    assert_eq!(block.tau[i], naive_tau(n), "tau({n}) by its divisors");
                }
                if primepi {
                    assert_eq!(block.primepi[i], primes, "primepi({n})");
                }
            }
            start += len as u64;
        }
    }

    #[test]
    fn the_sieve_agrees_with_trial_division() {
        // From 1, across block boundaries.
        sieve_matches_factors(1, 3 * SEGMENT as u64 + 17, 1, true);
        // A range starting inside a block's worth, past a square.
        sieve_matches_factors(65_000, 140_000, 1, true);
        // Far out: primes to 10^5 sieve 10^10..10^10 + 10^5, and those to
        // 10^6 sieve 10^12..10^12 + 10^5.
        sieve_matches_factors(10_000_000_000, 10_000_100_000, 101, true);
        sieve_matches_factors(1_000_000_000_000, 1_000_000_100_000, 997, false);
    }

    #[test]
    fn prime_counts_are_lucys() {
        let mut count = 0;
        for x in 0..3000u64 {
            count += u64::from(naive_factors(x).len() == 1 && x > 1);
            assert_eq!(prime_count(x), count, "pi({x})");
        }
        for (x, pi) in [
            (1_000_000, 78_498),
            (1_000_000_000, 50_847_534),
            (10_000_000_000, 455_052_511),
        ] {
            assert_eq!(prime_count(x), pi, "pi({x})");
        }
    }

    #[test]
    fn factorization_matches_trial_division() {
        let samples = (1..5000u64)
            .chain((0..2000).map(|i| 1_000_000_000_000 + i))
            // Products of two large primes, a prime, a prime power.
            .chain([
                4_294_967_291 * 4_294_967_279,
                1_000_000_007 * 998_244_353,
                18_446_744_073_709_551_557,
                3u64.pow(40),
                u64::MAX,
            ]);
        for n in samples {
            let mut expanded = Vec::new();
            for (p, k) in factorize(n) {
                expanded.extend(std::iter::repeat_n(p, k as usize));
            }
            if n < 1 << 44 {
                assert_eq!(expanded, naive_factors(n), "{n}");
            } else {
                assert_eq!(expanded.iter().product::<u64>(), n, "{n}");
                assert!(expanded.iter().all(|&p| super::super::count::is_prime(p)));
                assert!(expanded.is_sorted());
            }
        }
    }

    #[test]
    fn costs_past_the_limits_are_refused() {
        assert!(
            check_listing("bigomega(n)", 1, 1_000_000_000, [(1, 1_000_000_000, false)]).is_ok()
        );
        for (first, last, primes, reason) in [
            (1, 1 << 51, false, "2^50"),
            (1 << 41, (1 << 41) + 10, true, "2^40"),
            (1, 1_000_000_000_000, false, "count a shorter range"),
        ] {
            let refused =
                check_listing("bigomega(n)", first, last, [(first, last, primes)]).unwrap_err();
            assert!(matches!(refused, Error::Refused { knob: Knob::To, .. }));
            assert!(refused.to_string().contains(reason), "{refused}");
        }
    }
}
