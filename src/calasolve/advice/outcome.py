"""What one sampled deal is worth to the soloist, from as few searches as possible.

The bid advisor needs, per sample and contract, whether the contract is made
and the soloist's game points; the exact thirds only on a sub-sample.  Game
points are a step function of the final thirds (docs/rules.md §8): once
the contract is known made (or failed), the multiplier is settled by one
more null-window test in nearly every deal (a made contract pays x1 unless
the soloist can reach 30 thirds; a failed one x1 if the soloist can reach 6).
Only the extremes are left open, as an interval of game points, and only
when the answer depends on them (:func:`judge` with ``refine``) is the goal
search run.

An :class:`Oracle` answers the questions about one sample's deal after the
exchange: :class:`PositionOracle` for a position, :class:`DefenceOracle` for
a choice of positions the defenders make with every card in view (the
soloist's value is the minimum over them).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Callable, Protocol, Sequence

import numpy as np
from ..search._core import best_of
from ..game.cards import MAKE_THIRDS, TOTAL_THIRDS, Mask
from ..search.payoff import goal_table, known_levels, level_thresholds, payoff_levels
from ..game.rules import Rules
from ..game.exchange import Exchange
from ..game.state import Contract

Hands = tuple[Mask, Mask, Mask]
#: The most candidates an upper-end test tries after the probes (see :class:`DefenceOracle`).
UPPER_BUDGET = 256
#: The thirds that decide the sign of the game points, tested first.
_MIDDLE = MAKE_THIRDS - 0.5


@dataclass(frozen=True, slots=True)
class SampleOutcome:
    """One sample of one contract, double dummy.

    ``payoff_low <= game points <= payoff_high`` (equal when settled);
    ``makes`` is None when the make-test stopped short (``partial``);
    ``thirds``: the soloist's exact final thirds, when it was computed."""

    makes: bool | None
    payoff_low: int
    payoff_high: int
    thirds: int | None = None
    #: null-window tests and goal searches this sample cost
    searches: int = 0
    #: only the upper end was asked for (:func:`judge` with ``upper``)
    partial: bool = False
    #: where the make-test's refuter was in the defenders' candidate list (-1: a probe)
    refuted_at: int | None = None
    #: the exchange the policies made on the sample (None: the ``dd`` defence, a choice among every exchange);
    #: the deal played out of the same sample is played with it
    exchange: Exchange | None = None

    @property
    def settled(self) -> bool:
        return self.payoff_low == self.payoff_high


class Oracle(Protocol):
    """Questions about the soloist's final thirds S and game points in one deal."""

    def reaches(self, target: int) -> bool | None:
        """Can the soloist force S >= ``target``?  None: not decided within the
        oracle's budget."""

    def goal(self, level: int) -> bool:
        """Can the soloist force game points >= ``level``?"""

    def value(self) -> int:
        """The exact S under thirds-optimal play."""

    def scans_to_pass(self, target: int) -> bool:
        """Would a test at ``target`` that passes be costly (every candidate searched)?
        Those tests wait for ``refine``."""


class PositionOracle:
    """A deal at its first lead: ``hands`` after the exchange, ``bonus`` the last trick's thirds."""

    def __init__(
        self, solver: Any, goals: Any, hands: Hands, leader: int, soloist: int, bonus: int, contract: Contract, rules: Rules
    ) -> None:
        self.solver, self.goals = solver, goals
        self.args = (hands, (), leader, soloist, bonus)
        self.contract, self.rules = contract, rules
        self.searches = 0

    def reaches(self, target: int) -> bool:
        self.searches += 1
        return bool(self.solver.reaches(*self.args, target))

    def goal(self, level: int) -> bool:
        self.searches += 1
        return bool(self.goals.reaches(*self.args, 0, False, False, goal_table(self.contract, level, self.rules)))

    def value(self) -> int:
        self.searches += 1
        return int(self.solver.value(*self.args))

    def scans_to_pass(self, target: int) -> bool:
        return False


class DefenceOracle:
    """The defenders choose among candidate exchanges (hands at the first lead, an
    (n, 3) uint64 array, with their last-trick bonuses), most promising first:
    the soloist reaches a target only if every candidate does, so a test stops
    at the first candidate that refutes it.  ``probes`` are a few exchanges
    likely to refute it (each one of the candidates, up to equivalence), tried
    before the candidates are even listed: ``candidates`` makes the list on
    first need.  With a ``budget``, a test tries at most that many candidates
    after the probes and answers None when none of them refutes it."""

    def __init__(
        self,
        solver: Any,
        goals: Any,
        candidates: Callable[[], tuple[np.ndarray, np.ndarray]],
        probes: Sequence[tuple[Hands, int]],
        leader: int,
        soloist: int,
        contract: Contract,
        rules: Rules,
        budget: int | None = None,
    ) -> None:
        self.solver, self.goals = solver, goals
        self.budget = budget
        self._make = candidates
        self._listed: tuple[np.ndarray, np.ndarray] | None = None
        self.probes = list(probes)
        self.leader, self.soloist = leader, soloist
        self.contract, self.rules = contract, rules
        self.searches = 0
        #: the hands of the exchange that refuted the last failed test (the defenders' choice)
        self.refuter: Hands | None = None
        #: where the first test's refuter was in the candidate list (-1: a probe; None: not refuted)
        self.refuted_at: int | None = None
        self._first = True

    @property
    def candidates(self) -> np.ndarray:
        return self._list()[0]

    @property
    def bonuses(self) -> np.ndarray:
        return self._list()[1]

    def _list(self) -> tuple[np.ndarray, np.ndarray]:
        if self._listed is None:
            self._listed = self._make()
        return self._listed

    def hands(self, i: int) -> Hands:
        h = self.candidates[i]
        return int(h[0]), int(h[1]), int(h[2])

    def reaches(self, target: int) -> bool | None:
        first, self._first = self._first, False
        for hands, bonus in self.probes:
            self.searches += 1
            if not self.solver.reaches(hands, (), self.leader, self.soloist, bonus, target):
                self.refuter = hands
                if first:
                    self.refuted_at = -1
                return False
        if self.budget == 0:
            return None
        n = len(self.bonuses) if self.budget is None else min(self.budget, len(self.bonuses))
        results, searches = self.solver.reaches_batch(
            self.candidates[:n], self.bonuses[:n], self.leader, self.soloist, target, 1
        )
        self.searches += searches
        if 0 in results:
            at = results.index(0)
            self.refuter = self.hands(at)
            if first:
                self.refuted_at = at
            return False
        return True if n == len(self.bonuses) else None

    def goal(self, level: int) -> bool:
        table = goal_table(self.contract, level, self.rules)
        listed = ((self.hands(i), int(self.bonuses[i])) for i in range(len(self.bonuses)))
        for hands, bonus in chain(self.probes, listed):
            self.searches += 1
            if not self.goals.reaches(hands, (), self.leader, self.soloist, bonus, 0, False, False, table):
                return False
        return True

    def value(self) -> int:
        _, values, searches = best_of(
            self.solver, self.candidates, self.bonuses, self.leader, self.soloist, False, 1
        )
        self.searches += searches
        return int(values[0])

    def scans_to_pass(self, target: int) -> bool:
        # a low target usually passes, and passing means every candidate was searched
        return target < MAKE_THIRDS


def judge(
    oracle: Oracle,
    contract: Contract,
    rules: Rules,
    *,
    refine: bool = False,
    thirds: bool = False,
    known: int | None = None,
    upper: bool = False,
) -> SampleOutcome:
    """The sample's outcome: made or not, and its game points as tight as the
    null-window tests make them (exact with ``refine``: goal searches decide the
    rest); ``thirds`` also computes the exact final thirds, ``known`` gives them.
    ``upper`` asks only for the upper end: the tests that can refute (at 18
    thirds and above), from the top level down, each within the oracle's budget."""
    levels = payoff_levels(contract, rules)
    low, high = 0, TOTAL_THIRDS  # the soloist can force S >= low; the defenders hold S <= high
    tried: set[int] = set()

    def test(target: int) -> None:
        nonlocal low, high
        tried.add(target)
        answer = oracle.reaches(target)
        if answer:
            low = max(low, target)
        elif answer is not None:
            high = min(high, target - 1)

    if known is not None:
        low = high = known
    elif thirds:
        low = high = oracle.value()
    else:
        test(MAKE_THIRDS)
    if upper and low != high:
        while True:
            lo_i, hi_i = known_levels(levels, contract, rules, low, high)
            w = level_thresholds(contract, levels[hi_i], rules)[0]
            if lo_i == hi_i or w in tried or not low < w <= high or oracle.scans_to_pass(w):
                break
            before = high
            test(w)
            if high == before:
                break
        return SampleOutcome(
            makes=True if low >= MAKE_THIRDS else False if high < MAKE_THIRDS else None,
            payoff_low=levels[lo_i], payoff_high=levels[hi_i], searches=getattr(oracle, "searches", 0), partial=True,
            refuted_at=getattr(oracle, "refuted_at", None),
        )
    while True:
        lo_i, hi_i = known_levels(levels, contract, rules, low, high)
        if lo_i == hi_i:
            break
        # the first level above what is known reached: a thirds test that can settle it
        options = [t for t in level_thresholds(contract, levels[lo_i + 1], rules)
                   if low < t <= high and t not in tried and (refine or not oracle.scans_to_pass(t))]
        if not options:
            break
        test(min(options, key=lambda t: abs(t - _MIDDLE)))
    if refine:
        while lo_i < hi_i:
            mid = (lo_i + hi_i + 1) // 2
            if oracle.goal(levels[mid]):
                lo_i = mid
            else:
                hi_i = mid - 1
    exact = low if low == high else None
    return SampleOutcome(
        makes=low >= MAKE_THIRDS, payoff_low=levels[lo_i], payoff_high=levels[hi_i], thirds=exact,
        searches=getattr(oracle, "searches", 0), refuted_at=getattr(oracle, "refuted_at", None),
    )

