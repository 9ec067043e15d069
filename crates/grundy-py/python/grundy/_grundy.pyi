"""Type stubs of the extension module ``grundy._grundy`` (re-exported by
``grundy``). Checked against the built module by ``mypy.stubtest`` in CI."""

import array
import os
from typing import Any, Callable, Hashable, Iterable, Literal, Mapping, Optional, Sequence, Tuple, Union, final

import numpy
import numpy.typing as npt

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
    "analyze_sum",
    "census_classify",
    "census_games",
    "census_row",
    "check_certificate",
    "coin_values",
    "coins",
    "count_coins",
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
    "count_report",
    "moves_report",
    "sum_report",
    "sum_winner",
    "__version__",
]

__version__: str

class GrundyError(ValueError):
    """An input the engine cannot use, or a computation it had to stop: the
    message is the one the ``grundy`` command prints."""

class GrundyMemoryError(GrundyError, MemoryError):
    """A table, histogram or search the engine refused to allocate because it
    would pass the memory limit (``memory_limit=``): both a ``GrundyError``
    and a ``MemoryError``."""

_HeapOption = Union[int, Tuple[int, ...], Sequence[int]]

#: A value table: a NumPy array of the engine's width (``uint8``, ``uint16``
#: or ``uint32``, over the memory of the compact ``array.array``, with no
#: second copy) where NumPy is installed, an ``array.array`` of the same
#: width otherwise.
_ValueArray = Union[npt.NDArray[numpy.unsignedinteger[Any]], "array.array[int]"]

#: Counts by value (``counts[v]``): a NumPy ``int64`` array (``object`` past
#: 2^63) where NumPy is installed, a list of ``int`` otherwise.
_Counts = Union[npt.NDArray[Any], list[int]]

#: ``progress=``: ``True`` for a progress bar (tqdm where installed, else a
#: line on stderr), or a callable ``progress(done, total)`` told the heaps
#: done at most five times a second (``done`` never decreases; a run that
#: finishes ends with ``done == total``); an exception it raises stops the
#: run.
_Progress = Union[bool, None, Callable[[int, int], object]]

@final
class Game:
    """A heap game: ``Game("kayles")``, ``Game("0.137")``, ``Game("sub(1,3,4)")``
    (any specification ``grundy.games()`` lists), or ``Game.from_options(f)``
    for rules written in Python. Values are computed once and kept.

    Games are equal, and hash alike, when their canonical specifications are
    (``Game("kayles") == Game("0.77")``), and pickle as their specification;
    a game from a Python callable is equal only to itself and does not
    pickle (``TypeError``)."""

    def __new__(
        cls,
        spec: str,
        *,
        threads: Optional[int] = None,
        memory_limit: Optional[int] = None,
        defines: Optional[Mapping[str, int]] = None,
    ) -> "Game":
        """``defines`` gives a script's constants (``const K = 3;`` outside its
        functions) other integer values: ``Game("take.rhai", defines={"K": 5})``."""
    @staticmethod
    def from_options(
        options: Callable[[int], Iterable[_HeapOption]],
        *,
        name: str = "custom",
        memory_limit: Optional[int] = None,
    ) -> "Game":
        """A game whose ``options(n)`` lists the heaps a move from heap ``n``
        leaves: an ``int``, or a tuple of ``int`` for a split. Every heap
        left must be smaller than ``n``. Exceptions propagate unchanged."""
    @property
    def name(self) -> str:
        """The canonical specification (``Game("kayles").name == "0.77"``)."""
    @property
    def spec(self) -> str:
        """The specification as written (``"kayles"``)."""
    @property
    def cached(self) -> int:
        """How many heaps the game's value table holds now."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    def _repr_html_(self) -> str: ...
    def values(self, to: int, *, progress: _Progress = None) -> _ValueArray:
        """``g(0..=to)`` (``to + 1`` values) of the smallest unsigned type
        holding them: a NumPy array (no second copy) where NumPy is
        installed, an ``array.array`` otherwise."""
    def value(self, n: int) -> int:
        """The Grundy value of heap ``n``."""
    def options(self, n: int, *, limit: int = 1_000_000) -> list[list[int]]:
        """Every option of heap ``n``: the heaps it leaves, sorted, without
        empty heaps; ``GrundyError`` past ``limit`` of them."""
    def analyze(
        self,
        *,
        to: Optional[int] = None,
        max: Optional[int] = None,
        progress: _Progress = None,
    ) -> "Analysis":
        """Values, period and proof (adaptive up to ``max`` heaps, 2^17 by
        default, or exactly ``0..=to``)."""
    def plot(
        self,
        to: Optional[int] = None,
        *,
        ax: Any = None,
        logx: bool = False,
        progress: _Progress = None,
    ) -> Any:
        """``self.analyze(to=to).plot(ax=ax, logx=logx)``: the matplotlib
        ``Axes``."""
    def histogram(
        self,
        to: int,
        *,
        start: int = 1,
        max: Optional[int] = None,
        progress: _Progress = None,
    ) -> _Counts:
        """``counts[v]``: the heaps of ``start..=to`` with value ``v``, from
        heap 1 like ``grundy count`` unless ``start`` says otherwise; huge
        ranges go through a proven period."""
    def guess(self, *, to: Optional[int] = None) -> dict[str, Any]:
        """The formulas ``grundy guess GAME --format json`` finds, as that
        document: for heaps ``0..=to``, or the analysis when not given."""
    def compare(self, other: "Game", *, to: int = 1000) -> dict[str, Any]:
        """This game and ``other`` compared on heaps ``0..=to`` (further to
        prove them equal), as ``grundy compare A B --format json``."""
    def winning_moves(
        self,
        to: Optional[int] = None,
        *,
        start: int = 0,
        positions: Optional[Sequence[Union[int, str, Sequence[int]]]] = None,
        rows: bool = True,
        max_options: int = 10000000,
        progress: _Progress = None,
    ) -> dict[str, Any]:
        """The winning moves of every heap of ``start..=to``, as ``grundy
        moves GAME --to N --format json`` prints them (counts as ``int``):
        ``heaps`` gives each heap's ``value``, ``winning_moves``,
        ``fewest_taken`` and ``most_taken``; ``by_value`` the heaps of each
        value and their winning moves. ``rows=False`` counts only, through a
        proven period for long ranges of codes leaving at most two heaps.
        A script's ``positions`` (heaps, tuples of ints or ``"[3,4]"``) in
        place of ``to`` list every position reachable from them, each with
        its winning ``moves``."""
    def count_heaps(
        self,
        to: int,
        *,
        start: int = 1,
        max: Optional[int] = None,
        by_formula: Union[bool, str] = False,
    ) -> dict[str, Any]:
        """The heaps of ``start..=to`` by value, as ``grundy count GAME --to
        N --format json`` prints them (counts as ``int``); ``by_formula=True`` counts past the
        computed heaps by the formula ``guess`` finds, a formula string
        (``"g(n) = ctz(n)"``) by that formula once it fits every computed
        value, and the report says whether it is proven (else a conjecture
        past ``verified_to``)."""
    def count(
        self,
        to: int,
        heaps: int,
        *,
        start: int = 1,
        order: Literal["ordered", "ordered-distinct", "unordered", "distinct"] = "ordered",
        modulo: Optional[int] = None,
        max: Optional[int] = None,
        progress: _Progress = None,
    ) -> "NimSumCounts":
        """Positions of ``heaps`` heaps with sizes in ``start..=to``, counted
        by nim-sum."""
    def analyze_sum(self, heaps: Sequence[int]) -> "SumAnalysis":
        """Heaps of this game played together: values, who wins, every
        winning move."""
    def misere(self, heaps: Sequence[int], *, budget: int = 5_000_000) -> "MisereAnalysis":
        """Misère play (the last player to move loses): who wins the heaps
        played together, and every winning move."""
    def genus(self, to: int, *, terms: int = 6, budget: int = 5_000_000) -> list["Genus"]:
        """Conway's genus ``g^{γ0 γ1 …}`` of heaps ``0..=to``."""
    def misere_quotient(
        self, max_heap: int, *, max_fold: int = 5, budget: int = 5_000_000
    ) -> "Quotient":
        """The misère quotient of heaps 1..=max_heap (Plambeck–Siegel),
        verified against exhaustive search."""
    def clear_cache(self) -> None:
        """Forgets the values computed so far."""

@final
class Analysis:
    """What ``Game.analyze()`` found."""

    @property
    def game(self) -> str: ...
    @property
    def values(self) -> _ValueArray:
        """``g(0..=computed_to)``, as ``Game.values`` gives them."""
    @property
    def computed_to(self) -> int: ...
    @property
    def to(self) -> int:
        """The last heap answered for (past ``computed_to`` through a
        proven period)."""
    @property
    def period(self) -> Optional[int]: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def saltus(self) -> Optional[int]: ...
    @property
    def proven(self) -> bool:
        """Whether the period holds for every heap, not only those computed."""
    @property
    def support(self) -> Literal["theorem", "closed-form", "observed", "none"]: ...
    @property
    def theorem(self) -> Optional[str]: ...
    @property
    def last_heap_needed(self) -> Optional[int]: ...
    @property
    def p_positions(self) -> list[int]:
        """The heaps of ``0..=to`` with value 0 (``ValueError`` past 10^7)."""
    @property
    def p_position_count(self) -> int: ...
    @property
    def exceptions(self) -> list[int]:
        """Heaps before the pre-period whose values break the period."""
    @property
    def histogram(self) -> _Counts:
        """``histogram[v]``: the heaps of ``0..=to`` with value ``v``."""
    def value(self, n: int) -> int:
        """``g(n)`` for any heap, through the proven period past the
        computed heaps (``IndexError`` when none is proven)."""
    def report(self) -> dict[str, Any]:
        """The document ``grundy analyze --format json`` prints: the same
        fields, from the same library report."""
    def certificate(self) -> Optional[str]:
        """The periodicity certificate as JSON, when a theorem proved the
        period."""
    def _repr_html_(self) -> str: ...
    @property
    def plot_description(self) -> dict[str, Any]:
        """The picture every door draws of these values: ``title``,
        ``last_heap``, ``largest``, ``value_ticks``, ``period``,
        ``rare_mask`` and ``values`` (each ``value``, ``heaps``, ``class``)."""
    def plot(
        self,
        *,
        kind: Literal["values", "histogram"] = "values",
        ax: Any = None,
        logx: bool = False,
    ) -> Any:
        """A matplotlib plot (the ``Axes``): the values with integer ticks,
        P-positions marked and the period shaded, or the histogram as
        bars; ``logx`` for a logarithmic heap axis."""
    def to_pandas(self, what: Literal["values", "histogram"] = "values") -> Any:
        """A ``pandas.DataFrame``: columns ``heap``, ``value``; or ``value``,
        ``heaps`` for the histogram."""

@final
class Move:
    """A winning move: component ``component`` goes from ``before`` to the
    positions in ``after``."""

    @property
    def component(self) -> int: ...
    @property
    def before(self) -> Hashable: ...
    @property
    def after(self) -> Tuple[Hashable, ...]: ...
    def _repr_html_(self) -> str: ...

@final
class SumAnalysis:
    """Positions played together: values, nim-sum, who wins, winning moves."""

    @property
    def values(self) -> list[int]: ...
    @property
    def nim_sum(self) -> int: ...
    @property
    def winning_moves(self) -> list[Move]:
        """The winning moves (the first 10,000 when a huge heap has more)."""
    @property
    def winning_move_count(self) -> int: ...
    @property
    def complete(self) -> bool:
        """Whether ``winning_moves`` lists every winning move."""
    @property
    def first_player_wins(self) -> bool: ...
    @property
    def winner(self) -> Literal["first", "second"]: ...
    def _repr_html_(self) -> str: ...

@final
class MisereAnalysis:
    """Heaps played misère: the misère Grundy number (0: the player to move
    loses), the winner and every winning move."""

    @property
    def misere_value(self) -> int: ...
    @property
    def winning_moves(self) -> list[Move]: ...
    @property
    def winner(self) -> Literal["first", "second"]: ...
    @property
    def first_player_wins(self) -> bool: ...
    def _repr_html_(self) -> str: ...

@final
class Genus:
    """Conway's genus of a heap; ``str()`` gives the notation, e.g. ``4^146``."""

    @property
    def normal(self) -> int: ...
    @property
    def misere(self) -> list[int]: ...
    @property
    def tame(self) -> bool: ...
    def _repr_html_(self) -> str: ...

@final
class Quotient:
    """A misère quotient: generators, presentation, P-portion."""

    def __len__(self) -> int: ...
    @property
    def generators(self) -> list[Tuple[str, int]]: ...
    @property
    def relations(self) -> list[str]: ...
    @property
    def p_portion(self) -> list[str]: ...
    @property
    def elements(self) -> list[str]: ...
    def element(self, heaps: Sequence[int]) -> str: ...
    def loses(self, heaps: Sequence[int]) -> bool: ...
    def _repr_html_(self) -> str: ...

@final
class Infinite:
    """The value ∞ of a position from which play can go on forever, with the
    finite values among its options (the player to move wins when 0 is
    among them)."""

    def __new__(cls, finite_options: Sequence[int]) -> "Infinite": ...
    @property
    def finite_options(self) -> list[int]: ...
    def _repr_html_(self) -> str: ...

@final
class NimSumCounts:
    """Positions counted by nim-sum (exact ints, or residues modulo
    ``modulo``)."""

    @property
    def by_nim_sum(self) -> list[int]: ...
    @property
    def total(self) -> int: ...
    @property
    def modulo(self) -> Optional[int]: ...
    @property
    def p_positions(self) -> int: ...
    @property
    def n_positions(self) -> int:
        """Positions of nim-sum other than 0 (modulo ``modulo`` when given)."""
    def _repr_html_(self) -> str: ...
    def plot(self, *, ax: Any = None, logy: bool = False) -> Any:
        """The positions of each nim-sum as bars: the matplotlib ``Axes``."""
    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` with columns ``nim_sum`` and ``positions``."""

@final
class Outcomes:
    """The outcome of every state ``0..states`` of a game whose moves lower
    the state number, one bit each. Made by :func:`outcomes`."""

    @property
    def states(self) -> int: ...
    @property
    def loss_count(self) -> int: ...
    def is_loss(self, state: int) -> bool: ...
    def losses(self, limit: Optional[int] = None) -> list[int]: ...
    def winning_moves(self, state: int) -> list[int]: ...
    def _repr_html_(self) -> str: ...

def outcomes(
    options: Callable[[int], Iterable[int]], states: int, *, memory_limit: int = ...
) -> Outcomes:
    """Who wins every state ``0..states``: ``options(s)`` lists the states
    one move from ``s`` (each smaller than ``s``)."""

@final
class Sum:
    """A move to several independent positions played side by side."""

    def __new__(cls, *parts: Hashable) -> "Sum": ...
    @property
    def parts(self) -> Tuple[Hashable, ...]: ...
    def _repr_html_(self) -> str: ...

@final
class Rules:
    """A game on any hashable positions: ``options(p)`` lists the positions
    one move reaches (``Sum(a, b)`` for independent parts)."""

    def __new__(
        cls,
        options: Callable[[Hashable], Iterable[Hashable]],
        *,
        max_positions: int = 10_000_000,
    ) -> "Rules": ...
    def value(self, position: Hashable) -> int: ...
    def analyze_sum(self, positions: Sequence[Hashable]) -> SumAnalysis: ...
    def outcome(self, positions: Sequence[Hashable]) -> Literal["win", "loss", "draw"]:
        """Who wins the positions played together; ``"draw"`` when the game
        can cycle and neither side can force a win."""
    def generalized_value(self, position: Hashable) -> Union[int, Infinite]:
        """The generalized Sprague–Grundy value (Smith): an int, or
        ``Infinite``."""
    @property
    def explored(self) -> int: ...
    @property
    def options(self) -> Callable[[Hashable], Iterable[Hashable]]: ...
    @property
    def max_positions(self) -> int: ...
    def _repr_html_(self) -> str: ...

def analyze_sum(components: Sequence[Tuple[Game, int]]) -> SumAnalysis:
    """Heaps of (possibly different) games played together."""

def census_games(families: Sequence[str]) -> list[str]:
    """The canonical codes of the families' games, each once, costliest first."""

def census_row(
    game: str,
    *,
    max: int = ...,
    time_per_game: Optional[float] = None,
    memory_limit: int = ...,
) -> dict[str, Any]:
    """One game's census row, before classification."""

def census_classify(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Census rows with their equivalence classes, in census order."""

@final
class CensusRun:
    """A census under way: the games of the families (one shard of them),
    resumed from and recorded to an output file."""
    def __new__(
        cls,
        families: Sequence[str],
        *,
        shard: Optional[Tuple[int, int]] = None,
        output: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> CensusRun: ...
    @property
    def todo(self) -> list[str]:
        """The games still to run, costliest first."""
    @property
    def done(self) -> int:
        """How many rows the run has."""
    def record(self, row: dict[str, Any]) -> None:
        """Keeps a finished game's row, appending it to the output file."""
    def finish(self) -> list[dict[str, Any]]:
        """Every row, classified, in census order; the file rewritten."""
    def _repr_html_(self) -> str: ...

def count_report(
    game: Union[str, Game],
    to: Union[int, str, None] = None,
    *,
    start: int = 1,
    heaps: Optional[int] = None,
    order: Literal["ordered", "ordered-distinct", "unordered", "distinct"] = "ordered",
    modulo: Optional[int] = None,
    nim_sum: Optional[int] = None,
    all: bool = False,
    by_formula: Union[bool, str] = False,
    max: Optional[int] = None,
    partitions: Optional[int] = None,
    parts: Union[str, Sequence[int], None] = None,
    distinct: bool = False,
    work_limit: int = 1000000000,
    progress: _Progress = None,
) -> dict[str, Any]:
    """Heaps, positions or coins counted by value or nim-sum, as ``grundy
    count GAME --to N --format json`` prints them, with the counts JSON
    writes as decimal strings as ``int``s (``start`` is ``--from``; ``to``
    a number or text such as ``"1e18"`` or a grid's ``"X,Y"``;
    ``work_limit`` is ``--work-limit``). With ``partitions=N`` instead of
    ``to``, the partitions of ``N`` into heaps of the game by the nim-sum
    of their values (``--partitions N``): ``parts`` the sizes a heap may
    have (a list, or text such as ``"1,3,5..9"`` or ``"squares"``),
    ``distinct=True`` for distinct heaps, ``heaps`` for exactly that
    many."""

def moves_report(
    game: str,
    to: Optional[int] = None,
    *,
    start: int = 0,
    positions: Optional[Sequence[Union[int, str, Sequence[int]]]] = None,
    rows: bool = True,
    max_options: int = 10000000,
    work_limit: int = 1000000000,
) -> dict[str, Any]:
    """The winning moves of every heap of ``start..=to`` of any game written
    as the CLI takes it, as ``grundy moves GAME --to N --format json``
    prints them (counts as ``int``): every position ``(a, b)`` of a game on
    pairs, a lone head on every coin of a rule (every ``(x, y)`` of a
    product ``A*B``), or with ``positions`` in place of ``to`` every
    position of a script reachable from them. ``rows=False`` counts by
    value only."""

def sum_report(
    components: Sequence[Union[str, Tuple[Game, int]]],
    *,
    game: Optional[str] = None,
    work_limit: int = 1000000000,
) -> dict[str, Any]:
    """Components of any kinds played together, as ``grundy sum --format
    json`` prints them: a component is a string in the component syntax
    (``"kayles:7"``, ``"wythoff:3,5"``, ``"graph:tasks.txt:start"``,
    ``"ruler:3,4,6"``, ``"(()())"``) or a ``(Game, heap)`` pair;
    ``work_limit`` bounds coin tables and Hackenbush cuts."""

def sum_winner(components: Sequence[Tuple[Game, int]]) -> Literal["first", "second"]:
    """Who wins the sum with perfect play."""

def count_positions(
    ranges: Sequence[Union[Tuple[Game, int, int], dict[int, int], Sequence[int]]],
    *,
    heaps: Optional[int] = None,
    order: str = "ordered",
    modulo: Optional[int] = None,
) -> NimSumCounts:
    """Positions of one heap from each range, by nim-sum: a range is a
    ``(game, start, to)`` triple or a histogram ``{value: count}``; with
    ``heaps=K``, positions of K heaps of the one range given, in ``order``;
    counts by value (``Game.histogram``'s) are a histogram too."""

def check_certificate(text: str) -> None:
    """Checks a periodicity certificate; raises ``GrundyError`` if it fails."""

def games() -> list[Tuple[str, Optional[str], str, str]]:
    """The built-in games: ``(name, code, description, example)``."""

def coin_values(rule: str, to: int, *, work_limit: int = 1000000000) -> list[int]:
    """Values of coins 1..=to of a coin-turning rule, within ``work_limit``
    machine-word operations."""

def coins(
    rule: str, heads: Sequence[int], *, work_limit: int = 1000000000
) -> dict[str, Any]:
    """A row of coins, as ``grundy coins --format json`` prints it: the
    heads, nim-sum, winner, every winning move (``{"turn": [coins]}``),
    ``complete``; and ``values``, the ``(coin, value)`` pairs."""

def count_coins(
    rule: str,
    columns: int,
    rows: int = 1,
    *,
    nim_sum: int | None = None,
    modulo: int | None = None,
    work_limit: int = 1000000000,
) -> dict[str, Any]:
    """The positions (sets of heads) of a row of coins 1..=columns, or of
    the grid columns x rows of a product ``A*B``, by nim-sum, as ``grundy
    count RULE --to X,Y --format json`` prints it: ``total``,
    ``p_positions``, ``n_positions`` (``int``, modulo ``modulo``
    when given), ``rank``, ``span_basis``, ``per_nim_sum`` and, when asked,
    ``nim_sum``."""

def hackenbush(pictures: Sequence[str], *, work_limit: int = 1000000000) -> dict[str, Any]:
    """Green Hackenbush pictures (bracket trees or edge lists) played
    together, as ``grundy hackenbush --format json`` prints it: pictures,
    nim-sum, winner, every winning cut; and ``values``."""

def fibonacci_nim(
    heap: int,
    *,
    limit: Optional[int] = None,
    ratio: Union[int, str, None] = None,
    work_limit: int = 1000000000,
) -> dict[str, Any]:
    """Fibonacci Nim, as ``grundy fibonacci-nim --format json`` prints it:
    the winner, the winning takes, the Zeckendorf representation. ``ratio``
    is an int or a fraction written as a string (``"3/2"``, ``"1.5"``); 2
    when not given."""

def nim_add(a: int, b: int) -> int: ...
def nim_mul(a: int, b: int) -> int: ...
def nim_pow(a: int, e: int) -> int: ...
def nim_inv(a: int) -> int: ...
def nim_sqrt(a: int) -> int: ...
