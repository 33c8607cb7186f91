"""Running work on more than one core: the local process pool with its SIGTERM handling
(:mod:`~calasolve.scale.workers`) and the optional Dask cluster (:mod:`~calasolve.scale.cluster`,
``--scheduler``; Dask is imported only when asked for).

Imports only :mod:`calasolve.game`; the advisor and the commands use it.
"""
