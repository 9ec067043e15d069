#!/usr/bin/env python3
"""Two or more builds of grundy on the same heaps, in rounds.

    python3 bench/rounds.py ROUNDS "GAME --to N" BASELINE_BINARY OTHER_BINARY...

A build is a binary, run with `--threads 1`, or `BINARY@THREADS` for
another thread count (`target/release/grundy@2`); when any build uses more
than one thread the ratios are of wall-clock time, else of user time.

Each round runs every build once, in alternating order, and takes the ratio
of the baseline's user time to each other build's; the script prints the
median of those ratios with their quartiles, and each build's best time.
On a shared machine whose speed drifts by a fifth from minute to minute,
the ratio of two runs made seconds apart moves far less than either time,
so the median of many rounds resolves changes of a few percent where the
best of a few runs (`bench/builds.sh`) cannot. Every build must give the
same largest value and place, checked on each run.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time


def split(build):
    """The binary and the thread count of `BINARY[@THREADS]`."""
    binary, _, threads = build.partition("@")
    return binary, threads or "1"


def run(build, work, wall):
    """Seconds of one run (wall-clock or user), and its answer (largest
    value and where)."""
    binary, threads = split(build)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    started = time.perf_counter()
    out = subprocess.run(
        [binary, "analyze", *work, "--threads", threads, "--format", "json"],
        capture_output=True, text=True, check=True,
    ).stdout
    elapsed = time.perf_counter() - started
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    report = json.loads(out)
    return (elapsed if wall else user), (report["max_value"], report["max_value_at"])


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds, work, builds = int(sys.argv[1]), sys.argv[2].split(), sys.argv[3:]
    wall = any(split(build)[1] != "1" for build in builds)
    times = {build: [] for build in builds}
    ratios = {build: [] for build in builds[1:]}
    for round_ in range(rounds):
        order = builds if round_ % 2 == 0 else builds[::-1]
        answers, seconds = set(), {}
        for build in order:
            seconds[build], answer = run(build, work, wall)
            answers.add(answer)
        if len(answers) != 1:
            sys.exit(f"{' '.join(work)}: the builds' answers differ: {answers}")
        for build in builds:
            times[build].append(seconds[build])
        for build in builds[1:]:
            ratios[build].append(seconds[builds[0]] / seconds[build])
    base = builds[0]
    for build in builds[1:]:
        low, _, high = statistics.quantiles(ratios[build], n=4) if rounds > 1 else [ratios[build][0]] * 3
        print(
            f"{' '.join(work)}: {os.path.basename(build)} against {os.path.basename(base)} "
            f"({'wall' if wall else 'user'} time): "
            f"{statistics.median(ratios[build]):.3f}x (quartiles {low:.3f}x-{high:.3f}x, "
            f"{rounds} rounds); best {min(times[base]):.3f} s / {min(times[build]):.3f} s"
        )


if __name__ == "__main__":
    main()
