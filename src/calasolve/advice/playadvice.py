"""Advice under real play (``advise --play pimc|both``): every contract's P(make) and game points
when the advisor's sampled deals are played out by PIMC players on all three seats.

The first ``play_samples`` samples of the advisor (the same deals for every
contract, and the same deals the default advice starts from) are played out
(:mod:`calasolve.advice.realplay`): a fixed number, so the intervals are the
ordinary fixed-n ones (Wilson's for P(make), mean ± standard error for the
game points).  With ``dd`` each deal is also judged double dummy, as the
default advice judges it, and the gap PIMC - double dummy is the mean of the
per-deal differences: the pairing takes out most of the deals' spread.

Each deal is a task of its own, whose seeds come from the seed and the
sample alone, so the answer is the same for every ``jobs`` and on a Dask
executor.  Passing counts as a choice worth 0 on every deal: the best is the
contract with the highest mean game points under PIMC play (or pass), and
``toss_up`` lists the choices whose paired difference from it is within its
95% interval.
"""

from __future__ import annotations

import math
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..game.cards import Mask, hand_name
from ..game.defaults import DEFAULT_GOAL_MB, DEFAULT_PLAY_PIMC_SAMPLES, DEFAULT_PLAY_SAMPLES, DEFAULT_TT_MB
from ..game.limits import check_callable
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract
from ..types.jsonout import finite
from ..scale.workers import worker_pool
from .checks import contract_choice, hand_mask, known_items
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS
from .prose import POLICY_NOTES
from .realplay import PlayChunk, PlayedSample, PlayTask, play_all
from .settings import DEFAULT_DEFENDER_POLICY, AdviceSettings
from .stats import Z95, mean_se, wilson

__all__ = [
    "PLAY_MODES", "Gap", "PlayAdvice", "PlayEstimate", "SideEstimate", "advise_play",
    "run_play_advice",
]

#: ``advise --play``: double dummy (the default advice), PIMC play, or both with their gap.
PLAY_MODES = ("dd", "pimc", "both")
INTERVAL_NOTE = ("fixed n: P(make) by Wilson's score interval, means ± 1 standard error, gaps paired per deal; "
                 "double-dummy game points left open by the advice's tests count at their midpoint")


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

    @classmethod
    def of(
        cls, makes: Sequence[bool], low: Sequence[float], thirds: Sequence[float], high: Sequence[float] | None = None
    ) -> SideEstimate:
        """From each deal's made, game points (``low`` to ``high`` when open) and thirds."""
        high = low if high is None else high
        m, se = mean_se([(a + b) / 2 for a, b in zip(low, high)])
        t, tse = mean_se(thirds)
        ends = (mean_se(low)[0], mean_se(high)[0])
        n_open = sum(a != b for a, b in zip(low, high))
        return cls(len(makes), sum(makes), wilson(sum(makes), len(makes)), m, se, t, tse, n_open, ends)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals, "makes": self.makes, "p_make": finite(self.p_make), "p_make_95": list(self.p_make_95),
            "expected_points": finite(self.mean_points), "se_points": finite(self.se_points),
            "expected_points_range": [finite(v) for v in self.points_range], "unresolved": self.open,
            "mean_thirds": finite(self.mean_thirds), "se_thirds": finite(self.se_thirds),
        }


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

    @classmethod
    def of(cls, samples: Sequence[PlayedSample]) -> Gap:
        made = mean_se([int(s.makes) - int(bool(s.dd_makes)) for s in samples])
        points = mean_se([s.points - s.dd_points for s in samples])
        thirds = mean_se([s.thirds - (s.dd_thirds or 0) for s in samples])
        low = mean_se([s.points - (s.dd_points_high or 0) for s in samples])[0]
        high = mean_se([s.points - (s.dd_points_low or 0) for s in samples])[0]
        return cls(*made, *points, *thirds, (low, high))

    @property
    def points_95(self) -> tuple[float, float]:
        return self.points - Z95 * self.se_points, self.points + Z95 * self.se_points

    def to_dict(self) -> dict[str, Any]:
        return {
            "p_make": finite(self.p_make), "se_p_make": finite(self.se_p_make),
            "points": finite(self.points), "se_points": finite(self.se_points),
            "points_95": [finite(v) for v in self.points_95],
            "points_range": [finite(v) for v in self.points_range],
            "thirds": finite(self.thirds), "se_thirds": finite(self.se_thirds),
        }


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


@dataclass(frozen=True)
class PlayAdvice:
    """What :func:`advise_play` returns."""

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

    def ranked(self) -> list[PlayEstimate]:
        """The estimates, best mean game points under PIMC play first."""
        return sorted(self.estimates, key=lambda e: (-e.pimc.mean_points, CONTRACTS.index(e.contract)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": hand_name(self.hand), "seat": self.seat, "seed": self.seed, "rules": self.rules.changes(),
            "known": self.known, "soloist_policy": self.soloist_policy, "defender_policy": self.defender_policy,
            "sampled": {"candidates": self.candidates, "redeals": self.redeals},
            "policy_notes": {
                "soloist": POLICY_NOTES["soloist"][self.soloist_policy],
                "defenders": POLICY_NOTES["defenders"][self.defender_policy],
            },
            "players": ("pimc on every seat, playing for thirds" if self.players == "pimc"
                        else "pimc on every seat, playing for the contract"),
            "play_samples": self.play_samples, "pimc_samples": self.pimc_samples,
            "interval_method": INTERVAL_NOTE,
            "contracts": [e.to_dict() for e in self.ranked()],
            "best": self.best, "toss_up": list(self.toss_up), "seconds": round(self.seconds, 3),
        }


def advise_play(
    hand: Mask | str,
    *,
    seat: int = 0,
    seed: int = 0,
    play_samples: int = DEFAULT_PLAY_SAMPLES,
    pimc_samples: int = DEFAULT_PLAY_PIMC_SAMPLES,
    dd: bool = False,
    players: str = "pimc",
    jobs: int | None = None,
    policy: str = "sampled",
    defender_policy: str = DEFAULT_DEFENDER_POLICY,
    contracts: Iterable[str] = CONTRACTS,
    known: Mapping[object, Mask] | None = None,
    rules: Rules = STANDARD,
    candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
    tt_mb: int = DEFAULT_TT_MB,
    goal_mb: int = DEFAULT_GOAL_MB,
    progress: Callable[[int], None] | None = None,
    executor: Any = None,
) -> PlayAdvice:
    """Every contract's first ``play_samples`` sampled deals played out by PIMC players with
    ``pimc_samples`` layouts a decision (see the module doc), ``players`` ``pimc`` (playing for
    thirds) or ``contract`` (:class:`~calasolve.play.target.ContractPimcPlayer`); ``dd`` also
    judges them double dummy.  The other arguments are :func:`calasolve.advice.advisor.advise`'s (the same seed
    gives the same deals); ``progress`` is called with the number of deals finished."""
    settings = AdviceSettings(
        hand=hand_mask(hand), seat=seat, seed=seed, jobs=jobs, policy=policy, defender_policy=defender_policy,
        contracts=contract_choice(contracts), known=known_items(known), rules=rules, candidates=candidates,
        redeals=redeals, tt_mb=tt_mb, goal_mb=goal_mb, play_samples=play_samples, pimc_samples=pimc_samples, dd=dd,
        play="both" if dd else "pimc", players=players,
    )
    check_callable("progress", progress)
    return run_play_advice(settings, progress=progress, executor=executor)


def run_play_advice(
    settings: AdviceSettings, *, progress: Callable[[int], None] | None = None, executor: Any = None
) -> PlayAdvice:
    """:func:`advise_play` with its options already made into ``settings`` (the command line's way in)."""
    order = sorted(settings.contracts, key=CONTRACTS.index)
    # one deal a task: the deals' costs vary several-fold, small tasks keep every worker busy
    chunks = [PlayChunk(settings, (PlayTask(i, c),)) for i in range(settings.deals) for c in order]
    start = time.perf_counter()
    played = _run(chunks, settings.jobs, executor, progress)
    estimates = tuple(_estimate(c, [s for s in played if s.contract == c], settings) for c in order)
    best, ties = _best(estimates)
    return PlayAdvice(
        hand=settings.hand, seat=settings.seat, seed=settings.seed, rules=settings.rules,
        soloist_policy=settings.policy, defender_policy=settings.defender_policy,
        play_samples=settings.deals, pimc_samples=settings.layouts, estimates=estimates, best=best,
        toss_up=ties, seconds=time.perf_counter() - start, known={str(k): hand_name(v) for k, v in settings.known},
        candidates=settings.candidates, redeals=settings.redeals, players=settings.players or "pimc",
    )


def _run(
    chunks: Sequence[PlayChunk], jobs: int | None, executor: Any, progress: Callable[[int], None] | None
) -> list[PlayedSample]:
    """Every task's result, in task order, in this process, a worker pool or ``executor``."""
    n = executor.workers if executor is not None else min(jobs or os.cpu_count() or 1, len(chunks))
    with nullcontext(executor) if executor is not None else worker_pool(n) if n > 1 else nullcontext() as pool:
        return play_all(chunks, pool, progress)


def _estimate(contract: Contract, samples: Sequence[PlayedSample], settings: AdviceSettings) -> PlayEstimate:
    policy = settings.policy_of(contract)
    pimc = SideEstimate.of([s.makes for s in samples], [s.points for s in samples], [s.thirds for s in samples])
    both = None
    if settings.dd:
        both = SideEstimate.of([bool(s.dd_makes) for s in samples], [s.dd_points_low or 0 for s in samples],
                               [s.dd_thirds or 0 for s in samples], [s.dd_points_high or 0 for s in samples])
    return PlayEstimate(contract, policy, pimc, both, Gap.of(samples) if settings.dd else None,
                        sum(s.seconds for s in samples), tuple(samples))


def _best(estimates: Sequence[PlayEstimate]) -> tuple[str, tuple[str, ...]]:
    """The best choice by mean game points under PIMC play (pass is 0 on every deal) and the
    choices within a paired 95% interval of it."""
    choices: dict[str, list[float]] = {e.contract: [float(s.points) for s in e.samples] for e in estimates}
    n = len(next(iter(choices.values())))
    choices["pass"] = [0.0] * n
    top = max((e.contract for e in estimates), key=lambda c: (sum(choices[c]), -_rank(c)))
    best = top if sum(choices[top]) > 0 else "pass"
    ties = []
    for c in sorted(choices, key=_rank):
        if c != best:
            m, se = mean_se([b - x for b, x in zip(choices[best], choices[c])])
            if m - Z95 * se <= 0:
                ties.append(c)
    return best, tuple(ties)


def _rank(choice: str) -> int:
    """The tie order: the contracts in the standard order, then pass."""
    return CONTRACTS.index(choice) if choice in CONTRACTS else len(CONTRACTS)
