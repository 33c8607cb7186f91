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

import time
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Protocol, Sequence

from ._core import BEST_OF_DEPTHS, BEST_OF_PREFIX, MAX_VALUE
from .batch import Batch, Bonuses, ListAnswer, ListQuery
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
    hands: Batch,
    last_bonus: Bonuses,
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
    search = _ListSearch(solver, cands, leader, soloist, maximise, top)
    search.run()
    return [i for _, i in search.kept], [v for v, _ in search.kept], search.searches


class _ListSearch:
    """One :func:`best_of`: the candidates, what is proven of each, the list kept so far and the searches made."""

    def __init__(self, solver: _Searcher, cands: list[tuple[Hands, int]], leader: int, soloist: int, maximise: bool,
                 top: int) -> None:
        self.solver, self.cands, self.leader, self.soloist = solver, cands, leader, soloist
        self.maximise, self.top = maximise, top
        self.step = 1 if maximise else -1
        self.searches = 0
        self.best_v = self.exact(0)
        self.known = {0: self.best_v}  # exact values
        self.bound: dict[int, int] = {}  # proven: candidate i is no better than bound[i]
        self.kept = [(self.best_v, 0)]
        self.in_kept = {0}

    def run(self) -> None:
        """The prefix against the best, the passes ever deeper until ``top`` are kept, and the last sweep."""
        n = len(self.cands)
        for i in range(1, max(BEST_OF_PREFIX, n // BEST_OF_PREFIX)):
            if i < n:
                self.consider(i, self.best_v)
        for depth in BEST_OF_DEPTHS:
            for i in range(n):
                if i not in self.in_kept:
                    self.consider(i, self.threshold(depth))
            if len(self.kept) >= self.top:
                break
        # Every candidate left out must be proven no better than the list's last.
        for i in range(n):
            if i not in self.in_kept:
                self.consider(i, self.kept[-1][0] if len(self.kept) >= self.top else self.best_v - self.step * 99)

    def better(self, a: int, b: int) -> bool:
        return a > b if self.maximise else a < b

    def beats(self, i: int, b: int) -> bool:
        """Is candidate ``i`` strictly better than ``b`` for the side choosing?"""
        h, bonus = self.cands[i]
        if self.maximise:
            if b >= TOTAL_THIRDS:
                return False  # nothing beats all 35 thirds
            self.searches += 1
            return bool(self.solver.reaches(h, (), self.leader, self.soloist, bonus, b + 1))
        if b <= 0:
            return False  # nothing beats 0 thirds
        self.searches += 1
        return not self.solver.reaches(h, (), self.leader, self.soloist, bonus, b)

    def exact(self, i: int) -> int:
        self.searches += 1
        return int(self.solver.value(self.cands[i][0], (), self.leader, self.soloist, self.cands[i][1]))

    def threshold(self, depth: int) -> int:
        theta = self.best_v - self.step * (depth + 1)
        if len(self.kept) >= self.top and not self.better(theta, self.kept[-1][0]):
            theta = self.kept[-1][0]
        return theta

    def consider(self, i: int, theta: int) -> None:
        """Value candidate ``i`` if it beats ``theta`` (and keep it if it makes the list)."""
        if i in self.known:
            v = self.known[i]
            if not self.better(v, theta):
                return
        else:
            found = self.value_above(i, theta)
            if found is None:
                return
            v = self.known[i] = found
        self.kept.append((v, i))
        self.in_kept.add(i)
        self.kept.sort(key=lambda t: ((-t[0] if self.maximise else t[0]), t[1]))
        for _, j in self.kept[self.top:]:
            self.in_kept.discard(j)
        del self.kept[self.top:]

    def value_above(self, i: int, theta: int) -> int | None:
        """Candidate ``i``'s value if it beats ``theta`` (None: proven it does not), not known before."""
        hi = self.bound.get(i)
        if hi is not None and not self.better(hi, theta):
            return None
        if not self.beats(i, theta):
            self.bound[i] = theta
            return None
        if not self.better(self.best_v, theta) or ((hi is None or self.better(hi, self.best_v))
                                                   and self.beats(i, self.best_v)):
            self.best_v = self.exact(i)  # a new best
            return self.best_v
        # theta < value <= best_v (or its bound): bisect
        v = theta + self.step  # proven: the value is at least as good as v ...
        last = self.best_v if hi is None or self.better(hi, self.best_v) else hi  # ... and no better than last
        while v != last:
            mid = (v + last + 1) // 2 if self.maximise else (v + last) // 2
            if self.beats(i, mid - self.step):
                v = mid
            else:
                last = mid - self.step
        return v


def best_of_limited(solver: _Searcher, query: ListQuery) -> ListAnswer:
    """The C core's ``cs_best_of_limited`` (:meth:`calasolve.search._core.Solver.best_of_limited`) in Python:
    the ``top`` best candidates strictly better than ``floor`` for the side choosing, in the order
    given (ties to the first), no test after ``deadline`` (a :func:`time.monotonic` time; the first
    candidate is always tested), the floor raised between candidates from the ``shared`` counts of
    values found (``MAX_VALUE + 1`` C ints), to which each candidate kept adds itself.  A test here
    cannot give up midway, so ``stop`` only ends the list as a deadline does.

    Answers as the C one does; a candidate left untested is bounded by the extreme value only (the
    C one has cheaper proofs).

    >>> best_of_limited(ReferenceSolver(), ListQuery([(1 << 9, 1 << 7, 1 << 20), (1 << 0, 1 << 7, 1 << 20)], [3, 3],
    ...                                              0, 0, True, 2, floor=5))
    ListAnswer(kept=[0], values=[7], searches=3, complete=True, bound=7)
    """
    q = query
    maximise, top, deadline = q.maximise, q.top, q.deadline
    if q.stop is not None:
        deadline = q.stop if deadline is None else min(deadline, q.stop)
    cands = _rows(q.hands, q.last_bonus)
    nothing = -1 if maximise else MAX_VALUE + 1
    base = nothing if q.floor is None else max(-1, min(MAX_VALUE + 1, int(q.floor)))
    counts = memoryview(q.shared).cast("B").cast("i") if q.shared is not None else None
    kept: list[tuple[int, int]] = []
    searches, complete = 0, True
    bound = base
    best = max if maximise else min
    for i, (h, bonus) in enumerate(cands):
        if i and deadline is not None and time.monotonic() >= deadline:
            complete = False
            bound = MAX_VALUE if maximise else 0  # untested: only the extreme is proven
            break
        theta = _raised(base, counts, top, maximise)
        if len(kept) >= top:
            theta = best(theta, kept[top - 1][0])
        searches += 1
        beats = solver.reaches(h, (), q.leader, q.soloist, bonus, theta + 1) if maximise else (
            theta > 0 and not solver.reaches(h, (), q.leader, q.soloist, bonus, theta))
        if not beats:
            continue
        searches += 1
        v = int(solver.value(h, (), q.leader, q.soloist, bonus))
        kept.append((v, i))
        kept.sort(key=lambda vi: (-vi[0] if maximise else vi[0], vi[1]))
        del kept[top:]
        if counts is not None:
            counts[v] += 1
    if complete:
        bound = kept[0][0] if kept else base
    elif kept:
        bound = best(bound, kept[0][0])
    return ListAnswer([i for _, i in kept], [v for v, _ in kept], searches, complete, bound)


def _raised(floor: int, counts: Any, top: int, maximise: bool) -> int:
    """``floor`` raised to the ``top``-th best value counted in ``counts`` (if any)."""
    if counts is None:
        return floor
    seen = 0
    values = range(MAX_VALUE, -1, -1) if maximise else range(MAX_VALUE + 1)
    for v in values:
        seen += counts[v]
        if seen >= top:
            return max(floor, v) if maximise else min(floor, v)
    return floor


def reaches_batch(
    solver: _Searcher,
    hands: Batch,
    last_bonus: Bonuses,
    leader: int,
    soloist: int,
    target: int,
    max_fails: int = 0,
) -> tuple[list[int], int]:
    """The C core's ``cs_reaches_batch`` in Python: "value >= target" of each candidate in the
    order given, stopping once ``max_fails`` have failed (0: never); ``(results, searches)``
    with -1 for the candidates left untested.

    >>> reaches_batch(ReferenceSolver(), [(1 << 0, 1 << 7, 1 << 20), (1 << 9, 1 << 7, 1 << 20)], [3, 3], 0, 0, 4)[0]
    [0, 1]
    """
    cands = _rows(hands, last_bonus)
    results = [-1] * len(cands)
    fails = searches = 0
    for i, (h, bonus) in enumerate(cands):
        searches += 1
        results[i] = int(solver.reaches(h, (), leader, soloist, bonus, target))
        fails += 1 - results[i]
        if max_fails and fails >= max_fails:
            break
    return results, searches


def _rows(hands: Batch, last_bonus: Bonuses) -> list[tuple[Hands, int]]:
    """A batch as plain ints (lists or numpy arrays alike)."""
    return [((int(h[0]), int(h[1]), int(h[2])), int(b)) for h, b in zip(hands, last_bonus)]


class ReferenceSolver:
    """The reference solver behind the whole solver contract (:class:`calasolve.search.engines.CoreSolver`),
    with the same argument types as the C ``Solver`` (lists or numpy arrays for batches); for tests and
    small endings.  ``nodes`` counts the positions it evaluated afresh (its memo's misses)."""

    #: what :func:`calasolve.search.engines.solver_like` needs to make another like it (a worker's)
    config: Mapping[str, int | bool] = MappingProxyType({"reference": True})

    def __init__(self) -> None:
        self._nodes = 0
        self._total = 0

    @property
    def nodes(self) -> int:
        """Positions evaluated by the last call."""
        return self._nodes

    @property
    def total_nodes(self) -> int:
        """Positions evaluated since this solver was made."""
        return self._total

    def _count(self, misses_before: int) -> None:
        self._nodes = _value.cache_info().misses - misses_before
        self._total += self._nodes

    def value(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> int:
        before = _value.cache_info().misses
        out = value(_ints(hands), _ints(trick), int(leader), int(soloist), int(last_bonus))
        self._count(before)
        return out

    def reaches(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int, target: int
    ) -> bool:
        return self.value(hands, trick, leader, soloist, last_bonus) >= target

    def card_values(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
    ) -> dict[Card, int]:
        before = _value.cache_info().misses
        out = card_values(_ints(hands), _ints(trick), int(leader), int(soloist), int(last_bonus))
        self._count(before)
        return out

    def line(self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int) -> list[Card]:
        before = _value.cache_info().misses
        out = line(_ints(hands), _ints(trick), int(leader), int(soloist), int(last_bonus))
        self._count(before)
        return out

    def analyse(
        self, hands: Sequence[Mask], trick: Sequence[Card], leader: int, soloist: int, last_bonus: int
    ) -> tuple[int, dict[Card, int], list[Card]]:
        """The value, every legal card's value and one best line, as the C one's single call."""
        before = _value.cache_info().misses
        h, t = _ints(hands), _ints(trick)
        values = card_values(h, t, int(leader), int(soloist), int(last_bonus))
        found = line(h, t, int(leader), int(soloist), int(last_bonus))
        seat = (int(leader) + len(t)) % 3
        out = (max(values.values()) if seat == soloist else min(values.values())) if values else 0
        self._count(before)
        return out, values, found

    def best_of(
        self,
        hands: Batch,
        last_bonus: Bonuses,
        leader: int,
        soloist: int,
        maximise: bool,
        top: int,
    ) -> tuple[list[int], list[int], int]:
        rows = _rows(hands, last_bonus)
        return best_of(self, [h for h, _ in rows], [b for _, b in rows], leader, soloist, maximise, top)

    def best_of_limited(
        self,
        hands: Batch,
        last_bonus: Bonuses,
        leader: int,
        soloist: int,
        maximise: bool,
        top: int,
        floor: int | None = None,
        deadline: float | None = None,
        shared: Any = None,
        stop: float | None = None,
    ) -> tuple[list[int], list[int], int, bool, int]:
        query = ListQuery(hands, last_bonus, leader, soloist, maximise, top, floor, deadline, shared, stop)
        return best_of_limited(self, query).as_tuple()

    def reaches_batch(
        self, hands: Batch, last_bonus: Bonuses, leader: int, soloist: int, target: int,
        max_fails: int = 0,
    ) -> tuple[list[int], int]:
        return reaches_batch(self, hands, last_bonus, leader, soloist, target, max_fails)

    def clear(self) -> None:
        clear_cache()


def _ints(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)
