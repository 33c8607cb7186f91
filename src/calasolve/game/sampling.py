"""Dealing the cards a player cannot see, uniformly and reproducibly.

Every random choice in calasolve comes from a numpy ``Generator`` seeded
from the user's ``--seed`` and the *index* of the sample, never from the
worker that happens to draw it, so results are identical whatever
``--jobs`` is.

>>> from calasolve.game.cards import parse_hand, popcount
>>> hand = parse_hand("32A7.RC5.F64.AR")
>>> hands, monte = deal_rest(hand, 0, rng_for(1, 0))
>>> [popcount(h) for h in hands], popcount(monte), hands[0] == hand
([12, 12, 12], 4, True)
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .cards import FULL_DECK, Mask, card_name, cards_of, hand_name, mask_of, parse_cards_or_hand, popcount
from .errors import CalasolveError, KnownCardsError

#: Where a known card can be: a seat 0..2 or the monte.
MONTE = "monte"
_SIZES = {0: 12, 1: 12, 2: 12, MONTE: 4}


def rng_for(seed: int, *stream: int) -> np.random.Generator:
    """The generator of one sample: a function of the seed and the sample's indices only (``default_rng``'s,
    built directly: the players draw one a decision, and ``default_rng`` costs three times as much)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, *stream])))


def parse_known(items: list[str] | tuple[str, ...]) -> dict[object, Mask]:
    """Known-card items ``WHERE=CARDS`` (WHERE a seat 0..2 or ``monte``) as a mapping.

    >>> {k: hand_name(v) for k, v in parse_known(["1=3B", "monte=AD 2D"]).items()}
    {1: '3.-.-.-', 'monte': '-.-.-.2A'}
    """
    known: dict[object, Mask] = {}
    for item in items:
        where, sep, cards = item.partition("=")
        where = where.strip().lower()
        if not sep or not cards.strip():
            raise KnownCardsError("write it as SEAT=CARDS or monte=CARDS, e.g. 1=3B", item)
        key: object = MONTE if where == MONTE else where
        if key != MONTE:
            if where not in ("0", "1", "2"):
                raise KnownCardsError(f"{where!r} is not a seat (0, 1, 2) or 'monte'", item)
            key = int(where)
        try:
            mask = parse_cards_or_hand(cards)
        except CalasolveError as err:
            raise KnownCardsError(str(err), item) from None
        if known.get(key, 0) & mask:
            raise KnownCardsError("a card is given twice", item)
        known[key] = known.get(key, 0) | mask
    return known


def check_known(hand: Mask, seat: int, known: Mapping[object, Mask]) -> None:
    """Known cards must be outside the hand, placed once, and fit where they are placed."""
    seen = hand
    for where, mask in known.items():
        if where == seat:
            if mask & ~hand:
                raise KnownCardsError(f"seat {seat} is the hand itself; {hand_name(mask & ~hand)} is not in it")
            continue
        clash = mask & seen
        if clash:
            raise KnownCardsError(f"{' '.join(card_name(c) for c in cards_of(clash))} placed twice (or in the hand)")
        seen |= mask
        if popcount(mask) > _SIZES[where]:
            place = "the monte" if where == MONTE else f"seat {where}"
            raise KnownCardsError(f"{popcount(mask)} cards placed in {place}, which holds {_SIZES[where]}")


def deal_rest(
    hand: Mask, seat: int, rng: np.random.Generator, known: Mapping[object, Mask] | None = None
) -> tuple[tuple[Mask, Mask, Mask], Mask]:
    """Deal the cards not in ``hand`` uniformly: 12 to each other seat, 4 to the monte.

    ``known`` pins cards to seats or the monte; the rest are shuffled into
    the remaining places, so every completion consistent with what is
    known is equally likely.
    """
    known = known or {}
    placed = {where: known.get(where, 0) for where in (0, 1, 2, MONTE)}
    placed[seat] = hand
    free = FULL_DECK & ~mask_of(cards_of(hand))
    for where, mask in placed.items():
        if where != seat:
            free &= ~mask
    pool = np.array(list(cards_of(free)), dtype=np.int64)
    rng.shuffle(pool)
    out: dict[object, Mask] = {}
    i = 0
    for where in (0, 1, 2, MONTE):
        need = _SIZES[where] - popcount(placed[where])
        out[where] = placed[where] | mask_of(int(c) for c in pool[i : i + need])
        i += need
    return (out[0], out[1], out[2]), out[MONTE]


def layout_exists(allowed: Mapping[int, int], room: Sequence[int]) -> bool:
    """Whether the cards of ``allowed`` (card -> bit set of the places it may be) fit ``room[p]``
    cards in each place ``p`` exactly: Hall's condition, every set of places holding at least the
    cards that can only go there (a handful of places, so every set is tried).

    >>> layout_exists({0: 0b01, 1: 0b11}, (1, 1)), layout_exists({0: 0b01, 1: 0b01}, (1, 1))
    (True, False)
    """
    if sum(room) != len(allowed) or any(r < 0 for r in room):
        return False
    for places in range(1 << len(room)):  # the empty set catches a card with nowhere to go
        inside = sum(1 for where in allowed.values() if where & ~places == 0)
        if inside > sum(r for p, r in enumerate(room) if places >> p & 1):
            return False
    return True
