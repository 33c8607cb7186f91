"""Invariants of the C core on full 12-trick deals (too big for the reference).

* the value is the max (soloist to move) / min (defender to move) of the
  card values, and the reported line replays to the value;
* every configuration answers the same: table off (on shorter endings,
  and on the full deals in the slow run), a tiny table under heavy
  replacement, each ablation flag;
* renaming the suits or rotating the seats does not change the answers;
* a solver reused across many positions keeps answering right.
"""

from __future__ import annotations

import random

import pytest

from calasolve.search._core import Solver

from core_helpers import legal, permute_suits, play, random_deal, random_ending, replay, rotate_seats, to_move, truncate

SEED = 20240611
N_DEALS = 4


def _deals():
    rng = random.Random(SEED)
    return [random_deal(rng, strong=i % 2 == 0) for i in range(N_DEALS)]


DEALS = _deals()


@pytest.fixture(scope="module")
def solver():
    return Solver()


@pytest.fixture(scope="module")
def answers(solver):
    return [solver.analyse(*pos) for pos in DEALS]


@pytest.mark.parametrize("i", range(N_DEALS))
def test_value_is_best_card_and_line_replays(solver, answers, i):
    pos = DEALS[i]
    value, cards, line = answers[i]
    assert set(cards) == set(legal(pos))
    best = max(cards.values()) if to_move(pos) == pos[3] else min(cards.values())
    assert value == best
    assert solver.value(*pos) == value
    assert solver.card_values(*pos) == cards
    assert replay(pos, line) == value
    assert replay(pos, solver.line(*pos)) == value
    assert len(line) == 36
    assert solver.reaches(*pos, value) and not solver.reaches(*pos, value + 1)
    assert solver.reaches(*pos, 0) and not solver.reaches(*pos, 36)


@pytest.mark.parametrize("i", range(N_DEALS))
def test_line_positions_stay_consistent(solver, answers, i):
    """Along the optimal line, each later position's value plus the thirds
    already won equals the deal's value."""
    pos = DEALS[i]
    value, _, line = answers[i]
    for k in (3, 10, 17, 25, 31):
        later, won = truncate(pos, line, k)
        assert won + solver.value(*later) == value


@pytest.mark.parametrize(
    "flags",
    [
        {"tt_mb": 1},
        {"equivalence": False},
        {"canonical_suits": False},
        {"ordering": False},
    ],
    ids=["tiny-table", "no-equivalence", "no-canonical", "no-ordering"],
)
def test_configurations_agree_on_full_deals(answers, flags):
    s = Solver(**flags)
    for pos, (value, cards, _) in zip(DEALS[:3], answers[:3]):
        assert s.value(*pos) == value
    pos, (value, cards, _) = DEALS[0], answers[0]
    assert s.card_values(*pos) == cards


def test_table_off_agrees_on_long_endings():
    rng = random.Random(99)
    on, off = Solver(tt_mb=16), Solver(tt=False)
    for k in (6, 7, 8, 8):
        pos = random_ending(rng, k, played=rng.randrange(3))
        assert off.value(*pos) == on.value(*pos)
        assert off.card_values(*pos) == on.card_values(*pos)


@pytest.mark.slow
def test_table_off_agrees_on_full_deals(answers):
    """The same values with no table at all, on the four full deals (about
    40 s: 0.5 to 18 s each without the table)."""
    off = Solver(tt=False)
    for pos, (value, _, _) in zip(DEALS, answers):
        assert off.value(*pos) == value
    pos, (_, cards, _) = DEALS[1], answers[1]
    assert off.card_values(*pos) == cards


def test_tiny_table_heavy_replacement():
    """A 1 MiB table (65,536 entries) replaced over and over across deals
    keeps giving the answers of a big one."""
    tiny, big = Solver(tt_mb=1), Solver(tt_mb=32)
    rng = random.Random(5)
    for _ in range(6):
        pos = random_ending(rng, 9, played=rng.randrange(3))
        assert tiny.value(*pos) == big.value(*pos)
    st = tiny.stats()
    assert st["tt_used"] <= st["tt_entries"] == 65536


@pytest.mark.parametrize("i", range(2))
def test_suit_permutation_and_seat_rotation(answers, i):
    pos = DEALS[i]
    value, cards, _ = answers[i]
    s = Solver(tt_mb=16)
    perm = (2, 0, 3, 1)
    p2 = permute_suits(pos, perm)
    assert s.value(*p2) == value
    assert s.card_values(*p2) == {perm[c // 10] * 10 + c % 10: v for c, v in cards.items()}
    p3 = rotate_seats(pos, 1)
    assert s.value(*p3) == value
    assert s.card_values(*p3) == cards


def test_reused_solver_mid_trick_positions(solver, answers):
    """Mid-trick positions from the optimal line, asked in a scrambled order
    of a solver full of entries from other deals."""
    pos = DEALS[1]
    value, _, line = answers[1]
    rng = random.Random(3)
    ks = [1, 2, 4, 5, 13, 20, 28, 34]
    rng.shuffle(ks)
    fresh = Solver(tt_mb=8)
    for k in ks:
        later, won = truncate(pos, line, k)
        assert won + solver.value(*later) == value
        assert solver.card_values(*later) == fresh.card_values(*later)
        # the card of the line is among the best
        cv = solver.card_values(*later)
        nxt, g = play(later, line[k])
        assert cv[line[k]] == value - won
