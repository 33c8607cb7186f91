"""The solver contract (:class:`CoreSolver`), the goal search's (:class:`GoalSearcher`), and the
search engines a process keeps warm: one C solver and one C goal search.

A process that solves many records or samples in a row (a ``--jobs`` or Dask
worker, the advisor's workers, a long-lived caller of the API) keeps one of
each and hands it out again, its table warm.  Asking for another size
replaces it, the old one freed before the new one is allocated, so two large
tables never need to fit at once.

>>> solver(16) is solver() is solver(16)
True
>>> forget()
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from .batch import Batch, Bonuses, ListAnswer, ListQuery
from ..game.cards import Card, Mask
from ..game.defaults import DEFAULT_GOAL_MB, DEFAULT_TT_MB
from ..game.errors import ParameterError
from ..game.limits import MAX_TABLE_MB, check_bool, check_int


@runtime_checkable
class CoreSolver(Protocol):
    """The solver contract: everything the searches above ask of a double-dummy solver.

    The C ``Solver`` (``_core.pyx``) and the reference twin
    (:class:`calasolve.search.reference.ReferenceSolver`) both implement all of it, with the
    same argument types, so no caller asks which one it holds; ``isinstance(x, CoreSolver)``
    is how an argument is checked.  A position is ``hands`` (three masks), ``trick`` (0 to 2
    cards), ``leader``, ``soloist`` and ``last_bonus``; values are the soloist's thirds from
    here on.
    """

    @property
    def config(self) -> Mapping[str, int | bool]:
        """How it was made: :func:`solver_like` makes another like it (a worker's)."""

    @property
    def nodes(self) -> int:
        """Nodes searched by the last call."""

    @property
    def total_nodes(self) -> int:
        """Nodes searched since it was made."""

    def value(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> int: ...

    def reaches(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int, target: int
    ) -> bool: ...

    def card_values(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
    ) -> dict[Card, int]: ...

    def line(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> list[Card]: ...

    def analyse(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
    ) -> tuple[int, dict[Card, int], list[Card]]:
        """The value, every legal card's value and one best line, in one call."""

    def best_of(
        self, hands: Batch, last_bonus: Bonuses, leader: int, soloist: int, maximise: bool, top: int
    ) -> tuple[list[int], list[int], int]:
        """The ``top`` best of a batch for the side choosing: ``(kept, values, searches)``."""

    def best_of_limited(
        self,
        hands: Batch,
        last_bonus: Bonuses,
        leader: int,
        soloist: int,
        maximise: bool,
        top: int,
        floor: int | None = None,
        deadline: float | None = None,
        shared: Any = None,
        stop: float | None = None,
    ) -> tuple[list[int], list[int], int, bool, int]:
        """:meth:`best_of` above a floor, within a deadline (a test still running at ``stop`` gives up):
        ``(kept, values, searches, complete, bound)``; callers ask it through :func:`best_within`."""

    def reaches_batch(
        self, hands: Batch, last_bonus: Bonuses, leader: int, soloist: int, target: int, max_fails: int = 0
    ) -> tuple[list[int], int]:
        """Null-window tests of a batch, in order: ``(results, searches)``, -1 where untested."""

    def clear(self) -> None:
        """Forget what the table holds."""


@runtime_checkable
class GoalSearcher(Protocol):
    """The goal search's contract (the C ``GoalSearch``): can the soloist force an outcome whose flag in
    ``goal`` (216 bytes, :func:`calasolve.search.payoff.goal_table`) is set, from a position and the
    finished deal's facts so far (``captured``, and whether each side has won a trick)?"""

    @property
    def nodes(self) -> int:
        """Nodes searched by the last call."""

    @property
    def total_nodes(self) -> int:
        """Nodes searched since it was made."""

    def reaches(
        self,
        hands: Sequence[Mask],
        trick: Sequence[Card],
        leader: int,
        soloist: int,
        last_bonus: int,
        captured: int,
        soloist_has_trick: bool,
        defence_has_trick: bool,
        goal: bytes | bytearray,
    ) -> bool: ...


def best_within(solver: CoreSolver, query: ListQuery) -> ListAnswer:
    """``solver``'s list search within the limits of ``query`` (:meth:`CoreSolver.best_of_limited`), typed."""
    q = query
    return ListAnswer(*solver.best_of_limited(q.hands, q.last_bonus, q.leader, q.soloist, q.maximise, q.top, q.floor,
                                              q.deadline, q.shared, q.stop))


class Engines:
    """The engines one process keeps warm, one of each kind, with the size each was made with.

    Owned by the process: :data:`KEPT` is the only instance, and only :func:`solver`,
    :func:`goal_search` and :func:`forget` use it.
    """

    def __init__(self) -> None:
        self._held: dict[str, tuple[int, Any]] = {}

    def get(self, kind: str, option: str, size: int | None, default: int, make: Callable[[int], Any]) -> Any:
        held = self._held.get(kind)
        if held is not None and (size is None or size == held[0]):
            return held[1]
        size = check_int(option, default if size is None else size, 1, MAX_TABLE_MB)
        self._held.pop(kind, None)  # the old table goes before the new one is allocated
        engine = make(size)
        self._held[kind] = (size, engine)
        return engine

    def clear(self) -> None:
        self._held.clear()


#: This process's warm engines.
KEPT = Engines()


def make_solver(tt_mb: int = DEFAULT_TT_MB, **switches: bool) -> CoreSolver:
    """A new C solver with a table of ``tt_mb`` MiB; ``switches`` are the ablation flags.
    A table the machine cannot allocate is a :class:`~calasolve.game.errors.ParameterError`
    naming ``tt_mb`` (a size asked for, like any bad input; in a worker process too)."""
    from ._core import Solver  # the C extension loads on first use (`import calasolve` stays cheap)

    check_int("tt_mb", tt_mb, 1, MAX_TABLE_MB)
    for name, flag in switches.items():
        check_bool(name, flag)
    try:
        return Solver(tt_mb, **switches)
    except MemoryError as err:
        raise ParameterError("tt_mb", tt_mb, str(err) or f"cannot allocate a {tt_mb} MiB transposition table") from None


def make_goal_search(goal_mb: int = DEFAULT_GOAL_MB) -> GoalSearcher:
    """A new C goal search with a memo of ``goal_mb`` MiB.  A memo the machine
    cannot allocate is a :class:`~calasolve.game.errors.ParameterError` naming
    ``goal_mb`` (a size asked for, like any bad input; in a worker process too)."""
    from ._core import GoalSearch

    check_int("goal_mb", goal_mb, 1, MAX_TABLE_MB)
    try:
        return GoalSearch(goal_mb)
    except MemoryError as err:
        raise ParameterError("goal_mb", goal_mb, str(err)) from None


def solver(tt_mb: int | None = None) -> CoreSolver:
    """This process's solver: the one kept, unless ``tt_mb`` asks for another size
    (made on first use, with :data:`DEFAULT_TT_MB` when no size is asked)."""
    return KEPT.get("solver", "tt_mb", tt_mb, DEFAULT_TT_MB, make_solver)  # type: ignore[no-any-return]


def goal_search(goal_mb: int | None = None) -> GoalSearcher:
    """This process's goal search: the one kept, unless ``goal_mb`` asks for another
    size (made on first use, with :data:`DEFAULT_GOAL_MB` when no size is asked).
    Its memo is calloc'ed: free until a search at the extremes touches it."""
    return KEPT.get("goals", "goal_mb", goal_mb, DEFAULT_GOAL_MB, make_goal_search)  # type: ignore[no-any-return]


def solver_like(config: Mapping[str, int | bool]) -> CoreSolver:
    """A solver made as ``config`` (a solver's :attr:`~CoreSolver.config`) says: this process's kept
    C solver when only the size is asked, a new one with switches off, or a reference twin."""
    if config.get("reference"):
        from .reference import ReferenceSolver  # the twin imports the C extension: loaded on first use, as make_solver's

        return ReferenceSolver()
    size = int(config.get("tt_mb", DEFAULT_TT_MB))
    switches = {k: bool(v) for k, v in config.items() if k != "tt_mb"}
    return solver(size) if all(switches.values()) else make_solver(size, **switches)


def forget() -> None:
    """Drop the kept engines (the next call makes new ones, their tables cold)."""
    KEPT.clear()
