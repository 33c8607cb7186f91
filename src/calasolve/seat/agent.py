"""The table agent: bids, exchanges and plays by the advice for its seat's view (docs/seat.md).

At each decision :class:`TableAgent` reads what its seat knows (:func:`~.views.state_view`),
asks :func:`~.advice.advise_view` and takes the recommended option; a set of discards (or chiamo's
return and discards) is one decision, whose later actions follow the plan.  A decision with one
legal action is taken at once.  ``layouts`` sets the deals per option; ``budget`` (seconds) lets
the agent pick them instead, from the time its last advice of the same kind took a deal and an
option.  ``cards="learned"`` plays the cards by the learned player (milliseconds) and keeps the
advice for the calls and the exchange, where the auction's reach shows.

:func:`make_table_agent` knows every agent of :func:`calasolve.env.agents.make_agent` and
``table`` (options ``layouts``, ``budget``, ``cards``): the factory ``calasolve arena`` gives its
games.
"""

from __future__ import annotations

from typing import Any

from ..env.agents import AGENTS, Agent, LearnedAgent, fitted_discards, make_agent, parse_agent
from ..env.game import GameState
from ..game.cards import cards_of, mask_of
from ..game.errors import ParameterError
from ..game.limits import MAX_SAMPLES, check_int
from ..search.engines import CoreSolver
from .advice import advise_view
from .decision import decision_of
from .views import state_view

__all__ = ["ALL_AGENTS", "MIN_BUDGET_LAYOUTS", "TableAgent", "make_table_agent"]

#: Every agent :func:`make_table_agent` makes.
ALL_AGENTS = (*AGENTS, "table")
#: The fewest deals per option a budget leaves a decision.
MIN_BUDGET_LAYOUTS = 16


class TableAgent:
    """Takes the seat's-view advice's option at every decision (see the module doc)."""

    def __init__(self, seed: int = 0, *, layouts: int | None = None, budget: float | None = None,
                 cards: str = "advice", solver: CoreSolver | None = None, name: str = "table") -> None:
        check_int("seed", seed, 0, 2**63 - 1)
        if layouts is not None:
            check_int("layouts", layouts, 2, MAX_SAMPLES)
        if budget is not None and not (isinstance(budget, (int, float)) and budget > 0):
            raise ParameterError("budget", budget, "must be seconds above 0")
        if cards not in ("advice", "learned"):
            raise ParameterError("cards", cards, "use advice or learned")
        self.name, self.seed, self.layouts, self.budget, self.cards = name, seed, layouts, budget, cards
        self.solver = solver
        self.learned = LearnedAgent(seed=seed, solver=solver)
        #: the later actions of the seat's current decision, for the history they follow
        self.plan: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        #: seconds per deal and option of the last advice, by kind of decision
        self.rate: dict[str, float] = {}

    def _layouts(self, kind: str, options: int) -> int | None:
        if self.budget is None or kind not in self.rate:
            return self.layouts
        cap = self.layouts or MAX_SAMPLES
        fit = int(self.budget / (self.rate[kind] * max(1, options)))
        return max(min(MIN_BUDGET_LAYOUTS, cap), min(fit, cap))

    def act(self, state: GameState) -> int:
        if self.plan is not None and tuple(state.history) == self.plan[0] and self.plan[1]:
            action, rest = self.plan[1][0], self.plan[1][1:]
            self.plan = (tuple(state.history) + (action,), rest) if rest else None
            return action
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "play" and self.cards == "learned":
            return self.learned.act(state)
        view = state_view(state, state.current_player)
        decision = decision_of(view)
        layouts = self._layouts(decision.kind, len(decision.options))
        seed = (self.seed + len(state.history)) % 2**63
        advice = advise_view(view, layouts=layouts, seed=seed, dd_layouts=0, solver=self.solver, decision=decision)
        self.rate[decision.kind] = advice.seconds / (advice.layouts * len(decision.options))
        actions = next(o.actions for o in decision.options if o.name == advice.recommendation)
        if state.phase == "discard" and state.discards[state.current_player]:
            # taking over a set another hand began: the advised set, fitted to the discards already made
            actions = tuple(cards_of(fitted_discards(state, state.current_player, mask_of(actions))))
        self.plan = (tuple(state.history) + (actions[0],), actions[1:]) if len(actions) > 1 else None
        return actions[0]


_OPTIONS: dict[str, type] = {"layouts": int, "budget": float, "cards": str}


def make_table_agent(spec: str, seed: int | None = None, solver: CoreSolver | None = None) -> Agent:
    """The agent a spec names: ``table[:layouts=N,budget=SECONDS,cards=advice|learned]``, or any agent of
    :func:`calasolve.env.agents.make_agent`.

    >>> make_table_agent("table:layouts=32,cards=learned").layouts
    32
    >>> make_table_agent("table:n=4")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: agent 'table:n=4': unknown option 'n' of table (use layouts, budget, cards)
    """
    name, options = parse_agent(spec)
    if name != "table":
        return make_agent(spec, seed, solver)
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        kind = _OPTIONS.get(key)
        if kind is None:
            raise ParameterError("agent", spec, f"unknown option {key!r} of table (use {', '.join(_OPTIONS)})")
        try:
            kwargs[key] = kind(value) if kind is not str else value.lower()
        except ValueError:
            raise ParameterError("agent", spec, f"option {key}: {value!r} is not a number") from None
    return TableAgent(seed if seed is not None else 0, solver=solver, **kwargs)
