"""Single tasks handed out as they come: a pool's, a plain map's in waves, and which one a caller gets."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from calasolve.game.errors import CalasolveError
from calasolve.scale.submit import PoolMap, Waves, submitter_of


def test_waves_hold_the_tasks_until_a_flush_then_map_each_function_once() -> None:
    calls: list[tuple[str, list[Any]]] = []

    def counted(fn: Any, items: Any) -> Any:
        calls.append((fn.__name__, list(items)))
        return map(fn, items)

    run = Waves(counted)
    got: list[Any] = []
    handles = [run.submit(f, x) for f, x in [(abs, -1), (str, 2), (abs, -3)]]
    for h in handles:
        h.add_done_callback(lambda h: got.append(h.result()))
    assert got == [] and calls == []
    run.flush()
    assert calls == [("abs", [-1, -3]), ("str", [2])]
    assert sorted(map(str, got)) == ["1", "2", "3"] and [h.result() for h in handles] == [1, "2", 3]
    run.flush()  # nothing waits: no call
    assert len(calls) == 2
    assert list(run(abs, [-4])) == [4]


def test_a_map_that_loses_results_is_an_error() -> None:
    run = Waves(lambda fn, items: iter([fn(items[0])]))
    run.submit(abs, 1), run.submit(abs, 2)
    with pytest.raises(CalasolveError, match="gave 1 results for 2 tasks"):
        run.flush()


def test_an_error_in_a_task_comes_back_from_its_result() -> None:
    with ThreadPoolExecutor(2) as pool:
        run = submitter_of(pool.map)
        assert isinstance(run, PoolMap)
        bad = run.submit(int, "x")
        with pytest.raises(ValueError):
            bad.result()
        assert list(run(abs, [-1, -2])) == [1, 2]


def test_which_submitter_a_map_brings() -> None:
    with ThreadPoolExecutor(1) as pool:
        assert isinstance(submitter_of(pool.map), PoolMap)  # a pool's bound map: its pool
        own = PoolMap(pool)
        assert submitter_of(own) is own  # a submitter already
    assert isinstance(submitter_of(map), Waves)
    assert isinstance(submitter_of(lambda fn, items: map(fn, items)), Waves)
