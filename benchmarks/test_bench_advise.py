"""The bid advisor on its benchmark suite: every hand of :data:`calasolve.search.suites.ADVISE_HANDS`
(strong, borderline and weak, in every seat), seed 1, all the defaults, both cores.

    pytest benchmarks/test_bench_advise.py --benchmark-enable -s
    BENCH_ADVISE_HANDS=3 pytest benchmarks/test_bench_advise.py --benchmark-enable -s
    python3 benchmarks/report_advise.py          # median, slowest, samples and CPU per contract

The targets: median at most 10 s wall, slowest at most 30 s.  The CPU time
and the samples per contract are kept too (``extra_info``), so runs on a busy
machine still compare.
"""

from __future__ import annotations

import os

import pytest

from calasolve.advice.advisor import advise
from calasolve.search.suites import ADVISE_HANDS

HANDS = ADVISE_HANDS[: int(os.environ.get("BENCH_ADVISE_HANDS", len(ADVISE_HANDS)))]
JOBS = int(os.environ.get("BENCH_ADVISE_JOBS", "2"))


@pytest.mark.parametrize("case", HANDS, ids=[f"{h.hand}@{h.seat}" for h in HANDS])
def test_advise_suite(benchmark, case) -> None:  # type: ignore[no-untyped-def]
    result = benchmark.pedantic(lambda: advise(case.hand, play="dd", seat=case.seat, seed=1, jobs=JOBS), rounds=1, iterations=1)
    cpu = sum(e.seconds for e in result.estimates)
    print(f"\n{case.hand} seat {case.seat} ({case.kind}): wall {result.seconds:.2f} s, cpu {cpu:.2f} s, "
          f"{result.recommendation}" + (f" (toss-up with {', '.join(result.toss_up)})" if result.toss_up else ""))
    for e in result.estimates:
        print(f"  {e.contract:<10} {e.samples:>4} samples ({e.stopped})  cpu {e.seconds:6.2f} s  "
              f"P(make) {e.p_make:.3f}  points {e.mean_payoff:+.2f}")
        benchmark.extra_info[f"{e.contract}_cpu_s"] = e.seconds
        benchmark.extra_info[f"{e.contract}_samples"] = e.samples
    benchmark.extra_info["wall_s"] = result.seconds
    benchmark.extra_info["cpu_s"] = cpu
    benchmark.extra_info["recommendation"] = result.recommendation
    assert len(result.estimates) == 5
