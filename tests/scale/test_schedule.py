"""The schedule simulated from a task log: list scheduling in the order submitted, on hand-made logs."""

from __future__ import annotations

import pytest

from calasolve.game.errors import CalasolveError
from calasolve.scale.schedule import list_schedule, staged


def test_independent_tasks() -> None:
    tasks = [(4.0, ()), (3.0, ()), (2.0, ()), (1.0, ())]
    assert list_schedule(tasks, 1) == 10.0  # one worker: the sum
    assert list_schedule(tasks, 2) == 5.0  # 4 then 1 | 3 then 2
    assert list_schedule(tasks, 4) == list_schedule(tasks, 100) == 4.0  # enough workers: the longest
    assert list_schedule([(1.0, ()), (1.0, ()), (4.0, ())], 2) == 5.0  # in the order given, not longest first
    assert list_schedule([], 8) == 0.0


def test_a_task_waits_for_those_it_needs() -> None:
    assert list_schedule([(1.0, ()), (5.0, ()), (2.0, (0,))], 2) == 5.0  # the third runs from 1 to 3
    assert list_schedule([(1.0, ()), (2.0, (0,)), (3.0, (1,))], 8) == 6.0  # a chain: its sum
    # a free worker takes the first task that is ready, not the first in the list
    assert list_schedule([(2.0, ()), (3.0, (0,)), (1.0, ()), (1.0, ())], 2) == 5.0
    # a task may come before one it needs in the list
    assert list_schedule([(2.0, (1,)), (1.0, ())], 2) == 3.0
    # fan out, fan in: a first pass, four chunks on two workers, then the payoff
    assert list_schedule([(1.0, ()), *[(2.0, (0,))] * 4, (3.0, (1, 2, 3, 4))], 2) == 1 + 4 + 3


def test_priorities() -> None:
    # the lowest key first among the tasks ready, ties in the order given
    assert list_schedule([(1.0, ()), (1.0, ()), (4.0, ())], 2, [1, 1, 0]) == 4.0
    assert list_schedule([(1.0, ()), (1.0, ()), (4.0, ())], 2, [0, 0, 0]) == 5.0
    # a task not ready waits whatever its priority
    assert list_schedule([(1.0, ()), (1.0, ()), (4.0, (0,))], 2, [1, 1, 0]) == 5.0
    with pytest.raises(CalasolveError, match="2 priorities for 3 tasks"):
        list_schedule([(1.0, ()), (1.0, ()), (4.0, ())], 2, [0, 0])


def test_stages() -> None:
    assert staged([0, 0, 1, 2]) == [[], [], [0, 1], [2]]
    assert staged([0, 1, 0, 1]) == [[], [0, 2], [], [0, 2]]
    # the second stage waits for the whole first: 5, not 1 + 1
    tasks = [(1.0, ()), (5.0, ()), (1.0, (0,))]
    stages = staged([0, 0, 1])
    assert list_schedule([(t[0], a) for t, a in zip(tasks, stages)], 2) == 6.0
    assert list_schedule(tasks, 2) == 5.0


@pytest.mark.parametrize(("tasks", "workers", "fragment"), [
    ([(1.0, (1,)), (1.0, (0,))], 2, "circle"),
    ([(1.0, (0,))], 1, "not another task"),
    ([(1.0, (5,))], 1, "not another task"),
    ([(-1.0, ())], 1, "0 or more"),
    ([(1.0, ())], 0, "at least 1"),
])
def test_bad_logs(tasks: list[tuple[float, tuple[int, ...]]], workers: int, fragment: str) -> None:
    with pytest.raises(CalasolveError, match=fragment):
        list_schedule(tasks, workers)
