//! The game model: rulesets, positions and options.
//!
//! A ruleset is a runtime value (a subtraction set, a take-and-break code, a
//! board) with an associated position type. Its [`Ruleset::options`] method
//! lists the positions reachable in one move. An option is a *sum* of
//! components — a move that splits a heap in two leaves two independent games
//! — so an option's value is the nim-sum of its components' values and
//! splitting moves need no special treatment anywhere.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::ControlFlow;

use crate::{MexScratch, Nimber, Result};

/// The rules of an impartial game under normal play.
///
/// Implementations must describe a game in which every play is finite; the
/// solvers detect and report cycles rather than loop.
pub trait Ruleset {
    /// A position of the game.
    type Position: Clone + Eq + Hash + Debug;

    /// Pushes every option of `position` onto `out`, one
    /// [`Options::push`] per move. Must not clear or remove what `out`
    /// already holds: solvers keep the options of several positions in one
    /// buffer. A ruleset whose listings can be huge may stop one early when
    /// the current [`Cancel`](crate::Cancel) token stops, so code that may
    /// run under a token checks it before using what was listed.
    fn options(&self, position: &Self::Position, out: &mut Options<Self::Position>);

    /// If `position` is a sum of two or more independent components, pushes
    /// them onto `parts` and returns `true`; its value is then the nim-sum of
    /// theirs. The default never decomposes.
    fn decompose(&self, position: &Self::Position, parts: &mut Vec<Self::Position>) -> bool {
        let _ = (position, parts);
        false
    }
}

/// A ruleset whose positions are single heaps `0, 1, 2, …` and whose options
/// are sums of strictly smaller heaps, so values can be tabulated in order.
///
/// Heap 0 must have no options (it is the empty heap).
pub trait HeapRuleset: Ruleset<Position = usize> {
    /// Inserts the value of every option of heap `n` into `seen`, given
    /// `values[k] = g(k)` for every `k < n` and `max`, the largest of them
    /// (fast paths size a bitset by it, so it must not be understated: a
    /// smaller `max` gives wrong values).
    ///
    /// The default lists [`Ruleset::options`] into `scratch` and checks that
    /// every part is smaller than `n`; rulesets override it with a direct
    /// loop when that is faster.
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        scratch: &mut Options<usize>,
    ) -> Result<()> {
        let _ = max;
        scratch.clear();
        self.options(&n, scratch);
        // A listing cut short by a Cancel token must not be solved.
        crate::cancel::check()?;
        gather_listed(n, scratch, values, seen)
    }

    /// Calls `visit` with the parts of every option of heap `n`, one at a
    /// time, so that a heap with millions of options needs no buffer for
    /// them, until `visit` breaks (a listing that wants the first thousand
    /// options of a heap with billions stops there); returns whether it
    /// broke. It also breaks when the current [`Cancel`](crate::Cancel)
    /// token stops a huge listing: callers that may run under a token check
    /// it after the visit. The default lists [`Ruleset::options`] into a
    /// buffer.
    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut options = Options::new();
        self.options(&n, &mut options);
        options.iter().try_for_each(visit)
    }

    /// The take-and-break code this ruleset is, if it is one, so that
    /// solvers can pick engines specific to codes.
    fn as_take_break(&self) -> Option<&crate::TakeBreak> {
        None
    }

    /// The built-in game this ruleset is, if it is one, so that analysis can
    /// apply the periodicity theorem that covers it.
    fn as_heap_game(&self) -> Option<&crate::HeapGame> {
        None
    }

    /// `g(n)` in closed form, when a theorem gives it. Wider than a
    /// [`Nimber`] so that solvers, not rulesets, decide what fits.
    fn closed_form(&self, n: usize) -> Option<u64> {
        let _ = n;
        None
    }
}

/// Inserts into `seen` the value of every option of heap `n` listed in
/// `options` (the nim-sum of its parts' `values`), checking that every part
/// is smaller than `n`: the default [`HeapRuleset::gather`], for rules that
/// list their options.
pub(crate) fn gather_listed(
    n: usize,
    options: &Options<usize>,
    values: &[Nimber],
    seen: &mut MexScratch,
) -> Result<()> {
    for option in options.iter() {
        let mut value = Nimber::ZERO;
        for &part in option {
            if part >= n {
                return Err(crate::Error::NotDescending {
                    heap: n as u64,
                    part: part as u64,
                });
            }
            value ^= values[part];
        }
        seen.insert(value);
    }
    Ok(())
}

/// A borrowed ruleset is the same ruleset, so that games owned elsewhere (by
/// a language binding, say) can be listed for [`analyze_sum`](crate::analyze_sum)
/// without being cloned.
impl<R: Ruleset + ?Sized> Ruleset for &R {
    type Position = R::Position;

    fn options(&self, position: &Self::Position, out: &mut Options<Self::Position>) {
        (**self).options(position, out);
    }

    fn decompose(&self, position: &Self::Position, parts: &mut Vec<Self::Position>) -> bool {
        (**self).decompose(position, parts)
    }
}

impl<R: HeapRuleset + ?Sized> HeapRuleset for &R {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        scratch: &mut Options<usize>,
    ) -> Result<()> {
        (**self).gather(n, values, max, seen, scratch)
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        (**self).visit_options(n, visit)
    }

    fn as_take_break(&self) -> Option<&crate::TakeBreak> {
        (**self).as_take_break()
    }

    fn as_heap_game(&self) -> Option<&crate::HeapGame> {
        (**self).as_heap_game()
    }

    fn closed_form(&self, n: usize) -> Option<u64> {
        (**self).closed_form(n)
    }
}

/// A caller-owned buffer of options, each a sum of components.
///
/// Stored flat (all components in one vector, plus where each option ends)
/// so that listing options allocates nothing once the buffer has grown.
///
/// ```
/// use grundy::Options;
/// let mut out = Options::new();
/// out.push([3]);          // a move to heap 3
/// out.push([1, 2]);       // a move that leaves heaps 1 and 2
/// out.push([]);           // a move that leaves nothing
/// let listed: Vec<&[usize]> = out.iter().collect();
/// assert_eq!(listed, [&[3][..], &[1, 2][..], &[][..]]);
/// ```
#[derive(Clone, Debug)]
pub struct Options<P> {
    parts: Vec<P>,
    ends: Vec<usize>,
}

impl<P> Default for Options<P> {
    fn default() -> Self {
        Options {
            parts: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<P> Options<P> {
    /// An empty buffer.
    pub fn new() -> Options<P> {
        Options::default()
    }

    /// Appends one option: the sum of the given components.
    pub fn push<I: IntoIterator<Item = P>>(&mut self, components: I) {
        self.parts.extend(components);
        self.ends.push(self.parts.len());
    }

    /// The number of options held.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no option is held.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The components of option `i`.
    pub fn get(&self, i: usize) -> &[P] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.parts[start..self.ends[i]]
    }

    /// Every option, in the order pushed.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[P]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The total number of components over all options.
    pub fn component_count(&self) -> usize {
        self.parts.len()
    }

    /// Component `k` counted over all options in order.
    pub fn component(&self, k: usize) -> &P {
        &self.parts[k]
    }

    /// Keeps the first `len` options and drops the rest.
    pub fn truncate(&mut self, len: usize) {
        if len < self.ends.len() {
            self.ends.truncate(len);
            self.parts.truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    /// Drops every option.
    pub fn clear(&mut self) {
        self.parts.clear();
        self.ends.clear();
    }
}

/// A graph in compressed adjacency form: the moves of position `p` lead to
/// `targets[starts[p]..starts[p + 1]]`.
#[derive(Clone, Copy, Debug)]
pub struct Adjacency<'a> {
    /// `starts.len()` is the number of positions plus one.
    pub starts: &'a [usize],
    /// Move targets, grouped by position.
    pub targets: &'a [u32],
}

impl Adjacency<'_> {
    pub(crate) fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The positions one move from `p`.
    pub fn moves(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.targets[self.starts[p]..self.starts[p + 1]]
            .iter()
            .map(|&q| q as usize)
    }

    /// The reverse graph: for each position, the positions with a move to
    /// it (one entry per move).
    pub(crate) fn reversed(&self) -> (Vec<usize>, Vec<u32>) {
        let count = self.len();
        let mut starts = vec![0usize; count + 1];
        for &q in self.targets {
            starts[q as usize + 1] += 1;
        }
        for p in 0..count {
            starts[p + 1] += starts[p];
        }
        let mut fill = starts.clone();
        let mut sources = vec![0u32; self.targets.len()];
        for p in 0..count {
            for q in self.moves(p) {
                sources[fill[q]] = p as u32;
                fill[q] += 1;
            }
        }
        (starts, sources)
    }
}
