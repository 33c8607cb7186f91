"""Position helpers for the tests of the C core (``calasolve.search._core``).

A position is the tuple ``(hands, trick, leader, soloist, last_bonus)`` the
solver methods take.  Everything here is plain Python and follows
docs/rules.md directly, independently of the C code.
"""

from __future__ import annotations

import random
from typing import Sequence

from calasolve.game.cards import RANK_THIRDS
from calasolve.game.state import legal_cards, trick_winner

Position = tuple[tuple[int, int, int], tuple[int, ...], int, int, int]


def to_move(pos: Position) -> int:
    hands, trick, leader, _, _ = pos
    return (leader + len(trick)) % 3


def legal(pos: Position) -> list[int]:
    hands, trick, *_ = pos
    m = legal_cards(hands[to_move(pos)], trick)
    return [c for c in range(40) if m >> c & 1]


def play(pos: Position, card: int) -> tuple[Position, int]:
    """The position after ``card`` and the thirds the soloist gains by it."""
    hands, trick, leader, soloist, bonus = pos
    seat = to_move(pos)
    assert card in legal(pos), (pos, card)
    h = list(hands)
    h[seat] &= ~(1 << card)
    t = trick + (card,)
    if len(t) < 3:
        return ((h[0], h[1], h[2]), t, leader, soloist, bonus), 0
    winner = trick_winner(t, leader)
    thirds = sum(RANK_THIRDS[c % 10] for c in t)
    if not any(h):
        thirds += bonus
    gained = thirds if winner == soloist else 0
    return ((h[0], h[1], h[2]), (), winner, soloist, bonus), gained


def replay(pos: Position, line: Sequence[int]) -> int:
    """The soloist's thirds along ``line`` (which must be legal and end the deal)."""
    total = 0
    for card in line:
        pos, gained = play(pos, card)
        total += gained
    assert not pos[1] and not any(pos[0]), "the line must play every card"
    return total


def random_ending(rng: random.Random, tricks: int, played: int = 0) -> Position:
    """``tricks`` tricks to play from a random deal, then ``played`` random
    legal cards of the current trick; random leader, soloist and bonus."""
    deck = list(range(40))
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for seat in range(3):
        for c in deck[seat * tricks : (seat + 1) * tricks]:
            hands[seat] |= 1 << c
    pos: Position = ((hands[0], hands[1], hands[2]), (), rng.randrange(3), rng.randrange(3), rng.randrange(16))
    for _ in range(played):
        pos, _ = play(pos, rng.choice(legal(pos)))
    return pos


def random_deal(rng: random.Random, strong: bool = False) -> Position:
    """A full 12-trick deal; ``last_bonus`` = 3 + the monte's thirds."""
    deck = list(range(40))
    rng.shuffle(deck)
    masks = []
    for k in range(4):
        m = 0
        for c in deck[12 * k : 12 * k + 12]:
            m |= 1 << c
        masks.append(m)
    bonus = 3 + sum(RANK_THIRDS[c % 10] for c in deck[36:])
    soloist = rng.randrange(3)
    leader = soloist if strong else rng.randrange(3)
    return (masks[0], masks[1], masks[2]), (), leader, soloist, bonus


def permute_suits(pos: Position, perm: Sequence[int]) -> Position:
    """The same position with suit ``s`` renamed ``perm[s]``."""

    def card(c: int) -> int:
        return perm[c // 10] * 10 + c % 10

    def mask(m: int) -> int:
        out = 0
        for c in range(40):
            if m >> c & 1:
                out |= 1 << card(c)
        return out

    hands, trick, leader, soloist, bonus = pos
    return (mask(hands[0]), mask(hands[1]), mask(hands[2])), tuple(card(c) for c in trick), leader, soloist, bonus


def rotate_seats(pos: Position, k: int) -> Position:
    """The same position with every seat moved k places on (seat s -> s + k)."""
    hands, trick, leader, soloist, bonus = pos
    h = [0, 0, 0]
    for s in range(3):
        h[(s + k) % 3] = hands[s]
    return (h[0], h[1], h[2]), trick, (leader + k) % 3, (soloist + k) % 3, bonus


def truncate(pos: Position, line: Sequence[int], cards: int) -> tuple[Position, int]:
    """Plays the first ``cards`` cards of ``line``; returns the position and the soloist's thirds so far."""
    total = 0
    for c in line[:cards]:
        pos, g = play(pos, c)
        total += g
    return pos, total
