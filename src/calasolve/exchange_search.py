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

**The text of an exchange** (:func:`exchange_text`), cards in reading order:

* solo: ``discard 6B 5C FD 7D``;
* chiamo: ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``, or
  ``call 3C from the monte, discard ...`` (nothing is handed over or returned);
* dividete and scegliete, per defender:
  ``seat 1 takes RB 4B, discards 7S 4D; seat 2 takes nothing``.

**How the search works.**

1. *Candidates* and 2. *their order*: :mod:`calasolve.exchange_candidates`
   (one exchange per class of equivalent positions, most promising first).
3. *Null-window tests against the bound.*  The side choosing keeps the ``top``
   best candidates found so far; a new candidate is solved exactly only if a
   null-window test (:meth:`Solver.reaches`) shows it beats the ``top``-th
   best (for the soloist: ``reaches(v + 1)``; for the defenders: not
   ``reaches(v)``).  Most candidates are rejected by that one test.
4. *One solver* serves every candidate (and the play afterwards), so its
   transposition table is shared across them.  The list search is the
   solver's ``best_of``: for the C solver one core call (``cs_best_of``,
   csrc/exchange.c; :func:`calasolve.reference.best_of` is its Python twin): it
   keeps each candidate's fail-soft bounds (a failed test usually proves
   more than asked, so later passes skip the candidate) and carries the
   killer leads from one candidate to the next, the candidates of one
   call/return (or takes) coming together after the most promising prefix.

5. *Several processes, a time limit* (``jobs``, ``time_limit``):
   :mod:`calasolve.exchange_parallel` searches the prefix here and the rest
   in chunks on worker processes that share the values found; a time limit
   stops the tests and reports what is proven (docs/exchange-search.md).

The answer is exact: every class is either solved or proven no better than
the ``top``-th best.  Ties keep the candidate met first.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import _core
from .cards import LAST_TRICK_THIRDS, MAKE_THIRDS, Mask, card_name, display_order, hand_name, mask_thirds
from .dealfile import Record, check_record
from .errors import CalasolveError, ExchangeError, ParameterError
from .exchange import Exchange, called_from
from .exchange_candidates import (
    Hands,
    _Batch,
    _Candidate,
    _defender_layouts,
    _enumerate,
    _grouped,
    _Layout,
    _order,
    _scegliete_splits,
    _soloist_layouts,
    defence_candidates,
    dividete_draws,
)
from .exchange_parallel import ListResult, Totals, list_search
from .game import DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, check_deal, defender_seats
from .limits import MAX_JOBS, MAX_THIRDS, MAX_TOP, check_int, check_optional_int, check_optional_seconds
from .solving import CoreSolver, SolveResult, check_solver, default_solver, solve

__all__ = [
    "Draw",
    "defence_candidates",
    "dividete_draws",
    "ExchangeResult",
    "best_exchange",
    "exchange_text",
    "search_exchange",
    "solve_with_exchange",
]

#: An exchange and the soloist's final thirds (double dummy) with it.
Choice = tuple[Exchange, int]


# -- results -------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    """Dividete: one of the 6 equally likely draws of the monte and the defenders' best discards."""

    #: the monte cards each seat received (0 for the soloist)
    takes: Hands
    #: the complete exchange: these takes and the defenders' best discards
    exchange: Exchange
    #: the soloist's final thirds with that exchange, double dummy
    value: int
    #: False when a time limit cut the search: better discards for the defenders may exist
    proven: bool = True
    #: proven: no discards of the defenders hold the soloist below this (``value`` when proven)
    bound: int | None = None

    def __repr__(self) -> str:
        takes = {str(s): hand_name(m) for s, m in enumerate(self.takes) if m}
        cut = "" if self.proven else f", not proven, bound={self.bound}"
        return f"Draw(takes={takes!r}, exchange={self.exchange!r}, value={self.value}{cut})"


@dataclass(frozen=True)
class ExchangeResult:
    """The double-dummy-best exchange of a record (see the module doc).

    ``exchange`` is complete and ``value`` is the soloist's final thirds with
    it under best play.  ``alternatives`` (solo and chiamo) are the ``top``
    best exchanges that lead to different positions, best first, the best
    included.  For dividete without ``takes``, ``draws`` has the 6 draws in a
    fixed order (seat ``soloist + 1`` gets the first pair of monte cards in
    reading order, ...), ``mean`` their average, and ``exchange``/``value``
    describe the draw worst for the soloist (the one the defenders would
    pick if they could choose; the first such draw on a tie).
    """

    contract: str
    soloist: int
    exchange: Exchange
    value: int
    alternatives: tuple[Choice, ...] = ()
    draws: tuple[Draw, ...] = ()
    mean: float | None = None
    #: the exchange as the record gave it (possibly partial)
    given: Exchange = Exchange()
    #: whether anything was searched (False when the record gave the whole exchange)
    searched: bool = True
    #: False when a time limit cut the search: ``exchange`` is the best found so far
    proven: bool = True
    #: the proven limit on the best value (``value`` itself when proven): no exchange of
    #: the soloist (solo, chiamo) gives more, no exchange of the defenders (dividete:
    #: in the worst draw; scegliete) holds the soloist below it
    bound: int | None = None
    #: distinct candidate exchanges (classes of equivalent ones) considered
    candidates: int = 0
    #: solver calls made (null-window tests and exact solves)
    searches: int = 0
    nodes: int = 0
    seconds: float = 0.0
    hands: Hands = field(default=(0, 0, 0), repr=False, compare=False)
    monte: Mask = field(default=0, repr=False, compare=False)

    def __repr__(self) -> str:
        more = f", mean of the draws {self.mean:.2f}" if self.draws else f", {len(self.alternatives)} alternatives"
        if not self.proven:
            more += f", not proven (bound {self.bound})"
        return f"<ExchangeResult {self.contract} for seat {self.soloist}: {self.text()} -> {self.value} thirds{more}>"

    @property
    def makes(self) -> bool:
        return self.value >= MAKE_THIRDS

    def text(self, exchange: Exchange | None = None) -> str:
        """The text form of ``exchange`` (default: the best one)."""
        return exchange_text(exchange or self.exchange, self.contract, self.soloist, self.hands, self.monte)

    def _choice_dict(self, exchange: Exchange, value: int) -> dict[str, Any]:
        return {
            "text": self.text(exchange),
            "soloist_thirds": value,
            "soloist_points": value // 3,
            "makes": value >= MAKE_THIRDS,
            "exchange": exchange.to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: ``best`` and ``alternatives`` as ``{text, soloist_thirds, soloist_points,
        makes, exchange}``; dividete adds ``draws`` (the same, plus ``takes``, ``proven``
        and ``bound``) and ``mean``; ``proven`` and ``bound`` as the fields."""
        out: dict[str, Any] = {
            "contract": self.contract,
            "soloist": self.soloist,
            "given": self.given.to_dict(),
            "searched": self.searched,
            "best": self._choice_dict(self.exchange, self.value),
            "alternatives": [self._choice_dict(ex, v) for ex, v in self.alternatives],
        }
        if self.draws:
            out["draws"] = [
                {
                    "takes": {str(s): _tokens(d.takes[s]) for s in defender_seats(self.soloist)},
                    **self._choice_dict(d.exchange, d.value),
                    "proven": d.proven,
                    "bound": d.value if d.bound is None else d.bound,
                }
                for d in self.draws
            ]
            out["mean"] = self.mean
        out["proven"] = self.proven
        out["bound"] = self.value if self.bound is None else self.bound
        out["candidates"] = self.candidates
        out["searches"] = self.searches
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


def _tokens(mask: Mask) -> str:
    return " ".join(card_name(c) for c in display_order(mask))


def exchange_text(exchange: Exchange, contract: str, soloist: int, hands: Sequence[Mask], monte: Mask) -> str:
    """The exchange in words, e.g. ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``.

    >>> from calasolve.cards import parse_card, parse_hand
    >>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
    >>> monte = parse_hand("-.-.4.327")
    >>> exchange_text(Exchange(call=parse_card("AD"), returned=parse_card("4D"),
    ...               discards=(parse_hand("R.-.4.75"), 0, 0)), "chiamo", 0, hands, monte)
    'call AD from seat 1, return 4D, discard RB 4C 7D 5D'
    >>> exchange_text(Exchange(takes=(0, parse_hand("-.-.4.3"), parse_hand("-.-.-.27")),
    ...               discards=(0, parse_hand("7.-.-.6"), parse_hand("5.-.-.7"))), "dividete", 0, hands, monte)
    'seat 1 takes 4C 3D, discards 7B 6D; seat 2 takes 2D 7D, discards 5B 7D'
    """
    parts: list[str] = []
    if contract in SOLOIST_EXCHANGE:
        if exchange.call is not None:
            holder = called_from(hands, monte, exchange.call)
            where = "the monte" if holder is None else f"seat {holder}"
            parts.append(f"call {card_name(exchange.call)} from {where}")
        if exchange.returned is not None:
            parts.append(f"return {card_name(exchange.returned)}")
        if exchange.discards is not None:
            parts.append(f"discard {_tokens(exchange.discards[soloist])}")
        return ", ".join(parts) or "-"
    if contract in DEFENDER_EXCHANGE:
        for seat in defender_seats(soloist):
            took = exchange.takes[seat] if exchange.takes is not None else None
            text = f"seat {seat} takes " + ("?" if took is None else (_tokens(took) or "nothing"))
            if exchange.discards is not None and exchange.discards[seat]:
                text += f", discards {_tokens(exchange.discards[seat])}"
            parts.append(text)
        return "; ".join(parts)
    return "no exchange"


# -- the search ------------------------------------------------------------------------


_Stats = Totals


def _best_of(
    solver: CoreSolver,
    cands: _Batch | Sequence[_Candidate],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: Totals,
    first: Hands | None = None,
    jobs: int = 1,
    deadline: float | None = None,
) -> list[tuple[int, int, _Candidate]]:
    """The ``top`` best candidates for the side choosing, as ``(value, index, candidate)``,
    best first (ties: the first met in the order of the estimate; a candidate with
    the hands ``first``, if any, is met first of all), by the solver's list search
    (``solver.best_of``: the C core's ``cs_best_of``, or
    :func:`calasolve.reference.best_of` for the reference solver), or with ``jobs``
    > 1 the most promising here and the rest in worker processes
    (:mod:`calasolve.exchange_parallel`)."""
    batch = cands if isinstance(cands, _Batch) else _Batch.of(cands)
    return [(v, i, batch.candidate(i)) for v, i in _list_searches(
        solver, [batch], leader, soloist, maximise=maximise, top=top, stats=stats, first=first, jobs=jobs,
        deadline=deadline)[0].kept]


def _list_searches(
    solver: CoreSolver,
    batches: Sequence[_Batch],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: Totals,
    first: Hands | None,
    jobs: int,
    deadline: float | None,
) -> list[ListResult]:
    """:func:`_best_of` of several batches at once (their chunks share the worker pool)."""
    lists = [(b.hands, b.bonus, _grouped(b, _order(b, maximise, first))) for b in batches]
    return list_search(solver, lists, leader, soloist, maximise=maximise, top=top, jobs=jobs, deadline=deadline,
                       totals=stats)


def search_exchange(
    hands: Sequence[Mask],
    monte: Mask,
    contract: str,
    soloist: int,
    leader: int,
    *,
    given: Exchange = Exchange(),
    solver: CoreSolver | None = None,
    top: int = 10,
    first: Hands | None = None,
    jobs: int = 1,
    time_limit: float | None = None,
) -> ExchangeResult:
    """The best completion of ``given`` for a deal as dealt: ``hands`` (three equal
    hands), ``monte`` (4 cards), ``leader`` of the first trick.

    This is :func:`best_exchange` without a record, so it also takes short hands
    (any equal size), which is how it is tested against brute force.  ``given``
    is trusted (a record has already checked it).  ``first``: the hands after an
    exchange to try before all others; ``jobs`` and ``time_limit``: see
    :func:`best_exchange`.

    One call answers "the best exchange value of this deal for soloist s in
    contract c": with ``top=1`` and ``jobs=1`` it uses this process's ``solver``
    only, so a caller needing many (a table of soloists x contracts) runs them
    side by side in its own worker processes."""
    if top < 1:
        raise CalasolveError(f"top {top}: must be at least 1")
    solver = solver or default_solver()
    _check_jobs_and_limit(solver, jobs, time_limit)
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    h: Hands = (hands[0], hands[1], hands[2])
    totals = _Stats()
    common: dict[str, Any] = {"contract": contract, "soloist": soloist, "given": given, "hands": h, "monte": monte}

    def run(
        layout_lists: Sequence[Sequence[_Layout]], maximise: bool, n: int
    ) -> list[tuple[list[tuple[int, _Candidate]], int, ListResult]]:
        """The ``n`` best ``(value, candidate)`` of each list of layouts, its size, its search."""
        batches = [_enumerate(layouts, soloist) for layouts in layout_lists]
        found = _list_searches(solver, batches, leader, soloist, maximise=maximise, top=n, stats=totals,
                               first=first, jobs=jobs, deadline=deadline)
        return [([(v, b.candidate(i)) for v, i in r.kept], len(b), r) for b, r in zip(batches, found)]

    if contract in SOLOIST_EXCHANGE:
        [(kept, count, found)] = run([_soloist_layouts(h, monte, contract, soloist, given)], True, top)
        alternatives = tuple((c.exchange(), v) for v, c in kept)
        best, value = alternatives[0]
        return ExchangeResult(
            exchange=best,
            value=value,
            alternatives=alternatives,
            proven=found.complete,
            bound=found.bound,
            candidates=count,
            searches=totals.searches,
            nodes=totals.nodes,
            seconds=time.perf_counter() - start,
            **common,
        )
    if contract in DEFENDER_EXCHANGE:
        if given.takes is not None or contract == "scegliete":
            splits = [given.takes] if given.takes is not None else _scegliete_splits(monte, soloist)
            [(kept, count, found)] = run([_defender_layouts(h, monte, soloist, splits)], False, 1)
            value, c = kept[0]
            ex = c.exchange()
            return ExchangeResult(
                exchange=ex,
                value=value,
                alternatives=((ex, value),),
                proven=found.complete,
                bound=found.bound,
                candidates=count,
                searches=totals.searches,
                nodes=totals.nodes,
                seconds=time.perf_counter() - start,
                **common,
            )
        all_takes = dividete_draws(monte, soloist)
        searched = run([_defender_layouts(h, monte, soloist, [takes]) for takes in all_takes], False, 1)
        draws = [
            Draw(takes, kept[0][1].exchange(), kept[0][0], found.complete, found.bound)
            for takes, (kept, _, found) in zip(all_takes, searched)
        ]
        worst = min(range(len(draws)), key=lambda i: (draws[i].value, i))
        return ExchangeResult(
            exchange=draws[worst].exchange,
            value=draws[worst].value,
            alternatives=((draws[worst].exchange, draws[worst].value),),
            draws=tuple(draws),
            mean=sum(d.value for d in draws) / len(draws),
            proven=all(d.proven for d in draws),
            bound=min(d.value if d.bound is None else d.bound for d in draws),
            candidates=sum(count for _, count, _ in searched),
            searches=totals.searches,
            nodes=totals.nodes,
            seconds=time.perf_counter() - start,
            **common,
        )
    # solissimo: nothing to choose
    value = solver.value(h, (), leader, soloist, LAST_TRICK_THIRDS + mask_thirds(monte))
    return ExchangeResult(
        exchange=Exchange(),
        value=value,
        alternatives=((Exchange(), value),),
        bound=value,
        searched=False,
        candidates=1,
        searches=1,
        nodes=solver.nodes,
        seconds=time.perf_counter() - start,
        **common,
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
    searched here, the rest split among the workers; :mod:`calasolve.exchange_parallel`).
    The values are the same with any number; among exchanges of equal value, the
    one reported may differ from the one-process search.

    ``time_limit``: seconds after which no new candidate is tested (the C solver
    only).  When the limit cuts the search, ``proven`` is False, the exchange is
    the best found so far (its value exact) and ``bound`` the proven limit on the
    best; without it the search is exact (``proven`` True, ``bound`` the value).
    """
    _check_search_arguments(record, solver, top, jobs, time_limit)
    if first is not None:
        check_deal(first, 0, record.soloist, record.first_leader)
    solver = solver or default_solver()
    leader = record.first_leader
    if not record.needs_exchange:
        start = time.perf_counter()
        hands, monte = record.after_exchange()
        value = solver.value(hands, (), leader, record.soloist, LAST_TRICK_THIRDS + mask_thirds(monte))
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
        top=top,
        first=first,
        jobs=jobs,
        time_limit=time_limit,
    )


def _check_search_arguments(record: Any, solver: Any, top: Any, jobs: Any, time_limit: Any) -> None:
    check_record("record", record)
    check_solver("solver", solver, list_search=True)
    check_int("top", top, 1, MAX_TOP)
    _check_jobs_and_limit(solver or default_solver(), jobs, time_limit)


def _check_jobs_and_limit(solver: Any, jobs: Any, time_limit: Any) -> None:
    check_int("jobs", jobs, 1, MAX_JOBS)
    if check_optional_seconds("time_limit", time_limit) is not None and not isinstance(solver, _core.Solver):
        raise ParameterError("time_limit", time_limit, "needs the C solver")


def solve_with_exchange(
    record: Record,
    *,
    solver: CoreSolver | None = None,
    top: int = 10,
    target: int | None = None,
    objective: str = "thirds",
    jobs: int = 1,
    time_limit: float | None = None,
) -> SolveResult:
    """:func:`best_exchange`, then :func:`~calasolve.solving.solve` of the record with
    that exchange filled in.  The result describes the play with the best exchange
    (for dividete without ``takes``: the draw worst for the soloist, see
    :class:`ExchangeResult`); ``exchange`` is ``ExchangeResult.to_dict()``.
    ``nodes`` and ``seconds`` count the exchange search and the play.  The exchange
    is chosen for thirds (docs/rules.md §9) whatever the ``objective`` of the play.
    ``jobs`` and ``time_limit`` are the exchange search's (:func:`best_exchange`)."""
    _check_search_arguments(record, solver, top, jobs, time_limit)
    check_optional_int("target", target, 0, MAX_THIRDS)
    if objective not in ("thirds", "payoff"):
        raise ParameterError("objective", objective, "unknown objective (use thirds or payoff)")
    solver = solver or default_solver()
    found = best_exchange(record, solver=solver, top=top, jobs=jobs, time_limit=time_limit)
    try:
        completed = record.with_(exchange=found.exchange)
    except CalasolveError as err:  # cannot happen: the search builds legal exchanges only
        raise ExchangeError(f"internal error: the best exchange is not legal: {err}") from None
    played = solve(completed, target=target, solver=solver, objective=objective)
    return dataclasses.replace(
        played, exchange=found.to_dict(), nodes=played.nodes + found.nodes, seconds=played.seconds + found.seconds
    )
