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
