"""Solving a deal double-dummy: the Python face of the C core.

:func:`solve` takes a deal record (at any point of its play: before the
first lead, mid-play, mid-trick) or a :class:`~calasolve.game.state.PlayState`
and returns a frozen :class:`SolveResult`: the soloist's final thirds under
best play by both sides (the thirds already captured included), whether the
contract is made, the value of every legal card of the player to move and
one optimal line of play to the end.

The search itself runs in C (``calasolve.search._core``), without the GIL.  One
:class:`~calasolve.search._core.Solver` owns a transposition table that stays
valid across solves, so reuse it (``solver=``) when solving many positions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Mapping, Sequence

from . import engines
from ..game.cards import MAKE_THIRDS, Card, card_name, cards_of, hand_name, parse_card
from .engines import CoreSolver
from ..game.errors import CalasolveError, ParameterError
from ..game.state import CONTRACTS, Contract, PlayState, Trick, core_position
from ..game.limits import MAX_THIRDS, check_bool, check_instance, check_optional_int
from .payoff import goal_search, multiplier_of, payoff_card_values, payoff_line, payoff_value
from ..game.rules import STANDARD, Rules
from ..records.results import ExchangeResult

__all__ = ["CardValues", "Labels", "SolveOptions", "SolveResult", "default_solver", "final_card_values", "solve_payoff", "solve_state"]


#: What a solve maximises: the soloist's thirds, or their game points (docs/rules.md §8).
Objective = Literal["thirds", "payoff"]


class CardValues(dict):  # type: ignore[type-arg]
    """Each legal card's value, keyed by card id, best first for the player to move
    (ties in reading order).  A token looks a card up as well, and the repr
    writes tokens, so both forms read the same:

    >>> from calasolve.game.cards import parse_card
    >>> v = CardValues.ordered({parse_card("AS"): 14, parse_card("FS"): 11, parse_card("3B"): 14}, maximise=True)
    >>> v
    CardValues({'3B': 14, 'AS': 14, 'FS': 11})
    >>> v["AS"] == v[parse_card("AS")] == 14, "FS" in v, list(v) == [parse_card(t) for t in ("3B", "AS", "FS")]
    (True, True, True)

    A result's card values are frozen (:meth:`frozen`): read-only and hashable.

    >>> f = v.frozen()
    >>> f == v, hash(f) == hash(v.frozen())
    (True, True)
    >>> f[0] = 99
    Traceback (most recent call last):
    ...
    TypeError: these card values are read-only
    """

    _frozen = False

    def frozen(self) -> "CardValues":
        """A read-only, hashable copy (``self`` if it is one already)."""
        if self._frozen:
            return self
        out = CardValues(self)
        out._frozen = True
        return out

    def _check_writable(self) -> None:
        if self._frozen:
            raise TypeError("these card values are read-only")

    def __setitem__(self, card: Any, value: Any) -> None:
        self._check_writable()
        super().__setitem__(card, value)

    def __delitem__(self, card: Any) -> None:
        self._check_writable()
        super().__delitem__(card)

    def __ior__(self, other: Any) -> "CardValues":  # type: ignore[misc]
        self._check_writable()
        super().__ior__(other)
        return self

    def clear(self) -> None:
        self._check_writable()
        super().clear()

    def pop(self, *args: Any) -> Any:
        self._check_writable()
        return super().pop(*args)

    def popitem(self) -> tuple[Any, Any]:
        self._check_writable()
        return super().popitem()

    def setdefault(self, card: Any, default: Any = None) -> Any:
        self._check_writable()
        return super().setdefault(card, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._check_writable()
        super().update(*args, **kwargs)

    def __hash__(self) -> int:  # type: ignore[override]
        if not self._frozen:
            raise TypeError("unhashable type: 'CardValues' (only frozen card values are)")
        return hash(tuple(self.items()))

    @classmethod
    def ordered(cls, values: dict[Card, Any], *, maximise: bool) -> "CardValues":
        """``values`` best first: highest first when ``maximise`` (the soloist to move), else lowest."""
        items = sorted(values.items(), key=lambda kv: (kv[0] // 10, -(kv[0] % 10)))
        return cls(sorted(items, key=lambda kv: -kv[1] if maximise else kv[1]))

    @staticmethod
    def _key(card: Any) -> Any:
        if isinstance(card, str):
            return parse_card(card)
        return card

    def __getitem__(self, card: Any) -> Any:
        return super().__getitem__(self._key(card))

    def __contains__(self, card: object) -> bool:
        try:
            return super().__contains__(self._key(card))
        except CalasolveError:
            return False

    def get(self, card: Any, default: Any = None) -> Any:
        return self[card] if card in self else default

    def tokens(self) -> dict[str, Any]:
        """The same values keyed by card token, in the same order (the JSON form)."""
        return {card_name(c): v for c, v in self.items()}

    def __repr__(self) -> str:
        return f"CardValues({self.tokens()!r})"


def default_solver() -> CoreSolver:
    """The process-wide solver (:func:`calasolve.search.engines.solver`: a 32 MiB table unless
    another size was asked for), made on first use."""
    return engines.solver()


def final_card_values(solver: CoreSolver, state: PlayState) -> dict[Card, int]:
    """Each legal card of ``state``'s player to move with its value as the soloist's
    *final* thirds: the core's value (thirds from here on) plus the thirds captured."""
    captured = state.captured[state.soloist]
    return {c: v + captured for c, v in solver.card_values(*core_position(state)).items()}


@dataclass(frozen=True)
class SolveResult:
    """The double-dummy answer for one position.

    ``soloist_thirds`` is the soloist's final total (0..35) with the thirds
    already captured; ``cards`` maps each legal card of the player to move to
    that total if the card is played now and both sides then play
    optimally.  With a ``target`` the search only decides whether the soloist
    reaches it: ``reaches`` is set, ``cards`` maps each card to a bool and the
    exact values are ``None``.  ``cards`` is read-only, and a result is hashable.

    With ``objective="payoff"``, ``payoff`` is the soloist's game points under
    best play and ``multiplier`` its cappotto/stramazzo factor (and ``cards``
    are payoffs); ``exchange`` is the exchange search's
    :class:`~calasolve.records.results.ExchangeResult` when the record's
    exchange was searched.
    """

    soloist: int
    to_move: int | None
    captured: int
    soloist_thirds: int | None
    cards: Mapping[Card, Any]
    line: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    nodes: int
    seconds: float
    target: int | None = None
    reaches: bool | None = None
    #: the thirds that go with the last trick (3, plus the monte's cards)
    last_bonus: int = 0
    contract: Contract | None = None
    name: str | None = None
    record: int | None = None
    objective: Objective = "thirds"
    payoff: int | None = None
    multiplier: int | None = None
    exchange: ExchangeResult | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        cards = self.cards if isinstance(self.cards, CardValues) else CardValues(self.cards)
        object.__setattr__(self, "cards", cards.frozen())

    @property
    def extra(self) -> Mapping[str, Any]:
        """What the JSON adds for the payoff objective and a searched exchange (read-only)."""
        out: dict[str, Any] = {}
        if self.objective == "payoff":
            out.update(objective=self.objective, payoff=self.payoff, multiplier=self.multiplier)
        if self.exchange is not None:
            out["exchange"] = self.exchange.to_dict()
        return MappingProxyType(out)

    def __repr__(self) -> str:
        value = f"soloist_thirds={self.soloist_thirds}" if self.target is None else f"target={self.target}, reaches={self.reaches}"
        label = f"{self.name!r}, " if self.name else ""
        return (f"<SolveResult {label}{self.contract or 'deal'} for seat {self.soloist}: {value}, to_move={self.to_move}, "
                f"cards={CardValues(self.cards).tokens()}, line={' '.join(card_name(c) for c in self.line)!r}>")

    @property
    def soloist_points(self) -> int | None:
        return None if self.soloist_thirds is None else self.soloist_thirds // 3

    @property
    def makes(self) -> bool:
        if self.soloist_thirds is None:
            return bool(self.reaches) if self.target == MAKE_THIRDS else self._unknown_make()
        return self.soloist_thirds >= MAKE_THIRDS

    def _unknown_make(self) -> bool:
        raise CalasolveError(f"a target-{self.target} search does not say whether the contract (18 thirds) is made")

    def best_cards(self) -> list[tuple[Card, Any]]:
        """The legal cards, best first for the player to move (ties in card order)."""
        maximise = self.to_move == self.soloist
        items = sorted(self.cards.items(), key=lambda kv: (kv[0] // 10, -(kv[0] % 10)))
        return sorted(items, key=lambda kv: -kv[1] if maximise else kv[1])

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "SolveResult":
        """The result of :meth:`to_dict`'s form: ``SolveResult.from_dict(r.to_dict()) == r`` but for ``seconds``
        (to the microsecond) and, in a result without a line, ``last_bonus`` (the JSON gives it on the last
        trick only); ``exchange`` as :meth:`ExchangeResult.from_dict <calasolve.records.results.ExchangeResult.from_dict>`."""
        tricks = d["tricks"]
        payoff = d.get("objective") == "payoff"
        return cls(
            soloist=d["soloist"], to_move=d["to_move"], captured=d["captured"], soloist_thirds=d.get("soloist_thirds"),
            cards=CardValues((parse_card(c), v) for c, v in d["cards"].items()),
            line=tuple(parse_card(c) for c in d["line"]),
            tricks=tuple(Trick(t["leader"], _three(t["cards"]), t["winner"]) for t in tricks),
            nodes=d["nodes"], seconds=d["seconds"], target=d.get("target"), reaches=d.get("reaches"),
            last_bonus=tricks[-1]["bonus"] if tricks else 0, contract=d["contract"], name=d["name"], record=d["record"],
            objective="payoff" if payoff else "thirds", payoff=d["payoff"] if payoff else None,
            multiplier=d["multiplier"] if payoff else None,
            exchange=ExchangeResult.from_dict(d["exchange"]) if "exchange" in d else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``calasolve solve --json``."""
        out: dict[str, Any] = {
            "record": self.record,
            "name": self.name,
            "contract": self.contract,
            "soloist": self.soloist,
            "to_move": self.to_move,
            "captured": self.captured,
        }
        if self.target is None:
            out["soloist_thirds"] = self.soloist_thirds
            out["soloist_points"] = self.soloist_points
            out["makes"] = self.makes
        else:
            out["target"] = self.target
            out["reaches"] = self.reaches
            if self.target == MAKE_THIRDS:
                out["makes"] = self.reaches
        out["cards"] = {card_name(c): v for c, v in self.best_cards()}  # best first, as ``cards``
        out["line"] = [card_name(c) for c in self.line]
        out["tricks"] = [
            {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner, "thirds": t.thirds}
            for t in self.tricks
        ]
        if self.tricks:
            # the line plays to the end: its last trick is the deal's, and carries the bonus
            out["tricks"][-1]["bonus"] = self.last_bonus
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        out.update(self.extra)
        return out


def _three(tokens: Sequence[str]) -> tuple[Card, Card, Card]:
    """A trick's three cards from their tokens."""
    a, b, c = (parse_card(t) for t in tokens)
    return a, b, c


#: The methods of the solver contract (:class:`~calasolve.search.engines.CoreSolver`).
SOLVER_METHODS = ("value", "reaches", "card_values", "line", "analyse", "best_of", "best_of_limited", "reaches_batch",
                  "clear")


def check_solver(parameter: str, solver: Any) -> Any:
    """None, or a solver keeping the whole contract of :class:`~calasolve.search.engines.CoreSolver`."""
    if solver is not None and not all(callable(getattr(solver, m, None)) for m in SOLVER_METHODS):
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
