"""Throughput of ``calasolve solve`` on generated deals: ``--jobs N`` against ``--scheduler local:N``.

    python3 benchmarks/throughput_dask.py [--deals 2000] [--workers 2] [--seed 1] [--out DIR]

The deals are ``calasolve deal --count DEALS --seed SEED --soloist strongest``
(solissimo, the strongest hand the soloist, as the README's pandas example).
Each run is a whole command, as a user times it (``--flat`` output to a
file): the Dask run includes starting and stopping its local cluster.  The
two outputs must agree record for record except times and node counts.
Prints deals per second for both, the Dask overhead, the chunk size and the
make rate, and one JSON summary line.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calasolve.scale import chunk_size

VARYING = ("nodes", "seconds")


def timed(argv: list[str], out: Path) -> float:
    start = time.perf_counter()
    with out.open("w") as stream:
        subprocess.run([sys.executable, "-m", "calasolve", *argv], stdout=stream, check=True)
    return time.perf_counter() - start


def rows(path: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in json.loads(line).items() if k not in VARYING} for line in path.open()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="Keep the deal file and outputs here.")
    args = parser.parse_args()
    where = args.out or Path(tempfile.mkdtemp(prefix="calasolve-throughput-"))
    where.mkdir(parents=True, exist_ok=True)
    deals = where / "deals.deal"
    subprocess.run([sys.executable, "-m", "calasolve", "deal", "--count", str(args.deals), "--seed", str(args.seed),
                    "--soloist", "strongest", "-o", str(deals)], check=True)
    local_s = timed(["solve", "--flat", "--jobs", str(args.workers), str(deals)], where / "jobs.jsonl")
    dask_s = timed(["solve", "--flat", "--scheduler", f"local:{args.workers}", str(deals)], where / "dask.jsonl")
    local, dask = rows(where / "jobs.jsonl"), rows(where / "dask.jsonl")
    if local != dask or len(local) != args.deals:
        sys.exit("the two runs disagree")
    makes = sum(bool(r["makes"]) for r in local) / len(local)
    summary = {
        "deals": args.deals, "workers": args.workers, "chunk": chunk_size(args.deals, args.workers),
        "jobs_s": round(local_s, 1), "dask_s": round(dask_s, 1),
        "jobs_deals_per_s": round(args.deals / local_s, 2), "dask_deals_per_s": round(args.deals / dask_s, 2),
        "dask_overhead": round(dask_s / local_s - 1, 4), "make_rate": round(makes, 4),
    }
    print(f"{args.deals} deals, {args.workers} workers, chunks of {summary['chunk']}")
    print(f"  --jobs {args.workers}:            {local_s:7.1f} s  {summary['jobs_deals_per_s']:6.2f} deals/s")
    print(f"  --scheduler local:{args.workers}: {dask_s:7.1f} s  {summary['dask_deals_per_s']:6.2f} deals/s"
          f"  (overhead {100 * summary['dask_overhead']:+.1f}%)")
    print(f"  the strongest hand's solissimo makes double dummy in {100 * makes:.1f}% of the deals")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
