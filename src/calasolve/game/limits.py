"""The limits on every sized argument, shared by the command line and the Python API,
and the checks that enforce them up front (in the calling process, before any
work starts or any worker is started).

A bad argument is a :class:`~calasolve.game.errors.ParameterError` (a
``ValueError``) naming the parameter:

>>> check_int("samples", 2**70, 1, MAX_SAMPLES)
Traceback (most recent call last):
...
calasolve.game.errors.ParameterError: samples 1180591620717411303424: must be an integer from 1 to 1000000
>>> check_int("jobs", 2, 1, MAX_JOBS)
2
"""

from __future__ import annotations

import operator
from typing import Any, Collection

from .errors import ParameterError

#: Samples per contract (``advise``).
MAX_SAMPLES = 1_000_000
#: Worker processes (``--jobs``).
MAX_JOBS = 256
#: A transposition table or goal memo, in MiB.
MAX_TABLE_MB = 65536
#: Random seeds are 64-bit (two 32-bit words of the generator's seed).
MAX_SEED = 2**63 - 1
#: Records one ``calasolve deal`` run writes.
MAX_DEALS = 10**9
#: Exchange alternatives reported (``--top``).
MAX_TOP = 1000
#: A soloist's final thirds.
MAX_THIRDS = 35
#: The ``sampled`` policy's discard choices and re-deals per sample (each pair is a solve).
MAX_CANDIDATES = 100
MAX_REDEALS = 1000


def check_int(parameter: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi`` (anything :func:`operator.index` takes, not a bool)."""
    if isinstance(value, bool):
        raise ParameterError(parameter, value, f"must be an integer from {lo} to {hi}, not a bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise ParameterError(parameter, value, f"must be an integer from {lo} to {hi}") from None
    if not lo <= number <= hi:
        raise ParameterError(parameter, value, f"must be an integer from {lo} to {hi}")
    return number


def check_optional_int(parameter: str, value: Any, lo: int, hi: int) -> int | None:
    """None, or :func:`check_int`."""
    return None if value is None else check_int(parameter, value, lo, hi)


def check_optional_seconds(parameter: str, value: Any) -> float | None:
    """None, or a positive finite number of seconds (not a bool) as a float.

    >>> check_optional_seconds("time_limit", 0)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: time_limit 0: must be a positive number of seconds
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise ParameterError(parameter, value, "must be a positive number of seconds")
    return float(value)


def check_choice(parameter: str, value: Any, choices: Collection[str]) -> str:
    """``value`` if it is one of ``choices`` (strings)."""
    if not isinstance(value, str) or value not in choices:
        raise ParameterError(parameter, value, f"must be one of {', '.join(choices)}")
    return value


def check_bool(parameter: str, value: Any) -> bool:
    """``value`` if it is True or False (an int 0/1 is not taken for a flag)."""
    if not isinstance(value, bool):
        raise ParameterError(parameter, value, "must be True or False")
    return value


def check_mask(parameter: str, value: Any) -> int:
    """A set of cards: an int whose bits are card ids 0..39."""
    return check_int(parameter, value, 0, (1 << 40) - 1)


def check_instance(parameter: str, value: Any, cls: type, what: str) -> Any:
    """``value`` if it is a ``cls``; ``what`` names what was expected."""
    if not isinstance(value, cls):
        raise ParameterError(parameter, value, f"must be {what}")
    return value


def check_callable(parameter: str, value: Any) -> Any:
    """None or a callable."""
    if value is not None and not callable(value):
        raise ParameterError(parameter, value, "must be callable (or None)")
    return value
