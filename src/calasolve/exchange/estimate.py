"""The cheap estimate that orders the exchange search's candidates: a rough guess of the soloist's
prospects from the position at the first lead, read suit by suit (docs/exchange-search.md).

A suit is read as its *signature*: the cards still in play from the highest down, each as
:func:`code` (its owner relative to the soloist and its thirds).  The candidates' module sums
:func:`suit_estimate` (the exact search's order, kept as it is: its node counts are the
benchmarks' signature) over the suits it enumerates, and for a search against the clock each
suit's :func:`early_suit_terms`, which :func:`early_of_terms` reads; a climb, which meets exchanges
one at a time, orders them by :func:`position_estimate`, the early estimate of one position.

The early estimate reads :func:`suit_features`, fitted to exchanges solved on deals apart from those the
early answers are measured on (``benchmarks/fit_early.py``; docs/exchange-search.md, "A fitted early
estimate"): for the soloist's exchanges as weights summed suit by suit; for the defenders' as a small
network over the four suits together (:class:`SuitNet`, :data:`DEFENCE_NET`), since which point cards
they can throw depends on the other suits too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
import json
from typing import Sequence

import numpy as np

from ..game.cards import RANK_THIRDS, Card

__all__ = ["DEFENCE_NET", "EXACT", "SOLOIST_FIT", "SuitNet", "Weights", "code", "early_of_terms", "early_suit_terms",
           "fitted_estimate", "position_estimate", "suit_estimate", "suit_features", "suit_signature"]

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
    """One suit's share of the soloist's early estimate: ``weights`` times :func:`suit_features`, in eighths of a
    logit rounded to halves (the early order sorts twice the estimate as small integers).

    >>> fitted_estimate((1, 1, 5, 4))
    13.5
    """
    # the nonzero terms in the order of the features: the same float sum as over all of them
    return round(16 * sum(weights[i] * v for i, v in _active_features(sig))) / 2


@dataclass(frozen=True, eq=False)
class SuitNet:
    """An estimate that reads the four suits together: each suit's :func:`suit_features` through one layer
    (``w1``, ``b1``, ReLU), summed over the suits, through a second (``w2``, ``b2``, ReLU) to one number
    (``w3``), plus the summed features times ``linear``.  Higher: nearer the best exchange of the side it was
    fitted for (:data:`DEFENCE_NET`: the defenders')."""

    w1: np.ndarray  # (features, hidden)
    b1: np.ndarray
    w2: np.ndarray  # (hidden, second)
    b2: np.ndarray
    w3: np.ndarray  # (second,)
    linear: np.ndarray  # (features,)

    @classmethod
    def from_dict(cls, d: dict[str, list[float] | list[list[float]]]) -> SuitNet:
        return cls(*(np.array(d[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2", "w3", "linear")))

    def to_dict(self) -> dict[str, list[float] | list[list[float]]]:
        return {k: getattr(self, k).tolist() for k in ("w1", "b1", "w2", "b2", "w3", "linear")}

    def terms(self, features: np.ndarray) -> np.ndarray:
        """Suits' terms from their :func:`suit_features` ((..., features)): the hidden units, then the linear
        share; a position's are its suits' summed."""
        hidden = np.maximum(features @ self.w1 + self.b1, 0.0)
        terms: np.ndarray = np.concatenate([hidden, (features @ self.linear)[..., None]], axis=-1)
        return terms

    def suit_terms(self, sig: tuple[int, ...]) -> np.ndarray:
        """One suit's :meth:`terms`."""
        terms = self.terms(np.array(suit_features(sig), dtype=np.float64))
        terms.setflags(write=False)  # kept by early_suit_terms' cache
        return terms

    def value(self, terms: np.ndarray) -> np.ndarray:
        """The estimate of positions from their suits' summed terms ((n, hidden + 1))."""
        value: np.ndarray = np.maximum(terms[:, :-1] @ self.w2 + self.b2, 0.0) @ self.w3 + terms[:, -1]
        return value


#: The defenders' exchanges against the clock: fitted by ``benchmarks/fit_early.py --side defence`` to rank
#: "the soloist held within one third of the defenders' best found in 10 s" first among 108,000 candidates of
#: dividete draws of random and strong deals 200-229 (``defence_net.json``, shipped with the package).
DEFENCE_NET = SuitNet.from_dict(json.loads(files(__package__).joinpath("defence_net.json").read_text()))


@lru_cache(maxsize=None)
def early_suit_terms(sig: tuple[int, ...], defenders: bool) -> np.ndarray:
    """One suit's share of the early estimate of the soloist's prospects, as terms that add up over the suits
    (read by :func:`early_of_terms`): the soloist's :func:`fitted_estimate`, or the defenders' network's terms
    (``defenders``: they discard).  The monte's thirds are left out: the weights' fit gave them none.

    >>> early_suit_terms((1, 1, 5, 4), False)
    array([13.5])
    >>> early_suit_terms((1, 1, 5, 4), True).shape == (DEFENCE_NET.b1.size + 1,)
    True
    """
    if defenders:
        return DEFENCE_NET.suit_terms(sig)
    terms = np.array([fitted_estimate(sig, SOLOIST_FIT)])
    terms.setflags(write=False)  # kept by the cache
    return terms


def early_of_terms(terms: np.ndarray, defenders: bool) -> np.ndarray:
    """The early estimate of positions from their suits' summed :func:`early_suit_terms` ((n, terms)), in halves
    (the early order sorts twice it as small integers): the soloist's prospects, so the defenders' network's
    score negated (the defenders try the lowest first)."""
    if not defenders:
        return terms[:, 0]
    value: np.ndarray = -np.round(16 * DEFENCE_NET.value(terms)) / 2
    return value


def position_estimate(hands: Sequence[int], soloist: int, defenders: bool) -> float:
    """The early estimate of one position at the first lead (``hands``: the cards per seat): the candidates'
    early estimate of the same position.

    >>> mine, theirs = [0b11 << 8, 0b11, 0], [0b11, 0b11 << 8, 0]  # the 3 and 2 over the 5 and 4, or under them
    >>> position_estimate(mine, 0, False) > position_estimate(theirs, 0, False)
    True
    >>> position_estimate(mine, 0, True) > position_estimate(theirs, 0, True)
    True
    """
    terms = sum(early_suit_terms(suit_signature(hands, u, soloist), defenders) for u in range(4))
    return float(early_of_terms(np.asarray(terms)[None, :], defenders)[0])


def suit_signature(hands: Sequence[int], suit: int, soloist: int) -> tuple[int, ...]:
    """The signature of ``suit`` in a position (``hands``: the cards per seat): its cards in play from the
    highest down, each as :func:`code`.

    >>> suit_signature([0b11 << 8, 0b1001, 0], 0, 0)  # the soloist's 3 and 2, seat 1's 7 and 4
    (1, 1, 4, 4)
    """
    h = [int(x) for x in hands]
    return tuple(code(c, s, soloist) for c in range(10 * suit + 9, 10 * suit - 1, -1) for s in range(3) if h[s] >> c & 1)
