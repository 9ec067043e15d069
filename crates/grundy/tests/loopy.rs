//! Games with cycles: the generalized Sprague–Grundy values against their
//! definition, and Smith's sum rule against retrograde analysis of the sum's
//! own state space, on random small graphs.

use grundy::Nimber;
use grundy::rules::GameGraph;
use grundy::solve::{
    Adjacency, LoopyValue, Outcome, analyze_loopy_sum, loopy_values, retrograde, sum_outcome,
    sum_retrograde,
};
use proptest::prelude::*;

/// A random graph on `n` positions as compressed adjacency lists.
fn graphs(most: usize) -> impl Strategy<Value = (Vec<usize>, Vec<u32>)> {
    (1..=most).prop_flat_map(|n| {
        prop::collection::vec(prop::collection::vec(0..n as u32, 0..=3), n).prop_map(|moves| {
            let mut starts = vec![0];
            let mut targets = Vec::new();
            for m in moves {
                targets.extend(m);
                starts.push(targets.len());
            }
            (starts, targets)
        })
    })
}

fn finite(value: &LoopyValue) -> Option<Nimber> {
    match value {
        LoopyValue::Finite(v) => Some(*v),
        LoopyValue::Infinite(_) => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn values_satisfy_the_definition((starts, targets) in graphs(9)) {
        let graph = Adjacency { starts: &starts, targets: &targets };
        let values = loopy_values(graph).unwrap();
        let moves = |p: usize| targets[starts[p]..starts[p + 1]].iter().map(|&q| q as usize);
        for (p, value) in values.iter().enumerate() {
            match value {
                LoopyValue::Finite(m) => {
                    // No option worth m; every smaller value among the options;
                    // every option worth more (or infinite) reverses to m.
                    prop_assert!(moves(p).all(|q| finite(&values[q]) != Some(*m)));
                    for j in 0..m.get() {
                        prop_assert!(moves(p).any(|q| finite(&values[q]) == Some(Nimber::new(j))));
                    }
                    for q in moves(p) {
                        if finite(&values[q]).is_none_or(|v| v > *m) {
                            prop_assert!(moves(q).any(|r| finite(&values[r]) == Some(*m)), "{} {}", p, q);
                        }
                    }
                }
                LoopyValue::Infinite(k) => {
                    let mut listed: Vec<Nimber> = moves(p).filter_map(|q| finite(&values[q])).collect();
                    listed.sort_unstable();
                    listed.dedup();
                    prop_assert_eq!(k, &listed);
                }
            }
        }
        // On its own, a position's value and retrograde analysis agree.
        let plain = retrograde(graph);
        for (p, value) in values.iter().enumerate() {
            prop_assert_eq!(value.outcome(), plain.outcomes[p], "position {}", p);
        }
    }

    #[test]
    fn smiths_sum_rule_matches_search(
        (starts, targets) in graphs(7),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..=3),
    ) {
        let graph = Adjacency { starts: &starts, targets: &targets };
        let count = starts.len() - 1;
        let tokens: Vec<usize> = picks.iter().map(|i| i.index(count)).collect();
        let values = loopy_values(graph).unwrap();
        let parts: Vec<LoopyValue> = tokens.iter().map(|&t| values[t].clone()).collect();
        let (searched, _) = sum_retrograde(graph, &tokens, 1 << 20).unwrap();
        prop_assert_eq!(sum_outcome(&parts), searched, "tokens {:?}", tokens);
        let found = analyze_loopy_sum(graph, &values, &tokens);
        prop_assert_eq!(found.winning_moves.is_empty(), found.outcome != Outcome::Win);
        for &(i, to) in found.winning_moves.iter().chain(&found.drawing_moves) {
            let mut next = tokens.clone();
            next[i] = to;
            let (after, _) = sum_retrograde(graph, &next, 1 << 20).unwrap();
            let expected = if found.outcome == Outcome::Win { Outcome::Loss } else { Outcome::Draw };
            prop_assert_eq!(after, expected, "move {} -> {}", i, to);
        }
    }
}

#[test]
fn acyclic_graphs_keep_their_grundy_values() {
    let graph = GameGraph::parse("a b\na c\nb c\nc d\nb d\ne a\n").unwrap();
    let plain = graph.solve().unwrap();
    let loopy = graph.loopy_values().unwrap();
    for (p, v) in plain.values.iter().enumerate() {
        assert_eq!(loopy[p], LoopyValue::Finite(*v), "{}", graph.name(p));
    }
}

/// Small cycles worked out by hand from the definition: a two-cycle with an
/// exit has finite values, and without the exit everything draws.
#[test]
fn hand_checked_cycles() {
    // a -> b, b -> c, c -> b, c -> d: d is 0, and c, with the option d, is 1.
    let graph = GameGraph::parse("a b\nb c\nc b\nc d\nd\n").unwrap();
    let values = graph.loopy_values().unwrap();
    let value = |name: &str| values[graph.position(name).unwrap()].to_string();
    assert_eq!(value("d"), "0");
    assert_eq!(value("c"), "1");
    // b's only option c is worth 1 and has the option d = 0, so b is 0;
    // a, with only b = 0, is 1.
    assert_eq!(value("b"), "0");
    assert_eq!(value("a"), "1");
    // Without the exit, b and c chase each other forever: ∞{} draws, and a
    // (moving into the chase) is ∞{} too.
    let chase = GameGraph::parse("a b\nb c\nc b\n").unwrap();
    for v in chase.loopy_values().unwrap() {
        assert_eq!(v, LoopyValue::Infinite(vec![]));
        assert_eq!(v.outcome(), Outcome::Draw);
    }
}
