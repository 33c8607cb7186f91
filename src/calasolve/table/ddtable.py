"""The double-dummy table of a deal and its par (docs/rules.md §9; the analogue of DDS's CalcDDtable).

For a deal as dealt (three hands and the monte), every seat as soloist in
every contract: the exchange searched the double-dummy way, the soloist's
final thirds, whether the contract is made, the multiplier and the game
points of the three seats.  Each entry is exactly what ``calasolve solve``
answers for that soloist and contract: the thirds of the best exchange, and
the game points of ``solve --objective payoff`` played with that exchange.
Dividete's monte is drawn by chance, so its entry holds all six draws and
reports their mean (and the lowest and highest thirds).

:func:`table_tasks` splits a record into its 15 entries (the unit of work a
worker pool or a Dask cluster runs, :func:`table_entry`), and
:func:`assemble` puts them back together with the par of :mod:`calasolve.table.par`;
:func:`dd_table` does all three.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..exchange.search import best_exchange
from ..game.cards import MAKE_THIRDS, Mask, hand_name
from ..game.errors import CalasolveError
from ..game.exchange import Exchange
from ..game.rules import Rules
from ..game.state import CONTRACTS, Contract, payments
from ..records.dealfile import Record, check_record
from ..search.engines import CoreSolver
from ..search.payoff import goal_search, multiplier_of, payoff_value
from ..search.solving import default_solver, total_nodes
from .par import Par, par

SEATS = (0, 1, 2)
#: The contracts by their usual cost, dearest first: on a pool, a dear entry started last would end alone.
DEAREST_FIRST: tuple[Contract, ...] = ("chiamo", "dividete", "solo", "scegliete", "solissimo")


@dataclass(frozen=True)
class Outcome:
    """One way an entry's deal is played: the exchange, the soloist's thirds and the score."""

    exchange: Exchange
    #: the exchange in words (``call 3C from seat 1, ...``)
    text: str
    thirds: int
    multiplier: int
    #: game points of seats 0, 1, 2
    payments: tuple[int, int, int]

    @property
    def makes(self) -> bool:
        return self.thirds >= MAKE_THIRDS

    def to_dict(self) -> dict[str, Any]:
        return {
            "exchange": self.text,
            "soloist_thirds": self.thirds,
            "makes": self.makes,
            "multiplier": self.multiplier,
            "game_points": list(self.payments),
        }


@dataclass(frozen=True)
class TableEntry:
    """One cell of the table: ``soloist`` playing ``contract``.

    ``outcomes`` holds one :class:`Outcome`, or dividete's six draws; the
    properties average over them (each draw is equally likely).
    """

    soloist: int
    contract: Contract
    outcomes: tuple[Outcome, ...]
    nodes: int = 0
    seconds: float = 0.0

    @property
    def thirds(self) -> Fraction:
        """The soloist's final thirds (dividete: the mean of the draws)."""
        return Fraction(sum(o.thirds for o in self.outcomes), len(self.outcomes))

    @property
    def low(self) -> int:
        return min(o.thirds for o in self.outcomes)

    @property
    def high(self) -> int:
        return max(o.thirds for o in self.outcomes)

    @property
    def made(self) -> int:
        """How many of the outcomes make the contract."""
        return sum(o.makes for o in self.outcomes)

    @property
    def game_points(self) -> tuple[Fraction, Fraction, Fraction]:
        """The expected game points of seats 0, 1, 2."""
        n = len(self.outcomes)
        a, b, c = (Fraction(sum(o.payments[s] for o in self.outcomes), n) for s in SEATS)
        return a, b, c

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: the means as numbers; ``draws`` for dividete, ``exchange`` and ``multiplier`` otherwise."""
        out: dict[str, Any] = {
            "soloist": self.soloist,
            "contract": self.contract,
            "soloist_thirds": _number(self.thirds),
            "makes": self.made * 2 > len(self.outcomes) if len(self.outcomes) > 1 else self.made == 1,
            "game_points": [_number(p) for p in self.game_points],
        }
        if len(self.outcomes) > 1:
            out.update(low=self.low, high=self.high, made_draws=self.made, draws=[o.to_dict() for o in self.outcomes])
        else:
            only = self.outcomes[0]
            out.update(multiplier=only.multiplier, exchange=only.text)
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


@dataclass(frozen=True)
class DDTable:
    """The table of one deal: an entry per (soloist, contract), and the par."""

    hands: tuple[Mask, Mask, Mask]
    monte: Mask
    rules: Rules
    entries: tuple[TableEntry, ...]
    par: Par
    name: str | None = None
    record: int | None = None

    def entry(self, soloist: int, contract: str) -> TableEntry:
        for e in self.entries:
            if e.soloist == soloist and e.contract == contract:
                return e
        raise KeyError((soloist, contract))

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "name": self.name,
            "hands": [hand_name(h) for h in self.hands],
            "monte": hand_name(self.monte),
            "rules": self.rules.describe(),
            "entries": [e.to_dict() for e in self.entries],
            "par": self.par.to_dict(),
            "nodes": sum(e.nodes for e in self.entries),
            "seconds": round(sum(e.seconds for e in self.entries), 6),
        }


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 4)


def deal_record(record: Record, soloist: int, contract: Contract) -> Record:
    """The record's deal as dealt, with ``soloist`` playing ``contract`` from the default first lead."""
    return Record(hands=record.hands, monte=record.monte, contract=contract, soloist=soloist, rules=record.rules,
                  name=record.name, path=record.path, line=record.line, index=record.index)


def table_tasks(record: Record) -> list[tuple[Record, int, Contract]]:
    """The 15 entries of a record's table as (record, soloist, contract), the slowest contracts first."""
    check_record("record", record)
    return [(record, seat, contract) for contract in DEAREST_FIRST for seat in SEATS]


def table_entry(task: tuple[Record, int, Contract], solver: CoreSolver | None = None) -> TableEntry:
    """One entry of the table (a worker's unit of work): the exchange searched, then each outcome scored."""
    record, soloist, contract = task
    solver = solver or default_solver()
    deal = deal_record(record, soloist, contract)
    found = best_exchange(deal, solver=solver, top=1)  # the best only: runners-up would cost more tests
    choices = [(d.exchange, d.value) for d in found.draws] or [(found.exchange, found.value)]
    nodes, seconds = found.nodes, found.seconds
    outcomes = []
    for exchange, thirds in choices:
        # only the payoff's value: the thirds already settle most of its levels, and no line is needed
        start, before = time.perf_counter(), total_nodes(goal_search())
        value = payoff_value(deal.with_(exchange=exchange).start_state(), contract, record.rules, thirds=thirds)
        nodes += total_nodes(goal_search()) - before
        seconds += time.perf_counter() - start
        makes = thirds >= MAKE_THIRDS
        if (value > 0) != makes:
            raise CalasolveError(f"internal error: the payoff and thirds searches disagree on {contract} for seat {soloist}")
        m = multiplier_of(value, contract, record.rules)
        outcomes.append(Outcome(exchange, found.text(exchange), thirds, m, payments(contract, soloist, makes, m, record.rules)))
    return TableEntry(soloist, contract, tuple(outcomes), nodes, seconds)


def assemble(record: Record, entries: Iterable[TableEntry]) -> DDTable:
    """The table of ``record`` from its entries (in any order), with its par."""
    by_key = {(e.soloist, e.contract): e for e in entries}
    ordered = tuple(by_key[(s, c)] for s in SEATS for c in CONTRACTS)
    found = par({key: e.game_points for key, e in by_key.items()}, record.rules)
    return DDTable(record.hands, record.monte, record.rules, ordered, found, record.name, record.index)


def dd_table(
    record: Record, *, solver: CoreSolver | None = None,
    map: Callable[[Callable[[Any], TableEntry], Sequence[Any]], Iterator[TableEntry]] | None = None,
) -> DDTable:
    """The double-dummy table and par of ``record``'s deal as dealt (its contract, soloist, exchange and
    cards played are not used; its rules are).  ``map`` runs the 15 entries (default: one after another
    in this process with ``solver``), e.g. over a worker pool."""
    tasks = table_tasks(record)
    if map is None:
        entries: Iterable[TableEntry] = [table_entry(t, solver) for t in tasks]
    else:
        entries = map(table_entry, tasks)
    return assemble(record, entries)
