//! The one place progress bars are made.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting heaps up to `total`, drawn on stderr only when stderr is a
/// terminal (and `NO_COLOR` only drops the colours). It stays invisible for
/// runs that finish within a moment, since indicatif draws at most a few
/// times a second and we finish it with `finish_and_clear`.
pub fn heaps(total: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let template = if std::env::var_os("NO_COLOR").is_some() {
        "{msg} [{bar:40}] {human_pos}/{human_len} heaps, {per_sec}, ETA {eta}"
    } else {
        "{msg} [{bar:40.cyan/blue}] {human_pos}/{human_len} heaps, {per_sec}, ETA {eta}"
    };
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(what.to_owned());
    bar
}

/// Runs `work` under a bar of the heaps of the value tables it grows, each
/// report `progress(n, last)` saying the heap reached and the table's
/// last heap (hidden like [`heaps`]).
pub fn tables<T>(work: impl FnOnce(&mut dyn FnMut(usize, usize) -> bool) -> T) -> T {
    let bar = heaps(0, "values");
    let result = work(&mut |n, last| {
        bar.set_length(last as u64 + 1);
        bar.set_position(n as u64);
        true
    });
    bar.finish_and_clear();
    result
}

/// A bar counting the games of a census up to `total`, with the games
/// running and left in its message; hidden like [`heaps`].
pub fn games(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "census [{bar:40}] {pos}/{len} games done, {msg}, {elapsed} elapsed, ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}
