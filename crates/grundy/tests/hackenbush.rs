//! Green Hackenbush against plain game-tree search: random trees and random
//! graphs with cycles, where neither the colon nor the fusion principle is
//! assumed.

use grundy::rules::{Hackenbush, analyze_hackenbush};
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
        let found = analyze_hackenbush(&pictures);
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
}
