"""pytest-benchmark runs of the C solver on the seeded suites.

    pytest benchmarks/ --benchmark-enable                  # all, 200 deals
    BENCH_DEALS=40 pytest benchmarks/ --benchmark-enable   # quicker
    pytest benchmarks/ --benchmark-enable -k strong

Each benchmark solves a whole suite once (one round: a suite is already
hundreds of solves); the per-deal median / slowest time and the node rate
go to ``extra_info`` (shown with ``--benchmark-verbose`` and saved with
``--benchmark-save``).  ``benchmarks/report.py`` prints the same figures
as a table.  Without ``--benchmark-enable`` (the project default) each test
still runs once, as a smoke test.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suites import endings_suite, random_suite, strong_suite  # noqa: E402

from calasolve.search._core import Solver  # noqa: E402

N = int(os.environ.get("BENCH_DEALS", "200"))
N_ABLATION = min(N, int(os.environ.get("BENCH_ABLATION_DEALS", "40")))


def _run_suite(benchmark, solver: Solver, deals, call):
    times: list[float] = []
    nodes: list[int] = []

    def run():
        times.clear()
        nodes.clear()
        out = []
        for d in deals:
            t0 = time.perf_counter()
            out.append(call(solver, d))
            times.append(time.perf_counter() - t0)
            nodes.append(solver.nodes)
        return out

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(
        deals=len(deals),
        median_ms=round(statistics.median(times) * 1e3, 3),
        max_ms=round(max(times) * 1e3, 3),
        nodes=sum(nodes),
        nodes_per_s=round(sum(nodes) / max(sum(times), 1e-9)),
    )
    return result


def _cards(solver, d):
    cv = solver.card_values(*d.args())
    return max(cv.values()) if d.leader == d.soloist else min(cv.values())


def _value(solver, d):
    return solver.value(*d.args())


def _bool18(solver, d):
    return solver.reaches(*d.args(), 18)


@pytest.fixture(scope="module")
def strong():
    return strong_suite(N)


def test_strong_exact_and_card_values(benchmark, strong):
    values = _run_suite(benchmark, Solver(), strong, _cards)
    assert all(0 <= v <= 35 for v in values)


def test_strong_boolean_18(benchmark, strong):
    res = _run_suite(benchmark, Solver(), strong, _bool18)
    assert set(res) <= {True, False}


def test_random_exact_and_card_values(benchmark):
    values = _run_suite(benchmark, Solver(), random_suite(N), _cards)
    assert all(0 <= v <= 35 for v in values)


@pytest.mark.parametrize(
    "flags",
    [{}, {"equivalence": False}, {"canonical_suits": False}, {"ordering": False}],
    ids=["all-on", "no-equivalence", "no-canonical", "no-ordering"],
)
def test_ablation_strong_value(benchmark, strong, flags):
    _run_suite(benchmark, Solver(**flags), strong[:N_ABLATION], _value)


@pytest.mark.parametrize("flags", [{}, {"tt": False}], ids=["all-on", "no-table"])
def test_ablation_table_on_endings(benchmark, flags):
    """Without its table the solver is hopeless on whole deals: 8-trick endings."""
    _run_suite(benchmark, Solver(**flags), endings_suite(N_ABLATION), _value)
