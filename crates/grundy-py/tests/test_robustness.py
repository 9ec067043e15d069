"""The interpreter is never killed or frozen: listings are capped before
they are allocated, endless iterators raise, a rule that asks its own game
for values raises at once, and values computed after a rule failed are not
kept."""

import itertools

import pytest

import grundy


@pytest.mark.parametrize("spec, heap", [("kayles", 2**64 - 1), ("nim", 10**9), ("0.{2+}", 100), ("4.{2+}", 2000)])
def test_huge_listings_raise_before_they_are_allocated(spec, heap):
    with pytest.raises(grundy.GrundyError, match="more than 1000000 options"):
        grundy.Game(spec).options(heap)
    assert len(grundy.Game(spec).options(10, limit=10**6)) > 0


def test_a_listing_within_its_limit_is_whole():
    # Kayles' heap of 3, each option once: two left in a row, one on each
    # side, one.
    assert grundy.Game("kayles").options(3) == [[2], [1, 1], [1]]
    assert grundy.Game("kayles").options(3, limit=3) == [[2], [1, 1], [1]]
    with pytest.raises(grundy.GrundyError, match="more than 2 options"):
        grundy.Game("kayles").options(3, limit=2)


@pytest.mark.parametrize("endless", [lambda n: itertools.count(), lambda n: itertools.repeat(0)])
def test_an_endless_iterator_of_options_raises(endless):
    with pytest.raises(grundy.GrundyError, match="listed more than"):
        grundy.Game.from_options(endless).value(3)


def test_a_rule_asking_its_own_game_raises_at_once():
    game = None

    def rule(n):
        if n > 3:
            game.value(n - 1)
        return [n - 1] if n else []

    game = grundy.Game.from_options(rule)
    for ask in (lambda: game.value(10), lambda: game.values(10), lambda: game.analyze(to=10)):
        with pytest.raises(grundy.GrundyError, match="re-entrant"):
            ask()


def test_values_computed_after_a_rule_failed_are_not_kept():
    calls = {"fail": True}

    def rule(n):
        if n == 5 and calls["fail"]:
            raise ValueError("five")
        return [n - 1] if n else []

    game = grundy.Game.from_options(rule)
    with pytest.raises(ValueError, match="five"):
        game.values(10)
    calls["fail"] = False
    assert list(game.values(10)) == [n % 2 for n in range(11)]


def test_misere_questions_share_the_clis_bounds():
    kayles = grundy.Game("kayles")
    with pytest.raises(grundy.GrundyError, match="heaps up to 10000"):
        kayles.genus(10**9)
    with pytest.raises(grundy.GrundyError, match="heaps up to 10000"):
        kayles.misere([10**6])
    assert kayles.misere([4, 7, 9]).winner in ("first", "second")


@pytest.mark.parametrize(
    "call",
    [
        # A misère search reports no progress: it runs on a helper thread
        # while the caller waits for signals (minutes for these heaps).
        "grundy.Game('0.77').misere([30, 31, 33, 35, 37, 39, 41], budget=10**9)",
        # The table of a many-part code toward a heap of a sum (tens of s).
        "grundy.sum_report(['0.{2+}:100000', 'kayles:3'])",
        # A Fibonacci Nim table (seconds before its work limit).
        "grundy.fibonacci_nim(10**6, ratio=10**6)",
    ],
)
def test_ctrl_c_stops_a_long_call(call):
    """SIGINT raises KeyboardInterrupt instead of waiting for the call."""
    import subprocess
    import sys

    script = (
        "import os, signal, threading, grundy\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        f"    {call}\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    # The timeout only keeps a regression from hanging the suite.
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert ran.stdout.strip() == "interrupted", ran.stdout + ran.stderr


@pytest.mark.parametrize("endless", [itertools.count, lambda: itertools.repeat(0)])
def test_rules_whose_options_never_end_raise(endless):
    rules = grundy.Rules(lambda p: endless(), max_positions=1000)
    with pytest.raises(grundy.GrundyError, match="listed more than 1000 options"):
        rules.value(0)


def test_work_limits_are_keywords_named_by_their_refusals():
    with pytest.raises(grundy.GrundyError, match=r"raise it with work_limit="):
        grundy.coin_values("turn(7)", 10**6)
    assert len(grundy.coin_values("turn(7)", 100)) == 100
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.coin_values("turn(7)", 100, work_limit=1000)
    with pytest.raises(grundy.GrundyError, match=r"past the limit of 1\.0e3"):
        grundy.coins("turn(7)", [10**4], work_limit=1000)
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.sum_report(["turn(7):10000", "kayles:3"], work_limit=1000)
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.count_coins("turn(7)", 10**4, work_limit=1000)
    ring = "\n".join(f"v{i} v{i + 1}" for i in range(199)) + "\nv199 g\ng v0"  # 201 edges: worth 1
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.hackenbush([ring], work_limit=10)
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.fibonacci_nim(10**6, ratio=10**6, work_limit=1000)
