//! One way in: a game named by a [`GameSpec`] and a question, answered by
//! the best method the game allows.
//!
//! Front ends (the CLI, Python, the web playground) parse a spec, turn it
//! into [`HeapRules`] (or learn from a typed [`Error::Unsupported`] why that
//! kind does not answer the question), and call the functions here. The
//! choices that used to be made in each front end are made once:
//!
//! - **values** of any range come from a proven period when the game has a
//!   periodicity theorem and proves its period early (so `g(0..=10^7)` of
//!   Dawson's Kayles costs a few hundred heaps of work and a copy), else
//!   from the table solver, which picks its engine by measured cost;
//! - **histograms** likewise ([`analysis::value_histogram`]): through the
//!   proven period for any range up to `10^18`, by tabulation (within the
//!   memory limit) otherwise;
//! - **cycles**: a script whose heaps can grow gets generalized values from
//!   the loopy solver instead of an error ([`HeapRules::values`]).
//!
//! ```
//! use grundy::session::{HeapRules, HeapValues};
//! use grundy::spec::{GameSpec, Question};
//! use grundy::TableSolver;
//! let game = HeapRules::from_spec(&GameSpec::parse("dawsons-kayles")?, Question::Values, &Default::default())?;
//! let HeapValues::Finite(values) = game.values(10_000_000, &TableSolver::new(), &mut |_| true)? else {
//!     unreachable!("Dawson's Kayles has no cycles")
//! };
//! assert_eq!(values.len(), 10_000_001);
//! // Period 34 from heap 53:
//! assert_eq!(values.at(9_999_999), values.at(53 + (9_999_999 - 53) % 34));
//! # Ok::<(), grundy::Error>(())
//! ```

mod analyze;
mod census;
mod compare;
mod count;
mod explicit;
mod guess;
mod kinds;
mod misere;
mod moves;
mod script;
mod stream;
mod sum;

pub use crate::solve::{Stage, WindowProgress};
pub use analyze::{
    AnalyzeAnswer, AnalyzeQuery, Analyzed, CHECKPOINT_EVERY, LARGE_TABLE_BYTES, RecordQuery,
    analyze, resumable,
};
pub use census::{
    CensusLimits, CensusProgress, CensusRun, census, census_classify, census_games, census_merge,
    census_row, check_shard,
};
pub use compare::{compare, compare_reach};
pub use count::{
    CountAnswer, CountEnd, CountQuery, Counted, count, count_histograms, count_ranges,
    heap_histogram,
};
pub use explicit::{ExplicitGame, state_outcomes};
pub use guess::{guess, guess_sequence, read_sequence};
pub use kinds::{
    CoinsAnswer, CoinsQuestion, GraphAnswer, HackenbushAnswer, Picture, coins, fibonacci_nim,
    graph, hackenbush, maze,
};
pub use misere::{MISERE_HEAPS, QuotientPlay, genera, misere_quotient, misere_sum};
pub use moves::{MovesAnswer, MovesGame, MovesQuery, moves};
pub use script::{
    OutcomesQuery, ScriptAnswer, script_outcomes, script_parameters, script_positions,
};
pub use stream::{
    RecomputeQuery, STREAM_LISTED_HEAPS, stream_heaps, stream_histogram, stream_values,
    stream_verify,
};
pub use sum::{SumAnswer, SumItem, SumQuery, count_moves, sum};

// The vocabulary of the questions and answers above, for front ends: a
// query's parameters and an answer's types, named where they are asked.
pub use crate::analysis::{
    Analysis, ByFormula, Certificate, Comparison, Genus, GuessReport, Histogram, HistogramSource,
    MisereMove, MisereQuotient, NimSumCounts, PartSizes, Partitions, PeriodWindow, Periodicity,
    Support, TABULATE_LIMIT, TupleBudget, Tuples, UNORDERED_HEAPS_LIMIT,
};
pub use crate::rules::{Defines, ScriptLimits};
pub use crate::solve::{DEFAULT_WORK, Engine, LoopyValue, Outcome, Outcomes};
pub use crate::sum::{PositionMove, PositionSum};

use std::fmt;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

use crate::analysis::{self, DEFAULT_MAX, Limits, PERIOD_FIRST};
use crate::game::gather_listed;
use crate::rules::{GameGraph, ScriptGame, ScriptPosition};
use crate::solve::{
    Adjacency, LoopySum, Retrograde, analyze_loopy_sum, retrograde, sum_retrograde,
};
use crate::solve::{ScriptSum, script_loopy, script_sum};
use crate::spec::{GameSpec, Question};
use crate::{
    Error, HeapGame, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset, TableSolver,
    TakeBreak, ValueTable,
};

/// Heaps an analysis of a game without a periodicity theorem and with
/// costly options (a script) computes when not told.
pub const SCRIPT_HEAPS: u64 = 1000;

/// A heap game of any kind the front door accepts: built in, a script, or
/// rules a front end brings ([`CustomRules`], such as a Python callable).
#[derive(Clone, Debug)]
pub enum HeapRules {
    /// Anything [`HeapGame`] parses.
    Builtin(HeapGame),
    /// A script whose positions are heaps.
    Script(ScriptHeap),
    /// Rules from outside the library.
    Custom(Arc<dyn CustomRules>),
}

/// Heap rules a front end brings (Python's `Game.from_options`): the
/// session answers every question about them as about a built-in game
/// without a periodicity theorem. Errors the rules meet (an exception in a
/// callable) are the front end's to keep and report: the solvers see only
/// [`Ruleset::options`].
pub trait CustomRules: HeapRuleset + fmt::Display + fmt::Debug + Send + Sync {}

/// A script played as a heap game. The solvers cannot see a script's
/// errors through [`Ruleset::options`], so the first one is kept and
/// [`HeapRules::checked`] returns it in place of whatever was computed.
#[derive(Debug)]
pub struct ScriptHeap {
    game: Arc<ScriptGame>,
    failure: Mutex<Option<Error>>,
}

impl Clone for ScriptHeap {
    /// The same script, with no failure kept yet: a clone's runs report
    /// their own errors.
    fn clone(&self) -> Self {
        ScriptHeap {
            game: Arc::clone(&self.game),
            failure: Mutex::new(None),
        }
    }
}

/// Values of heaps `0..=N`: finite, or generalized when play can cycle.
#[derive(Clone, Debug)]
pub enum HeapValues {
    /// Every heap has a Grundy value.
    Finite(ValueTable),
    /// Heaps can grow, so play can cycle: generalized values (Smith).
    Loopy(Vec<LoopyValue>),
}

impl HeapRules {
    /// The heap game `spec` names, ready for `question`; scripts are read
    /// and compiled with `limits`. Kinds that are not heap games are
    /// refused with [`Error::Unsupported`].
    pub fn from_spec(spec: &GameSpec, question: Question, limits: &ScriptLimits) -> Result<Self> {
        spec.kind().check(question)?;
        match spec {
            GameSpec::Heap(game) => Ok(HeapRules::Builtin(game.clone())),
            GameSpec::Script(path) => {
                let source = crate::spec::read_input(path)?;
                Ok(HeapRules::script(ScriptGame::compile(
                    &path.display().to_string(),
                    &source,
                    limits.clone(),
                )?))
            }
            other => Err(Error::Unsupported {
                kind: other.kind().name(),
                question: question.command(),
                reason: "its positions are not single heaps".into(),
            }),
        }
    }

    /// The heap game of a script's `source` (named `name` in its
    /// errors), compiled with `limits`.
    pub fn compile_script(name: &str, source: &str, limits: ScriptLimits) -> Result<HeapRules> {
        ScriptGame::compile(name, source, limits).map(HeapRules::script)
    }

    /// A compiled script as a heap game.
    pub fn script(game: ScriptGame) -> HeapRules {
        HeapRules::Script(ScriptHeap {
            game: Arc::new(game),
            failure: Mutex::new(None),
        })
    }

    /// The script behind the game, if it is one.
    pub fn as_script(&self) -> Option<&ScriptGame> {
        match self {
            HeapRules::Script(script) => Some(&script.game),
            HeapRules::Builtin(_) | HeapRules::Custom(_) => None,
        }
    }

    /// `result`, unless a script failed while it was computed: then that
    /// error, whatever the engine made of the options it did not get.
    pub fn checked<T>(&self, result: Result<T>) -> Result<T> {
        match self {
            HeapRules::Script(script) => match script.take_failure() {
                Some(error) => Err(error),
                None => result,
            },
            HeapRules::Builtin(_) | HeapRules::Custom(_) => result,
        }
    }

    /// Whether a script failed during the question under way: what was
    /// computed since is not to be kept (a front end's cache included).
    pub fn failed(&self) -> bool {
        match self {
            HeapRules::Script(script) => script
                .failure
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .is_some(),
            HeapRules::Builtin(_) | HeapRules::Custom(_) => false,
        }
    }

    /// The largest heap an adaptive analysis computes by default: scripts
    /// and custom rules, whose every heap is a call out and which no
    /// theorem covers, stop at [`SCRIPT_HEAPS`].
    pub fn default_max(&self) -> u64 {
        match self {
            HeapRules::Builtin(_) => DEFAULT_MAX,
            HeapRules::Script(_) | HeapRules::Custom(_) => SCRIPT_HEAPS,
        }
    }

    /// Values of heaps `0..=to` (see [`heap_values`]); a script whose
    /// heaps can grow gets generalized values instead.
    pub fn values(
        &self,
        to: u64,
        solver: &TableSolver,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<HeapValues> {
        self.start();
        let found = self.checked(heap_values(self, to, solver, progress));
        match (found, self) {
            (Err(Error::NotDescending { .. } | Error::Cycle { .. }), HeapRules::Script(s)) => {
                solver.check_fits(to)?;
                let heaps: Vec<ScriptPosition> = (0..=to).map(ScriptPosition::Heap).collect();
                let loopy = script_loopy(&s.game, &heaps)?;
                Ok(HeapValues::Loopy(
                    loopy.values.into_iter().take(heaps.len()).collect(),
                ))
            }
            (found, _) => found.map(HeapValues::Finite),
        }
    }

    /// Starts a question: a script's time limit counts from here.
    pub fn start(&self) {
        if let HeapRules::Script(script) = self {
            script.game.begin_run();
            script.take_failure();
        }
    }
}

impl ScriptHeap {
    fn take_failure(&self) -> Option<Error> {
        self.failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    fn list(&self, n: usize, out: &mut Options<usize>) {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if failure.is_none()
            && let Err(error) = self.game.heap_options(n, out)
        {
            *failure = Some(error);
        }
    }
}

impl fmt::Display for HeapRules {
    /// The canonical specification, or the script's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapRules::Builtin(game) => game.fmt(f),
            HeapRules::Script(script) => f.write_str(script.game.name()),
            HeapRules::Custom(rules) => rules.fmt(f),
        }
    }
}

impl Ruleset for HeapRules {
    type Position = usize;

    fn options(&self, n: &usize, out: &mut Options<usize>) {
        match self {
            HeapRules::Builtin(game) => game.options(n, out),
            HeapRules::Script(script) => script.list(*n, out),
            HeapRules::Custom(rules) => rules.options(n, out),
        }
    }
}

impl HeapRuleset for HeapRules {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        scratch: &mut Options<usize>,
    ) -> Result<()> {
        match self {
            HeapRules::Builtin(game) => game.gather(n, values, max, seen, scratch),
            HeapRules::Script(script) => {
                // Straight from the script, so its errors stop the run.
                scratch.clear();
                script.game.heap_options(n, scratch)?;
                gather_listed(n, scratch, values, seen)
            }
            HeapRules::Custom(rules) => rules.gather(n, values, max, seen, scratch),
        }
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            HeapRules::Builtin(game) => game.visit_options(n, visit),
            HeapRules::Script(script) => {
                let mut options = Options::new();
                script.list(n, &mut options);
                options.iter().try_for_each(visit)
            }
            HeapRules::Custom(rules) => rules.visit_options(n, visit),
        }
    }

    fn as_take_break(&self) -> Option<&TakeBreak> {
        match self {
            HeapRules::Builtin(game) => game.as_take_break(),
            HeapRules::Script(_) => None,
            HeapRules::Custom(rules) => rules.as_take_break(),
        }
    }

    fn as_heap_game(&self) -> Option<&HeapGame> {
        match self {
            HeapRules::Builtin(game) => Some(game),
            HeapRules::Script(_) | HeapRules::Custom(_) => None,
        }
    }

    fn closed_form(&self, n: usize) -> Option<u64> {
        match self {
            HeapRules::Builtin(game) => game.closed_form(n),
            HeapRules::Script(_) => None,
            HeapRules::Custom(rules) => rules.closed_form(n),
        }
    }
}

/// The values of heaps `0..=to` of any heap game.
///
/// A long range of a game with a periodicity theorem is analysed
/// adaptively first ([`analysis::analyze`] with an exact range): once its
/// period is proven every further value is `g(n) = g(n - p) + s`, a copy
/// rather than a computation ([`Analysis::values_to_end`]). Otherwise the
/// table solver computes every heap.
pub fn heap_values<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    to: u64,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<ValueTable> {
    solver.check_fits_for(game, to)?;
    if to > PERIOD_FIRST && analysis::Theorem::for_rules(game).is_some() {
        let limits = Limits {
            to: Some(to),
            ..Limits::default()
        };
        return analysis::analyze(game, &limits, solver, progress)?.values_to_end();
    }
    let mut values = ValueTable::new();
    solver.extend(game, &mut values, to, progress)?;
    values.truncate(to as usize + 1);
    Ok(values)
}

/// The most options of one heap [`heap_options`] lists unless told: a
/// heap of Kayles of 2^64 - 1 tokens has about as many.
pub const LISTED_HEAP_OPTIONS: u64 = 1_000_000;

/// The options of heap `n` of `game`, each the heaps it leaves (in
/// increasing order, without empty heaps), in the order the rules list
/// them: at most `limit` of them, refused with [`Error::TooManyOptions`]
/// as soon as one more is found (options are visited one at a time, so a
/// heap with 10^19 options costs `limit` steps, not an allocation).
pub fn heap_options(game: &HeapRules, n: usize, limit: u64) -> Result<Vec<Vec<usize>>> {
    game.start();
    let mut found: Vec<Vec<usize>> = Vec::new();
    let visited = game.visit_options(n, &mut |option| {
        if found.len() as u64 >= limit {
            return ControlFlow::Break(());
        }
        let mut heaps: Vec<usize> = option.iter().copied().filter(|&h| h > 0).collect();
        heaps.sort_unstable();
        found.push(heaps);
        ControlFlow::Continue(())
    });
    if visited.is_break() && found.len() as u64 >= limit {
        return Err(Error::TooManyOptions {
            game: game.to_string(),
            heap: n as u64,
            limit,
        });
    }
    crate::cancel::check()?;
    game.checked(Ok(found))
}

/// Positions played together when play may cycle: generalized values, who
/// wins or draws (Smith's theorem), and the moves that win or keep the draw.
#[derive(Clone, Debug)]
pub struct LoopyPlay {
    /// The name of every position explored (the tokens index into it).
    pub names: Vec<String>,
    /// The generalized value of every position.
    pub values: Vec<LoopyValue>,
    /// The position of each token.
    pub tokens: Vec<usize>,
    /// The outcome and the winning or drawing moves.
    pub sum: LoopySum,
    /// Moves left with perfect play, when the sum is won or lost and its
    /// positions number at most [`LOOPY_SUM_STATES`]; `None` for a draw.
    pub remoteness: Option<u32>,
}

/// The most positions of a sum the search for its remoteness explores.
pub const LOOPY_SUM_STATES: usize = 1_000_000;

/// Positions of a script played together.
#[derive(Clone, Debug)]
pub enum ScriptPlay {
    /// Every play is finite: values, nim-sum and winning moves.
    Finite(ScriptSum),
    /// Play can cycle.
    Loopy(LoopyPlay),
}

/// Positions of a script (heaps or tuples) played together: by the
/// Sprague–Grundy theorem when every play ends, by generalized values
/// when the script's positions can cycle.
pub fn play_script(game: &ScriptGame, positions: &[ScriptPosition]) -> Result<ScriptPlay> {
    game.begin_run();
    match script_sum(game, positions) {
        Err(Error::Cycle { .. }) => {
            let loopy = script_loopy(game, positions)?;
            let tokens: Vec<usize> = positions.iter().filter_map(|p| loopy.index(p)).collect();
            let names = loopy.positions.iter().map(ToString::to_string).collect();
            Ok(ScriptPlay::Loopy(loopy_play(
                loopy.adjacency(),
                names,
                loopy.values.clone(),
                tokens,
            )))
        }
        other => other.map(ScriptPlay::Finite),
    }
}

/// A game graph solved: plain values when it has no cycle, generalized
/// values (with win/lose/draw and remoteness) when it has.
#[derive(Clone, Debug)]
pub enum GraphSolution {
    /// Every position's Grundy value.
    Acyclic(Vec<Nimber>),
    /// Generalized values and the retrograde outcome of each position.
    Loopy(Vec<LoopyValue>, Retrograde),
}

/// Solves a game graph, falling back to generalized values when it has
/// cycles.
pub fn solve_graph(graph: &GameGraph) -> Result<GraphSolution> {
    match graph.solve() {
        Ok(solved) => Ok(GraphSolution::Acyclic(solved.values)),
        Err(Error::Cycle { .. }) => Ok(GraphSolution::Loopy(
            graph.loopy_values()?,
            retrograde(graph.adjacency()),
        )),
        Err(other) => Err(other),
    }
}

/// Tokens on a graph with cycles played together.
pub fn play_loopy_graph(graph: &GameGraph, values: &[LoopyValue], tokens: &[usize]) -> LoopyPlay {
    let names = (0..graph.len()).map(|p| graph.name(p).to_owned()).collect();
    loopy_play(graph.adjacency(), names, values.to_vec(), tokens.to_vec())
}

fn loopy_play(
    graph: Adjacency<'_>,
    names: Vec<String>,
    values: Vec<LoopyValue>,
    tokens: Vec<usize>,
) -> LoopyPlay {
    let sum = analyze_loopy_sum(graph, &values, &tokens);
    let remoteness = sum_retrograde(graph, &tokens, LOOPY_SUM_STATES)
        .ok()
        .filter(|&(outcome, _)| outcome != Outcome::Draw)
        .map(|(_, r)| r);
    LoopyPlay {
        names,
        values,
        tokens,
        sum,
        remoteness,
    }
}

/// Analyses heaps `0..=to` of a heap game of any kind in memory (answered
/// through a proven period past its proof), or adaptively up to `max`
/// (default: the game's [`HeapRules::default_max`]) without `to`, going on
/// from the values `known` (heaps `0..known.len()`, from a cache); a
/// script's error is reported as itself. The plot, the web's table,
/// `guess` and Python's `Game.analyze` ask this; [`analyze`] adds record
/// runs, checkpoints and certificates.
pub fn analyze_range(
    game: &HeapRules,
    known: ValueTable,
    to: Option<u64>,
    max: Option<u64>,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Analysis> {
    let limits = Limits {
        to,
        max: max.unwrap_or(game.default_max()),
        ..Limits::default()
    };
    game.start();
    game.checked(analysis::analyze_from(
        game, known, &limits, solver, progress,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(source: &str) -> HeapRules {
        HeapRules::script(
            ScriptGame::compile("test.rhai", source, ScriptLimits::default()).unwrap(),
        )
    }

    #[test]
    fn values_through_the_period_equal_the_table() {
        let solver = TableSolver::new();
        for spec in ["0.07", "kayles", "0.137", "sub(1,3,4)", "lasker", "0.16"] {
            let game: HeapGame = spec.parse().unwrap();
            let through = heap_values(&game, 20_000, &solver, &mut |_| true).unwrap();
            let plain = solver.values(&game, 20_000).unwrap();
            assert!(through == plain, "{spec}");
        }
    }

    #[test]
    fn a_scripted_game_has_the_values_of_its_code() {
        let game = script("fn options(n) { [n - 1, n - 2, split(n - 2, 2)] }");
        let code: HeapGame = "0.37".parse().unwrap();
        let solver = TableSolver::new();
        let HeapValues::Finite(values) = game.values(300, &solver, &mut |_| true).unwrap() else {
            panic!("no cycles")
        };
        assert!(values == solver.values(&code, 300).unwrap());
    }

    #[test]
    fn a_script_whose_heaps_grow_gets_generalized_values() {
        let game = script("fn options(n) { if n < 5 { [n + 1] } else { [] } }");
        let found = game.values(3, &TableSolver::new(), &mut |_| true).unwrap();
        let HeapValues::Loopy(values) = found else {
            panic!("heaps grow")
        };
        // 5 has no move (0); 4 -> 5 (1); 3 -> 4 (0).
        assert_eq!(values.len(), 4);
        assert_eq!(values[3], LoopyValue::Finite(Nimber::new(0)));
    }

    #[test]
    fn a_script_error_is_reported_not_swallowed() {
        let game = script("fn options(n) { if n == 7 { throw \"seven\" } [n - 1] }");
        let err = game
            .values(20, &TableSolver::new(), &mut |_| true)
            .unwrap_err();
        assert!(err.to_string().contains("seven"), "{err}");
        let sum = game.checked(crate::analyze_sum(
            &[&game],
            &[crate::Component { game: 0, heap: 6 }],
            &TableSolver::new(),
            crate::LISTED_OPTIONS_LIMIT,
        ));
        assert!(sum.is_ok());
    }
}
