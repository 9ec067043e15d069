"""Grundy values, sums and winning moves for impartial combinatorial games.

The engine is the Rust crate ``grundy``; this package calls it directly, so
tables of millions of heaps take the time they take in the ``grundy``
command, not Python's.

>>> import grundy
>>> kayles = grundy.Game("kayles")
>>> list(kayles.values(10))
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]
>>> found = kayles.analyze()
>>> (found.period, found.preperiod, found.proven)
(12, 71, True)
>>> grundy.sum_winner([(kayles, 4), (kayles, 7)])
'first'
"""

from ._grundy import (
    Analysis,
    Game,
    Genus,
    GrundyError,
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
    check_certificate,
    coin_values,
    coins,
    count_positions,
    fibonacci_nim,
    games,
    hackenbush,
    nim_add,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_sqrt,
    outcomes,
    sum_winner,
)

__all__ = [
    "Analysis",
    "Game",
    "Genus",
    "GrundyError",
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
    "check_certificate",
    "coin_values",
    "coins",
    "count_positions",
    "fibonacci_nim",
    "games",
    "hackenbush",
    "nim_add",
    "nim_inv",
    "nim_mul",
    "nim_pow",
    "nim_sqrt",
    "outcomes",
    "sum_winner",
]
