"""Whole deals, searched end to end: the played-deal analyser (:mod:`~calasolve.deals.analysis`,
``calasolve analyse``) and the random-deal generator (:mod:`~calasolve.deals.dealer`,
``calasolve deal``).

Imports :mod:`calasolve.exchange`, :mod:`calasolve.search`, :mod:`calasolve.records` and
:mod:`calasolve.game`; independent of :mod:`calasolve.advice`.
"""
