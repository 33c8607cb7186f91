"""Deals played out (``advise --play pimc|both``): one deal (:class:`PlayedSample`), one way of
playing a contract's deals (:class:`SideEstimate`), PIMC minus double dummy on the same deals
(:class:`Gap`), one contract (:class:`PlayEstimate`) and the answer for a hand
(:class:`PlayAdvice`), with their JSON form.

The estimates are made by :mod:`calasolve.advice.playadvice`; a play advice carries the notes
on its method as the advisor wrote them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..game.cards import Mask, hand_name, parse_hand
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract
from .jsonout import finite, nan_if_none

__all__ = ["Gap", "PlayAdvice", "PlayEstimate", "PlayedSample", "SideEstimate"]


@dataclass(frozen=True)
class PlayedSample:
    """One deal played out by PIMC players, and (when asked) the same deal double dummy."""

    index: int
    contract: Contract
    #: the soloist's final thirds, whether the contract was made and the soloist's game points
    thirds: int
    makes: bool
    points: int
    #: the same deal double dummy (None when not asked): thirds after the exchange played,
    #: made, and the game points' interval as the default advice first judges it
    dd_thirds: int | None = None
    dd_makes: bool | None = None
    dd_points_low: int | None = None
    dd_points_high: int | None = None
    #: CPU seconds of this process for the sample (not compared: it varies from run to run)
    seconds: float = field(default=0.0, compare=False)

    @property
    def dd_points(self) -> float:
        """The double-dummy game points, an open interval counting at its midpoint (as in the advice's mean)."""
        if self.dd_points_low is None or self.dd_points_high is None:
            return float("nan")
        return (self.dd_points_low + self.dd_points_high) / 2


def _pair(values: Any) -> tuple[float, float]:
    return nan_if_none(values[0]), nan_if_none(values[1])


@dataclass(frozen=True)
class SideEstimate:
    """One way of playing a contract's deals: makes, game points and thirds."""

    deals: int
    makes: int
    p_make_95: tuple[float, float]
    mean_points: float
    se_points: float
    mean_thirds: float
    se_thirds: float
    #: deals whose game points are known only as an interval (they count at its midpoint), and the
    #: mean game points with every one at its low end and at its high end
    open: int = 0
    points_range: tuple[float, float] = (math.nan, math.nan)

    @property
    def p_make(self) -> float:
        return self.makes / self.deals if self.deals else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals, "makes": self.makes, "p_make": finite(self.p_make), "p_make_95": list(self.p_make_95),
            "expected_points": finite(self.mean_points), "se_points": finite(self.se_points),
            "expected_points_range": [finite(v) for v in self.points_range], "unresolved": self.open,
            "mean_thirds": finite(self.mean_thirds), "se_thirds": finite(self.se_thirds),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SideEstimate:
        """The inverse of :meth:`to_dict` (a number JSON cannot carry, NaN, comes back as NaN)."""
        return cls(
            deals=d["deals"], makes=d["makes"], p_make_95=_pair(d["p_make_95"]),
            mean_points=nan_if_none(d["expected_points"]), se_points=nan_if_none(d["se_points"]),
            mean_thirds=nan_if_none(d["mean_thirds"]), se_thirds=nan_if_none(d["se_thirds"]),
            open=d["unresolved"], points_range=_pair(d["expected_points_range"]),
        )


@dataclass(frozen=True)
class Gap:
    """PIMC minus double dummy on the same deals: means of the per-deal differences and their standard errors."""

    p_make: float
    se_p_make: float
    points: float
    se_points: float
    thirds: float
    se_thirds: float
    #: the mean game points' gap with the open double-dummy deals at their high end, and at their low end
    points_range: tuple[float, float] = (math.nan, math.nan)
    #: the game points' gap's 95% interval
    points_95: tuple[float, float] = (math.nan, math.nan)

    def to_dict(self) -> dict[str, Any]:
        return {
            "p_make": finite(self.p_make), "se_p_make": finite(self.se_p_make),
            "points": finite(self.points), "se_points": finite(self.se_points),
            "points_95": [finite(v) for v in self.points_95],
            "points_range": [finite(v) for v in self.points_range],
            "thirds": finite(self.thirds), "se_thirds": finite(self.se_thirds),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Gap:
        """The inverse of :meth:`to_dict` (NaN, which JSON cannot carry, comes back as NaN)."""
        return cls(
            p_make=nan_if_none(d["p_make"]), se_p_make=nan_if_none(d["se_p_make"]),
            points=nan_if_none(d["points"]), se_points=nan_if_none(d["se_points"]),
            thirds=nan_if_none(d["thirds"]), se_thirds=nan_if_none(d["se_thirds"]),
            points_range=_pair(d["points_range"]), points_95=_pair(d["points_95"]),
        )


@dataclass(frozen=True)
class PlayEstimate:
    """One contract: its deals played out by PIMC players, and double dummy when asked."""

    contract: Contract
    policy: str
    pimc: SideEstimate
    dd: SideEstimate | None
    gap: Gap | None
    #: CPU seconds of every process for the contract's deals
    seconds: float
    #: every deal, in sample order (for analysis; not in ``to_dict``)
    samples: tuple[PlayedSample, ...] = field(default=(), repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": self.contract, "policy": self.policy, "deals": self.pimc.deals,
            "pimc": self.pimc.to_dict(), "dd": self.dd.to_dict() if self.dd else None,
            "gap": self.gap.to_dict() if self.gap else None, "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayEstimate:
        """The inverse of :meth:`to_dict`: the deals themselves are not in the JSON (``samples`` is
        empty), and the seconds come back rounded to the millisecond."""
        return cls(
            contract=d["contract"], policy=d["policy"], pimc=SideEstimate.from_dict(d["pimc"]),
            dd=SideEstimate.from_dict(d["dd"]) if d["dd"] is not None else None,
            gap=Gap.from_dict(d["gap"]) if d["gap"] is not None else None, seconds=d["seconds"],
        )


@dataclass(frozen=True)
class PlayAdvice:
    """What :func:`~calasolve.advice.playadvice.advise_play` returns."""

    hand: Mask
    seat: int
    seed: int
    rules: Rules
    soloist_policy: str
    defender_policy: str
    play_samples: int
    pimc_samples: int
    estimates: tuple[PlayEstimate, ...]
    #: the contract of best mean game points under PIMC play, or "pass"
    best: str
    #: the choices (contracts, or "pass") not separated from the best by a paired 95% interval
    toss_up: tuple[str, ...]
    seconds: float
    known: dict[str, str] = field(default_factory=dict)
    candidates: int = DEFAULT_CANDIDATES
    redeals: int = DEFAULT_REDEALS
    #: who played: ``pimc`` (for thirds) or ``contract``
    players: str = "pimc"
    #: the notes on the exchange policies (``soloist``, ``defenders``) and the intervals, as the advisor wrote them
    policy_notes: dict[str, str] = field(default_factory=dict)
    interval_method: str = ""

    def ranked(self) -> list[PlayEstimate]:
        """The estimates, best mean game points under PIMC play first."""
        return sorted(self.estimates, key=lambda e: (-e.pimc.mean_points, CONTRACTS.index(e.contract)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": hand_name(self.hand), "seat": self.seat, "seed": self.seed, "rules": self.rules.changes(),
            "known": self.known, "soloist_policy": self.soloist_policy, "defender_policy": self.defender_policy,
            "sampled": {"candidates": self.candidates, "redeals": self.redeals},
            "policy_notes": dict(self.policy_notes),
            "players": ("pimc on every seat, playing for thirds" if self.players == "pimc"
                        else "pimc on every seat, playing for the contract"),
            "play_samples": self.play_samples, "pimc_samples": self.pimc_samples,
            "interval_method": self.interval_method,
            "contracts": [e.to_dict() for e in self.ranked()],
            "best": self.best, "toss_up": list(self.toss_up), "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayAdvice:
        """The inverse of :meth:`to_dict` (the contracts back in the standard order the advisor runs them in;
        the seconds rounded to the millisecond; the deals themselves are not in the JSON)."""
        return cls(
            hand=parse_hand(d["hand"]), seat=d["seat"], seed=d["seed"], rules=STANDARD.with_(d["rules"]),
            soloist_policy=d["soloist_policy"], defender_policy=d["defender_policy"],
            play_samples=d["play_samples"], pimc_samples=d["pimc_samples"],
            estimates=tuple(sorted((PlayEstimate.from_dict(e) for e in d["contracts"]),
                                   key=lambda e: CONTRACTS.index(e.contract))), best=d["best"],
            toss_up=tuple(d["toss_up"]), seconds=d["seconds"], known=dict(d["known"]),
            candidates=d["sampled"]["candidates"], redeals=d["sampled"]["redeals"],
            players="pimc" if d["players"].endswith("thirds") else "contract",
            policy_notes=dict(d["policy_notes"]), interval_method=d["interval_method"],
        )
