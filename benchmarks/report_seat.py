"""The advice from a seat's view (issue #59): the inference from the calls, and the time per decision.

    python3 benchmarks/report_seat.py inference [--deals 2000] [--first 300000] [--layouts 50] [--softness 1.0] [--jobs 2]
    python3 benchmarks/report_seat.py speed [--games 4] [--first 310000] [--jobs 2] [--every 3]

``inference``: self-play deals (learned agents bidding by the agents' rule, :func:`calasolve.env.agents.rule_bid`;
the bidding model is that rule softened and was fitted to none of them), one seat per deal in turn, at the first
lead.  For every card the seat has not seen, the chance of each place it may be (the other two seats, the monte)
from ``--layouts`` deals of the bidding model's posterior (:func:`calasolve.seat.layouts.posterior_layouts`, what
the advice plays on), and from as many uniform deals consistent with the view (:func:`calasolve.seat.layouts.view_layouts`),
weighted by each other method: none (uniform), the bidding model's chance of the calls heard, and that times the chance the
``learned`` soloist policy gives the discards a defender did not see (:func:`calasolve.seat.layouts.exchange_chance`,
at temperature 1 and 2); each smoothed by half a deal.  The mean log-loss (natural log) of the true place, and the
calibration of P(seat X holds card c) in 10 bins.

``speed``: every decision of self-play games (calls, declarations, exchanges; every ``--every``-th card) advised
with the defaults: the median and largest wall time per kind of decision.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line runs: the workers fill the cores

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from calasolve.env.agents import LearnedAgent
from calasolve.env.game import GameState
from calasolve.game.cards import cards_of
from calasolve.game.sampling import rng_for
from calasolve.seat.advice import advise_view
from calasolve.seat.bidding import BiddingModel
from calasolve.seat.layouts import exchange_chance, game_state, posterior_layouts, view_layouts
from calasolve.seat.views import state_view
from calasolve.types.view import first_lead_places

PLACES = 4  # seats 0-2 and the monte


def _first_lead(d: int, first: int) -> GameState | None:
    """Deal ``first + d`` bid, exchanged and brought to its first lead by learned agents (None: all passed)."""
    agent = LearnedAgent(seed=d)
    g = GameState()
    g.sample_chance(rng_for(first + d, 0))
    while g.phase not in ("play", "over"):
        if g.is_chance:
            g.sample_chance(rng_for(first + d, 1))
        else:
            g.apply(agent.act(g))
    return g if g.phase == "play" else None


def _where(g: GameState) -> list[int]:
    """Each card's place at the first lead."""
    assert g.play is not None
    out = [3] * 40
    for s in range(3):
        for c in cards_of(g.play.hands[s]):
            out[c] = s
    return out


def _weighted_shares(games: list[GameState], weights: np.ndarray, seat: int, unseen: list[int]) -> np.ndarray:
    counts = np.full((len(unseen), PLACES), 0.5 / PLACES * 2 * weights.mean())  # half a deal spread over the places
    for h, w in zip(games, weights):
        where = _where(h)
        for i, c in enumerate(unseen):
            counts[i, where[c]] += w
    counts[:, seat] = 0
    return counts / counts.sum(axis=1, keepdims=True)


#: the methods compared: the posterior's deals (the advice's), and the weights each other gives a uniform layout
METHODS = ("uniform", "posterior", "calls", "calls+exchange", "calls+exchange/2")


def _inference_deal(task: tuple[int, int, int, float]) -> dict[str, Any] | None:
    d, first, layouts, softness = task
    g = _first_lead(d, first)
    if g is None:
        return None
    seat = d % 3
    view = state_view(g, seat)
    truth = _where(g)
    model = BiddingModel(softness=softness)
    uniform = view_layouts(view, layouts, seed=d, model=model)
    games = [game_state(view, x) for x in uniform]
    calls = np.array([x.weight for x in uniform])
    exchange = [np.array([exchange_chance(view, h.dealt, h.monte, h.exchange(), t) for h in games]) for t in (1.0, 2.0)]
    weights = {"uniform": np.ones(len(games)), "calls": calls, "calls+exchange": calls * exchange[0],
               "calls+exchange/2": calls * exchange[1]}
    places = first_lead_places(view)
    assert places is not None
    unseen = sorted(places[2])  # the cards the seat cannot place
    out: dict[str, Any] = {"contract": g.contract, "soloist": g.soloist == seat}
    post, proposed, resampled = posterior_layouts(view, layouts, seed=d + 10**6, model=model)
    out.update(proposed=proposed, resampled=resampled)
    p = _weighted_shares([game_state(view, x) for x in post], np.ones(len(post)), seat, unseen)
    out["posterior"] = [-math.log(p[i, truth[c]]) for i, c in enumerate(unseen)]
    out["posterior_pairs"] = [(float(p[i, x]), truth[c] == x) for i, c in enumerate(unseen) for x in range(3) if x != seat]
    out["posterior_ess"] = float(layouts)
    for name in ("uniform", *METHODS[2:]):
        w = weights[name]
        out[name + "_ess"] = float(w.sum() ** 2 / (w ** 2).sum()) if w.sum() > 0 else 0.0
        p = _weighted_shares(games, w if w.sum() > 0 else np.ones(len(games)), seat, unseen)
        out[name] = [-math.log(p[i, truth[c]]) for i, c in enumerate(unseen)]
        out[name + "_pairs"] = [(float(p[i, x]), truth[c] == x) for i, c in enumerate(unseen) for x in range(3) if x != seat]
    return out


def inference(args: argparse.Namespace) -> None:
    tasks = [(d, args.first, args.layouts, args.softness) for d in range(args.deals)]
    start = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [r for r in pool.map(_inference_deal, tasks, chunksize=8) if r is not None]
    print(f"{len(rows)} deals played to the first lead (of {args.deals}; the rest passed out), "
          f"{args.layouts} uniform layouts a deal, weighted by each method; softness {args.softness}, "
          f"{time.time() - start:.0f} s")
    print("contracts: " + ", ".join(f"{c} {sum(r['contract'] == c for r in rows)}" for c in
                                    ("chiamo", "solo", "solissimo", "dividete", "scegliete")))
    print(f"posterior: {np.mean([r['proposed'] for r in rows]) / args.layouts:.1f} drawn per deal kept; "
          f"{sum(r['resampled'] > 0 for r in rows)} views resampled by weight")
    for name in METHODS:
        losses = [x for r in rows for x in r[name]]
        diff = [np.mean(r["uniform"]) - np.mean(r[name]) for r in rows]
        ess = np.median([r[name + "_ess"] for r in rows])
        print(f"{name:<17}: mean log-loss {np.mean(losses):.4f} over {len(losses)} unseen cards; better than uniform "
              f"by {np.mean(diff):+.4f} ± {1.96 * np.std(diff) / math.sqrt(len(diff)):.4f} a deal; median ESS {ess:.0f}")
        defenders = [np.mean(r["uniform"]) - np.mean(r[name]) for r in rows if not r["soloist"]
                     and r["contract"] in ("chiamo", "solo")]
        if defenders:
            print(f"{'':<19}chiamo and solo defenders ({len(defenders)}): {np.mean(defenders):+.4f} ± "
                  f"{1.96 * np.std(defenders) / math.sqrt(len(defenders)):.4f}")
    for name in METHODS:
        pairs = [x for r in rows for x in r[name + "_pairs"]]
        print(f"\ncalibration, {name}: P(seat holds card) bin, predicted mean, observed share, pairs")
        p = np.array([x for x, _ in pairs])
        y = np.array([float(h) for _, h in pairs])
        for b in range(10):
            inside = (p >= b / 10) & ((p < (b + 1) / 10) if b < 9 else (p <= 1))
            if inside.any():
                print(f"  {b / 10:.1f}-{(b + 1) / 10:.1f}  {p[inside].mean():.3f}  {y[inside].mean():.3f}  {int(inside.sum())}")


def speed(args: argparse.Namespace) -> None:
    times: dict[str, list[float]] = {}
    for d in range(args.games):
        agent = LearnedAgent(seed=d)
        g = GameState()
        g.sample_chance(rng_for(args.first + d, 0))
        cards = 0
        while not g.is_terminal:
            if g.is_chance:
                g.sample_chance(rng_for(args.first + d, 1))
                continue
            seat = g.current_player
            mid = g.phase == "discard" and g.discards[seat]
            if not mid and (g.phase != "play" or cards % args.every == 0):
                t = time.perf_counter()
                advice = advise_view(state_view(g, seat), seed=d, jobs=args.jobs)
                times.setdefault(advice.decision, []).append(time.perf_counter() - t)
            cards += g.phase == "play"
            g.apply(agent.act(g))
    for kind, ts in times.items():
        print(f"{kind:<12} {len(ts):>4} decisions: median {statistics.median(ts):.2f} s, largest {max(ts):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("inference")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--first", type=int, default=300000)
    p.add_argument("--layouts", type=int, default=50)
    p.add_argument("--softness", type=float, default=1.0)
    p.add_argument("--jobs", type=int, default=2)
    p.set_defaults(run=inference)
    p = sub.add_parser("speed")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--first", type=int, default=310000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--every", type=int, default=3)
    p.set_defaults(run=speed)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
