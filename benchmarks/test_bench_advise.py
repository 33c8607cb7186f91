"""The bid advisor on its benchmark suite: every hand of :data:`calasolve.search.suites.ADVISE_HANDS`
(strong, borderline and weak, in every seat), seed 1, both cores: the double-dummy advice alone
(``--play dd``) and the default advice with its played odds.

    pytest benchmarks/test_bench_advise.py --benchmark-enable -s
    BENCH_ADVISE_HANDS=3 pytest benchmarks/test_bench_advise.py --benchmark-enable -s
    python3 benchmarks/report_advise.py          # --play dd: median, slowest, samples and CPU per contract
    python3 benchmarks/report_played.py          # the default: median, slowest, played and dd P(make)

The targets: median at most 10 s wall; slowest at most 30 s (double dummy alone), 60 s (the default).  The CPU time
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


@pytest.mark.parametrize("case", HANDS, ids=[f"{h.hand}@{h.seat}" for h in HANDS])
def test_advise_played_suite(benchmark, case) -> None:  # type: ignore[no-untyped-def]
    result = benchmark.pedantic(lambda: advise(case.hand, seat=case.seat, seed=1, jobs=JOBS), rounds=1, iterations=1)
    assert result.played is not None
    dd_cpu = sum(e.seconds for e in result.estimates)
    play_cpu = sum(e.seconds for e in result.played.estimates)
    print(f"\n{case.hand} seat {case.seat} ({case.kind}): wall {result.seconds:.2f} s, cpu {dd_cpu:.2f} + {play_cpu:.2f} s, "
          f"{result.dd_recommendation} -> {result.recommendation}")
    for e in result.played.estimates:
        dd = next(d for d in result.estimates if d.contract == e.contract)
        print(f"  {e.contract:<10} P(make) dd {dd.p_make:.3f} played {e.p_make:.3f} "
              f"({e.p_make_95[0]:.2f}-{e.p_make_95[1]:.2f})  points {e.mean_payoff:+.2f}")
        benchmark.extra_info[f"{e.contract}_dd_p_make"] = dd.p_make
        benchmark.extra_info[f"{e.contract}_played_p_make"] = e.p_make
    benchmark.extra_info["wall_s"] = result.seconds
    benchmark.extra_info["dd_cpu_s"] = dd_cpu
    benchmark.extra_info["play_cpu_s"] = play_cpu
    benchmark.extra_info["recommendation"] = result.recommendation
