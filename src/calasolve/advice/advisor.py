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
"""

from __future__ import annotations

import math
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..search import engines
from ..game.cards import (
    last_trick_bonus,
    Mask,
    hand_name,
    parse_cards_or_hand,
    popcount,
)
from ..game.defaults import DEFAULT_GOAL_MB, DEFAULT_TT_MB, DEFAULT_PRECISION, DEFAULT_SAMPLES, DEFAULT_THIRDS_SAMPLES
from ..game.errors import CalasolveError, ParameterError
from ..game.exchange import Exchange, Hands, apply_exchange
from ..exchange.search import defence_candidates
from ..game.state import CONTRACT_VALUE, CONTRACTS, first_leader
from .outcome import UPPER_BUDGET, DefenceOracle, Oracle, Outcome, PositionOracle, judge
from ..search.payoff import multiplier_of, payoff_levels
from .policies import DEFAULT_CANDIDATES, DEFAULT_REDEALS, bonus_after_exchange, heuristic_exchange, random_draw, soloist_policy
from .race import CAP, INTERVAL_METHOD, Race, Track, difference_interval
from ..game.rules import STANDARD, Rules
from ..game.sampling import MONTE, check_known, deal_rest, rng_for
from .stats import mean_se
from ..scale.workers import worker_pool

SOLOIST_POLICIES = ("sampled", "dd")
DEFENDER_POLICIES = ("dd", "heuristic")
DEFAULT_DEFENDER_POLICY = "dd"
#: How the game points are obtained, as reported in the output.
PAYOFF_METHOD = (
    "null-window tests: 18 thirds for make or fail, then 30 (made) or 6 (failed) for the multiplier; "
    "the goal search only where those leave it open and the contract is still in the race"
)
#: What each policy's estimate is, said in the output next to its name.
POLICY_NOTES = {
    "soloist": {
        "sampled": "the soloist chooses with what they know",
        "dd": "the soloist sees every card: an optimistic upper bound",
    },
    "defenders": {
        "dd": "the defenders see every card: conservative for the soloist",
        "heuristic": "plain card sense: leans towards the soloist",
    },
}


def parse_advice_hand(text: str) -> Mask:
    """A 12-card hand in hand notation or as card tokens.

    >>> hand_name(parse_advice_hand("3B 2B AB 7B RS CS 5S FC 6C 4C AD RD"))
    '32A7.RC5.F64.AR'
    """
    mask = parse_cards_or_hand(text)
    if popcount(mask) != 12:
        raise CalasolveError(f"hand {text!r}: has {popcount(mask)} cards, a hand has 12")
    return mask


# -- results -----------------------------------------------------------------------

@dataclass(frozen=True)
class ContractEstimate:
    """The aggregate of one contract's samples."""

    contract: str
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


# -- one sample -----------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Everything a worker needs to evaluate samples (picklable)."""

    hand: Mask
    seat: int
    seed: int
    contracts: tuple[str, ...]
    known: tuple[tuple[object, Mask], ...]
    rules: Rules
    soloist_policy: str
    defender_policy: str
    candidates: int
    redeals: int
    tt_mb: int
    goal_mb: int = DEFAULT_GOAL_MB


@dataclass(frozen=True)
class Task:
    """One sample of one contract to evaluate: ``refine`` makes its game points exact,
    ``thirds`` computes its exact final thirds too."""

    index: int
    contract: str
    refine: bool = False
    thirds: bool = False
    #: only the upper end of the game points is asked for (:meth:`calasolve.advice.race.Race.upper_only`)
    upper: bool = False


def deal_sample(settings: Settings, index: int) -> tuple[Hands, Mask]:
    """Sample ``index``: the same deal for every contract (common random numbers)."""
    return deal_rest(settings.hand, settings.seat, rng_for(settings.seed, index), dict(settings.known))


def oracle_for(
    task: Task, settings: Settings, solver: Any, goals: Any, hints: dict[int, Hands]
) -> tuple[Oracle, int | None]:
    """The questions about sample ``task.index`` after ``task.contract``'s exchange under
    the settings' policies, and the final thirds when the exchange search already
    found them (the soloist's ``dd``).  ``hints`` carries, by sample, the hands of
    the defenders' refuting dividete exchange to their scegliete, where it is one
    of the candidates (the drawn split), tried first."""
    seat, rules, contract = settings.seat, settings.rules, task.contract
    hands, monte = deal_sample(settings, task.index)
    rng = rng_for(settings.seed, task.index, 1 + CONTRACTS.index(contract))
    leader = first_leader(contract, seat, rules)
    known: int | None = None
    if _is_dd_defence(contract, settings):
        takes = random_draw(monte, seat, rng) if contract == "dividete" else None
        first = hints.get(task.index) if contract == "scegliete" else None
        # the plain-card-sense exchange refutes most contracts that fail: tried first
        plain, _ = apply_exchange(hands, monte, contract, seat, heuristic_exchange(hands, monte, seat, takes))
        probes = [(h, bonus_after_exchange(hands, monte, h)) for h in ([first] if first is not None else []) + [plain]]
        return DefenceOracle(
            solver, goals, lambda: defence_candidates(hands, monte, contract, seat, takes=takes, first=first),
            probes, leader, seat, contract, rules, budget=UPPER_BUDGET if task.upper else None,
        ), None
    if contract == "solissimo":
        exchange = Exchange()
    elif contract in ("solo", "chiamo"):
        policy = soloist_policy(settings.soloist_policy, candidates=settings.candidates, redeals=settings.redeals)
        exchange, known = policy.exchange(hands, monte, contract, seat, rules, solver, rng)
    else:
        exchange = heuristic_exchange(hands, monte, seat, random_draw(monte, seat, rng) if contract == "dividete" else None)
    played, new_monte = apply_exchange(hands, monte, contract, seat, exchange)
    bonus = last_trick_bonus(new_monte)
    return PositionOracle(solver, goals, played, leader, seat, bonus, contract, rules), known


def evaluate(task: Task, settings: Settings, solver: Any, goals: Any, hints: dict[int, Hands] | None = None) -> Outcome:
    """Deal sample ``task.index``, carry out the contract's exchange, judge it
    (:func:`calasolve.advice.outcome.judge`): a null-window test at 18 thirds and one
    or two more for the multiplier, unless the task asks for more."""
    hints = {} if hints is None else hints
    oracle, known = oracle_for(task, settings, solver, goals, hints)
    outcome = judge(oracle, task.contract, settings.rules, refine=task.refine, thirds=task.thirds, known=known,
                    upper=task.upper)
    if isinstance(oracle, DefenceOracle) and task.contract == "dividete" and oracle.refuter is not None:
        hints[task.index] = oracle.refuter
    return outcome


def worker_goals(goal_mb: int = DEFAULT_GOAL_MB) -> Any:
    """This process's goal search (:func:`calasolve.search.engines.goal_search`) with a memo of
    ``goal_mb`` MiB.  A memo the machine cannot allocate is a ``ParameterError``
    naming ``goal_mb``."""
    return engines.goal_search(goal_mb)


def _work(job: tuple[Settings, Sequence[Task]]) -> list[tuple[Task, Outcome, float]]:
    """Evaluate a chunk of tasks with this process's solver.  A chunk holds whole
    samples, their contracts in the standard order: a sample's dividete comes
    before its scegliete, and the table is warm from the same deal."""
    settings, tasks = job
    solver = engines.solver(settings.tt_mb)
    goals = engines.goal_search(settings.goal_mb)
    hints: dict[int, Hands] = {}
    out = []
    for task in tasks:
        start = time.process_time()  # CPU time: the cost of a sample whatever else runs
        outcome = evaluate(task, settings, solver, goals, hints)
        out.append((task, outcome, time.process_time() - start))
    return out


# -- the race ------------------------------------------------------------------------

def _chunks(settings: Settings, tasks: Sequence[Task], jobs: int) -> list[tuple[Settings, list[Task]]]:
    """Tasks grouped by sample (standard contract order within), a few samples a chunk:
    small chunks keep both cores busy to the end of a round."""
    by_sample: dict[int, list[Task]] = {}
    for t in sorted(tasks, key=lambda t: (t.index, CONTRACTS.index(t.contract))):
        by_sample.setdefault(t.index, []).append(t)
    groups = list(by_sample.values())
    per = max(1, len(groups) // (jobs * 4)) if jobs > 1 else len(groups) or 1
    return [(settings, [t for g in groups[k : k + per] for t in g]) for k in range(0, len(groups), per)]


class _Runner:
    """Runs tasks in this process, or in ``pool`` (:func:`calasolve.scale.workers.worker_pool`,
    kept for the whole race so each worker's table stays warm).

    With a local pool, a worker that would wait for the last chunks of a round
    starts on the next round instead (``ahead``: its tasks for every contract
    still in the race).  Those results are used once the round is decided, and
    those of a contract that dropped out are thrown away, so the answer is the
    same as without.  (A Dask executor only maps: no work ahead.)"""

    def __init__(self, pool: Any, jobs: int) -> None:
        self.pool, self.jobs = pool, jobs
        self._ahead: list[tuple[list[Task], Any]] = []  # chunks started ahead, and their futures
        self._queued: list[tuple[Settings, list[Task]]] = []  # chunks that may be started ahead

    def run(
        self,
        settings: Settings,
        tasks: Sequence[Task],
        progress: Callable[[int], None] | None,
        ahead: Sequence[Task] = (),
    ) -> list[tuple[Task, Outcome, float]]:
        if self.pool is None or not hasattr(self.pool, "submit"):
            out: list[tuple[Task, Outcome, float]] = []
            chunks = _chunks(settings, tasks, self.jobs)
            parts = map(_work, chunks) if self.pool is None else self.pool.map(_work, chunks)
            for part in parts:
                out += part
                if progress:
                    progress(len(part))
            return out
        return self._run_ahead(settings, tasks, progress, ahead)

    def _run_ahead(
        self, settings: Settings, tasks: Sequence[Task], progress: Callable[[int], None] | None, ahead: Sequence[Task]
    ) -> list[tuple[Task, Outcome, float]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        wanted = set(tasks)
        mine: list[tuple[list[Task], Any]] = []
        kept: list[tuple[list[Task], Any]] = []
        for chunk, future in self._ahead:
            (mine if wanted.intersection(chunk) else kept).append((chunk, future))
        self._ahead = kept
        covered = {t for chunk, _ in mine for t in chunk}
        started = {t for chunk, _ in self._ahead for t in chunk} | covered
        self._queued = _chunks(settings, [t for t in ahead if t not in started], self.jobs)
        for _, chunk in _chunks(settings, [t for t in tasks if t not in covered], self.jobs):
            mine.append((chunk, self.pool.submit(_work, (settings, chunk))))
        useful = {f: sum(1 for t in chunk if t in wanted) for chunk, f in mine}
        pending = set(useful)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            if progress:
                progress(sum(useful[f] for f in done))
            busy = len(pending) + sum(1 for _, f in self._ahead if not f.done())
            while self._queued and busy < self.jobs:
                job = self._queued.pop(0)
                self._ahead.append((job[1], self.pool.submit(_work, job)))
                busy += 1
        return [r for _, future in mine for r in future.result() if r[0] in wanted]

    def discard(self) -> None:
        """Drop the work started ahead (the race is over): what has not started is cancelled."""
        for _, future in self._ahead:
            future.cancel()
        self._ahead, self._queued = [], []


def _is_dd_defence(contract: str, settings: Settings) -> bool:
    return contract in ("dividete", "scegliete") and settings.defender_policy == "dd"


def check_advise_arguments(
    hand: Any,
    *,
    seat: Any,
    samples: Any,
    seed: Any,
    jobs: Any,
    policy: Any,
    defender_policy: Any,
    contracts: Any,
    known: Any,
    rules: Any,
    candidates: Any,
    redeals: Any,
    tt_mb: Any,
    goal_mb: Any,
    progress: Any,
    precision: Any = DEFAULT_PRECISION,
    fixed: Any = False,
    thirds_samples: Any = DEFAULT_THIRDS_SAMPLES,
    on_round: Any = None,
) -> tuple[Mask, tuple[str, ...], dict[object, Mask]]:
    """Every argument of :func:`advise` checked, with the command line's limits
    (:mod:`calasolve.game.limits`): the hand's mask, the contracts (once each, in the
    order given) and the known cards.

    >>> check_advise_arguments("32AR.32A.3A.2A5", seat=0, samples=2**70, seed=0, jobs=1, policy="sampled",
    ...     defender_policy="dd", contracts=["solo"], known=None, rules=STANDARD, candidates=4, redeals=4,
    ...     tt_mb=32, goal_mb=128, progress=None)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: samples 1180591620717411303424: must be an integer from 1 to 1000000
    """
    from ..game.limits import (
        MAX_CANDIDATES,
        MAX_JOBS,
        MAX_REDEALS,
        MAX_SAMPLES,
        MAX_SEED,
        MAX_TABLE_MB,
        check_bool,
        check_callable,
        check_choice,
        check_instance,
        check_int,
        check_mask,
        check_optional_int,
    )

    if isinstance(hand, str):
        mask = parse_advice_hand(hand)
    else:
        mask = check_mask("hand", hand)
        if popcount(mask) != 12:
            raise ParameterError("hand", hand_name(mask), f"has {popcount(mask)} cards, a hand has 12")
    check_int("seat", seat, 0, 2)
    check_int("samples", samples, 1, MAX_SAMPLES)
    check_int("seed", seed, 0, MAX_SEED)
    check_optional_int("jobs", jobs, 1, MAX_JOBS)
    check_choice("policy", policy, SOLOIST_POLICIES)
    check_choice("defender_policy", defender_policy, DEFENDER_POLICIES)
    check_int("candidates", candidates, 1, MAX_CANDIDATES)
    check_int("redeals", redeals, 1, MAX_REDEALS)
    check_int("tt_mb", tt_mb, 1, MAX_TABLE_MB)
    check_int("goal_mb", goal_mb, 1, MAX_TABLE_MB)
    check_instance("rules", rules, Rules, "a Rules")
    check_callable("progress", progress)
    check_callable("on_round", on_round)
    check_int("thirds_samples", thirds_samples, 0, MAX_SAMPLES)
    check_bool("fixed", fixed)
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision <= 1:
        raise ParameterError("precision", precision, "must be a number above 0 and at most 1")
    if isinstance(contracts, str):
        raise ParameterError("contracts", contracts, "must be a sequence of contract names, not one string")
    try:
        chosen = tuple(dict.fromkeys(contracts))
    except TypeError:
        raise ParameterError("contracts", contracts, "must be a sequence of contract names") from None
    for c in chosen:
        if not isinstance(c, str) or c not in CONTRACTS:
            raise ParameterError("contracts", c, f"unknown contract (use {', '.join(CONTRACTS)})")
    if not chosen:
        raise ParameterError("contracts", contracts, "no contract to estimate")
    if known is not None and not isinstance(known, Mapping):
        raise ParameterError("known", known, "must be a mapping of a seat 0..2 or 'monte' to cards")
    pinned: dict[object, Mask] = {}
    for where, cards in (known or {}).items():
        if isinstance(where, bool) or where not in (0, 1, 2, MONTE):
            raise ParameterError("known", where, "a place must be a seat 0..2 or 'monte'")
        pinned[where] = check_mask("known", cards)
    check_known(mask, seat, pinned)
    return mask, chosen, pinned


def advise(
    hand: Mask | str,
    *,
    seat: int = 0,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = None,
    policy: str = "sampled",
    defender_policy: str = DEFAULT_DEFENDER_POLICY,
    contracts: Iterable[str] = CONTRACTS,
    known: Mapping[object, Mask] | None = None,
    rules: Rules = STANDARD,
    candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
    precision: float = DEFAULT_PRECISION,
    fixed: bool = False,
    thirds_samples: int = DEFAULT_THIRDS_SAMPLES,
    tt_mb: int = DEFAULT_TT_MB,
    goal_mb: int = DEFAULT_GOAL_MB,
    progress: Callable[[int], None] | None = None,
    on_round: Callable[[Race], None] | None = None,
    executor: Any = None,
) -> Advice:
    """Estimate every contract's chances for ``hand`` held by ``seat`` (see the module doc).

    ``samples`` is the cap per contract (with ``fixed``, every contract gets
    exactly that many); ``precision`` the 95% half-width wanted on the
    recommended contract's P(make); ``thirds_samples`` how many samples of each
    contract also get their exact final thirds.  ``policy`` is the soloist's
    exchange policy, ``defender_policy`` the defenders'.  ``progress`` is called
    with the number of sample evaluations finished since the last call,
    ``on_round`` with the race after each round.  ``executor``, when given, runs
    the samples instead of worker processes: an object with ``map(fn, items)``
    (results in order) and ``workers`` (a Dask cluster's, :mod:`calasolve.scale.cluster`).
    """
    mask, chosen, known = check_advise_arguments(
        hand, seat=seat, samples=samples, seed=seed, jobs=jobs, policy=policy, defender_policy=defender_policy,
        contracts=contracts, known=known, rules=rules, candidates=candidates, redeals=redeals, tt_mb=tt_mb,
        goal_mb=goal_mb, progress=progress, precision=precision, fixed=fixed, thirds_samples=thirds_samples,
        on_round=on_round,
    )
    settings = Settings(
        hand=mask, seat=seat, seed=seed, contracts=chosen, known=tuple(known.items()), rules=rules,
        soloist_policy=policy, defender_policy=defender_policy, candidates=candidates, redeals=redeals,
        tt_mb=tt_mb, goal_mb=goal_mb,
    )
    order = sorted(chosen, key=CONTRACTS.index)
    race = Race(
        [Track(c, min(payoff_levels(c, rules)), max(payoff_levels(c, rules))) for c in order],
        cap=samples, precision=precision, fixed=fixed,
    )
    thirds: dict[str, dict[int, int]] = {c: {} for c in order}
    cpu = {c: 0.0 for c in order}
    start = time.perf_counter()
    jobs = executor.workers if executor is not None else jobs or os.cpu_count() or 1
    with nullcontext(executor) if executor is not None else worker_pool(jobs) if jobs > 1 else nullcontext() as pool:
        runner = _Runner(pool, jobs)
        n = 0
        while not race.done:
            indices = range(n, min(n + ROUND, samples))
            n = indices.stop
            # a dd defence that is behind is asked only what can eliminate it: cheap refutations
            asked = [(t.contract, _is_dd_defence(t.contract, settings) and race.upper_only(t)) for t in race.active()]
            tasks = _round_tasks(indices, asked, thirds_samples, settings)
            # the next round's tasks as if nothing dropped out: what idle workers may start on
            ahead = _round_tasks(range(n, min(n + ROUND, samples)), asked, thirds_samples, settings)
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
                for t in race.tracks if _is_dd_defence(t.contract, settings) and t.below is None
                for i in range(min(thirds_samples, t.n))]
        if late:
            for task, outcome, seconds in runner.run(settings, late, None):
                if outcome.thirds is not None:
                    thirds[task.contract][task.index] = outcome.thirds
                cpu[task.contract] += seconds
    estimates = tuple(_estimate(t, thirds[t.contract], cpu[t.contract], settings) for t in race.tracks)
    recommendation, ties = race.result()
    return Advice(
        hand=mask, seat=seat, samples=samples, seed=seed, rules=rules,
        soloist_policy=policy, defender_policy=defender_policy,
        estimates=estimates, recommendation=recommendation, toss_up=ties,
        reason=_reason(race, recommendation, ties),
        seconds=time.perf_counter() - start,
        known={str(k): hand_name(v) for k, v in known.items()},
        candidates=candidates, redeals=redeals, precision=precision, fixed=fixed, thirds_samples=thirds_samples,
        race=race,
    )


#: Samples per round: every contract still in the race gets the next ROUND samples.
ROUND = 16


def _round_tasks(
    indices: range, asked: Sequence[tuple[str, bool]], thirds_samples: int, settings: Settings
) -> list[Task]:
    """The samples ``indices`` of each contract in ``asked`` (with whether only its upper end is asked)."""
    return [Task(i, c, thirds=i < thirds_samples and not _is_dd_defence(c, settings), upper=upper)
            for i in indices for c, upper in asked]


def _collect(
    results: Sequence[tuple[Task, Outcome, float]], race: Race, thirds: dict[str, dict[int, int]], cpu: dict[str, float]
) -> list[tuple[Task, Outcome]]:
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
            assert task.index == track.n, "samples arrive in order"
            track.add(outcome)
        fresh.append((task, outcome))
    return fresh


def _estimate(track: Track, thirds: dict[int, int], cpu: float, settings: Settings) -> ContractEstimate:
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
    if track.contract in ("solo", "chiamo"):
        policy = f"soloist:{settings.soloist_policy}"
    elif track.contract in ("dividete", "scegliete"):
        policy = f"defenders:{settings.defender_policy}"
    else:
        policy = "none"
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


def _reason(race: Race, recommendation: str, ties: Sequence[str]) -> str:
    """One sentence on why: the best estimate and what it is a toss-up with."""
    if recommendation == "pass":
        lead = race.leader([t for t in race.tracks if t.n])
        if lead is None:
            return "no contract was sampled"
        if ties:
            return (f"no contract is clearly above the pass line (best: {lead.contract} "
                    f"{lead.mean_payoff():+.2f} game points, a toss-up with passing)")
        return f"every contract's expected game points are below 0 (best: {lead.contract} {lead.mean_payoff():+.2f})"
    track = race.track(recommendation)
    lo, hi = track.payoff_interval()
    text = (f"{recommendation} has the highest expected game points: {track.mean_payoff():+.2f} "
            f"({lo:+.2f} to {hi:+.2f}), value {CONTRACT_VALUE[recommendation]} per defender")
    if ties:
        parts = []
        for other in ties:
            if other == "pass":
                parts.append("passing (not clearly above 0)")
            else:
                dlo, dhi = difference_interval(track, race.track(other))
                parts.append(f"{other} (within {max(abs(dlo), abs(dhi)):.2f} game points)")
        text += "; a toss-up with " + ", ".join(parts)
    return text
