//! Reading a [`Formula`] from its words: the one parser `grundy count
//! --formula`, the web's `/api/count` and Python's `by_formula="..."`
//! share, for the formulas `grundy guess` prints and those a user writes.
//!
//! The grammar, loosest binding first (`docs/cli.md` has it as a table):
//!
//! ```text
//! formula = ["g(n) ="] sum [remark]
//! sum     = product { ("+" | "-") product }     a difference below 0: no value
//! product = factor { "*" factor | ("mod" | "%") k }   one factor of a "*" a number
//! factor  = number [atom]                       "2n" is 2 * n
//!         | atom
//! atom    = "n" | number | "(" sum ")"
//!         | "floor(" sum "/" k ")" | "min(" sum "," sum ")" | "max(" sum "," sum ")"
//!         | "[" b0 b1 ... "][" sum "mod" p "]"  the block's length is p
//!         | function "(" heap ["," base] ")"
//! heap    = "n" | "n +" number | "n -" number
//! ```
//!
//! `k` and `p` are positive numbers; the functions of the heap are those of
//! [`FORMULA_FUNCTIONS`](super::FORMULA_FUNCTIONS) (`popcount`, `ctz`,
//! `digitsum(n, b)`, `bigomega`, `omega`, `tau` or `divisors`, `primepi`).
//! Words are read in any case, blocks' values are separated by spaces or
//! commas, and a remark after a comma or in closing parentheses is ignored
//! (`g(n) = ctz(n), the exponent of 2 in n`).
//!
//! A formula of one of the families `grundy guess` writes (`c`, `n + c`,
//! `floor(n / k) + c`, `n mod k`, `popcount(n)` and its parity, `ctz(n) +
//! c`, odious and evil numbers, periodic and arithmetic-periodic blocks) is
//! read as that family, whose ranges are counted in closed form; anything
//! else is a [`Formula::Expression`], counted heap by heap.

use std::str::FromStr;

use super::Formula;
use super::expression::{Expression, FORMULA_FUNCTIONS, FormulaFunction, Function, Node};
use crate::{Error, Result};

/// A piece of a formula's text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Number(u64),
    Word(String),
    Symbol(char),
}

/// Splits `text` into numbers, lower-case words and single symbols.
fn tokens(text: &str) -> Result<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_digit() || c.is_alphabetic() || c == '_' {
            let digits = c.is_ascii_digit();
            let mut end = start;
            while let Some(&(i, d)) = chars.peek() {
                let same = if digits {
                    d.is_ascii_digit()
                } else {
                    d.is_alphanumeric() || d == '_'
                };
                if !same {
                    break;
                }
                end = i + d.len_utf8();
                chars.next();
            }
            let word = &text[start..end];
            out.push(if digits {
                Token::Number(
                    word.parse().map_err(|_| {
                        invalid(text, format!("the number {word} is past 2^64 - 1"))
                    })?,
                )
            } else {
                Token::Word(word.to_lowercase())
            });
        } else {
            out.push(Token::Symbol(c));
            chars.next();
        }
    }
    Ok(out)
}

fn invalid(text: &str, reason: String) -> Error {
    Error::InvalidFormula {
        text: text.trim().to_owned(),
        reason,
    }
}

/// A recursive-descent reader over the tokens of one formula.
struct Reader<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn error(&self, expected: &str) -> Error {
        let found = match self.peek() {
            Some(Token::Number(n)) => format!("'{n}'"),
            Some(Token::Word(w)) => format!("'{w}'"),
            Some(Token::Symbol(c)) => format!("'{c}'"),
            None => "the end".to_owned(),
        };
        invalid(self.text, format!("expected {expected}, found {found}"))
    }

    /// Takes the next token if it is `symbol`.
    fn eat(&mut self, symbol: char) -> bool {
        let found = self.peek() == Some(&Token::Symbol(symbol));
        self.at += usize::from(found);
        found
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = matches!(self.peek(), Some(Token::Word(w)) if w == word);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, symbol: char) -> Result<()> {
        if self.eat(symbol) {
            Ok(())
        } else {
            Err(self.error(&format!("'{symbol}'")))
        }
    }

    fn number(&mut self) -> Result<u64> {
        match self.peek() {
            Some(&Token::Number(n)) => {
                self.at += 1;
                Ok(n)
            }
            _ => Err(self.error("a number")),
        }
    }

    /// A positive divisor or modulus.
    fn positive(&mut self) -> Result<u64> {
        match self.number()? {
            0 => Err(invalid(self.text, "a divisor or modulus of 0".into())),
            k => Ok(k),
        }
    }

    /// `mod` or `%`.
    fn eat_mod(&mut self) -> bool {
        self.eat_word("mod") || self.eat('%')
    }

    /// `sum = product { ("+" | "-") product }`.
    fn sum(&mut self) -> Result<Node> {
        let mut node = self.product()?;
        loop {
            node = if self.eat('+') {
                Node::Sum(Box::new(node), Box::new(self.product()?))
            } else if self.eat('-') {
                Node::Difference(Box::new(node), Box::new(self.product()?))
            } else {
                return Ok(node);
            };
        }
    }

    /// `product = factor { "*" factor | ("mod" | "%") k }`, a number on
    /// one side of each `*`.
    fn product(&mut self) -> Result<Node> {
        let mut node = self.factor()?;
        loop {
            node = if self.eat('*') {
                match (node, self.factor()?) {
                    (Node::Number(k), other) | (other, Node::Number(k)) => {
                        Node::Times(k, Box::new(other))
                    }
                    _ => {
                        return Err(invalid(
                            self.text,
                            "a product needs a number on one side (2 * n, not n * n)".into(),
                        ));
                    }
                }
            } else if self.eat_mod() {
                Node::Modulo(Box::new(node), self.positive()?)
            } else {
                return Ok(node);
            };
        }
    }

    /// `factor = number [atom] | atom`: a number before a word multiplies
    /// it (`2n`, `3 bigomega(n)`).
    fn factor(&mut self) -> Result<Node> {
        if let Some(&Token::Number(c)) = self.peek() {
            self.at += 1;
            return Ok(match self.peek() {
                Some(Token::Word(w)) if w != "mod" => Node::Times(c, Box::new(self.atom()?)),
                _ => Node::Number(c),
            });
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Node> {
        const TERM: &str = "a term (a number, n, a function such as bigomega(n), floor, min, \
                            max, a [block] or parentheses)";
        let word = match self.peek().cloned() {
            Some(Token::Number(c)) => {
                self.at += 1;
                return Ok(Node::Number(c));
            }
            Some(Token::Symbol('(')) => {
                self.at += 1;
                let node = self.sum()?;
                self.expect(')')?;
                return Ok(node);
            }
            Some(Token::Symbol('[')) => {
                self.at += 1;
                return self.block();
            }
            Some(Token::Word(word)) => word,
            _ => return Err(self.error(TERM)),
        };
        self.at += 1;
        match word.as_str() {
            "n" => return Ok(Node::Heap),
            "floor" => {
                self.expect('(')?;
                let inner = self.sum()?;
                self.expect('/')?;
                let divisor = self.positive()?;
                self.expect(')')?;
                return Ok(Node::Floor(Box::new(inner), divisor));
            }
            "min" | "max" => {
                self.expect('(')?;
                let a = Box::new(self.sum()?);
                self.expect(',')?;
                let b = Box::new(self.sum()?);
                self.expect(')')?;
                return Ok(if word == "min" {
                    Node::Min(a, b)
                } else {
                    Node::Max(a, b)
                });
            }
            _ => {}
        }
        if self.peek() != Some(&Token::Symbol('(')) {
            self.at -= 1;
            return Err(self.error(TERM));
        }
        let Some(entry) = FormulaFunction::named(&word) else {
            let known: Vec<String> = FORMULA_FUNCTIONS
                .iter()
                .map(|f| match f.alias {
                    Some(alias) => format!("{} (or {alias})", f.name),
                    None => f.name.to_owned(),
                })
                .collect();
            return Err(invalid(
                self.text,
                format!(
                    "unknown function '{word}': the functions are {}, and floor, min, max",
                    known.join(", ")
                ),
            ));
        };
        let usage = format!("{}({})", entry.name, entry.arguments);
        self.expect('(')?;
        if !self.eat_word("n") {
            return Err(invalid(
                self.text,
                format!("{usage} takes the heap n, or n plus or minus a number"),
            ));
        }
        let shift = if self.eat('+') {
            i128::from(self.number()?)
        } else if self.eat('-') {
            -i128::from(self.number()?)
        } else {
            0
        };
        let base = match (entry.takes_base(), self.eat(',')) {
            (true, true) => match self.number()? {
                base @ 2.. => base,
                base => {
                    return Err(invalid(
                        self.text,
                        format!("{usage}: a base of {base}; the base is at least 2"),
                    ));
                }
            },
            (false, false) => 0,
            (true, false) => {
                return Err(invalid(self.text, format!("{usage} takes two arguments")));
            }
            (false, true) => {
                return Err(invalid(self.text, format!("{usage} takes one argument")));
            }
        };
        self.expect(')')?;
        Ok(Node::Call {
            function: entry.with_base(base),
            shift,
        })
    }

    /// `[b0 b1 ...][x mod p]` after the `[`, `p` the block's length.
    fn block(&mut self) -> Result<Node> {
        let mut block = vec![self.number()?];
        while !self.eat(']') {
            self.eat(',');
            block.push(self.number()?);
        }
        self.expect('[')?;
        let index = self.sum()?;
        self.expect(']')?;
        match index {
            Node::Modulo(inner, p) if p == block.len() as u64 => Ok(Node::Block(block, inner)),
            _ => Err(invalid(
                self.text,
                format!(
                    "a block of {len} values is indexed by a number mod {len}, such as \
                     [..][n mod {len}]",
                    len = block.len()
                ),
            )),
        }
    }

    /// The whole formula: an optional `g(n) =`, the sum, then the end or
    /// a remark.
    fn formula(&mut self) -> Result<Node> {
        let prefix = [
            Token::Word("g".into()),
            Token::Symbol('('),
            Token::Word("n".into()),
            Token::Symbol(')'),
            Token::Symbol('='),
        ];
        if self.tokens.starts_with(&prefix) {
            self.at = prefix.len();
        }
        let node = self.sum()?;
        let remark = match self.peek() {
            None | Some(Token::Symbol(',')) => true,
            Some(Token::Symbol('(')) => self.tokens.last() == Some(&Token::Symbol(')')),
            _ => false,
        };
        if remark {
            Ok(node)
        } else {
            Err(self.error("'+', '-', '*', 'mod' or the end of the formula"))
        }
    }
}

impl FromStr for Formula {
    type Err = Error;

    /// Reads the formula `text` states (see the module's grammar): one of
    /// the families `grundy guess` writes, or an expression.
    ///
    /// ```
    /// use grundy::analysis::Formula;
    /// let ruler: Formula = "g(n) = ctz(n) + 1".parse()?;
    /// assert_eq!(ruler, Formula::TrailingZeros { offset: 1 });
    /// assert_eq!(ruler.to_string().parse::<Formula>()?, ruler);
    /// let factors: Formula = "bigomega(n) mod 3".parse()?;
    /// assert_eq!(factors.eval(8), Some(0));
    /// assert_eq!(factors.to_string(), "g(n) = bigomega(n) mod 3");
    /// assert!("g(n) = n mod 0".parse::<Formula>().is_err());
    /// # Ok::<(), grundy::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Formula> {
        let node = Reader {
            text,
            tokens: tokens(text)?,
            at: 0,
        }
        .formula()?;
        Ok(family(&node).unwrap_or(Formula::Expression(Expression(node))))
    }
}

/// One summand of a formula, as the families are made of.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Term {
    Constant(u64),
    /// `m n` (`n`, `2n`, `2 * n`).
    Heap(u64),
    /// `m * floor((n - shift) / divisor)`.
    Floor {
        times: u64,
        shift: u64,
        divisor: u64,
    },
    /// `n mod k`.
    Modulo(u64),
    Popcount,
    PopcountParity,
    TrailingZeros,
    /// `[block][(n - shift) mod modulus]`.
    Block {
        block: Vec<u64>,
        shift: u64,
        modulus: u64,
    },
}

/// The summands of `node` with their signs (`true`: added).
fn summands<'a>(node: &'a Node, positive: bool, out: &mut Vec<(bool, &'a Node)>) {
    match node {
        Node::Sum(a, b) => {
            summands(a, positive, out);
            summands(b, positive, out);
        }
        Node::Difference(a, b) => {
            summands(a, positive, out);
            summands(b, !positive, out);
        }
        other => out.push((positive, other)),
    }
}

/// `s` when `node` is `n` (0) or `n - s`.
fn shifted_heap(node: &Node) -> Option<u64> {
    match node {
        Node::Heap => Some(0),
        Node::Difference(a, b) => match (&**a, &**b) {
            (Node::Heap, Node::Number(s)) => Some(*s),
            _ => None,
        },
        _ => None,
    }
}

/// The summand `node` as a family's term, if it is one.
fn term(node: &Node) -> Option<Term> {
    let heap_call = |function| Node::Call { function, shift: 0 };
    Some(match node {
        Node::Number(c) => Term::Constant(*c),
        Node::Heap => Term::Heap(1),
        Node::Times(m, a) if **a == Node::Heap => Term::Heap(*m),
        Node::Times(m, a) => match term(a)? {
            Term::Floor {
                times: 1,
                shift,
                divisor,
            } => Term::Floor {
                times: *m,
                shift,
                divisor,
            },
            _ => return None,
        },
        Node::Floor(a, divisor) => Term::Floor {
            times: 1,
            shift: shifted_heap(a)?,
            divisor: *divisor,
        },
        Node::Modulo(a, k) if **a == Node::Heap => Term::Modulo(*k),
        Node::Modulo(a, 2) if **a == heap_call(Function::Popcount) => Term::PopcountParity,
        call if *call == heap_call(Function::Popcount) => Term::Popcount,
        call if *call == heap_call(Function::Ctz) => Term::TrailingZeros,
        Node::Block(block, a) => Term::Block {
            block: block.clone(),
            shift: shifted_heap(a)?,
            modulus: block.len() as u64,
        },
        _ => return None,
    })
}

/// The family `node` states, if it is one.
fn family(node: &Node) -> Option<Formula> {
    let mut signed = Vec::new();
    summands(node, true, &mut signed);
    let terms = signed
        .into_iter()
        .map(|(positive, node)| Some((positive, term(node)?)))
        .collect::<Option<Vec<_>>>()?;
    // The constants' sum, and the other terms in the order written.
    let mut constant: i128 = 0;
    let mut rest = Vec::new();
    for (positive, term) in &terms {
        match term {
            Term::Constant(c) if *positive => constant += i128::from(*c),
            Term::Constant(c) => constant -= i128::from(*c),
            other => rest.push((*positive, other)),
        }
    }
    let offset = u64::try_from(constant).ok()?;
    let formula = match (rest.as_slice(), offset) {
        ([], c) => Formula::Constant(c),
        ([(true, Term::Heap(1))], offset) => Formula::Linear { divisor: 1, offset },
        (
            [
                (
                    true,
                    Term::Floor {
                        times: 1,
                        shift: 0,
                        divisor,
                    },
                ),
            ],
            offset,
        ) => Formula::Linear {
            divisor: *divisor,
            offset,
        },
        ([(true, Term::Modulo(k))], 0) => Formula::Modulo(*k),
        ([(true, Term::Popcount)], 0) => Formula::Popcount,
        ([(true, Term::PopcountParity)], 0) => Formula::PopcountParity { inverted: false },
        ([(false, Term::PopcountParity)], 1) => Formula::PopcountParity { inverted: true },
        ([(true, Term::TrailingZeros)], offset) => Formula::TrailingZeros { offset },
        ([(true, Term::Heap(2)), (true, Term::PopcountParity)], 0) => {
            Formula::OdiousNumbers { evil: false }
        }
        ([(true, Term::Heap(2)), (false, Term::PopcountParity)], 1) => {
            Formula::OdiousNumbers { evil: true }
        }
        (
            [
                (
                    true,
                    Term::Block {
                        block,
                        shift,
                        modulus,
                    },
                ),
            ],
            0,
        ) if block.len() as u64 == *modulus => Formula::Periodic {
            preperiod: usize::try_from(*shift).ok()?,
            block: block.clone(),
        },
        (
            [
                (
                    true,
                    Term::Block {
                        block,
                        shift,
                        modulus,
                    },
                ),
                (
                    true,
                    Term::Floor {
                        times,
                        shift: floor_shift,
                        divisor,
                    },
                ),
            ],
            0,
        ) if block.len() as u64 == *modulus && shift == floor_shift && divisor == modulus => {
            Formula::ArithmeticPeriodic {
                preperiod: usize::try_from(*shift).ok()?,
                block: block.clone(),
                saltus: *times,
            }
        }
        _ => return None,
    };
    Some(formula)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every formula reads back from the words it prints.
    #[test]
    fn every_printed_formula_reads_back_as_itself() {
        let formulas = [
            Formula::Constant(0),
            Formula::Constant(7),
            Formula::Linear {
                divisor: 1,
                offset: 0,
            },
            Formula::Linear {
                divisor: 1,
                offset: 3,
            },
            Formula::Linear {
                divisor: 4,
                offset: 0,
            },
            Formula::Linear {
                divisor: 4,
                offset: 2,
            },
            Formula::Modulo(5),
            Formula::PopcountParity { inverted: false },
            Formula::PopcountParity { inverted: true },
            Formula::Popcount,
            Formula::TrailingZeros { offset: 0 },
            Formula::TrailingZeros { offset: 2 },
            Formula::OdiousNumbers { evil: false },
            Formula::OdiousNumbers { evil: true },
            Formula::Periodic {
                preperiod: 0,
                block: vec![0, 1, 1, 2],
            },
            Formula::Periodic {
                preperiod: 7,
                block: vec![3],
            },
            Formula::ArithmeticPeriodic {
                preperiod: 0,
                block: vec![0, 1],
                saltus: 2,
            },
            Formula::ArithmeticPeriodic {
                preperiod: 5,
                block: vec![4, 0, 9],
                saltus: 3,
            },
        ];
        for formula in formulas {
            let text = formula.to_string();
            assert_eq!(text.parse::<Formula>(), Ok(formula.clone()), "{text}");
            // The bare right-hand side reads the same.
            let bare = text.trim_start_matches("g(n) = ");
            assert_eq!(bare.parse::<Formula>(), Ok(formula), "{bare}");
        }
    }

    #[test]
    fn looser_spellings_read_as_the_printed_ones() {
        let same = [
            ("[0, 1, 1, 2][n % 4]", "g(n) = [0 1 1 2][n mod 4]"),
            ("G(N) = CTZ(N)+1", "g(n) = ctz(n) + 1"),
            ("2 * n + popcount(n) mod 2", "g(n) = 2n + popcount(n) mod 2"),
            ("3 + n", "g(n) = n + 3"),
            ("floor(n/2) + 1 - 1", "g(n) = floor(n / 2)"),
        ];
        for (loose, printed) in same {
            assert_eq!(
                loose.parse::<Formula>(),
                printed.parse::<Formula>(),
                "{loose}"
            );
            assert!(loose.parse::<Formula>().is_ok(), "{loose}");
        }
    }

    /// Expressions beyond the families write back as they read: the same
    /// tree, parentheses where they change it.
    #[test]
    fn expressions_read_back_as_themselves() {
        for (text, printed) in [
            ("bigomega(n)", "bigomega(n)"),
            ("omega(n) + tau(n)", "omega(n) + tau(n)"),
            ("divisors(n)", "tau(n)"),
            ("primepi(n - 1) % 2", "primepi(n - 1) mod 2"),
            ("DigitSum(n, 10) mod 3", "digitsum(n, 10) mod 3"),
            ("2 * bigomega(n + 1) - 1", "2 * bigomega(n + 1) - 1"),
            ("3 bigomega(n)", "3 * bigomega(n)"),
            ("n - (1 + n mod 2)", "n - (1 + n mod 2)"),
            ("(n - 1) + 1 - 1", "n - 1 + 1 - 1"),
            (
                "max(ctz(n), omega(n)) + min(n, 3)",
                "max(ctz(n), omega(n)) + min(n, 3)",
            ),
            ("floor((n + 1) / 2) * 3", "3 * floor((n + 1) / 2)"),
            ("[0 1 2][bigomega(n) mod 3]", "[0 1 2][bigomega(n) mod 3]"),
            ("[0, 1][(n + 1) mod 2]", "[0 1][(n + 1) mod 2]"),
            ("2 * (n mod 3)", "2 * (n mod 3)"),
            ("2 * n mod 3", "2n mod 3"),
            ("n mod 4 mod 3", "n mod 4 mod 3"),
            ("popcount(n) mod 3", "popcount(n) mod 3"),
            ("1 - n", "1 - n"),
            ("3n + 1", "3n + 1"),
            ("2 * 3", "2 * 3"),
            ("g(n) = ctz(n - 2), a remark", "ctz(n - 2)"),
            (
                "[0 1][(n - 1) mod 2] + 2 * floor((n - 2) / 2)",
                "[0 1][(n - 1) mod 2] + 2 * floor((n - 2) / 2)",
            ),
        ] {
            let formula: Formula = text.parse().unwrap();
            assert!(
                matches!(formula, Formula::Expression(_)),
                "{text}: {formula:?}"
            );
            assert_eq!(formula.to_string(), format!("g(n) = {printed}"), "{text}");
            assert_eq!(
                formula.to_string().parse::<Formula>(),
                Ok(formula),
                "{text}"
            );
        }
    }

    #[test]
    fn expressions_give_their_terms_values() {
        for (text, n, value) in [
            ("bigomega(n)", 12, Some(3)),
            ("omega(n)", 12, Some(2)),
            ("tau(n)", 12, Some(6)),
            ("primepi(n)", 12, Some(5)),
            ("primepi(n)", 0, Some(0)),
            ("bigomega(n)", 0, None),
            ("bigomega(n)", 1, Some(0)),
            ("digitsum(n, 10)", 1234, Some(10)),
            ("digitsum(n, 3)", 8, Some(4)),
            ("popcount(n) + ctz(n)", 12, Some(4)),
            ("1 - n", 2, None),
            ("ctz(n - 1)", 1, None),
            ("bigomega(n + 1) * 2", 7, Some(6)),
            ("floor(tau(n) / 4) + n mod 5", 24, Some(6)),
            ("max(omega(n), 2) - min(bigomega(n), 1)", 30, Some(2)),
            ("[5 6 7][tau(n) mod 3]", 4, Some(5)),
            ("n + 1", u64::MAX, None),
            ("bigomega(n)", 1 << 62, Some(62)),
        ] {
            let formula: Formula = text.parse().unwrap();
            assert_eq!(formula.eval(n), value, "{text} at {n}");
        }
        for (text, first) in [
            ("bigomega(n)", 1),
            ("primepi(n - 5)", 5),
            ("tau(n - 5)", 6),
            ("n - 3", 0),
            ("bigomega(n + 1)", 0),
            ("omega(n) + ctz(n - 2)", 3),
        ] {
            let formula: Formula = text.parse().unwrap();
            assert_eq!(formula.first_heap(), first, "{text}");
        }
    }

    #[test]
    fn malformed_formulas_are_refused_with_a_reason() {
        for (text, reason) in [
            ("", "expected a term"),
            ("g(n) = n mod 0", "modulus of 0"),
            ("floor(n / 0)", "divisor or modulus of 0"),
            (
                "[0 1 2][n mod 4]",
                "a block of 3 values is indexed by a number mod 3",
            ),
            ("[0 1 2][n]", "indexed by a number mod 3"),
            ("[][n mod 1]", "expected a number"),
            ("n * n", "a product needs a number on one side"),
            (
                "sqrt(n)",
                "unknown function 'sqrt': the functions are popcount, ctz, digitsum, bigomega, \
                 omega, tau (or divisors), primepi, and floor, min, max",
            ),
            ("x + 1", "expected a term"),
            ("bigomega(n, 2)", "bigomega(n) takes one argument"),
            ("digitsum(n)", "digitsum(n, b) takes two arguments"),
            ("digitsum(n, 1)", "a base of 1; the base is at least 2"),
            (
                "bigomega(2n)",
                "bigomega(n) takes the heap n, or n plus or minus a number",
            ),
            ("bigomega(n", "expected ')', found the end"),
            ("min(n)", "expected ','"),
            ("99999999999999999999", "past 2^64 - 1"),
            (
                "ctz(n) + 1 extra",
                "expected a term (a number, n, a function such as bigomega(n), floor, min, max, a [block] or parentheses), found 'extra'",
            ),
            ("ctz(n) extra", "expected '+', '-', '*', 'mod' or the end"),
            ("n mod 3 (unclosed", "expected '+', '-'"),
        ] {
            match text.parse::<Formula>() {
                Err(error @ Error::InvalidFormula { .. }) => {
                    let message = error.to_string();
                    assert!(message.contains(reason), "{text}: {message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
