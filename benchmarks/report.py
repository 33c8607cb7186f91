"""Per-configuration timing report of the C solver on the seeded suites.

    python benchmarks/report.py                 # everything, 200 deals each
    python benchmarks/report.py -n 50           # first 50 deals of each suite
    python benchmarks/report.py --only strong-cards strong-18
    python benchmarks/report.py --list

For every configuration: deals, median / 90th percentile / slowest time per
deal, total nodes and nodes per second, plus the process's peak resident
memory at the end.  Times are CPU time of this (single-threaded) process,
so other load on the machine does not inflate them; ``--wall`` measures
wall-clock time instead.  Ablation rows carry their factor against the matching
"all on" row (time and nodes).  One solver per configuration is reused
across the deals of its suite, as an application would.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from typing import Callable, NamedTuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suites import Deal, endings_suite, random_suite, strong_suite  # noqa: E402

from calasolve.search._core import Solver  # noqa: E402
from calasolve.advice.stats import percentile  # noqa: E402


class Config(NamedTuple):
    name: str
    suite: str  # strong / random / endings
    task: str  # cards / value / bool18
    flags: dict
    baseline: str | None  # config this one is an ablation of
    limit: int | None  # at most this many deals (slow ablations)


CONFIGS = [
    Config("strong-cards", "strong", "cards", {}, None, None),
    Config("strong-18", "strong", "bool18", {}, None, None),
    Config("strong-value", "strong", "value", {}, None, None),
    Config("random-cards", "random", "cards", {}, None, None),
    Config("random-18", "random", "bool18", {}, None, None),
    Config("abl-base", "strong", "value", {}, None, 40),
    Config("abl-no-equivalence", "strong", "value", {"equivalence": False}, "abl-base", 40),
    Config("abl-no-canonical", "strong", "value", {"canonical_suits": False}, "abl-base", 40),
    Config("abl-no-ordering", "strong", "value", {"ordering": False}, "abl-base", 40),
    Config("abl-tiny-table", "strong", "value", {"tt_mb": 2}, "abl-base", 40),
    Config("end-base", "endings", "value", {}, None, 60),
    Config("end-no-tt", "endings", "value", {"tt": False}, "end-base", 60),
]


def _task(solver: Solver, task: str) -> Callable[[Deal], object]:
    if task == "cards":
        return lambda d: solver.card_values(*d.args())
    if task == "value":
        return lambda d: solver.value(*d.args())
    if task == "bool18":
        return lambda d: solver.reaches(*d.args(), 18)
    raise ValueError(task)


def _suite(name: str, n: int) -> list[Deal]:
    return {"strong": strong_suite, "random": random_suite, "endings": endings_suite}[name](n)


class Row(NamedTuple):
    config: Config
    times: list[float]
    nodes: list[int]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times) * 1e3

    @property
    def p90_ms(self) -> float:
        return percentile(self.times, 0.9) * 1e3

    @property
    def max_ms(self) -> float:
        return max(self.times) * 1e3

    @property
    def nodes_per_s(self) -> float:
        return sum(self.nodes) / max(sum(self.times), 1e-9)


def run(config: Config, n: int, tt_mb: int = 32, clock: Callable[[], float] = time.process_time) -> Row:
    flags = dict(config.flags)
    mb = flags.pop("tt_mb", tt_mb)
    solver = Solver(mb, **flags)
    deals = _suite(config.suite, min(n, config.limit or n))
    do = _task(solver, config.task)
    times, nodes = [], []
    for d in deals:
        t0 = clock()
        do(d)
        times.append(clock() - t0)
        nodes.append(solver.nodes)
    del solver
    gc.collect()
    return Row(config, times, nodes)


def peak_rss_mib() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024 if sys.platform != "darwin" else kb / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=200, help="deals per suite (default 200)")
    ap.add_argument("--only", nargs="*", help="configuration names to run")
    ap.add_argument("--list", action="store_true", help="list the configurations")
    ap.add_argument("--tt-mb", type=int, default=32, help="table size of the solvers (default 32, the Solver default)")
    ap.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    ap.add_argument("--slowest", type=int, default=0, metavar="K", help="also list the K slowest deals of each configuration")
    args = ap.parse_args(argv)
    if args.list:
        for c in CONFIGS:
            print(f"{c.name:22} {c.suite:8} {c.task:7} {c.flags}")
        return 0
    configs = [c for c in CONFIGS if not args.only or c.name in args.only]
    rows: dict[str, Row] = {}
    print(f"{'config':22} {'deals':>5} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} {'Mnodes':>8} {'Mnodes/s':>9}  factor")
    for c in configs:
        row = run(c, args.n, args.tt_mb, time.perf_counter if args.wall else time.process_time)
        rows[c.name] = row
        factor = ""
        base = rows.get(c.baseline) if c.baseline else None
        if base is not None:
            ft = sum(row.times) / max(sum(base.times), 1e-9)
            fn = sum(row.nodes) / max(sum(base.nodes), 1)
            factor = f"x{ft:.2f} time, x{fn:.2f} nodes"
        print(
            f"{c.name:22} {len(row.times):5d} {row.median_ms:10.2f} {row.p90_ms:9.2f} {row.max_ms:9.1f} "
            f"{sum(row.nodes) / 1e6:8.1f} {row.nodes_per_s / 1e6:9.2f}  {factor}",
            flush=True,
        )
        if args.slowest:
            worst = sorted(range(len(row.times)), key=lambda i: -row.times[i])[: args.slowest]
            print("    slowest deals: " + ", ".join(f"#{i} {row.times[i] * 1e3:.0f} ms" for i in worst))
    print(f"peak resident memory: {peak_rss_mib():.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
