"""Solving a record whatever its exchange: the public :func:`calasolve.solve`.

A record whose exchange is missing or partial gets the double-dummy-best
exchange first (:func:`~calasolve.exchange.search.solve_with_exchange`), as
``calasolve solve`` does; anything else goes straight to the search layer's
:func:`~calasolve.search.solving.solve`.  The choice lives here, above both
the search and the exchange search, so neither imports the other upward.

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

from typing import Any

from ..game.state import Contract
from ..search import solving
from ..search.solving import CoreSolver, SolveResult, check_solve_arguments, default_solver
from .search import check_jobs_and_limit, solve_with_exchange

__all__ = ["solve"]


def solve(
    position: Any,
    *,
    target: int | None = None,
    all_cards: bool = True,
    solver: CoreSolver | None = None,
    line: bool = True,
    objective: str = "thirds",
    contract: Contract | None = None,
    rules: Any = None,
    top: int = 10,
    jobs: int = 1,
    time_limit: float | None = None,
) -> SolveResult:
    """Solve a record (at its ``played`` point), a :class:`~calasolve.search.position.Position`
    or a :class:`~calasolve.game.state.PlayState` double-dummy.

    A record whose exchange is missing or partial gets the double-dummy-best
    exchange first, as ``calasolve solve`` does (:func:`~calasolve.exchange.search.solve_with_exchange`:
    ``exchange`` describes it, with the ``top`` best alternatives; ``jobs`` worker
    processes search it, within ``time_limit`` seconds if given).

    ``target`` (final thirds, 0..35) asks only "does the soloist reach it?";
    ``all_cards=False`` skips the per-card values; ``line=False`` skips the line.
    ``objective="payoff"`` plays for game points instead of thirds (see
    :func:`~calasolve.search.solving.solve_payoff`); ``contract`` and ``rules`` are needed then for a
    bare :class:`~calasolve.game.state.PlayState` (a record brings its own).
    """
    check_solve_arguments(objective, target, all_cards, line, solver, contract, rules)
    check_jobs_and_limit(solver or default_solver(), jobs, time_limit)
    if getattr(position, "needs_exchange", False):
        return solve_with_exchange(position, solver=solver, top=top, target=target, objective=objective, jobs=jobs,
                                   time_limit=time_limit)
    return solving.solve(position, target=target, all_cards=all_cards, solver=solver, line=line,
                         objective=objective, contract=contract, rules=rules)
