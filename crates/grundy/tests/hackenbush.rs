//! Green Hackenbush against plain game-tree search: random trees and random
//! graphs with cycles, where neither the colon nor the fusion principle is
//! assumed.

use grundy::analysis::analyze_hackenbush;
use grundy::rules::Hackenbush;
use grundy::solve::HACKENBUSH_WORK;
use grundy::{MemoSolver, Nimber, Options, Ruleset};
use proptest::prelude::*;

/// A picture searched directly: positions are the sets of edges still
/// standing (bit `e` for edge `e`), and a move erases one and drops every
/// edge no longer connected to the ground (vertex 0).
struct Search {
    edges: Vec<(usize, usize)>,
}

impl Search {
    fn grounded(&self, mask: u32) -> u32 {
        let mut reached = 1u64; // vertex 0, the ground
        loop {
            let before = reached;
            for (e, &(a, b)) in self.edges.iter().enumerate() {
                if mask >> e & 1 == 1 && (reached >> a & 1 == 1 || reached >> b & 1 == 1) {
                    reached |= 1 << a | 1 << b;
                }
            }
            if reached == before {
                break;
            }
        }
        (0..self.edges.len() as u32)
            .filter(|&e| mask >> e & 1 == 1)
            .filter(|&e| reached >> self.edges[e as usize].0 & 1 == 1)
            .fold(0, |m, e| m | 1 << e)
    }
}

impl Ruleset for Search {
    type Position = u32;

    fn options(&self, &mask: &u32, out: &mut Options<u32>) {
        for e in 0..self.edges.len() {
            if mask >> e & 1 == 1 {
                out.push([self.grounded(mask & !(1 << e))]);
            }
        }
    }
}

fn picture(edges: &[(usize, usize)]) -> Hackenbush {
    let name = |v: usize| {
        if v == 0 {
            "g".to_owned()
        } else {
            format!("v{v}")
        }
    };
    let text: String = edges
        .iter()
        .map(|&(a, b)| format!("{} {}\n", name(a), name(b)))
        .collect();
    Hackenbush::parse(&text).unwrap()
}

fn edges(vertices: usize, most: usize) -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((0..vertices, 0..vertices), 0..=most)
}

/// Trees in bracket notation, with at most `most` edges.
fn trees(most: u32) -> impl Strategy<Value = String> {
    let leaf = Just(String::new());
    leaf.prop_recursive(4, most, 3, |inner| {
        prop::collection::vec(inner, 1..=3)
            .prop_map(|children| children.iter().map(|c| format!("({c})")).collect())
    })
}

/// Random trees as parent links: vertex `v >= 1` hangs from a vertex
/// before it, so both deep stalks and wide bushes come up.
fn parent_trees(most: usize) -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..=most).prop_map(|parents| {
        parents
            .iter()
            .enumerate()
            .map(|(i, parent)| (parent.index(i + 1), i + 1))
            .collect()
    })
}

/// The cuts to `target`, found by revaluing the picture once per edge.
fn cuts_by_revaluing(picture: &Hackenbush, target: Nimber) -> Vec<usize> {
    (0..picture.edge_count())
        .filter(|&e| picture.value_without(Some(e)) == target)
        .collect()
}

/// The edges of a bracket tree, as (parent, child) vertex pairs.
fn tree_edges(notation: &str) -> Vec<(usize, usize)> {
    let (mut edges, mut stack, mut next) = (Vec::new(), vec![0], 1);
    for c in notation.chars() {
        if c == '(' {
            edges.push((*stack.last().unwrap(), next));
            stack.push(next);
            next += 1;
        } else {
            stack.pop();
        }
    }
    edges
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn graphs_with_cycles_match_search(edges in edges(5, 9)) {
        let search = Search { edges: edges.clone() };
        let mut solver = MemoSolver::new(&search);
        let full = search.grounded((1 << edges.len()) - 1);
        let drawn = picture(&edges);
        prop_assert_eq!(drawn.value(), solver.value(&full).unwrap());
        for e in 0..edges.len() {
            let erased = search.grounded(full & !(1 << e));
            prop_assert_eq!(drawn.value_without(Some(e)), solver.value(&erased).unwrap(), "cut {}", e);
        }
    }

    #[test]
    fn trees_match_search(notation in trees(10)) {
        let edges = tree_edges(&notation);
        prop_assume!(edges.len() <= 16);
        let search = Search { edges: edges.clone() };
        let mut solver = MemoSolver::new(&search);
        let value = Hackenbush::tree(&notation).unwrap().value();
        prop_assert_eq!(value, solver.value(&((1u32 << edges.len()) - 1)).unwrap(), "{}", notation);
    }

    #[test]
    fn winning_cuts_are_exactly_the_cuts_to_zero(a in edges(4, 7), b in edges(4, 7)) {
        let pictures = [picture(&a), picture(&b)];
        let found = analyze_hackenbush(&pictures, u64::MAX).unwrap();
        prop_assert_eq!(found.nim_sum, found.values[0] ^ found.values[1]);
        let mut expected = Vec::new();
        for (i, p) in pictures.iter().enumerate() {
            for e in 0..p.edge_count() {
                let other = found.values[1 - i];
                if p.value_without(Some(e)) ^ other == Nimber::ZERO && !found.nim_sum.is_zero() {
                    expected.push((i, e));
                }
            }
        }
        prop_assert_eq!(&found.winning_cuts, &expected);
        prop_assert_eq!(found.winning_cuts.is_empty(), found.nim_sum.is_zero());
    }

    #[test]
    fn winning_cuts_of_trees_match_revaluing_every_cut(edges in parent_trees(40)) {
        let drawn = picture(&edges);
        let value = drawn.value().get();
        for target in 0..=value.max(8) + 2 {
            let target = Nimber::new(target);
            prop_assert_eq!(drawn.cuts_to(target, u64::MAX).unwrap(), cuts_by_revaluing(&drawn, target), "target {}", target.get());
        }
    }

    #[test]
    fn winning_cuts_of_graphs_match_revaluing_every_cut(edges in edges(7, 14)) {
        let drawn = picture(&edges);
        for target in 0..=16 {
            let target = Nimber::new(target);
            prop_assert_eq!(drawn.cuts_to(target, u64::MAX).unwrap(), cuts_by_revaluing(&drawn, target), "target {}", target.get());
        }
    }

    #[test]
    fn winning_cuts_of_trees_with_cycles_on_top_match_revaluing(
        tree in parent_trees(12),
        extra in edges(13, 6),
    ) {
        // A tree with a few extra edges: cycles, loops and floating edges
        // among bridges.
        let mut all = tree.clone();
        all.extend(extra);
        let drawn = picture(&all);
        for target in 0..=16 {
            let target = Nimber::new(target);
            prop_assert_eq!(drawn.cuts_to(target, u64::MAX).unwrap(), cuts_by_revaluing(&drawn, target), "target {}", target.get());
        }
    }
}

/// Every edge's cut, revalued, counted by the value it leaves.
fn counts_by_revaluing(picture: &Hackenbush) -> Vec<(Nimber, u64)> {
    let mut counts = std::collections::BTreeMap::new();
    for e in 0..picture.edge_count() {
        *counts.entry(picture.value_without(Some(e))).or_insert(0u64) += 1;
    }
    counts.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn cuts_by_value_of_trees_match_revaluing_every_cut(edges in parent_trees(60)) {
        let drawn = picture(&edges);
        prop_assert_eq!(drawn.cuts_by_value(u64::MAX).unwrap(), counts_by_revaluing(&drawn));
    }

    #[test]
    fn cuts_by_value_of_graphs_match_revaluing_every_cut(
        tree in parent_trees(14),
        extra in edges(15, 8),
    ) {
        let mut all = tree.clone();
        all.extend(extra);
        let drawn = picture(&all);
        prop_assert_eq!(drawn.cuts_by_value(u64::MAX).unwrap(), counts_by_revaluing(&drawn));
    }
}

#[test]
fn a_million_edges_are_counted_by_the_value_they_leave() {
    // A stalk of n: cutting edge e leaves a stalk of e, one cut per value.
    let n = 1_000_000;
    let stalk = Hackenbush::tree(&format!("{}{}", "(".repeat(n), ")".repeat(n))).unwrap();
    let counts = stalk.cuts_by_value(u64::MAX).unwrap();
    assert_eq!(counts.len(), n);
    assert!(
        counts
            .iter()
            .enumerate()
            .all(|(v, &(value, c))| value.get() == v as u32 && c == 1)
    );
    // A comb: a spine of 1000 edges, each carrying a stalk of 999 above
    // it, counted against the formula per edge of the spine.
    let tooth = format!("{}{}", "(".repeat(999), ")".repeat(999));
    let mut comb = String::new();
    for _ in 0..1000 {
        comb = format!("({tooth}{comb})");
    }
    let comb = Hackenbush::tree(&comb).unwrap();
    let counts = comb.cuts_by_value(u64::MAX).unwrap();
    assert_eq!(counts.iter().map(|c| c.1).sum::<u64>(), 1000 * 1000);
    let winning = comb.cuts_to(Nimber::ZERO, u64::MAX).unwrap().len() as u64;
    assert_eq!(
        counts.iter().find(|c| c.0.is_zero()).map_or(0, |c| c.1),
        winning
    );
    // A cycle worth revaluing per edge past the work limit is refused
    // before any revaluation, for counting and for listing the cuts, and
    // at any size once the limit is below one revaluation: the work is
    // counted, not timed.
    let ring = |size: usize| {
        let edges: String = (0..size)
            .map(|i| format!("v{i} v{}\n", (i + 1) % size))
            .collect();
        Hackenbush::parse(&format!("g v0\n{edges}")).unwrap()
    };
    let big = ring(100_000);
    for refused in [
        big.cuts_by_value(HACKENBUSH_WORK).unwrap_err(),
        // The cycle part must be worth 0 for the picture to be worth 1.
        big.cuts_to(Nimber::new(1), HACKENBUSH_WORK).unwrap_err(),
    ] {
        assert!(
            matches!(refused, grundy::Error::WorkLimit { limit, .. } if limit == HACKENBUSH_WORK),
            "{refused}"
        );
    }
    let small = ring(50);
    assert!(small.cuts_to(Nimber::new(1), 100).is_err());
    assert!(small.cuts_by_value(100).is_err());
    assert!(small.cuts_to(Nimber::new(1), HACKENBUSH_WORK).is_ok());
}

#[test]
fn a_stalk_of_100000_edges_finds_its_winning_cuts_in_one_pass() {
    // Revaluing per edge took quadratic time (a stalk of 20,000 took 18 s).
    let n = 100_000;
    let stalk = Hackenbush::tree(&format!("{}{}", "(".repeat(n), ")".repeat(n))).unwrap();
    assert_eq!(stalk.value().get(), n as u32);
    // Cutting edge e (from 0, ground up) leaves a stalk of e edges.
    for target in [0, 1, 77_777, n as u32 - 1] {
        assert_eq!(
            stalk.cuts_to(Nimber::new(target), u64::MAX).unwrap(),
            [target as usize]
        );
    }
    assert!(
        stalk
            .cuts_to(Nimber::new(n as u32), u64::MAX)
            .unwrap()
            .is_empty()
    );
    // Played against a stalk of 12: the one winning cut leaves 12.
    let short = Hackenbush::tree(&format!("{}{}", "(".repeat(12), ")".repeat(12))).unwrap();
    let found = analyze_hackenbush(&[stalk, short], u64::MAX).unwrap();
    assert_eq!(found.winning_cuts, [(0, 12)]);
}

#[test]
fn a_bush_of_100000_twigs_finds_its_winning_cuts_in_one_pass() {
    let n = 100_000;
    let bush = Hackenbush::tree(&format!("({})", "()".repeat(n))).unwrap();
    // One edge carrying 100,000 twigs (an even number): worth 1 + 0.
    assert_eq!(bush.value().get(), 1);
    // Cutting a twig leaves 1 + 1 = 2; cutting the trunk leaves 0.
    assert_eq!(bush.cuts_to(Nimber::ZERO, u64::MAX).unwrap(), [0]);
    assert_eq!(bush.cuts_to(Nimber::new(2), u64::MAX).unwrap().len(), n);
}
