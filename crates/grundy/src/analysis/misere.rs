//! Misère play: the last player to move loses.
//!
//! The nim-sum rule fails in misère play, so sums are searched: a position
//! is a multiset of heaps, and its misère Grundy number `G⁻` follows the mex
//! rule with the value 1 (not 0) for the position without moves; the player
//! to move loses exactly when `G⁻ = 0`. The search is memoized over
//! canonical multisets, with simplifications that are exact in misère play:
//!
//! - a heap without moves is the empty game and is dropped;
//! - a heap whose game tree *is* a Nim heap `*k` (its options are single
//!   heaps that are `*0, …, *(k-1)`) is played as one, and a position of
//!   Nim heaps alone is valued by Bouton's misère rule (Conway, ONAG
//!   ch. 12): `G⁻` is their nim-sum when some heap is 2 or more, and the
//!   nim-sum XOR 1 otherwise;
//! - a position whose heaps are all hereditarily *tame* — every heap that
//!   can appear in it has the genus of a Nim position — is valued like a Nim
//!   position (Winning Ways ch. 13): `G⁻` is the nim-sum of the normal
//!   values, XOR 1 when every part is "small" (genus `0^120` or `1^031`).
//!
//! The **genus** of a heap (Conway) is `g^{γ0 γ1 γ2 …}`: `g` its normal
//! value and `γk` the misère Grundy number of the heap plus `k` copies of
//! `*2`.

use rustc_hash::FxHashMap;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, TableSolver};

/// The most positions a misère search may memoize unless told otherwise.
pub const DEFAULT_MISERE_BUDGET: usize = 5_000_000;

/// A position: heaps of the game that are not Nim heaps, and Nim heaps by
/// size, both sorted, without empty games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    heaps: Vec<u32>,
    nims: Vec<u32>,
}

/// What is known of one heap of the game.
#[derive(Clone, Debug)]
struct HeapFacts {
    /// Its options, each the list of heaps left (empty games dropped).
    options: Vec<Vec<u32>>,
    /// `Some(k)` when the heap's game tree is the Nim heap `*k`.
    nim: Option<u32>,
}

/// The misère analysis of a heap game: genus, outcomes of sums and winning
/// moves, by memoized search.
pub struct Misere<'g, G: HeapRuleset + ?Sized> {
    game: &'g G,
    facts: Vec<HeapFacts>,
    normal: Vec<Nimber>,
    /// Heaps `0..tame_below` are hereditarily tame, with these genera.
    tame_below: usize,
    small: Vec<bool>,
    memo: FxHashMap<State, u32>,
    budget: usize,
    /// How many options the heaps listed, counted against the budget.
    listed: usize,
    use_tameness: bool,
}

/// The genus of a heap: its normal value and `γ0, γ1, …, γK`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play Grundy value `g`.
    pub normal: Nimber,
    /// `γk`: the misère Grundy number of the heap plus `k` copies of `*2`.
    pub misere: Vec<u32>,
}

impl Genus {
    /// Whether this is the genus of a Nim position (`0^120`, `1^031`,
    /// `0^02`, `1^13`, or `g^{g, g^2, g, …}`): the genera of tame games.
    pub fn is_tame(&self) -> bool {
        let g = self.normal.get();
        let Some(&first) = self.misere.first() else {
            return false;
        };
        let first_ok = first == g || (g <= 1 && first == g ^ 1);
        first_ok
            && self
                .misere
                .iter()
                .enumerate()
                .skip(1)
                .all(|(k, &v)| v == if k % 2 == 1 { g ^ 2 } else { g })
    }

    /// Whether the genus is that of `*0` or `*1` (`0^120`, `1^031`): a
    /// "small" part, which flips the misère rule.
    fn is_small(&self) -> bool {
        let g = self.normal.get();
        g <= 1 && self.misere.first() == Some(&(g ^ 1))
    }
}

impl std::fmt::Display for Genus {
    /// Conway's notation, the exponent cut once it alternates: `0^120`,
    /// `3^31`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let gammas = &self.misere;
        // The exponent up to the first k from which γ alternates (γ_{i+2} = γ_i
        // for all computed i >= k), showing the two alternating values.
        let mut keep = gammas.len();
        while keep >= 3 && gammas[keep - 1] == gammas[keep - 3] {
            keep -= 1;
        }
        let shown: Vec<String> = gammas[..keep].iter().map(u32::to_string).collect();
        let separator = if gammas[..keep].iter().any(|&v| v > 9) {
            ","
        } else {
            ""
        };
        write!(f, "{}^{}", self.normal, shown.join(separator))
    }
}

/// A misère winning move in a sum of heaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereMove {
    /// The heap moved in (an index into the heaps given).
    pub component: usize,
    /// The heaps it leaves, in increasing order.
    pub to: Vec<usize>,
}

impl<'g, G: HeapRuleset + ?Sized> Misere<'g, G> {
    /// Prepares the misère analysis of heaps up to `largest`, with the
    /// default budget, [`DEFAULT_MISERE_BUDGET`].
    pub fn new(game: &'g G, largest: usize) -> Result<Self> {
        Misere::bounded(game, largest, DEFAULT_MISERE_BUDGET)
    }

    /// Prepares the misère analysis of heaps up to `largest`, which may
    /// keep at most `budget` positions: the options listed for the heaps
    /// (each a position one move away) and then the positions the search
    /// memoizes. Heaps of a take-and-break code are counted before they are
    /// listed (`0.{2+}` has 4·10^12 options at heap 200), so a refusal
    /// comes at once, as [`Error::PositionBudget`].
    pub fn bounded(game: &'g G, largest: usize, budget: usize) -> Result<Self> {
        let normal = TableSolver::new().values(game, largest as u64)?.to_vec();
        let mut facts: Vec<HeapFacts> = Vec::new();
        let mut listed = Options::new();
        let mut kept = 0usize;
        let over_budget = Error::PositionBudget { limit: budget };
        for h in 0..=largest {
            let room = budget.saturating_sub(kept);
            let counted = game
                .as_take_break()
                .map(|code| code.option_count(h, room as u64 + 1));
            if counted.is_some_and(|count| count > room as u64) {
                return Err(over_budget);
            }
            listed.clear();
            game.options(&h, &mut listed);
            // A listing cut short by a Cancel token must not be used.
            crate::cancel::check()?;
            kept = kept.saturating_add(listed.len());
            if kept > budget {
                return Err(over_budget);
            }
            facts.try_reserve(1).map_err(|_| over_budget.clone())?;
            let mut options: Vec<Vec<u32>> = Vec::new();
            for parts in listed.iter() {
                let mut left: Vec<u32> = Vec::with_capacity(parts.len());
                for &p in parts {
                    if p >= h {
                        return Err(Error::NotDescending {
                            heap: h as u64,
                            part: p as u64,
                        });
                    }
                    if !facts[p].options.is_empty() {
                        left.push(p as u32);
                    }
                }
                left.sort_unstable();
                options.push(left);
            }
            options.sort_unstable();
            options.dedup();
            // A Nim heap *k: single-heap (or empty) options that are exactly
            // *0, ..., *(k-1).
            let sizes: Option<Vec<u32>> = options
                .iter()
                .map(|o| match o[..] {
                    [] => Some(0),
                    [p] => facts[p as usize].nim,
                    _ => None,
                })
                .collect();
            let nim = sizes.and_then(|mut s| {
                s.sort_unstable();
                s.dedup();
                let k = s.len() as u32;
                (s.iter().copied().eq(0..k)).then_some(k)
            });
            facts.push(HeapFacts { options, nim });
        }
        Ok(Misere {
            game,
            facts,
            normal,
            tame_below: 0,
            small: Vec::new(),
            memo: FxHashMap::default(),
            budget,
            listed: kept,
            use_tameness: true,
        })
    }

    /// Whether heap `h` has a move (heaps without one are the empty game).
    pub fn has_moves(&self, h: usize) -> bool {
        self.facts.get(h).is_some_and(|f| !f.options.is_empty())
    }

    /// Searches every position without the tameness shortcut (the
    /// reference the shortcut is tested against).
    pub fn without_tameness(mut self) -> Self {
        self.use_tameness = false;
        self
    }

    /// The canonical state of heaps `heaps` plus Nim heaps `nims`.
    fn state(
        &self,
        heaps: impl IntoIterator<Item = u32>,
        nims: impl IntoIterator<Item = u32>,
    ) -> State {
        let mut state = State {
            heaps: Vec::new(),
            nims: nims.into_iter().filter(|&k| k > 0).collect(),
        };
        for h in heaps {
            let facts = &self.facts[h as usize];
            match facts.nim {
                Some(0) => {}
                Some(k) => state.nims.push(k),
                None => state.heaps.push(h),
            }
        }
        state.heaps.sort_unstable();
        state.nims.sort_unstable();
        state
    }

    /// `G⁻` without search where a theorem gives it.
    fn known(&self, state: &State) -> Option<u32> {
        // Nim heaps alone, or (with the shortcut) hereditarily tame heaps.
        let all_tame = state.heaps.iter().all(|&h| (h as usize) < self.tame_below);
        let by_rule = state.heaps.is_empty() || (self.use_tameness && all_tame);
        if !by_rule {
            return None;
        }
        let mut sum = 0u32;
        let mut small = true;
        for &k in &state.nims {
            sum ^= k;
            small &= k <= 1;
        }
        for &h in &state.heaps {
            sum ^= self.normal[h as usize].get();
            small &= self.small[h as usize];
        }
        Some(if small { sum ^ 1 } else { sum })
    }

    /// Every option of `state`, canonical.
    fn options(&self, state: &State, out: &mut Vec<State>) {
        for (i, &h) in state.heaps.iter().enumerate() {
            if i > 0 && state.heaps[i - 1] == h {
                continue;
            }
            let rest = state.heaps[..i]
                .iter()
                .chain(&state.heaps[i + 1..])
                .copied();
            for parts in &self.facts[h as usize].options {
                out.push(self.state(
                    rest.clone().chain(parts.iter().copied()),
                    state.nims.iter().copied(),
                ));
            }
        }
        for (i, &k) in state.nims.iter().enumerate() {
            if i > 0 && state.nims[i - 1] == k {
                continue;
            }
            for smaller in 0..k {
                let nims = state.nims[..i]
                    .iter()
                    .chain(&state.nims[i + 1..])
                    .copied()
                    .chain(std::iter::once(smaller));
                out.push(self.state(state.heaps.iter().copied(), nims));
            }
        }
    }

    /// The misère Grundy number of `state` (iterative depth-first search).
    fn value(&mut self, root: State) -> Result<u32> {
        if let Some(v) = self.known(&root).or_else(|| self.memo.get(&root).copied()) {
            return Ok(v);
        }
        // Frames: the state, its options, and how many are valued.
        let key = root.clone();
        let mut stack: Vec<(State, Vec<State>, usize)> = Vec::new();
        let mut listed = Vec::new();
        self.options(&root, &mut listed);
        stack.push((root, std::mem::take(&mut listed), 0));
        let mut seen = MexScratch::new();
        while let Some((_, options, next)) = stack.last_mut() {
            if *next < options.len() {
                let option = &options[*next];
                *next += 1;
                if self.known(option).is_some() || self.memo.contains_key(option) {
                    continue;
                }
                let option = option.clone();
                self.options(&option, &mut listed);
                stack.push((option, std::mem::take(&mut listed), 0));
                continue;
            }
            // A state is pushed only when unvalued, and play is acyclic, so it
            // is valued here exactly once.
            let (state, options, _) = stack.pop().expect("a frame");
            seen.clear();
            for o in &options {
                let v = self.known(o).or_else(|| self.memo.get(o).copied());
                seen.insert(Nimber::new(
                    v.expect("options are valued before their position"),
                ));
            }
            // The position without moves is worth 1 in misère play.
            let value = if options.is_empty() {
                1
            } else {
                seen.mex()?.get()
            };
            if self.memo.len() + self.listed >= self.budget {
                return Err(Error::PositionBudget { limit: self.budget });
            }
            // Ctrl-C, a server's deadline: checked every 4,096 positions.
            if self.memo.len().is_multiple_of(4096) {
                crate::cancel::check()?;
            }
            self.memo.insert(state, value);
        }
        Ok(self.memo[&key])
    }

    /// The misère Grundy number of heaps `heaps` played together (0: the
    /// player to move loses).
    pub fn misere_value(&mut self, heaps: &[usize]) -> Result<u32> {
        self.check(heaps)?;
        let state = self.state(heaps.iter().map(|&h| h as u32), []);
        self.value(state)
    }

    fn check(&self, heaps: &[usize]) -> Result<()> {
        match heaps.iter().find(|&&h| h >= self.facts.len()) {
            Some(&h) => Err(Error::InvalidPosition {
                text: h.to_string(),
                reason: format!(
                    "the misère analysis was prepared for heaps up to {}",
                    self.facts.len() - 1
                ),
            }),
            None => Ok(()),
        }
    }

    /// The genus of heap `n`, with `γ0..=γ_terms-1`.
    pub fn genus(&mut self, n: usize, terms: usize) -> Result<Genus> {
        self.check(&[n])?;
        let misere = (0..terms)
            .map(|k| {
                let state = self.state([n as u32], std::iter::repeat_n(2, k));
                self.value(state)
            })
            .collect::<Result<Vec<u32>>>()?;
        Ok(Genus {
            normal: self.normal[n],
            misere,
        })
    }

    /// Computes the genera of heaps `0..=to` (`terms` values each) and
    /// marks the hereditarily tame prefix, so that later searches value
    /// sums of those heaps by the tame rule.
    pub fn genera(&mut self, to: usize, terms: usize) -> Result<Vec<Genus>> {
        let mut genera = Vec::with_capacity(to + 1);
        for n in 0..=to {
            let genus = self.genus(n, terms)?;
            // Tame heaps only become shortcuts once every heap below is
            // tame too: then each position reachable is a sum of tame heaps.
            if self.tame_below == n && genus.is_tame() && terms >= 3 {
                self.small.push(genus.is_small());
                self.tame_below = n + 1;
            }
            genera.push(genus);
        }
        Ok(genera)
    }

    /// The misère outcome of heaps played together and every winning move.
    pub fn analyze_sum(&mut self, heaps: &[usize]) -> Result<(u32, Vec<MisereMove>)> {
        let value = self.misere_value(heaps)?;
        let mut moves = Vec::new();
        if value != 0 {
            let game = self.game;
            for_each_move(game, heaps, &mut |component, to, after| {
                if self.misere_value(after)? == 0 {
                    moves.push(MisereMove {
                        component,
                        to: to.to_vec(),
                    });
                }
                Ok(())
            })?;
        }
        Ok((value, moves))
    }

    /// How many positions the search has memoized.
    pub fn positions_searched(&self) -> usize {
        self.memo.len()
    }
}

/// What [`for_each_move`] calls: `(component, left, after)`.
pub(crate) type MoveVisitor<'a> = dyn FnMut(usize, &[usize], &[usize]) -> Result<()> + 'a;

/// Calls `visit(component, left, after)` once for each distinct move of
/// `heaps` played together: heap `component` becomes the heaps `left`
/// (sorted, empty ones dropped), leaving `after`.
pub(crate) fn for_each_move<G: HeapRuleset + ?Sized>(
    game: &G,
    heaps: &[usize],
    visit: &mut MoveVisitor<'_>,
) -> Result<()> {
    let mut listed = Options::new();
    for (i, &h) in heaps.iter().enumerate() {
        listed.clear();
        game.options(&h, &mut listed);
        crate::cancel::check()?;
        let mut tried: Vec<Vec<usize>> = Vec::new();
        for parts in listed.iter() {
            let mut left: Vec<usize> = parts.iter().copied().filter(|&p| p > 0).collect();
            left.sort_unstable();
            if tried.contains(&left) {
                continue;
            }
            let after: Vec<usize> = heaps[..i]
                .iter()
                .chain(&heaps[i + 1..])
                .chain(&left)
                .copied()
                .collect();
            visit(i, &left, &after)?;
            tried.push(left);
        }
    }
    Ok(())
}

/// Bouton's misère Nim rule: heaps `heaps` of Nim, played misère, are lost
/// for the player to move exactly when their nim-sum is 0 with some heap
/// of 2 or more, or when every heap is 0 or 1 and an odd number are 1.
pub fn misere_nim_loses(heaps: &[u64]) -> bool {
    let sum = heaps.iter().fold(0, |a, &h| a ^ h);
    if heaps.iter().any(|&h| h >= 2) {
        sum == 0
    } else {
        sum == 1
    }
}
