"""Solving a play state double-dummy: the Python face of the C core.

:func:`solve_state` answers a :class:`~calasolve.game.state.PlayState` (at any
point of its play: before the first lead, mid-play, mid-trick) with a frozen
:class:`~calasolve.types.solution.SolveResult`: the soloist's final thirds
under best play by both sides (the thirds already captured included), the
value of every legal card of the player to move and one optimal line of play
to the end; :func:`solve_payoff` the same for game points.  What to ask is a
:class:`SolveOptions`, what to report of the position its :class:`Labels`.
The public entries are above: :func:`calasolve.search.position.solve_position`
for a position, :func:`calasolve.solve` for a record.

The search itself runs in C (``calasolve.search._core``), without the GIL.  One
solver (:class:`~calasolve.search.engines.CoreSolver`) owns a transposition
table that stays valid across solves, so reuse it (``solver=``) when solving
many positions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

from . import engines
from ..game.cards import Card, cards_of, hand_name
from .engines import CoreSolver
from ..game.errors import CalasolveError, ParameterError
from ..game.state import CONTRACTS, Contract, PlayState, Trick, core_position
from ..game.limits import MAX_THIRDS, check_bool, check_instance, check_optional_int
from .payoff import goal_search, multiplier_of, payoff_card_values, payoff_line, payoff_value
from ..game.rules import STANDARD, Rules
from ..types.solution import CardValues, Objective, SolveResult

__all__ = ["Labels", "OBJECTIVES", "SolveOptions", "default_solver", "final_card_values", "solve_payoff", "solve_state"]


def default_solver() -> CoreSolver:
    """The process-wide solver (:func:`calasolve.search.engines.solver`: a 32 MiB table unless
    another size was asked for), made on first use."""
    return engines.solver()


def final_card_values(solver: CoreSolver, state: PlayState) -> dict[Card, int]:
    """Each legal card of ``state``'s player to move with its value as the soloist's
    *final* thirds: the core's value (thirds from here on) plus the thirds captured."""
    captured = state.captured[state.soloist]
    return {c: v + captured for c, v in solver.card_values(*core_position(state)).items()}


def check_solver(parameter: str, solver: object) -> CoreSolver | None:
    """None, or a solver keeping the whole contract of :class:`~calasolve.search.engines.CoreSolver`."""
    if solver is not None and not isinstance(solver, CoreSolver):
        raise ParameterError(parameter, solver, "must be a Solver (or None for the default one)")
    return solver


def check_contract_rules(contract: Any, rules: Any) -> None:
    """``contract``: None or a contract's name; ``rules``: None or a :class:`~calasolve.game.rules.Rules`."""
    if contract is not None and (not isinstance(contract, str) or contract not in CONTRACTS):
        raise ParameterError("contract", contract, f"unknown contract (use {', '.join(CONTRACTS)})")
    if rules is not None:
        check_instance("rules", rules, Rules, "a Rules (or None for the standard rules)")


OBJECTIVES: tuple[Objective, ...] = ("thirds", "payoff")


@dataclass(frozen=True)
class SolveOptions:
    """What a solve is asked: a ``target`` (only "does the soloist reach it?"), every card's value
    (``all_cards``), a best ``line``, and the ``objective`` (thirds or game points); checked when made."""

    target: int | None = None
    all_cards: bool = True
    line: bool = True
    objective: Objective = "thirds"

    def __post_init__(self) -> None:
        if not isinstance(self.objective, str) or self.objective not in OBJECTIVES:
            raise ParameterError("objective", self.objective, "unknown objective (use thirds or payoff)")
        check_optional_int("target", self.target, 0, MAX_THIRDS)
        check_bool("all_cards", self.all_cards)
        check_bool("line", self.line)


@dataclass(frozen=True)
class Labels:
    """What a result says of the position it answers: its contract and rules (the payoff objective
    needs them), the record's name and number."""

    contract: Contract | None = None
    rules: Rules | None = None
    name: str | None = None
    record: int | None = None

    def fields(self) -> dict[str, Any]:
        """The :class:`SolveResult` fields these labels fill."""
        return {"contract": self.contract, "name": self.name, "record": self.record}


def solve_state(state: PlayState, labels: Labels, options: SolveOptions, solver: CoreSolver) -> SolveResult:
    """The double-dummy answer for ``state`` (checked), reported with ``labels``: what
    :func:`calasolve.search.position.solve_position` computes for a position."""
    state.check()
    target = options.target
    all_cards, line, objective = options.all_cards, options.line, options.objective
    if objective == "payoff":
        if target is not None:
            raise CalasolveError("a target asks about thirds; it does not go with the payoff objective")
        if labels.contract is None:
            raise CalasolveError("the payoff objective needs the contract")
        return solve_payoff(state, labels.contract, labels.rules, solver=solver, all_cards=all_cards, labels=labels)
    if target is not None and not 0 <= target <= 35:
        raise CalasolveError(f"target {target}: must be a number of thirds from 0 to 35")
    captured = state.captured[state.soloist]
    start = time.perf_counter()
    nodes = 0
    if state.is_over:
        final = captured
        return SolveResult(
            soloist=state.soloist, to_move=None, captured=captured,
            soloist_thirds=final if target is None else None, cards={}, line=(), tricks=(),
            nodes=0, seconds=0.0, target=target, reaches=None if target is None else final >= target, **labels.fields(),
        )
    args = core_position(state)
    cards: dict[Card, Any] = CardValues()
    best_line: list[Card] = []
    if target is None:
        if all_cards:
            if line:
                # the C core's one-call value + cards + line shares its work
                _, values, found = solver.analyse(*args)
                best_line = list(found)
            else:
                values = solver.card_values(*args)
            nodes += solver.nodes
            cards = {c: v + captured for c, v in values.items()}
            pick = max if state.to_move == state.soloist else min
            thirds: int | None = pick(cards.values())
            cards = CardValues.ordered(cards, maximise=state.to_move == state.soloist)
        else:
            thirds = solver.value(*args) + captured
            nodes += solver.nodes
        if line and not best_line:
            best_line = list(solver.line(*args))
            nodes += solver.nodes
        reaches = None
    else:
        need = target - captured
        reaches = solver.reaches(*args, need)
        nodes += solver.nodes
        if all_cards:
            for card in _legal(state):
                child = state.copy()
                child.play(card)
                if child.is_over:
                    cards[card] = child.captured[child.soloist] >= target
                else:
                    cards[card] = solver.reaches(*core_position(child), target - child.captured[child.soloist])
                    nodes += solver.nodes
            cards = CardValues.ordered(cards, maximise=state.to_move == state.soloist)
        thirds = None
    seconds = time.perf_counter() - start
    return SolveResult(
        soloist=state.soloist,
        to_move=state.to_move,
        captured=captured,
        soloist_thirds=thirds,
        cards=cards,
        line=tuple(best_line),
        tricks=_tricks_of(state, best_line),
        nodes=nodes,
        seconds=seconds,
        target=target,
        reaches=reaches,
        last_bonus=state.last_bonus,
        **labels.fields(),
    )


def solve_payoff(
    state: PlayState,
    contract: Contract,
    rules: Any = None,
    *,
    solver: CoreSolver | None = None,
    all_cards: bool = True,
    labels: Labels | None = None,
) -> SolveResult:
    """Solve for the soloist's game points (docs/rules.md §8) instead of thirds.

    The soloist maximises and the defenders minimise the soloist's payoff,
    cappotto and stramazzo included (:mod:`calasolve.search.payoff`).  ``cards``
    maps each legal card to its payoff; ``line`` is one payoff-optimal line
    and ``soloist_thirds`` the thirds the soloist ends with along it.
    ``payoff`` and ``multiplier`` are set, ``objective`` is ``"payoff"``; ``nodes`` counts
    the thirds solver's and the goal search's.
    """
    if not isinstance(state, PlayState):
        raise ParameterError("state", state, "must be a PlayState")
    if contract is None:
        raise ParameterError("contract", contract, "the payoff objective needs the contract")
    check_contract_rules(contract, rules)
    check_solver("solver", solver)
    state.check("state")
    rules = rules or STANDARD
    solver = solver or default_solver()
    start = time.perf_counter()
    nodes_before = solver.total_nodes + goal_search().total_nodes
    captured = state.captured[state.soloist]
    thirds = None
    card_thirds: dict[Card, int] = {}
    if not state.is_over:
        card_thirds = final_card_values(solver, state)
        pick = max if state.to_move == state.soloist else min
        thirds = pick(card_thirds.values())
    value = payoff_value(state, contract, rules, thirds=thirds)
    cards: dict[Card, Any] = {}
    if all_cards and not state.is_over:
        cards = CardValues.ordered(payoff_card_values(state, contract, rules, thirds=card_thirds),
                                   maximise=state.to_move == state.soloist)
    best_line = payoff_line(state, contract, value, rules, solver=solver) if not state.is_over else []
    replay = state.copy()
    for card in best_line:
        replay.play(card)
    return SolveResult(
        soloist=state.soloist,
        to_move=None if state.is_over else state.to_move,
        captured=captured,
        soloist_thirds=replay.captured[replay.soloist],
        cards=cards,
        line=tuple(best_line),
        tricks=_tricks_of(state, best_line),
        nodes=solver.total_nodes + goal_search().total_nodes - nodes_before,
        seconds=time.perf_counter() - start,
        last_bonus=state.last_bonus,
        objective="payoff",
        payoff=value,
        multiplier=multiplier_of(value, contract, rules),
        **(labels.fields() if labels is not None else {}),
    )


def _legal(state: PlayState) -> list[Card]:
    return list(cards_of(state.legal()))


def _tricks_of(state: PlayState, line: Sequence[Card]) -> tuple[Trick, ...]:
    """The tricks completed by playing ``line`` from ``state`` (the current trick's cards included)."""
    replay = state.copy()
    before = len(replay.tricks)
    for card in line:
        replay.play(card)
    return tuple(replay.tricks[before:])


def describe_hands(state: PlayState) -> str:
    """One line per seat: the cards still held."""
    return "\n".join(f"seat {s}: {hand_name(state.hands[s])}" for s in range(3))
