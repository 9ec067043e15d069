//! Rare and common values, and values below 512 folded to one byte.
//!
//! The sparse method (see `solve::SparseSolver`) divides heaps into rare and
//! common ones by the parity of the bits their values share with a mask
//! ([`Split`]); nearly every heap of many octal games is common. A value
//! below 512 and its class determine each other's fold ([`Fold`]): the map
//! of values below 512 to bytes whose kernel is `{0, z}` with `chi(z) = 1`
//! is one to one on each class, so a table stores a byte a heap and lists
//! its rare heaps apart ([`Split::unfold`] reads a value back). The scans
//! of the sparse engine test the same bytes: the pairs of two common heaps
//! all lie in one class.

use crate::bitset::xor_bits;
use crate::transform::walsh_hadamard;

/// How heaps are divided into rare and common.
///
/// With `chi(v) = parity(popcount(v & mask))`, a heap `k` of value `v` is
/// rare when `chi(v) = 0` (plain split), or when `chi(v) ^ (k mod 2)` equals
/// `rho` (position-parity split). A split `(a, b)` of `rest` has
/// `chi(g(a) ^ g(b)) = chi(g(a)) ^ chi(g(b))`, so a pair of common heaps
/// gives `chi = 0` in the plain split and `chi = rest mod 2` in the
/// position-parity one; every other value of a split comes from a pair
/// with a rare heap, which the gathering step sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Split {
    pub(crate) mask: u32,
    /// `Some(rho)` for the position-parity split.
    pub(crate) parity: Option<usize>,
}

impl Split {
    /// `chi(v)`: the parity of the bits `v` shares with the mask.
    #[inline(always)]
    pub(crate) fn chi(self, v: u32) -> usize {
        ((v & self.mask).count_ones() & 1) as usize
    }

    /// Whether heap `k` of value `v` is rare.
    #[inline(always)]
    pub(crate) fn is_rare(self, k: usize, v: u32) -> bool {
        match self.parity {
            None => self.chi(v) == 0,
            Some(rho) => self.chi(v) ^ (k & 1) == rho,
        }
    }

    /// The `chi` of the values of heap `k`'s class: 0 for a rare heap of
    /// the plain split, `rho ^ (k mod 2)` for one of the position-parity
    /// split, and the other for a common heap.
    #[inline(always)]
    pub(crate) fn chi_of_class(self, k: usize, rare: bool) -> usize {
        let rare_chi = self.parity.map_or(0, |rho| rho ^ (k & 1));
        rare_chi ^ usize::from(!rare)
    }

    /// The value of heap `k` whose fold by `fold` (the fold of this
    /// split's mask, [`Fold::for_mask`]) is `byte`, given whether the heap
    /// is rare: of the two values below 512 that fold to `byte`, `byte`
    /// itself and its twin `byte ^ z`, whose `chi` differ (`chi(z) = 1`),
    /// the one of the heap's class.
    #[inline(always)]
    pub(crate) fn unfold(self, fold: Fold, byte: u8, k: usize, rare: bool) -> u32 {
        let v = u32::from(byte);
        match self.chi(v) == self.chi_of_class(k, rare) {
            true => v,
            false => fold.twin(v),
        }
    }

    /// Whether two common heaps summing to `rest` can be worth `v`.
    #[inline(always)]
    pub(crate) fn common_pairs_may_give(self, v: u32, rest: usize) -> bool {
        match self.parity {
            None => self.chi(v) == 0,
            Some(_) => self.chi(v) == rest & 1,
        }
    }
}

/// The split with the fewest rare heaps for a table whose heaps of parity
/// `p` hold value `v` `histogram[p][v]` times, among the plain splits and
/// the position-parity splits of each `rho` in `parities`, with its
/// number of rare heaps; ties go to the plain split, then the least mask.
/// `None` for a table of no values past 0 (no mask has a bit).
///
/// For a mask `M`, `W(M) = sum_v cnt[v] (-1)^{chi_M(v)}` is the number of
/// heaps with `chi = 0` minus those with `chi = 1`; one fast
/// Walsh-Hadamard transform per heap parity gives it for every mask at
/// once, and every rare count follows from it.
pub(crate) fn fewest_rare(histogram: &[Vec<u64>; 2], parities: &[usize]) -> Option<(u64, Split)> {
    let size = histogram
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(1)
        .next_power_of_two();
    let [even, odd] = [0, 1].map(|p| {
        let mut w: Vec<i64> = histogram[p].iter().map(|&c| c as i64).collect();
        w.resize(size, 0);
        walsh_hadamard(&mut w, |&x, &y| (x + y, x - y));
        w
    });
    let (heaps_even, heaps_odd) = (even[0], odd[0]);
    // Plain: rare = chi 0 = (E + O + W_e + W_o) / 2.
    let plain = (1..size).map(|m| {
        let rare = (heaps_even + heaps_odd + even[m] + odd[m]) / 2;
        let split = Split {
            mask: m as u32,
            parity: None,
        };
        (rare, split)
    });
    // Position-parity with rho: rare = even heaps with chi = rho plus odd
    // heaps with chi = 1 - rho.
    let parity = parities.iter().flat_map(|&rho| {
        let (even, odd) = (&even, &odd);
        (1..size).map(move |m| {
            let (chi0_even, chi1_even) = ((heaps_even + even[m]) / 2, (heaps_even - even[m]) / 2);
            let (chi0_odd, chi1_odd) = ((heaps_odd + odd[m]) / 2, (heaps_odd - odd[m]) / 2);
            let rare = if rho == 0 {
                chi0_even + chi1_odd
            } else {
                chi1_even + chi0_odd
            };
            let split = Split {
                mask: m as u32,
                parity: Some(rho),
            };
            (rare, split)
        })
    });
    plain
        .chain(parity)
        .min_by_key(|&(rare, split)| (rare, split.parity.is_some(), split.mask))
        .map(|(rare, split)| (rare as u64, split))
}

/// A linear map from values below 512 to bytes whose kernel is `{0, z}`,
/// `z = 256 | low`: `v` goes to its low byte, XORed with `low` when bit 8
/// of `v` is set.
///
/// For the sparse method's character `chi(v) = parity(|v & mask|)`, pick
/// `z` with `chi(z) = 1`: then two values with the same `chi` never fold to
/// the same byte (their XOR would be `z`, of `chi` 1, while it has `chi`
/// 0). A scan's wanted values and the values of the pairs of two common
/// heaps all have the same `chi` (they lie in one coset of the hyperplane
/// `chi = 0`), so a pair is worth a wanted value exactly when it folds to
/// the wanted value's byte and has that `chi`; a pair with a rare heap may
/// fold onto a wanted byte too, which the check of its two-byte value
/// rejects. Linear: the fold of `a ^ b` is the XOR of the folds, so the
/// table is folded once, heap by heap, and pairs are folded by XOR.
///
/// The same map one bit down, from values below 256 to values below 128
/// (kernel `{0, 128 | low}`), folds the rare-split marks of one-byte
/// tables (see the `premark` module): [`Fold::below`] names the bit folded
/// away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fold {
    /// The bit folded away: 8 for the scan's fold to bytes, 7 for the
    /// premarks' fold of bytes to seven bits.
    bit: u8,
    low: u8,
}

impl Fold {
    /// The fold of values below 512 for the split of `mask` (`chi(z) =
    /// 1`): `z = 256` when the mask has bit 8, else `256` plus the mask's
    /// lowest bit; `None` for a mask without a bit below 512 (every value
    /// has `chi` 0 there).
    pub(crate) fn for_mask(mask: u32) -> Option<Fold> {
        Fold::below(mask, 8)
    }

    /// The fold of values below `2^(bit + 1)` to values below `2^bit`
    /// (`bit` 7 or 8) for the split of `mask`: `z = 2^bit`, plus the
    /// mask's lowest bit when the mask lacks bit `bit`; `None` for a mask
    /// without a bit below `2^(bit + 1)`.
    pub(crate) fn below(mask: u32, bit: u8) -> Option<Fold> {
        debug_assert!(matches!(bit, 7 | 8), "folds to seven bits or a byte");
        let mask = mask & ((2 << bit) - 1);
        match mask {
            0 => None,
            _ if mask >> bit & 1 != 0 => Some(Fold { bit, low: 0 }),
            _ => Some(Fold {
                bit,
                low: (mask & mask.wrapping_neg()) as u8,
            }),
        }
    }

    /// The number of values the fold maps: `2^(bit + 1)`.
    #[inline(always)]
    pub(crate) fn domain(self) -> u32 {
        2 << self.bit
    }

    /// `z`, the value that folds to 0.
    #[inline(always)]
    pub(crate) fn kernel(self) -> u32 {
        1 << self.bit | u32::from(self.low)
    }

    /// The other value below `2^(bit + 1)` that folds to `v`'s: `v ^ z`.
    #[inline(always)]
    pub(crate) fn twin(self, v: u32) -> u32 {
        v ^ self.kernel()
    }

    /// The keys of the run of 64 values from `start`, a multiple of 64
    /// from `2^bit` to `2^(bit + 1) - 64`: the run of keys from the start
    /// returned (below `2^bit`), with `run`'s bits permuted (the low bits
    /// XOR `low`, one bit or none). The map is its own inverse: the values
    /// from `2^bit` on whose keys are the run from `k` (below `2^bit`) are
    /// the run from `2^bit + start`, `start` that of `twin_run(k, run)`.
    #[inline(always)]
    pub(crate) fn twin_run(self, start: u32, run: u64) -> (u32, u64) {
        debug_assert!(start.is_multiple_of(64) && start < self.domain());
        let low = u32::from(self.low);
        (
            (start & ((1 << self.bit) - 1)) ^ (low & !63),
            xor_bits(run, low & 63),
        )
    }

    /// The values `start..start + 64` (`start` a multiple of 64 below
    /// `2^(bit + 1)`) whose keys lie in the bit set `keys` (key `k` is bit
    /// `k % 64` of word `k / 64`, for every key below `2^bit`): below
    /// `2^bit` a value is its own key; above, the run's keys are the run
    /// [`Self::twin_run`] names, bits permuted.
    #[inline(always)]
    pub(crate) fn values_with_keys(self, start: u32, keys: &[u64]) -> u64 {
        if start < 1 << self.bit {
            return keys[start as usize / 64];
        }
        let (from, _) = self.twin_run(start, 0);
        self.twin_run(start, keys[from as usize / 64]).1
    }

    /// What `v` (below `2^(bit + 1)`) folds to.
    #[inline(always)]
    pub(crate) fn of(self, v: u32) -> u8 {
        debug_assert!(v < self.domain(), "a folded value is below 2^(bit + 1)");
        (v & ((1 << self.bit) - 1)) as u8 ^ (self.low & 0u8.wrapping_sub((v >> self.bit & 1) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::{Fold, Split};

    fn chi(mask: u32, v: u32) -> usize {
        Split { mask, parity: None }.chi(v)
    }

    /// For every mask with a bit below 512: the fold is linear, and one to
    /// one on each of the two cosets of `chi = 0`.
    #[test]
    fn folds_are_linear_and_one_to_one_on_each_coset() {
        assert_eq!(Fold::for_mask(0), None);
        assert_eq!(Fold::for_mask(1 << 9), None);
        assert_eq!(Fold::below(1 << 8, 7), None);
        for bit in [7u8, 8] {
            let size = 2u32 << bit;
            for mask in 1..size {
                let fold = Fold::below(mask | 1 << 10, bit).unwrap();
                assert_eq!(Some(fold), Fold::below(mask, bit));
                let mut owner = [[None; 256]; 2];
                for v in 0..size {
                    let w = 0x1a5 & (size - 1);
                    assert_eq!(fold.of(v) ^ fold.of(v ^ w), fold.of(w));
                    assert!(u32::from(fold.of(v)) < size / 2);
                    assert_eq!(fold.of(fold.twin(v)), fold.of(v));
                    let slot = &mut owner[chi(mask, v)][fold.of(v) as usize];
                    assert_eq!(*slot, None, "mask {mask}: {v} and {slot:?} fold together");
                    *slot = Some(v);
                }
            }
        }
    }

    /// Every value below 512 is the unfold of its fold, for every split
    /// with a fold, at heaps of both parities.
    #[test]
    fn values_unfold_from_their_fold_and_class() {
        for mask in 1..1024 {
            let Some(fold) = Fold::for_mask(mask) else {
                continue;
            };
            for parity in [None, Some(0), Some(1)] {
                let split = Split { mask, parity };
                for k in [6, 7] {
                    for v in 0..512 {
                        let rare = split.is_rare(k, v);
                        assert_eq!(
                            split.unfold(fold, fold.of(v), k, rare),
                            v,
                            "{split:?} heap {k}"
                        );
                    }
                }
            }
        }
    }
}
