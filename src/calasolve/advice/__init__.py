"""Monte Carlo bidding advice: the exchange policies, one sample's outcome tests, the
sequential race with its confidence sequences, small statistics and the advisor that runs
them on worker processes; the same deals played out by PIMC players (``advise --play``).

Imports :mod:`calasolve.play`, :mod:`calasolve.exchange`, :mod:`calasolve.search`, :mod:`calasolve.scale`,
:mod:`calasolve.records` and :mod:`calasolve.game`; independent of :mod:`calasolve.deals`.
"""
