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
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from ..types.exchange import SearchStats
from ..scale.workers import forks_workers, worker_pool
from ..search import _core, engines
from ..search.batch import ListAnswer, ListQuery
from ..search.engines import CoreSolver, best_within
from .climb import Climbed, Moves, climb

__all__ = ["ChunkJob", "ChunkResult", "FORKED", "ForkedLists", "List", "ListResult", "ListsQuery", "SHARED",
           "SharedCounts", "list_search"]

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

    answer: ListAnswer
    nodes: int
    #: CPU seconds, for a chunk a worker searched (None: searched here)
    cpu: float | None = None
    #: the better exchanges a climb reached, as ``(value, exchange)`` (``base``: an index in the chunk)
    climbed: tuple[tuple[int, Climbed], ...] = ()


@dataclass(frozen=True)
class _Searched:
    """A list search in this process: the core's answer, and the better exchanges a climb from its best reached, as
    ``(value, exchange)`` (``base``: an index in the candidates searched)."""

    answer: ListAnswer
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
    query = ListQuery(hands, bonus, job.leader, job.soloist, job.maximise, job.top, floor, deadline, shared, job.deadline)
    found = _limited(solver, query, moves)
    return ChunkResult(found.answer, solver.total_nodes - before, None, found.climbed)


def _limited(solver: CoreSolver, query: ListQuery, can: Moves | None) -> _Searched:
    """The core's list search of ``query`` within its deadline; given what a climb ``can`` change, with
    :data:`CLIMB_AFTER` of the time, and the rest to climb from what it kept if it did not finish (a test still
    running at the query's ``stop``, the whole search's end, gives up)."""
    deadline = query.deadline
    mine = deadline
    if can is not None and deadline is not None:
        mine = time.monotonic() + CLIMB_AFTER * max(0.0, deadline - time.monotonic())
    answer = best_within(solver, dataclasses.replace(query, deadline=mine))
    if can is None or deadline is None or answer.complete or not answer.kept:
        return _Searched(answer)
    assert isinstance(query.hands, np.ndarray) and isinstance(query.last_bonus, np.ndarray)  # a list's arrays
    climbed, more = climb(solver, list(zip(answer.values, answer.kept)), query.hands, query.last_bonus, can,
                          query.leader, query.soloist, query.maximise, deadline, query.stop)
    return _Searched(dataclasses.replace(answer, searches=answer.searches + more), tuple(climbed))


def _search(solver: CoreSolver, query: ListQuery, can: Moves | None, totals: SearchStats) -> _Searched:
    """One list search of ``query`` by ``solver`` here, counted in ``totals``: without a deadline the exact one
    (``best_of``), else :func:`_limited`."""
    before = solver.total_nodes
    cpu = time.process_time()
    q = query
    if q.deadline is None:
        kept, values, searches = solver.best_of(q.hands, q.last_bonus, q.leader, q.soloist, q.maximise, q.top)
        found = _Searched(ListAnswer(kept, values, searches, True, values[0] if values else 0))
    else:
        found = _limited(solver, q, can)
    totals.searches += found.answer.searches
    totals.nodes += solver.total_nodes - before
    totals.cpu_here += time.process_time() - cpu
    return found


def _better_key(maximise: bool) -> Any:
    return (lambda kv: (-kv[0], kv[1])) if maximise else (lambda kv: (kv[0], kv[1]))


def _chunks(size: int, parts: int) -> list[tuple[int, int]]:
    edges = np.linspace(0, size, parts + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


@dataclass(frozen=True)
class ListsQuery:
    """What :func:`list_search` is asked: the ``top`` best of each of ``lists`` (``(hands, bonus, order, moves)``)
    for the side choosing (the soloist if ``maximise``; first led by ``leader``), by ``jobs`` processes, no test
    after ``deadline`` (a :func:`time.monotonic` time; None: exact).  Given ``floors`` (a value per list that
    already has an answer; against the clock only), only candidates strictly better are kept."""

    lists: Sequence[List]
    leader: int
    soloist: int
    maximise: bool
    top: int
    jobs: int
    deadline: float | None
    floors: Sequence[int] | None = None

    @property
    def nothing(self) -> int:
        """A value worse than any for the side choosing: no floor."""
        return -1 if self.maximise else _core.MAX_VALUE + 1

    @property
    def whole(self) -> bool:
        """Several lists on several processes: each one whole in one process, side by side (no prefix here)."""
        return self.jobs > 1 and len(self.lists) > 1 and WHOLE_LISTS


@dataclass
class _Progress:
    """One list of a :func:`list_search` as it goes: the ``(value, index)`` found, whether every test ran, the
    bound proven, the rest of its order left to the chunks and their floor, whether that rest is dealt to every
    process at once, and the exchanges its climbs reached (their indices from the list's length on)."""

    rows: list[tuple[int, int]]
    complete: bool
    bound: int
    rest: np.ndarray
    start: int
    dealt: bool = False
    climbed: list[Climbed] = dataclasses.field(default_factory=list)


#: A chunk as :func:`list_search` hands it out: its list, its candidates (indices in the list), its job, and the
#: worker's future (None: this process searches it).
_Part = tuple[int, np.ndarray, ChunkJob, Future[ChunkResult] | None]


def list_search(solver: CoreSolver, query: ListsQuery, totals: SearchStats, pool: Executor | None = None) -> list[ListResult]:
    """The ``top`` best of each list of ``query`` (the candidates' arrays and the order to try them in: the prefix,
    then the rest grouped by layout, as :func:`calasolve.exchange.candidates.grouped_candidates` gives it), with the
    prefix searched by ``solver`` here and the rest by ``jobs`` worker processes (``jobs`` 1, or a short list: all by
    ``solver``, as one list search each).  Against the clock, a list given its ``moves`` (None: none) is climbed from
    its best (:mod:`.climb`).  ``pool``: the ``jobs - 1`` workers to use (None: a pool for this search)."""
    assert query.floors is None or query.deadline is not None, "a floor is for a search against the clock"
    config = solver.config
    lists = [_head(solver, query, li, totals) for li in range(len(query.lists))]
    totals.cpu_prefix = totals.cpu_here
    if any(len(p.rest) for p in lists):
        _search_rests(solver, config, query, lists, totals, pool)
    return [_result(query, li, p) for li, p in enumerate(lists)]


def _head(solver: CoreSolver, query: ListsQuery, li: int, totals: SearchStats) -> _Progress:
    """List ``li``'s prefix searched here (none for a whole list, or one dealt to every process), and the floor of
    its rest."""
    hands, bonus, order, can = query.lists[li]
    n, nothing, deadline = len(order), query.nothing, query.deadline
    start = nothing if query.floors is None else query.floors[li]
    if query.whole:  # each list whole in one process: no prefix here
        return _Progress([], True, nothing, order, start)
    if query.jobs > 1 and deadline is not None and n >= EARLY_PARALLEL_MIN:
        # against the clock every process starts at once, each on every jobs-th candidate:
        # the prefix alone would take the time, with the other cores idle
        return _Progress([], True, nothing, order, start, dealt=True)
    cut = max(_core.BEST_OF_PREFIX, n // HEAD_DIVISOR) if query.jobs > 1 and n >= PARALLEL_MIN else n
    head = order[:cut]
    mine = deadline
    if deadline is not None and len(query.lists) > 1:  # the lists here one after another: what is left, shared
        mine = min(deadline, time.monotonic() + (deadline - time.monotonic()) / (len(query.lists) - li))
    floor = None if query.floors is None else start
    prefix = ListQuery(hands[head], bonus[head], query.leader, query.soloist, query.maximise, query.top, floor, mine,
                       None, deadline)
    found = _search(solver, prefix, None if can is None else can.part(head), totals)
    answer = found.answer
    progress = _Progress([], answer.complete, answer.bound, order[cut:], nothing)
    progress.rows = ([(v, int(head[k])) for k, v in zip(answer.kept, answer.values)]
                     + [(v, len(hands) + _climbed(progress.climbed, c, head)) for v, c in found.climbed])
    known = answer.values + ([] if query.floors is None else [start])
    if len(known) >= query.top:
        progress.start = sorted(known, reverse=query.maximise)[query.top - 1]
    return progress


def _search_rests(solver: CoreSolver, config: Mapping[str, int | bool], query: ListsQuery, lists: list[_Progress],
                  totals: SearchStats, pool: Executor | None) -> None:
    """The rests of the lists, in chunks: the workers' and this process's, merged into ``lists``."""
    counted = [[v for v, _ in p.rows] for p in lists]
    if query.floors is not None:  # a list's floor is the value of its answer so far
        counted = [values + [f] for values, f in zip(counted, query.floors)]
    search_id = SHARED.start(counted)
    # this process is one of the `jobs`: it takes chunks from the back of the queue (its table is
    # warm from the prefix), the workers from the front; against the clock it searches its own share
    with contextlib.ExitStack() as stack:
        # a pool forked here inherits the lists: its jobs name their rows rather than carry copies
        forked = pool is None and forks_workers()
        if forked:
            stack.enter_context(FORKED.holding(search_id, [(h, b, p.rest, can)
                                                           for (h, b, _, can), p in zip(query.lists, lists)]))
        workers = pool if pool is not None else stack.enter_context(worker_pool(query.jobs - 1))
        parts = _submit(config, query, lists, search_id, forked, workers)
        here = _run_here(solver, parts, query.deadline, totals)
        _merge(query, lists, parts, here, totals)


def _submit(config: Mapping[str, int | bool], query: ListsQuery, lists: list[_Progress], search_id: int, forked: bool,
            workers: Executor) -> list[_Part]:
    """Every list's rest cut into chunks: submitted to ``workers``, but for this process's share against the clock."""
    jobs, deadline, whole = query.jobs, query.deadline, query.whole
    # with a deadline, each of several lists gets a fair share of the time (dividete's draws: else the last
    # draws searched get their first candidate only); one list, or no deadline: as before
    shared_time = deadline is not None and len(query.lists) >= 2
    pooled = len(query.lists) - len(query.lists) // jobs  # of several whole lists against the clock, the first go to the pool
    parts: list[_Part] = []
    for li, ((hands, bonus, _, can), p) in enumerate(zip(query.lists, lists)):
        if whole:
            cuts = [slice(None)]
        elif p.dealt:  # dealt round, each part in the early order
            cuts = [slice(j, None, jobs) for j in range(jobs)]
        else:
            cuts = [slice(a, b) for a, b in _chunks(len(p.rest), CHUNKS_PER_JOB * jobs)]
        for j, where in enumerate(cuts):
            part = p.rest[where]
            # against the clock this process's share is set aside, not submitted: the pool queues a
            # job ahead of its workers, so a job submitted for this process to take back may not cancel
            mine = (p.dealt and j == len(cuts) - 1) or (whole and shared_time and li >= pooled)
            left = None
            if whole and shared_time:  # this process takes its lists from the back, the workers in order
                left = li - pooled + 1 if mine else math.ceil((pooled - li) / (jobs - 1))
            limits = (query.leader, query.soloist, query.maximise, query.top, p.start, deadline, config, search_id, li,
                      query.floors is not None or (not whole and not p.dealt), left)
            if forked:
                job = ChunkJob(None, None, *limits, rows=where)
            else:
                h, b, moves = _gather(hands, bonus, can, part, deadline is not None)
                job = ChunkJob(h, b, *limits, moves)
            parts.append((li, part, job, None if mine else workers.submit(_chunk_job, job)))
    return parts


def _run_here(solver: CoreSolver, parts: list[_Part], deadline: float | None,
              totals: SearchStats) -> list[ChunkResult | None]:
    """The chunks this process searches: its own share, then (without a deadline) those it takes from the back of
    the queue while they last."""
    results: list[ChunkResult | None] = [None] * len(parts)
    for k in range(len(parts) - 1, -1, -1):
        fut = parts[k][3]
        if fut is not None and (deadline is not None or not fut.cancel()):
            break
        cpu = time.process_time()
        results[k] = _run_chunk(solver, parts[k][2])
        totals.cpu_here += time.process_time() - cpu
    return results


def _merge(query: ListsQuery, lists: list[_Progress], parts: list[_Part], here: list[ChunkResult | None],
           totals: SearchStats) -> None:
    """Every chunk's answer (searched here, or the worker's) into its list, and its cost into ``totals``."""
    for k, (li, part, _, fut) in enumerate(parts):
        found = here[k]
        if found is None:
            assert fut is not None  # only this process's parts have no future, and they ran here
            found = fut.result()
        if found.cpu is not None:
            totals.cpu_chunks.append(found.cpu)
        answer, p = found.answer, lists[li]
        totals.searches += answer.searches
        totals.nodes += found.nodes
        p.rows.extend((v, int(part[j])) for j, v in zip(answer.kept, answer.values))
        size = len(query.lists[li][0])
        p.rows.extend((v, size + _climbed(p.climbed, c, part)) for v, c in found.climbed)
        p.complete = p.complete and answer.complete
        p.bound = max(p.bound, answer.bound) if query.maximise else min(p.bound, answer.bound)


def _result(query: ListsQuery, li: int, p: _Progress) -> ListResult:
    """List ``li``'s ``top`` best, ties to the first in the order searched, then what the climbs reached."""
    hands, _, order, _ = query.lists[li]
    key = _better_key(query.maximise)
    pos = _inverse(order, len(hands))
    rows = p.rows
    rows.sort(key=lambda vi: key((vi[0], int(pos[vi[1]]) if vi[1] < len(pos) else vi[1])))
    if p.climbed:  # a climb may reach a candidate another process kept, or another climb's exchange
        rows = _distinct(rows, hands, p.climbed)
    return ListResult(rows[:query.top], p.complete, p.bound, tuple(p.climbed))


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
