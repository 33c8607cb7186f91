"""The PettingZoo AEC environment: PettingZoo's API and seed tests, masks, rewards, bad actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs calasolve[env]")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from calasolve.env import pettingzoo as pz  # noqa: E402
from calasolve.env.actions import NUM_ACTIONS  # noqa: E402
from calasolve.env.observe import OBSERVATION_SIZE  # noqa: E402
from calasolve.game.errors import IllegalActionError, RuleError  # noqa: E402


def test_pettingzoo_api_test() -> None:
    api_test(pz.env(), num_cycles=1000)
    api_test(pz.env(auction="open", aggravations="bids", payment="plus"), num_cycles=300)
    api_test(pz.env(observation="information_state"), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(pz.env, num_cycles=500)


def play(env: object, rng: np.random.Generator) -> dict[str, float]:
    """A random episode: each agent acts on its mask; the rewards summed per agent."""
    totals = {a: 0.0 for a in pz.AGENT_NAMES}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if termination or truncation:
            env.step(None)  # type: ignore[attr-defined]
            continue
        assert obs["observation"].shape == (OBSERVATION_SIZE,) and obs["action_mask"].shape == (NUM_ACTIONS,)
        legal = np.flatnonzero(obs["action_mask"])
        others = [env.observe(a)["action_mask"].sum() for a in pz.AGENT_NAMES if a != agent]  # type: ignore[attr-defined]
        assert len(legal) and others == [0, 0]
        env.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals


def test_episodes_pay_the_game_points() -> None:
    env = pz.env()
    rng = np.random.default_rng(1)
    for seed in range(60):
        env.reset(seed=seed)
        core = env.unwrapped.core
        totals = play(env, rng)
        assert core.is_terminal
        assert tuple(totals[a] for a in pz.AGENT_NAMES) == core.returns() and sum(totals.values()) == 0


def test_reset_with_a_seed_deals_the_same_cards() -> None:
    a, b = pz.env(), pz.env()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.unwrapped.core.dealt == b.unwrapped.core.dealt
    b.reset(seed=6)
    assert a.unwrapped.core.dealt != b.unwrapped.core.dealt


def test_bad_actions_raise_and_change_nothing() -> None:
    env = pz.env()
    env.reset(seed=3)
    agent = env.agent_selection
    before = (env.unwrapped.core.history[:], env.observe(agent)["observation"].tobytes())
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(AssertionError):  # out of the action space: PettingZoo's own wrapper
        env.step(NUM_ACTIONS)
    assert (env.unwrapped.core.history, env.observe(agent)["observation"].tobytes()) == before
    assert env.agent_selection == agent
    rng = np.random.default_rng(2)
    while not env.unwrapped.core.is_terminal:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    history = env.unwrapped.core.history[:]
    with pytest.raises(ValueError, match="only valid action is None"):  # a terminated agent acts
        env.step(0)
    for _ in pz.AGENT_NAMES:
        env.step(None)
    assert env.agents == []
    env.step(0)  # after the end: PettingZoo warns and ignores it
    assert env.unwrapped.core.history == history


def test_rules_render_and_errors() -> None:
    env = pz.env(render_mode="ansi", payment="plus")
    env.reset(seed=1)
    assert env.unwrapped.rules.payment == "plus"
    text = env.render()
    assert text.startswith("phase auction") and "monte as dealt" in text
    assert "hand " in env.unwrapped.observation_text(env.agent_selection)
    with pytest.raises(RuleError):
        pz.env(payment="double")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env(render_mode="rgb_array")


def test_the_learned_agent_plays_a_pettingzoo_episode() -> None:
    from calasolve.env.agents import make_agent

    env = pz.env()
    env.reset(seed=3)
    agents = {a: make_agent("learned:samples=2,candidates=2,redeals=2", seed=i) for i, a in enumerate(pz.AGENT_NAMES)}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        _, _, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        if termination or truncation:
            env.step(None)  # type: ignore[attr-defined]
            continue
        action = agents[agent].act(env.unwrapped.core)
        assert env.observe(agent)["action_mask"][action] == 1  # type: ignore[attr-defined]
        env.step(action)  # type: ignore[attr-defined]
    assert env.unwrapped.core.is_terminal
