"""Solving a record whatever its exchange: the public :func:`calasolve.solve`.

A record whose exchange is missing or partial gets the double-dummy-best
exchange first (:func:`~calasolve.exchange.search.solve_with_exchange`), as
``calasolve solve`` does; a record whose exchange is complete is solved as
its position (:func:`~calasolve.search.position.solve_position`).  The choice
lives here, above both the search and the exchange search, so neither
imports the other upward.

>>> from calasolve.records.dealfile import parse_deal_text
>>> record = parse_deal_text('''
... hands: 7.74.2RCF764.R6 3F.32AR.3A.2AF4 AC65.CF5.5.3C75
... monte: 2R4.6.-.-
... contract: solo
... soloist: 1
... ''')[0]
>>> result = solve(record, top=1)
>>> result.soloist_thirds, result.exchange.text()
(27, 'discard FB 4B AC FD')
"""

from __future__ import annotations

from ..types.record import Record, check_record
from ..search.engines import CoreSolver
from ..search.position import Position, solve_position
from ..types.solution import Objective, SolveResult
from ..search.solving import SolveOptions, check_solver
from .search import check_jobs_and_limit, solve_with_exchange

__all__ = ["solve"]


def solve(
    record: Record,
    *,
    target: int | None = None,
    all_cards: bool = True,
    solver: CoreSolver | None = None,
    line: bool = True,
    objective: Objective = "thirds",
    top: int = 10,
    jobs: int = 1,
    time_limit: float | None = None,
) -> SolveResult:
    """Solve a deal record double-dummy at its ``played`` point.

    A record whose exchange is missing or partial gets the double-dummy-best
    exchange first, as ``calasolve solve`` does (:func:`~calasolve.exchange.search.solve_with_exchange`:
    ``exchange`` describes it, with the ``top`` best alternatives; ``jobs`` worker
    processes search it, within ``time_limit`` seconds if given).

    ``target`` (final thirds, 0..35) asks only "does the soloist reach it?";
    ``all_cards=False`` skips the per-card values; ``line=False`` skips the line.
    ``objective="payoff"`` plays for game points instead of thirds (see
    :func:`~calasolve.search.solving.solve_payoff`).  A position (a
    :class:`~calasolve.search.position.Position`) is solved by
    :func:`~calasolve.search.position.solve_position`.
    """
    SolveOptions(target, all_cards, line, objective)
    check_solver("solver", solver)
    check_jobs_and_limit(jobs, time_limit)
    check_record("record", record)
    if record.needs_exchange:
        return solve_with_exchange(record, solver=solver, top=top, target=target, objective=objective, jobs=jobs,
                                   time_limit=time_limit)
    return solve_position(Position.from_record(record, solver=solver), target=target, all_cards=all_cards, line=line,
                          objective=objective)
