"""Shared helpers: the repository's reference data (``testdata/``)."""

from pathlib import Path

import pytest

TESTDATA = Path(__file__).resolve().parents[3] / "testdata"


def oeis(anumber):
    """The terms of an OEIS sequence stored in ``testdata/oeis``."""
    return [int(line) for line in (TESTDATA / "oeis" / f"{anumber}.txt").read_text().split()]


@pytest.fixture(scope="session")
def testdata():
    return TESTDATA
