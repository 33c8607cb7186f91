"""The one place calasolve writes JSON: standard JSON (RFC 8259) only.

Every object calasolve prints or serves (``--json``, ``--flat``, the board's
API) goes through :func:`dumps`.  A number that does not exist (a mean of no
samples, NaN; an unbounded value, infinity) is written ``null``, never
``NaN`` or ``Infinity``, which strict readers (JavaScript's ``JSON.parse``,
Go, serde_json) reject; ``allow_nan=False`` then guarantees that nothing
non-standard is left.

>>> dumps({"mean": float("nan"), "range": [1.5, float("inf")], "n": 0})
'{"mean": null, "range": [1.5, null], "n": 0}'
>>> finite(float("nan")) is None, finite(2.0)
(True, 2.0)
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "finite", "nan_if_none"]


def finite(value: float) -> float | None:
    """``value``, or None when it is not a finite number (what JSON writes ``null``)."""
    return value if math.isfinite(value) else None


def nan_if_none(value: float | None) -> float:
    """A number :func:`finite` wrote: ``null`` reads back as NaN (a number that does not exist)."""
    return math.nan if value is None else value


def _strict(value: Any) -> Any:
    if isinstance(value, float):
        return finite(value)
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    return value


def dumps(obj: Any, *, indent: int | None = None, compact: bool = False) -> str:
    """``obj`` as standard JSON text (non-ASCII kept as is); ``compact``: no spaces."""
    separators = (",", ":") if compact else None
    return json.dumps(_strict(obj), ensure_ascii=False, allow_nan=False, indent=indent, separators=separators)
