"""The exchange search's results: :class:`ExchangeResult`, with its alternatives
(:data:`Choice`) and, for dividete, its :class:`Draw` objects, their text and JSON form.

They sit below the search (the searches are :mod:`calasolve.exchange`) so that
a :class:`~calasolve.search.solving.SolveResult` can nest the exchange it was
played with as an object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..game.cards import MAKE_THIRDS, Mask, card_name, display_order, hand_name, parse_cards_or_hand
from ..game.exchange import Exchange, Hands
from ..game.state import DEFENDER_EXCHANGE, Contract, defender_seats
from ..game.notation import called_from_text, exchange_text

__all__ = ["BestKnown", "Choice", "Draw", "ExchangeResult", "SearchStats"]

#: An exchange and the soloist's final thirds (double dummy) with it.
Choice = tuple[Exchange, int]


@dataclass
class SearchStats:
    """What an exchange search cost: solver calls, nodes, and CPU seconds here and in each worker's chunk
    (with idle cores the wall time is about the larger of the time here and the prefix's plus the
    workers' chunks scheduled on them: benchmarks/report_exchange_suites.py)."""

    searches: int = 0
    nodes: int = 0
    #: CPU seconds of the most promising candidates' search here, before the chunks
    cpu_prefix: float = 0.0
    #: CPU seconds of every search here (the prefix, then chunks)
    cpu_here: float = 0.0
    #: CPU seconds of each chunk a worker searched
    cpu_chunks: list[float] = field(default_factory=list)


#: A bound this close to the value found (a point) is worth printing even when it settles nothing.
TIGHT_THIRDS = 3


@dataclass(frozen=True)
class BestKnown:
    """What a search cut by a time limit proved of the best exchange's value, in a player's terms.

    The best value lies in ``at_least``..``at_most``: for the soloist choosing (solo, chiamo) the value found is
    the floor and the bound the ceiling; for the defenders (scegliete, a dividete draw) the other way round.
    A bound far from the value that settles nothing (33-35 thirds above a failing value) is noise:
    :meth:`text` leaves it out.

    >>> BestKnown(20, 35, True).text()
    'at least 20 thirds: makes; the best may be higher'
    >>> BestKnown(15, 35, True).text()
    'at least 15 thirds; whether the best exchange makes is not known yet'
    >>> BestKnown(12, 16, True).text()
    'fails whatever the exchange: at most 16 thirds (at least 12)'
    >>> BestKnown(14, 20, False).text()
    'at most 20 thirds; whether the defenders can beat the contract is not known yet'
    """

    at_least: int
    at_most: int
    #: True when the soloist chooses the exchange (solo, chiamo), False when the defenders do
    soloist_chooses: bool

    @property
    def makes(self) -> bool | None:
        """Whether the best exchange makes the contract, where what is proven settles it (None: not known)."""
        return True if self.at_least >= MAKE_THIRDS else False if self.at_most < MAKE_THIRDS else None

    def text(self) -> str:
        lo, hi = self.at_least, self.at_most
        verdict = {True: "makes", False: "fails", None: ""}[self.makes]
        if lo == hi:
            return f"{lo} thirds: {verdict}; no exchange does better (proven by the bound)"
        tight = hi - lo <= TIGHT_THIRDS
        if self.soloist_chooses:
            if self.makes is True:
                return f"at least {lo} thirds: makes; the best may be higher" + (f" (at most {hi})" if tight else "")
            if self.makes is False:
                return f"fails whatever the exchange: at most {hi} thirds (at least {lo})"
            return (f"at least {lo} thirds; whether the best exchange makes is not known yet"
                    + (f" (at most {hi})" if tight else ""))
        if self.makes is False:
            return f"at most {hi} thirds: fails; the defenders' best may hold the soloist lower" + (
                f" (at least {lo})" if tight else "")
        if self.makes is True:
            return f"makes whatever the defenders' exchange: at least {lo} thirds (at most {hi})"
        return (f"at most {hi} thirds; whether the defenders can beat the contract is not known yet"
                + (f" (at least {lo})" if tight else ""))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], soloist_chooses: bool) -> "BestKnown":
        """What is proven, of :meth:`to_dict`'s form; the JSON does not say who chooses the exchange (its
        contract does), so the caller gives ``soloist_chooses``: ``BestKnown.from_dict(k.to_dict(),
        k.soloist_chooses) == k``."""
        return cls(d["at_least"], d["at_most"], soloist_chooses)

    def to_dict(self) -> dict[str, Any]:
        return {"at_least": self.at_least, "at_most": self.at_most, "makes": self.makes, "text": self.text()}


def _known(value: int, bound: int | None, soloist_chooses: bool) -> BestKnown:
    bound = value if bound is None else bound
    return BestKnown(value, bound, True) if soloist_chooses else BestKnown(bound, value, False)


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

    @property
    def known(self) -> BestKnown:
        """What is proven of the defenders' best discards in this draw."""
        return _known(self.value, self.bound, False)

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

    contract: Contract
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
    #: what the search cost, in detail (None when nothing was searched)
    stats: SearchStats | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        more = f", mean of the draws {self.mean:.2f}" if self.draws else f", {len(self.alternatives)} alternatives"
        if not self.proven:
            more += f", not proven (bound {self.bound})"
        return f"<ExchangeResult {self.contract} for seat {self.soloist}: {self.text()} -> {self.value} thirds{more}>"

    @property
    def makes(self) -> bool:
        return self.value >= MAKE_THIRDS

    @property
    def known(self) -> BestKnown:
        """What is proven of the best exchange's value (dividete: of the draw worst for the soloist), in a
        player's terms; ``at_least == at_most`` when proven."""
        return _known(self.value, self.bound, self.contract not in DEFENDER_EXCHANGE)

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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ExchangeResult":
        """The result of :meth:`to_dict`'s form: ``ExchangeResult.from_dict(r.to_dict()) == r`` but for
        ``seconds`` (to the microsecond) and ``bound``, its draws' too, a number (a bound of None, the value,
        comes back as the value).

        The JSON has not the deal: ``hands`` and ``monte`` come back as far as the texts tell, each
        called card where its text says it came from, so that :meth:`text` and :meth:`to_dict` say the same;
        nor the search's detailed ``stats`` (None).
        """
        contract, soloist = d["contract"], d["soloist"]
        choices = [d["best"], *d["alternatives"], *d.get("draws", ())]
        hands, monte = [0, 0, 0], 0
        for choice in choices:
            exchange = Exchange.from_dict(choice["exchange"])
            if exchange.call is not None:
                holder = called_from_text(choice["text"])
                if holder is None:
                    monte |= 1 << exchange.call
                else:
                    hands[holder] |= 1 << exchange.call
        draws = tuple(
            Draw(_takes(x["takes"]), Exchange.from_dict(x["exchange"]), x["soloist_thirds"], x["proven"], x["bound"])
            for x in d.get("draws", ())
        )
        return cls(
            contract=contract, soloist=soloist, exchange=Exchange.from_dict(d["best"]["exchange"]),
            value=d["best"]["soloist_thirds"],
            alternatives=tuple((Exchange.from_dict(x["exchange"]), x["soloist_thirds"]) for x in d["alternatives"]),
            draws=draws, mean=d.get("mean"), given=Exchange.from_dict(d["given"]), searched=d["searched"],
            proven=d["proven"], bound=d["bound"], candidates=d["candidates"], searches=d["searches"],
            nodes=d["nodes"], seconds=d["seconds"], hands=(hands[0], hands[1], hands[2]), monte=monte,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: ``best`` and ``alternatives`` as ``{text, soloist_thirds, soloist_points,
        makes, exchange}``; dividete adds ``draws`` (the same, plus ``takes``, ``proven``,
        ``bound`` and ``known``) and ``mean``; ``proven`` and ``bound`` as the fields, and ``known``
        (:class:`BestKnown`: ``at_least``, ``at_most``, ``makes``, null where not settled, and ``text``)."""
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
                    "known": d.known.to_dict(),
                }
                for d in self.draws
            ]
            out["mean"] = self.mean
        out["proven"] = self.proven
        out["bound"] = self.value if self.bound is None else self.bound
        out["known"] = self.known.to_dict()
        out["candidates"] = self.candidates
        out["searches"] = self.searches
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


def _tokens(mask: Mask) -> str:
    return " ".join(card_name(c) for c in display_order(mask))


def _takes(by_seat: Mapping[str, str]) -> Hands:
    """A draw's ``takes`` from its JSON (``{"seat": tokens}``, the defenders only)."""
    out = [0, 0, 0]
    for seat, tokens in by_seat.items():
        out[int(seat)] = parse_cards_or_hand(tokens) if tokens else 0
    return out[0], out[1], out[2]
