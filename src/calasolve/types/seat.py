"""A seat's advice for the decision it faces (:class:`SeatAdvice`), its options' values
(:class:`OptionValue`) and the deals behind them (:class:`Layout`), with their JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..game.cards import Mask, hand_name, parse_hand
from .jsonout import finite, nan_if_none

__all__ = ["DECISIONS", "Layout", "OptionValue", "SeatAdvice"]

#: The decisions a seat may face: a call in the auction, keeping or aggravating a won solissimo,
#: chiamo's call, the soloist's return (with the discards after it), discards, scegliete's split, a card.
DECISIONS = ("call", "declare", "chiamo-call", "return", "discards", "split", "card")


@dataclass(frozen=True)
class Layout:
    """One deal consistent with a seat's view: the hands and the monte as dealt, every action from the first
    call to the view's point (:class:`calasolve.env.game.GameState`'s history after the deal, the ones the seat
    did not see filled in), and the weight the bidding model gives the other seats' calls."""

    hands: tuple[Mask, Mask, Mask]
    monte: Mask
    actions: tuple[int, ...]
    weight: float

    def to_dict(self) -> dict[str, Any]:
        return {"hands": [hand_name(h) for h in self.hands], "monte": hand_name(self.monte),
                "actions": list(self.actions), "weight": self.weight}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Layout":
        """``Layout.from_dict(x.to_dict()) == x``."""
        h = [parse_hand(x) for x in d["hands"]]
        return cls((h[0], h[1], h[2]), parse_hand(d["monte"]), tuple(int(a) for a in d["actions"]), float(d["weight"]))


@dataclass(frozen=True)
class OptionValue:
    """One option of the decision: the seat's mean game points when it is taken and the rest of the deal is
    played out by the learned players on the same layouts, with its 95% interval; ``dd``, the seat's
    double-dummy figure where it applies (for a card: the soloist's final thirds, as ``solve`` gives them)."""

    option: str
    points: float
    points_95: tuple[float, float]
    #: the recommended option's mean game points minus this one's, on the same layouts, with its 95% interval
    behind: float
    behind_95: tuple[float, float]
    dd: float | None = None
    dd_95: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"option": self.option, "points": finite(self.points), "points_95": [finite(x) for x in self.points_95],
                "behind": finite(self.behind), "behind_95": [finite(x) for x in self.behind_95],
                "dd": None if self.dd is None else finite(self.dd),
                "dd_95": None if self.dd_95 is None else [finite(x) for x in self.dd_95]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "OptionValue":
        dd95 = d.get("dd_95")
        return cls(d["option"], nan_if_none(d["points"]), (nan_if_none(d["points_95"][0]), nan_if_none(d["points_95"][1])),
                   nan_if_none(d["behind"]), (nan_if_none(d["behind_95"][0]), nan_if_none(d["behind_95"][1])),
                   None if d.get("dd") is None else float(d["dd"]),
                   None if dd95 is None else (nan_if_none(dd95[0]), nan_if_none(dd95[1])))


@dataclass(frozen=True)
class SeatAdvice:
    """The advice for ``seat``'s decision at a view: every option valued, best first, and the recommendation.

    ``clear`` says whether the recommended option's lead over every other is above 0 at 95%; ``layouts`` the
    deals played per option, ``proposed`` how many consistent deals were drawn to keep them (the bidding
    model's inference keeps each with the chance of the calls heard), ``seconds`` the time taken."""

    name: str | None
    seat: int
    decision: str
    options: tuple[OptionValue, ...]
    recommendation: str
    clear: bool
    layouts: int
    proposed: int
    #: of the ``layouts``, those drawn by weight once ``proposed`` reached its cap (calls the model finds unlikely)
    resampled: int
    seed: int
    players: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "decision": self.decision, "recommendation": self.recommendation,
                "clear": self.clear, "options": [o.to_dict() for o in self.options], "layouts": self.layouts,
                "proposed": self.proposed, "resampled": self.resampled, "seed": self.seed, "players": self.players, "seconds": self.seconds}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "SeatAdvice":
        """``SeatAdvice.from_dict(a.to_dict()) == a``."""
        return cls(d["name"], d["seat"], d["decision"], tuple(OptionValue.from_dict(o) for o in d["options"]),
                   d["recommendation"], d["clear"], d["layouts"], d["proposed"], d["resampled"], d["seed"], d["players"], d["seconds"])
