//! Heap games as the engine sees them: anything the library's front door
//! accepts ([`HeapRules`]: built-in games and scripts), or a Python
//! callable `options(n)` that the engine's solvers call back.

use std::ops::ControlFlow;
use std::sync::Mutex;

use grundy::session::HeapRules;
use grundy::{HeapGame, HeapRuleset, MexScratch, Nimber, Options, Ruleset, TakeBreak};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The rules behind a `grundy.Game`.
pub enum Rules {
    /// Anything `grundy games` lists as a heap game, or a script.
    Builtin(HeapRules),
    /// A Python callable listing the options of a heap.
    Python(PythonRules),
}

/// A heap game whose options come from a Python callable `options(n)`: an
/// iterable whose items are heaps (`int`) or sums of heaps (a tuple or list
/// of `int`, which is how a move that splits a heap is written).
///
/// The engine's solvers cannot see Python errors, so the first one raised
/// is kept here and every later call lists nothing; the binding raises the
/// kept error itself once the solver returns.
pub struct PythonRules {
    options: Py<PyAny>,
    name: String,
    failure: Mutex<Option<PyErr>>,
}

impl PythonRules {
    pub fn new(options: Py<PyAny>, name: String) -> PythonRules {
        PythonRules {
            options,
            name,
            failure: Mutex::new(None),
        }
    }

    /// The error a callback raised, if one did; clears it, so the game can
    /// be used again.
    pub fn take_failure(&self) -> Option<PyErr> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    fn failed(&self) -> bool {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Calls `options(n)` and pushes what it lists onto `out`.
    fn list(&self, n: usize, out: &mut Options<usize>) -> PyResult<()> {
        Python::attach(|py| {
            let listed = self.options.bind(py).call1((n,))?;
            for item in listed.try_iter()? {
                let item = item?;
                if let Ok(heap) = item.extract::<usize>() {
                    out.push([heap]);
                } else if let Ok(heaps) = item.extract::<Vec<usize>>() {
                    out.push(heaps);
                } else {
                    return Err(PyTypeError::new_err(format!(
                        "options({n}) listed {}: an option is a heap (an int >= 0) or a \
                         tuple of heaps",
                        item.repr()?
                    )));
                }
            }
            Ok(())
        })
    }
}

impl Ruleset for PythonRules {
    type Position = usize;

    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        if self.failed() {
            return;
        }
        if let Err(error) = self.list(n, out) {
            *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
        }
    }
}

/// The default gather lists [`Ruleset::options`]; after a callback has
/// raised, every heap lists nothing at once, so the run ends quickly and
/// [`Rules::checked`] raises the kept exception in place of its result.
impl HeapRuleset for PythonRules {}

impl Rules {
    /// `result`, unless the rules are a callback that raised while it was
    /// computed: then that exception, whatever the engine made of the
    /// options it did not get.
    pub fn checked<T>(&self, result: PyResult<T>) -> PyResult<T> {
        match self {
            Rules::Python(rules) => match rules.take_failure() {
                Some(error) => Err(error),
                None => result,
            },
            Rules::Builtin(rules) => {
                rules.checked(Ok(())).map_err(crate::errors::to_py)?;
                result
            }
        }
    }

    /// The largest heap an adaptive analysis computes by default: callbacks,
    /// like scripts, have no periodicity theorem and cost a call per heap.
    pub fn default_max(&self) -> u64 {
        match self {
            Rules::Builtin(rules) => rules.default_max(),
            Rules::Python(_) => grundy::session::SCRIPT_HEAPS,
        }
    }

    /// Starts a question (a script's time limit counts from here).
    pub fn start(&self) {
        if let Rules::Builtin(rules) = self {
            rules.start();
        }
    }
}

impl std::fmt::Display for Rules {
    /// The canonical specification, or the name given to `from_options`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rules::Builtin(rules) => rules.fmt(f),
            Rules::Python(rules) => f.write_str(&rules.name),
        }
    }
}

impl Ruleset for Rules {
    type Position = usize;

    fn options(&self, n: &usize, out: &mut Options<usize>) {
        match self {
            Rules::Builtin(game) => game.options(n, out),
            Rules::Python(rules) => rules.options(n, out),
        }
    }
}

impl HeapRuleset for Rules {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        scratch: &mut Options<usize>,
    ) -> grundy::Result<()> {
        match self {
            Rules::Builtin(game) => game.gather(n, values, max, seen, scratch),
            Rules::Python(rules) => rules.gather(n, values, max, seen, scratch),
        }
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Rules::Builtin(game) => game.visit_options(n, visit),
            Rules::Python(rules) => rules.visit_options(n, visit),
        }
    }

    fn as_take_break(&self) -> Option<&TakeBreak> {
        match self {
            Rules::Builtin(game) => game.as_take_break(),
            Rules::Python(_) => None,
        }
    }

    fn as_heap_game(&self) -> Option<&HeapGame> {
        match self {
            Rules::Builtin(game) => game.as_heap_game(),
            Rules::Python(_) => None,
        }
    }

    fn closed_form(&self, n: usize) -> Option<u64> {
        match self {
            Rules::Builtin(game) => game.closed_form(n),
            Rules::Python(_) => None,
        }
    }
}
