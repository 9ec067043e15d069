//! Heap games as the session takes them: anything the library's front door
//! accepts ([`HeapRules`]: built-in games and scripts), or a Python
//! callable `options(n)` that the engine's solvers call back, handed to the
//! session as [`HeapRules::Custom`].

use std::sync::{Arc, Mutex};

use grundy::session::{CustomRules, HeapRules};
use grundy::{HeapRuleset, Options, Ruleset};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The rules behind a `grundy.Game`: the session's game, and a callable's
/// own rules when they are Python's (to raise its exceptions as they are).
pub struct Rules {
    /// The game as the session takes it.
    pub game: HeapRules,
    python: Option<Arc<PythonRules>>,
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

    pub(crate) fn failed(&self) -> bool {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Calls `options(n)` and pushes what it lists onto `out`: at most
    /// [`MAX_LISTED`] options (an endless iterator raises instead of
    /// filling memory), checking for Ctrl-C as it goes.
    fn list(&self, n: usize, out: &mut Options<usize>) -> PyResult<()> {
        Python::attach(|py| {
            let listed = self.options.bind(py).call1((n,))?;
            for (i, item) in listed.try_iter()?.enumerate() {
                if i >= MAX_LISTED {
                    return Err(crate::errors::GrundyError::new_err(format!(
                        "options({n}) listed more than {MAX_LISTED} options: list each option once"
                    )));
                }
                if i % 4096 == 4095 {
                    py.check_signals()?;
                }
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

/// The most options one call of a Python `options(n)` may list.
pub const MAX_LISTED: usize = 10_000_000;

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

impl CustomRules for PythonRules {}

impl std::fmt::Display for PythonRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

impl std::fmt::Debug for PythonRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PythonRules({:?})", self.name)
    }
}

impl Rules {
    /// Whether the rules failed (a callback raised, a script threw) during
    /// the question under way, so that nothing computed since is kept.
    pub fn failed(&self) -> bool {
        self.python.as_ref().is_some_and(|p| p.failed()) || self.game.failed()
    }

    /// A game the library's front door parsed.
    pub fn library(game: HeapRules) -> Rules {
        Rules { game, python: None }
    }

    /// Rules given as a Python callable, which the session takes as
    /// [`HeapRules::Custom`].
    pub fn python(rules: PythonRules) -> Rules {
        let rules = Arc::new(rules);
        Rules {
            game: HeapRules::Custom(rules.clone()),
            python: Some(rules),
        }
    }

    /// Whether the rules are a Python callable.
    pub fn is_python(&self) -> bool {
        self.python.is_some()
    }

    /// `result`, unless the rules failed while it was computed: then the
    /// callback's exception, unchanged (whatever the engine made of the
    /// options it did not get), or the script's error.
    pub fn checked<T>(&self, result: PyResult<T>) -> PyResult<T> {
        if let Some(error) = self.python.as_ref().and_then(|p| p.take_failure()) {
            return Err(error);
        }
        self.game.checked(Ok(())).map_err(crate::errors::to_py)?;
        result
    }
}

/// The rules are the session's game: `rules.start()`, `&*rules` for the
/// engine.
impl std::ops::Deref for Rules {
    type Target = HeapRules;

    fn deref(&self) -> &HeapRules {
        &self.game
    }
}
