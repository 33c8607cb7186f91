"""The bulk commands on a Dask cluster (``--scheduler``): the optional extra ``calasolve[dask]``.

``--scheduler ADDRESS`` uses a running ``dask scheduler`` (its workers must
have calasolve installed, the same version); ``--scheduler local[:N]``
starts a local cluster of N worker processes (default: one per core) for
the run and stops it after.

The work goes out in chunks of records (:func:`chunk_size`), a bounded
number in flight, and comes back in input order as each chunk is done, so
printing starts early and a large run never sits whole in the scheduler.  A
worker keeps one warm solver across its chunks: the functions mapped are the
same ones ``--jobs`` runs, whose solver is a module-level cache of the worker
process.  One chunk runs at a time in a worker process, whatever its
``--nthreads`` (a solver is not shared between threads): start workers with
``--nthreads 1`` and as many ``--nworkers`` as cores.  A worker that dies
has its chunks run again elsewhere by Dask, so the output stays complete.

>>> parse_scheduler("local:3"), parse_scheduler("tcp://10.0.0.5:8786")
(('local', 3), ('address', 'tcp://10.0.0.5:8786'))
>>> chunk_size(10_000, 2), chunk_size(10, 2), chunk_size(1, 8)
(16, 2, 1)
"""

from __future__ import annotations

import math
import os
import threading
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from ..game.errors import CalasolveError
from ..game.limits import MAX_JOBS

#: Seconds to wait for the scheduler (and for a first worker) before giving up.
DEFAULT_TIMEOUT = 10.0
#: The most records a chunk holds: a few seconds of solving, so a late chunk does not hold up the end.
MAX_CHUNK = 16
#: Chunks per worker in flight: enough that no worker waits for the next.
IN_FLIGHT = 4

INSTALL_HINT = "--scheduler needs the optional extra: pip install 'calasolve[dask]'"
#: Dask settings for the clusters calasolve starts: no statistical profiler, slower monitors
#: (at Dask's defaults they cost a busy worker CPU its solves need; docs/scale.md).
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}

_CHUNK_LOCK = threading.Lock()


def parse_scheduler(text: str) -> tuple[str, Any]:
    """``("local", N)`` for ``local[:N]`` (N None: one per core), else ``("address", text)``."""
    text = text.strip()
    head, sep, tail = text.partition(":")
    if head.lower() == "local":
        if not sep:
            return "local", None
        if not tail.isdigit() or not 1 <= int(tail) <= MAX_JOBS:
            raise CalasolveError(f"--scheduler {text!r}: write local:N with N from 1 to {MAX_JOBS}")
        return "local", int(tail)
    if not text:
        raise CalasolveError("--scheduler: give an address (tcp://HOST:PORT) or local[:N]")
    return "address", text


def chunk_size(n: int, workers: int) -> int:
    """Records per chunk: about four chunks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, math.ceil(n / (max(1, workers) * IN_FLIGHT))))


def run_chunk(fn: Callable[[Any], Any], chunk: list[Any]) -> list[Any]:
    """``fn`` over a chunk, on a worker: one chunk at a time per process (the solver is per process)."""
    with _CHUNK_LOCK:
        return [fn(item) for item in chunk]


class DaskMap:
    """``map`` over a Dask client, the interface of a worker pool's: results in input order."""

    def __init__(self, client: Any, workers: int) -> None:
        self.client, self.workers = client, workers

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], chunksize: int = 1) -> Iterator[Any]:
        """``fn`` over ``items`` in chunks of ``chunksize``, each chunk's results as soon as
        it and every chunk before it are done."""
        pending: deque[Any] = deque()
        limit = max(1, self.workers) * IN_FLIGHT
        chunk: list[Any] = []
        for item in items:
            chunk.append(item)
            if len(chunk) == chunksize:
                pending.append(self.client.submit(run_chunk, fn, chunk, pure=False))
                chunk = []
                while len(pending) >= limit:
                    yield from _result(pending.popleft())
        if chunk:
            pending.append(self.client.submit(run_chunk, fn, chunk, pure=False))
        try:
            while pending:
                yield from _result(pending.popleft())
        finally:
            for future in pending:
                future.cancel()


class DaskTasks:
    """A cluster as a ``map`` (one item per task, results in order) and a
    :class:`~calasolve.scale.submit.Submitter` (each task to the scheduler at once).  Apart from
    :class:`DaskMap`, which callers that look for ``submit`` (the advisor's work ahead) take as a
    map only."""

    def __init__(self, dmap: DaskMap) -> None:
        self.dmap = dmap
        #: the tasks a caller that picks the next one itself keeps with the cluster at once, as :meth:`DaskMap.map`
        self.capacity: int | None = max(1, dmap.workers) * IN_FLIGHT

    def __call__(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return self.dmap.map(fn, items)

    def submit(self, fn: Callable[[Any], Any], item: Any, priority: int = 0) -> DaskTask:
        return DaskTask(self.dmap.client.submit(run_chunk, fn, [item], pure=False, priority=priority))

    def flush(self) -> None:
        """Nothing waits: every task went to the scheduler as it was submitted."""


class DaskTask:
    """A chunk of one item on the cluster as a :class:`~calasolve.scale.submit.Handle`: the item's result, or the
    cluster's failure as one line."""

    def __init__(self, future: Any) -> None:
        self.future = future

    def add_done_callback(self, fn: Callable[[Any], None]) -> None:
        self.future.add_done_callback(lambda _: fn(self))

    def result(self) -> Any:
        return _result(self.future)[0]


def _result(future: Any) -> list[Any]:
    """A chunk's results; the cluster's own failures (not the work's) as one line."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker

    try:
        return future.result()  # type: ignore[no-any-return]
    except KilledWorker as err:
        raise CalasolveError(f"Dask: the workers running a chunk died too often ({err})") from None
    except (CancelledError, OSError, TimeoutError) as err:
        raise CalasolveError(f"Dask: the cluster failed ({type(err).__name__}: {err})") from None


def require_dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise CalasolveError(INSTALL_HINT) from None
    return distributed


def probe(address: str, timeout: float) -> None:
    """Knock once at the scheduler ``address`` (one-line :class:`CalasolveError` if nobody
    answers as a Dask scheduler), before a ``Client`` is made: a client that fails to
    connect prints a traceback when it is cleaned up at exit."""
    import asyncio

    from distributed.comm.core import connect

    async def knock() -> None:
        comm = await connect(address, timeout=timeout)  # type: ignore[no-untyped-call]
        await comm.close()

    where = f"--scheduler {address}"
    try:
        asyncio.run(asyncio.wait_for(knock(), timeout + 1))
    except ValueError as err:  # an unknown scheme or a malformed address
        raise CalasolveError(f"{where}: not a Dask address ({err})") from None
    except (OSError, asyncio.TimeoutError, TimeoutError) as err:
        raise CalasolveError(
            f"{where}: cannot reach the Dask scheduler within {timeout:g} s ({type(err).__name__}: {err})") from None
    except Exception as err:  # something answered, but not as a Dask scheduler
        raise CalasolveError(
            f"{where}: what answers there is not a Dask scheduler ({type(err).__name__}: {err})") from None


@contextmanager
def dask_map(scheduler: str, timeout: float = DEFAULT_TIMEOUT) -> Iterator[DaskMap]:
    """A :class:`DaskMap` on the cluster ``scheduler`` names (see :func:`parse_scheduler`),
    closed (a local cluster stopped) when the block ends.  A local cluster's workers
    run with :data:`QUIET` (a running cluster's workers keep their own settings)."""
    kind, where = parse_scheduler(scheduler)
    distributed = require_dask()
    import logging

    import dask

    cluster = None
    with dask.config.set(QUIET):
        try:
            if kind == "local":
                n = where or os.cpu_count() or 1
                try:
                    cluster = distributed.LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=logging.ERROR, scheduler_port=0, host="127.0.0.1",
                        # the scheduler's HTTP server on a free port: no warning when 8787 is taken
                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                except Exception as err:  # a cluster that cannot start is the option's error
                    raise CalasolveError(f"--scheduler {scheduler}: cannot start a local Dask cluster: {err}") from None
                where = cluster
            else:
                probe(where, timeout)
            try:
                client = distributed.Client(where, timeout=timeout, set_as_default=False)
            except Exception as err:
                raise CalasolveError(
                    f"--scheduler {scheduler}: cannot reach the Dask scheduler within {timeout:g} s "
                    f"({type(err).__name__}: {err})") from None
            try:
                try:
                    client.wait_for_workers(1, timeout=timeout)
                except Exception:
                    raise CalasolveError(f"--scheduler {scheduler}: no Dask worker joined within {timeout:g} s") from None
                yield DaskMap(client, len(client.scheduler_info(n_workers=-1)["workers"]))
            finally:
                client.close()
        finally:
            if cluster is not None:
                cluster.close()
