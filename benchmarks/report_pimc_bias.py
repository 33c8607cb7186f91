"""The double-dummy bias of the advice, measured: the advise suite's deals played both ways.

    python3 benchmarks/report_pimc_bias.py [--deals 8] [--pimc-samples 10] [--hands N] [--jobs 2] [--json out.json]

For every hand of :data:`calasolve.search.suites.ADVISE_HANDS` (seed 1, the
advisor's default policies), the first ``--deals`` sampled deals of each
contract are played out by PIMC players on all three seats and judged double
dummy as the default advice judges them (``advise --play both``).  Prints a
line per hand, then per contract over the whole suite: the DD and PIMC make
rates with their 95% intervals (Wilson), the paired difference PIMC - DD of
the make rate, the game points and the thirds (mean ± standard error, 95%
interval = ± 1.96 standard errors), and the CPU time of every process.

The suite's deals are independent (a hand's deals are its own samples), so
the pooled rates are means over the suite: the hands weigh equally.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from collections import defaultdict
from typing import Any

from calasolve.advice.playadvice import advise_play
from calasolve.types.playout import PlayedSample
from calasolve.advice.stats import Z95, mean_se, wilson
from calasolve.game.state import CONTRACTS
from calasolve.search.suites import ADVISE_HANDS


def cpu() -> float:
    """CPU seconds of this process and of its finished children (the worker pools)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def rate(makes: list[bool]) -> str:
    lo, hi = wilson(sum(makes), len(makes))
    return f"{sum(makes) / len(makes):6.1%} [{lo:5.1%}, {hi:5.1%}]"


def paired(diffs: list[float], scale: float = 1.0, unit: str = "") -> str:
    m, se = mean_se(diffs)
    m, se = m * scale, se * scale
    return f"{m:+6.2f}{unit} ± {se:.2f}{unit} [{m - Z95 * se:+.2f}, {m + Z95 * se:+.2f}]"


def summary(contract: str, samples: list[PlayedSample]) -> dict[str, Any]:
    dd = [bool(s.dd_makes) for s in samples]
    pimc = [s.makes for s in samples]
    return {
        "contract": contract, "deals": len(samples),
        "dd_p_make": sum(dd) / len(dd), "dd_p_make_95": wilson(sum(dd), len(dd)),
        "pimc_p_make": sum(pimc) / len(pimc), "pimc_p_make_95": wilson(sum(pimc), len(pimc)),
        "gap_p_make": mean_se([int(p) - int(d) for p, d in zip(pimc, dd)]),
        "dd_points": mean_se([s.dd_points for s in samples]),
        "dd_open": sum(s.dd_points_low != s.dd_points_high for s in samples),
        "pimc_points": mean_se([s.points for s in samples]),
        "gap_points": mean_se([s.points - s.dd_points for s in samples]),
        "gap_thirds": mean_se([s.thirds - (s.dd_thirds or 0) for s in samples]),
        "cpu": sum(s.seconds for s in samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="deals played out per contract and hand")
    parser.add_argument("--pimc-samples", type=int, default=10, help="layouts per PIMC decision")
    parser.add_argument("--hands", type=int, default=len(ADVISE_HANDS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the per-hand and per-contract numbers here")
    args = parser.parse_args()
    by_contract: dict[str, list[PlayedSample]] = defaultdict(list)
    hands = []
    wall, start = time.perf_counter(), cpu()
    for h in ADVISE_HANDS[: args.hands]:
        before = cpu()
        play = advise_play(h.hand, seat=h.seat, seed=args.seed, play_samples=args.deals,
                           pimc_samples=args.pimc_samples, dd=True, jobs=args.jobs)
        row = []
        for e in play.estimates:
            by_contract[e.contract] += e.samples
            assert e.dd is not None
            row.append(f"{e.contract} {e.dd.makes}->{e.pimc.makes}")
        hands.append({"hand": h.hand, "seat": h.seat, "kind": h.kind, "cpu": cpu() - before,
                      "estimates": [e.to_dict() for e in play.estimates]})
        print(f"{h.hand:<16} {h.seat} {h.kind:<10} cpu {cpu() - before:6.1f} s  made DD->PIMC: {'  '.join(row)}",
              flush=True)
    total_cpu, total_wall = cpu() - start, time.perf_counter() - wall
    print(f"\n{args.hands} hands x {args.deals} deals per contract, {args.pimc_samples} layouts a PIMC decision, "
          f"seed {args.seed}: CPU {total_cpu:.0f} s (every process), wall {total_wall:.0f} s on --jobs {args.jobs}\n")
    print(f"{'contract':<10} {'deals':>5}  {'DD P(make) [95%]':<24} {'PIMC P(make) [95%]':<24} "
          f"{'gap P(make) [95%]':<34} {'DD points':>14} {'PIMC points':>14} "
          f"{'gap game points [95%]':<30} {'gap thirds [95%]':<30} {'CPU':>7}  DD open")
    summaries = []
    for c in CONTRACTS:
        s = by_contract[c]
        if not s:
            continue
        summaries.append(summary(c, s))
        dd_m, dd_se = mean_se([x.dd_points for x in s])
        pm, pse = mean_se([x.points for x in s])
        print(f"{c:<10} {len(s):>5}  {rate([bool(x.dd_makes) for x in s]):<24} {rate([x.makes for x in s]):<24} "
              f"{paired([int(x.makes) - int(bool(x.dd_makes)) for x in s], 100, 'pp'):<34} "
              f"{dd_m:+7.2f} ± {dd_se:.2f} {pm:+7.2f} ± {pse:.2f} "
              f"{paired([x.points - x.dd_points for x in s]):<30} "
              f"{paired([x.thirds - (x.dd_thirds or 0) for x in s]):<30} {sum(x.seconds for x in s):6.0f}s  "
              f"{sum(x.dd_points_low != x.dd_points_high for x in s)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"deals": args.deals, "pimc_samples": args.pimc_samples, "seed": args.seed,
                       "cpu": total_cpu, "wall": total_wall, "hands": hands, "contracts": summaries}, f, indent=1)


if __name__ == "__main__":
    main()
