//! The sum rule against exhaustive game-tree search.
//!
//! Positions of the take-and-split game with several heaps are searched
//! directly — win or loss by trying every move, with no Grundy values — and
//! the winner and the set of winning moves must equal what
//! [`analyze_sum`] derives from nim-sums.

use std::collections::{BTreeSet, HashMap};

use grundy::solve::Plain;
use grundy::{
    Component, HeapGame, MemoSolver, Nimber, Options, Ruleset, TableSolver, WinningMove,
    analyze_sum,
};

/// The take-and-split rule from its words: take 1, take 2, or take 2 and
/// split the rest into two non-empty heaps. Results list the heaps left.
fn moves_from_the_rule(heap: usize) -> Vec<Vec<usize>> {
    let mut moves = Vec::new();
    for take in 1..=2 {
        if heap >= take {
            let rest = heap - take;
            moves.push(if rest == 0 { vec![] } else { vec![rest] });
        }
    }
    if heap >= 4 {
        let rest = heap - 2;
        for a in 1..=rest / 2 {
            moves.push(vec![a, rest - a]);
        }
    }
    moves
}

/// Exhaustive search on multisets of heaps (kept sorted).
struct Search {
    wins: HashMap<Vec<usize>, bool>,
}

impl Search {
    /// Every position reachable in one move, sorted.
    fn successors(position: &[usize]) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for (i, &heap) in position.iter().enumerate() {
            for pieces in moves_from_the_rule(heap) {
                let mut next: Vec<usize> = position.to_vec();
                next.remove(i);
                next.extend(&pieces);
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }

    fn first_player_wins(&mut self, position: &[usize]) -> bool {
        let mut sorted = position.to_vec();
        sorted.sort_unstable();
        if let Some(&known) = self.wins.get(&sorted) {
            return known;
        }
        let wins = Self::successors(&sorted)
            .iter()
            .any(|next| !self.first_player_wins(next));
        self.wins.insert(sorted, wins);
        wins
    }

    /// Every move (component, pieces) of the ordered sum that leaves a loss.
    fn winning_moves(&mut self, heaps: &[usize]) -> BTreeSet<(usize, Vec<usize>)> {
        let mut found = BTreeSet::new();
        for (i, &heap) in heaps.iter().enumerate() {
            for pieces in moves_from_the_rule(heap) {
                let mut next: Vec<usize> = heaps.to_vec();
                next.remove(i);
                next.extend(&pieces);
                if !self.first_player_wins(&next) {
                    let mut pieces = pieces.clone();
                    pieces.sort_unstable();
                    found.insert((i, pieces));
                }
            }
        }
        found
    }
}

#[test]
fn sums_of_up_to_three_take_and_split_heaps_agree_with_search() {
    let game: HeapGame = "take-and-split".parse().unwrap();
    let games = [game];
    let solver = TableSolver::new();
    let mut search = Search {
        wins: HashMap::new(),
    };
    let mut inputs = 0;
    let mut sums: Vec<Vec<usize>> = (0..=8).map(|h| vec![h]).collect();
    for _ in 0..3 {
        for heaps in &sums {
            let components: Vec<Component> = heaps
                .iter()
                .map(|&heap| Component { game: 0, heap })
                .collect();
            let analysis =
                analyze_sum(&games, &components, &solver, grundy::LISTED_OPTIONS_LIMIT).unwrap();
            assert_eq!(
                analysis.first_player_wins(),
                search.first_player_wins(heaps),
                "winner of {heaps:?}"
            );
            let from_values: BTreeSet<(usize, Vec<usize>)> = analysis
                .winning_moves
                .iter()
                .map(|m| (m.component, m.to.clone()))
                .collect();
            assert_eq!(
                from_values,
                search.winning_moves(heaps),
                "winning moves of {heaps:?}"
            );
            assert_eq!(
                from_values.len(),
                analysis.winning_moves.len(),
                "moves are distinct"
            );
            inputs += 1;
        }
        sums = sums
            .iter()
            .flat_map(|s| (0..=8).map(move |h| [s.clone(), vec![h]].concat()))
            .collect();
    }
    assert_eq!(inputs, 9 + 81 + 729);
}

/// Law: every winning move is a legal move and leads to a P-position, and
/// every move that leads to a P-position is listed. Legality comes from the
/// plain option lists and values from the generic solver, not from the tables
/// `analyze_sum` uses.
#[test]
fn winning_moves_are_exactly_the_moves_to_zero() {
    let games: Vec<HeapGame> = ["kayles", "grundy", "sub(1,3,4)", "lasker", "0.137"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let solver = TableSolver::new();
    let mut memos: Vec<MemoSolver<HeapGame>> = games.iter().map(MemoSolver::new).collect();
    let mut checked = 0;
    for seed in 0..200usize {
        // A deterministic spread of mixed sums of 2 to 4 heaps.
        let count = 2 + seed % 3;
        let components: Vec<Component> = (0..count)
            .map(|k| Component {
                game: (seed + 3 * k) % games.len(),
                heap: (seed * 7 + k * 13 + k * k * 5) % 61,
            })
            .collect();
        let analysis =
            analyze_sum(&games, &components, &solver, grundy::LISTED_OPTIONS_LIMIT).unwrap();
        let mut value = |c: &Component| memos[c.game].value(&c.heap).unwrap();
        let parts: Vec<Nimber> = components.iter().map(&mut value).collect();
        let total: Nimber = parts.iter().copied().sum();
        assert_eq!(analysis.nim_sum, total, "{components:?}");
        let mut expected = BTreeSet::new();
        for (i, c) in components.iter().enumerate() {
            let mut options = Options::new();
            Plain(&games[c.game]).options(&c.heap, &mut options);
            for option in options.iter() {
                let after: Nimber = option
                    .iter()
                    .map(|&h| memos[c.game].value(&h).unwrap())
                    .sum::<Nimber>()
                    ^ total
                    ^ parts[i];
                if after.is_zero() {
                    let mut to: Vec<usize> = option.iter().copied().filter(|&h| h > 0).collect();
                    to.sort_unstable();
                    expected.insert((i, to));
                }
            }
        }
        let listed: BTreeSet<(usize, Vec<usize>)> = analysis
            .winning_moves
            .iter()
            .map(
                |WinningMove {
                     component,
                     from,
                     to,
                 }| {
                    assert_eq!(*from, components[*component].heap);
                    (*component, to.clone())
                },
            )
            .collect();
        assert_eq!(listed, expected, "{components:?}");
        assert_eq!(analysis.first_player_wins(), !listed.is_empty());
        checked += listed.len();
    }
    assert!(checked > 100);
}
