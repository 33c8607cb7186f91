"""A result's JSON form without what varies from run to run (times, by default), for comparing runs."""

from __future__ import annotations

from typing import Any, Collection


def steady(obj: Any, varying: Collection[str] = ("seconds",)) -> Any:
    """``obj`` (JSON data) with every key in ``varying`` left out, at every depth."""
    if isinstance(obj, dict):
        return {k: steady(v, varying) for k, v in obj.items() if k not in varying}
    if isinstance(obj, list):
        return [steady(v, varying) for v in obj]
    return obj
