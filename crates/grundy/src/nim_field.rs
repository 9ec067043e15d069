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
