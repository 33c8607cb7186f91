"""The cheap estimate that orders the exchange search's candidates: a rough guess of the soloist's
prospects from the position at the first lead, suit by suit (docs/exchange-search.md).

A suit is read as its *signature*: the cards still in play from the highest down, each as
:func:`code` (its owner relative to the soloist and its thirds).  The candidates' module sums
:func:`suit_estimate` (the exact search's order, kept as it is: its node counts are the
benchmarks' signature) and :func:`early_suit_estimate` (a search against the clock) over the
suits it enumerates; a climb, which meets exchanges one at a time, orders them by
:func:`position_estimate`, the early estimate of one position.

The early estimate weighs :func:`suit_features` by weights fitted to exchanges solved on deals apart
from those the early answers are measured on (``benchmarks/fit_early.py``; docs/exchange-search.md,
"A fitted early estimate"), one set for the soloist's exchanges and one for the defenders'.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ..game.cards import RANK_THIRDS, Card

__all__ = ["DEFENCE_FIT", "EXACT", "SOLOIST_FIT", "Weights", "code", "early_suit_estimate", "fitted_estimate",
           "position_estimate", "suit_estimate", "suit_features", "suit_signature"]

#: Weight of the defenders' forced thirds in the estimate of their exchanges.
_FORCED_WEIGHT = 3.0


@dataclass(frozen=True)
class Weights:
    """The estimate's weights: a top card's base (plus its thirds), the thirds of the soloist's
    other cards, a void."""

    top: float
    low: float
    void: float


#: The exact search's order (its node counts are the benchmarks' signature: kept as they are).
EXACT = Weights(top=2.0, low=0.3, void=1.0)
#: The soloist's exchanges against the clock: the weights of :func:`suit_features`, a logistic
#: regression of "within one third of the best exchange found in 10 s" on 163,500 chiamo candidates
#: of random and strong deals 200-259 (``benchmarks/fit_early.py``), in logits.
SOLOIST_FIT: tuple[float, ...] = (
    -3.065, 0.575, 1.705, 2.744, 3.185, -0.051, 4.290, 2.575, 1.042, -0.278, -1.512, -2.279, -2.779, 0.089, 0.154,
    -0.027, -0.197, 0.143, -0.304, 0.382, 1.861, 0.283, -0.511, -0.043,
)
#: The defenders' exchanges against the clock: the same fit of "the soloist held within one third of the
#: defenders' best found in 10 s" on 108,000 candidates of dividete draws of random and strong deals 200-229,
#: negated (the defenders try the lowest first).  The soloist's hand is the same in every candidate, so his
#: length carries no weight.
DEFENCE_FIT: tuple[float, ...] = (
    -1.739, 0.767, 0.831, 0.943, 1.290, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.127, 0.141,
    0.051, -0.118, 0.0, -0.028, -0.176, 0.916, 0.377, -0.345, -0.087,
)


def code(card: Card, owner: int, soloist: int) -> int:
    """A card in a suit signature: its owner relative to the soloist (0 = the
    soloist) times 4, plus its thirds (0, 1 or 3).

    >>> code(0, 2, 0), code(7, 0, 0), code(8, 1, 1)  # seat 2's 4 of the first suit, the soloist's ace, his 2
    (8, 3, 1)
    """
    return ((owner - soloist) % 3) * 4 + RANK_THIRDS[card % 10]


@lru_cache(maxsize=None)  # few distinct suit signatures; each is met again for thousands of candidates
def suit_estimate(sig: tuple[int, ...], defenders: bool = False, weights: Weights = EXACT) -> float:
    """One suit's share of a rough guess of the soloist's prospects, used only to
    order the candidates: thirds in the soloist's top sequence (sure tricks) count
    fully, the soloist's lower point cards a little, a void 1.  ``sig`` is the
    suit's signature (see :func:`code`), highest card first; the guess adds the
    monte's thirds / 2.

    When the defenders discard (``defenders``), the guess also counts, three
    times, the thirds each defender must follow with while the soloist runs his
    top sequence (their lowest cards of the suit, as many as the sequence is
    long).  Throwing those point cards is what the defenders' best exchanges most
    often do, and with the best met early every other candidate is tested at the
    final bound.  The soloist's exchange leaves the term out (it did not pay
    there; docs/experiments.md).

    >>> suit_estimate((1, 1, 5, 4))  # the soloist's 3 and 2 over a defender's R and 4
    6.0
    >>> suit_estimate((1, 1, 5, 4), defenders=True)  # who must follow with both: 1 third
    9.0
    """
    score = 0.0
    others = False
    top = 0  # the soloist's top sequence: his cards above every defender's
    for c in sig:
        if c >= 4:  # a defender's card
            others = True
        elif not others:
            score += weights.top + c
            top += 1
        else:
            score += weights.low * c
    if all(c >= 4 for c in sig):
        score += weights.void  # a void lets the soloist throw losers
    if defenders and top:
        for seat in (1, 2):
            held = [c & 3 for c in sig if c >> 2 == seat]  # highest first
            score += _FORCED_WEIGHT * sum(held[-top:])
    return score


def suit_features(sig: tuple[int, ...]) -> tuple[int, ...]:
    """One suit of a position as the fitted weights see it (``sig``: see :func:`code`): the soloist's top
    sequence (one-hot 0 to 4 or more) and its thirds, his length (one-hot 0 to 6 or more), his cards below the
    top sequence (one-hot 0 to 3 or more) and their thirds, the defenders' thirds, the place of his highest card
    among the cards in play (0 to 4: 4 also when he has none), whether it is second and guarded, the defenders'
    thirds his top sequence draws, the longest defender's length, and how much longer he is when he holds the top.

    >>> suit_features((1, 1, 5, 4))  # the soloist's 3 and 2 over a defender's R and 4
    (0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0)
    """
    out = [0] * _FEATURES
    for i, value in _active_features(sig):
        out[i] = value
    return tuple(out)


_FEATURES = 24


def _active_features(sig: tuple[int, ...]) -> list[tuple[int, int]]:
    """:func:`suit_features` as its nonzero ``(index, value)`` pairs, by index."""
    owners = [c >> 2 for c in sig]
    thirds = [c & 3 for c in sig]
    top = next((k for k, owner in enumerate(owners) if owner), len(owners))
    length = owners.count(0)
    mine = sum(t for owner, t in zip(owners, thirds) if owner == 0)
    first = next((k for k, owner in enumerate(owners) if owner == 0), 4)
    drawn = 0
    if top:
        for seat in (1, 2):
            held = [t for owner, t in zip(owners, thirds) if owner == seat]  # highest first
            drawn += sum(held[-top:])
    longest = max(owners.count(1), owners.count(2))
    pairs = [(min(top, 4), 1), (5, sum(thirds[:top])), (6 + min(length, 6), 1), (13 + min(length - top, 3), 1),
             (17, mine - sum(thirds[:top])), (18, sum(thirds) - mine), (19, min(first, 4)),
             (20, int(first == 1 and length >= 2)), (21, drawn), (22, longest),
             (23, max(0, length - longest) if top else 0)]
    return [(i, v) for i, v in pairs if v]


def fitted_estimate(sig: tuple[int, ...], weights: tuple[float, ...] = SOLOIST_FIT) -> float:
    """One suit's share of an early estimate: ``weights`` (the soloist's, or :data:`DEFENCE_FIT`) times
    :func:`suit_features`, in eighths of a logit rounded to halves (the early order sorts twice the estimate as
    small integers).

    >>> fitted_estimate((1, 1, 5, 4))
    13.5
    """
    # the nonzero terms in the order of the features: the same float sum as over all of them
    return round(16 * sum(weights[i] * v for i, v in _active_features(sig))) / 2


@lru_cache(maxsize=None)  # keyed by the side, not by its weights (a tuple of 24 floats hashed at every call)
def early_suit_estimate(sig: tuple[int, ...], defenders: bool) -> float:
    """One suit's share of the early estimate of the soloist's prospects: :func:`fitted_estimate` with the
    soloist's weights, or the defenders' (``defenders``: they discard, and try the lowest first).  The monte's
    thirds are left out: both fits gave them no weight."""
    return fitted_estimate(sig, DEFENCE_FIT if defenders else SOLOIST_FIT)


def position_estimate(hands: Sequence[int], soloist: int, defenders: bool) -> float:
    """The early estimate of one position at the first lead (``hands``: the cards per seat): the candidates'
    early estimate of the same position.

    >>> mine, theirs = [0b11 << 8, 0b11, 0], [0b11, 0b11 << 8, 0]  # the 3 and 2 over the 5 and 4, or under them
    >>> position_estimate(mine, 0, False) > position_estimate(theirs, 0, False)
    True
    >>> position_estimate(mine, 0, True) > position_estimate(theirs, 0, True)
    True
    """
    return sum(early_suit_estimate(suit_signature(hands, u, soloist), defenders) for u in range(4))


def suit_signature(hands: Sequence[int], suit: int, soloist: int) -> tuple[int, ...]:
    """The signature of ``suit`` in a position (``hands``: the cards per seat): its cards in play from the
    highest down, each as :func:`code`.

    >>> suit_signature([0b11 << 8, 0b1001, 0], 0, 0)  # the soloist's 3 and 2, seat 1's 7 and 4
    (1, 1, 4, 4)
    """
    h = [int(x) for x in hands]
    return tuple(code(c, s, soloist) for c in range(10 * suit + 9, 10 * suit - 1, -1) for s in range(3) if h[s] >> c & 1)
