"""Advice under real play (``advise --play pimc|both``): every contract's P(make) and game points
when the advisor's sampled deals are played out by PIMC players on all three seats.

The first ``play_samples`` samples of the advisor (the same deals for every
contract, and the same deals the default advice starts from) are played out
(:mod:`calasolve.advice.realplay`): a fixed number, so the intervals are
fixed-n ones, valid for any number of deals (Clopper-Pearson for P(make);
for game points, which lie in the contract's known range, betting bounds:
:mod:`calasolve.advice.confseq`), besides each mean's standard error.  With ``dd`` each deal is also judged double dummy, as the
default advice judges it, and the gap PIMC - double dummy is the mean of the
per-deal differences: the pairing takes out most of the deals' spread.

Each deal is a task of its own, whose seeds come from the seed and the
sample alone, so the answer is the same for every ``jobs`` and on a Dask
executor.  Passing counts as a choice worth 0 on every deal: the best is the
contract with the highest mean game points under PIMC play (or pass), and
``toss_up`` lists the choices it is not clearly above: a one-sided 97.5%
bound of their paired difference reaches 0.
"""

from __future__ import annotations

import os
import time
from contextlib import nullcontext
from typing import Any, Callable, Sequence, cast

from ..game.cards import Mask, hand_name
from ..game.limits import check_callable
from ..game.rules import STANDARD, Rules
from ..search.payoff import payoff_levels
from ..game.state import CONTRACTS, Contract
from ..scale.workers import worker_pool
from .checks import fold_options
from .prose import POLICY_NOTES
from ..types.playout import Gap, PlayAdvice, PlayedSample, PlayEstimate, SideEstimate
from .realplay import PlayChunk, PlayTask, play_all
from .settings import AdviceSettings
from .confseq import lower_bound, upper_bound
from .race import ALPHA
from .stats import clopper_pearson, mean_se

__all__ = ["PLAY_MODES", "advise_play", "gap_of", "run_play_advice", "side_estimate", "toss_ups"]

#: ``advise --play``: double dummy (the default advice), PIMC play, or both with their gap.
PLAY_MODES = ("dd", "pimc", "both")
INTERVAL_NOTE = ("fixed n: P(make) by the Clopper-Pearson interval, means ± 1 standard error, gaps paired per deal "
                 "(the game points' gap and the toss-ups by betting bounds within the contract's range, valid for "
                 "any number of deals); double-dummy game points left open by the advice's tests count at their "
                 "midpoint")


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
    return SideEstimate(len(makes), sum(makes), clopper_pearson(sum(makes), len(makes)), m, se, t, tse, n_open, ends)


def gap_of(samples: Sequence[PlayedSample], least: float, most: float) -> Gap:
    """PIMC minus double dummy on the same deals, of a contract whose game points lie in [``least``,
    ``most``]: the game points' gap's 95% interval is two one-sided betting bounds (the open deals at
    the end that widens it), valid for any number of deals."""
    made = mean_se([int(s.makes) - int(bool(s.dd_makes)) for s in samples])
    points, se_points = mean_se([s.points - s.dd_points for s in samples])
    thirds = mean_se([s.thirds - (s.dd_thirds or 0) for s in samples])
    to_high = [s.points - (s.dd_points_high or 0) for s in samples]
    to_low = [s.points - (s.dd_points_low or 0) for s in samples]
    span, n = most - least, len(samples)
    points_95 = (lower_bound(to_high, -span, span, ALPHA / 2, horizon=n) if n else -span,
                 upper_bound(to_low, -span, span, ALPHA / 2, horizon=n) if n else span)
    return Gap(*made, points, se_points, *thirds, points_range=(mean_se(to_high)[0], mean_se(to_low)[0]),
               points_95=points_95)


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
    best, ties = toss_ups(estimates, settings.rules)
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
    least, most = _range(contract, settings.rules)
    return PlayEstimate(contract, policy, pimc, both, gap_of(samples, least, most) if settings.dd else None,
                        sum(s.seconds for s in samples), tuple(samples))


def toss_ups(estimates: Sequence[PlayEstimate], rules: Rules = STANDARD) -> tuple[str, tuple[str, ...]]:
    """The best choice by mean game points under PIMC play (pass is 0 on every deal) and the
    choices it is not clearly above: those where a one-sided 97.5% betting bound of the paired
    difference, within its range, reaches 0."""
    choices: dict[str, list[float]] = {e.contract: [float(s.points) for s in e.samples] for e in estimates}
    ranges: dict[str, tuple[int, int]] = {c: _range(c, rules) for c in choices}
    n = len(next(iter(choices.values())))
    choices["pass"] = [0.0] * n
    ranges["pass"] = (0, 0)
    top = max((e.contract for e in estimates), key=lambda c: (sum(choices[c]), -_rank(c)))
    best = top if sum(choices[top]) > 0 else "pass"
    ties = []
    for c in sorted(choices, key=_rank):
        if c != best:
            least, most = ranges[best][0] - ranges[c][1], ranges[best][1] - ranges[c][0]
            if lower_bound([b - x for b, x in zip(choices[best], choices[c])], least, most, ALPHA / 2, horizon=n) <= 0:
                ties.append(c)
    return best, tuple(ties)


def _range(contract: str, rules: Rules) -> tuple[int, int]:
    levels = payoff_levels(cast(Contract, contract), rules)
    return levels[0], levels[-1]


def _rank(choice: str) -> int:
    """The tie order: the contracts in the standard order, then pass."""
    return CONTRACTS.index(choice) if choice in CONTRACTS else len(CONTRACTS)
