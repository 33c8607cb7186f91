"""A position's double-dummy answer: :class:`SolveResult` and the card values it holds (:class:`CardValues`).

What :func:`calasolve.solve` and :func:`calasolve.search.position.solve_position` return: the
soloist's final thirds under best play, each legal card's value, one best line, and (for a record
whose exchange was searched) the :class:`~calasolve.types.exchange.ExchangeResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Mapping, Sequence

from ..game.cards import MAKE_THIRDS, Card, card_name, parse_card
from ..game.errors import CalasolveError
from ..game.state import Contract, Trick
from .exchange import ExchangeResult


#: What a solve maximises: the soloist's thirds, or their game points (docs/rules.md §8).
Objective = Literal["thirds", "payoff"]


class CardValues(dict):  # type: ignore[type-arg]
    """Each legal card's value, keyed by card id, best first for the player to move
    (ties in reading order).  A token looks a card up as well, and the repr
    writes tokens, so both forms read the same:

    >>> from calasolve.game.cards import parse_card
    >>> v = CardValues.ordered({parse_card("AS"): 14, parse_card("FS"): 11, parse_card("3B"): 14}, maximise=True)
    >>> v
    CardValues({'3B': 14, 'AS': 14, 'FS': 11})
    >>> v["AS"] == v[parse_card("AS")] == 14, "FS" in v, list(v) == [parse_card(t) for t in ("3B", "AS", "FS")]
    (True, True, True)

    A result's card values are frozen (:meth:`frozen`): read-only and hashable.

    >>> f = v.frozen()
    >>> f == v, hash(f) == hash(v.frozen())
    (True, True)
    >>> f[0] = 99
    Traceback (most recent call last):
    ...
    TypeError: these card values are read-only
    """

    _frozen = False

    def frozen(self) -> "CardValues":
        """A read-only, hashable copy (``self`` if it is one already)."""
        if self._frozen:
            return self
        out = CardValues(self)
        out._frozen = True
        return out

    def _check_writable(self) -> None:
        if self._frozen:
            raise TypeError("these card values are read-only")

    def __setitem__(self, card: Any, value: Any) -> None:
        self._check_writable()
        super().__setitem__(card, value)

    def __delitem__(self, card: Any) -> None:
        self._check_writable()
        super().__delitem__(card)

    def __ior__(self, other: Any) -> "CardValues":  # type: ignore[misc]
        self._check_writable()
        super().__ior__(other)
        return self

    def clear(self) -> None:
        self._check_writable()
        super().clear()

    def pop(self, *args: Any) -> Any:
        self._check_writable()
        return super().pop(*args)

    def popitem(self) -> tuple[Any, Any]:
        self._check_writable()
        return super().popitem()

    def setdefault(self, card: Any, default: Any = None) -> Any:
        self._check_writable()
        return super().setdefault(card, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._check_writable()
        super().update(*args, **kwargs)

    def __hash__(self) -> int:  # type: ignore[override]
        if not self._frozen:
            raise TypeError("unhashable type: 'CardValues' (only frozen card values are)")
        return hash(tuple(self.items()))

    @classmethod
    def ordered(cls, values: dict[Card, Any], *, maximise: bool) -> "CardValues":
        """``values`` best first: highest first when ``maximise`` (the soloist to move), else lowest."""
        items = sorted(values.items(), key=lambda kv: (kv[0] // 10, -(kv[0] % 10)))
        return cls(sorted(items, key=lambda kv: -kv[1] if maximise else kv[1]))

    @staticmethod
    def _key(card: Any) -> Any:
        if isinstance(card, str):
            return parse_card(card)
        return card

    def __getitem__(self, card: Any) -> Any:
        return super().__getitem__(self._key(card))

    def __contains__(self, card: object) -> bool:
        try:
            return super().__contains__(self._key(card))
        except CalasolveError:
            return False

    def get(self, card: Any, default: Any = None) -> Any:
        return self[card] if card in self else default

    def tokens(self) -> dict[str, Any]:
        """The same values keyed by card token, in the same order (the JSON form)."""
        return {card_name(c): v for c, v in self.items()}

    def __repr__(self) -> str:
        return f"CardValues({self.tokens()!r})"


@dataclass(frozen=True)
class SolveResult:
    """The double-dummy answer for one position.

    ``soloist_thirds`` is the soloist's final total (0..35) with the thirds
    already captured; ``cards`` maps each legal card of the player to move to
    that total if the card is played now and both sides then play
    optimally.  With a ``target`` the search only decides whether the soloist
    reaches it: ``reaches`` is set, ``cards`` maps each card to a bool and the
    exact values are ``None``.  ``cards`` is read-only, and a result is hashable.

    With ``objective="payoff"``, ``payoff`` is the soloist's game points under
    best play and ``multiplier`` its cappotto/stramazzo factor (and ``cards``
    are payoffs); ``exchange`` is the exchange search's
    :class:`~calasolve.types.exchange.ExchangeResult` when the record's
    exchange was searched.
    """

    soloist: int
    to_move: int | None
    captured: int
    soloist_thirds: int | None
    cards: Mapping[Card, Any]
    line: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    nodes: int
    seconds: float
    target: int | None = None
    reaches: bool | None = None
    #: the thirds that go with the last trick (3, plus the monte's cards)
    last_bonus: int = 0
    contract: Contract | None = None
    name: str | None = None
    record: int | None = None
    objective: Objective = "thirds"
    payoff: int | None = None
    multiplier: int | None = None
    exchange: ExchangeResult | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        cards = self.cards if isinstance(self.cards, CardValues) else CardValues(self.cards)
        object.__setattr__(self, "cards", cards.frozen())

    @property
    def extra(self) -> Mapping[str, Any]:
        """What the JSON adds for the payoff objective and a searched exchange (read-only)."""
        out: dict[str, Any] = {}
        if self.objective == "payoff":
            out.update(objective=self.objective, payoff=self.payoff, multiplier=self.multiplier)
        if self.exchange is not None:
            out["exchange"] = self.exchange.to_dict()
        return MappingProxyType(out)

    def __repr__(self) -> str:
        value = f"soloist_thirds={self.soloist_thirds}" if self.target is None else f"target={self.target}, reaches={self.reaches}"
        label = f"{self.name!r}, " if self.name else ""
        return (f"<SolveResult {label}{self.contract or 'deal'} for seat {self.soloist}: {value}, to_move={self.to_move}, "
                f"cards={CardValues(self.cards).tokens()}, line={' '.join(card_name(c) for c in self.line)!r}>")

    @property
    def soloist_points(self) -> int | None:
        return None if self.soloist_thirds is None else self.soloist_thirds // 3

    @property
    def makes(self) -> bool:
        if self.soloist_thirds is None:
            return bool(self.reaches) if self.target == MAKE_THIRDS else self._unknown_make()
        return self.soloist_thirds >= MAKE_THIRDS

    def _unknown_make(self) -> bool:
        raise CalasolveError(f"a target-{self.target} search does not say whether the contract (18 thirds) is made")

    def best_cards(self) -> list[tuple[Card, Any]]:
        """The legal cards, best first for the player to move (ties in card order)."""
        maximise = self.to_move == self.soloist
        items = sorted(self.cards.items(), key=lambda kv: (kv[0] // 10, -(kv[0] % 10)))
        return sorted(items, key=lambda kv: -kv[1] if maximise else kv[1])

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "SolveResult":
        """The result of :meth:`to_dict`'s form: ``SolveResult.from_dict(r.to_dict()) == r`` but for ``seconds``
        (to the microsecond) and, in a result without a line, ``last_bonus`` (the JSON gives it on the last
        trick only); ``exchange`` as :meth:`ExchangeResult.from_dict <calasolve.types.exchange.ExchangeResult.from_dict>`."""
        tricks = d["tricks"]
        payoff = d.get("objective") == "payoff"
        return cls(
            soloist=d["soloist"], to_move=d["to_move"], captured=d["captured"], soloist_thirds=d.get("soloist_thirds"),
            cards=CardValues((parse_card(c), v) for c, v in d["cards"].items()),
            line=tuple(parse_card(c) for c in d["line"]),
            tricks=tuple(Trick(t["leader"], _three(t["cards"]), t["winner"]) for t in tricks),
            nodes=d["nodes"], seconds=d["seconds"], target=d.get("target"), reaches=d.get("reaches"),
            last_bonus=tricks[-1]["bonus"] if tricks else 0, contract=d["contract"], name=d["name"], record=d["record"],
            objective="payoff" if payoff else "thirds", payoff=d["payoff"] if payoff else None,
            multiplier=d["multiplier"] if payoff else None,
            exchange=ExchangeResult.from_dict(d["exchange"]) if "exchange" in d else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``calasolve solve --json``."""
        out: dict[str, Any] = {
            "record": self.record,
            "name": self.name,
            "contract": self.contract,
            "soloist": self.soloist,
            "to_move": self.to_move,
            "captured": self.captured,
        }
        if self.target is None:
            out["soloist_thirds"] = self.soloist_thirds
            out["soloist_points"] = self.soloist_points
            out["makes"] = self.makes
        else:
            out["target"] = self.target
            out["reaches"] = self.reaches
            if self.target == MAKE_THIRDS:
                out["makes"] = self.reaches
        out["cards"] = {card_name(c): v for c, v in self.best_cards()}  # best first, as ``cards``
        out["line"] = [card_name(c) for c in self.line]
        out["tricks"] = [
            {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner, "thirds": t.thirds}
            for t in self.tricks
        ]
        if self.tricks:
            # the line plays to the end: its last trick is the deal's, and carries the bonus
            out["tricks"][-1]["bonus"] = self.last_bonus
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        out.update(self.extra)
        return out


def _three(tokens: Sequence[str]) -> tuple[Card, Card, Card]:
    """A trick's three cards from their tokens."""
    a, b, c = (parse_card(t) for t in tokens)
    return a, b, c
