//! Sums whose components are of different kinds: heaps, pairs, coins,
//! pictures, positions of graphs and scripts, maze figures.
//!
//! Every kind offers the sum the same three things ([`SumPart`]): its
//! value, the values its moves reach, and its moves to a given value. The
//! outcome then follows from the values alone: by the Sprague–Grundy
//! theorem when every value is finite (the winning moves by
//! [`winning_targets`]), and by Smith's theorem for generalized values when
//! some component can cycle ([`sum_outcome`]): a move wins exactly when it
//! leaves a sum lost for the opponent, and in a drawn sum a move keeps the
//! draw exactly when it leaves a drawn sum.

use std::fmt;
use std::ops::ControlFlow;

use super::{Component, KnownValues, WINNING_MOVES_LISTED, check_listable, heap_moves_to};
use super::{known_values, winning_targets};
use crate::solve::{LoopyValue, Outcome, sum_outcome};
use crate::{HeapRuleset, Nimber, Result, TableSolver};

/// What a sum needs of one of its components, whatever its kind.
pub trait SumPart {
    /// Its generalized value: finite for every component whose play ends.
    fn value(&self) -> LoopyValue;
    /// The distinct values its moves reach.
    fn reached(&self) -> Result<Vec<LoopyValue>>;
    /// Its moves that reach `target`, at most `listed` of them, each
    /// written as what the component becomes.
    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves>;
}

/// Moves of one component that reach one value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartMoves {
    /// The moves, each written as what the component becomes.
    pub listed: Vec<String>,
    /// How many there are in all, when the kind counts them; `None` when
    /// only the listed ones are known (and more may exist).
    pub count: Option<u64>,
}

impl PartMoves {
    /// Every move of `all`, listing at most `listed`.
    pub fn counted(mut all: Vec<String>, listed: usize) -> PartMoves {
        let count = all.len() as u64;
        all.truncate(listed);
        PartMoves {
            listed: all,
            count: Some(count),
        }
    }
}

/// A move of a sum of parts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PartMove {
    /// The 0-based index of the component moved in.
    pub component: usize,
    /// What that component becomes.
    pub to: String,
}

/// Components of any kinds played together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartsSum {
    /// Each component's generalized value, in order.
    pub values: Vec<LoopyValue>,
    /// Who wins with perfect play, from the player to move's side.
    pub outcome: Outcome,
    /// When the player to move wins: the moves that leave a lost sum, the
    /// first [`WINNING_MOVES_LISTED`].
    pub winning_moves: Vec<PartMove>,
    /// When the sum is drawn: the moves that keep the draw, likewise.
    pub drawing_moves: Vec<PartMove>,
    /// How many winning (or, for a draw, drawing) moves there are, when
    /// every component counts its own.
    pub move_count: Option<u64>,
}

impl PartsSum {
    /// The nim-sum of the values, when every one is finite.
    pub fn nim_sum(&self) -> Option<Nimber> {
        self.values
            .iter()
            .map(|v| match v {
                LoopyValue::Finite(v) => Some(*v),
                LoopyValue::Infinite(_) => None,
            })
            .sum()
    }

    /// Whether the moves listed are every winning (or drawing) move.
    pub fn complete(&self) -> bool {
        let listed = (self.winning_moves.len() + self.drawing_moves.len()) as u64;
        self.move_count == Some(listed)
    }
}

/// Plays `parts` together: the outcome and every winning or drawing move
/// (see the module documentation).
pub fn play_parts(parts: &[&dyn SumPart]) -> Result<PartsSum> {
    let values: Vec<LoopyValue> = parts.iter().map(|p| p.value()).collect();
    let outcome = sum_outcome(&values);
    let mut moves = Vec::new();
    let mut move_count = Some(0u64);
    let mut take = |component: usize, found: PartMoves, moves: &mut Vec<PartMove>| {
        move_count = move_count.zip(found.count).map(|(a, b)| a + b);
        moves.extend(
            found
                .listed
                .into_iter()
                .map(|to| PartMove { component, to }),
        );
    };
    let finite: Option<Vec<Nimber>> = values
        .iter()
        .map(|v| match v {
            LoopyValue::Finite(v) => Some(*v),
            LoopyValue::Infinite(_) => None,
        })
        .collect();
    match (&finite, outcome) {
        (_, Outcome::Loss) => {}
        (Some(finite), _) => {
            for (i, target) in winning_targets(finite) {
                let room = WINNING_MOVES_LISTED.saturating_sub(moves.len());
                let found = parts[i].moves_to(&LoopyValue::Finite(target), room)?;
                take(i, found, &mut moves);
            }
        }
        (None, _) => {
            let mut left = values.clone();
            for (i, part) in parts.iter().enumerate() {
                for reached in part.reached()? {
                    left[i] = reached.clone();
                    if outcome.left_by_good_move() == Some(sum_outcome(&left)) {
                        let room = WINNING_MOVES_LISTED.saturating_sub(moves.len());
                        take(i, part.moves_to(&reached, room)?, &mut moves);
                    }
                }
                left[i] = values[i].clone();
            }
        }
    }
    moves.truncate(WINNING_MOVES_LISTED);
    let (winning_moves, drawing_moves) = match outcome {
        Outcome::Draw => (Vec::new(), moves),
        _ => (moves, Vec::new()),
    };
    Ok(PartsSum {
        values,
        outcome,
        winning_moves,
        drawing_moves,
        move_count,
    })
}

/// A component whose options are listed in full with their values: a
/// position of a graph, a script or a pair game, a maze figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPart {
    /// Its value.
    pub value: LoopyValue,
    /// Each option, written as what the component becomes, with its value.
    pub options: Vec<(String, LoopyValue)>,
}

impl SumPart for ListedPart {
    fn value(&self) -> LoopyValue {
        self.value.clone()
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let mut reached: Vec<LoopyValue> = Vec::new();
        for (_, value) in &self.options {
            if !reached.contains(value) {
                reached.push(value.clone());
            }
        }
        Ok(reached)
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let all = self.options.iter().filter(|(_, v)| v == target);
        Ok(PartMoves::counted(
            all.map(|(m, _)| m.clone()).collect(),
            listed,
        ))
    }
}

/// The values of heap games that components of a sum need, computed once
/// per game up to its largest heap (through a proven period for huge
/// heaps), from which each heap becomes a [`SumPart`].
pub struct HeapTables<'g, G> {
    games: &'g [G],
    known: Vec<KnownValues>,
    max_options: u64,
}

impl<'g, G: HeapRuleset + fmt::Display> HeapTables<'g, G> {
    /// The values the heaps `components` of `games` need; a heap whose
    /// options number more than `max_options` is refused when its moves
    /// are listed. `progress` hears the tables grow, as for
    /// [`analyze_sum_watched`](crate::analyze_sum_watched).
    pub fn new(
        games: &'g [G],
        components: &[Component],
        solver: &TableSolver,
        max_options: u64,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Self> {
        Ok(HeapTables {
            games,
            known: known_values(games, components, solver, progress)?,
            max_options,
        })
    }

    /// The component `component` as a part of a sum.
    pub fn part(&self, component: Component) -> HeapPart<'_, 'g, G> {
        HeapPart {
            tables: self,
            component,
        }
    }
}

/// A heap of a heap game in a sum of parts (see [`HeapTables`]).
pub struct HeapPart<'t, 'g, G> {
    tables: &'t HeapTables<'g, G>,
    component: Component,
}

impl<G: HeapRuleset + fmt::Display> SumPart for HeapPart<'_, '_, G> {
    fn value(&self) -> LoopyValue {
        let known = &self.tables.known[self.component.game];
        LoopyValue::Finite(known.at(self.component.heap))
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let Component { game, heap } = self.component;
        let (game, known) = (&self.tables.games[game], &self.tables.known[game]);
        check_listable(game, heap, self.tables.max_options)?;
        let mut reached = std::collections::BTreeSet::new();
        let _ = game.visit_options(heap, &mut |option| {
            reached.insert(option.iter().map(|&part| known.at(part)).sum::<Nimber>());
            ControlFlow::Continue(())
        });
        crate::cancel::check()?;
        Ok(reached.into_iter().map(LoopyValue::Finite).collect())
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let LoopyValue::Finite(target) = *target else {
            return Ok(PartMoves::counted(Vec::new(), listed));
        };
        let Component { game, heap } = self.component;
        let (game, known) = (&self.tables.games[game], &self.tables.known[game]);
        let (count, found) = heap_moves_to(game, known, heap, target, self.tables.max_options)?;
        Ok(PartMoves {
            listed: found.iter().take(listed).map(|to| heaps_left(to)).collect(),
            count: Some(count),
        })
    }
}

/// Heaps left by a move, as a sum is written: `2+4`, or `0` when none is.
pub fn heaps_left(heaps: &[usize]) -> String {
    if heaps.is_empty() {
        return "0".into();
    }
    let parts: Vec<String> = heaps.iter().map(ToString::to_string).collect();
    parts.join("+")
}
