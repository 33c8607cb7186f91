"""An agent deciding from a seat's information-state tensor alone: the policy a researcher plugs into
OpenSpiel or PettingZoo (docs/env.md, "Deciding from the tensor").

:class:`TensorPolicy` reads the tensor back into the seat's :class:`~calasolve.types.view.View`
(:func:`~calasolve.seat.views.information_state_view`), deals one game that fits it
(:func:`~calasolve.seat.layouts.view_layouts`; the seat's own discards already made are made again), and
asks its agent there.  An agent that decides from its seat's view alone (the learned agent, whose tests
swap the cards its seat has not seen) gives the action it would give on the real game: the cards it cannot
see are not the real ones there, and nothing it reads tells.  ``dd`` sees every card, so it is refused.

>>> from calasolve.env.game import GameState
>>> from calasolve.env.observe import information_state_tensor
>>> from calasolve.game.sampling import rng_for
>>> g = GameState(); g.sample_chance(rng_for(3, 0))
>>> policy = TensorPolicy("learned", seed=1)
>>> policy(information_state_tensor(g, g.current_player)) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..env.agents import Agent
from ..env.game import GameState
from ..env.observe import tensor_slices
from ..game.cards import cards_of, mask_of
from ..game.errors import InternalError, ParameterError
from ..game.rules import STANDARD, Rules
from ..search.engines import CoreSolver
from .agent import make_table_agent
from .layouts import game_state, view_layouts
from .views import information_state_view

__all__ = ["TensorPolicy"]


class TensorPolicy:
    """``agent`` (a spec of :func:`~calasolve.seat.agent.make_table_agent`, or an agent) deciding from a seat's
    information-state tensor under ``rules`` (see the module doc); ``seed`` deals the game it decides in."""

    def __init__(self, agent: Agent | str = "learned", rules: Rules = STANDARD, seed: int = 0,
                 solver: CoreSolver | None = None) -> None:
        if isinstance(agent, str):
            if agent.split(":")[0].strip().lower() == "dd":
                raise ParameterError("agent", agent, "sees every card; a policy decides from one seat's information")
            agent = make_table_agent(agent, seed, solver)
        self.agent, self.rules, self.seed = agent, rules, seed

    def state(self, tensor: Sequence[float] | np.ndarray) -> GameState:
        """A game that fits the tensor's seat's view, at its decision."""
        x = np.asarray(tensor, dtype=np.float32).ravel()
        view = information_state_view(x, self.rules)
        g = game_state(view, view_layouts(view, 1, self.seed)[0])
        made = mask_of(int(c) for c in np.flatnonzero(tensor_slices(x)["discards"] > 0.5))
        for card in cards_of(made & ~g.discards[view.seat]):
            # the discards of a set the seat has begun (a view counts a set once it is whole), lowest first
            if g.phase != "discard" or g.current_player != view.seat:
                raise InternalError("the seat's discards do not fit the game dealt from its view")
            g.apply(card)
        if g.current_player != view.seat:
            raise ParameterError("information state", f"seat {view.seat}", "it is not that seat's turn to act")
        return g

    def __call__(self, observation: Mapping[str, Any] | Sequence[float] | np.ndarray,
                 legal: Sequence[int] | None = None) -> int:
        """The agent's action from the tensor, or from PettingZoo's observation (its ``action_mask`` is then
        checked against the tensor's decision, as ``legal``, OpenSpiel's legal actions, is when given)."""
        if isinstance(observation, Mapping):
            tensor = observation["observation"]
            if legal is None and "action_mask" in observation:
                legal = [int(a) for a in np.flatnonzero(np.asarray(observation["action_mask"]))]
        else:
            tensor = observation
        g = self.state(tensor)
        if legal is not None and sorted(int(a) for a in legal) != sorted(g.legal_actions()):
            raise ParameterError("legal actions", sorted(int(a) for a in legal), "are not those of the tensor's decision")
        return self.agent.act(g)
