//! `sum`: components of any kinds played together, each written in one
//! syntax ([`SumQuery`]), answered by the Sprague–Grundy theorem (Smith's
//! when a component can cycle).
//!
//! | kind | a component | what a move makes of it |
//! |---|---|---|
//! | heap game (name, code, `sub(...)`) | `GAME:H` (`kayles:7`, `0.07:1e9`; `kayles:2+4` is two heaps) | the heaps left, `2+4` |
//! | script | `FILE.rhai:H` or `FILE.rhai:[3,4]` | its position |
//! | pair game | `wythoff:3,5`, `rook(kayles,nim):2,4` | `A,B` |
//! | coin row | `RULE:C,C,...` (the heads, from 1: `ruler:3,4,6`) | the heads left |
//! | coin grid | `A*B:X,Y+X,Y` (`ruler*ruler:2,3+4,1`) | the heads left |
//! | Hackenbush | a tree `(()())` or `hackenbush:FILE`, alone | the edge cut |
//! | graph | `graph:FILE:NODE` | the node moved to |
//! | maze | `maze:FILE`, alone (its figures) | the figure's square |
//!
//! A component written without `GAME:` is a position of the query's
//! default game. Heap components alone answer as before ([`SumReport`],
//! through proven periods for huge heaps); positions of one pair game
//! alone as a [`PositionSumReport`]; any other mix as a
//! [`PartsSumReport`].

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::report::{MoveCountReport, PartsSumReport, PositionSumReport, SumReport};
use crate::rules::{
    CoinRule, GameGraph, Hackenbush, Maze, PairGame, ScriptGame, ScriptLimits, ScriptPosition,
};
use crate::solve::{CoinTable, LoopyValue, MemoSolver, nim_product, script_loopy};
use crate::spec::{GameSpec, Question, parse_size, read_input};
use crate::sum::{
    HeapTables, ListedPart, PartMoves, SumPart, analyze_sum_watched, move_counts, play_parts,
};
use crate::{Component, Error, Nimber, Options, Result, Ruleset, TableSolver};

use super::HeapRules;

/// One component of a sum as a front end hands it over.
#[derive(Debug)]
pub enum SumItem {
    /// Written in the component syntax (see the module documentation).
    Written(String),
    /// A heap of a heap game the front end holds (a Python rule), named
    /// `name` in the answer.
    Heap {
        /// The game's name.
        name: String,
        /// The game.
        game: HeapRules,
        /// The heap.
        heap: usize,
    },
}

/// A sum to analyse.
#[derive(Debug)]
pub struct SumQuery<'a> {
    /// The game of components written without `GAME:`.
    pub game: Option<&'a str>,
    /// The components, in order.
    pub items: Vec<SumItem>,
    /// Limits for scripts the components name.
    pub script: ScriptLimits,
    /// The solver for heap games (its memory limit bounds every table).
    pub solver: &'a TableSolver,
    /// The most options a heap's listing may have.
    pub max_options: u64,
    /// The most machine-word operations a coin table or the cuts of a
    /// Hackenbush picture with cycles may take.
    pub work_limit: u64,
    /// Whether components may name files (graphs, mazes, scripts,
    /// pictures): a server reads none of its own.
    pub files: bool,
}

/// The answer to a [`SumQuery`], by the components' kinds.
pub enum SumAnswer {
    /// Heaps of heap games only.
    Heaps(SumReport),
    /// Positions of one pair game.
    Pairs(PositionSumReport),
    /// Any other mix of kinds.
    Parts(PartsSumReport),
}

/// A component read from its written form.
enum Piece {
    Heap {
        game: usize,
        heap: usize,
    },
    Pair {
        game: PairGame,
        at: (usize, usize),
    },
    Coins {
        rule: CoinRule,
        heads: Vec<usize>,
    },
    Grid {
        rules: (CoinRule, CoinRule),
        heads: Vec<(usize, usize)>,
    },
    Picture(Hackenbush),
    Graph {
        graph: usize,
        node: usize,
    },
    Script {
        game: usize,
        position: ScriptPosition,
    },
    Maze(Maze),
}

/// The components of a sum read, with the games and files they share.
#[derive(Default)]
struct Read {
    pieces: Vec<(String, String, Piece)>,
    heap_games: Vec<(String, HeapRules)>,
    graphs: Vec<(String, GameGraph)>,
}

/// Analyses a sum of components of any kinds. `progress(n, last)` hears
/// every few thousand heaps while a heap game's values are computed up to
/// its largest heap `last`; `false` stops with [`Error::Interrupted`].
pub fn sum(query: &SumQuery, progress: &mut dyn FnMut(usize, usize) -> bool) -> Result<SumAnswer> {
    let read = Read::all(query)?;
    if let Some(components) = read.heaps() {
        let games = read.games();
        let found = analyze_sum_watched(
            &games,
            &components,
            query.solver,
            query.max_options,
            progress,
        );
        match games.iter().fold(found, |found, game| game.checked(found)) {
            Ok(analysis) => {
                return Ok(SumAnswer::Heaps(SumReport::new(
                    &read.game_names(),
                    &components,
                    &analysis,
                )));
            }
            // A script whose heaps can grow: its positions are played
            // with generalized values below.
            Err(Error::Cycle { .. } | Error::NotDescending { .. })
                if (0..games.len()).any(|g| read.script(g).is_some()) => {}
            Err(other) => return Err(other),
        }
    }
    if let Some(answer) = read.one_pair_game(query.solver.memory_limit())? {
        return Ok(SumAnswer::Pairs(answer));
    }
    read.parts(query, progress)
}

/// Each heap's moves counted by the value they reach, for a sum of heaps
/// of heap games (`grundy count --moves`); `progress` as for [`sum`].
pub fn count_moves(
    query: &SumQuery,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<MoveCountReport> {
    let read = Read::all(query)?;
    let Some(components) = read.heaps() else {
        return Err(Error::Unsupported {
            kind: "position",
            question: "count --moves",
            reason: "moves are counted for heaps of heap games".into(),
        });
    };
    let games = read.games();
    let found = move_counts(
        &games,
        &components,
        query.solver,
        query.max_options,
        progress,
    );
    let counts = games
        .iter()
        .fold(found, |found, game| game.checked(found))?;
    Ok(MoveCountReport::new(
        &read.game_names(),
        &components,
        &counts,
    ))
}

impl Read {
    /// Every component of `query` read, its default game being the first
    /// component when it is written as one.
    fn all(query: &SumQuery) -> Result<Read> {
        let mut read = Read::default();
        let mut query_game = query.game;
        if let Some(game) = query.game.filter(|g| written_whole(g)) {
            read.written(game, None, query)?;
            query_game = None;
        }
        for item in &query.items {
            match item {
                SumItem::Written(text) => read.written(text, query_game, query)?,
                SumItem::Heap { name, game, heap } => {
                    let game = read.heap_game(name, || Ok(game.clone()))?;
                    let position = heap.to_string();
                    read.pieces
                        .push((name.clone(), position, Piece::Heap { game, heap: *heap }));
                }
            }
        }
        if read.pieces.is_empty() {
            return Err(Error::EmptySum);
        }
        for (_, game) in &read.heap_games {
            game.start();
        }
        Ok(read)
    }

    /// The components as heaps, when every one is a heap of a heap game.
    fn heaps(&self) -> Option<Vec<Component>> {
        self.pieces
            .iter()
            .map(|(_, _, piece)| match *piece {
                Piece::Heap { game, heap } => Some(Component { game, heap }),
                _ => None,
            })
            .collect()
    }

    /// The script behind heap game `game`, if it is one.
    fn script(&self, game: usize) -> Option<&ScriptGame> {
        self.heap_games[game].1.as_script()
    }

    fn games(&self) -> Vec<&HeapRules> {
        self.heap_games.iter().map(|(_, g)| g).collect()
    }

    fn game_names(&self) -> Vec<String> {
        self.heap_games.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Reads one written component.
    fn written(&mut self, text: &str, game: Option<&str>, query: &SumQuery) -> Result<()> {
        let text = text.trim();
        // A picture or a maze is a whole component.
        if (text.starts_with('(') || !text.contains(':') || positionless(text))
            && let Ok(spec) = GameSpec::parse(text)
            && let Some(piece) = self.whole(&spec, query)?
        {
            self.pieces.push((text.to_owned(), String::new(), piece));
            return Ok(());
        }
        let (name, position) = match text.rsplit_once(':') {
            Some((name, position)) if !name.is_empty() => (name.trim(), position.trim()),
            _ => match game {
                Some(game) => (game.trim(), text),
                None => {
                    return Err(Error::InvalidPosition {
                        text: text.to_owned(),
                        reason: "write a component as GAME:POSITION (e.g. kayles:7)".into(),
                    });
                }
            },
        };
        if graph_file(text) {
            return Err(Error::InvalidPosition {
                text: text.to_owned(),
                reason: "a position of a graph is written graph:FILE:NODE".into(),
            });
        }
        let spec = GameSpec::parse(name)?;
        spec.kind().check(Question::Sum)?;
        if !query.files && spec.reads_file() {
            return Err(Error::Unsupported {
                kind: spec.kind().name(),
                question: "sum",
                reason: "files are not read here".into(),
            });
        }
        let piece = match spec {
            GameSpec::Heap(_) => {
                let game = self.heap_game(name, || {
                    HeapRules::from_spec(&spec, Question::Sum, &query.script)
                })?;
                // `kayles:2+4`, what a move leaves, is two heaps.
                let (last, others) = split_last(position);
                for heap in others {
                    let piece = Piece::Heap {
                        game,
                        heap: heap_size(heap)?,
                    };
                    self.pieces.push((name.to_owned(), heap.to_owned(), piece));
                }
                let heap = heap_size(last)?;
                self.pieces
                    .push((name.to_owned(), last.to_owned(), Piece::Heap { game, heap }));
                return Ok(());
            }
            GameSpec::Script(_) => {
                let game = self.heap_game(name, || {
                    HeapRules::from_spec(&spec, Question::Sum, &query.script)
                })?;
                match position.parse::<ScriptPosition>()? {
                    ScriptPosition::Heap(heap) => Piece::Heap {
                        game,
                        heap: heap_size(&heap.to_string())?,
                    },
                    position => Piece::Script { game, position },
                }
            }
            GameSpec::Pair(game) => Piece::Pair {
                at: pair(position, &game)?,
                game,
            },
            GameSpec::Coins(rule) => Piece::Coins {
                rule,
                heads: coins(position)?,
            },
            GameSpec::CoinGrid(columns, rows) => {
                let heads = position
                    .split('+')
                    .map(|head| {
                        let (x, y) =
                            head.split_once(',').ok_or_else(|| Error::InvalidPosition {
                                text: head.to_owned(),
                                reason: "a head of a grid is X,Y; heads are joined by +".into(),
                            })?;
                        Ok((coin(x)?, coin(y)?))
                    })
                    .collect::<Result<Vec<_>>>()?;
                Piece::Grid {
                    rules: (columns, rows),
                    heads,
                }
            }
            GameSpec::Graph(ref path) => {
                let graph = self.graph(name, path)?;
                let node = self.graphs[graph].1.position(position).ok_or_else(|| {
                    Error::InvalidPosition {
                        text: position.to_owned(),
                        reason: format!("{name} has no such position"),
                    }
                })?;
                Piece::Graph { graph, node }
            }
            _ => {
                return Err(Error::InvalidPosition {
                    text: text.to_owned(),
                    reason: "a picture or a maze is written alone, without a position".into(),
                });
            }
        };
        self.pieces
            .push((name.to_owned(), position.to_owned(), piece));
        Ok(())
    }

    /// A component that is a whole picture or maze.
    fn whole(&self, spec: &GameSpec, query: &SumQuery) -> Result<Option<Piece>> {
        let file = |path: &std::path::Path| {
            if query.files {
                read_input(path)
            } else {
                Err(Error::Unsupported {
                    kind: spec.kind().name(),
                    question: "sum",
                    reason: "files are not read here".into(),
                })
            }
        };
        Ok(Some(match spec {
            GameSpec::HackenbushTree(tree) => Piece::Picture(Hackenbush::tree(tree)?),
            GameSpec::HackenbushFile(path) => {
                Piece::Picture(Hackenbush::read_in(&file(path)?, path)?)
            }
            GameSpec::Maze(path) => Piece::Maze(Maze::parse(&file(path)?)?),
            _ => return Ok(None),
        }))
    }

    /// The index of heap game `name`, made by `make` when first named.
    fn heap_game(&mut self, name: &str, make: impl FnOnce() -> Result<HeapRules>) -> Result<usize> {
        if let Some(i) = self.heap_games.iter().position(|(n, _)| n == name) {
            return Ok(i);
        }
        self.heap_games.push((name.to_owned(), make()?));
        Ok(self.heap_games.len() - 1)
    }

    fn graph(&mut self, name: &str, path: &std::path::Path) -> Result<usize> {
        if let Some(i) = self.graphs.iter().position(|(n, _)| n == name) {
            return Ok(i);
        }
        let graph = GameGraph::parse(&read_input(path)?)?;
        self.graphs.push((name.to_owned(), graph));
        Ok(self.graphs.len() - 1)
    }

    /// The sum as positions of one pair game, when it is one.
    fn one_pair_game(&self, memory_limit: u64) -> Result<Option<PositionSumReport>> {
        let mut positions = Vec::new();
        let mut first: Option<(&str, &PairGame)> = None;
        for (name, _, piece) in &self.pieces {
            let Piece::Pair { game, at } = piece else {
                return Ok(None);
            };
            match first {
                Some((n, _)) if n != name => return Ok(None),
                _ => first = Some((name, game)),
            }
            positions.push(*at);
        }
        let Some((_, game)) = first else {
            return Ok(None);
        };
        let sum = game.analyze_positions(&positions, memory_limit)?;
        Ok(Some(PositionSumReport::new(&positions, &sum, |(a, b)| {
            format!("({a},{b})")
        })))
    }

    /// Every component as a [`SumPart`], played together.
    fn parts(
        &self,
        query: &SumQuery,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<SumAnswer> {
        let components: Vec<Component> = self
            .pieces
            .iter()
            .filter_map(|(_, _, piece)| match *piece {
                Piece::Heap { game, heap } if self.script(game).is_none() => {
                    Some(Component { game, heap })
                }
                _ => None,
            })
            .collect();
        let games = self.games();
        let tables = HeapTables::new(
            &games,
            &components,
            query.solver,
            query.max_options,
            progress,
        )?;
        let limit = query.solver.memory_limit();
        let work = query.work_limit;
        let graph_values = self
            .graphs
            .iter()
            .map(|(_, graph)| graph.loopy_values())
            .collect::<Result<Vec<_>>>()?;
        let mut owned: Vec<Box<dyn SumPart + '_>> = Vec::new();
        for (_, _, piece) in &self.pieces {
            owned.push(match piece {
                // A script's heap is a position of the script: its play
                // may cycle, which a heap table cannot hold.
                &Piece::Heap { game, heap } => match self.script(game) {
                    Some(script) => {
                        Box::new(script_part(script, &ScriptPosition::Heap(heap as u64))?)
                    }
                    None => Box::new(tables.part(Component { game, heap })),
                },
                Piece::Pair { game, at } => Box::new(pair_part(game, *at, limit)?),
                Piece::Coins { rule, heads } => Box::new(CoinRow::new(rule, heads, limit, work)?),
                Piece::Grid { rules, heads } => Box::new(CoinGrid::new(rules, heads, limit, work)?),
                Piece::Picture(picture) => Box::new(PicturePart(picture, work)),
                Piece::Graph { graph, node } => {
                    let (graph, values) = (&self.graphs[*graph].1, &graph_values[*graph]);
                    Box::new(ListedPart {
                        value: values[*node].clone(),
                        options: graph
                            .moves(*node)
                            .map(|(to, _)| (graph.name(to).to_owned(), values[to].clone()))
                            .collect(),
                    })
                }
                Piece::Script { game, position } => {
                    let script = self.script(*game).expect("a script's position");
                    Box::new(script_part(script, position)?)
                }
                Piece::Maze(maze) => Box::new(MazePart::new(maze, limit)?),
            });
        }
        let parts: Vec<&dyn SumPart> = owned.iter().map(|p| p.as_ref()).collect();
        let found = play_parts(&parts);
        let found = games
            .iter()
            .fold(found, |found, game| game.checked(found))?;
        let written: Vec<(String, String)> = self
            .pieces
            .iter()
            .map(|(name, position, _)| (name.clone(), position.clone()))
            .collect();
        Ok(SumAnswer::Parts(PartsSumReport::new(&written, &found)))
    }
}

/// Whether `text` is itself a component (`kayles:3`, a picture, a maze),
/// not a game whose positions follow.
fn written_whole(text: &str) -> bool {
    let text = text.trim();
    (text.contains(':') || text.starts_with('(')) && !graph_file(text)
}

/// Whether `text` is a graph without a node (`graph:FILE`): a game whose
/// positions follow, not a component.
fn graph_file(text: &str) -> bool {
    text.get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("graph:"))
        && !text[6..].contains(':')
}

/// Whether `text` names a whole component (a picture or a maze file).
fn positionless(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.starts_with("maze:") || lower.starts_with("hackenbush:")
}

/// The heaps of `2+4+5` as `(5, [2, 4])`.
fn split_last(position: &str) -> (&str, Vec<&str>) {
    let mut heaps: Vec<&str> = position.split('+').map(str::trim).collect();
    let last = heaps.pop().unwrap_or(position);
    (last, heaps)
}

fn heap_size(text: &str) -> Result<usize> {
    let heap = parse_size(text)?;
    usize::try_from(heap).map_err(|_| Error::InvalidPosition {
        text: text.to_owned(),
        reason: "too large for this machine".into(),
    })
}

fn coin(text: &str) -> Result<usize> {
    match heap_size(text.trim())? {
        0 => Err(Error::InvalidPosition {
            text: text.to_owned(),
            reason: "coins are numbered from 1".into(),
        }),
        n => Ok(n),
    }
}

fn coins(text: &str) -> Result<Vec<usize>> {
    text.split(',').map(coin).collect()
}

fn pair(text: &str, game: &PairGame) -> Result<(usize, usize)> {
    let (a, b) = text.split_once(',').ok_or_else(|| Error::InvalidPosition {
        text: text.to_owned(),
        reason: format!("a position of {game} is a pair, written A,B (e.g. 3,5)"),
    })?;
    Ok((heap_size(a.trim())?, heap_size(b.trim())?))
}

/// A position of a pair game with its options, valued from its table.
fn pair_part(game: &PairGame, (a, b): (usize, usize), memory_limit: u64) -> Result<ListedPart> {
    let table = game.table(a.max(b) as u64, memory_limit)?;
    let value = |&(x, y): &(usize, usize)| Ok(table[x][y]);
    listed_part(game, &(a, b), value, |&(x, y)| format!("{x},{y}"))
}

/// A position of a script, with generalized values when play can cycle.
fn script_part(game: &ScriptGame, position: &ScriptPosition) -> Result<ListedPart> {
    game.begin_run();
    let starts = std::slice::from_ref(position);
    match game.explore(starts) {
        Ok(explored) => {
            let mut solver = MemoSolver::new(&explored);
            listed_part(
                &explored,
                position,
                |p| solver.value(p),
                ToString::to_string,
            )
        }
        Err(Error::Cycle { .. }) => {
            let loopy = script_loopy(game, starts)?;
            let at = loopy.index(position).expect("a start is explored");
            Ok(ListedPart {
                value: loopy.values[at].clone(),
                options: loopy
                    .adjacency()
                    .moves(at)
                    .map(|to| (loopy.positions[to].to_string(), loopy.values[to].clone()))
                    .collect(),
            })
        }
        Err(other) => Err(other),
    }
}

/// `position` of `rules` with every option valued by `value`, each option
/// written by `show` (the positions it leaves joined by `+`).
fn listed_part<R: Ruleset>(
    rules: &R,
    position: &R::Position,
    mut value: impl FnMut(&R::Position) -> Result<Nimber>,
    show: impl Fn(&R::Position) -> String,
) -> Result<ListedPart> {
    let own = value(position)?;
    let mut options = Options::new();
    rules.options(position, &mut options);
    crate::cancel::check()?;
    let mut listed = Vec::with_capacity(options.len());
    for option in options.iter() {
        let reached = option.iter().map(&mut value).sum::<Result<Nimber>>()?;
        let written: Vec<String> = option.iter().map(&show).collect();
        let written = if written.is_empty() {
            "nothing".to_owned()
        } else {
            written.join("+")
        };
        listed.push((written, LoopyValue::Finite(reached)));
    }
    Ok(ListedPart {
        value: LoopyValue::Finite(own),
        options: listed,
    })
}

/// The finite target of a move, or `None` for an infinite one (no move of
/// a component whose play ends reaches one).
fn finite(target: &LoopyValue) -> Option<Nimber> {
    match target {
        LoopyValue::Finite(v) => Some(*v),
        LoopyValue::Infinite(_) => None,
    }
}

/// Coin numbers written as a row's heads: `3,4,6`, or `none`.
fn written_heads(heads: &BTreeSet<usize>) -> String {
    if heads.is_empty() {
        return "none".into();
    }
    let mut text = String::new();
    for (i, h) in heads.iter().enumerate() {
        let _ = write!(text, "{}{h}", if i > 0 { "," } else { "" });
    }
    text
}

/// A row of coins: by the coin-turning theorem worth the nim-sum of its
/// heads' values, and a move turning head `c` and coins `S` left of it
/// changes that by `g(c) ^ g(S)`.
struct CoinRow<'r> {
    rule: &'r CoinRule,
    heads: BTreeSet<usize>,
    table: CoinTable,
    value: Nimber,
}

impl<'r> CoinRow<'r> {
    fn new(
        rule: &'r CoinRule,
        heads: &[usize],
        memory_limit: u64,
        work_limit: u64,
    ) -> Result<Self> {
        let heads: BTreeSet<usize> = heads.iter().copied().collect();
        let keep: Vec<usize> = heads.iter().copied().collect();
        let last = keep.last().copied().unwrap_or(0);
        let table = rule.table(last as u64, &keep, memory_limit, work_limit)?;
        let value = heads.iter().map(|&h| table.values[h]).sum();
        Ok(CoinRow {
            rule,
            heads,
            table,
            value,
        })
    }
}

impl SumPart for CoinRow<'_> {
    fn value(&self) -> LoopyValue {
        LoopyValue::Finite(self.value)
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let mut reached = BTreeSet::new();
        for &coin in &self.heads {
            let rest = self.value ^ self.table.values[coin];
            reached.extend(self.table.option_values(coin).map(|a| rest ^ a));
        }
        Ok(reached.into_iter().map(LoopyValue::Finite).collect())
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let Some(target) = finite(target) else {
            return Ok(PartMoves::counted(Vec::new(), listed));
        };
        let mut moves = Vec::new();
        let mut whole = true;
        for &coin in &self.heads {
            let wanted = target ^ self.value ^ self.table.values[coin];
            if !self.table.can_add(coin, wanted) {
                continue;
            }
            let room = listed.saturating_sub(moves.len());
            let found = self
                .rule
                .completions(&self.table.values, coin, wanted, room + 1);
            whole &= found.len() <= room;
            for also in found.into_iter().take(room) {
                let mut heads = self.heads.clone();
                for turned in also.into_iter().chain([coin]) {
                    if !heads.remove(&turned) {
                        heads.insert(turned);
                    }
                }
                moves.push(written_heads(&heads));
            }
        }
        let count = whole.then_some(moves.len() as u64);
        Ok(PartMoves {
            listed: moves,
            count,
        })
    }
}

/// A grid of coins under the product of two rules: by the Tartan theorem
/// head `(x, y)` is worth `g(x) ⊗ g(y)`, and turning `S × T` from it
/// changes the grid's value by `(g(x) ^ a) ⊗ (g(y) ^ b)`, with `a` and `b`
/// the values of the coins `S` and `T` turn besides `x` and `y`.
struct CoinGrid<'r> {
    rules: &'r (CoinRule, CoinRule),
    heads: BTreeSet<(usize, usize)>,
    tables: (CoinTable, CoinTable),
    value: Nimber,
}

impl<'r> CoinGrid<'r> {
    fn new(
        rules: &'r (CoinRule, CoinRule),
        heads: &[(usize, usize)],
        limit: u64,
        work_limit: u64,
    ) -> Result<Self> {
        let heads: BTreeSet<(usize, usize)> = heads.iter().copied().collect();
        let xs: BTreeSet<usize> = heads.iter().map(|h| h.0).collect();
        let ys: BTreeSet<usize> = heads.iter().map(|h| h.1).collect();
        let table = |rule: &CoinRule, keep: &BTreeSet<usize>| {
            let keep: Vec<usize> = keep.iter().copied().collect();
            rule.table(
                keep.last().copied().unwrap_or(0) as u64,
                &keep,
                limit,
                work_limit,
            )
        };
        let tables = (table(&rules.0, &xs)?, table(&rules.1, &ys)?);
        let value = heads
            .iter()
            .map(|&(x, y)| nim_product(tables.0.values[x], tables.1.values[y]))
            .sum();
        Ok(CoinGrid {
            rules,
            heads,
            tables,
            value,
        })
    }

    /// The changes `(a, b, (g(x) ^ a) ⊗ (g(y) ^ b))` a move from head
    /// `(x, y)` can make.
    fn changes(&self, (x, y): (usize, usize)) -> impl Iterator<Item = (Nimber, Nimber, Nimber)> {
        let (gx, gy) = (self.tables.0.values[x], self.tables.1.values[y]);
        let bs: Vec<Nimber> = self.tables.1.option_values(y).collect();
        let changes: Vec<_> = self
            .tables
            .0
            .option_values(x)
            .flat_map(|a| bs.iter().map(move |&b| (a, b, nim_product(gx ^ a, gy ^ b))))
            .collect();
        changes.into_iter()
    }
}

impl SumPart for CoinGrid<'_> {
    fn value(&self) -> LoopyValue {
        LoopyValue::Finite(self.value)
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let mut reached = BTreeSet::new();
        for &head in &self.heads {
            reached.extend(self.changes(head).map(|(_, _, d)| self.value ^ d));
        }
        Ok(reached.into_iter().map(LoopyValue::Finite).collect())
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let Some(target) = finite(target) else {
            return Ok(PartMoves::counted(Vec::new(), listed));
        };
        let change = target ^ self.value;
        let (across, down) = &self.tables;
        let mut moves = Vec::new();
        let mut whole = true;
        for &(x, y) in &self.heads {
            for (a, b, d) in self.changes((x, y)) {
                if d != change {
                    continue;
                }
                let room = listed.saturating_sub(moves.len());
                let columns = self.rules.0.completions(&across.values, x, a, room + 1);
                let rows = self.rules.1.completions(&down.values, y, b, room + 1);
                whole &= (columns.len() as u128) * (rows.len() as u128) <= room as u128;
                for (cs, rs) in columns
                    .iter()
                    .flat_map(|cs| rows.iter().map(move |rs| (cs, rs)))
                    .take(room)
                {
                    let mut heads = self.heads.clone();
                    for &c in cs.iter().chain([&x]) {
                        for &r in rs.iter().chain([&y]) {
                            if !heads.remove(&(c, r)) {
                                heads.insert((c, r));
                            }
                        }
                    }
                    let written: Vec<String> =
                        heads.iter().map(|(c, r)| format!("{c},{r}")).collect();
                    moves.push(if written.is_empty() {
                        "none".to_owned()
                    } else {
                        written.join("+")
                    });
                }
            }
        }
        let count = whole.then_some(moves.len() as u64);
        Ok(PartMoves {
            listed: moves,
            count,
        })
    }
}

/// A Green Hackenbush picture: a move cuts one edge.
struct PicturePart<'p>(&'p Hackenbush, u64);

impl PicturePart<'_> {
    fn cut(&self, edge: usize) -> String {
        let (a, b) = self.0.edge(edge);
        format!("cut {a}-{b}")
    }
}

impl SumPart for PicturePart<'_> {
    fn value(&self) -> LoopyValue {
        LoopyValue::Finite(self.0.value())
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let by_value = self.0.cuts_by_value(self.1)?;
        Ok(by_value
            .into_iter()
            .map(|(v, _)| LoopyValue::Finite(v))
            .collect())
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let cuts = match finite(target) {
            Some(target) => self.0.cuts_to(target, self.1)?,
            None => Vec::new(),
        };
        let all = cuts.into_iter().map(|e| self.cut(e)).collect();
        Ok(PartMoves::counted(all, listed))
    }
}

/// The figures of a maze: a sum of their own, each moving left or up.
struct MazePart {
    figures: Vec<ListedPart>,
    value: Nimber,
}

impl MazePart {
    fn new(maze: &Maze, memory_limit: u64) -> Result<Self> {
        let values = maze.values(memory_limit)?;
        let value_at = |(r, c): (usize, usize)| values[r][c].unwrap_or(Nimber::ZERO);
        let figures: Vec<ListedPart> = maze
            .figures()
            .iter()
            .map(|&(mark, at)| ListedPart {
                value: LoopyValue::Finite(value_at(at)),
                options: maze
                    .moves(at)
                    .map(|(r, c)| {
                        let to = format!("{mark} to row {r}, column {c}");
                        (to, LoopyValue::Finite(value_at((r, c))))
                    })
                    .collect(),
            })
            .collect();
        let value = maze.figures().iter().map(|&(_, at)| value_at(at)).sum();
        Ok(MazePart { figures, value })
    }

    /// What the maze is worth besides figure `i`.
    fn rest(&self, i: usize) -> Nimber {
        self.value ^ finite(&self.figures[i].value).unwrap_or(Nimber::ZERO)
    }
}

impl SumPart for MazePart {
    fn value(&self) -> LoopyValue {
        LoopyValue::Finite(self.value)
    }

    fn reached(&self) -> Result<Vec<LoopyValue>> {
        let mut reached = BTreeSet::new();
        for (i, figure) in self.figures.iter().enumerate() {
            for (_, v) in &figure.options {
                reached.extend(finite(v).map(|v| v ^ self.rest(i)));
            }
        }
        Ok(reached.into_iter().map(LoopyValue::Finite).collect())
    }

    fn moves_to(&self, target: &LoopyValue, listed: usize) -> Result<PartMoves> {
        let mut all = Vec::new();
        if let Some(target) = finite(target) {
            for (i, figure) in self.figures.iter().enumerate() {
                let wanted = LoopyValue::Finite(target ^ self.rest(i));
                all.extend(figure.moves_to(&wanted, usize::MAX)?.listed);
            }
        }
        Ok(PartMoves::counted(all, listed))
    }
}
