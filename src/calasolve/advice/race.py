"""Sequential sampling: racing the contracts against each other and against a pass.

The advisor deals its samples in rounds (sample ``i`` is the same deal for
every contract) and, after each round, stops sampling a contract whose
question is settled:

* **eliminated**: its expected game points are, with confidence, below 0
  (the pass line) or below another contract's on the same samples (a paired
  comparison: common random numbers make the difference far less noisy than
  either estimate);
* **settled**: it is the only contract left, above the pass line, and its
  P(make) interval is as narrow as asked;
* **cap**: it reached the sample cap still in the race (a toss-up with
  whatever else is left).

Every interval is a confidence sequence (:mod:`calasolve.advice.confseq`), valid
however many rounds were looked at.  Each elimination test is one-sided at
``alpha / k`` for ``k`` contracts (Bonferroni over the contracts).

A sample's game points may be known only as an interval (the extremes of a
hopeless or unbeatable deal, see :mod:`calasolve.advice.outcome`).  Lower bounds
then use the interval's low ends and upper bounds its high ends, which
keeps them valid; the caller refines the samples of a contract still in the
race (:meth:`Race.needs_refining`).  The bets of every bound are sized from
the samples as first recorded, so a refinement, which depends on the
round's data, cannot bias them (:mod:`calasolve.advice.confseq`).  P(make) comes
from the samples whose make-test was asked in full, a choice made before
each round (:meth:`Race.upper_only`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .confseq import interval, lower_bound, upper_bound
from .outcome import UPPER_BUDGET, SampleOutcome
from ..game.state import Contract

#: The 1 - confidence of every reported interval.
ALPHA = 0.05
#: How the intervals are made, as reported in the output.
INTERVAL_METHOD = "betting confidence sequence (Waudby-Smith and Ramdas 2023), valid at any stopping time"
SETTLED, ELIMINATED, CAP, FIXED = "settled", "eliminated", "cap", "fixed"
#: Samples every contract gets in full before it may be sampled for its upper end only.
FULL_PREFIX = 32


@dataclass
class Track:
    """One contract's samples so far, in sample order, and why its sampling stopped."""

    contract: Contract
    #: the lowest and highest game points the contract can end with
    low: int
    high: int
    outcomes: list[SampleOutcome] = field(default_factory=list)
    stopped: str | None = None
    #: what eliminated it: "pass" or another contract's name
    below: str | None = None
    #: the sample size the confidence sequences are tuned for (the cap)
    horizon: int | None = None

    def __post_init__(self) -> None:
        #: every sample's outcome as first recorded (what the bets are sized from)
        self.first: list[SampleOutcome] = list(self.outcomes)
        self._arrays: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def add(self, outcome: SampleOutcome) -> None:
        self.outcomes.append(outcome)
        self.first.append(outcome)
        self._arrays = {}

    def replace(self, index: int, outcome: SampleOutcome) -> None:
        """A refined outcome in place of sample ``index``'s (its first record stays)."""
        self.outcomes[index] = outcome
        self._arrays.pop(False, None)

    @property
    def n(self) -> int:
        return len(self.outcomes)

    @property
    def active(self) -> bool:
        return self.stopped is None

    def _columns(self, first: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if first not in self._arrays:
            outcomes = self.first if first else self.outcomes
            rows = np.array([(o.payoff_low, o.payoff_high, math.nan if o.makes is None else o.makes)
                             for o in outcomes], dtype=np.float64)
            rows = rows.reshape(-1, 3)
            self._arrays[first] = (rows[:, 0], rows[:, 1], rows[:, 2])
        return self._arrays[first]

    def payoffs(self, first: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The game points' low and high ends per sample (``first``: as first recorded)."""
        low, high, _ = self._columns(first)
        return low, high

    def lower_bound(self, alpha: float) -> float:
        """The one-sided lower confidence bound of the expected game points."""
        return lower_bound(self.payoffs()[0], self.low, self.high, alpha, horizon=self.horizon,
                           sizing=self.payoffs(True)[0])

    def upper_bound(self, alpha: float) -> float:
        return upper_bound(self.payoffs()[1], self.low, self.high, alpha, horizon=self.horizon,
                           sizing=self.payoffs(True)[1])

    def makes(self) -> np.ndarray:
        """Made (1) or not (0), on the samples whose make-test was asked in full."""
        made: np.ndarray = self._columns()[2][~self.partial()]
        return made

    def partial(self) -> np.ndarray:
        """Which samples were first sampled for their upper end only."""
        return np.array([o.partial for o in self.first], dtype=bool)

    def mean_payoff(self) -> float:
        """The estimate: the mean of the samples' game points (interval midpoints)."""
        a, b = self.payoffs()
        return float((a + b).mean() / 2) if self.n else math.nan

    def mean_range(self) -> tuple[float, float]:
        """The mean game points with every open sample at its low end, and at its high end."""
        a, b = self.payoffs()
        return (float(a.mean()), float(b.mean())) if self.n else (math.nan, math.nan)

    def payoff_interval(self, alpha: float = ALPHA) -> tuple[float, float]:
        """The confidence sequence's interval of the expected game points."""
        a, b = self.payoffs()
        fa, fb = self.payoffs(True)
        h = self.horizon
        return (interval(a, self.low, self.high, alpha, horizon=h, sizing=fa)[0],
                interval(b, self.low, self.high, alpha, horizon=h, sizing=fb)[1])

    def p_make_interval(self, alpha: float = ALPHA) -> tuple[float, float]:
        return interval(self.makes(), 0.0, 1.0, alpha, horizon=self.horizon)


def above_pass(track: Track, alpha: float) -> bool:
    """Are the expected game points above 0 (with confidence ``1 - alpha``)?"""
    return track.lower_bound(alpha) > 0


def below_pass(track: Track, alpha: float) -> bool:
    return track.upper_bound(alpha) < 0


def difference(a: Track, b: Track, first: bool = False) -> tuple[np.ndarray, np.ndarray, float, float]:
    """``a``'s game points minus ``b``'s on their common samples: the low and high
    ends per sample (``first``: as first recorded), and the range the difference can take."""
    n = min(a.n, b.n)
    a_lo, a_hi = a.payoffs(first)
    b_lo, b_hi = b.payoffs(first)
    return a_lo[:n] - b_hi[:n], a_hi[:n] - b_lo[:n], a.low - b.high, a.high - b.low


def below(a: Track, b: Track, alpha: float) -> bool:
    """Are ``a``'s expected game points below ``b``'s (with confidence ``1 - alpha``)?"""
    _, hi, low, high = difference(a, b)
    _, first_hi, _, _ = difference(a, b, True)
    return upper_bound(hi, low, high, alpha, horizon=a.horizon, sizing=first_hi) < 0


def difference_interval(a: Track, b: Track, alpha: float = ALPHA) -> tuple[float, float]:
    """The confidence sequence's interval of ``a``'s expected game points minus ``b``'s."""
    lo, hi, low, high = difference(a, b)
    first_lo, first_hi, _, _ = difference(a, b, True)
    h = a.horizon
    return (interval(lo, low, high, alpha, horizon=h, sizing=first_lo)[0],
            interval(hi, low, high, alpha, horizon=h, sizing=first_hi)[1])


@dataclass
class Race:
    """The state of the sampling: one :class:`Track` per contract (in the standard order)."""

    tracks: list[Track]
    cap: int
    precision: float
    fixed: bool = False
    alpha: float = ALPHA
    #: the sample size the bets are tuned for (None: the cap)
    horizon: int | None = None

    def __post_init__(self) -> None:
        for t in self.tracks:
            t.horizon = self.cap if self.horizon is None else self.horizon

    @property
    def alpha_each(self) -> float:
        return self.alpha / len(self.tracks)

    def active(self) -> list[Track]:
        return [t for t in self.tracks if t.active]

    def track(self, contract: str) -> Track:
        return next(t for t in self.tracks if t.contract == contract)

    def leader(self, tracks: Sequence[Track] | None = None) -> Track | None:
        """The best estimate among ``tracks`` (default: those not eliminated); ties: the first."""
        pool = [t for t in (tracks if tracks is not None else self.tracks) if t.stopped != ELIMINATED and t.n]
        if not pool:
            return None
        return max(pool, key=lambda t: (t.mean_payoff(), -self.tracks.index(t)))

    def eliminate(self) -> list[Track]:
        """Stop the contracts that cannot be the answer; return them.  With ``fixed``
        they are only marked (``below``) and go on being sampled."""
        alpha = self.alpha_each
        pool = [t for t in self.tracks if t.active and t.below is None]
        lead = self.leader(pool)
        out = []
        for t in pool:
            if below_pass(t, alpha):
                t.below = "pass"
            elif lead is not None and t is not lead and below(t, lead, alpha):
                t.below = lead.contract
            else:
                continue
            out.append(t)
            if not self.fixed:
                t.stopped = ELIMINATED
        return out

    def needs_refining(self, track: Track) -> bool:
        """Whether the samples of ``track`` should have exact game points: it is still in
        the race, and its optimistic estimate (every open sample at its high end) would
        beat both the pass line and the leader's pessimistic one.  (Only a matter of
        cost: the bounds stay valid either way.)"""
        if not track.active or track.below is not None:
            return False
        return self._behind(track) <= 0

    def _behind(self, track: Track) -> float:
        """How far ``track``'s optimistic estimate is below the pass line or the leader's
        pessimistic one, whichever is higher."""
        lead = self.leader(self.active())
        best = max(0.0, float(lead.payoffs()[0].mean())) if lead is not None and lead.n else 0.0
        return best - float(track.payoffs()[1].mean())

    def upper_only(self, track: Track) -> bool:
        """Whether the next round may ask only for the upper end of ``track``'s game
        points, the tests that can refute it, each within
        :data:`~calasolve.advice.outcome.UPPER_BUDGET` candidates.  A failure whose refuter
        lies past the budget then counts at a made sample's upper end, so: it has had
        its :data:`FULL_PREFIX` samples in full, it is behind, and what such failures
        would add to its optimistic estimate (judged from its samples in full, the
        share refuted late taken as (late + 1) / (failures + 2)) is at most half of
        how far behind it is.  It is asked in full again as soon as it might lead."""
        if self.fixed or not track.active or track.below is not None or track.n < FULL_PREFIX:
            return False
        behind = self._behind(track)
        full = [o for o in track.first if not o.partial]
        fails = [o for o in full if o.makes is False]
        made = [o for o in full if o.makes]
        if behind <= 0 or not full:
            return False
        if not fails or not made:
            return True
        late = sum(1 for o in fails if o.refuted_at is None or o.refuted_at >= UPPER_BUDGET)
        spread = (sum(o.payoff_high for o in made) / len(made)) - (sum(o.payoff_high for o in fails) / len(fails))
        loosening = len(fails) / len(full) * (late + 1) / (len(fails) + 2) * spread
        return loosening <= behind / 2

    def settle(self, n: int) -> None:
        """After ``n`` samples: stop the answer once it is clear and precise, or all at the cap."""
        left = self.active()
        if not self.fixed and len(left) == 1:
            t = left[0]
            lo, hi = t.p_make_interval(self.alpha)
            if above_pass(t, self.alpha_each) and (hi - lo) / 2 <= self.precision:
                t.stopped = SETTLED
        if n >= self.cap:
            for t in self.active():
                t.stopped = FIXED if self.fixed else CAP

    @property
    def done(self) -> bool:
        return not self.active()

    def result(self) -> tuple[str, tuple[str, ...]]:
        """The recommendation and the contracts (or "pass") it is a toss-up with."""
        contenders = [t for t in self.tracks if t.below is None and t.n]
        lead = self.leader(contenders)
        if lead is None:
            return "pass", ()
        ties: tuple[str, ...] = tuple(t.contract for t in contenders if t is not lead)
        if not above_pass(lead, self.alpha_each):
            if lead.mean_payoff() <= 0:
                return "pass", (lead.contract, *ties)
            ties = (*ties, "pass")
        return lead.contract, ties
