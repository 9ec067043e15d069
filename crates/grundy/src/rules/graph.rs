//! Games given as an explicit graph: positions and the moves between them.
//!
//! A graph file is either an edge list — one move per line, `FROM TO` or
//! `FROM -> TO`, optionally followed by a label; a line with one name declares
//! a position with no moves; `#` starts a comment — or JSON:
//! `{"edges": [{"from": "a", "to": "b", "label": "x"}, ...], "nodes": ["c"]}`
//! (edges may also be written `["a", "b"]` or `["a", "b", "label"]`).
//!
//! This module reads and describes a graph; its values are solved in
//! `solve/graph.rs` ([`GameGraph::solve`], [`GameGraph::loopy_values`]).

use rustc_hash::FxHashMap;
use serde::Deserialize;

use crate::game::Adjacency;
use crate::{Error, Result};

/// A finite game graph with named positions and optionally labelled moves,
/// stored as compressed adjacency lists.
#[derive(Clone, Debug, Default)]
pub struct GameGraph {
    names: Vec<String>,
    /// Moves of position `p` are `targets[starts[p]..starts[p + 1]]`.
    starts: Vec<usize>,
    targets: Vec<u32>,
    labels: Vec<Option<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonEdge {
    Object {
        from: String,
        to: String,
        #[serde(default)]
        label: Option<String>,
    },
    Pair(Vec<String>),
}

#[derive(Deserialize)]
struct JsonGraph {
    #[serde(default)]
    nodes: Vec<String>,
    #[serde(default)]
    edges: Vec<JsonEdge>,
}

/// Collects edges by name, then builds the adjacency lists.
#[derive(Default)]
struct Builder {
    ids: FxHashMap<String, u32>,
    names: Vec<String>,
    edges: Vec<(u32, u32, Option<String>)>,
}

impl Builder {
    fn node(&mut self, name: &str) -> Result<u32> {
        if let Some(&id) = self.ids.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.names.len()).map_err(|_| Error::InvalidGraph {
            line: 0,
            reason: "more than 2^32 positions".into(),
        })?;
        self.ids.insert(name.to_owned(), id);
        self.names.push(name.to_owned());
        Ok(id)
    }

    fn edge(&mut self, from: &str, to: &str, label: Option<String>) -> Result<()> {
        let (from, to) = (self.node(from)?, self.node(to)?);
        self.edges.push((from, to, label));
        Ok(())
    }

    fn build(mut self) -> GameGraph {
        let count = self.names.len();
        self.edges.sort_by_key(|&(from, _, _)| from);
        let mut starts = vec![0usize; count + 1];
        for &(from, _, _) in &self.edges {
            starts[from as usize + 1] += 1;
        }
        for p in 0..count {
            starts[p + 1] += starts[p];
        }
        let (targets, labels) = self
            .edges
            .into_iter()
            .map(|(_, to, label)| (to, label))
            .unzip();
        GameGraph {
            names: self.names,
            starts,
            targets,
            labels,
        }
    }
}

impl GameGraph {
    /// Parses a graph file, JSON when it starts with `{` or `[`, an edge
    /// list otherwise. A leading byte-order mark (U+FEFF, as some editors
    /// save UTF-8) is skipped first, so it neither hides a JSON file's `{`
    /// nor becomes part of the first position's name.
    ///
    /// ```
    /// use grundy::rules::GameGraph;
    /// let graph = GameGraph::parse("a b\nb c take\nc\n").unwrap();
    /// let solved = graph.solve().unwrap();
    /// let values: Vec<u32> = solved.values.iter().map(|v| v.get()).collect();
    /// assert_eq!(values, [0, 1, 0]); // a -> b -> c: c loses, b wins, a loses
    /// ```
    pub fn parse(text: &str) -> Result<GameGraph> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let trimmed = text.trim_start();
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            Self::parse_json(trimmed)
        } else {
            Self::parse_edge_list(text)
        }
    }

    fn parse_edge_list(text: &str) -> Result<GameGraph> {
        let mut builder = Builder::default();
        for (index, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace().filter(|w| *w != "->");
            match (words.next(), words.next()) {
                (Some(node), None) => {
                    builder.node(node)?;
                }
                (Some(from), Some(to)) => {
                    let label: Vec<&str> = words.collect();
                    let label = (!label.is_empty()).then(|| label.join(" "));
                    builder.edge(from, to, label)?;
                }
                _ => {
                    return Err(Error::InvalidGraph {
                        line: index + 1,
                        reason: "expected 'FROM TO [LABEL]' or a position name".into(),
                    });
                }
            }
        }
        Ok(builder.build())
    }

    fn parse_json(text: &str) -> Result<GameGraph> {
        let invalid = |reason: String| Error::InvalidGraph { line: 0, reason };
        let graph: JsonGraph = if text.starts_with('[') {
            JsonGraph {
                nodes: Vec::new(),
                edges: serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?,
            }
        } else {
            serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?
        };
        let mut builder = Builder::default();
        for node in &graph.nodes {
            builder.node(node)?;
        }
        for edge in graph.edges {
            match edge {
                JsonEdge::Object { from, to, label } => builder.edge(&from, &to, label)?,
                JsonEdge::Pair(parts) => match parts.as_slice() {
                    [from, to] => builder.edge(from, to, None)?,
                    [from, to, label] => builder.edge(from, to, Some(label.clone()))?,
                    _ => {
                        return Err(invalid(format!(
                            "an edge array needs [from, to] or [from, to, label], got {} items",
                            parts.len()
                        )));
                    }
                },
            }
        }
        Ok(builder.build())
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the graph has no position.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The number of moves.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The name of position `p`.
    pub fn name(&self, p: usize) -> &str {
        &self.names[p]
    }

    /// The position named `name`, if there is one (a linear search).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The moves of position `p`: `(target, label)`.
    pub fn moves(&self, p: usize) -> impl Iterator<Item = (usize, Option<&str>)> + '_ {
        (self.starts[p]..self.starts[p + 1])
            .map(|e| (self.targets[e] as usize, self.labels[e].as_deref()))
    }

    /// Edge `e`: `(from, to, label)`.
    pub fn edge(&self, e: usize) -> (usize, usize, Option<&str>) {
        let from = self.starts.partition_point(|&s| s <= e) - 1;
        (from, self.targets[e] as usize, self.labels[e].as_deref())
    }

    /// The graph as the loopy solvers take it.
    pub fn adjacency(&self) -> Adjacency<'_> {
        Adjacency {
            starts: &self.starts,
            targets: &self.targets,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_agree_and_labels_are_kept() {
        let listed = GameGraph::parse("# a chain\na -> b left\nb c\nd\n").unwrap();
        let json = GameGraph::parse(
            r#"{"nodes": ["d"], "edges": [{"from": "a", "to": "b", "label": "left"}, ["b", "c"]]}"#,
        )
        .unwrap();
        for graph in [&listed, &json] {
            assert_eq!(graph.len(), 4);
            assert_eq!(graph.edge_count(), 2);
            let a = (0..graph.len()).find(|&p| graph.name(p) == "a").unwrap();
            assert_eq!(
                graph.moves(a).map(|(_, l)| l).collect::<Vec<_>>(),
                [Some("left")]
            );
            let values = graph.solve().unwrap().values;
            let by_name = |name: &str| {
                values[(0..graph.len()).find(|&p| graph.name(p) == name).unwrap()].get()
            };
            assert_eq!(
                [by_name("a"), by_name("b"), by_name("c"), by_name("d")],
                [0, 1, 0, 0]
            );
        }
    }

    #[test]
    fn random_graphs_agree_with_the_definition() {
        // A pseudo-random DAG: moves only go to larger numbers.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let count = 3000;
        let mut text = String::new();
        let mut moves = vec![Vec::new(); count];
        for (p, targets) in moves.iter_mut().enumerate() {
            for _ in 0..next() % 6 {
                let q = p + 1 + next() % 40;
                if q < count {
                    text.push_str(&format!("n{p} n{q}\n"));
                    targets.push(q);
                }
            }
            text.push_str(&format!("n{p}\n"));
        }
        let graph = GameGraph::parse(&text).unwrap();
        let solved = graph.solve().unwrap().values;
        // The definition, from the last position back.
        let mut g = vec![0u32; count];
        for p in (0..count).rev() {
            let reachable: Vec<u32> = moves[p].iter().map(|&q| g[q]).collect();
            g[p] = (0..).find(|m| !reachable.contains(m)).unwrap();
        }
        for (p, value) in solved.iter().enumerate() {
            let number: usize = graph.name(p)[1..].parse().unwrap();
            assert_eq!(value.get(), g[number], "{}", graph.name(p));
        }
    }

    #[test]
    fn a_cycle_names_its_positions() {
        let graph = GameGraph::parse("s x\nx y\ny z\nz x\n").unwrap();
        match graph.solve() {
            Err(Error::Cycle { position }) => assert_eq!(position, "x -> y -> z -> x"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            GameGraph::parse(r#"{"edges": [["a"]]}"#),
            Err(Error::InvalidGraph { .. })
        ));
        assert!(GameGraph::parse("{not json").is_err());
    }
}
