"""The analyser against a plain solve: analysing a whole deal (36 positions,
every legal card valued at each) on a warm table, as a multiple of one full
solve (value + every root card + line) of the same deal on a fresh solver.

    pytest benchmarks/test_bench_analyse.py --benchmark-enable -s

The issue's target: the analysis at most 20 times one solve.  Each deal is
played out along a line with some random (mostly bad) cards, so the
analyser meets real mistakes, not only the optimal line it would find in
its table.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suites import strong_suite  # noqa: E402

from calasolve.deals.analysis import analyse  # noqa: E402
from calasolve.game.cards import cards_of  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.game.state import core_position  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402
from calasolve.exchange.solve import solve  # noqa: E402

N = int(os.environ.get("BENCH_ANALYSE_DEALS", "20"))


def played_records(n: int) -> list[Record]:
    rng = random.Random(17)
    solver = make_solver(64)
    out = []
    for deal in strong_suite(n):
        record = Record(hands=deal.hands, monte=deal.monte, contract="solissimo", soloist=deal.soloist,
                        leader=deal.leader)
        state = record.start_state()
        while not state.is_over:
            values = solver.card_values(*core_position(state))
            best = (max if state.to_move == state.soloist else min)(values.values())
            good = [c for c, v in values.items() if v == best]
            card = rng.choice(list(cards_of(state.legal()))) if rng.random() < 0.15 else rng.choice(good)
            state.play(card)
        out.append(record.with_(played=tuple(state.history)))
    return out


def measure(records: list[Record]) -> dict[str, float]:
    ratios, solves, analyses = [], [], []
    for record in records:
        fresh = make_solver(64)
        t = time.perf_counter()
        solve(record.with_(played=()), solver=fresh)
        one = time.perf_counter() - t
        fresh = make_solver(64)
        t = time.perf_counter()
        analyse(record, solver=fresh)
        whole = time.perf_counter() - t
        solves.append(one)
        analyses.append(whole)
        ratios.append(whole / one)
    return {
        "deals": len(records),
        "solve_median_ms": statistics.median(solves) * 1e3,
        "analyse_median_ms": statistics.median(analyses) * 1e3,
        "ratio_median": statistics.median(ratios),
        "ratio_max": max(ratios),
        "ratio_of_totals": sum(analyses) / sum(solves),
    }


def test_analyse_vs_solve(benchmark) -> None:  # type: ignore[no-untyped-def]
    records = played_records(N)
    result = benchmark.pedantic(measure, args=(records,), rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    print("\n" + "  ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items()))
    assert result["deals"] == len(records)
