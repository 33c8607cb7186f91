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

import os
import time
from contextlib import nullcontext
from typing import Any, Callable, Sequence

from ..game.cards import Mask, hand_name
from ..game.limits import check_callable
from ..game.state import CONTRACTS, Contract
from ..scale.workers import worker_pool
from .checks import fold_options
from .prose import POLICY_NOTES
from ..types.playout import Gap, PlayAdvice, PlayedSample, PlayEstimate, SideEstimate
from .realplay import PlayChunk, PlayTask, play_all
from .settings import AdviceSettings
from .stats import Z95, mean_se, wilson

__all__ = ["PLAY_MODES", "advise_play", "gap_of", "run_play_advice", "side_estimate"]

#: ``advise --play``: double dummy (the default advice), PIMC play, or both with their gap.
PLAY_MODES = ("dd", "pimc", "both")
INTERVAL_NOTE = ("fixed n: P(make) by Wilson's score interval, means ± 1 standard error, gaps paired per deal; "
                 "double-dummy game points left open by the advice's tests count at their midpoint")


def side_estimate(
    makes: Sequence[bool], low: Sequence[float], thirds: Sequence[float], high: Sequence[float] | None = None
) -> SideEstimate:
    """One way of playing a contract's deals, from each deal's made, game points (``low`` to ``high``
    when open) and thirds."""
    high = low if high is None else high
    m, se = mean_se([(a + b) / 2 for a, b in zip(low, high)])
    t, tse = mean_se(thirds)
    ends = (mean_se(low)[0], mean_se(high)[0])
    n_open = sum(a != b for a, b in zip(low, high))
    return SideEstimate(len(makes), sum(makes), wilson(sum(makes), len(makes)), m, se, t, tse, n_open, ends)


def gap_of(samples: Sequence[PlayedSample]) -> Gap:
    """PIMC minus double dummy on the same deals."""
    made = mean_se([int(s.makes) - int(bool(s.dd_makes)) for s in samples])
    points, se_points = mean_se([s.points - s.dd_points for s in samples])
    thirds = mean_se([s.thirds - (s.dd_thirds or 0) for s in samples])
    low = mean_se([s.points - (s.dd_points_high or 0) for s in samples])[0]
    high = mean_se([s.points - (s.dd_points_low or 0) for s in samples])[0]
    return Gap(*made, points, se_points, *thirds, points_range=(low, high),
               points_95=(points - Z95 * se_points, points + Z95 * se_points))


#: the double-dummy race's options, which advise_play does not take (``play`` follows from ``dd``)
RACE_ONLY = ("samples", "horizon", "precision", "fixed", "thirds_samples", "play")


def advise_play(
    hand: Mask | str | None = None,
    *,
    settings: AdviceSettings | None = None,
    progress: Callable[[int], None] | None = None,
    executor: Any = None,
    **options: Any,
) -> PlayAdvice:
    """Every contract's first ``play_samples`` sampled deals (None: 16) played out by PIMC players with
    ``pimc_samples`` layouts a decision (None: 8; see the module doc), ``players`` ``pimc`` (playing for
    thirds, the default) or ``contract`` (:class:`~calasolve.play.target.ContractPimcPlayer`); ``dd`` also
    judges them double dummy.  The other options are :func:`calasolve.advice.advisor.advise`'s, as
    ``settings`` or keywords (the same seed gives the same deals); ``progress`` is called with the
    number of deals finished."""
    settings = fold_options("advise_play", hand, settings, options, refused=RACE_ONLY)
    settings = settings.replace(play="both" if settings.dd else "pimc")
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
        policy_notes={"soloist": POLICY_NOTES["soloist"][settings.policy],
                      "defenders": POLICY_NOTES["defenders"][settings.defender_policy]},
        interval_method=INTERVAL_NOTE,
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
    pimc = side_estimate([s.makes for s in samples], [s.points for s in samples], [s.thirds for s in samples])
    both = None
    if settings.dd:
        both = side_estimate([bool(s.dd_makes) for s in samples], [s.dd_points_low or 0 for s in samples],
                               [s.dd_thirds or 0 for s in samples], [s.dd_points_high or 0 for s in samples])
    return PlayEstimate(contract, policy, pimc, both, gap_of(samples) if settings.dd else None,
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
