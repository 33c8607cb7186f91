"""The bid advisor's results: one contract's estimate (:class:`ContractEstimate`) and the
advice for a hand (:class:`Advice`), with their JSON form."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..game.cards import (
    Mask,
    hand_name,
)
from ..game.defaults import DEFAULT_PRECISION, DEFAULT_THIRDS_SAMPLES
from ..game.rules import Rules
from ..game.state import CONTRACTS, Contract
from .policies import DEFAULT_CANDIDATES, DEFAULT_REDEALS
from .prose import PAYOFF_METHOD, POLICY_NOTES
from .race import INTERVAL_METHOD, Race


@dataclass(frozen=True)
class ContractEstimate:
    """The aggregate of one contract's samples."""

    contract: Contract
    samples: int
    #: made, among the ``make_samples`` whose make-test was asked in full (all but
    #: those sampled for their upper end only)
    makes: int
    make_samples: int
    #: the 95% confidence-sequence interval of P(make)
    p_make_95: tuple[float, float]
    #: mean final thirds, its standard error, and the samples it comes from
    mean_thirds: float
    se_thirds: float
    thirds_samples: int
    #: expected game points (samples known only as an interval count at its midpoint)
    mean_payoff: float
    se_payoff: float
    payoff_95: tuple[float, float]
    #: the mean game points with every open sample at its low end, and at its high end
    payoff_range: tuple[float, float]
    #: share of the samples per multiplier, among those whose game points are exact
    multipliers: dict[int, float]
    #: samples whose game points are known only as an interval (never refined: not needed)
    unresolved: int
    policy: str
    #: why sampling stopped: settled, eliminated, cap or fixed
    stopped: str
    #: what it fell below: "pass", another contract, or None
    below: str | None
    seconds: float

    @property
    def p_make(self) -> float:
        return self.makes / self.make_samples if self.make_samples else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return self.p_make_95

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "contract": self.contract,
            "samples": self.samples,
            "stopped": self.stopped,
            "below": self.below,
            "p_make": self.p_make,
            "p_make_95": [lo, hi],
            "make_samples": self.make_samples,
            "mean_thirds": self.mean_thirds,
            "se_thirds": self.se_thirds,
            "thirds_samples": self.thirds_samples,
            "expected_points": self.mean_payoff,
            "se_points": self.se_payoff,
            "expected_points_95": list(self.payoff_95),
            "expected_points_range": list(self.payoff_range),
            "multipliers": {str(k): v for k, v in sorted(self.multipliers.items())},
            "unresolved": self.unresolved,
            "policy": self.policy,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class Advice:
    """What :func:`advise` returns."""

    hand: Mask
    seat: int
    #: the cap per contract (with ``fixed``, the samples of every contract)
    samples: int
    seed: int
    rules: Rules
    soloist_policy: str
    defender_policy: str
    estimates: tuple[ContractEstimate, ...]
    recommendation: str
    reason: str
    seconds: float
    known: dict[str, str] = field(default_factory=dict)
    #: the ``sampled`` policy's parameters
    candidates: int = DEFAULT_CANDIDATES
    redeals: int = DEFAULT_REDEALS
    #: what the recommendation is a toss-up with (contracts, or "pass")
    toss_up: tuple[str, ...] = ()
    precision: float = DEFAULT_PRECISION
    fixed: bool = False
    thirds_samples: int = DEFAULT_THIRDS_SAMPLES
    #: every sample's outcome per contract, in sample order (for analysis; not in ``to_dict``)
    race: Race | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        ranked = ", ".join(f"{e.contract} {e.p_make:.1%} {e.mean_payoff:+.2f}" for e in self.ranked())
        tie = f", toss_up={self.toss_up!r}" if self.toss_up else ""
        return (f"Advice(hand={hand_name(self.hand)!r}, seat={self.seat}, "
                f"recommendation={self.recommendation!r}{tie}, contracts=[{ranked}])")

    def ranked(self) -> list[ContractEstimate]:
        """The estimates, best expected game points first."""
        return sorted(self.estimates, key=lambda e: (-e.mean_payoff, CONTRACTS.index(e.contract)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": hand_name(self.hand),
            "seat": self.seat,
            "samples": self.samples,
            "seed": self.seed,
            "rules": self.rules.changes(),
            "known": self.known,
            "soloist_policy": self.soloist_policy,
            "defender_policy": self.defender_policy,
            "sampled": {"candidates": self.candidates, "redeals": self.redeals},
            "policy_notes": {
                "soloist": POLICY_NOTES["soloist"][self.soloist_policy],
                "defenders": POLICY_NOTES["defenders"][self.defender_policy],
            },
            "sampling": "fixed" if self.fixed else "sequential",
            "precision": self.precision,
            "interval_method": INTERVAL_METHOD,
            "payoff_method": PAYOFF_METHOD,
            "contracts": [e.to_dict() for e in self.ranked()],
            "recommendation": self.recommendation,
            "toss_up": list(self.toss_up),
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
        }
