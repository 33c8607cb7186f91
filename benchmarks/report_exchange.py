"""Timings of the double-dummy exchange search on the strong suite.

Each deal of ``suites.strong_suite()`` (hands, monte, soloist) is given the
contract under test with no exchange, and :func:`calasolve.best_exchange`
finds the best one on one core (CPU time), with one warm solver per contract (as
``calasolve solve`` does in a worker).  Prints, per contract, the median, the
90th percentile and the slowest deal, against the targets of the exchange
issue (solo 1 s, chiamo 5 s, dividete with all 6 draws 5 s, scegliete 10 s).

    python3 benchmarks/report_exchange.py                   # 20 deals, every contract
    python3 benchmarks/report_exchange.py --deals 200 --contracts solo,dividete
    python3 benchmarks/report_exchange.py --json out.json   # per-deal numbers too
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import strong_suite  # noqa: E402

from calasolve.types.record import Record  # noqa: E402
from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.records import jsonout  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402
from calasolve.advice.stats import percentile  # noqa: E402

TARGETS = {"solo": 1.0, "chiamo": 5.0, "dividete": 5.0, "scegliete": 10.0}


def run(contract: str, deals: int, top: int, tt_mb: int, verbose: bool) -> list[dict[str, object]]:
    solver = make_solver(tt_mb)
    rows = []
    for i, deal in enumerate(strong_suite(deals)):
        record = Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)
        start = time.process_time()  # CPU time: the machine may be shared
        res = best_exchange(record, solver=solver, top=top)
        seconds = time.process_time() - start
        row = {
            "deal": i,
            "seconds": round(seconds, 4),
            "value": res.value,
            "mean": res.mean,
            "candidates": res.candidates,
            "searches": res.searches,
            "nodes": res.nodes,
            "best": res.text(),
        }
        rows.append(row)
        if verbose:
            print(f"  {contract} deal {i:3d}: {seconds:8.3f} s  value {res.value:2d}  "
                  f"candidates {res.candidates:6d}  nodes {res.nodes:11d}  {res.text()}", flush=True)
    return rows


def summary(contract: str, rows: list[dict[str, object]]) -> str:
    times = sorted(float(r["seconds"]) for r in rows)  # type: ignore[arg-type]
    p90 = percentile(times, 0.9)
    slow = max(rows, key=lambda r: float(r["seconds"]))  # type: ignore[arg-type]
    target = TARGETS[contract]
    median = statistics.median(times)
    verdict = "meets" if median <= target else "MISSES"
    return (f"{contract:9s} {len(rows):3d} deals: median {median:7.3f} s  p90 {p90:7.3f} s  "
            f"slowest {float(slow['seconds']):7.3f} s (deal {slow['deal']})  "  # type: ignore[arg-type]
            f"target median <= {target:g} s: {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20, help="first N deals of the strong suite (default 20)")
    ap.add_argument("--contracts", default="solo,chiamo,dividete,scegliete")
    ap.add_argument("--top", type=int, default=10, help="alternatives kept (solo, chiamo), as `calasolve solve --top`")
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--json", dest="json_path", help="write the per-deal rows to this file")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the summary lines")
    args = ap.parse_args()
    import calasolve.search._core as core

    built = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(Path(core.__file__).stat().st_mtime))
    print(f"exchange search, strong suite deals 0..{args.deals - 1}, top {args.top}, "
          f"{args.tt_mb} MiB table; C core built {built} UTC", flush=True)
    results = {}
    for contract in args.contracts.split(","):
        results[contract] = run(contract, args.deals, args.top, args.tt_mb, not args.quiet)
        print(summary(contract, results[contract]), flush=True)
    if args.json_path:
        Path(args.json_path).write_text(jsonout.dumps(results, indent=1), encoding="utf-8")
    print()
    for contract, rows in results.items():
        print(summary(contract, rows))


if __name__ == "__main__":
    main()
