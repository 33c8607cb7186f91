"""The cheap estimate that orders the exchange search's candidates: a rough guess of the soloist's
prospects from the position at the first lead, suit by suit (docs/exchange-search.md).

A suit is read as its *signature*: the cards still in play from the highest down, each as
:func:`code` (its owner relative to the soloist and its thirds).  The candidates' module sums
:func:`suit_estimate` over the suits it enumerates; a climb, which meets exchanges one at a time,
orders them by :func:`position_estimate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ..game.cards import RANK_THIRDS, Card

__all__ = ["EARLY", "EXACT", "Weights", "code", "position_estimate", "suit_estimate"]

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
#: A search against the clock: a guess in which the soloist's point cards under a defender's
#: count fully (they mostly win once the higher cards fall), so that throwing them, which gives
#: their thirds to whoever wins the last trick, is no longer tried first.  Fitted on deals apart
#: from those the early answers are measured on (docs/exchange-search.md).
EARLY = Weights(top=1.0, low=1.0, void=2.0)


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
    monte's thirds / 2.  ``weights``: those of the exact search or of a search against the clock.

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
    >>> suit_estimate((1, 1, 5, 4), weights=EARLY)
    4.0
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


def position_estimate(hands: Sequence[int], bonus: int, soloist: int, defenders: bool,
                      weights: Weights = EARLY) -> float:
    """The estimate of one position at the first lead (``hands``: the cards per seat, ``bonus``: its last-trick
    bonus), up to a constant: the candidates' estimate of the same position less the monte's base.

    >>> position_estimate([0b11 << 8, 0b11, 0], 0, 0, False)  # the soloist's 3 and 2 over a defender's 5 and 4
    10.0
    >>> position_estimate([0b11, 0b11 << 8, 0], 0, 0, False)  # the other way round (both: void in three suits)
    6.0
    """
    h = [int(x) for x in hands]
    score = 0.5 * bonus
    for u in range(4):
        sig = []
        for r in range(9, -1, -1):
            c = 10 * u + r
            for s in range(3):
                if h[s] >> c & 1:
                    sig.append(code(c, s, soloist))
                    break
        score += suit_estimate(tuple(sig), defenders, weights)
    return score
