"""pytest-benchmark timings of the double-dummy exchange search.

Run with ``python3 -m pytest benchmarks/test_bench_exchange.py --benchmark-enable -o addopts=""``.
Each benchmark finds the best exchange of a few deals of the strong suite
(the deal and the soloist reused, the contract set; no exchange given) with
one warm solver, one round each: the search of a whole deal takes seconds,
so repeating it would only measure the warm table.  The full per-contract
medians come from ``python3 benchmarks/report_exchange.py``.  ``test_bench_early_listing`` times what a
chiamo search against the clock does before its first test.

``CALASOLVE_BENCH_EXCHANGE_DEALS`` (default ``0,7,8``) picks the deals.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.game.exchange import Exchange  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.exchange.candidates import climb_moves, early_order, enumerate_candidates, soloist_layouts  # noqa: E402
from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402

DEALS = [int(i) for i in os.environ.get("CALASOLVE_BENCH_EXCHANGE_DEALS", "0,7,8").split(",")]


def _records(contract: str) -> list[Record]:
    suite = strong_suite(max(DEALS) + 1)
    return [Record(hands=suite[i].hands, monte=suite[i].monte, contract=contract, soloist=suite[i].soloist) for i in DEALS]


@pytest.mark.parametrize("contract", ["solo", "dividete", "scegliete", "chiamo"])
def test_bench_best_exchange(benchmark, contract: str) -> None:  # type: ignore[no-untyped-def]
    records = _records(contract)

    def run() -> list[int]:
        solver = make_solver(64)
        return [best_exchange(r, solver=solver, top=10).value for r in records]

    values = benchmark.pedantic(run, rounds=1, iterations=1)
    assert len(values) == len(records) and all(0 <= v <= 35 for v in values)


@pytest.mark.parametrize("suite", ["random", "strong"])
def test_bench_early_listing(benchmark, suite: str) -> None:  # type: ignore[no-untyped-def]
    """What a chiamo search against the clock does before its first test: its candidates listed (one per
    class, with their estimates), the climb's moves and the early order (deals 0-9 of the suite)."""
    deals = (random_suite if suite == "random" else strong_suite)(10)
    layouts = [(soloist_layouts(d.hands, d.monte, "chiamo", d.soloist, Exchange()), d.soloist) for d in deals]

    def run() -> list[int]:
        sizes = []
        for lays, soloist in layouts:
            batch = enumerate_candidates(lays, soloist)
            sizes.append(len(early_order(batch, soloist, True, None, climb_moves(batch, soloist))))
        return sizes

    sizes = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    assert all(n > 10_000 for n in sizes)
