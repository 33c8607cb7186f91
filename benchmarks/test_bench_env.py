"""pytest-benchmark timings of the environment (docs/env.md#speed).

Run with ``python3 -m pytest benchmarks/test_bench_env.py --benchmark-enable -o addopts=""``.
Random play on the bare state machine (the environment's overhead: legal actions, apply,
chance), through PettingZoo with every observation made, and through pyspiel; the arena's
games with heuristic and with PIMC agents, one process.  Steps per second and deals per
second on 2 cores come from ``python3 benchmarks/report_env.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_games  # noqa: E402

from calasolve.env.arena import arena, random_deals  # noqa: E402

GAMES = 200


def test_bench_random_play(benchmark) -> None:  # type: ignore[no-untyped-def]
    steps = benchmark.pedantic(random_games, args=(GAMES, 1), rounds=3, iterations=1)
    benchmark.extra_info["steps"] = steps
    assert steps > 30 * GAMES


def test_bench_pettingzoo_random_play(benchmark) -> None:  # type: ignore[no-untyped-def]
    pz = pytest.importorskip("calasolve.env.pettingzoo", reason="needs calasolve[env]")

    def run() -> int:
        env, rng, steps = pz.env(), np.random.default_rng(2), 0
        for seed in range(50):
            env.reset(seed=seed)
            for _ in env.agent_iter():
                obs, _, done, cut, _ = env.last()
                env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps

    benchmark.extra_info["steps"] = benchmark.pedantic(run, rounds=3, iterations=1)


@pytest.mark.parametrize("agents,deals", [(("heuristic", "random"), 20), (("pimc:samples=10", "heuristic"), 1)])
def test_bench_arena(benchmark, agents: tuple[str, str], deals: int) -> None:  # type: ignore[no-untyped-def]
    dealt = random_deals(deals, 3)
    played = benchmark.pedantic(lambda: list(arena(dealt, agents, seed=3)), rounds=1, iterations=1)
    assert len(played) == deals
