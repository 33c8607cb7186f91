"""The double-dummy table of a deal: each entry (:class:`TableEntry`, with its :class:`TableOutcome`
per draw), the whole table (:class:`DDTable`) and its par (:class:`Par`), with their JSON form, and the
log of the tasks that made it (:class:`TableTask`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Mapping

from ..game.auction import AuctionResult
from ..game.cards import MAKE_THIRDS, Mask, hand_name, parse_hand
from ..game.exchange import Exchange
from ..game.rules import STANDARD, Rules
from ..game.state import Contract
from ..game.notation import exchange_from_text


#: Expected game points of seats 0, 1, 2.
Payments = tuple[Fraction, Fraction, Fraction]


@dataclass(frozen=True)
class Par:
    """The par outcome: the par auction (who becomes soloist in which contract) and the game points.

    ``bid`` is the winning bid and ``contract`` what is played (a solissimo's
    aggravation under ``aggravations=declared``); all three are ``None`` when
    every seat passes.  ``calls`` is the par auction, as (seat, call) pairs.
    """

    auction: AuctionResult
    payments: Payments

    @property
    def soloist(self) -> int | None:
        return self.auction.soloist

    @property
    def bid(self) -> str | None:
        return self.auction.bid

    @property
    def contract(self) -> str | None:
        return self.auction.contract

    @property
    def calls(self) -> tuple[tuple[int, str], ...]:
        return self.auction.calls

    @property
    def void(self) -> bool:
        return self.auction.void

    def text(self) -> str:
        """The par in words.

        >>> from calasolve.game.auction import run_auction
        >>> Par(run_auction("pass solo pass"), (Fraction(-2), Fraction(4), Fraction(-2))).text()
        'par: seat 1 plays solo (seat 0 pass, seat 1 solo, seat 2 pass); game points -2 +4 -2'
        """
        calls = ", ".join(f"seat {seat} {call}" for seat, call in self.calls)
        if self.void:
            return f"par: all pass ({calls}); nothing is scored"
        raised = f", aggravated to {self.contract}" if self.contract != self.bid else ""
        points = " ".join(signed(p) for p in self.payments)
        return f"par: seat {self.soloist} plays {self.contract} ({calls}{raised}); game points {points}"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Par":
        """The par of :meth:`to_dict`'s form, such that ``to_dict`` gives ``d`` back; equal to the par it
        was made of when its game points are fractions of denominator up to a million (a table's are
        means over at most six draws), as the JSON has them as decimals."""
        a, b, c = (_fraction(x) for x in d["game_points"])
        return cls(AuctionResult.from_dict(d), (a, b, c))

    def to_dict(self) -> dict[str, object]:
        """The auction's JSON (:meth:`~calasolve.game.auction.AuctionResult.to_dict`) and the ``game_points``."""
        return {**self.auction.to_dict(), "game_points": [float(p) for p in self.payments]}


def _fraction(x: float) -> Fraction:
    """The fraction a decimal was written from: the simplest near it that gives it back (16/3 for 5.333...)."""
    near = Fraction(x).limit_denominator(1_000_000)
    return near if float(near) == x else Fraction(x)


def fraction_text(x: Fraction) -> str:
    """A whole number as it is, another to one decimal: ``4``, ``5.3``."""
    return str(int(x)) if x.denominator == 1 else f"{float(x):.1f}"


def signed(x: Fraction) -> str:
    """Game points with their sign: ``+4``, ``-2``, ``0``."""
    return ("+" if x > 0 else "") + fraction_text(x)


SEATS = (0, 1, 2)


@dataclass(frozen=True)
class TableOutcome:
    """One way an entry's deal is played: the exchange, the soloist's thirds and the score."""

    exchange: Exchange
    #: the exchange in words (``call 3C from seat 1, ...``)
    text: str
    #: the soloist's final thirds when both sides play for thirds
    thirds: int
    #: the multiplier when both sides play for game points (the play ``payments`` come from)
    multiplier: int
    #: game points of seats 0, 1, 2, when both sides play for game points
    payments: tuple[int, int, int]
    #: the game-points play's thirds (game points first, then thirds), where ``thirds`` cannot end with
    #: ``payments`` (e.g. 2 thirds, yet a cappotto: the defenders sweep when they play for game points);
    #: None where they can (not searched)
    points_thirds: int | None = None

    @property
    def makes(self) -> bool:
        return self.thirds >= MAKE_THIRDS

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], contract: Contract, soloist: int) -> "TableOutcome":
        """The outcome of :meth:`to_dict`'s form, of ``soloist`` playing ``contract`` (the exchange read
        back from its words): ``TableOutcome.from_dict(o.to_dict(), contract, soloist) == o``."""
        a, b, c = d["game_points"]
        return cls(exchange_from_text(d["exchange"], contract, soloist), d["exchange"], d["soloist_thirds"],
                   d["multiplier"], (a, b, c), d.get("points_play_thirds"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "exchange": self.text,
            "soloist_thirds": self.thirds,
            "makes": self.makes,
            "multiplier": self.multiplier,
            "game_points": list(self.payments),
            "points_play_thirds": self.points_thirds,
        }


@dataclass(frozen=True)
class TableEntry:
    """One cell of the table: ``soloist`` playing ``contract``.

    ``outcomes`` holds one :class:`TableOutcome`, or dividete's six draws; the
    properties average over them (each draw is equally likely).
    """

    soloist: int
    contract: Contract
    outcomes: tuple[TableOutcome, ...]
    nodes: int = 0
    #: wall seconds of the entry's searches (a dividete entry: of its draws, added up)
    seconds: float = 0.0
    #: a part of a dividete entry: the one draw (0-5) it holds (:func:`table_part`); None for a whole entry
    draw: int | None = None
    #: CPU seconds of the process that searched it (a dividete entry: of its draws, added up)
    cpu: float = 0.0
    #: when its search started and ended (:func:`time.time`), for the table's own wall time; not in the JSON
    span: tuple[float, float] = field(default=(0.0, 0.0), compare=False, repr=False)
    #: False for an early answer (``calasolve table --time-limit``): a time limit cut an exchange search, so its
    #: exchange is the best found then (its value exact) and a better one may exist
    proven: bool = True

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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "TableEntry":
        """The entry of :meth:`to_dict`'s form: ``TableEntry.from_dict(e.to_dict()) == e`` for a whole entry
        (``seconds`` and ``cpu`` to the microsecond); a part's ``draw`` (:func:`table_part`) and the ``span``
        of its search are not in the JSON."""
        soloist, contract = d["soloist"], d["contract"]
        rows = d["draws"] if "draws" in d else [d]
        outcomes = tuple(TableOutcome.from_dict(row, contract, soloist) for row in rows)
        return cls(soloist, contract, outcomes, d["nodes"], d["seconds"], cpu=d.get("cpu", 0.0),
                   proven=d.get("proven", True))

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
            out.update(multiplier=only.multiplier, points_play_thirds=only.points_thirds, exchange=only.text)
        out["proven"] = self.proven
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        out["cpu"] = round(self.cpu, 6)
        return out


#: What a task of a table did (:class:`TableTask`): a whole entry, a dividete entry's one draw, or, for a table
#: cut for a cluster, an exchange search's first pass (``head``), a slice of its candidates (``prefix``: of the
#: most promising, against the first pass's floor; ``chunk``: of the rest, against the best of those), a goal
#: search of the game points of its best exchange (``payoff``: one payoff level after the first cards), or the
#: game-points play's thirds (``points``).
TaskKind = Literal["entry", "draw", "head", "prefix", "chunk", "payoff", "points"]
TASK_KINDS: tuple[TaskKind, ...] = ("entry", "draw", "head", "prefix", "chunk", "payoff", "points")


@dataclass(frozen=True)
class TableTask:
    """One task of a table's run as a worker ran it: the task log a schedule is simulated from
    (:func:`calasolve.scale.schedule.list_schedule`)."""

    #: its number in the table's run, in the order its search made it (handed out by turn: table.cut.task_turns)
    task: int
    kind: TaskKind
    soloist: int
    contract: Contract
    #: the dividete draw (0-5) it belongs to; None for the other contracts
    draw: int | None
    #: the tasks whose results it needs (their ``task`` numbers)
    after: tuple[int, ...]
    #: CPU seconds of the worker that ran it
    cpu: float
    #: when it started and ended on its worker (:func:`time.time`)
    span: tuple[float, float]
    #: the exchange candidates it searched (0: none, or a whole entry's search)
    candidates: int = 0

    def to_dict(self, origin: float = 0.0) -> dict[str, Any]:
        """JSON-able, the span as ``start`` and ``end`` in seconds from ``origin`` (a :func:`time.time`)."""
        return {"task": self.task, "kind": self.kind, "soloist": self.soloist, "contract": self.contract,
                "draw": self.draw, "after": list(self.after), "candidates": self.candidates,
                "cpu": round(self.cpu, 6), "start": round(self.span[0] - origin, 6),
                "end": round(self.span[1] - origin, 6)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], origin: float = 0.0) -> "TableTask":
        """The task of :meth:`to_dict`'s form (times to the microsecond)."""
        return cls(d["task"], d["kind"], d["soloist"], d["contract"], d["draw"], tuple(d["after"]), d["cpu"],
                   (d["start"] + origin, d["end"] + origin), d.get("candidates", 0))


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
    #: the table's own wall time: from its first entry's start to its last entry's end (entries side by side
    #: on several processes overlap, so this is less than their ``seconds`` added up)
    seconds: float = 0.0
    #: CPU seconds of every entry, added up
    cpu: float = 0.0
    #: the log of the tasks that made it, in the order submitted (not in the JSON: ``calasolve table --task-log``)
    tasks: tuple[TableTask, ...] = field(default=(), compare=False, repr=False)

    @property
    def proven(self) -> bool:
        """Every entry proven; else the table holds early answers and its par is provisional (it reads every entry)."""
        return all(e.proven for e in self.entries)

    def entry(self, soloist: int, contract: str) -> TableEntry:
        for e in self.entries:
            if e.soloist == soloist and e.contract == contract:
                return e
        raise KeyError((soloist, contract))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DDTable":
        """The table of :meth:`to_dict`'s form: equal to the table it was made of, its entries as
        :meth:`TableEntry.from_dict` and its par as :meth:`Par.from_dict` read them back (``seconds`` and
        ``cpu`` to the microsecond); its task log (``tasks``) is not in the JSON."""
        a, b, c = (parse_hand(h) for h in d["hands"])
        rules = STANDARD if d["rules"] == "standard" else Rules.parse(d["rules"].split())
        entries = tuple(TableEntry.from_dict(e) for e in d["entries"])
        return cls((a, b, c), parse_hand(d["monte"]), rules, entries, Par.from_dict(d["par"]), d["name"], d["record"],
                   d["seconds"], d["cpu"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "name": self.name,
            "hands": [hand_name(h) for h in self.hands],
            "monte": hand_name(self.monte),
            "rules": self.rules.describe(),
            "entries": [e.to_dict() for e in self.entries],
            "par": {**self.par.to_dict(), "proven": self.proven},
            "proven": self.proven,
            "nodes": sum(e.nodes for e in self.entries),
            "seconds": round(self.seconds, 6),
            "cpu": round(self.cpu, 6),
        }


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 4)
