//! The dense heap solver: `g(0), g(1), …, g(N)` in one flat table.
//!
//! For a [`HeapRuleset`] every option of heap `n` is a sum of smaller heaps,
//! so the table fills in increasing order, each entry the mex of values
//! already in it ("pull"). The ruleset's [`HeapRuleset::gather`] supplies the
//! option values directly from the table; a closed form, when the ruleset
//! knows one, skips the search entirely.

use crate::error::human_bytes;
use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result};

/// The default memory limit for one value table: 4 GiB.
pub const DEFAULT_TABLE_LIMIT: u64 = 4 << 30;

/// How often, in heaps, the progress callback is called.
const PROGRESS_STRIDE: usize = 4096;

/// Fills value tables for heap games.
///
/// ```
/// use grundy::{DenseSolver, HeapGame};
/// let kayles: HeapGame = "kayles".parse().unwrap();
/// let values = DenseSolver::new().values(&kayles, 12).unwrap();
/// let values: Vec<u32> = values.iter().map(|v| v.get()).collect();
/// assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
/// ```
#[derive(Clone, Debug)]
pub struct DenseSolver {
    memory_limit: u64,
    use_closed_forms: bool,
}

impl Default for DenseSolver {
    fn default() -> Self {
        DenseSolver {
            memory_limit: DEFAULT_TABLE_LIMIT,
            use_closed_forms: true,
        }
    }
}

impl DenseSolver {
    /// A solver with the default memory limit that uses closed forms.
    pub fn new() -> DenseSolver {
        DenseSolver::default()
    }

    /// Sets the largest table, in bytes, the solver may allocate.
    pub fn with_memory_limit(mut self, bytes: u64) -> DenseSolver {
        self.memory_limit = bytes;
        self
    }

    /// Always searches, even when the ruleset knows a closed form (for
    /// cross-checking the closed form).
    pub fn without_closed_forms(mut self) -> DenseSolver {
        self.use_closed_forms = false;
        self
    }

    /// The bytes a table of heaps `0..=to` takes.
    pub fn table_bytes(to: u64) -> u128 {
        (u128::from(to) + 1) * std::mem::size_of::<Nimber>() as u128
    }

    /// Checks up front that a table of heaps `0..=to` fits the memory limit.
    pub fn check_fits(&self, to: u64) -> Result<()> {
        let needed = Self::table_bytes(to);
        if needed > u128::from(self.memory_limit) || usize::try_from(to).is_err() {
            return Err(Error::TableTooLarge {
                to,
                needed: human_bytes(needed),
                limit: human_bytes(u128::from(self.memory_limit)),
            });
        }
        Ok(())
    }

    /// The values of heaps `0..=to`.
    pub fn values<R: HeapRuleset + ?Sized>(&self, rules: &R, to: u64) -> Result<Vec<Nimber>> {
        let mut values = Vec::new();
        self.extend(rules, &mut values, to, &mut |_| {})?;
        Ok(values)
    }

    /// Extends `values` (a table of heaps `0..values.len()`) to heaps
    /// `0..=to`, calling `progress(n)` every few thousand heaps.
    pub fn extend<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        values: &mut Vec<Nimber>,
        to: u64,
        progress: &mut dyn FnMut(usize),
    ) -> Result<()> {
        self.check_fits(to)?;
        let end = to as usize + 1; // check_fits proved `to` fits in usize
        if values.len() >= end {
            return Ok(());
        }
        values
            .try_reserve_exact(end - values.len())
            .map_err(|_| Error::OutOfMemory {
                to,
                needed: human_bytes(Self::table_bytes(to)),
            })?;
        let mut seen = MexScratch::new();
        let mut scratch = Options::new();
        let mut max = values.iter().copied().max().unwrap_or(Nimber::ZERO);
        for n in values.len()..end {
            let value = match rules.closed_form(n).filter(|_| self.use_closed_forms) {
                Some(v) => Nimber::try_from(v)?,
                None => {
                    seen.clear();
                    rules.gather(n, values, max, &mut seen, &mut scratch)?;
                    seen.mex()?
                }
            };
            max = max.max(value);
            values.push(value);
            if n % PROGRESS_STRIDE == 0 {
                progress(n);
            }
        }
        progress(end - 1);
        Ok(())
    }
}
