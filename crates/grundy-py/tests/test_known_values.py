"""The built-in games against the literature, as the Rust tests check them:
OEIS sequences and the solved octal games of ``testdata/octal/periods.tsv``."""

import pytest

import grundy
from conftest import TESTDATA, oeis, wythoff_options

# (game, OEIS sequence, first heap the sequence lists)
SEQUENCES = [
    ("kayles", "A002186", 0),
    ("dawsons-chess", "A002187", 0),
    ("dawsons-kayles", "A002187", 1),
    ("grundy", "A002188", 0),
    ("treblecross", "A071426", 3),
    ("officers", "A046695", 0),
    ("take-and-split", "A071433", 1),
    ("sub(squares)", "A014586", 0),
    ("sub(factorials)", "A014587", 0),
    ("mark", "A229764", 0),
    ("sub(2,5,7)", "A266756", 0),
]


@pytest.mark.parametrize("spec, anumber, first", SEQUENCES)
def test_values_match_oeis(spec, anumber, first):
    terms = oeis(anumber)
    values = grundy.Game(spec).values(first + len(terms) - 1)
    assert list(values[:first]) == [0] * first
    assert list(values[first:]) == terms


def test_grundys_game_p_positions_are_a036685():
    zeros = oeis("A036685")
    values = grundy.Game("grundy").values(zeros[-1])
    assert [n for n, v in enumerate(values) if v == 0] == zeros


def periods(limit):
    """Rows of periods.tsv whose proof needs few heaps (pre-period and
    period below ``limit``); the Rust suite covers the long ones."""
    rows = (TESTDATA / "octal" / "periods.tsv").read_text().splitlines()[1:]
    rows = [row.split("\t") for row in rows if row.strip()]
    return [r for r in rows if int(r[1]) + int(r[2]) < limit]


@pytest.mark.parametrize("code, preperiod, period, largest", periods(10_000))
def test_solved_octal_games_prove_their_periods(code, preperiod, period, largest):
    found = grundy.Game(code).analyze(max=1 << 20)
    assert found.proven, code
    assert (found.preperiod, found.period) == (int(preperiod), int(period)), code
    assert max(found.values) == int(largest), code


def test_analysis_predicts_far_heaps_through_the_proven_period():
    found = grundy.Game("kayles").analyze()
    assert (found.period, found.preperiod, found.support) == (12, 71, "theorem")
    assert found.theorem == "octal periodicity theorem (Guy-Smith)"
    values = found.values
    for n in (10**6, 10**18 + 7, 2**64 - 1):
        assert found.value(n) == values[71 + (n - 71) % 12]
    assert found.exceptions[:5] == [0, 3, 6, 9, 11]
    assert found.p_positions == [0]


def test_observed_periods_say_so():
    found = grundy.Game("grundy").analyze(to=2000)
    assert not found.proven
    with pytest.raises(IndexError):
        found.value(10**6)


def test_closed_forms_answer_huge_heaps():
    assert grundy.Game("nim").value(10**18) == 10**18
    lasker = grundy.Game("lasker").analyze()
    assert lasker.support == "closed-form" and lasker.saltus == 4


def test_certificates_round_trip_and_tampering_is_caught():
    text = grundy.Game("0.137").analyze().certificate()
    grundy.check_certificate(text)
    tampered = text.replace('"period": 34', '"period": 17')
    assert tampered != text
    with pytest.raises(grundy.GrundyError, match="certificate rejected"):
        grundy.check_certificate(tampered)
    with pytest.raises(grundy.GrundyError, match="not a certificate"):
        grundy.check_certificate("{}")
    assert grundy.Game("grundy").analyze(to=100).certificate() is None


def test_wythoff_rules_in_python_match_a004481():
    """Wythoff's game written as general rules, read by antidiagonals."""

    rules = grundy.Rules(wythoff_options)
    terms = oeis("A004481")
    by_antidiagonals = [rules.value((d - j, j)) for d in range(20) for j in range(d + 1)]
    assert by_antidiagonals[: len(terms)] == terms
