"""A strict JSON reader (RFC 8259): ``NaN``, ``Infinity`` and ``-Infinity`` are errors,
as they are for JavaScript's ``JSON.parse`` and most other languages' readers."""

from __future__ import annotations

import json
from typing import Any


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259)")


def strict_loads(text: str) -> Any:
    """``text`` parsed as standard JSON; anything non-standard raises ValueError."""
    return json.loads(text, parse_constant=_refuse)


def strict_lines(text: str) -> list[Any]:
    """Every line of ``text`` (JSON lines), each parsed strictly."""
    return [strict_loads(line) for line in text.splitlines() if line.strip()]
