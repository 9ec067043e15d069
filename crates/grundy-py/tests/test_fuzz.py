"""Fuzzing the binding's doors with hypothesis: any text, any size and any
user callable reach the engine, and every call either answers or raises a
Python exception of the documented kinds. Nothing may kill the interpreter
(an abort, a panic let through) or hang it: each example runs in this
process, so a crash fails the whole run.

The examples are drawn from the shapes users type (game specifications
built from the pieces of the real grammar, sizes near the limits) and kept
few enough for CI; the engine's own fuzzing is `crates/grundy/tests/fuzz.rs`.
"""

import itertools

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import grundy  # noqa: E402

#: What a call may raise: the package's error (a ValueError), the
#: conversions' errors for arguments of the wrong kind or sign, and a
#: KeyError or IndexError for a lookup out of range.
EXPECTED = (grundy.GrundyError, ValueError, OverflowError, TypeError, IndexError, KeyError)

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

#: Pieces of the specification grammar, glued at random: names, codes,
#: subtraction sets, families, sums, products, scripts' and files' prefixes.
PIECES = [
    "kayles", "nim", "grundy", "0.", "4.", "0.07", "0.{2+}", "{62}", "sub(", ")",
    "1,3,4", "allbut(", "divisors", "rook(", "wythoff", "ruler", "turn(", "*",
    "mock-turtles", ":", "+", ",", "(()())", "[", "]", "-", "1e18", "2^64", "7",
    "graph:", "maze:", "hackenbush:", "..", " ", "\u00e9", "\x00",
]

specs = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)
sizes = st.one_of(
    st.integers(min_value=-2, max_value=200),
    st.sampled_from([2**31, 2**32, 2**62, 2**63 - 1, 2**64 - 1, 2**64, 10**18]),
)


def answered_or_refused(call, *args, **kwargs):
    """Calls `call`; an exception of an expected kind is a refusal."""
    try:
        return call(*args, **kwargs)
    except EXPECTED:
        return None


@FUZZ
@given(spec=specs, n=sizes)
def test_any_game_and_size_is_answered_or_refused(spec, n):
    game = answered_or_refused(grundy.Game, spec)
    if game is None:
        return
    # Sizes a table reaches are kept small: a table of a game whose moves
    # leave any number of heaps takes minutes at 10^5 (a legitimate long
    # call, which Ctrl-C stops), not what this test is for.
    small = min(n, 300)
    answered_or_refused(game.value, small)
    answered_or_refused(game.values, small)
    answered_or_refused(game.options, n, limit=10**4)
    answered_or_refused(game.analyze_sum, [small, 3])
    answered_or_refused(game.count, small, 2)


@FUZZ
@given(components=st.lists(st.tuples(specs, sizes).map(lambda p: f"{p[0]}:{p[1]}"), max_size=4))
def test_any_sum_is_answered_or_refused(components):
    answered_or_refused(grundy.sum_report, components)


@FUZZ
@given(rule=specs, heads=st.lists(sizes, max_size=4))
def test_any_coin_row_is_answered_or_refused(rule, heads):
    answered_or_refused(grundy.coins, rule, heads)
    answered_or_refused(grundy.coin_values, rule, min(heads[0], 3000) if heads else 0)


#: Option functions a user might write, well or badly.
OPTION_FUNCTIONS = [
    lambda p: [p - 1] if p > 0 else [],
    lambda p: range(p),
    lambda p: [p + 1],  # a cycle upward: refused or valued by Smith's theory
    lambda p: itertools.count(),  # endless
    lambda p: itertools.repeat(0),  # endless
    lambda p: None,  # not iterable
    lambda p: [object()],  # not a position of the game
    lambda p: 1 // 0,  # raises
    lambda p: [grundy.Sum(p - 1, p - 2)] if p > 1 else [],
]


@FUZZ
@given(
    which=st.integers(min_value=0, max_value=len(OPTION_FUNCTIONS) - 1),
    start=st.integers(min_value=0, max_value=30),
)
def test_any_user_rule_is_answered_or_raises(which, start):
    options = OPTION_FUNCTIONS[which]
    rules = grundy.Rules(options, max_positions=10_000)
    for ask in (rules.value, rules.generalized_value):
        try:
            ask(start)
        except EXPECTED + (ZeroDivisionError,):
            pass
    try:
        rules.outcome([start, start + 1])
    except EXPECTED + (ZeroDivisionError,):
        pass
    game = answered_or_refused(grundy.Game.from_options, options)
    if game is not None:
        try:
            game.values(min(start, 50))
        except EXPECTED + (ZeroDivisionError,):
            pass
