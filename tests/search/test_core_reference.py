"""The C core against the pure-Python reference solver on random endings.

Every ending is checked on its value AND on the value of every legal card
of the player to move, with a solver that is reused (so its table carries
entries from earlier endings, which must stay valid) and a fresh one.
"""

from __future__ import annotations

import random

import pytest

from calasolve.search import reference
from calasolve.search._core import Solver

from core_helpers import legal, random_ending, replay

CHUNKS = 10
PER_CHUNK = 200  # 2,000 endings in the default run


def _endings(seed: int, count: int, max_tricks: int = 5):
    rng = random.Random(seed)
    for _ in range(count):
        tricks = rng.randint(1, max_tricks)
        played = rng.choice((0, 0, 0, 0, 1, 2))  # about a third mid-trick
        yield random_ending(rng, tricks, played)


@pytest.fixture(scope="module")
def shared_solver():
    return Solver(tt_mb=8)


def _check(solver: Solver, pos) -> None:
    reference.clear_cache()
    want = reference.value(*pos)
    want_cards = reference.card_values(*pos)
    assert solver.value(*pos) == want, pos
    got_cards = solver.card_values(*pos)
    assert got_cards == want_cards, pos
    assert set(got_cards) == set(legal(pos))
    assert solver.reaches(*pos, want) and not solver.reaches(*pos, want + 1), pos
    assert replay(pos, solver.line(*pos)) == want, pos


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_endings_match_reference(shared_solver, chunk):
    fresh = Solver(tt_mb=1)
    for i, pos in enumerate(_endings(1000 + chunk, PER_CHUNK)):
        _check(shared_solver if i % 2 else fresh, pos)


def test_analyse_matches_reference():
    solver = Solver(tt_mb=4)
    for pos in _endings(77, 150):
        reference.clear_cache()
        value, cards, line = solver.analyse(*pos)
        assert value == reference.value(*pos)
        assert cards == reference.card_values(*pos)
        assert replay(pos, line) == value


@pytest.mark.parametrize(
    "flags",
    [
        {"tt": False},
        {"equivalence": False},
        {"canonical_suits": False},
        {"ordering": False},
        {"tt": False, "equivalence": False, "canonical_suits": False, "ordering": False},
    ],
    ids=["no-tt", "no-equivalence", "no-canonical", "no-ordering", "nothing"],
)
def test_ablations_match_reference(flags):
    solver = Solver(tt_mb=2, **flags)
    for pos in _endings(4242, 120, max_tricks=4):
        reference.clear_cache()
        assert solver.value(*pos) == reference.value(*pos), pos
        assert solver.card_values(*pos) == reference.card_values(*pos), pos


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_many_more_endings(chunk):
    solver = Solver(tt_mb=16)
    for pos in _endings(50_000 + chunk, 1000, max_tricks=6 if chunk % 4 == 0 else 5):
        _check(solver, pos)
