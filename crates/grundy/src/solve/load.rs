//! Whether the machine has a core that no thread runs on: asked before a
//! run tries several threads (see [`super::crew::Advisor`]).
//!
//! When every core is taken, a helper thread shares a core with the other
//! work, is preempted for whole scheduler time slices, and the block waits
//! on the heaps it holds; the try costs more than a block on one thread,
//! and the advisor only learns that afterwards, from the block's time. The
//! kernel's count of runnable threads says it before the try.

/// Whether fewer threads are runnable on the machine than it has online
/// CPUs, the calling thread included: then a helper thread would find a
/// core of its own. `true` where the platform does not say, so that the
/// advisor's timings decide alone.
///
/// The CPUs are the machine's, not the ones the process may use: the count
/// of runnable threads is the machine's too (a container sees its host's).
pub(super) fn idle_core() -> bool {
    #[cfg(target_os = "linux")]
    if let (Ok(loadavg), Some(cpus)) = (std::fs::read_to_string("/proc/loadavg"), online_cpus()) {
        return idle_core_in(&loadavg, cpus);
    }
    true
}

/// Whether a `/proc/loadavg` line counts fewer runnable threads than
/// `cpus`; `true` when the line does not parse.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn idle_core_in(loadavg: &str, cpus: usize) -> bool {
    runnable_of(loadavg).is_none_or(|runnable| runnable < cpus)
}

/// The runnable threads in a `/proc/loadavg` line, whose fourth field is
/// `runnable/existing` (proc(5)).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn runnable_of(loadavg: &str) -> Option<usize> {
    loadavg
        .split_whitespace()
        .nth(3)?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// The CPUs online on the machine.
#[cfg(target_os = "linux")]
fn online_cpus() -> Option<usize> {
    // SAFETY: sysconf reads a system setting and has no preconditions.
    #[allow(unsafe_code)]
    let cpus = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(cpus).ok().filter(|&cpus| cpus > 0)
}

#[cfg(test)]
mod tests {
    use super::{idle_core_in, runnable_of};

    #[test]
    fn the_runnable_count_is_the_fourth_field() {
        assert_eq!(runnable_of("0.96 1.63 1.62 3/82 6414\n"), Some(3));
        assert_eq!(runnable_of("0.96 1.63 1.62"), None);
        assert_eq!(runnable_of("0.96 1.63 1.62 x/82 6414"), None);
    }

    #[test]
    fn a_core_is_idle_while_fewer_threads_run_than_there_are_cpus() {
        // The asking thread is one of the runnable ones.
        assert!(idle_core_in("0.50 0.40 0.30 1/82 6414", 2));
        assert!(!idle_core_in("1.50 1.40 1.30 2/82 6414", 2));
        assert!(!idle_core_in("3.50 3.40 3.30 5/90 6414", 4));
        assert!(idle_core_in("garbled", 2), "unknown: the timings decide");
    }
}
