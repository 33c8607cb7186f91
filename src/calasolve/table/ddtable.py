"""The double-dummy table of a deal and its par (docs/rules.md §9; the analogue of DDS's CalcDDtable).

For a deal as dealt (three hands and the monte), every seat as soloist in
every contract: the exchange searched the double-dummy way, the soloist's
final thirds, whether the contract is made, the multiplier and the game
points of the three seats.  Each entry is exactly what ``calasolve solve``
answers for that soloist and contract: the thirds of the best exchange, and
the game points of ``solve --objective payoff`` played with that exchange.
Dividete's monte is drawn by chance, so its entry holds all six draws and
reports their mean (and the lowest and highest thirds).

:func:`table_tasks` splits a record into its 15 entries (:func:`table_entry`
answers one), :func:`table_parts` into the units of work a worker pool or a
Dask cluster runs (:func:`table_part`: the entries, each dividete entry as its
6 draws), and :func:`assemble` puts them back together with the par of
:mod:`calasolve.table.par`; :func:`dd_table` does all three (for several records at once on one pool:
:func:`calasolve.table.batch.dd_tables`).
"""

from __future__ import annotations

import copy
import time
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..exchange.search import best_exchange
from ..exchange.candidates import dividete_draws
from ..game.cards import MAKE_THIRDS
from ..game.errors import CalasolveError, InternalError
from ..game.exchange import Exchange
from ..game.limits import check_optional_seconds
from ..game.rules import Rules
from ..game.state import CONTRACTS, Contract, payments
from ..types.record import Record, check_record, record_label
from ..search.engines import CoreSolver
from ..search.payoff import (goal_search, multiplier_of, payoff_from_thirds, payoff_thirds, payoff_value,
                             thirds_paying)
from ..search.solving import default_solver
from ..types.table import Par
from .par import par
from ..types.table import DDTable, SEATS, TableEntry, TableOutcome, TableTask

#: The contracts by their usual cost, dearest first: on a pool, a dear entry started last would end alone.
DEAREST_FIRST: tuple[Contract, ...] = ("chiamo", "dividete", "solo", "scegliete", "solissimo")


def deal_record(record: Record, soloist: int, contract: Contract) -> Record:
    """The record's deal as dealt, with ``soloist`` playing ``contract`` from the default first lead."""
    return Record(hands=record.hands, monte=record.monte, contract=contract, soloist=soloist, rules=record.rules,
                  name=record.name, path=record.path, line=record.line, index=record.index)


def table_tasks(record: Record) -> list[tuple[Record, int, Contract]]:
    """The 15 entries of a record's table as (record, soloist, contract), the slowest contracts first."""
    check_record("record", record)
    return [(record, seat, contract) for contract in DEAREST_FIRST for seat in SEATS]


#: A unit of work of a table: an entry, or one draw of a dividete entry (its index 0-5).
TablePart = tuple[Record, int, Contract, int | None]


def table_parts(record: Record) -> list[TablePart]:
    """The table's work in parts for a worker pool, the dearest contracts first: each entry, but
    each dividete entry as its 6 draws (independent searches; one draw's entry can cost as much as
    a chiamo, and whole it would leave the other cores idle at the end)."""
    return [(rec, seat, contract, draw) for rec, seat, contract in table_tasks(record)
            for draw in (range(len(dividete_draws(record.monte, seat))) if contract == "dividete" else [None])]


def table_entry(task: tuple[Record, int, Contract], solver: CoreSolver | None = None) -> TableEntry:
    """One whole entry of the table: the exchange searched, then each outcome scored."""
    record, soloist, contract = task
    return table_part((record, soloist, contract, None), solver)


#: The shortest search an early entry gets once its table's deadline has passed: its first candidate only.
LATE_LIMIT = 1e-6


def table_part(part: TablePart, solver: CoreSolver | None = None, deadline: float | None = None) -> TableEntry:
    """One part of the table (a worker's unit of work, :func:`table_parts`): an entry, or a dividete
    entry's one draw (an entry with that draw's outcome only, put together by :func:`assemble`).

    ``deadline`` (a :func:`time.time`, so that it means the same in every process of a machine): an early
    answer.  No exchange candidate is tested after it, and the game points are what the thirds alone settle
    (:func:`~calasolve.search.payoff.payoff_from_thirds`: no goal search, which cannot be cut and can take a
    minute on a weak hand); the entry is not ``proven`` if the time limit cut its exchange search or the
    thirds leave its multiplier open (its thirds are exact for the exchange found either way).  None: exact."""
    record, soloist, contract, draw = part
    began, cpu = time.time(), time.process_time()
    limit = None if deadline is None else max(deadline - began, LATE_LIMIT)
    solver = solver or default_solver()
    deal = deal_record(record, soloist, contract)
    if draw is not None:
        deal = deal.with_(exchange=Exchange(takes=dividete_draws(record.monte, soloist)[draw]))
    found = best_exchange(deal, solver=solver, top=1, time_limit=limit)  # the best only: runners-up cost more tests
    choices = [(d.exchange, d.value) for d in found.draws] or [(found.exchange, found.value)]
    nodes, seconds = found.nodes, found.seconds
    outcomes = []
    proven = found.proven
    for exchange, thirds in choices:
        start, before = time.perf_counter(), goal_search().total_nodes
        outcome, exact = score_outcome(deal, exchange, found.text(exchange), thirds, search=deadline is None)
        proven = proven and exact
        nodes += goal_search().total_nodes - before
        seconds += time.perf_counter() - start
        outcomes.append(outcome)
    return TableEntry(soloist, contract, tuple(outcomes), nodes, seconds, draw, time.process_time() - cpu,
                      (began, time.time()), proven)


def score_outcome(deal: Record, exchange: Exchange, text: str, thirds: int, *, search: bool = True
                  ) -> tuple[TableOutcome, bool]:
    """One outcome of an entry: ``deal`` played with ``exchange`` (in words ``text``), whose soloist's thirds are
    ``thirds``, scored in game points, and whether they are exact.  ``search`` False: no goal search (an early
    answer's game points are what the thirds settle, :func:`~calasolve.search.payoff.payoff_from_thirds`)."""
    contract, rules = deal.contract, deal.rules
    # only the payoff's value: the thirds already settle most of its levels, and no line is needed
    state = deal.with_(exchange=exchange).start_state()
    value, exact = payoff_from_thirds(contract, thirds, rules)
    if not exact and search:  # an early answer has no goal search: it can take a minute
        value, exact = payoff_value(state, contract, rules, thirds=thirds), True
    # the game-points play's thirds, only where the thirds play's cannot pay `value` (a few values to try)
    points_thirds = points_play_thirds(contract, thirds, value, rules) if exact else None
    if points_thirds == -1:
        points_thirds = payoff_thirds(state, contract, value, rules)
    return outcome_of(deal, exchange, text, thirds, value, points_thirds), exact


def points_play_thirds(contract: Contract, thirds: int, value: int, rules: Rules) -> int | None:
    """The game-points play's thirds as far as known without a search: None where the thirds play's can pay
    ``value`` (nothing to say), the one value that pays it, or -1 (a search is needed: ``payoff_thirds``)."""
    paying = thirds_paying(contract, value, rules)
    return None if thirds in paying else paying[0] if len(paying) == 1 else -1


def outcome_of(deal: Record, exchange: Exchange, text: str, thirds: int, value: int, points_thirds: int | None
               ) -> TableOutcome:
    """The outcome of ``deal`` with ``exchange``: its thirds, its game points ``value`` (the soloist's payoff)
    and the game-points play's thirds."""
    contract, soloist, rules = deal.contract, deal.soloist, deal.rules
    makes = thirds >= MAKE_THIRDS
    if (value > 0) != makes:
        raise InternalError(f"the payoff and thirds searches disagree on {contract} for seat {soloist}")
    m = multiplier_of(value, contract, rules)
    return TableOutcome(exchange, text, thirds, m, payments(contract, soloist, makes, m, rules), points_thirds)


def settled_by_thirds(contract: Contract, thirds: int, rules: Rules) -> bool:
    """Whether an outcome's game points (and the game-points play's thirds) need no search: :func:`score_outcome`
    of these thirds costs nothing."""
    value, exact = payoff_from_thirds(contract, thirds, rules)
    return exact and points_play_thirds(contract, thirds, value, rules) != -1


def _whole(parts: list[TableEntry]) -> TableEntry:
    """An entry from its parts: itself, or a dividete entry's draws in their order."""
    if len(parts) == 1 and parts[0].draw is None:
        return parts[0]
    parts = sorted(parts, key=lambda e: -1 if e.draw is None else e.draw)
    if [e.draw for e in parts] != list(range(len(parts))):
        raise CalasolveError(f"the table's parts of seat {parts[0].soloist} in {parts[0].contract} are not its draws")
    return TableEntry(parts[0].soloist, parts[0].contract, tuple(o for e in parts for o in e.outcomes),
                      sum(e.nodes for e in parts), sum(e.seconds for e in parts), cpu=sum(e.cpu for e in parts),
                      span=(min(e.span[0] for e in parts), max(e.span[1] for e in parts)),
                      proven=all(e.proven for e in parts))


def named_error(record: Record, exc: CalasolveError) -> CalasolveError:
    """``exc``, of its own class and with its fields, its message saying once which record it is of (a record's
    own errors name its file and line)."""
    text = str(exc)
    if record.path and text.startswith(f"{record.path}:"):
        return exc
    named = copy.copy(exc)
    named.args = (f"{record_label(record)}: {text}",)
    return named


def par_of(entries: Iterable[TableEntry], rules: Rules) -> Par:
    """The par of a table's whole entries (one per soloist and contract), from their game points."""
    return par({(e.soloist, e.contract): e.game_points for e in entries}, rules)


def assemble(record: Record, entries: Iterable[TableEntry], tasks: Sequence[TableTask] = ()) -> DDTable:
    """The table of ``record`` from its entries or parts (in any order), with its par, and the log of the
    ``tasks`` that made them."""
    parts: dict[tuple[int, Contract], list[TableEntry]] = {}
    for e in entries:
        parts.setdefault((e.soloist, e.contract), []).append(e)
    by_key = {key: _whole(p) for key, p in parts.items()}
    ordered = tuple(by_key[(s, c)] for s in SEATS for c in CONTRACTS)
    found = par_of(by_key.values(), record.rules)
    wall = max(e.span[1] for e in ordered) - min(e.span[0] for e in ordered)
    return DDTable(record.hands, record.monte, record.rules, ordered, found, record.name, record.index,
                   wall, sum(e.cpu for e in ordered), tuple(tasks))


def part_tasks(entries: Sequence[TableEntry]) -> list[TableTask]:
    """The task log of a table run as its parts (:func:`table_parts`), in the order submitted: one task each."""
    return [TableTask(i, "entry" if e.draw is None else "draw", e.soloist, e.contract, e.draw, (), e.cpu, e.span)
            for i, e in enumerate(entries)]


def dd_table(
    record: Record, *, solver: CoreSolver | None = None,
    map: Callable[[Callable[[Any], TableEntry], Sequence[Any]], Iterator[TableEntry]] | None = None,
    time_limit: float | None = None,
) -> DDTable:
    """The double-dummy table and par of ``record``'s deal as dealt (its contract, soloist, exchange and
    cards played are not used; its rules are).  ``map`` runs the table's parts (:func:`table_parts`;
    default: one after another in this process with ``solver``), e.g. over a worker pool.

    ``time_limit``: seconds from now after which no exchange search tests another candidate: every entry
    has an early answer by about then, those cut not ``proven`` (and the table's par provisional); None: exact."""
    check_optional_seconds("time_limit", time_limit)
    deadline = None if time_limit is None else time.time() + time_limit
    parts = table_parts(record)
    if map is None:
        entries: Iterable[TableEntry] = [table_part(t, solver, deadline) for t in parts]
    else:
        entries = map(partial(table_part, deadline=deadline), parts)
    return assemble(record, entries)
