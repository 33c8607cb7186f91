"""The bid advisor: Monte Carlo estimates of every contract's chances for a 12-card hand.

For each contract, :func:`advise` deals the 28 unseen cards at random
(12, 12 and 4; cards pinned with ``known`` stay where they are), carries out
the contract's exchange under a named policy and judges the deal double
dummy (:mod:`calasolve.advice.outcome`): made or not, the soloist's game points
(payoff-optimal play, cappotto and stramazzo included) and, on a
sub-sample, the final thirds.  The samples come in rounds and a contract
stops being sampled once its question is settled (:mod:`calasolve.advice.race`):
the intervals are confidence sequences, valid however often they were
looked at.  The recommendation is the contract with the highest expected
game points, or pass when none is positive; a toss-up says so.

Sample ``i`` is dealt from a generator seeded by ``(seed, i)`` alone, and the
same deal is used for every contract (common random numbers: the contracts
are compared on the same cards); the rounds do not depend on ``jobs``, so
neither do the results.

**Exchange policies** (reported in the output):

* soloist (solo, chiamo):

  - ``sampled`` (default): the soloist decides with what they know.  The
    call (chiamo) is the highest card missing from the soloist's best suit.
    Then, having seen the monte (and, in chiamo, who handed the called card
    over), the soloist considers the ``candidates`` (4) best distinct
    return-and-discard choices by a static estimate (choices that only swap
    equivalent cards count once) and keeps the one that makes the contract
    (18 thirds, double dummy) in the most of ``redeals`` (4) re-deals of the
    cards they cannot see (consistent with who held the called card); ties
    go to the better static estimate.  The re-deals come from their own
    generator; the real hidden cards are never looked at.
  - ``dd``: the double-dummy-best exchange of the sample itself
    (:func:`calasolve.exchange.search.search_exchange`): the soloist sees
    every card, an optimistic upper bound, at the cost of an exact exchange
    search per sample.

* defenders (dividete, scegliete):

  - ``dd`` (default): the defenders choose with every card in view (for
    dividete the two-and-two draw of the monte is random, the discards are
    theirs): conservative for the soloist.  The contract fails if any of
    their exchanges refutes it; the plain-card-sense exchange is tried
    first, then every exchange, most promising for the defence first.
  - ``heuristic``: plain card sense, without seeing the soloist's cards.
    Scegliete: each monte card goes to the defender with more cards of its
    suit (ties: the first defender).  Discards: each defender throws their
    lowest cards of no point value, shortest suit first (then the lowest
    point cards).  One position per sample; leans towards the soloist.
  - ``sampled``: each defender chooses with what it sees
    (:mod:`calasolve.advice.defence`): its discards, and in scegliete its
    proposed split, by the fewest soloist makes over re-deals of the cards
    it cannot see; the same ``candidates`` and ``redeals`` as the soloist's.
"""

from __future__ import annotations

import os
import time
from contextlib import nullcontext
from typing import Any, Callable, Sequence

from ..game.cards import (
    Mask,
    hand_name,
)
from ..game.errors import InternalError, ParameterError
from ..game.limits import check_callable
from ..game.state import CONTRACTS, Contract
from .outcome import SampleOutcome
from ..search.payoff import multiplier_of, payoff_levels
from .race import CAP, Race, Track
from .stats import mean_se
from ..scale.workers import worker_pool
from .checks import fold_options
from .prose import reason
from ..types.advice import Advice, ContractEstimate
from .played import play_chunks, played_advice
from .realplay import play_all
from .runner import Runner
from .samples import Task, is_dd_defence
from .settings import AdviceSettings
from .race import INTERVAL_METHOD
from .prose import PAYOFF_METHOD, POLICY_NOTES

__all__ = ["advise", "run_advice"]


def advise(
    hand: Mask | str | None = None,
    *,
    settings: AdviceSettings | None = None,
    progress: Callable[[int], None] | None = None,
    on_round: Callable[[Race], None] | None = None,
    executor: Any = None,
    **options: Any,
) -> Advice:
    """Estimate every contract's chances for ``hand`` (see the module doc).

    The options are :class:`~calasolve.advice.settings.AdviceSettings`' fields, given as ``settings``,
    as keywords (``seat``, ``seed``, ``samples``, ``jobs``, ``policy``, ``defender_policy``,
    ``contracts``, ``known``, ``rules``, ...), or both (the keywords override the settings; ``hand``
    too).  ``samples`` is the cap per contract (with ``fixed``, every contract gets
    exactly that many; None: 400, or 64 with ``play="played"`` and PIMC players); ``precision``
    the 95% half-width wanted on the recommended contract's P(make);
    ``thirds_samples`` how many samples of each contract also get their exact
    final thirds (None: 24, or the deals PIMC players play out with ``played``).  ``policy`` is the
    soloist's exchange policy, ``defender_policy`` the defenders'.  With ``play="played"``
    (the default) the first ``play_samples`` deals of each contract are also played out by
    ``players`` (None: ``learned``, :mod:`calasolve.play.learned`, on 300 deals read alone; or
    ``contract``, the contract-minded PIMC player, or ``pimc``, on 8 deals paired with double
    dummy) with ``pimc_samples`` layouts a PIMC decision (None: 8),
    and the recommendation is made on the played odds
    (:mod:`calasolve.advice.played`); ``play="dd"`` is the double-dummy advice
    alone.  ``progress`` is called
    with the number of sample evaluations finished since the last call,
    ``on_round`` with the race after each round.  ``executor``, when given, runs
    the samples instead of worker processes: an object with ``map(fn, items)``
    (results in order) and ``workers`` (a Dask cluster's, :mod:`calasolve.scale.cluster`).
    """
    settings = fold_options("advise", hand, settings, options, refused=("dd", "horizon"))
    if settings.play not in ("played", "dd"):
        raise ParameterError("play", settings.play, "advise plays 'played' or 'dd' (advise_play: 'pimc' or 'both')")
    check_callable("progress", progress)
    check_callable("on_round", on_round)
    return run_advice(settings, progress=progress, on_round=on_round, executor=executor)


def run_advice(
    settings: AdviceSettings,
    *,
    progress: Callable[[int], None] | None = None,
    on_round: Callable[[Race], None] | None = None,
    executor: Any = None,
) -> Advice:
    """:func:`advise` with its options already made into ``settings`` (the command line's way in)."""
    order = sorted(settings.contracts, key=CONTRACTS.index)
    rules, samples, thirds_samples = settings.rules, settings.cap, settings.thirds
    race = Race(
        [Track(c, min(payoff_levels(c, rules)), max(payoff_levels(c, rules))) for c in order],
        cap=samples, precision=settings.precision, fixed=settings.fixed, horizon=settings.bets_horizon,
    )
    thirds: dict[str, dict[int, int]] = {c: {} for c in order}
    cpu: dict[str, float] = {c: 0.0 for c in order}
    start = time.perf_counter()
    jobs = executor.workers if executor is not None else settings.jobs or os.cpu_count() or 1
    with nullcontext(executor) if executor is not None else worker_pool(jobs) if jobs > 1 else nullcontext() as pool:
        runner = Runner(pool, jobs)
        n = 0
        while not race.done:
            indices = range(n, min(n + ROUND, samples))
            n = indices.stop
            # a dd defence that is behind is asked only what can eliminate it: cheap refutations
            asked = [(t.contract, is_dd_defence(t.contract, settings) and race.upper_only(t)) for t in race.active()]
            tasks = _round_tasks(indices, asked, settings)
            # the next round's tasks as if nothing dropped out: what idle workers may start on
            ahead = _round_tasks(range(n, min(n + ROUND, samples)), asked, settings)
            results = runner.run(settings, tasks, progress, ahead)
            fresh = _collect(results, race, thirds, cpu)
            race.eliminate()
            # the contracts still in the race need exact game points on this round's samples
            redo = [Task(task.index, task.contract, refine=True, thirds=task.thirds)
                    for task, outcome in fresh if not outcome.settled and race.needs_refining(race.track(task.contract))]
            if redo:
                _collect(runner.run(settings, redo, None, ahead), race, thirds, cpu)
                race.eliminate()
            race.settle(n)
            if on_round:
                on_round(race)
        runner.discard()
        # the dd defence's exact thirds cost an exchange search each: only for a contract still in the answer
        late = [Task(i, t.contract, refine=True, thirds=True)
                for t in race.tracks if is_dd_defence(t.contract, settings) and t.below is None
                for i in range(min(thirds_samples, t.n))]
        if late:
            for task, outcome, seconds in runner.run(settings, late, None):
                if outcome.thirds is not None:
                    thirds[task.contract][task.index] = outcome.thirds
                cpu[task.contract] += seconds
        played = None
        if settings.play == "played":
            # the same deals played out, on the race's pool: see calasolve.advice.played
            played = played_advice(race, play_all(play_chunks(settings, race), pool, progress), settings)
    estimates = tuple(_estimate(t, thirds[t.contract], cpu[t.contract], settings) for t in race.tracks)
    recommendation, ties = race.result()
    why = reason(race, recommendation, ties)
    dd_side = (recommendation, ties, why) if played is not None else ("", (), "")
    if played is not None:
        recommendation, ties, why = played.recommendation, played.toss_up, played.reason
    return Advice(
        hand=settings.hand, seat=settings.seat, samples=samples, seed=settings.seed, rules=rules,
        soloist_policy=settings.policy, defender_policy=settings.defender_policy,
        estimates=estimates, recommendation=recommendation, toss_up=ties,
        reason=why,
        seconds=time.perf_counter() - start,
        known={str(k): hand_name(v) for k, v in settings.known},
        candidates=settings.candidates, redeals=settings.redeals, precision=settings.precision,
        fixed=settings.fixed, thirds_samples=thirds_samples, race=race,
        policy_notes={"soloist": POLICY_NOTES["soloist"][settings.policy],
                      "defenders": POLICY_NOTES["defenders"][settings.defender_policy]},
        interval_method=INTERVAL_METHOD, payoff_method=PAYOFF_METHOD,
        played=played, dd_recommendation=dd_side[0], dd_toss_up=dd_side[1], dd_reason=dd_side[2],
    )


#: Samples per round: every contract still in the race gets the next ROUND samples.
ROUND = 16


def _round_tasks(indices: range, asked: Sequence[tuple[Contract, bool]], settings: AdviceSettings) -> list[Task]:
    """The samples ``indices`` of each contract in ``asked`` (with whether only its upper end is asked)."""
    return [Task(i, c, thirds=i < settings.thirds and not is_dd_defence(c, settings), upper=upper)
            for i in indices for c, upper in asked]


def _collect(
    results: Sequence[tuple[Task, SampleOutcome, float]], race: Race, thirds: dict[str, dict[int, int]], cpu: dict[str, float]
) -> list[tuple[Task, SampleOutcome]]:
    """File a batch of results into the race's tracks (a refined sample replaces its
    first outcome, in place), in sample order."""
    fresh = []
    for task, outcome, seconds in sorted(results, key=lambda r: (r[0].index, CONTRACTS.index(r[0].contract))):
        track = race.track(task.contract)
        cpu[task.contract] += seconds
        if outcome.thirds is not None:
            thirds[task.contract][task.index] = outcome.thirds
        if task.refine and task.index < track.n:
            track.replace(task.index, outcome)
        else:
            if task.index != track.n:
                raise InternalError(f"sample {task.index} of {task.contract} arrived after {track.n} others: samples arrive in order")
            track.add(outcome)
        fresh.append((task, outcome))
    return fresh


def _estimate(track: Track, thirds: dict[int, int], cpu: float, settings: AdviceSettings) -> ContractEstimate:
    outcomes = track.outcomes
    n = len(outcomes)
    made = track.makes()
    values = [thirds[i] for i in sorted(thirds) if i < n]
    thirds_mean, thirds_se = mean_se(values)
    mids = [(o.payoff_low + o.payoff_high) / 2 for o in outcomes]
    pay_mean, pay_se = mean_se(mids)
    exact = [o for o in outcomes if o.settled]
    counts: dict[int, int] = {}
    for o in exact:
        m = multiplier_of(o.payoff_low, track.contract, settings.rules)
        counts[m] = counts.get(m, 0) + 1
    policy = settings.policy_of(track.contract)
    return ContractEstimate(
        contract=track.contract,
        samples=n,
        makes=int(made.sum()),
        make_samples=len(made),
        p_make_95=track.p_make_interval() if len(made) else (0.0, 1.0),
        mean_thirds=thirds_mean,
        se_thirds=thirds_se,
        thirds_samples=len(values),
        mean_payoff=pay_mean,
        se_payoff=pay_se,
        payoff_95=track.payoff_interval() if n else (float(track.low), float(track.high)),
        payoff_range=track.mean_range(),
        multipliers={m: k / len(exact) for m, k in counts.items()},
        unresolved=n - len(exact),
        policy=policy,
        stopped=track.stopped or CAP,
        below=track.below,
        seconds=cpu,
    )
