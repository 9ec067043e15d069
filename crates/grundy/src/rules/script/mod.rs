//! Games written by users as [Rhai](https://rhai.rs) scripts.
//!
//! A script defines `options(p)`, returning the positions reachable from
//! position `p` in one move:
//!
//! ```text
//! // Remove one or two tokens, or remove two and split the rest in two.
//! fn options(n) { [n - 1, n - 2, split(n - 2, 2)] }
//! ```
//!
//! Positions are heaps (integers) or tuples (arrays of integers, such as
//! `[3, 4]` for two heaps played together). In the returned array:
//!
//! - an integer is a heap, and in a game of tuples an array of integers is
//!   a tuple;
//! - `sum(a, b, ...)` (or `sum([a, b, ...])`) is one move to several
//!   independent positions at once, whose value is the nim-sum of theirs;
//! - any other array is a list of options, flattened, so helpers can return
//!   lists: `split(m, k)` lists every way to write `m` as `k` non-empty
//!   heaps, each a `sum`;
//! - an option with a negative number in it is left out, so `n - 2` needs
//!   no guard at `n = 1`.
//!
//! Scripts run sandboxed (no files, no network) and within
//! [`ScriptLimits`]: operations per call (an endless loop stops there),
//! array and string sizes, the number of positions explored, and the wall
//! time of the whole run. Errors name the script and the line. What a
//! script prints (`print`, `debug`) never reaches the process's output,
//! which may be JSON or a server's: it is kept in a small log instead (see
//! [`ScriptGame::printed`]).
//!
//! Constants declared outside the functions (`const K = 3;`) are the
//! script's parameters: every function sees them, and
//! [`ScriptLimits::defines`] gives them other values (`--define K=5`; see
//! `parameters.rs`).
//!
//! This module describes a scripted game: its positions and their options.
//! Its values, sums and sweeps are solved in `solve/scripted.rs`.
//!
//! A sweep ([`ScriptGame::outcomes`]) runs the script on several threads
//! (every core by default, [`ScriptGame::with_threads`]): the calls of
//! `options` for different states are independent, so each thread asks the
//! script for its own batches of states, and the sweep takes the batches in
//! order. The answer, the error (the first in state order) and the printed
//! log are the same on any number of threads.

mod compiled;
mod parameters;

pub use parameters::{Defines, ScriptParameter};

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rhai::{
    AST, Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, OptimizationLevel, Scope,
};
use rustc_hash::FxHashMap;

use crate::{Cancel, Error, Options, Result, Ruleset};

/// Lists the states one move from a state (pushing them on the vector), as
/// a forward sweep asks for them: in increasing order.
pub type StateLister<'a> = dyn FnMut(u64, &mut Vec<u64>) -> Result<()> + 'a;

/// What a script may use, and the values given for its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Operations one call of `options` may take.
    pub operations: u64,
    /// Wall time for a whole run (compiling, exploring, solving).
    pub time: Duration,
    /// Positions a run may explore.
    pub positions: usize,
    /// Elements in one array, characters in one string.
    pub size: usize,
    /// Values for the script's constants in place of its own (its
    /// parameters, `--define B=9`); ignored by games that are not scripts,
    /// like the limits above.
    pub defines: Defines,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            operations: 1_000_000,
            time: Duration::from_secs(60),
            positions: 10_000_000,
            size: 1_000_000,
            defines: Defines::new(),
        }
    }
}

/// Rhai's parser compares a name with every function defined before it:
/// about this long per comparison (measured at about 0.7 ns; counted high,
/// so that a refusal errs toward scripts that would have run).
const COMPILE_NANOS_PER_LOOKUP: f64 = 1.5;

/// An upper bound on the work of compiling `source`: the words `fn` (at
/// least the functions it defines), the words (at least the names it
/// uses), and the time their product takes at
/// [`COMPILE_NANOS_PER_LOOKUP`]. Words in comments and strings count too,
/// so the bound errs high. One pass over the text.
pub fn compile_estimate(source: &str) -> (u64, u64, Duration) {
    let (mut functions, mut names) = (0u64, 0u64);
    let mut word = String::new();
    let mut end_word = |word: &mut String| {
        if !word.is_empty() {
            names += 1;
            functions += u64::from(word == "fn");
            word.clear();
        }
    };
    for c in source.chars() {
        if c == '_' || c.is_alphanumeric() && (c.is_alphabetic() || !word.is_empty()) {
            word.push(c);
        } else {
            end_word(&mut word);
        }
    }
    end_word(&mut word);
    let nanos = functions as f64 * names as f64 * COMPILE_NANOS_PER_LOOKUP;
    (
        functions,
        names,
        Duration::from_secs_f64((nanos / 1e9).min(1e12)),
    )
}

/// A position of a scripted game: a heap or a tuple. Ordered heaps by
/// size, then tuples lexicographically.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScriptPosition {
    /// A heap, passed to the script as an integer.
    Heap(u64),
    /// A tuple, passed to the script as an array of integers.
    Tuple(Vec<INT>),
}

impl fmt::Display for ScriptPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptPosition::Heap(n) => write!(f, "{n}"),
            ScriptPosition::Tuple(items) => {
                let items: Vec<String> = items.iter().map(ToString::to_string).collect();
                write!(f, "[{}]", items.join(", "))
            }
        }
    }
}

impl fmt::Debug for ScriptPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for ScriptPosition {
    type Err = Error;

    /// `7` is a heap; `[3,4]` (or `3,4`) a tuple.
    fn from_str(text: &str) -> Result<ScriptPosition> {
        let invalid = |reason: &str| Error::InvalidPosition {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let text = text.trim();
        let inner = text
            .strip_prefix('[')
            .map(|rest| {
                rest.strip_suffix(']')
                    .ok_or_else(|| invalid("no closing ']'"))
            })
            .transpose()?;
        if inner.is_none() && !text.contains(',') {
            let heap = text
                .parse::<u64>()
                .map_err(|_| invalid("a position is a heap such as 7 or a tuple such as [3,4]"))?;
            script_int(heap)?;
            return Ok(ScriptPosition::Heap(heap));
        }
        inner
            .unwrap_or(text)
            .split(',')
            .filter(|item| !item.trim().is_empty())
            .map(|item| {
                item.trim()
                    .parse::<INT>()
                    .ok()
                    .filter(|&v| v >= 0)
                    .ok_or_else(|| {
                        invalid(&format!("'{}' is not a non-negative integer", item.trim()))
                    })
            })
            .collect::<Result<Vec<INT>>>()
            .map(ScriptPosition::Tuple)
    }
}

/// One move to several independent positions, made by the script's
/// `sum(...)`. Rhai's size limits do not see into a custom type, so its
/// parts are shared (a copy in an array costs a pointer, not its parts) and
/// counted when it is made, against the size limit of the call (see
/// [`Made`]); its parts are positions, never other sums (nested sums
/// doubled in size with each `sum(s, s)`).
#[derive(Clone)]
struct Sum(Arc<Array>);

/// The heaps `sum` and `split` have made in the current call of
/// `options`, reset before each call: together at most the size limit.
#[derive(Debug, Default)]
struct Made(Cell<usize>);

impl Made {
    /// Counts `heaps` more, refusing past `size`.
    fn add(
        &self,
        heaps: usize,
        size: usize,
        what: impl FnOnce() -> String,
    ) -> std::result::Result<(), Box<EvalAltResult>> {
        let before = self.0.get();
        self.0.set(before.saturating_add(heaps));
        if before.saturating_add(heaps) > size {
            return Err(format!(
                "{} would make more than {size} heaps in one call of options (the size \
                 limit, ScriptLimits::size)",
                what()
            )
            .into());
        }
        Ok(())
    }
}

/// `sum(parts)`: a [`Sum`] of positions, counted against the call's size
/// limit.
fn make_sum(
    parts: Array,
    made: &Made,
    size: usize,
) -> std::result::Result<Sum, Box<EvalAltResult>> {
    if parts.iter().any(|part| part.is::<Sum>()) {
        return Err("the parts of a sum are positions, not sums".into());
    }
    made.add(parts.len(), size, || "sum".into())?;
    Ok(Sum(Arc::new(parts)))
}

/// A compiled script.
///
/// One engine serves every thread: what belongs to the call of `options`
/// running on a thread (its operation count, the heaps its helpers made,
/// what a sweep's driver handed back) is kept in that thread's
/// [`CallState`], so calls on several threads never mix.
pub struct ScriptGame {
    /// The script's name, with the defines given: `rules.rhai(B=9)`.
    name: String,
    engine: Engine,
    /// The script's functions, its constants written into them.
    ast: AST,
    /// The constants declared outside its functions.
    parameters: Vec<ScriptParameter>,
    /// When the current run must stop; checked as the script runs.
    deadline: Arc<Mutex<Option<Instant>>>,
    limits: ScriptLimits,
    /// What the script printed, bounded.
    log: Arc<Mutex<PrintLog>>,
    /// The script with the sweep's driver ([`SWEEP_DRIVER`]).
    sweep_ast: AST,
    /// Threads a sweep may use.
    threads: usize,
    /// The script translated for the fast path, when it uses only what
    /// [`compiled`] knows; `options` runs there first, and in Rhai when
    /// it is absent or gives up.
    compiled: Option<compiled::Compiled>,
}

/// What belongs to the call of `options` running on one thread.
struct CallState {
    /// The heaps made by `sum` and `split` in the current call.
    made: Made,
    /// The engine's operation count at its latest operation, as Rhai
    /// reports it to `on_progress`.
    latest: Cell<u64>,
    /// The count when the current call of `options` began: in a sweep's
    /// batch one engine call runs many calls of `options`, so each one's
    /// limit counts from its own start.
    start: Cell<u64>,
    /// What a sweep's driver hands back, one `options(n)` after another.
    swept: RefCell<Vec<Dynamic>>,
    /// While a sweep's batch runs on this thread, what it prints, kept
    /// apart so that the sweep can add the batches' lines to the log in
    /// the order of their states whatever thread ran them.
    printed: RefCell<Option<PrintLog>>,
}

thread_local! {
    static CALL: CallState = const {
        CallState {
            made: Made(Cell::new(0)),
            latest: Cell::new(0),
            start: Cell::new(0),
            swept: RefCell::new(Vec::new()),
            printed: RefCell::new(None),
        }
    };
}

/// The token that stops a call past its operations limit.
const TOO_MANY_OPERATIONS: &str = "the operations limit";

/// Appended to a script for [`ScriptGame::outcomes`]: calls `options` for a
/// batch of states in one engine call, so that Rhai's per-call state (its
/// function-resolution caches, rebuilt at every call) is made once a batch
/// rather than once a state. `__grundy_begin` restarts the operations and
/// size limits for each state, and `__grundy_emit` hands each list back.
const SWEEP_DRIVER: &str = "fn __grundy_sweep(from, to) { \
    for n in from..to { __grundy_begin(); __grundy_emit(options(n)); } }";

/// States a sweep asks the script for in one engine call.
const SWEEP_BATCH: u64 = 1024;

/// Batches a sweep's threads may have finished or started beyond the one
/// the sweep is at, per thread: enough that none waits for the sweep, few
/// enough that their options (a few dozen KiB a batch) stay small.
const BATCHES_AHEAD: u64 = 4;

/// The options of a batch of states `from..from + SWEEP_BATCH`, as far as
/// the script gave them: when `error` is set, `options` stops at the state
/// that failed.
#[derive(Default)]
struct Batch {
    from: u64,
    options: Vec<Vec<u64>>,
    error: Option<Error>,
    /// What the script printed for these states.
    printed: PrintLog,
}

/// The batches a parallel sweep's threads have claimed and finished, for
/// [`ScriptGame::outcomes`].
#[derive(Default)]
struct Ahead {
    /// The next batch no thread has claimed.
    claimed: AtomicU64,
    state: Mutex<AheadState>,
    /// Signalled when a batch is finished, taken, or the sweep stops.
    changed: Condvar,
}

#[derive(Default)]
struct AheadState {
    /// Finished batches the sweep has not taken, by number.
    done: BTreeMap<u64, Batch>,
    /// The batch the sweep takes next.
    taken: u64,
    /// Set when the sweep has ended: the threads stop claiming.
    stopped: bool,
}

impl Ahead {
    fn lock(&self) -> std::sync::MutexGuard<'_, AheadState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One thread's part of the sweep: claims batches in order and runs
    /// them, at most [`BATCHES_AHEAD`] batches a thread ahead of the sweep,
    /// until every batch is claimed or the sweep stops.
    fn work(&self, game: &ScriptGame, states: u64, threads: usize) {
        let window = BATCHES_AHEAD * threads as u64;
        loop {
            let k = self.claimed.fetch_add(1, Ordering::Relaxed);
            let from = k.saturating_mul(SWEEP_BATCH);
            if from >= states {
                return;
            }
            {
                let mut state = self.lock();
                while !state.stopped && k >= state.taken + window {
                    state = self
                        .changed
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                if state.stopped {
                    return;
                }
            }
            // Should the script's run panic, the sweep still gets an
            // answer for this batch instead of waiting for it.
            let mut unfinished = Unfinished {
                ahead: self,
                game,
                batch: Some(k),
            };
            let batch = game.batch_options(from, states.min(from + SWEEP_BATCH));
            unfinished.batch = None;
            self.lock().done.insert(k, batch);
            self.changed.notify_all();
        }
    }

    /// Waits for batch `k` (the one after the last taken) and takes it.
    fn take(&self, k: u64) -> Batch {
        let mut state = self.lock();
        loop {
            if let Some(batch) = state.done.remove(&k) {
                state.taken = k + 1;
                drop(state);
                self.changed.notify_all();
                return batch;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Ends the sweep: the threads stop at their next claim.
    fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }
}

/// A claimed batch whose thread is unwinding: dropped, it hands the sweep
/// an error for that batch.
struct Unfinished<'a> {
    ahead: &'a Ahead,
    game: &'a ScriptGame,
    batch: Option<u64>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if let Some(k) = self.batch {
            let batch = Batch {
                from: k.saturating_mul(SWEEP_BATCH),
                error: Some(self.game.error(format!(
                    "the thread running states {}.. of the sweep failed",
                    k.saturating_mul(SWEEP_BATCH)
                ))),
                ..Batch::default()
            };
            self.ahead.lock().done.insert(k, batch);
            self.ahead.changed.notify_all();
        }
    }
}

/// The most lines of a script's `print` and `debug` output kept.
pub const PRINTED_LINES: usize = 100;

/// The most characters kept of one printed line.
pub const PRINTED_LINE_CHARS: usize = 200;

/// The first [`PRINTED_LINES`] lines a script printed, each cut to
/// [`PRINTED_LINE_CHARS`] characters, and how many more were dropped.
#[derive(Debug, Default)]
struct PrintLog {
    lines: Vec<String>,
    dropped: u64,
}

impl PrintLog {
    fn record(&mut self, text: &str) {
        if self.lines.len() < PRINTED_LINES {
            self.lines
                .push(text.chars().take(PRINTED_LINE_CHARS).collect());
        } else {
            self.dropped = self.dropped.saturating_add(1);
        }
    }

    /// Adds what a later part of the run printed: the first lines of both
    /// are the first lines of the whole.
    fn append(&mut self, later: PrintLog) {
        for line in &later.lines {
            self.record(line);
        }
        self.dropped = self.dropped.saturating_add(later.dropped);
    }
}

/// Records a printed line: in the batch's own log while a sweep's batch
/// runs on this thread, else in the game's.
fn record_printed(log: &Mutex<PrintLog>, text: &str) {
    CALL.with(|call| match &mut *call.printed.borrow_mut() {
        Some(batch) => batch.record(text),
        None => log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(text),
    });
}

impl fmt::Debug for ScriptGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptGame")
            .field("name", &self.name)
            .finish()
    }
}

impl ScriptGame {
    /// Compiles `source`; `name` (the file, say) prefixes every error.
    ///
    /// ```
    /// use grundy::rules::{ScriptGame, ScriptLimits};
    /// use grundy::{HeapGame, TableSolver};
    /// // Take one, or take two and leave the rest whole or split in two:
    /// // the take-and-break game 0.37.
    /// let script = "fn options(n) { [n - 1, n - 2, split(n - 2, 2)] }";
    /// let game = ScriptGame::compile("game.rhai", script, ScriptLimits::default())?;
    /// let code: HeapGame = "0.37".parse()?;
    /// assert_eq!(game.heap_values(50)?, TableSolver::new().values(&code, 50)?);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    ///
    /// Rhai's parser looks through every function defined so far at each
    /// name a script uses, so compiling takes time proportional to their
    /// product: a script whose estimate (from a count of its words) passes
    /// the time limit is refused before it is parsed ([`compile_estimate`]).
    pub fn compile(name: &str, source: &str, limits: ScriptLimits) -> Result<ScriptGame> {
        let (functions, names, estimate) = compile_estimate(source);
        if estimate > limits.time {
            return Err(Error::Refused {
                reason: format!(
                    "{name}: compiling it would take about {:.0} s ({functions} functions, \
                     {names} names: Rhai's parser looks through the functions at each name), \
                     past the time limit of {} s",
                    // Rounded up: never "about 60 s, past 60 s".
                    estimate.as_secs_f64().ceil(),
                    limits.time.as_secs_f64()
                ),
                knob: crate::Knob::TimeLimit,
            });
        }
        let mut engine = Engine::new();
        // Optimized once the constants are known (see `parameters`), so
        // that constants computed from others follow their defines.
        engine.set_optimization_level(OptimizationLevel::None);
        // The operations limit is kept by `on_progress` below, per call of
        // `options` even within a sweep's batch.
        engine.set_max_call_levels(64);
        engine.set_max_expr_depths(64, 64);
        engine.set_max_array_size(limits.size);
        engine.set_max_string_size(limits.size);
        engine.set_max_map_size(limits.size);
        // Rhai's interner of strings made at run time throttles its cache on
        // every insertion (a tenth of a sweep of `to_string` and
        // `sub_string` calls); scripts gain nothing from sharing them.
        engine.set_max_strings_interned(0);
        let deadline: Arc<Mutex<Option<Instant>>> = Arc::default();
        let watched = Arc::clone(&deadline);
        let most = limits.operations;
        engine.on_progress(move |operations| {
            let used = CALL.with(|call| {
                call.latest.set(operations);
                operations.saturating_sub(call.start.get())
            });
            if most > 0 && used > most {
                return Some(Dynamic::from(TOO_MANY_OPERATIONS));
            }
            // The clocks are read at a call's first operation and every
            // 256th after it: reading them at every operation took a third
            // of a sweep's time.
            if operations != 1 && operations % 256 != 0 {
                return None;
            }
            // A Cancel token the run is under stops the script too.
            if crate::cancel::stopped() {
                return Some(Dynamic::from("cancelled"));
            }
            let deadline = *watched.lock().unwrap_or_else(PoisonError::into_inner);
            deadline
                .filter(|&d| Instant::now() >= d)
                .map(|_| Dynamic::from("the time limit"))
        });
        // `print` and `debug` would write to stdout and stderr, corrupting
        // JSON output and blocking a server: keep them in a bounded log.
        let log: Arc<Mutex<PrintLog>> = Arc::default();
        let printed = Arc::clone(&log);
        engine.on_print(move |text| record_printed(&printed, text));
        let debugged = Arc::clone(&log);
        engine.on_debug(move |text, _, _| record_printed(&debugged, text));
        // Curried arguments are copied into each function pointer, out of
        // sight of the size limits (`f = f.curry(f)` doubles `f`), and
        // `eval` could spell `curry` at run time.
        engine.disable_symbol("curry");
        engine.disable_symbol("eval");
        engine.register_type_with_name::<Sum>("Sum");
        // The helpers make heaps within this engine's size limit, counted
        // over the call.
        let size = limits.size;
        let sum = move |parts: Array| CALL.with(|call| make_sum(parts, &call.made, size));
        engine.register_fn("sum", sum);
        engine.register_fn("sum", move |a: Dynamic, b: Dynamic| sum(vec![a, b]));
        engine.register_fn("sum", move |a: Dynamic, b: Dynamic, c: Dynamic| {
            sum(vec![a, b, c])
        });
        engine.register_fn(
            "sum",
            move |a: Dynamic, b: Dynamic, c: Dynamic, d: Dynamic| sum(vec![a, b, c, d]),
        );
        engine.register_fn("split", move |n: INT, k: INT| {
            CALL.with(|call| split(n, k, size, &call.made))
        });
        engine.register_fn(
            "gcd",
            |a: INT, b: INT| -> std::result::Result<INT, Box<EvalAltResult>> {
                gcd(a, b).ok_or_else(|| {
                    format!("gcd({a}, {b}) is 2^63, past the largest integer").into()
                })
            },
        );
        // Rhai's own `sub_string(text, start, len)` lists every character
        // of the text at each call; this one means the same and cuts an
        // ASCII text by bytes (about a twentieth of the instructions of a
        // sweep of examples/digits.rhai). Registered on the engine, it is
        // found before the built-in.
        engine.register_fn("sub_string", sub_string);
        engine.register_fn("__grundy_begin", || {
            CALL.with(|call| {
                call.made.0.set(0);
                // A few operations early, so that the driver's own are
                // charged too: a batch is never laxer than one call per
                // state, and what it refuses is asked again one call at a
                // time.
                call.start.set(call.latest.get().saturating_sub(8));
            });
        });
        engine.register_fn("__grundy_emit", |listed: Dynamic| {
            CALL.with(|call| call.swept.borrow_mut().push(listed));
        });
        let parsed = engine.compile(source).map_err(|e| {
            // Disabled words read as syntax errors: say why.
            let disabled = ["curry", "eval"]
                .into_iter()
                .find(|word| source.contains(word))
                .map(|word| {
                    format!(
                        " (`{word}` is disabled in game scripts: its values escape the size limits)"
                    )
                })
                .unwrap_or_default();
            Error::Script {
                script: name.to_owned(),
                message: format!("syntax error: {e}{disabled}"),
            }
        })?;
        if !parsed
            .iter_functions()
            .any(|f| f.name == "options" && f.params.len() == 1)
        {
            return Err(Error::Script {
                script: name.to_owned(),
                message: "defines no function options(p) with one parameter".into(),
            });
        }
        let constants = parameters::evaluate(&engine, &parsed, name, source, &limits.defines)?;
        let ast = engine.optimize_ast(
            &constants.scope,
            parsed.clone_functions_only(),
            OptimizationLevel::Simple,
        );
        let driver = engine.compile(SWEEP_DRIVER).map_err(|e| Error::Script {
            script: name.to_owned(),
            message: format!("the sweep's driver does not compile: {e}"),
        })?;
        let sweep_ast = ast.merge(&driver);
        let compiled = compiled::Compiled::new(&ast);
        Ok(ScriptGame {
            name: if limits.defines.is_empty() {
                name.to_owned()
            } else {
                format!("{name}({})", limits.defines)
            },
            engine,
            ast,
            parameters: constants.parameters,
            deadline,
            limits,
            log,
            compiled,
            sweep_ast,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        })
    }

    /// How many threads [`ScriptGame::outcomes`] may use (default: every
    /// core of the machine; 1 keeps the sweep on the calling thread). The
    /// sweep's answer does not depend on it.
    pub fn with_threads(mut self, threads: usize) -> ScriptGame {
        self.threads = threads.max(1);
        self
    }

    /// Whether `options` runs on the compiled fast path (the private module
    /// `rules/script/compiled.rs`): true when every function of the script
    /// uses only integers, booleans, strings, arrays, `let`, assignment,
    /// `if`, loops, its own functions and the built-ins `to_string`, `len`,
    /// `sub_string`, `parse_int`, `abs`, `push`, `sum` and `split`. Answers
    /// are the same either way; a position the fast path cannot answer runs
    /// in Rhai.
    ///
    /// ```
    /// use grundy::rules::{ScriptGame, ScriptLimits};
    /// let digits = "fn options(n) { let t = n.to_string(); [parse_int(t.sub_string(1, 9))] }";
    /// let game = ScriptGame::compile("digits.rhai", digits, ScriptLimits::default())?;
    /// assert!(game.is_compiled());
    /// assert!(!game.interpreted_only().is_compiled());
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn is_compiled(&self) -> bool {
        self.compiled.is_some()
    }

    /// The same game with every call of `options` run by Rhai's
    /// interpreter, never the compiled fast path: for comparing the two.
    pub fn interpreted_only(mut self) -> ScriptGame {
        self.compiled = None;
        self
    }

    /// What the script has printed with `print` or `debug` so far, oldest
    /// first: at most [`PRINTED_LINES`] lines of at most
    /// [`PRINTED_LINE_CHARS`] characters, then one line counting the lines
    /// dropped. Nothing a script prints goes to stdout or stderr.
    ///
    /// ```
    /// use grundy::rules::{ScriptGame, ScriptLimits};
    /// let script = r#"fn options(n) { print(`heap ${n}`); [n - 1] }"#;
    /// let game = ScriptGame::compile("game.rhai", script, ScriptLimits::default())?;
    /// game.heap_values(1)?;
    /// assert_eq!(game.printed(), ["heap 0", "heap 1"]);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn printed(&self) -> Vec<String> {
        let log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let mut lines = log.lines.clone();
        if log.dropped > 0 {
            lines.push(format!("({} more lines not kept)", log.dropped));
        }
        lines
    }

    /// The script's name, as given to [`ScriptGame::compile`], with the
    /// values given for its parameters: `rules.rhai(B=9,K=3)`. Errors and
    /// reports name the game by it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The script's parameters: the constants it declares outside its
    /// functions, in order, with their values and documentation.
    ///
    /// ```
    /// use grundy::rules::{ScriptGame, ScriptLimits};
    /// let script = "// The most tokens a move takes.\nconst K = 3;\n\
    ///               fn options(n) { let out = []; for k in 1..=K { out.push(n - k); } out }";
    /// let limits = ScriptLimits { defines: "K=5".parse()?, ..ScriptLimits::default() };
    /// let game = ScriptGame::compile("take.rhai", script, limits)?;
    /// let k = &game.parameters()[0];
    /// assert_eq!((k.name.as_str(), k.default.as_str(), k.value.as_str()), ("K", "3", "5"));
    /// assert_eq!(k.doc, "The most tokens a move takes.");
    /// assert_eq!(game.name(), "take.rhai(K=5)");
    /// // Take 1 to 5: g(n) = n mod 6.
    /// assert_eq!(game.heap_values(7)?.at(7).get(), 1);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn parameters(&self) -> &[ScriptParameter] {
        &self.parameters
    }

    /// The heaps `0..=to`, refused when they are more positions than a run
    /// may explore.
    pub(crate) fn heaps_to(&self, to: u64) -> Result<Vec<ScriptPosition>> {
        let limit = self.limits.positions;
        let count = to
            .checked_add(1)
            .filter(|&count| count <= limit as u64)
            .ok_or_else(|| {
                self.error(format!(
                    "heaps 0..={to} are more than the {limit} positions a run may explore \
                     (the limit, ScriptLimits::positions)"
                ))
            })?;
        Ok((0..count).map(ScriptPosition::Heap).collect())
    }

    /// Explores every position reachable from `starts`, calling the script
    /// once for each.
    pub fn explore(&self, starts: &[ScriptPosition]) -> Result<ExploredGame> {
        *self.deadline.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Instant::now() + self.limits.time);
        let tuples = matches!(starts.first(), Some(ScriptPosition::Tuple(_)));
        if starts
            .iter()
            .any(|p| matches!(p, ScriptPosition::Tuple(_)) != tuples)
        {
            return Err(self.error("give heaps or tuples, not both".into()));
        }
        let mut explored = ExploredGame {
            ranges: FxHashMap::default(),
            options: Options::new(),
        };
        self.grow(&mut explored, starts, tuples)?;
        Ok(explored)
    }

    /// Adds to `explored` every position reachable from `starts` that it
    /// lacks.
    pub(crate) fn grow(
        &self,
        explored: &mut ExploredGame,
        starts: &[ScriptPosition],
        tuples: bool,
    ) -> Result<()> {
        let mut queue: Vec<ScriptPosition> = Vec::new();
        for start in starts {
            if !explored.ranges.contains_key(start) {
                explored.ranges.insert(start.clone(), (0, 0));
                queue.push(start.clone());
            }
        }
        let mut scope = Scope::new();
        let mut found = Vec::new();
        let mut next = 0;
        while next < queue.len() {
            let position = queue[next].clone();
            next += 1;
            found.clear();
            self.call_options(&mut scope, &position, tuples, &mut found)?;
            let first = explored.options.len();
            for option in &found {
                let Some(parts) = option else { continue };
                for part in parts {
                    if !explored.ranges.contains_key(part) {
                        if explored.ranges.len() >= self.limits.positions {
                            return Err(self.error(format!(
                                "explored more than {} positions (the limit)",
                                self.limits.positions
                            )));
                        }
                        explored.ranges.insert(part.clone(), (0, 0));
                        queue.push(part.clone());
                    }
                }
                explored.options.push(parts.iter().cloned());
            }
            explored
                .ranges
                .insert(position, (first, explored.options.len()));
        }
        Ok(())
    }

    /// `options(position)` on the compiled fast path, when the script has
    /// one and it answers.
    fn fast_options(&self, position: &ScriptPosition) -> Option<compiled::Listed> {
        let compiled = self.compiled.as_ref()?;
        let deadline = *self.deadline.lock().unwrap_or_else(PoisonError::into_inner);
        compiled.options(position, &self.limits, deadline)
    }

    /// Calls the script's `options` for `position` and appends what it lists
    /// to `found` (see [`ScriptGame::collect`]).
    fn call_options(
        &self,
        scope: &mut Scope,
        position: &ScriptPosition,
        tuples: bool,
        found: &mut Vec<Option<Vec<ScriptPosition>>>,
    ) -> Result<()> {
        match self.fast_options(position) {
            Some(listed) => self.collect_listed(listed, position, tuples, found),
            None => self.call_rhai(scope, position, tuples, found),
        }
    }

    /// What the fast path listed, read as Rhai's value (with Rhai's
    /// errors).
    fn collect_listed(
        &self,
        listed: compiled::Listed,
        position: &ScriptPosition,
        tuples: bool,
        found: &mut Vec<Option<Vec<ScriptPosition>>>,
    ) -> Result<()> {
        self.collect(listed.into_dynamic(), tuples, found)
            .map_err(|reason| self.error(format!("options({position}): {reason}")))
    }

    /// [`ScriptGame::call_options`] in Rhai's interpreter.
    fn call_rhai(
        &self,
        scope: &mut Scope,
        position: &ScriptPosition,
        tuples: bool,
        found: &mut Vec<Option<Vec<ScriptPosition>>>,
    ) -> Result<()> {
        let argument = match position {
            ScriptPosition::Heap(n) => Dynamic::from_int(script_int(*n)?),
            ScriptPosition::Tuple(items) => {
                Dynamic::from_array(items.iter().map(|&v| Dynamic::from_int(v)).collect())
            }
        };
        CALL.with(|call| {
            call.made.0.set(0);
            call.start.set(0);
        });
        let returned: Dynamic = self
            .engine
            .call_fn(scope, &self.ast, "options", (argument,))
            .map_err(|e| self.runtime_error(position, &e))?;
        self.collect(returned, tuples, found)
            .map_err(|reason| self.error(format!("options({position}): {reason}")))
    }

    /// The options of state `s` of a game swept by [`ScriptGame::outcomes`]:
    /// single states (options with a negative number left out).
    pub fn state_options(&self, s: u64) -> Result<Vec<u64>> {
        let position = ScriptPosition::Heap(s);
        let mut found = Vec::new();
        match self.fast_options(&position) {
            Some(listed) => {
                let mut states = Vec::new();
                if listed.states(&mut states) {
                    return Ok(states);
                }
                self.collect_listed(listed, &position, false, &mut found)?;
            }
            None => self.call_rhai(&mut Scope::new(), &position, false, &mut found)?,
        }
        self.single_states(s, &found)
    }

    /// The states of `found`, the options of state `s`: each a single
    /// state.
    fn single_states(&self, s: u64, found: &[Option<Vec<ScriptPosition>>]) -> Result<Vec<u64>> {
        found
            .iter()
            .flatten()
            .map(|option| match option[..] {
                [ScriptPosition::Heap(o)] => Ok(o),
                _ => Err(self.error(format!(
                    "options({s}): a sweep takes single states, not sums"
                ))),
            })
            .collect()
    }

    /// The options of states `from..to`, as [`ScriptGame::state_options`]
    /// gives them, from one engine call ([`SWEEP_DRIVER`]). When the batch
    /// fails in any way its states are asked again one call each, so that
    /// the error is the one that call gives, naming its state: the batch
    /// then holds the options of the states before it, and the error.
    /// What the script prints is kept with the batch (see [`Batch`]).
    fn batch_options(&self, from: u64, to: u64) -> Batch {
        let previous = CALL.with(|call| call.printed.replace(Some(PrintLog::default())));
        let (options, error) = self.batch_of_states(from, to);
        let printed = CALL
            .with(|call| call.printed.replace(previous))
            .unwrap_or_default();
        Batch {
            from,
            options,
            error,
            printed,
        }
    }

    /// The options of `from..to`, and the error of the first state that
    /// has none, for [`ScriptGame::batch_options`].
    fn batch_of_states(&self, from: u64, to: u64) -> (Vec<Vec<u64>>, Option<Error>) {
        let one_by_one = || {
            // What the failed batch printed is dropped: its states print
            // again now, up to the one that fails.
            CALL.with(|call| *call.printed.borrow_mut() = Some(PrintLog::default()));
            let mut options = Vec::new();
            for s in from..to {
                match self.state_options(s) {
                    Ok(listed) => options.push(listed),
                    Err(error) => return (options, Some(error)),
                }
            }
            (options, None)
        };
        // The compiled form answers one state at a time, each in Rhai when
        // it gives up: Rhai's batches would only be slower.
        if self.compiled.is_some() {
            return one_by_one();
        }
        let (Ok(first), Ok(end)) = (script_int(from), script_int(to)) else {
            return one_by_one();
        };
        CALL.with(|call| call.swept.borrow_mut().clear());
        let ran = self.engine.call_fn::<Dynamic>(
            &mut Scope::new(),
            &self.sweep_ast,
            "__grundy_sweep",
            (first, end),
        );
        let listed = CALL.with(|call| std::mem::take(&mut *call.swept.borrow_mut()));
        if ran.is_err() || listed.len() as u64 != to - from {
            return one_by_one();
        }
        let mut found = Vec::new();
        let mut batch = Vec::with_capacity(listed.len());
        for (s, value) in (from..to).zip(listed) {
            found.clear();
            let states = self
                .collect(value, false, &mut found)
                .ok()
                .and_then(|()| self.single_states(s, &found).ok());
            match states {
                Some(states) => batch.push(states),
                None => return one_by_one(),
            }
        }
        (batch, None)
    }

    /// Starts a run: the time limit counts from now. [`ScriptGame::explore`]
    /// and [`ScriptGame::outcomes`] start their own; callers of
    /// [`ScriptGame::heap_options`] start one per question.
    pub fn begin_run(&self) {
        *self.deadline.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Instant::now() + self.limits.time);
    }

    /// Pushes the options of heap `n` onto `out`, each a sum of heaps
    /// (options with a negative number left out), for scripts whose
    /// positions are heaps.
    pub fn heap_options(&self, n: usize, out: &mut Options<usize>) -> Result<()> {
        let mut found = Vec::new();
        let position = ScriptPosition::Heap(n as u64);
        match self.fast_options(&position) {
            Some(listed) if listed.heaps(out) => return Ok(()),
            Some(listed) => self.collect_listed(listed, &position, false, &mut found)?,
            None => self.call_rhai(&mut Scope::new(), &position, false, &mut found)?,
        }
        for parts in found.iter().flatten() {
            let heaps = parts
                .iter()
                .map(|part| match part {
                    ScriptPosition::Heap(h) => usize::try_from(*h)
                        .map_err(|_| self.error(format!("options({n}): heap {h} is too large"))),
                    ScriptPosition::Tuple(_) => Err(self.error(format!(
                        "options({n}): a heap game's options are heaps, not tuples"
                    ))),
                })
                .collect::<Result<Vec<usize>>>()?;
            out.push(heaps);
        }
        Ok(())
    }

    /// Runs `sweep` with the options of the states `0..states`, listed by
    /// the script (`options(s)`: single states), for a sweep that asks
    /// for them in increasing order (the solver's forward sweep).
    ///
    /// The script is asked for batches of [`SWEEP_BATCH`] states, on as
    /// many threads as [`ScriptGame::with_threads`] allows: each thread
    /// claims the next batch, a few batches ahead of the sweep at most,
    /// and the sweep takes them in order. The answer, the error (that of
    /// the first state in order that has one, as on one thread) and the
    /// printed log do not depend on the number of threads; each call of
    /// `options` keeps its operations limit, and the time limit and the
    /// [`Cancel`] token the caller runs under stop every thread.
    pub fn list_states<T>(
        &self,
        states: u64,
        sweep: &mut dyn FnMut(&mut StateLister<'_>) -> T,
    ) -> T {
        *self.deadline.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Instant::now() + self.limits.time);
        let batches = states.div_ceil(SWEEP_BATCH);
        let threads = self
            .threads
            .min(usize::try_from(batches).unwrap_or(usize::MAX));
        if threads <= 1 {
            return self.sweep_batches(sweep, &mut |k| {
                let from = k * SWEEP_BATCH;
                self.batch_options(from, states.min(from + SWEEP_BATCH))
            });
        }
        // The helpers run under a token of their own, a child of the
        // caller's: cancelling it stops them when the sweep ends early.
        let helpers = match Cancel::current() {
            Some(token) => token.child(),
            None => Cancel::new(),
        };
        let ahead = Ahead::default();
        std::thread::scope(|scope| {
            let started = (0..threads)
                .filter(|_| {
                    std::thread::Builder::new()
                        .name("grundy-sweep".into())
                        .spawn_scoped(scope, || {
                            helpers.run(|| ahead.work(self, states, threads));
                        })
                        .is_ok()
                })
                .count();
            let found = if started == 0 {
                // No thread could be started: the sweep runs here.
                ahead.stop();
                self.sweep_batches(sweep, &mut |k| {
                    let from = k * SWEEP_BATCH;
                    self.batch_options(from, states.min(from + SWEEP_BATCH))
                })
            } else {
                self.sweep_batches(sweep, &mut |k| ahead.take(k))
            };
            helpers.cancel();
            ahead.stop();
            found
        })
    }

    /// Runs `sweep` over the batches `next(0)`, `next(1)`, ..., each asked
    /// for when the sweep reaches its first state; the log gets what each
    /// printed as it is taken.
    fn sweep_batches<T>(
        &self,
        sweep: &mut dyn FnMut(&mut StateLister<'_>) -> T,
        next: &mut dyn FnMut(u64) -> Batch,
    ) -> T {
        let mut batch = Batch::default();
        let mut at = None;
        let mut listed = |s: u64, out: &mut Vec<u64>| {
            if at != Some(s / SWEEP_BATCH) {
                at = Some(s / SWEEP_BATCH);
                batch = next(s / SWEEP_BATCH);
                self.log
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .append(std::mem::take(&mut batch.printed));
            }
            match batch.options.get((s - batch.from) as usize) {
                Some(options) => {
                    out.extend(options);
                    Ok(())
                }
                None => Err(batch.error.take().unwrap_or_else(|| {
                    self.error(format!("options({s}): the sweep lost this state's batch"))
                })),
            }
        };
        sweep(&mut listed)
    }

    /// Appends the options in `value` to `out`: `Some(parts)` for each, or
    /// `None` for one left out (a negative number in it).
    fn collect(
        &self,
        value: Dynamic,
        tuples: bool,
        out: &mut Vec<Option<Vec<ScriptPosition>>>,
    ) -> std::result::Result<(), String> {
        if value.is::<Sum>() {
            let Sum(parts) = value.cast::<Sum>();
            let mut positions = Vec::with_capacity(parts.len());
            for part in parts.iter().cloned() {
                match position_of(part, tuples)? {
                    Some(p) => positions.push(p),
                    None => {
                        out.push(None);
                        return Ok(());
                    }
                }
            }
            out.push(Some(positions));
            return Ok(());
        }
        if value.is_array() && !(tuples && is_tuple(&value)) {
            for item in value.cast::<Array>() {
                self.collect(item, tuples, out)?;
            }
            return Ok(());
        }
        out.push(position_of(value, tuples)?.map(|p| vec![p]));
        Ok(())
    }

    pub(crate) fn error(&self, message: String) -> Error {
        Error::Script {
            script: self.name.clone(),
            message,
        }
    }

    fn runtime_error(&self, position: &ScriptPosition, error: &EvalAltResult) -> Error {
        if matches!(error, EvalAltResult::ErrorTerminated(..))
            && let Err(stopped) = crate::cancel::check()
        {
            return stopped;
        }
        let at = |position: rhai::Position| {
            if position.is_none() {
                String::new()
            } else {
                format!(" ({position})")
            }
        };
        let message = match error {
            EvalAltResult::ErrorTerminated(token, place)
                if token.to_string() == TOO_MANY_OPERATIONS =>
            {
                format!(
                    "options({position}) stopped after {} operations, the limit{}",
                    self.limits.operations,
                    at(*place)
                )
            }
            EvalAltResult::ErrorTerminated(_, place) => format!(
                "stopped at the time limit of {} s, in options({position}){}",
                self.limits.time.as_secs_f64(),
                at(*place)
            ),
            other => format!("in options({position}): {other}"),
        };
        self.error(message)
    }
}

/// `gcd(a, b)`, a built-in of scripts: the greatest common divisor of
/// `|a|` and `|b|` (`gcd(0, 0) = 0`), by Stein's binary method; `None` when
/// it is 2^63, which no integer of a script holds (`gcd(-2^63, 0)`).
/// Registered on the engine and used by the compiled form ([`compiled`]).
fn gcd(a: INT, b: INT) -> Option<INT> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if a == 0 || b == 0 {
        return INT::try_from(a | b).ok();
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return INT::try_from(a << shift).ok();
        }
    }
}

/// Heap `n` as a script's integer: heaps past [`INT::MAX`] (2^63 - 1) would
/// wrap to negative numbers, so they are refused.
fn script_int(n: u64) -> Result<INT> {
    INT::try_from(n).map_err(|_| Error::InvalidPosition {
        text: n.to_string(),
        reason: format!("a script's heaps are at most {} (2^63 - 1)", INT::MAX),
    })
}

/// Whether `value` is a non-empty array of integers only (a tuple; an
/// empty array is an empty list of options).
fn is_tuple(value: &Dynamic) -> bool {
    value
        .read_lock::<Array>()
        .is_some_and(|items| !items.is_empty() && items.iter().all(Dynamic::is_int))
}

/// The position `value` names: `None` when it has a negative number.
fn position_of(
    value: Dynamic,
    tuples: bool,
) -> std::result::Result<Option<ScriptPosition>, String> {
    let kind = value.type_name();
    if tuples {
        if !is_tuple(&value) {
            return Err(format!(
                "expected a tuple (an array of integers), found {kind}"
            ));
        }
        let items: Vec<INT> = value
            .cast::<Array>()
            .into_iter()
            .map(|v| v.as_int().unwrap_or(-1))
            .collect();
        return Ok(items
            .iter()
            .all(|&v| v >= 0)
            .then_some(ScriptPosition::Tuple(items)));
    }
    match value.as_int() {
        Ok(n) => Ok(u64::try_from(n).ok().map(ScriptPosition::Heap)),
        Err(_) => Err(format!(
            "expected a heap (an integer), sum(...) or an array of options, found {kind}"
        )),
    }
}

/// Rhai's `text.sub_string(start, len)`: the `len` characters of `text`
/// from `start` (counted from the end when negative), or as many as there
/// are; an empty string when `len <= 0` or `start` is past the end. An
/// ASCII text is cut by bytes, which are its characters. Registered on the
/// engine and used by the compiled form ([`compiled`]).
fn cut_text(text: &str, start: INT, len: INT) -> Cow<'_, str> {
    if text.is_ascii() {
        let (from, to) = sub_range(text.len(), start, len);
        return Cow::Borrowed(&text[from..to]);
    }
    let chars: Vec<char> = text.chars().collect();
    let (from, to) = sub_range(chars.len(), start, len);
    Cow::Owned(chars[from..to].iter().collect())
}

/// [`cut_text`] as a Rhai string, for the engine.
fn sub_string(text: &str, start: INT, len: INT) -> ImmutableString {
    match cut_text(text, start, len) {
        Cow::Borrowed(part) => part.into(),
        Cow::Owned(part) => part.into(),
    }
}

/// The characters `from..to` that `sub_string(start, len)` keeps of a text
/// of `count` characters.
fn sub_range(count: usize, start: INT, len: INT) -> (usize, usize) {
    if count == 0 || len <= 0 {
        return (0, 0);
    }
    let from = if start < 0 {
        let Ok(back) = usize::try_from(start.unsigned_abs()) else {
            return (0, 0);
        };
        count.saturating_sub(back)
    } else {
        match usize::try_from(start) {
            Ok(start) if start < count => start,
            _ => return (0, 0),
        }
    };
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    (from, from.saturating_add(len).min(count))
}

/// `split(m, k)`: every way to write `m` as `k` non-empty heaps, in
/// non-decreasing order, each a `sum`; none when `m < k` or `k < 1`.
///
/// The ways are counted first, cheaply and without overflow, and the call
/// fails when listing them would hold more than `size` heaps in all
/// (`ScriptLimits::size`): `split(300, 20)` has about 3.4·10^13 ways, and
/// `split(2^63 - 1, 2)` about 4.6·10^18, which no memory holds. The listing
/// is iterative, so `k` in the millions needs no deep recursion.
fn split(
    m: INT,
    k: INT,
    size: usize,
    made: &Made,
) -> std::result::Result<Array, Box<EvalAltResult>> {
    if k < 1 || m < k {
        return Ok(Array::new());
    }
    let too_many = || -> Box<EvalAltResult> {
        format!(
            "split({m}, {k}) would list more than {size} heaps in all (the size limit, \
             ScriptLimits::size)"
        )
        .into()
    };
    // Each way has k heaps: at most `size / k` ways fit.
    let cap = u64::try_from(size).unwrap_or(u64::MAX) / k as u64;
    let count = split_count(m as u64, k as u64, cap).ok_or_else(too_many)?;
    let parts = k as usize; // k <= size, since cap >= count >= 1
    made.add(count as usize * parts, size, || format!("split({m}, {k})"))?;
    let mut all = Array::with_capacity(count as usize);
    // The first way in lexicographic order: 1, 1, ..., 1, m - (k - 1).
    let mut way: Vec<INT> = vec![1; parts];
    way[parts - 1] = m - (k - 1);
    loop {
        all.push(Dynamic::from(Sum(Arc::new(
            way.iter().map(|&p| Dynamic::from_int(p)).collect(),
        ))));
        // The next way: raise the rightmost heap `i` (not the last) that
        // can grow by one with every heap after it at least as large; the
        // heaps after it become that size, the last taking the rest.
        let mut tail = i128::from(way[parts - 1]);
        let mut next = None;
        for i in (0..parts - 1).rev() {
            tail += i128::from(way[i]);
            let raised = i128::from(way[i]) + 1;
            if raised * (parts - i) as i128 <= tail {
                next = Some((i, raised, tail));
                break;
            }
        }
        let Some((i, raised, tail)) = next else { break };
        // raised <= tail <= m, so every heap fits in an INT.
        let rest = tail - raised * (parts - i - 1) as i128;
        way[i..parts - 1].fill(raised as INT);
        way[parts - 1] = rest as INT;
    }
    debug_assert_eq!(all.len() as u64, count);
    Ok(all)
}

/// How many ways `m` (at least `k >= 1`) is a sum of `k` non-empty heaps,
/// or `None` when that is more than `cap`, found without counting far past
/// `cap`: the ways are the partitions of `n = m - k` into at most `k` parts,
/// of which there are at least `n / 2 + 1` (two parts or fewer) and at least
/// `round((n + 3)^2 / 12)` (three or fewer), so a count that fits bounds `n`
/// before any table is made.
fn split_count(m: u64, k: u64, cap: u64) -> Option<u64> {
    let n = m - k;
    if k == 1 {
        return (cap >= 1).then_some(1);
    }
    let at_most_two = n / 2 + 1;
    if at_most_two > cap {
        return None;
    }
    if k == 2 {
        return Some(at_most_two);
    }
    let shifted = u128::from(n) + 3;
    if (shifted * shifted + 6) / 12 > u128::from(cap) {
        return None;
    }
    // Now n is below sqrt(12 * cap): count partitions of n with parts of at
    // most k (the conjugates of those with at most k parts), saturating.
    let n = n as usize;
    let largest = usize::try_from(k).unwrap_or(usize::MAX).min(n);
    // (With a size limit near 2^64 the table could be too large to have:
    // then the listing, larger still, is refused too.)
    let mut ways: Vec<u64> = Vec::new();
    ways.try_reserve_exact(n + 1).ok()?;
    ways.resize(n + 1, 0);
    ways[0] = 1;
    for part in 1..=largest {
        for total in part..=n {
            ways[total] = ways[total].saturating_add(ways[total - part]);
        }
    }
    (ways[n] <= cap).then_some(ways[n])
}

/// The positions a script reached and their options, as a [`Ruleset`] any
/// solver can use.
#[derive(Debug)]
pub struct ExploredGame {
    /// Where each position's options lie in `options`.
    pub(crate) ranges: FxHashMap<ScriptPosition, (usize, usize)>,
    pub(crate) options: Options<ScriptPosition>,
}

impl ExploredGame {
    /// How many positions were explored.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether nothing was explored.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Every position explored, in increasing order.
    pub fn positions(&self) -> Vec<ScriptPosition> {
        let mut positions: Vec<ScriptPosition> = self.ranges.keys().cloned().collect();
        positions.sort_unstable();
        positions
    }
}

impl Ruleset for ExploredGame {
    type Position = ScriptPosition;

    fn options(&self, position: &ScriptPosition, out: &mut Options<ScriptPosition>) {
        if let Some(&(first, end)) = self.ranges.get(position) {
            for i in first..end {
                out.push(self.options.get(i).iter().cloned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way to write `m` as `k` non-empty non-decreasing heaps, by
    /// plain recursion: the reference the listing is checked against.
    fn reference(m: INT, k: INT, least: INT) -> Vec<Vec<INT>> {
        if k == 0 {
            return if m == 0 { vec![Vec::new()] } else { Vec::new() };
        }
        let mut all = Vec::new();
        for a in least.max(1)..=m {
            for mut rest in reference(m - a, k - 1, a) {
                rest.insert(0, a);
                all.push(rest);
            }
        }
        all
    }

    fn listed(m: INT, k: INT, size: usize) -> Option<Vec<Vec<INT>>> {
        let all = split(m, k, size, &Made::default()).ok()?;
        Some(
            all.into_iter()
                .map(|way| {
                    let Sum(parts) = way.cast::<Sum>();
                    parts.iter().map(|p| p.as_int().unwrap()).collect()
                })
                .collect(),
        )
    }

    /// The registered `sub_string` means what Rhai's built-in means, on
    /// ASCII and other texts, for starts and lengths in and out of range.
    #[test]
    fn sub_string_matches_rhai_builtin() {
        let builtin = Engine::new();
        let cut = builtin
            .compile("fn cut(t, s, l) { t.sub_string(s, l) }")
            .unwrap();
        let texts = [
            "",
            "7",
            "262143",
            "hello, world!",
            "héllo✓ wörld",
            "a\u{1F600}b",
        ];
        let mut numbers: Vec<INT> = (-16..=16).collect();
        numbers.extend([
            INT::MIN,
            INT::MIN + 1,
            -1_000_000,
            1_000_000,
            INT::MAX - 1,
            INT::MAX,
        ]);
        for text in texts {
            for &start in &numbers {
                for &len in &numbers {
                    let want: String = builtin
                        .call_fn(
                            &mut Scope::new(),
                            &cut,
                            "cut",
                            (text.to_owned(), start, len),
                        )
                        .unwrap();
                    assert_eq!(
                        sub_string(text, start, len).as_str(),
                        want,
                        "{text:?}.sub_string({start}, {len})"
                    );
                }
            }
        }
        // A script's engine calls this one: heap 1 has an option only when
        // the cut is right.
        let game = ScriptGame::compile(
            "game.rhai",
            r#"fn options(n) { if "héllo".sub_string(-4, 2) == "él" { [n - 1] } else { [] } }"#,
            ScriptLimits::default(),
        )
        .unwrap();
        assert_eq!(game.heap_values(1).unwrap().at(1).get(), 1);
    }

    /// Issue 16, case 7: values the size limits did not see. Each of these
    /// aborted on memory within a few dozen operations.
    #[test]
    fn curried_pointers_and_sums_stay_within_the_size_limit() {
        let run = |source: &str| {
            ScriptGame::compile("game.rhai", source, ScriptLimits::default())
                .and_then(|game| game.heap_values(3))
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        // f = f.curry(f) doubles f.
        let curried = run(
            "fn g() { 0 } fn options(n) { let f = Fn(\"g\"); for i in 0..40 { f = f.curry(f); } [] }",
        );
        assert!(curried.contains("curry"), "{curried}");
        let evaluated = run("fn options(n) { eval(\"[]\") }");
        assert!(evaluated.contains("eval"), "{evaluated}");
        // s = sum(s, s) doubles s.
        let nested =
            run("fn options(n) { let s = sum(1, 2); for i in 0..40 { s = sum(s, s); } [s] }");
        assert!(nested.contains("not sums"), "{nested}");
        // Copies of a sum in an array, each counted as one element.
        let copies = run(
            "fn options(n) { let big = []; for i in 0..1000 { big.push(1); } \
             let all = []; for i in 0..2000 { all.push(sum(big)); } all }",
        );
        assert!(
            copies.contains("more than 1000000 heaps in one call"),
            "{copies}"
        );
        // Within the limit, sums still work, call after call.
        let game = ScriptGame::compile(
            "game.rhai",
            "fn options(n) { let all = []; for i in 1..n { all.push(sum(i, n - i)); } all }",
            ScriptLimits::default(),
        )
        .unwrap();
        assert!(game.heap_values(50).is_ok());
    }

    #[test]
    fn gcd_is_euclids_on_every_sign_and_edge() {
        let euclid = |a: INT, b: INT| {
            let (mut a, mut b) = (i128::from(a).abs(), i128::from(b).abs());
            while b != 0 {
                (a, b) = (b, a % b);
            }
            INT::try_from(a).ok()
        };
        let mut values: Vec<INT> = (-40..=40).collect();
        values.extend([
            INT::MIN,
            INT::MIN + 1,
            INT::MAX,
            1 << 62,
            -(1 << 62),
            3 << 40,
        ]);
        for &a in &values {
            for &b in &values {
                assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            }
        }
        // As a script's built-in, in Rhai (the fast path gives up on it).
        let game = ScriptGame::compile(
            "gcd.rhai",
            "fn options(n) { [gcd(-9223372036854775807 - 1, 0)] }",
            ScriptLimits::default(),
        )
        .unwrap();
        let error = game.heap_values(1).unwrap_err().to_string();
        assert!(error.contains("2^63, past the largest integer"), "{error}");
    }

    #[test]
    fn split_lists_every_way_in_order_and_counts_them_first() {
        for m in -2..=16 {
            for k in -1..=8 {
                let want = if k < 1 {
                    Vec::new()
                } else {
                    reference(m, k, 1)
                };
                assert_eq!(listed(m, k, 1 << 20), Some(want.clone()), "split({m}, {k})");
                if k >= 1 && m >= k {
                    let count = split_count(m as u64, k as u64, u64::MAX);
                    assert_eq!(count, Some(want.len() as u64), "count of split({m}, {k})");
                }
                // A size limit one heap short of the listing refuses it.
                let heaps = want.len() * k.max(0) as usize;
                if heaps > 0 {
                    assert_eq!(listed(m, k, heaps).map(|w| w.len()), Some(want.len()));
                    assert_eq!(
                        listed(m, k, heaps - 1),
                        None,
                        "split({m}, {k}) in {}",
                        heaps - 1
                    );
                }
            }
        }
    }

    #[test]
    fn split_of_huge_or_negative_arguments_neither_overflows_nor_allocates() {
        let size = ScriptLimits::default().size;
        for (m, k) in [
            (300, 20),
            (INT::MAX, 2),
            (INT::MAX, 3),
            (INT::MAX, INT::MAX),
            (INT::MAX, INT::MAX - 1),
        ] {
            assert!(
                split(m, k, size, &Made::default()).is_err(),
                "split({m}, {k})"
            );
        }
        for (m, k) in [
            (INT::MIN, 2),
            (5, INT::MIN),
            (INT::MIN, INT::MIN),
            (-1, -1),
            (3, 4),
            (0, 0),
        ] {
            assert_eq!(
                split(m, k, size, &Made::default()).unwrap().len(),
                0,
                "split({m}, {k})"
            );
        }
        // One way of many heaps: listed without deep recursion.
        assert_eq!(listed(1_000_000, 999_999, 1_000_000).unwrap().len(), 1);
        assert!(split(1_000_000, 999_999, 999_998, &Made::default()).is_err());
        // Near the limit: 2 * 500_000 heaps fit exactly.
        assert_eq!(listed(1_000_001, 2, size).unwrap().len(), 500_000);
        assert!(split(1_000_003, 2, size, &Made::default()).is_err());
    }
}
