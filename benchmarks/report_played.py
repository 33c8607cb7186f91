"""The default advice with its played odds, on the advise suite (issue #34).

    python3 benchmarks/report_played.py [--jobs 2] [--seed 1] [--hands 0-20] [--play-samples 8]
                                        [--pimc-samples 8] [--json out.json]
    python3 benchmarks/report_played.py --agreement [--hands 0,3,8,12,17] [--times 8]

Default: the whole default advice (``calasolve.advise``, ``play="played"``) of
each suite hand (:data:`calasolve.search.suites.ADVISE_HANDS`) on ``--jobs``
workers: its wall time (median, slowest), and per contract the double-dummy
and the played P(make) and the gap, averaged over the hands.

``--agreement``: on each hand of ``--hands``, the fast played estimate
(double dummy + the paired gap on 8 deals) against a plain estimate of the
same players (:func:`calasolve.advice.playadvice.advise_play`, contract-minded
PIMC, the same layouts, the defenders' ``sampled`` exchange) on ``--times``
times as many deals: does the plain P(make)'s Wilson interval meet the fast
one's, per contract?  (The fast interval is 95%, the plain one 95%: two
estimates of one number agree when their intervals meet.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from calasolve.advice.advisor import advise
from calasolve.advice.playadvice import advise_play
from calasolve.game.defaults import DEFAULT_PLAYED_DEALS, DEFAULT_PLAYED_LAYOUTS
from calasolve.game.state import CONTRACTS
from calasolve.search.suites import ADVISE_HANDS


def hand_list(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def timing(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for k in hand_list(args.hands):
        h = ADVISE_HANDS[k]
        start = time.perf_counter()
        a = advise(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs, play_samples=args.play_samples,
                   pimc_samples=args.pimc_samples, **({"precision": args.precision} if args.precision else {}),
                   **({"samples": args.samples} if args.samples else {}),
                   **({"thirds_samples": args.thirds_samples} if args.thirds_samples is not None else {}))
        wall = time.perf_counter() - start
        assert a.played is not None
        row = {"hand": h.hand, "seat": h.seat, "kind": h.kind, "wall": wall, "recommendation": a.recommendation,
               "dd_recommendation": a.dd_recommendation,
               "dd_cpu": sum(e.seconds for e in a.estimates), "play_cpu": sum(e.seconds for e in a.played.estimates),
               "contracts": {e.contract: {"dd": next(d.p_make for d in a.estimates if d.contract == e.contract),
                                          "n": next(d.samples for d in a.estimates if d.contract == e.contract),
                                          "points": e.mean_payoff,
                                          "played": e.p_make, "gap": e.gap_p_make,
                                          "played_95": list(e.p_make_95)} for e in a.played.estimates},
               "toss_up": list(a.toss_up)}
        rows.append(row)
        print(f"{k:2} {h.kind:10} {h.hand:18} {wall:6.1f} s  dd cpu {row['dd_cpu']:5.1f} play cpu {row['play_cpu']:5.1f}"
              f"  {a.dd_recommendation:>9} -> {a.recommendation}", flush=True)
    walls = [r["wall"] for r in rows]
    print(f"\nwall: median {statistics.median(walls):.1f} s, slowest {max(walls):.1f} s ({len(walls)} hands, jobs {args.jobs})")
    print(f"{'contract':10} {'DD P(make)':>10} {'played':>8} {'gap':>7}")
    for c in CONTRACTS:
        dd = statistics.mean(r["contracts"][c]["dd"] for r in rows)
        pl = statistics.mean(r["contracts"][c]["played"] for r in rows)
        print(f"{c:10} {dd:>10.1%} {pl:>8.1%} {pl - dd:>+7.1%}")
    return {"rows": rows, "median": statistics.median(walls), "slowest": max(walls)}


def agreement(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for k in hand_list(args.hands):
        h = ADVISE_HANDS[k]
        fast = advise(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs, play_samples=args.play_samples,
                      pimc_samples=args.pimc_samples)
        plain = advise_play(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs, players="contract",
                            pimc_samples=args.pimc_samples, play_samples=args.times * args.play_samples,
                            defender_policy="sampled")
        assert fast.played is not None
        for e in fast.played.estimates:
            p = next(x for x in plain.estimates if x.contract == e.contract).pimc
            meet = p.p_make_95[0] <= e.p_make_95[1] and e.p_make_95[0] <= p.p_make_95[1]
            rows.append({"hand": h.hand, "seat": h.seat, "contract": e.contract, "fast": e.p_make,
                         "fast_95": list(e.p_make_95), "plain": p.p_make, "plain_95": list(p.p_make_95),
                         "plain_deals": p.deals, "agree": meet})
            print(f"{k:2} {h.hand:18} {e.contract:10} fast {e.p_make:6.1%} ({e.p_make_95[0]:.0%}-{e.p_make_95[1]:.0%})"
                  f"  plain {p.p_make:6.1%} ({p.p_make_95[0]:.0%}-{p.p_make_95[1]:.0%}, {p.deals} deals)"
                  f"  {'agree' if meet else 'DISAGREE'}", flush=True)
    print(f"\n{sum(r['agree'] for r in rows)} of {len(rows)} agree")
    return {"rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", default=None)
    ap.add_argument("--agreement", action="store_true")
    ap.add_argument("--times", type=int, default=8)
    ap.add_argument("--play-samples", type=int, default=DEFAULT_PLAYED_DEALS, help="deals played out per contract")
    ap.add_argument("--pimc-samples", type=int, default=DEFAULT_PLAYED_LAYOUTS, help="layouts a decision")
    ap.add_argument("--samples", type=int, default=None, help="the double-dummy race's cap (default: the advice's own)")
    ap.add_argument("--thirds-samples", type=int, default=None,
                    help="samples per contract with exact thirds (default: the advice's own)")
    ap.add_argument("--precision", type=float, default=None, help="the double-dummy race's precision (default: its own)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.hands is None:
        args.hands = "0,3,8,12,17" if args.agreement else f"0-{len(ADVISE_HANDS) - 1}"
    out = agreement(args) if args.agreement else timing(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    sys.exit(0)


if __name__ == "__main__":
    main()
