"""The contract-minded PIMC player against today's thirds-minded one: duplicate matches on the same deals.

    python3 benchmarks/report_players.py [--deals 210] [--seed 1] [--jobs 2] [--samples 10]
                                         [--rest levels,heuristic,levels:0,levels:3:20,levels:0:8:4:2]
                                         [--json out.json]

Deal ``d`` is sample ``d // 21`` of the advise suite's hand ``d % 21``
(:data:`calasolve.search.suites.ADVISE_HANDS`, its seat the soloist's) in
contract ``d % 5`` of chiamo..scegliete (21 and 5 are coprime: every 105
deals hold each hand in each contract once), dealt and exchanged as the
advisor's play-outs do (:mod:`calasolve.advice.realplay`: the advisor's
sample, the policies' exchange, the ``dd`` defence's exchange in dividete
and scegliete).  Each deal is played

- (a) by :class:`~calasolve.play.players.PimcPlayer` on all three seats (today's thirds-minded play);
- (b) by :class:`~calasolve.play.target.ContractPimcPlayer` as soloist against PIMC defenders;
- (c) by a PIMC soloist against contract-minded defenders on both defender seats;

(b) and (c) once for each ``--rest`` rule.  Every player has ``--samples``
layouts a decision and the deal's seed (the advisor's PIMC seed for the
sample), so a seat facing the same position plays the same card in every
match.  The deals are scored exactly by the rules.  Printed: for the
soloist, the game points per deal of (b) minus (a), and for the defenders
(their side's game points, both seats) of (c) minus (a), mean ± standard
error paired by deal; P(make) of each match with its 95% interval (Wilson);
and the CPU seconds per deal and per decision of each player kind on each
side (this process's CPU time around each decision, every match from an
empty table: the cores may be shared).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Sequence

from calasolve.advice.realplay import pimc_seed, played_exchange
from calasolve.advice.samples import deal_sample
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.stats import mean_se, percentile, wilson
from calasolve.game.cards import Card, parse_hand, popcount
from calasolve.game.state import CONTRACT_VALUE, CONTRACTS, PlayState, defender_seats
from calasolve.play.players import PimcPlayer, Player, play_out
from calasolve.play.target import DEFAULT_OPENING_TRICKS, DEFAULT_STEP, RESTS, ContractPimcPlayer
from calasolve.types.record import Record
from calasolve.search import engines
from calasolve.search.suites import ADVISE_HANDS


@dataclass
class Timed:
    """A player whose decisions with a choice (more than one legal card) are timed (CPU seconds of this process)
    and counted."""

    player: Player
    seconds: float = 0.0
    decisions: int = 0
    #: (cards played before, CPU seconds) of each decision
    times: list[tuple[int, float]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.player.name

    def choose(self, record: Record, state: PlayState) -> Card:
        if popcount(state.legal()) == 1:
            return self.player.choose(record, state)
        start = time.process_time()
        card = self.player.choose(record, state)
        spent = time.process_time() - start
        self.seconds += spent
        self.decisions += 1
        self.times.append((len(state.history), spent))
        return card


def deal_of(d: int, seed: int) -> tuple[Record, int, dict[str, Any]]:
    """Deal ``d`` (see the module doc): its record with the exchange, its players' seed and a description."""
    h = ADVISE_HANDS[d % len(ADVISE_HANDS)]
    index, contract = d // len(ADVISE_HANDS), CONTRACTS[d % len(CONTRACTS)]
    settings = AdviceSettings(hand=parse_hand(h.hand), seat=h.seat, seed=seed)
    hands, monte = deal_sample(settings, index)
    exchange, _ = played_exchange(settings, index, contract, hands, monte, engines.solver())
    record = Record(hands=hands, monte=monte, contract=contract, soloist=h.seat, rules=settings.rules, exchange=exchange)
    about = {"deal": d, "hand": h.hand, "seat": h.seat, "kind": h.kind, "index": index, "contract": contract}
    return record, pimc_seed(settings, index, contract), about


def match(record: Record, players: Sequence[Timed]) -> dict[str, Any]:
    """Play ``record`` out; the soloist's result and the CPU time of the soloist's seat and the defenders'."""
    played = play_out(record, players).record.state()
    score = played.result(record.contract, record.rules)
    s = record.soloist
    defenders = defender_seats(s)
    return {
        "points": score.soloist_payoff, "defence_points": sum(score.payments[d] for d in defenders),
        "makes": score.makes, "thirds": score.soloist_thirds, "multiplier": score.multiplier,
        "value": CONTRACT_VALUE[record.contract],
        "soloist_cpu": players[s].seconds, "soloist_decisions": players[s].decisions,
        "defence_cpu": sum(players[d].seconds for d in defenders),
        "defence_decisions": sum(players[d].decisions for d in defenders),
        "soloist_times": players[s].times, "defence_times": sorted(t for d in defenders for t in players[d].times),
    }


def play_deal(task: tuple[int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """Deal ``d`` played in every match (a worker's task)."""
    d, seed, samples, rests = task
    start = time.process_time()
    record, pseed, out = deal_of(d, seed)
    solver = engines.solver()
    out["exchange_cpu"] = time.process_time() - start
    s = record.soloist

    def seats(soloist_kind: str, defence_kind: str) -> list[Timed]:
        def one(kind: str) -> Player:
            if kind == "pimc":
                return PimcPlayer(samples=samples, seed=pseed, solver=solver)
            rest, step, layouts, first, opening = (kind.split(":") + [""] * 4)[:5]
            return ContractPimcPlayer(samples=int(layouts) if layouts else samples, seed=pseed, solver=solver,
                                      rest=rest, step=int(step) if step else DEFAULT_STEP,  # type: ignore[arg-type]
                                      first_samples=int(first) if first else None,
                                      opening_tricks=int(opening) if opening else DEFAULT_OPENING_TRICKS)
        return [Timed(one(soloist_kind if seat == s else defence_kind)) for seat in range(3)]

    def fresh_match(soloist_kind: str, defence_kind: str) -> dict[str, Any]:
        solver.clear()  # every match from an empty table: a later one would reuse an earlier one's searches
        return match(record, seats(soloist_kind, defence_kind))

    out["a"] = fresh_match("pimc", "pimc")
    for rest in rests:
        out[f"b_{rest}"] = fresh_match(rest, "pimc")
        out[f"c_{rest}"] = fresh_match("pimc", rest)
    out["cpu"] = time.process_time() - start
    return out


def fmt(m: float, se: float) -> str:
    return f"{m:+6.2f} ± {se:.2f}"


def rate(makes: list[bool]) -> str:
    lo, hi = wilson(sum(makes), len(makes))
    return f"{sum(makes) / len(makes):6.1%} [{lo:5.1%}, {hi:5.1%}]"


def summary(rows: list[dict[str, Any]], rests: Sequence[str]) -> dict[str, Any]:
    """The comparison over ``rows`` (one per deal)."""
    out: dict[str, Any] = {"deals": len(rows)}
    a = [r["a"] for r in rows]
    out["a"] = {"points": mean_se([x["points"] for x in a]), "p_make": sum(x["makes"] for x in a) / len(a),
                "p_make_95": wilson(sum(x["makes"] for x in a), len(a))}
    for rest in rests:
        b, c = [r[f"b_{rest}"] for r in rows], [r[f"c_{rest}"] for r in rows]
        out[rest] = {
            "soloist_gain": mean_se([y["points"] - x["points"] for x, y in zip(a, b)]),
            "defence_gain": mean_se([y["defence_points"] - x["defence_points"] for x, y in zip(a, c)]),
            # in units of the contract's value v (a made x1 contract is +2 units): every contract weighs alike
            "soloist_gain_units": mean_se([(y["points"] - x["points"]) / x["value"] for x, y in zip(a, b)]),
            "defence_gain_units": mean_se([(y["defence_points"] - x["defence_points"]) / x["value"] for x, y in zip(a, c)]),
            "soloist_thirds_gain": mean_se([y["thirds"] - x["thirds"] for x, y in zip(a, b)]),
            "defence_thirds_gain": mean_se([x["thirds"] - y["thirds"] for x, y in zip(a, c)]),
            "b_p_make": sum(y["makes"] for y in b) / len(b), "b_p_make_95": wilson(sum(y["makes"] for y in b), len(b)),
            "c_p_make": sum(y["makes"] for y in c) / len(c), "c_p_make_95": wilson(sum(y["makes"] for y in c), len(c)),
            "b_make_gain": mean_se([int(y["makes"]) - int(x["makes"]) for x, y in zip(a, b)]),
            "c_make_gain": mean_se([int(y["makes"]) - int(x["makes"]) for x, y in zip(a, c)]),
            "b_differs": sum(y["points"] != x["points"] for x, y in zip(a, b)),
            "c_differs": sum(y["points"] != x["points"] for x, y in zip(a, c)),
            "soloist_cpu": sum(y["soloist_cpu"] for y in b) / len(b),
            "soloist_cpu_decision": sum(y["soloist_cpu"] for y in b) / max(1, sum(y["soloist_decisions"] for y in b)),
            "defence_cpu": sum(y["defence_cpu"] for y in c) / len(c),
            "defence_cpu_decision": sum(y["defence_cpu"] for y in c) / max(1, sum(y["defence_decisions"] for y in c)),
        }
    for kind, side, matches in [("pimc", "soloist", a), ("pimc", "defence", a)] + [
            (rest, side, [r[f"{m}_{rest}"] for r in rows]) for rest in rests for side, m in (("soloist", "b"), ("defence", "c"))]:
        times = [t for x in matches for _, t in x.get(f"{side}_times", [])]
        first = [t for x in matches for n, t in x.get(f"{side}_times", []) if n == 0]
        if times:
            out.setdefault("decision_cpu", {}).setdefault(kind, {})[side] = {
                "decisions": len(times), "median": percentile(times, 0.5), "p90": percentile(times, 0.9), "max": max(times),
                "first_lead_median": percentile(first, 0.5) if first else None, "first_leads": len(first),
            }
    out["pimc"] = {
        "soloist_cpu": sum(x["soloist_cpu"] for x in a) / len(a),
        "soloist_cpu_decision": sum(x["soloist_cpu"] for x in a) / max(1, sum(x["soloist_decisions"] for x in a)),
        "defence_cpu": sum(x["defence_cpu"] for x in a) / len(a),
        "defence_cpu_decision": sum(x["defence_cpu"] for x in a) / max(1, sum(x["defence_decisions"] for x in a)),
    }
    return out


def report(rows: list[dict[str, Any]], rests: Sequence[str]) -> dict[str, Any]:
    s = summary(rows, rests)
    n = s["deals"]
    print(f"\n{n} deals; (a) PIMC on every seat: soloist {fmt(*s['a']['points'])} game points a deal, "
          f"P(make) {rate([r['a']['makes'] for r in rows])}")
    print(f"{'player':<12} {'soloist (b)-(a)':<17} {'defence (c)-(a)':<17} {'sol. units':<15} {'def. units':<15} "
          f"{'P(make) (b)':<24} {'P(make) (c)':<24} {'thirds sol.':<15} {'thirds def.':<15} differ b/c")
    for rest in rests:
        r = s[rest]
        print(f"{rest:<12} {fmt(*r['soloist_gain']):<17} {fmt(*r['defence_gain']):<17} "
              f"{fmt(*r['soloist_gain_units']):<15} {fmt(*r['defence_gain_units']):<15} "
              f"{rate([x[f'b_{rest}']['makes'] for x in rows]):<24} {rate([x[f'c_{rest}']['makes'] for x in rows]):<24} "
              f"{fmt(*r['soloist_thirds_gain']):<15} {fmt(*r['defence_thirds_gain']):<15} {r['b_differs']}/{r['c_differs']}")
    print("\nCPU seconds a deal (a decision), this process's time around each decision:")
    p = s["pimc"]
    print(f"  pimc         soloist {p['soloist_cpu']:6.2f} ({p['soloist_cpu_decision']:.3f})   "
          f"both defenders {p['defence_cpu']:6.2f} ({p['defence_cpu_decision']:.3f})")
    for rest in rests:
        r = s[rest]
        print(f"  {rest:<12} soloist {r['soloist_cpu']:6.2f} ({r['soloist_cpu_decision']:.3f})   "
              f"both defenders {r['defence_cpu']:6.2f} ({r['defence_cpu_decision']:.3f})")
    print("\nCPU seconds a decision (with a choice; this process): median, 90th percentile, slowest; first lead median (n):")
    for kind, sides in s.get("decision_cpu", {}).items():
        for side, t in sides.items():
            first = f"{t['first_lead_median']:.3f} ({t['first_leads']})" if t["first_lead_median"] is not None else "-"
            print(f"  {kind:<12} {side:<8} {t['median']:.3f} {t['p90']:.3f} {t['max']:.2f}  first lead {first}  "
                  f"[{t['decisions']} decisions]")
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by[row["contract"]].append(row)
    print("\nby contract (game points, mean ± SE, paired):")
    per_contract = {}
    for c in CONTRACTS:
        if c in by:
            part = summary(by[c], rests)
            per_contract[c] = part
            cells = "  ".join(f"{rest}: sol {fmt(*part[rest]['soloist_gain'])} def {fmt(*part[rest]['defence_gain'])}"
                              for rest in rests)
            print(f"  {c:<10} {len(by[c]):>4}  {cells}")
    s["by_contract"] = per_contract
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=210, help="deals played (each in 1 + 2 x rests matches)")
    parser.add_argument("--seed", type=int, default=1, help="the advisor's seed the deals are sampled with")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (deals in parallel)")
    parser.add_argument("--samples", type=int, default=10, help="layouts a decision, for both kinds of player")
    parser.add_argument("--rest", default="levels,heuristic",
                        help=f"the contract players to measure, comma-separated: a rule for a settled contract "
                             f"({', '.join(RESTS)}), optionally with the ladder's step (levels:0: the multiplier's "
                             f"goals only; default step {DEFAULT_STEP}), its own layouts a decision (levels:3:20), "
                             f"those of the opening tricks (levels:0:8:4), and how many tricks open "
                             f"(levels:0:8:4:2; default {DEFAULT_OPENING_TRICKS})")
    parser.add_argument("--first", type=int, default=0, help="start at this deal (deals --first .. --first + --deals - 1)")
    parser.add_argument("--json", help="write every deal's results and the summary here")
    args = parser.parse_args()
    rests = tuple(r.strip() for r in args.rest.split(","))
    if any(r.split(":")[0] not in RESTS or len(r.split(":")) > 5 or not all(x.isdigit() for x in r.split(":")[1:] if x)
           for r in rests):
        parser.error(f"--rest: use {', '.join(RESTS)}, each with an optional :STEP, :LAYOUTS, :FIRST and :OPENING")
    tasks = [(d, args.seed, args.samples, rests) for d in range(args.first, args.first + args.deals)]
    rows: list[dict[str, Any]] = []
    wall = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play_deal, t) for t in tasks]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            cells = " ".join(f"{k}:{row[k]['points']:+d}" for k in row if k in ("a",) or k[:2] in ("b_", "c_"))
            print(f"[{len(rows):>4}/{len(tasks)}] deal {row['deal']:>4} {row['contract']:<9} {row['kind']:<10} "
                  f"cpu {row['cpu']:6.1f}s  {cells}", flush=True)
    rows.sort(key=lambda r: r["deal"])
    print(f"\n{len(rows)} deals, seed {args.seed}, {args.samples} layouts a decision; "
          f"CPU {sum(r['cpu'] for r in rows):.0f} s in the workers, wall {time.perf_counter() - wall:.0f} s "
          f"on --jobs {args.jobs}", file=sys.stderr)
    s = report(rows, rests)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "summary": s, "deals": rows}, f, indent=1)


if __name__ == "__main__":
    main()
