//! Errors, arguments and long runs: the engine's errors become
//! `grundy.GrundyError` (and `grundy.GrundyMemoryError` for memory
//! refusals) with the CLI's messages; heap sizes are read with errors that
//! name the parameter; long computations run without the GIL while still
//! answering Ctrl-C and telling a `progress=` callback how far they are.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(
    grundy,
    GrundyError,
    PyValueError,
    "An input the engine cannot use, or a computation it had to stop: the \
     message is the one the `grundy` command prints."
);

/// `grundy.GrundyMemoryError`, a `GrundyError` and a `MemoryError`: made at
/// import ([`make_memory_error`]), since an exception with two bases cannot
/// be declared.
static MEMORY_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Makes `GrundyMemoryError(GrundyError, MemoryError)` for the module.
pub fn make_memory_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let made = MEMORY_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let namespace = PyDict::new(py);
        namespace.set_item("__module__", "grundy")?;
        namespace.set_item(
            "__doc__",
            "A table, histogram or search the engine refused to allocate because it \
             would pass the memory limit (``memory_limit=``): both a ``GrundyError`` \
             and a ``MemoryError``.",
        )?;
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<GrundyError>().into_any(),
                py.get_type::<pyo3::exceptions::PyMemoryError>().into_any(),
            ],
        )?;
        let made = py
            .get_type::<PyType>()
            .call1(("GrundyMemoryError", bases, namespace))?;
        Ok(made.cast_into::<PyType>()?.unbind())
    })?;
    Ok(made.bind(py))
}

/// The Python exception for an engine error.
pub fn to_py(error: grundy::Error) -> PyErr {
    use grundy::Error as E;
    let message = match &error {
        E::Refused { knob, .. } => format!("{error} ({})", keyword_for(*knob)),
        // Every function whose work is bounded takes the keyword.
        E::WorkLimit { .. } => format!("{error} (raise it with work_limit=)"),
        _ => error.to_string(),
    };
    let memory = matches!(
        error,
        E::TableTooLarge { .. }
            | E::MemoryLimit { .. }
            | E::PeriodSearchTooLarge { .. }
            | E::HistogramTooLarge { .. }
            | E::OutOfMemory { .. }
    );
    if memory {
        Python::attach(|py| match MEMORY_ERROR.get(py) {
            Some(kind) => PyErr::from_type(kind.bind(py).clone(), message),
            None => GrundyError::new_err(message),
        })
    } else {
        GrundyError::new_err(message)
    }
}

/// The keywords of a question's parameter the library refused (the
/// library names no front end's knobs).
fn keyword_for(knob: grundy::Knob) -> &'static str {
    use grundy::Knob;
    match knob {
        Knob::From => "start=",
        Knob::To => "to=",
        Knob::Heaps => "heaps=",
        Knob::Order => "order=",
        Knob::Modulus => "modulo=",
        Knob::NimSum => "nim_sum=",
        Knob::All => "all=",
        Knob::Formula => "by_formula=",
        Knob::Max => "max=",
        Knob::PastTheTable => "max=, by_formula=",
        Knob::Overwrite => "a new file",
        Knob::Output => "output=",
        Knob::TimeLimit => "none: scripts run here with their default limits",
        Knob::Rows => "rows=False, or a shorter start=/to=",
        Knob::Partitions => "partitions=, parts=, distinct=",
    }
}

/// A parameter's name, for the messages of [`Whole`].
pub trait Named {
    /// The parameter as the signature spells it.
    const NAME: &'static str;
}

macro_rules! names {
    ($($marker:ident = $name:literal),* $(,)?) => {
        $(
            #[doc = concat!("The parameter `", $name, "`.")]
            pub enum $marker {}
            impl Named for $marker {
                const NAME: &'static str = $name;
            }
        )*
    };
}

names!(
    To = "to",
    N = "n",
    Start = "start",
    Max = "max",
    Heaps = "heaps",
    Modulo = "modulo",
    NimSum = "nim_sum",
    Limit = "limit",
    MaxHeap = "max_heap",
    Terms = "terms",
    Budget = "budget",
    Heap = "heap",
    MaxOptions = "max_options",
    Partitions = "partitions",
    Parts = "parts",
);

/// A non-negative integer argument (a heap, a bound, a count), read so
/// that a wrong one says which parameter it is: `ValueError` for a
/// negative or too large `int`, `TypeError` for anything that is not an
/// integer (a `float`, a `str`); NumPy integers are taken.
///
/// Reading never fails: the error is raised when the function asks for
/// the number ([`Whole::get`]), so that it is the function's own, with no
/// note of PyO3's argument handling added to it.
pub struct Whole<N>(Result<u64, Wrong>, PhantomData<N>);

/// Why an argument is not a [`Whole`]: a type error or a value error, and
/// the message.
#[derive(Clone)]
enum Wrong {
    Type(String),
    Value(String),
}

impl<N> Whole<N> {
    /// The number, or the error naming the parameter.
    pub fn get(&self) -> PyResult<u64> {
        match &self.0 {
            Ok(n) => Ok(*n),
            Err(Wrong::Type(message)) => Err(PyTypeError::new_err(message.clone())),
            Err(Wrong::Value(message)) => Err(PyValueError::new_err(message.clone())),
        }
    }

    /// As an index (every `u64` fits on the 64-bit platforms built for;
    /// elsewhere the largest index).
    pub fn index(&self) -> PyResult<usize> {
        self.get().map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }
}

impl<'a, 'py, N: Named> FromPyObject<'a, 'py> for Whole<N> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Whole(read(&obj, N::NAME), PhantomData))
    }
}

/// The optional argument `arg`, or the error naming it.
pub fn optional<N>(arg: Option<Whole<N>>) -> PyResult<Option<u64>> {
    arg.map(|a| a.get()).transpose()
}

/// `obj` as a non-negative integer below 2^64, or why not, naming `name`.
fn read(obj: &Bound<'_, PyAny>, name: &str) -> Result<u64, Wrong> {
    if let Ok(n) = obj.extract::<u64>() {
        return Ok(n);
    }
    let type_name = || {
        obj.get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string())
    };
    let index = obj
        .py()
        .import("operator")
        .and_then(|operator| operator.call_method1("index", (obj,)));
    let Ok(index) = index else {
        return Err(Wrong::Type(format!(
            "{name} must be an int, not {}",
            type_name()
        )));
    };
    if index.lt(0).unwrap_or(false) {
        Err(Wrong::Value(format!(
            "{name} must be a non-negative integer, not {index}"
        )))
    } else {
        Err(Wrong::Value(format!(
            "{name} must be below 2**64, not {index}"
        )))
    }
}

/// How often a `progress=` callback hears from a long run, at most.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// What a long call's `progress=` asked for: nothing, a callable
/// `progress(done, total)`, or (`True`) the bar of `grundy._notebook`
/// (tqdm where it is installed). `done` and `total` count heaps (or the
/// unit the call names); the calls are at most five a second, `done`
/// never decreases, and a run that finishes ends with `done == total`.
pub struct Progress {
    callback: Option<Py<PyAny>>,
    /// Whether `callback` is a bar to close at the end.
    bar: bool,
    total: u64,
}

impl Progress {
    /// No reporting.
    pub fn none() -> Progress {
        Progress {
            callback: None,
            bar: false,
            total: 0,
        }
    }

    /// The reporting `arg` asks for, of a run of `total` units described
    /// as `what` (the bar's label).
    pub fn new(
        py: Python<'_>,
        arg: Option<&Bound<'_, PyAny>>,
        total: u64,
        what: &str,
    ) -> PyResult<Progress> {
        let Some(arg) = arg.filter(|a| !a.is_none()) else {
            return Ok(Progress::none());
        };
        if let Ok(flag) = arg.extract::<bool>() {
            if !flag {
                return Ok(Progress::none());
            }
            let bar = py
                .import("grundy._notebook")?
                .call_method1("progress_bar", (what,))?;
            return Ok(Progress {
                callback: Some(bar.unbind()),
                bar: true,
                total,
            });
        }
        if !arg.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "progress must be True, False, None or a callable progress(done, total), \
                 not {}",
                arg.get_type().name()?
            )));
        }
        Ok(Progress {
            callback: Some(arg.clone().unbind()),
            bar: false,
            total,
        })
    }

    /// Whether anything is reported.
    pub fn active(&self) -> bool {
        self.callback.is_some()
    }

    fn call(&self, py: Python<'_>, done: u64) -> PyResult<()> {
        if let Some(callback) = &self.callback {
            callback.bind(py).call1((done, self.total))?;
        }
        Ok(())
    }

    /// Closes a bar (after the run, whatever its end).
    fn close(&self, py: Python<'_>) {
        if self.bar
            && let Some(bar) = &self.callback
        {
            // A bar that cannot close leaves nothing worth an error.
            let _ = bar.bind(py).call_method0("close");
        }
    }
}

/// Runs `work` with the GIL released, so other Python threads go on, and
/// stops it at the next progress call once a signal handler raises (Ctrl-C
/// gives `KeyboardInterrupt`, which this returns).
///
/// `work` gets the progress callback the engine's long-running functions
/// take; it returns `false`, which makes them stop, once a signal handler
/// has raised.
pub fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&mut dyn FnMut(usize) -> bool) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    reporting(py, &Progress::none(), work)
}

/// [`detached`], telling `progress` how far the run is: `(0, total)` at
/// the start, the heaps done (the engine's heap `n` and those before it)
/// at most five times a second as the engine reports, and `(total,
/// total)` when it succeeds. An exception from the callback stops the run
/// and is raised as it is.
pub fn reporting<T: Send>(
    py: Python<'_>,
    progress: &Progress,
    work: impl FnOnce(&mut dyn FnMut(usize) -> bool) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    if let Err(error) = progress.call(py, 0) {
        progress.close(py);
        return Err(error);
    }
    let mut raised = None;
    let mut reported = Instant::now();
    let mut done = 0;
    let result = py.detach(|| {
        work(&mut |n| {
            Python::attach(|py| {
                if let Err(error) = py.check_signals() {
                    raised = Some(error);
                    return false;
                }
                if progress.active() {
                    done = done.max((n as u64).saturating_add(1).min(progress.total));
                    if reported.elapsed() >= PROGRESS_INTERVAL {
                        reported = Instant::now();
                        if let Err(error) = progress.call(py, done) {
                            raised = Some(error);
                            return false;
                        }
                    }
                }
                true
            })
        })
    });
    let finished = match (raised, result) {
        (Some(error), _) => Err(error),
        (None, Ok(found)) => progress.call(py, progress.total).map(|()| found),
        (None, Err(error)) => Err(to_py(error)),
    };
    progress.close(py);
    finished
}

/// Runs `work` on a helper thread under a [`grundy::Cancel`] token while
/// this thread, without the GIL, waits for it and checks for signals every
/// 100 ms: Ctrl-C cancels the token (the engine stops at its next check)
/// and raises `KeyboardInterrupt`. For long calls that report no progress
/// (the misère searches), which [`detached`] could not interrupt.
pub fn watched<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> grundy::Result<T> + Send,
) -> PyResult<T> {
    use std::sync::mpsc::RecvTimeoutError;
    let token = grundy::Cancel::new();
    std::thread::scope(|scope| {
        let (send, mut receive) = std::sync::mpsc::channel();
        let running = token.clone();
        let worker = scope.spawn(move || {
            let _ = send.send(running.run(work));
        });
        let mut raised: Option<PyErr> = None;
        let result = loop {
            let (back, waited) = py.detach(move || {
                let waited = receive.recv_timeout(std::time::Duration::from_millis(100));
                (receive, waited)
            });
            receive = back;
            match waited {
                Ok(result) => break Some(result),
                Err(RecvTimeoutError::Timeout) => {
                    if raised.is_none()
                        && let Err(error) = py.check_signals()
                    {
                        raised = Some(error);
                        token.cancel();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break None,
            }
        };
        // A panic in the work is an error here, not a crash.
        let joined = worker.join();
        match (raised, result, joined) {
            (Some(error), _, _) => Err(error),
            (None, Some(result), _) => result.map_err(to_py),
            (None, None, _) => Err(GrundyError::new_err("the computation failed")),
        }
    })
}

/// [`watched`], for library calls that report no progress: `progress`
/// hears `(0, total)` at the start and `(total, total)` when it succeeds.
pub fn watched_reporting<T: Send>(
    py: Python<'_>,
    progress: &Progress,
    work: impl FnOnce() -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let found = progress
        .call(py, 0)
        .and_then(|()| watched(py, work))
        .and_then(|found| progress.call(py, progress.total).map(|()| found));
    progress.close(py);
    found
}
