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
found and the bound.  Against the clock a list of ``EARLY_PARALLEL_MIN``
candidates or more has no prefix here: it is dealt to the ``jobs`` processes
at once, every ``jobs``-th candidate of its (early) order each, so that no
core waits for the prefix; this process keeps its share (and, of several
whole lists, ``len(lists) // jobs``) rather than submitting it to take it
back later, as the pool may already have queued it to a worker.  A pool forked
for the search inherits the lists (:data:`FORKED`), so its jobs name their
rows rather than carry copies, and each process gathers its own part.  A list
given its ``moves`` spends :data:`CLIMB_AFTER` of its time on its order and
the rest climbing from the best it found (:mod:`.climb`); the exchanges the
climbs reached come back in :attr:`ListResult.climbed`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import mmap
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from ..types.exchange import SearchStats
from ..scale.workers import forks_workers, worker_pool
from ..search import _core, engines
from ..search.engines import CoreSolver
from .climb import Climbed, Moves, climb

__all__ = ["ChunkJob", "ChunkResult", "FORKED", "ForkedLists", "List", "ListResult", "SHARED", "SharedCounts",
           "list_search"]

#: Lists shorter than this are searched in one piece: the pool would cost more than it saves.
PARALLEL_MIN = 2_000
#: The prefix searched here before the chunks start: max(BEST_OF_PREFIX, n // HEAD_DIVISOR).
HEAD_DIVISOR = _core.BEST_OF_PREFIX
#: Several lists (dividete's draws): each one whole in one process, side by side.
WHOLE_LISTS = True
#: With a time limit, lists from this long are dealt to every process at once (no prefix here first).
EARLY_PARALLEL_MIN = 100
#: Chunks per worker: more balance the dear chunks, fewer keep more killers and table entries.
CHUNKS_PER_JOB = 16
#: Against the clock, the share of a list's time its order gets before the climb from its best (climb.py).
CLIMB_AFTER = 0.7


class SharedCounts:
    """The values found so far by the list search running, per list (see ``cs_best_of_limits``):
    an anonymous shared mapping, and the search's number, which the jobs carry.

    Owned by :func:`list_search`: :data:`SHARED` is the only instance; the search sets it up
    before its pool forks the workers, who inherit it (a worker forked by another pool, or
    spawned, finds another number and keeps its own floor)."""

    def __init__(self) -> None:
        self._map: mmap.mmap | None = None
        self._id = 0
        self._ids = itertools.count(1)

    def start(self, found: Sequence[Sequence[int]]) -> int:
        """Set up the counts of a new search (``found``: the values known per list); its number."""
        if self._map is not None:
            self._map.close()
        counts = np.zeros((max(1, len(found)), _SLOTS), dtype=np.int32)
        for li, values in enumerate(found):
            np.add.at(counts[li], np.array(values, dtype=np.int64), 1)
        self._map = mmap.mmap(-1, counts.nbytes)
        self._map[:] = counts.tobytes()
        self._id = next(self._ids)
        return self._id

    def of(self, search_id: int, li: int) -> memoryview | None:
        """List ``li``'s counts, if this process maps search ``search_id``'s."""
        if self._map is None or search_id != self._id:
            return None
        return memoryview(self._map).cast("i")[li * _SLOTS : (li + 1) * _SLOTS]


_SLOTS = _core.MAX_VALUE + 1
#: This process's shared counts (see :class:`SharedCounts`).
SHARED = SharedCounts()


@dataclass(frozen=True)
class ListResult:
    """The ``top`` best of one list as ``(value, index)``, best first; ``complete`` False when
    the deadline cut the search; ``bound``: no candidate is better than it for the side choosing.
    An index from the list's length on is an exchange a climb reached: ``climbed[index - length]``."""

    kept: list[tuple[int, int]]
    complete: bool
    bound: int
    climbed: tuple[Climbed, ...] = ()


#: A list as :func:`list_search` searches it: the candidates' hands and bonus, the order to try them in, and what a
#: climb may change (None: no climb).
List = tuple[np.ndarray, np.ndarray, np.ndarray, Moves | None]


class ForkedLists:
    """The lists of the search running, for the workers of the pool it forks: they inherit the lists, so a job
    names its part of one (:attr:`ChunkJob.rows`) instead of carrying a copy through the pool.

    Owned by :func:`list_search`, which sets them before its own pool forks and drops them when it ends;
    :data:`FORKED` is the only instance."""

    def __init__(self) -> None:
        self._lists: dict[int, Sequence[List]] = {}

    @contextlib.contextmanager
    def holding(self, search_id: int, lists: Sequence[List]) -> Iterator[None]:
        """The lists (``(hands, bonus, rest, moves)``: the rest of each order, which the jobs' rows index) of
        search ``search_id`` while the block runs."""
        self._lists[search_id] = lists
        try:
            yield
        finally:
            del self._lists[search_id]

    def __len__(self) -> int:
        """The searches whose lists are held (one while a search runs, else none)."""
        return len(self._lists)

    def part(self, search_id: int, li: int, rows: slice, climbs: bool) -> tuple[np.ndarray, np.ndarray, Moves | None]:
        """:func:`_gather` of the candidates ``rows`` of list ``li``'s rest."""
        hands, bonus, rest, can = self._lists[search_id][li]
        return _gather(hands, bonus, can, rest[rows], climbs)


def _gather(hands: np.ndarray, bonus: np.ndarray, can: Moves | None, part: np.ndarray,
            climbs: bool) -> tuple[np.ndarray, np.ndarray, Moves | None]:
    """The hands, bonus and (``climbs``: else None) moves of a list's candidates ``part``, as a job searches them."""
    # np.take: the rows of a 2-d array much faster than fancy indexing gathers them
    return (np.take(hands, part, axis=0), np.take(bonus, part),
            can.part(part) if climbs and can is not None else None)


#: This process's lists of the search running (see :class:`ForkedLists`).
FORKED = ForkedLists()


@dataclass(frozen=True)
class ChunkJob:
    """One chunk of a list for a worker: its candidates (or the rows of a list its process inherited), the
    search's limits, and where its shared counts are."""

    #: None: the candidates are :attr:`rows` of list :attr:`li` of the search's :data:`FORKED` lists
    hands: np.ndarray | None
    bonus: np.ndarray | None
    leader: int
    soloist: int
    maximise: bool
    top: int
    floor: int
    deadline: float | None
    #: the solver to search with (:func:`calasolve.search.engines.solver_like`)
    config: Mapping[str, int | bool]
    search_id: int
    #: the list's number (dividete: its draw)
    li: int
    #: the list has an answer from its prefix already
    answered: bool
    #: with a deadline, the whole lists its process still has to search, this one included: the job takes
    #: that part of the time left (several lists side by side must not leave the last ones to their first
    #: candidate, and a list done early leaves its time to the next); None: no share
    lists_left: int | None = None
    #: what a climb may change of the candidates: against the clock, the job climbs from its best (None: no climb)
    moves: Moves | None = None
    #: the candidates' rows in the rest of list ``li`` of the :data:`FORKED` lists (None: ``hands`` are they)
    rows: slice | None = None

    def candidates(self) -> tuple[np.ndarray, np.ndarray, Moves | None]:
        """The job's candidates: their hands and bonus, and what a climb may change of them (None: no climb)."""
        if self.rows is None:
            assert self.hands is not None and self.bonus is not None
            return self.hands, self.bonus, self.moves
        return FORKED.part(self.search_id, self.li, self.rows, self.deadline is not None)


@dataclass(frozen=True)
class ChunkResult:
    """A chunk's candidates strictly better than its floor, and what searching them cost."""

    kept: list[int]
    values: list[int]
    searches: int
    complete: bool
    bound: int
    nodes: int
    #: CPU seconds, for a chunk a worker searched (None: searched here)
    cpu: float | None = None
    #: the better exchanges a climb reached, as ``(value, exchange)`` (``base``: an index in the chunk)
    climbed: tuple[tuple[int, Climbed], ...] = ()


def _chunk_job(job: ChunkJob) -> ChunkResult:
    """A worker's share: the candidates of one chunk strictly better than the floor."""
    cpu = time.process_time()
    found = _run_chunk(engines.solver_like(job.config), job)
    return dataclasses.replace(found, cpu=time.process_time() - cpu)


def _run_chunk(solver: CoreSolver, job: ChunkJob) -> ChunkResult:
    hands, bonus, moves = job.candidates()
    before = solver.total_nodes
    floor, shared = job.floor, SHARED.of(job.search_id, job.li)
    deadline = job.deadline
    if deadline is not None and job.lists_left:
        deadline = min(deadline, time.monotonic() + (deadline - time.monotonic()) / job.lists_left)
    if job.answered and deadline is not None and time.monotonic() >= deadline:
        # too late for any test (the list has an answer from its prefix): a floor nothing
        # beats leaves only the cheap bounds, for the bound
        floor, shared = (_core.MAX_VALUE + 1, None) if job.maximise else (-1, None)
    kept, values, searches, complete, bound, climbed = _limited(
        solver, hands, bonus, moves, job.leader, job.soloist, job.maximise, job.top, floor, deadline, shared,
        job.deadline)
    return ChunkResult(kept, values, searches, complete, bound, solver.total_nodes - before, None, tuple(climbed))


def _limited(
    solver: CoreSolver,
    hands: np.ndarray,
    bonus: np.ndarray,
    can: Moves | None,
    leader: int,
    soloist: int,
    maximise: bool,
    top: int,
    floor: int | None,
    deadline: float | None,
    shared: memoryview | None,
    stop: float | None,
) -> tuple[list[int], list[int], int, bool, int, list[tuple[int, Climbed]]]:
    """The core's list search within ``deadline``; given what a climb ``can`` change, with :data:`CLIMB_AFTER`
    of the time, and the rest to climb from what it kept if it did not finish; a test still running at ``stop``
    (the whole search's end) gives up: ``(kept, values, searches, complete, bound, climbed)``."""
    mine = deadline
    if can is not None and deadline is not None:
        mine = time.monotonic() + CLIMB_AFTER * max(0.0, deadline - time.monotonic())
    kept, values, searches, complete, bound = solver.best_of_limited(
        hands, bonus, leader, soloist, maximise, top, floor, mine, shared, stop
    )
    climbed: list[tuple[int, Climbed]] = []
    if can is not None and deadline is not None and not complete and kept:
        climbed, more = climb(solver, list(zip(values, kept)), hands, bonus, can, leader, soloist, maximise, deadline,
                              stop)
        searches += more
    return kept, values, searches, complete, bound, climbed


def _better_key(maximise: bool) -> Any:
    return (lambda kv: (-kv[0], kv[1])) if maximise else (lambda kv: (kv[0], kv[1]))


def _chunks(size: int, parts: int) -> list[tuple[int, int]]:
    edges = np.linspace(0, size, parts + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def list_search(
    solver: CoreSolver,
    lists: Sequence[List],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    jobs: int,
    deadline: float | None,
    totals: SearchStats,
    floors: Sequence[int] | None = None,
    pool: Executor | None = None,
) -> list[ListResult]:
    """The ``top`` best of each list ``(hands, bonus, order, moves)`` (the candidates' arrays and
    the order to try them in: the prefix, then the rest grouped by layout, as
    :func:`calasolve.exchange.candidates.grouped_candidates` gives it), with the prefix searched
    by ``solver`` here and the rest by ``jobs`` worker processes (``jobs`` 1, or a
    short list: all by ``solver``, as one list search each).  Against the clock, a list given its
    ``moves`` (None: none) is climbed from its best (:mod:`.climb`).  Given ``floors`` (a value per
    list that already has an answer; against the clock only), only candidates strictly better are
    kept.  ``pool``: the ``jobs - 1`` workers to use (None: a pool for this search)."""
    assert floors is None or deadline is not None, "a floor is for a search against the clock"
    config = solver.config
    heads: list[tuple[list[tuple[int, int]], bool, int]] = []
    rests: list[np.ndarray] = []
    starts: list[int] = []  # each list's floor for its chunks
    dealt: set[int] = set()  # the lists dealt to every process at once
    nothing = -1 if maximise else _core.MAX_VALUE + 1
    whole = jobs > 1 and len(lists) > 1 and WHOLE_LISTS
    # with a deadline, each of several lists gets a fair share of the time (dividete's draws: else the last
    # draws searched get their first candidate only); one list, or no deadline: as before
    shared_time = deadline is not None and len(lists) >= 2
    pooled = len(lists) - len(lists) // jobs  # of several whole lists against the clock, the first go to the pool
    climbed: list[list[Climbed]] = [[] for _ in lists]
    for li, (hands, bonus, order, can) in enumerate(lists):
        n = len(order)
        start = nothing if floors is None else floors[li]
        if whole:
            heads.append(([], True, nothing))
            rests.append(order)
            starts.append(start)
            continue
        if jobs > 1 and deadline is not None and n >= EARLY_PARALLEL_MIN:
            # against the clock every process starts at once, each on every jobs-th candidate:
            # the prefix alone would take the time, with the other cores idle
            dealt.add(li)
            heads.append(([], True, nothing))
            rests.append(order)
            starts.append(start)
            continue
        cut = max(_core.BEST_OF_PREFIX, n // HEAD_DIVISOR) if jobs > 1 and n >= PARALLEL_MIN else n
        head = order[:cut]
        mine = deadline
        if deadline is not None and len(lists) > 1:  # the lists here one after another: what is left, shared
            mine = min(deadline, time.monotonic() + (deadline - time.monotonic()) / (len(lists) - li))
        kept, values, complete, bound, reached = _search(
            solver, hands[head], bonus[head], None if can is None else can.part(head), leader, soloist,
            maximise, top, mine, deadline, totals, None if floors is None else start)
        heads.append(([(v, int(head[k])) for k, v in zip(kept, values)]
                      + [(v, len(hands) + _climbed(climbed[li], c, head)) for v, c in reached], complete, bound))
        rests.append(order[cut:])
        known = values + ([] if floors is None else [start])
        starts.append(sorted(known, reverse=maximise)[top - 1] if len(known) >= top else nothing)
    totals.cpu_prefix = totals.cpu_here
    merged = [list(h[0]) for h in heads]
    complete_all = [h[1] for h in heads]
    bounds = [h[2] for h in heads]
    if any(len(rest) for rest in rests):
        counted = [[v for v, _ in rows] for rows in merged]
        if floors is not None:  # a list's floor is the value of its answer so far
            counted = [values + [f] for values, f in zip(counted, floors)]
        search_id = SHARED.start(counted)
        # this process is one of the `jobs`: it takes chunks from the back of the queue (its table is
        # warm from the prefix), the workers from the front; against the clock it searches its own share
        with contextlib.ExitStack() as stack:
            # a pool forked here inherits the lists: its jobs name their rows rather than carry copies
            forked = pool is None and forks_workers()
            if forked:
                stack.enter_context(FORKED.holding(search_id, [(h, b, rest, can)
                                                               for (h, b, _, can), rest in zip(lists, rests)]))
            workers = pool if pool is not None else stack.enter_context(worker_pool(jobs - 1))
            futures = []
            for li, ((hands, bonus, _, can), rest) in enumerate(zip(lists, rests)):
                if whole:
                    parts = [slice(None)]
                elif li in dealt:  # dealt round, each part in the early order
                    parts = [slice(j, None, jobs) for j in range(jobs)]
                else:
                    parts = [slice(a, b) for a, b in _chunks(len(rest), CHUNKS_PER_JOB * jobs)]
                for j, where in enumerate(parts):
                    part = rest[where]
                    # against the clock this process's share is set aside, not submitted: the pool queues a
                    # job ahead of its workers, so a job submitted for this process to take back may not cancel
                    mine = (li in dealt and j == len(parts) - 1) or (whole and shared_time and li >= pooled)
                    left = None
                    if whole and shared_time:  # this process takes its lists from the back, the workers in order
                        left = li - pooled + 1 if mine else math.ceil((pooled - li) / (jobs - 1))
                    limits = (leader, soloist, maximise, top, starts[li], deadline, config, search_id, li,
                              floors is not None or (not whole and li not in dealt), left)
                    if forked:
                        job = ChunkJob(None, None, *limits, rows=where)
                    else:
                        h, b, moves = _gather(hands, bonus, can, part, deadline is not None)
                        job = ChunkJob(h, b, *limits, moves)
                    futures.append((li, part, job, None if mine else workers.submit(_chunk_job, job)))
            results: list[ChunkResult | None] = [None] * len(futures)
            for k in range(len(futures) - 1, -1, -1):
                fut = futures[k][3]
                # without a deadline this process then takes chunks from the back while they last
                if fut is not None and (deadline is not None or not fut.cancel()):
                    break
                cpu = time.process_time()
                results[k] = _run_chunk(solver, futures[k][2])
                totals.cpu_here += time.process_time() - cpu
            for k, (li, part, _, fut) in enumerate(futures):
                found = results[k]
                if found is None:
                    assert fut is not None  # only this process's parts have no future, and they ran here
                    found = fut.result()
                if found.cpu is not None:
                    totals.cpu_chunks.append(found.cpu)
                totals.searches += found.searches
                totals.nodes += found.nodes
                merged[li].extend((v, int(part[j])) for j, v in zip(found.kept, found.values))
                size = len(lists[li][0])
                merged[li].extend((v, size + _climbed(climbed[li], c, part)) for v, c in found.climbed)
                complete_all[li] = complete_all[li] and found.complete
                bounds[li] = max(bounds[li], found.bound) if maximise else min(bounds[li], found.bound)
    out = []
    key = _better_key(maximise)
    for (hands, _, order, _), rows, complete, bound, extra in zip(lists, merged, complete_all, bounds, climbed):
        pos = _inverse(order, len(hands))
        # ties: the first in the order searched, then what the climbs reached
        rows.sort(key=lambda vi: key((vi[0], int(pos[vi[1]]) if vi[1] < len(pos) else vi[1])))
        if extra:  # a climb may reach a candidate another process kept, or another climb's exchange
            rows = _distinct(rows, hands, extra)
        out.append(ListResult(rows[:top], complete, bound, tuple(extra)))
    return out


def _distinct(rows: list[tuple[int, int]], hands: np.ndarray, reached: list[Climbed]) -> list[tuple[int, int]]:
    """``rows`` without those whose hands an earlier row has (an index from ``len(hands)`` on: a climbed one)."""
    seen: set[bytes] = set()
    out = []
    for v, i in rows:
        h = (hands[i] if i < len(hands) else reached[i - len(hands)].hands).tobytes()
        if h not in seen:
            seen.add(h)
            out.append((v, i))
    return out


def _climbed(reached: list[Climbed], c: Climbed, part: np.ndarray) -> int:
    """Adds ``c`` (its base an index in ``part``) to the list's ``reached``, its base an index in the list: its place."""
    reached.append(dataclasses.replace(c, base=int(part[c.base])))
    return len(reached) - 1


def _inverse(order: np.ndarray, size: int) -> np.ndarray:
    """Each of ``size`` candidates' place in ``order`` (which may hold only some of them)."""
    inv = np.full(size, len(order), dtype=np.int64)
    inv[order] = np.arange(len(order))
    return inv


def _search(
    solver: CoreSolver,
    hands: np.ndarray,
    bonus: np.ndarray,
    can: Moves | None,
    leader: int,
    soloist: int,
    maximise: bool,
    top: int,
    deadline: float | None,
    stop: float | None,
    totals: SearchStats,
    floor: int | None = None,
) -> tuple[list[int], list[int], bool, int, list[tuple[int, Climbed]]]:
    """One list search by ``solver`` here, within ``deadline`` (a test still running at ``stop`` gives up), of the
    candidates strictly better than ``floor`` (None: all): ``(kept, values, complete, bound, climbed)``."""
    before = solver.total_nodes
    cpu = time.process_time()
    climbed: list[tuple[int, Climbed]] = []
    if deadline is None:
        kept, values, searches = solver.best_of(hands, bonus, leader, soloist, maximise, top)
        complete, bound = True, values[0] if values else 0
    else:
        kept, values, searches, complete, bound, climbed = _limited(
            solver, hands, bonus, can, leader, soloist, maximise, top, floor, deadline, None, stop)
    totals.searches += searches
    totals.nodes += solver.total_nodes - before
    totals.cpu_here += time.process_time() - cpu
    return kept, values, complete, bound, climbed
