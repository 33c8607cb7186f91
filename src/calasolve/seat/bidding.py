"""The bidding model: how likely each call is, given a seat's hand and the calls before it.

Each seat wants one contract (or none) for the whole deal, drawn once from its hand's
strength (:func:`calasolve.game.cards.strength`): it wants contract ``c`` or a higher one with
probability ``sigmoid((strength - threshold[c] + 1/2) / softness)``, the thresholds being the
agents' :data:`~calasolve.env.agents.BID_STRENGTH`.  In the auction it bids what it wants when
that is a legal call (solissimo for an aggravation under ``aggravations=declared``, declared
after winning) and passes otherwise, as the agents do.  With ``softness`` near 0 this is the
agents' :func:`~calasolve.env.agents.rule_bid` exactly; the default leaves every call possible
for every hand, since people do not bid by one rule (docs/seat.md, "The bidding model").

The chance of a seat's calls is the sum over what it may want of the chance of wanting it,
for the wants its calls agree with: the calls of one seat are not independent of each other.

>>> from calasolve.game.cards import parse_hand
>>> model = BiddingModel()
>>> wants = model.wants(parse_hand("32AR.32A.3A.2A5"), STANDARD)
>>> max(wants, key=wants.get), round(sum(wants.values()), 6)
('dividete', 1.0)
>>> hand = parse_hand("3A.2A.RF.RC764")    # strength 14, chiamo's threshold
>>> round(model.calls_chance(hand, 0, ("pass",)), 3), round(model.calls_chance(hand, 0, ("chiamo",)), 3)
(0.378, 0.44)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from ..env.agents import BID_STRENGTH
from ..game.auction import AGGRAVATIONS, LADDERS, PASS, Auction
from ..game.cards import Mask, strength
from ..game.errors import ParameterError
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract

__all__ = ["BiddingModel", "DEFAULT_SOFTNESS"]

#: The highest hand strength: every 3, 2 and ace.
MAX_STRENGTH = 28
#: The model's default softness, in strength points (a third of the gap between two contracts' thresholds).
DEFAULT_SOFTNESS = 1.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@dataclass(frozen=True)
class BiddingModel:
    """Each seat's wanted contract from its hand's strength, softened (see the module doc)."""

    softness: float = DEFAULT_SOFTNESS
    thresholds: Mapping[str, int] = field(default_factory=lambda: dict(BID_STRENGTH), hash=False)

    def __post_init__(self) -> None:
        if isinstance(self.softness, bool) or not isinstance(self.softness, (int, float)) or not self.softness > 0:
            raise ParameterError("softness", self.softness, "must be a number above 0")
        if set(self.thresholds) != set(CONTRACTS):
            raise ParameterError("thresholds", self.thresholds, f"needs one strength per contract ({', '.join(CONTRACTS)})")

    def wants(self, hand: Mask, rules: Rules = STANDARD) -> dict[Contract | None, float]:
        """The chance of wanting each contract of the rules (None: none, to pass)."""
        return dict(self._wants(strength(hand), rules))

    @lru_cache(maxsize=1024)
    def _wants(self, s: int, rules: Rules) -> Mapping[Contract | None, float]:
        ladder = [c for c in CONTRACTS if rules.aggravations == "declared" or c in LADDERS["bids"]]
        at_least = [_sigmoid((s - self.thresholds[c] + 0.5) / self.softness) for c in ladder]
        for i in range(len(at_least) - 2, -1, -1):  # wanting a contract means wanting it or more
            at_least[i] = max(at_least[i], at_least[i + 1])
        out: dict[Contract | None, float] = {None: 1.0 - at_least[0]}
        for i, c in enumerate(ladder):
            out[c] = at_least[i] - (at_least[i + 1] if i + 1 < len(ladder) else 0.0)
        return out

    def call_for(self, want: Contract | None, auction: Auction) -> str:
        """The call of a seat that wants ``want`` in ``auction``: it, when legal, else pass."""
        if want is None:
            return PASS
        bid = "solissimo" if want in AGGRAVATIONS and auction.rules.aggravations == "declared" else want
        return bid if bid in auction.legal_calls() else PASS

    def calls_chance(self, hand: Mask, seat: int, calls: Sequence[str], rules: Rules = STANDARD,
                     declared: str | None = None) -> float:
        """The chance that ``seat`` with ``hand`` makes its calls among ``calls`` (the whole auction so far, from
        seat 0), and declares ``declared`` after a won solissimo when given."""
        return self._chance(strength(hand), seat, tuple(calls), rules, declared)

    def most_chance(self, seat: int, calls: Sequence[str], rules: Rules = STANDARD, declared: str | None = None) -> float:
        """The most :meth:`calls_chance` gives any hand: the model reads a hand's strength only."""
        return max(self._chance(s, seat, tuple(calls), rules, declared) for s in range(MAX_STRENGTH + 1))

    @lru_cache(maxsize=4096)
    def _chance(self, hand_strength: int, seat: int, calls: tuple[str, ...], rules: Rules, declared: str | None) -> float:
        total = 0.0
        for want, p in self._wants(hand_strength, rules).items():
            if p > 0 and self._agrees(want, seat, calls, rules, declared):
                total += p
        return total

    def _agrees(self, want: Contract | None, seat: int, calls: Sequence[str], rules: Rules, declared: str | None) -> bool:
        auction = Auction(rules)
        for call in calls:
            if auction.to_speak == seat and self.call_for(want, auction) != call:
                return False
            auction.call(call)
        if declared is not None:
            return self.declaration(want) == declared
        return True

    @staticmethod
    def declaration(want: Contract | None) -> str:
        """What the winner of a solissimo under ``aggravations=declared`` plays, wanting ``want``."""
        return want if want is not None and want in AGGRAVATIONS else "solissimo"

    def draw_want(self, hand: Mask, seat: int, calls: Sequence[str], rules: Rules, rng: np.random.Generator
                  ) -> Contract | None:
        """A wanted contract for ``seat`` drawn from :meth:`wants` given its calls among ``calls`` so far (the
        highest wanted contract its calls allow when the model gives them no chance)."""
        wants = self._wants(strength(hand), rules)
        keys = [k for k in wants if self._agrees(k, seat, tuple(calls), rules, None)]
        probs = np.array([max(0.0, wants[k]) for k in keys])
        if not keys:
            return None
        if not probs.sum() > 0:
            return keys[-1]
        return keys[int(rng.choice(len(keys), p=probs / probs.sum()))]
