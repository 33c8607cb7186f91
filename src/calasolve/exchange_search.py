"""The double-dummy-best exchange (RULES.md §5 and §9).

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
   (the discards within a suit are deduplicated before suits are combined),
   so the enumeration itself stays cheap.  The exchange kept for a class
   is the one discarding the lowest cards.
2. *Order.*  Candidates are sorted by a cheap static estimate of the
   soloist's prospects (sure tricks, thirds kept, the monte's thirds), best
   first for the side choosing, so a good bound is found early.
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

from . import _core
from .cards import LAST_TRICK_THIRDS, MAKE_THIRDS, RANK_THIRDS, TOTAL_THIRDS, Card, Mask, card_name, display_order, mask_thirds, popcount
from .errors import CalasolveError, ExchangeError
from .exchange import Exchange, called_from
from .game import defender_seats
from .solving import CoreSolver, SolveResult, default_solver, solve

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


def _enumerate(layout: _Layout, soloist: int, seen: set[Any], out: list[_Candidate]) -> None:
    """Append to ``out`` one candidate per class of ``layout``'s free discards not in ``seen``."""
    hands = layout.hands
    owner: dict[Card, int] = {}
    for seat in range(3):
        m = hands[seat]
        while m:
            low = m & -m
            owner[low.bit_length() - 1] = seat
            m ^= low
    seats = [s for s in range(3) if layout.counts[s]]
    base_bonus = LAST_TRICK_THIRDS + mask_thirds(layout.out)
    # Per suit: for each vector of discard counts (one per discarding seat), the
    # distinct outcomes as (signature id, thirds discarded, discard masks packed
    # 40 bits per discarding seat, the suit's estimate).
    per_suit: list[dict[tuple[int, ...], list[tuple[int, int, int, float]]]] = []
    for suit in range(4):
        cards = [c for c in range(suit * 10 + 9, suit * 10 - 1, -1) if c in owner]  # high -> low
        codes = {c: _code(c, owner[c], soloist) for c in cards}
        mine = [[c for c in reversed(cards) if owner[c] == s] for s in seats]  # low -> high
        opts: dict[tuple[int, ...], list[tuple[int, int, int, float]]] = {}
        ranges = [range(min(layout.counts[s], len(mine[i])) + 1) for i, s in enumerate(seats)]
        for ks in product(*ranges):
            found: dict[tuple[tuple[int, ...], int], int] = {}
            for combo in product(*(combinations(mine[i], k) for i, k in enumerate(ks))):
                gone = 0
                packed = 0
                for i, group in enumerate(combo):
                    m = 0
                    for c in group:
                        m |= 1 << c
                    packed |= m << (_PACK * i)
                    gone |= m
                sig = tuple(codes[c] for c in cards if not gone >> c & 1)
                found.setdefault((sig, mask_thirds(gone)), packed)
            opts[ks] = [(_sig_id(sig), th, packed, _suit_estimate(sig)) for (sig, th), packed in found.items()]
        per_suit.append(opts)
    need = tuple(layout.counts[s] for s in seats)
    half = 0.5 * (base_bonus - LAST_TRICK_THIRDS)
    h0, h1, h2 = hands
    for split in _count_splits(need, [list(o) for o in per_suit]):
        for (i0, t0, d0, e0), (i1, t1, d1, e1), (i2, t2, d2, e2), (i3, t3, d3, e3) in product(
            *(per_suit[u][split[u]] for u in range(4))
        ):
            gone = t0 + t1 + t2 + t3
            klass = (*sorted((i0, i1, i2, i3)), base_bonus + gone)
            if klass in seen:
                continue
            seen.add(klass)
            packed = d0 | d1 | d2 | d3
            discards = [0, 0, 0]
            for i, seat in enumerate(seats):
                discards[seat] = packed >> (_PACK * i) & _DECK
            new = (h0 & ~discards[0], h1 & ~discards[1], h2 & ~discards[2])
            estimate = e0 + e1 + e2 + e3 + half + 0.5 * gone
            out.append(_Candidate(new, base_bonus + gone, layout, (discards[0], discards[1], discards[2]), estimate))


#: Discard masks of several seats packed in one int, 40 bits each.
_PACK = 40
_DECK = (1 << 40) - 1
#: Suit signatures as small ints (a class key is then 4 ints and the thirds).
_SIG_IDS: dict[tuple[int, ...], int] = {}


def _sig_id(sig: tuple[int, ...]) -> int:
    return _SIG_IDS.setdefault(sig, len(_SIG_IDS))


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

_SUIT_ESTIMATES: dict[tuple[int, ...], float] = {}


def _suit_estimate(sig: tuple[int, ...]) -> float:
    """One suit's share of a rough guess of the soloist's prospects, used only to
    order the candidates: thirds in the soloist's top sequence (sure tricks) count
    fully, the soloist's lower point cards a little, a void 1.  ``sig`` is the
    suit's signature (see :func:`_code`); the guess adds the monte's thirds / 2."""
    score = _SUIT_ESTIMATES.get(sig)
    if score is None:
        score = 0.0
        others = False
        for code in sig:
            if code >= 4:  # a defender's card
                others = True
            elif not others:
                score += 2.0 + code
            else:
                score += 0.3 * code
        if all(code >= 4 for code in sig):
            score += 1.0  # a void lets the soloist throw losers
        _SUIT_ESTIMATES[sig] = score
    return score


# -- the search ------------------------------------------------------------------------

def _total_nodes(solver: Any) -> int:
    """The solver's node counter since its creation.  (Reading it costs a scan of the
    C solver's table, so it is read once before and once after a search, never per call.)"""
    stats = getattr(solver, "stats", None)
    if stats is not None:
        return int(stats()["total_nodes"])
    return int(getattr(solver, "nodes", 0))


@dataclass
class _Stats:
    searches: int = 0


#: How far below the best the passes for the runners-up look, in thirds (the last: everything).
_PASS_DEPTHS = (4, 10, 36)
#: The first max(_PREFIX, n / _PREFIX) candidates in order only look for a better best.
_PREFIX = 50


def _best_of(
    solver: CoreSolver,
    cands: Sequence[_Candidate],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: _Stats,
) -> list[tuple[int, int, _Candidate]]:
    """The ``top`` best candidates for the side choosing, as ``(value, index, candidate)``,
    best first (ties: the first met in the order of the estimate).

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
    order = sorted(range(len(cands)), key=lambda i: (-cands[i].estimate if maximise else cands[i].estimate, i))
    if isinstance(solver, _core.Solver):
        return _best_of_c(solver, cands, order, leader, soloist, maximise=maximise, top=top, stats=stats)
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


def _best_of_c(
    solver: Any,
    cands: Sequence[_Candidate],
    order: Sequence[int],
    leader: int,
    soloist: int,
    *,
    maximise: bool,
    top: int,
    stats: _Stats,
) -> list[tuple[int, int, _Candidate]]:
    """:func:`_best_of` in one call of the C core (``cs_best_of``, the same
    passes, with every candidate's fail-soft bounds kept between them)."""
    # The prefix (the most promising) first, then the rest grouped by layout
    # (call/return, takes), in the estimate's order within each: the killer
    # leads the C search carries from one candidate to the next fit
    # candidates of one layout (chiamo: -27% nodes against the estimate's
    # order across layouts).
    prefix = max(_PREFIX, len(order) // _PREFIX)
    rank: dict[int, int] = {}
    for c in cands:
        rank.setdefault(id(c.layout), len(rank))
    where = {i: k for k, i in enumerate(order)}
    order = [*order[:prefix], *sorted(order[prefix:], key=lambda i: (rank[id(cands[i].layout)], where[i]))]
    kept, values, searches = _core.best_of(
        solver, [cands[i].hands for i in order], [cands[i].last_bonus for i in order], leader, soloist, maximise, top
    )
    stats.searches += searches
    return [(v, order[k], cands[order[k]]) for k, v in zip(kept, values)]


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
) -> ExchangeResult:
    """The best completion of ``given`` for a deal as dealt: ``hands`` (three equal
    hands), ``monte`` (4 cards), ``leader`` of the first trick.

    This is :func:`best_exchange` without a record, so it also takes short hands
    (any equal size), which is how it is tested against brute force.  ``given``
    is trusted (a record has already checked it)."""
    if top < 1:
        raise CalasolveError(f"top {top}: must be at least 1")
    solver = solver or default_solver()
    start = time.perf_counter()
    h: Hands = (hands[0], hands[1], hands[2])
    stats = _Stats()
    nodes_before = _total_nodes(solver)
    common: dict[str, Any] = {"contract": contract, "soloist": soloist, "given": given, "hands": h, "monte": monte}

    def run(layouts: Sequence[_Layout], maximise: bool, n: int) -> tuple[list[tuple[int, int, _Candidate]], int]:
        seen: set[Any] = set()
        cands: list[_Candidate] = []
        for lay in layouts:
            _enumerate(lay, soloist, seen, cands)
        return _best_of(solver, cands, leader, soloist, maximise=maximise, top=n, stats=stats), len(cands)

    if contract in ("solo", "chiamo"):
        kept, count = run(_soloist_layouts(h, monte, contract, soloist, given), True, top)
        alternatives = tuple((c.exchange(), v) for v, _, c in kept)
        best, value = alternatives[0]
        return ExchangeResult(
            exchange=best, value=value, alternatives=alternatives, candidates=count,
            searches=stats.searches, nodes=_total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
        )
    if contract in ("dividete", "scegliete"):
        if given.takes is not None:
            kept, count = run(_defender_layouts(h, monte, soloist, [given.takes]), False, 1)
            value, _, c = kept[0]
            ex = c.exchange()
            return ExchangeResult(
                exchange=ex, value=value, alternatives=((ex, value),), candidates=count,
                searches=stats.searches, nodes=_total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
            )
        if contract == "scegliete":
            kept, count = run(_defender_layouts(h, monte, soloist, _scegliete_splits(monte, soloist)), False, 1)
            value, _, c = kept[0]
            ex = c.exchange()
            return ExchangeResult(
                exchange=ex, value=value, alternatives=((ex, value),), candidates=count,
                searches=stats.searches, nodes=_total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
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
            searches=stats.searches, nodes=_total_nodes(solver) - nodes_before, seconds=time.perf_counter() - start, **common,
        )
    # solissimo: nothing to choose
    value = solver.value(h, (), leader, soloist, LAST_TRICK_THIRDS + mask_thirds(monte))
    return ExchangeResult(
        exchange=Exchange(), value=value, alternatives=((Exchange(), value),), searched=False, candidates=1,
        searches=1, nodes=solver.nodes, seconds=time.perf_counter() - start, **common,
    )


def best_exchange(record: Any, *, solver: CoreSolver | None = None, top: int = 10) -> ExchangeResult:
    """The double-dummy-best exchange of a deal ``record`` (see the module doc).

    What the record gives is kept; the rest is searched.  When the record gives
    the whole exchange (or the contract has none) nothing is searched and the
    result holds that exchange and its value.  ``value`` is the soloist's final
    thirds from the first lead (cards already ``played`` are not taken into
    account).
    """
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
        given=record.exchange, solver=solver, top=top,
    )


def solve_with_exchange(
    record: Any,
    *,
    solver: CoreSolver | None = None,
    top: int = 10,
    target: int | None = None,
) -> SolveResult:
    """:func:`best_exchange`, then :func:`~calasolve.solving.solve` of the record with
    that exchange filled in.  The result describes the play with the best exchange
    (for dividete without ``takes``: the draw worst for the soloist, see
    :class:`ExchangeResult`); ``extra["exchange"]`` is ``ExchangeResult.to_dict()``.
    ``nodes`` and ``seconds`` count the exchange search and the play."""
    solver = solver or default_solver()
    found = best_exchange(record, solver=solver, top=top)
    try:
        completed = record.with_(exchange=found.exchange)
    except CalasolveError as err:  # cannot happen: the search builds legal exchanges only
        raise ExchangeError(f"internal error: the best exchange is not legal: {err}") from None
    played = solve(completed, target=target, solver=solver)
    extra = dict(played.extra)
    extra["exchange"] = found.to_dict()
    return dataclasses.replace(
        played, extra=extra, nodes=played.nodes + found.nodes, seconds=played.seconds + found.seconds
    )
