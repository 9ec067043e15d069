"""The sum rule from Python against exhaustive game-tree search: all 819
sums of up to three take-and-split heaps of sizes 0..8, winner and every
winning move, as the Rust suite checks them."""

import itertools
from pathlib import Path
from functools import lru_cache

import grundy


def moves_from_the_rule(heap):
    """Take 1, take 2, or take 2 and split the rest into two non-empty heaps;
    each move gives the heaps left."""
    moves = []
    for take in (1, 2):
        if heap >= take:
            rest = heap - take
            moves.append(() if rest == 0 else (rest,))
    if heap >= 4:
        rest = heap - 2
        moves.extend((a, rest - a) for a in range(1, rest // 2 + 1))
    return moves


@lru_cache(maxsize=None)
def first_player_wins(position):
    """Win or loss by trying every move (``position`` is a sorted tuple)."""
    for i, heap in enumerate(position):
        for pieces in moves_from_the_rule(heap):
            rest = position[:i] + position[i + 1 :] + pieces
            if not first_player_wins(tuple(sorted(rest))):
                return True
    return False


def winning_moves_by_search(heaps):
    found = set()
    for i, heap in enumerate(heaps):
        for pieces in moves_from_the_rule(heap):
            rest = tuple(heaps[:i]) + tuple(heaps[i + 1 :]) + pieces
            if not first_player_wins(tuple(sorted(rest))):
                found.add((i, tuple(sorted(pieces))))
    return found


def test_all_819_sums_agree_with_exhaustive_search():
    game = grundy.Game("take-and-split")
    checked = 0
    for k in (1, 2, 3):
        for heaps in itertools.product(range(9), repeat=k):
            found = grundy.analyze_sum([(game, h) for h in heaps])
            wins = first_player_wins(tuple(sorted(heaps)))
            assert found.first_player_wins == wins, heaps
            assert found.winner == ("first" if wins else "second")
            moves = {(m.component, m.after) for m in found.winning_moves}
            assert len(moves) == len(found.winning_moves), heaps
            assert moves == winning_moves_by_search(heaps), heaps
            checked += 1
    assert checked == 9 + 81 + 729


def test_sums_of_different_games():
    kayles, nim = grundy.Game("kayles"), grundy.Game("nim")
    found = grundy.analyze_sum([(kayles, 4), (nim, 5), (kayles, 7)])
    assert found.values == [1, 5, 2]
    assert found.nim_sum == 6
    for move in found.winning_moves:
        game = [kayles, nim, kayles][move.component]
        reached = 0
        for heap in move.after:
            reached ^= game.value(heap)
        assert reached == found.values[move.component] ^ found.nim_sum
    assert grundy.sum_winner([(nim, 3), (nim, 3)]) == "second"
    assert grundy.analyze_sum([]).winner == "second"


def test_game_analyze_sum_and_options():
    kayles = grundy.Game("kayles")
    found = kayles.analyze_sum([4, 7])
    assert found.winning_moves[0].before == 4
    assert [(m.component, m.after) for m in found.winning_moves] == [(0, (2,)), (1, (2, 3))]
    # Take one pin (leaving a row of 2, or 1 and 1) or two (leaving 1).
    assert sorted(kayles.options(3)) == [[1], [1, 1], [2]]


EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_sum_report_mixes_kinds_and_every_winning_move_leaves_a_loss():
    graph = f"graph:{EXAMPLES / 'tasks.txt'}"
    components = ["kayles:3", f"{graph}:start", "(()())", "ruler:3,4,6", "wythoff:1,3"]
    found = grundy.sum_report(components)
    # Wythoff's g(1, 3) = 4 (its table's row 1: 1 2 0 4 5 3 ...).
    assert [c["value"] for c in found["components"]] == [3, 2, 1, 7, 4]
    assert found["outcome"] == "win" and found["winner"] == "first"
    assert found["nim_sum"] == 3 ^ 2 ^ 1 ^ 7 ^ 4
    assert found["complete"] and found["move_count"] == len(found["winning_moves"])
    for move in found["winning_moves"]:
        i = move["component"]
        game = components[i].rsplit(":", 1)[0]
        if components[i] == "(()())":
            continue  # a cut is not a position
        after = components[:i] + [f"{game}:{move['to']}"] + components[i + 1 :]
        if move["to"] in ("0", "none"):
            after = components[:i] + components[i + 1 :]
        assert grundy.sum_report(after)["winner"] == "second", move


def test_sum_report_takes_games_and_matches_analyze_sum():
    kayles = grundy.Game("kayles")
    found = grundy.sum_report([(kayles, 5), "nim:4", (kayles, 2)])
    typed = grundy.analyze_sum([(kayles, 5), (grundy.Game("nim"), 4), (kayles, 2)])
    assert [c["value"] for c in found["components"]] == typed.values
    assert found["nim_sum"] == typed.nim_sum
    assert found["winning_move_count"] == typed.winning_move_count
    # A bare position is one of `game`; games are named as written.
    bare = grundy.sum_report(["5", "nim:4", "2"], game="kayles")
    assert [c["game"] for c in bare["components"]] == ["kayles", "nim", "kayles"]
    assert bare == found


def test_sum_report_plays_cycles_by_smiths_theorem(tmp_path):
    loop = tmp_path / "loop.txt"
    loop.write_text("a b\nb a\nb c\nc d\nd\n")
    found = grundy.sum_report([f"graph:{loop}:a", "kayles:2"])
    assert found["outcome"] == "draw" and found["winner"] is None
    assert found["components"][0]["value"] is None
    assert found["nim_sum"] is None and found["winning_moves"] == []
    assert found["drawing_moves"]


def test_sum_report_refuses_with_the_packages_error():
    import pytest

    with pytest.raises(grundy.GrundyError, match="GAME:POSITION"):
        grundy.sum_report(["7"])
    with pytest.raises(grundy.GrundyError, match="Fibonacci"):
        grundy.sum_report(["fibonacci-nim:5"])
