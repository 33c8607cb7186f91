"""Make the advisor's reference results: a fixed-sample run of every benchmark hand.

    python3 benchmarks/advise_reference.py [--samples 2000] [--jobs 2] [--out tests/data/advise_reference.json]

Each hand of :data:`calasolve.search.suites.ADVISE_HANDS` is advised with seed 1, all
the defaults and ``fixed=True``: every contract gets the same ``--samples``
deals.  For the two best choices (a contract, or passing, worth 0 on every
sample) the file keeps the mean difference of their game points on the
common samples and its fixed-n 95% margin (1.96 standard errors of the
paired differences): the run *separates* them when the difference exceeds
the margin.  ``tests/advice/test_advise_reference.py`` checks the sequential
advisor against these results.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from calasolve.advice.advisor import advise
from calasolve.advice.stats import Z95
from calasolve.records import jsonout
from calasolve.search.suites import ADVISE_HANDS

SEED = 1


def reference(hand: str, seat: int, samples: int, jobs: int) -> dict[str, object]:
    start = time.perf_counter()
    advice = advise(hand, play="dd", seat=seat, seed=SEED, samples=samples, fixed=True, jobs=jobs)
    assert advice.race is not None
    points = {t.contract: (t.payoffs()[0] + t.payoffs()[1]) / 2 for t in advice.race.tracks}
    points["pass"] = np.zeros(samples)
    ranked = sorted(points, key=lambda c: -float(points[c].mean()))
    first, second = ranked[0], ranked[1]
    d = points[first] - points[second]
    margin = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d))
    return {
        "hand": hand,
        "seat": seat,
        "seed": SEED,
        "samples": samples,
        "means": {c: round(float(v.mean()), 4) for c, v in points.items()},
        "p_make": {e.contract: e.p_make for e in advice.estimates},
        "first": first,
        "second": second,
        "difference": round(float(d.mean()), 4),
        "margin": round(margin, 4),
        "separated": bool(d.mean() > margin),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("tests/data/advise_reference.json"))
    parser.add_argument("--done", type=Path, help="rows already made (JSON lines, as printed): kept, not run again")
    args = parser.parse_args()
    done = {}
    if args.done:
        for line in args.done.read_text().splitlines():
            row = json.loads(line)
            done[(row["hand"], row["seat"])] = row
    rows = []
    for h in ADVISE_HANDS:
        row = done.get((h.hand, h.seat)) or reference(h.hand, h.seat, args.samples, args.jobs)
        print(jsonout.dumps(row), flush=True)
        rows.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(jsonout.dumps({"made_by": "benchmarks/advise_reference.py", "hands": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
