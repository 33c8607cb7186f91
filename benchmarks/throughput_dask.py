"""Throughput of ``calasolve solve`` on generated deals: ``--jobs N`` against ``--scheduler local:N``.

    python3 benchmarks/throughput_dask.py [--deals 10000] [--rounds 5] [--workers 2] [--seed 1] [--out DIR] [--dask-first]

The deals are ``calasolve deal --count DEALS --seed SEED --soloist strongest``
(solissimo, the strongest hand the soloist, as the README's pandas example).
Each run is a whole command, as a user times it (``--flat`` output to a
file): the Dask run includes starting and stopping its local cluster.

The machine may be shared, so the deals are cut into ``--rounds``
consecutive slices (record *i* of the run is the same whatever the slice:
:func:`calasolve.deals.dealer.generate_deals` with ``start``) and each slice is
solved both ways back to back, the order alternating from round to round
(``--dask-first`` starts with Dask): a load that comes and goes then falls on
both sides alike.  Each round prints its times, the CPU time of each
command (all its processes: the work done whatever the load) and the
1-minute load average before and after; the totals over the rounds are the
throughput on all the deals (the Dask side paying one cluster start per
round).  The two outputs must agree record for record except times and node
counts.  Ends with one JSON summary line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calasolve.deals.dealer import DealSpec, generate_deals
from calasolve.types.record import format_record
from calasolve.records import jsonout
from calasolve.scale.cluster import chunk_size

VARYING = ("nodes", "seconds")


def cpu() -> float:
    """CPU seconds of the finished child processes (theirs and their own children's)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def timed(argv: list[str], out: Path) -> dict[str, float]:
    """The command's wall time ``s``, its CPU time ``cpu_s``, the 1-minute load average before and after."""
    before, cpu_before = os.getloadavg()[0], cpu()
    start = time.perf_counter()
    with out.open("w") as stream:
        subprocess.run([sys.executable, "-m", "calasolve", *argv], stdout=stream, check=True)
    return {"s": time.perf_counter() - start, "cpu_s": cpu() - cpu_before,
            "load_before": before, "load_after": os.getloadavg()[0]}


def rows(path: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in json.loads(line).items() if k not in VARYING and k != "file"} for line in path.open()]


def write_slice(path: Path, seed: int, start: int, count: int) -> None:
    """Records ``start`` .. ``start + count - 1`` of ``calasolve deal --seed SEED --soloist strongest``."""
    with path.open("w") as out:
        spec = DealSpec(soloist="strongest")
        for i, record in enumerate(generate_deals(spec, count=count, seed=seed, start=start)):
            out.write(("\n" if i else "") + format_record(record) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5, help="Slices solved both ways in turn (1: one run each).")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="Keep the deal files and outputs here.")
    parser.add_argument("--dask-first", action="store_true", help="Run --scheduler before --jobs in the first round.")
    args = parser.parse_args()
    where = args.out or Path(tempfile.mkdtemp(prefix="calasolve-throughput-"))
    where.mkdir(parents=True, exist_ok=True)
    runs = {"jobs": ["--jobs", str(args.workers)], "dask": ["--scheduler", f"local:{args.workers}"]}
    edges = [args.deals * k // args.rounds for k in range(args.rounds + 1)]
    chunks = sorted({chunk_size(b - a, args.workers) for a, b in zip(edges, edges[1:])})
    print(f"{args.deals} deals in {args.rounds} rounds, {args.workers} workers, chunks of "
          f"{'/'.join(map(str, chunks))}", flush=True)
    total = {name: {"s": 0.0, "cpu_s": 0.0} for name in runs}
    rounds, makes = [], 0
    for k, (a, b) in enumerate(zip(edges, edges[1:])):
        deals = where / f"deals{k}.deal"
        write_slice(deals, args.seed, a, b - a)
        order = ["dask", "jobs"] if (k % 2 == 0) == args.dask_first else ["jobs", "dask"]
        got = {name: timed(["solve", "--flat", *runs[name], str(deals)], where / f"{name}{k}.jsonl") for name in order}
        local, dask = rows(where / f"jobs{k}.jsonl"), rows(where / f"dask{k}.jsonl")
        if local != dask or len(local) != b - a:
            sys.exit(f"round {k + 1}: the two runs disagree")
        makes += sum(bool(r["makes"]) for r in local)
        for name in runs:
            total[name]["s"] += got[name]["s"]
            total[name]["cpu_s"] += got[name]["cpu_s"]
        rounds.append({"deals": b - a, "first": order[0], **{f"{n}_{key}": round(v, 2) for n in runs for key, v in got[n].items()}})
        print(f"round {k + 1}: deals {a + 1}-{b}, {order[0]} first; "
              + "; ".join(f"{n} {got[n]['s']:.1f} s (CPU {got[n]['cpu_s']:.1f} s, load {got[n]['load_before']:.2f}"
                          f" -> {got[n]['load_after']:.2f})" for n in runs)
              + f"; overhead {100 * (got['dask']['s'] / got['jobs']['s'] - 1):+.1f}%", flush=True)
    jobs_s, dask_s = total["jobs"]["s"], total["dask"]["s"]
    summary = {
        "deals": args.deals, "rounds": args.rounds, "workers": args.workers, "chunks": chunks,
        "jobs_s": round(jobs_s, 1), "dask_s": round(dask_s, 1),
        "jobs_deals_per_s": round(args.deals / jobs_s, 2), "dask_deals_per_s": round(args.deals / dask_s, 2),
        "dask_overhead": round(dask_s / jobs_s - 1, 4),
        "jobs_cpu_s": round(total["jobs"]["cpu_s"], 1), "dask_cpu_s": round(total["dask"]["cpu_s"], 1),
        "dask_cpu_overhead": round(total["dask"]["cpu_s"] / total["jobs"]["cpu_s"] - 1, 4),
        "make_rate": round(makes / args.deals, 4), "per_round": rounds,
    }
    print(f"  --jobs {args.workers}:            {jobs_s:7.1f} s  {summary['jobs_deals_per_s']:6.2f} deals/s"
          f"  (CPU {summary['jobs_cpu_s']:.1f} s)")
    print(f"  --scheduler local:{args.workers}: {dask_s:7.1f} s  {summary['dask_deals_per_s']:6.2f} deals/s"
          f"  (overhead {100 * summary['dask_overhead']:+.1f}%; CPU {summary['dask_cpu_s']:.1f} s, "
          f"{100 * summary['dask_cpu_overhead']:+.1f}%)")
    print(f"  the strongest hand's solissimo makes double dummy in {100 * makes / args.deals:.1f}% of the deals")
    print(jsonout.dumps(summary))


if __name__ == "__main__":
    main()
