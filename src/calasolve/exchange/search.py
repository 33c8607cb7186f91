"""The double-dummy-best exchange (docs/rules.md §5 and §9).

:func:`best_exchange` completes a record's exchange the double-dummy way:

* **solo**: the soloist's best 4 discards out of their 16 cards;
* **chiamo**: the best card to call, then (when a defender handed it over)
  the best card to return, then the best 4 discards;
* **dividete**: which two monte cards each defender gets is chance; each of
  the 6 equally likely draws is solved with the defenders' best discards
  (they minimise), and the mean is reported;
* **scegliete**: the defenders' best split of the face-up monte and their
  best discards (they minimise).

What the record gives is kept (and was already checked by the record); only
the missing choices are searched.  :func:`solve_with_exchange` then plays
the deal out with the best exchange (what ``calasolve solve`` does for a
record whose exchange is incomplete).

**The text of an exchange** (:func:`~calasolve.game.notation.exchange_text`), cards in reading order:

* solo: ``discard 6B 5C FD 7D``;
* chiamo: ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``, or
  ``call 3C from the monte, discard ...`` (nothing is handed over or returned);
* dividete and scegliete, per defender:
  ``seat 1 takes RB 4B, discards 7S 4D; seat 2 takes nothing``.

**How the search works.**

1. *Candidates* and 2. *their order*: :mod:`calasolve.exchange.candidates`
   (one exchange per class of equivalent positions, most promising first).
3. *Null-window tests against the bound.*  The side choosing keeps the ``top``
   best candidates found so far; a new candidate is solved exactly only if a
   null-window test (:meth:`Solver.reaches`) shows it beats the ``top``-th
   best (for the soloist: ``reaches(v + 1)``; for the defenders: not
   ``reaches(v)``).  Most candidates are rejected by that one test.
4. *One solver* serves every candidate (and the play afterwards), so its
   transposition table is shared across them.  The list search is the
   solver's ``best_of``: for the C solver one core call (``cs_best_of``,
   csrc/exchange.c; :func:`calasolve.search.reference.best_of` is its Python twin): it
   keeps each candidate's fail-soft bounds (a failed test usually proves
   more than asked, so later passes skip the candidate) and carries the
   killer leads from one candidate to the next, the candidates of one
   call/return (or takes) coming together after the most promising prefix.

5. *Several processes, a time limit* (``jobs``, ``time_limit``):
   :mod:`calasolve.exchange.parallel` searches the prefix here and the rest
   in chunks on worker processes that share the values found; a time limit
   stops the tests and reports what is proven (docs/exchange-search.md).

The answer is exact: every class is either solved or proven no better than
the ``top``-th best.  Ties keep the candidate met first.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
import time
from typing import Any, Sequence

from ..game.cards import Mask, last_trick_bonus
from ..types.record import Record, check_record
from ..types.exchange import Draw, ExchangeResult, SearchStats
from ..game.errors import CalasolveError, InternalError, ParameterError
from ..game.exchange import Exchange
from .candidates import (
    Hands,
    Batch,
    Candidate,
    climb_moves,
    defender_layouts,
    early_order,
    enumerate_candidates,
    grouped_candidates,
    Layout,
    order_candidates,
    scegliete_splits,
    soloist_layouts,
    dividete_draws,
)
from ..game.state import DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, Contract, check_deal
from ..game.limits import MAX_JOBS, MAX_THIRDS, MAX_TOP, check_int, check_optional_int, check_optional_seconds
from ..search.engines import CoreSolver
from ..search.position import Position, solve_position
from ..types.solution import Objective, SolveResult
from ..search.solving import check_solver, default_solver
from .draws import search_lists
from .parallel import List, ListResult, ListsQuery, list_search

__all__ = ["SearchLimits", "best_exchange", "check_jobs_and_limit", "check_search_arguments", "search_exchange",
           "solve_with_exchange"]

# -- the search ------------------------------------------------------------------------


def check_jobs_and_limit(jobs: Any, time_limit: Any) -> None:
    """``jobs`` within the limits; a ``time_limit`` None or positive."""
    check_int("jobs", jobs, 1, MAX_JOBS)
    check_optional_seconds("time_limit", time_limit)


@dataclass(frozen=True)
class SearchLimits:
    """How far an exchange search goes: the ``top`` best exchanges kept, the hands of an exchange
    tried ``first`` (None: none), ``jobs`` worker processes, and a ``time_limit`` in seconds (None:
    exact).  Checked when made."""

    top: int = 10
    first: Hands | None = None
    jobs: int = 1
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.top < 1:
            raise CalasolveError(f"top {self.top}: must be at least 1")
        check_jobs_and_limit(self.jobs, self.time_limit)


def best_candidates(
    solver: CoreSolver,
    cands: Batch | Sequence[Candidate],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    stats: SearchStats,
    limits: SearchLimits = SearchLimits(top=1),
    deadline: float | None = None,
) -> list[tuple[int, int, Candidate]]:
    """The ``limits.top`` best candidates for the side choosing, as ``(value, index, candidate)``,
    best first (ties: the first met in the order of the estimate; a candidate with
    the hands ``limits.first``, if any, is met first of all), by the solver's list search
    (``solver.best_of``: the C core's ``cs_best_of``, or
    :func:`calasolve.search.reference.best_of` for the reference solver), or with ``limits.jobs``
    > 1 the most promising here and the rest in worker processes
    (:mod:`calasolve.exchange.parallel`); no test after ``deadline`` (a :func:`time.monotonic` time)."""
    batch = cands if isinstance(cands, Batch) else Batch.of(cands)
    found = list_searches(solver, [batch], leader, soloist, maximise=maximise, stats=stats, limits=limits,
                          deadline=deadline)
    return [(v, i, candidate_of(batch, found[0], i)) for v, i in found[0].kept]


def candidate_of(batch: Batch, found: ListResult, i: int) -> Candidate:
    """Candidate ``i`` of a list search's result: the batch's, or from its length on an exchange a climb reached."""
    if i < len(batch):
        return batch.candidate(i)
    reached = found.climbed[i - len(batch)]
    base = batch.candidate(reached.base)
    layout = base.layout if reached.layout < 0 else batch.layouts[reached.layout]
    h, d = reached.hands, reached.discards
    return Candidate((int(h[0]), int(h[1]), int(h[2])), reached.bonus, layout, (int(d[0]), int(d[1]), int(d[2])),
                     base.estimate, base.early)


def list_searches(
    solver: CoreSolver,
    batches: Sequence[Batch],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    stats: SearchStats,
    limits: SearchLimits,
    deadline: float | None,
) -> list[ListResult]:
    """:func:`best_candidates` of several batches at once (their chunks share the worker pool)."""
    lists: list[List]
    if deadline is None:
        lists = [(b.hands, b.bonus, grouped_candidates(b, order_candidates(b, maximise, limits.first)), None)
                 for b in batches]
    else:  # against the clock: the early estimate, every layout and spread a first look
        # one list climbs from its best (dividete's draws, a third of the time each, measured no gain)
        lists = []
        for b in batches:
            can = climb_moves(b, soloist) if len(batches) == 1 else None
            lists.append((b.hands, b.bonus, early_order(b, soloist, maximise, limits.first, can), can))
    query = ListsQuery(lists, leader, soloist, maximise, limits.top, limits.jobs, deadline)
    if deadline is not None and len(lists) > 1 and limits.top == 1:  # dividete's draws: every draw's first valued first
        return search_lists(solver, query, stats)
    return list_search(solver, query, stats)


def search_exchange(
    hands: Sequence[Mask],
    monte: Mask,
    contract: Contract,
    soloist: int,
    leader: int,
    *,
    given: Exchange = Exchange(),
    solver: CoreSolver | None = None,
    limits: SearchLimits = SearchLimits(),
) -> ExchangeResult:
    """The best completion of ``given`` for a deal as dealt: ``hands`` (three equal
    hands), ``monte`` (4 cards), ``leader`` of the first trick.

    This is :func:`best_exchange` without a record, so it also takes short hands
    (any equal size), which is how it is tested against brute force.  ``given``
    is trusted (a record has already checked it).  ``limits``: the ``top``
    alternatives, the hands after an exchange to try ``first``, ``jobs`` and
    ``time_limit`` (see :func:`best_exchange`).

    One call answers "the best exchange value of this deal for soloist s in
    contract c": with ``top=1`` and ``jobs=1`` it uses this process's ``solver``
    only, so a caller needing many (a table of soloists x contracts) runs them
    side by side in its own worker processes."""
    run = _ExchangeRun(solver or default_solver(), (hands[0], hands[1], hands[2]), monte, contract, soloist, leader,
                       given, limits)
    if contract in SOLOIST_EXCHANGE:
        return run.soloist_exchange()
    if contract in DEFENDER_EXCHANGE:
        if given.takes is not None or contract == "scegliete":
            return run.split_exchange()
        return run.dividete()
    return run.nothing_to_choose()


#: A list of layouts searched: its ``n`` best ``(value, candidate)``, its size, its search.
_Listed = tuple[list[tuple[int, Candidate]], int, ListResult]


@dataclass
class _ExchangeRun:
    """One :func:`search_exchange`: the deal, the solver and the limits, when it started and what it has cost."""

    solver: CoreSolver
    hands: Hands
    monte: Mask
    contract: Contract
    soloist: int
    leader: int
    given: Exchange
    limits: SearchLimits
    start: float = dataclasses.field(init=False)
    deadline: float | None = dataclasses.field(init=False)
    totals: SearchStats = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.start = time.perf_counter()
        self.deadline = None if self.limits.time_limit is None else time.monotonic() + self.limits.time_limit
        self.totals = SearchStats()

    def run(self, layout_lists: Sequence[Sequence[Layout]], maximise: bool, n: int) -> list[_Listed]:
        """The ``n`` best ``(value, candidate)`` of each list of layouts, its size, its search."""
        batches = [enumerate_candidates(layouts, self.soloist) for layouts in layout_lists]
        found = list_searches(self.solver, batches, self.leader, self.soloist, maximise=maximise, stats=self.totals,
                              limits=dataclasses.replace(self.limits, top=n), deadline=self.deadline)
        return [([(v, candidate_of(b, r, i)) for v, i in r.kept], len(b), r) for b, r in zip(batches, found)]

    def result(self, **fields: Any) -> ExchangeResult:
        """The answer of a search: ``fields``, what it cost, and the deal."""
        return ExchangeResult(
            **fields,
            searches=self.totals.searches,
            nodes=self.totals.nodes,
            seconds=time.perf_counter() - self.start,
            stats=self.totals,
            **self.common(),
        )

    def common(self) -> dict[str, Any]:
        """The fields every answer has: the deal and the exchange given."""
        return {"contract": self.contract, "soloist": self.soloist, "given": self.given, "hands": self.hands,
                "monte": self.monte}

    def soloist_exchange(self) -> ExchangeResult:
        """The soloist's exchange: the ``top`` best."""
        [(kept, count, found)] = self.run([soloist_layouts(self.hands, self.monte, self.contract, self.soloist,
                                                           self.given)], True, self.limits.top)
        alternatives = tuple((c.exchange(), v) for v, c in kept)
        best, value = alternatives[0]
        return self.result(exchange=best, value=value, alternatives=alternatives, proven=found.complete,
                           bound=found.bound, candidates=count)

    def split_exchange(self) -> ExchangeResult:
        """The defenders' exchange of a split chosen (scegliete's) or given: their best."""
        given, monte, soloist = self.given, self.monte, self.soloist
        splits = [given.takes] if given.takes is not None else scegliete_splits(monte, soloist)
        [(kept, count, found)] = self.run([defender_layouts(self.hands, monte, soloist, splits)], False, 1)
        value, c = kept[0]
        ex = c.exchange()
        return self.result(exchange=ex, value=value, alternatives=((ex, value),), proven=found.complete,
                           bound=found.bound, candidates=count)

    def dividete(self) -> ExchangeResult:
        """The defenders' best exchange of each of dividete's draws; the worst for the soloist is the answer."""
        all_takes = dividete_draws(self.monte, self.soloist)
        searched = self.run([defender_layouts(self.hands, self.monte, self.soloist, [takes]) for takes in all_takes],
                            False, 1)
        draws = [
            Draw(takes, kept[0][1].exchange(), kept[0][0], found.complete, found.bound)
            for takes, (kept, _, found) in zip(all_takes, searched)
        ]
        worst = min(range(len(draws)), key=lambda i: (draws[i].value, i))
        return self.result(
            exchange=draws[worst].exchange,
            value=draws[worst].value,
            alternatives=((draws[worst].exchange, draws[worst].value),),
            draws=tuple(draws),
            mean=sum(d.value for d in draws) / len(draws),
            proven=all(d.proven for d in draws),
            bound=min(d.value if d.bound is None else d.bound for d in draws),
            candidates=sum(count for _, count, _ in searched),
        )

    def nothing_to_choose(self) -> ExchangeResult:
        """Solissimo: the deal's value as dealt."""
        value = self.solver.value(self.hands, (), self.leader, self.soloist, last_trick_bonus(self.monte))
        return ExchangeResult(
            exchange=Exchange(),
            value=value,
            alternatives=((Exchange(), value),),
            bound=value,
            searched=False,
            candidates=1,
            searches=1,
            nodes=self.solver.nodes,
            seconds=time.perf_counter() - self.start,
            **self.common(),
        )


def best_exchange(
    record: Record,
    *,
    solver: CoreSolver | None = None,
    top: int = 10,
    first: Hands | None = None,
    jobs: int = 1,
    time_limit: float | None = None,
) -> ExchangeResult:
    """The double-dummy-best exchange of a deal ``record`` (see the module doc).

    What the record gives is kept; the rest is searched.  When the record gives
    the whole exchange (or the contract has none) nothing is searched and the
    result holds that exchange and its value.  ``value`` is the soloist's final
    thirds from the first lead (cards already ``played`` are not taken into
    account).

    ``first``: the three hands after some exchange known to be good, tried before
    every other candidate, so that its value bounds the rest from the start (the
    advisor passes the defenders' best dividete exchange of a sample to its
    scegliete search, where the same hands are one of the candidates).  The
    value found is the same with or without it; among exchanges of equal value,
    the one reported may differ.

    ``jobs``: worker processes for the search (the most promising candidates are
    searched here, the rest split among the workers; :mod:`calasolve.exchange.parallel`).
    The values are the same with any number; among exchanges of equal value, the
    one reported may differ from the one-process search.

    ``time_limit``: seconds after which no new candidate is tested (the C solver
    only).  When the limit cuts the search, ``proven`` is False, the exchange is
    the best found so far (its value exact) and ``bound`` the proven limit on the
    best; without it the search is exact (``proven`` True, ``bound`` the value).
    """
    check_search_arguments(record, solver, top, jobs, time_limit)
    if first is not None:
        check_deal(first, 0, record.soloist, record.first_leader)
    solver = solver or default_solver()
    leader = record.first_leader
    if not record.needs_exchange:
        start = time.perf_counter()
        hands, monte = record.after_exchange()
        value = solver.value(hands, (), leader, record.soloist, last_trick_bonus(monte))
        ex = record.exchange
        return ExchangeResult(
            contract=record.contract,
            soloist=record.soloist,
            exchange=ex,
            value=value,
            alternatives=((ex, value),),
            given=ex,
            searched=False,
            candidates=1,
            searches=1,
            nodes=solver.nodes,
            seconds=time.perf_counter() - start,
            hands=record.hands,
            monte=record.monte,
        )
    return search_exchange(
        record.hands,
        record.monte,
        record.contract,
        record.soloist,
        leader,
        given=record.exchange,
        solver=solver,
        limits=SearchLimits(top, first, jobs, time_limit),
    )


def check_search_arguments(record: Any, solver: Any, top: Any, jobs: Any = 1, time_limit: Any = None) -> None:
    """The arguments of :func:`best_exchange` and :func:`solve_with_exchange`, checked."""
    check_record("record", record)
    check_solver("solver", solver)
    check_int("top", top, 1, MAX_TOP)
    check_jobs_and_limit(jobs, time_limit)


def solve_with_exchange(
    record: Record,
    *,
    solver: CoreSolver | None = None,
    top: int = 10,
    target: int | None = None,
    objective: Objective = "thirds",
    jobs: int = 1,
    time_limit: float | None = None,
) -> SolveResult:
    """:func:`best_exchange`, then :func:`~calasolve.search.position.solve_position` of the record with
    that exchange filled in.  The result describes the play with the best exchange
    (for dividete without ``takes``: the draw worst for the soloist, see
    :class:`ExchangeResult`); ``exchange`` is that :class:`ExchangeResult`.
    ``nodes`` and ``seconds`` count the exchange search and the play.  The exchange
    is chosen for thirds (docs/rules.md §9) whatever the ``objective`` of the play.
    ``jobs`` and ``time_limit`` are the exchange search's (:func:`best_exchange`)."""
    check_search_arguments(record, solver, top, jobs, time_limit)
    check_optional_int("target", target, 0, MAX_THIRDS)
    if objective not in ("thirds", "payoff"):
        raise ParameterError("objective", objective, "unknown objective (use thirds or payoff)")
    solver = solver or default_solver()
    found = best_exchange(record, solver=solver, top=top, jobs=jobs, time_limit=time_limit)
    try:
        completed = record.with_(exchange=found.exchange)
    except CalasolveError as err:  # cannot happen: the search builds legal exchanges only
        raise InternalError(f"the best exchange is not legal: {err}") from None
    played = solve_position(Position.from_record(completed, solver=solver), target=target, objective=objective)
    return dataclasses.replace(
        played, exchange=found, nodes=played.nodes + found.nodes, seconds=played.seconds + found.seconds
    )
