//! Reading a [`Formula`] back from the words `grundy guess` prints, so a
//! user can hand a formula (guessed, or their own) to a count: the one
//! parser `grundy count --formula`, the web's `/api/count` and Python's
//! `by_formula="..."` share.
//!
//! The language is the one [`Formula`]'s `Display` writes, with the
//! leading `g(n) =` optional, blocks separated by spaces or commas, `%` for
//! `mod`, and a trailing remark after a comma or in parentheses ignored
//! (`g(n) = ctz(n), the exponent of 2 in n`):
//!
//! - `c`, `n`, `n + c`, `floor(n / k)`, `floor(n / k) + c`, `n mod k`;
//! - `popcount(n)`, `popcount(n) mod 2`, `1 - popcount(n) mod 2`;
//! - `ctz(n)`, `ctz(n) + c`; `2n + popcount(n) mod 2`,
//!   `2n + 1 - popcount(n) mod 2`;
//! - `[a b c][n mod 3]`, `[a b c][(n - n0) mod 3]`, and with
//!   `+ s * floor((n - n0) / 3)` the arithmetic-periodic form.

use std::str::FromStr;

use super::Formula;
use crate::{Error, Result};

/// A piece of a formula's text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Number(u64),
    Word(String),
    Symbol(char),
}

/// One summand of a formula, before the sum is recognised as a family.
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

    fn expect_word(&mut self, word: &str) -> Result<()> {
        if self.eat_word(word) {
            Ok(())
        } else {
            Err(self.error(&format!("'{word}'")))
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

    /// `n` or `(n - s)`: the shift `s`.
    fn shifted_heap(&mut self) -> Result<u64> {
        if self.eat('(') {
            self.expect_word("n")?;
            self.expect('-')?;
            let shift = self.number()?;
            self.expect(')')?;
            Ok(shift)
        } else {
            self.expect_word("n")?;
            Ok(0)
        }
    }

    /// `(n)` after a function's name.
    fn of_heap(&mut self) -> Result<()> {
        self.expect('(')?;
        self.expect_word("n")?;
        self.expect(')')
    }

    /// `floor(X / k)` after `floor`, `X` being `n` or `(n - s)`.
    fn floor(&mut self, times: u64) -> Result<Term> {
        self.expect('(')?;
        let shift = self.shifted_heap()?;
        self.expect('/')?;
        let divisor = self.positive()?;
        self.expect(')')?;
        Ok(Term::Floor {
            times,
            shift,
            divisor,
        })
    }

    fn term(&mut self) -> Result<Term> {
        match self.peek().cloned() {
            Some(Token::Number(c)) => {
                self.at += 1;
                let times = self.eat('*');
                if self.eat_word("n") {
                    Ok(Term::Heap(c))
                } else if self.eat_word("floor") {
                    self.floor(c)
                } else if times {
                    Err(self.error("'n' or 'floor' after '*'"))
                } else {
                    Ok(Term::Constant(c))
                }
            }
            Some(Token::Word(word)) => {
                self.at += 1;
                match word.as_str() {
                    "n" if self.eat_mod() => Ok(Term::Modulo(self.positive()?)),
                    "n" => Ok(Term::Heap(1)),
                    "floor" => self.floor(1),
                    "ctz" => self.of_heap().map(|()| Term::TrailingZeros),
                    "popcount" => {
                        self.of_heap()?;
                        if self.eat_mod() {
                            match self.number()? {
                                2 => Ok(Term::PopcountParity),
                                _ => Err(invalid(
                                    self.text,
                                    "popcount(n) is taken mod 2 only".into(),
                                )),
                            }
                        } else {
                            Ok(Term::Popcount)
                        }
                    }
                    _ => {
                        self.at -= 1;
                        Err(self.error("a term (n, floor, ctz, popcount, [block], a number)"))
                    }
                }
            }
            Some(Token::Symbol('[')) => {
                self.at += 1;
                let mut block = vec![self.number()?];
                while !self.eat(']') {
                    self.eat(',');
                    block.push(self.number()?);
                }
                self.expect('[')?;
                let shift = self.shifted_heap()?;
                if !self.eat_mod() {
                    return Err(self.error("'mod'"));
                }
                let modulus = self.positive()?;
                self.expect(']')?;
                Ok(Term::Block {
                    block,
                    shift,
                    modulus,
                })
            }
            _ => Err(self.error("a term (n, floor, ctz, popcount, [block], a number)")),
        }
    }

    /// The signed terms of the sum, then the end or a remark.
    fn sum(&mut self) -> Result<Vec<(bool, Term)>> {
        let mut terms = vec![(true, self.term()?)];
        loop {
            let positive = if self.eat('+') {
                true
            } else if self.eat('-') {
                false
            } else {
                break;
            };
            terms.push((positive, self.term()?));
        }
        let remark = match self.peek() {
            None => true,
            Some(Token::Symbol(',')) => true,
            Some(Token::Symbol('(')) => self.tokens.last() == Some(&Token::Symbol(')')),
            _ => false,
        };
        if remark {
            Ok(terms)
        } else {
            Err(self.error("'+', '-' or the end of the formula"))
        }
    }
}

impl FromStr for Formula {
    type Err = Error;

    /// Reads the formula `text` states, in the words [`Formula`]'s
    /// `Display` writes (see the module's list).
    ///
    /// ```
    /// use grundy::analysis::Formula;
    /// let ruler: Formula = "g(n) = ctz(n) + 1".parse()?;
    /// assert_eq!(ruler, Formula::TrailingZeros { offset: 1 });
    /// assert_eq!(ruler.to_string().parse::<Formula>()?, ruler);
    /// assert!("g(n) = n mod 0".parse::<Formula>().is_err());
    /// # Ok::<(), grundy::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Formula> {
        let mut reader = Reader {
            text,
            tokens: tokens(text)?,
            at: 0,
        };
        // An optional `g(n) =`.
        if reader.tokens.get(..5)
            == Some(&[
                Token::Word("g".into()),
                Token::Symbol('('),
                Token::Word("n".into()),
                Token::Symbol(')'),
                Token::Symbol('='),
            ])
        {
            reader.at = 5;
        }
        let terms = reader.sum()?;
        family(&terms).ok_or_else(|| {
            invalid(
                text,
                "not a formula of the families `grundy guess` writes (c, n + c, floor(n / k) + c, \
                 n mod k, popcount(n), popcount(n) mod 2, 1 - popcount(n) mod 2, ctz(n) + c, \
                 2n + popcount(n) mod 2, [block][(n - n0) mod p], [block][(n - n0) mod p] + s \
                 * floor((n - n0) / p))"
                    .into(),
            )
        })
    }
}

/// The formula a sum of signed terms states, if it is one of the families.
fn family(terms: &[(bool, Term)]) -> Option<Formula> {
    // The constants' sum, and the other terms in the order written.
    let mut constant: i128 = 0;
    let mut rest = Vec::new();
    for (positive, term) in terms {
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

    #[test]
    fn malformed_formulas_are_refused_with_a_reason() {
        for (text, reason) in [
            ("", "expected a term"),
            ("g(n) = n mod 0", "modulus of 0"),
            ("floor(n / 0)", "divisor or modulus of 0"),
            ("[0 1 2][n mod 4]", "families"),
            ("[][n mod 1]", "expected a number"),
            ("popcount(n) mod 3", "mod 2 only"),
            ("n * n", "expected '+', '-' or the end"),
            ("1 - n", "families"),
            ("sqrt(n)", "expected a term"),
            ("[0 1][(n - 1) mod 2] + 2 * floor((n - 2) / 2)", "families"),
            ("99999999999999999999", "past 2^64 - 1"),
            ("ctz(n) + 1 extra", "expected '+', '-'"),
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
