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

from ..advice.defence import defender_discard_choices, split_candidates
from ..advice.policies import distinct_choices
from ..env.actions import action_contract, bid_action, split_action
from ..env.agents import LearnedAgent
from ..env.game import MONTE as GAME_MONTE
from ..env.game import GameState
from ..game.cards import FULL_DECK, Mask, card_name, cards_name, cards_of, display_order, popcount
from ..game.defaults import DEFAULT_SEAT_CANDIDATES
from ..game.errors import CalasolveError, ParameterError
from ..game.limits import check_int
from ..types.view import View
from .layouts import game_state, view_layouts

__all__ = ["CALLS_PER_SUIT", "Decision", "Option", "decision_of"]

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


def _phase_decision(g: GameState, seat: int, count: int) -> Decision:
    phase = g.phase
    agent = LearnedAgent(seed=0)
    if phase == "auction":
        return Decision("call", seat, tuple(Option(action_contract(a) or "pass", (a,)) for a in g.legal_actions()))
    if phase == "declare":
        return Decision("declare", seat, tuple(Option(c, (bid_action(c),)) for c in ("solissimo", "dividete", "scegliete")))
    if phase == "call":
        return Decision("chiamo-call", seat, _chiamo_calls(g.held(seat)))
    if phase == "return":
        return Decision("return", seat, _soloist(g, seat, agent, count))
    if phase == "split":
        return Decision("split", seat, _split_options(g, seat, agent, count))
    if phase == "discard":
        if seat == g.soloist:
            return Decision("discards", seat, _soloist(g, seat, agent, count))
        return Decision("discards", seat, _defender(g, seat, agent, count))
    assert g.play is not None
    return Decision("card", seat, tuple(Option(card_name(c), (c,)) for c in cards_of(g.play.legal())))


def decision_of(view: View, candidates: int = DEFAULT_SEAT_CANDIDATES) -> Decision:
    """The decision ``view``'s seat faces next, with its options; a :class:`CalasolveError` naming who acts
    when it is not the seat's turn, or what the view lacks."""
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
    if not decision.options:
        raise CalasolveError(f"{view.where()}: seat {seat} has no option ({decision.kind})")
    return decision
