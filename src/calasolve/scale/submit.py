"""Tasks handed out one at a time, so that work in stages moves on as soon as its own tasks are done.

A :class:`Submitter` takes one task (a function and its one argument) and gives back a
handle that says when it is done (``add_done_callback``) and what it gave (``result``):
a process pool is one through :class:`PoolMap` (its own futures), a Dask cluster through
:class:`calasolve.scale.cluster.DaskTasks`, and any plain ``map`` is
one through :class:`Waves`, which holds what is submitted until :meth:`~Waves.flush`
maps it all at once (work in stages then runs stage by stage, as the map alone can).
A caller that orders its tasks itself keeps them until the submitter has room
(``capacity``: a pool's workers and one more, a cluster's four a worker), and
hands each over with its ``priority`` (a Dask scheduler orders what waits by it).

>>> run = Waves(map)
>>> got = []
>>> run.submit(abs, -3).add_done_callback(lambda h: got.append(h.result()))
>>> got
[]
>>> run.flush(); got
[3]
"""

from __future__ import annotations

import builtins
from concurrent.futures import Executor, Future
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, cast

from ..game.errors import CalasolveError

__all__ = ["Handle", "Mapper", "PoolMap", "Submitter", "Waves", "submitter_of"]

#: A ``map``: the builtin, ``ProcessPoolExecutor.map``, or any callable that maps a function over a list and gives
#: the results in the list's order.
Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], Iterable[Any]]


class Handle(Protocol):
    """A task submitted: a callback once it is done (in any thread), and its result (or its error)."""

    def add_done_callback(self, fn: Callable[[Any], None]) -> None: ...

    def result(self) -> Any: ...


class Submitter(Protocol):
    """Runs tasks one at a time as they are submitted; :meth:`flush` starts what waits for it.

    ``capacity``: how many tasks to keep submitted at once so that every worker stays busy (None: any number),
    for a caller that picks the next task itself; ``priority``: where the submitter orders the tasks waiting
    (a Dask cluster's scheduler), the higher first."""

    capacity: int | None

    def submit(self, fn: Callable[[Any], Any], item: Any, priority: int = 0) -> Handle: ...

    def flush(self) -> None: ...


class PoolMap:
    """An executor of ``workers`` workers as a ``map`` (one item per task, results in order) and a submitter (each
    task to the pool at once, which runs them in the order submitted: its ``capacity`` is its workers and one)."""

    def __init__(self, executor: Executor, workers: int | None = None) -> None:
        self.executor = executor
        workers = workers if workers is not None else getattr(executor, "_max_workers", None)
        self.capacity = None if workers is None else int(workers) + 1

    def __call__(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return iter(self.executor.map(fn, items, chunksize=1))

    def submit(self, fn: Callable[[Any], Any], item: Any, priority: int = 0) -> Handle:
        return self.executor.submit(fn, item)

    def flush(self) -> None:
        """Nothing waits: every task went to the pool as it was submitted."""


class Waves:
    """A plain ``map`` as a submitter: the tasks submitted wait for :meth:`flush`, which maps them all, one
    ``map`` call per function, in the order submitted."""

    capacity: int | None = None

    def __init__(self, map: Mapper = builtins.map) -> None:
        self.map = map
        self.waiting: list[tuple[Callable[[Any], Any], Any, Future[Any]]] = []

    def __call__(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        return iter(self.map(fn, items))

    def submit(self, fn: Callable[[Any], Any], item: Any, priority: int = 0) -> Handle:
        future: Future[Any] = Future()
        self.waiting.append((fn, item, future))
        return future

    def flush(self) -> None:
        waiting, self.waiting = self.waiting, []
        for fn in dict.fromkeys(f for f, _, _ in waiting):
            tasks = [(item, future) for f, item, future in waiting if f is fn]
            items = [item for item, _ in tasks]
            out = list(islice(iter(self.map(fn, items)), len(items) + 1))
            if len(out) != len(items):
                raise CalasolveError(f"the map gave {len(out)} results for {len(items)} tasks")
            for (_, future), result in zip(tasks, out):
                future.set_result(result)


def submitter_of(map: Mapper | Submitter) -> Submitter:
    """A submitter for ``map``: itself if it is one, the pool of an executor's bound ``map``, else :class:`Waves`."""
    if hasattr(map, "submit") and hasattr(map, "flush"):
        return cast(Submitter, map)
    owner = getattr(map, "__self__", None)
    if isinstance(owner, Executor):
        return PoolMap(owner)
    return Waves(map)
