"""Steps per second of random play, and the arena's deals per second (docs/env.md#speed).

Random play: uniformly random legal actions on the bare state machine (the environment's
overhead), through PettingZoo (an observation tensor and a mask at every step, as a learner
sees them) and through pyspiel (its state API over the same machine).  The arena: duplicate
deals (six games each) with ``--jobs`` worker processes, heuristic against random and PIMC
against heuristic.  Prints CPU and wall time and the load average: the cores are shared.

    python3 benchmarks/report_env.py                        # 2000 random deals; arena 40 and 4 deals
    python3 benchmarks/report_env.py --games 500 --arena-deals 20 --pimc-deals 2 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_games  # noqa: E402

from calasolve.env.arena import arena, random_deals  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402


def core(games: int) -> int:
    return random_games(games, 1)


def pettingzoo(games: int) -> int:
    from calasolve.env import pettingzoo as pz

    env, rng, steps = pz.env(), np.random.default_rng(2), 0
    for seed in range(games):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def openspiel(games: int) -> int:
    import pyspiel

    import calasolve.env.openspiel  # noqa: F401  (registers the game)

    game, rng, steps = pyspiel.load_game("python_calabresella"), np.random.default_rng(3), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="random deals per way of playing")
    parser.add_argument("--arena-deals", type=int, default=40, help="duplicate deals, heuristic against random")
    parser.add_argument("--pimc-deals", type=int, default=4, help="duplicate deals, PIMC (10 layouts) against heuristic")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, fn in (("state machine", core), ("PettingZoo", pettingzoo), ("pyspiel", openspiel)):
        steps, wall, cpu = timed(partial(fn, args.games))
        print(f"random play, {name}: {steps} decisions in {cpu:.2f} s CPU ({wall:.2f} s wall): "
              f"{steps / cpu:,.0f} steps/s, {args.games / cpu:,.0f} deals/s")
    with worker_pool(args.jobs) as pool:
        for agents, n in ((("heuristic", "random"), args.arena_deals), (("pimc:samples=10", "heuristic"), args.pimc_deals)):
            dealt = random_deals(n, 1)
            cpu0 = time.process_time()
            _, wall, _ = timed(lambda: list(arena(dealt, agents, seed=1, map=partial(pool.map, chunksize=1))))
            print(f"arena {' vs '.join(agents)}, {n} deals x 6 games, {args.jobs} workers: {wall:.1f} s wall, "
                  f"{n / wall:.2f} deals/s (parent CPU {time.process_time() - cpu0:.1f} s)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
