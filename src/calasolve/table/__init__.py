"""The double-dummy table of a deal and its par: every seat as soloist in every contract after the
best exchange (:mod:`~calasolve.table.ddtable`, ``calasolve table``, the analogue of DDS's CalcDDtable),
and the auction's outcome when every player sees all cards (:mod:`~calasolve.table.par`); the tables
of several records over one worker pool (:mod:`~calasolve.table.batch`, ``dd_tables``), and the exact
table cut into tasks of a few seconds for a cluster of many workers (:mod:`~calasolve.table.cut`).

Imports :mod:`calasolve.exchange`, :mod:`calasolve.search`, :mod:`calasolve.scale`,
:mod:`calasolve.records` and :mod:`calasolve.game`; independent of :mod:`calasolve.advice` and
:mod:`calasolve.deals`.
"""
