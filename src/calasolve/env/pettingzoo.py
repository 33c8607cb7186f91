"""A PettingZoo AEC environment of one deal (needs ``calasolve[env]``).

``env(**options)`` returns it wrapped as PettingZoo's classic games are (out-of-range actions
assert, the API's order enforced); ``raw_env`` is the bare one.  Options: the rules variants
(``payment="plus"``, ``auction="open"``, ...) and ``render_mode`` (``"ansi"`` returns the text,
``"human"`` prints it), and ``observation="information_state"`` to observe the seat's information
state (``float32[2109]``, every call and card in order, as OpenSpiel's ``information_state_tensor``)
instead of its observation.  One deal is one episode: ``reset(seed=...)`` deals (and later draws
dividete's takes) from that seed.  The agents are ``seat_0``, ``seat_1``, ``seat_2``; each
observation is ``{"observation": float32[575], "action_mask": int8[62]}`` (docs/env.md), the mask
all zeros but for the agent to act; the rewards come at the end, the game points of the deal.
An illegal action raises :class:`~calasolve.game.errors.IllegalActionError` and changes nothing.
:attr:`raw_env.core` is the :class:`~calasolve.env.game.GameState`, for the agents of
:mod:`calasolve.env.agents`.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game.rules import Rules
from .actions import NUM_ACTIONS
from .game import GameState
from .observe import (
    INFORMATION_STATE_SIZE, OBSERVATION_SIZE, information_state_tensor, observation_string, observation_tensor,
)

__all__ = ["AGENT_NAMES", "env", "raw_env"]

AGENT_NAMES = ("seat_0", "seat_1", "seat_2")
#: What an agent observes: the tensor and its size.
OBSERVATIONS: dict[str, tuple[Callable[[GameState, int], np.ndarray], int]] = {
    "observation": (observation_tensor, OBSERVATION_SIZE),
    "information_state": (information_state_tensor, INFORMATION_STATE_SIZE),
}


def env(**options: Any) -> Any:
    """The environment, wrapped as PettingZoo's classic environments are (see the module doc)."""
    wrapped: Any = raw_env(**options)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]
    """One deal of Calabresella for three agents (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "calabresella_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, observation: str = "observation", **rules: str) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use ansi or human")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation {observation!r}: use {' or '.join(OBSERVATIONS)}")
        self.tensor, size = OBSERVATIONS[observation]
        self.rules = Rules().with_(rules)  # an unknown rule or value is a RuleError (a ValueError)
        self.render_mode = render_mode
        self.possible_agents = list(AGENT_NAMES)
        self.agents = list(AGENT_NAMES)
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENT_NAMES}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            })
            for a in AGENT_NAMES
        }
        self.core = GameState(self.rules)
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self.core = GameState(self.rules)
        self.core.sample_chance(self._rng)
        self.agents = list(AGENT_NAMES)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENT_NAMES[self.core.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENT_NAMES.index(agent)
        to_act = self.core.current_player == seat
        mask = self.core.legal_mask() if to_act else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.tensor(self.core, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.core.apply(action)  # an illegal action raises here, before anything changes
        self.core.sample_chance(self._rng)  # dividete's draw
        self._cumulative_rewards[agent] = 0.0
        if self.core.is_terminal:
            for seat, points in enumerate(self.core.returns()):
                self.rewards[AGENT_NAMES[seat]] = points
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = AGENT_NAMES[self.core.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observation_text(self, agent: str) -> str:
        """The agent's observation as text (:func:`calasolve.env.observe.observation_string`)."""
        return observation_string(self.core, AGENT_NAMES.index(agent))

    def render(self) -> str | None:
        text = str(self.core)
        if self.render_mode == "human":
            print(text)
            return None
        return text if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass
