"""Grundy's game: ``grundy.Game("grundy").values(N)`` against a plain Python
implementation of the same rule, in one process; prints the ratio.

    python crates/grundy-py/bench/values.py            # N = 10**5 (minutes)
    python crates/grundy-py/bench/values.py --quick    # N = 2 * 10**4

Grundy's game splits one heap into two unequal heaps, so heap n has about
n/2 options and the plain table costs about N^2/4 XORs.
"""

import argparse
import time

import grundy


def plain_python(to):
    """g(0..=to) straight from the definition: mex over the splits."""
    g = [0] * (to + 1)
    for n in range(3, to + 1):
        seen = {g[a] ^ g[n - a] for a in range(1, (n + 1) // 2)}
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return g


def best_of(runs, work):
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - started)
    return best, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 2 * 10**4")
    parser.add_argument("-n", type=int, help="the largest heap (default 10**5)")
    args = parser.parse_args()
    to = args.n or (20_000 if args.quick else 100_000)

    engine, table = best_of(3, lambda: grundy.Game("grundy", threads=1).values(to))
    python, reference = best_of(1, lambda: plain_python(to))
    assert list(table) == reference, "the engine and plain Python disagree"
    print(f"Grundy's game, g(0..={to})")
    print(f"  grundy (Python package, 1 thread)  {engine:10.4f} s")
    print(f"  plain Python (set-based mex)       {python:10.4f} s")
    print(f"  ratio                              {python / engine:10.0f}x")


if __name__ == "__main__":
    main()
