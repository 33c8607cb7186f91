"""What a seat may not know at a point of a game, to check that the game page is never sent it."""

from __future__ import annotations

import re
from typing import Any

from calasolve.env.game import GameState
from calasolve.game.cards import card_name, cards_of

TOKEN = re.compile(r"\b[32ARCF7654][BSCD]\b")


def hidden_from(g: GameState, seat: int) -> set[str]:
    """The cards ``seat`` cannot know at ``g``: the others' hands and discards, the monte unless it saw it, but
    the card called and the card returned (announced), a face-up monte and the cards played."""
    hidden = 0
    for other in range(3):
        if other != seat:
            hidden |= g.held(other) | g.discards[other]
    saw_monte = g.contract == "scegliete" or (seat == g.soloist and (g.contract == "solo" or g.call is not None))
    if not saw_monte:
        hidden |= g.monte & ~(g.held(seat) | g.discards[seat])
    for known in (g.call, g.returned):
        if known is not None:
            hidden &= ~(1 << known)
    if g.contract == "scegliete":
        hidden &= ~g.monte
    for card in g.play.history if g.play is not None else ():
        hidden &= ~(1 << card)
    return {card_name(c) for c in cards_of(hidden)}


def seen_tokens(view: dict[str, Any]) -> set[str]:
    """The card tokens a game view names, but chiamo's list of cards to call (every card the seat lacks)."""
    shown = dict(view)
    if shown.get("decision") and shown["decision"]["kind"] == "chiamo-call":
        shown.pop("decision")
    return set(TOKEN.findall(repr(shown)))


def leaks(history: list[int], seat: int, seen: list[tuple[int, set[str]]], rules: Any) -> tuple[int, list[str]]:
    """Replaying ``history``: how many of the views ``seen`` (each with the number of actions it was sent at)
    were checked, and the first hidden cards one of them named (empty: none)."""
    replay = GameState(rules)
    checked = 0
    for action in history:
        for at, tokens in seen:
            if at == len(replay.history) and not replay.is_terminal:
                leaked = tokens & hidden_from(replay, seat)
                if leaked:
                    return checked, sorted(leaked)
                checked += 1
        replay.apply(action)
    return checked, []
