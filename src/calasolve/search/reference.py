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

>>> from calasolve.game.cards import parse_hand, parse_card
>>> hands = (parse_hand("3A.-.-.-"), parse_hand("24.-.-.-"), parse_hand("R5.-.-.-"))
>>> value(hands, (), leader=0, soloist=0, last_bonus=3)
4
>>> sorted(card_values(hands, (), leader=0, soloist=0, last_bonus=3).items())
[(7, 4), (9, 1)]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol, Sequence

from ._core import BEST_OF_DEPTHS, BEST_OF_PREFIX
from ..game.cards import RANK_THIRDS, TOTAL_THIRDS, Card, Mask, cards_of
from ..game.state import legal_cards, trick_winner

Hands = tuple[Mask, Mask, Mask]


def play_card(
    hands: Hands, trick: tuple[Card, ...], leader: int, card: Card
) -> tuple[Hands, tuple[Card, ...], int, int, bool]:
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
    new_hands, new_trick, new_leader, thirds, done = play_card(hands, trick, leader, card)
    gained = 0
    if done:
        if new_hands == (0, 0, 0):
            thirds += last_bonus
        gained = thirds if new_leader == soloist else 0
    return gained + _value(new_hands, new_trick, new_leader, soloist, last_bonus)


def value(hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> int:
    """The soloist's thirds from here on under best play by both sides."""
    return _value(tuple(hands), tuple(trick), leader, soloist, last_bonus)


def card_values(
    hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
) -> dict[Card, int]:
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
        h, t, leader, _, _ = play_card(h, t, leader, card)
    return out


class _Searcher(Protocol):
    def value(self, hands: Hands, trick: tuple[()], leader: int, soloist: int, last_bonus: int) -> int: ...

    def reaches(
        self, hands: Hands, trick: tuple[()], leader: int, soloist: int, last_bonus: int, target: int
    ) -> bool: ...


def best_of(
    solver: _Searcher,
    hands: Sequence[Sequence[Mask]],
    last_bonus: Sequence[int],
    leader: int,
    soloist: int,
    maximise: bool,
    top: int,
) -> tuple[list[int], list[int], int]:
    """The list search of the C core (``cs_best_of``, :func:`calasolve.search._core.best_of`)
    in Python, on ``solver``'s ``value`` and ``reaches``: the ``top`` best of the
    trick-boundary positions ``hands[i]`` / ``last_bonus[i]`` for the side choosing
    (the soloist if ``maximise``), tried in the order given, ties to the first.
    Returns ``(kept, values, searches)`` as the C one does (it only lacks the C
    one's proven intervals, so it may search more).

    The first candidate is solved exactly, and the next ones (the first
    ``max(BEST_OF_PREFIX, n // BEST_OF_PREFIX)``) are only tested for beating it,
    so that the best is good before the runners-up are looked for.  Every
    candidate then gets a null-window test: "strictly better than the
    threshold?", where the threshold is the ``top``-th best so far, or, while
    fewer than ``top`` are known, the best so far minus a depth (``BEST_OF_DEPTHS``,
    one per pass).  Only a candidate that passes is valued: a new best exactly, a
    runner-up by bisecting between the threshold and the best.  A pass that ends
    with fewer than ``top`` candidates is followed by a deeper one, skipping every
    candidate already proven too weak.  A last sweep checks that no candidate
    left out can beat the list.

    >>> best_of(ReferenceSolver(), [(1 << 9, 1 << 7, 1 << 20), (1 << 0, 1 << 7, 1 << 20)], [3, 3], 0, 0, True, 2)[:2]
    ([0, 1], [7, 0])
    """
    cands = [((h[0], h[1], h[2]), b) for h, b in zip(hands, last_bonus)]
    if not cands:
        return [], [], 0
    searches = 0
    step = 1 if maximise else -1

    def better(a: int, b: int) -> bool:
        return a > b if maximise else a < b

    def beats(i: int, b: int) -> bool:
        """Is candidate ``i`` strictly better than ``b`` for the side choosing?"""
        nonlocal searches
        h, bonus = cands[i]
        if maximise:
            if b >= TOTAL_THIRDS:
                return False  # nothing beats all 35 thirds
            searches += 1
            return bool(solver.reaches(h, (), leader, soloist, bonus, b + 1))
        if b <= 0:
            return False  # nothing beats 0 thirds
        searches += 1
        return not solver.reaches(h, (), leader, soloist, bonus, b)

    def exact(i: int) -> int:
        nonlocal searches
        searches += 1
        return int(solver.value(cands[i][0], (), leader, soloist, cands[i][1]))

    best_i = 0
    best_v = exact(best_i)
    known = {best_i: best_v}  # exact values
    bound: dict[int, int] = {}  # proven: candidate i is no better than bound[i]
    kept = [(best_v, best_i)]
    in_kept = {best_i}

    def sort_key(t: tuple[int, int]) -> tuple[int, int]:
        return (-t[0] if maximise else t[0]), t[1]

    def consider(i: int, theta: int) -> None:
        """Value candidate ``i`` if it beats ``theta`` (and keep it if it makes the list)."""
        nonlocal best_i, best_v
        if i in known:
            v = known[i]
            if not better(v, theta):
                return
        else:
            hi = bound.get(i)
            if hi is not None and not better(hi, theta):
                return
            if not beats(i, theta):
                bound[i] = theta
                return
            if not better(best_v, theta) or ((hi is None or better(hi, best_v)) and beats(i, best_v)):
                v = exact(i)  # a new best
                best_i, best_v = i, v
            else:  # theta < value <= best_v (or its bound): bisect
                v = theta + step  # proven: the value is at least as good as v ...
                last = best_v if hi is None or better(hi, best_v) else hi  # ... and no better than last
                while v != last:
                    mid = (v + last + 1) // 2 if maximise else (v + last) // 2
                    if beats(i, mid - step):
                        v = mid
                    else:
                        last = mid - step
            known[i] = v
        kept.append((v, i))
        in_kept.add(i)
        kept.sort(key=sort_key)
        for _, j in kept[top:]:
            in_kept.discard(j)
        del kept[top:]

    def threshold(depth: int) -> int:
        theta = best_v - step * (depth + 1)
        if len(kept) >= top and not better(theta, kept[-1][0]):
            theta = kept[-1][0]
        return theta

    n = len(cands)
    for i in range(1, max(BEST_OF_PREFIX, n // BEST_OF_PREFIX)):
        if i < n:
            consider(i, best_v)
    for depth in BEST_OF_DEPTHS:
        for i in range(n):
            if i not in in_kept:
                consider(i, threshold(depth))
        if len(kept) >= top:
            break
    # Every candidate left out must be proven no better than the list's last.
    for i in range(n):
        if i not in in_kept:
            consider(i, kept[-1][0] if len(kept) >= top else best_v - step * 99)
    return [i for _, i in kept], [v for v, _ in kept], searches


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

    def best_of(
        self,
        hands: Sequence[Sequence[Mask]],
        last_bonus: Sequence[int],
        leader: int,
        soloist: int,
        maximise: bool,
        top: int,
    ) -> tuple[list[int], list[int], int]:
        return best_of(self, hands, last_bonus, leader, soloist, maximise, top)

    def clear(self) -> None:
        clear_cache()
