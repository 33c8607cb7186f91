"""The decision a seat's view faces, and its options.

The decision is the next action the view's seat takes (docs/seat.md, "Decisions"): a call in
the auction, keeping or aggravating a won solissimo (``aggravations=declared``), chiamo's called
card, the soloist's return with its discards, discards, scegliete's split, or a card.  Calls,
the declaration and cards offer every legal option; the exchange offers its strongest
candidates: the learned policy's choice and the best by the static estimate, no two alike.

>>> from calasolve.game.cards import parse_hand
>>> from calasolve.types.view import View
>>> d = decision_of(View(2, parse_hand("2AC7.R7.R4.RC76"), calls=("chiamo", "pass")))
>>> d.kind, [o.name for o in d.options]
('call', ['pass', 'solo', 'solissimo'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..advice.defence import defender_discard_choices, split_candidates
from ..advice.policies import distinct_choices
from ..env.actions import action_contract, bid_action, split_action
from ..env.agents import LearnedAgent
from ..env.game import MONTE as GAME_MONTE
from ..env.game import GameState
from ..game.cards import FULL_DECK, Mask, card_name, cards_name, cards_of, display_order, popcount
from ..game.defaults import DEFAULT_SEAT_CANDIDATES
from ..game.errors import CalasolveError, IllegalActionError, ParameterError
from ..game.limits import check_int
from ..types.view import View
from .layouts import game_state, view_layouts

__all__ = ["CALLS_PER_SUIT", "KIND_OF_PHASE", "Decision", "Option", "decision_of", "decisions_taken", "option_name"]

#: The kind of decision (:data:`~calasolve.types.seat.DECISIONS`) a seat faces in each phase of the game.
KIND_OF_PHASE = {"auction": "call", "declare": "declare", "call": "chiamo-call", "return": "return",
                 "discard": "discards", "split": "split", "play": "card"}
#: The chiamo calls offered in each suit: the highest cards the soloist lacks.
CALLS_PER_SUIT = 2


@dataclass(frozen=True)
class Option:
    """One option: its name as the seat would say it, and the game's actions that take it."""

    name: str
    actions: tuple[int, ...]


@dataclass(frozen=True)
class Decision:
    """The seat's next decision (a :data:`~calasolve.types.seat.DECISIONS` kind) and its options."""

    kind: str
    seat: int
    options: tuple[Option, ...]


def _discards(mask: Mask) -> tuple[int, ...]:
    return tuple(cards_of(mask))  # ascending: the order the game takes a set of discards in


def _set_name(mask: Mask) -> str:
    return cards_name(display_order(mask))


def _unique(options: list[Option]) -> tuple[Option, ...]:
    seen: set[tuple[int, ...]] = set()
    out = []
    for o in options:
        if o.actions not in seen:
            seen.add(o.actions)
            out.append(o)
    return tuple(out)


def _chiamo_calls(hand: Mask) -> tuple[Option, ...]:
    out: list[Option] = []
    for suit in range(4):
        lacking = [c for c in range(suit * 10 + 9, suit * 10 - 1, -1) if not hand >> c & 1]
        out.extend(Option(card_name(c), (c,)) for c in lacking[:CALLS_PER_SUIT])
    return tuple(out)


def _soloist(g: GameState, seat: int, agent: LearnedAgent, count: int) -> tuple[Option, ...]:
    mine = g.held(seat) | g.discards[seat]
    returns = g.phase == "return"
    holder = g.call_from if returns and g.call_from != GAME_MONTE else None
    ret, learned = agent.soloist_plan(g, seat)
    plans = [(ret if returns else None, learned)]
    plans += distinct_choices(mine, g.call if returns else None, holder, FULL_DECK & ~mine, count)
    out: list[Option] = []
    for r, discards in plans:
        if returns and r is not None:
            out.append(Option(f"return {card_name(r)}, discard {_set_name(discards)}", (r, *_discards(discards))))
        elif not returns:
            out.append(Option(f"discard {_set_name(discards)}", _discards(discards)))
    return _unique(out)[:count]


def _defender(g: GameState, seat: int, agent: LearnedAgent, count: int) -> tuple[Option, ...]:
    assert g.soloist is not None
    mine = g.held(seat) | g.discards[seat]
    partner = 3 - seat - g.soloist
    seen = g.takes[partner] if g.contract == "scegliete" else 0
    sets = [agent.defender_discards(g, seat)]
    sets += defender_discard_choices(mine, seen, popcount(g.takes[seat]), count)
    return _unique([Option(f"discard {_set_name(d)}", _discards(d)) for d in sets])[:count]


def _split_options(g: GameState, seat: int, agent: LearnedAgent, count: int) -> tuple[Option, ...]:
    takes = [agent.split(g, seat)] + split_candidates(g.held(seat), g.monte, count)
    return _unique([Option(f"take {_set_name(t) or '-'}, partner {_set_name(g.monte & ~t) or '-'}",
                           (split_action(g.monte, t),)) for t in takes])[:count]


def option_name(g: GameState, actions: tuple[int, ...]) -> str:
    """The name of the option that takes ``actions`` at ``g`` (the seat's whole decision from there), as the
    decision's options are named: a player's own choice can be matched to the advice's options by it.

    >>> from calasolve.env.actions import PASS
    >>> from calasolve.game.sampling import rng_for
    >>> g = GameState(); g.sample_chance(rng_for(1, 0))
    >>> option_name(g, (PASS,)), option_name(g, (bid_action("solo"),))
    ('pass', 'solo')
    """
    phase, first = g.phase, actions[0]
    if phase in ("auction", "declare"):
        return action_contract(first) or "pass"
    if phase in ("call", "play"):
        return card_name(first)
    if phase == "split":
        k = first - split_action(g.monte, 0)
        t = sum(1 << c for i, c in enumerate(cards_of(g.monte)) if k >> i & 1)
        return f"take {_set_name(t) or '-'}, partner {_set_name(g.monte & ~t) or '-'}"
    if phase == "return":
        return f"return {card_name(first)}, discard {_set_name(sum(1 << c for c in actions[1:]))}"
    return f"discard {_set_name(sum(1 << c for c in actions))}"


def decisions_taken(g: GameState, seat: int) -> list[tuple[GameState, tuple[int, ...]]]:
    """Each decision ``seat`` took in ``g``'s history: the game where it faced it and the actions that took it
    (chiamo's return with its discards, a set of discards: one decision, as :func:`decision_of` offers them).

    >>> from calasolve.env.actions import PASS
    >>> from calasolve.game.sampling import rng_for
    >>> g = GameState(); g.sample_chance(rng_for(1, 0))
    >>> for a in (PASS, bid_action("solo"), PASS): g.apply(a)
    >>> [(before.phase, len(actions)) for before, actions in decisions_taken(g, 1)]
    [('auction', 1)]
    """
    replay = GameState(g.rules)
    out: list[tuple[GameState, tuple[int, ...]]] = []
    grouping = False  # the seat's return or discards so far: its next discard belongs to the same decision
    for action in g.history:
        mine = not replay.is_chance and replay.current_player == seat
        if mine and grouping and replay.phase == "discard":
            out[-1] = (out[-1][0], (*out[-1][1], action))
        elif mine:
            out.append((replay.clone(), (action,)))
        grouping = mine and replay.phase in ("return", "discard")
        replay.apply(action)
    return out


def _phase_decision(g: GameState, seat: int, count: int) -> Decision:
    phase = g.phase
    agent = LearnedAgent(seed=0)
    if phase == "auction":
        options = tuple(Option(action_contract(a) or "pass", (a,)) for a in g.legal_actions())
    elif phase == "declare":
        options = tuple(Option(c, (bid_action(c),)) for c in ("solissimo", "dividete", "scegliete"))
    elif phase == "call":
        options = _chiamo_calls(g.held(seat))
    elif phase == "split":
        options = _split_options(g, seat, agent, count)
    elif phase == "return" or (phase == "discard" and seat == g.soloist):
        options = _soloist(g, seat, agent, count)
    elif phase == "discard":
        options = _defender(g, seat, agent, count)
    else:
        assert g.play is not None
        options = tuple(Option(card_name(c), (c,)) for c in cards_of(g.play.legal()))
    return Decision(KIND_OF_PHASE[phase], seat, options)


def _including(g: GameState, decision: Decision, actions: tuple[int, ...]) -> Decision:
    """``decision`` with the option that takes ``actions`` (a whole decision, legal at ``g``) added last."""
    if any(o.actions == actions for o in decision.options):
        return decision
    trial, seat = g.clone(), g.current_player
    try:
        for action in actions:
            if trial.is_terminal or trial.current_player != seat:
                raise ParameterError("include", list(actions), "more actions than the decision takes")
            trial.apply(action)
    except IllegalActionError as err:
        raise ParameterError("include", list(actions), f"not an option here: {err}") from None
    if g.phase in ("return", "discard") and trial.phase == "discard" and trial.current_player == seat:
        raise ParameterError("include", list(actions), "the decision takes the whole set of discards")
    return Decision(decision.kind, decision.seat, (*decision.options, Option(option_name(g, actions), actions)))


def decision_of(view: View, candidates: int = DEFAULT_SEAT_CANDIDATES, include: Sequence[int] = ()) -> Decision:
    """The decision ``view``'s seat faces next, with its options; a :class:`CalasolveError` naming who acts
    when it is not the seat's turn, or what the view lacks.  ``include``: the actions of one more option to
    offer (a player's own choice, to value it beside the candidates), if the options lack it."""
    check_int("candidates", candidates, 1, 100)
    if not isinstance(view, View):
        raise ParameterError("view", view, "must be a View")
    ex, seat = view.exchange, view.seat
    if view.contract == "dividete" and seat != view.soloist and ex.takes is None:
        raise CalasolveError(f"{view.where()}: seat {seat} took two monte cards blind in dividete; "
                             f"give them ('takes: {seat}=...') to ask about its discards")
    g = game_state(view, view_layouts(view, 1)[0])
    if g.is_terminal:
        raise CalasolveError(f"{view.where()}: the deal is over; nothing is left to decide")
    actor = g.current_player
    if actor != seat:
        what = "to speak" if g.phase == "auction" else "to play" if g.phase == "play" else f"to act ({g.phase})"
        raise CalasolveError(f"{view.where()}: seat {actor} is {what}, not seat {seat}")
    decision = _phase_decision(g, seat, candidates)
    if include:
        decision = _including(g, decision, tuple(include))
    if not decision.options:
        raise CalasolveError(f"{view.where()}: seat {seat} has no option ({decision.kind})")
    return decision
