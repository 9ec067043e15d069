//! Errors and interruption: the engine's errors become `grundy.GrundyError`
//! with the CLI's messages, and long computations run without the GIL while
//! still answering Ctrl-C.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    grundy,
    GrundyError,
    PyValueError,
    "An input the engine cannot use, or a computation it had to stop: the \
     message is the one the `grundy` command prints."
);

/// The Python exception for an engine error.
pub fn to_py(error: grundy::Error) -> PyErr {
    match &error {
        grundy::Error::Refused { knob, .. } => {
            GrundyError::new_err(format!("{error} ({})", keyword_for(*knob)))
        }
        // Every function whose work is bounded takes the keyword.
        grundy::Error::WorkLimit { .. } => {
            GrundyError::new_err(format!("{error} (raise it with work_limit=)"))
        }
        _ => GrundyError::new_err(error.to_string()),
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
    let mut raised = None;
    let result = py.detach(|| {
        work(&mut |_| match Python::attach(|py| py.check_signals()) {
            Ok(()) => true,
            Err(error) => {
                raised = Some(error);
                false
            }
        })
    });
    match raised {
        Some(error) => Err(error),
        None => result.map_err(to_py),
    }
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
