"""The double-dummy exchange search: the candidate discards, calls, takes and splits with their
bounds (:mod:`~calasolve.exchange.candidates`), the search over them
(:mod:`~calasolve.exchange.search`) and solving a record whose exchange is missing
(:mod:`~calasolve.exchange.solve`, the public :func:`calasolve.solve`).

Imports :mod:`calasolve.search`, :mod:`calasolve.records` and :mod:`calasolve.game`; the
exchange's *rules* (applying and checking one) are :mod:`calasolve.game.exchange`.
"""
