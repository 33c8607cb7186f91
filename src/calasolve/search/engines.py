"""The search engines a process keeps warm: one C solver and one C goal search.

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

from typing import Any, Callable, Protocol, Sequence

from ..game.cards import Card, Mask
from ..game.defaults import DEFAULT_TT_MB
from ..game.errors import ParameterError
from ..game.limits import MAX_TABLE_MB, check_bool, check_int


class CoreSolver(Protocol):
    """What :func:`~calasolve.search.solving.solve` needs of a solver: the C ``Solver`` or the reference twin."""

    @property
    def nodes(self) -> int: ...

    def value(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> int: ...

    def reaches(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int, target: int
    ) -> bool: ...

    def card_values(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
    ) -> dict[Card, int]: ...

    def line(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> list[Card]: ...

    def best_of(
        self, hands: Sequence[Sequence[Mask]], last_bonus: Sequence[int], leader: int, soloist: int, maximise: bool, top: int
    ) -> tuple[list[int], list[int], int]: ...


#: The goal search's memo when no size was ever asked for, in MiB.
DEFAULT_GOAL_MB = 8

_kept: dict[str, tuple[int, Any]] = {}


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


def make_goal_search(goal_mb: int = DEFAULT_GOAL_MB) -> Any:
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
    return _engine("solver", "tt_mb", tt_mb, DEFAULT_TT_MB, make_solver)  # type: ignore[no-any-return]


def goal_search(goal_mb: int | None = None) -> Any:
    """This process's goal search: the one kept, unless ``goal_mb`` asks for another
    size (made on first use, with :data:`DEFAULT_GOAL_MB` when no size is asked).
    Its memo is calloc'ed: free until a search at the extremes touches it."""
    return _engine("goals", "goal_mb", goal_mb, DEFAULT_GOAL_MB, make_goal_search)


def forget() -> None:
    """Drop the kept engines (the next call makes new ones, their tables cold)."""
    _kept.clear()


def _engine(kind: str, option: str, size: int | None, default: int, make: Callable[[int], Any]) -> Any:
    held = _kept.get(kind)
    if held is not None and (size is None or size == held[0]):
        return held[1]
    size = check_int(option, default if size is None else size, 1, MAX_TABLE_MB)
    _kept.pop(kind, None)  # the old table goes before the new one is allocated
    engine = make(size)
    _kept[kind] = (size, engine)
    return engine
