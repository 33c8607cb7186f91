"""Against the clock, from a good exchange to a better one: a climb over the discards.

A search against the clock tests a few hundred of a chiamo's 140,000-550,000
candidates, and no order puts a best one that early on most deals; but a best
exchange mostly keeps all but one or two discards of a good one, and a test at
the value a good exchange reached fails fast.  So once its share of the time is
spent on the list, a search climbs from the best exchange it found: the *swaps*
(a seat that discards takes back one of its discards and discards one of its
cards instead) are tested against the value reached, the most promising first
(by the early estimate) and :data:`STEP` at a time; the best of the first few
with a better one is taken, and so on until no swap is better or the time is
out; then it climbs from the next exchange it kept (docs/exchange-search.md).
A swap found no better than a value reached is not tested again at that value
or above.

A chiamo's climb also *moves* the exchange into another layout: the soloist keeps
the same cards but for the call (the new called card for the old) and the return
(the old returned card back for the new one), into every layout whose call is the
highest card of its suit the soloist lacks, or whose call is the same.  A swap or
a move is another candidate of the list, so its value is a candidate's value and
no better than the bound of the whole list.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..game.cards import RANK_THIRDS, cards_of, mask_thirds
from ..search.batch import ListQuery
from ..search.engines import CoreSolver, best_within
from .estimate import position_estimate

__all__ = ["Climbed", "Layouts", "Moves", "climb", "moves", "swaps"]

#: The neighbours tested at a time, the most promising first: the climb moves on from the first few with a better one.
STEP = 16

_THIRDS = np.array([RANK_THIRDS[c % 10] for c in range(40)], dtype=np.int64)


@dataclass(frozen=True)
class Layouts:
    """A list's layouts as a climb moves the soloist's exchange between them: per layout the cards per seat before
    the free discards, the called and returned card (-1: none), the last-trick bonus before the free discards, and
    whether an exchange may move into it."""

    pools: np.ndarray
    call: np.ndarray
    returned: np.ndarray
    bonus: np.ndarray
    target: np.ndarray


@dataclass(frozen=True)
class Moves:
    """What a climb may change of a list's candidates: their free ``discards`` per seat ((n, 3) uint64) and, to move
    them between layouts, each one's layout (``layout_of``) and the list's layouts (``table``; None: swaps only)."""

    discards: np.ndarray
    layout_of: np.ndarray | None = None
    table: Layouts | None = None

    def part(self, rows: np.ndarray) -> Moves:
        """The same for the candidates ``rows`` of the list, in that order."""
        return Moves(np.take(self.discards, rows, axis=0),
                     None if self.layout_of is None else np.take(self.layout_of, rows), self.table)


@dataclass(frozen=True)
class Climbed:
    """An exchange a climb reached: its hands at the first lead, its bonus and free discards per seat (as a
    candidate's), and the candidate it climbed from (its index in the list)."""

    hands: np.ndarray
    bonus: int
    discards: np.ndarray
    base: int
    #: its layout's index in the list's layouts (-1: the base's)
    layout: int = -1


def swaps(hands: np.ndarray, discards: np.ndarray, bonus: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every exchange one swap from a candidate's (``hands``: the 3 hands at the first lead, ``discards``:
    the free discards per seat, ``bonus``: its last-trick bonus): ``(hands, bonus, discards)`` arrays,
    one row per swap, seat by seat, discard by discard, card by card (low to high).

    >>> h, b, d = swaps(np.array([0b011, 0b100 << 10, 0b1000 << 20], dtype=np.uint64),
    ...                 np.array([0b100, 0, 0], dtype=np.uint64), 3)
    >>> [bin(int(x)) for x in h[:, 0]], [bin(int(x)) for x in d[:, 0]], b.tolist()
    (['0b110', '0b101'], ['0b1', '0b10'], [3, 3])
    """
    rows_h, rows_d, rows_b = [], [], []
    for seat in range(3):
        out = int(discards[seat])
        if not out:
            continue
        held = np.fromiter(cards_of(int(hands[seat])), dtype=np.int64)
        gone = np.fromiter(cards_of(out), dtype=np.int64)
        keep = np.repeat(held, len(gone))  # the card discarded instead
        back = np.tile(gone, len(held))  # the discard taken back
        one = np.uint64(1)
        bit_keep, bit_back = one << keep.astype(np.uint64), one << back.astype(np.uint64)
        h = np.repeat(hands[None, :], len(keep), axis=0)
        d = np.repeat(discards[None, :], len(keep), axis=0)
        h[:, seat] = (h[:, seat] & ~bit_keep) | bit_back
        d[:, seat] = (d[:, seat] & ~bit_back) | bit_keep
        rows_h.append(h)
        rows_d.append(d)
        rows_b.append(bonus - _THIRDS[back] + _THIRDS[keep])
    if not rows_h:
        none = np.zeros((0, 3), dtype=np.uint64)
        return none, np.zeros(0, dtype=np.int64), none
    return (np.ascontiguousarray(np.concatenate(rows_h)), np.ascontiguousarray(np.concatenate(rows_b)),
            np.ascontiguousarray(np.concatenate(rows_d)))


def moves(hands: np.ndarray, soloist: int, layout: int, table: Layouts) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                            np.ndarray]:
    """The soloist's exchange (``hands`` at the first lead, in ``layout``) moved into each target layout of ``table``:
    the new called card for the old, the old returned card back for the new, where the soloist then holds as many
    cards of the layout's as before.  ``(hands, bonus, discards, layouts)`` arrays, one row per move."""
    held = int(hands[soloist])
    call, ret = int(table.call[layout]), int(table.returned[layout])
    to = np.nonzero(table.target)[0]
    to = to[to != layout]
    one = np.uint64(1)
    mine = np.full(len(to), held, dtype=np.uint64)

    def has(masks: np.ndarray, cards: np.ndarray) -> np.ndarray:
        there: np.ndarray = (masks >> np.maximum(cards, 0).astype(np.uint64)) & one == one
        return there

    if call >= 0:
        new_call = table.call[to]
        swap = (new_call >= 0) & (new_call != call) & bool(held >> call & 1) & ~has(mine, new_call)
        mine = np.where(swap, mine & ~(one << np.uint64(call)) | (one << np.maximum(new_call, 0).astype(np.uint64)), mine)
    pools = table.pools[to]
    if ret >= 0:
        new_ret = table.returned[to]
        back = (new_ret >= 0) & has(mine, new_ret) & ~has(mine, np.full(len(to), ret)) & has(pools[:, soloist],
                                                                                           np.full(len(to), ret))
        mine = np.where(back, mine & ~(one << np.maximum(new_ret, 0).astype(np.uint64)) | (one << np.uint64(ret)), mine)
    mine &= pools[:, soloist]
    ok = np.bitwise_count(mine) == bin(held).count("1")
    to, mine, pools = to[ok], mine[ok], pools[ok]
    new_hands = pools.copy()
    new_hands[:, soloist] = mine
    discards = np.zeros_like(pools)
    discards[:, soloist] = pools[:, soloist] & ~mine
    bonus = table.bonus[to] + np.array([mask_thirds(int(m)) for m in discards[:, soloist]], dtype=np.int64)
    return new_hands, bonus, discards, to


def _no_better(known: int | None, value: int, maximise: bool) -> bool:
    """Whether an exchange known no better than ``known`` (None: not known) is no better than ``value``."""
    return known is not None and (known <= value if maximise else known >= value)


def climb(
    solver: CoreSolver,
    starts: Sequence[tuple[int, int]],
    hands: np.ndarray,
    bonus: np.ndarray,
    can: Moves,
    leader: int,
    soloist: int,
    maximise: bool,
    deadline: float,
    stop: float | None = None,
) -> tuple[list[tuple[int, Climbed]], int]:
    """Climbs from each of ``starts`` (``(value, index)`` of candidates of the list ``hands``, ``bonus``; the best
    first) in turn until ``deadline``, by swaps and, where ``can`` says the layouts, moves (a test still running at
    ``stop`` gives up): ``([(value, exchange reached)], searches)``, every better exchange met on the way, in the
    order met."""
    discards, layout_of, table = can.discards, can.layout_of, can.table
    found: list[tuple[int, Climbed]] = []
    searches = 0
    seen: set[bytes] = set()
    dead: dict[bytes, int] = {}  # neighbours no better than a value reached, that value
    for value, base in starts:
        h, b, d = hands[base], int(bonus[base]), discards[base]
        lay = -1 if layout_of is None else int(layout_of[base])
        if h.tobytes() in seen:
            continue
        while time.monotonic() < deadline:
            seen.add(h.tobytes())
            nh, nb, nd = swaps(h, d, b)
            nl = np.full(len(nb), lay, dtype=np.int64)
            if table is not None and lay >= 0:
                mh, mb, md, ml = moves(h, soloist, lay, table)
                nh, nb, nd, nl = (np.concatenate([nh, mh]), np.concatenate([nb, mb]), np.concatenate([nd, md]),
                                  np.concatenate([nl, ml]))
            if not len(nb):
                break
            # the neighbours not known to be no better, the most promising first
            fresh = np.array([not _no_better(dead.get(x.tobytes()), value, maximise) for x in nh], dtype=bool)
            nh, nb, nd, nl = nh[fresh], nb[fresh], nd[fresh], nl[fresh]
            guess = np.array([position_estimate(x, soloist, not maximise) for x in nh])
            by = np.argsort(-guess if maximise else guess, kind="stable")
            nh, nb, nd, nl = nh[by], nb[by], nd[by], nl[by]
            k = -1
            for a in range(0, len(nb), STEP):
                z = slice(a, a + STEP)
                query = ListQuery(nh[z], nb[z], leader, soloist, maximise, 1, value, deadline, stop=stop)
                answer = best_within(solver, query)
                searches += answer.searches
                if answer.complete:  # every one of them tested: none better than the best kept
                    dead.update((x.tobytes(), answer.values[0] if answer.kept else value) for x in nh[z])
                if answer.kept:
                    k = a + answer.kept[0]
                    break
            if k < 0:
                break
            if nh[k].tobytes() in seen:  # reached from a better start already
                break
            value, h, b, d, lay = answer.values[0], nh[k], int(nb[k]), nd[k], int(nl[k])
            found.append((value, Climbed(h.copy(), b, d.copy(), base, lay)))
        if time.monotonic() >= deadline:
            break
    return found, searches
