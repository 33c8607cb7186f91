"""Duplicate matches between agents (``calasolve arena``; docs/env.md#the-arena).

Every deal is played under six seatings, so that the cards' luck cancels: two agents A and B in
the 2 + 1 arrangements (A alone in each seat against two B, then B alone against two A), or
three agents in the 6 permutations of the seats.  Every agent is seeded from the arena's seed
and the deal, and dividete's draw of a deal is the same under every seating.  An agent's game
points for a deal are the mean over the seats it held of their game points; the standings and
the paired comparisons are over the deals.

Batching lives here: :func:`arena` splits the work into games (a deal under a seating), hands
them to one ``map`` (the builtin, a worker pool's, Dask's; it must keep the order) and puts
each deal back together as its six games come in.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Callable, Iterable, Iterator, Optional, Sequence

from ..advice.stats import mean_se
from ..game.cards import Mask, cards_of, mask_of, popcount
from ..game.errors import ParameterError
from ..game.limits import check_int
from ..game.rules import STANDARD, Rules
from ..game.sampling import rng_for
from ..search import engines
from ..types.arena import ArenaComparison, ArenaDeal, ArenaGame, ArenaResult, ArenaStanding
from .agents import Agent, make_agent
from .game import GameState

__all__ = ["Deal", "GameJob", "arena", "play_game", "random_deals", "seatings", "summarise"]

#: A deal as dealt: the three hands and the monte.
Deal = tuple[tuple[Mask, Mask, Mask], Mask]
#: The chance stream of dividete's draw (the agents' streams are their own).
_DRAW_STREAM = 1


def random_deals(count: int, seed: int) -> list[Deal]:
    """``count`` uniformly random deals, deal ``d`` a function of ``seed`` and ``d`` only.

    >>> [popcount(h) for h in random_deals(2, 1)[1][0]]
    [12, 12, 12]
    """
    check_int("deals", count, 1, 10**7)
    out: list[Deal] = []
    for d in range(count):
        order = [int(c) for c in rng_for(seed, d).permutation(40)]
        h = [mask_of(order[12 * s:12 * s + 12]) for s in range(3)]
        out.append(((h[0], h[1], h[2]), mask_of(order[36:])))
    return out


def seatings(agents: int) -> list[tuple[int, int, int]]:
    """The six seatings of 2 agents (A alone in each seat, then B) or 3 (every permutation).

    >>> seatings(2)
    [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    """
    if agents == 2:
        alone = [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
        return alone + [(1 - a, 1 - b, 1 - c) for a, b, c in alone]
    if agents == 3:
        return [(p[0], p[1], p[2]) for p in permutations(range(3))]
    raise ParameterError("agents", agents, "an arena seats 2 or 3 agents")


#: Makes an agent of a spec, with a seed and a solver (None: its own), as :func:`~calasolve.env.agents.make_agent`.
AgentFactory = Callable[[str, Optional[int], Optional[engines.CoreSolver]], Agent]


@dataclass(frozen=True)
class GameJob:
    """One game of the arena, what a worker runs: the deal, the seating, the agents' specs and the options."""

    deal_index: int
    deal: Deal
    seating: tuple[int, int, int]
    agents: tuple[str, ...]
    rules: Rules
    seed: int
    tt_mb: int | None = None
    #: what makes an agent of a spec (a module-level function, so that a job pickles)
    factory: AgentFactory = make_agent


def play_game(job: GameJob) -> ArenaGame:
    """Play ``job``'s deal with its agents seated, from the auction to the game points."""
    solver = engines.solver(job.tt_mb)
    agent_seed = int(rng_for(job.seed, job.deal_index).integers(2**62))
    players = [job.factory(job.agents[job.seating[s]], agent_seed, solver) for s in range(3)]
    state = GameState(job.rules)
    for seat in range(3):  # chance deals the deal given, seat by seat
        for card in cards_of(job.deal[0][seat]):
            state.apply(card)
    draw = rng_for(job.seed, job.deal_index, _DRAW_STREAM)
    decisions = [0, 0, 0]
    seconds = [0.0, 0.0, 0.0]
    while not state.is_terminal:
        if state.is_chance:
            state.sample_chance(draw)
            continue
        seat = state.current_player
        start = time.process_time()
        action = players[seat].act(state)
        seconds[seat] += time.process_time() - start
        decisions[seat] += 1
        state.apply(action)
    result = state.result
    r = state.returns()
    return ArenaGame(job.deal_index, job.seating, r, state.contract, state.soloist, result.makes if result else None,
                     (decisions[0], decisions[1], decisions[2]), (seconds[0], seconds[1], seconds[2]))


def _check_deal(index: int, deal: Deal) -> None:
    hands, monte = deal
    if [popcount(h) for h in hands] != [12, 12, 12] or popcount(hands[0] | hands[1] | hands[2] | monte) != 40:
        raise ParameterError("deals", index, "each deal needs three hands of 12 cards and a monte of 4, all different")


def _points(agents: int, games: Sequence[ArenaGame]) -> tuple[float, ...]:
    """Each agent's game points per seat it held, over a deal's games."""
    total = [0.0] * agents
    seats = [0] * agents
    for game in games:
        for seat, who in enumerate(game.seating):
            total[who] += game.returns[seat]
            seats[who] += 1
    return tuple(t / n if n else 0.0 for t, n in zip(total, seats))


def arena(
    deals: Iterable[Deal], agents: Sequence[str], *, rules: Rules = STANDARD, seed: int = 0,
    map: Callable[..., Iterable[ArenaGame]] = map, tt_mb: int | None = None, factory: AgentFactory = make_agent,
) -> Iterator[ArenaDeal]:
    """Play every deal under :func:`seatings` with ``agents`` (specs of ``factory``, by default
    :func:`~calasolve.env.agents.make_agent`); yield each deal's games and points in order as soon as they are
    in.  The agents are checked first."""
    names = tuple(agents)
    for spec in names:
        factory(spec, None, None)  # an unknown agent or option fails before any game
    order = seatings(len(names))
    check_int("seed", seed, 0, 2**63 - 1)
    jobs: list[GameJob] = []
    for index, deal in enumerate(deals):
        _check_deal(index, deal)
        jobs += [GameJob(index, deal, seating, names, rules, seed, tt_mb, factory) for seating in order]
    games: list[ArenaGame] = []
    for game in map(play_game, jobs):
        games.append(game)
        if len(games) == len(order):
            yield ArenaDeal(games[0].deal, tuple(games), _points(len(names), games))
            games = []


def _confidence(mean: float, se: float) -> float:
    """The one-sided confidence that a difference of ``mean`` ± ``se`` is above 0 (normal)."""
    if se == 0:
        return 0.5 if mean == 0 else float(mean > 0)
    return 0.5 * (1 + math.erf(mean / se / math.sqrt(2)))


def summarise(agents: Sequence[str], deals: Sequence[ArenaDeal], *, rules: Rules = STANDARD, seed: int = 0,
              seconds: float = 0.0) -> ArenaResult:
    """The standings and the paired comparisons of the deals played (see :class:`~calasolve.types.arena.ArenaResult`)."""
    names = tuple(agents)
    standings = []
    for i, name in enumerate(names):
        mean, se = mean_se([d.points[i] for d in deals])
        games = [g for d in deals for g in d.games]
        solo = [g for g in games if g.soloist is not None and g.seating[g.soloist] == i]
        decisions = sum(n for g in games for s, n in enumerate(g.decisions) if g.seating[s] == i)
        cpu = sum(t for g in games for s, t in enumerate(g.seconds) if g.seating[s] == i)
        standings.append(ArenaStanding(name, mean, se, len(solo), sum(1 for g in solo if g.makes), decisions, cpu))
    comparisons = []
    for i, j in combinations(range(len(names)), 2):
        mean, se = mean_se([d.points[i] - d.points[j] for d in deals])
        comparisons.append(ArenaComparison(names[i], names[j], mean, se, _confidence(mean, se)))
    return ArenaResult(names, rules, seed, tuple(deals), tuple(standings), tuple(comparisons), seconds)
