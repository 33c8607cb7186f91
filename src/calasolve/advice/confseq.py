"""Confidence sequences: intervals for a mean that stay valid however often they are looked at.

The bid advisor samples in rounds and stops a contract as soon as its
question is settled, so its intervals are read after every round.  A
fixed-n interval recomputed after each look is not valid then: with enough
looks it will exclude the truth by chance.  A *confidence sequence* covers
the mean at every sample size at once (with probability ``1 - alpha``), so
it stays valid at whatever time the sampling stops.

This module implements the betting confidence sequence of Waudby-Smith and
Ramdas, "Estimating means of bounded random variables by betting" (JRSS B,
2023), for values in [0, 1]: for a candidate mean ``m``, a gambler bets a
fraction ``lambda_i`` of their wealth that the next value exceeds ``m``
(``1 + lambda_i (x_i - m)`` per value).  If ``m`` is the true mean the
wealth is a nonnegative martingale, so by Ville's inequality it ever
reaches ``1/alpha`` with probability at most ``alpha``; the lower bound is
the least ``m`` whose wealth has not (the upper bound likewise, betting on
smaller values).  The bets are the paper's predictable plug-in ones, sized
from the values seen so far and tuned for the sample size where the
sequence will most likely stop (``horizon``: the advisor's cap), and
truncated at ``0.75 / m`` (``0.75 / (1 - m)``) so the wealth stays
positive.  :func:`interval` rescales values from any known range.

The bets may be sized from other values than the ones scored (``sizing``):
the advisor sizes them from each sample as first recorded and scores the
sample as known now.  A later refinement then only raises a lower bound's
values (lowers an upper bound's) under bets that were fixed in advance,
which keeps the wealth below a martingale's: the bound stays valid.

>>> [round(x, 3) for x in bet_interval([1, 0] * 200, horizon=400)]
[0.432, 0.567]
>>> [round(x, 3) for x in bet_interval([0] * 100)]          # no successes in 100
[0.0, 0.048]
>>> bet_interval([])
(0.0, 1.0)
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

#: The truncation of the bets (the paper's c, in (0, 1)).
_MAX_BET = 0.75
#: Points per grid, and grids, of the search for the bound (each grid 1/16 of the last).
_GRID, _PASSES = 17, 4


def _bets(x: np.ndarray, log_term: float, horizon: int | None) -> np.ndarray:
    """The predictable plug-in bet sizes: ``lambda_t`` uses the first ``t - 1`` values only."""
    t = np.arange(1, len(x) + 1, dtype=np.float64)
    mu_hat = np.concatenate(([0.5], (0.5 + np.cumsum(x)) / (t + 1)))
    sigma2_hat = np.concatenate(([0.25], (0.25 + np.cumsum((x - mu_hat[1:]) ** 2)) / (t + 1)))
    scale = t * np.log1p(t) if horizon is None else float(horizon)
    return np.sqrt(2 * log_term / (sigma2_hat[:-1] * scale))


def lower_unit(
    values: Sequence[float] | np.ndarray,
    alpha: float,
    horizon: int | None = None,
    sizing: Sequence[float] | np.ndarray | None = None,
) -> float:
    """A ``1 - alpha`` lower confidence bound for the mean of values in [0, 1], valid
    at every sample size at once (one grid step below the least mean not rejected);
    ``sizing``: the values the bets are sized from (default: ``values``).

    >>> first = [0, 0] * 5 + [1, 0] * 45               # five 1s first recorded as 0
    >>> round(lower_unit(first, 0.05), 3), round(lower_unit([1, 0] * 50, 0.05, sizing=first), 3)
    (0.165, 0.318)
    """
    x = np.asarray(values, dtype=np.float64)
    if len(x) == 0:
        return 0.0
    log_term = math.log(1 / alpha)
    bet = _bets(x if sizing is None else np.asarray(sizing, dtype=np.float64), log_term, horizon)

    def rejected(m: np.ndarray) -> np.ndarray:
        size = np.minimum(bet[None, :], _MAX_BET / np.maximum(m, 1e-12)[:, None])
        out: np.ndarray = np.log1p(size * (x[None, :] - m[:, None])).sum(axis=1) >= log_term
        return out

    lo, hi = 0.0, 1.0
    for _ in range(_PASSES):
        m = np.linspace(lo, hi, _GRID)
        r = rejected(m)
        if not r[0]:
            return lo
        j = int(np.argmin(r))  # the first mean not rejected
        if r[j]:
            return hi
        lo, hi = float(m[j - 1]), float(m[j])
    return lo


def upper_unit(
    values: Sequence[float] | np.ndarray,
    alpha: float,
    horizon: int | None = None,
    sizing: Sequence[float] | np.ndarray | None = None,
) -> float:
    """The upper bound, as :func:`lower_unit` of the mirrored values."""
    mirrored = None if sizing is None else 1.0 - np.asarray(sizing, dtype=np.float64)
    return 1.0 - lower_unit(1.0 - np.asarray(values, dtype=np.float64), alpha, horizon, mirrored)


def bet_interval(
    values: Sequence[float] | np.ndarray,
    alpha: float = 0.05,
    *,
    sides: int = 2,
    horizon: int | None = None,
    sizing: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """The confidence sequence's interval after all of ``values`` (in [0, 1]):
    ``sides=2`` two-sided at ``1 - alpha`` (each bound at ``alpha / 2``),
    ``sides=1`` each bound alone at ``1 - alpha``; ``sizing``: the values the lower
    and the upper bound's bets are sized from."""
    if len(values) == 0:
        return 0.0, 1.0
    low, high = (None, None) if sizing is None else sizing
    return lower_unit(values, alpha / sides, horizon, low), upper_unit(values, alpha / sides, horizon, high)


def interval(
    values: Sequence[float] | np.ndarray,
    lo: float,
    hi: float,
    alpha: float = 0.05,
    *,
    sides: int = 2,
    horizon: int | None = None,
    sizing: Sequence[float] | np.ndarray | None = None,
) -> tuple[float, float]:
    """:func:`bet_interval` for values known to lie in ``[lo, hi]``, on their own scale
    (``sizing``: the values both bounds' bets are sized from).

    >>> [round(x, 2) for x in interval([4] * 50, -12, 12)]
    [2.52, 4.74]
    """
    if hi <= lo:
        return float(lo), float(hi)

    def unit(v: Sequence[float] | np.ndarray) -> np.ndarray:
        return (np.asarray(v, dtype=np.float64) - lo) / (hi - lo)

    sized = None if sizing is None else (unit(sizing), unit(sizing))
    a, b = bet_interval(unit(values), alpha, sides=sides, horizon=horizon, sizing=sized)
    return lo + a * (hi - lo), lo + b * (hi - lo)


def lower_bound(
    values: Sequence[float] | np.ndarray,
    lo: float,
    hi: float,
    alpha: float,
    *,
    horizon: int | None = None,
    sizing: Sequence[float] | np.ndarray | None = None,
) -> float:
    """A one-sided ``1 - alpha`` lower confidence bound, valid at any stopping time."""
    return interval(values, lo, hi, alpha, sides=1, horizon=horizon, sizing=sizing)[0]


def upper_bound(
    values: Sequence[float] | np.ndarray,
    lo: float,
    hi: float,
    alpha: float,
    *,
    horizon: int | None = None,
    sizing: Sequence[float] | np.ndarray | None = None,
) -> float:
    """A one-sided ``1 - alpha`` upper confidence bound, valid at any stopping time."""
    return interval(values, lo, hi, alpha, sides=1, horizon=horizon, sizing=sizing)[1]
