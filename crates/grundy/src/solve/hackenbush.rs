//! Values of Green Hackenbush pictures ([`Hackenbush`]) by the colon and
//! fusion principles (Winning Ways ch. 7; the module `rules/hackenbush`
//! states them): a picture's value, the value a cut leaves, the cuts to a
//! value, and the cuts counted by value, each in linear time a pass.

use crate::rules::Hackenbush;
use crate::{Error, Nimber, Result};

/// The default work limit of finding or counting a picture's cuts, in
/// machine-word operations ([`Hackenbush::cuts_to`]): about five seconds.
pub const HACKENBUSH_WORK: u64 = super::DEFAULT_WORK;

/// Machine-word operations counted for each vertex and edge a revaluation
/// visits (it builds the adjacency, walks it depth first and values the
/// parts: a few passes of a few words each).
const WORDS_PER_VISIT: u128 = 8;

const NO_NODE: u32 = u32::MAX;

/// Multisets of values as binary tries keyed from the lowest bit, in one
/// arena, for [`Hackenbush::cuts_by_value`]: adding 1 to every key and
/// XOR-ing every key with a constant cost `O(bits)`, merging two tries
/// the nodes they share.
struct ValueTries {
    bits: u32,
    /// `[child for bit 0, child for bit 1]`.
    children: Vec<[u32; 2]>,
    /// A pending XOR for the node's subtree, its lowest bit at the node's
    /// own level.
    pending: Vec<u32>,
    /// At the leaves (depth `bits`): how many keys end there.
    count: Vec<u64>,
    /// Nodes a merge absorbed, for reuse.
    free: Vec<u32>,
}

impl ValueTries {
    fn new(bits: u32) -> ValueTries {
        ValueTries {
            bits,
            children: Vec::new(),
            pending: Vec::new(),
            count: Vec::new(),
            free: Vec::new(),
        }
    }

    fn node(&mut self) -> u32 {
        if let Some(at) = self.free.pop() {
            let i = at as usize;
            (self.children[i], self.pending[i], self.count[i]) = ([NO_NODE; 2], 0, 0);
            return at;
        }
        self.children.push([NO_NODE; 2]);
        self.pending.push(0);
        self.count.push(0);
        (self.children.len() - 1) as u32
    }

    /// A trie holding `key` `n` times.
    fn single(&mut self, key: u32, n: u64) -> u32 {
        let root = self.node();
        let mut at = root;
        for level in 0..self.bits {
            let next = self.node();
            self.children[at as usize][(key >> level & 1) as usize] = next;
            at = next;
        }
        self.count[at as usize] = n;
        root
    }

    /// Applies a node's pending XOR at its level and hands the rest down.
    fn push(&mut self, at: u32) {
        let x = std::mem::take(&mut self.pending[at as usize]);
        if x == 0 {
            return;
        }
        if x & 1 == 1 {
            self.children[at as usize].swap(0, 1);
        }
        for child in self.children[at as usize] {
            if child != NO_NODE {
                self.pending[child as usize] ^= x >> 1;
            }
        }
    }

    /// XORs every key of the trie at `root` with `x`, lazily.
    fn xor(&mut self, root: u32, x: u32) {
        if root != NO_NODE {
            self.pending[root as usize] ^= x;
        }
    }

    /// Adds 1 to every key of the trie at `root`: at each level the keys
    /// with bit 0 take bit 1 and stop, those with bit 1 take bit 0 and
    /// carry, so the children swap and the carry goes on below.
    fn increment(&mut self, root: u32) -> u32 {
        let mut at = root;
        for _ in 0..self.bits {
            if at == NO_NODE {
                break;
            }
            self.push(at);
            self.children[at as usize].swap(0, 1);
            at = self.children[at as usize][0];
        }
        root
    }

    /// The union of two tries (counts added), reusing their nodes.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == NO_NODE {
            return b;
        }
        if b == NO_NODE {
            return a;
        }
        // Iteratively, so tries as deep as a long stalk's need no recursion.
        let mut stack = vec![(a, b, 0)];
        while let Some((a, b, level)) = stack.pop() {
            self.free.push(b);
            if level == self.bits {
                self.count[a as usize] += self.count[b as usize];
                continue;
            }
            self.push(a);
            self.push(b);
            for side in 0..2 {
                let (x, y) = (
                    self.children[a as usize][side],
                    self.children[b as usize][side],
                );
                if x == NO_NODE {
                    self.children[a as usize][side] = y;
                } else if y != NO_NODE {
                    stack.push((x, y, level + 1));
                }
            }
        }
        a
    }

    /// Every key of the trie at `root` with its count.
    fn drain(&mut self, root: u32, found: &mut impl FnMut(u32, u64)) {
        if root == NO_NODE {
            return;
        }
        let mut stack = vec![(root, 0u32, 0u32)];
        while let Some((at, level, key)) = stack.pop() {
            if level == self.bits {
                found(key, self.count[at as usize]);
                continue;
            }
            self.push(at);
            for side in 0..2u32 {
                let child = self.children[at as usize][side as usize];
                if child != NO_NODE {
                    stack.push((child, level + 1, key | side << level));
                }
            }
        }
    }
}

impl Fused {
    /// Whether edge `e` is the search-tree edge into `w` and a bridge.
    fn is_bridge_into(&self, w: usize, e: usize) -> bool {
        self.parent_edge[w] == e && self.low[w] == self.order[w]
    }
}

/// A picture fused by [`Hackenbush::fuse`]: a depth-first search from the
/// ground, its bridges, the 2-edge-connected part of each vertex and the
/// value each part's subtree is worth.
struct Fused {
    /// Discovery number of each vertex; `usize::MAX` when not connected to
    /// the ground.
    order: Vec<usize>,
    /// The least discovery number reachable from each vertex's subtree
    /// through one edge not in the search tree.
    low: Vec<usize>,
    /// The search-tree edge into each vertex; `usize::MAX` for the ground
    /// and vertices not reached. It is a bridge when `low == order`.
    parent_edge: Vec<usize>,
    /// The vertices reached, in discovery order.
    visited: Vec<usize>,
    /// The part of each vertex reached, named by its first-discovered
    /// vertex.
    part: Vec<usize>,
    /// At a part's name: the value of the part with everything standing on
    /// it; `value[0]` is the picture's.
    value: Vec<Nimber>,
}

impl Hackenbush {
    /// The value of the picture.
    pub fn value(&self) -> Nimber {
        self.value_without(None)
    }

    /// The value of the picture with edge `cut` erased (and whatever then
    /// falls), in time linear in its size.
    pub fn value_without(&self, cut: Option<usize>) -> Nimber {
        self.fuse(cut).value[0]
    }

    /// The picture with edge `cut` erased, fused: its bridges, parts and
    /// values (see [`Fused`]), in time linear in its size.
    fn fuse(&self, cut: Option<usize>) -> Fused {
        let vertices = self.names.len();
        // Adjacency as (neighbour, edge) in flat arrays.
        let mut degree = vec![0usize; vertices + 1];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if Some(e) != cut {
                degree[a] += 1;
                degree[b] += 1;
            }
        }
        let mut start = vec![0usize; vertices + 1];
        for v in 0..vertices {
            start[v + 1] = start[v] + degree[v];
        }
        let mut fill = start.clone();
        let mut adjacent = vec![(0usize, 0usize); start[vertices]];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if Some(e) != cut {
                adjacent[fill[a]] = (b, e);
                fill[a] += 1;
                adjacent[fill[b]] = (a, e);
                fill[b] += 1;
            }
        }
        // Depth-first search from the ground: discovery order, low links and
        // the tree edge into each vertex (iterative, so deep stalks are fine).
        const UNSEEN: usize = usize::MAX;
        let mut order = vec![UNSEEN; vertices];
        let mut low = vec![0usize; vertices];
        let mut parent_edge = vec![UNSEEN; vertices];
        let mut visited = Vec::with_capacity(vertices);
        let mut stack: Vec<(usize, usize)> = vec![(0, start[0])];
        order[0] = 0;
        low[0] = 0;
        visited.push(0);
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next < start[v + 1] {
                let (w, e) = adjacent[*next];
                *next += 1;
                if e == parent_edge[v] {
                    continue;
                }
                if order[w] == UNSEEN {
                    order[w] = visited.len();
                    low[w] = order[w];
                    parent_edge[w] = e;
                    visited.push(w);
                    stack.push((w, start[w]));
                } else {
                    low[v] = low[v].min(order[w]);
                }
            } else {
                stack.pop();
                if let Some(&(u, _)) = stack.last() {
                    low[u] = low[u].min(low[v]);
                }
            }
        }
        // An edge into w is a bridge exactly when low[w] > order[parent]:
        // equivalently low[w] == order[w]. Each vertex's fused part is named
        // by its highest vertex reached through non-bridge tree edges.
        let mut part = vec![UNSEEN; vertices];
        for &v in &visited {
            let e = parent_edge[v];
            part[v] = if e == UNSEEN || low[v] == order[v] {
                v
            } else {
                part[self.other_end(e, v)]
            };
        }
        // Loops: every connected edge that is not a bridge (tree edges into
        // parts, counted below, are the bridges).
        let mut loops = vec![0u32; vertices];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if Some(e) == cut || order[a] == UNSEEN {
                continue;
            }
            let bridge = [a, b]
                .iter()
                .any(|&w| parent_edge[w] == e && low[w] == order[w]);
            if !bridge {
                loops[part[a]] ^= 1;
            }
        }
        // Colon principle, bottom-up in reverse discovery order: a part is
        // worth its loops' parity XOR (child + 1) over the bridges below it.
        let mut value = loops.iter().map(|&l| Nimber::new(l)).collect::<Vec<_>>();
        for &v in visited.iter().rev() {
            let e = parent_edge[v];
            if e != UNSEEN && low[v] == order[v] {
                let above = part[self.other_end(e, v)];
                let branch = Nimber::new(value[v].get() + 1);
                value[above] ^= branch;
            }
        }
        Fused {
            order,
            low,
            parent_edge,
            visited,
            part,
            value,
        }
    }

    /// The end of edge `e` that is not `v`.
    fn other_end(&self, e: usize, v: usize) -> usize {
        let (a, b) = self.edges[e];
        if a == v { b } else { a }
    }

    /// The edges whose erasure leaves a picture worth `target`.
    ///
    /// One pass for every edge of a tree, instead of revaluing the picture
    /// once per edge (a stalk of 20,000 edges took 18 s). Write `g(p)` for
    /// the value of part `p` with everything standing on it. Erasing the
    /// bridge into part `c`, which stands on part `p`, changes only `g(p)`
    /// and the values of the parts between `p` and the ground: `p` loses
    /// its branch `g(c) + 1`, and each part below sees one branch change
    /// from `g + 1` to `g' + 1`. So, from the ground up, each part gets the
    /// value `g` must take there for the picture to be worth `target`, the
    /// rest unchanged: the ground needs `target`, and a part `c` standing
    /// on `p` (which needs `t`) needs `(t ^ g(p) ^ (g(c) + 1)) - 1`, or no
    /// value can do when that is `-1`. The bridge into `c` wins when
    /// `g(p) ^ (g(c) + 1)` is what `p` needs, and a loop in `p` when
    /// `g(p) ^ 1` is. Erasing any other edge on a cycle reshapes its part,
    /// so the picture is revalued in full for it (linear time per such
    /// edge, as before), but only when some value of that part would do.
    ///
    /// The revaluations are refused with [`Error::WorkLimit`] before any is
    /// made when they would pass `work_limit` machine-word operations
    /// (eight for each vertex and edge of the picture, per revaluation).
    pub fn cuts_to(&self, target: Nimber, work_limit: u64) -> Result<Vec<usize>> {
        const UNSEEN: usize = usize::MAX;
        let fused = self.fuse(None);
        let Fused {
            order,
            parent_edge,
            visited,
            part,
            value,
            ..
        } = &fused;
        let bridge_into = |w: usize, e: usize| fused.is_bridge_into(w, e);
        // Discovery order reaches a part's name after the part it stands on.
        let mut need: Vec<Option<Nimber>> = vec![None; self.names.len()];
        need[0] = Some(target);
        for &v in visited {
            let e = parent_edge[v];
            if e != UNSEEN && bridge_into(v, e) {
                let base = part[self.other_end(e, v)];
                let branch = Nimber::new(value[v].get() + 1);
                need[v] = need[base].and_then(|t| {
                    (t ^ value[base] ^ branch)
                        .get()
                        .checked_sub(1)
                        .map(Nimber::new)
                });
            }
        }
        let reshaping = (0..self.edges.len())
            .filter(|&e| {
                let (a, b) = self.edges[e];
                a != b
                    && order[a] != UNSEEN
                    && need[part[a]].is_some()
                    && ![a, b].iter().any(|&w| bridge_into(w, e))
            })
            .count();
        self.check_revaluations(reshaping, work_limit, "finding the winning cuts")?;
        let mut cuts = Vec::new();
        for e in 0..self.edges.len() {
            let wins = {
                let (a, b) = self.edges[e];
                if order[a] == UNSEEN {
                    // Not connected to the ground: erasing it changes nothing.
                    value[0] == target
                } else if let Some(w) = [a, b].into_iter().find(|&w| bridge_into(w, e)) {
                    let base = part[self.other_end(e, w)];
                    let branch = Nimber::new(value[w].get() + 1);
                    need[base] == Some(value[base] ^ branch)
                } else if a == b {
                    // A loop is worth 1 and nothing else depends on it.
                    let home = part[a];
                    need[home] == Some(value[home] ^ Nimber::new(1))
                } else if need[part[a]].is_some() {
                    crate::cancel::check()?;
                    self.value_without(Some(e)) == target
                } else {
                    false
                }
            };
            if wins {
                cuts.push(e);
            }
        }
        Ok(cuts)
    }

    /// Refuses `revaluations` of the whole picture (for `what`) past
    /// `work_limit` machine-word operations.
    fn check_revaluations(&self, revaluations: usize, work_limit: u64, what: &str) -> Result<()> {
        let size = (self.names.len() + self.edges.len()) as u128;
        let cost = revaluations as u128 * size * WORDS_PER_VISIT;
        if cost > u128::from(work_limit) {
            return Err(Error::WorkLimit {
                what: format!(
                    "{what} of a picture of {} edges revalues it for each of its {revaluations} \
                     edges on cycles that are not loops, which",
                    self.edges.len()
                ),
                at_least: cost,
                limit: work_limit,
            });
        }
        Ok(())
    }

    /// How many edges leave the picture worth each value once erased:
    /// `(value, edges)` pairs by value, every edge counted once.
    ///
    /// By the reasoning of [`Hackenbush::cuts_to`], erasing an edge in the
    /// subtree of part `c`, which stands on part `p`, turns `g(c)` into
    /// some `y` and `g(p)` into `g(p) ^ (g(c) + 1) ^ (y + 1)`; erasing the
    /// bridge into `c` turns `g(p)` into `g(p) ^ (g(c) + 1)`, and a loop
    /// of `p` turns it into `g(p) ^ 1`. So the multiset of values a part
    /// can take is built bottom-up from its children's: add 1 to every
    /// value, add a 0 for the bridge, XOR every value with `g(p) ^ (g(c) +
    /// 1)`, and merge. Kept in binary tries keyed from the lowest bit, where
    /// adding 1 to every key walks one path (a carry) and XOR is a lazy
    /// tag, with tries merged node by node, that is `O(E log E)` for `E`
    /// edges instead of revaluing the picture once per edge. An edge on a
    /// cycle that is not a loop reshapes its part; the picture is revalued
    /// for each such edge, within `work_limit` machine-word operations (as
    /// for [`Hackenbush::cuts_to`]).
    pub fn cuts_by_value(&self, work_limit: u64) -> Result<Vec<(Nimber, u64)>> {
        const UNSEEN: usize = usize::MAX;
        let fused = self.fuse(None);
        let bridge_into = |w: usize, e: usize| fused.is_bridge_into(w, e);
        let (order, parent_edge, part, value) =
            (&fused.order, &fused.parent_edge, &fused.part, &fused.value);
        let mut counts: std::collections::BTreeMap<u32, u64> = Default::default();
        let mut loops = vec![0u64; self.names.len()];
        let mut reshaping = Vec::new();
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if order[a] == UNSEEN {
                // Not connected to the ground: erasing it changes nothing.
                *counts.entry(value[0].get()).or_default() += 1;
            } else if a == b {
                loops[part[a]] += 1;
            } else if ![a, b].iter().any(|&w| bridge_into(w, e)) {
                reshaping.push(e);
            }
        }
        self.check_revaluations(reshaping.len(), work_limit, "counting the cuts")?;
        for e in reshaping {
            crate::cancel::check()?;
            *counts.entry(self.value_without(Some(e)).get()).or_default() += 1;
        }
        // Every value of a part is at most the edges of its subtree.
        let bits = usize::BITS - (self.edges.len() + 1).leading_zeros() + 1;
        let mut tries = ValueTries::new(bits);
        let mut root: Vec<u32> = vec![NO_NODE; self.names.len()];
        for &v in &fused.visited {
            if part[v] == v && loops[v] > 0 {
                let key = (value[v] ^ Nimber::new(1)).get();
                let single = tries.single(key, loops[v]);
                root[v] = tries.merge(root[v], single);
            }
        }
        // Reverse discovery order finishes every part standing on part `p`
        // before `p` itself.
        for &c in fused.visited.iter().rev() {
            let e = parent_edge[c];
            if e == UNSEEN || !bridge_into(c, e) {
                continue;
            }
            let p = part[self.other_end(e, c)];
            let mut branch = tries.increment(root[c]);
            let cut_here = tries.single(0, 1);
            branch = tries.merge(branch, cut_here);
            let shift = value[p] ^ Nimber::new(value[c].get() + 1);
            tries.xor(branch, shift.get());
            root[p] = tries.merge(root[p], branch);
        }
        tries.drain(root[0], &mut |key, n| *counts.entry(key).or_default() += n);
        Ok(counts
            .into_iter()
            .map(|(v, n)| (Nimber::new(v), n))
            .collect())
    }
}
