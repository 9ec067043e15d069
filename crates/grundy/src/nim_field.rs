//! Arithmetic in the nim field: the non-negative integers below `2^64` with
//! nim-addition (XOR) and nim-multiplication form the field `GF(2^64)`
//! (Conway, *On Numbers and Games*, ch. 6). Nim-multiplication values
//! products of games such as coin-turning games on grids (the Tartan
//! theorem), where `g(G x H) = g(G) * g(H)`.
//!
//! By definition `a * b = mex { a'b + ab' + a'b' : a' < a, b' < b }` (sums
//! are nim-sums). That takes `O(a b)` steps per product; this module uses
//! the recursive method instead. For a Fermat 2-power `F = 2^(2^k)`,
//! numbers below `F` form a subfield, `F * x` is the ordinary product for
//! `x < F`, and `F * F = F + F/2` (`3F/2` as an ordinary sum, since the
//! bits are disjoint). Writing `a = a1 F + a0` and `b = b1 F + b0`:
//!
//! ```text
//! a * b = (a1 b1 + a1 b0 + a0 b1) F + (a0 b0 + a1 b1 * F/2)
//!       = ((a1 + a0)(b1 + b0) + a0 b0) F + (a0 b0 + a1 b1 * F/2)
//! ```
//!
//! three half-size products and one product by `F/2` (Karatsuba).

/// `a * b` in the nim field.
///
/// ```
/// use grundy::nim_field::mul;
/// assert_eq!(mul(2, 2), 3);
/// assert_eq!(mul(4, 4), 6);
/// assert_eq!(mul(16, 16), 24);
/// ```
pub fn mul(a: u64, b: u64) -> u64 {
    mul_in(a, b, 64)
}

/// `a * b` for `a, b < 2^bits`, `bits` a power of two.
fn mul_in(a: u64, b: u64, bits: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let mut half = bits / 2;
    // Both in a smaller subfield: multiply there.
    while half > 1 && (a | b) >> half == 0 {
        half /= 2;
    }
    let mask = (1u64 << half) - 1;
    let (a1, a0) = (a >> half, a & mask);
    let (b1, b0) = (b >> half, b & mask);
    let low = mul_in(a0, b0, half);
    let high = mul_in(a1, b1, half);
    let cross = mul_in(a0 ^ a1, b0 ^ b1, half);
    ((cross ^ low) << half) | (low ^ mul_in(high, 1 << (half - 1), half))
}

/// `a` to the power `e` in the nim field (`0^0 = 1`).
pub fn pow(mut a: u64, mut e: u64) -> u64 {
    let mut result = 1;
    while e > 0 {
        if e & 1 == 1 {
            result = mul(result, a);
        }
        a = mul(a, a);
        e >>= 1;
    }
    result
}

/// The nim-inverse of `a != 0`: `a^(2^64 - 2)`, since the multiplicative
/// group of `GF(2^64)` has order `2^64 - 1`. `None` for `0`.
///
/// ```
/// use grundy::nim_field::{inverse, mul};
/// let a = 123_456_789;
/// assert_eq!(mul(a, inverse(a).unwrap()), 1);
/// ```
pub fn inverse(a: u64) -> Option<u64> {
    (a != 0).then(|| pow(a, u64::MAX - 1))
}

/// The nim square root of `a`: the unique `r` with `r * r = a`, which is
/// `a^(2^63)` (squaring is the Frobenius map, a bijection in
/// characteristic 2).
///
/// ```
/// use grundy::nim_field::{mul, sqrt};
/// assert_eq!(sqrt(3), 2);
/// let r = sqrt(1_000_000);
/// assert_eq!(mul(r, r), 1_000_000);
/// ```
pub fn sqrt(mut a: u64) -> u64 {
    for _ in 0..63 {
        a = mul(a, a);
    }
    a
}

/// A subspace of the nimbers below `2^64` under nim-addition (XOR), which
/// make them the vector space `GF(2)^64`: the nim-sums of every subset of
/// the numbers inserted.
///
/// Kept as a reduced echelon basis (Gaussian elimination over `GF(2)`):
/// at most one vector per leading bit, and no vector has a bit set where
/// another one leads, so equal spans have equal bases. A set of `n`
/// numbers whose span has rank `r` has exactly `2^(n - r)` subsets of each
/// nim-sum in the span (the subsets of nim-sum 0 are the kernel of the
/// map from subsets to nim-sums, and each nim-sum in its image is a coset
/// of it) and none of any other.
///
/// ```
/// use grundy::nim_field::XorBasis;
/// let mut span = XorBasis::new();
/// for v in [3, 5, 6] {
///     span.insert(v);
/// }
/// assert_eq!(span.rank(), 2); // 3 ^ 5 = 6
/// assert!(span.contains(6) && !span.contains(1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorBasis {
    /// `by_leading[b]`: the basis vector whose highest bit is `b`, or 0.
    by_leading: [u64; 64],
}

impl Default for XorBasis {
    fn default() -> XorBasis {
        XorBasis::new()
    }
}

impl XorBasis {
    /// The span of no numbers: `{0}`.
    pub fn new() -> XorBasis {
        XorBasis {
            by_leading: [0; 64],
        }
    }

    /// The span of `2^0, ..., 2^(bits - 1)`: every number below `2^bits`
    /// (`bits <= 64`).
    pub fn below_power_of_two(bits: u32) -> XorBasis {
        let mut span = XorBasis::new();
        for b in 0..bits.min(64) {
            span.by_leading[b as usize] = 1 << b;
        }
        span
    }

    /// `v` less every basis vector whose leading bit it has: 0 exactly
    /// when `v` lies in the span.
    fn reduce(&self, mut v: u64) -> u64 {
        for b in (0..64).rev() {
            if v >> b & 1 == 1 {
                v ^= self.by_leading[b];
            }
        }
        v
    }

    /// Adds `v` to the span; true when it was not in it (the rank grew).
    pub fn insert(&mut self, v: u64) -> bool {
        let v = self.reduce(v);
        if v == 0 {
            return false;
        }
        let lead = 63 - v.leading_zeros() as usize;
        // Clear the new leading bit from the others, keeping the basis
        // reduced.
        for other in &mut self.by_leading {
            if *other >> lead & 1 == 1 {
                *other ^= v;
            }
        }
        self.by_leading[lead] = v;
        true
    }

    /// Whether `v` is a nim-sum of numbers inserted.
    pub fn contains(&self, v: u64) -> bool {
        self.reduce(v) == 0
    }

    /// The dimension of the span over `GF(2)`.
    pub fn rank(&self) -> u32 {
        self.by_leading.iter().filter(|&&v| v != 0).count() as u32
    }

    /// The basis vectors, in increasing order.
    pub fn vectors(&self) -> impl Iterator<Item = u64> + '_ {
        self.by_leading.iter().copied().filter(|&v| v != 0)
    }

    /// The span of the nim-products `a * b` with `a` in `self` and `b` in
    /// `other`. Nim-multiplication distributes over nim-addition, so the
    /// products of the basis vectors span it: at most 64 x 64 products.
    pub fn products(&self, other: &XorBasis) -> XorBasis {
        let mut span = XorBasis::new();
        for a in self.vectors() {
            for b in other.vectors() {
                span.insert(mul(a, b));
            }
        }
        span
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Nim products of all `a, b < size` from the mex definition.
    fn by_definition(size: usize) -> Vec<Vec<u64>> {
        let mut table = vec![vec![0u64; size]; size];
        for a in 0..size {
            for b in 0..size {
                let mut seen = vec![false; 4 * size];
                for x in 0..a {
                    for y in 0..b {
                        let v = table[x][b] ^ table[a][y] ^ table[x][y];
                        seen[v as usize] = true;
                    }
                }
                table[a][b] = seen.iter().position(|&s| !s).unwrap() as u64;
            }
        }
        table
    }

    #[test]
    fn products_below_64_follow_the_mex_definition() {
        let table = by_definition(64);
        for (a, row) in table.iter().enumerate() {
            for (b, &product) in row.iter().enumerate() {
                assert_eq!(mul(a as u64, b as u64), product, "{a} * {b}");
            }
        }
    }

    #[test]
    fn fermat_powers_square_to_three_halves() {
        for k in 0..6 {
            let f = 1u64 << (1 << k);
            if f == 1 << 1 {
                assert_eq!(mul(2, 2), 3);
            }
            assert_eq!(mul(f, f), f ^ (f >> 1), "F = 2^{}", 1 << k);
        }
    }

    #[test]
    fn a_basis_spans_exactly_the_nim_sums_of_subsets() {
        // Every subset of a few numbers, against the basis of their span.
        let numbers = [6u64, 10, 12, 7, 1 << 40, (1 << 40) ^ 1];
        let mut span = XorBasis::new();
        let grew: Vec<bool> = numbers.iter().map(|&v| span.insert(v)).collect();
        // 12 = 6 ^ 10, and 1 = 6 ^ 7.
        assert_eq!(grew, [true, true, false, true, true, false]);
        let mut sums: Vec<u64> = (0u32..1 << numbers.len())
            .map(|mask| {
                (0..numbers.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .fold(0, |acc, i| acc ^ numbers[i])
            })
            .collect();
        sums.sort_unstable();
        sums.dedup();
        assert_eq!(sums.len(), 1 << span.rank());
        for v in sums.iter().copied().chain([2, 3, 1 << 41]) {
            assert_eq!(span.contains(v), sums.binary_search(&v).is_ok(), "{v}");
        }
        // The basis is reduced: the same span from other numbers has it.
        let mut again = XorBasis::new();
        for v in [6 ^ 10, 6, 7 ^ 6, (1 << 40) ^ 7] {
            again.insert(v);
        }
        assert_eq!(again, span);
        assert_eq!(
            XorBasis::below_power_of_two(3)
                .vectors()
                .collect::<Vec<_>>(),
            [1, 2, 4]
        );
    }

    #[test]
    fn products_span_the_products_of_every_pair() {
        let (xs, ys) = ([1u64, 2, 3, 5, 9], [2u64, 3, 4, 6, 17]);
        let basis = |vs: &[u64]| {
            let mut span = XorBasis::new();
            for &v in vs {
                span.insert(v);
            }
            span
        };
        let mut direct = XorBasis::new();
        for &x in &xs {
            for &y in &ys {
                direct.insert(mul(x, y));
            }
        }
        assert_eq!(basis(&xs).products(&basis(&ys)), direct);
        // Every number below 2^32 times every one below 2^33 spans GF(2^64):
        // 2^32 * b is the ordinary product for b < 2^32.
        let wide = XorBasis::below_power_of_two(32).products(&XorBasis::below_power_of_two(33));
        assert_eq!(wide.rank(), 64);
    }

    proptest! {
        #[test]
        fn field_laws_hold(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
            prop_assert_eq!(mul(a, b), mul(b, a));
            prop_assert_eq!(mul(mul(a, b), c), mul(a, mul(b, c)));
            prop_assert_eq!(mul(a, b ^ c), mul(a, b) ^ mul(a, c));
            prop_assert_eq!(mul(a, 1), a);
            if a != 0 {
                prop_assert_eq!(mul(a, inverse(a).unwrap()), 1);
            }
            let r = sqrt(a);
            prop_assert_eq!(mul(r, r), a);
            prop_assert_eq!(pow(a, 3), mul(a, mul(a, a)));
        }
    }
}
