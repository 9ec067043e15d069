//! Green Hackenbush (Winning Ways, chapter 7).
//!
//! A picture of edges attached to the ground; a move erases one edge, and
//! every edge no longer connected to the ground falls away. Values come from
//! two principles, each a theorem of Winning Ways ch. 7:
//!
//! - **colon principle**: a vertex carrying branches worth `v1, v2, …` is
//!   worth their nim-sum, and a branch that starts with a single edge under
//!   a picture worth `v` is worth `v + 1`; so a rooted tree is valued
//!   bottom-up in linear time (a stalk of `n` edges is worth `n`);
//! - **fusion principle**: the vertices of any cycle may be fused into one
//!   without changing the value, each of its edges becoming a loop, and a
//!   loop is worth a single edge (value 1). Fusing every 2-edge-connected
//!   part (found with the bridges, Tarjan 1974) leaves a tree of bridges
//!   with loops, valued by the colon principle: linear time for any graph.
//!
//! Pictures are written as edge lists (`A B` per line, the ground named
//! `ground` or `g`) or, for rooted trees, in bracket notation: each `(...)`
//! is an edge whose top carries the edges inside it, so `()` is one edge,
//! `(())` a stalk of two and `(()())` an edge with two edges on its top.

use crate::{Error, Nimber, Result};

/// A Green Hackenbush picture. Vertex 0 is the ground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hackenbush {
    /// Vertex names (`ground` first).
    names: Vec<String>,
    /// Edges as pairs of vertex indices, in the order written.
    edges: Vec<(usize, usize)>,
}

/// The most edges a picture may have: finding the winning moves revalues
/// the picture once for each edge on a cycle (trees need one pass).
pub const MAX_EDGES: usize = 1 << 20;

impl Hackenbush {
    /// A rooted tree in bracket notation: `()` one edge, `(())` a stalk of
    /// two, `()()` two edges on the ground. Edges are numbered from 1 in
    /// the order of their opening brackets.
    ///
    /// ```
    /// use grundy::rules::Hackenbush;
    /// assert_eq!(Hackenbush::tree("(())")?.value().get(), 2);
    /// // An edge with two twigs on top: 1 + (1 ^ 1) = 1.
    /// assert_eq!(Hackenbush::tree("(()())")?.value().get(), 1);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn tree(notation: &str) -> Result<Hackenbush> {
        let invalid = |position: usize, reason: &str| Error::InvalidHackenbush {
            line: 0,
            reason: format!("'{notation}' at character {position}: {reason}"),
        };
        let mut names = vec!["ground".to_owned()];
        let mut edges = Vec::new();
        let mut stack = vec![0usize];
        for (i, c) in notation.chars().enumerate() {
            match c {
                '(' => {
                    let top = names.len();
                    names.push(format!("v{top}"));
                    edges.push((*stack.last().unwrap_or(&0), top));
                    stack.push(top);
                }
                ')' => {
                    if stack.len() == 1 {
                        return Err(invalid(i + 1, "')' closes nothing"));
                    }
                    stack.pop();
                }
                c if c.is_whitespace() => {}
                other => return Err(invalid(i + 1, &format!("'{other}' is not '(' or ')'"))),
            }
        }
        if stack.len() > 1 {
            return Err(invalid(notation.chars().count(), "an edge is not closed"));
        }
        if edges.len() > MAX_EDGES {
            return Err(invalid(0, &format!("more than {MAX_EDGES} edges")));
        }
        Ok(Hackenbush { names, edges })
    }

    /// A picture as an edge list: one edge `A B` per line between vertices
    /// named by any words, the ground named `ground` or `g`; `#` starts a
    /// comment. Loops (`A A`) and repeated edges are allowed. A leading
    /// byte-order mark (U+FEFF) is skipped, so it does not rename the first
    /// vertex (a `g` behind one would not be the ground).
    pub fn parse(text: &str) -> Result<Hackenbush> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut names = vec!["ground".to_owned()];
        let mut index = std::collections::HashMap::new();
        let mut edges = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                [] => continue,
                [a, b] => {
                    let mut vertex = |name: &str| -> usize {
                        if name.eq_ignore_ascii_case("ground") || name.eq_ignore_ascii_case("g") {
                            return 0;
                        }
                        *index.entry(name.to_owned()).or_insert_with(|| {
                            names.push(name.to_owned());
                            names.len() - 1
                        })
                    };
                    let edge = (vertex(a), vertex(b));
                    edges.push(edge);
                }
                _ => {
                    return Err(Error::InvalidHackenbush {
                        line: number + 1,
                        reason: format!("expected two vertex names, found '{}'", line.trim()),
                    });
                }
            }
            if edges.len() > MAX_EDGES {
                return Err(Error::InvalidHackenbush {
                    line: number + 1,
                    reason: format!("more than {MAX_EDGES} edges"),
                });
            }
        }
        Ok(Hackenbush { names, edges })
    }

    /// How many edges the picture has (including any not connected to the
    /// ground).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Edge `e` (from 0) as its two vertex names.
    pub fn edge(&self, e: usize) -> (&str, &str) {
        let (a, b) = self.edges[e];
        (&self.names[a], &self.names[b])
    }

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
    pub fn cuts_to(&self, target: Nimber) -> Vec<usize> {
        const UNSEEN: usize = usize::MAX;
        let fused = self.fuse(None);
        let Fused {
            order,
            low,
            parent_edge,
            visited,
            part,
            value,
        } = &fused;
        let bridge_into = |w: usize, e: usize| parent_edge[w] == e && low[w] == order[w];
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
        (0..self.edges.len())
            .filter(|&e| {
                let (a, b) = self.edges[e];
                if order[a] == UNSEEN {
                    // Not connected to the ground: erasing it changes nothing.
                    return value[0] == target;
                }
                if let Some(w) = [a, b].into_iter().find(|&w| bridge_into(w, e)) {
                    let base = part[self.other_end(e, w)];
                    let branch = Nimber::new(value[w].get() + 1);
                    return need[base] == Some(value[base] ^ branch);
                }
                let home = part[a];
                if a == b {
                    // A loop is worth 1 and nothing else depends on it.
                    return need[home] == Some(value[home] ^ Nimber::new(1));
                }
                need[home].is_some() && self.value_without(Some(e)) == target
            })
            .collect()
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

/// Pictures played together: each one's value, the nim-sum, and every
/// winning move as `(picture, edge)` (edges from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HackenbushSum {
    /// The value of each picture.
    pub values: Vec<Nimber>,
    /// Their nim-sum: the first player wins when it is not 0.
    pub nim_sum: Nimber,
    /// Every winning cut: `(picture, edge)`.
    pub winning_cuts: Vec<(usize, usize)>,
}

/// Values, winner and every winning cut of pictures played together: a cut
/// in picture `i` wins when it leaves that picture worth `g_i ^ nim_sum`.
pub fn analyze_hackenbush(pictures: &[Hackenbush]) -> HackenbushSum {
    let values: Vec<Nimber> = pictures.iter().map(Hackenbush::value).collect();
    let nim_sum: Nimber = values.iter().copied().sum();
    let mut winning_cuts = Vec::new();
    for (i, target) in crate::winning_targets(&values) {
        let cuts = pictures[i].cuts_to(target);
        winning_cuts.extend(cuts.into_iter().map(|e| (i, e)));
    }
    HackenbushSum {
        values,
        nim_sum,
        winning_cuts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(notation: &str) -> u32 {
        Hackenbush::tree(notation).unwrap().value().get()
    }

    fn graph(text: &str) -> u32 {
        Hackenbush::parse(text).unwrap().value().get()
    }

    #[test]
    fn stalks_and_trees_follow_the_colon_principle() {
        assert_eq!(tree(""), 0);
        assert_eq!(tree("()"), 1);
        assert_eq!(tree("((((()))))"), 5);
        assert_eq!(tree("()()()"), 1);
        assert_eq!(tree("(()())"), 1);
        // A stalk of 2 on top of an edge next to a stalk of 3: 3 ^ 3 = 0.
        assert_eq!(tree("((()))(())()"), 3 ^ 2 ^ 1);
        assert_eq!(tree("(((()))(()))"), 1 + (3 ^ 2));
    }

    #[test]
    fn cycles_fuse_into_loops() {
        // A triangle on the ground: fused, three loops, worth 1.
        assert_eq!(graph("g a\na b\nb g"), 1);
        // A square on the ground is four loops: 0.
        assert_eq!(graph("g a\na b\nb c\nc g"), 0);
        // A triangle hanging from a stalk: 1 + 1 = 2.
        assert_eq!(graph("g a\na b\nb c\nc a"), 2);
        // Two parallel edges to the ground form a cycle: two loops, 0.
        assert_eq!(graph("g a\ng a"), 0);
        // A loop at the ground is an edge.
        assert_eq!(graph("ground ground"), 1);
        // Edges not connected to the ground count for nothing.
        assert_eq!(graph("g a\nx y\ny z"), 1);
    }

    #[test]
    fn bad_pictures_are_errors() {
        for bad in ["(", ")", "(()", "(x)"] {
            assert!(Hackenbush::tree(bad).is_err(), "{bad}");
        }
        assert!(Hackenbush::parse("a b c").is_err());
    }

    #[test]
    fn a_very_deep_stalk_needs_no_recursion() {
        let deep = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
        assert_eq!(tree(&deep), 200_000);
    }
}
