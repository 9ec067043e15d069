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
//!
//! This module reads and describes pictures; their values are computed in
//! `solve/hackenbush.rs`.

use crate::{Error, Result};

/// A Green Hackenbush picture. Vertex 0 is the ground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hackenbush {
    /// Vertex names (`ground` first).
    pub(crate) names: Vec<String>,
    /// Edges as pairs of vertex indices, in the order written.
    pub(crate) edges: Vec<(usize, usize)>,
}

/// The most edges a picture may have: finding the winning moves revalues
/// the picture once for each edge on a cycle (trees need one pass).
pub const MAX_EDGES: usize = 1 << 20;

impl Hackenbush {
    /// A rooted tree in bracket notation: `()` one edge, `(())` a stalk of
    /// two, `()()` two edges on the ground. Edges are numbered from 1 in
    /// the order of their opening brackets. Blanks and line breaks are
    /// ignored, and `#` starts a comment to the end of its line; errors
    /// give the line and column when the tree spans lines, else the
    /// character (and the tree, when short enough to repeat).
    ///
    /// ```
    /// use grundy::rules::Hackenbush;
    /// assert_eq!(Hackenbush::tree("(())")?.value().get(), 2);
    /// // An edge with two twigs on top: 1 + (1 ^ 1) = 1.
    /// assert_eq!(Hackenbush::tree("(()())")?.value().get(), 1);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn tree(notation: &str) -> Result<Hackenbush> {
        Hackenbush::tree_located(notation, notation.contains('\n'))
    }

    /// [`Hackenbush::tree`], its errors by line and column when `by_line`.
    fn tree_located(notation: &str, by_line: bool) -> Result<Hackenbush> {
        /// The longest tree an error repeats.
        const ECHOED: usize = 64;
        let text = notation.strip_prefix('\u{feff}').unwrap_or(notation);
        let invalid = |(line, column): (usize, usize), reason: &str| Error::InvalidHackenbush {
            file: None,
            line: if by_line { line } else { 0 },
            reason: if by_line {
                format!("column {column}: {reason}")
            } else if text.len() <= ECHOED {
                format!("'{text}' at character {column}: {reason}")
            } else {
                format!("at character {column}: {reason}")
            },
        };
        let mut names = vec!["ground".to_owned()];
        let mut edges = Vec::new();
        // The vertices on the path from the ground, with where the edge
        // below each was opened.
        let mut stack = vec![(0usize, (0, 0))];
        let mut at = (1, 0);
        let mut comment = false;
        for c in text.chars() {
            at.1 += 1;
            match c {
                '\n' => {
                    at = (at.0 + 1, 0);
                    comment = false;
                }
                _ if comment => {}
                '#' => comment = true,
                '(' => {
                    // Refused as it passes the limit, before a huge file
                    // fills memory with vertices.
                    if edges.len() == MAX_EDGES {
                        return Err(invalid(at, &format!("more than {MAX_EDGES} edges")));
                    }
                    let top = names.len();
                    names.push(format!("v{top}"));
                    edges.push((stack.last().map_or(0, |&(vertex, _)| vertex), top));
                    stack.push((top, at));
                }
                ')' => {
                    if stack.len() == 1 {
                        return Err(invalid(at, "')' closes nothing"));
                    }
                    stack.pop();
                }
                c if c.is_whitespace() => {}
                other => return Err(invalid(at, &format!("'{other}' is not '(' or ')'"))),
            }
        }
        if let Some(&(_, opened)) = stack.get(1..).and_then(<[_]>::last) {
            return Err(invalid(opened, "an edge is not closed"));
        }
        Ok(Hackenbush { names, edges })
    }

    /// A picture as written whole, in a file or an argument: a tree in
    /// bracket notation ([`Hackenbush::tree`]) when the first character
    /// that is not blank or in a `#` comment is `(` (or there is none),
    /// else an edge list ([`Hackenbush::parse`]). So a file holds either,
    /// and a tree too long for a command line (Linux passes at most 128 KiB
    /// in one argument) can be read from one.
    ///
    /// ```
    /// use grundy::rules::Hackenbush;
    /// assert_eq!(Hackenbush::read("# a stalk of two\n(())\n")?.value().get(), 2);
    /// assert_eq!(Hackenbush::read("g a\na b\n")?.value().get(), 2);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn read(text: &str) -> Result<Hackenbush> {
        Hackenbush::read_located(text, text.contains('\n'))
    }

    /// [`Hackenbush::read`], a tree's errors by line and column when
    /// `by_line`.
    fn read_located(text: &str, by_line: bool) -> Result<Hackenbush> {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let first = body
            .lines()
            .map(|line| line.split('#').next().unwrap_or("").trim())
            .find(|line| !line.is_empty());
        match first {
            Some(line) if !line.starts_with('(') => Hackenbush::parse(body),
            _ => Hackenbush::tree_located(body, by_line),
        }
    }

    /// The picture held by the file `path` ([`Hackenbush::read`]), read
    /// whole ([`read_input`](crate::spec::read_input): at most 256 MiB),
    /// its errors naming the file and the line.
    pub fn read_file(path: &std::path::Path) -> Result<Hackenbush> {
        Hackenbush::read_in(&crate::spec::read_input(path)?, path)
    }

    /// [`Hackenbush::read`] on `text`, the contents of the file `path`, its
    /// errors naming the file and the line.
    pub fn read_in(text: &str, path: &std::path::Path) -> Result<Hackenbush> {
        Hackenbush::read_located(text, true).map_err(|error| match error {
            Error::InvalidHackenbush { line, reason, .. } => Error::InvalidHackenbush {
                file: Some(path.display().to_string()),
                line,
                reason,
            },
            other => other,
        })
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
                        file: None,
                        line: number + 1,
                        reason: format!("expected two vertex names, found '{}'", line.trim()),
                    });
                }
            }
            if edges.len() > MAX_EDGES {
                return Err(Error::InvalidHackenbush {
                    file: None,
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
