"""The default advice's played intervals on the advise suite, and another method's on the same deals (issue #58).

    python3 benchmarks/report_intervals.py [--jobs 2] [--seed 1] [--hands 0-20] [--baseline OLD_PLAYED.py]
                                           [--json out.json]

Each suite hand's default advice (``calasolve.advise``) is run once; its race and
its deals played out are kept, and the played odds are made from them by
:func:`calasolve.advice.played.played_advice` and, with ``--baseline``, by the
``played_advice`` of another version of ``calasolve/advice/played.py`` (for
instance the one before issue #58: ``git show 4ca1bb2:src/calasolve/advice/played.py > old.py``),
so both methods judge the very same deals.  Reported per method: the played
P(make) interval's half-width on every contract and on the recommended one,
the game-points intervals of width zero, the point estimates on an edge of
their interval, and how many recommendations are a toss-up with every other
choice, with some, or clear.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from types import ModuleType
from typing import Any, Callable

from calasolve.advice import advisor, played
from calasolve.game.state import CONTRACTS
from calasolve.search.suites import ADVISE_HANDS
from calasolve.types.advice import PlayedAdvice
from report_played import hand_list  # benchmarks/ is the script's own folder


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("calasolve.advice._baseline_played", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "calasolve.advice"
    spec.loader.exec_module(module)
    return module


def summary(advices: list[PlayedAdvice]) -> dict[str, Any]:
    half, best_half, zero, edge, every, some, clear = [], [], 0, 0, 0, 0, 0
    for a in advices:
        for e in a.estimates:
            half.append((e.p_make_95[1] - e.p_make_95[0]) / 2)
            zero += e.payoff_95[1] - e.payoff_95[0] == 0
            edge += (e.p_make in e.p_make_95 and e.p_make_95 != (0.0, 1.0) and 0 < e.p_make < 1) or (
                e.mean_payoff in e.payoff_95 and e.payoff_95[0] != e.payoff_95[1])
            if e.contract == a.recommendation:
                best_half.append((e.p_make_95[1] - e.p_make_95[0]) / 2)
        others = len(CONTRACTS) + 1 - 1  # every contract and pass, less the recommendation
        ties = len(a.toss_up)
        every += ties == others
        some += 0 < ties < others
        clear += ties == 0
    return {
        "p_make_half_width_mean": statistics.mean(half), "recommended_half_width_mean": (
            statistics.mean(best_half) if best_half else None),
        "recommended_half_width_max": max(best_half) if best_half else None, "zero_width_points": zero,
        "estimates_on_an_edge": edge, "toss_up_with_every_choice": every, "toss_up_with_some": some, "clear": clear,
        "recommendations": [a.recommendation for a in advices],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", default=f"0-{len(ADVISE_HANDS) - 1}")
    ap.add_argument("--baseline", default=None, help="another played.py whose played_advice to compare")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    methods: dict[str, Callable[..., PlayedAdvice]] = {"current": played.played_advice}
    if args.baseline:
        methods["baseline"] = load(args.baseline).played_advice
    results: dict[str, list[PlayedAdvice]] = {name: [] for name in methods}
    kept: list[Any] = []

    def capture(race: Any, deals: Any, settings: Any) -> PlayedAdvice:
        kept.append((race, deals, settings))
        return played.played_advice(race, deals, settings)

    advisor.played_advice = capture  # type: ignore[assignment]
    for k in hand_list(args.hands):
        h = ADVISE_HANDS[k]
        kept.clear()
        advisor.advise(h.hand, seat=h.seat, seed=args.seed, jobs=args.jobs)
        race, deals, settings = kept[0]
        line = [f"{k:2} {h.kind:10} {h.hand:18}"]
        for name, method in methods.items():
            a = method(race, deals, settings)
            results[name].append(a)
            best = next((e for e in a.estimates if e.contract == a.recommendation), None)
            width = f"±{(best.p_make_95[1] - best.p_make_95[0]) / 2:.0%}" if best else "   "
            line.append(f"{name} {a.recommendation:>9} {width:>4} ties {len(a.toss_up)}")
        print("  ".join(line), flush=True)
    out = {name: summary(advices) for name, advices in results.items()}
    for name, s in out.items():
        print(f"\n{name}: P(make) half-width {s['p_make_half_width_mean']:.3f} on average, "
              f"{s['recommended_half_width_mean']:.3f} on the recommended contract (at most "
              f"{s['recommended_half_width_max']:.3f}); {s['zero_width_points']} game-points intervals of width zero; "
              f"{s['estimates_on_an_edge']} estimates on an edge; recommendations: {s['toss_up_with_every_choice']} a toss-up "
              f"with every choice, {s['toss_up_with_some']} with some, {s['clear']} clear")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    sys.exit(0)


if __name__ == "__main__":
    main()
