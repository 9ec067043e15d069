//! Periodicity certificates: a proof as data that anyone can re-check.
//!
//! A certificate names the game, the theorem applied and the period data,
//! and lists every value the proof uses. [`Certificate::check`] trusts none
//! of it: it re-derives the theorem from the rules, recomputes the values with
//! the plain solver (listed options only, no fast kernel, no closed form),
//! re-checks the theorem's window, and checks that the period and pre-period
//! are the smallest ones.

use serde::{Deserialize, Serialize};

use super::{Analysis, Periodicity, RecordAnalysis, Theorem};
use crate::solve::{Plain, ValueStream};
use crate::{Error, HeapGame, Nimber, Result, TableSolver, ValueTable};

/// The value of the `format` field of every certificate this version writes.
pub const CERTIFICATE_FORMAT: &str = "grundy-certificate/1";

/// A self-contained proof that a heap game's values are periodic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// Always [`CERTIFICATE_FORMAT`].
    pub format: String,
    /// The game, as a specification [`HeapGame`] parses.
    pub game: String,
    /// The theorem and its parameters.
    #[serde(flatten)]
    pub theorem: Theorem,
    /// The smallest `n0` with `g(n + p) = g(n)` for all `n >= n0`.
    pub preperiod: usize,
    /// The minimal period `p`.
    pub period: usize,
    /// The saltus: always 0, since the theorems prove plain periods.
    pub saltus: u64,
    /// The largest heap whose value the proof needs.
    pub last_heap_needed: usize,
    /// `g(0..=last_heap_needed)`.
    pub values: Vec<u32>,
}

fn reject(reason: String) -> Error {
    Error::InvalidCertificate { reason }
}

impl Certificate {
    /// The certificate of a proven analysis; `None` unless the period was
    /// proven by a theorem.
    pub fn from_analysis(analysis: &Analysis) -> Option<Certificate> {
        let (theorem, found, last) = analysis.claim().proven_by()?;
        let values = analysis.values.iter().take(last + 1).map(|v| v.get());
        Some(Certificate::new(
            &analysis.game,
            theorem,
            found,
            last,
            values.collect(),
        ))
    }

    /// The certificate of a windowed run's proven period, its values read
    /// back from the run's value stream (checked against its checksums);
    /// `None` unless the period was proven by a theorem. The proof's heaps
    /// are the full table's ([`Theorem::last_heap_needed`] of the same
    /// period), so the certificate is the one a full table of the game
    /// writes, and [`Certificate::check`] accepts it alike.
    pub fn from_record(
        found: &RecordAnalysis,
        stream: &ValueStream,
    ) -> Result<Option<Certificate>> {
        let Some((theorem, period, last)) = found.claim.proven_by() else {
            return Ok(None);
        };
        if stream.game != found.game || stream.heaps <= last as u64 {
            return Err(reject(format!(
                "the stream holds {} heaps of {}, not g(0..={last}) of {}",
                stream.heaps, stream.game, found.game
            )));
        }
        let values = stream.values(0, last as u64)?;
        Ok(Some(Certificate::new(
            &found.game,
            theorem,
            period,
            last,
            values,
        )))
    }

    /// The certificate of `theorem`'s proof of `found` for `game`, with
    /// `values`, `g(0..=last_heap_needed)`.
    fn new(
        game: &str,
        theorem: Theorem,
        found: Periodicity,
        last_heap_needed: usize,
        values: Vec<u32>,
    ) -> Certificate {
        Certificate {
            format: CERTIFICATE_FORMAT.to_owned(),
            game: game.to_owned(),
            theorem,
            preperiod: found.preperiod,
            period: found.period,
            saltus: found.saltus,
            last_heap_needed,
            values,
        }
    }

    /// [`Self::check_within`] the default budget, [`CHECK_HEAPS`].
    pub fn check(&self) -> Result<()> {
        self.check_within(CHECK_HEAPS)
    }

    /// Re-checks everything; `Ok` means the game is periodic from
    /// `preperiod` with minimal period `period`, for every heap. The error
    /// says exactly what fails. The plain solver's work grows with the
    /// square of the heaps for games that split, so a certificate whose
    /// proof needs heaps past `max_heap` is refused up front with
    /// [`Error::InvalidRange`] (the sizes are the certificate's own, so a
    /// forged one could ask for hours), and values are compared as they
    /// are computed, so a wrong one is found without computing past it.
    pub fn check_within(&self, max_heap: usize) -> Result<()> {
        if self.format != CERTIFICATE_FORMAT {
            return Err(reject(format!(
                "format is '{}', expected '{CERTIFICATE_FORMAT}'",
                self.format
            )));
        }
        let game: HeapGame = self.game.parse()?;
        let theorem = Theorem::for_game(&game)
            .ok_or_else(|| reject(format!("no periodicity theorem applies to {game}")))?;
        if theorem != self.theorem {
            return Err(reject(format!(
                "the theorem for {game} is {theorem:?}, the certificate says {:?}",
                self.theorem
            )));
        }
        let (n0, p) = (self.preperiod, self.period);
        if p == 0 {
            return Err(reject("the period is 0".into()));
        }
        if self.saltus != 0 {
            return Err(reject(format!(
                "saltus {} claimed, but the {} proves plain periods only",
                self.saltus,
                theorem.name()
            )));
        }
        let needed = theorem
            .last_heap_needed(n0, p)
            .ok_or_else(|| reject("the bound overflows".into()))?;
        if self.last_heap_needed != needed {
            return Err(reject(format!(
                "last_heap_needed is {}, but the {} needs heaps up to {needed}",
                self.last_heap_needed,
                theorem.name()
            )));
        }
        if self.values.len() != needed + 1 {
            return Err(reject(format!(
                "the certificate lists {} values, the proof needs g(0..={needed})",
                self.values.len()
            )));
        }
        if needed > max_heap {
            return Err(Error::InvalidRange {
                reason: format!(
                    "the certificate's proof needs g(0..={needed}) from the plain solver, past \
                     the check's largest heap, {max_heap}"
                ),
            });
        }
        let solver = TableSolver::new().without_closed_forms();
        let mut table = ValueTable::new();
        while table.len() <= needed {
            let from = table.len();
            let to = needed.min(from + CHECK_CHUNK - 1);
            solver.extend(&Plain(&game), &mut table, to as u64, &mut |_| true)?;
            if let Some(n) = (from..=to).find(|&n| table.at(n).get() != self.values[n]) {
                return Err(reject(format!(
                    "g({n}) is {}, the certificate says {}",
                    table.at(n),
                    self.values[n]
                )));
            }
        }
        let plain = table.to_vec();
        let window_end = needed + 1 - p;
        if let Some(n) = (n0..window_end).find(|&n| plain[n + p] != plain[n]) {
            return Err(reject(format!(
                "g({}) = {} differs from g({n}) = {}, so {p} is not a period from {n0}",
                n + p,
                plain[n + p],
                plain[n]
            )));
        }
        check_minimal(&plain, n0, p)
    }
}

/// The largest heap [`Certificate::check`] recomputes: 2^17, the default
/// bound of an analysis, whose proofs therefore check by default.
pub const CHECK_HEAPS: usize = 1 << 17;

/// Heaps the check computes between comparisons.
const CHECK_CHUNK: usize = 4096;

/// Given that `values` is periodic from `n0` with period `p` (for all `n`),
/// checks that no smaller period or pre-period works.
fn check_minimal(values: &[Nimber], n0: usize, p: usize) -> Result<()> {
    // The periodic part is determined by one period, so look values up there.
    let at = |n: usize| values[n0 + (n - n0) % p];
    if let Some(q) =
        (1..p).find(|&q| p.is_multiple_of(q) && (n0..n0 + p).all(|n| at(n + q) == at(n)))
    {
        return Err(reject(format!(
            "{q} is also a period, so {p} is not minimal"
        )));
    }
    if n0 > 0 && values[n0 - 1] == at(n0 - 1 + p) {
        return Err(reject(format!(
            "g({}) = g({}) already, so the pre-period is smaller than {n0}",
            n0 - 1,
            n0 - 1 + p
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Limits, analyze};

    fn certificate(spec: &str) -> Certificate {
        let game: crate::HeapGame = spec.parse().unwrap();
        let found = analyze(&game, &Limits::default(), &TableSolver::new(), &mut |_| {
            true
        })
        .unwrap();
        Certificate::from_analysis(&found).expect("a proven period")
    }

    fn rejection(certificate: &Certificate) -> String {
        match certificate.check() {
            Err(Error::InvalidCertificate { reason }) => reason,
            other => panic!("expected a rejection, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_certificate_checks_and_survives_json() {
        let kayles = certificate("kayles");
        assert_eq!((kayles.preperiod, kayles.period), (71, 12));
        kayles.check().unwrap();
        let json = serde_json::to_string(&kayles).unwrap();
        assert!(json.contains(r#""theorem":"take-break""#), "{json}");
        let back: Certificate = serde_json::from_str(&json).unwrap();
        assert_eq!(back, kayles);
        certificate("sub(2,5,7)").check().unwrap();
    }

    #[test]
    fn tampered_certificates_fail() {
        let good = certificate("dawsons-chess");

        let mut changed = good.clone();
        changed.values[40] ^= 1;
        assert!(rejection(&changed).contains("g(40)"));

        let mut shortened = good.clone();
        shortened.values.pop();
        assert!(rejection(&shortened).contains("values"));

        let mut short_bound = good.clone();
        short_bound.last_heap_needed -= 1;
        short_bound.values.pop();
        assert!(rejection(&short_bound).contains("last_heap_needed"));

        // A multiple of the period: true but not minimal.
        let mut doubled = good.clone();
        doubled.period *= 2;
        doubled.last_heap_needed = doubled.theorem.last_heap_needed(52, 68).unwrap();
        let plain = TableSolver::new()
            .values(
                &"0.137".parse::<HeapGame>().unwrap(),
                doubled.last_heap_needed as u64,
            )
            .unwrap();
        doubled.values = plain.iter().map(|v| v.get()).collect();
        assert!(rejection(&doubled).contains("not minimal"));

        // A wrong period.
        let mut wrong = doubled.clone();
        wrong.period = 33;
        wrong.last_heap_needed = wrong.theorem.last_heap_needed(52, 33).unwrap();
        wrong.values.truncate(wrong.last_heap_needed + 1);
        assert!(rejection(&wrong).contains("not a period"));

        // A pre-period that is too large is not minimal.
        let mut late = doubled.clone();
        late.period = 34;
        late.preperiod = 53;
        late.last_heap_needed = late.theorem.last_heap_needed(53, 34).unwrap();
        late.values.truncate(late.last_heap_needed + 1);
        assert!(rejection(&late).contains("pre-period"));

        let mut arithmetic = good.clone();
        arithmetic.saltus = 5;
        assert!(rejection(&arithmetic).contains("saltus"));

        let mut other_game = good.clone();
        other_game.game = "0.07".into();
        assert!(other_game.check().is_err());

        let mut other_theorem = good;
        other_theorem.theorem = Theorem::SubtractionWindow { largest_move: 3 };
        assert!(rejection(&other_theorem).contains("theorem"));
    }
}
