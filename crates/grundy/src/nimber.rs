//! Nimbers: the values of impartial games.
//!
//! By the Sprague–Grundy theorem every position of a finite impartial game
//! under normal play is equivalent to a Nim heap `*n`; `n` is the position's
//! Grundy value. The disjoint sum of games corresponds to the nim-sum of their
//! values, which is bitwise XOR (Bouton 1901; Sprague 1935; Grundy 1939).

use std::fmt;
use std::ops::{Add, AddAssign, BitXor, BitXorAssign};

use crate::Error;

/// A nimber `*n`, the Grundy value of an impartial game.
///
/// Addition (`+` or `^`) is the nim-sum, bitwise XOR, so it can never
/// overflow. Conversions from wider integers are checked: a value that does
/// not fit is an [`Error::NimberOverflow`], never a silent wrap.
///
/// ```
/// use grundy::Nimber;
/// let a = Nimber::new(5);
/// let b = Nimber::new(3);
/// assert_eq!(a + b, Nimber::new(6));
/// assert_eq!(a + a, Nimber::ZERO);
/// assert!(Nimber::try_from(u64::MAX).is_err());
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Nimber(u32);

impl Nimber {
    /// The value of every P-position (a loss for the player to move).
    pub const ZERO: Nimber = Nimber(0);
    /// The largest representable nimber.
    pub const MAX: Nimber = Nimber(u32::MAX);

    /// The nimber `*n`.
    pub const fn new(n: u32) -> Nimber {
        Nimber(n)
    }

    /// The heap size this nimber stands for.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The value as an index into tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the position is a P-position: the player to move loses.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl TryFrom<u64> for Nimber {
    type Error = Error;
    fn try_from(n: u64) -> Result<Nimber, Error> {
        u32::try_from(n)
            .map(Nimber)
            .map_err(|_| Error::NimberOverflow { value: n })
    }
}

impl TryFrom<usize> for Nimber {
    type Error = Error;
    fn try_from(n: usize) -> Result<Nimber, Error> {
        Nimber::try_from(n as u64)
    }
}

impl From<Nimber> for u64 {
    fn from(n: Nimber) -> u64 {
        u64::from(n.0)
    }
}

impl From<Nimber> for u32 {
    fn from(n: Nimber) -> u32 {
        n.0
    }
}

impl BitXor for Nimber {
    type Output = Nimber;
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl Add for Nimber {
    type Output = Nimber;
    #[allow(clippy::suspicious_arithmetic_impl, reason = "nim-addition is XOR")]
    fn add(self, rhs: Nimber) -> Nimber {
        self ^ rhs
    }
}

impl AddAssign for Nimber {
    #[allow(clippy::suspicious_op_assign_impl, reason = "nim-addition is XOR")]
    fn add_assign(&mut self, rhs: Nimber) {
        *self ^= rhs;
    }
}

impl std::iter::Sum for Nimber {
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, |acc, v| acc ^ v)
    }
}

/// The number (`3`), or with `{:#}` the nimber as combinatorial game
/// theory writes it: `0`, `*`, `*2`, `*3`, ... (Conway, *On Numbers and
/// Games*; `*` alone is `*1`). Widths and alignment apply to either.
///
/// ```
/// use grundy::Nimber;
/// assert_eq!(format!("{} {:#} {:#} {:#}", Nimber::new(3), Nimber::new(0), Nimber::new(1), Nimber::new(3)), "3 0 * *3");
/// assert_eq!(format!("[{:>3}]", format!("{:#}", Nimber::new(2))), "[ *2]");
/// ```
impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return fmt::Display::fmt(&self.0, f);
        }
        match self.0 {
            0 => f.pad("0"),
            1 => f.pad("*"),
            n => f.pad(&format!("*{n}")),
        }
    }
}

impl fmt::Debug for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "*{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn nim_sum_is_an_abelian_group(a: u32, b: u32, c: u32) {
            let (a, b, c) = (Nimber(a), Nimber(b), Nimber(c));
            prop_assert_eq!(a + b, b + a);
            prop_assert_eq!((a + b) + c, a + (b + c));
            prop_assert_eq!(a + Nimber::ZERO, a);
            prop_assert_eq!(a + a, Nimber::ZERO);
        }

        #[test]
        fn conversion_is_checked(n: u64) {
            let converted = Nimber::try_from(n);
            prop_assert_eq!(converted.is_ok(), n <= u64::from(u32::MAX));
            if let Ok(v) = converted {
                prop_assert_eq!(u64::from(v), n);
            }
        }
    }

    #[test]
    fn sum_of_iterator_is_xor() {
        let total: Nimber = [1, 2, 3].into_iter().map(Nimber::new).sum();
        assert_eq!(total, Nimber::ZERO);
    }
}
