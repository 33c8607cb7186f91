"""The benchmark suites: see :mod:`calasolve.search.suites` (shared with ``calasolve bench``)."""

from calasolve.search.suites import Deal, endings_suite, random_suite, strong_suite

__all__ = ["Deal", "endings_suite", "random_suite", "strong_suite"]
