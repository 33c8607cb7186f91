"""The exact table cut into small tasks, for a cluster of many workers (``calasolve table --scheduler``).

A table's parts (:func:`~calasolve.table.ddtable.table_parts`) are its entries and
dividete's draws: 30 tasks, the dearest a chiamo search of up to two minutes or a
goal search of the game points of half a minute, so that no number of workers
brings a table below that.  Here each of the 30 searches is cut into tasks of
a few seconds, in stages; a search's next stage starts as soon as its own tasks
of the one before are done, whatever the other searches' (given a submitter of
single tasks, :mod:`calasolve.scale.submit`; a plain ``map`` runs the stages one
after another, every search's ready tasks in one call).  The searches take turns
(:func:`task_turns`): of the tasks ready, a search's k-th goes before any search's
(k + 1)-th, so that the chunks of a search whose stage came late do not wait behind
all of another's.

1. *The first pass* (``head``), one task per search: the candidates enumerated
   and put in the search's order (:func:`~calasolve.exchange.candidates.grouped_candidates`,
   as :func:`~calasolve.exchange.search.best_exchange` orders them), and the first
   :data:`HEAD` of them searched.  Their best value is the search's *floor*: a value
   a real candidate reaches.  (Solissimo has nothing to choose: its one position's value.)
2. *The chunks* (``chunk``): the rest of the candidates in consecutive slices of
   :data:`CHUNK` candidates, each searched by the core's list search with the floor
   (``best_of_limited``): it keeps its best candidate only if strictly better than
   the floor.  A chunk that keeps nothing has proven every candidate of its slice
   no better than the floor.  A chunk handed out after others of its search found
   better goes out against the best of those before it in the order.
3. *The game points* (``payoff``) of each search's best exchange, where its thirds
   do not settle them alone: each payoff level left open is a goal search
   (:func:`~calasolve.search.payoff.payoff_reaches`), cut by the lines of its first
   :data:`GOAL_CARDS` cards (the soloist reaches the level if some card of his reaches
   it, every card of a defender's, :func:`goal_reached`); the game points are the
   highest level reached, as :func:`~calasolve.search.payoff.payoff_value` finds by bisection.
4. *The game-points play's thirds* (``points``), where they take a search
   (:func:`~calasolve.search.payoff.payoff_thirds`; rare).

The best of a search is the best of the first pass and the chunks (the soloist's
contracts: the highest thirds; the defenders': the lowest), so its value is exact:
every candidate is either searched or proven no better.  Ties go to the candidate
first in the search's order, as in the one-process search (``cs_best_of`` keeps the
first it meets of its best value), so the table is the uncut table's, exchanges
included; only the effort (nodes, seconds, CPU) differs.  The chunks test against
the floor, not against the best found anywhere as one search does, and share no
transposition table; the goal searches of every open level and line are all made,
where the bisection skips some: the cut costs more CPU in all.

Each task's CPU seconds and wall span go into the table's task log
(:class:`~calasolve.types.table.TableTask`, ``calasolve table --task-log``), with the
tasks it needs: a chunk its first pass, a goal search its search's first pass and chunks,
the game-points play's thirds those and the goal searches.  :func:`simulated_wall` turns
the log into the wall time of N workers, each task started once those it needs are done
(how a submitter runs them), or stage by stage (how a plain ``map`` does).
"""

from __future__ import annotations

import heapq
import queue
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from ..exchange.candidates import (Layout, defender_layouts, dividete_draws, enumerate_candidates, grouped_candidates,
                                   order_candidates, scegliete_splits, soloist_layouts)
from ..game.errors import CalasolveError, ParameterError
from ..game.exchange import Exchange
from ..game.notation import exchange_text
from ..game.cards import cards_of, last_trick_bonus
from ..game.state import SOLOIST_EXCHANGE, Contract, PlayState
from ..scale.schedule import list_schedule, staged
from ..scale.submit import Handle, Mapper, Submitter, submitter_of
from ..search import _core, engines
from ..search.batch import ListQuery
from ..search.payoff import deal_thirds, goal_search, payoff_levels, payoff_reaches, payoff_thirds, settled_between
from ..types.record import Record
from ..types.table import DDTable, TableEntry, TableTask, TaskKind
from .ddtable import assemble, deal_record, named_error, outcome_of, points_play_thirds, table_tasks

__all__ = ["CHUNK", "GOAL_CARDS", "HEAD", "WINDOW", "cut_tables", "goal_leaves", "goal_reached", "simulated_wall",
           "task_turns"]

#: The candidates of a search's first pass: the most promising, whose best is the floor of its chunks.
HEAD = _core.BEST_OF_PREFIX
#: The candidates of a chunk, by contract: a few seconds of work where its candidates are dearest (docs/scale.md).
CHUNK: dict[Contract, int] = {"chiamo": 2000, "scegliete": 2000, "dividete": 400, "solo": 100}
#: The chunks of the prefix are this many times smaller: its candidates, the most promising, cost the most.
PREFIX_SHARE = 4
#: The cards a goal search of the game points is cut by: one task per line of the first GOAL_CARDS cards (0: one
#: task per payoff level; cut finer, the lines lose each other's cut-offs: docs/experiments.md).
GOAL_CARDS = 0
#: Records cut and run together: their tasks share each stage's ``map``, so the workers stay busy.
WINDOW = 4


@dataclass(frozen=True)
class Unit:
    """One exchange search of a table: an entry's, or one draw of a dividete entry."""

    record: Record
    soloist: int
    contract: Contract
    draw: int | None

    def deal(self) -> Record:
        """The deal as searched: the record's, this soloist in this contract (dividete: with the draw's takes)."""
        deal = deal_record(self.record, self.soloist, self.contract)
        if self.draw is not None:
            deal = deal.with_(exchange=Exchange(takes=dividete_draws(self.record.monte, self.soloist)[self.draw]))
        return deal

    def layouts(self) -> tuple[list[Layout], bool]:
        """The search's layouts and whether the soloist chooses (maximises), as
        :func:`~calasolve.exchange.search.search_exchange` makes them for a record with no exchange given."""
        deal = self.deal()
        hands, monte = deal.hands, deal.monte
        if self.contract in SOLOIST_EXCHANGE:
            return soloist_layouts(hands, monte, self.contract, self.soloist, deal.exchange), True
        takes = [deal.exchange.takes] if deal.exchange.takes is not None else scegliete_splits(monte, self.soloist)
        return defender_layouts(hands, monte, self.soloist, takes), False


def table_units(record: Record) -> list[Unit]:
    """The searches of a record's table, the dearest contracts first (solissimo: its whole entry, unsearched)."""
    return [Unit(rec, seat, contract, draw) for rec, seat, contract in table_tasks(record)
            for draw in (range(len(dividete_draws(record.monte, seat))) if contract == "dividete" else [None])]


@dataclass(frozen=True)
class Effort:
    """What a task cost: its search nodes, wall and CPU seconds, and its span (wall clock, start and end)."""

    nodes: int
    seconds: float
    cpu: float
    span: tuple[float, float]


class _Meter:
    """Measures one task from here: :meth:`effort` with the nodes counter read again at its end."""

    def __init__(self, nodes: int) -> None:
        self.began, self.cpu, self.start, self.nodes = time.time(), time.process_time(), time.perf_counter(), nodes

    def effort(self, nodes: int) -> Effort:
        return Effort(nodes - self.nodes, time.perf_counter() - self.start, time.process_time() - self.cpu,
                      (self.began, time.time()))


@dataclass(frozen=True)
class Head:
    """A search's first pass: its floor (the best of the first :data:`HEAD` candidates) and where that
    candidate is in the search's order; the rest of the candidates for the chunks; and, for every
    candidate in the search's order, its layout and discards (to build the best one's exchange)."""

    floor: int
    best: int
    #: the candidates it searched
    searched: int
    rest_hands: np.ndarray
    rest_bonus: np.ndarray
    layout: np.ndarray
    discards: np.ndarray
    effort: Effort


@dataclass(frozen=True)
class CandidateChunk:
    """A slice of a search's candidates after its first pass, for a worker: those at ``offset`` on in the search's
    order, searched against the ``floor``."""

    unit: Unit
    offset: int
    hands: np.ndarray
    bonus: np.ndarray
    floor: int
    maximise: bool
    tt_mb: int | None

    def against(self, found: Iterable[Found]) -> CandidateChunk:
        """The chunk against the best value ``found`` (its search's chunks done) holds before its first candidate,
        where better than its floor: a candidate of the chunk only as good comes later in the search's order, so
        the tie is the one found's."""
        floor = self.floor
        for f in found:
            if f.value is not None and f.position is not None and f.position < self.offset and (
                    f.value > floor if self.maximise else f.value < floor):
                floor = f.value
        return self if floor == self.floor else replace(self, floor=floor)


@dataclass(frozen=True)
class Found:
    """What a chunk kept: its best candidate strictly better than its floor (value and place in the search's
    order), or none; and its effort."""

    value: int | None
    position: int | None
    effort: Effort


@dataclass(frozen=True)
class GoalTask:
    """One goal search of a search's game points, for a worker: can the soloist force a payoff of ``level`` once
    the first ``cards`` are played (both sides at their best after them)?"""

    unit: Unit
    exchange: Exchange
    level: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Reached:
    """A goal search's answer, and its effort."""

    reached: bool
    effort: Effort


@dataclass(frozen=True)
class Counted:
    """The game-points play's thirds (a search), and its effort."""

    thirds: int
    effort: Effort


def first_job(job: tuple[Unit, int | None]) -> Head:
    """Stage 1 on a worker: a search's first pass (solissimo: its one position's value)."""
    unit, tt_mb = job
    try:
        return _head(unit, tt_mb)
    except CalasolveError as exc:
        raise _of(unit.record, exc) from None


def _head(unit: Unit, tt_mb: int | None) -> Head:
    """The candidates in the search's order, the best of the first :data:`HEAD`, the rest for the chunks."""
    solver = engines.solver(tt_mb)
    meter = _Meter(solver.total_nodes)
    deal = unit.deal()
    if unit.contract == "solissimo":  # nothing to choose
        hands, monte = deal.after_exchange()
        value = solver.value(hands, (), deal.first_leader, unit.soloist, last_trick_bonus(monte))
        none = np.zeros((0, 3), dtype=np.uint64)
        return Head(value, 0, 1, none, np.zeros(0, np.int64), np.zeros(0, np.int32), none,
                    meter.effort(solver.total_nodes))
    layouts, maximise = unit.layouts()
    batch = enumerate_candidates(layouts, unit.soloist)
    order = grouped_candidates(batch, order_candidates(batch, maximise, None))
    first = order[:HEAD]
    kept, values, _ = solver.best_of(np.ascontiguousarray(batch.hands[first]), np.ascontiguousarray(batch.bonus[first]),
                                     deal.first_leader, unit.soloist, maximise, 1)
    rest = order[HEAD:]
    return Head(values[0], kept[0], len(first), np.ascontiguousarray(batch.hands[rest]),
                np.ascontiguousarray(batch.bonus[rest]), batch.layout[order].astype(np.int32),
                np.ascontiguousarray(batch.discards[order]), meter.effort(solver.total_nodes))


def chunks_of(unit: Unit, head: Head, maximise: bool, tt_mb: int | None, prefix: bool, floor: int) -> list[CandidateChunk]:
    """The chunks of a search after its first pass, searched against ``floor``: with ``prefix`` those of the rest of
    the core's prefix (its most promising max(50, n / 50) candidates, in slices of a :data:`PREFIX_SHARE`-th of
    :data:`CHUNK`), else the rest (in slices of :data:`CHUNK`)."""
    n = len(head.rest_bonus)
    cut = min(n, max(0, max(_core.BEST_OF_PREFIX, (n + head.searched) // _core.BEST_OF_PREFIX) - head.searched))
    lo, hi = (0, cut) if prefix else (cut, n)
    if hi <= lo:
        return []
    size = max(1, CHUNK[unit.contract] // PREFIX_SHARE) if prefix else CHUNK[unit.contract]
    edges = np.linspace(lo, hi, max(1, round((hi - lo) / size)) + 1).round().astype(int)
    return [CandidateChunk(unit, head.searched + int(a), head.rest_hands[a:b], head.rest_bonus[a:b], floor, maximise, tt_mb)
            for a, b in zip(edges[:-1], edges[1:]) if b > a]


def chunk_job(chunk: CandidateChunk) -> Found:
    """Stage 2 on a worker: the chunk's best candidate strictly better than its floor, if any."""
    try:
        solver = engines.solver(chunk.tt_mb)
        meter = _Meter(solver.total_nodes)
        found = engines.best_within(solver, ListQuery(chunk.hands, chunk.bonus, chunk.unit.deal().first_leader,
                                                      chunk.unit.soloist, chunk.maximise, 1, chunk.floor))
        value, position = (found.values[0], chunk.offset + found.kept[0]) if found.kept else (None, None)
        return Found(value, position, meter.effort(solver.total_nodes))
    except CalasolveError as exc:
        raise _of(chunk.unit.record, exc) from None


def _start(unit: Unit, exchange: Exchange, cards: Sequence[int] = ()) -> PlayState:
    """The position after ``exchange`` and the first ``cards``."""
    state = unit.deal().with_(exchange=exchange).start_state()
    for card in cards:
        state.play(card)
    return state


def goal_job(goal: GoalTask) -> Reached:
    """Stage 3 on a worker: one goal search of a search's game points."""
    try:
        meter = _Meter(goal_search().total_nodes)
        state = _start(goal.unit, goal.exchange, goal.cards)
        reached = payoff_reaches(state, goal.unit.contract, goal.level, goal.unit.record.rules)
        return Reached(reached, meter.effort(goal_search().total_nodes))
    except CalasolveError as exc:
        raise _of(goal.unit.record, exc) from None


def points_job(job: tuple[Unit, Exchange, int]) -> Counted:
    """Stage 4 on a worker: the game-points play's thirds, where they take a search."""
    unit, exchange, value = job
    try:
        meter = _Meter(goal_search().total_nodes)
        thirds = payoff_thirds(_start(unit, exchange), unit.contract, value, unit.record.rules)
        return Counted(thirds, meter.effort(goal_search().total_nodes))
    except CalasolveError as exc:
        raise _of(unit.record, exc) from None


def goal_leaves(state: PlayState, cards: int) -> list[tuple[int, ...]]:
    """The lines of the first ``cards`` cards from ``state`` (every legal card each time), in card order: the
    positions a goal search is cut into."""
    if cards == 0 or state.is_over:
        return [()]
    out = []
    for card in cards_of(state.legal()):
        child = state.copy()
        child.play(card)
        out += [(card, *line) for line in goal_leaves(child, cards - 1)]
    return out


def goal_reached(state: PlayState, answers: Mapping[tuple[int, ...], bool], line: tuple[int, ...] = ()) -> bool:
    """Whether the soloist forces the goal from ``state``, from the answers at the leaves of its lines
    (:func:`goal_leaves`): some card reaches it where the soloist is to play, every card where a defender is."""
    if line in answers:
        return answers[line]
    results = []
    for card in cards_of(state.legal()):
        child = state.copy()
        child.play(card)
        results.append(goal_reached(child, answers, (*line, card)))
    return any(results) if state.to_move == state.soloist else all(results)


def _of(record: Record, exc: CalasolveError) -> CalasolveError:
    """A worker's error naming its record, but for the table size asked for (not the record's fault)."""
    if isinstance(exc, ParameterError) and exc.parameter == "tt_mb":
        return exc
    return named_error(record, exc)


def best_of_search(head: Head, found: Iterable[Found], maximise: bool) -> tuple[int, int]:
    """A search's best (value, place in its order) from its first pass and its chunks: the best value, the
    first in the order among equals (as the one-process search keeps)."""
    value, position = head.floor, head.best
    for f in found:
        if f.value is None or f.position is None:
            continue
        if (f.value > value if maximise else f.value < value) or (f.value == value and f.position < position):
            value, position = f.value, f.position
    return value, position


class _Log:
    """A record's task log as it is submitted: each task's number, kind and what it needs."""

    def __init__(self) -> None:
        self.rows: list[tuple[TaskKind, Unit, tuple[int, ...], int]] = []
        self.runs: dict[int, tuple[float, tuple[float, float]]] = {}

    def add(self, kind: TaskKind, unit: Unit, after: Sequence[int] = (), candidates: int = 0) -> int:
        self.rows.append((kind, unit, tuple(after), candidates))
        return len(self.rows) - 1

    def ran(self, task: int, effort: Effort, candidates: int | None = None) -> None:
        self.runs[task] = (effort.cpu, effort.span)
        if candidates is not None:
            kind, unit, after, _ = self.rows[task]
            self.rows[task] = (kind, unit, after, candidates)

    def tasks(self) -> list[TableTask]:
        return [TableTask(i, kind, u.soloist, u.contract, u.draw, after, *self.runs[i], candidates)
                for i, (kind, u, after, candidates) in enumerate(self.rows)]


@dataclass(frozen=True, eq=False)
class _Launch:
    """A task launched, waiting for room in the submitter: its search, its number in the log, and what it runs."""

    search: _Search
    task: int
    fn: Callable[[Any], Any]
    item: Any

    def reported_to(self, done: queue.SimpleQueue[tuple[Handle, _Search, int]]) -> Callable[[Handle], None]:
        """The callback that puts the task's handle, once done, on ``done`` (from any thread)."""
        return lambda handle: done.put((handle, self.search, self.task))


@dataclass(eq=False)
class _Search:
    """One unit's search as it runs through the stages (of record ``of`` in the window)."""

    unit: Unit
    task: int
    of: int
    head: Head | None = None
    #: the stage its tasks under way belong to (:data:`_STAGES`), and how many are under way
    stage: str = "head"
    waiting: int = 0
    #: its tasks launched so far: the next one's turn (:class:`_Pipeline`)
    turns: int = 0
    #: the tasks of its chunks, and what each found
    chunks: list[int] = field(default_factory=list)
    found: list[Found] = field(default_factory=list)
    #: its best exchange, in words, and its thirds
    best: tuple[Exchange, str, int] = (Exchange(), "", 0)
    #: per payoff level, reached or not (None: not known yet); the tasks of its goal searches and their answers
    levels: dict[int, bool | None] = field(default_factory=dict)
    goals: list[int] = field(default_factory=list)
    goal_of: dict[int, GoalTask] = field(default_factory=dict)
    answers: dict[int, dict[tuple[int, ...], bool]] = field(default_factory=dict)
    #: the game points, and the game-points play's thirds (:func:`~calasolve.table.ddtable.points_play_thirds`)
    value: int = 0
    points: int | None = None
    #: the effort of every task it took
    efforts: list[Effort] = field(default_factory=list)

    @property
    def maximise(self) -> bool:
        """The soloist chooses (solo, chiamo); else the defenders."""
        return self.unit.contract in SOLOIST_EXCHANGE


#: A search's stages, in order: each starts once the search's tasks of the one before are done.
_STAGES = ("head", "prefix", "chunk", "payoff", "points", "done")


def cut_tables(records: Sequence[Record], map: Mapper | Submitter, tt_mb: int | None,
               window: int = WINDOW) -> Iterator[DDTable]:
    """The exact tables of ``records`` in their order, each search cut in tasks (the module doc), ``window``
    records at a time; each table carries its task log.  Given a submitter (a pool's, a Dask cluster's) each
    search's next stage starts as soon as its own tasks are done; a plain ``map`` runs them stage by stage,
    every search's ready tasks in one ``map`` call."""
    run = submitter_of(map)
    for k in range(0, len(records), window):
        yield from _cut_window(records[k:k + window], run, tt_mb)


def _cut_window(records: Sequence[Record], run: Submitter, tt_mb: int | None) -> list[DDTable]:
    logs = [_Log() for _ in records]
    searches = [[_Search(u, log.add("head", u), k) for u in table_units(r)] for k, (r, log) in enumerate(zip(records, logs))]
    pipeline = _Pipeline(run, logs, tt_mb)
    for s in (s for of_record in searches for s in of_record):
        pipeline.launch(s, s.task, first_job, (s.unit, tt_mb))
    pipeline.drain()
    return [assemble(record, [_entry(s) for s in of_record], log.tasks())
            for record, of_record, log in zip(records, searches, logs)]


class _Pipeline:
    """The tasks of a window's searches under way: each result taken in as it comes (in this thread), and a
    search moved on to its next stage once none of its tasks is under way.  The searches take turns: a search's
    k-th task goes before any search's (k + 1)-th (:func:`task_turns`), kept here until the submitter has room
    for it (its ``capacity``), and handed over with its priority.  A chunk goes out against the best its search
    has found before it by then (:meth:`CandidateChunk.against`)."""

    def __init__(self, run: Submitter, logs: list[_Log], tt_mb: int | None) -> None:
        self.run, self.logs, self.tt_mb = run, logs, tt_mb
        self.done: queue.SimpleQueue[tuple[Handle, _Search, int]] = queue.SimpleQueue()
        self.running = 0  # submitted and not yet taken in
        self.ready: list[tuple[int, int, _Launch]] = []  # heap: the search's turn, then the order launched
        self.launched = 0

    def launch(self, s: _Search, task: int, fn: Callable[[Any], Any], item: Any) -> None:
        heapq.heappush(self.ready, (s.turns, self.launched, _Launch(s, task, fn, item)))
        self.launched += 1
        s.turns += 1
        s.waiting += 1

    def _submit(self) -> None:
        """The ready tasks, best turn first, while the submitter has room."""
        capacity = getattr(self.run, "capacity", None)
        while self.ready and (capacity is None or self.running < capacity):
            turn, _, go = heapq.heappop(self.ready)
            # a chunk goes out against the best its search has found so far before it
            item = go.item.against(go.search.found) if isinstance(go.item, CandidateChunk) else go.item
            handle = self.run.submit(go.fn, item, -turn)
            self.running += 1
            handle.add_done_callback(go.reported_to(self.done))

    def drain(self) -> None:
        while self.running or self.ready:
            self._submit()
            try:
                handle, s, task = self.done.get_nowait()
            except queue.Empty:
                self.run.flush()
                handle, s, task = self.done.get()
            self.running -= 1
            s.waiting -= 1
            self._took(s, task, handle.result())
            while not s.waiting and s.stage != "done":
                self._next(s)

    def _took(self, s: _Search, task: int, result: Any) -> None:
        """A task's result into its search."""
        log = self.logs[s.of]
        if isinstance(result, Head):
            s.head = result
            log.ran(task, result.effort, result.searched)
        else:
            log.ran(task, result.effort)
            if isinstance(result, Found):
                s.found.append(result)
            elif isinstance(result, Reached):
                goal = s.goal_of[task]
                s.answers.setdefault(goal.level, {})[goal.cards] = result.reached
            else:
                s.points = result.thirds
        s.efforts.append(result.effort)

    def _next(self, s: _Search) -> None:
        """The search's next stage: its tasks launched (none, where it has nothing to search)."""
        s.stage = _STAGES[_STAGES.index(s.stage) + 1]
        log = self.logs[s.of]
        if s.stage in ("prefix", "chunk"):
            # stage 2, the rest of the prefix against the first pass's floor; 3, the rest against the best so far
            assert s.head is not None
            floor, _ = best_of_search(s.head, s.found, s.maximise)
            after = [s.task, *s.chunks]
            kind: TaskKind = "prefix" if s.stage == "prefix" else "chunk"
            for c in chunks_of(s.unit, s.head, s.maximise, self.tt_mb, kind == "prefix", floor):
                s.chunks.append(log.add(kind, s.unit, after, len(c.bonus)))
                self.launch(s, s.chunks[-1], chunk_job, c)
        elif s.stage == "payoff":
            # the goal searches of the game points the thirds do not settle, each cut by its first GOAL_CARDS cards
            s.best = _best_exchange(s)
            exchange, _, thirds = s.best
            state = _start(s.unit, exchange)
            rules, total = s.unit.record.rules, deal_thirds(state)
            for level in payoff_levels(s.unit.contract, rules):
                s.levels[level] = settled_between(s.unit.contract, level, rules, thirds, thirds, total)
                if s.levels[level] is None:
                    for line in goal_leaves(state, GOAL_CARDS):
                        s.goals.append(log.add("payoff", s.unit, [s.task, *s.chunks]))
                        s.goal_of[s.goals[-1]] = GoalTask(s.unit, exchange, level, line)
                        self.launch(s, s.goals[-1], goal_job, s.goal_of[s.goals[-1]])
        elif s.stage == "points":
            # the game points (the highest level reached); the game-points play's thirds where they take a search
            state = _start(s.unit, s.best[0])
            for level, lines in s.answers.items():
                s.levels[level] = goal_reached(state, lines)
            s.value = max(level for level, reached in s.levels.items() if reached)
            s.points = points_play_thirds(s.unit.contract, s.best[2], s.value, s.unit.record.rules)
            if s.points == -1:
                self.launch(s, log.add("points", s.unit, [s.task, *s.chunks, *s.goals]), points_job,
                            (s.unit, s.best[0], s.value))


def _best_exchange(s: _Search) -> tuple[Exchange, str, int]:
    """A search's best exchange, in words, and its value."""
    assert s.head is not None
    value, position = best_of_search(s.head, s.found, s.maximise)
    if s.unit.contract == "solissimo":
        exchange = s.unit.deal().exchange
    else:
        layouts, _ = s.unit.layouts()
        d = s.head.discards[position]
        exchange = layouts[int(s.head.layout[position])].build((int(d[0]), int(d[1]), int(d[2])))
    record = s.unit.record
    return exchange, exchange_text(exchange, s.unit.contract, s.unit.soloist, record.hands, record.monte), value


def _entry(s: _Search) -> TableEntry:
    """A search's entry (dividete: its draw's part), its effort that of all its tasks."""
    exchange, text, thirds = s.best
    outcome = outcome_of(s.unit.deal(), exchange, text, thirds, s.value, s.points)
    efforts = s.efforts
    return TableEntry(s.unit.soloist, s.unit.contract, (outcome,), sum(e.nodes for e in efforts),
                      sum(e.seconds for e in efforts), s.unit.draw, sum(e.cpu for e in efforts),
                      (min(e.span[0] for e in efforts), max(e.span[1] for e in efforts)))


def simulated_wall(tasks: Sequence[TableTask], workers: int, *, stages: bool = False) -> float:
    """The wall time of a table's tasks on ``workers`` workers (:func:`~calasolve.scale.schedule.list_schedule`
    of their CPU seconds, the searches taking turns as :func:`cut_tables` hands them out: :func:`task_turns`):
    each after the tasks it needs (how :func:`cut_tables` runs them through a submitter), or with ``stages`` each
    stage after the whole of the one before (through a plain ``map``)."""
    index = {t.task: i for i, t in enumerate(tasks)}
    if stages:
        after: list[Sequence[int]] = list(staged([_stage(t) for t in tasks]))
    else:
        after = [[index[a] for a in t.after] for t in tasks]
    return list_schedule([(t.cpu, a) for t, a in zip(tasks, after)], workers, task_turns(tasks))


def task_turns(tasks: Sequence[TableTask]) -> list[int]:
    """Each task's turn in a table's log (in the order submitted): how many tasks of its search (its soloist,
    contract and draw) came before it.  Among the tasks ready, :func:`cut_tables` hands out the lowest turn first,
    so that a search whose stage came late does not wait behind every task of one that came sooner.

    >>> from calasolve.types.table import TableTask
    >>> log = [TableTask(i, "chunk", seat, "chiamo", None, (), 1.0, (0.0, 1.0), 2000) for i, seat in enumerate([0, 0, 0, 1])]
    >>> task_turns(log)
    [0, 1, 2, 0]
    """
    seen: dict[tuple[int, str, int | None], int] = {}
    turns = []
    for t in tasks:
        search = (t.soloist, t.contract, t.draw)
        turns.append(seen.get(search, 0))
        seen[search] = turns[-1] + 1
    return turns


def _stage(task: TableTask) -> int:
    """The stage a task runs in: first passes and whole entries, chunks, game points."""
    return {"prefix": 1, "chunk": 2, "payoff": 3, "points": 4}.get(task.kind, 0)
