"""The board's slow questions (analyses, exchange searches, the table's entries, PIMC play) in a child
process that can be stopped: the page that asked goes away, and its search goes with it.  The table's
entries go to a :class:`SlowPool` of such processes, one per core, so that a table uses every core.

The C search cannot be interrupted from outside, so a question nobody wants
any more is stopped by ending the process that answers it; the next question
starts a new one.  Between questions the process keeps its solver warm.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import os
import signal
import sys
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from ..game.errors import Abandoned, BadRequest, CalasolveError
from ..game.limits import MAX_JOBS
from ..scale.workers import die_with_parent, forks_workers
from ..search.engines import make_solver

if TYPE_CHECKING:
    from ..types.analysis import Analysis
    from ..types.exchange import ExchangeResult
    from ..types.seat import SeatAdvice
    from ..types.table import TableEntry
    from .pimc import PimcContinuation


def _analyse(solver: Any, record: Any, judge: bool) -> Analysis:
    from ..deals.analysis import analyse

    return analyse(record, solver=solver, exchange=judge)


def _exchange(solver: Any, record: Any, top: int, time_limit: float | None = None) -> ExchangeResult:
    from ..exchange.search import best_exchange

    # the first look takes every core, as `calasolve solve --time-limit` does, where workers fork (spawned, they
    # would spend its second starting); the exact answer one process, so that among exchanges of equal value it
    # is the one `calasolve solve --jobs 1` reports, whatever the timing
    jobs = min(os.cpu_count() or 1, MAX_JOBS) if time_limit is not None and forks_workers() else 1
    return best_exchange(record, solver=solver, top=top, jobs=jobs, time_limit=time_limit)


def _table_entry(solver: Any, record: Any, soloist: int, contract: Any, time_limit: float | None = None) -> TableEntry:
    from ..table.ddtable import table_part

    deadline = None if time_limit is None else time.time() + time_limit
    return table_part((record, soloist, contract, None), solver, deadline)


def _pimc(solver: Any, record: Any, samples: int, seed: int, cards: int | None, judge: bool = True) -> PimcContinuation:
    from .pimc import continue_with_pimc

    return continue_with_pimc(record, samples=samples, seed=seed, cards=cards, solver=solver, double_dummy=judge)


def _seat(solver: Any, view: Any, layouts: int | None, seed: int, include: tuple[int, ...] = ()) -> SeatAdvice:
    from ..seat.advice import advise_view

    # every core, where workers fork (the same answer for any number): a game's agents wait for the person meanwhile
    jobs = min(os.cpu_count() or 1, MAX_JOBS) if forks_workers() else 1
    return advise_view(view, layouts=layouts, seed=seed, solver=solver, include=include, jobs=jobs)


#: What the child answers, by name (names, not functions, go through the pipe; the answers are
#: result objects, pickled as the worker pools' are: the server writes their JSON).
QUESTIONS: dict[str, Callable[..., Any]] = {
    "analyse": _analyse, "exchange": _exchange, "table_entry": _table_entry, "pimc": _pimc, "seat": _seat,
}


def _serve(conn: Any, tt_mb: int, parent: int) -> None:
    """The child: answer each question with ("ok", answer) or ("error", the error, whole: its class and fields)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops this
    if sys.platform.startswith("linux"):
        die_with_parent(parent)  # not daemonic (a first look starts workers): it goes with the server
        # this process has one thread: its first look forks its workers (they start at once, with its lists)
        multiprocessing.set_start_method("fork", force=True)
    solver = None
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            solver = solver or make_solver(tt_mb)
            conn.send(("ok", QUESTIONS[name](solver, *args)))
        except CalasolveError as err:
            conn.send(("error", err))
        except MemoryError as err:
            conn.send(("error", BadRequest(f"out of memory: {err}", 503)))


#: The slow workers whose child may be running: stopped at exit, before multiprocessing joins its children (its
#: own exit handler, registered earlier, runs after this module's).
_LIVE: weakref.WeakSet[SlowWorker] = weakref.WeakSet()


@atexit.register
def _stop_live() -> None:
    for worker in list(_LIVE):
        worker.stop()


class SlowWorker:
    """One child process answering slow questions one at a time; stopped when the
    request that asked is gone."""

    def __init__(self, tt_mb: int) -> None:
        self.tt_mb = tt_mb
        self._ctx = multiprocessing.get_context("spawn")  # the server has threads: no fork
        self._process: Any = None
        self._conn: Any = None
        self._lock = asyncio.Lock()
        self._waiter = ThreadPoolExecutor(1, thread_name_prefix="board-slow-wait")
        #: the board is stopping: a question under way ends with that, not as a process lost
        self._closing = False
        #: questions stopped because nobody wanted the answer any more (for the tests)
        self.abandoned = 0

    @property
    def pid(self) -> int | None:
        """The child's process id, while it runs."""
        return self._process.pid if self._process is not None and self._process.is_alive() else None

    def _ensure(self) -> Any:
        if self._process is None or not self._process.is_alive():
            self.stop()
            parent, child = self._ctx.Pipe()
            # not daemonic, so that a first look can start its worker processes; stopped by close(), or at exit
            self._process = self._ctx.Process(target=_serve, args=(child, self.tt_mb, os.getpid()),
                                              name="calasolve-board-slow")
            _LIVE.add(self)
            self._process.start()
            child.close()  # the child's end: once the child is gone, recv() here ends at once
            self._conn = parent
        return self._conn

    def _end(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join(5)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()

    def stop(self, closing: bool = False) -> None:
        """End the child now (a question under way is dropped; ``closing``: because the board stops)."""
        self._closing = self._closing or closing
        self._end()
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def close(self) -> None:
        self.stop()
        self._waiter.shutdown(wait=False, cancel_futures=True)

    async def ask(self, name: str, args: tuple[Any, ...], gone: Callable[[], Awaitable[None]]) -> Any:
        """The answer to question ``name`` (the result object of :data:`QUESTIONS`); ``gone`` returns once the asker
        has left, and then the question is stopped (:class:`Abandoned`).  A question's error is raised here as
        the child raised it (its class, message and fields: a :class:`BadRequest`'s status)."""
        left = asyncio.ensure_future(gone())
        try:
            async with self._lock:  # one question at a time: a page that left while waiting asks nothing
                if left.done():
                    raise Abandoned()
                if self._closing:  # no new search once the board stops
                    raise BadRequest("the board is stopping", 503)
                conn = self._ensure()
                conn.send((name, args))
                answer = asyncio.get_running_loop().run_in_executor(self._waiter, conn.recv)
                done, _ = await asyncio.wait({answer, left}, return_when=asyncio.FIRST_COMPLETED)
                if answer not in done:
                    self.abandoned += 1
                    self._end()
                    with contextlib.suppress(Exception):
                        await answer  # the pipe's end: the waiting thread is free again
                    self.stop()
                    raise Abandoned()
                try:
                    reply = answer.result()
                except (EOFError, OSError):
                    self.stop()
                    if self._closing:
                        raise BadRequest("the board is stopping", 503) from None
                    raise CalasolveError("the search process stopped (out of memory?)") from None
        except asyncio.CancelledError:  # the server is stopping
            self.stop()
            raise
        finally:
            left.cancel()
        if reply[0] == "ok":
            return reply[1]
        raise reply[1]


class SlowPool:
    """Several :class:`SlowWorker` processes: each question goes to the first one free (the table's
    entries side by side), and is stopped as there when its asker leaves."""

    def __init__(self, tt_mb: int, size: int) -> None:
        self.workers = [SlowWorker(tt_mb) for _ in range(max(1, size))]
        self._free: asyncio.Queue[SlowWorker] | None = None  # made on the server's loop, at the first question

    @property
    def pids(self) -> list[int]:
        """The children's process ids, of those running."""
        return [pid for pid in (w.pid for w in self.workers) if pid is not None]

    @property
    def abandoned(self) -> int:
        return sum(w.abandoned for w in self.workers)

    def close(self) -> None:
        for w in self.workers:
            w.close()

    async def ask(self, name: str, args: tuple[Any, ...], gone: Callable[[], Awaitable[None]]) -> Any:
        """:meth:`SlowWorker.ask` of the first worker free (waiting for one if all are busy)."""
        if self._free is None:
            self._free = asyncio.Queue()
            for w in self.workers:
                self._free.put_nowait(w)
        left = asyncio.ensure_future(gone())  # one watcher of the request: it may be read by one reader only

        async def still_gone() -> None:
            await asyncio.shield(left)

        taken = asyncio.ensure_future(self._free.get())
        try:
            done, _ = await asyncio.wait({taken, left}, return_when=asyncio.FIRST_COMPLETED)
            if taken not in done:
                taken.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await taken
                if not taken.cancelled():
                    self._free.put_nowait(taken.result())  # taken just as the asker left: give it back
                raise Abandoned()
            worker = taken.result()
            try:
                return await worker.ask(name, args, still_gone)
            finally:
                self._free.put_nowait(worker)
        finally:
            left.cancel()
