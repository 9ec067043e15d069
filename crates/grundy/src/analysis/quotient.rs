//! Misère quotients (Plambeck 2005; Plambeck–Siegel 2008).
//!
//! Positions of a heap game with heaps up to `n` form a commutative monoid
//! under sums. Two positions are *indistinguishable* when adding any third
//! gives both the same misère outcome; the classes form the misère
//! quotient `Q`, a commutative monoid with a *P-portion* (the classes of
//! P-positions). With it, the outcome of any sum is read off its class,
//! and a winning move is a move into the P-portion.
//!
//! How it is computed here, and why the answer is exact:
//!
//! 1. Positions are vectors of heap multiplicities. Multiplicities above a
//!    fold `K` are folded back by two (`K + 1 → K − 1`): a commutative
//!    monoid `F` with every generator of index `K − 1` and period 2.
//! 2. On `F`, the coarsest partition that separates P- from N-positions
//!    and is kept by adding a heap is found by Moore's partition
//!    refinement (the Myhill–Nerode construction). It is a congruence, so
//!    the classes form a monoid `Q`, and it is the coarsest one, so `Q` is
//!    reduced: no two classes are indistinguishable within it.
//! 3. The map `Φ` from positions to `Q` is then checked to be *faithful*
//!    (a position is a P-position exactly when its class is in the
//!    P-portion) on every position whose multiplicities are at most
//!    `K + 1`, with outcomes from exhaustive misère search. That suffices
//!    for all positions: if a heap `h` occurs more than `i + p` times (`i`
//!    and `p` the index and period of its class), removing `p` copies keeps
//!    the class and the classes of the options, so by induction on the
//!    multiset order the check extends to every position. A faithful `Φ`
//!    onto a reduced monoid is the misère quotient (Plambeck–Siegel).
//!
//! When the check fails the fold was too small; a larger fold is tried.

use rustc_hash::FxHashMap;

use crate::{Error, HeapRuleset, Result};

use super::misere::{Misere, MisereMove, for_each_move};

/// The misère quotient of a heap game restricted to heaps up to a bound.
#[derive(Clone, Debug)]
pub struct MisereQuotient {
    /// The largest heap covered.
    pub max_heap: usize,
    /// The heaps with moves, in increasing order: generator `i` (printed
    /// as the letter `a + i`) is heap `heaps[i]`.
    pub heaps: Vec<usize>,
    /// The fold used: multiplicities `K + 1` are identified with `K − 1`.
    pub fold: u32,
    /// Class of each folded multiplicity vector (mixed radix, digit `i`
    /// the multiplicity of heap `heaps[i]`, each `0..=K`).
    class_of: Vec<u32>,
    /// The shortest word (multiplicity vector) of each element.
    words: Vec<Vec<u32>>,
    /// Whether each element is in the P-portion.
    p_portion: Vec<bool>,
    /// Which generator index each heap size is, if it has moves.
    generator_of: FxHashMap<usize, usize>,
}

/// A relation of the presentation: `left = right`, as multiplicity
/// vectors.
pub type Relation = (Vec<u32>, Vec<u32>);

impl MisereQuotient {
    /// The generators, each as its letter ([`generator_letter`]) and its
    /// heap.
    pub fn generators(&self) -> impl Iterator<Item = (String, usize)> + '_ {
        self.heaps
            .iter()
            .enumerate()
            .map(|(g, &heap)| (generator_letter(g), heap))
    }

    /// Computes the misère quotient of `game` for heaps `1..=max_heap`,
    /// trying folds `2..=max_fold`, with at most `budget` positions in the
    /// misère searches.
    pub fn compute<G: HeapRuleset + ?Sized>(
        game: &G,
        max_heap: usize,
        max_fold: u32,
        budget: usize,
    ) -> Result<MisereQuotient> {
        let mut misere = Misere::bounded(game, max_heap, budget)?;
        let heaps: Vec<usize> = (1..=max_heap).filter(|&h| misere.has_moves(h)).collect();
        let mut failure = None;
        for fold in 2..=max_fold.max(2) {
            match Self::with_fold(&mut misere, &heaps, fold)? {
                Ok(quotient) => {
                    return Ok(MisereQuotient {
                        max_heap,
                        ..quotient
                    });
                }
                Err(position) => failure = Some((fold, position)),
            }
        }
        let (fold, position) = failure.expect("at least one fold is tried");
        Err(Error::InvalidRange {
            reason: format!(
                "no misère quotient verified with folds up to {fold}: the position {position:?} \
                 breaks the last candidate (try a larger fold)"
            ),
        })
    }

    /// Builds the candidate for one fold and verifies it; `Err` carries a
    /// position (its heaps) on which the candidate fails.
    fn with_fold<G: HeapRuleset + ?Sized>(
        misere: &mut Misere<'_, G>,
        heaps: &[usize],
        fold: u32,
    ) -> Result<std::result::Result<MisereQuotient, Vec<usize>>> {
        let m = heaps.len();
        let radix = fold as usize + 1;
        let size = radix
            .checked_pow(m as u32)
            .filter(|&s| s <= 1 << 24)
            .ok_or_else(|| Error::InvalidRange {
                reason: format!(
                    "{m} heap sizes with fold {fold} give {radix}^{m} folded positions, too many \
                     (at most 2^24)"
                ),
            })?;
        let digits = |mut index: usize| -> Vec<u32> {
            (0..m)
                .map(|_| {
                    let d = (index % radix) as u32;
                    index /= radix;
                    d
                })
                .collect()
        };
        let index_of = |vector: &[u32]| -> usize {
            vector
                .iter()
                .rev()
                .fold(0, |acc, &d| acc * radix + d as usize)
        };
        let position = |vector: &[u32]| -> Vec<usize> {
            vector
                .iter()
                .zip(heaps)
                .flat_map(|(&count, &h)| std::iter::repeat_n(h, count as usize))
                .collect()
        };
        // Adding one heap of generator g, folding K + 1 back to K - 1.
        let step = |index: usize, g: usize| -> usize {
            let weight = radix.pow(g as u32);
            let d = (index / weight) % radix;
            if d == fold as usize {
                index - weight
            } else {
                index + weight
            }
        };
        // Moore's refinement, starting from the outcomes.
        let mut loses = Vec::with_capacity(size);
        for index in 0..size {
            loses.push(misere.misere_value(&position(&digits(index)))? == 0);
        }
        let mut class: Vec<u32> = loses.iter().map(|&l| u32::from(l)).collect();
        loop {
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut next = Vec::with_capacity(size);
            for index in 0..size {
                let mut signature = Vec::with_capacity(m + 1);
                signature.push(class[index]);
                signature.extend((0..m).map(|g| class[step(index, g)]));
                let fresh = ids.len() as u32;
                next.push(*ids.entry(signature).or_insert(fresh));
            }
            let settled = ids.len() == count_classes(&class);
            class = next;
            if settled {
                break;
            }
        }
        let classes = count_classes(&class);
        let mut p_portion = vec![false; classes];
        let mut words: Vec<Option<Vec<u32>>> = vec![None; classes];
        // Shortest words: by total degree, then by index order.
        let mut order: Vec<usize> = (0..size).collect();
        order.sort_by_cached_key(|&i| (digits(i).iter().sum::<u32>(), i));
        for &index in &order {
            let c = class[index] as usize;
            if words[c].is_none() {
                let word = digits(index);
                p_portion[c] = loses[index];
                words[c] = Some(word);
            }
        }
        // Faithfulness on multiplicities up to K + 1 (those within K hold
        // by construction).
        let wide = fold as usize + 2;
        for wide_index in 0..wide.pow(m as u32) {
            let mut rest = wide_index;
            let vector: Vec<u32> = (0..m)
                .map(|_| {
                    let d = (rest % wide) as u32;
                    rest /= wide;
                    d
                })
                .collect();
            if vector.iter().all(|&d| d <= fold) {
                continue;
            }
            let folded: Vec<u32> = vector
                .iter()
                .map(|&d| if d > fold { d - 2 } else { d })
                .collect();
            let expected = p_portion[class[index_of(&folded)] as usize];
            let heaps_here = position(&vector);
            if (misere.misere_value(&heaps_here)? == 0) != expected {
                return Ok(Err(heaps_here));
            }
        }
        let generator_of = heaps.iter().enumerate().map(|(g, &h)| (h, g)).collect();
        Ok(Ok(MisereQuotient {
            max_heap: heaps.last().copied().unwrap_or(0),
            heaps: heaps.to_vec(),
            fold,
            class_of: class,
            words: words.into_iter().map(|w| w.unwrap_or_default()).collect(),
            p_portion,
            generator_of,
        }))
    }

    /// The number of elements of the quotient.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the quotient is empty (it never is: it has an identity).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The elements of the P-portion.
    pub fn p_portion(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(|&e| self.p_portion[e])
    }

    /// The shortest word of element `e` as multiplicities of the
    /// generators.
    pub fn word(&self, e: usize) -> &[u32] {
        &self.words[e]
    }

    /// A word in the letters `a, b, c, …` (one per generator), `1` for the
    /// identity: `a b^2`.
    pub fn spell(&self, word: &[u32]) -> String {
        let parts: Vec<String> = word
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k > 0)
            .map(|(g, &k)| {
                let letter = generator_letter(g);
                if k == 1 {
                    letter
                } else {
                    format!("{letter}^{k}")
                }
            })
            .collect();
        if parts.is_empty() {
            "1".to_owned()
        } else {
            parts.join(" ")
        }
    }

    /// The element of heaps played together (`Φ`), or an error for a heap
    /// past the quotient's bound.
    pub fn element(&self, heaps: &[usize]) -> Result<usize> {
        Self::check_covers(self.max_heap, heaps)?;
        let radix = self.fold as usize + 1;
        let mut counts = vec![0u32; self.heaps.len()];
        for &h in heaps {
            let Some(&g) = self.generator_of.get(&h) else {
                continue; // a heap without moves
            };
            counts[g] += 1;
            if counts[g] > self.fold {
                counts[g] -= 2;
            }
        }
        let index = counts
            .iter()
            .rev()
            .fold(0, |acc, &d| acc * radix + d as usize);
        Ok(self.class_of[index] as usize)
    }

    /// Checks that a quotient of heaps up to `max_heap` covers `heaps`, so
    /// that a front end can refuse them before computing it.
    pub fn check_covers(max_heap: usize, heaps: &[usize]) -> Result<()> {
        match heaps.iter().find(|&&h| h > max_heap) {
            Some(h) => Err(Error::InvalidPosition {
                text: h.to_string(),
                reason: format!("the quotient covers heaps up to {max_heap}"),
            }),
            None => Ok(()),
        }
    }

    /// Whether heaps played together are a misère P-position (the player to
    /// move loses), read off the quotient.
    pub fn loses(&self, heaps: &[usize]) -> Result<bool> {
        Ok(self.p_portion[self.element(heaps)?])
    }

    /// Every move from `heaps` into the P-portion.
    pub fn winning_moves<G: HeapRuleset + ?Sized>(
        &self,
        game: &G,
        heaps: &[usize],
    ) -> Result<Vec<MisereMove>> {
        let mut moves = Vec::new();
        for_each_move(game, heaps, &mut |component, to, after| {
            if self.loses(after)? {
                moves.push(MisereMove {
                    component,
                    to: to.to_vec(),
                });
            }
            Ok(())
        })?;
        Ok(moves)
    }

    /// A presentation: the relations `u = w` where `u` is a word just
    /// outside the set of shortest words (every divisor of `u` is
    /// shortest) and `w` the shortest word of its element. Together with
    /// the generators they define the quotient (the shortest words, in a
    /// degree-then-lexicographic order compatible with products, form an
    /// order ideal; these are its boundary).
    pub fn relations(&self) -> Vec<Relation> {
        let shortest: std::collections::HashSet<&[u32]> =
            self.words.iter().map(Vec::as_slice).collect();
        let mut found: Vec<Relation> = Vec::new();
        for word in &self.words {
            for g in 0..self.heaps.len() {
                let mut u = word.clone();
                u[g] += 1;
                if shortest.contains(u.as_slice()) || found.iter().any(|(l, _)| *l == u) {
                    continue;
                }
                let divisors_shortest = (0..u.len()).filter(|&d| u[d] > 0).all(|d| {
                    let mut v = u.clone();
                    v[d] -= 1;
                    shortest.contains(v.as_slice())
                });
                if divisors_shortest {
                    let heaps: Vec<usize> = u
                        .iter()
                        .zip(&self.heaps)
                        .flat_map(|(&k, &h)| std::iter::repeat_n(h, k as usize))
                        .collect();
                    let e = self.element(&heaps).expect("heaps of the quotient");
                    found.push((u, self.words[e].clone()));
                }
            }
        }
        found.sort_by_key(|(u, _)| {
            (
                u.iter().sum::<u32>(),
                u.iter().rev().copied().collect::<Vec<_>>(),
            )
        });
        found
    }
}

/// The letter of generator `g`: `a`, `b`, … `z`, then `g26`, ….
fn generator_letter(g: usize) -> String {
    match u8::try_from(g) {
        Ok(g) if g < 26 => char::from(b'a' + g).to_string(),
        _ => format!("g{g}"),
    }
}

fn count_classes(class: &[u32]) -> usize {
    class.iter().max().map_or(0, |&c| c as usize + 1)
}
