"""The double-dummy search: the C extension (``_core``, its stubs and ``.pxd``), the engines
that make solvers, solving a position whose exchange is known (thirds and payoff), the
interactive :class:`~calasolve.search.position.Position`, the pure-Python reference twin and the
benchmark deal suites.

Imports :mod:`calasolve.game` and :mod:`calasolve.records`; never the exchange search or
anything above it (a record with a missing exchange is solved one layer up, by
:func:`calasolve.exchange.solve.solve`).
"""
