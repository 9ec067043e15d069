//! Misère play against plain game-tree search, where neither the misère
//! Nim rule nor genus theory is assumed.

use std::collections::HashMap;

use grundy::analysis::{Misere, misere_nim_loses};
use grundy::{HeapGame, Options, Ruleset};

/// Exhaustive misère search on sorted multisets of heaps: the player who
/// cannot move wins.
struct Search<'g> {
    game: &'g HeapGame,
    memo: HashMap<Vec<usize>, bool>,
}

impl Search<'_> {
    fn loses(&mut self, heaps: &[usize]) -> bool {
        let mut key: Vec<usize> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut any_move = false;
        let mut loses = true;
        for i in 0..key.len() {
            let mut listed = Options::new();
            self.game.options(&key[i], &mut listed);
            for parts in listed.iter() {
                any_move = true;
                let mut next: Vec<usize> = key[..i].iter().chain(&key[i + 1..]).copied().collect();
                next.extend(parts);
                if self.loses(&next) {
                    loses = false;
                }
            }
        }
        // No move at all: the player to move has won.
        let result = any_move && loses;
        self.memo.insert(key, result);
        result
    }
}

fn multisets(most: usize, largest: usize) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    let mut frontier = vec![vec![]];
    for _ in 0..most {
        let mut next = Vec::new();
        for m in &frontier {
            let low = m.last().copied().unwrap_or(1);
            for h in low..=largest {
                let mut grown: Vec<usize> = m.clone();
                grown.push(h);
                next.push(grown);
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all
}

#[test]
fn misere_nim_follows_boutons_rule() {
    let nim: HeapGame = "nim".parse().unwrap();
    let mut search = Search {
        game: &nim,
        memo: HashMap::new(),
    };
    let mut misere = Misere::new(&nim, 7).unwrap();
    for heaps in multisets(4, 7) {
        let loses = search.loses(&heaps);
        let as_u64: Vec<u64> = heaps.iter().map(|&h| h as u64).collect();
        assert_eq!(misere_nim_loses(&as_u64), loses, "{heaps:?}");
        assert_eq!(
            misere.misere_value(&heaps).unwrap() == 0,
            loses,
            "{heaps:?}"
        );
    }
}

#[test]
fn misere_sums_match_search_with_and_without_tameness() {
    for spec in [
        "kayles",
        "dawsons-chess",
        "0.75",
        "0.312",
        "sub(1,3,4)",
        "grundy",
        "0.07",
    ] {
        let game: HeapGame = spec.parse().unwrap();
        let mut search = Search {
            game: &game,
            memo: HashMap::new(),
        };
        let largest = 9;
        let mut plain = Misere::new(&game, largest).unwrap().without_tameness();
        let mut tame = Misere::new(&game, largest).unwrap();
        tame.genera(largest, 5).unwrap();
        for heaps in multisets(3, largest) {
            let loses = search.loses(&heaps);
            assert_eq!(
                plain.misere_value(&heaps).unwrap() == 0,
                loses,
                "{spec} {heaps:?}"
            );
            assert_eq!(
                tame.misere_value(&heaps).unwrap() == 0,
                loses,
                "{spec} {heaps:?} (tame)"
            );
        }
    }
}

#[test]
fn winning_moves_are_exactly_the_moves_to_misere_p_positions() {
    for spec in ["kayles", "dawsons-chess", "0.312"] {
        let game: HeapGame = spec.parse().unwrap();
        let mut search = Search {
            game: &game,
            memo: HashMap::new(),
        };
        let mut misere = Misere::new(&game, 8).unwrap();
        for heaps in multisets(3, 8) {
            let (value, moves) = misere.analyze_sum(&heaps).unwrap();
            assert_eq!(value == 0, search.loses(&heaps), "{spec} {heaps:?}");
            // With no heaps the player to move has already won, without a move.
            if !heaps.is_empty() {
                assert_eq!(moves.is_empty(), value == 0, "{spec} {heaps:?}");
            }
            for m in &moves {
                let mut after: Vec<usize> = heaps.clone();
                after.remove(m.component);
                after.extend(&m.to);
                assert!(search.loses(&after), "{spec} {heaps:?} -> {m:?}");
            }
        }
    }
}

/// Single-heap genera of 0.312 as published by Plambeck (plambeck.org,
/// misère quaternary games, 0.312): 1^{031}, 2^{20}, 0^{02}, 2^{1420},
/// 0^{02}, 1^{13}, then period two.
#[test]
fn genera_of_0_312_match_the_literature() {
    let game: HeapGame = "0.312".parse().unwrap();
    let mut misere = Misere::new(&game, 8).unwrap();
    let genera = misere.genera(8, 6).unwrap();
    let shown: Vec<String> = genera[1..=6].iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["1^031", "2^20", "0^02", "2^1420", "0^02", "1^13"]);
    assert_eq!(genera[0].to_string(), "0^120");
    assert!(!genera[4].is_tame() && genera[3].is_tame());
}

mod quotients {
    use super::*;
    use grundy::analysis::MisereQuotient;

    fn quotient(spec: &str, max_heap: usize) -> (HeapGame, MisereQuotient) {
        let game: HeapGame = spec.parse().unwrap();
        let q = MisereQuotient::compute(&game, max_heap, 6, 5_000_000).unwrap();
        (game, q)
    }

    /// Bouton: misère Nim positions are told apart only by their nim-sum
    /// and by whether some heap is 2 or more, so heaps up to 2 give the
    /// six-element quotient <a, b | a^2 = 1, b^3 = b> with P-portion
    /// {a, b^2}, and heaps up to 7 give 2 + 8 = 10 elements.
    #[test]
    fn misere_nim_quotients_follow_from_boutons_rule() {
        let (_, q) = quotient("nim", 2);
        assert_eq!(q.len(), 6);
        let p: Vec<String> = q.p_portion().map(|e| q.spell(q.word(e))).collect();
        assert_eq!(p, ["a", "b^2"]);
        let relations: Vec<String> = q
            .relations()
            .iter()
            .map(|(l, r)| format!("{} = {}", q.spell(l), q.spell(r)))
            .collect();
        assert_eq!(relations, ["a^2 = 1", "b^3 = b"]);
        assert_eq!(quotient("nim", 3).1.len(), 6);
        assert_eq!(quotient("nim", 7).1.len(), 10);
        assert_eq!(quotient("nim", 7).1.p_portion().count(), 2);
    }

    /// Every position of up to five heaps, multiplicities far past the
    /// fold included, has the outcome exhaustive search gives it, and the
    /// winning moves read off the quotient are exactly the moves to
    /// P-positions.
    #[test]
    fn quotient_outcomes_match_search() {
        for (spec, max_heap) in [
            ("kayles", 6),
            ("0.75", 6),
            ("dawsons-chess", 5),
            ("0.312", 5),
        ] {
            let (game, q) = quotient(spec, max_heap);
            let mut search = Search {
                game: &game,
                memo: HashMap::new(),
            };
            for heaps in multisets(5, max_heap) {
                assert_eq!(
                    q.loses(&heaps).unwrap(),
                    search.loses(&heaps),
                    "{spec} {heaps:?}"
                );
            }
            for heaps in multisets(3, max_heap) {
                for m in q.winning_moves(&game, &heaps).unwrap() {
                    let mut after = heaps.clone();
                    after.remove(m.component);
                    after.extend(&m.to);
                    assert!(search.loses(&after), "{spec} {heaps:?} -> {m:?}");
                }
            }
            // Many copies of one heap: far outside the verified box.
            for h in 1..=max_heap {
                let copies = vec![h; 11];
                assert_eq!(
                    q.loses(&copies).unwrap(),
                    search.loses(&copies),
                    "{spec} 11 x {h}"
                );
            }
            assert!(q.element(&[max_heap + 1]).is_err());
        }
    }

    /// 0.75 to heap 6 has a quotient of order 8 with P-portion {a, b^2};
    /// Siegel (2007, "The structure and classification of misère
    /// quotients") proved there is exactly one misère quotient of order 8.
    #[test]
    fn quotient_of_0_75_has_order_eight() {
        let (_, q) = quotient("0.75", 6);
        assert_eq!(q.len(), 8);
        let p: Vec<String> = q.p_portion().map(|e| q.spell(q.word(e))).collect();
        assert_eq!(p, ["a", "b^2"]);
    }

    /// Kayles is tame up to heap 4 (genus of Nim positions), so its
    /// quotient there is misère Nim's on nim-sums 0..3; heap 5 (genus
    /// 4^146) makes it wild and larger.
    #[test]
    fn kayles_turns_wild_at_heap_five() {
        assert_eq!(quotient("kayles", 4).1.len(), 6);
        assert!(quotient("kayles", 5).1.len() > 6);
    }
}
