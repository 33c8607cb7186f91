"""A batch of trick-boundary positions, and the list search's query and answer.

The list search within limits (``cs_best_of_limited``: the solver contract's
``best_of_limited``, reached through :func:`calasolve.search.engines.best_within`)
is asked a :class:`ListQuery` and answers a :class:`ListAnswer`.  This module is
data only, below the engines and the reference twin, so that both (and the
exchange search above) share it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from numpy.typing import NDArray

from ..game.cards import Mask

__all__ = ["Batch", "Bonuses", "ListAnswer", "ListQuery"]

#: A batch of trick-boundary positions: one row of 3 hands per candidate (lists or a numpy array), and their bonuses.
Batch = Sequence[Sequence[Mask]] | NDArray[Any]
Bonuses = Sequence[int] | NDArray[Any]


@dataclass(frozen=True)
class ListQuery:
    """The ``top`` best of a batch for the side choosing (the soloist if ``maximise``), in the order given:
    candidate ``i`` is ``hands[i]`` / ``last_bonus[i]``, first led by ``leader``.

    Its limits: only candidates strictly better than ``floor`` are kept (None: all); no candidate is tested
    after ``deadline`` (a :func:`time.monotonic` time; the first is always tested); ``shared``, a writable buffer
    of ``MAX_VALUE + 1`` C ints, counts the values found by the other parts of the same list, and raises the
    floor between candidates; a test still running at ``stop`` gives up."""

    hands: Batch
    last_bonus: Bonuses
    leader: int
    soloist: int
    maximise: bool
    top: int
    floor: int | None = None
    deadline: float | None = None
    shared: Any = None
    stop: float | None = None


@dataclass(frozen=True)
class ListAnswer:
    """What a :class:`ListQuery` found: the indices ``kept``, best first, their exact ``values``, the
    null-window ``searches`` made; ``complete`` False when the deadline cut the search (better candidates
    may be missing); ``bound``: no candidate is better than it for the side choosing."""

    kept: list[int]
    values: list[int]
    searches: int
    complete: bool
    bound: int

    def as_tuple(self) -> tuple[list[int], list[int], int, bool, int]:
        """``(kept, values, searches, complete, bound)``, as the solver contract's ``best_of_limited`` returns it."""
        return self.kept, self.values, self.searches, self.complete, self.bound
