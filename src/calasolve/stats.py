"""Small statistics for the Monte Carlo layer: proportions and means with their errors.

>>> lo, hi = wilson(40, 100)
>>> round(lo, 3), round(hi, 3)
(0.309, 0.498)
>>> wilson(0, 0)
(0.0, 1.0)
>>> m, se = mean_se([1, 2, 3, 4])
>>> m, round(se, 4)
(2.5, 0.6455)
"""

from __future__ import annotations

import math
from typing import Sequence

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible
    at 0 and n successes, which the advisor meets with hopeless and
    unbeatable hands.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


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
