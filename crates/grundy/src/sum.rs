//! Sums of heap games: the nim-sum, the winner and every winning move.
//!
//! By the Sprague–Grundy theorem a disjoint sum is worth the nim-sum `G` of
//! its components' values, and the player to move wins exactly when `G != 0`.
//! A move in component `i` wins exactly when it takes that component's value
//! `g_i` to `g_i ^ G`, since then the whole sum is worth zero; so the winning
//! moves are found component by component, without searching the product
//! space.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::ControlFlow;

mod heap_moves;
mod parts;

pub use heap_moves::{HeapMoveTable, HeapWins, MOVE_ROWS_LIMIT, WinsByValue, heap_move_table};
pub use parts::{
    HeapPart, HeapTables, ListedPart, PartMove, PartMoves, PartsSum, SumPart, heaps_left,
    play_parts,
};

use crate::analysis::{
    DEFAULT_MAX, PERIOD_FIRST, Periodicity, analyze_toward_proof, through_period,
};
use crate::{
    Error, HeapRuleset, MemoSolver, Nimber, Options, Result, Ruleset, TableSolver, ValueTable,
};

/// Who wins a game under normal play, with perfect play from both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The player to move.
    First,
    /// The other player: the position is a P-position.
    Second,
}

impl Winner {
    /// The winner of a sum worth `nim_sum`: the player to move exactly when
    /// it is not zero (Sprague–Grundy).
    pub fn of(nim_sum: Nimber) -> Winner {
        if nim_sum.is_zero() {
            Winner::Second
        } else {
            Winner::First
        }
    }

    /// `"first"` or `"second"`, as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
        }
    }
}

/// The winning-move rule of the theory, written once for every kind of sum:
/// in a sum of components worth `g_i`, with nim-sum `G`, a move in component
/// `i` wins exactly when it takes `g_i` to `g_i ^ G`, since it leaves a sum
/// worth zero. Yields `(i, g_i ^ G)` for every component, or nothing when
/// `G = 0` (every move then loses).
///
/// ```
/// use grundy::{winning_targets, Nimber};
/// let values = [3, 5, 7].map(Nimber::new);
/// let targets: Vec<(usize, u32)> = winning_targets(&values).map(|(i, t)| (i, t.get())).collect();
/// assert_eq!(targets, [(0, 2), (1, 4), (2, 6)]);
/// assert_eq!(winning_targets(&[Nimber::new(4), Nimber::new(4)]).count(), 0);
/// ```
pub fn winning_targets(values: &[Nimber]) -> impl Iterator<Item = (usize, Nimber)> + '_ {
    let nim_sum: Nimber = values.iter().copied().sum();
    values
        .iter()
        .enumerate()
        .filter(move |_| !nim_sum.is_zero())
        .map(move |(i, &value)| (i, value ^ nim_sum))
}

/// Tokens played together on a game whose positions' values are known
/// (a graph, a maze): each token's value, the nim-sum, and every winning
/// move by [`winning_targets`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenSum<M> {
    /// The value of each token's position.
    pub values: Vec<Nimber>,
    /// Their nim-sum: the first player wins when it is not zero.
    pub nim_sum: Nimber,
    /// Every winning move: the token (an index) and the move.
    pub winning_moves: Vec<(usize, M)>,
}

impl<M> TokenSum<M> {
    /// Who wins.
    pub fn winner(&self) -> Winner {
        Winner::of(self.nim_sum)
    }
}

/// Plays tokens together: `values[i]` is the value of token `i`'s position
/// and `moves(i)` lists its moves with the value each reaches.
///
/// ```
/// use grundy::{play_tokens, Nimber};
/// // Tokens on positions worth 1, 1 and 1 of a path 2 -> 1 -> 0.
/// let sum = play_tokens(vec![Nimber::new(1); 3], |_| vec![("to 0", Nimber::ZERO)]);
/// assert_eq!(sum.nim_sum, Nimber::new(1));
/// assert_eq!(sum.winning_moves.len(), 3); // any token to 0
/// ```
pub fn play_tokens<M, I: IntoIterator<Item = (M, Nimber)>>(
    values: Vec<Nimber>,
    mut moves: impl FnMut(usize) -> I,
) -> TokenSum<M> {
    let mut winning_moves = Vec::new();
    for (token, target) in winning_targets(&values) {
        winning_moves.extend(
            moves(token)
                .into_iter()
                .filter(|(_, reached)| *reached == target)
                .map(|(m, _)| (token, m)),
        );
    }
    TokenSum {
        nim_sum: values.iter().copied().sum(),
        values,
        winning_moves,
    }
}

/// One component of a sum: a heap of one of the sum's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    /// Index of the component's game in the list of games.
    pub game: usize,
    /// The heap size.
    pub heap: usize,
}

/// A move in a sum that leaves the opponent a P-position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct WinningMove {
    /// The 0-based index of the component moved in.
    pub component: usize,
    /// The heap size before the move.
    pub from: usize,
    /// The heaps the component becomes, in increasing order and without empty
    /// heaps; empty when the heap disappears.
    pub to: Vec<usize>,
}

/// The outcome of a sum of heap games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// The value of each component, in order.
    pub values: Vec<Nimber>,
    /// The nim-sum of all components.
    pub nim_sum: Nimber,
    /// The distinct winning moves, ordered by component then result, at
    /// most [`WINNING_MOVES_LISTED`] of them (the first in that order);
    /// empty when the player to move loses.
    pub winning_moves: Vec<WinningMove>,
    /// How many distinct winning moves there are in all.
    pub winning_move_count: u64,
}

/// The most winning moves [`analyze_sum`] lists (it counts them all): a
/// heap of 10^9 tokens of Kayles has hundreds of millions.
pub const WINNING_MOVES_LISTED: usize = 10_000;

impl SumAnalysis {
    /// Whether [`SumAnalysis::winning_moves`] lists every winning move.
    pub fn complete(&self) -> bool {
        self.winning_moves.len() as u64 == self.winning_move_count
    }

    /// Whether the player to move (the first player) wins.
    pub fn first_player_wins(&self) -> bool {
        !self.nim_sum.is_zero()
    }
}

/// Analyses the sum of `components`, each a heap of one of `games`.
///
/// Each game's value table is computed once, up to its largest heap; the
/// tables together must fit the solver's memory limit. Options are visited
/// one at a time, so a huge heap needs no buffer of its options; a heap of
/// a code that moves into many heaps with more than `max_options` of them
/// ([`LISTED_OPTIONS_LIMIT`] by default) is refused with
/// [`Error::TooManyOptions`] before any is listed.
///
/// ```
/// use grundy::{analyze_sum, Component, TableSolver, HeapGame, WinningMove};
/// let nim: HeapGame = "nim".parse().unwrap();
/// let heaps = [3, 5, 7].map(|heap| Component { game: 0, heap });
/// let sum = analyze_sum(&[nim], &heaps, &TableSolver::new(), grundy::LISTED_OPTIONS_LIMIT).unwrap();
/// assert_eq!(sum.nim_sum.get(), 1);
/// // Every winning move makes the nim-sum zero: 3 -> 2, 5 -> 4, 7 -> 6.
/// assert_eq!(sum.winning_moves.len(), 3);
/// assert_eq!(sum.winning_moves[0], WinningMove { component: 0, from: 3, to: vec![2] });
/// ```
pub fn analyze_sum<G: HeapRuleset + fmt::Display>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
    max_options: u64,
) -> Result<SumAnalysis> {
    analyze_sum_watched(games, components, solver, max_options, &mut |_, _| true)
}

/// [`analyze_sum`], telling `progress(n, last)` every few thousand heaps
/// while a game's values are computed up to its largest heap `last`; when
/// it returns `false` the analysis stops with [`Error::Interrupted`].
pub fn analyze_sum_watched<G: HeapRuleset + fmt::Display>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
    max_options: u64,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<SumAnalysis> {
    let known = known_values(games, components, solver, progress)?;
    let values: Vec<Nimber> = components
        .iter()
        .map(|c| known[c.game].at(c.heap))
        .collect();
    let nim_sum: Nimber = values.iter().copied().sum();

    let mut winning_moves = Vec::new();
    let mut winning_move_count = 0;
    for (index, target) in winning_targets(&values) {
        let component = components[index];
        let game = &games[component.game];
        let (count, listed) = heap_moves_to(
            game,
            &known[component.game],
            component.heap,
            target,
            max_options,
        )?;
        winning_move_count += count;
        winning_moves.extend(listed.into_iter().map(|to| WinningMove {
            component: index,
            from: component.heap,
            to,
        }));
    }
    winning_moves.sort();
    winning_moves.dedup();
    winning_moves.truncate(WINNING_MOVES_LISTED);
    Ok(SumAnalysis {
        values,
        nim_sum,
        winning_moves,
        winning_move_count,
    })
}

/// The distinct moves of heap `heap` of `game` that reach value `target`:
/// how many, and the first [`WINNING_MOVES_LISTED`] (each the heaps left,
/// in increasing order), through the proven period where `known` has one
/// and the options otherwise (refused past `max_options` of them).
fn heap_moves_to<G: HeapRuleset + ?Sized>(
    game: &G,
    known: &KnownValues,
    heap: usize,
    target: Nimber,
    max_options: u64,
) -> Result<(u64, Vec<Vec<usize>>)> {
    if let Some(found) = known.periodic_moves(game, heap, target, WINNING_MOVES_LISTED) {
        return Ok(found);
    }
    check_listable(game, heap, max_options)?;
    let mut found = Vec::new();
    let _ = game.visit_options(heap, &mut |option| {
        let reached: Nimber = option.iter().map(|&part| known.at(part)).sum();
        if reached == target {
            found.push(leaves(option));
        }
        ControlFlow::Continue(())
    });
    // The visit is complete unless a token cut it short.
    crate::cancel::check()?;
    found.sort();
    found.dedup();
    let count = found.len() as u64;
    found.truncate(WINNING_MOVES_LISTED);
    Ok((count, found))
}

/// A sum of heaps explained for people learning the theory: each heap's
/// distinct options with their values (the heap's value is their mex), the
/// nim-sum, the winner and every winning move, as far as the [`Listing`]
/// asked for goes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExplainedSum {
    /// The heaps, in order.
    pub heaps: Vec<usize>,
    /// Their nim-sum.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Each heap with its options.
    pub components: Vec<ExplainedHeap>,
    /// Every winning move (by [`winning_targets`]), by component and then
    /// in increasing order of the heaps left, up to the listing's cap.
    pub winning_moves: Vec<WinningMove>,
    /// Whether winning moves may exist beyond those listed (the cap was
    /// reached, or the search for them stopped at the listing's budget).
    pub winning_moves_truncated: bool,
    /// Whether no heap has a move: the player to move has lost.
    pub finished: bool,
}

/// One heap of an [`ExplainedSum`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExplainedHeap {
    /// The heap size.
    pub heap: usize,
    /// Its value: the mex of its options' values.
    pub value: Nimber,
    /// Its distinct options (the heaps each leaves, non-empty and in
    /// increasing order) with their values, in increasing order of the
    /// heaps left: all of them, or the first found up to the listing's cap.
    pub options: Vec<ExplainedOption>,
    /// Whether the heap has options beyond those listed.
    pub truncated: bool,
}

/// One option of an [`ExplainedHeap`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExplainedOption {
    /// The heaps the move leaves.
    pub to: Vec<usize>,
    /// Their nim-sum.
    pub value: Nimber,
}

/// How much [`explain_sum`] lists. A heap of `0.{2+}` has an option for
/// every way to split it (190 million for heap 100), so a listing meant
/// for people stops at a cap instead of building them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The most options listed per heap, and the most winning moves listed
    /// for the whole sum.
    pub options: usize,
    /// The most heaps the listed options of one heap leave together (an
    /// option of heap `n` can leave `n - 1` heaps): with `options`, a bound
    /// on the size of the answer.
    pub parts: usize,
    /// Once a heap's listing is full, the most further options looked at
    /// in search of winning moves, after the first one found (a heap whose
    /// value exceeds its target always has one, by the mex rule).
    pub search: u64,
}

impl Listing {
    /// Every option and every winning move, however many.
    pub const ALL: Listing = Listing {
        options: usize::MAX,
        parts: usize::MAX,
        search: u64::MAX,
    };
}

/// Explains the sum of `heaps` of `game`, given its `values` up to the
/// largest heap, listing as much as `listing` allows. Options are visited
/// one at a time and the visit stops when the listing is full and the
/// winning moves are found, so a heap with billions of options costs what
/// is listed, not what it has. Under a [`Cancel`](crate::Cancel) token a
/// visit cut short by it is an error, never a short listing.
///
/// ```
/// use grundy::{explain_sum, HeapGame, Listing, TableSolver, Winner};
/// let kayles: HeapGame = "kayles".parse()?;
/// let values = TableSolver::new().values(&kayles, 3)?;
/// let explained = explain_sum(&kayles, &values, &[3], &Listing::ALL)?;
/// assert_eq!(explained.winner, Winner::First);
/// assert_eq!(explained.components[0].options.len(), 3); // 2, 1 + 1 and 1
/// // Splitting 100 tokens, less one, into two or more heaps: 190 million
/// // options, of which the first five are listed.
/// let game: HeapGame = "0.{2+}".parse()?;
/// let values = TableSolver::new().values(&game, 100)?;
/// let listing = Listing { options: 5, parts: 1000, search: 10_000 };
/// let explained = explain_sum(&game, &values, &[100], &listing)?;
/// assert_eq!(explained.components[0].options.len(), 5);
/// assert!(explained.components[0].truncated);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn explain_sum<G: HeapRuleset + ?Sized>(
    game: &G,
    values: &ValueTable,
    heaps: &[usize],
    listing: &Listing,
) -> Result<ExplainedSum> {
    let heap_values = heaps
        .iter()
        .map(|&heap| value_of(values, &[heap]))
        .collect::<Result<Vec<Nimber>>>()?;
    let mut targets = vec![None; heaps.len()];
    for (i, target) in winning_targets(&heap_values) {
        targets[i] = Some(target);
    }
    let mut components = Vec::with_capacity(heaps.len());
    let mut winning_moves = Vec::new();
    let mut winning_moves_truncated = false;
    for (i, &heap) in heaps.iter().enumerate() {
        let room = listing.options.saturating_sub(winning_moves.len());
        let found = explain_heap(
            game,
            values,
            heap,
            heap_values[i],
            targets[i],
            listing,
            room,
        )?;
        winning_moves.extend(found.winning.into_iter().map(|to| WinningMove {
            component: i,
            from: heap,
            to,
        }));
        winning_moves_truncated |= found.more_winning;
        components.push(found.heap);
    }
    let nim_sum = heap_values.iter().copied().sum();
    Ok(ExplainedSum {
        heaps: heaps.to_vec(),
        nim_sum,
        winner: Winner::of(nim_sum),
        finished: components.iter().all(|c| c.options.is_empty()),
        components,
        winning_moves,
        winning_moves_truncated,
    })
}

/// What [`explain_heap`] found for one heap.
struct HeapFound {
    heap: ExplainedHeap,
    /// The winning moves' heaps left, in increasing order.
    winning: BTreeSet<Vec<usize>>,
    /// Whether there may be more winning moves.
    more_winning: bool,
}

/// One heap of [`explain_sum`]: its options listed up to `listing`'s caps,
/// and up to `room` moves to `target` (the winning ones), in one visit.
fn explain_heap<G: HeapRuleset + ?Sized>(
    game: &G,
    values: &ValueTable,
    heap: usize,
    value: Nimber,
    target: Option<Nimber>,
    listing: &Listing,
    room: usize,
) -> Result<HeapFound> {
    let mut listed: BTreeMap<Vec<usize>, Nimber> = BTreeMap::new();
    let mut parts_listed = 0usize;
    let mut truncated = false;
    let mut winning = BTreeSet::new();
    let mut more_winning = false;
    let mut searched = 0u64;
    let mut failure = None;
    let _ = game.visit_options(heap, &mut |option| {
        let reached = match value_of(values, option) {
            Ok(reached) => reached,
            Err(error) => {
                failure = Some(error);
                return ControlFlow::Break(());
            }
        };
        if !truncated {
            let to = leaves(option);
            if !listed.contains_key(&to) {
                if listed.len() < listing.options
                    && parts_listed.saturating_add(to.len()) <= listing.parts
                {
                    parts_listed += to.len();
                    listed.insert(to, reached);
                } else {
                    truncated = true;
                }
            }
        }
        if target == Some(reached) {
            let to = leaves(option);
            if !winning.contains(&to) {
                if winning.len() < room {
                    winning.insert(to);
                } else {
                    more_winning = true;
                }
            }
        }
        if !truncated {
            return ControlFlow::Continue(());
        }
        let Some(target) = target.filter(|_| !more_winning) else {
            return ControlFlow::Break(());
        };
        // The listing is full: search on for winning moves, within the
        // budget once one is found or when there need be none.
        searched += 1;
        if searched > listing.search && (!winning.is_empty() || target > value) {
            more_winning = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(error) = failure {
        return Err(error);
    }
    // A visit the token cut short breaks as a full listing does: the token
    // tells them apart.
    crate::cancel::check()?;
    Ok(HeapFound {
        heap: ExplainedHeap {
            heap,
            value,
            options: listed
                .into_iter()
                .map(|(to, value)| ExplainedOption { to, value })
                .collect(),
            truncated,
        },
        winning,
        more_winning,
    })
}

/// Whether heap `heap` of `game` has a move that leaves exactly the heaps
/// `to` (non-empty, in increasing order), found without listing the
/// options: a move checked against a capped [`explain_sum`] listing would
/// miss those past the cap.
pub fn has_option<G: HeapRuleset + ?Sized>(game: &G, heap: usize, to: &[usize]) -> Result<bool> {
    let total: usize = to.iter().sum();
    let mut found = false;
    let _ = game.visit_options(heap, &mut |option| {
        // Cheap tests first: a heap has far more options than matches.
        let parts = option.iter().filter(|&&p| p > 0);
        if parts.clone().count() == to.len()
            && parts.sum::<usize>() == total
            && leaves(option) == to
        {
            found = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if !found {
        // Not found, unless the token cut the visit short.
        crate::cancel::check()?;
    }
    Ok(found)
}

/// A move played against the engine, and its answer: what a playground
/// shows after each move.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveReply {
    /// The move played.
    pub yours: WinningMove,
    /// The nim-sum it left: 0 when it was a winning move.
    pub after_yours: Nimber,
    /// The engine's answer, unless the move ended the game.
    pub reply: Option<WinningMove>,
    /// The sum after both moves, explained.
    pub state: ExplainedSum,
    /// `"you"` or `"engine"` once no move is left, else null.
    pub winner: Option<&'static str>,
}

/// Plays heap `component` of `heaps` to the heaps `to` and answers it: the
/// engine makes a winning move when it has one (by [`winning_targets`],
/// through [`explain_sum`]), and otherwise its first move, in the hope of
/// a mistake. The move is checked against every option of the heap (not
/// only those a capped listing shows); an illegal move is an
/// [`Error::InvalidPosition`].
///
/// ```
/// use grundy::{play_move, HeapGame, Listing, TableSolver};
/// let nim: HeapGame = "nim".parse()?;
/// let values = TableSolver::new().values(&nim, 7)?;
/// // 3 + 5 + 7 is won; taking the 7 down to 1 leaves 3 + 5 + 1, worth 7,
/// // and the engine answers with a move to nim-sum 0.
/// let played = play_move(&nim, &values, &[3, 5, 7], 2, &[1], &Listing::ALL)?;
/// assert_eq!(played.after_yours.get(), 7);
/// assert!(played.reply.is_some());
/// assert!(played.state.nim_sum.is_zero());
/// assert!(play_move(&nim, &values, &[3], 0, &[4], &Listing::ALL).is_err());
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn play_move<G: HeapRuleset + ?Sized>(
    game: &G,
    values: &ValueTable,
    heaps: &[usize],
    component: usize,
    to: &[usize],
    listing: &Listing,
) -> Result<MoveReply> {
    let Some(&from) = heaps.get(component) else {
        return Err(Error::InvalidPosition {
            text: format!("heap {}", component + 1),
            reason: format!("the sum has {} heaps", heaps.len()),
        });
    };
    let mut to = to.to_vec();
    to.retain(|&h| h > 0);
    to.sort_unstable();
    if !has_option(game, from, &to)? {
        return Err(Error::InvalidPosition {
            text: format!("{from} -> {to:?}"),
            reason: format!("{from} cannot become {to:?} in one move"),
        });
    }
    let yours = WinningMove {
        component,
        from,
        to: to.clone(),
    };
    let mut state = explain_sum(game, values, &apply(heaps, component, &to), listing)?;
    let after_yours = state.nim_sum;
    let mut reply = None;
    if !state.finished {
        let chosen = state.winning_moves.first().cloned().or_else(|| {
            state.components.iter().enumerate().find_map(|(i, c)| {
                c.options.first().map(|o| WinningMove {
                    component: i,
                    from: c.heap,
                    to: o.to.clone(),
                })
            })
        });
        if let Some(chosen) = chosen {
            let next = apply(&state.heaps, chosen.component, &chosen.to);
            reply = Some(chosen);
            state = explain_sum(game, values, &next, listing)?;
        }
    }
    let winner = match (state.finished, reply.is_some()) {
        (true, true) => Some("engine"),
        (true, false) => Some("you"),
        _ => None,
    };
    Ok(MoveReply {
        yours,
        after_yours,
        reply,
        state,
        winner,
    })
}

/// `heaps` after heap `component` became the heaps `to`.
fn apply(heaps: &[usize], component: usize, to: &[usize]) -> Vec<usize> {
    let mut next: Vec<usize> = heaps.to_vec();
    next.remove(component);
    next.extend(to);
    next
}

/// The nim-sum of the values of `parts`, which must all be in `values`.
fn value_of(values: &ValueTable, parts: &[usize]) -> Result<Nimber> {
    parts
        .iter()
        .map(|&p| {
            values.get(p).ok_or_else(|| Error::InvalidRange {
                reason: format!("heap {p} is past the values computed"),
            })
        })
        .sum()
}

/// The heaps an option leaves: its non-empty parts, in increasing order.
/// Options that leave the same heaps are the same move.
fn leaves(option: &[usize]) -> Vec<usize> {
    let mut to: Vec<usize> = option.iter().copied().filter(|&p| p > 0).collect();
    to.sort_unstable();
    to
}

/// The moves of one component of a sum, counted by the value they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCounts {
    /// The component's value.
    pub value: Nimber,
    /// `(value reached, distinct moves reaching it)`, by value.
    pub by_value: Vec<(Nimber, u64)>,
}

impl MoveCounts {
    /// All distinct moves of the component.
    pub fn total(&self) -> u64 {
        self.by_value.iter().map(|&(_, c)| c).sum()
    }

    /// Moves to the value `v`.
    pub fn to_value(&self, v: Nimber) -> u64 {
        self.by_value
            .iter()
            .find(|&&(w, _)| w == v)
            .map_or(0, |&(_, c)| c)
    }
}

/// The winning moves of a sum counted from its components' move counts:
/// the nim-sum, and for each component how many of its moves win (those
/// reaching [`winning_targets`]).
pub fn winning_move_counts(counts: &[MoveCounts]) -> (Nimber, Vec<u64>) {
    let values: Vec<Nimber> = counts.iter().map(|c| c.value).collect();
    let mut winning = vec![0; counts.len()];
    for (i, target) in winning_targets(&values) {
        winning[i] = counts[i].to_value(target);
    }
    (values.iter().copied().sum(), winning)
}

/// For each component of a sum, its distinct moves counted by the value
/// they reach. A move in component `i` wins exactly when it reaches
/// `g_i ^ G`, so the winning moves of the sum number
/// `sum_i counts[i].to_value(g_i ^ G)`. Heaps with more than `max_options`
/// options are refused as by [`analyze_sum`]; `progress` hears the values
/// computed as for [`analyze_sum_watched`].
///
/// ```
/// use grundy::{move_counts, Component, HeapGame, Nimber, TableSolver};
/// let kayles: HeapGame = "kayles".parse().unwrap();
/// let rows = [4, 7].map(|heap| Component { game: 0, heap });
/// let limit = grundy::LISTED_OPTIONS_LIMIT;
/// let counts = move_counts(&[kayles], &rows, &TableSolver::new(), limit, &mut |_, _| true)?;
/// let (nim_sum, winning) = grundy::winning_move_counts(&counts);
/// assert_eq!(nim_sum, Nimber::new(3));
/// assert_eq!(winning, [1, 1]); // row 4 -> 2, row 7 -> 2 + 3
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn move_counts<G: HeapRuleset + fmt::Display>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
    max_options: u64,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Vec<MoveCounts>> {
    let known = known_values(games, components, solver, progress)?;
    for component in components {
        check_listable(&games[component.game], component.heap, max_options)?;
    }
    components
        .iter()
        .map(|component| {
            let known = &known[component.game];
            let mut seen = rustc_hash::FxHashSet::default();
            let mut counts = BTreeMap::new();
            // The distinct options are kept to count each once: their bytes
            // (a set entry and the heaps left) count against the memory
            // limit, as the listing goes.
            let limit = u128::from(solver.memory_limit());
            let mut kept = 0u128;
            let _ = games[component.game].visit_options(component.heap, &mut |option| {
                let left = leaves(option);
                let bytes = OPTION_ENTRY_BYTES + 8 * left.len() as u128;
                if seen.insert(left) {
                    kept += bytes;
                    if kept > limit {
                        return ControlFlow::Break(());
                    }
                    let reached: Nimber = option.iter().map(|&part| known.at(part)).sum();
                    *counts.entry(reached).or_insert(0u64) += 1;
                }
                ControlFlow::Continue(())
            });
            if kept > limit {
                return Err(Error::MemoryLimit {
                    what: format!(
                        "the options of heap {} of {}, kept to count each once,",
                        component.heap, games[component.game]
                    ),
                    needed: format!("more than {}", crate::error::human_bytes_near(kept, limit)),
                    limit: crate::error::human_bytes_near(limit, kept),
                });
            }
            // The counts are complete unless a token cut the visit short.
            crate::cancel::check()?;
            Ok(MoveCounts {
                value: known.at(component.heap),
                by_value: counts.into_iter().collect(),
            })
        })
        .collect()
}

/// The bytes an option kept in a set takes besides its heaps: the set's
/// entry (a vector's pointer, length and capacity, the table's slot and
/// its spare room, and the old table while it grows: about 90 bytes) and
/// the allocation's header and rounding. Measured: a listing held to 1 GiB
/// this way peaks within it.
const OPTION_ENTRY_BYTES: u128 = 112;

/// The default for the most options of one heap that [`analyze_sum`]
/// (every winning move) and [`move_counts`] list one by one: listing 10^7
/// options takes a few seconds, and the partitions of `0.{2+}` at 100
/// (190 million) took 20 s. [`explain_sum`] is bounded by its [`Listing`]
/// instead: a capped listing visits what it lists, so a web page can still
/// show such a heap.
pub const LISTED_OPTIONS_LIMIT: u64 = 10_000_000;

/// Checks that heap `heap` of `game` has at most `limit` options before
/// they are listed: take-and-break codes whose moves leave three or more
/// heaps count their partitions first, stopping at `limit + 1` (listing
/// those of `0.{62}` at heap 200 aborted on memory); other rules have at
/// most a few options per token of the heap.
fn check_listable<G: HeapRuleset + ?Sized>(game: &G, heap: usize, limit: u64) -> Result<()> {
    let many_parts = |code: &crate::TakeBreak| code.max_parts().is_none_or(|k| k > 2);
    match game.as_take_break() {
        Some(code)
            if many_parts(code) && code.option_count(heap, limit.saturating_add(1)) > limit =>
        {
            Err(Error::TooManyOptions {
                game: code.to_string(),
                heap: heap as u64,
                limit,
            })
        }
        _ => Ok(()),
    }
}

/// The values of every heap one game of a sum uses: its table and, when a
/// theorem proved it, the plain period that answers past the table.
#[derive(Clone, Debug)]
struct KnownValues {
    table: ValueTable,
    period: Option<Periodicity>,
}

impl KnownValues {
    /// `g(n)`: the table's, or past it the proven period's.
    fn at(&self, n: usize) -> Nimber {
        self.table
            .get(n)
            .or_else(|| through_period(&self.table, self.period?, n))
            .expect("a table reaches every heap of a game without a period")
    }

    /// The values of `game` through a proven plain period (saltus 0), from
    /// an adaptive analysis toward a proof for heaps up to `heap`; `None`
    /// when no such period is proven.
    fn proven<G: HeapRuleset + fmt::Display + ?Sized>(
        game: &G,
        heap: usize,
        solver: &TableSolver,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Option<KnownValues>> {
        let found = analyze_toward_proof(game, heap as u64, DEFAULT_MAX, solver, &mut |n| {
            progress(n, heap)
        })?;
        Ok(found.and_then(|found| {
            let period = found.proven_periodicity().filter(|p| p.saltus == 0)?;
            Some(KnownValues {
                table: found.values,
                period: Some(period),
            })
        }))
    }

    /// The moves of heap `n` that reach `target`, counted and the first
    /// `listed` of them (in the order of [`WinningMove::to`]), through the
    /// proven period, when the game is a take-and-break code with moves
    /// leaving at most two heaps and the heap lies past the table: `None`
    /// otherwise (the caller then visits the options).
    ///
    /// Removing `t` tokens and splitting the rest `m = n - t` into `a + b`
    /// (`1 <= a <= b`) reaches `g(a) ^ g(m - a)`. For `a` and `m - a` both
    /// past the table, `g(x) = B[(x - n0) mod p]`, so whether `a` reaches
    /// `target` depends on `a mod p` alone: the count over a range of `a`
    /// is a sum over the `p` residues, and the first moves in order are
    /// the first members of the matching residue classes. The heaps `a`
    /// in the table are tested one by one. The cost is `O(L + p + listed)`
    /// per digit for a table of `L` heaps, whatever `n` is.
    fn periodic_moves<G: HeapRuleset + ?Sized>(
        &self,
        game: &G,
        n: usize,
        target: Nimber,
        listed: usize,
    ) -> Option<(u64, Vec<Vec<usize>>)> {
        let period = self.period?;
        if n < self.table.len() {
            return None;
        }
        let digits = game.as_take_break()?.octal_digits()?;
        let (p, table) = (period.period, self.table.len());
        let mut count = 0u64;
        let mut moves: Vec<Vec<usize>> = Vec::new();
        for (t, leaves, unequal) in digits {
            let Some(m) = n.checked_sub(t) else { continue };
            if leaves & 1 != 0 && m == 0 && target.is_zero() {
                count += 1;
                moves.push(Vec::new());
            }
            if leaves & 2 != 0 && m > 0 && self.at(m) == target {
                count += 1;
                moves.push(vec![m]);
            }
            if leaves & 4 == 0 || m < 2 {
                continue;
            }
            let last = if unequal && m % 2 == 0 {
                m / 2 - 1
            } else {
                m / 2
            };
            count += self.count_pairs(m, last, target);
            // The first moves in order: `a` in the table one by one, then
            // the first members of the matching residue classes past it.
            let mut kept = 0;
            for a in 1..=last.min(table - 1) {
                if kept == listed {
                    break;
                }
                if self.at(a) ^ self.at(m - a) == target {
                    moves.push(vec![a, m - a]);
                    kept += 1;
                }
            }
            if last < table {
                continue;
            }
            let matching = self.matching_residues(m, target, period);
            let mut start = table - table % p;
            while kept < listed && start <= last && !matching.is_empty() {
                for &r in &matching {
                    let a = start + r;
                    if a >= table && a <= last && kept < listed {
                        moves.push(vec![a, m - a]);
                        kept += 1;
                    }
                }
                start += p;
            }
        }
        moves.sort();
        moves.truncate(listed);
        Some((count, moves))
    }

    /// How many `a` in `1..=last` (`last <= m / 2`) split `m` into heaps
    /// `a` and `m - a` worth `target` together (`g(a) ^ g(m - a)`): the `a`
    /// in the table one by one, and those past it, where both parts are
    /// past it, by their residues modulo the proven period
    /// ([`KnownValues::matching_residues`]). `O(L + p)` for a table of `L`
    /// heaps and a period `p`, whatever `m` is.
    fn count_pairs(&self, m: usize, last: usize, target: Nimber) -> u64 {
        let table = self.table.len();
        let direct = (1..=last.min(table.saturating_sub(1)))
            .filter(|&a| self.at(a) ^ self.at(m - a) == target)
            .count() as u64;
        match self.period {
            Some(period) if last >= table => {
                let p = period.period;
                self.matching_residues(m, target, period)
                    .into_iter()
                    .map(|r| residues_between(table, last, r, p))
                    .sum::<u64>()
                    + direct
            }
            _ => direct,
        }
    }

    /// The residues `r` modulo the period `p` such that heaps `a` and
    /// `m - a`, both at or past the pre-period `n0`, with `a mod p = r`, are
    /// worth `target` together: `g(x) = B[(x - n0) mod p]` there.
    fn matching_residues(&self, m: usize, target: Nimber, period: Periodicity) -> Vec<usize> {
        let (n0, p) = (period.preperiod, period.period);
        let (m_p, n0_p) = (m % p, n0 % p);
        (0..p)
            .filter(|&r| {
                let of_a = (r + p - n0_p) % p;
                let of_b = (m_p + 2 * p - r - n0_p) % p;
                self.table.at(n0 + of_a) ^ self.table.at(n0 + of_b) == target
            })
            .collect()
    }
}

/// How many `x` in `low..=high` have `x mod p = r`.
fn residues_between(low: usize, high: usize, r: usize, p: usize) -> u64 {
    let below = |x: usize| -> u64 {
        // members of 0..x
        (x / p + usize::from(x % p > r)) as u64
    };
    below(high + 1) - below(low)
}

/// The values each game of a sum needs, up to the largest heap the
/// components use: through a proven plain period for a long range of a
/// game with a periodicity theorem, else a table; the tables together must
/// fit the solver's memory limit. `progress(n, last)` hears each table's
/// heaps done (`false` stops it with [`Error::Interrupted`]).
fn known_values<G: HeapRuleset + fmt::Display>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Vec<KnownValues>> {
    if let Some(bad) = components.iter().find(|c| c.game >= games.len()) {
        return Err(Error::InvalidComponent {
            game: bad.game,
            games: games.len(),
        });
    }
    // The largest heap of each game: its values must reach it.
    let mut largest = vec![None; games.len()];
    for c in components {
        let entry: &mut Option<usize> = &mut largest[c.game];
        *entry = Some(entry.map_or(c.heap, |m| m.max(c.heap)));
    }
    let mut known: Vec<Option<KnownValues>> = vec![None; games.len()];
    for ((game, largest), known) in games.iter().zip(&largest).zip(&mut known) {
        *known = match *largest {
            None => Some(KnownValues {
                table: ValueTable::new(),
                period: None,
            }),
            Some(heap) if heap as u64 > PERIOD_FIRST => {
                KnownValues::proven(game, heap, solver, progress)?
            }
            Some(_) => None,
        };
    }
    let total: u64 = largest
        .iter()
        .zip(&known)
        .filter(|(_, k)| k.is_none())
        .filter_map(|(heap, _)| *heap)
        .map(|heap| heap as u64 + 1)
        .fold(0, u64::saturating_add);
    solver.check_fits(total.saturating_sub(1))?;
    games
        .iter()
        .zip(&largest)
        .zip(known)
        .map(|((game, largest), known)| match (known, largest) {
            (Some(known), _) => Ok(known),
            (None, Some(heap)) => {
                let mut table = ValueTable::new();
                solver.extend(game, &mut table, *heap as u64, &mut |n| progress(n, *heap))?;
                Ok(KnownValues {
                    table,
                    period: None,
                })
            }
            (None, None) => unreachable!("a game without heaps is known"),
        })
        .collect()
}

/// Positions of any ruleset played together: each one's value, the
/// nim-sum, and every winning move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSum<P> {
    /// The value of each position.
    pub values: Vec<Nimber>,
    /// Their nim-sum: the first player wins when it is not zero.
    pub nim_sum: Nimber,
    /// Every move to a nim-sum of zero, by component in the order the
    /// rules list the options.
    pub winning_moves: Vec<PositionMove<P>>,
}

/// A winning move in a [`PositionSum`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionMove<P> {
    /// Which position moves (an index into the positions given).
    pub component: usize,
    /// What it becomes: positions played together (none: it disappears).
    pub to: Vec<P>,
}

/// The values of `positions` of `rules` played together, who wins, and
/// every winning move: the moves of one component to a position of value
/// `g ^ nim_sum`, which leave a nim-sum of zero (Sprague–Grundy).
///
/// ```
/// use grundy::{analyze_positions, Nimber, Options, Ruleset};
/// // Take one or two from a heap.
/// struct OneOrTwo;
/// impl Ruleset for OneOrTwo {
///     type Position = u32;
///     fn options(&self, n: &u32, out: &mut Options<u32>) {
///         (1..=2).filter(|t| t <= n).for_each(|t| out.push([n - t]));
///     }
/// }
/// let sum = analyze_positions(&OneOrTwo, &[4, 4, 2])?;
/// assert_eq!(sum.nim_sum, Nimber::new(2));
/// assert_eq!(sum.winning_moves[0].component, 2); // 2 -> 0
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn analyze_positions<R: Ruleset>(
    rules: &R,
    positions: &[R::Position],
) -> Result<PositionSum<R::Position>> {
    analyze_positions_with(&mut MemoSolver::new(rules), positions)
}

/// One position's value and winning moves, in a table of positions
/// ([`position_move_table`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionWins<P> {
    /// The position.
    pub position: P,
    /// Its value.
    pub value: Nimber,
    /// Every move to a position of value 0, as the positions it leaves
    /// side by side (none exactly when the value is 0), in the order the
    /// rules list the options.
    pub winning_moves: Vec<Vec<P>>,
}

/// The value and every winning move of each of `positions` of `rules`:
/// a position alone is a sum of one component, whose winning moves are
/// those of [`analyze_positions`] (the moves to value `g ^ g = 0`). One
/// memoized search values every position, so a table of a game's
/// positions costs its positions' options once. `progress(done, total)`
/// hears each row; `false` stops with [`Error::Interrupted`].
pub fn position_move_table<R: Ruleset>(
    rules: &R,
    positions: &[R::Position],
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Vec<PositionWins<R::Position>>> {
    let mut solver = MemoSolver::new(rules);
    let mut rows = Vec::with_capacity(positions.len());
    for (done, position) in positions.iter().enumerate() {
        if !progress(done, positions.len()) {
            return Err(Error::Interrupted { heaps: done as u64 });
        }
        let alone = analyze_positions_with(&mut solver, std::slice::from_ref(position))?;
        rows.push(PositionWins {
            position: position.clone(),
            value: alone.nim_sum,
            winning_moves: alone.winning_moves.into_iter().map(|m| m.to).collect(),
        });
    }
    Ok(rows)
}

/// [`analyze_positions`] with a solver the caller keeps (see
/// [`MemoSolver::resume`]): values found by earlier calls are not searched
/// again.
pub fn analyze_positions_with<R: Ruleset>(
    solver: &mut MemoSolver<'_, R>,
    positions: &[R::Position],
) -> Result<PositionSum<R::Position>> {
    let rules = solver.rules();
    sum_by_values(rules, positions, &mut |p| solver.value(p))
}

/// [`analyze_positions`] with the values of positions from `value` (a
/// memoized search, or a table the caller has checked against a memory
/// limit): each position's value, the nim-sum, and every move of a
/// component to a position of value `g ^ nim_sum`.
pub(crate) fn sum_by_values<R: Ruleset>(
    rules: &R,
    positions: &[R::Position],
    value: &mut dyn FnMut(&R::Position) -> Result<Nimber>,
) -> Result<PositionSum<R::Position>> {
    let values = positions
        .iter()
        .map(&mut *value)
        .collect::<Result<Vec<Nimber>>>()?;
    let nim_sum: Nimber = values.iter().copied().sum();
    let mut winning_moves = Vec::new();
    let mut options = Options::new();
    for (component, target) in winning_targets(&values) {
        options.clear();
        rules.options(&positions[component], &mut options);
        // A listing cut short by a Cancel token must not be used.
        crate::cancel::check()?;
        for option in options.iter() {
            let reached = option.iter().map(&mut *value).sum::<Result<Nimber>>()?;
            if reached == target {
                winning_moves.push(PositionMove {
                    component,
                    to: option.to_vec(),
                });
            }
        }
    }
    Ok(PositionSum {
        values,
        nim_sum,
        winning_moves,
    })
}
