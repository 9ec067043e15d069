//! Rare and common values: the structure of sparse games.
//!
//! For many take-and-break games a mask `M` splits the values in two
//! classes by the parity of the bits of `v & M`: the *common* values, which
//! nearly every heap takes, and the *rare* ones, which few do (Gangolli and
//! Plambeck 1989, on 0.16; the basis of the sparse-space method of the
//! octal-game solvers). Researchers plot the two classes apart to see the
//! structure; the sparse engine uses the same split to compute faster.

use crate::Nimber;
use crate::fold::fewest_rare;

/// A split of the values into rare and common ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RareSplit {
    /// A value `v` is rare when `popcount(v & mask)` is even.
    pub mask: u32,
    /// How many heaps of the table have a rare value.
    pub rare_heaps: u64,
}

impl RareSplit {
    /// Whether `value` is rare under this split.
    pub fn is_rare(&self, value: Nimber) -> bool {
        rare_under(self.mask, value)
    }
}

/// Whether `value` is rare under the split of `mask`: the bits it shares
/// with the mask are even in number.
pub fn rare_under(mask: u32, value: Nimber) -> bool {
    (value.get() & mask).count_ones().is_multiple_of(2)
}

/// The split with the fewest rare heaps for a table whose values occur
/// `histogram` times (`(value, heaps)`), when it makes rare values at most
/// `1/8` of the heaps (else the values show no such structure): for each
/// mask `M`, `W(M) = sum_v count(v) (-1)^(popcount(v & M))` is the heaps with
/// an even parity less those with an odd one, one Walsh–Hadamard transform
/// of the counts gives it for every mask at once, and the rare heaps of `M`
/// number `(total + W(M)) / 2`.
///
/// ```
/// use grundy::analysis::rare_split;
/// use grundy::Nimber;
/// // Values 1, 2, 4 and 7 common (an odd number of bits under mask 7), 0 rare.
/// let counts = [(0, 2), (1, 40), (2, 30), (4, 20), (7, 8)].map(|(v, c)| (Nimber::new(v), c));
/// let split = rare_split(&counts).unwrap();
/// assert_eq!((split.mask, split.rare_heaps), (7, 2));
/// assert!(split.is_rare(Nimber::new(0)) && !split.is_rare(Nimber::new(7)));
/// ```
pub fn rare_split(histogram: &[(Nimber, u64)]) -> Option<RareSplit> {
    let top = histogram.iter().map(|(v, _)| v.get()).max()?;
    // Values past 2^20 make the transform too large to be worth a picture.
    if top >= 1 << 20 {
        return None;
    }
    // One histogram for every heap: the plain splits, counted by
    // `fold::fewest_rare` (its position-parity splits left out).
    let mut counts = vec![0u64; (top as usize + 1).max(2)];
    for &(value, count) in histogram {
        counts[value.get() as usize] += count;
    }
    let total: u64 = counts.iter().sum();
    let (rare, split) = fewest_rare(&[counts, Vec::new()], &[])?;
    (rare * 8 <= total).then_some(RareSplit {
        mask: split.mask,
        rare_heaps: rare,
    })
}
