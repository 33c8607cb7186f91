"""pytest-benchmark timings of the double-dummy table (`calasolve table`).

Run with ``python3 -m pytest benchmarks/test_bench_table.py --benchmark-enable -o addopts=""``.
Each benchmark computes the whole table (15 entries and the par) of one deal of
a suite with two worker processes, one round: a table takes seconds, so
repeating it would only measure warm tables.  The per-suite median and slowest
deal come from ``python3 benchmarks/report_table.py``.

``CALASOLVE_BENCH_TABLE_DEALS`` (default ``0,1``) picks the deals.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.types.record import Record  # noqa: E402
from calasolve.table.ddtable import assemble, table_part, table_parts  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402

DEALS = [int(i) for i in os.environ.get("CALASOLVE_BENCH_TABLE_DEALS", "0,1").split(",")]
SUITES = {"random": random_suite, "strong": strong_suite}


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("suite", sorted(SUITES))
def test_bench_table(benchmark, suite: str, deal: int) -> None:  # type: ignore[no-untyped-def]
    d = SUITES[suite](deal + 1)[deal]
    record = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist)

    def run() -> object:
        with worker_pool(2) as pool:
            return assemble(record, pool.map(table_part, table_parts(record), chunksize=1))

    table = benchmark.pedantic(run, rounds=1, iterations=1)
    assert len(table.entries) == 15  # type: ignore[attr-defined]
