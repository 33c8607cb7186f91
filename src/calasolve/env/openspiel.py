"""The OpenSpiel game ``python_calabresella`` (pyspiel's Python game API; needs ``calasolve[env]``).

Importing this module registers it: ``pyspiel.load_game("python_calabresella")``, with the rules
variants as game parameters (``pyspiel.load_game("python_calabresella", {"payment": "plus"})``).
The deal is 36 chance nodes (a card each, uniform over the cards not dealt), dividete's draw
two more; the information-state and observation strings and tensors are
:mod:`calasolve.env.observe`'s; a state serialises as its history (pyspiel's default).
:class:`AgentBot` makes any agent of :mod:`calasolve.env.agents` a ``pyspiel.Bot``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..game.rules import VARIANTS, Rules
from ..game.state import CONTRACT_VALUE
from .actions import NUM_ACTIONS
from .agents import Agent
from .game import CHANCE_PLAYER, DEAL_STEPS, GameState
from .observe import (
    INFORMATION_STATE_SLICES, MAX_CALLS, OBSERVATION_SLICES, information_state_string, information_state_tensor,
    observation_string, observation_tensor,
)

__all__ = ["AgentBot", "CalabresellaGame", "CalabresellaObserver", "CalabresellaState", "GAME_NAME", "MAX_GAME_LENGTH"]

GAME_NAME = "python_calabresella"
#: A bound on the decisions in a deal: the calls, a declaration or chiamo's call, return and 4 discards, 36 cards.
MAX_GAME_LENGTH = MAX_CALLS + 6 + 36
#: The largest game points a seat wins or pays: scegliete (16) x stramazzo (3), twice for the soloist.
_TOP = 2 * 3 * CONTRACT_VALUE["scegliete"]


def _game_type(zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Calabresella (calasolve)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=3,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={name: values[0] for name, values in VARIANTS.items()},
    )


def _game_info(rules: Rules) -> Any:
    zero_sum = rules.payment == "zerosum"
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=40,
        num_players=3,
        min_utility=-float(_TOP) if zero_sum else 0.0,
        max_utility=float(_TOP) if zero_sum else float(_TOP // 2),
        utility_sum=0.0 if zero_sum else None,
        max_game_length=MAX_GAME_LENGTH,
    )


class CalabresellaGame(pyspiel.Game):  # type: ignore[misc]
    """The game for a ruleset: ``params`` maps rule names to values (docs/rules.md; standard when absent)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {k: str(v) for k, v in (params or {}).items()}
        self.rules = Rules().with_(given)  # an unknown name or value is a RuleError (a ValueError)
        super().__init__(_game_type(self.rules.payment == "zerosum"), _game_info(self.rules), {**self.rules.to_dict()})

    def new_initial_state(self) -> "CalabresellaState":
        return CalabresellaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "CalabresellaObserver":
        return CalabresellaObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_STEPS + 2


class CalabresellaState(pyspiel.State):  # type: ignore[misc]
    """A deal in play: :class:`~calasolve.env.game.GameState` (``core``) behind pyspiel's state API."""

    def __init__(self, game: CalabresellaGame) -> None:
        super().__init__(game)
        self.core = GameState(game.rules)

    def current_player(self) -> int:
        return self.core.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_actions() if player == self.core.current_player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE_PLAYER:
            return self.core.action_text(action) if self.core.is_chance else f"chance {action}"
        return self.core.action_text(action)

    def is_terminal(self) -> bool:
        return self.core.is_terminal

    def returns(self) -> list[float]:
        return list(self.core.returns())

    def __str__(self) -> str:
        return str(self.core)


class CalabresellaObserver:
    """pyspiel's observer: the information state (``perfect_recall``) or the observation of one seat,
    both with its private cards and the public ones (the only kinds this game provides)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_calabresella observes one seat with its private and the public information only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        slices = INFORMATION_STATE_SLICES if self.perfect_recall else OBSERVATION_SLICES
        self.tensor = np.zeros(sum(size for _, size, _ in slices), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, _ in slices:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: CalabresellaState, player: int) -> None:
        make = information_state_tensor if self.perfect_recall else observation_tensor
        self.tensor[:] = make(state.core, player)

    def string_from(self, state: CalabresellaState, player: int) -> str:
        make = information_state_string if self.perfect_recall else observation_string
        return make(state.core, player)


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """An agent of :mod:`calasolve.env.agents` playing seat ``player_id`` as a ``pyspiel.Bot``."""

    def __init__(self, agent: Agent, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent
        self._player_id = player_id

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        pass

    def step(self, state: Any) -> int:
        return self.agent.act(state.core)


pyspiel.register_game(_game_type(True), CalabresellaGame)
