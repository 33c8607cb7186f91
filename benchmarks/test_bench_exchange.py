"""pytest-benchmark timings of the double-dummy exchange search.

Run with ``python3 -m pytest benchmarks/test_bench_exchange.py --benchmark-enable -o addopts=""``.
Each benchmark finds the best exchange of a few deals of the strong suite
(the deal and the soloist reused, the contract set; no exchange given) with
one warm solver, one round each: the search of a whole deal takes seconds,
so repeating it would only measure the warm table.  The full per-contract
medians come from ``python3 benchmarks/report_exchange.py``.

``CALASOLVE_BENCH_EXCHANGE_DEALS`` (default ``0,7,8``) picks the deals.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import strong_suite  # noqa: E402

from calasolve.types.record import Record  # noqa: E402
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
