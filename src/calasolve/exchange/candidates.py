"""The candidates of the exchange search (:mod:`calasolve.exchange.search`): every
exchange a contract allows as the position at the first lead, one per class of
equivalent positions, with the cheap estimate that orders them.

1. *Candidates.*  Every complete exchange the contract allows (given the
   choices the record fixes) is turned into the position at the first lead.
   Positions that are the same up to isomorphism have the same value, so
   only one exchange per class is searched: the class is a canonical
   signature -- per suit, the cards still in play from the highest down as
   (owner relative to the soloist, value in thirds), the four suits sorted,
   plus ``last_bonus`` (the leader and the soloist are fixed).  Discarding
   either of two equal adjacent cards of one hand, calling either of two
   monte cards, ... all collapse.  The signatures are built suit by suit
   (the discards within a suit are deduplicated before suits are combined,
   and the combinations are expanded and deduplicated with numpy), so the
   enumeration itself stays cheap.  The exchange kept for a class
   is the one discarding the lowest cards.
2. *Order.*  Candidates are sorted by a cheap static estimate of the
   soloist's prospects (sure tricks, thirds kept, the monte's thirds; for the
   defenders' exchange also the thirds they must follow with under the
   soloist's top cards), best first for the side choosing, so a good bound is
   found early.  A caller who knows a good exchange can name it to be tried
   first (``first``); the most promising prefix is followed by the rest grouped
   by call/return (or takes), for the killer leads the C search carries over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ..search import _core
from .climb import Layouts, Moves
from .estimate import code, early_of_terms, early_suit_terms, suit_estimate
from ..game.cards import LAST_TRICK_THIRDS, Card, Mask, display_order, mask_thirds, popcount, last_trick_bonus
from ..game.errors import CalasolveError
from ..game.exchange import Exchange, called_from
from ..game.state import Contract, defender_seats

__all__ = ["defence_candidates", "dividete_draws"]

Hands = tuple[Mask, Mask, Mask]

_SOLOIST_DISCARDS = 4
_DIVIDETE_TAKES = 2


# -- layouts: the fixed part of an exchange, before the free discards ----------------

@dataclass(frozen=True)
class Layout:
    """Who holds what once the call/return/takes are fixed, and who still discards how many."""

    #: every card in play before the free discards, per seat
    hands: Hands
    #: cards already out of play (discards the record gave)
    out: Mask
    #: free discards per seat
    counts: tuple[int, int, int]
    #: the complete Exchange for the free discards per seat
    build: Callable[[Hands], Exchange]


@dataclass(slots=True)
class Candidate:
    hands: Hands
    last_bonus: int
    layout: Layout
    discards: Hands
    estimate: float = 0.0
    #: the estimate against the clock (None: ``estimate``)
    early: float | None = None

    def exchange(self) -> Exchange:
        return self.layout.build(self.discards)


@dataclass(frozen=True)
class Batch:
    """The candidates of a list of layouts, one per class, as arrays (row ``i`` is
    candidate ``i``): a chiamo deal has about 240,000 of them, too many for objects."""

    layouts: Sequence[Layout]
    #: (n, 3) uint64: the hands at the first lead
    hands: np.ndarray
    #: (n,) int64: last_bonus
    bonus: np.ndarray
    #: (n,) float64: the cheap estimate
    estimate: np.ndarray
    #: (n,) int64: the index of the candidate's layout
    layout: np.ndarray
    #: (n, 3) uint64: the free discards per seat
    discards: np.ndarray
    #: (n,) float64: the estimate that orders a search against the clock (None: ``estimate``)
    early: np.ndarray | None = None
    #: (n,) int64: a number per layout and spread of the discards over the suits, the same for the
    #: candidates of one (None: work it out from the discards, see :func:`groups_of_spreads`)
    spread: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.bonus)

    def candidate(self, i: int) -> Candidate:
        h, d = self.hands[i], self.discards[i]
        return Candidate(
            (int(h[0]), int(h[1]), int(h[2])), int(self.bonus[i]), self.layouts[int(self.layout[i])],
            (int(d[0]), int(d[1]), int(d[2])), float(self.estimate[i]),
            float(self.estimate[i] if self.early is None else self.early[i]),
        )

    def candidates(self) -> list[Candidate]:
        return [self.candidate(i) for i in range(len(self))]

    @classmethod
    def of(cls, cands: Sequence[Candidate]) -> Batch:
        """A batch holding ``cands``, in their order."""
        index: dict[int, int] = {}
        layouts: list[Layout] = []
        for c in cands:
            if id(c.layout) not in index:
                index[id(c.layout)] = len(layouts)
                layouts.append(c.layout)
        return cls(
            layouts,
            np.array([c.hands for c in cands], dtype=np.uint64).reshape(-1, 3),
            np.array([c.last_bonus for c in cands], dtype=np.int64),
            np.array([c.estimate for c in cands], dtype=np.float64),
            np.array([index[id(c.layout)] for c in cands], dtype=np.int64),
            np.array([c.discards for c in cands], dtype=np.uint64).reshape(-1, 3),
            np.array([c.estimate if c.early is None else c.early for c in cands], dtype=np.float64),
        )


#: One suit's distinct outcomes for one vector of discard counts (one count per
#: discarding seat): their signature ids, thirds discarded, estimates, discards as
#: an (n, 3) array of masks per seat, and early terms (n, k: :func:`.estimate.early_suit_terms`).
_Options = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _suit_options(
    layout: Layout, suit: int, soloist: int, sig_ids: dict[tuple[int, ...], int]
) -> dict[tuple[int, ...], _Options]:
    """The distinct outcomes of ``layout``'s free discards in one suit, per vector of
    discard counts.  Discarding equal cards gives the same signature, kept once:
    the discards of the lowest cards, met first."""
    seats = [s for s in range(3) if layout.counts[s]]
    defenders = not layout.counts[soloist]
    held = [(layout.hands[s] >> (10 * suit)) & 0x3FF for s in range(3)]
    cards = [suit * 10 + r for r in range(9, -1, -1) if any(h >> r & 1 for h in held)]  # high -> low
    owner = {c: next(s for s in range(3) if held[s] >> (c % 10) & 1) for c in cards}
    codes = {c: code(c, owner[c], soloist) for c in cards}
    mine = [[c for c in reversed(cards) if owner[c] == s] for s in seats]  # low -> high
    opts: dict[tuple[int, ...], _Options] = {}
    ranges = [range(min(layout.counts[s], len(mine[i])) + 1) for i, s in enumerate(seats)]
    for ks in product(*ranges):
        found: dict[tuple[tuple[int, ...], int], list[int]] = {}
        for combo in product(*(combinations(mine[i], k) for i, k in enumerate(ks))):
            masks = [0, 0, 0]
            gone = 0
            for i, group in enumerate(combo):
                for c in group:
                    masks[seats[i]] |= 1 << c
                gone |= masks[seats[i]]
            sig = tuple(codes[c] for c in cards if not gone >> c & 1)
            found.setdefault((sig, mask_thirds(gone)), masks)
        rows = list(found.items())
        opts[ks] = (
            np.array([sig_ids.setdefault(sig, len(sig_ids)) for (sig, _), _ in rows], dtype=np.int64),
            np.array([thirds for (_, thirds), _ in rows], dtype=np.int64),
            np.array([suit_estimate(sig, defenders) for (sig, _), _ in rows], dtype=np.float64),
            np.array([masks for _, masks in rows], dtype=np.uint64).reshape(-1, 3),
            np.array([early_suit_terms(sig, defenders) for (sig, _), _ in rows], dtype=np.float64).reshape(
                len(rows), early_suit_terms((), defenders).size),
        )
    return opts


def enumerate_candidates(layouts: Sequence[Layout], soloist: int) -> Batch:
    """One candidate per class of the layouts' free discards: the first met in the
    order layout, then spread of the discards over the suits, then each suit's
    outcomes (their product, suit 0 slowest).

    A suit's outcomes are worked out once per distinct holding (the layouts of
    chiamo differ in one or two suits) and kept in flat arrays.  A spread of
    the discards over the suits is then a block of the product of four ranges
    of rows, and all blocks are expanded and deduplicated at once with numpy
    (the products are too many to loop over in Python).
    """
    tables = _suit_tables(layouts, soloist)
    blk = _blocks(tables, len(layouts))
    size = blk[:, 5] * blk[:, 6] * blk[:, 7] * blk[:, 8]
    n = int(size.sum())
    if n == 0:
        empty = np.zeros((0, 3), dtype=np.uint64)
        nothing = np.zeros(0, np.int64)
        return Batch(layouts, empty, nothing, np.zeros(0), nothing, empty, np.zeros(0), nothing)
    ids, thirds, est, disc, early = ([np.concatenate([o[k] for o in tables.flat[u]]) for u in range(4)] for k in range(5))
    which = np.repeat(np.arange(len(blk)), size)
    r = np.arange(n) - np.repeat(np.cumsum(size) - size, size)  # the index within the block
    rows = [np.empty(0, np.int64)] * 4
    for u in (3, 2, 1):
        width = blk[:, 5 + u][which]
        rows[u] = blk[:, 1 + u][which] + r % width
        r //= width
    rows[0] = blk[:, 1][which] + r
    lay = blk[:, 0][which]
    base_bonus = np.array([last_trick_bonus(lay.out) for lay in layouts], dtype=np.int64)
    gone = thirds[0][rows[0]] + thirds[1][rows[1]] + thirds[2][rows[2]] + thirds[3][rows[3]]
    bonus = base_bonus[lay] + gone
    keep = _first_of_classes([ids[u][rows[u]] for u in range(4)], bonus, len(tables.sig_ids))
    rows = [x[keep] for x in rows]
    lay, gone, bonus = lay[keep], gone[keep], bonus[keep]
    discards = np.zeros((len(keep), 3), dtype=np.uint64)
    for seat in {s for layout in layouts for s in range(3) if layout.counts[s]}:  # the seats that discard
        discards[:, seat] = (disc[0][rows[0], seat] | disc[1][rows[1], seat] | disc[2][rows[2], seat]
                             | disc[3][rows[3], seat])
    # summed suit by suit, in this order: the estimate's float ties (broken by index) depend on it
    estimate = est[0][rows[0]] + est[1][rows[1]]
    estimate = estimate + est[2][rows[2]]
    estimate = estimate + est[3][rows[3]]
    estimate = estimate + 0.5 * (base_bonus - LAST_TRICK_THIRDS)[lay] + 0.5 * gone
    terms = early[0][rows[0]] + early[1][rows[1]] + early[2][rows[2]] + early[3][rows[3]]
    early_estimate = early_of_terms(terms, not layouts[0].counts[soloist])
    hands = np.take(np.array([lay.hands for lay in layouts], dtype=np.uint64), lay, axis=0) & ~discards
    return Batch(layouts, hands, bonus, estimate, lay, discards, early_estimate, which[keep])  # a block: one spread


@dataclass
class _SuitTables:
    """The suits' outcomes of a list of layouts (:func:`enumerate_candidates`), each worked out once per distinct
    holding, and each layout's spreads of its discards over the suits."""

    #: every suit signature met: its id
    sig_ids: dict[tuple[int, ...], int] = field(default_factory=dict)
    #: per distinct suit holding and counts: count vector -> its first row and rows in the suit's flat arrays
    wheres: list[dict[tuple[int, ...], tuple[int, int]]] = field(default_factory=list)
    #: per suit: the outcomes, one entry per holding and count vector, in row order
    flat: list[list[_Options]] = field(default_factory=lambda: [[], [], [], []])
    #: per number: (k, 4) each spread's count vector per suit, as its place in `wheres`
    splits: list[np.ndarray] = field(default_factory=list)
    #: per layout: its spreads' number, then its 4 suits' in `wheres`
    per_layout: list[tuple[int, ...]] = field(default_factory=list)


def _suit_tables(layouts: Sequence[Layout], soloist: int) -> _SuitTables:
    """The suits' outcomes and spreads of ``layouts``, layout by layout."""
    tables = _SuitTables()
    where_of: dict[tuple[Any, ...], int] = {}  # a suit's holding and counts: its number among `wheres`
    filled = [0, 0, 0, 0]
    spreads: dict[tuple[Any, ...], int] = {}  # the spreads of a layout's count vectors: their number in `splits`
    wheres = tables.wheres
    for layout in layouts:
        where = []
        for u in range(4):
            key = (u, *((h >> (10 * u)) & 0x3FF for h in layout.hands), layout.counts)
            if key not in where_of:
                at = {}
                for ks, opts in _suit_options(layout, u, soloist, tables.sig_ids).items():
                    at[ks] = (filled[u], len(opts[0]))
                    tables.flat[u].append(opts)
                    filled[u] += len(opts[0])
                where_of[key] = len(wheres)
                wheres.append(at)
            where.append(where_of[key])
        need = tuple(c for c in layout.counts if c)
        spreads_key = (need, *(tuple(wheres[w]) for w in where))
        if spreads_key not in spreads:
            places = [{ks: k for k, ks in enumerate(wheres[w])} for w in where]
            found = [[places[u][ks] for u, ks in enumerate(split)]
                     for split in _count_splits(need, [list(wheres[w]) for w in where])]
            spreads[spreads_key] = len(tables.splits)
            tables.splits.append(np.array(found, dtype=np.int64).reshape(-1, 4))
        tables.per_layout.append((spreads[spreads_key], *where))
    return tables


def _blocks(tables: _SuitTables, count_layouts: int) -> np.ndarray:
    """The blocks (one per layout and spread: its layout, then each suit's first row and rows), layout by layout."""
    wheres, per_layout = tables.wheres, tables.per_layout
    widest = max((len(w) for w in wheres), default=0)
    firsts = np.zeros((len(wheres), widest), dtype=np.int64)
    sizes = np.zeros((len(wheres), widest), dtype=np.int64)
    for w, at in enumerate(wheres):
        firsts[w, : len(at)] = [f for f, _ in at.values()]
        sizes[w, : len(at)] = [z for _, z in at.values()]
    taken = [tables.splits[p[0]] for p in per_layout]
    count = np.array([len(t) for t in taken], dtype=np.int64)
    layout_ids = np.repeat(np.arange(count_layouts, dtype=np.int64), count)
    at_suit = np.concatenate(taken) if taken else np.zeros((0, 4), dtype=np.int64)
    suit_where = np.repeat(np.array(per_layout, dtype=np.int64).reshape(-1, 5)[:, 1:], count, axis=0)
    return np.column_stack([layout_ids]
                           + [firsts[suit_where[:, u], at_suit[:, u]] for u in range(4)]
                           + [sizes[suit_where[:, u], at_suit[:, u]] for u in range(4)])


def _first_of_classes(ids: list[np.ndarray], bonus: np.ndarray, distinct: int) -> np.ndarray:
    """The first row of each class, in row order: a class is the four suit signature ids taken as a
    set with repeats (sorted), and the bonus.  (A bonus is at most 3 + 4 x 3 thirds: it fits 6 bits.)"""
    a, b, c, d = ids
    # the four ids sorted by a network of compare-exchanges (np.sort along rows is far slower)
    a, b = np.minimum(a, b), np.maximum(a, b)
    c, d = np.minimum(c, d), np.maximum(c, d)
    a, c = np.minimum(a, c), np.maximum(a, c)
    b, d = np.minimum(b, d), np.maximum(b, d)
    b, c = np.minimum(b, c), np.maximum(b, c)
    bits = max(1, (distinct - 1).bit_length())
    if 4 * bits + 6 <= 63:  # one key: one stable sort
        key = (((a << bits | b) << bits | c) << bits | d) << 6 | bonus
        by_class = np.argsort(key, kind="stable")
        key = key[by_class]
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
    else:  # the ids are below 2^26
        k1 = a << 32 | b
        k2 = (c << 26 | d) << 6 | bonus
        by_class = np.lexsort((k2, k1))  # stable: the rows of a class stay in order
        k1, k2 = k1[by_class], k2[by_class]
        first = np.ones(len(k1), dtype=bool)
        first[1:] = (k1[1:] != k1[:-1]) | (k2[1:] != k2[:-1])
    keep = np.zeros(len(bonus), dtype=bool)  # the firsts in row order: a mask, not a sort
    keep[by_class[first]] = True
    return np.flatnonzero(keep)


def _count_splits(need: tuple[int, ...], available: list[list[tuple[int, ...]]]) -> Iterator[list[tuple[int, ...]]]:
    """The ways to spread ``need`` (discards per discarding seat) over the 4 suits, each
    suit's count vector one of ``available[suit]``."""

    def rec(suit: int, left: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if suit == 4:
            if not any(left):
                yield []
            return
        for ks in available[suit]:
            if all(k <= n for k, n in zip(ks, left)):
                rest = tuple(n - k for k, n in zip(ks, left))
                for tail in rec(suit + 1, rest):
                    yield [ks, *tail]

    yield from rec(0, need)


# -- the order to try them in ------------------------------------------------------

def order_candidates(batch: Batch, maximise: bool, first: Hands | None, early: bool = False) -> np.ndarray:
    """The order to try the candidates in: best estimate first for the side choosing
    (ties in the order given), a candidate with the hands ``first`` before all; ``early``:
    by the estimate for a search against the clock."""
    estimate = batch.early if early and batch.early is not None else batch.estimate
    # the early estimate counts in halves: twice it sorts as small integers, by radix
    order = _argsort((-2 if maximise else 2) * estimate) if early else np.argsort(
        -estimate if maximise else estimate, kind="stable")
    if first is not None and len(order):
        hit = np.nonzero(np.all(batch.hands[order] == np.array(first, dtype=np.uint64), axis=1))[0]
        if len(hit):
            order = np.concatenate([order[hit[:1]], np.delete(order, hit[0])])
    return order


def grouped_candidates(batch: Batch, order: np.ndarray) -> np.ndarray:
    """The prefix (the most promising) first, then the rest grouped by layout
    (call/return, takes), in ``order`` within each: the killer leads the C search
    carries from one candidate to the next fit candidates of one layout."""
    prefix = max(_core.BEST_OF_PREFIX, len(order) // _core.BEST_OF_PREFIX)
    rest = order[prefix:]
    return np.concatenate([order[:prefix], rest[np.argsort(batch.layout[rest], kind="stable")]])


def groups_of_spreads(batch: Batch) -> np.ndarray:
    """A number per candidate, the same for the candidates of one layout and one spread (how many
    cards each seat discards from each suit)."""
    if batch.spread is not None:
        return batch.spread
    key = np.zeros(len(batch), dtype=np.int64)
    for seat in range(3):
        key = key * 5**4 + _spread(batch.discards[:, seat])
    return batch.layout * 5**12 + key


def _spread(discards: np.ndarray) -> np.ndarray:
    """One seat's discards (masks) as how many cards of each suit, a base-5 digit a suit (at most 4 a suit)."""
    key = np.zeros(len(discards), dtype=np.int64)
    for suit in range(4):
        key = key * 5 + np.bitwise_count((discards >> np.uint64(10 * suit)) & np.uint64(0x3FF)).astype(np.int64)
    return key


def _argsort(key: np.ndarray) -> np.ndarray:
    """``np.argsort(key, kind="stable")``, by radix where the keys are integers in a span of 2 ** 15 (most of
    the early order's: ten times faster on a chiamo's 500,000 candidates)."""
    if len(key):
        lo, hi = key.min(), key.max()
        if hi - lo < 1 << 15 and (key.dtype.kind in "iu" or bool(np.all(key == np.floor(key)))):
            return np.argsort((key - lo).astype(np.int16), kind="stable")
    return np.argsort(key, kind="stable")


def _rounds(order: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``order`` dealt in rounds over the groups: every group's first, then every group's second, ...
    (within a round in ``order``)."""
    g = group[order]
    by_group = _argsort(g)
    sorted_g = g[by_group]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = sorted_g[1:] != sorted_g[:-1]
    begin = np.maximum.accumulate(np.where(starts, np.arange(len(order)), 0))  # where each one's group begins
    rank = np.empty(len(order), dtype=np.int64)
    rank[by_group] = np.arange(len(order)) - begin
    return np.asarray(order[_argsort(rank)])


#: Against the clock, the share of a chiamo's early order for the layouts that call a climb's target (early_chiamo).
TARGET_SHARE = 0.75


def early_candidates(batch: Batch, order: np.ndarray, hedge: np.ndarray | None = None) -> np.ndarray:
    """The order for a search with a time limit: rounds over the layouts (every call/return, or
    takes, its most promising candidate, then every one its second, ...) interleaved with
    rounds over the layouts' spreads of the discards over the suits (every spread its most
    promising discards), each candidate at the first of its places.  The estimate ranks the
    discards within a spread well, and the spreads and the layouts badly: against the clock, no
    call or spread waits behind another's runners-up.  ``hedge``: another estimate's order,
    whose rounds over the spreads take every third place."""
    n = len(order)
    if n == 0:
        return order
    groups = groups_of_spreads(batch)
    rounds = [_rounds(order, batch.layout), _rounds(order, groups)]
    if hedge is not None:
        rounds.append(_rounds(hedge, groups))
    return _interleave(rounds, n)


def _interleave(rounds: Sequence[np.ndarray], size: int) -> np.ndarray:
    """The candidates of ``rounds`` (orders of the same candidates, numbered below ``size``) taking turns,
    each candidate at the first of its places."""
    k, n = len(rounds), len(rounds[0])
    key = np.full(size, k * n, dtype=np.int64)  # by candidate: the first of its places
    for j, r in enumerate(rounds):
        key[r] = np.minimum(key[r], k * np.arange(n) + j)
    there = np.nonzero(key < k * n)[0]
    places = np.full(k * n, -1, dtype=np.int64)  # the places are distinct: each candidate put at its own
    places[key[there]] = there
    return places[places >= 0]


def early_chiamo(batch: Batch, soloist: int, can: Moves, order: np.ndarray, early: np.ndarray,
                 hedge: np.ndarray) -> np.ndarray:
    """A chiamo's order against the clock: :data:`TARGET_SHARE` of the places go to the layouts whose call is a
    climb's target (the highest card of its suit the soloist lacks), in rounds over their call and spread of
    the soloist's discards (every call and spread its most promising discards, whatever the return; ``early``
    and ``hedge`` taking turns); the rest to the other candidates, in ``order`` (:func:`early_candidates`)."""
    if can.table is None or can.layout_of is None:
        return order
    target = can.table.target[can.layout_of]
    group = can.table.call[can.layout_of] * 5**4 + _spread(batch.discards[:, soloist])
    chosen = _interleave([_rounds(o[target[o]], group) for o in (early, hedge)], len(batch))
    rest = order[~target[order]]
    # the chosen's k-th place at k / share, the rest's at (k + 1/2) / (1 - share): each part in its order
    key = np.concatenate([np.arange(len(chosen)) / TARGET_SHARE, (np.arange(len(rest)) + 0.5) / (1 - TARGET_SHARE)])
    return np.asarray(np.concatenate([chosen, rest])[np.argsort(key, kind="stable")])


def early_order(batch: Batch, soloist: int, maximise: bool, first: Hands | None, can: Moves | None) -> np.ndarray:
    """A list's whole order against the clock: :func:`early_candidates` by the early estimate, the soloist's
    hedged with the exact one's rounds over the spreads (measured: the defenders' do not gain), and for a list
    a climb may move between layouts (``can``: chiamo) :func:`early_chiamo`'s share for the target calls."""
    early = order_candidates(batch, maximise, first, early=True)
    hedge = order_candidates(batch, maximise, first) if maximise else None
    order = early_candidates(batch, early, hedge)
    if can is not None and hedge is not None:
        order = early_chiamo(batch, soloist, can, order, early, hedge)
    return order


# -- contracts ---------------------------------------------------------------------------

def soloist_layouts(hands: Hands, monte: Mask, contract: Contract, soloist: int, given: Exchange) -> list[Layout]:
    """solo / chiamo: every way to fix the call and the return (what the record leaves open)."""
    layouts: list[Layout] = []
    given_discards = given.discards[soloist] if given.discards is not None else None
    everything = hands[0] | hands[1] | hands[2] | monte

    def layout(new: list[Mask], call: Card | None, returned: Card | None) -> Layout:
        if given_discards is not None:
            new[soloist] &= ~given_discards
            fixed = given_discards

            def build(_: Hands, call: Card | None = call, returned: Card | None = returned) -> Exchange:
                d = [0, 0, 0]
                d[soloist] = fixed
                return Exchange(call=call, returned=returned, discards=(d[0], d[1], d[2]))

            return Layout((new[0], new[1], new[2]), fixed, (0, 0, 0), build)

        def build2(d: Hands, call: Card | None = call, returned: Card | None = returned) -> Exchange:
            return Exchange(call=call, returned=returned, discards=d)

        counts = [0, 0, 0]
        counts[soloist] = _SOLOIST_DISCARDS
        return Layout((new[0], new[1], new[2]), 0, (counts[0], counts[1], counts[2]), build2)

    if contract == "solo":
        new = list(hands)
        new[soloist] |= monte
        return [layout(new, None, None)]
    calls = [given.call] if given.call is not None else [c for c in display_order(everything & ~hands[soloist])]
    monte_done = False
    for call in calls:
        holder = called_from(hands, monte, call)
        pool = hands[soloist] | monte | 1 << call
        if holder is None:
            # Nothing is handed over: every monte call gives the same deal; keep the first.
            if monte_done and given.call is None:
                continue
            monte_done = True
            new = list(hands)
            new[soloist] = pool
            layouts.append(layout(new, call, None))
            continue
        if given.returned is not None:
            returns = [given.returned]
        else:
            returns = [r for r in _low_first(pool & ~(1 << call)) if given_discards is None or not given_discards >> r & 1]
        for r in returns:
            new = list(hands)
            new[soloist] = pool & ~(1 << r)
            new[holder] = hands[holder] & ~(1 << call) | 1 << r
            layouts.append(layout(new, call, r))
    return layouts


def _low_first(mask: Mask) -> list[Card]:
    """Cards lowest rank first (ties in suit order): the natural order to try giving cards away."""
    return sorted(display_order(mask), key=lambda c: (c % 10, c // 10))


def defender_layouts(hands: Hands, monte: Mask, soloist: int, takes_list: Sequence[Hands]) -> list[Layout]:
    layouts = []
    for takes in takes_list:
        new = (hands[0] | takes[0], hands[1] | takes[1], hands[2] | takes[2])
        counts = (popcount(takes[0]), popcount(takes[1]), popcount(takes[2]))

        def build(d: Hands, takes: Hands = takes) -> Exchange:
            return Exchange(takes=takes, discards=d)

        layouts.append(Layout(new, 0, counts, build))
    return layouts


def _per_seat(soloist: int, first: Mask, second: Mask) -> Hands:
    d1, d2 = defender_seats(soloist)
    out = [0, 0, 0]
    out[d1], out[d2] = first, second
    return out[0], out[1], out[2]


def dividete_draws(monte: Mask, soloist: int) -> list[Hands]:
    """The 6 draws of dividete in their fixed order: seat ``soloist + 1`` gets the pair,
    seat ``soloist + 2`` the rest; pairs in the order of :func:`itertools.combinations`
    over the monte in reading order.

    >>> from calasolve.game.cards import parse_hand, hand_name
    >>> [hand_name(t[1]) for t in dividete_draws(parse_hand("3A.-.-.74"), 0)][:3]
    ['3A.-.-.-', '3.-.-.7', '3.-.-.4']
    """
    cards = display_order(monte)
    out = []
    for pair in combinations(cards, _DIVIDETE_TAKES):
        first = (1 << pair[0]) | (1 << pair[1])
        out.append(_per_seat(soloist, first, monte & ~first))
    return out


def scegliete_splits(monte: Mask, soloist: int) -> list[Hands]:
    """Every split of the open monte between the defenders (4-0, 3-1, 2-2 either way),
    even splits first (the usual best)."""
    cards = display_order(monte)
    splits = []
    for n in (2, 1, 3, 0, 4):
        for group in combinations(cards, n):
            first = sum(1 << c for c in group)
            splits.append(_per_seat(soloist, first, monte & ~first))
    return splits


def defence_candidates(
    hands: Hands, monte: Mask, contract: Contract, soloist: int, *, takes: Hands | None = None, first: Hands | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The defenders' exchanges of a dividete (``takes``: the drawn monte cards) or a
    scegliete as the positions at the first lead, one per class, most promising
    for the defence first (``first`` before all, when it is one of them): the
    hands ((n, 3) uint64) and each one's last-trick bonus ((n,) int64).  The
    soloist's value against the defenders' double-dummy exchange is the least
    of theirs."""
    takes_list = [takes] if takes is not None else scegliete_splits(monte, soloist)
    if contract == "dividete" and takes is None:
        raise CalasolveError("dividete: the defenders' draw (takes) is needed")
    batch = enumerate_candidates(defender_layouts(hands, monte, soloist, takes_list), soloist)
    order = order_candidates(batch, False, first)
    return np.take(batch.hands, order, axis=0), np.take(batch.bonus, order)


# -- what a climb may change (a search against the clock) --------------------------------

def climb_moves(batch: Batch, soloist: int) -> Moves:
    """What a climb may change of ``batch``'s candidates (:mod:`.climb`): their free discards, and for the
    soloist's layouts of several calls and returns (chiamo) the moves between them.  A move's targets are the
    layouts whose call is the highest card of its suit the soloist lacks once he has the monte (the best
    chiamo of the measured deals calls it on 56 of 60), whatever their return."""
    if len(batch.layouts) < 2 or not all(lay.counts[soloist] for lay in batch.layouts):
        return Moves(batch.discards)
    exchanges = [lay.build((0, 0, 0)) for lay in batch.layouts]
    call = np.array([-1 if e.call is None else e.call for e in exchanges], dtype=np.int64)
    returned = np.array([-1 if e.returned is None else e.returned for e in exchanges], dtype=np.int64)
    target = np.zeros(len(exchanges), dtype=bool)
    for i, (lay, c) in enumerate(zip(batch.layouts, call.tolist())):
        if c < 0:
            continue
        had = lay.hands[soloist] | (0 if returned[i] < 0 else 1 << int(returned[i]))  # the pool, the return back
        lacks = (lay.hands[0] | lay.hands[1] | lay.hands[2]) & ~had  # the cards in play he lacks
        target[i] = not any(lacks >> (c // 10 * 10 + r) & 1 for r in range(c % 10 + 1, 10))
    table = Layouts(np.array([lay.hands for lay in batch.layouts], dtype=np.uint64), call, returned,
                    np.array([last_trick_bonus(lay.out) for lay in batch.layouts], dtype=np.int64), target)
    return Moves(batch.discards, batch.layout, table)
