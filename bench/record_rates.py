#!/usr/bin/env python3
"""Record-run rates: the windowed engine at 2^26 heaps, in one run.

Grundy's game and Officers (0.6) to 2^26 heaps with the windowed engine
(`grundy analyze GAME --to N --window --values-out F`) on one thread and on
two, each under /usr/bin/time: heaps per second of wall time, the ratio of
two threads to one, and peak memory; then Czajka's C++ solver (built from
../shared/peers/czajka-octal, a full table, as bench/sparse.py builds it) on
the same heaps, its answer (the largest value and where it first occurs)
checked against grundy's before a ratio is printed.

    python3 bench/record_rates.py [--log2n 26] [--no-peer] [--write]

--write replaces the table between the record markers of BENCHMARKS.md.
Goals (issue 53): Grundy's game on two threads at least 1.6x one thread;
Officers at least 1 M values a second on one thread and at least 9x
Czajka.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sparse import GRUNDY, ROOT, czajka, czajka_largest, grundy_largest, publish  # noqa: E402

GAMES = [("Grundy's game", "grundy", "grundy"), ("Officers (0.6)", "0.6", ".6")]


def timed(command):
    """(wall seconds, peak MiB, stdout) of one run under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True)
        took = time.perf_counter() - start
        peak = int(report.read().split()[-1]) / 1024
    return took, peak, done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2n", type=int, default=26)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "-p", "grundy-cli"], check=True, cwd=ROOT)
    heaps = 2 ** options.log2n
    lines = ["| work | 1 thread | 2 threads | 2 threads / 1 | peak memory (1 / 2 threads) "
             "| Czajka C++ | ratio, 1 thread | same answer |", "|" + " --- |" * 8]
    with tempfile.TemporaryDirectory() as scratch:
        for name, game, peer_game in GAMES:
            command = [GRUNDY, "analyze", game, "--to", str(heaps - 1), "--window",
                       "--values-out", os.path.join(scratch, "values"), "--force", "--format", "json"]
            one, one_peak, output = timed(command + ["--threads", "1"])
            two, two_peak, _ = timed(command + ["--threads", "2"])
            cells = [f"{name} to 2^{options.log2n}, windowed",
                     f"{one:.1f} s ({heaps / one / 1e6:.2f} M heaps/s)",
                     f"{two:.1f} s ({heaps / two / 1e6:.2f} M heaps/s)",
                     f"{one / two:.2f}x", f"{one_peak:.0f} / {two_peak:.0f} MiB"]
            if options.no_peer:
                cells += ["not run", "", ""]
            else:
                took, _, peer_output = timed([czajka(options.log2n), peer_game])
                theirs, ours = czajka_largest(peer_output), grundy_largest(output)
                same = f"yes: {theirs}" if theirs == ours else f"NO: {theirs} against {ours}"
                cells += [f"{took:.1f} s", f"{took / one:.2f}x", same]
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], file=sys.stderr)
    publish(lines, "python3 bench/record_rates.py", "record", options.write)


if __name__ == "__main__":
    main()
