"""Deciding from the information-state tensor alone: the tensor read back is the seat's view, and the
policy's action is the one its agent takes on the real game, at every decision of whole games."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from calasolve.env.actions import PASS, bid_action
from calasolve.env.agents import make_agent
from calasolve.env.game import GameState
from calasolve.env.observe import information_state_tensor, observation_tensor
from calasolve.game.errors import ParameterError
from calasolve.game.rules import Rules
from calasolve.game.sampling import rng_for
from calasolve.game.state import CONTRACTS
from calasolve.seat.policy import TensorPolicy
from calasolve.seat.views import information_state_view, state_view

BIDS = Rules(aggravations="bids")
RULESETS = [Rules(), BIDS, Rules(first_lead="eldest", stramazzo="off"), Rules(auction="open", payment="plus")]


def games(rules: Rules, deals: int, seed: int) -> Any:
    """Every state of ``deals`` whole games by random agents after the deal (with BIDS, one a contract)."""
    for d in range(deals):
        g = GameState(rules)
        g.sample_chance(rng_for(seed + d, 0))
        if rules.aggravations == "bids":  # seat 0 plays each contract in turn
            g.apply(bid_action(CONTRACTS[d % len(CONTRACTS)]))
            while g.phase == "auction":
                g.apply(PASS)
        agents = [make_agent("random", seed=seed + d * 3 + s) for s in range(3)]
        while True:
            yield g
            if g.is_terminal:
                break
            if g.is_chance:
                g.sample_chance(rng_for(seed + d, 1))
            else:
                g.apply(agents[g.current_player].act(g))


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.describe())
def test_the_tensor_read_back_is_the_seats_view(rules: Rules) -> None:
    phases = set()
    for g in games(rules, 10, 40):
        phases.add(g.phase)
        for seat in range(3):
            assert information_state_view(information_state_tensor(g, seat), rules) == state_view(g, seat)
    assert phases >= {"play", "over"} | ({"call", "return", "discard", "split"} if rules.aggravations == "bids"
                                         else {"auction"})


def _decisions(rules: Rules, deals: int, seed: int) -> Any:
    for g in games(rules, deals, seed):
        if not g.is_terminal and not g.is_chance:
            yield g


@pytest.mark.parametrize("rules", [BIDS, Rules()], ids=lambda r: r.describe())
def test_the_learned_policy_acts_on_the_tensor_as_the_agent_on_the_game(rules: Rules) -> None:
    checked: set[str] = set()
    for i, g in enumerate(_decisions(rules, 6 if rules.aggravations == "bids" else 4, 70)):
        if g.phase == "play" and i % 3:  # a third of the cards keeps it short
            continue
        seat = g.current_player
        tensor = information_state_tensor(g, seat)
        policy = TensorPolicy("learned:samples=2,candidates=2,redeals=2", rules, seed=5)
        agent = make_agent("learned:samples=2,candidates=2,redeals=2", seed=5)
        assert policy(tensor, g.legal_actions()) == agent.act(g), (g.phase, g.history)
        checked.add(g.phase)
    assert checked >= ({"call", "return", "discard", "split", "play"} if rules.aggravations == "bids"
                       else {"auction", "declare", "play"})


def test_a_game_dealt_from_the_tensor_fits_what_the_seat_saw() -> None:
    for g in _decisions(BIDS, 5, 90):
        seat = g.current_player
        tensor = information_state_tensor(g, seat)
        dealt = TensorPolicy("random", BIDS, seed=1).state(tensor)
        assert np.array_equal(information_state_tensor(dealt, seat), tensor)
        assert dealt.legal_actions() == g.legal_actions()


def test_pettingzoo_observes_the_information_state_and_the_policy_plays_from_it() -> None:
    pz = pytest.importorskip("calasolve.env.pettingzoo")
    env = pz.env(observation="information_state")
    env.reset(seed=3)
    policy = TensorPolicy("learned:samples=2,candidates=2,redeals=2", seed=2)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, done, truncated, _ = env.last()
        if done or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == (2109,)
        env.step(policy(obs))
        steps += 1
    assert steps >= 36
    with pytest.raises(ValueError, match="observation 'state'"):
        pz.raw_env(observation="state")


def test_an_openspiel_game_is_played_from_its_information_state_tensors() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from calasolve.env.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"payment": "plus"})
    policies = [TensorPolicy("learned:samples=2,candidates=2,redeals=2", Rules(payment="plus"), seed=s) for s in range(3)]
    played = 0
    for deal in range(3):
        state, rng = game.new_initial_state(), rng_for(4, deal)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=chances)))
                continue
            player = state.current_player()
            # pyspiel refuses an illegal action
            state.apply_action(policies[player](state.information_state_tensor(player), state.legal_actions()))
        played += len(state.history()) >= 40 + 3 + 36  # the deal, the calls, the cards: played out
    assert played >= 1


def test_bad_tensors_and_agents_are_one_line_errors() -> None:
    g = GameState()
    g.sample_chance(rng_for(1, 0))
    policy = TensorPolicy("random")
    with pytest.raises(ParameterError, match="in which order the cards"):
        policy(observation_tensor(g, g.current_player))
    with pytest.raises(ParameterError, match="needs 2109"):
        policy(np.zeros(100))
    with pytest.raises(ParameterError, match="not that seat's turn"):
        policy(information_state_tensor(g, (g.current_player + 1) % 3))
    with pytest.raises(ParameterError, match="not those of the tensor's decision"):
        policy(information_state_tensor(g, g.current_player), [PASS])
    with pytest.raises(ParameterError, match="sees every card"):
        TensorPolicy("dd")
