"""Several lists against the clock (calasolve.exchange.draws, dividete's draws): every list answered with a
candidate of its exact value, whatever the time, and with the time, the list search's values; and the floors
of the list search it builds on (calasolve.exchange.parallel)."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

from calasolve.exchange.candidates import (defender_layouts, dividete_draws, early_candidates, enumerate_candidates,
                                           order_candidates)
from calasolve.exchange.draws import search_lists
from calasolve.exchange.parallel import ListsQuery, list_search
from calasolve.search.engines import CoreSolver
from calasolve.types.exchange import SearchStats

from test_exchange_search import random_small_deal


def _draws(seed: int, size: int = 7) -> tuple[list[Any], list[tuple[Any, ...]], int, int]:
    """A small deal's dividete draws: their batches, their lists in the early order, the soloist, the leader."""
    rng = random.Random(seed)
    hands, monte = random_small_deal(rng, size)
    soloist, leader = rng.randrange(3), rng.randrange(3)
    batches = [enumerate_candidates(defender_layouts(hands, monte, soloist, [takes]), soloist)
               for takes in dividete_draws(monte, soloist)]
    lists = [(b.hands, b.bonus, early_candidates(b, order_candidates(b, False, None, early=True)), None)
             for b in batches]
    return batches, lists, soloist, leader


def _value(solver: CoreSolver, batch: Any, i: int, leader: int, soloist: int) -> int:
    h = batch.hands[i]
    return solver.value((int(h[0]), int(h[1]), int(h[2])), (), leader, soloist, int(batch.bonus[i]))


def _exact(solver: CoreSolver, lists: list[tuple[Any, ...]], leader: int, soloist: int) -> list[int]:
    found = list_search(solver, ListsQuery(lists, leader, soloist, False, 1, 1, None), SearchStats())
    return [r.kept[0][0] for r in found]


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_list_is_answered_with_an_exact_value_however_short_the_time(jobs: int, solver: CoreSolver) -> None:
    for seed in range(3):
        batches, lists, soloist, leader = _draws(seed)
        best = _exact(solver, lists, leader, soloist)
        found = search_lists(solver, ListsQuery(lists, leader, soloist, False, 1, jobs, time.monotonic()), SearchStats())
        for b, r, order, v in zip(batches, found, (x[2] for x in lists), best):
            [(value, i)] = r.kept
            assert i == order[0]  # the time is out: the first candidate, valued
            assert value == _value(solver, b, i, leader, soloist)
            assert r.bound <= v <= value


@pytest.mark.parametrize("jobs", [1, 2])
def test_with_the_time_every_list_gets_the_list_searchs_best(jobs: int, solver: CoreSolver) -> None:
    for seed in range(3):
        batches, lists, soloist, leader = _draws(seed)
        best = _exact(solver, lists, leader, soloist)
        found = search_lists(solver, ListsQuery(lists, leader, soloist, False, 1, jobs, time.monotonic() + 3600),
                             SearchStats())
        assert [r.kept[0][0] for r in found] == best
        assert all(r.complete and r.bound == v for r, v in zip(found, best))
        for b, r in zip(batches, found):
            assert r.kept[0][0] == _value(solver, b, r.kept[0][1], leader, soloist)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_floor_keeps_only_candidates_strictly_better(jobs: int, solver: CoreSolver) -> None:
    _, lists, soloist, leader = _draws(5)
    best = _exact(solver, lists, leader, soloist)
    far = time.monotonic() + 3600
    at = list_search(solver, ListsQuery(lists, leader, soloist, False, 1, jobs, far, floors=best), SearchStats())
    assert all(not r.kept and r.complete for r in at)  # nothing below the best
    above = list_search(solver, ListsQuery(lists, leader, soloist, False, 1, jobs, far, floors=[v + 1 for v in best]),
                        SearchStats())
    assert [r.kept[0][0] for r in above] == best


def test_a_list_of_part_of_the_candidates_reports_their_indices(solver: CoreSolver) -> None:
    # the rest of a list (its order without the first) keeps the batch's indices
    batches, lists, soloist, leader = _draws(1)
    rests = [(h, b, order[1:], None) for h, b, order, _ in lists]
    found = list_search(solver, ListsQuery(rests, leader, soloist, False, 1, 1, None), SearchStats())
    for b, r, (_, _, order, _) in zip(batches, found, rests):
        value, i = r.kept[0]
        assert i in set(np.asarray(order).tolist())
        assert value == _value(solver, b, i, leader, soloist)


@pytest.mark.parametrize("lists_of", ["one", "all"])
@pytest.mark.parametrize("against_the_clock", [False, True])
def test_the_workers_find_the_same_whether_they_inherit_the_lists_or_are_sent_copies(
    lists_of: str, against_the_clock: bool, solver: CoreSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a pool forked for the search inherits its lists, so its jobs name their rows; a pool that is not (spawned, or
    # the caller's) is sent copies: one list dealt or cut in chunks, or several whole, give the one-process values
    from calasolve.exchange import parallel

    monkeypatch.setattr(parallel, "PARALLEL_MIN", 10)
    _, lists, soloist, leader = _draws(2)
    lists = lists[:1] if lists_of == "one" else lists
    best = _exact(solver, lists, leader, soloist)
    deadline = time.monotonic() + 3600 if against_the_clock else None
    found = {}
    for forks in (True, False):
        monkeypatch.setattr(parallel, "forks_workers", lambda: forks)
        found[forks] = list_search(solver, ListsQuery(lists, leader, soloist, False, 1, 2, deadline), SearchStats())
        assert len(parallel.FORKED) == 0  # the lists are let go with the search
    for forks, results in found.items():
        assert [r.kept[0][0] for r in results] == best, forks
        assert all(r.complete for r in results)
