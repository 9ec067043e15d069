#!/usr/bin/env python3
"""Checks a period by hand from a table of values: reads
``grundy values GAME --to N --format json`` (a file, or stdin) and checks
that g(n + P) == g(n) for every n >= N0 the table reaches, that it fails
at N0 - 1 (so N0 is the least pre-period) and that no proper divisor of P
holds from N0 on. With N >= 2 N0 + 2 P + t - 1 (t the code's digits after
the point) the octal periodicity theorem makes this a proof.

    grundy values 4.406 --to 600000 --engine dense --format json | bench/check_period.py - 294097 44
"""

import json
import sys


def main():
    path, n0, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = json.load(sys.stdin if path == "-" else open(path))
    g = data["values"]
    top = len(g) - 1
    bad = next((n for n in range(n0, top - p + 1) if g[n + p] != g[n]), None)
    ok = bad is None
    print(f"{data['game']}: g(0..={top}); g(n+{p}) == g(n) for n in {n0}..={top - p}: "
          + ("yes" if ok else f"no, first failure at {bad}"))
    least = n0 == 0 or g[n0 - 1 + p] != g[n0 - 1]
    print(f"fails at n0 - 1 = {n0 - 1}: {'yes' if least else 'no'}")
    smaller = [d for d in range(1, p) if p % d == 0 and all(g[n + d] == g[n] for n in range(n0, top - d + 1))]
    print(f"a smaller period: {smaller or 'none'}")
    return 0 if ok and least and not smaller else 1


if __name__ == "__main__":
    sys.exit(main())
