"""Running work on more than one core: the local process pool with its SIGTERM handling
(:mod:`~calasolve.scale.workers`) and the optional Dask cluster (:mod:`~calasolve.scale.cluster`,
``--scheduler``; Dask is imported only when asked for), single tasks handed to either as they come
(:mod:`~calasolve.scale.submit`), and the schedule a task log would get on N workers
(:mod:`~calasolve.scale.schedule`).

Imports only :mod:`calasolve.game`; the advisor and the commands use it.
"""
