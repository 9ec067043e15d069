#!/usr/bin/env python3
"""Answers through a proven period cost the same at any heap.

For games whose period a theorem proves early (Kayles, Dawson's Kayles,
Dawson's chess), times `grundy analyze GAME --to N`, `grundy sum GAME N 3`
and `grundy guess GAME --to N` at N = 10^3, 10^6, 10^9 and 10^18, and
prints each time and its ratio to the same command at N = 10^3 (the
baseline, run in the same script on the same machine). Optionally times a
second binary (`--baseline PATH`, e.g. a build from before answers went
through proofs) on the same commands, with a time limit.

    cargo build --release -p grundy-cli
    python3 bench/through_proofs.py [--runs 5] [--baseline OLD_BINARY]
"""

import argparse
import statistics
import subprocess
import time

GAMES = ["kayles", "0.07", "0.137"]
HEAPS = [("1e3", 10**3), ("1e6", 10**6), ("1e9", 10**9), ("1e18", 10**18)]
COMMANDS = {
    "analyze": lambda g, n: ["analyze", g, "--to", str(n), "--format", "json"],
    "sum": lambda g, n: ["sum", g, str(n), "3", "--format", "json"],
    "guess": lambda g, n: ["guess", g, "--to", str(n), "--format", "json"],
}


def timed(binary, args, runs, limit):
    """Median wall time of `runs` runs, or None past `limit` seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            subprocess.run([binary, *args], check=True, capture_output=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return None
        except subprocess.CalledProcessError as error:
            return f"exit {error.returncode}"
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def show(value):
    if value is None:
        return "timeout"
    if isinstance(value, str):
        return value
    return f"{value * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/grundy")
    parser.add_argument("--baseline", help="another grundy binary to time beside it")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per baseline run")
    args = parser.parse_args()
    print("| command | game | " + " | ".join(f"N = {name}" for name, _ in HEAPS) + " | worst ratio to N = 1e3 |")
    print("|---" * (len(HEAPS) + 3) + "|")
    for command, make in COMMANDS.items():
        for game in GAMES:
            times = [timed(args.binary, make(game, n), args.runs, None) for _, n in HEAPS]
            base = times[0]
            cells = [show(t) for t in times]
            if all(isinstance(t, float) for t in times):
                ratio = f"{max(t / base for t in times):.2f}x"
            else:
                ratio = "failed"
            print(f"| {command} | {game} | " + " | ".join(cells) + f" | {ratio} |")
            if args.baseline:
                old = [timed(args.baseline, make(game, n), 1, args.limit) for _, n in HEAPS]
                print(f"| {command} (baseline) | {game} | " + " | ".join(show(t) for t in old) + " | |")


if __name__ == "__main__":
    main()
