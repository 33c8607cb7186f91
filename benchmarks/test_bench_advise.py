"""The bid advisor on a typical strong hand: all five contracts at the default
number of samples, on every core, with the default policies.

    pytest benchmarks/test_bench_advise.py --benchmark-enable -s
    BENCH_ADVISE_SAMPLES=100 pytest benchmarks/test_bench_advise.py --benchmark-enable -s

The issue's target: at most 10 s for all five contracts on this 2-core
machine.  The time per contract (summed over workers) is printed.
"""

from __future__ import annotations

import os

from calasolve.advise import DEFAULT_SAMPLES, advise

SAMPLES = int(os.environ.get("BENCH_ADVISE_SAMPLES", str(DEFAULT_SAMPLES)))
HAND = os.environ.get("BENCH_ADVISE_HAND", "32AR.3A7.2AF.A5")


def test_advise_all_contracts(benchmark) -> None:  # type: ignore[no-untyped-def]
    result = benchmark.pedantic(lambda: advise(HAND, seat=0, samples=SAMPLES, seed=1), rounds=1, iterations=1)
    print(f"\nhand {HAND}, {SAMPLES} samples per contract, wall {result.seconds:.2f} s")
    for e in result.estimates:
        print(f"  {e.contract:<10} cpu {e.seconds:7.2f} s  P(make) {e.p_make:.3f}  points {e.mean_payoff:+.2f}")
        benchmark.extra_info[f"{e.contract}_cpu_s"] = e.seconds
    benchmark.extra_info["wall_s"] = result.seconds
    assert len(result.estimates) == 5
