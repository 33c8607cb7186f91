"""What a run's tasks would take on N workers: list scheduling simulated from a task log.

:func:`list_schedule` is the schedule a cluster's scheduler makes when it hands the
tasks out in the order they were submitted: whenever a worker is free it takes the
first task, in that order, whose tasks ``after`` are all done; or, given priorities,
the ready task of the lowest priority (ties: the first submitted).  Each task takes its
measured time (a task log's CPU seconds: what it costs on a worker of its own,
whatever the load of the machine it was measured on); moving data and the
scheduler's own work cost nothing here.

>>> list_schedule([(4, ()), (3, ()), (2, ()), (1, ())], 2)   # 4 | 3+2, then 1 on the first free
5.0
>>> list_schedule([(1, ()), (5, ()), (2, (0,))], 2)          # the third waits for the first
5.0
>>> list_schedule([(1, ()), (1, ()), (4, ())], 2, priority=[1, 1, 0])   # 4 | 1+1
4.0
"""

from __future__ import annotations

import heapq
from typing import Any, Sequence

from ..game.errors import CalasolveError

__all__ = ["list_schedule", "staged"]

#: A task for the simulation: its seconds, and the indices of the earlier tasks it needs.
Task = tuple[float, Sequence[int]]


def list_schedule(tasks: Sequence[Task], workers: int, priority: Sequence[Any] | None = None) -> float:
    """The wall time (makespan) of ``tasks`` on ``workers`` workers, list-scheduled in their order, or by
    ``priority`` (one sort key per task: the lowest first among the tasks ready, ties in their order).

    A task's ``after`` holds indices into ``tasks`` (of earlier or later tasks); an index out of
    range, negative seconds, dependencies in a circle or a priority short of a task are an error."""
    if workers < 1:
        raise CalasolveError(f"workers {workers}: must be at least 1")
    if priority is not None and len(priority) != len(tasks):
        raise CalasolveError(f"{len(priority)} priorities for {len(tasks)} tasks")
    waiting, needed_by = _dependencies(tasks)
    keys = [0] * len(tasks) if priority is None else priority
    ready = [(keys[i], i) for i, n in enumerate(waiting) if n == 0]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    now, done = 0.0, 0
    while done < len(tasks):
        while ready and len(running) < workers:
            _, i = heapq.heappop(ready)
            heapq.heappush(running, (now + float(tasks[i][0]), i))
        if not running:
            raise CalasolveError("the tasks' dependencies go in a circle")
        now, i = heapq.heappop(running)
        finished = [i]
        while running and running[0][0] == now:
            finished.append(heapq.heappop(running)[1])
        for i in finished:
            done += 1
            for j in needed_by[i]:
                waiting[j] -= 1
                if waiting[j] == 0:
                    heapq.heappush(ready, (keys[j], j))
    return now


def _dependencies(tasks: Sequence[Task]) -> tuple[list[int], list[list[int]]]:
    """Per task: how many tasks it waits for, and which tasks wait for it (its input checked)."""
    waiting = [0] * len(tasks)
    needed_by: list[list[int]] = [[] for _ in tasks]
    for j, (seconds, after) in enumerate(tasks):
        if not seconds >= 0:
            raise CalasolveError(f"task {j}: {seconds} seconds, must be 0 or more")
        for i in set(after):
            if not 0 <= i < len(tasks) or i == j:
                raise CalasolveError(f"task {j}: waits for task {i}, which is not another task of the list")
            waiting[j] += 1
            needed_by[i].append(j)
    return waiting, needed_by


def staged(stages: Sequence[int]) -> list[list[int]]:
    """The dependencies of tasks run in stages, each stage after the whole of the one before (a
    ``map`` per stage): per task (``stages``: its stage, in the order submitted), every task of the
    stage before.

    >>> staged([0, 0, 1, 2])
    [[], [], [0, 1], [2]]
    """
    by_stage: dict[int, list[int]] = {}
    for i, s in enumerate(stages):
        by_stage.setdefault(s, []).append(i)
    order = sorted(by_stage)
    before = {s: by_stage[order[k - 1]] if k else [] for k, s in enumerate(order)}
    return [list(before[s]) for s in stages]
