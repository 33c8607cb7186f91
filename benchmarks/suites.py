"""The benchmark suites: see :mod:`calasolve.search.suites` (shared with ``calasolve bench``), and the
environment's random-play workload."""

import numpy as np

from calasolve.env.game import GameState
from calasolve.search.suites import Deal, endings_suite, random_suite, strong_suite

__all__ = ["Deal", "endings_suite", "random_games", "random_suite", "strong_suite"]


def random_games(count: int, seed: int) -> int:
    """``count`` deals of the bare state machine with uniformly random actions; the decisions made."""
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in range(count):
        state = GameState()
        while not state.is_terminal:
            if state.is_chance:
                state.sample_chance(rng)
                continue
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps
