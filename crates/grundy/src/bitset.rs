//! Sets of small integers as bitsets of 64-bit words, for the solvers that
//! build sets of nim-sums (open take-and-break digits, coin-turning games).

/// `out |= { v ^ c : v in set }` for bitsets of whole 64-bit words (`c`
/// below the bitset's size): whole words move by `c / 64`, and bits within a
/// word are permuted by [`xor_bits`].
pub(crate) fn xor_translate_into(set: &[u64], c: u32, out: &mut [u64]) {
    let (shift, within) = ((c / 64) as usize, c % 64);
    for (w, &word) in set.iter().enumerate() {
        if word != 0 {
            out[w ^ shift] |= xor_bits(word, within);
        }
    }
}

/// `word` with bit `i` moved to bit `i ^ within` (`within < 64`): blocks of
/// 1, 2, 4, ... bits swap places where `within` has a one.
#[inline]
pub(crate) fn xor_bits(word: u64, within: u32) -> u64 {
    const LOW_HALVES: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    debug_assert!(within < 64, "a permutation of one word's bits");
    let mut x = word;
    for (s, mask) in LOW_HALVES.iter().enumerate() {
        if within >> s & 1 == 1 {
            let width = 1 << s;
            x = ((x & mask) << width) | ((x >> width) & mask);
        }
    }
    x
}

/// Whether `v` is in the bitset `set`.
pub(crate) fn contains(set: &[u64], v: u32) -> bool {
    set.get(v as usize / 64)
        .is_some_and(|w| w >> (v % 64) & 1 == 1)
}

/// The smallest number not in the bitset `set` (its mex).
pub(crate) fn first_absent(set: &[u64]) -> u32 {
    let (w, word) = set
        .iter()
        .enumerate()
        .find(|(_, w)| **w != u64::MAX)
        .map_or((set.len(), 0), |(i, w)| (i, *w));
    (w * 64) as u32 + (!word).trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn xor_translation_moves_every_member(
            members in prop::collection::btree_set(0u32..512, 0..40),
            c in 0u32..512,
        ) {
            let mut set = [0u64; 8];
            for &v in &members {
                set[v as usize / 64] |= 1 << (v % 64);
            }
            let mut out = [0u64; 8];
            xor_translate_into(&set, c, &mut out);
            let moved: std::collections::BTreeSet<u32> = (0..512)
                .filter(|&v| out[v as usize / 64] >> (v % 64) & 1 == 1)
                .collect();
            prop_assert_eq!(moved, members.iter().map(|v| v ^ c).collect());
        }
    }

    #[test]
    fn first_absent_is_the_mex() {
        assert_eq!(first_absent(&[]), 0);
        assert_eq!(first_absent(&[0b1011]), 2);
        assert_eq!(first_absent(&[u64::MAX, 1]), 65);
        assert_eq!(first_absent(&[u64::MAX]), 64);
        assert!(contains(&[0, 2], 65) && !contains(&[0, 2], 64) && !contains(&[0, 2], 999));
    }
}
