"""Every option of a seat's decision valued by playing the rest of the deal out (docs/seat.md).

:func:`advise_view` draws deals from the bidding model's posterior for the view
(:func:`~.layouts.posterior_layouts`), takes each option on every deal, and plays the rest out:
the auction by the bidding model (each seat wants one contract, drawn once a deal given its calls
so far), the exchange by the learned policies, the cards by the learned players, many deals
together.  Every option meets the same deals and the same draws, so options are compared on
paired outcomes.  The seat's game points are bounded by the contracts' range, so each mean
gets the betting interval (valid for any number of deals); the recommended option's lead over
each other option gets one too, and the advice is ``clear`` when every lead is above 0.
For a card, the soloist's double-dummy final thirds on the same deals stand beside it.
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..advice.played import bounded_mean
from ..env.actions import PASS, bid_action
from ..env.agents import LearnedAgent
from ..env.game import GameState
from ..game.auction import AGGRAVATIONS
from ..game.cards import TOTAL_THIRDS, Card, card_thirds, mask_of
from ..game.errors import ParameterError
from ..game.limits import MAX_JOBS, MAX_SAMPLES, MAX_SEED, check_int
from ..game.rules import STANDARD, Rules
from ..game.sampling import rng_for
from ..game.state import Contract
from ..game.defaults import (
    DEFAULT_CARD_LAYOUTS, DEFAULT_DD_LAYOUTS, DEFAULT_ENDGAME, DEFAULT_EXCHANGE_ENDGAME, DEFAULT_SEAT_CANDIDATES,
    DEFAULT_SEAT_LAYOUTS,
)
from ..play.learned import LearnedPlayer, play_out_many
from ..search.engines import CoreSolver
from ..search.payoff import payoff_levels
from ..search.solving import default_solver, final_card_values
from ..types.record import Record
from ..scale.workers import worker_pool
from ..types.seat import Layout, OptionValue, SeatAdvice
from ..types.view import View, first_lead_places
from .bidding import BiddingModel
from .decision import Decision, Option, decision_of
from .layouts import game_state, posterior_layouts

__all__ = ["DEFAULT_ENDGAMES", "advise_view", "seat_range"]

#: The tricks the learned players search at the end of each play-out, by decision: a call as the hand advice
#: plays them; an exchange's six or eight candidates with half that (:data:`DEFAULT_EXCHANGE_ENDGAME`); a card's
#: by the network alone, or each play-out would cost a search per card left.
DEFAULT_ENDGAMES = {"call": DEFAULT_ENDGAME, "declare": DEFAULT_ENDGAME, "card": 0}
_ALPHA = 0.05


def seat_range(contracts: Sequence[Contract], rules: Rules = STANDARD) -> float:
    """The most game points a seat can win or lose in any of ``contracts`` (the soloist's payoff bounds the
    defenders' payments).

    >>> seat_range(["solo"]), seat_range(["chiamo", "solo", "solissimo", "dividete", "scegliete"])
    (12.0, 96.0)
    """
    return float(max((max(abs(x) for x in payoff_levels(c, rules)) for c in contracts), default=0))


def _continue(g: GameState, seat_wants: list[Contract | None], model: BiddingModel, agent: LearnedAgent,
              rng: np.random.Generator) -> None:
    """Take ``g`` to the play (or the end): the auction by the wanted contracts, chance by ``rng``, the
    exchange by the learned policies."""
    while g.phase not in ("play", "over"):
        if g.is_chance:
            g.sample_chance(rng)
        elif g.phase == "auction":
            g.apply(bid_action(call) if (call := model.call_for(seat_wants[g.current_player], g.auction)) != "pass" else PASS)
        elif g.phase == "declare":
            g.apply(bid_action(model.declaration(seat_wants[g.current_player])))
        else:
            g.apply(agent.act(g))


def _wants(g: GameState, model: BiddingModel, rng: np.random.Generator) -> list[Contract | None]:
    calls = [c for _, c in g.auction.calls]
    return [model.draw_want(g.dealt[s], s, calls, g.rules, rng) for s in range(3)]


def _scores(records: Sequence[Record], seat: int, endgame: int, seed: int) -> list[float]:
    """The seat's game points once each record is played out by the learned players."""
    players = [LearnedPlayer(endgame=endgame, seed=seed + s) for s in range(3)]
    out = []
    for deal in play_out_many(records, [players] * len(records)):
        r = deal.record
        out.append(float(r.state().result(r.contract, r.rules).payments[seat]))
    return out


@dataclass(frozen=True)
class _Chunk:
    """Some layouts' share of the play-outs, for one worker: the options on layouts ``first``, ``first + 1``, ..."""

    view: View
    layouts: tuple[Layout, ...]
    first: int
    options: tuple[Option, ...]
    model: BiddingModel
    seed: int
    endgame: int
    #: how many of the chunk's first layouts also get each card's double-dummy value (a card decision)
    dd_count: int = 0


Values = tuple[np.ndarray, dict[Card, list[float]]]


def _chunk_values(chunk: _Chunk, solver: CoreSolver | None = None) -> Values:
    """The seat's game points for each option (rows) on each of the chunk's layouts (columns), and for a card
    each legal card's double-dummy final thirds on the first ``dd_count`` layouts."""
    view, options, seed, endgame = chunk.view, chunk.options, chunk.seed, chunk.endgame
    starts = [game_state(view, x) for x in chunk.layouts]
    values = np.zeros((len(options), len(starts)))
    dd: dict[Card, list[float]] = {}
    if starts and starts[0].phase == "play":  # the play goes on from each deal's record: no game to copy
        records = [g.record() for g in starts]
        for k, option in enumerate(options):
            values[k] = _scores([r.with_(played=r.played + option.actions) for r in records], view.seat, endgame, seed)
        for g in starts[:chunk.dd_count]:
            assert g.play is not None
            for card, thirds in final_card_values(solver or default_solver(), g.play).items():
                dd.setdefault(card, []).append(float(thirds))
        return values, dd
    agent = LearnedAgent(seed=seed)
    for k, option in enumerate(options):
        games = []
        for i, start in enumerate(starts):
            g = start.clone()
            rng = rng_for(seed, 7, chunk.first + i)
            for action in option.actions:
                g.apply(action)
            _continue(g, _wants(g, chunk.model, rng), chunk.model, agent, rng)
            games.append(g)
        playing = [i for i, g in enumerate(games) if g.phase == "play"]  # the others passed out: 0 each
        for i, v in zip(playing, _scores([games[i].record() for i in playing], view.seat, endgame, seed)):
            values[k, i] = v
    return values, dd


def _values(chunk: _Chunk, jobs: int, solver: CoreSolver | None, pool: Executor | None) -> Values:
    """:func:`_chunk_values` of every layout, over ``jobs`` worker processes when there are several (``pool``'s,
    or a pool started for them)."""
    n = len(chunk.layouts)
    if jobs == 1 or n < 2 * jobs:
        return _chunk_values(chunk, solver)
    size = -(-n // (2 * jobs))
    parts = [dataclasses.replace(chunk, layouts=chunk.layouts[i:i + size], first=i,
                                 dd_count=max(0, min(size, chunk.dd_count - i))) for i in range(0, n, size)]
    if pool is not None:
        done = list(pool.map(_chunk_values, parts))
    else:
        with worker_pool(jobs) as started:
            done = list(started.map(_chunk_values, parts))
    dd: dict[Card, list[float]] = {}
    for _, part in done:
        for card, thirds in part.items():
            dd.setdefault(card, []).extend(thirds)
    return np.concatenate([v for v, _ in done], axis=1), dd


def _reachable(g: GameState, option: Option) -> list[Contract]:
    """The contracts the deal can still end in once ``option`` is taken (a void deal pays 0)."""
    g = g.clone()
    for action in option.actions:
        g.apply(action)
    if g.phase == "auction":
        ladder = list(g.auction.ladder)
        contracts = ladder[ladder.index(g.auction.high):] if g.auction.high else ladder
        if g.rules.aggravations == "declared" and "solissimo" in contracts:
            contracts += list(AGGRAVATIONS)
        return contracts  # type: ignore[return-value]
    if g.phase == "declare":
        return ["solissimo", *AGGRAVATIONS]  # type: ignore[list-item]
    return [] if g.contract is None else [g.contract]  # none: everyone passed


def _equals(view: View, decision: Decision) -> dict[int, int]:
    """Each card option's index mapped to the index of the lowest card it is equal to: the same suit, the same
    thirds, and every card between them the seat's own, played, or known to be in the monte."""
    places = first_lead_places(view)
    assert places is not None
    gone = mask_of(view.played) | places[1]
    index = {o.actions[0]: k for k, o in enumerate(decision.options)}
    out: dict[int, int] = {}
    for suit in range(4):
        rep: int | None = None
        for card in range(suit * 10, suit * 10 + 10):
            if card in index:
                if rep is None or card_thirds(rep) != card_thirds(card):
                    rep = card
                out[index[card]] = index[rep]
            elif not gone >> card & 1:
                rep = None  # a card still out between them: they are not equal
    return out


def advise_view(
    view: View,
    *,
    layouts: int | None = None,
    seed: int = 0,
    model: BiddingModel | None = None,
    candidates: int = DEFAULT_SEAT_CANDIDATES,
    endgame: int | None = None,
    dd_layouts: int = DEFAULT_DD_LAYOUTS,
    jobs: int = 1,
    pool: Executor | None = None,
    solver: CoreSolver | None = None,
    include: Sequence[int] = (),
    decision: Decision | None = None,
) -> SeatAdvice:
    """Advice for ``view``'s seat at its next decision: every option (:func:`~.decision.decision_of`) with the
    seat's mean game points over ``layouts`` deals from the bidding model's posterior (by default
    :data:`DEFAULT_SEAT_LAYOUTS`, :data:`DEFAULT_CARD_LAYOUTS` for a card), each played out by the learned
    players (their network for all but the last ``endgame`` tricks: by default :data:`DEFAULT_ENDGAMES`'s for
    the decision, :data:`DEFAULT_EXCHANGE_ENDGAME` for an exchange), best first; for a card, each card's double-dummy value on the
    first ``dd_layouts`` deals too.  ``jobs`` worker processes (``pool``'s when given) share the play-outs:
    the same answer for any number.  ``include``: the actions of one more option to value when the candidates
    lack it (a player's own choice; :func:`~.decision.decision_of`).  ``decision``: the caller's own
    ``decision_of(view, candidates, include)``, when it has made it already (the table agent)."""
    start = time.perf_counter()
    check_int("seed", seed, 0, MAX_SEED)
    check_int("jobs", jobs, 1, MAX_JOBS)
    check_int("dd_layouts", dd_layouts, 0, MAX_SAMPLES)
    if model is not None and not isinstance(model, BiddingModel):
        raise ParameterError("model", model, "must be a BiddingModel")
    model = model or BiddingModel()
    decision = decision if decision is not None else decision_of(view, candidates, include)
    card = decision.kind == "card"
    layouts = layouts if layouts is not None else DEFAULT_CARD_LAYOUTS if card else DEFAULT_SEAT_LAYOUTS
    endgame = endgame if endgame is not None else DEFAULT_ENDGAMES.get(decision.kind, DEFAULT_EXCHANGE_ENDGAME)
    check_int("layouts", layouts, 2, MAX_SAMPLES)
    check_int("endgame", endgame, 0, 12)
    drawn, proposed, resampled = posterior_layouts(view, layouts, seed, model)
    first = game_state(view, drawn[0])
    equal = _equals(view, decision) if card else {k: k for k in range(len(decision.options))}
    valued = sorted(set(equal.values()))
    chunk = _Chunk(view, tuple(drawn), 0, tuple(decision.options[k] for k in valued), model, seed, endgame,
                   dd_layouts if card else 0)
    valued_rows, dd_values = _values(chunk, jobs, solver, pool)
    rows = dict(zip(valued, valued_rows))
    values = np.stack([rows[equal[k]] for k in range(len(decision.options))])
    bounds = [seat_range(_reachable(first, o), view.rules) for o in decision.options]
    dd = dd_values if card and dd_layouts else None
    return _advice(view, decision, values, bounds, dd, (layouts, proposed, resampled, seed, endgame, time.perf_counter() - start))


def _mean_interval(values: Sequence[float], bound: float) -> tuple[float, float]:
    """The betting interval of the mean of values within [-bound, bound] (a point when the bound is 0)."""
    if bound == 0:
        return 0.0, 0.0
    return bounded_mean(values, -bound, bound, _ALPHA)


def _advice(view: View, decision: Decision, values: np.ndarray, bounds: Sequence[float],
            dd: dict[int, list[float]] | None, run: tuple[int, int, int, int, int, float]) -> SeatAdvice:
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    options = []
    for k, option in enumerate(decision.options):
        diff = values[best] - values[k]
        spread = bounds[best] + bounds[k]
        behind = (0.0, 0.0) if k == best else _mean_interval(diff.tolist(), spread)
        dd_values = dd[option.actions[0]] if dd is not None else None
        options.append(OptionValue(
            option.name, float(means[k]), _mean_interval(values[k].tolist(), bounds[k]),
            float(diff.mean()), behind,
            None if dd_values is None else float(np.mean(dd_values)),
            None if dd_values is None else bounded_mean(dd_values, 0, TOTAL_THIRDS, _ALPHA),
        ))
    order = sorted(range(len(options)), key=lambda k: (-means[k], k))
    clear = all(options[k].behind_95[0] > 0 for k in order[1:])
    layouts, proposed, resampled, seed, endgame, seconds = run
    return SeatAdvice(view.name, view.seat, decision.kind, tuple(options[k] for k in order),
                      decision.options[best].name, clear, layouts, proposed, resampled, seed,
                      f"learned players (network, then {endgame} tricks of PIMC)" if endgame else "learned players (network)",
                      seconds)
