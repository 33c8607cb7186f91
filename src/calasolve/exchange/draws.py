"""Several lists against the clock (dividete's draws): every list's first candidate valued before any list goes on.

Each draw must answer with an exchange whose value is exact, so the first candidate of each is valued however
long that takes; searched one after another, a draw left little of the time still valued its first candidate in
full, past the time limit.  So the first candidates of all the lists are valued first, side by side as the lists
are searched, and the time left is then shared by the rest of each list, tested against that value as its floor
(docs/exchange-search.md).  The values found and the bound of each list are what one list search of it would
prove.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor
from typing import Sequence

from ..scale.workers import worker_pool
from ..search.engines import CoreSolver
from ..types.exchange import SearchStats
from .parallel import List, ListResult, list_search

__all__ = ["search_lists"]


def search_lists(
    solver: CoreSolver,
    lists: Sequence[List],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    jobs: int,
    deadline: float,
    totals: SearchStats,
) -> list[ListResult]:
    """The best of each list ``(hands, bonus, order, moves)`` for the side choosing within ``deadline`` (as
    :func:`~calasolve.exchange.parallel.list_search` with ``top`` 1): every list's first candidate valued, then the
    rest of each searched for a better one (see the module doc)."""
    workers: contextlib.AbstractContextManager[Executor | None] = (
        worker_pool(jobs - 1) if jobs > 1 else contextlib.nullcontext(None))
    with workers as pool:
        # a list's first candidate is valued whatever the deadline; against it, the lists go where their rests will
        firsts = list_search(solver, [(h, b, order[:1], None) for h, b, order, _ in lists], leader, soloist,
                             maximise=maximise, top=1, jobs=jobs, deadline=deadline, totals=totals, pool=pool)
        going = [li for li, (_, _, order, _) in enumerate(lists) if len(order) > 1]
        rests = list_search(solver, [(h, b, order[1:], can) for h, b, order, can in (lists[li] for li in going)],
                            leader, soloist, maximise=maximise, top=1, jobs=jobs, deadline=deadline, totals=totals,
                            floors=[firsts[li].kept[0][0] for li in going], pool=pool) if going else []
    out = list(firsts)
    for li, rest in zip(going, rests):
        value = firsts[li].kept[0][0]
        bound = max(value, rest.bound) if maximise else min(value, rest.bound)
        out[li] = ListResult(rest.kept or firsts[li].kept, rest.complete, bound, rest.climbed)
    return out
