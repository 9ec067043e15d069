"""The front door from Python: every heap kind (built-in, a Rhai script, a
Python callable) answers the same questions through the library's one
parser and one analysis, checked against each other; other kinds are
refused with the library's typed message."""

import os

import pytest

import grundy

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples")


def kayles_options(n):
    for take in (1, 2):
        for left in range(n - take + 1):
            yield (left, n - take - left)


def kinds():
    return [
        grundy.Game(os.path.join(EXAMPLES, "kayles.rhai")),
        grundy.Game.from_options(kayles_options, name="python kayles"),
    ]


def test_every_heap_kind_has_the_values_and_period_of_the_code():
    kayles = grundy.Game("kayles")
    for game in kinds():
        assert list(game.values(200)) == list(kayles.values(200)), game.name
        found = game.analyze(to=300)
        assert (found.period, found.preperiod) == (12, 71), game.name
        assert found.support == "observed"
    assert kayles.analyze().support == "theorem"


def test_every_heap_kind_counts_sums_and_plays_misere_like_the_code():
    kayles = grundy.Game("kayles")
    for game in kinds():
        assert list(game.histogram(120, start=1)) == list(kayles.histogram(120, start=1))
        assert game.count(60, 3).p_positions == kayles.count(60, 3).p_positions
        mine, theirs = game.analyze_sum([4, 7, 9]), kayles.analyze_sum([4, 7, 9])
        assert (mine.nim_sum, mine.winner) == (theirs.nim_sum, theirs.winner)
        assert len(mine.winning_moves) == len(theirs.winning_moves)
        assert game.misere([3, 5]).winner == kayles.misere([3, 5]).winner


def test_kinds_that_are_not_heap_games_are_refused_with_the_reason():
    # The reason says what the kind answers, in no front end's words.
    with pytest.raises(grundy.GrundyError, match="a maze cannot answer `analyze`: .*ask sum"):
        grundy.Game("maze:somewhere.txt")
    with pytest.raises(grundy.GrundyError, match="Fibonacci Nim"):
        grundy.Game("fibonacci-nim")
    with pytest.raises(grundy.GrundyError, match="cannot read"):
        grundy.Game("missing.rhai")


def test_one_catalogue_lists_every_kind():
    names = [name for name, _code, _description, _example in grundy.games()]
    assert "FILE.rhai" in names and "graph:FILE" in names and "kayles" in names


def test_an_analysis_report_is_the_cli_document_with_the_same_answers():
    found = grundy.Game("0.137").analyze()
    report = found.report()
    assert report["canonical"] == found.game
    assert (report["period"], report["preperiod"]) == (found.period, found.preperiod)
    assert report["support"] == found.support == "theorem"
    assert report["proven"] is True and report["theorem"] == found.theorem
    assert report["computed_to"] == found.computed_to
    assert report["p_positions"] == found.p_positions
    assert report["first_values"] == list(found.values)[:100]
    assert sum(count for _, count in report["histogram"]) == found.computed_to + 1


def test_outcomes_of_a_game_that_is_not_a_sum_from_a_python_rule():
    # Subtract 1, 2 or 3: the multiples of 4 are lost.
    found = grundy.outcomes(lambda s: [s - t for t in (1, 2, 3) if t <= s], 1000)
    assert found.states == 1000
    assert found.losses() == list(range(0, 1000, 4))
    assert found.loss_count == 250
    assert found.winning_moves(10) == [8]
    assert found.winning_moves(8) == []
    with pytest.raises(IndexError):
        found.is_loss(1000)
    with pytest.raises(grundy.GrundyError):
        grundy.outcomes(lambda s: [s], 10)

    def broken(s):
        raise RuntimeError("no moves today")

    with pytest.raises(RuntimeError, match="no moves today"):
        grundy.outcomes(broken, 10)
