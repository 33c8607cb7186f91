"""A game's decisions by seat (the review's), their names as the advice names options, a player's own option
valued beside the candidates, and a game replayed from its record."""

from __future__ import annotations

import numpy as np
import pytest

from calasolve.env.actions import PASS, bid_action
from calasolve.env.agents import make_agent
from calasolve.env.game import GameState
from calasolve.game.cards import cards_of
from calasolve.game.errors import CalasolveError, ParameterError
from calasolve.game.sampling import rng_for
from calasolve.seat.decision import decision_of, decisions_taken, option_name
from calasolve.seat.views import state_view


def played_game(seed: int, agent: str = "random") -> GameState:
    g = GameState()
    g.sample_chance(rng_for(seed, 0))
    agents = [make_agent(agent, seed=seed * 3 + s) for s in range(3)]
    rng = np.random.default_rng(seed)
    while not g.is_terminal:
        if g.is_chance:
            g.sample_chance(rng)
        else:
            g.apply(agents[g.current_player].act(g))
    return g


@pytest.mark.parametrize("seed", range(12))
def test_a_record_replays_its_game(seed: int) -> None:
    g = played_game(seed)
    if g.void:
        with pytest.raises(CalasolveError, match="once the play has begun"):
            g.record()
        return
    record = g.record()
    assert record.auction == tuple(c for _, c in g.auction.calls)
    replayed = GameState.from_record(record)
    assert replayed.dealt == g.dealt and replayed.history[36:] == g.history[36:]  # dealt in another order
    assert replayed.returns() == g.returns()


@pytest.mark.parametrize("seed", range(12))
def test_each_decision_of_a_seat_is_one_option_of_its_view(seed: int) -> None:
    g = played_game(seed)
    for seat in range(3):
        taken = decisions_taken(g, seat)
        actions = [a for _, acts in taken for a in acts]
        mine = [a for i, a in enumerate(g.history) if i >= 36 and _actor(g, i) == seat]
        assert actions == mine  # every action of the seat, in order, once
        for before, acts in taken:
            assert before.current_player == seat
            decision = decision_of(state_view(before, seat), include=acts)
            names = {o.name: o.actions for o in decision.options}
            assert names[option_name(before, acts)] == acts


def _actor(g: GameState, index: int) -> int:
    replay = GameState(g.rules)
    for action in g.history[:index]:
        replay.apply(action)
    return -1 if replay.is_chance else replay.current_player


def test_a_whole_set_of_discards_is_one_option() -> None:
    g = GameState()
    g.sample_chance(rng_for(3, 0))
    for a in (PASS, bid_action("solo"), PASS):
        g.apply(a)
    view = state_view(g, 1)
    hand = list(cards_of(g.held(1)))
    with pytest.raises(ParameterError, match="the whole set of discards"):
        decision_of(view, include=hand[:3])
    with pytest.raises(ParameterError, match="not an option here"):
        decision_of(view, include=[PASS])
    with pytest.raises(ParameterError, match="more actions than the decision takes"):
        decision_of(view, include=hand[:5])
    own = decision_of(view, candidates=1, include=hand[:4])
    assert own.options[-1].actions == tuple(hand[:4]) and own.options[-1].name.startswith("discard ")
