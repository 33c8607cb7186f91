"""Small statistics for the Monte Carlo layer: means with their errors (the advisor's
intervals are confidence sequences, :mod:`calasolve.confseq`).

>>> m, se = mean_se([1, 2, 3, 4])
>>> m, round(se, 4)
(2.5, 0.6455)
"""

from __future__ import annotations

import math
from typing import Sequence

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


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
