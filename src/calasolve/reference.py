"""The reference double-dummy solver: plain minimax, written to be obviously right.

It is the oracle the C core is tested against, on endings of up to about
five tricks.  It knows nothing clever: at every node it tries every legal
card, the soloist takes the maximum and the defenders the minimum.  The
only help it gets is a memo on the exact position (the cards still held,
the current trick and its leader), which changes how long it takes, never
what it returns.

A position is ``hands`` (cards still held by seats 0, 1, 2), ``trick`` (0 to 2
cards of the current trick, in play order), ``leader`` (who led it),
``soloist`` and ``last_bonus`` (the thirds the winner of the last trick adds:
3 plus the monte's thirds).  Its value is the thirds the soloist captures
from here on.

>>> from calasolve.cards import parse_hand, parse_card
>>> hands = (parse_hand("3A.-.-.-"), parse_hand("24.-.-.-"), parse_hand("R5.-.-.-"))
>>> value(hands, (), leader=0, soloist=0, last_bonus=3)
4
>>> sorted(card_values(hands, (), leader=0, soloist=0, last_bonus=3).items())
[(7, 4), (9, 1)]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .cards import RANK_THIRDS, Card, Mask, cards_of
from .game import legal_cards, trick_winner

Hands = tuple[Mask, Mask, Mask]


def _after(hands: Hands, trick: tuple[Card, ...], leader: int, card: Card) -> tuple[Hands, tuple[Card, ...], int, int, bool]:
    """Play ``card``: the new hands, trick, leader, the thirds the trick gives and who got them."""
    seat = (leader + len(trick)) % 3
    new_hands = list(hands)
    new_hands[seat] &= ~(1 << card)
    played = trick + (card,)
    if len(played) < 3:
        return (new_hands[0], new_hands[1], new_hands[2]), played, leader, 0, False
    winner = trick_winner(played, leader)
    thirds = sum(RANK_THIRDS[c % 10] for c in played)
    return (new_hands[0], new_hands[1], new_hands[2]), (), winner, thirds, True


@lru_cache(maxsize=None)
def _value(hands: Hands, trick: tuple[Card, ...], leader: int, soloist: int, last_bonus: int) -> int:
    if not trick and hands == (0, 0, 0):
        return 0
    seat = (leader + len(trick)) % 3
    results = [
        _card_value(hands, trick, leader, soloist, last_bonus, card)
        for card in cards_of(legal_cards(hands[seat], trick))
    ]
    return max(results) if seat == soloist else min(results)


def _card_value(hands: Hands, trick: tuple[Card, ...], leader: int, soloist: int, last_bonus: int, card: Card) -> int:
    new_hands, new_trick, new_leader, thirds, done = _after(hands, trick, leader, card)
    gained = 0
    if done:
        if new_hands == (0, 0, 0):
            thirds += last_bonus
        gained = thirds if new_leader == soloist else 0
    return gained + _value(new_hands, new_trick, new_leader, soloist, last_bonus)


def value(hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> int:
    """The soloist's thirds from here on under best play by both sides."""
    return _value(tuple(hands), tuple(trick), leader, soloist, last_bonus)  # type: ignore[arg-type]


def card_values(hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> dict[Card, int]:
    """For each legal card of the player to move: the soloist's thirds from here if it is played now."""
    h: Hands = (hands[0], hands[1], hands[2])
    t = tuple(trick)
    seat = (leader + len(t)) % 3
    return {card: _card_value(h, t, leader, soloist, last_bonus, card) for card in cards_of(legal_cards(h[seat], t))}


def clear_cache() -> None:
    """Forget the memo (it grows with every distinct position solved)."""
    _value.cache_clear()


def line(hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> list[Card]:
    """One optimal line of play to the end: at each step the lowest-id card of best value."""
    h: Hands = (hands[0], hands[1], hands[2])
    t = tuple(trick)
    out: list[Card] = []
    while t or any(h):
        seat = (leader + len(t)) % 3
        values = card_values(h, t, leader, soloist, last_bonus)
        best = max(values.values()) if seat == soloist else min(values.values())
        card = min(c for c, v in values.items() if v == best)
        out.append(card)
        h, t, leader, _, _ = _after(h, t, leader, card)
    return out


class ReferenceSolver:
    """The reference solver behind the interface of the C ``Solver`` (for tests and small endings)."""

    nodes = 0

    def value(self, hands, trick, leader, soloist, last_bonus):  # type: ignore[no-untyped-def]
        return value(hands, trick, leader, soloist, last_bonus)

    def reaches(self, hands, trick, leader, soloist, last_bonus, target):  # type: ignore[no-untyped-def]
        return value(hands, trick, leader, soloist, last_bonus) >= target

    def card_values(self, hands, trick, leader, soloist, last_bonus):  # type: ignore[no-untyped-def]
        return card_values(hands, trick, leader, soloist, last_bonus)

    def line(self, hands, trick, leader, soloist, last_bonus):  # type: ignore[no-untyped-def]
        return line(hands, trick, leader, soloist, last_bonus)

    def clear(self) -> None:
        clear_cache()
