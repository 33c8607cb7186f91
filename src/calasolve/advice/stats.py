"""Small statistics for the Monte Carlo layer: means with their errors (the advisor's
intervals are confidence sequences, :mod:`calasolve.advice.confseq`).

>>> m, se = mean_se([1, 2, 3, 4])
>>> m, round(se, 4)
(2.5, 0.6455)
"""

from __future__ import annotations

import math
from typing import Sequence

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 <= q < 1) of ``values`` by rank: the sorted value at
    index ``min(n - 1, int(q * n))``, what ``calasolve bench`` and the benchmark
    reports print as the 90th percentile.

    >>> percentile([5, 1, 4, 2, 3], 0.9), percentile([1, 2], 0.9), percentile([3, 1, 2], 0.5)
    (5, 2, 2)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (sample standard deviation / sqrt(n))."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (two-sided 95% by default), for a fixed n;
    (0, 1) when there are no trials.

    >>> tuple(round(v, 4) for v in wilson(8, 10))
    (0.4902, 0.9433)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b): the Beta(a, b) distribution's CDF at ``x``.

    >>> round(beta_cdf(0.5, 2, 3), 6), round(beta_cdf(0.2, 1, 1), 6), beta_cdf(0.0, 3, 4), beta_cdf(1.0, 3, 4)
    (0.6875, 0.2, 0.0, 1.0)
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b), by bisection (to about 1e-12)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if beta_cdf(mid, a, b) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(successes: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The Clopper-Pearson ("exact") interval of a proportion at ``1 - alpha`` for a fixed n: it
    covers the true proportion with probability at least ``1 - alpha`` for every proportion and
    every n (Wilson's may fall below for small n); (0, 1) when there are no trials.

    >>> tuple(round(v, 4) for v in clopper_pearson(8, 10))
    (0.4439, 0.9748)
    >>> tuple(round(v, 4) for v in clopper_pearson(8, 8)), clopper_pearson(0, 0)
    ((0.6306, 1.0), (0.0, 1.0))
    """
    if n == 0:
        return 0.0, 1.0
    lo = 0.0 if successes == 0 else _beta_quantile(alpha / 2, successes, n - successes + 1)
    hi = 1.0 if successes == n else _beta_quantile(1 - alpha / 2, successes + 1, n - successes)
    return lo, hi
