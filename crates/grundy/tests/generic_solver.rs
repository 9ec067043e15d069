//! The generic solver on deep, cyclic and decomposing games.

use grundy::{Error, MemoSolver, Nimber, Options, Ruleset};

/// A chain: from `n` the only move is to `n - 1`.
struct Chain;
impl Ruleset for Chain {
    type Position = u32;
    fn options(&self, &n: &u32, out: &mut Options<u32>) {
        if n > 0 {
            out.push([n - 1]);
        }
    }
}

#[test]
fn a_chain_of_ten_million_positions_does_not_overflow_the_stack() {
    let mut solver = MemoSolver::new(&Chain);
    // g alternates 0, 1, 0, 1, ... along the chain.
    assert_eq!(solver.value(&10_000_000).unwrap(), Nimber::ZERO);
    assert_eq!(solver.value(&9_999_999).unwrap(), Nimber::new(1));
    assert_eq!(solver.positions_evaluated(), 10_000_001);
}

/// Positions 0..=9 where 7 -> 8 -> 9 -> 7 is a cycle and 5 can reach it.
struct WithCycle;
impl Ruleset for WithCycle {
    type Position = u8;
    fn options(&self, &n: &u8, out: &mut Options<u8>) {
        match n {
            0 => {}
            5 => {
                out.push([4]);
                out.push([7]);
            }
            7..=9 => out.push([7 + (n - 6) % 3]),
            _ => out.push([n - 1]),
        }
    }
}

#[test]
fn a_cycle_is_reported_with_a_position_on_it() {
    let mut solver = MemoSolver::new(&WithCycle);
    assert_eq!(solver.value(&4).unwrap(), Nimber::ZERO);
    match solver.value(&6) {
        Err(Error::Cycle { position }) => {
            assert!(["7", "8", "9"].contains(&position.as_str()), "{position}")
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
    // Values found before the cycle are kept and still right.
    assert_eq!(solver.value(&3).unwrap(), Nimber::new(1));
}

/// Nim on several heaps at once, as a sorted list of heaps; a position with
/// two or more heaps decomposes into single heaps.
struct MultiNim;
impl Ruleset for MultiNim {
    type Position = Vec<u8>;
    fn options(&self, heaps: &Vec<u8>, out: &mut Options<Vec<u8>>) {
        for (i, &h) in heaps.iter().enumerate() {
            for smaller in 0..h {
                let mut next = heaps.clone();
                next[i] = smaller;
                next.retain(|&x| x > 0);
                next.sort_unstable();
                out.push([next]);
            }
        }
    }
    fn decompose(&self, heaps: &Vec<u8>, parts: &mut Vec<Vec<u8>>) -> bool {
        if heaps.len() < 2 {
            return false;
        }
        parts.extend(heaps.iter().map(|&h| vec![h]));
        true
    }
}

/// The same game with decomposition switched off: a full product search.
struct MultiNimWhole;
impl Ruleset for MultiNimWhole {
    type Position = Vec<u8>;
    fn options(&self, heaps: &Vec<u8>, out: &mut Options<Vec<u8>>) {
        MultiNim.options(heaps, out);
    }
}

#[test]
fn decomposition_agrees_with_searching_the_whole_position() {
    let mut split = MemoSolver::new(&MultiNim);
    let mut whole = MemoSolver::new(&MultiNimWhole);
    for a in 0..6u8 {
        for b in 0..6u8 {
            for c in 0..6u8 {
                let mut position: Vec<u8> = [a, b, c].into_iter().filter(|&h| h > 0).collect();
                position.sort_unstable();
                let expected = Nimber::new(u32::from(a ^ b ^ c));
                assert_eq!(split.value(&position).unwrap(), expected);
                assert_eq!(whole.value(&position).unwrap(), expected);
            }
        }
    }
}
