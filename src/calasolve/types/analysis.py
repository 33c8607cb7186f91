"""A played deal reviewed double dummy: each card judged (:class:`CardReview`), the exchange
(:class:`ExchangeReview`), the whole review (:class:`Analysis`, what ``calasolve analyse`` prints)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from ..game.cards import MAKE_THIRDS, Card, card_name, parse_card
from ..game.exchange import Exchange
from ..game.state import Contract
from .solution import CardValues, SolveResult


@dataclass(frozen=True)
class CardReview:
    """One card played, judged double-dummy."""

    index: int          # 0-based position in `played`
    trick: int          # 1-based trick number
    seat: int
    soloist: bool       # played by the soloist?
    card: Card
    before: int         # soloist's final thirds under best play before the card
    after: int          # ... and after it
    cost: int           # thirds the card gave away to the other side (0 = optimal)
    best: tuple[Card, ...]
    values: dict[Card, int]  # a CardValues: best first for the seat that played

    @property
    def swing(self) -> bool:
        """Did this card change whether the contract is made (double dummy)?"""
        return (self.before >= MAKE_THIRDS) != (self.after >= MAKE_THIRDS)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CardReview":
        """The review of :meth:`to_dict`'s form: ``CardReview.from_dict(r.to_dict()) == r``."""
        return cls(
            index=d["index"], trick=d["trick"], seat=d["seat"], soloist=d["role"] == "soloist", card=parse_card(d["card"]),
            before=d["before"], after=d["after"], cost=d["cost"], best=tuple(parse_card(c) for c in d["best"]),
            values=CardValues((parse_card(c), v) for c, v in d["values"].items()),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "trick": self.trick,
            "seat": self.seat,
            "role": "soloist" if self.soloist else "defender",
            "card": card_name(self.card),
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
            "best": [card_name(c) for c in self.best],
            "values": {card_name(c): v for c, v in self.values.items()},  # best first, as solve's cards
            "swing": self.swing,
        }


@dataclass(frozen=True)
class ExchangeReview:
    """The exchange actually made against the double-dummy-best one (see :func:`exchange_review`)."""

    #: who chose the exchange: ``soloist`` or ``defenders``
    chosen_by: str
    #: the soloist's double-dummy final thirds with the exchange made
    actual: int
    #: ... and with the best one
    best: int
    #: the best exchange in words (:func:`~calasolve.game.notation.exchange_text`)
    best_exchange: str
    #: the best exchange
    best_fields: Exchange
    #: what the choosing side gave away, in the soloist's final thirds
    cost: int

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ExchangeReview":
        """The review of :meth:`to_dict`'s form: ``ExchangeReview.from_dict(r.to_dict()) == r``."""
        return cls(d["chosen_by"], d["actual"], d["best"], d["best_exchange"], Exchange.from_dict(d["best_fields"]), d["cost"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "chosen_by": self.chosen_by,
            "actual": self.actual,
            "best": self.best,
            "best_exchange": self.best_exchange,
            "best_fields": self.best_fields.to_dict(),
            "cost": self.cost,
        }


@dataclass(frozen=True)
class Analysis:
    """The review of one record."""

    contract: Contract
    soloist: int
    name: str | None
    record: int | None
    start_value: int                       # double-dummy result at the first lead
    reviews: tuple[CardReview, ...]
    complete: bool                         # all 36 cards played?
    actual_thirds: int | None              # the soloist's real final thirds (complete deals)
    final_value: int                       # double-dummy value where the play stops
    continuation: SolveResult | None       # best play from there (partial deals)
    seconds: float
    #: the exchange judged against the double-dummy-best one (see :func:`exchange_review`), if it was
    exchange: ExchangeReview | None = field(default=None, compare=False)

    @property
    def extra(self) -> Mapping[str, Any]:
        """What the JSON adds: ``exchange`` when the exchange was judged (read-only)."""
        return MappingProxyType({} if self.exchange is None else {"exchange": self.exchange.to_dict()})

    def mistakes(self) -> dict[int, tuple[int, int]]:
        """Per seat: (number of mistakes, total cost in thirds)."""
        out = {seat: (0, 0) for seat in range(3)}
        for r in self.reviews:
            if r.cost:
                n, c = out[r.seat]
                out[r.seat] = (n + 1, c + r.cost)
        return out

    def swings(self) -> list[CardReview]:
        """The cards that changed the double-dummy fate of the contract, in order."""
        return [r for r in self.reviews if r.swing]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Analysis":
        """The analysis of :meth:`to_dict`'s form, such that ``to_dict`` gives ``d`` back.

        Equal to the analysis the JSON was made of (``seconds`` to the microsecond) but for a partly
        played deal's ``continuation``: the JSON has only its line, so it comes back as that line and
        the final value alone (no card values, tricks or counts).
        """
        line = d["continuation"]
        continuation = None if line is None else SolveResult(
            soloist=d["soloist"], to_move=None, captured=0, soloist_thirds=d["final_value"], cards={},
            line=tuple(parse_card(c) for c in line), tricks=(), nodes=0, seconds=0.0,
        )
        return cls(
            contract=d["contract"], soloist=d["soloist"], name=d["name"], record=d["record"],
            start_value=d["start_value"], reviews=tuple(CardReview.from_dict(c) for c in d["cards"]),
            complete=d["complete"], actual_thirds=d["actual_thirds"], final_value=d["final_value"],
            continuation=continuation, seconds=d["seconds"],
            exchange=ExchangeReview.from_dict(d["exchange"]) if "exchange" in d else None,
        )

    def to_dict(self) -> dict[str, Any]:
        swings = self.swings()
        out: dict[str, Any] = {
            "record": self.record,
            "name": self.name,
            "contract": self.contract,
            "soloist": self.soloist,
            "start_value": self.start_value,
            "start_makes": self.start_value >= MAKE_THIRDS,
            "complete": self.complete,
            "actual_thirds": self.actual_thirds,
            "actual_makes": None if self.actual_thirds is None else self.actual_thirds >= MAKE_THIRDS,
            "final_value": self.final_value,
            "mistakes": {str(s): {"count": n, "cost": c} for s, (n, c) in self.mistakes().items()},
            "swings": [{"index": r.index, "trick": r.trick, "card": card_name(r.card), "seat": r.seat} for r in swings],
            "decisive_trick": swings[-1].trick if swings else None,
            "cards": [r.to_dict() for r in self.reviews],
            "continuation": None if self.continuation is None else [card_name(c) for c in self.continuation.line],
            "seconds": round(self.seconds, 6),
        }
        out.update(self.extra)
        return out
