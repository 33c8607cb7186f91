"""How right the early answer is: the exchange found within a time limit against the exact best.

For each deal of the random and the strong suite (the strong suite's soloist is the
strongest hand, the random suite's a random seat) and each contract asked for, the
exchange search runs as a user runs it (``calasolve solve --time-limit S --jobs J``:
``best_exchange(record, top=10, jobs=J, time_limit=S)``) at each limit, and its value is
compared with the exact best (``top=1``, no limit).  Dividete is compared per draw (each of
the 6 draws is one answer).  Per suite, contract and limit it prints the share of answers

* **exact**: the value found is the best value;
* **within 1**: at most one third from it;
* **flip**: the early answer's make/fail differs from the best's (a soloist told "fails"
  where his best exchange makes; for the defenders, "makes" where their best beats it);
* **thirds off**: the answers' distance from the best in all, apart for the answers whose best
  makes and those whose best fails (where "fails" is right whatever the thirds).

The exact values are cached (``--cache``, JSON by suite, contract and deal), as they cost
minutes of CPU for a chiamo: generate them once, then measure limits as often as needed.
Those already computed are shipped (``--known``, ``benchmarks/data/early_exact.json``).
The answers within a limit depend on the CPU the search gets: run it alone
(``/work/bin/cpu time ...``) or say what the load was (printed).

    python3 benchmarks/report_early.py --deals 50 --contracts solo,scegliete,dividete
    python3 benchmarks/report_early.py --deals 10 --contracts chiamo --limits 1 --cache /tmp/early_exact.json
    python3 benchmarks/report_early.py --exact-only --deals 50      # only fill the cache
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.game.cards import MAKE_THIRDS  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402
from calasolve.types.exchange import ExchangeResult  # noqa: E402
from calasolve.types.record import Record  # noqa: E402

SUITES = {"random": random_suite, "strong": strong_suite}
#: The exact values computed so far (``--exact-only``), by suite, contract and deal.
KNOWN = Path(__file__).resolve().parent / "data" / "early_exact.json"


def values(res: ExchangeResult) -> list[int]:
    """The answers of a search: its value, or dividete's value of each draw."""
    return [d.value for d in res.draws] if res.draws else [res.value]


def exact_values(cache: dict[str, Any], path: Path | None, suite: str, contract: str, i: int, record: Record,
                 jobs: int, solver: Any) -> list[int]:
    key = f"{suite} {contract} {i}"
    if key not in cache:
        cache[key] = values(best_exchange(record, solver=solver, top=1, jobs=jobs))
        if path is not None:
            path.write_text(json.dumps(cache, indent=0, sort_keys=True))
    return list(cache[key])


def judge(early: list[int], exact: list[int]) -> tuple[int, ...]:
    """(answers, exact, within one third, make/fail flips, thirds short where the best makes, where it fails)."""
    pairs = list(zip(early, exact))
    return (len(pairs), sum(a == b for a, b in pairs), sum(abs(a - b) <= 1 for a, b in pairs),
            sum((a >= MAKE_THIRDS) != (b >= MAKE_THIRDS) for a, b in pairs),
            sum(abs(b - a) for a, b in pairs if b >= MAKE_THIRDS), sum(abs(b - a) for a, b in pairs if b < MAKE_THIRDS))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=50, help="first N deals of each suite (default 50)")
    ap.add_argument("--first", type=int, default=0, help="start at this deal of each suite")
    ap.add_argument("--suites", default="random,strong")
    ap.add_argument("--contracts", default="solo,chiamo,scegliete,dividete")
    ap.add_argument("--limits", default="0.5,1,2", help="time limits in seconds, comma-separated")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=10, help="alternatives kept by the early search (default 10, as solve)")
    ap.add_argument("--tt-mb", type=int, default=32)
    ap.add_argument("--cache", default="/tmp/calasolve-early-exact.json", help="the exact values, kept between runs")
    ap.add_argument("--known", default=str(KNOWN), help="exact values shipped with the benchmark, read first")
    ap.add_argument("--exact-only", action="store_true", help="fill the cache of exact values, measure nothing")
    ap.add_argument("--json", dest="json_path", help="write every answer to this file")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()
    path = Path(args.cache) if args.cache else None
    cache: dict[str, Any] = json.loads(Path(args.known).read_text())["values"] if args.known else {}
    if path is not None and path.exists():
        cache.update(json.loads(path.read_text()))
    limits = [float(x) for x in args.limits.split(",")]
    solver = make_solver(args.tt_mb)
    out: dict[str, Any] = {"jobs": args.jobs, "load_before": os.getloadavg(), "rows": []}
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for suite in args.suites.split(","):
        deals = SUITES[suite](args.first + args.deals)[args.first:]
        for contract in args.contracts.split(","):
            totals = {limit: [0] * 6 for limit in limits}
            for k, deal in enumerate(deals):
                i = args.first + k
                record = Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)
                exact = exact_values(cache, path, suite, contract, i, record, args.jobs, solver)
                if args.exact_only:
                    continue
                row: dict[str, Any] = {"suite": suite, "contract": contract, "deal": i, "exact": exact}
                for limit in limits:
                    solver.clear()  # each answer from a cold table, as a user's first search
                    early = values(best_exchange(record, solver=solver, top=args.top, jobs=args.jobs, time_limit=limit))
                    got = judge(early, exact)
                    totals[limit] = [a + b for a, b in zip(totals[limit], got)]
                    row[str(limit)] = early
                out["rows"].append(row)
                if not args.quiet:
                    print(f"  {suite} {contract} deal {i:3d}: exact {exact}  "
                          + "  ".join(f"{limit:g} s {row[str(limit)]}" for limit in limits), flush=True)
            if args.exact_only:
                continue
            for limit, (n, same, near, flips, short_makes, short_fails) in totals.items():
                print(f"{suite:7s} {contract:9s} {limit:4g} s: {n:4d} answers  exact {same / n:6.1%}  "
                      f"within 1 {near / n:6.1%}  flips {flips / n:6.1%} ({flips})  thirds off: "
                      f"{short_makes} where the best makes, {short_fails} where it fails", flush=True)
    out["load_after"] = os.getloadavg()
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1, allow_nan=False))


if __name__ == "__main__":
    main()
