"""Timings of the double-dummy table (`calasolve table`): wall time per deal with `--jobs`.

Each deal of the random and the strong suite (hands and monte) gets its whole
table, 15 entries and the par, shared out among ``--jobs`` worker processes as
``calasolve table`` does (the entries dearest first, each dividete entry as its
6 draws).  Prints, per suite, the median and slowest wall time
per deal against the targets (median <= 10 s, slowest <= 60 s with --jobs 2),
and the CPU time the workers spent.

    python3 benchmarks/report_table.py                       # 20 random + 20 strong deals, --jobs 2
    python3 benchmarks/report_table.py --deals 5 --suites strong --jobs 1
    python3 benchmarks/report_table.py --json out.json       # per-deal numbers too
    python3 benchmarks/report_table.py --time-limit 5 --deals 3 --suites random   # early table first

With ``--time-limit S`` each deal's early table comes first (``calasolve table --time-limit S``:
every exchange search cut S seconds after the table started), then the exact table: the
rows add the early table's wall time, its proven entries and how many early entries equal the
exact ones (thirds and game points).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.types.record import Record  # noqa: E402
from calasolve.types.table import DDTable  # noqa: E402
from calasolve.table.ddtable import assemble, table_part, table_parts  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402

TARGET_MEDIAN, TARGET_SLOWEST = 10.0, 60.0
SUITES = {"random": random_suite, "strong": strong_suite}


def children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def early_table(pool: Any, record: Record, time_limit: float) -> tuple[DDTable, float]:
    """The early table (every search cut ``time_limit`` s after the start) and its wall time."""
    start = time.perf_counter()
    deadline = time.time() + time_limit
    table = assemble(record, pool.map(partial(table_part, deadline=deadline), table_parts(record), chunksize=1))
    return table, time.perf_counter() - start


def run(suite: str, deals: int, jobs: int, verbose: bool, time_limit: float | None = None) -> list[dict[str, object]]:
    rows = []
    with worker_pool(jobs) as pool:
        for i, deal in enumerate(SUITES[suite](deals)):
            record = Record(hands=deal.hands, monte=deal.monte, contract="solissimo", soloist=deal.soloist)
            early = None if time_limit is None else early_table(pool, record, time_limit)
            start, cpu = time.perf_counter(), time.process_time()
            table = assemble(record, pool.map(table_part, table_parts(record), chunksize=1))
            seconds = time.perf_counter() - start
            slowest = max(table.entries, key=lambda e: e.seconds)
            row: dict[str, Any] = {
                "deal": i, "seconds": round(seconds, 3), "entry_seconds": round(sum(e.seconds for e in table.entries), 3),
                "slowest_entry": f"seat {slowest.soloist} {slowest.contract} {slowest.seconds:.2f} s",
                "par": table.par.to_dict(), "main_cpu": round(time.process_time() - cpu, 3)}
            if early is not None:
                cut, wall = early
                same = sum(a.thirds == b.thirds and a.game_points == b.game_points
                           for a, b in zip(cut.entries, table.entries))
                row.update(early_seconds=round(wall, 3), early_proven=sum(e.proven for e in cut.entries),
                           early_exact=same, early_par_right=cut.par == table.par)
            rows.append(row)
            if verbose:
                first = ("" if early is None else f"early table {row['early_seconds']:6.2f} s ({row['early_proven']}/15 "
                         f"proven, {row['early_exact']}/15 exact, par {'right' if row['early_par_right'] else 'wrong'}); ")
                print(f"  {suite} deal {i:3d}: {first}{seconds:7.2f} s wall, entries {row['entry_seconds']:7.2f} s, "
                      f"slowest entry {row['slowest_entry']}", flush=True)
    return rows


def summary(suite: str, rows: list[dict[str, object]], jobs: int) -> str:
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    median, slowest = statistics.median(times), max(times)
    ok = "meets" if median <= TARGET_MEDIAN and slowest <= TARGET_SLOWEST else "MISSES"
    return (f"{suite:7s} {len(rows):3d} deals, --jobs {jobs}: median {median:6.2f} s  slowest {slowest:6.2f} s  "
            f"(targets {TARGET_MEDIAN:g} s / {TARGET_SLOWEST:g} s: {ok})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20, help="first N deals of each suite (default 20)")
    ap.add_argument("--suites", default="random,strong")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", dest="json_path", help="write the per-deal rows to this file")
    ap.add_argument("--time-limit", type=float, default=None, help="first each deal's early table with this limit")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the summary lines")
    args = ap.parse_args()
    out: dict[str, object] = {"jobs": args.jobs, "load_before": os.getloadavg()}
    lines = []
    for suite in args.suites.split(","):
        cpu = children_cpu()
        rows = run(suite, args.deals, args.jobs, not args.quiet, args.time_limit)
        out[suite] = {"rows": rows, "worker_cpu": round(children_cpu() - cpu, 2)}
        lines.append(summary(suite, rows, args.jobs))
        print(lines[-1], flush=True)
    out["load_after"] = os.getloadavg()
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1, allow_nan=False))


if __name__ == "__main__":
    main()
