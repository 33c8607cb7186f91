"""The exchange search's list search on several cores, and within a time limit.

:func:`list_search` finds the ``top`` best candidates of one or more lists
(a contract's candidates: one list; dividete: one per draw) for the side
choosing, exactly as the single-core list search does (``cs_best_of``), in
three steps:

1. *The prefix, here.*  The most promising candidates of each list (the
   first ``max(BEST_OF_PREFIX, n // BEST_OF_PREFIX)`` in the estimate's
   order, the same prefix the core starts with) are searched in this
   process.  Their ``top``-th best value is the list's *floor*.
2. *The rest, in the worker pool.*  The remaining candidates, grouped by
   call/return (or takes) for the killer leads, are cut into chunks that the
   workers search independently, each keeping only candidates strictly
   better than the floor (``cs_best_of_limited``).  The values found so far
   are counted in memory the workers share: every candidate that enters a
   chunk's list adds its value, and between candidates each chunk raises
   its floor to the ``top``-th best value counted, so the chunks test
   against the best found anywhere, as the one-process search does.
3. *The merge.*  The ``top`` best of the prefix's list and the chunks'
   lists, ties to the candidate first in the order searched.  A candidate
   left out is no better than the floor (``top`` candidates at least as good
   are known) or than its chunk's ``top``-th, so the values are those of
   the single-core search; among equal values the exchange reported may
   differ, and may depend on the timing of the workers.

With a ``deadline`` (a :func:`time.monotonic` time) no candidate is tested
after it: the result holds the best found so far, ``complete`` is False, and
``bound`` is what every search proved of every candidate (no candidate is
better than it for the side choosing), so the best lies between the value
found and the bound.
"""

from __future__ import annotations

import itertools
import mmap
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..game.defaults import DEFAULT_TT_MB
from ..scale.workers import worker_pool
from ..search import _core, engines
from ..search.solving import total_nodes

__all__ = ["ListResult", "list_search"]

#: Lists shorter than this are searched in one piece: the pool would cost more than it saves.
PARALLEL_MIN = 2_000
#: The prefix searched here before the chunks start: max(BEST_OF_PREFIX, n // HEAD_DIVISOR).
HEAD_DIVISOR = _core.BEST_OF_PREFIX
#: Several lists (dividete's draws): each one whole in one process, side by side.
WHOLE_LISTS = True
#: Chunks per worker: more balance the dear chunks, fewer keep more killers and table entries.
CHUNKS_PER_JOB = 16


#: The values found so far by the search running, per list (see ``cs_best_of_limits``): an
#: anonymous shared mapping made before its pool forks the workers (who inherit it), and the
#: search's number, which the jobs carry.
_shared: mmap.mmap | None = None
_shared_id = 0
_ids = itertools.count(1)
_SLOTS = _core.MAX_VALUE + 1


def share_values(found: Sequence[Sequence[int]]) -> int:
    """Set up the shared counts of a new search (``found``: the values known per list),
    before its pool starts its workers; returns the search's number."""
    global _shared, _shared_id
    if _shared is not None:
        _shared.close()
    counts = np.zeros((max(1, len(found)), _SLOTS), dtype=np.int32)
    for li, values in enumerate(found):
        np.add.at(counts[li], np.array(values, dtype=np.int64), 1)
    _shared = mmap.mmap(-1, counts.nbytes)
    _shared[:] = counts.tobytes()
    _shared_id = next(_ids)
    return _shared_id


def _counts(search_id: int, li: int) -> memoryview | None:
    """List ``li``'s shared counts, if this process maps that search's (a worker forked
    by another pool, or spawned, does not: it keeps its own floor)."""
    if _shared is None or search_id != _shared_id:
        return None
    return memoryview(_shared).cast("i")[li * _SLOTS : (li + 1) * _SLOTS]


@dataclass(frozen=True)
class ListResult:
    """The ``top`` best of one list as ``(value, index)``, best first; ``complete`` False when
    the deadline cut the search; ``bound``: no candidate is better than it for the side choosing."""

    kept: list[tuple[int, int]]
    complete: bool
    bound: int


@dataclass
class Totals:
    searches: int = 0
    nodes: int = 0
    #: CPU seconds of the searches here (the prefix, then chunks), and of each worker's chunk
    #: (for the benchmarks: with idle cores the wall time is about the larger of the time
    #: here and the prefix's plus the workers' chunks scheduled on them)
    cpu_prefix: float = 0.0
    cpu_here: float = 0.0
    cpu_chunks: list[float] = field(default_factory=list)


#: The totals of the last list search in this process (the benchmarks read its CPU times).
last_totals = Totals()


def _chunk_job(job: tuple[Any, ...]) -> tuple[list[int], list[int], int, bool, int, int, float]:
    """A worker's share: the candidates of one chunk strictly better than the floor."""
    cpu = time.process_time()
    config = job[8]
    switches = {k: v for k, v in config.items() if k != "tt_mb"}
    solver: Any = engines.solver(config["tt_mb"]) if all(switches.values()) else engines.make_solver(**config)
    return (*_run_chunk(solver, job), time.process_time() - cpu)


def _run_chunk(solver: Any, job: tuple[Any, ...]) -> tuple[list[int], list[int], int, bool, int, int]:
    hands, bonus, leader, soloist, maximise, top, floor, deadline, _, search_id, li, answered = job
    before = total_nodes(solver)
    shared = _counts(search_id, li)
    if answered and deadline is not None and time.monotonic() >= deadline:
        # too late for any test (the list has an answer from its prefix): a floor nothing
        # beats leaves only the cheap bounds, for the bound
        floor, shared = (_core.MAX_VALUE + 1, None) if maximise else (-1, None)
    kept, values, searches, complete, bound = _core.best_of_limited(
        solver, hands, bonus, leader, soloist, maximise, top, floor, deadline, shared
    )
    return kept, values, searches, complete, bound, total_nodes(solver) - before


def _better_key(maximise: bool) -> Any:
    return (lambda kv: (-kv[0], kv[1])) if maximise else (lambda kv: (kv[0], kv[1]))


def _chunks(size: int, parts: int) -> list[tuple[int, int]]:
    edges = np.linspace(0, size, parts + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def list_search(
    solver: Any,
    lists: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    jobs: int,
    deadline: float | None,
    totals: Totals,
) -> list[ListResult]:
    """The ``top`` best of each list ``(hands, bonus, order)`` (the candidates' arrays and
    the order to try them in: the prefix, then the rest grouped by layout, as
    :func:`calasolve.exchange.candidates.grouped_candidates` gives it), with the prefix searched
    by ``solver`` here and the rest by ``jobs`` worker processes (``jobs`` 1, or a
    short list: all by ``solver``, as one list search each)."""
    global last_totals
    last_totals = totals
    config = dict(getattr(solver, "config", {"tt_mb": DEFAULT_TT_MB}))
    heads: list[tuple[list[tuple[int, int]], bool, int]] = []
    rests: list[np.ndarray] = []
    floors: list[int] = []
    nothing = -1 if maximise else _core.MAX_VALUE + 1
    whole = jobs > 1 and len(lists) > 1 and WHOLE_LISTS
    for hands, bonus, order in lists:
        n = len(order)
        if whole:
            heads.append(([], True, nothing))
            rests.append(order)
            floors.append(nothing)
            continue
        cut = max(_core.BEST_OF_PREFIX, n // HEAD_DIVISOR) if jobs > 1 and n >= PARALLEL_MIN else n
        head = order[:cut]
        kept, values, complete, bound = _search(solver, hands[head], bonus[head], leader, soloist, maximise, top,
                                                deadline, totals)
        heads.append(([(v, int(head[k])) for k, v in zip(kept, values)], complete, bound))
        rests.append(order[cut:])
        floors.append(values[top - 1] if len(values) >= top else nothing)
    totals.cpu_prefix = totals.cpu_here
    merged = [list(h[0]) for h in heads]
    complete_all = [h[1] for h in heads]
    bounds = [h[2] for h in heads]
    if any(len(rest) for rest in rests):
        search_id = share_values([[v for v, _ in rows] for rows in merged])
        # this process is one of the `jobs`: it takes chunks from the back of the queue
        # (its table is warm from the prefix), the workers from the front
        with worker_pool(jobs - 1) as pool:
            futures = []
            for li, ((hands, bonus, _), rest) in enumerate(zip(lists, rests)):
                for a, b in [(0, len(rest))] if whole else _chunks(len(rest), CHUNKS_PER_JOB * jobs):
                    part = rest[a:b]
                    job = (np.ascontiguousarray(hands[part]), np.ascontiguousarray(bonus[part]), leader, soloist,
                           maximise, top, floors[li], deadline, config, search_id, li, not whole)
                    futures.append((li, part, job, pool.submit(_chunk_job, job)))
            results: list[Any] = [None] * len(futures)
            for k in range(len(futures) - 1, -1, -1):
                if not futures[k][3].cancel():
                    break
                cpu = time.process_time()
                results[k] = (*_run_chunk(solver, futures[k][2]), None)
                totals.cpu_here += time.process_time() - cpu
            for k, (li, part, _, fut) in enumerate(futures):
                kept, values, searches, complete, bound, nodes, cpu = results[k] or fut.result()
                if cpu is not None:
                    totals.cpu_chunks.append(cpu)
                totals.searches += searches
                totals.nodes += nodes
                merged[li].extend((v, int(part[j])) for j, v in zip(kept, values))
                complete_all[li] = complete_all[li] and complete
                bounds[li] = max(bounds[li], bound) if maximise else min(bounds[li], bound)
    out = []
    key = _better_key(maximise)
    for (_, _, order), rows, complete, bound in zip(lists, merged, complete_all, bounds):
        pos = _inverse(order)
        rows.sort(key=lambda vi: key((vi[0], int(pos[vi[1]]))))  # ties: the first in the order searched
        out.append(ListResult(rows[:top], complete, bound))
    return out


def _inverse(order: np.ndarray) -> np.ndarray:
    inv = np.empty(len(order), dtype=np.int64)
    inv[order] = np.arange(len(order))
    return inv


def _search(
    solver: Any,
    hands: np.ndarray,
    bonus: np.ndarray,
    leader: int,
    soloist: int,
    maximise: bool,
    top: int,
    deadline: float | None,
    totals: Totals,
) -> tuple[list[int], list[int], bool, int]:
    """One list search by ``solver`` here: ``(kept, values, complete, bound)``."""
    before = total_nodes(solver)
    cpu = time.process_time()
    if deadline is None:
        arrays = isinstance(solver, _core.Solver)  # the reference solver takes lists
        kept, values, searches = solver.best_of(hands if arrays else hands.tolist(),
                                                bonus if arrays else bonus.tolist(), leader, soloist, maximise, top)
        complete, bound = True, values[0] if values else 0
    else:
        kept, values, searches, complete, bound = _core.best_of_limited(
            solver, hands, bonus, leader, soloist, maximise, top, None, deadline
        )
    totals.searches += searches
    totals.nodes += total_nodes(solver) - before
    totals.cpu_here += time.process_time() - cpu
    return kept, values, complete, bound
