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
//! of heap counts it allows, `{2,3}` (the same as `C`). A digit followed by
//! `!` requires the heaps it leaves to be pairwise unequal (Grundy's game is
//! `4!.0`), `?` not all equal, `=` all equal — constraints on moves that
//! leave two or more heaps; a move leaving one heap or none is never
//! constrained — and a bracketed block repeats forever: `0.[3]` is Nim and
//! `4.[3]` Lasker's Nim.

use std::fmt;
use std::str::FromStr;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// What one code digit allows after removing its number of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Digit {
    /// Bit `2^k` set: the move may leave `k` non-empty heaps.
    leaves: u64,
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

impl Digit {
    fn new(leaves: u64, parts: Parts) -> Digit {
        // Constraints bite only on moves that leave two or more heaps, and
        // for two heaps "not all equal" is "unequal".
        let parts = match parts {
            _ if leaves < 4 => Parts::Any,
            Parts::NotAllEqual if leaves < 8 => Parts::Distinct,
            other => other,
        };
        Digit { leaves, parts }
    }

    fn is_zero(self) -> bool {
        self.leaves == 0
    }

    /// The largest number of heaps the digit can leave.
    fn max_parts(self) -> u32 {
        (u64::BITS - self.leaves.leading_zeros()).saturating_sub(1)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.leaves {
            d @ 0..=9 => write!(f, "{d}")?,
            d @ 10..=35 => write!(f, "{}", char::from(b'A' + (d - 10) as u8))?,
            d => write!(f, "&{d};")?,
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
}

impl TakeBreak {
    /// The digit for removing `t` tokens.
    #[inline]
    fn digit(&self, t: usize) -> Digit {
        match self.digits.get(t) {
            Some(&d) => d,
            None if self.tail.is_empty() => Digit::default(),
            None => self.tail[(t - self.digits.len()) % self.tail.len()],
        }
    }

    /// For codes without a repeating block whose moves leave at most two
    /// heaps and constrain them at most to be unequal: for each number of
    /// tokens `t` a move may remove, `(t, leaves, unequal)`, where `leaves`
    /// has bit `2^k` set when the move may leave `k` heaps.
    pub fn octal_digits(&self) -> Option<Vec<(usize, u8, bool)>> {
        let max = self.max_take()?;
        if self.max_parts() > 2 || self.digits.iter().any(|d| d.parts == Parts::AllEqual) {
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

    /// The largest number of heaps a move can leave.
    pub fn max_parts(&self) -> usize {
        self.digits
            .iter()
            .chain(&self.tail)
            .map(|d| d.max_parts() as usize)
            .max()
            .unwrap_or(0)
    }

    /// Calls `f` with the parts of every option of heap `n`: `[]` when the
    /// move leaves nothing, `[r]` for one heap, `[a, b]` with `a <= b` for
    /// two.
    ///
    /// Written straight from the digits and deliberately independent of the
    /// kernel's walk (in `gather_in_words`), so that solving through
    /// [`Plain`](crate::solve::Plain), which sees only these options,
    /// cross-checks the kernel.
    fn for_each_option(&self, n: usize, mut f: impl FnMut(&[usize])) {
        let last_t = self.max_take().map_or(n, |max| max.min(n));
        let mut parts = Vec::new();
        for t in 0..=last_t {
            let digit = self.digit(t);
            let rest = n - t;
            for k in 0..=digit.max_parts() as usize {
                if digit.leaves & (1 << k) == 0 {
                    continue;
                }
                match k {
                    0 if rest == 0 => f(&[]),
                    0 => {}
                    1 if rest > 0 => f(&[rest]),
                    1 => {}
                    _ => partitions(rest, k, 1, digit.parts, &mut parts, &mut f),
                }
            }
        }
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
    fn gather_avx2(&self, n: usize, values: &[Nimber], max: Nimber, seen: &mut MexScratch) {
        self.gather_portable(n, values, max, seen);
    }

    /// The gather kernel compiled with AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn gather_avx512(&self, n: usize, values: &[Nimber], max: Nimber, seen: &mut MexScratch) {
        self.gather_portable(n, values, max, seen);
    }

    /// Picks the smallest bitset that holds every option value.
    #[inline(always)]
    fn gather_portable(&self, n: usize, values: &[Nimber], max: Nimber, seen: &mut MexScratch) {
        // XOR never sets a bit above the highest bit of its operands.
        let bits_needed = u32::BITS - max.get().leading_zeros();
        let kernel_applies = self.max_parts() <= 2
            && self
                .digits
                .iter()
                .chain(&self.tail)
                .all(|d| d.parts != Parts::AllEqual);
        match bits_needed {
            _ if !kernel_applies => self.for_each_option(n, |parts| {
                seen.insert(parts.iter().map(|&p| values[p]).sum());
            }),
            0..=6 => self.gather_in_words::<1>(n, values, seen),
            7 => self.gather_in_words::<2>(n, values, seen),
            8 => self.gather_in_words::<4>(n, values, seen),
            9 => self.gather_in_words::<8>(n, values, seen),
            _ => self.for_each_option(n, |parts| {
                seen.insert(parts.iter().map(|&p| values[p]).sum());
            }),
        }
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
        match self.digits[0] {
            d if d.is_zero() => Some(ClosedForm::Nim),
            d if d == Digit::new(LEAVE_TWO, Parts::Any) => Some(ClosedForm::Lasker),
            _ => None,
        }
    }
}

/// Calls `f` with every way to write `rest` as `k` heaps of at least `least`
/// in non-decreasing order after those already in `parts`, that satisfy
/// `rule`.
fn partitions(
    rest: usize,
    k: usize,
    least: usize,
    rule: Parts,
    parts: &mut Vec<usize>,
    f: &mut impl FnMut(&[usize]),
) {
    if k == 1 {
        if rest >= least {
            parts.push(rest);
            let first = parts[0];
            let all_equal = parts.iter().all(|&p| p == first);
            let keep = match rule {
                Parts::Any | Parts::Distinct => true,
                Parts::NotAllEqual => !all_equal,
                Parts::AllEqual => all_equal,
            };
            if keep {
                f(parts);
            }
            parts.pop();
        }
        return;
    }
    // The smallest heap `a` leaves k - 1 heaps of at least `a` (or a + 1).
    let step = usize::from(rule == Parts::Distinct);
    let mut a = least;
    while a * k + step * k * (k - 1) / 2 <= rest {
        parts.push(a);
        partitions(rest - a, k - 1, a + step, rule, parts, f);
        parts.pop();
        a += 1;
    }
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
        if d0.leaves & (LEAVE_NOTHING | LEAVE_ONE) != 0 {
            return Err(self.error(
                0,
                format!(
                    "digit {d0} before the point removes no tokens, so it may only split \
                     the heap (a multiple of 4, such as 4 or 8); {d0} would {}",
                    if d0.leaves & LEAVE_ONE != 0 {
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
        };
        game.canonicalize();
        Ok(game)
    }

    /// One digit with an optional `!`.
    fn digit(&mut self) -> Result<Digit> {
        let end = self.code.len();
        let Some((at, c)) = self.chars.next() else {
            return Err(self.error(end, "expected a digit, found the end of the code"));
        };
        let leaves = match c {
            '0'..='9' => u64::from(c as u8 - b'0'),
            'A'..='Z' => u64::from(c as u8 - b'A') + 10,
            'a'..='z' => u64::from(c as u8 - b'a') + 10,
            '&' => self.entity(at)?,
            '{' => self.heap_counts(at)?,
            _ => {
                return Err(self.error(
                    at,
                    format!("expected a digit (0-9, A-Z, &n; or {{...}}), found '{c}'"),
                ));
            }
        };
        let parts = match self.chars.next_if(|&(_, c)| matches!(c, '!' | '?' | '=')) {
            Some((_, '!')) => Parts::Distinct,
            Some((_, '?')) => Parts::NotAllEqual,
            Some((_, '=')) => Parts::AllEqual,
            _ => Parts::Any,
        };
        Ok(Digit::new(leaves, parts))
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

    /// A digit written as the set of heap counts it allows, `{2,3}`, after
    /// its `{` at byte `open`.
    fn heap_counts(&mut self, open: usize) -> Result<u64> {
        let mut leaves = 0u64;
        let mut number = String::new();
        loop {
            let Some((at, c)) = self.chars.next() else {
                return Err(self.error(open, "the set of heap counts has no closing '}'"));
            };
            match c {
                '0'..='9' => number.push(c),
                ',' | '}' => {
                    let count =
                        number
                            .parse::<u32>()
                            .ok()
                            .filter(|&k| k < 63)
                            .ok_or_else(|| {
                                self.error(at, "expected a heap count from 0 to 62 before this")
                            })?;
                    leaves |= 1 << count;
                    number.clear();
                    if c == '}' {
                        return Ok(leaves);
                    }
                }
                _ => {
                    return Err(self.error(
                        at,
                        format!("expected a heap count, ',' or '}}' in the set, found '{c}'"),
                    ));
                }
            }
        }
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

    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        self.for_each_option(n, |parts| out.push(parts.iter().copied()));
    }
}

impl HeapRuleset for TakeBreak {
    /// The option values of heap `n`, collected by a kernel that works on
    /// slices of the table: a split of `r` pairs `g(a)` with `g(r - a)`, so
    /// one split digit is an XOR of a slice with a reversed slice. While the
    /// values fit in a few words the kernel marks them in a register-sized
    /// bitset, which the compiler vectorises; larger values fall back to
    /// [`MexScratch::insert`].
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
                unsafe {
                    self.gather_avx512(n, values, max, seen);
                }
                return Ok(());
            }
            if has!("avx2") {
                // SAFETY: the CPU supports AVX2, checked above.
                #[allow(unsafe_code)]
                unsafe {
                    self.gather_avx2(n, values, max, seen);
                }
                return Ok(());
            }
        }
        self.gather_portable(n, values, max, seen);
        Ok(())
    }

    fn visit_options(&self, n: usize, visit: &mut dyn FnMut(&[usize])) {
        self.for_each_option(n, visit);
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
        assert_eq!(position("0.{63}"), 6);
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
        assert_eq!(code.max_parts(), 2);
        assert_eq!(code.max_take(), Some(3));
    }
}
