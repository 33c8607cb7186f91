"""Timings of the PIMC card player (`calasolve play`): one decision at the first lead, and whole deals.

Each deal of the random suite (hands and monte, solissimo, its soloist) is
given to a PIMC player at the first lead: the time of one decision with
``--samples`` layouts in this process (target: median <= 0.3 s on one core),
and, with ``--deals-played N``, the first N deals played out by three PIMC
players whose decisions' layouts are shared by ``--jobs`` worker processes
(target: median <= 5 s on 2 cores).  Prints the median and slowest of both
the wall time and the CPU time (of every process), and the load average,
since the cores are shared: wall time is only meaningful on idle cores.

    python3 benchmarks/report_pimc.py                          # 20 decisions, 5 deals played
    python3 benchmarks/report_pimc.py --decisions 40 --deals-played 0
    python3 benchmarks/report_pimc.py --json out.json          # per-deal numbers too
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite  # noqa: E402

from calasolve.play.players import PimcPlayer, play_out  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402

TARGET_DECISION, TARGET_DEAL = 0.3, 5.0


def suite_records(n: int) -> list[Record]:
    return [Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist) for d in random_suite(n)]


def timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def decisions(n: int, samples: int, verbose: bool) -> list[dict[str, Any]]:
    rows = []
    for i, record in enumerate(suite_records(n)):
        player = PimcPlayer(samples=samples, seed=i, solver=make_solver())
        state = record.state()
        card, wall, cpu = timed(lambda: player.choose(record, state))
        rows.append({"deal": i, "wall": round(wall, 4), "cpu": round(cpu, 4)})
        if verbose:
            print(f"  decision {i:3d}: {wall:6.3f} s wall  {cpu:6.3f} s cpu", flush=True)
    return rows


def children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def deals(n: int, samples: int, jobs: int, verbose: bool) -> list[dict[str, Any]]:
    """Each deal played out by three PIMC players; with ``jobs`` > 1 the workers share each decision's layouts
    (a pool per deal, so that its workers' CPU time is counted when it ends)."""
    rows = []
    for i, record in enumerate(suite_records(n)):
        before = children_cpu()
        with contextlib.ExitStack() as stack:
            pool = stack.enter_context(worker_pool(jobs)) if jobs > 1 else None
            solver = make_solver()
            players = [PimcPlayer(samples=samples, seed=i, solver=solver, pool=pool, workers=jobs) for _ in range(3)]
            wall, cpu = time.perf_counter(), time.process_time()
            play_out(record, players)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        cpu += children_cpu() - before
        rows.append({"deal": i, "wall": round(wall, 3), "cpu": round(cpu, 3)})
        if verbose:
            print(f"  deal {i:3d}: {wall:6.2f} s wall  {cpu:6.2f} s cpu (all processes)", flush=True)
    return rows


def summary(what: str, rows: list[dict[str, Any]], target: float) -> str:
    wall = [r["wall"] for r in rows]
    cpu = [r["cpu"] for r in rows]
    ok = "meets" if statistics.median(wall) <= target else "MISSES"
    return (f"{what:9s} {len(rows):3d}: wall median {statistics.median(wall):6.3f} s slowest {max(wall):6.3f} s | "
            f"cpu median {statistics.median(cpu):6.3f} s slowest {max(cpu):6.3f} s  (target median {target:g} s: {ok})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, default=20, help="first-lead decisions, one per deal (default 20)")
    ap.add_argument("--deals-played", type=int, default=5, help="deals played out by three PIMC players (default 5)")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes sharing the layouts of the deals played")
    ap.add_argument("--json", dest="json_path", help="write the per-deal rows to this file")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the summary lines")
    args = ap.parse_args()
    out: dict[str, Any] = {"samples": args.samples, "jobs": args.jobs, "load_before": os.getloadavg()}
    lines = []
    if args.decisions:
        out["decisions"] = decisions(args.decisions, args.samples, not args.quiet)
        lines.append(summary("decisions", out["decisions"], TARGET_DECISION))
    if args.deals_played:
        out["deals"] = deals(args.deals_played, args.samples, args.jobs, not args.quiet)
        lines.append(summary("deals", out["deals"], TARGET_DEAL))
    out["load_after"] = os.getloadavg()
    print("\n".join(lines))
    print(f"load average before {out['load_before'][0]:.2f}, after {out['load_after'][0]:.2f} (2 cores, shared)")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
