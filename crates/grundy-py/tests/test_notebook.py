"""Issue 51, part 3: a native notebook experience. Rich display of every
class, NumPy arrays and pandas tables, matplotlib plots, progress for long
calls, comparable and picklable games, one type per kind of answer, and
errors that name the parameter."""

import concurrent.futures
import math
import pickle
import subprocess
import sys
import textwrap

import pytest

import grundy
import grundy._notebook


def kayles_options(n):
    """Kayles from Python: take one or two pins, maybe splitting the row."""
    for take in (1, 2):
        for left in range(n - take + 1):
            yield (left, n - take - left)


def value_in_worker(game, heap):
    """A process pool's job: a module-level function, pickled by name."""
    return game, game.value(heap)


# ------------------------------------------------------------- equality


def test_games_are_equal_when_their_canonical_specs_are():
    kayles = grundy.Game("kayles")
    assert kayles == grundy.Game("0.77") == grundy.Game(" Kayles ")
    assert hash(kayles) == hash(grundy.Game("0.77"))
    assert grundy.Game("sub(4,3,1)") == grundy.Game("sub(1,3,4)")
    assert kayles != grundy.Game("dawsons-kayles") and kayles != "0.77"
    assert len({kayles, grundy.Game("0.77"), grundy.Game("0.07")}) == 2
    # The keywords change how values are computed, not the game.
    assert kayles == grundy.Game("kayles", threads=1, memory_limit=1 << 30)
    # Rules from Python are equal to themselves only.
    custom = grundy.Game.from_options(kayles_options)
    assert custom == custom and custom != grundy.Game.from_options(kayles_options)
    assert custom != kayles and {custom: 1}[custom] == 1


def test_games_pickle_as_their_spec_and_keywords():
    for game in [grundy.Game("kayles"), grundy.Game("4!.0"), grundy.Game("sub(1,3,4)")]:
        back = pickle.loads(pickle.dumps(game))
        assert back == game and back.spec == game.spec and back.name == game.name
        assert list(back.values(30)) == list(game.values(30))
    bounded = grundy.Game("grundy", threads=1, memory_limit=1 << 20)
    back = pickle.loads(pickle.dumps(bounded, protocol=2))
    with pytest.raises(grundy.GrundyMemoryError):
        back.values(10**7)


def test_a_game_from_a_python_callable_does_not_pickle_and_says_why():
    custom = grundy.Game.from_options(kayles_options, name="my kayles")
    with pytest.raises(TypeError, match="holds a Python callable and cannot be pickled"):
        pickle.dumps(custom)


def test_games_go_to_a_process_pool():
    games = [grundy.Game("kayles"), grundy.Game("dawsons-kayles")]
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        found = list(pool.map(value_in_worker, games, [10**5, 10**4]))
    assert found == [(games[0], games[0].value(10**5)), (games[1], games[1].value(10**4))]


# -------------------------------------------------------------- display


def public_classes():
    return [getattr(grundy, name) for name in dir(grundy) if isinstance(getattr(grundy, name), type)]


def test_every_result_class_has_a_repr_and_html():
    classes = {c.__name__ for c in public_classes() if not issubclass(c, BaseException)}
    assert classes == {
        "Analysis", "CensusRun", "Game", "Genus", "Infinite", "MisereAnalysis", "Move",
        "NimSumCounts", "Outcomes", "Quotient", "Rules", "Sum", "SumAnalysis",
    }
    kayles = grundy.Game("kayles")
    rules = grundy.Rules({"a": ["b"], "b": []}.get)
    rules.value("a")
    objects = [
        kayles,
        kayles.analyze(),
        kayles.analyze_sum([4, 7]),
        kayles.analyze_sum([4, 7]).winning_moves[0],
        kayles.count(100, 2),
        kayles.genus(3)[3],
        grundy.Infinite([0, 2]),
        kayles.misere([4, 7]),
        grundy.Game("0.7").misere_quotient(6),
        grundy.outcomes(lambda s: [s - 1] if s else [], 10),
        rules,
        grundy.Sum(1, 2),
        grundy.CensusRun(["0.7"]),
    ]
    assert {type(o).__name__ for o in objects} == classes
    for found in objects:
        shown = found._repr_html_()
        assert shown.startswith("<div class='grundy'>"), type(found)
        text = repr(found)
        assert text.startswith(type(found).__name__), text
    assert repr(rules).startswith("Rules(") and "explored=2" in repr(rules)
    assert repr(kayles) == "Game('kayles')"


def test_the_html_of_an_analysis_holds_its_values_and_period():
    found = grundy.Game("kayles").analyze()
    shown = found._repr_html_()
    assert "Analysis of 0.77" in shown and "12 from heap 71" in shown
    assert "PROVEN by the octal periodicity theorem" in shown
    # The first values, in order, P-positions (value 0) in bold.
    cells = "".join(f"<td>{v}</td>" for v in list(found.values)[1:5])
    assert cells in shown and "<td class='p'>0</td>" in shown
    counts = grundy.Game("kayles").count(100, 2)._repr_html_()
    assert f"{grundy.Game('kayles').count(100, 2).total:,}" in counts


def test_the_html_of_a_game_shows_its_first_values_but_runs_no_python_rule():
    shown = grundy.Game("kayles")._repr_html_()
    assert "0.77" in shown and "<td>1</td><td>2</td><td>3</td>" in shown
    called = []
    custom = grundy.Game.from_options(lambda n: called.append(n) or [])
    custom._repr_html_()
    assert called == []


# ------------------------------------------------------ arrays and pandas


def test_values_are_numpy_arrays_without_a_copy():
    numpy = pytest.importorskip("numpy")
    values = grundy.Game("grundy").values(1000)
    assert isinstance(values, numpy.ndarray)
    assert (values.dtype, values.shape) == (numpy.uint8, (1001,))
    assert numpy.asarray(values) is values
    assert values.base is not None  # a view of the engine's compact table


def test_histograms_are_counts_by_value():
    numpy = pytest.importorskip("numpy")
    kayles = grundy.Game("kayles")
    histogram = kayles.histogram(1000)
    assert histogram.dtype == numpy.int64 and histogram.sum() == 1000
    values = kayles.values(1000)
    assert histogram.tolist() == numpy.bincount(values[1:]).tolist()
    # Through the period, the same counts the CLI's document has.
    far = kayles.histogram(10**6, start=5000)
    document = grundy.count_report("kayles", 10**6, start=5000)
    assert {v: int(c) for v, c in enumerate(far) if c} == dict(document["histogram"])


def test_to_pandas_tables():
    pytest.importorskip("pandas")
    found = grundy.Game("kayles").analyze()
    table = found.to_pandas()
    assert list(table.columns) == ["heap", "value"] and len(table) == found.computed_to + 1
    assert table["value"].tolist() == list(found.values)
    histogram = found.to_pandas("histogram")
    assert list(histogram.columns) == ["value", "heaps"]
    assert histogram["heaps"].sum() == found.computed_to + 1
    counts = grundy.Game("kayles").count(10**15, 3, order="unordered")
    by_sum = counts.to_pandas()
    assert list(by_sum.columns) == ["nim_sum", "positions"]
    assert by_sum["positions"].tolist() == counts.by_nim_sum  # exact, past 2^63
    with pytest.raises(ValueError, match="what must be"):
        found.to_pandas("sideways")


def test_a_missing_optional_library_says_which_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    found = grundy.Game("kayles").analyze()
    with pytest.raises(ImportError, match="to_pandas\\(\\) needs pandas.*pip install pandas"):
        found.to_pandas()
    with pytest.raises(ImportError, match="plot\\(\\) needs matplotlib"):
        found.plot()


# ---------------------------------------------------------------- plots


@pytest.fixture
def pyplot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def integral(ticks):
    return all(float(t).is_integer() for t in ticks)


def marks(ax, *prefixes):
    """The points of the collections whose labels start with a prefix."""
    import numpy

    found = [c.get_offsets() for c in ax.collections if c.get_label().startswith(prefixes)]
    return numpy.concatenate(found) if found else numpy.empty((0, 2))


VALUES = ("g(n)", "common values", "rare values")


def test_a_values_plot_marks_p_positions_and_shades_the_period(pyplot):
    found = grundy.Game("kayles").analyze()
    ax = found.plot()
    assert isinstance(ax, pyplot.Axes)
    assert integral(ax.get_yticks()) and integral(ax.get_xticks())
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    # Kayles' values split into rare and common ones (mask 15), as the
    # library's plot description says and `grundy plot` draws them.
    assert found.plot_description["rare_mask"] == 15
    assert labels[:2] == ["common values", "rare values (mask 15)"]
    assert labels[2].startswith("P-positions (")
    assert any("periodic from 71 (proven)" in label for label in labels)
    assert any("one period: 12" in label for label in labels)
    assert list(ax.get_yticks()) == found.plot_description["value_ticks"]
    assert len(marks(ax, *VALUES)) == found.computed_to + 1
    rare = {v["value"] for v in found.plot_description["values"] if v["class"] == "rare"}
    assert set(marks(ax, "rare values")[:, 1]) == rare
    assert len(marks(ax, "P-positions")) == found.p_position_count


def test_plots_of_histograms_counts_long_runs_and_on_given_axes(pyplot):
    found = grundy.Game("kayles").analyze()
    bars = found.plot(kind="histogram")
    assert len(bars.patches) == len(found.histogram) and integral(bars.get_xticks())
    _, ax = pyplot.subplots()
    assert grundy.Game("kayles").count(100, 2).plot(ax=ax, logy=True) is ax
    assert ax.get_yscale() == "log"
    # A long run is drawn in bins, every value of each bin kept.
    long = grundy.Game("0.6").analyze(to=300_000)
    ax = long.plot(logx=True)
    assert ax.get_xscale() == "symlog" and integral(ax.get_yticks())
    drawn = marks(ax, *VALUES)
    assert len(drawn) < 300_000 and set(drawn[:, 1]) == set(long.values.tolist())
    title = grundy.Game("kayles").plot(1000).get_title()
    assert title == "0.77: g(0..=1000), past 167 through the period"
    assert len(marks(grundy.Game("kayles").plot(1000), *VALUES)) == 1001
    with pytest.raises(ValueError, match="kind must be"):
        found.plot(kind="pie")


# ------------------------------------------------------------- progress


def recorded():
    calls = []
    return calls, lambda done, total: calls.append((done, total))


def check_progress(calls):
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1]
    assert all(total == calls[0][1] for _, total in calls)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:])), calls


def test_long_calls_tell_a_progress_callback_how_far_they_are():
    calls, progress = recorded()
    grundy.Game("0.6", threads=1).values(400_000, progress=progress)
    check_progress(calls)
    assert calls[-1] == (400_001, 400_001) and len(calls) >= 3

    calls, progress = recorded()
    grundy.Game("0.6").analyze(max=50_000, progress=progress)
    check_progress(calls)
    assert calls[-1][1] == 50_001

    calls, progress = recorded()
    counts = grundy.Game("0.6", threads=1).count(300_000, 2, progress=progress)
    check_progress(calls)
    assert len(calls) >= 3 and counts.total == 300_000**2

    calls, progress = recorded()
    grundy.Game("kayles").histogram(10**18, progress=progress)
    check_progress(calls)

    calls, progress = recorded()
    grundy.count_report("turtles", 3000, progress=progress)
    check_progress(calls)


def test_a_count_after_values_computes_nothing_more():
    game = grundy.Game("0.6")
    game.values(100_000)
    calls, progress = recorded()
    game.count(100_000, 2, progress=progress)
    assert calls == [(0, 100_001), (100_001, 100_001)]
    assert game.cached == 100_001


def test_an_exception_from_the_callback_stops_the_run():
    game = grundy.Game("0.6", threads=1)

    def stop(done, total):
        if done:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        game.values(2**24, progress=stop)
    assert game.cached < 2**24
    with pytest.raises(TypeError, match="progress must be True, False, None or a callable"):
        game.values(10, progress="yes")


def test_progress_true_draws_a_bar(capsys, monkeypatch):
    pytest.importorskip("tqdm")
    grundy.Game("0.6").values(200_000, progress=True)
    err = capsys.readouterr().err
    assert "values" in err and "100%" in err
    # Without tqdm, one line on stderr.
    monkeypatch.setattr(grundy._notebook, "_optional", lambda module: None)
    grundy.Game("0.6").values(100_000, progress=True)
    assert "values: 100,001/100,001 heaps (100%)" in capsys.readouterr().err


def test_ctrl_c_stops_a_long_count_that_reports_progress():
    script = textwrap.dedent(
        """
        import os, signal, threading, grundy
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            grundy.Game("grundy", threads=1).count(1 << 22, 2, progress=lambda d, t: None)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert ran.stdout.strip() == "interrupted", ran.stdout + ran.stderr


# ------------------------------------------------ types and their errors


def test_data_accessors_are_properties():
    found = grundy.Game("kayles").analyze()
    for name in ["values", "p_positions", "p_position_count", "exceptions", "histogram", "period"]:
        assert isinstance(getattr(type(found), name), type(type(found).period)), name
    assert found.p_positions == [0] and found.p_position_count == 1
    assert found.exceptions[:3] == [0, 3, 6]


def test_counts_in_documents_are_ints():
    report = grundy.count_report("kayles", 10**18, heaps=3, order="unordered", all=True)
    assert isinstance(report["p_positions"], int) and isinstance(report["total"], int)
    assert report["total"] == math.comb(10**18 + 2, 3)
    assert all(isinstance(c, int) for _, c in report["by_nim_sum"])
    assert isinstance(report["positions"]["ranges"][0]["heaps"], int)
    heaps = grundy.Game("kayles").count_heaps(1000)
    assert heaps["heaps"] == 1000 and all(isinstance(c, int) for _, c in heaps["histogram"])
    assert heaps["game"] == "kayles"  # text stays text
    grid = grundy.count_coins("ruler*ruler", 3, 4)
    assert (grid["cells"], grid["total"], grid["per_nim_sum"]) == (12, 4096, 256)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda k: k.values(-1), ValueError, "to must be a non-negative integer, not -1"),
        (lambda k: k.values(2**64), ValueError, "to must be below 2\\*\\*64"),
        (lambda k: k.values(1.5), TypeError, "to must be an int, not float"),
        (lambda k: k.values("7"), TypeError, "to must be an int, not str"),
        (lambda k: k.value(-3), ValueError, "n must be a non-negative integer, not -3"),
        (lambda k: k.analyze(to=-1), ValueError, "to must be"),
        (lambda k: k.analyze(max=-1), ValueError, "max must be"),
        (lambda k: k.histogram(10, start=-1), ValueError, "start must be"),
        (lambda k: k.count(10, -2), ValueError, "heaps must be a non-negative integer, not -2"),
        (lambda k: k.count(10, 2, modulo=-7), ValueError, "modulo must be"),
        (lambda k: k.analyze_sum([3, -1]), ValueError, "heap must be a non-negative integer, not -1"),
        (lambda k: k.options(-1), ValueError, "n must be"),
        (lambda k: k.analyze().value(-1), ValueError, "n must be"),
        (lambda k: grundy.count_report(k, -5), ValueError, "to must be"),
        (lambda k: grundy.sum_winner([(k, -1)]), ValueError, "heap must be"),
    ],
)
def test_bad_sizes_name_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call(grundy.Game("kayles"))


def test_numpy_integers_are_sizes():
    numpy = pytest.importorskip("numpy")
    kayles = grundy.Game("kayles")
    assert kayles.value(numpy.int64(10)) == 2
    assert len(kayles.values(numpy.uint16(20))) == 21


def test_memory_refusals_are_memory_errors_and_grundy_errors():
    game = grundy.Game("grundy", memory_limit=1 << 20)
    with pytest.raises(MemoryError, match="over the limit of 1.0 MiB"):
        game.values(10**7)
    with pytest.raises(grundy.GrundyError):
        game.values(10**7)
    assert issubclass(grundy.GrundyMemoryError, grundy.GrundyError)
    assert issubclass(grundy.GrundyMemoryError, MemoryError)
    assert grundy.GrundyMemoryError.__module__ == "grundy"
    # Other refusals are not memory errors.
    with pytest.raises(grundy.GrundyError) as refused:
        grundy.Game("chess")
    assert not isinstance(refused.value, MemoryError)


def test_counts_by_value_are_histograms_for_count_positions():
    kayles = grundy.Game("kayles")
    by_array = grundy.count_positions([kayles.histogram(50, start=0)], heaps=3)
    assert by_array.by_nim_sum == kayles.count(50, 3, start=0).by_nim_sum
