"""The OpenSpiel game: pyspiel's random simulation test in several variants, an OpenSpiel
algorithm out of the box (MCTS, a random evaluation), the agents as bots, bad actions."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs calasolve[env]")

from calasolve.env.openspiel import GAME_NAME, AgentBot  # noqa: E402
from calasolve.env.agents import make_agent  # noqa: E402
from calasolve.env.observe import INFORMATION_STATE_SIZE, OBSERVATION_SIZE  # noqa: E402
from calasolve.game.errors import IllegalActionError, RuleError  # noqa: E402


@pytest.mark.parametrize("params", [{}, {"payment": "plus"}, {"auction": "open", "aggravations": "bids"},
                                    {"first_lead": "eldest", "stramazzo": "off"}], ids=str)
def test_random_sim_test(params: dict[str, str]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    # serialising replays the history at every step: a few deals each
    pyspiel.random_sim_test(game, num_sims=10 if not params else 3, serialize=True, verbose=False)


def test_the_game_describes_itself() -> None:
    game = pyspiel.load_game(GAME_NAME)
    assert game.num_players() == 3 and game.num_distinct_actions() == 62 and game.max_chance_outcomes() == 40
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [INFORMATION_STATE_SIZE]
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0
    plus = pyspiel.load_game(GAME_NAME, {"payment": "plus"})
    assert plus.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM and plus.min_utility() == 0
    with pytest.raises(RuleError):
        pyspiel.load_game(GAME_NAME, {"payment": "double"})


def test_mcts_and_a_random_evaluation_run() -> None:
    """The docs' snippet: OpenSpiel's MCTS bot and uniform random bots play whole deals."""
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.RandomState(1)
    randoms = [uniform_random.UniformRandomBot(p, rng) for p in range(3)]
    for _ in range(5):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), randoms, rng)
        assert sum(returns) == 0
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=10, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, randoms[1], randoms[2]], rng)
    assert len(returns) == 3 and sum(returns) == 0


def test_agents_play_as_bots() -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.RandomState(2)
    bots = [AgentBot(make_agent(name, seed=p), p) for p, name in enumerate(("heuristic", "random", "heuristic"))]
    for _ in range(5):
        assert sum(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)) == 0
    learned = [AgentBot(make_agent(name, seed=p), p)
               for p, name in enumerate(("learned:samples=2,candidates=2,redeals=2", "heuristic", "learned:samples=2"))]
    for _ in range(2):
        assert sum(evaluate_bots.evaluate_bots(game.new_initial_state(), learned, rng)) == 0


def test_bad_actions_raise_and_change_nothing() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    assert state.is_chance_node()
    for action, _ in state.chance_outcomes()[:36]:
        state.apply_action(action)
    before = state.serialize()
    for bad, error in ((0, IllegalActionError), (62, IllegalActionError), (-1, pyspiel.SpielError)):
        with pytest.raises(error):  # a card in the auction, out of range; pyspiel's own invalid action
            state.apply_action(bad)
        assert state.serialize() == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0])
    with pytest.raises(IllegalActionError, match="the deal is over"):
        state.apply_action(0)


def test_views_are_the_environment_views() -> None:
    from calasolve.env.observe import information_state_string, observation_tensor

    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.information_state_string(1) == information_state_string(state.core, 1)
    assert state.observation_tensor(2) == pytest.approx(observation_tensor(state.core, 2).tolist())
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 36 and len(clone.history()) == 37
