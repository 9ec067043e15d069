//! Who wins, for games that are not sums: a forward sweep over numbered
//! states.
//!
//! When the question is only who wins, a game need not split into
//! independent parts: number its states so that every move lowers the
//! number (a bitmask of pieces still on the board, digits left in a
//! number, …), and one pass in increasing order classifies them all. A
//! state is lost for the player to move exactly when every option is won
//! (so a state without options is lost), the definition of normal play.
//! One bit per state: 2^32 states take 512 MiB.

use crate::error::human_bytes_near;
use crate::{Error, Result};

/// The outcome of every state `0..states`: one bit each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    states: u64,
    /// Bit `s` set: the player to move at `s` loses.
    losing: Vec<u64>,
}

impl Outcomes {
    /// How many states were classified.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// Whether the player to move at `state` loses (a P-position).
    pub fn is_loss(&self, state: u64) -> bool {
        self.losing[(state / 64) as usize] >> (state % 64) & 1 == 1
    }

    /// The losing states (P-positions), in increasing order.
    pub fn losses(&self) -> impl Iterator<Item = u64> + '_ {
        self.losing.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    w as u64 * 64 + u64::from(b)
                })
            })
        })
    }

    /// The winning moves among `options`, the states one move from `state`:
    /// those to a state lost for the opponent, in increasing order, each
    /// once (none when `state` is lost). A state outside the sweep or not
    /// below `state` is not a move and is left out.
    pub fn winning_moves(&self, state: u64, options: impl IntoIterator<Item = u64>) -> Vec<u64> {
        let mut winning: Vec<u64> = options
            .into_iter()
            .filter(|&o| o < state && o < self.states && self.is_loss(o))
            .collect();
        winning.sort_unstable();
        winning.dedup();
        winning
    }

    /// How many states are lost for the player to move.
    pub fn loss_count(&self) -> u64 {
        self.losing.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

/// Classifies states `0..states`, calling `options(s, out)` to push the
/// states one move from `s` (each smaller than `s`) and `progress(s)` every
/// 2^16 states (`false` stops with [`Error::Interrupted`]).
///
/// ```
/// use grundy::solve::sweep_outcomes;
/// // Subtract 1 or 2: every third state is lost.
/// let found = sweep_outcomes(10, u64::MAX, &mut |s, out| {
///     out.extend((1..=2).filter(|&t| t <= s).map(|t| s - t));
///     Ok(())
/// }, &mut |_| true)?;
/// assert_eq!(found.losses().collect::<Vec<_>>(), [0, 3, 6, 9]);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn sweep_outcomes(
    states: u64,
    memory_limit: u64,
    options: &mut dyn FnMut(u64, &mut Vec<u64>) -> Result<()>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Outcomes> {
    let needed = u128::from(states).div_ceil(64) * 8;
    if needed > u128::from(memory_limit) || usize::try_from(states / 64 + 1).is_err() {
        return Err(Error::TableTooLarge {
            to: states.saturating_sub(1),
            needed: human_bytes_near(needed, u128::from(memory_limit)),
            limit: human_bytes_near(u128::from(memory_limit), needed),
        });
    }
    let mut losing = vec![0u64; states.div_ceil(64) as usize];
    let mut listed = Vec::new();
    for s in 0..states {
        if s % (1 << 16) == 0 && !progress(s) {
            return Err(Error::Interrupted { heaps: s });
        }
        listed.clear();
        options(s, &mut listed)?;
        let mut wins = false;
        for &o in &listed {
            if o >= s {
                return Err(Error::StateNotSmaller {
                    state: s,
                    option: o,
                });
            }
            if losing[(o / 64) as usize] >> (o % 64) & 1 == 1 {
                wins = true;
                break;
            }
        }
        if !wins {
            losing[(s / 64) as usize] |= 1 << (s % 64);
        }
    }
    Ok(Outcomes { states, losing })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_must_lower_the_state() {
        let found = sweep_outcomes(
            5,
            u64::MAX,
            &mut |s, out| {
                out.push(s);
                Ok(())
            },
            &mut |_| true,
        );
        assert!(matches!(
            found,
            Err(Error::StateNotSmaller {
                state: 0,
                option: 0
            })
        ));
        let huge = sweep_outcomes(u64::MAX, 1 << 20, &mut |_, _| Ok(()), &mut |_| true);
        assert!(matches!(huge, Err(Error::TableTooLarge { .. })));
        let stopped = sweep_outcomes(1 << 20, u64::MAX, &mut |_, _| Ok(()), &mut |s| s < 1 << 17);
        assert!(matches!(stopped, Err(Error::Interrupted { heaps: 131072 })));
    }
}
