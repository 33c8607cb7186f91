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
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Iterator

from ..game.errors import Terminated, WorkerStartError

__all__ = ["die_with_parent", "exit_on_sigterm", "forks_workers", "live_workers", "stop_all", "worker_pool"]

#: Exit status after SIGTERM: 128 + the signal number, as a shell reports it.
SIGTERM_STATUS = 128 + signal.SIGTERM

#: What every worker loads before its first task: the heavy native modules, where a
#: memory limit shows (named, not imported: the pool is below the layers that use them).
PRELOAD = ("numpy", "calasolve.search._core")

#: Seconds a worker gets to exit after SIGTERM before it is killed.
_GRACE = 2.0

#: The live pools of this process, so that a signal or the command's end stops them all: owned by
#: :func:`worker_pool` (which adds and drops its pool) and :func:`stop_all`.
_POOLS: list[ProcessPoolExecutor] = []


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def exit_on_sigterm() -> None:
    """Turn SIGTERM into :class:`Terminated` in this (main) thread."""
    signal.signal(signal.SIGTERM, _raise_terminated)


_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _worker_init(parent: int) -> None:
    # the worker starts with these signals blocked (see _Pool.submit): a Ctrl-C
    # that comes before it ignores them waits, then goes nowhere
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        die_with_parent(parent)
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


def die_with_parent(parent: int) -> None:
    """Ask Linux for SIGTERM when the parent (pid ``parent``) dies (``prctl(PR_SET_PDEATHSIG)``); a
    parent that died before the request (between the start and now) ends this process here."""

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except Exception:  # not glibc-like, or no memory to load ctypes: the other ways out still stop the workers
        pass
    if os.getppid() != parent:
        os._exit(SIGTERM_STATUS)


def _ready(modules: tuple[str, ...]) -> None:
    """A worker's first task: load the ``modules`` its work needs (the C core, numpy), so
    that a worker that cannot (a memory limit) fails here, before any work is given out.
    What the libraries print as they fail (OpenBLAS) is dropped: the error says it in one line."""
    import importlib

    saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError as err:  # its first line, and the cause numpy's message buries
        root: BaseException = err
        while root.__cause__ or root.__context__:
            root = root.__cause__ or root.__context__  # type: ignore[assignment]
        cause = next((line for line in str(root).splitlines() if line.strip()), "")
        raise ImportError(f"{err.name or 'a module'} does not load: {cause}") from None
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _start(pool: ProcessPoolExecutor, jobs: int, preload: tuple[str, ...]) -> None:
    """Start the pool's workers and see each ready, or raise :class:`WorkerStartError`.

    The pool's own threads (its manager, its queue's feeder) may fail to start
    too; their exception would otherwise be printed and the pool wait forever."""
    import threading

    failed: list[BaseException] = []
    default_hook = threading.excepthook

    def hook(args: Any) -> None:
        ours = args.thread is getattr(pool, "_executor_manager_thread", None) or (
            getattr(args.thread, "name", "") == "QueueFeederThread")
        if not ours:
            default_hook(args)
        elif args.exc_value is not None:
            failed.append(args.exc_value)

    threading.excepthook = hook
    try:
        probes = [pool.submit(_ready, preload) for _ in range(jobs)]
        for probe in probes:
            while True:
                manager = getattr(pool, "_executor_manager_thread", None)
                if failed or manager is None or not manager.is_alive() and not probe.done():
                    raise WorkerStartError(f"cannot start worker processes: {_reason(failed[0] if failed else None)}")
                try:
                    probe.result(timeout=0.1)
                    break
                except FutureTimeout:
                    continue
    except (ImportError, MemoryError, OSError, RuntimeError, BrokenProcessPool) as err:
        raise WorkerStartError(f"cannot start worker processes: {_reason(err)}") from None
    finally:
        threading.excepthook = default_hook


def _reason(err: BaseException | None) -> str:
    if err is None:
        return "the pool stopped"
    if isinstance(err, BrokenProcessPool):
        return "a worker process died as it started (out of memory?)"
    text = next((line.strip() for line in str(err).splitlines() if line.strip()), "")[:120]
    return f"{type(err).__name__}{': ' + text if text else ''} (out of memory?)"


def forks_workers() -> bool:
    """Whether :func:`worker_pool` forks its workers (Linux), so that they start with what this process holds;
    else (spawned: macOS, Windows) they start afresh."""
    return multiprocessing.get_start_method() == "fork"


@contextlib.contextmanager
def worker_pool(jobs: int, preload: tuple[str, ...] = PRELOAD) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers whose workers are gone when the block ends.

    Each worker first loads the modules named in ``preload``; workers that cannot
    start (or load them) are a :class:`WorkerStartError` (one line).  On a
    normal end the pool is shut down as usual (its work is done); on any other
    the pending work is cancelled and the workers are stopped at once."""
    try:
        pool = _Pool(max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),))
    except (MemoryError, OSError) as err:  # the pool's own queue and locks, under a memory limit
        raise WorkerStartError(f"cannot start worker processes: {_reason(err)}") from None
    _POOLS.append(pool)
    done = False
    try:
        _start(pool, jobs, preload)
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
    if manager is not None and manager.ident is not None:  # a thread that never started cannot be joined
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
