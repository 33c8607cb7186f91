"""The double-dummy-best exchange (docs/rules.md §5 and §9).

:func:`best_exchange` completes a record's exchange the double-dummy way:

* **solo**: the soloist's best 4 discards out of their 16 cards;
* **chiamo**: the best card to call, then (when a defender handed it over)
  the best card to return, then the best 4 discards;
* **dividete**: which two monte cards each defender gets is chance; each of
  the 6 equally likely draws is solved with the defenders' best discards
  (they minimise), and the mean is reported;
* **scegliete**: the defenders' best split of the face-up monte and their
  best discards (they minimise).

What the record gives is kept (and was already checked by the record); only
the missing choices are searched.  :func:`solve_with_exchange` then plays
the deal out with the best exchange (what ``calasolve solve`` does for a
record whose exchange is incomplete).

**The text of an exchange** (:func:`exchange_text`), cards in reading order:

* solo: ``discard 6B 5C FD 7D``;
* chiamo: ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``, or
  ``call 3C from the monte, discard ...`` (nothing is handed over or returned);
* dividete and scegliete, per defender:
  ``seat 1 takes RB 4B, discards 7S 4D; seat 2 takes nothing``.

**How the search works.**

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
   first (``first``).
3. *Null-window tests against the bound.*  The side choosing keeps the ``top``
   best candidates found so far; a new candidate is solved exactly only if a
   null-window test (:meth:`Solver.reaches`) shows it beats the ``top``-th
   best (for the soloist: ``reaches(v + 1)``; for the defenders: not
   ``reaches(v)``).  Most candidates are rejected by that one test.
4. *One solver* serves every candidate (and the play afterwards), so its
   transposition table is shared across them.  With the C solver the whole
   list search runs in one core call (``cs_best_of``, csrc/exchange.c): it
   keeps each candidate's fail-soft bounds (a failed test usually proves
   more than asked, so later passes skip the candidate) and carries the
   killer leads from one candidate to the next, the candidates of one
   call/return (or takes) coming together after the most promising prefix.

The answer is exact: every class is either solved or proven no better than
the ``top``-th best.  Ties keep the candidate met first.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from . import _core
from .cards import LAST_TRICK_THIRDS, MAKE_THIRDS, RANK_THIRDS, TOTAL_THIRDS, Card, Mask, card_name, display_order, hand_name, mask_thirds, popcount
from .errors import CalasolveError, ExchangeError, ParameterError
from .exchange import Exchange, called_from
from .game import defender_seats
from .solving import CoreSolver, SolveResult, default_solver, solve, total_nodes

__all__ = [
    "Draw",
    "ExchangeResult",
    "best_exchange",
    "exchange_text",
    "search_exchange",
    "solve_with_exchange",
]

Hands = tuple[Mask, Mask, Mask]
#: An exchange and the soloist's final thirds (double dummy) with it.
Choice = tuple[Exchange, int]

_SOLOIST_DISCARDS = 4
_DIVIDETE_TAKES = 2


# -- results -------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    """Dividete: one of the 6 equally likely draws of the monte and the defenders' best discards."""

    #: the monte cards each seat received (0 for the soloist)
    takes: Hands
    #: the complete exchange: these takes and the defenders' best discards
    exchange: Exchange
    #: the soloist's final thirds with that exchange, double dummy
    value: int

    def __repr__(self) -> str:
        takes = {str(s): hand_name(m) for s, m in enumerate(self.takes) if m}
        return f"Draw(takes={takes!r}, exchange={self.exchange!r}, value={self.value})"


@dataclass(frozen=True)
class ExchangeResult:
    """The double-dummy-best exchange of a record (see the module doc).

    ``exchange`` is complete and ``value`` is the soloist's final thirds with
    it under best play.  ``alternatives`` (solo and chiamo) are the ``top``
    best exchanges that lead to different positions, best first, the best
    included.  For dividete without ``takes``, ``draws`` has the 6 draws in a
    fixed order (seat ``soloist + 1`` gets the first pair of monte cards in
    reading order, ...), ``mean`` their average, and ``exchange``/``value``
    describe the draw worst for the soloist (the one the defenders would
    pick if they could choose; the first such draw on a tie).
    """

    contract: str
    soloist: int
    exchange: Exchange
    value: int
    alternatives: tuple[Choice, ...] = ()
    draws: tuple[Draw, ...] = ()
    mean: float | None = None
    #: the exchange as the record gave it (possibly partial)
    given: Exchange = Exchange()
    #: whether anything was searched (False when the record gave the whole exchange)
    searched: bool = True
    #: distinct candidate exchanges (classes of equivalent ones) considered
    candidates: int = 0
    #: solver calls made (null-window tests and exact solves)
    searches: int = 0
    nodes: int = 0
    seconds: float = 0.0
    hands: Hands = field(default=(0, 0, 0), repr=False, compare=False)
    monte: Mask = field(default=0, repr=False, compare=False)

    def __repr__(self) -> str:
        more = f", mean of the draws {self.mean:.2f}" if self.draws else f", {len(self.alternatives)} alternatives"
        return f"<ExchangeResult {self.contract} for seat {self.soloist}: {self.text()} -> {self.value} thirds{more}>"

    @property
    def makes(self) -> bool:
        return self.value >= MAKE_THIRDS

    def text(self, exchange: Exchange | None = None) -> str:
        """The text form of ``exchange`` (default: the best one)."""
        return exchange_text(exchange or self.exchange, self.contract, self.soloist, self.hands, self.monte)

    def _choice_dict(self, exchange: Exchange, value: int) -> dict[str, Any]:
        return {
            "text": self.text(exchange),
            "soloist_thirds": value,
            "soloist_points": value // 3,
            "makes": value >= MAKE_THIRDS,
            "exchange": exchange.to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: ``best`` and ``alternatives`` as ``{text, soloist_thirds, soloist_points,
        makes, exchange}``; dividete adds ``draws`` (the same, plus ``takes``) and ``mean``."""
        out: dict[str, Any] = {
            "contract": self.contract,
            "soloist": self.soloist,
            "given": self.given.to_dict(),
            "searched": self.searched,
            "best": self._choice_dict(self.exchange, self.value),
            "alternatives": [self._choice_dict(ex, v) for ex, v in self.alternatives],
        }
        if self.draws:
            out["draws"] = [
                {"takes": {str(s): _tokens(d.takes[s]) for s in defender_seats(self.soloist)}, **self._choice_dict(d.exchange, d.value)}
                for d in self.draws
            ]
            out["mean"] = self.mean
        out["candidates"] = self.candidates
        out["searches"] = self.searches
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


def _tokens(mask: Mask) -> str:
    return " ".join(card_name(c) for c in display_order(mask))


def exchange_text(exchange: Exchange, contract: str, soloist: int, hands: Sequence[Mask], monte: Mask) -> str:
    """The exchange in words, e.g. ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``.

    >>> from calasolve.cards import parse_card, parse_hand
    >>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
    >>> monte = parse_hand("-.-.4.327")
    >>> exchange_text(Exchange(call=parse_card("AD"), returned=parse_card("4D"),
    ...               discards=(parse_hand("R.-.4.75"), 0, 0)), "chiamo", 0, hands, monte)
    'call AD from seat 1, return 4D, discard RB 4C 7D 5D'
    >>> exchange_text(Exchange(takes=(0, parse_hand("-.-.4.3"), parse_hand("-.-.-.27")),
    ...               discards=(0, parse_hand("7.-.-.6"), parse_hand("5.-.-.7"))), "dividete", 0, hands, monte)
    'seat 1 takes 4C 3D, discards 7B 6D; seat 2 takes 2D 7D, discards 5B 7D'
    """
    parts: list[str] = []
    if contract in ("chiamo", "solo"):
        if exchange.call is not None:
            holder = called_from(hands, monte, exchange.call)
            where = "the monte" if holder is None else f"seat {holder}"
            parts.append(f"call {card_name(exchange.call)} from {where}")
        if exchange.returned is not None:
            parts.append(f"return {card_name(exchange.returned)}")
        if exchange.discards is not None:
            parts.append(f"discard {_tokens(exchange.discards[soloist])}")
        return ", ".join(parts) or "-"
    if contract in ("dividete", "scegliete"):
        for seat in defender_seats(soloist):
            took = exchange.takes[seat] if exchange.takes is not None else None
            text = f"seat {seat} takes " + ("?" if took is None else (_tokens(took) or "nothing"))
            if exchange.discards is not None and exchange.discards[seat]:
                text += f", discards {_tokens(exchange.discards[seat])}"
            parts.append(text)
        return "; ".join(parts)
    return "no exchange"


# -- layouts: the fixed part of an exchange, before the free discards ----------------

@dataclass(frozen=True)
class _Layout:
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
class _Candidate:
    hands: Hands
    last_bonus: int
    layout: _Layout
    discards: Hands
    estimate: float = 0.0

    def exchange(self) -> Exchange:
        return self.layout.build(self.discards)


def _code(card: Card, owner: int, soloist: int) -> int:
    """A card in a suit signature: its owner relative to the soloist (0 = the
    soloist) times 4, plus its thirds (0, 1 or 3)."""
    return ((owner - soloist) % 3) * 4 + RANK_THIRDS[card % 10]


@dataclass(frozen=True)
class _Batch:
    """The candidates of a list of layouts, one per class, as arrays (row ``i`` is
    candidate ``i``): a chiamo deal has about 240,000 of them, too many for objects."""

    layouts: Sequence[_Layout]
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

    def __len__(self) -> int:
        return len(self.bonus)

    def candidate(self, i: int) -> _Candidate:
        h, d = self.hands[i], self.discards[i]
        return _Candidate(
            (int(h[0]), int(h[1]), int(h[2])), int(self.bonus[i]), self.layouts[int(self.layout[i])],
            (int(d[0]), int(d[1]), int(d[2])), float(self.estimate[i]),
        )

    def candidates(self) -> list[_Candidate]:
        return [self.candidate(i) for i in range(len(self))]

    @classmethod
    def of(cls, cands: Sequence[_Candidate]) -> _Batch:
        """A batch holding ``cands``, in their order."""
        index: dict[int, int] = {}
        layouts: list[_Layout] = []
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
        )


#: One suit's distinct outcomes for one vector of discard counts (one count per
#: discarding seat): their signature ids, thirds discarded, estimates, and
#: discards as an (n, 3) array of masks per seat.
_Options = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _suit_options(
    layout: _Layout, suit: int, soloist: int, sig_ids: dict[tuple[int, ...], int]
) -> dict[tuple[int, ...], _Options]:
    """The distinct outcomes of ``layout``'s free discards in one suit, per vector of
    discard counts.  Discarding equal cards gives the same signature, kept once:
    the discards of the lowest cards, met first."""
    seats = [s for s in range(3) if layout.counts[s]]
    defenders = not layout.counts[soloist]
    held = [(layout.hands[s] >> (10 * suit)) & 0x3FF for s in range(3)]
    cards = [suit * 10 + r for r in range(9, -1, -1) if any(h >> r & 1 for h in held)]  # high -> low
    owner = {c: next(s for s in range(3) if held[s] >> (c % 10) & 1) for c in cards}
    codes = {c: _code(c, owner[c], soloist) for c in cards}
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
            np.array([_suit_estimate(sig, defenders) for (sig, _), _ in rows], dtype=np.float64),
            np.array([masks for _, masks in rows], dtype=np.uint64).reshape(-1, 3),
        )
    return opts


def _enumerate(layouts: Sequence[_Layout], soloist: int) -> _Batch:
    """One candidate per class of the layouts' free discards: the first met in the
    order layout, then spread of the discards over the suits, then each suit's
    outcomes (their product, suit 0 slowest).

    A suit's outcomes are worked out once per distinct holding (the layouts of
    chiamo differ in one or two suits) and kept in flat arrays.  A spread of
    the discards over the suits is then a block of the product of four ranges
    of rows, and all blocks are expanded and deduplicated at once with numpy
    (for chiamo about 3x faster than looping over the products).
    """
    sig_ids: dict[tuple[int, ...], int] = {}
    where_of: dict[tuple[Any, ...], dict[tuple[int, ...], tuple[int, int]]] = {}
    flat: list[list[_Options]] = [[], [], [], []]
    filled = [0, 0, 0, 0]
    blocks: list[tuple[int, ...]] = []  # per spread: layout, first row and size per suit
    spreads: dict[tuple[Any, ...], list[list[tuple[int, ...]]]] = {}
    for li, layout in enumerate(layouts):
        where = []
        for u in range(4):
            key = (u, *((h >> (10 * u)) & 0x3FF for h in layout.hands), layout.counts)
            if key not in where_of:
                at = where_of[key] = {}
                for ks, opts in _suit_options(layout, u, soloist, sig_ids).items():
                    at[ks] = (filled[u], len(opts[0]))
                    flat[u].append(opts)
                    filled[u] += len(opts[0])
            where.append(where_of[key])
        need = tuple(c for c in layout.counts if c)
        spreads_key = (need, *(tuple(w) for w in where))
        if spreads_key not in spreads:
            spreads[spreads_key] = list(_count_splits(need, [list(w) for w in where]))
        for split in spreads[spreads_key]:
            firsts = [where[u][split[u]] for u in range(4)]
            blocks.append((li, *(f[0] for f in firsts), *(f[1] for f in firsts)))
    size = np.array([b[5] * b[6] * b[7] * b[8] for b in blocks], dtype=np.int64)
    n = int(size.sum())
    if n == 0:
        empty = np.zeros((0, 3), dtype=np.uint64)
        return _Batch(layouts, empty, np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), empty)
    ids, thirds, est, disc = ([np.concatenate([o[k] for o in flat[u]]) for u in range(4)] for k in range(4))
    block = np.array(blocks, dtype=np.int64)[np.repeat(np.arange(len(blocks)), size)]
    r = np.arange(n) - np.repeat(np.cumsum(size) - size, size)  # the index within the block
    rows = [np.empty(0, np.int64)] * 4
    for u in (3, 2, 1):
        rows[u] = block[:, 1 + u] + r % block[:, 5 + u]
        r //= block[:, 5 + u]
    rows[0] = block[:, 1] + r
    lay = block[:, 0]
    base_bonus = np.array([LAST_TRICK_THIRDS + mask_thirds(l.out) for l in layouts], dtype=np.int64)
    gone = thirds[0][rows[0]] + thirds[1][rows[1]] + thirds[2][rows[2]] + thirds[3][rows[3]]
    bonus = base_bonus[lay] + gone
    # The class: the four suit signatures sorted, and the bonus; its first row is kept.
    # (The ids count this batch's suit outcomes, far fewer than the 2^26 they may use
    # here, and a bonus is at most 3 + 4 x 3 thirds: it fits its 6 bits.)
    sig = np.sort(np.stack([ids[u][rows[u]] for u in range(4)], axis=1), axis=1)
    k1 = sig[:, 0] << 32 | sig[:, 1]
    k2 = (sig[:, 2] << 26 | sig[:, 3]) << 6 | bonus
    by_class = np.lexsort((k2, k1))  # stable: the rows of a class stay in order
    k1, k2 = k1[by_class], k2[by_class]
    first = np.ones(n, dtype=bool)
    first[1:] = (k1[1:] != k1[:-1]) | (k2[1:] != k2[:-1])
    keep = np.sort(by_class[first])
    rows = [x[keep] for x in rows]
    lay, gone, bonus = lay[keep], gone[keep], bonus[keep]
    discards = disc[0][rows[0]] | disc[1][rows[1]] | disc[2][rows[2]] | disc[3][rows[3]]
    # summed in the order of the scalar formula this replaced: ties in the estimate go by index
    estimate = est[0][rows[0]] + est[1][rows[1]]
    estimate = estimate + est[2][rows[2]]
    estimate = estimate + est[3][rows[3]]
    estimate = estimate + 0.5 * (base_bonus - LAST_TRICK_THIRDS)[lay] + 0.5 * gone
    hands = np.array([l.hands for l in layouts], dtype=np.uint64)[lay] & ~discards
    return _Batch(layouts, hands, bonus, estimate, lay, discards)


def _count_splits(need: tuple[int, ...], available: list[list[tuple[int, ...]]]) -> Iterator[list[tuple[int, ...]]]:
    """The ways to spread ``need`` (discards per discarding seat) over the 4 suits, each
    suit's count vector one of ``available[suit]``."""

    def rec(suit: int, left: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if suit == 4:
            if not any(left):
                yield []
            return
        for ks in available[suit]:
            if all(k <= l for k, l in zip(ks, left)):
                rest = tuple(l - k for k, l in zip(ks, left))
                for tail in rec(suit + 1, rest):
                    yield [ks, *tail]

    yield from rec(0, need)


# -- the cheap estimate ------------------------------------------------------------

_SUIT_ESTIMATES: dict[tuple[tuple[int, ...], bool], float] = {}

#: Weight of the defenders' forced thirds in the estimate of their exchanges.
_FORCED_WEIGHT = 3.0


def _suit_estimate(sig: tuple[int, ...], defenders: bool = False) -> float:
    """One suit's share of a rough guess of the soloist's prospects, used only to
    order the candidates: thirds in the soloist's top sequence (sure tricks) count
    fully, the soloist's lower point cards a little, a void 1.  ``sig`` is the
    suit's signature (see :func:`_code`), highest card first; the guess adds the
    monte's thirds / 2.

    When the defenders discard (``defenders``), the guess also counts, three
    times, the thirds each defender must follow with while the soloist runs his
    top sequence (their lowest cards of the suit, as many as the sequence is
    long).  Throwing those point cards is what the defenders' best exchanges most
    often do, and with the best met early every other candidate is tested at the
    final bound: the advisor's ``dd`` scegliete needs 17-21% less CPU (two seeds
    of 30-40 samples; dividete within 3%).  For the soloist's exchange the term
    only cost chiamo up to 7% more nodes, so it is left out there.

    >>> _suit_estimate((1, 1, 5, 4))  # the soloist's 3 and 2 over a defender's R and 4
    6.0
    >>> _suit_estimate((1, 1, 5, 4), defenders=True)  # who must follow with both: 1 third
    9.0
    """
    score = _SUIT_ESTIMATES.get((sig, defenders))
    if score is None:
        score = 0.0
        others = False
        top = 0  # the soloist's top sequence: his cards above every defender's
        for code in sig:
            if code >= 4:  # a defender's card
                others = True
            elif not others:
                score += 2.0 + code
                top += 1
            else:
                score += 0.3 * code
        if all(code >= 4 for code in sig):
            score += 1.0  # a void lets the soloist throw losers
        if defenders and top:
            for seat in (1, 2):
                held = [code & 3 for code in sig if code >> 2 == seat]  # highest first
                score += _FORCED_WEIGHT * sum(held[-top:])
        _SUIT_ESTIMATES[(sig, defenders)] = score
    return score


# -- the search ------------------------------------------------------------------------

@dataclass
class _Stats:
    searches: int = 0


#: How far below the best the passes for the runners-up look, in thirds (the last: everything).
_PASS_DEPTHS = (4, 10, 36)
#: The first max(_PREFIX, n / _PREFIX) candidates in order only look for a better best.
_PREFIX = 50


def _order(batch: _Batch, maximise: bool, first: Hands | None) -> np.ndarray:
    """The order to try the candidates in: best estimate first for the side choosing
    (ties in the order given), a candidate with the hands ``first`` before all."""
    order = np.argsort(-batch.estimate if maximise else batch.estimate, kind="stable")
    if first is not None and len(order):
        hit = np.nonzero(np.all(batch.hands[order] == np.array(first, dtype=np.uint64), axis=1))[0]
        if len(hit):
            order = np.concatenate([order[hit[:1]], np.delete(order, hit[0])])
    return order


def _best_of(
    solver: CoreSolver,
    cands: _Batch | Sequence[_Candidate],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: _Stats,
    first: Hands | None = None,
) -> list[tuple[int, int, _Candidate]]:
    """The ``top`` best candidates for the side choosing, as ``(value, index, candidate)``,
    best first (ties: the first met in the order of the estimate; a candidate with
    the hands ``first``, if any, is met first of all).

    The first candidate is solved exactly, and the next most promising ones (the
    first 2 %, at least 50) are only tested for beating it, so that the best is
    good before the runners-up are looked for.  Every candidate then gets a null-window
    test: "strictly better than the threshold?", where the threshold is the
    ``top``-th best so far, or, while fewer than ``top`` are known, the best so far
    minus a depth (4 thirds in the first pass).  Only a candidate that passes is
    valued: a new best exactly, a runner-up by bisecting between the threshold
    and the best (a few more tests).  If the pass ends with fewer than ``top``
    candidates, the next one looks deeper (10 thirds, then everything), skipping
    every candidate already proven too
    weak (so once ``top`` candidates tie with the best, the rest cost nothing).
    With ``top`` = 1 this is one test per candidate against the best so far.  A
    last sweep checks that no candidate left out can beat the list.
    """
    batch = cands if isinstance(cands, _Batch) else _Batch.of(cands)
    order = _order(batch, maximise, first)
    if isinstance(solver, _core.Solver):
        return _best_of_c(solver, batch, order, leader, soloist, maximise=maximise, top=top, stats=stats)
    cands = batch.candidates() if isinstance(cands, _Batch) else cands
    order = order.tolist()
    position = {i: k for k, i in enumerate(order)}
    step = 1 if maximise else -1

    def args(i: int) -> tuple[Hands, tuple[()], int, int, int]:
        return cands[i].hands, (), leader, soloist, cands[i].last_bonus

    def better(a: int, b: int) -> bool:
        return a > b if maximise else a < b

    def beats(i: int, b: int) -> bool:
        """Is candidate ``i`` strictly better than ``b`` for the side choosing?"""
        if maximise:
            if b >= TOTAL_THIRDS:
                return False  # nothing beats all 35 thirds
            stats.searches += 1
            return bool(solver.reaches(*args(i), b + 1))
        if b <= 0:
            return False  # nothing beats 0 thirds
        stats.searches += 1
        return not solver.reaches(*args(i), b)

    def exact(i: int) -> int:
        stats.searches += 1
        return int(solver.value(*args(i)))

    best_i = order[0]
    best_v = exact(best_i)
    known = {best_i: best_v}  # exact values
    bound: dict[int, int] = {}  # proven: candidate i is no better than bound[i]
    kept = [(best_v, best_i)]
    in_kept = {best_i}

    def sort_key(t: tuple[int, int]) -> tuple[int, int]:
        return (-t[0] if maximise else t[0]), position[t[1]]

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

    # A good best first: the most promising candidates, tested against the best only.
    for i in order[1 : max(_PREFIX, len(order) // _PREFIX)]:
        consider(i, best_v)
    for depth in _PASS_DEPTHS:
        for i in order:
            if i not in in_kept:
                consider(i, threshold(depth))
        if len(kept) >= top:
            break
    # Every candidate left out must be proven no better than the list's last
    # (after the passes this costs nothing unless the best moved late in a pass).
    for i in order:
        if i not in in_kept:
            consider(i, kept[-1][0] if len(kept) >= top else best_v - step * 99)
    return [(v, i, cands[i]) for v, i in kept]


def _grouped(batch: _Batch, order: np.ndarray) -> np.ndarray:
    """The prefix (the most promising) first, then the rest grouped by layout
    (call/return, takes), in ``order`` within each: the killer leads the C search
    carries from one candidate to the next fit candidates of one layout."""
    prefix = max(_PREFIX, len(order) // _PREFIX)
    rest = order[prefix:]
    return np.concatenate([order[:prefix], rest[np.argsort(batch.layout[rest], kind="stable")]])


def _best_of_c(
    solver: Any,
    batch: _Batch,
    order: np.ndarray,
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: _Stats,
) -> list[tuple[int, int, _Candidate]]:
    """:func:`_best_of` in one call of the C core (``cs_best_of``, the same
    passes, with every candidate's fail-soft bounds kept between them)."""
    order = _grouped(batch, order)
    kept, values, searches = _core.best_of(
        solver, batch.hands[order].tolist(), batch.bonus[order].tolist(), leader, soloist, maximise, top
    )
    stats.searches += searches
    return [(v, int(order[k]), batch.candidate(int(order[k]))) for k, v in zip(kept, values)]


# -- contracts ---------------------------------------------------------------------------

def _soloist_layouts(hands: Hands, monte: Mask, contract: str, soloist: int, given: Exchange) -> list[_Layout]:
    """solo / chiamo: every way to fix the call and the return (what the record leaves open)."""
    layouts: list[_Layout] = []
    given_discards = given.discards[soloist] if given.discards is not None else None
    everything = hands[0] | hands[1] | hands[2] | monte

    def layout(new: list[Mask], call: Card | None, returned: Card | None) -> _Layout:
        if given_discards is not None:
            new[soloist] &= ~given_discards
            fixed = given_discards

            def build(_: Hands, call: Card | None = call, returned: Card | None = returned) -> Exchange:
                d = [0, 0, 0]
                d[soloist] = fixed
                return Exchange(call=call, returned=returned, discards=(d[0], d[1], d[2]))

            return _Layout((new[0], new[1], new[2]), fixed, (0, 0, 0), build)

        def build2(d: Hands, call: Card | None = call, returned: Card | None = returned) -> Exchange:
            return Exchange(call=call, returned=returned, discards=d)

        counts = [0, 0, 0]
        counts[soloist] = _SOLOIST_DISCARDS
        return _Layout((new[0], new[1], new[2]), 0, (counts[0], counts[1], counts[2]), build2)

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


def _defender_layouts(hands: Hands, monte: Mask, soloist: int, takes_list: Sequence[Hands]) -> list[_Layout]:
    layouts = []
    for takes in takes_list:
        new = (hands[0] | takes[0], hands[1] | takes[1], hands[2] | takes[2])
        counts = (popcount(takes[0]), popcount(takes[1]), popcount(takes[2]))

        def build(d: Hands, takes: Hands = takes) -> Exchange:
            return Exchange(takes=takes, discards=d)

        layouts.append(_Layout(new, 0, counts, build))
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

    >>> from calasolve.cards import parse_hand, hand_name
    >>> [hand_name(t[1]) for t in dividete_draws(parse_hand("3A.-.-.74"), 0)][:3]
    ['3A.-.-.-', '3.-.-.7', '3.-.-.4']
    """
    cards = display_order(monte)
    out = []
    for pair in combinations(cards, _DIVIDETE_TAKES):
        first = (1 << pair[0]) | (1 << pair[1])
        out.append(_per_seat(soloist, first, monte & ~first))
    return out


def _scegliete_splits(monte: Mask, soloist: int) -> list[Hands]:
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
    hands: Hands, monte: Mask, contract: str, soloist: int, *, takes: Hands | None = None, first: Hands | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The defenders' exchanges of a dividete (``takes``: the drawn monte cards) or a
    scegliete as the positions at the first lead, one per class, most promising
    for the defence first (``first`` before all, when it is one of them): the
    hands ((n, 3) uint64) and each one's last-trick bonus ((n,) int64).  The
    soloist's value against the defenders' double-dummy exchange is the least
    of theirs."""
    takes_list = [takes] if takes is not None else _scegliete_splits(monte, soloist)
    if contract == "dividete" and takes is None:
        raise CalasolveError("dividete: the defenders' draw (takes) is needed")
    batch = _enumerate(_defender_layouts(hands, monte, soloist, takes_list), soloist)
    order = _order(batch, False, first)
    return np.ascontiguousarray(batch.hands[order]), np.ascontiguousarray(batch.bonus[order])


def search_exchange(
    hands: Sequence[Mask],
    monte: Mask,
    contract: str,
    soloist: int,
    leader: int,
    *,
    given: Exchange = Exchange(),
    solver: CoreSolver | None = None,
    top: int = 10,
    first: Hands | None = None,
) -> ExchangeResult:
    """The best completion of ``given`` for a deal as dealt: ``hands`` (three equal
    hands), ``monte`` (4 cards), ``leader`` of the first trick.

    This is :func:`best_exchange` without a record, so it also takes short hands
    (any equal size), which is how it is tested against brute force.  ``given``
    is trusted (a record has already checked it).  ``first``: the hands after an
    exchange to try before all others (see :func:`best_exchange`)."""
    if top < 1:
        raise CalasolveError(f"top {top}: must be at least 1")
    solver = solver or default_solver()
    start = time.perf_counter()
    h: Hands = (hands[0], hands[1], hands[2])
    stats = _Stats()
    nodes_before = total_nodes(solver)
    common: dict[str, Any] = {"contract": contract, "soloist": soloist, "given": given, "hands": h, "monte": monte}

    def run(layouts: Sequence[_Layout], maximise: bool, n: int) -> tuple[list[tuple[int, int, _Candidate]], int]:
        batch = _enumerate(layouts, soloist)
        return _best_of(solver, batch, leader, soloist, maximise=maximise, top=n, stats=stats, first=first), len(batch)

    if contract in ("solo", "chiamo"):
        kept, count = run(_soloist_layouts(h, monte, contract, soloist, given), True, top)
        alternatives = tuple((c.exchange(), v) for v, _, c in kept)
        best, value = alternatives[0]
        return ExchangeResult(
            exchange=best, value=value, alternatives=alternatives, candidates=count,
            searches=stats.searches, nodes=total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
        )
    if contract in ("dividete", "scegliete"):
        if given.takes is not None:
            kept, count = run(_defender_layouts(h, monte, soloist, [given.takes]), False, 1)
            value, _, c = kept[0]
            ex = c.exchange()
            return ExchangeResult(
                exchange=ex, value=value, alternatives=((ex, value),), candidates=count,
                searches=stats.searches, nodes=total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
            )
        if contract == "scegliete":
            kept, count = run(_defender_layouts(h, monte, soloist, _scegliete_splits(monte, soloist)), False, 1)
            value, _, c = kept[0]
            ex = c.exchange()
            return ExchangeResult(
                exchange=ex, value=value, alternatives=((ex, value),), candidates=count,
                searches=stats.searches, nodes=total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
            )
        draws = []
        total = 0
        for takes in dividete_draws(monte, soloist):
            kept, count = run(_defender_layouts(h, monte, soloist, [takes]), False, 1)
            value, _, c = kept[0]
            draws.append(Draw(takes, c.exchange(), value))
            total += count
        worst = min(range(len(draws)), key=lambda i: (draws[i].value, i))
        return ExchangeResult(
            exchange=draws[worst].exchange, value=draws[worst].value,
            alternatives=((draws[worst].exchange, draws[worst].value),), draws=tuple(draws),
            mean=sum(d.value for d in draws) / len(draws), candidates=total,
            searches=stats.searches, nodes=total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
        )
    # solissimo: nothing to choose
    value = solver.value(h, (), leader, soloist, LAST_TRICK_THIRDS + mask_thirds(monte))
    return ExchangeResult(
        exchange=Exchange(), value=value, alternatives=((Exchange(), value),), searched=False, candidates=1,
        searches=1, nodes=solver.nodes, seconds=time.perf_counter() - start, **common,
    )


def best_exchange(
    record: Any, *, solver: CoreSolver | None = None, top: int = 10, first: Hands | None = None
) -> ExchangeResult:
    """The double-dummy-best exchange of a deal ``record`` (see the module doc).

    What the record gives is kept; the rest is searched.  When the record gives
    the whole exchange (or the contract has none) nothing is searched and the
    result holds that exchange and its value.  ``value`` is the soloist's final
    thirds from the first lead (cards already ``played`` are not taken into
    account).

    ``first``: the three hands after some exchange known to be good, tried before
    every other candidate, so that its value bounds the rest from the start (the
    advisor passes the defenders' best dividete exchange of a sample to its
    scegliete search, where the same hands are one of the candidates: 9-12%
    less CPU for the two).  The value found is the same with or without it; among exchanges of
    equal value, the one reported may differ.
    """
    _check_search_arguments(record, solver, top)
    if first is not None:
        from .game import check_deal

        check_deal(first, 0, record.soloist, record.first_leader)
    solver = solver or default_solver()
    leader = record.first_leader
    if not record.needs_exchange:
        start = time.perf_counter()
        hands, monte = record.after_exchange()
        value = solver.value(hands, (), leader, record.soloist, LAST_TRICK_THIRDS + mask_thirds(monte))
        ex = record.exchange
        return ExchangeResult(
            contract=record.contract, soloist=record.soloist, exchange=ex, value=value,
            alternatives=((ex, value),), given=ex, searched=False, candidates=1, searches=1,
            nodes=solver.nodes, seconds=time.perf_counter() - start, hands=record.hands, monte=record.monte,
        )
    return search_exchange(
        record.hands, record.monte, record.contract, record.soloist, leader,
        given=record.exchange, solver=solver, top=top, first=first,
    )


def _check_search_arguments(record: Any, solver: Any, top: Any) -> None:
    from .dealfile import check_record
    from .limits import MAX_TOP, check_int
    from .solving import check_solver

    check_record("record", record)
    check_solver("solver", solver)
    check_int("top", top, 1, MAX_TOP)


def solve_with_exchange(
    record: Any,
    *,
    solver: CoreSolver | None = None,
    top: int = 10,
    target: int | None = None,
    objective: str = "thirds",
) -> SolveResult:
    """:func:`best_exchange`, then :func:`~calasolve.solving.solve` of the record with
    that exchange filled in.  The result describes the play with the best exchange
    (for dividete without ``takes``: the draw worst for the soloist, see
    :class:`ExchangeResult`); ``extra["exchange"]`` is ``ExchangeResult.to_dict()``.
    ``nodes`` and ``seconds`` count the exchange search and the play.  The exchange
    is chosen for thirds (docs/rules.md §9) whatever the ``objective`` of the play."""
    from .limits import MAX_THIRDS, check_optional_int

    _check_search_arguments(record, solver, top)
    check_optional_int("target", target, 0, MAX_THIRDS)
    if objective not in ("thirds", "payoff"):
        raise ParameterError("objective", objective, "unknown objective (use thirds or payoff)")
    solver = solver or default_solver()
    found = best_exchange(record, solver=solver, top=top)
    try:
        completed = record.with_(exchange=found.exchange)
    except CalasolveError as err:  # cannot happen: the search builds legal exchanges only
        raise ExchangeError(f"internal error: the best exchange is not legal: {err}") from None
    played = solve(completed, target=target, solver=solver, objective=objective)
    extra = dict(played.extra)
    extra["exchange"] = found.to_dict()
    return dataclasses.replace(
        played, extra=extra, nodes=played.nodes + found.nodes, seconds=played.seconds + found.seconds
    )
