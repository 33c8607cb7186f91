"""The seeded benchmark suites of the solver (full 12-trick deals).

They live in the package so that ``calasolve bench`` and ``benchmarks/``
measure exactly the same deals.

* ``strong_suite()``: 200 solissimo deals.  The 40 cards are dealt
  uniformly 12/12/12 + a monte of 4 (a permutation from a seeded numpy
  Generator); the soloist is the seat with the strongest hand
  (:func:`calasolve.game.cards.strength`, ties to the lowest seat) and leads;
  ``last_bonus`` = 3 + the monte's thirds.
* ``random_suite()``: 200 uniformly random deals, soloist and leader drawn
  uniformly from the same generator.
* ``endings_suite()``: the strong deals after some tricks of random legal
  play (8 tricks left by default), for the configurations too slow on
  whole deals (the table switched off).

Both are pure functions of their seed, so numbers are comparable between
runs and machines.

>>> d = strong_suite()[0]
>>> [bin(h).count("1") for h in d.hands], d.leader == d.soloist
([12, 12, 12], True)
>>> len(random_suite()), len(strong_suite(5))
(200, 5)
>>> e = endings_suite(3)[0]
>>> [bin(h).count("1") for h in e.hands]
[8, 8, 8]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from calasolve.game.cards import strength, last_trick_bonus
from calasolve.game.state import legal_cards, trick_winner

STRONG_SEED = 20240611
RANDOM_SEED = 20240612
SUITE_SIZE = 200


class Deal(NamedTuple):
    hands: tuple[int, int, int]
    monte: int
    leader: int
    soloist: int
    last_bonus: int

    def args(self) -> tuple[tuple[int, int, int], tuple[int, ...], int, int, int]:
        """The arguments of the solver methods for the deal's first lead."""
        return self.hands, (), self.leader, self.soloist, self.last_bonus


def _deal(rng: np.random.Generator) -> tuple[tuple[int, int, int], int]:
    perm = rng.permutation(40)
    masks = []
    for k in range(4):
        m = 0
        for c in perm[12 * k : 12 * k + 12]:
            m |= 1 << int(c)
        masks.append(m)
    return (masks[0], masks[1], masks[2]), masks[3]


def strong_suite(n: int = SUITE_SIZE, seed: int = STRONG_SEED) -> list[Deal]:
    """Solissimo deals: the strongest hand is the soloist and leads."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        hands, monte = _deal(rng)
        powers = [strength(h) for h in hands]
        soloist = powers.index(max(powers))
        out.append(Deal(hands, monte, soloist, soloist, last_trick_bonus(monte)))
    return out


def random_suite(n: int = SUITE_SIZE, seed: int = RANDOM_SEED) -> list[Deal]:
    """Uniformly random deals with a random soloist and a random leader."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        hands, monte = _deal(rng)
        soloist = int(rng.integers(3))
        leader = int(rng.integers(3))
        out.append(Deal(hands, monte, leader, soloist, last_trick_bonus(monte)))
    return out


def endings_suite(n: int = SUITE_SIZE, tricks_left: int = 8, seed: int = STRONG_SEED + 1) -> list[Deal]:
    """The first ``n`` strong deals after ``12 - tricks_left`` tricks of
    uniformly random legal play (at a trick boundary)."""
    rng = np.random.default_rng(seed)
    out = []
    for d in strong_suite(n):
        hands = list(d.hands)
        leader = d.leader
        for _ in range(12 - tricks_left):
            trick: list[int] = []
            for k in range(3):
                seat = (leader + k) % 3
                legal = legal_cards(hands[seat], trick)
                cards = [c for c in range(40) if legal >> c & 1]
                card = cards[int(rng.integers(len(cards)))]
                hands[seat] &= ~(1 << card)
                trick.append(card)
            leader = trick_winner(trick, leader)
        out.append(Deal((hands[0], hands[1], hands[2]), d.monte, leader, d.soloist, d.last_bonus))
    return out


class AdviseHand(NamedTuple):
    """A hand of the advisor's benchmark suite, with its seat and what kind of hand it is."""

    hand: str
    seat: int
    kind: str


#: The advisor's benchmark suite: strong, borderline and weak hands in every seat.
ADVISE_HANDS: tuple[AdviseHand, ...] = tuple(
    AdviseHand(h, int(s), k) for h, s, k in (line.split() for line in """
        32AR.32A.3A.2A5 0 strong
        32A.32A.32A.32A 1 strong
        32ARC.32A.3A.A5 2 strong
        32AR7.32AR.3A.2 0 strong
        3AR.32AC.32A.3A 1 strong
        32AC6.3A7.32A.2 2 strong
        32AR.3A7.2AF.A5 0 borderline
        32A7.RC5.F64.AR 0 borderline
        3A76.2AR.3A5.R4 1 borderline
        32R5.3A6.AF7.2C 2 borderline
        2AR7.3A.32F.AR5 0 borderline
        3A.32A7.2R6.AC5 1 borderline
        32F.A76.3AR.2A4 2 borderline
        3AR5.2A6.3C7.A4 0 borderline
        7654.7654.765.7 0 weak
        A765.R654.F76.5 1 weak
        2F65.C74.R654.7 2 weak
        3754.A65.RF4.C6 0 weak
        R76.F765.C654.A 1 weak
        AF5.R74.2C6.F65 2 weak
        3R7.2C5.AF6.R65 1 weak
    """.split("\n") if line.strip())
)
"""Seed 1 with all the advisor's defaults is the benchmark (``benchmarks/test_bench_advise.py``)."""
