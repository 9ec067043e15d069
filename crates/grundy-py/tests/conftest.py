"""Shared helpers: the repository's reference data (``testdata/``)."""

from pathlib import Path

import pytest

TESTDATA = Path(__file__).resolve().parents[3] / "testdata"


def oeis(anumber):
    """The terms of an OEIS sequence stored in ``testdata/oeis``."""
    return [int(line) for line in (TESTDATA / "oeis" / f"{anumber}.txt").read_text().split()]


def wythoff_options(position):
    """Wythoff's game (a queen moving left, up or diagonally) from its
    words: every position one move from ``(a, b)``."""
    a, b = position
    yield from ((a - i, b) for i in range(1, a + 1))
    yield from ((a, b - i) for i in range(1, b + 1))
    yield from ((a - i, b - i) for i in range(1, min(a, b) + 1))


@pytest.fixture(scope="session")
def testdata():
    return TESTDATA
