//! Values of a game graph ([`GameGraph`]): [`GameGraph::solve`] computes
//! every position's Grundy value in time linear in the size of the graph
//! (a depth-first post-order with an explicit stack) and reports a cycle,
//! with the positions on it, as an error; graphs with cycles get
//! generalized values from [`GameGraph::loopy_values`] (finite or `∞(K)`,
//! see [`loopy_values`]).

use super::{Adjacency, LoopyValue, loopy_values};
use crate::rules::GameGraph;
use crate::{Error, MexScratch, Nimber, Result};

/// The values of a graph's positions, with what follows from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphValues {
    /// `values[p]` is the Grundy value of position `p`.
    pub values: Vec<Nimber>,
}

impl GameGraph {
    /// Tokens on positions `tokens` played together, given every
    /// position's value: who wins and every winning move (token, edge
    /// index; see [`GameGraph::edge`]).
    pub fn play(&self, values: &[Nimber], tokens: &[usize]) -> crate::TokenSum<usize> {
        let Adjacency { starts, targets } = self.adjacency();
        crate::play_tokens(tokens.iter().map(|&p| values[p]).collect(), |i| {
            let p = tokens[i];
            (starts[p]..starts[p + 1]).map(|e| (e, values[targets[e] as usize]))
        })
    }

    /// Every position's generalized Sprague–Grundy value, cycles allowed
    /// (see [`loopy_values`]).
    pub fn loopy_values(&self) -> Result<Vec<LoopyValue>> {
        loopy_values(self.adjacency())
    }

    /// Every position's value, or [`Error::Cycle`] listing the positions of
    /// a cycle (`a -> b -> ... -> a`).
    pub fn solve(&self) -> Result<GraphValues> {
        const UNSEEN: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let count = self.len();
        let Adjacency { starts, targets } = self.adjacency();
        let mut state = vec![UNSEEN; count];
        let mut values = vec![Nimber::ZERO; count];
        let mut seen = MexScratch::new();
        // (position, next edge to look at)
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..count {
            if state[root] != UNSEEN {
                continue;
            }
            state[root] = OPEN;
            stack.push((root, starts[root]));
            while let Some(&mut (p, ref mut next)) = stack.last_mut() {
                if *next < starts[p + 1] {
                    let q = targets[*next] as usize;
                    *next += 1;
                    match state[q] {
                        UNSEEN => {
                            state[q] = OPEN;
                            stack.push((q, starts[q]));
                        }
                        OPEN => return Err(self.cycle_error(&stack, q)),
                        _ => {}
                    }
                    continue;
                }
                seen.clear();
                for e in starts[p]..starts[p + 1] {
                    seen.insert(values[targets[e] as usize]);
                }
                values[p] = seen.mex()?;
                state[p] = DONE;
                stack.pop();
            }
        }
        Ok(GraphValues { values })
    }

    /// The cycle closed by a move to `q`, which is on the stack.
    fn cycle_error(&self, stack: &[(usize, usize)], q: usize) -> Error {
        let start = stack.iter().position(|&(p, _)| p == q).unwrap_or(0);
        let mut names: Vec<&str> = stack[start..].iter().map(|&(p, _)| self.name(p)).collect();
        names.push(self.name(q));
        const SHOWN: usize = 20;
        let position = if names.len() > SHOWN {
            format!(
                "{} -> ... ({} positions) -> {}",
                names[..SHOWN / 2].join(" -> "),
                names.len() - 1,
                names[names.len() - SHOWN / 2..].join(" -> ")
            )
        } else {
            names.join(" -> ")
        };
        Error::Cycle { position }
    }
}
