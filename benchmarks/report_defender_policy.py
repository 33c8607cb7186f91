"""The defenders' exchange under real play: ``dd`` (the defenders see every card) against ``sampled``
(each defender chooses with what it sees), on the same deals played out by PIMC players.

    python3 benchmarks/report_defender_policy.py [--deals 4] [--pimc-samples 10] [--jobs 2] [--out rows.jsonl]

For every hand of :data:`calasolve.search.suites.ADVISE_HANDS` (seed 1, the soloist's default
``sampled`` policy) and each of dividete and scegliete, the first ``--deals`` sampled deals are
played out as ``advise --play pimc`` plays them (:func:`calasolve.advice.realplay.play_sample`:
the same deal, the same dividete draw and the same PIMC seed under both defender policies), once
after the ``dd`` defenders' exchange and once after the ``sampled`` one.  Each row also has the
soloist's double-dummy thirds after the exchange, and the CPU seconds of the exchange itself.

The rows go to ``--out`` (one JSON line each) as they finish, deal by deal, so a run stopped early
still pairs every deal it finished.  ``--summary rows.jsonl`` prints the table of a rows file:
per contract and kind of hand, the make rates under both policies and the paired differences
sampled - dd of made (0/1), game points and thirds, mean ± standard error over the deals.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from multiprocessing import Pool
from typing import Any

from calasolve.advice.realplay import pimc_seed, played_exchange
from calasolve.advice.samples import deal_sample
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.stats import mean_se, wilson
from calasolve.game.cards import last_trick_bonus
from calasolve.game.exchange import apply_exchange
from calasolve.game.state import first_leader
from calasolve.play.players import PimcPlayer, play_out
from calasolve.types.record import Record
from calasolve.search import engines
from calasolve.search.suites import ADVISE_HANDS

CONTRACTS = ("dividete", "scegliete")
POLICIES = ("dd", "sampled")


def run_one(task: tuple[int, int, str, str, int, int]) -> dict[str, Any]:
    """One deal of one hand, contract and defender policy, as realplay.play_sample plays it."""
    h_index, index, contract, policy, seed, pimc_samples = task
    h = ADVISE_HANDS[h_index]
    from calasolve.advice.checks import parse_advice_hand

    settings = AdviceSettings(hand=parse_advice_hand(h.hand), seat=h.seat, seed=seed, defender_policy=policy,
                              pimc_samples=pimc_samples, contracts=(contract,), jobs=1)
    solver = engines.solver(settings.tt_mb)
    seat, rules = settings.seat, settings.rules
    start = time.process_time()
    hands, monte = deal_sample(settings, index)
    exchange, dd_thirds = played_exchange(settings, index, contract, hands, monte, solver)
    exchange_cpu = time.process_time() - start
    after, new_monte = apply_exchange(hands, monte, contract, seat, exchange)
    if dd_thirds is None:
        dd_thirds = int(solver.value(after, (), first_leader(contract, seat, rules), seat, last_trick_bonus(new_monte)))
    record = Record(hands=hands, monte=monte, contract=contract, soloist=seat, rules=rules, exchange=exchange)
    players = [PimcPlayer(samples=pimc_samples, seed=pimc_seed(settings, index, contract), solver=solver)
               for _ in range(3)]
    score = play_out(record, players).record.state().result(contract, rules)
    return {"hand": h.hand, "seat": h.seat, "kind": h.kind, "index": index, "contract": contract, "policy": policy,
            "thirds": score.soloist_thirds, "makes": score.makes, "points": score.soloist_payoff,
            "dd_thirds": dd_thirds, "exchange": repr(exchange), "exchange_cpu": exchange_cpu,
            "cpu": time.process_time() - start}


def summary(path: str) -> None:
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    by: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    for r in rows:
        by[(r["hand"], r["contract"], r["index"], r["policy"])] = r
    # only the deals finished for every hand, contract and policy: the hands weigh equally
    full = len({(r["hand"], r["contract"], r["policy"]) for r in rows})
    whole = {i for i in {r["index"] for r in rows} if sum(k[2] == i for k in by) == full}
    pairs: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
    for (hand, contract, index, policy), r in by.items():
        if policy == "dd" and index in whole:
            pairs[contract].append((r, by[(hand, contract, index, "sampled")]))
    print(f"deals {sorted(whole)} of each hand and contract, {len(rows)} rows")
    print(f"{'contract':<10} {'kind':<10} {'deals':>5}  {'PIMC P(make) dd':<22} {'PIMC P(make) sampled':<22} "
          f"{'diff made (pp)':<16} {'diff game points':<18} {'diff thirds':<14} "
          f"{'DD P(make) dd -> sampled':<26} {'DD diff thirds':<14} {'CPU/exchange dd, sampled'}")
    for contract in CONTRACTS:
        for kind in ("all", "strong", "borderline", "weak"):
            ps = [p for p in pairs[contract] if kind == "all" or p[0]["kind"] == kind]
            if not ps:
                continue
            n = len(ps)
            dm = [a["makes"] for a, _ in ps]
            sm = [b["makes"] for _, b in ps]

            def rate(m: list[bool]) -> str:
                lo, hi = wilson(sum(m), len(m))
                return f"{sum(m) / len(m):5.1%} [{lo:4.0%}, {hi:4.0%}]"

            def diff(key: str, scale: float = 1.0) -> str:
                m, se = mean_se([(float(b[key]) - float(a[key])) * scale for a, b in ps])
                return f"{m:+.2f} ± {se:.2f}"

            ddm = sum(a["dd_thirds"] >= 18 for a, _ in ps)
            dsm = sum(b["dd_thirds"] >= 18 for _, b in ps)
            cpu_d = sum(a["exchange_cpu"] for a, _ in ps) / n
            cpu_s = sum(b["exchange_cpu"] for _, b in ps) / n
            print(f"{contract:<10} {kind:<10} {n:>5}  {rate(dm):<22} {rate(sm):<22} {diff('makes', 100):<16} "
                  f"{diff('points'):<18} {diff('thirds'):<14} {f'{ddm} -> {dsm}':<26} {diff('dd_thirds'):<14} "
                  f"{cpu_d:.2f} s, {cpu_s:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4, help="deals played out per hand and contract")
    parser.add_argument("--pimc-samples", type=int, default=10, help="layouts per PIMC decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="defender_policy_rows.jsonl")
    parser.add_argument("--summary", help="only print the table of this rows file")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
        return
    # deal by deal, so that a run stopped early has whole pairs
    tasks = [(h, i, c, p, args.seed, args.pimc_samples) for i in range(args.deals) for h in range(len(ADVISE_HANDS))
             for c in CONTRACTS for p in POLICIES]
    wall = time.perf_counter()
    with Pool(args.jobs) as pool, open(args.out, "a", encoding="utf-8") as out:
        for row in pool.imap(run_one, tasks):
            out.write(json.dumps(row) + "\n")
            out.flush()
    print(f"{len(tasks)} play-outs, wall {time.perf_counter() - wall:.0f} s on --jobs {args.jobs}")
    summary(args.out)


if __name__ == "__main__":
    main()
