"""The exchange search on the strong and the random suite, one or several cores.

Each deal of the suite (hands, monte, soloist; the strong suite's soloist is
the strongest hand, the random suite's a random seat) is given the contract
under test with no exchange, and :func:`calasolve.best_exchange` finds the best
one with ``--jobs`` processes (one warm solver in this process, as ``calasolve
solve`` has).  Per search it records the wall time, the CPU time of this
process and of the workers, and the *idle estimate*: the CPU of the prefix
searched here plus the workers' chunks scheduled on ``--jobs - 1`` idle cores
in the order they were submitted, or this process's CPU if longer (it searches
chunks too), which is what the wall time would be on an idle machine (the machine this is run on is often shared: the wall time is
then the load's, not the search's).  Prints median, 90th percentile and
slowest per contract of each measure.

    python3 benchmarks/report_exchange_suites.py --suite random --deals 20 --jobs 2
    python3 benchmarks/report_exchange_suites.py --suite strong --contracts chiamo --top 1 --json out.json
"""

from __future__ import annotations

import argparse
import heapq
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.advice.stats import percentile  # noqa: E402
from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.types.exchange import SearchStats  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402


def _cpu() -> tuple[float, float]:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def idle_estimate(here: float, prefix: float, chunks: list[float], jobs: int) -> float:
    """This process's CPU (the prefix, then its chunks), or the prefix and then the workers'
    chunks in order, each on the first free one of the ``jobs - 1`` workers, if longer."""
    free = [0.0] * max(1, jobs - 1)
    for c in chunks:
        heapq.heappush(free, heapq.heappop(free) + c)
    return max(here, prefix + max(free))


def run(suite: str, contract: str, deals: int, top: int, jobs: int, tt_mb: int, verbose: bool) -> list[dict[str, object]]:
    solver = make_solver(tt_mb)
    rows = []
    for i, deal in enumerate((strong_suite if suite == "strong" else random_suite)(deals)):
        record = Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)
        (me0, kids0), wall0 = _cpu(), time.perf_counter()
        res = best_exchange(record, solver=solver, top=top, jobs=jobs)
        wall = time.perf_counter() - wall0
        me1, kids1 = _cpu()
        t = res.stats or SearchStats()
        cpu = me1 - me0 + kids1 - kids0
        row = {
            "deal": i, "wall": round(wall, 4), "cpu": round(cpu, 4), "cpu_here": round(me1 - me0, 4),
            "idle": round(idle_estimate(me1 - me0, t.cpu_prefix, t.cpu_chunks, jobs) if jobs > 1 else me1 - me0, 4),
            "value": res.value, "mean": res.mean, "candidates": res.candidates, "searches": res.searches,
            "nodes": res.nodes, "best": res.text(),
        }
        rows.append(row)
        if verbose:
            print(f"  {contract} deal {i:3d}: idle {row['idle']:8.3f} s  cpu {cpu:8.3f} s  wall {wall:8.3f} s  "
                  f"value {res.value:2d}  nodes {res.nodes:11d}  {res.text()}", flush=True)
    return rows


def summary(contract: str, rows: list[dict[str, object]]) -> str:
    out = [f"{contract:9s} {len(rows):3d} deals:"]
    for measure in ("idle", "cpu", "wall"):
        times = sorted(float(r[measure]) for r in rows)  # type: ignore[arg-type]
        out.append(f"{measure} median {statistics.median(times):6.2f} p90 {percentile(times, 0.9):6.2f} "
                   f"max {times[-1]:6.2f}")
    return "  ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", choices=["strong", "random"], default="random")
    ap.add_argument("--deals", type=int, default=20, help="first N deals of the suite (default 20)")
    ap.add_argument("--contracts", default="solo,chiamo,dividete,scegliete")
    ap.add_argument("--top", type=int, default=10, help="alternatives kept (solo, chiamo), as `calasolve solve --top`")
    ap.add_argument("--jobs", type=int, default=2, help="processes for one search (default 2)")
    ap.add_argument("--tt-mb", type=int, default=32)
    ap.add_argument("--json", dest="json_path", help="write the per-deal rows to this file")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the summary lines")
    args = ap.parse_args()
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    print(f"exchange search, {args.suite} suite deals 0..{args.deals - 1}, top {args.top}, jobs {args.jobs}, "
          f"{args.tt_mb} MiB table; load average at start {' '.join(load)}", flush=True)
    results = {}
    for contract in args.contracts.split(","):
        results[contract] = run(args.suite, contract, args.deals, args.top, args.jobs, args.tt_mb, not args.quiet)
        print(summary(contract, results[contract]), flush=True)
        if args.json_path:
            Path(args.json_path).write_text(json.dumps(results, indent=1), encoding="utf-8")
    print()
    for contract, rows in results.items():
        print(summary(contract, rows))


if __name__ == "__main__":
    main()
