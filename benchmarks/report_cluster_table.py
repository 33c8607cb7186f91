"""The exact table on a cluster (issue #35 part 4): what N workers would take, from the task logs of real runs.

Each deal of the random (and strong) suite gets its exact table twice on a local worker pool: as
today's parts (``calasolve table``: 15 entries, each dividete entry as its 6 draws) and cut into
small tasks (``calasolve table --scheduler``: each exchange search as a first pass and chunks, then
its game points; :mod:`calasolve.table.cut`).  The two tables must be equal (but for the effort).
From each run's task log (each task's CPU seconds, the tasks it needs) it prints the total CPU, the
longest task, and the wall time list scheduling gives on 8, 32 and 128 workers
(:func:`calasolve.table.cut.simulated_wall`: each task after those it needs, as the cut table runs
through a pool or a cluster; ``staged``: each stage after the whole of the one before, as it runs
through a plain ``map``), and the run's own wall time on the local pool (``elapsed``; ``--staged``:
the tasks through the pool's plain ``map``, in waves).  Targets
(the issue's, random suite): the longest task <= 5 s, the 32-worker wall <= 10 s.

    python3 benchmarks/report_cluster_table.py                          # 5 random deals
    python3 benchmarks/report_cluster_table.py --deals 3 --suites random,strong --json out.json
    python3 benchmarks/report_cluster_table.py --no-before              # the cut tables only

Times are the tasks' CPU seconds (load-independent), so the simulated walls hold whatever else the
machine ran; what a cluster adds (moving the candidates, the scheduler's own latency, a few ms a task)
is not in them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.scale.submit import PoolMap  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402
from calasolve.table.batch import dd_tables  # noqa: E402
from calasolve.table.cut import simulated_wall  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.types.table import DDTable, TableTask  # noqa: E402

SUITES = {"random": random_suite, "strong": strong_suite}
WORKERS = (8, 32, 128)
TARGET_LONGEST, TARGET_WALL_32 = 5.0, 10.0


def timeless(table: DDTable) -> dict[str, Any]:
    """The table's JSON without the effort (nodes, seconds, CPU), which the cut changes."""
    out = table.to_dict()
    return {**out, "nodes": 0, "seconds": 0, "cpu": 0,
            "entries": [{**e, "nodes": 0, "seconds": 0, "cpu": 0} for e in out["entries"]]}


def describe(tasks: Sequence[TableTask]) -> dict[str, Any]:
    """A task log's numbers: total CPU, the longest task, the simulated walls."""
    longest = max(tasks, key=lambda t: t.cpu)
    by_kind: dict[str, float] = {}
    for t in tasks:
        by_kind[t.kind] = by_kind.get(t.kind, 0.0) + t.cpu
    searches = [t for t in tasks if t.kind != "payoff"]
    return {
        "tasks": len(tasks),
        "cpu": round(sum(t.cpu for t in tasks), 3),
        "cpu_by_kind": {k: round(v, 3) for k, v in by_kind.items()},
        "longest": round(longest.cpu, 3),
        "longest_task": f"{longest.kind} seat {longest.soloist} {longest.contract}"
                        + ("" if longest.draw is None else f" draw {longest.draw}"),
        "longest_search_task": round(max(t.cpu for t in searches), 3),
        "wall": {w: round(simulated_wall(tasks, w), 3) for w in WORKERS},
        "wall_staged": {w: round(simulated_wall(tasks, w, stages=True), 3) for w in WORKERS},
    }


def run_deal(pool: Any, record: Record, before: bool, staged: bool = False) -> dict[str, Any]:
    mapper = lambda fn, items: pool.map(fn, items, chunksize=1)  # noqa: E731
    row: dict[str, Any] = {}
    start = time.perf_counter()
    # the pool as a submitter: each search moves on once its own tasks are done (a plain map: in waves)
    [cut] = dd_tables([record], map=mapper if staged else PoolMap(pool), cut=True)
    row["after"] = {**describe(cut.tasks), "elapsed": round(time.perf_counter() - start, 3)}
    row["log"] = [t.to_dict(min(t.span[0] for t in cut.tasks)) for t in cut.tasks]
    row["table"] = timeless(cut)
    if before:
        start = time.perf_counter()
        [whole] = dd_tables([record], map=mapper)
        row["before"] = {**describe(whole.tasks), "elapsed": round(time.perf_counter() - start, 3)}
        row["same_table"] = timeless(whole) == timeless(cut)
    return row


def line(label: str, d: dict[str, Any]) -> str:
    walls = " ".join(f"{w}:{d['wall'][w]:6.1f}" for w in WORKERS)
    staged = " ".join(f"{w}:{d['wall_staged'][w]:6.1f}" for w in WORKERS)
    return (f"{label:6s} {d['tasks']:4d} tasks  CPU {d['cpu']:7.1f} s  longest {d['longest']:6.2f} s "
            f"({d['longest_task']}; searches {d['longest_search_task']:.2f} s)  wall {walls}  staged {staged}  "
            f"elapsed {d['elapsed']:.1f} s")


def summary(suite: str, rows: list[dict[str, Any]], which: str) -> str:
    got = [r[which] for r in rows if which in r]
    if not got:
        return ""
    med = lambda xs: statistics.median(xs)  # noqa: E731
    walls = " ".join(f"{w}: median {med([g['wall'][w] for g in got]):.1f} max {max(g['wall'][w] for g in got):.1f}"
                     for w in WORKERS)
    longest = max(g["longest"] for g in got)
    ok = ("meets" if longest <= TARGET_LONGEST and max(g["wall"][32] for g in got) <= TARGET_WALL_32 else "MISSES")
    return (f"{suite} {which}: {len(got)} deals, CPU median {med([g['cpu'] for g in got]):.1f} s, longest task "
            f"{longest:.2f} s; walls {walls} (targets {TARGET_LONGEST:g} s / 32 workers {TARGET_WALL_32:g} s: {ok})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5, help="first N deals of each suite (default 5)")
    ap.add_argument("--first", type=int, default=0, help="start at this deal (default 0)")
    ap.add_argument("--suites", default="random")
    ap.add_argument("--jobs", type=int, default=2, help="local worker processes that run the tasks (default 2)")
    ap.add_argument("--no-before", dest="before", action="store_false", help="skip today's parts (the uncut table)")
    ap.add_argument("--staged", action="store_true", help="run the cut's tasks through the pool's plain map (waves)")
    ap.add_argument("--json", dest="json_path", help="write the per-deal numbers and task logs to this file")
    args = ap.parse_args()
    out: dict[str, Any] = {"jobs": args.jobs, "load_before": os.getloadavg()}
    with worker_pool(args.jobs) as pool:
        for suite in args.suites.split(","):
            rows = []
            for i in range(args.first, args.first + args.deals):
                d = SUITES[suite](i + 1)[i]
                record = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist)
                row = {"deal": i, **run_deal(pool, record, args.before, args.staged)}
                rows.append(row)
                for which in ("before", "after"):
                    if which in row:
                        print(line(f"{suite[:1]}{i} {which[:3]}", row[which]), flush=True)
                if "same_table" in row:
                    print(f"       same table: {row['same_table']}", flush=True)
                if args.json_path:
                    out[suite] = rows
                    Path(args.json_path).write_text(json.dumps(out, indent=1, allow_nan=False))
            for which in ("before", "after"):
                text = summary(suite, rows, which)
                if text:
                    print(text, flush=True)
            out[suite] = rows
    out["load_after"] = os.getloadavg()
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1, allow_nan=False))


if __name__ == "__main__":
    main()
