"""Grundy values, sums and winning moves for impartial combinatorial games.

The engine is the Rust crate ``grundy``; this package calls it directly, so
tables of millions of heaps take the time they take in the ``grundy``
command, not Python's. Results display as HTML in notebooks, plot with
matplotlib, and convert to NumPy arrays and pandas tables (each optional);
see ``docs/python.md``.

>>> import grundy
>>> kayles = grundy.Game("kayles")
>>> kayles.values(10).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]
>>> found = kayles.analyze()
>>> (found.period, found.preperiod, found.proven)
(12, 71, True)
>>> grundy.sum_winner([(kayles, 4), (kayles, 7)])
'first'
"""

from ._grundy import (
    Analysis,
    CensusRun,
    Game,
    Genus,
    GrundyError,
    GrundyMemoryError,
    Infinite,
    MisereAnalysis,
    Move,
    NimSumCounts,
    Outcomes,
    Quotient,
    Rules,
    Sum,
    SumAnalysis,
    __version__,
    analyze_sum,
    census_classify,
    census_games,
    census_row,
    check_certificate,
    coin_values,
    coins,
    count_coins,
    count_positions,
    count_report,
    fibonacci_nim,
    games,
    hackenbush,
    moves_report,
    nim_add,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_sqrt,
    outcomes,
    sum_report,
    sum_winner,
)

__all__ = [
    "Analysis",
    "CensusRun",
    "Game",
    "Genus",
    "GrundyError",
    "GrundyMemoryError",
    "Infinite",
    "MisereAnalysis",
    "Move",
    "NimSumCounts",
    "Outcomes",
    "Quotient",
    "Rules",
    "Sum",
    "SumAnalysis",
    "__version__",
    "analyze_sum",
    "census",
    "census_classify",
    "census_games",
    "census_row",
    "check_certificate",
    "coin_values",
    "coins",
    "count_coins",
    "count_positions",
    "count_report",
    "fibonacci_nim",
    "games",
    "hackenbush",
    "moves_report",
    "nim_add",
    "nim_inv",
    "nim_mul",
    "nim_pow",
    "nim_sqrt",
    "outcomes",
    "sum_report",
    "sum_winner",
]


def _census_job(game, max, time_per_game):
    """One game of a census: a module-level function, so that process pools
    can pickle it by name."""
    return census_row(game, max=max, time_per_game=time_per_game)


def census(games, *, max=1 << 17, time_per_game=None, executor=None, output=None, shard=None):
    """A census of whole families of games, as ``grundy census --format
    json`` prints it: one row (a dict) per game, classified, in census
    order.

    ``games`` is a family pattern (``"0.??"``, ``"4.???"``) or a list of
    patterns and games. Each game is analysed up to heap ``max`` (within
    ``time_per_game`` seconds; a game cut by it says ``"stopped": "time"``
    and is never proven) by ``executor.submit`` when an executor is given --
    any ``concurrent.futures.Executor``: a ``ProcessPoolExecutor``, or a Dask
    cluster's ``Client.get_executor()`` -- and in this process otherwise.
    The rows come back here and are grouped into equivalence classes.

    As with ``grundy census --shard K/N --output FILE``: ``shard=(k, n)``
    runs only the ``k``-th of ``n`` shares of the games, and ``output``
    names a file (CSV for ``*.csv``, JSON lines otherwise) to which each row
    is appended as its game finishes; rerun with the same file, the census
    skips the games it holds, so a killed census loses only the games in
    flight. At the end the file holds the classified rows.

    >>> rows = census("0.?7", max=1 << 10)
    >>> [(r["game"], r["preperiod"], r["period"]) for r in rows if r["game"] == "0.77"]
    [('0.77', 71, 12)]
    """
    import concurrent.futures
    import functools

    families = [games] if isinstance(games, str) else list(games)
    run = CensusRun(families, shard=shard, output=output)
    job = functools.partial(_census_job, max=max, time_per_game=time_per_game)
    if executor is None:
        for code in run.todo:
            run.record(job(code))
    else:
        # Rows are recorded as they finish, not in the order submitted, so
        # a killed census keeps every game that finished.
        futures = [executor.submit(job, code) for code in run.todo]
        for future in concurrent.futures.as_completed(futures):
            run.record(future.result())
    return run.finish()
