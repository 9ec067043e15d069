//! The CPU time of the current thread, for the timing samples that choose
//! an engine.
//!
//! The wall clock is the wrong measure there: on a machine whose cores are
//! shared, a sample of a few hundred microseconds that is preempted for a
//! scheduler time slice (milliseconds) looks ten times slower than it is,
//! and a choice made from it can be quadratically wrong (the dense engine
//! kept for a long table of a game that splits heaps). The CPU time the
//! thread itself used does not count the time other work held its core.

use std::time::Duration;

/// CPU time used by the calling thread so far (on platforms without a
/// per-thread CPU clock, the time since the first call).
pub(crate) fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid, writable timespec, and
        // CLOCK_THREAD_CPUTIME_ID is a clock every supported Unix has.
        #[allow(unsafe_code)]
        let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
        if status == 0 {
            return Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
        }
    }
    wall_since_start()
}

/// The wall-clock time since the first call: the fallback measure.
fn wall_since_start() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::thread_time;

    #[test]
    fn thread_time_grows_with_work_and_not_with_sleep() {
        let before = thread_time();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let slept = thread_time() - before;
        let mut x = 0u64;
        let started = thread_time();
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let worked = thread_time() - started;
        assert!(worked > std::time::Duration::ZERO);
        // Sleeping uses next to no CPU: far less than the 50 ms slept.
        assert!(slept < std::time::Duration::from_millis(25), "{slept:?}");
    }
}
