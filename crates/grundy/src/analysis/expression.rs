//! Formula expressions: what the formula language says beyond the
//! families `grundy guess` writes, such as `bigomega(n)` or
//! `digitsum(n, 10) mod 3 + 1` (the grammar is in `formula_text`).
//!
//! The language's functions of the heap are listed once, in
//! [`FORMULA_FUNCTIONS`]: the parser reads their names from it, an unknown
//! name is answered with its list, and the grammar table of `docs/cli.md`
//! follows it (a test checks). An expression is evaluated a block of heaps
//! at a time: the number-theoretic functions come from a segmented sieve
//! ([`super::number_theory`]), the rest heap by heap, and the operators
//! combine whole columns; one heap alone is the block of one heap, its
//! number-theoretic functions computed by factoring it.

use std::fmt;
use std::ops::ControlFlow;

use super::number_theory::{self, Block, FactorSieve, SEGMENT, Wants};
use crate::{Error, Knob, Result};

/// Stands for "no value" in a column of values: a difference below 0, a
/// function outside its domain (`ctz(0)`), a value past `u64::MAX - 1`.
pub(crate) const NONE: u64 = u64::MAX;

/// A function of the heap in the formula language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    /// The number of 1 bits.
    Popcount,
    /// The exponent of 2 (`n >= 1`).
    Ctz,
    /// The prime factors counted with multiplicity (`n >= 1`).
    Bigomega,
    /// The distinct prime factors (`n >= 1`).
    Omega,
    /// The divisors (`n >= 1`).
    Tau,
    /// The primes up to `n`.
    Primepi,
    /// The sum of the digits in this base (at least 2).
    Digitsum(u64),
}

/// One function of the formula language, as [`FORMULA_FUNCTIONS`] lists it.
#[derive(Clone, Copy, Debug)]
pub struct FormulaFunction {
    /// Its name.
    pub name: &'static str,
    /// Another name it is read by, if any.
    pub alias: Option<&'static str>,
    /// Its arguments, as written after the name.
    pub arguments: &'static str,
    /// What it gives.
    pub meaning: &'static str,
    /// The function (a digit sum's base is the one written).
    function: Function,
}

/// The functions of the heap the formula language knows. Each takes the
/// heap `n`, or the heap shifted by a number (`n + 1`, `n - 3`: a heap
/// below the shift gives no value).
pub const FORMULA_FUNCTIONS: [FormulaFunction; 7] = [
    FormulaFunction {
        name: "popcount",
        alias: None,
        arguments: "n",
        meaning: "the number of 1 bits of n, digitsum(n, 2)",
        function: Function::Popcount,
    },
    FormulaFunction {
        name: "ctz",
        alias: None,
        arguments: "n",
        meaning: "the exponent of 2 in n (n >= 1)",
        function: Function::Ctz,
    },
    FormulaFunction {
        name: "digitsum",
        alias: None,
        arguments: "n, b",
        meaning: "the sum of the digits of n in base b >= 2",
        function: Function::Digitsum(10),
    },
    FormulaFunction {
        name: "bigomega",
        alias: None,
        arguments: "n",
        meaning: "the prime factors of n counted with multiplicity, Ω(n) (n >= 1; Ω(12) = 3)",
        function: Function::Bigomega,
    },
    FormulaFunction {
        name: "omega",
        alias: None,
        arguments: "n",
        meaning: "the distinct prime factors of n, ω(n) (n >= 1; ω(12) = 2)",
        function: Function::Omega,
    },
    FormulaFunction {
        name: "tau",
        alias: Some("divisors"),
        arguments: "n",
        meaning: "the number of divisors of n, τ(n) (n >= 1; τ(12) = 6)",
        function: Function::Tau,
    },
    FormulaFunction {
        name: "primepi",
        alias: None,
        arguments: "n",
        meaning: "the number of primes up to n, π(n) (π(12) = 5)",
        function: Function::Primepi,
    },
];

impl FormulaFunction {
    /// The entry of `name` (or its alias), if the language has one.
    pub(crate) fn named(name: &str) -> Option<&'static FormulaFunction> {
        FORMULA_FUNCTIONS
            .iter()
            .find(|f| f.name == name || f.alias == Some(name))
    }

    /// The function it names, with the base written for a digit sum.
    pub(crate) fn with_base(&self, base: u64) -> Function {
        match self.function {
            Function::Digitsum(_) => Function::Digitsum(base),
            other => other,
        }
    }

    /// Whether it takes a base after the heap.
    pub(crate) fn takes_base(&self) -> bool {
        matches!(self.function, Function::Digitsum(_))
    }
}

impl Function {
    /// Its entry in [`FORMULA_FUNCTIONS`].
    fn entry(self) -> &'static FormulaFunction {
        let same = |f: &&FormulaFunction| {
            std::mem::discriminant(&f.function) == std::mem::discriminant(&self)
        };
        // Every function has an entry.
        FORMULA_FUNCTIONS
            .iter()
            .find(same)
            .unwrap_or(&FORMULA_FUNCTIONS[0])
    }

    /// Whether a range's values come from the sieve.
    fn sieved(self) -> bool {
        matches!(
            self,
            Function::Bigomega | Function::Omega | Function::Tau | Function::Primepi
        )
    }

    /// Its value at `x` alone ([`NONE`] outside its domain, and for
    /// `primepi` past [`number_theory::PRIME_COUNT_LAST`]).
    fn at(self, x: u64) -> u64 {
        let factored = |value: fn(&[(u64, u32)]) -> u64| {
            if x == 0 {
                NONE
            } else {
                value(&number_theory::factorize(x))
            }
        };
        match self {
            Function::Popcount => u64::from(x.count_ones()),
            Function::Ctz if x == 0 => NONE,
            Function::Ctz => u64::from(x.trailing_zeros()),
            Function::Digitsum(base) => {
                let (mut rest, mut sum) = (x, 0);
                while rest > 0 {
                    sum += rest % base;
                    rest /= base;
                }
                sum
            }
            Function::Bigomega => factored(|f| f.iter().map(|&(_, k)| u64::from(k)).sum()),
            Function::Omega => factored(|f| f.len() as u64),
            Function::Tau => factored(|f| f.iter().map(|&(_, k)| u64::from(k) + 1).product()),
            Function::Primepi if x > number_theory::PRIME_COUNT_LAST => NONE,
            Function::Primepi => number_theory::prime_count(x),
        }
    }

    /// The function's value from a sieved block, entry `i`.
    fn in_block(self, block: &Block, i: usize) -> u64 {
        self.block_column(block, i, 1)[0]
    }

    /// The function's values from a sieved block, entries `at..at + len`.
    fn block_column(self, block: &Block, at: usize, len: usize) -> Vec<u64> {
        let widen = |values: &[u8]| values.iter().map(|&v| u64::from(v)).collect();
        match self {
            Function::Bigomega => widen(&block.bigomega[at..at + len]),
            Function::Omega => widen(&block.omega[at..at + len]),
            Function::Tau => block.tau[at..at + len]
                .iter()
                .map(|&v| u64::from(v))
                .collect(),
            Function::Primepi => block.primepi[at..at + len].to_vec(),
            other => (0..len as u64)
                .map(|i| other.at(block.start + at as u64 + i))
                .collect(),
        }
    }

    /// Whether it gives no value at 0.
    fn needs_positive(self) -> bool {
        matches!(
            self,
            Function::Ctz | Function::Bigomega | Function::Omega | Function::Tau
        )
    }
}

/// A node of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// A number.
    Number(u64),
    /// The heap, `n`.
    Heap,
    /// A function of `n + shift`.
    Call {
        /// The function.
        function: Function,
        /// The argument is `n + shift`.
        shift: i128,
    },
    /// `a + b`.
    Sum(Box<Node>, Box<Node>),
    /// `a - b`, no value where negative.
    Difference(Box<Node>, Box<Node>),
    /// `k * a`.
    Times(u64, Box<Node>),
    /// `a mod k`, `k >= 1`.
    Modulo(Box<Node>, u64),
    /// `floor(a / k)`, `k >= 1`.
    Floor(Box<Node>, u64),
    /// `min(a, b)`.
    Min(Box<Node>, Box<Node>),
    /// `max(a, b)`.
    Max(Box<Node>, Box<Node>),
    /// `[b0 b1 ...][a mod p]`, `p` the block's length.
    Block(Vec<u64>, Box<Node>),
}

/// A formula of the language that none of the families describes, as
/// parsed (see `formula_text`), written back by `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expression(pub(crate) Node);

/// The calls of one shift, and the sieve over their arguments.
struct ShiftedSieve {
    shift: i128,
    /// The range of arguments sieved.
    first: u64,
    last: u64,
    sieve: FactorSieve,
    block: Block,
}

impl Expression {
    /// The value at heap `n` ([`NONE`] where none).
    pub(crate) fn eval(&self, n: u64) -> Option<u64> {
        let value = self.column(n, 1, &mut |function, shift| {
            vec![argument(n, shift).map_or(NONE, |x| function.at(x))]
        })[0];
        (value != NONE).then_some(value)
    }

    /// The first heap at which every function's argument is in its
    /// domain (heap 1 for `bigomega(n)`, 5 for `primepi(n - 5)`); a
    /// difference may still fall below 0 past it.
    pub(crate) fn first_heap(&self) -> u64 {
        let mut first = 0;
        self.0.visit_calls(&mut |function, shift| {
            let least = i128::from(function.needs_positive()) - shift;
            first = first.max(u64::try_from(least).unwrap_or(0));
        });
        first
    }

    /// How many numbers and functions it takes to state the expression.
    pub(crate) fn size(&self) -> usize {
        self.0.size()
    }

    /// Calls `visit(start, values)` for blocks of the heaps `lo..=hi` in
    /// order, `values[i]` being the value at heap `start + i` or [`NONE`],
    /// until it breaks. Refused before it starts past the sieve's limits
    /// ([`number_theory::check_listing`]: a heap at a time, the
    /// number-theoretic functions by a sieve of their arguments), and
    /// stopped by the current [`crate::Cancel`] token between blocks.
    pub(crate) fn each_block(
        &self,
        lo: u64,
        hi: u64,
        mut visit: impl FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut sieves: Vec<ShiftedSieve> = Vec::new();
        let mut wants: Vec<(i128, Wants)> = Vec::new();
        self.0.visit_calls(&mut |function, shift| {
            if !function.sieved() {
                return;
            }
            let at = match wants.iter().position(|(s, _)| *s == shift) {
                Some(at) => at,
                None => {
                    wants.push((shift, Wants::default()));
                    wants.len() - 1
                }
            };
            let want = &mut wants[at].1;
            want.omega |= function == Function::Omega;
            want.tau |= function == Function::Tau;
            want.primepi |= function == Function::Primepi;
        });
        let mut ranges = Vec::new();
        for &(shift, want) in &wants {
            // The arguments from 1 on; 0 and those below are each alone.
            let first = (i128::from(lo) + shift).max(1);
            let last = (i128::from(hi) + shift).min(i128::from(u64::MAX - 1));
            if first <= last {
                ranges.push((shift, want, first as u64, last as u64));
            }
        }
        let what = self.to_string();
        let listed = ranges
            .iter()
            .map(|&(_, want, first, last)| (first, last, want.primepi));
        number_theory::check_listing(&what, lo, hi, listed)?;
        for (shift, want, first, last) in ranges {
            sieves.push(ShiftedSieve {
                shift,
                first,
                last,
                sieve: FactorSieve::new(first, last, want),
                block: Block::default(),
            });
        }
        let mut start = lo;
        loop {
            crate::cancel::check()?;
            let len = (hi - start).min(SEGMENT as u64 - 1) as usize + 1;
            for s in &mut sieves {
                // This block's arguments within the sieved range.
                let from = (i128::from(start) + s.shift).max(i128::from(s.first));
                let to = (i128::from(start) + len as i128 - 1 + s.shift).min(i128::from(s.last));
                if from <= to {
                    s.sieve
                        .fill(&mut s.block, from as u64, (to - from + 1) as usize);
                } else {
                    s.block.bigomega.clear();
                }
            }
            let values = self.column(start, len, &mut |function, shift| {
                let sieved = sieves
                    .iter()
                    .find(|s| s.shift == shift)
                    .filter(|_| function.sieved());
                // Every argument in the sieved block (all but the blocks
                // where arguments fall below 1): the block's own column.
                if let (Some(s), Some(x)) = (sieved, argument(start, shift)) {
                    let at = x.wrapping_sub(s.block.start) as usize;
                    if x >= s.block.start && at + len <= s.block.bigomega.len() {
                        return function.block_column(&s.block, at, len);
                    }
                }
                (0..len as u64)
                    .map(|i| match argument(start + i, shift) {
                        None => NONE,
                        Some(x) => match sieved {
                            Some(s) if x >= s.block.start => {
                                let at = (x - s.block.start) as usize;
                                if at < s.block.bigomega.len() {
                                    function.in_block(&s.block, at)
                                } else {
                                    function.at(x)
                                }
                            }
                            _ => function.at(x),
                        },
                    })
                    .collect()
            });
            if visit(start, &values).is_break() || hi - start < len as u64 {
                return Ok(());
            }
            start += len as u64;
        }
    }

    /// The values at the heaps `start..start + len`, with `call(function,
    /// shift)` the function's values at those heaps.
    fn column(
        &self,
        start: u64,
        len: usize,
        call: &mut dyn FnMut(Function, i128) -> Vec<u64>,
    ) -> Vec<u64> {
        self.0.column(start, len, call)
    }
}

/// The argument `n + shift`, if it is a `u64`.
fn argument(n: u64, shift: i128) -> Option<u64> {
    u64::try_from(i128::from(n) + shift).ok()
}

/// `a op b` on values, [`NONE`] when either is none or the result is not a
/// value.
fn both(a: u64, b: u64, op: impl Fn(u64, u64) -> Option<u64>) -> u64 {
    if a == NONE || b == NONE {
        NONE
    } else {
        op(a, b).unwrap_or(NONE)
    }
}

impl Node {
    /// Calls `f(function, shift)` for every call in the expression.
    fn visit_calls(&self, f: &mut impl FnMut(Function, i128)) {
        match self {
            Node::Number(_) | Node::Heap => {}
            Node::Call { function, shift } => f(*function, *shift),
            Node::Sum(a, b) | Node::Difference(a, b) | Node::Min(a, b) | Node::Max(a, b) => {
                a.visit_calls(f);
                b.visit_calls(f);
            }
            Node::Times(_, a) | Node::Modulo(a, _) | Node::Floor(a, _) | Node::Block(_, a) => {
                a.visit_calls(f)
            }
        }
    }

    fn size(&self) -> usize {
        match self {
            Node::Number(_) | Node::Heap | Node::Call { .. } => 1,
            Node::Sum(a, b) | Node::Difference(a, b) | Node::Min(a, b) | Node::Max(a, b) => {
                1 + a.size() + b.size()
            }
            Node::Times(_, a) | Node::Modulo(a, _) | Node::Floor(a, _) => 1 + a.size(),
            Node::Block(block, a) => block.len() + a.size(),
        }
    }

    /// See [`Expression::column`].
    fn column(
        &self,
        start: u64,
        len: usize,
        call: &mut dyn FnMut(Function, i128) -> Vec<u64>,
    ) -> Vec<u64> {
        let pair = |a: &Node, b: &Node, call: &mut dyn FnMut(Function, i128) -> Vec<u64>| {
            (a.column(start, len, call), b.column(start, len, call))
        };
        let zip = |(a, b): (Vec<u64>, Vec<u64>), op: fn(u64, u64) -> Option<u64>| {
            a.into_iter().zip(b).map(|(a, b)| both(a, b, op)).collect()
        };
        let map = |a: Vec<u64>, op: &dyn Fn(u64) -> Option<u64>| {
            a.into_iter().map(|a| both(a, 0, |a, _| op(a))).collect()
        };
        match self {
            Node::Number(c) => vec![*c; len],
            Node::Heap => (0..len as u64).map(|i| start + i).collect(),
            Node::Call { function, shift } => call(*function, *shift),
            Node::Sum(a, b) => zip(pair(a, b, call), u64::checked_add),
            Node::Difference(a, b) => zip(pair(a, b, call), u64::checked_sub),
            Node::Min(a, b) => zip(pair(a, b, call), |a, b| Some(a.min(b))),
            Node::Max(a, b) => zip(pair(a, b, call), |a, b| Some(a.max(b))),
            Node::Times(k, a) => map(a.column(start, len, call), &|a| a.checked_mul(*k)),
            Node::Modulo(a, k) => map(a.column(start, len, call), &|a| a.checked_rem(*k)),
            Node::Floor(a, k) => map(a.column(start, len, call), &|a| a.checked_div(*k)),
            Node::Block(block, a) => map(a.column(start, len, call), &|a| {
                block.get((a % block.len() as u64) as usize).copied()
            }),
        }
    }

    /// How tightly the node binds when written: 0 for sums and
    /// differences, 1 for products and remainders, 2 for the rest.
    fn precedence(&self) -> u8 {
        match self {
            Node::Sum(..) | Node::Difference(..) => 0,
            Node::Times(..) | Node::Modulo(..) => 1,
            _ => 2,
        }
    }

    /// Writes the node, in parentheses unless it binds at least `least`.
    fn write(&self, f: &mut fmt::Formatter<'_>, least: u8) -> fmt::Result {
        if self.precedence() < least {
            write!(f, "(")?;
            self.write(f, 0)?;
            return write!(f, ")");
        }
        match self {
            Node::Number(c) => write!(f, "{c}"),
            Node::Heap => write!(f, "n"),
            Node::Call { function, shift } => {
                write!(f, "{}(n", function.entry().name)?;
                match shift {
                    0 => {}
                    s if *s > 0 => write!(f, " + {s}")?,
                    s => write!(f, " - {}", -s)?,
                }
                match function {
                    Function::Digitsum(base) => write!(f, ", {base})"),
                    _ => write!(f, ")"),
                }
            }
            Node::Sum(a, b) | Node::Difference(a, b) => {
                a.write(f, 0)?;
                write!(
                    f,
                    " {} ",
                    if matches!(self, Node::Sum(..)) {
                        "+"
                    } else {
                        "-"
                    }
                )?;
                b.write(f, 1)
            }
            Node::Times(k, a) if **a == Node::Heap => write!(f, "{k}n"),
            Node::Times(k, a) => {
                write!(f, "{k} * ")?;
                a.write(f, 2)
            }
            Node::Modulo(a, k) => {
                a.write(f, 1)?;
                write!(f, " mod {k}")
            }
            Node::Floor(a, k) => {
                write!(f, "floor(")?;
                a.write(f, 1)?;
                write!(f, " / {k})")
            }
            Node::Min(a, b) | Node::Max(a, b) => {
                let name = if matches!(self, Node::Min(..)) {
                    "min"
                } else {
                    "max"
                };
                write!(f, "{name}(")?;
                a.write(f, 0)?;
                write!(f, ", ")?;
                b.write(f, 0)?;
                write!(f, ")")
            }
            Node::Block(block, a) => {
                let items: Vec<String> = block.iter().map(u64::to_string).collect();
                write!(f, "[{}][", items.join(" "))?;
                a.write(f, 1)?;
                write!(f, " mod {}]", block.len())
            }
        }
    }
}

impl fmt::Display for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, 0)
    }
}

/// The error of an expression that gives no value at `heap` in a range it
/// counts.
pub(crate) fn no_value(expression: &Expression, heap: u64) -> Error {
    Error::Refused {
        reason: format!(
            "g(n) = {expression} gives no value at heap {heap} (a difference below 0, or a \
             function outside its domain); count from a heap where it gives one"
        ),
        knob: Knob::From,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Formula;

    /// The counts of `g(lo..=hi)`, heap by heap by `eval`.
    fn enumerated(formula: &Formula, lo: u64, hi: u64) -> Vec<u128> {
        let mut counts = Vec::new();
        for n in lo..=hi {
            let v = formula.eval(n).unwrap() as usize;
            if counts.len() <= v {
                counts.resize(v + 1, 0);
            }
            counts[v] += 1;
        }
        counts
    }

    /// Counting a range (by the sieve) and evaluating each heap alone (by
    /// factoring it) agree, across block boundaries and far out.
    #[test]
    fn sieved_counts_equal_the_counts_of_each_heap() {
        let ranges = [
            (1, 3000),
            (SEGMENT as u64 - 5, SEGMENT as u64 + 5),
            (100_000, 300_000),
            (1_000_000_000_000, 1_000_000_020_000),
        ];
        for text in [
            "bigomega(n)",
            "omega(n)",
            "tau(n)",
            "digitsum(n, 10)",
            "popcount(n) mod 3 + ctz(n)",
            "bigomega(n + 1) + omega(n + 2) mod 2",
            "max(tau(n), bigomega(n)) - min(omega(n), 1)",
            "[0 1 2][bigomega(n) mod 3]",
        ] {
            let formula: Formula = text.parse().unwrap();
            for (lo, hi) in ranges {
                let counted = formula.counts_between(lo, hi, 1 << 20).unwrap().unwrap();
                assert_eq!(
                    counted,
                    enumerated(&formula, lo, hi),
                    "{text} on {lo}..={hi}"
                );
            }
        }
        // The primes up to n carry across blocks and start from Lucy's
        // count below the range (the heaps by eval: one count of primes,
        // then a primality test a heap).
        let primepi: Formula = "primepi(n) mod 7".parse().unwrap();
        for (lo, hi) in [(1, 200_000), (10_000_000_000, 10_000_100_000)] {
            let mut expected = vec![0u128; 7];
            let count: Formula = "primepi(n)".parse().unwrap();
            let mut primes = count.eval(lo).unwrap();
            for n in lo..=hi {
                primes += u64::from(n > lo && crate::analysis::count::is_prime(n));
                expected[(primes % 7) as usize] += 1;
            }
            let counted = primepi.counts_between(lo, hi, 10).unwrap().unwrap();
            assert_eq!(counted, expected, "on {lo}..={hi}");
        }
        // Values past the cap stop the count.
        let grows: Formula = "primepi(n)".parse().unwrap();
        assert_eq!(grows.counts_between(1, 1_000_000, 1000), Ok(None));
    }

    #[test]
    fn counts_past_the_limits_or_without_values_are_refused() {
        let factors: Formula = "bigomega(n)".parse().unwrap();
        let refused = factors
            .counts_between(1, 1_000_000_000_000, 100)
            .unwrap_err();
        assert!(matches!(refused, Error::Refused { knob: Knob::To, .. }));
        assert!(refused.to_string().contains("past the limit"), "{refused}");
        let below: Formula = "n - 5 + bigomega(n)".parse().unwrap();
        assert_eq!(
            below.counts_between(1, 100, 100).unwrap_err().to_string(),
            "g(n) = n - 5 + bigomega(n) gives no value at heap 1 (a difference below 0, or a \
             function outside its domain); count from a heap where it gives one"
        );
        assert!(below.counts_between(5, 100, 200).unwrap().is_some());
        // The last heaps: u64::MAX - 1 is the largest value, so `n` has
        // none at heap u64::MAX.
        let last: Formula = "n mod 3 + digitsum(n, 16) - digitsum(n, 16)"
            .parse()
            .unwrap();
        let top = last
            .counts_between(u64::MAX - 6, u64::MAX - 1, 10)
            .unwrap()
            .unwrap();
        assert_eq!(top, [2, 2, 2]);
        assert_eq!(last.eval(u64::MAX), None);
        let heap: Formula = "n + 0 * bigomega(n)".parse().unwrap();
        let refused = heap.counts_between(u64::MAX - 5, u64::MAX, u64::MAX);
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .contains("past the sieve's limit")
        );
        assert!(
            heap.first_difference(u64::MAX - 1, u64::MAX, |n| n)
                .is_err()
        );
        // A cancelled count stops between blocks.
        let cancel = crate::Cancel::new();
        cancel.cancel();
        let stopped = cancel.run(|| factors.counts_between(1, 1_000_000, 100));
        assert_eq!(stopped, Err(Error::Cancelled));
    }

    /// The first heap where a formula differs from given values.
    #[test]
    fn differences_are_found_block_by_block() {
        let factors: Formula = "bigomega(n)".parse().unwrap();
        let naive = |n: u64| {
            number_theory::factorize(n)
                .iter()
                .map(|&(_, k)| u64::from(k))
                .sum()
        };
        assert_eq!(factors.first_difference(1, 200_000, naive), Ok(None));
        let off = |n: u64| naive(n) + u64::from(n == 150_001);
        assert_eq!(factors.first_difference(1, 200_000, off), Ok(Some(150_001)));
        // No value is a difference.
        assert_eq!(factors.first_difference(0, 10, naive), Ok(Some(0)));
    }

    /// `docs/cli.md`'s grammar table has a row for every function of the
    /// language, as the table here states it: `| `name(arguments)` |
    /// meaning |`, the alias after the name.
    #[test]
    fn the_grammar_table_lists_every_function() {
        let page = include_str!("../../../../docs/cli.md");
        for f in FORMULA_FUNCTIONS {
            let alias = f
                .alias
                .map(|alias| format!(", `{alias}({})`", f.arguments))
                .unwrap_or_default();
            let row = format!("| `{}({})`{alias} | {} |", f.name, f.arguments, f.meaning);
            assert!(
                page.lines().any(|line| line == row),
                "docs/cli.md lacks the row {row}"
            );
        }
    }
}
