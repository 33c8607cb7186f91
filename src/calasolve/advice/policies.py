"""The exchange policies of the advisor (:mod:`calasolve.advice.advisor`): how the soloist
and the defenders exchange in a sample when the advisor does not search the
double-dummy best.

* The soloist's ``sampled`` policy: the soloist chooses with what they know
  (their hand, the monte, the called card's holder): a few discard sets, best
  first by a static estimate and no two equivalent, each tried in a few
  re-deals of the unseen cards; the one that makes 18 thirds most often wins.
* The defenders' ``heuristic`` policy: plain card sense (each scegliete card to
  the defender longer in its suit, the lowest pointless cards discarded);
  dividete's draw is :func:`random_draw`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from ..game.cards import (
    last_trick_bonus,
    FULL_DECK,
    MAKE_THIRDS,
    RANK_THIRDS,
    SUIT_MASKS,
    Card,
    Mask,
    cards_of,
    mask_of,
    mask_thirds,
    popcount,
)
from ..game.errors import CalasolveError
from ..game.exchange import Exchange, Hands
from ..game.state import Contract, defender_seats, first_leader
from ..exchange.search import SearchLimits, search_exchange
from ..game.rules import Rules
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS

#: The ``sampled`` policy's defaults: discard sets tried, and re-deals each
#: (close to 6 x 10 at a fraction of the cost; docs/experiments.md).


# -- the soloist's policies -------------------------------------------------------------

class SoloistPolicy(Protocol):
    """How the soloist of a sample exchanges (solo, chiamo): the exchange, and the
    soloist's final thirds with it when choosing it found them (else None)."""

    def exchange(
        self, hands: Hands, monte: Mask, contract: Contract, soloist: int, rules: Rules, solver: Any, rng: np.random.Generator
    ) -> tuple[Exchange, int | None]: ...


@dataclass(frozen=True)
class Sampled:
    """``sampled``: the soloist chooses with what they know (:func:`sampled_soloist_exchange`)."""

    candidates: int = DEFAULT_CANDIDATES
    redeals: int = DEFAULT_REDEALS

    def exchange(
        self, hands: Hands, monte: Mask, contract: Contract, soloist: int, rules: Rules, solver: Any, rng: np.random.Generator
    ) -> tuple[Exchange, int | None]:
        ex = sampled_soloist_exchange(
            hands, monte, contract, soloist, rules, solver, rng, candidates=self.candidates, redeals=self.redeals
        )
        return ex, None


@dataclass(frozen=True)
class DoubleDummy:
    """``dd``: the soloist sees every card: the double-dummy-best exchange of the sample."""

    def exchange(
        self, hands: Hands, monte: Mask, contract: Contract, soloist: int, rules: Rules, solver: Any, rng: np.random.Generator
    ) -> tuple[Exchange, int | None]:
        leader = first_leader(contract, soloist, rules)
        found = search_exchange(hands, monte, contract, soloist, leader, solver=solver, limits=SearchLimits(top=1))
        return found.exchange, found.value


def soloist_policy(name: str, *, candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS) -> SoloistPolicy:
    """The soloist's policy called ``name`` (``sampled`` or ``dd``, see :mod:`calasolve.advice.advisor`)."""
    if name == "dd":
        return DoubleDummy()
    return Sampled(candidates, redeals)


# -- the soloist's exchange under `sampled` -------------------------------------------

def best_suit_call(hand: Mask) -> Card:
    """The chiamo call of the ``sampled`` policy: the highest card missing from the
    soloist's best suit (most thirds, then most cards, then the lower suit index).

    >>> from calasolve.game.cards import card_name, parse_cards_or_hand
    >>> card_name(best_suit_call(parse_cards_or_hand("3A7.RC5.F64.ARC")))   # Denari: 5 thirds
    '3D'
    """
    def suit_key(s: int) -> tuple[int, int, int]:
        held = hand & SUIT_MASKS[s]
        return (mask_thirds(held), popcount(held), -s)

    for suit in sorted(range(4), key=suit_key, reverse=True):
        for rank in range(9, -1, -1):
            card = suit * 10 + rank
            if not hand >> card & 1:
                return card
    raise CalasolveError("the hand holds every card")  # unreachable with 12 cards


def keep_score(card: Card, mine: Mask) -> int:
    """How much the soloist wants to keep ``card`` (higher = keep): its rank, its
    thirds, and whether it heads a run of top cards in its suit (a sure trick)."""
    suit = card // 10
    rank = card % 10
    sure = all(mine >> (suit * 10 + r) & 1 for r in range(rank, 10))
    return rank + 4 * RANK_THIRDS[rank] + (20 if sure else 0)


@lru_cache(maxsize=None)
def _combos(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as rows of indices, in :func:`itertools.combinations` order."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


def discard_candidates(
    mine: Mask, n_discards: int, count: int, *, forbidden: Mask = 0, keep: Callable[[Card, Mask], int] = keep_score
) -> list[Mask]:
    """The ``count`` most promising discard sets by a static estimate: keep high and
    sure cards, throw low cards, favour emptying a short suit.

    The score of a set is the sum of its cards' ``keep`` scores (the soloist's
    :func:`keep_score` unless told; the defenders' adds guards) minus 3 per
    suit it empties (lowest first; ties: the lower mask).  All the sets are
    scored at once with numpy: 4,368 per sample in a chiamo whose called card
    was handed over (5 of 16 cards: the return and the 4 discards), 1,820 in solo.

    >>> from calasolve.game.cards import hand_name, parse_cards_or_hand
    >>> [hand_name(m) for m in discard_candidates(parse_cards_or_hand("32A7.RC54.F64.3AR76"), 4, 2)]
    ['-.54.64.-', '-.54.4.6']
    """
    cards = [c for c in cards_of(mine) if not forbidden >> c & 1]
    combos = _combos(len(cards), n_discards)
    scores = np.array([keep(c, mine) for c in cards], dtype=np.int64)
    suit = np.array([c // 10 for c in cards], dtype=np.int64)
    bits = np.array([1 << c for c in cards], dtype=np.int64)
    held = np.array([popcount(mine & SUIT_MASKS[u]) for u in range(4)], dtype=np.int64)
    per_suit = (suit[combos][:, :, None] == np.arange(4)).sum(axis=1)  # discards per suit, per set
    voids = ((per_suit == held) & (held > 0)).sum(axis=1)
    score = scores[combos].sum(axis=1) - 3 * voids
    gone = bits[combos].sum(axis=1)  # distinct bits: the sum is the mask
    order = np.lexsort((gone, score))[:count]
    return [int(g) for g in gone[order]]


def exchange_signature(kept: Mask, returned: Card | None, discards: Mask, unknown: Mask) -> tuple[Any, ...]:
    """What a soloist's exchange leaves in play, up to equivalent cards: per suit,
    high to low, who holds each card still in play (the soloist, the defender
    given the return, or unknown) and its thirds; and the thirds discarded.
    Two exchanges with the same signature give equivalent positions in every
    re-deal (the unknown cards are the same), so they score the same."""
    sig: list[Any] = [mask_thirds(discards)]
    for u in range(4):
        row = []
        for card in range(u * 10 + 9, u * 10 - 1, -1):
            if kept >> card & 1:
                row.append(("S", RANK_THIRDS[card % 10]))
            elif card == returned:
                row.append(("R", RANK_THIRDS[card % 10]))
            elif unknown >> card & 1:
                row.append(("U", RANK_THIRDS[card % 10]))
        sig.append(tuple(row))
    return tuple(sig)


def sampled_soloist_exchange(
    hands: Sequence[Mask],
    monte: Mask,
    contract: Contract,
    soloist: int,
    rules: Rules,
    solver: Any,
    rng: np.random.Generator,
    *,
    candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
) -> Exchange:
    """The soloist's exchange under the ``sampled`` policy (see the module doc).

    Only what the soloist knows is read: their hand, the monte they take, the
    called card's holder (which chiamo reveals).  The defenders' other cards
    are re-dealt from ``rng``.
    """
    leader = first_leader(contract, soloist, rules)
    mine, call, returned_to = soloist_sees(hands, monte, contract, soloist)
    ret, discards = sampled_plan(mine, call, returned_to, FULL_DECK & ~mine, soloist, leader, solver, rng,
                                 candidates=candidates, redeals=redeals)
    d = [0, 0, 0]
    d[soloist] = discards
    return Exchange(call=call, returned=ret, discards=(d[0], d[1], d[2]))


def soloist_sees(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int
                 ) -> tuple[Mask, Card | None, int | None]:
    """What the soloist exchanges with: its cards (the hand, the monte and in chiamo the called card, the
    ``sampled`` policy's call), the called card, and the seat that hands it over (None: it was in the monte)."""
    mine = hands[soloist] | monte
    call = returned_to = None
    if contract == "chiamo":
        call = best_suit_call(hands[soloist])
        returned_to = next((s for s in range(3) if s != soloist and hands[s] >> call & 1), None)
        mine |= 1 << call
    return mine, call, returned_to


def sampled_plan(
    mine: Mask, call: Card | None, returned_to: int | None, unknown: Mask, soloist: int, leader: int, solver: Any,
    rng: np.random.Generator, *, candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS,
) -> tuple[Card | None, Mask]:
    """The ``sampled`` policy's return and discards from what the soloist sees: ``mine`` (the hand, the monte
    and a called card handed over), the ``call``, its holder ``returned_to`` and the ``unknown`` cards."""
    worlds = redeal_worlds(unknown, soloist, returned_to, redeals, rng)
    choices = distinct_choices(mine, call, returned_to, unknown, candidates)
    return choices[most_makes(choices, worlds, mine, soloist, returned_to, leader, solver)]


def redeal_worlds(
    unknown: Mask, soloist: int, returned_to: int | None, redeals: int, rng: np.random.Generator
) -> list[list[Mask]]:
    """``redeals`` deals of the cards the soloist cannot see to the defenders.  In
    chiamo the holder of the called card has 11 unknown cards (+ the return)."""
    worlds = []
    for _ in range(redeals):
        pool = rng.permutation(np.array(list(cards_of(unknown)), dtype=np.int64))
        world = [0, 0, 0]
        i = 0
        for seat in defender_seats(soloist):
            need = 11 if seat == returned_to else 12
            world[seat] = mask_of(int(c) for c in pool[i : i + need])
            i += need
        worlds.append(world)
    return worlds


#: How many discard sets, best first by the estimate, are screened for
#: ``candidates`` distinct ones (sets that only swap equivalent cards collapse).
_POOL_FACTOR = 8


def distinct_choices(
    mine: Mask, call: Card | None, returned_to: int | None, unknown: Mask, count: int
) -> list[tuple[Card | None, Mask]]:
    """The ``count`` best (returned card or None, discards) by the static estimate,
    no two equivalent (:func:`exchange_signature`): a choice equivalent to a better one
    would score the same in every re-deal, so it is skipped for the next."""
    choices: list[tuple[Card | None, Mask]] = []
    if returned_to is None:
        choices = [(None, d) for d in discard_candidates(mine, 4, count * _POOL_FACTOR)]
    else:
        # the return is one more card leaving the hand: take the estimate over 5 cards,
        # returning the lowest of them, never the called card
        assert call is not None
        for five in discard_candidates(mine, 5, count * _POOL_FACTOR, forbidden=1 << call):
            low = min(cards_of(five), key=lambda c: (keep_score(c, mine), c))
            choices.append((low, five & ~(1 << low)))
    seen: set[tuple[Any, ...]] = set()
    out = []
    for ret, discards in choices:
        kept = mine & ~discards & ~((1 << ret) if ret is not None else 0)
        sig = exchange_signature(kept, ret, discards, unknown)
        if sig not in seen:
            seen.add(sig)
            out.append((ret, discards))
            if len(out) == count:
                break
    return out


def most_makes(
    choices: Sequence[tuple[Card | None, Mask]],
    worlds: Sequence[Sequence[Mask]],
    mine: Mask,
    soloist: int,
    returned_to: int | None,
    leader: int,
    solver: Any,
) -> int:
    """The index of the choice that makes the contract in the most worlds (ties: the
    first, the better estimate).

    The result that matters to a bidder is making the contract, so each world
    costs a null-window search for 18 thirds, several times cheaper than an
    exact value; a choice's worlds are one batch in the C core
    (:func:`calasolve.search._core.reaches_batch`).  A challenger stops as soon as it
    cannot beat the best so far, and it meets first the worlds where the best
    failed: similar choices tend to fail together, so a weaker one is out after
    fewer searches.  (The order only saves searches: every choice that could
    win is still counted in full.)
    """
    best = -1  # the best choice's makes, its index and the worlds it made
    best_index = 0
    best_made: list[bool] = [False] * len(worlds)
    for index, (ret, discards) in enumerate(choices):
        if best == len(worlds):
            break  # made everywhere: nothing can beat it
        kept = mine & ~discards & ~((1 << ret) if ret is not None else 0)
        bonus = last_trick_bonus(discards)
        order = sorted(range(len(worlds)), key=lambda w: best_made[w])  # the best's failures first
        positions = []
        for w in order:
            h = list(worlds[w])
            h[soloist] = kept
            if ret is not None and returned_to is not None:
                h[returned_to] |= 1 << ret
            positions.append((h[0], h[1], h[2]))
        # stop once the fails leave no room to beat the best (never for the first choice)
        max_fails = len(worlds) - best if best >= 0 else 0
        results, _ = solver.reaches_batch(positions, [bonus] * len(positions), leader, soloist, MAKE_THIRDS, max_fails)
        made = [False] * len(worlds)
        for w, r in zip(order, results):
            made[w] = r == 1
        makes = sum(made)
        if makes > best:
            best, best_index, best_made = makes, index, made
    return best_index


# -- the defenders' exchange --------------------------------------------------------

def heuristic_discards(hand: Mask, n: int) -> Mask:
    """The ``heuristic`` defenders' discards: lowest pointless cards, shortest suit first.

    >>> from calasolve.game.cards import hand_name, parse_cards_or_hand
    >>> hand_name(heuristic_discards(parse_cards_or_hand("3A7.RC5.F64.ARC"), 2))
    '-.5.4.-'
    """
    def key(c: Card) -> tuple[int, int, int]:
        return (RANK_THIRDS[c % 10], popcount(hand & SUIT_MASKS[c // 10]), c % 10)

    return mask_of(sorted(cards_of(hand), key=key)[:n])


def heuristic_split(hands: Sequence[Mask], monte: Mask, soloist: int) -> tuple[Mask, Mask, Mask]:
    """The ``heuristic`` scegliete split: each card to the defender longer in its suit."""
    a, b = defender_seats(soloist)
    takes = [0, 0, 0]
    for c in cards_of(monte):
        suit = SUIT_MASKS[c // 10]
        seat = a if popcount(hands[a] & suit) >= popcount(hands[b] & suit) else b
        takes[seat] |= 1 << c
    return takes[0], takes[1], takes[2]


def random_draw(monte: Mask, soloist: int, rng: np.random.Generator) -> tuple[Mask, Mask, Mask]:
    """Dividete: two monte cards to each defender, blind (uniformly at random)."""
    cards = [int(c) for c in rng.permutation(np.array(list(cards_of(monte)), dtype=np.int64))]
    a, b = defender_seats(soloist)
    takes = [0, 0, 0]
    takes[a] = mask_of(cards[:2])
    takes[b] = mask_of(cards[2:])
    return takes[0], takes[1], takes[2]


def heuristic_exchange(hands: Hands, monte: Mask, soloist: int, takes: Hands | None) -> Exchange:
    """The ``heuristic`` defenders' exchange: ``takes`` (dividete's draw) or the
    heuristic split (scegliete), then each defender's heuristic discards."""
    if takes is None:
        takes = heuristic_split(hands, monte, soloist)
    d = tuple(heuristic_discards(hands[s] | takes[s], popcount(takes[s])) if s != soloist else 0 for s in range(3))
    return Exchange(takes=takes, discards=(d[0], d[1], d[2]))


def bonus_after_exchange(hands: Hands, monte: Mask, after: Hands) -> int:
    """The last-trick bonus once the defenders' exchange leaves ``after``: the monte
    then holds every card of the deal that is in no hand."""
    everything = hands[0] | hands[1] | hands[2] | monte
    return last_trick_bonus(everything & ~(after[0] | after[1] | after[2]))
