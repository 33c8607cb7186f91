"""The learned players (issue #58): strength, speed, the advice they make, and its agreement with PIMC.

    python3 benchmarks/report_learned.py strength [--mix rule] [--first 100000] [--deals 1000] [--jobs 2] [--endgame 6]
                                                  [--defender-endgame 6]
    python3 benchmarks/report_learned.py speed [--deals 200]
    python3 benchmarks/report_learned.py advice [--hands 0-20] [--jobs 2] [--players learned]
    python3 benchmarks/report_learned.py agreement [--hands 0,3,...] [--deals 64] [--jobs 2] [--pimc-from FILE]

``strength``: duplicate deals apart from the training ones (:func:`calasolve.train.data.training_deal`, deals
numbered from ``--first``; training used rule 0-11999 and stakes 20000-25399), each played three times from
the same exchange: the contract-minded PIMC player (8 layouts) on every seat; the learned player as soloist
against PIMC defenders; PIMC soloist against learned defenders.  The learned side's game points a deal
against PIMC's in its place, per contract, with standard errors.  ``--endgame``: the tricks the learned side
searches (by default the player's), ``--defender-endgame`` the defenders' apart.

``speed``: CPU per deal (the cards of a deal after its exchange) by player: three learned players (batched
over all deals, and one deal at a time) with the default endgame, with its defenders searching six tricks,
with six tricks, the network alone (``endgame=0``), six tricks on ``numpy`` layouts (tallied in Python, the
default before the core's decision), and contract-minded PIMC; and the deal's exchange by the learned
policies (as the advice's play-outs make it).

``advice``: the default advice of each suite hand (:data:`calasolve.search.suites.ADVISE_HANDS`): wall
time, the recommended contract's played P(make) half-width, the toss-ups.

``agreement``: per hand and contract, the learned players' P(make) interval (the default advice) against the
contract-minded PIMC players' plain estimate on ``--deals`` deals (:func:`calasolve.advice.playadvice.advise_play`,
the same deals and exchange policies): do the intervals meet, do both read makes (>= 50%) or both fails.
``--pimc-from`` reuses an earlier run's PIMC estimates (they are most of its cost).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line runs: the workers fill the cores

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from calasolve.advice.advisor import advise
from calasolve.advice.playadvice import advise_play
from calasolve.advice.realplay import played_exchange
from calasolve.advice.settings import AdviceSettings
from calasolve.game.state import CONTRACTS
from calasolve.game.defaults import DEFAULT_ENDGAME
from calasolve.play.learned import LearnedPlayer, play_out_many
from calasolve.play.players import play_out
from calasolve.play.target import ContractPimcPlayer
from calasolve.search.solving import default_solver
from calasolve.search.suites import ADVISE_HANDS
from calasolve.train.data import training_deal
from report_played import hand_list  # benchmarks/ is the script's own folder


def _duplicate(task: tuple[str, int, int, int | None]) -> tuple[str, int, int, int]:
    """One deal: the soloist's game points with PIMC everywhere, learned soloist, learned defenders."""
    mix, d, endgame, defender_endgame = task
    solver = default_solver()
    record, seed = training_deal(mix, d, solver)

    def pimc() -> ContractPimcPlayer:
        return ContractPimcPlayer(8, seed, solver)

    out = []
    for learned_seats in ((), (record.soloist,), tuple(s for s in range(3) if s != record.soloist)):
        players = [LearnedPlayer(endgame=endgame, defender_endgame=defender_endgame, seed=seed, solver=solver)
                   if s in learned_seats else pimc() for s in range(3)]
        out.append(play_out(record, players).record.state().result(record.contract, record.rules).soloist_payoff)
    return record.contract, out[0], out[1], out[2]


def strength(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [(args.mix, d, args.endgame, args.defender_endgame) for d in range(args.first, args.first + args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(_duplicate, tasks, chunksize=8))
    contracts = np.array([r[0] for r in rows])
    base = np.array([r[1] for r in rows], dtype=float)
    sol = np.array([r[2] for r in rows], dtype=float) - base
    dfn = base - np.array([r[3] for r in rows], dtype=float)  # the defenders gain what the soloist loses
    report: dict[str, Any] = {"mix": args.mix, "deals": len(rows), "first": args.first, "endgame": args.endgame,
                              "defender_endgame": args.defender_endgame}
    for name, diff in (("soloist", sol), ("defenders", dfn)):
        part = {"all": (float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff))), len(diff))}
        for c in CONTRACTS:
            d = diff[contracts == c]
            if len(d) > 1:
                part[c] = (float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))), len(d))
        report[name] = part
        print(f"learned {name} against PIMC in its place ({args.mix} mix, {len(rows)} deals): " +
              "; ".join(f"{k} {m:+.2f} ± {se:.2f} (n={n})" for k, (m, se, n) in part.items()))
    return report


def speed(args: argparse.Namespace) -> dict[str, Any]:
    solver = default_solver()
    deals = [training_deal("rule", d, solver) for d in range(200_000, 200_000 + args.deals)]
    records = [r for r, _ in deals]
    out: dict[str, Any] = {"deals": args.deals}
    # the default; its defenders on six tricks; six tricks; the network alone; six tricks on numpy layouts, tallied
    # in Python (the default before the decisions moved into the core)
    kinds: list[tuple[str, dict[str, Any]]] = [
        (f"learned endgame={DEFAULT_ENDGAME}", {}), ("learned endgame=8, defenders 6", {"endgame": 8, "defender_endgame": 6}),
        ("learned endgame=6", {"endgame": 6}), ("learned endgame=0", {"endgame": 0}),
        ("learned endgame=6, numpy layouts", {"endgame": 6, "sampler": "numpy"})]
    for name, kind in kinds:
        solver.clear()  # each player starts from an empty table: the same deals' searches would be found in it

        def players(s: int) -> list[LearnedPlayer]:
            return [LearnedPlayer(seed=s, solver=solver, **kind) for _ in range(3)]

        start = time.process_time()
        play_out_many(records, [players(s) for _, s in deals])
        batched = (time.process_time() - start) / args.deals
        solver.clear()
        start = time.process_time()
        for r, s in deals:
            play_out(r, players(s))
        alone = (time.process_time() - start) / args.deals
        out[name] = {"batched_ms": 1e3 * batched, "one_at_a_time_ms": 1e3 * alone}
    start = time.process_time()
    for r, s in deals:  # the exchange of the whole deal, by the learned policies as the advice's play-outs make it
        settings = AdviceSettings(hand=r.hands[r.soloist], seat=r.soloist, seed=s, policy="learned",
                                  defender_policy="learned", jobs=1)
        played_exchange(settings, 0, r.contract, r.hands, r.monte, solver)
    out["learned exchange"] = {"one_at_a_time_ms": 1e3 * (time.process_time() - start) / args.deals}
    n = min(args.deals, 60)
    solver.clear()
    start = time.process_time()
    for r, s in deals[:n]:
        play_out(r, [ContractPimcPlayer(8, s, solver) for _ in range(3)])
    out["contract PIMC, 8 layouts"] = {"one_at_a_time_ms": 1e3 * (time.process_time() - start) / n}
    for k, v in out.items():
        if isinstance(v, dict):
            what = "its exchange" if "exchange" in k else "its 36 cards"
            print(f"{k}: " + ", ".join(f"{a} {b:.2f}" for a, b in v.items()) + f" (CPU a deal, {what})")
    return out


def advice(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for k in hand_list(args.hands):
        h = ADVISE_HANDS[k]
        start = time.perf_counter()
        a = advise(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs, players=args.players)
        wall = time.perf_counter() - start
        assert a.played is not None
        rec = next((e for e in a.played.estimates if e.contract == a.recommendation), None)
        best = rec or max(a.played.estimates, key=lambda e: e.mean_payoff)
        half = (best.p_make_95[1] - best.p_make_95[0]) / 2
        dd = next(e for e in a.estimates if e.contract == (a.dd_recommendation if a.dd_recommendation != "pass" else best.contract))
        rows.append({"hand": k, "wall": wall, "recommendation": a.recommendation, "dd_recommendation": a.dd_recommendation,
                     "toss_up": list(a.toss_up),
                     "every": len(a.toss_up) == len(a.played.estimates), "half_width": half,
                     "dd_half_width": (dd.p_make_95[1] - dd.p_make_95[0]) / 2})
        print(f"hand {k:2d}: {wall:5.1f} s, {a.recommendation:9s} P(make) ±{100 * half:4.1f} points "
              f"(dd ±{100 * rows[-1]['dd_half_width']:.1f}), toss-up with {','.join(a.toss_up) or '-'}", flush=True)
    walls = [r["wall"] for r in rows]
    summary = {"median_s": statistics.median(walls), "max_s": max(walls),
               "max_half_width": max(r["half_width"] for r in rows),
               "mean_dd_half_width": statistics.mean(r["dd_half_width"] for r in rows),
               # the double-dummy estimate's precision on its own recommendation, where it recommends a contract
               "mean_dd_half_width_own": statistics.mean([r["dd_half_width"] for r in rows if r["dd_recommendation"] != "pass"]
                                                         or [0.0]),
               "every": sum(r["every"] for r in rows), "some": sum(bool(r["toss_up"]) and not r["every"] for r in rows),
               "clear": sum(not r["toss_up"] for r in rows)}
    print(json.dumps(summary))
    return {"hands": rows, "summary": summary}


def _pimc_estimates(args: argparse.Namespace, k: int) -> dict[str, tuple[float, tuple[float, float]]]:
    """Hand ``k``'s PIMC P(make) and interval per contract: played now, or read from ``--pimc-from``."""
    if args.pimc_from:
        rows = json.load(open(args.pimc_from))["rows"]
        return {r["contract"]: (r["pimc"], tuple(r["pimc_95"])) for r in rows if r["hand"] == k}
    h = ADVISE_HANDS[k]
    plain = advise_play(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs, players="contract",
                        play_samples=args.deals, pimc_samples=8, defender_policy="sampled")
    return {e.contract: (e.pimc.makes / e.pimc.deals, e.pimc.p_make_95) for e in plain.estimates}


def agreement(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for k in hand_list(args.hands):
        h = ADVISE_HANDS[k]
        fast = advise(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs)
        pimc = _pimc_estimates(args, k)
        assert fast.played is not None
        for e in fast.played.estimates:
            p_make, (lo, hi) = pimc[e.contract]
            meet = e.p_make_95[0] <= hi and lo <= e.p_make_95[1]
            rows.append({"hand": k, "contract": e.contract, "learned": e.p_make, "learned_95": e.p_make_95,
                         "pimc": p_make, "pimc_95": (lo, hi), "meet": meet,
                         "same_side": (e.p_make >= 0.5) == (p_make >= 0.5)})
            print(f"hand {k:2d} {e.contract:9s} learned {e.p_make:.2f} [{e.p_make_95[0]:.2f}, {e.p_make_95[1]:.2f}] "
                  f"PIMC {p_make:.2f} [{lo:.2f}, {hi:.2f}] {'meet' if meet else 'APART'}", flush=True)
    diffs = [abs(r["learned"] - r["pimc"]) for r in rows]
    summary = {"pairs": len(rows), "meet": sum(r["meet"] for r in rows), "same_side": sum(r["same_side"] for r in rows),
               "mean_abs_diff": statistics.mean(diffs), "max_abs_diff": max(diffs)}
    print(json.dumps(summary))
    return {"rows": rows, "summary": summary}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="part", required=True)
    s = sub.add_parser("strength")
    s.add_argument("--mix", default="rule", choices=["rule", "stakes"])
    s.add_argument("--first", type=int, default=100_000)
    s.add_argument("--deals", type=int, default=1000)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--endgame", type=int, default=DEFAULT_ENDGAME, help="tricks at the end played by PIMC")
    s.add_argument("--defender-endgame", type=int, default=None, help="the learned defenders' apart")
    p = sub.add_parser("speed")
    p.add_argument("--deals", type=int, default=200)
    a = sub.add_parser("advice")
    a.add_argument("--hands", default="0-20")
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--players", default="learned")
    g = sub.add_parser("agreement")
    g.add_argument("--hands", default="0,3,8,12,17")
    g.add_argument("--deals", type=int, default=64)
    g.add_argument("--jobs", type=int, default=2)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--pimc-from", default=None, help="an earlier agreement JSON whose PIMC estimates to reuse "
                   "(the same --seed and --deals; the PIMC players' code unchanged since)")
    for q in (s, p, a, g):
        q.add_argument("--json", default=None)
    args = ap.parse_args()
    result = {"strength": strength, "speed": speed, "advice": advice, "agreement": agreement}[args.part](args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
