"""Worker processes that never outlive the work they were started for.

:func:`worker_pool` is the one way calasolve starts worker processes (the
command line's ``--jobs``, :func:`calasolve.advice.advisor.advise`).  Whatever ends
the ``with`` block (the work done, an exception, Ctrl-C, SIGTERM turned into
:class:`Terminated` by :func:`exit_on_sigterm`, a reader closing the pipe),
the pool's workers are gone when it ends: stopped, or killed if they do not
stop.  :func:`stop_all` does the same for every pool still open, for an
exit that skips the ``with`` blocks (``os._exit``).

Workers ignore SIGINT (Ctrl-C reaches the whole process group; the main
process decides, and stops them) and die on SIGTERM; on Linux they also get
SIGTERM when the main process dies without cleaning up (``kill -KILL``).

>>> with worker_pool(2) as pool:
...     sorted(pool.map(abs, [-2, 1, -3]))
[1, 2, 3]
>>> live_workers()
0
"""

from __future__ import annotations

import contextlib
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator

__all__ = ["Terminated", "exit_on_sigterm", "live_workers", "stop_all", "worker_pool"]

#: Exit status after SIGTERM: 128 + the signal number, as a shell reports it.
SIGTERM_STATUS = 128 + signal.SIGTERM

#: Seconds a worker gets to exit after SIGTERM before it is killed.
_GRACE = 2.0

_POOLS: list[ProcessPoolExecutor] = []


class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread so that ``with`` and ``finally`` blocks run.

    A :class:`BaseException`, like :class:`KeyboardInterrupt`, so that no
    ``except Exception`` swallows it."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def exit_on_sigterm() -> None:
    """Turn SIGTERM into :class:`Terminated` in this (main) thread."""
    signal.signal(signal.SIGTERM, _raise_terminated)


_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _worker_init() -> None:
    # the worker starts with these signals blocked (see _Pool.submit): a Ctrl-C
    # that comes before it ignores them waits, then goes nowhere
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        _die_with_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)


class _Pool(ProcessPoolExecutor):
    """A pool whose workers are started with SIGINT and SIGTERM blocked."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        # workers are forked inside submit(); until their initializer has set
        # their own handlers, the main process's would run in them
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _die_with_parent() -> None:
    """Ask Linux for SIGTERM when the parent dies (``prctl(PR_SET_PDEATHSIG)``)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not glibc-like: the other ways out still stop the workers
        pass


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers whose workers are gone when the block ends.

    On a normal end the pool is shut down as usual (its work is done); on any
    other the pending work is cancelled and the workers are stopped at once."""
    pool = _Pool(max_workers=jobs, initializer=_worker_init)
    _POOLS.append(pool)
    done = False
    try:
        yield pool
        done = True
    finally:
        if done:
            pool.shutdown(wait=True)
            _forget(pool)
        else:
            _stop(pool)


def _forget(pool: ProcessPoolExecutor) -> None:
    with contextlib.suppress(ValueError):
        _POOLS.remove(pool)


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    # the executor's own table of its worker processes (None once it has shut down)
    return list((getattr(pool, "_processes", None) or {}).values())


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the pool's pending work and end its workers: SIGTERM, then SIGKILL."""
    procs = _processes(pool)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(_GRACE)
            if proc.is_alive():
                proc.kill()
                proc.join()
    if manager is not None:
        # it sees the workers gone and ends; waited for here, because the
        # interpreter's exit would race with it for its wake-up pipe (Python 3.11)
        manager.join(10 * _GRACE)
    _forget(pool)


def stop_all() -> None:
    """Stop every pool still open (the way out that skips their ``with`` blocks)."""
    for pool in list(_POOLS):
        _stop(pool)


def live_workers() -> int:
    """How many worker processes of open pools are alive."""
    return sum(1 for pool in _POOLS for proc in _processes(pool) if proc.is_alive())
