"""The bid advisor's results: one contract's estimate (:class:`ContractEstimate`) and the
advice for a hand (:class:`Advice`), with their JSON form.

An advice carries what it says of itself (the notes on its exchange policies, the interval
and payoff methods), as the advisor that made it wrote them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..game.cards import Mask, hand_name, parse_hand
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_PRECISION, DEFAULT_REDEALS, DEFAULT_THIRDS_SAMPLES
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract
from .jsonout import finite, nan_if_none


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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ContractEstimate":
        """The estimate of :meth:`to_dict`'s form, such that ``to_dict`` gives ``d`` back; equal to the
        estimate it was made of (``seconds`` to the millisecond) unless a number did not exist: null
        comes back as NaN, which is equal to nothing."""
        p_make = d["p_make"]
        lo, hi = d["p_make_95"]
        p_lo, p_hi = (nan_if_none(v) for v in d["expected_points_95"])
        r_lo, r_hi = (nan_if_none(v) for v in d["expected_points_range"])
        return cls(
            contract=d["contract"], samples=d["samples"],
            makes=0 if p_make is None else round(p_make * d["make_samples"]), make_samples=d["make_samples"],
            p_make_95=(lo, hi), mean_thirds=nan_if_none(d["mean_thirds"]), se_thirds=nan_if_none(d["se_thirds"]),
            thirds_samples=d["thirds_samples"], mean_payoff=nan_if_none(d["expected_points"]),
            se_payoff=nan_if_none(d["se_points"]), payoff_95=(p_lo, p_hi), payoff_range=(r_lo, r_hi),
            multipliers={int(k): v for k, v in d["multipliers"].items()}, unresolved=d["unresolved"],
            policy=d["policy"], stopped=d["stopped"], below=d["below"], seconds=d["seconds"],
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: a number that does not exist (the mean of no samples) is None."""
        lo, hi = self.interval
        return {
            "contract": self.contract,
            "samples": self.samples,
            "stopped": self.stopped,
            "below": self.below,
            "p_make": finite(self.p_make),
            "p_make_95": [lo, hi],
            "make_samples": self.make_samples,
            "mean_thirds": finite(self.mean_thirds),
            "se_thirds": finite(self.se_thirds),
            "thirds_samples": self.thirds_samples,
            "expected_points": finite(self.mean_payoff),
            "se_points": finite(self.se_payoff),
            "expected_points_95": [finite(v) for v in self.payoff_95],
            "expected_points_range": [finite(v) for v in self.payoff_range],
            "multipliers": {str(k): v for k, v in sorted(self.multipliers.items())},
            "unresolved": self.unresolved,
            "policy": self.policy,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class PlayedEstimate:
    """One contract under real play: the double-dummy estimate of its samples plus the gap
    (played minus double dummy) measured on the first ``deals`` of them, played out by players
    who see one hand; each 95% interval is where the paired one (the double-dummy part's, valid
    under the advisor's stopping, plus the gap's) and the deals' own meet
    (:mod:`calasolve.advice.played`)."""

    contract: Contract
    #: the deals played out (the first of the double-dummy samples, the same cards)
    deals: int
    #: on those deals: made under play, made double dummy, and both ways of the discordant ones
    makes: int
    dd_makes: int
    #: P(make) under play and its interval
    p_make: float
    p_make_95: tuple[float, float]
    #: the gap in P(make) (played minus double dummy, paired per deal) and its 98.75% interval
    gap_p_make: float
    gap_p_make_95: tuple[float, float]
    #: expected game points under play and their 95% interval, the gap and its 98.75% interval
    mean_payoff: float
    payoff_95: tuple[float, float]
    gap_payoff: float
    gap_payoff_95: tuple[float, float]
    #: the soloist's mean final thirds over the deals played out, and its standard error
    mean_thirds: float
    se_thirds: float
    #: share of the deals played out per multiplier
    multipliers: dict[int, float]
    #: CPU seconds of every process for the deals played out
    seconds: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PlayedEstimate":
        """The estimate of :meth:`to_dict`'s form (``seconds`` to the millisecond; null comes back as NaN)."""
        def pair(v: Any) -> tuple[float, float]:
            return nan_if_none(v[0]), nan_if_none(v[1])

        return cls(
            contract=d["contract"], deals=d["deals"], makes=d["makes"], dd_makes=d["dd_makes"],
            p_make=nan_if_none(d["p_make"]), p_make_95=pair(d["p_make_95"]),
            gap_p_make=nan_if_none(d["gap_p_make"]), gap_p_make_95=pair(d["gap_p_make_95"]),
            mean_payoff=nan_if_none(d["expected_points"]), payoff_95=pair(d["expected_points_95"]),
            gap_payoff=nan_if_none(d["gap_points"]), gap_payoff_95=pair(d["gap_points_95"]),
            mean_thirds=nan_if_none(d["mean_thirds"]), se_thirds=nan_if_none(d["se_thirds"]),
            multipliers={int(k): v for k, v in d["multipliers"].items()}, seconds=d["seconds"],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": self.contract, "deals": self.deals, "makes": self.makes, "dd_makes": self.dd_makes,
            "p_make": finite(self.p_make), "p_make_95": [finite(v) for v in self.p_make_95],
            "gap_p_make": finite(self.gap_p_make), "gap_p_make_95": [finite(v) for v in self.gap_p_make_95],
            "expected_points": finite(self.mean_payoff), "expected_points_95": [finite(v) for v in self.payoff_95],
            "gap_points": finite(self.gap_payoff), "gap_points_95": [finite(v) for v in self.gap_payoff_95],
            "mean_thirds": finite(self.mean_thirds), "se_thirds": finite(self.se_thirds),
            "multipliers": {str(k): v for k, v in sorted(self.multipliers.items())},
            "seconds": round(self.seconds, 3),
        }


#: How the learned players' odds are read (:attr:`PlayedAdvice.interval_method`): from their deals alone.
LEARNED_INTERVAL_METHOD = (
    "95% from the deals played out alone, each valid for any number of deals: Clopper-Pearson for P(make), "
    "the betting interval within the contract's range for game points and for two contracts' difference on "
    "the same deals; the gaps to double dummy on the deals the race judged too"
)


@dataclass(frozen=True)
class PlayedAdvice:
    """The played side of an advice: every contract's estimate under play and the recommendation
    made on it (the advice's own ``recommendation`` is then this one's)."""

    estimates: tuple[PlayedEstimate, ...]
    recommendation: str
    toss_up: tuple[str, ...]
    reason: str
    #: who played the deals out (in words), their layouts per decision, the defenders' exchange
    players: str
    layouts: int
    defender_policy: str
    interval_method: str

    def ranked(self) -> list[PlayedEstimate]:
        """The estimates, best expected game points under play first."""
        return sorted(self.estimates, key=lambda e: (-e.mean_payoff, CONTRACTS.index(e.contract)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PlayedAdvice":
        return cls(
            estimates=tuple(sorted((PlayedEstimate.from_dict(e) for e in d["contracts"]),
                                   key=lambda e: CONTRACTS.index(e.contract))),
            recommendation=d["recommendation"], toss_up=tuple(d["toss_up"]), reason=d["reason"],
            players=d["players"], layouts=d["layouts"], defender_policy=d["defender_policy"],
            interval_method=d["interval_method"],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "layouts": self.layouts, "defender_policy": self.defender_policy,
            "interval_method": self.interval_method,
            "contracts": [e.to_dict() for e in self.ranked()],
            "recommendation": self.recommendation, "toss_up": list(self.toss_up), "reason": self.reason,
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
    #: what the exchange policies' estimates are (``soloist`` and ``defenders``), in words
    policy_notes: Mapping[str, str] = field(default_factory=dict)
    #: how the intervals and the game points were found, in words
    interval_method: str = ""
    payoff_method: str = ""
    #: the advisor's race: every sample's outcome per contract, in sample order
    #: (a :class:`calasolve.advice.race.Race`, for analysis; not in ``to_dict``)
    race: Any = field(default=None, repr=False, compare=False)
    #: the estimates under real play (None: the double-dummy advice alone, ``play="dd"``); when given,
    #: ``recommendation``, ``toss_up`` and ``reason`` are its, and the double-dummy ones are kept apart
    played: PlayedAdvice | None = None
    dd_recommendation: str = ""
    dd_toss_up: tuple[str, ...] = ()
    dd_reason: str = ""

    def __repr__(self) -> str:
        ranked = ", ".join(f"{e.contract} {e.p_make:.1%} {e.mean_payoff:+.2f}" for e in self.ranked())
        tie = f", toss_up={self.toss_up!r}" if self.toss_up else ""
        return (f"Advice(hand={hand_name(self.hand)!r}, seat={self.seat}, "
                f"recommendation={self.recommendation!r}{tie}, contracts=[{ranked}])")

    def ranked(self) -> list[ContractEstimate]:
        """The estimates, best expected game points first."""
        return sorted(self.estimates, key=lambda e: (-e.mean_payoff, CONTRACTS.index(e.contract)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Advice":
        """The advice of :meth:`to_dict`'s form, such that ``to_dict`` gives ``d`` back; equal to the advice
        it was made of but for ``seconds`` (to the millisecond), the estimates as :meth:`ContractEstimate.from_dict`
        gives them, and ``race``, not in the JSON (None)."""
        return cls(
            hand=parse_hand(d["hand"]), seat=d["seat"], samples=d["samples"], seed=d["seed"],
            rules=STANDARD.with_(d["rules"]), soloist_policy=d["soloist_policy"],
            defender_policy=d["defender_policy"],
            # the JSON ranks them; the advisor gives them in contract order
            estimates=tuple(sorted((ContractEstimate.from_dict(e) for e in d["contracts"]),
                                   key=lambda e: CONTRACTS.index(e.contract))),
            recommendation=d["recommendation"], reason=d["reason"], seconds=d["seconds"], known=dict(d["known"]),
            candidates=d["sampled"]["candidates"], redeals=d["sampled"]["redeals"], toss_up=tuple(d["toss_up"]),
            precision=d["precision"], fixed=d["sampling"] == "fixed", thirds_samples=d["thirds_samples"],
            policy_notes=dict(d["policy_notes"]),
            interval_method=d["interval_method"], payoff_method=d["payoff_method"],
            **({} if "played" not in d else {
                "played": PlayedAdvice.from_dict(d["played"]), "dd_recommendation": d["dd_recommendation"],
                "dd_toss_up": tuple(d["dd_toss_up"]), "dd_reason": d["dd_reason"],
            }),
        )

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
            "policy_notes": {"soloist": self.policy_notes["soloist"], "defenders": self.policy_notes["defenders"]},
            "sampling": "fixed" if self.fixed else "sequential",
            "precision": self.precision,
            "thirds_samples": self.thirds_samples,
            "interval_method": self.interval_method,
            "payoff_method": self.payoff_method,
            "contracts": [e.to_dict() for e in self.ranked()],
            "recommendation": self.recommendation,
            "toss_up": list(self.toss_up),
            "reason": self.reason,
            **({} if self.played is None else {
                "basis": "played", "dd_recommendation": self.dd_recommendation,
                "dd_toss_up": list(self.dd_toss_up), "dd_reason": self.dd_reason, "played": self.played.to_dict(),
            }),
            "seconds": round(self.seconds, 3),
        }
