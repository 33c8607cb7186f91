"""One sample of the bid advisor: the task and a chunk of them, dealing the sample, carrying out the
contract's exchange under the policies and judging it (what a worker process runs)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..exchange.candidates import defence_candidates
from ..game.cards import (
    Mask,
    last_trick_bonus,
)
from ..game.defaults import DEFAULT_GOAL_MB
from ..game.exchange import Exchange, Hands, apply_exchange
from ..game.sampling import deal_rest, rng_for
from ..game.state import CONTRACTS, DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, Contract, first_leader
from ..search import engines
from .outcome import UPPER_BUDGET, DefenceOracle, Oracle, SampleOutcome, PositionOracle, judge
from .learned_exchange import learned_defender_exchange, learned_soloist_exchange
from .defence import sampled_defender_exchange
from .policies import bonus_after_exchange, heuristic_exchange, random_draw, soloist_policy
from .settings import AdviceSettings


@dataclass(frozen=True)
class Task:
    """One sample of one contract to evaluate: ``refine`` makes its game points exact,
    ``thirds`` computes its exact final thirds too."""

    index: int
    contract: Contract
    refine: bool = False
    thirds: bool = False
    #: only the upper end of the game points is asked for (:meth:`calasolve.advice.race.Race.upper_only`)
    upper: bool = False


def deal_sample(settings: AdviceSettings, index: int) -> tuple[Hands, Mask]:
    """Sample ``index``: the same deal for every contract (common random numbers)."""
    return deal_rest(settings.hand, settings.seat, rng_for(settings.seed, index), dict(settings.known))


def oracle_for(
    task: Task, settings: AdviceSettings, solver: Any, goals: Any, hints: dict[int, Hands]
) -> tuple[Oracle, int | None, Exchange | None]:
    """The questions about sample ``task.index`` after ``task.contract``'s exchange under
    the settings' policies, the final thirds when the exchange search already
    found them (the soloist's ``dd``), and the exchange (None under the ``dd``
    defence).  ``hints`` carries, by sample, the hands of the defenders'
    refuting dividete exchange to their scegliete, where it is one of the
    candidates (the drawn split), tried first."""
    seat, rules, contract = settings.seat, settings.rules, task.contract
    hands, monte = deal_sample(settings, task.index)
    rng = sample_rng(settings, task.index, contract)
    leader = first_leader(contract, seat, rules)
    if is_dd_defence(contract, settings):
        takes = random_draw(monte, seat, rng) if contract == "dividete" else None
        first = hints.get(task.index) if contract == "scegliete" else None
        # the plain-card-sense exchange refutes most contracts that fail: tried first
        plain, _ = apply_exchange(hands, monte, contract, seat, heuristic_exchange(hands, monte, seat, takes))
        probes = [(h, bonus_after_exchange(hands, monte, h)) for h in ([first] if first is not None else []) + [plain]]
        return DefenceOracle(
            solver, goals, lambda: defence_candidates(hands, monte, contract, seat, takes=takes, first=first),
            probes, leader, seat, contract, rules, budget=UPPER_BUDGET if task.upper else None,
        ), None, None
    exchange, known = policy_exchange(settings, contract, hands, monte, solver, rng)
    played, new_monte = apply_exchange(hands, monte, contract, seat, exchange)
    bonus = last_trick_bonus(new_monte)
    return PositionOracle(solver, goals, played, leader, seat, bonus, contract, rules), known, exchange


def sample_rng(settings: AdviceSettings, index: int, contract: Contract) -> np.random.Generator:
    """The generator of sample ``index``'s exchange in ``contract`` (the policies' draws and re-deals)."""
    return rng_for(settings.seed, index, 1 + CONTRACTS.index(contract))


def policy_exchange(
    settings: AdviceSettings, contract: Contract, hands: Hands, monte: Mask, solver: Any, rng: np.random.Generator
) -> tuple[Exchange, int | None]:
    """The exchange of a sample where the policies make one (all but the ``dd`` defence, which
    is a choice among every exchange), and the final thirds when choosing it found them."""
    seat = settings.seat
    if contract == "solissimo":
        return Exchange(), None
    if contract in SOLOIST_EXCHANGE and settings.policy == "learned":
        return learned_soloist_exchange(hands, monte, contract, seat, settings.rules), None
    if contract in SOLOIST_EXCHANGE:
        policy = soloist_policy(settings.policy, candidates=settings.candidates, redeals=settings.redeals)
        return policy.exchange(hands, monte, contract, seat, settings.rules, solver, rng)
    # the draw first from the sample's generator, the same under every defender policy
    takes = random_draw(monte, seat, rng) if contract == "dividete" else None
    if settings.defender_policy == "learned":
        return learned_defender_exchange(hands, monte, contract, seat, takes), None
    if settings.defender_policy == "sampled":
        return sampled_defender_exchange(hands, monte, contract, seat, settings.rules, solver, rng, takes=takes,
                                         candidates=settings.candidates, redeals=settings.redeals), None
    return heuristic_exchange(hands, monte, seat, takes), None


def evaluate(task: Task, settings: AdviceSettings, solver: Any, goals: Any, hints: dict[int, Hands] | None = None) -> SampleOutcome:
    """Deal sample ``task.index``, carry out the contract's exchange, judge it
    (:func:`calasolve.advice.outcome.judge`): a null-window test at 18 thirds and one
    or two more for the multiplier, unless the task asks for more."""
    hints = {} if hints is None else hints
    oracle, known, exchange = oracle_for(task, settings, solver, goals, hints)
    outcome = judge(oracle, task.contract, settings.rules, refine=task.refine, thirds=task.thirds, known=known,
                    upper=task.upper)
    if exchange is not None:
        outcome = replace(outcome, exchange=exchange)
    if isinstance(oracle, DefenceOracle) and task.contract == "dividete" and oracle.refuter is not None:
        hints[task.index] = oracle.refuter
    return outcome


def worker_goals(goal_mb: int = DEFAULT_GOAL_MB) -> Any:
    """This process's goal search (:func:`calasolve.search.engines.goal_search`) with a memo of
    ``goal_mb`` MiB.  A memo the machine cannot allocate is a ``ParameterError``
    naming ``goal_mb``."""
    return engines.goal_search(goal_mb)


@dataclass(frozen=True)
class Chunk:
    """What a worker is sent: tasks and the settings they are evaluated under.  A chunk holds
    whole samples, their contracts in the standard order: a sample's dividete comes before
    its scegliete, and the table is warm from the same deal."""

    settings: AdviceSettings
    tasks: tuple[Task, ...]


def work(chunk: Chunk) -> list[tuple[Task, SampleOutcome, float]]:
    """Evaluate a chunk of tasks with this process's solver."""
    settings, tasks = chunk.settings, chunk.tasks
    solver = engines.solver(settings.tt_mb)
    goals = engines.goal_search(settings.goal_mb)
    hints: dict[int, Hands] = {}
    out = []
    for task in tasks:
        start = time.process_time()  # CPU time: the cost of a sample whatever else runs
        outcome = evaluate(task, settings, solver, goals, hints)
        out.append((task, outcome, time.process_time() - start))
    return out


def is_dd_defence(contract: Contract, settings: AdviceSettings) -> bool:
    return contract in DEFENDER_EXCHANGE and settings.defender_policy == "dd"
