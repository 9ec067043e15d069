"""Misère play and games with cycles from Python, against plain search."""

import itertools
from functools import lru_cache

import pytest

import grundy


def kayles_options(n):
    for take in (1, 2):
        for left in range(n - take + 1):
            yield tuple(h for h in (left, n - take - left) if h)


@lru_cache(maxsize=None)
def misere_loses(heaps):
    """Misère search: the player who cannot move wins."""
    moved = False
    for i, h in enumerate(heaps):
        for parts in kayles_options(h):
            moved = True
            rest = tuple(sorted(heaps[:i] + heaps[i + 1 :] + parts))
            if misere_loses(rest):
                return False
    return moved


def test_misere_kayles_sums_match_search():
    kayles = grundy.Game("kayles")
    for k in (1, 2, 3):
        for heaps in itertools.combinations_with_replacement(range(1, 9), k):
            found = kayles.misere(list(heaps))
            assert (found.misere_value == 0) == misere_loses(heaps), heaps
            for move in found.winning_moves:
                rest = list(heaps)
                rest.pop(move.component)
                assert misere_loses(tuple(sorted(rest + list(move.after)))), (heaps, move)


def test_misere_nim_and_genus():
    assert grundy.Game("nim").misere([1, 1, 1]).winner == "second"
    assert grundy.Game("nim").misere([2, 2]).winner == "second"
    assert grundy.Game("nim").misere([1, 1]).winner == "first"
    genera = grundy.Game("0.312").genus(6)
    assert [str(g) for g in genera[1:]] == ["1^031", "2^20", "0^02", "2^1420", "0^02", "1^13"]
    assert genera[3].tame and not genera[4].tame
    with pytest.raises(grundy.GrundyError, match="position budget"):
        grundy.Game("kayles").misere([30, 31], budget=100)


def test_games_with_cycles_are_valued_not_refused():
    # a <-> b, b -> c: c is 0, b is 1, a (only option b = 1) is 0.
    moves = {"a": ["b"], "b": ["a", "c"], "c": [], "d": ["d", "a"], "e": ["f"], "f": ["e"]}
    rules = grundy.Rules(moves.get)
    assert rules.generalized_value("a") == 0
    assert rules.generalized_value("b") == 1
    assert rules.generalized_value("d") == grundy.Infinite([0])
    assert str(rules.generalized_value("e")) == "∞{}"
    assert rules.outcome(["b"]) == "win"
    assert rules.outcome(["a"]) == "loss"
    assert rules.outcome(["d"]) == "win"
    assert rules.outcome(["e"]) == "draw"
    assert rules.outcome(["b", "d"]) == "draw"
    assert rules.outcome(["b", "b"]) == "loss"
    with pytest.raises(grundy.GrundyError, match="cycle"):
        rules.value("e")
    with pytest.raises(grundy.GrundyError, match="list single positions"):
        grundy.Rules(lambda p: [grundy.Sum(p, p)]).outcome([1])


def test_misere_quotients():
    q = grundy.Game("nim").misere_quotient(2)
    assert len(q) == 6
    assert q.relations == ["a^2 = 1", "b^3 = b"]
    assert q.p_portion == ["a", "b^2"]
    assert q.generators == [("a", 1), ("b", 2)]
    assert q.loses([1, 1, 1]) and not q.loses([1, 1]) and q.loses([2, 2])
    assert q.element([2, 2, 2]) == "b"
    kayles = grundy.Game("kayles").misere_quotient(5)
    for heaps in itertools.combinations_with_replacement(range(1, 6), 4):
        assert kayles.loses(list(heaps)) == misere_loses(heaps), heaps
    with pytest.raises(grundy.GrundyError, match="covers heaps up to 5"):
        kayles.loses([6])
