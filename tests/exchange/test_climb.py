"""The climb of a search against the clock (calasolve.exchange.climb): its swaps and moves are candidates
of the list, it only climbs, and what it reaches comes out as legal exchanges of their exact values."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

from calasolve.exchange import parallel
from calasolve.exchange import climb as climb_module
from calasolve.exchange.candidates import (TARGET_SHARE, climb_moves, defender_layouts, dividete_draws, scegliete_splits,
                                           early_candidates, early_chiamo, enumerate_candidates, order_candidates,
                                           soloist_layouts)
from calasolve.exchange.climb import climb, moves, swaps
from calasolve.exchange.estimate import (DEFENCE_NET, SOLOIST_FIT, fitted_estimate, position_estimate, suit_features,
                                         suit_signature)
from calasolve.exchange.search import SearchLimits, search_exchange
from calasolve.game.cards import mask_thirds
from calasolve.game.exchange import Exchange
from calasolve.search.engines import CoreSolver

from test_exchange_search import exchange_value, final_position, random_small_deal


def _batch(contract: str, seed: int, size: int = 7) -> tuple[Any, Any, int, int, int]:
    rng = random.Random(seed)
    hands, monte = random_small_deal(rng, size)
    soloist, leader = rng.randrange(3), rng.randrange(3)
    if contract == "dividete":
        layouts = defender_layouts(hands, monte, soloist, dividete_draws(monte, soloist)[:1])
    elif contract == "scegliete":
        layouts = defender_layouts(hands, monte, soloist, scegliete_splits(monte, soloist))
    else:
        layouts = soloist_layouts(hands, monte, contract, soloist, Exchange())
    return enumerate_candidates(layouts, soloist), hands, monte, soloist, leader


def _is_the_exchange(batch: Any, layout: int, h: np.ndarray, d: np.ndarray, bonus: int, hands: Any, monte: int,
                     contract: str, soloist: int) -> None:
    """Hands, discards and bonus are those of a legal exchange of the layout (the rules applied to it)."""
    ex = batch.layouts[layout].build((int(d[0]), int(d[1]), int(d[2])))
    new, new_monte = final_position(hands, monte, contract, soloist, ex)
    assert tuple(new) == (int(h[0]), int(h[1]), int(h[2]))
    assert bonus == 3 + mask_thirds(new_monte)


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete"])
def test_every_swap_is_a_legal_exchange_of_the_same_layout(contract: str) -> None:
    batch, hands, monte, soloist, _ = _batch(contract, 3)
    for i in range(0, len(batch), max(1, len(batch) // 7)):
        h, b, d = swaps(batch.hands[i], batch.discards[i], int(batch.bonus[i]))
        seats = sum(1 for s in range(3) if batch.discards[i][s])
        per_seat = 4 if contract != "dividete" else 2
        assert len(b) == seats * 7 * per_seat  # each seat that discards: a card held for a discard
        assert len({row.tobytes() for row in h}) == len(b)
        for row in range(len(b)):
            _is_the_exchange(batch, int(batch.layout[i]), h[row], d[row], int(b[row]), hands, monte, contract, soloist)


def test_every_move_is_a_legal_exchange_of_a_target_layout() -> None:
    batch, hands, monte, soloist, _ = _batch("chiamo", 5)
    can = climb_moves(batch, soloist)
    assert can.table is not None and can.layout_of is not None
    assert 0 < can.table.target.sum() < len(batch.layouts)
    moved = 0
    for i in range(0, len(batch), max(1, len(batch) // 11)):
        h, b, d, to = moves(batch.hands[i], soloist, int(batch.layout[i]), can.table)
        assert can.table.target[to].all() and (to != batch.layout[i]).all()
        for row in range(len(b)):
            _is_the_exchange(batch, int(to[row]), h[row], d[row], int(b[row]), hands, monte, "chiamo", soloist)
        moved += len(b)
    assert moved


def test_solo_and_the_defenders_only_swap() -> None:
    for contract in ("solo", "dividete"):
        batch, _, _, soloist, _ = _batch(contract, 4)
        assert climb_moves(batch, soloist).table is None


@pytest.mark.parametrize("contract, maximise", [("solo", True), ("chiamo", True), ("dividete", False)])
def test_a_climb_only_climbs_and_stops_where_nothing_near_is_better(contract: str, maximise: bool,
                                                                   solver: CoreSolver) -> None:
    batch, _, _, soloist, leader = _batch(contract, 11)
    can = climb_moves(batch, soloist)
    worst = int(np.argmin(batch.estimate) if maximise else np.argmax(batch.estimate))
    start = solver.value(tuple(int(x) for x in batch.hands[worst]), (), leader, soloist, int(batch.bonus[worst]))
    found, searches = climb(solver, [(start, worst)], batch.hands, batch.bonus, can, leader, soloist, maximise,
                            time.monotonic() + 60)
    values = [start] + [v for v, _ in found]
    assert values == sorted(values, reverse=not maximise) and len(set(values)) == len(values)
    best = max if maximise else min
    exact = best(solver.value(tuple(int(x) for x in h), (), leader, soloist, int(b))
                 for h, b in zip(batch.hands, batch.bonus))
    for v, c in found:
        assert solver.value(tuple(int(x) for x in c.hands), (), leader, soloist, c.bonus) == v
        assert (v <= exact) if maximise else (v >= exact)
    assert searches >= len(found)
    # where it stopped, no swap or move is better
    last_v, last = found[-1] if found else (start, None)
    h = batch.hands[worst] if last is None else last.hands
    d = batch.discards[worst] if last is None else last.discards
    b = int(batch.bonus[worst]) if last is None else last.bonus
    near = [swaps(h, d, b)[:2]]
    if can.table is not None:
        lay = int(batch.layout[worst]) if last is None else last.layout
        near.append(moves(h, soloist, lay, can.table)[:2])
    for nh, nb in near:
        for row in range(len(nb)):
            v = solver.value(tuple(int(x) for x in nh[row]), (), leader, soloist, int(nb[row]))
            assert (v <= last_v) if maximise else (v >= last_v)


@pytest.mark.parametrize("contract", ["solo", "chiamo", "scegliete"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_against_the_clock_what_a_climb_reached_is_a_legal_exchange_of_its_value(
    contract: str, jobs: int, solver: CoreSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the list's share of the time nothing: its first candidate only, then the climb with the rest
    monkeypatch.setattr(parallel, "CLIMB_AFTER", 0.0)
    monkeypatch.setattr(parallel, "EARLY_PARALLEL_MIN", 0)
    improved = 0
    for seed in range(4):
        rng = random.Random(seed)
        hands, monte = random_small_deal(rng, 7)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        exact = search_exchange(hands, monte, contract, soloist, leader, solver=solver, limits=SearchLimits(top=1))
        first = search_exchange(hands, monte, contract, soloist, leader, solver=solver,
                                limits=SearchLimits(top=3, time_limit=1e-9))
        early = search_exchange(hands, monte, contract, soloist, leader, solver=solver,
                                limits=SearchLimits(top=3, jobs=jobs, time_limit=1.0))
        for ex, v in early.alternatives:
            assert exchange_value(solver.value, hands, monte, contract, soloist, leader, ex) == v
        assert len({repr(ex) for ex, _ in early.alternatives}) == len(early.alternatives)  # each once
        if contract == "scegliete":
            assert early.bound <= exact.value <= early.value <= first.value
            improved += early.value < first.value
        else:
            assert early.value <= exact.value <= early.bound
            assert early.value >= first.value
            improved += early.value > first.value
    assert improved  # the first candidates are not the best on these deals: the climbs found better


@pytest.mark.parametrize("step", [1, 1000])
def test_a_climb_tested_one_at_a_time_or_all_at_once_only_climbs(step: int, solver: CoreSolver,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(climb_module, "STEP", step)
    test_a_climb_only_climbs_and_stops_where_nothing_near_is_better("chiamo", True, solver)


@pytest.mark.parametrize("contract", ["chiamo", "dividete", "scegliete"])
def test_a_climbs_estimate_is_the_early_estimate_of_the_candidates(contract: str) -> None:
    # a climb orders the exchanges it meets by the estimate that orders the list against the clock
    batch, _, _, soloist, _ = _batch(contract, 6)
    defenders = contract in ("dividete", "scegliete")
    assert all(position_estimate(batch.hands[i], soloist, defenders) == batch.early[i] for i in range(len(batch)))


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_the_early_estimate_is_the_fitted_one_in_halves(contract: str) -> None:
    # against the clock a list is ordered by its side's fit, in halves (the early order's radix sort): the
    # soloist's weights suit by suit, the defenders' network over the four suits (negated: lowest first)
    batch, _, _, soloist, _ = _batch(contract, 6)
    net = DEFENCE_NET
    assert len(batch) > 1
    for i in range(len(batch)):
        sigs = [suit_signature(batch.hands[i], u, soloist) for u in range(4)]
        if contract in ("dividete", "scegliete"):
            f = np.array([suit_features(sig) for sig in sigs], dtype=float)
            hidden = np.maximum(f @ net.w1 + net.b1, 0).sum(axis=0)
            value = float(np.maximum(hidden @ net.w2 + net.b2, 0) @ net.w3 + f.sum(axis=0) @ net.linear)
            assert abs(batch.early[i] + 8 * value) <= 0.25 + 1e-9  # -16 value / 2, rounded to halves
        else:
            assert batch.early[i] == sum(fitted_estimate(sig, SOLOIST_FIT) for sig in sigs)
        assert 2 * batch.early[i] == int(2 * batch.early[i])
    assert len(set(batch.early.tolist())) > 1


def test_a_chiamos_early_order_gives_its_target_calls_their_share() -> None:
    batch, _, _, soloist, _ = _batch("chiamo", 8)
    can = climb_moves(batch, soloist)
    assert can.table is not None and can.layout_of is not None
    early = order_candidates(batch, True, None, early=True)
    hedge = order_candidates(batch, True, None)
    order = early_candidates(batch, early, hedge)
    mixed = early_chiamo(batch, soloist, can, order, early, hedge)
    assert sorted(mixed.tolist()) == list(range(len(batch)))  # every candidate once
    target = can.table.target[can.layout_of[mixed]]
    assert 0 < target.sum() < len(batch)
    n = min(int(target.sum()), int((~target).sum()))  # while both parts last, each its share of the places
    for m in (10, n // 2, n):
        assert abs(target[:m].mean() - TARGET_SHARE) <= 1 / m + 1e-9
    # every target call and spread of the soloist's discards its first look before any its third
    d = batch.discards[mixed[target], soloist]
    spread = [np.bitwise_count((d >> np.uint64(10 * u)) & np.uint64(0x3FF)) for u in range(4)]
    keys = list(zip(can.table.call[can.layout_of[mixed[target]]].tolist(), *(x.tolist() for x in spread)))
    groups, counts = len(set(keys)), dict[Any, int]()
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
        assert counts[key] < 3 or len(counts) == groups
    # the other candidates keep their order
    rest = mixed[~target]
    assert rest.tolist() == order[~can.table.target[can.layout_of[order]]].tolist()
