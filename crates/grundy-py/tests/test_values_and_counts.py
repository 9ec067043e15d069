"""Value tables as arrays, counting against enumeration, nim arithmetic
against the mex definition."""

import array
import itertools
import random
from collections import Counter

import pytest

import grundy
import grundy._notebook


def test_values_are_compact_arrays_at_the_engines_width(monkeypatch):
    # Without NumPy: `array.array`s of the engine's width.
    monkeypatch.setattr(grundy._notebook, "_numpy", lambda: None)
    kayles = grundy.Game("kayles").values(1000)
    assert isinstance(kayles, array.array)
    assert (kayles.typecode, kayles.itemsize, len(kayles)) == ("B", 1, 1001)
    wide = grundy.Game("nim").values(1000)
    assert wide.typecode == "H" and max(wide) == 1000
    view = memoryview(wide)
    assert view.format == "H" and view.nbytes == 2 * 1001
    nim = grundy.Game("nim").values(70000)
    assert nim.typecode == "I" and nim[70000] == 70000
    # Asking for fewer heaps than are cached gives exactly those.
    assert list(grundy.Game("kayles").values(3)) == [0, 1, 2, 3]
    # Histograms are lists of counts by value.
    assert grundy.Game("kayles").histogram(10) == [0, 3, 3, 2, 2]


def test_with_numpy_values_are_arrays_of_the_engines_width():
    numpy = pytest.importorskip("numpy")
    kayles = grundy.Game("kayles").values(1000)
    assert isinstance(kayles, numpy.ndarray)
    assert (kayles.dtype, kayles.shape) == (numpy.uint8, (1001,))
    assert grundy.Game("nim").values(1000).dtype == numpy.uint16
    assert grundy.Game("nim").values(70000).dtype == numpy.uint32
    found = grundy.Game("kayles").analyze()
    assert found.values.dtype == numpy.uint8 and found.values.shape == (found.computed_to + 1,)
    histogram = grundy.Game("kayles").histogram(10)
    assert histogram.dtype == numpy.int64 and histogram.tolist() == [0, 3, 3, 2, 2]
    assert found.histogram.dtype == numpy.int64 and found.histogram.sum() == found.computed_to + 1


def test_numpy_reads_values_without_a_copy():
    numpy = pytest.importorskip("numpy")
    values = grundy.Game("grundy").values(1000)
    seen = numpy.asarray(values)
    assert seen.dtype == numpy.uint8 and seen.shape == (1001,)
    values[5] = 99
    assert seen[5] == 99  # the same memory


def test_values_and_value_agree_and_the_table_is_reused():
    game = grundy.Game("0.137")
    table = game.values(500)
    assert [game.value(n) for n in range(501)] == list(table)
    game.clear_cache()
    assert game.value(500) == table[500]


def brute_force_counts(values, k, order):
    if order == "ordered":
        tuples = itertools.product(range(len(values)), repeat=k)
    elif order == "ordered-distinct":
        tuples = itertools.permutations(range(len(values)), k)
    elif order == "unordered":
        tuples = itertools.combinations_with_replacement(range(len(values)), k)
    else:
        tuples = itertools.combinations(range(len(values)), k)
    counts = Counter()
    for t in tuples:
        x = 0
        for heap in t:
            x ^= values[heap]
        counts[x] += 1
    return counts


@pytest.mark.parametrize("order", ["ordered", "ordered-distinct", "unordered", "distinct"])
@pytest.mark.parametrize("spec", ["kayles", "grundy", "sub(1,3,4)"])
def test_counts_match_enumeration(spec, order):
    game = grundy.Game(spec)
    values = list(game.values(14))
    for k in (1, 2, 3):
        expected = brute_force_counts(values, k, order)
        found = game.count(14, k, order=order, start=0)
        assert {v: c for v, c in enumerate(found.by_nim_sum) if c} == dict(expected)
        assert found.total == sum(expected.values())
        assert found.p_positions == expected[0]
        modular = game.count(14, k, order=order, modulo=7, start=0)
        assert modular.by_nim_sum[: len(found.by_nim_sum)] == [c % 7 for c in found.by_nim_sum]


def test_histograms_of_huge_ranges_and_positions_of_different_games():
    kayles = grundy.Game("kayles")
    histogram = kayles.histogram(10**18, start=1)
    assert sum(int(c) for c in histogram) == 10**18
    nim = grundy.Game("nim")
    counts = grundy.count_positions([(kayles, 0, 20), (nim, 0, 30)])
    kv, nv = kayles.values(20), nim.values(30)
    expected = Counter(a ^ b for a in kv for b in nv)
    assert {v: c for v, c in enumerate(counts.by_nim_sum) if c} == dict(expected)
    # A histogram stands for the heaps it counts.
    given = grundy.count_positions([Counter(kv), (nim, 0, 30)])
    assert given.by_nim_sum == counts.by_nim_sum
    assert given.n_positions == given.total - given.p_positions
    modular = grundy.count_positions([Counter(kv), (nim, 0, 30)], modulo=7)
    assert modular.n_positions == (given.total - given.p_positions) % 7
    for order in ["ordered", "ordered-distinct", "unordered", "distinct"]:
        by_game = kayles.count(20, 3, order=order, start=0)
        by_histogram = grundy.count_positions([dict(Counter(kv))], heaps=3, order=order)
        assert by_histogram.by_nim_sum == by_game.by_nim_sum, order
    with pytest.raises(grundy.GrundyError, match="no heap"):
        grundy.count_positions([{0: 0}])
    with pytest.raises(ValueError, match="one range"):
        grundy.count_positions([(kayles, 0, 5), (nim, 0, 5)], heaps=2)
    exact = kayles.count(10**15, 3, order="unordered", start=0)
    assert exact.total == (10**15 + 1) * (10**15 + 2) * (10**15 + 3) // 6
    assert exact.modulo is None


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


def test_nim_arithmetic_matches_the_mex_definition():
    size = 32
    product = [[0] * size for _ in range(size)]
    for a in range(size):
        for b in range(size):
            # a*b = mex { a'*b ^ a*b' ^ a'*b' : a' < a, b' < b }
            product[a][b] = mex(
                {
                    product[x][b] ^ product[a][y] ^ product[x][y]
                    for x in range(a)
                    for y in range(b)
                }
            )
            assert grundy.nim_mul(a, b) == product[a][b], (a, b)
    for a in range(1, size):
        assert grundy.nim_mul(a, grundy.nim_inv(a)) == 1
        root = grundy.nim_sqrt(a)
        assert grundy.nim_mul(root, root) == a
        assert grundy.nim_pow(a, 3) == grundy.nim_mul(a, grundy.nim_mul(a, a))
    assert grundy.nim_add(5, 3) == 6
    rng = random.Random(7)
    for _ in range(200):
        a, b, c = (rng.getrandbits(64) for _ in range(3))
        assert grundy.nim_mul(a, b ^ c) == grundy.nim_mul(a, b) ^ grundy.nim_mul(a, c)
        assert grundy.nim_mul(grundy.nim_mul(a, b), c) == grundy.nim_mul(a, grundy.nim_mul(b, c))
        if a:
            assert grundy.nim_mul(a, grundy.nim_inv(a)) == 1
    with pytest.raises(ZeroDivisionError):
        grundy.nim_inv(0)
    with pytest.raises(OverflowError):
        grundy.nim_mul(2**64, 1)


def test_catalogue_lists_the_built_ins():
    entries = {name: (code, description) for name, code, description, _ in grundy.games()}
    assert entries["kayles"][0] == "0.77"
    assert all(description for _, description in entries.values())
    assert grundy.Game("kayles").name == entries["kayles"][0]


def test_coin_turning_hackenbush_and_fibonacci_nim():
    assert grundy.coin_values("turtles", 6) == [1, 2, 3, 4, 5, 6]
    assert grundy.coin_values("mock-turtles", 8) == [1, 2, 4, 7, 8, 11, 13, 14]
    row = grundy.coins("ruler", [3, 4, 6])
    assert row["nim_sum"] == 1 ^ 4 ^ 2 and row["winner"] == "first"
    assert [4, 5, 6] in [m["turn"] for m in row["winning_moves"]]
    found = grundy.hackenbush(["(()())", "((()))", "()"])
    assert found["values"] == [1, 3, 1] and found["nim_sum"] == 3
    assert found["winning_cuts"][0] == {"picture": 0, "edge": 2, "between": ["v1", "v2"]}
    assert found["pictures"][1] == {"picture": "((()))", "value": 3}
    assert grundy.hackenbush(["g a\na b\nb g"])["values"] == [1]
    assert grundy.fibonacci_nim(100) == {
        "heap": 100,
        "limit": 99,
        "ratio": 2,
        "winner": "first",
        "winning_takes": [3, 11],
        "zeckendorf": [89, 8, 3],
    }
    # Every winning move of a row, as the command lists them.
    turtles = grundy.coins("mock-turtles", [3, 5, 9])
    assert turtles["complete"] and len(turtles["winning_moves"]) == 4
    assert grundy.fibonacci_nim(89)["winner"] == "second"
    # A rational ratio, exactly: at most floor(3t/2) after a take of t.
    three_halves = grundy.fibonacci_nim(100, ratio="1.5")
    assert three_halves["ratio"] == "3/2" and three_halves["winning_takes"] == [4, 36]
    assert grundy.fibonacci_nim(100, ratio=3)["ratio"] == 3
    with pytest.raises(grundy.GrundyError, match="invalid ratio"):
        grundy.fibonacci_nim(100, ratio="0")
    with pytest.raises(grundy.GrundyError, match="invalid coin-turning rule"):
        grundy.coins("spin(2)", [1])
    with pytest.raises(grundy.GrundyError, match="not closed"):
        grundy.hackenbush(["(()"])


def test_positions_of_coin_grids_are_counted_by_nim_sum():
    # 3 x 4 coins of ruler*ruler span every number below 16: 2^(12 - 4)
    # positions of each nim-sum, as the command counts them.
    grid = grundy.count_coins("ruler*ruler", 3, 4, nim_sum=9)
    assert (grid["total"], grid["p_positions"], grid["n_positions"]) == (4096, 256, 3840)
    assert grid["nim_sum"] == {"value": 9, "occurs": True, "positions": 256}
    # A row of five Mock Turtles (1, 2, 4, 7, 8): brute force over every set of heads.
    values = grundy.coin_values("mock-turtles", 5)
    losing = 0
    for heads in range(1 << 5):
        total = 0
        for i, v in enumerate(values):
            if heads >> i & 1:
                total ^= v
        losing += total == 0
    assert grundy.count_coins("mock-turtles", 5)["p_positions"] == losing
    huge = grundy.count_coins("ruler*ruler", 10**12, 10**12, modulo=1_000_000_007)
    assert huge["p_positions"] == pow(2, 10**24 - 64, 1_000_000_007)
    with pytest.raises(grundy.GrundyError):
        grundy.count_coins("ruler*ruler", 3000, 3000)


def test_heaps_are_counted_by_the_guessed_formula_and_say_it_is_a_conjecture():
    # Subtracting a power of two has g(n) = n mod 3 on every heap computed
    # (2^22) and no theorem: past the table the count is by the formula,
    # labelled a conjecture.
    game = grundy.Game("sub(powers-of-2)")
    report = game.count_heaps(10**14, by_formula=True)
    assert report["heaps"] == 10**14
    assert report["by_formula"]["formula"] == "g(n) = n mod 3"
    assert report["by_formula"]["proven"] is False
    assert report["by_formula"]["verified_to"] == 2**22
    counts = dict(report["histogram"])
    assert counts == {0: 10**14 // 3, 1: 10**14 // 3 + 1, 2: 10**14 // 3}
    # Within the table the same call tabulates, against the values.
    small = game.count_heaps(1000)
    assert small["by_formula"] is None and small["source"] == "computed heap by heap"
    values = game.values(1000)
    assert small["p_positions"] == sum(1 for v in values[1:] if v == 0)
    with pytest.raises(grundy.GrundyError):
        game.count_heaps(10**14)



def test_count_heaps_by_a_formula_the_user_writes() -> None:
    # A formula string is checked against the heaps computed (to `max`),
    # then counts past them; a wrong one is refused at its first bad heap.
    game = grundy.Game("proper-divisors")
    report = game.count_heaps(2**40, max=3000, by_formula="g(n) = ctz(n)")
    assert report["by_formula"] == {
        "formula": "g(n) = ctz(n), the exponent of 2 in n",
        "verified_to": 3000,
        "proven": False,
    }
    counts = dict(report["histogram"])
    assert counts == {k: 2**40 >> (k + 1) for k in range(40)} | {40: 1}
    with pytest.raises(grundy.GrundyError, match="fails at heap 1"):
        game.count_heaps(2**40, max=3000, by_formula="ctz(n) + 1")
    with pytest.raises(grundy.GrundyError, match="invalid formula"):
        game.count_heaps(2**40, max=3000, by_formula="ctz(m)")


def test_ranges_start_at_heap_1_as_in_the_cli():
    # `grundy count kayles --to 1000 --heaps 3 --unordered` counts 771,610
    # P-positions among heaps 1..=1000.
    kayles = grundy.Game("kayles")
    assert kayles.count(1000, 3, order="unordered").p_positions == 771_610
    assert kayles.count_heaps(1000)["heaps"] == kayles.count(1000, 1).total == 1000
    assert sum(kayles.histogram(1000)) == 1000


def test_sums_and_analyses_of_huge_heaps_go_through_the_proven_period():
    kayles = grundy.Game("kayles")
    found = kayles.analyze(to=10**12)
    assert found.computed_to < 1000 and found.to == 10**12
    assert sum(found.histogram) == 10**12 + 1
    assert found.p_positions == [0]
    sum_ = grundy.analyze_sum([(kayles, 10**9), (kayles, 3)])
    assert sum_.winner == "first"
    assert not sum_.complete and len(sum_.winning_moves) == 10_000
    assert sum_.winning_move_count > 200_000_000


def partitions(n, largest=None):
    """Every partition of `n` as a tuple of parts, largest first."""
    if n == 0:
        yield ()
        return
    for part in range(min(n, largest or n), 0, -1):
        for rest in partitions(n - part, part):
            yield (part,) + rest


@pytest.mark.parametrize("spec", ["kayles", "nim", "0.137", "sub(1,3,4)"])
def test_partitions_are_counted_by_nim_sum_as_enumerated(spec):
    # `count_report(game, partitions=N)` is `grundy count GAME --partitions N`:
    # the partitions of N into heaps of the game by the nim-sum of their
    # values, against every partition listed.
    values = list(grundy.Game(spec).values(20))
    for n in (0, 5, 12, 20):
        for parts, allowed in ((None, range(1, n + 1)), ([1, 3, 4, 5], [1, 3, 4, 5]), ("2..4", [2, 3, 4])):
            for distinct in (False, True):
                for heaps in (None, 3):
                    expected = Counter()
                    for p in partitions(n):
                        if not all(s in allowed for s in p):
                            continue
                        if distinct and len(set(p)) != len(p):
                            continue
                        if heaps is not None and len(p) != heaps:
                            continue
                        x = 0
                        for s in p:
                            x ^= values[s]
                        expected[x] += 1
                    report = grundy.count_report(
                        spec, partitions=n, parts=parts, distinct=distinct, heaps=heaps, all=True
                    )
                    assert report["partitions_of"] == n and report["distinct"] == distinct
                    assert dict(report["by_nim_sum"]) == {x: c for x, c in expected.items() if c}
                    assert report["total"] == sum(expected.values())
                    assert report["p_positions"] == expected[0]
                    modular = grundy.count_report(
                        spec, partitions=n, parts=parts, distinct=distinct, heaps=heaps, modulo=7
                    )
                    assert modular["total"] == report["total"] % 7
                    assert modular["p_positions"] == report["p_positions"] % 7


def test_partitions_refuse_what_they_do_not_take():
    # p(1000) has 32 digits: exact counts are Python ints.
    assert grundy.count_report("kayles", partitions=1000)["total"] == 24061467864032622473692149727991
    with pytest.raises(grundy.GrundyError, match="partitions="):
        grundy.count_report("kayles", parts=[1, 2])
    with pytest.raises(grundy.GrundyError, match="to="):
        grundy.count_report("kayles", 10, partitions=10)
    with pytest.raises(grundy.GrundyError, match="invalid part sizes"):
        grundy.count_report("kayles", partitions=10, parts="0..3")
    with pytest.raises(grundy.GrundyError, match="work_limit="):
        grundy.count_report("kayles", partitions=10**5)
    with pytest.raises(ValueError, match="parts"):
        grundy.count_report("kayles", partitions=10, parts=[-1])


def test_winning_move_tables_agree_with_the_moves_of_each_heap():
    game = grundy.Game("0.137")
    table = game.winning_moves(40)
    assert len(table["heaps"]) == 41
    for row in table["heaps"]:
        n = row["heap"]
        # The winning moves, from the options and the values.
        values = game.values(60)
        wins = [o for o in game.options(n) if not _xor(values[h] for h in o)]
        assert row["winning_moves"] == len(wins), n
        taken = [n - sum(o) for o in wins]
        assert row["fewest_taken"] == (min(taken) if taken else None)
        assert row["most_taken"] == (max(taken) if taken else None)
    assert table["winning_moves"] == sum(r["winning_moves"] for r in table["heaps"])
    far = grundy.Game("kayles").winning_moves(10**15, rows=False)
    assert far["heaps"] is None
    assert far["heap_count"] == 10**15 + 1
    assert far["through_period"] == {"preperiod": 71, "period": 12}
    with pytest.raises(grundy.GrundyError, match="rows=False"):
        grundy.Game("kayles").winning_moves(10**7)


def _xor(values):
    total = 0
    for v in values:
        total ^= int(v)
    return total
