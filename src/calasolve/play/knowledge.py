"""What one seat knows of a deal in play, and layouts of the unseen cards dealt consistently with it.

A player sees their own hand, every card played, the voids the others have
shown (a card of another suit played to a trick means no card of the suit
led is left), and the exchange as that seat saw it (docs/rules.md §5):

- **solo, chiamo**: the soloist took the monte and made the discards, so
  knows the new monte whole.  In chiamo everyone saw the called card, handed
  over by a defender or found in the monte: it is the soloist's or one of the
  discards (any card may be discarded, the called one too).  The card given
  back face up is that defender's (defenders do not discard in chiamo).
- **solissimo**: the monte is untouched and nobody sees it.
- **dividete**: a defender knows the two cards it took blind and its own
  discards (they are in the new monte); the soloist knows neither.
- **scegliete**: the monte was face up, so everyone knows which defender took
  which card; a taken card is still that defender's or among its discards,
  which only that defender knows.

:class:`SeatView` holds that knowledge as places: each card the seat cannot
place is *unseen* and has the set of places it may be (the other two seats
and the monte); :func:`deal_layout` deals the unseen cards so that every
layout consistent with the view is equally likely (exactly: the layouts are
counted, not rejected).

>>> from calasolve.records.dealfile import parse_deal_text
>>> rec = parse_deal_text('''
... hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76
... monte: R4.-.3F.-
... contract: solissimo
... soloist: 0
... played: 3S 6S 7S 2S
... ''')[0]
>>> view = view_of(rec, rec.state(), 1)
>>> view.voids, view.sizes               # all followed spade; seat 0 won and led again
((0, 0, 0), (10, 11, 11, 4))
>>> from calasolve.game.sampling import rng_for
>>> hands, monte = deal_layout(view, rng_for(1, 0))
>>> hands[1] == rec.state().hands[1], [popcount(h) for h in hands], popcount(monte)
(True, [10, 11, 11], 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb
from typing import Iterable, Mapping, NamedTuple

import numpy as np

from ..game.cards import FULL_DECK, SUIT_MASKS, Card, Mask, bit, cards_of, popcount
from ..game.errors import CalasolveError
from ..game.exchange import called_from
from ..game.state import PlayState, defender_seats
from ..types.record import Record

__all__ = ["MONTE", "SeatView", "ViewMasks", "deal_layout", "layout_count", "shown_voids", "view_masks", "view_of"]

#: The monte's place number (seats are 0, 1, 2).
MONTE = 3
PLACES = (0, 1, 2, MONTE)


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows: the cards it can place, the unseen cards and where each may be.

    ``placed[p]`` are the cards known to be at place ``p`` now (the seat's own
    hand at its own place); ``unseen`` maps each other card still out to a
    bit set of the places it may be (bit ``p`` for place ``p``); ``sizes`` are
    the cards each place holds now; ``voids[s]`` the suits (bit per suit)
    seat ``s`` has shown it no longer holds.
    """

    seat: int
    placed: tuple[Mask, Mask, Mask, Mask]
    unseen: Mapping[Card, int]
    sizes: tuple[int, int, int, int]
    voids: tuple[int, int, int]

    @cached_property
    def tables(self) -> tuple[tuple[int, ...], list[tuple[int, list[Card]]], list[dict[int, int]]]:
        """The counting tables of the layouts that fit (:func:`_tables`), made once per view: a
        PIMC decision deals several layouts from one view."""
        return _tables(self)

    @cached_property
    def steps(self) -> dict[tuple[int, int], list[tuple[int, tuple[int, ...], int]]]:
        """The ways each group fills each count of the places (:func:`_choices`), as the layouts ask for them."""
        return {}

    @cached_property
    def may_masks(self) -> tuple[Mask, Mask, Mask, Mask]:
        """The unseen cards that may be at each place, a mask per place."""
        out = [0, 0, 0, 0]
        for card, bits in self.unseen.items():
            for p in PLACES:
                if bits >> p & 1:
                    out[p] |= 1 << card
        return out[0], out[1], out[2], out[3]

    def may_be(self, card: Card) -> tuple[int, ...]:
        """The places an unseen card may be (empty for a card not unseen)."""
        bits = self.unseen.get(card, 0)
        return tuple(p for p in PLACES if bits >> p & 1)


def shown_voids(state: PlayState) -> tuple[int, int, int]:
    """The suits each seat has shown it lacks: it played another suit to a trick led in them."""
    voids = [0, 0, 0]
    for t in state.tricks:  # asked at every decision: the suits compared inline
        first, second, third = t.cards
        led = first // 10
        if second // 10 != led:
            voids[(t.leader + 1) % 3] |= 1 << led
        if third // 10 != led:
            voids[(t.leader + 2) % 3] |= 1 << led
    trick = state.trick
    if len(trick) == 2 and trick[1] // 10 != trick[0] // 10:
        voids[(state.leader + 1) % 3] |= 1 << (trick[0] // 10)
    return voids[0], voids[1], voids[2]


def view_of(record: Record, state: PlayState, seat: int, *, check: bool = True) -> SeatView:
    """What ``seat`` knows at ``state``, a position of ``record``'s deal (its exchange complete); ``check``:
    that some layout of the unseen cards fits it (a reader of the view alone, who deals none, may skip it)."""
    masks = view_masks(record, state, seat)
    unseen = dict.fromkeys(cards_of(masks.unseen), 0)
    for p in PLACES:
        if p != seat:
            for card in cards_of(masks.may[p]):
                unseen[card] |= 1 << p
    view = SeatView(seat, masks.placed, unseen, masks.sizes, masks.voids)
    view.__dict__["may_masks"] = masks.may  # the cached property, known already
    if check and layout_count(view) == 0:
        raise CalasolveError(f"seat {seat}'s knowledge admits no layout of the unseen cards (an inconsistent record)")
    return view


class ViewMasks(NamedTuple):
    """:func:`view_of`'s view as masks alone: what the searches and the network read of it."""

    placed: tuple[Mask, Mask, Mask, Mask]
    #: the cards still out that the seat cannot place
    unseen: Mask
    #: the unseen cards that may be at each place (none at the seat's own)
    may: tuple[Mask, Mask, Mask, Mask]
    sizes: tuple[int, int, int, int]
    voids: tuple[int, int, int]


def view_masks(record: Record, state: PlayState, seat: int) -> ViewMasks:
    """What ``seat`` knows at ``state`` as masks (:func:`view_of` without the map of the unseen cards, unchecked)."""
    if seat not in (0, 1, 2):
        raise CalasolveError(f"seat {seat!r}: must be 0, 1 or 2")
    hands, monte = record.after_exchange()
    played = (hands[0] | hands[1] | hands[2]) & ~(state.hands[0] | state.hands[1] | state.hands[2])
    soloist, contract, ex = record.soloist, record.contract, record.exchange
    placed = [0, 0, 0, 0]
    placed[seat] = state.hands[seat]
    # cards a seat is known to have had after the exchange: still there unless played or (see below) discarded
    held: dict[int, Mask] = {}
    maybe_discarded: dict[int, Mask] = {}
    if contract in ("solo", "chiamo") and seat == soloist:
        placed[MONTE] = monte
    if contract == "chiamo" and ex.call is not None:
        # found in the monte or handed over, the called card is the soloist's or (discarded) in the new monte
        maybe_discarded[soloist] = bit(ex.call)
        source = called_from(record.hands, record.monte, ex.call)
        if source is not None and ex.returned is not None:
            held[source] = bit(ex.returned)  # given back face up; defenders do not discard in chiamo
    if contract in ("dividete", "scegliete") and ex.takes is not None and ex.discards is not None:
        for d in defender_seats(soloist):
            if d == seat:
                placed[MONTE] |= ex.discards[d]
            elif contract == "scegliete":
                maybe_discarded[d] = maybe_discarded.get(d, 0) | ex.takes[d]
    for s, mask in held.items():
        if s != seat:
            placed[s] |= mask & ~played
    voids = shown_voids(state)
    out = FULL_DECK & ~played & ~placed[0] & ~placed[1] & ~placed[2] & ~placed[MONTE]
    may = [0, 0, 0, 0]
    for p in PLACES:
        if p != seat:
            may[p] = out if p == MONTE else out & ~_SUITS[voids[p]]
    for s, mask in maybe_discarded.items():
        for p in PLACES:
            if p not in (seat, s, MONTE):
                may[p] &= ~mask  # a taken or called card is still with its taker, or discarded
    sizes = (popcount(state.hands[0]), popcount(state.hands[1]), popcount(state.hands[2]), popcount(monte))
    return ViewMasks((placed[0], placed[1], placed[2], placed[MONTE]), out, (may[0], may[1], may[2], may[MONTE]),
                     sizes, voids)


#: The cards of the suits in ``bits`` (bit per suit), at index ``bits``.
_SUITS = tuple(sum(SUIT_MASKS[k] for k in range(4) if bits >> k & 1) for bits in range(16))


# -- exact uniform layouts ----------------------------------------------------------

@lru_cache(maxsize=4096)
def _splits(n: int, allowed: int, places: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Ways to put ``n`` cards of one group into ``places`` (only the ``allowed`` ones): (counts, multinomial);
    a few hundred distinct questions, asked millions of times."""
    return tuple(_split_gen(n, allowed, places))


def _split_gen(n: int, allowed: int, places: tuple[int, ...]) -> Iterable[tuple[tuple[int, ...], int]]:
    usable = [p for p in places if allowed >> p & 1]
    if not usable:
        if n == 0:
            yield tuple(0 for _ in places), 1
        return

    def rec(i: int, left: int) -> Iterable[tuple[int, ...]]:
        if i == len(usable) - 1:
            yield (left,)
            return
        for k in range(left + 1):
            for rest in rec(i + 1, left - k):
                yield (k, *rest)

    for counts in rec(0, n):
        by_place = dict(zip(usable, counts))
        ways, left = 1, n
        for c in counts:
            ways *= comb(left, c)
            left -= c
        yield tuple(by_place.get(p, 0) for p in places), ways


def _groups(view: SeatView) -> list[tuple[int, list[Card]]]:
    groups: dict[int, list[Card]] = {}
    for card, allowed in sorted(view.unseen.items()):
        groups.setdefault(allowed, []).append(card)
    return sorted(groups.items())


#: The counting tables key a count per place as one int, a 7-bit digit a place (:func:`_pack`): a group may
#: hold every unseen card (up to 28) and a digit's top bit stays clear, so the sums never carry.
DIGIT = 7
TOP_BIT = 1 << (DIGIT - 1)


def _pack(counts: Iterable[int]) -> int:
    """Counts per place as one int, a :data:`DIGIT`-bit digit each.

    >>> _pack((3, 0, 2)) == 3 + (2 << 14)
    True
    """
    return sum(c << (DIGIT * k) for k, c in enumerate(counts))


@lru_cache(maxsize=8)
def _guard(places: int) -> int:
    """Each digit's top bit: ``(limit | guard) - key`` keeps every one of them exactly where no digit of ``key``
    exceeds ``limit``'s (both digits below :data:`TOP_BIT`)."""
    return _pack([TOP_BIT] * places)


@lru_cache(maxsize=4096)
def _packed_splits(n: int, allowed: int, places: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """:func:`_splits` with each split's counts packed too: (packed, counts, multinomial)."""
    return tuple((_pack(counts), counts, m) for counts, m in _splits(n, allowed, places))


def _needs(view: SeatView, places: tuple[int, ...]) -> int:
    """The unseen cards each place still needs, packed."""
    return _pack(view.sizes[p] - popcount(view.placed[p]) for p in places)


def _tables(view: SeatView) -> tuple[tuple[int, ...], list[tuple[int, list[Card]]], list[dict[int, int]]]:
    """The places, the groups of unseen cards (by where they may be) and, after each group, the number of
    ways to fill each packed count of the places without passing what they need."""
    places = tuple(p for p in PLACES if p != view.seat)
    groups = _groups(view)
    guard = _guard(len(places))
    limit = _needs(view, places) | guard
    ways: list[dict[int, int]] = [{0: 1}]
    for allowed, cards in groups:
        nxt: dict[int, int] = {}
        splits = _packed_splits(len(cards), allowed, places)
        for filled, w in ways[-1].items():
            for counts, _, m in splits:
                key = filled + counts
                if (limit - key) & guard == guard:
                    nxt[key] = nxt.get(key, 0) + w * m
        ways.append(nxt)
    return places, groups, ways


def layout_count(view: SeatView) -> int:
    """How many layouts of the unseen cards fit ``view`` (0: the view is inconsistent)."""
    places, _, ways = view.tables
    return ways[-1].get(_needs(view, places), 0)


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in [0, n), exact for any size: the top bits of ``rng.bytes`` as many as ``n`` needs, drawn
    as the 32-bit words ``bytes`` draws them (the same stream, a third of the cost)."""
    k = n.bit_length()
    nbytes = (k + 7) // 8
    words = (nbytes + 3) // 4
    low = (1 << 8 * nbytes) - 1
    while True:
        if words == 1:
            raw = int(rng.integers(1 << 32, dtype=np.uint32))
        else:
            raw = int.from_bytes(rng.integers(1 << 32, size=words, dtype=np.uint32).astype("<u4").tobytes(), "little")
        r = (raw & low) >> (8 * nbytes - k)
        if r < n:
            return r


def deal_layout(view: SeatView, rng: np.random.Generator) -> tuple[tuple[Mask, Mask, Mask], Mask]:
    """One layout of the unseen cards, uniform among those that fit ``view``: the three hands and the monte."""
    places, groups, ways = view.tables
    state = _needs(view, places)
    total = ways[-1].get(state, 0)
    if total == 0:
        raise CalasolveError(f"seat {view.seat}'s knowledge admits no layout of the unseen cards")
    out = list(view.placed)
    steps = view.steps
    for i in range(len(groups) - 1, -1, -1):
        cards = groups[i][1]
        choices = steps.get((i, state))
        if choices is None:
            choices = steps[(i, state)] = _choices(view, i, state)
        pick = _below(rng, ways[i + 1][state])
        for w, counts, before in choices:
            if pick < w:
                break
            pick -= w
        order = list(cards)
        if len(order) > 1:
            rng.shuffle(order)  # a list shuffles as an array would: the same draws, the same order
        start = 0
        for p, c in zip(places, counts):
            for card in order[start:start + c]:
                out[p] |= 1 << card
            start += c
        state = before
    return (out[0], out[1], out[2]), out[MONTE]


def _choices(view: SeatView, i: int, state: int) -> list[tuple[int, tuple[int, ...], int]]:
    """Group ``i``'s ways to fill the packed counts ``state``: (weight, its counts per place, the packed counts before it)."""
    places, groups, ways = view.tables
    allowed, cards = groups[i]
    guard = _guard(len(places))
    out = []
    for packed, counts, m in _packed_splits(len(cards), allowed, places):
        fits = ((state | guard) - packed) & guard == guard
        before = state - packed
        out.append(((ways[i].get(before, 0) * m) if fits else 0, counts, before))
    return out
