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
from dataclasses import replace

from ..scale.workers import worker_pool
from ..search.engines import CoreSolver
from ..types.exchange import SearchStats
from .parallel import ListResult, ListsQuery, list_search

__all__ = ["search_lists"]


def search_lists(solver: CoreSolver, query: ListsQuery, totals: SearchStats) -> list[ListResult]:
    """The best of each list of ``query`` for the side choosing within its deadline (as
    :func:`~calasolve.exchange.parallel.list_search` with ``top`` 1): every list's first candidate valued, then the
    rest of each searched for a better one (see the module doc)."""
    lists, jobs, maximise = query.lists, query.jobs, query.maximise
    workers: contextlib.AbstractContextManager[Executor | None] = (
        worker_pool(jobs - 1) if jobs > 1 else contextlib.nullcontext(None))
    with workers as pool:
        # a list's first candidate is valued whatever the deadline; against it, the lists go where their rests will
        firsts_of = [(h, b, order[:1], None) for h, b, order, _ in lists]
        firsts = list_search(solver, replace(query, lists=firsts_of, top=1, floors=None), totals, pool)
        going = [li for li, (_, _, order, _) in enumerate(lists) if len(order) > 1]
        rests_of = [(h, b, order[1:], can) for h, b, order, can in (lists[li] for li in going)]
        floors = [firsts[li].kept[0][0] for li in going]
        rests = list_search(solver, replace(query, lists=rests_of, top=1, floors=floors), totals, pool) if going else []
    out = list(firsts)
    for li, rest in zip(going, rests):
        value = firsts[li].kept[0][0]
        bound = max(value, rest.bound) if maximise else min(value, rest.bound)
        out[li] = ListResult(rest.kept or firsts[li].kept, rest.complete, bound, rest.climbed)
    return out
