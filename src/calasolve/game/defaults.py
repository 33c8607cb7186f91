"""Defaults that the library and the command line share (a light import; the limits
are in :mod:`calasolve.game.limits`).

>>> from calasolve.game.limits import MAX_SAMPLES
>>> DEFAULT_THIRDS_SAMPLES <= DEFAULT_SAMPLES <= MAX_SAMPLES
True
"""

#: The solver's transposition table, in MiB (the command line's ``--tt-mb``, the API's ``tt_mb``).
DEFAULT_TT_MB = 32
#: The bid advisor's cap on samples per contract (with ``fixed``: the samples).
DEFAULT_SAMPLES = 400
#: The 95% half-width wanted on the recommended contract's P(make).
DEFAULT_PRECISION = 0.05
#: Samples of each contract that also get their exact final thirds (the mean thirds' n).
DEFAULT_THIRDS_SAMPLES = 24
#: The goal search's memo per worker, in MiB: the searches at the extremes are memo-bound.
DEFAULT_GOAL_MB = 128
