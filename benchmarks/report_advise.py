"""The advisor suite's figures: wall time median and slowest, samples and CPU per contract.

    python3 benchmarks/report_advise.py [--jobs 2] [--hands N]

Runs every hand of :data:`calasolve.search.suites.ADVISE_HANDS` (seed 1, all the
defaults) and prints one line per hand, then the summary.
"""

from __future__ import annotations

import argparse
import statistics
import time

from calasolve.advice.advisor import advise
from calasolve.game.state import CONTRACTS
from calasolve.search.suites import ADVISE_HANDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hands", type=int, default=len(ADVISE_HANDS))
    args = parser.parse_args()
    walls: list[float] = []
    samples = {c: [] for c in CONTRACTS}  # type: dict[str, list[int]]
    cpu = {c: [] for c in CONTRACTS}  # type: dict[str, list[float]]
    for h in ADVISE_HANDS[: args.hands]:
        start = time.perf_counter()
        a = advise(h.hand, play="dd", seat=h.seat, seed=1, jobs=args.jobs)
        walls.append(time.perf_counter() - start)
        for e in a.estimates:
            samples[e.contract].append(e.samples)
            cpu[e.contract].append(e.seconds)
        row = "  ".join(f"{e.contract} {e.samples}/{e.seconds:.1f}s" for e in a.estimates)
        print(f"{h.hand:<16} {h.seat} {h.kind:<10} wall {walls[-1]:6.1f} s  {a.recommendation:<9} "
              f"{'toss-up ' + ','.join(a.toss_up) if a.toss_up else '':<28} {row}", flush=True)
    print(f"\nwall: median {statistics.median(walls):.1f} s, slowest {max(walls):.1f} s, total {sum(walls):.0f} s")
    for c in CONTRACTS:
        print(f"  {c:<10} samples median {statistics.median(samples[c]):.0f} (max {max(samples[c])}), "
              f"cpu median {statistics.median(cpu[c]):.2f} s (max {max(cpu[c]):.1f} s)")


if __name__ == "__main__":
    main()
