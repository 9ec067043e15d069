#!/usr/bin/env python3
"""Compares census rows (``grundy census ... --format json``, one row per
line, on stdin or in the files named) with Czajka's tables in
testdata/octal/tczajka: pre-periods and periods of TrivialGames.md and
SolvedGames.md, UnsolvedGames.md (never proven), and the equivalences of
GameLookup.md. Prints a summary and every disagreement; exits 1 if any.

    grundy census '0.???' --max 2^22 --format json | bench/census_tables.py
"""

import fileinput
import json
import sys
from pathlib import Path

TABLES = Path(__file__).resolve().parents[1] / "testdata" / "octal" / "tczajka"


def canonical(short):
    """Czajka's spelling (.07, 4, 4.12) as grundy's canonical code."""
    code = "0" + short if short.startswith(".") else short if "." in short else short + ".0"
    head, _, tail = code.partition(".")
    tail = tail.rstrip("0") or "0"
    return f"{head}.{tail}"


def rows_of(path):
    for line in (path.read_text().splitlines()):
        if "|" in line and not line.startswith(":") and not line.lstrip().startswith("game"):
            yield [c.strip() for c in line.split("|")]


def main():
    rows = {}
    for line in fileinput.input():
        if line.strip():
            row = json.loads(line)
            rows[row["game"]] = row
    problems = []
    periods = agree = 0
    for name in ("TrivialGames.md", "SolvedGames.md"):
        for cells in rows_of(TABLES / name):
            try:
                n0, p = int(cells[1]), int(cells[2])
            except (ValueError, IndexError):
                continue
            row = rows.get(canonical(cells[0]))
            if row is None:
                continue
            periods += 1
            if row["proven"] and (row["preperiod"], row["period"]) == (n0, p):
                agree += 1
            elif row["proven"]:
                problems.append(f"{row['game']}: proven {row['preperiod']}/{row['period']}, {name} says {n0}/{p}")
            else:
                problems.append(
                    f"{row['game']}: not proven to {row['computed_to']} ({row['stopped']}), {name} says {n0}/{p}"
                    f" (its proof needs heaps up to 2 n0 + 2 p + t - 1 = {2 * n0 + 2 * p + len(row['game']) - 3})"
                )
    unsolved = 0
    for cells in rows_of(TABLES / "UnsolvedGames.md"):
        if not cells[0].startswith((".", "4")):
            continue
        row = rows.get(canonical(cells[0]))
        if row is None:
            continue
        unsolved += 1
        if row["proven"]:
            problems.append(f"{row['game']}: proven {row['preperiod']}/{row['period']}, but UnsolvedGames.md lists it")
    pairs = same = 0
    for cells in rows_of(TABLES / "GameLookup.md"):
        for column, cell in enumerate(cells[1:8], start=1):
            a = rows.get(canonical(cells[0].replace("x", str(column))))
            if cell == "-" and a is not None:
                # No smaller equivalent: the game names its class.
                pairs += 1
                if a["class"] == a["game"]:
                    same += 1
                else:
                    problems.append(f"{a['game']} has no equivalent in GameLookup.md, census class {a['class']}")
                continue
            if cell == "":
                continue
            b = rows.get(canonical(cell))
            if a is None or b is None:
                continue
            pairs += 1
            if a["class"] == b["class"]:
                same += 1
            else:
                problems.append(f"{a['game']} ~ {b['game']} in GameLookup.md, census classes {a['class']} and {b['class']}")
    proven = sum(r["proven"] for r in rows.values())
    observed = sum(1 for r in rows.values() if not r["proven"] and r["period"] is not None)
    classes = len({r["class"] for r in rows.values()})
    print(f"{len(rows)} games: {proven} proven, {observed} observed only, "
          f"{len(rows) - proven - observed} no period seen; {classes} classes")
    print(f"periods: {agree} of {periods} in the tables agree; unsolved listed: {unsolved}; "
          f"GameLookup.md entries agreeing: {same} of {pairs}")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
