"""Monte Carlo bidding advice: the exchange policies, one sample's outcome tests, the
sequential race with its confidence sequences, small statistics and the advisor that runs
them on worker processes.

Imports :mod:`calasolve.exchange`, :mod:`calasolve.search`, :mod:`calasolve.scale`,
:mod:`calasolve.records` and :mod:`calasolve.game`; independent of :mod:`calasolve.deals`.
"""
