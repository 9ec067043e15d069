"""What notebooks see of grundy's objects: HTML (``_repr_html_``), plots
(matplotlib), tables (pandas), arrays (NumPy) and progress bars (tqdm).

Every one of those libraries is optional and imported only when a function
here needs it: the package works without any of them, and a method that
needs one that is missing raises ``ImportError`` saying which to install.
The classes of the extension module call these functions; they are not
meant to be called directly.
"""

from __future__ import annotations

import html as _html
import importlib
import sys
from typing import Any, Callable, Optional, Sequence

#: Points a values plot draws one by one; longer runs are drawn as the
#: distinct values of each of about this many bins of heaps (every value
#: that occurs in a bin is drawn, so the picture is the same, lighter).
MAX_POINTS = 200_000

#: The most heaps a values plot draws: an analysis that answers further
#: through its proven period (``analyze(to=10**12)``) is drawn this far.
MAX_PLOTTED = 1 << 24

#: Values the HTML of an analysis lists (P-positions in bold, the periodic
#: part shaded), and rows of its histogram.
SHOWN_VALUES = 120
SHOWN_ROWS = 24


def _optional(module: str) -> Any:
    """``import module``, or ``None`` when it is not installed. (Optional
    modules are imported by name, so that type checkers need none of
    them.)"""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _numpy() -> Any:
    return _optional("numpy")


def _require(module: str, what: str) -> Any:
    """``import module``, or an ``ImportError`` saying what needs it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".")[0]
        raise ImportError(
            f"{what} needs {package}, which is not installed: pip install {package}"
        ) from error


# ---------------------------------------------------------------- arrays


def values_array(array: Any) -> Any:
    """A value table (``array.array``) as a NumPy array over the same memory
    (no copy) where NumPy is installed, else the ``array.array`` itself."""
    numpy = _numpy()
    if numpy is None:
        return array
    return numpy.asarray(array)


def counts_array(counts: Sequence[int]) -> Any:
    """Counts by value as a NumPy ``int64`` array (``object`` past 2^63)
    where NumPy is installed, else the list itself."""
    numpy = _numpy()
    if numpy is None:
        return list(counts)
    if counts and max(counts) >= 1 << 63:
        return numpy.array(counts, dtype=object)
    return numpy.array(counts, dtype=numpy.int64)


# -------------------------------------------------------------- progress


class _TextBar:
    """A one-line progress report on stderr, for when tqdm is missing."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total if total else 100
        sys.stderr.write(f"\r{self.what}: {done:,}/{total:,} heaps ({percent}%)")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


class _TqdmBar:
    """A tqdm bar (``tqdm.auto``: a widget in Jupyter, text elsewhere),
    made at the first report, when the total is known."""

    def __init__(self, tqdm: Any, what: str) -> None:
        self.tqdm = tqdm
        self.what = what
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = self.tqdm(total=total, desc=self.what, unit="heap", unit_scale=True)
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_bar(what: str) -> Callable[[int, int], None]:
    """What ``progress=True`` reports to: a tqdm bar where tqdm is
    installed, a line on stderr otherwise. It has ``close()``."""
    auto = _optional("tqdm.auto")
    if auto is None:
        return _TextBar(what)
    return _TqdmBar(auto.tqdm, what)


# ------------------------------------------------------------------ HTML

_STYLE = (
    "<style>"
    ".grundy table{border-collapse:collapse;margin:2px 0}"
    ".grundy th,.grundy td{padding:1px 6px;text-align:right;border:1px solid #ddd}"
    ".grundy th{text-align:left;background:#f6f6f6}"
    ".grundy td.p{font-weight:bold;color:#b00}"
    ".grundy td.per{background:#eaf4ea}"
    ".grundy caption{text-align:left;font-weight:bold}"
    "</style>"
)


def _e(value: Any) -> str:
    return _html.escape(str(value))


def _fields(title: str, rows: Sequence[tuple[str, Any]]) -> str:
    body = "".join(f"<tr><th>{_e(k)}</th><td style='text-align:left'>{_e(v)}</td></tr>" for k, v in rows)
    return f"<table><caption>{_e(title)}</caption>{body}</table>"


def _wrap(*parts: str) -> str:
    return f"<div class='grundy'>{_STYLE}{''.join(parts)}</div>"


def _value_grid(values: Sequence[int], preperiod: Optional[int], per_row: int = 20) -> str:
    """The values in rows of ``per_row``: P-positions (value 0) in bold, the
    heaps from the pre-period on shaded."""
    rows = []
    header = "".join(f"<th>{i}</th>" for i in range(min(per_row, len(values))))
    rows.append(f"<tr><th>n</th>{header}</tr>")
    for start in range(0, len(values), per_row):
        cells = []
        for n in range(start, min(start + per_row, len(values))):
            classes = []
            if values[n] == 0:
                classes.append("p")
            if preperiod is not None and n >= preperiod:
                classes.append("per")
            attribute = f" class='{' '.join(classes)}'" if classes else ""
            cells.append(f"<td{attribute}>{values[n]}</td>")
        rows.append(f"<tr><th>{start}+</th>{''.join(cells)}</tr>")
    return f"<table>{''.join(rows)}</table>"


def _histogram_table(pairs: Sequence[tuple[int, int]], key: str, count: str) -> str:
    shown = list(pairs[:SHOWN_ROWS])
    head = f"<tr><th>{_e(key)}</th>" + "".join(f"<td>{k}</td>" for k, _ in shown) + "</tr>"
    body = f"<tr><th>{_e(count)}</th>" + "".join(f"<td>{c:,}</td>" for _, c in shown) + "</tr>"
    more = f"<p>… {len(pairs) - len(shown)} more</p>" if len(pairs) > len(shown) else ""
    return f"<table>{head}{body}</table>{more}"


def _analysis_html(found: Any) -> str:
    values = found.values
    shown = [int(v) for v in values[:SHOWN_VALUES]]
    if found.period is not None:
        kind = f"arithmetic, saltus {found.saltus}" if found.saltus else "plain"
        support = {
            "theorem": f"PROVEN by the {found.theorem}",
            "closed-form": "PROVEN (closed form)",
            "observed": f"observed on g(0..={found.computed_to}), not proven",
        }.get(found.support, found.support)
        period = f"{found.period} from heap {found.preperiod} ({kind}): {support}"
    else:
        period = "none found"
    p_first = [n for n, v in enumerate(shown) if v == 0][:12]
    rows = [
        ("computed", f"g(0..={found.computed_to})"),
        ("period", period),
        ("P-positions in 0..=" + str(found.to), f"{found.p_position_count:,} (first: {p_first})"),
    ]
    if found.period is not None:
        exceptions = found.exceptions
        rows.append(("exceptions", f"{len(exceptions)}: {exceptions[:16]}"))
    histogram = [(v, int(c)) for v, c in enumerate(found.histogram) if c]
    more = f" (first {len(shown)} of {len(values):,})" if len(values) > len(shown) else ""
    return _wrap(
        _fields(f"Analysis of {found.game}", rows),
        f"<p>values{_e(more)}; P-positions bold, periodic part shaded</p>",
        _value_grid(shown, found.preperiod),
        "<p>histogram of 0..=" + _e(found.to) + "</p>",
        _histogram_table(histogram, "value", "heaps"),
    )


def _game_html(game: Any) -> str:
    rows: list[tuple[str, Any]] = [("canonical", game.name), ("written", game.spec)]
    rows.append(("values cached", f"g(0..={game.cached - 1})" if game.cached else "none"))
    parts = [_fields(repr(game), rows)]
    # A game from a Python callable is not run to display it: its values are
    # shown once computed.
    python = repr(game).startswith("Game.from_options")
    try:
        if not python or game.cached:
            count = 20 if not python else min(20, game.cached)
            parts.append("<p>first values (P-positions bold)</p>")
            parts.append(_value_grid([int(v) for v in game.values(count - 1)], None))
    except Exception:  # a display never raises
        pass
    return _wrap(*parts)


def _sum_html(found: Any) -> str:
    moves = "".join(f"<li>{_e(_move_text(m))}</li>" for m in found.winning_moves[:20])
    more = "" if len(found.winning_moves) <= 20 else f"<li>… {found.winning_move_count - 20:,} more</li>"
    rows = [
        ("values", found.values),
        ("nim-sum", found.nim_sum),
        ("winner", found.winner),
        ("winning moves", f"{found.winning_move_count:,}"),
    ]
    return _wrap(_fields(type(found).__name__, rows), f"<ol start='1'>{moves}{more}</ol>" if moves else "")


def _move_text(move: Any) -> str:
    after = " + ".join(map(repr, move.after)) if move.after else "nothing"
    return f"component {move.component}: {move.before!r} → {after}"


def _counts_html(counts: Any) -> str:
    rows = [
        ("total", f"{counts.total:,}"),
        ("P-positions (nim-sum 0)", f"{counts.p_positions:,}"),
        ("N-positions", f"{counts.n_positions:,}"),
    ]
    if counts.modulo is not None:
        rows.append(("modulo", counts.modulo))
    pairs = [(s, c) for s, c in enumerate(counts.by_nim_sum) if c]
    return _wrap(_fields("Positions by nim-sum", rows), _histogram_table(pairs, "nim-sum", "positions"))


def _misere_html(found: Any) -> str:
    moves = "".join(f"<li>{_e(_move_text(m))}</li>" for m in found.winning_moves[:20])
    rows = [("misère value", found.misere_value), ("winner", found.winner), ("winning moves", len(found.winning_moves))]
    return _wrap(_fields("Misère play", rows), f"<ol>{moves}</ol>" if moves else "")


def _quotient_html(q: Any) -> str:
    rows = [
        ("elements", len(q)),
        ("generators", ", ".join(f"{letter} = heap {heap}" for letter, heap in q.generators)),
        ("relations", "; ".join(q.relations)),
        ("P-portion", ", ".join(q.p_portion)),
    ]
    return _wrap(_fields("Misère quotient", rows))


def _outcomes_html(found: Any) -> str:
    rows = [("states", f"0..{found.states}"), ("losses (P-positions)", f"{found.loss_count:,}"), ("first losses", found.losses(12))]
    return _wrap(_fields("Outcomes", rows))


def _rules_html(rules: Any) -> str:
    return _wrap(_fields("Rules", [("options", repr(rules.options)), ("positions explored", f"{rules.explored:,}"), ("max_positions", f"{rules.max_positions:,}")]))


def _census_html(run: Any) -> str:
    try:
        rows = [("games to run", len(run.todo)), ("rows recorded", run.done)]
    except Exception:  # a finished run
        rows = [("state", "finished")]
    return _wrap(_fields("Census run", rows))


def html(obj: Any) -> str:
    """The HTML Jupyter shows for any of the package's objects."""
    kind = type(obj).__name__
    make = {
        "Analysis": _analysis_html,
        "Game": _game_html,
        "SumAnalysis": _sum_html,
        "NimSumCounts": _counts_html,
        "MisereAnalysis": _misere_html,
        "Quotient": _quotient_html,
        "Outcomes": _outcomes_html,
        "Rules": _rules_html,
        "CensusRun": _census_html,
        "Move": lambda m: _wrap(f"<p>{_e(_move_text(m))}</p>"),
        "Genus": lambda g: _wrap(f"<p>genus <b>{_e(g)}</b> (normal value {g.normal}, misère {g.misere}{', tame' if g.tame else ''})</p>"),
    }.get(kind)
    if make is None:
        return _wrap(f"<code>{_e(repr(obj))}</code>")
    return make(obj)


# ----------------------------------------------------------------- plots


def _axes(ax: Any) -> Any:
    _require("matplotlib", "plot()")
    if ax is not None:
        return ax
    pyplot = importlib.import_module("matplotlib.pyplot")
    _, ax = pyplot.subplots(figsize=(9, 3.5), layout="constrained")
    return ax


#: Runs of heaps a long values plot is drawn in.
BINS = MAX_POINTS // 8


def _binned(numpy: Any, heaps: Any, values: Any, width: int) -> tuple[Any, Any]:
    """The distinct values of each run of ``width`` heaps, drawn at the
    run's first heap: what a scatter of every point shows, in fewer points."""
    top = int(values.max()) + 1 if len(values) else 1
    keys = numpy.unique((heaps // width).astype(numpy.int64) * top + values.astype(numpy.int64))
    return (keys // top) * width, keys % top


def _plot_values(found: Any, ax: Any, log: bool) -> Any:
    numpy = _require("numpy", "plot()")
    MaxNLocator = importlib.import_module("matplotlib.ticker").MaxNLocator

    values = numpy.asarray(found.values)
    if found.to >= len(values) and found.proven and found.period is not None:
        # Past the table through the proven period: g(pre + k p + r) =
        # g(pre + r) + k s.
        pre, period, saltus = found.preperiod, found.period, found.saltus
        beyond = numpy.arange(len(values), min(found.to, MAX_PLOTTED - 1) + 1, dtype=numpy.int64)
        k, r = numpy.divmod(beyond - pre, period)
        values = numpy.concatenate([values.astype(numpy.int64), values[pre + r].astype(numpy.int64) + k * saltus])
    # The library's description of the picture: the classes of the values
    # and the ticks, as `grundy plot` and the web draw them.
    described = found.plot_description
    rare = numpy.array([v["value"] for v in described["values"] if v["class"] == "rare"], dtype=numpy.int64)
    heaps = numpy.arange(len(values))
    long = len(values) > MAX_POINTS
    width = -(-len(values) // BINS)
    x, y = _binned(numpy, heaps, values, width) if long else (heaps, values)
    many = len(x) > 5000
    is_rare = numpy.isin(y, rare)
    common = "common values" if described["rare_mask"] is not None else "g(n)"
    ax.scatter(x[~is_rare], y[~is_rare], s=4 if many else 12, marker=".", color="C0", label=common, rasterized=many, zorder=2)
    if is_rare.any():
        label = f"rare values (mask {described['rare_mask']})"
        ax.scatter(x[is_rare], y[is_rare], s=6 if many else 16, marker=".", color="C1", label=label, rasterized=many, zorder=2)
    zeros = heaps[values == 0]
    p_count = len(zeros)
    if p_count:
        if long:
            zeros, _ = _binned(numpy, zeros, numpy.zeros(len(zeros), dtype=numpy.int64), width)
        ax.scatter(
            zeros,
            numpy.zeros(len(zeros)),
            s=10 if many else 36,
            marker="o",
            facecolors="none",
            edgecolors="C3",
            label=f"P-positions ({p_count:,})",
            rasterized=len(zeros) > 5000,
            zorder=3,
        )
    if found.period is not None:
        pre, period = found.preperiod, found.period
        how = "proven" if found.proven else "observed"
        saltus = f", saltus {found.saltus}" if found.saltus else ""
        ax.axvspan(pre, len(values) - 1, color="C2", alpha=0.08, zorder=0, label=f"periodic from {pre} ({how})")
        ax.axvspan(pre, min(pre + period, len(values) - 1), color="C2", alpha=0.25, zorder=1, label=f"one period: {period}{saltus}")
    if len(values) == described["last_heap"] + 1:
        ax.set_yticks(described["value_ticks"])
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if log:
        ax.set_xscale("symlog", linthresh=1)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("heap n")
    ax.set_ylabel("g(n)")
    past = f", past {found.computed_to} through the period" if len(values) > found.computed_to + 1 else ""
    ax.set_title(f"{found.game}: g(0..={len(values) - 1}){past}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", frameon=False)
    return ax


#: The colour of each class of values, as the command draws them.
CLASS_COLOURS = {"p": "C3", "rare": "C1", "common": "C0"}


def _bars(
    ax: Any, counts: Sequence[int], log: bool, xlabel: str, ylabel: str, title: str, classes: Optional[dict[int, str]] = None
) -> Any:
    MaxNLocator = importlib.import_module("matplotlib.ticker").MaxNLocator

    heights = [float(c) for c in counts]
    classes = classes or {}
    colors = [CLASS_COLOURS[classes.get(i, "p" if i == 0 else "common")] for i in range(len(heights))]
    ax.bar(range(len(heights)), heights, color=colors)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if log:
        ax.set_yscale("log")
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return ax


def plot(obj: Any, *, kind: str, ax: Any = None, log: bool = False) -> Any:
    """Draws ``obj`` (an ``Analysis`` or ``NimSumCounts``) on ``ax`` (a new
    figure when ``None``) and returns the ``Axes``."""
    if kind == "values":
        return _plot_values(obj, _axes(ax), log)
    if kind == "histogram":
        counts = [int(c) for c in obj.histogram]
        classes = {v["value"]: v["class"] for v in obj.plot_description["values"]}
        title = f"{obj.game}: heaps of 0..={obj.to} by value (P-positions red, rare values orange)"
        return _bars(_axes(ax), counts, log, "value", "heaps", title, classes)
    if kind == "nim_sums":
        return _bars(_axes(ax), obj.by_nim_sum, log, "nim-sum", "positions", "positions by nim-sum (P-positions red)")
    raise ValueError(f"kind must be 'values' or 'histogram', not {kind!r}")


# ---------------------------------------------------------------- pandas


def to_pandas(obj: Any, what: str) -> Any:
    """``obj`` as a ``pandas.DataFrame`` (see the classes' ``to_pandas``)."""
    pandas = _require("pandas", "to_pandas()")
    if what == "values":
        values = values_array(obj.values)
        return pandas.DataFrame({"heap": range(len(values)), "value": values})
    if what == "histogram":
        pairs = [(v, int(c)) for v, c in enumerate(obj.histogram) if c]
        return pandas.DataFrame(pairs, columns=["value", "heaps"])
    if what == "nim_sums":
        counts = list(obj.by_nim_sum)
        dtype = object if counts and max(counts) >= 1 << 63 else "int64"
        return pandas.DataFrame(
            {"nim_sum": range(len(counts)), "positions": pandas.Series(counts, dtype=dtype)}
        )
    raise ValueError(f"what must be 'values' or 'histogram', not {what!r}")
