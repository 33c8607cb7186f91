"""The advisor's sampled deals played out by the settings' players (what a worker runs for the
played odds and ``advise --play pimc|both``).

The deal is the advisor's sample (:func:`calasolve.advice.samples.deal_sample`,
the same cards for every contract), the exchange the one the advisor's
policies make on it (the same generator, so the same draws and re-deals).
The ``dd`` defence is a choice among every exchange, not one exchange: the
defenders play the exchange that is double-dummy best for them (fewest
soloist thirds; in dividete for the draw the advisor's sample drew).  Then
three players play the cards, each seeing only what its seat sees (the
settings' ``players``: :class:`~calasolve.play.learned.LearnedPlayer`, whose
deals a worker plays together, :class:`~calasolve.play.target.ContractPimcPlayer`,
who plays for the contract, or :class:`~calasolve.play.players.PimcPlayer`, who
plays for thirds), and the finished deal is scored.

With ``dd``, the same deal is also judged as the default advice first judges
it (:func:`calasolve.advice.samples.evaluate`), so the two can be compared
deal by deal.  Its game points are then an interval where the null-window
tests leave them open (mostly a ``dd`` defence that refutes the contract:
x1 or worse); the advisor makes them exact only for a contract still in its
race, since that is a goal search per defence candidate, minutes on a deal.
Neither bounds the other: PIMC players err on both sides, so the soloist can
end above or below double dummy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..exchange.search import SearchLimits, search_exchange
from ..game.cards import Mask, last_trick_bonus
from ..game.exchange import Exchange, Hands, apply_exchange
from ..game.sampling import rng_for
from ..game.state import CONTRACTS, Contract, first_leader
from ..play.learned import LearnedPlayer, play_out_many
from ..play.players import PimcPlayer, Player, play_out
from ..play.target import ContractPimcPlayer
from ..types.playout import PlayedSample
from ..types.record import Record
from ..search import engines
from .policies import random_draw
from .samples import Task, deal_sample, evaluate, is_dd_defence, policy_exchange, sample_rng
from .settings import AdviceSettings

__all__ = ["PlayChunk", "PlayTask", "play_all", "play_sample", "play_work", "played_exchange", "seat_players"]


@dataclass(frozen=True)
class PlayTask:
    """Sample ``index`` of ``contract`` to play out (the settings' ``dd``: judge it double dummy too), with the
    exchange when the advisor's race already made it on the same sample (the same policy, the same draws)."""

    index: int
    contract: Contract
    exchange: Exchange | None = None


@dataclass(frozen=True)
class PlayChunk:
    """What a worker is sent: deals to play out and the settings they are played under."""

    settings: AdviceSettings
    tasks: tuple[PlayTask, ...]
    #: also judge the deals double dummy under these settings (their exchange policies; None: only
    #: when ``settings.dd``, under ``settings``)
    judge: AdviceSettings | None = None


def pimc_seed(settings: AdviceSettings, index: int, contract: Contract) -> int:
    """The PIMC players' seed for sample ``index`` of ``contract``: its own stream, apart from the deal's."""
    return int(rng_for(settings.seed, index, 100 + CONTRACTS.index(contract)).integers(2**63 - 1))


def played_exchange(
    settings: AdviceSettings, index: int, contract: Contract, hands: Hands, monte: Mask, solver: Any,
    made: Exchange | None = None,
) -> tuple[Exchange, int | None]:
    """The exchange sample ``index`` is played with, and the soloist's double-dummy thirds after it
    when finding it gave them (else None); ``made``: the exchange the race made on this sample under the
    same policy."""
    if made is not None:
        return made, None
    rng = sample_rng(settings, index, contract)
    if not is_dd_defence(contract, settings):
        return policy_exchange(settings, contract, hands, monte, solver, rng)
    seat = settings.seat
    # the draw first from the sample's generator, as the double-dummy judgement draws it
    given = Exchange(takes=random_draw(monte, seat, rng)) if contract == "dividete" else Exchange()
    leader = first_leader(contract, seat, settings.rules)
    found = search_exchange(hands, monte, contract, seat, leader, given=given, solver=solver, limits=SearchLimits(top=1))
    return found.exchange, found.value


def _prepared(task: PlayTask, settings: AdviceSettings, solver: Any) -> tuple[Record, int, int | None, float]:
    """Sample ``task.index``'s record after its exchange, its players' seed, the soloist's double-dummy thirds
    when finding the exchange gave them, and the CPU seconds it took."""
    start = time.process_time()
    hands, monte = deal_sample(settings, task.index)
    exchange, dd_thirds = played_exchange(settings, task.index, task.contract, hands, monte, solver, task.exchange)
    record = Record(hands=hands, monte=monte, contract=task.contract, soloist=settings.seat, rules=settings.rules,
                    exchange=exchange)
    return record, pimc_seed(settings, task.index, task.contract), dd_thirds, time.process_time() - start


def seat_players(settings: AdviceSettings, seed: int, solver: Any) -> list[Player]:
    """The three players of a play-out (the settings' ``players``), seeded alike."""
    if settings.players == "learned":
        return [LearnedPlayer(samples=settings.layouts, seed=seed, solver=solver) for _ in range(3)]
    kind = ContractPimcPlayer if settings.players == "contract" else PimcPlayer
    return [kind(samples=settings.layouts, seed=seed, solver=solver) for _ in range(3)]


def _scored(task: PlayTask, settings: AdviceSettings, solver: Any, goals: Any, judge: AdviceSettings | None,
            played: Record, dd_thirds: int | None, seconds: float) -> PlayedSample:
    """A played-out deal's sample, judged double dummy too under ``judge`` (or ``settings`` when its ``dd``
    is set)."""
    start = time.process_time()
    contract, seat = task.contract, settings.seat
    score = played.state().result(contract, settings.rules)
    dd_makes = low = high = None
    judge = judge if judge is not None else settings if settings.dd else None
    if judge is None:
        dd_thirds = None
    elif judge is not settings:
        # the judgement's own exchange (its policies), not the one played
        outcome = evaluate(Task(task.index, contract), judge, solver, goals)
        dd_makes, low, high, dd_thirds = bool(outcome.makes), outcome.payoff_low, outcome.payoff_high, None
    else:
        if dd_thirds is None:
            after, new_monte = apply_exchange(played.hands, played.monte, contract, seat, played.exchange)
            dd_thirds = int(solver.value(after, (), played.first_leader, seat, last_trick_bonus(new_monte)))
        outcome = evaluate(Task(task.index, contract), settings, solver, goals)
        dd_makes, low, high = bool(outcome.makes), outcome.payoff_low, outcome.payoff_high
    return PlayedSample(
        index=task.index, contract=contract, thirds=score.soloist_thirds, makes=score.makes, points=score.soloist_payoff,
        dd_thirds=dd_thirds, dd_makes=dd_makes, dd_points_low=low, dd_points_high=high,
        seconds=seconds + time.process_time() - start,
    )


def play_sample(
    task: PlayTask, settings: AdviceSettings, solver: Any, goals: Any, judge: AdviceSettings | None = None
) -> PlayedSample:
    """Play sample ``task.index`` of ``task.contract`` out with the settings' players on every seat (see the
    module doc); judge it double dummy too under ``judge`` (or ``settings`` when its ``dd`` is set)."""
    record, seed, dd_thirds, seconds = _prepared(task, settings, solver)
    start = time.process_time()
    played = play_out(record, seat_players(settings, seed, solver)).record
    return _scored(task, settings, solver, goals, judge, played, dd_thirds, seconds + time.process_time() - start)


def play_work(chunk: PlayChunk) -> list[PlayedSample]:
    """Play a chunk of tasks with this process's solver and goal search (a worker's share); the learned
    players play the chunk's deals together (:func:`~calasolve.play.learned.play_out_many`)."""
    settings = chunk.settings
    solver = engines.solver(settings.tt_mb)
    goals = engines.goal_search(settings.goal_mb)
    if settings.players != "learned":
        return [play_sample(t, settings, solver, goals, chunk.judge) for t in chunk.tasks]
    ready = [_prepared(t, settings, solver) for t in chunk.tasks]
    start = time.process_time()
    played = play_out_many([r for r, _, _, _ in ready], [seat_players(settings, seed, solver) for _, seed, _, _ in ready])
    share = (time.process_time() - start) / max(1, len(ready))
    return [_scored(t, settings, solver, goals, chunk.judge, p.record, dd, seconds + share)
            for t, (_, _, dd, seconds), p in zip(chunk.tasks, ready, played)]


def play_all(chunks: Sequence[PlayChunk], pool: Any, progress: Callable[[int], None] | None) -> list[PlayedSample]:
    """Every chunk's deals, in chunk order, in this process (``pool`` None) or on ``pool`` (anything with
    ``map``: a worker pool, a Dask executor); ``progress`` is called with each chunk's count."""
    out: list[PlayedSample] = []
    for part in map(play_work, chunks) if pool is None else pool.map(play_work, chunks):
        out += part
        if progress:
            progress(len(part))
    return out
