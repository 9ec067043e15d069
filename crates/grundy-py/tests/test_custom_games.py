"""Games written in Python and driven by the engine: equal to their
built-in equivalents, and failing cleanly."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import grundy
from conftest import wythoff_options


def kayles_options(n):
    """Knock down one pin or two adjacent ones from a row of n."""
    for take in (1, 2):
        for left in range(n - take + 1):
            yield (left, n - take - left)


def test_python_kayles_equals_the_built_in():
    custom = grundy.Game.from_options(kayles_options, name="my kayles")
    assert list(custom.values(300)) == list(grundy.Game("kayles").values(300))
    assert custom.name == "my kayles"
    found = custom.analyze(to=400)
    assert (found.period, found.preperiod, found.proven) == (12, 71, False)
    assert found.support == "observed"


def test_python_subtraction_game_equals_the_built_in():
    squares = grundy.Game.from_options(
        lambda n: [n - k * k for k in range(1, int(n**0.5) + 1)]
    )
    assert list(squares.values(500)) == list(grundy.Game("sub(squares)").values(500))


def test_general_rules_with_sums_equal_the_built_in():
    """Kayles on rows as positions, a move leaving two rows as a Sum."""
    rules = grundy.Rules(lambda n: (grundy.Sum(a, b) for a, b in kayles_options(n)))
    kayles = grundy.Game("kayles")
    assert [rules.value(n) for n in range(60)] == list(kayles.values(59))
    found = rules.analyze_sum([4, 7])
    reference = kayles.analyze_sum([4, 7])
    # Rules lists every move (both ends of a row, empty rows left); the
    # same moves up to that.
    assert {(m.component, tuple(sorted(h for h in m.after if h))) for m in found.winning_moves} == {
        (m.component, m.after) for m in reference.winning_moves
    }
    assert rules.explored >= 60


def test_general_rules_on_tuples_and_every_winning_move_leads_to_zero():
    rules = grundy.Rules(wythoff_options)
    found = rules.analyze_sum([(4, 6), (2, 9)])
    assert found.first_player_wins
    for move in found.winning_moves:
        rest = [(4, 6), (2, 9)]
        rest[move.component : move.component + 1] = list(move.after)
        assert rules.analyze_sum(rest).nim_sum == 0


def test_counts_of_python_games_are_tabulated():
    custom = grundy.Game.from_options(kayles_options)
    assert list(custom.histogram(100, start=10)) == list(grundy.Game("kayles").histogram(100, start=10))
    assert custom.count(30, 2).by_nim_sum == grundy.Game("kayles").count(30, 2).by_nim_sum


def test_exceptions_in_options_propagate_unchanged():
    class Boom(Exception):
        pass

    def options(n):
        if n == 7:
            raise Boom("heap 7")
        return [n - 1] if n else []

    game = grundy.Game.from_options(options)
    with pytest.raises(Boom, match="heap 7"):
        game.values(20)
    # The game is still usable for heaps it can compute.
    assert list(game.values(6)) == [0, 1, 0, 1, 0, 1, 0]
    with pytest.raises(Boom):
        grundy.Rules(lambda p: options(p)).value(9)


def test_bad_options_are_clear_errors():
    with pytest.raises(TypeError, match=r"options\(1\) listed 'x'"):
        grundy.Game.from_options(lambda n: ["x"] if n else []).values(3)
    with pytest.raises(TypeError, match="an option is a heap"):
        grundy.Game.from_options(lambda n: [-1] if n else []).values(3)
    with pytest.raises(
        grundy.GrundyError, match="heap 2 has an option containing heap 2, which is not smaller"
    ):
        grundy.Game.from_options(lambda n: [n] if n == 2 else []).values(3)
    with pytest.raises(TypeError):
        grundy.Game.from_options(lambda n: 5).values(3)
    with pytest.raises(ValueError, match="options must be a callable"):
        grundy.Game.from_options(42)


def test_cycles_and_budgets_in_general_rules():
    with pytest.raises(grundy.GrundyError, match="the game has a cycle through 'b'"):
        grundy.Rules({"a": ["b"], "b": ["c"], "c": ["b"]}.get).value("a")
    with pytest.raises(grundy.GrundyError, match="position budget exceeded"):
        grundy.Rules(lambda n: [n + 1], max_positions=1000).value(0)
    with pytest.raises(TypeError):
        grundy.Rules(lambda p: [[1, 2]]).value(0)


def test_engine_errors_carry_the_cli_messages():
    with pytest.raises(grundy.GrundyError) as error:
        grundy.Game("chess")
    assert str(error.value) == "unknown game 'chess' (run `grundy games` for the list)"
    with pytest.raises(grundy.GrundyError, match=r"invalid code '0\.7#' at character 4"):
        grundy.Game("0.7#")
    with pytest.raises(grundy.GrundyError, match="over the limit of"):
        grundy.Game("grundy", memory_limit=1 << 20).values(10**7)
    with pytest.raises(grundy.GrundyError, match="is empty"):
        grundy.Game("kayles").histogram(5, start=9)
    with pytest.raises(ValueError, match="order 'sideways'"):
        grundy.Game("kayles").count(5, 2, order="sideways")
    with pytest.raises(ValueError, match="modulus must be at least 1"):
        grundy.Game("kayles").count(5, 2, modulo=0)
    with pytest.raises(ValueError, match="to must be a non-negative integer, not -1"):
        grundy.Game("kayles").values(-1)


def test_ctrl_c_interrupts_a_long_table():
    """A long run releases the GIL and still stops on SIGINT."""
    # Python keeps SIGINT ignored when it starts with it ignored (as a
    # job started in the background by a shell without job control does):
    # the child restores the default handler, as a terminal gives it.
    script = textwrap.dedent(
        """
        import grundy, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            grundy.Game("grundy", threads=1).values(1 << 26)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ
    )
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    assert child.wait(timeout=60) == 3
    assert child.stdout.read().strip() == "interrupted"
    assert time.monotonic() - sent < 30


EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples")


def test_a_scripts_parameters_take_the_values_of_defines():
    """examples/take-up-to.rhai: take 1 to K tokens, g(n) = n mod (K + 1)."""
    import pickle

    path = os.path.join(EXAMPLES, "take-up-to.rhai")
    default = grundy.Game(path)
    five = grundy.Game(path, defines={"K": 5})
    assert list(default.values(7)) == [n % 4 for n in range(8)]
    assert list(five.values(7)) == [n % 6 for n in range(8)]
    # Two K's are two games: named, compared and pickled with the define.
    assert five.name.endswith("take-up-to.rhai(K=5)")
    assert five != default and five == grundy.Game(path, defines={"K": 5})
    assert list(pickle.loads(pickle.dumps(five)).values(7)) == list(five.values(7))
    with pytest.raises(grundy.GrundyError, match="the script's parameters: K"):
        grundy.Game(path, defines={"B": 2})
    with pytest.raises(grundy.GrundyError, match="invalid define"):
        grundy.Game(path, defines={"not a name": 2})
    with pytest.raises(TypeError):
        grundy.Game(path, defines={"K": "five"})
    with pytest.raises(ValueError, match="not a script"):
        grundy.Game("kayles", defines={"K": 2})


def test_wide_script_rules_agree_with_python():
    """Every k coprime to n: the script (its built-in gcd) and Python."""
    from math import gcd

    path = os.path.join(EXAMPLES, "coprime.rhai")
    python = grundy.Game.from_options(lambda n: [n - k for k in range(1, n + 1) if gcd(k, n) == 1])
    assert list(grundy.Game(path).values(300)) == list(python.values(300))
