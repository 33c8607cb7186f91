"""The advisor's sequential sampling on synthetic streams with known means.

The intervals reported after stopping must cover the truth (the stopping
rule looks at the data after every round), and the race must stop for the
reasons it says.
"""

from __future__ import annotations

import numpy as np
import pytest

from calasolve.advice.confseq import bet_interval, interval, lower_unit, upper_unit
from calasolve.advice.outcome import SampleOutcome
from calasolve.advice.race import CAP, ELIMINATED, FIXED, SETTLED, Race, Track

ROUND = 32


class Synthetic:
    """A contract whose samples are drawn from a known distribution of (makes, game points)."""

    def __init__(self, name: str, unit: int, p_make: float, p_double: float = 0.0) -> None:
        self.name, self.unit, self.p_make, self.p_double = name, unit, p_make, p_double
        # made: +u, or +2u with p_double; failed: -u, or -2u with p_double
        self.mean_payoff = unit * (2 * p_make - 1) * (1 + p_double)

    def draw(self, rng: np.random.Generator) -> SampleOutcome:
        makes = bool(rng.random() < self.p_make)
        m = 2 if rng.random() < self.p_double else 1
        points = self.unit * m * (1 if makes else -1)
        return SampleOutcome(makes=makes, payoff_low=points, payoff_high=points)


def run(contracts: list[Synthetic], rng: np.random.Generator, cap: int, precision: float = 0.05) -> Race:
    race = Race([Track(c.name, -3 * c.unit, 3 * c.unit) for c in contracts], cap=cap, precision=precision)
    n = 0
    while not race.done:
        n = min(n + ROUND, cap)
        for t, c in zip(race.tracks, contracts):
            if t.active:
                while t.n < n:
                    t.add(c.draw(rng))
        race.eliminate()
        race.settle(n)
    return race


def test_confidence_sequence_covers_a_bernoulli_mean_at_every_look() -> None:
    rng = np.random.default_rng(1)
    misses = 0
    for _ in range(500):
        x = (rng.random(320) < 0.3).astype(float)
        # time-uniform: every look inside, in at least 95% of the runs
        misses += any(not lower_unit(x[:n], 0.025, 320) <= 0.3 <= upper_unit(x[:n], 0.025, 320)
                      for n in range(32, 321, 32))
    assert misses / 500 <= 0.05


def test_intervals_after_stopping_cover_the_truth_in_2000_races() -> None:
    rng = np.random.default_rng(2026)
    races = 2000
    covered = {"p": 0, "points": 0, "all": 0}
    total = 0
    for k in range(races):
        # contracts close to each other and to the pass line, so that the stopping
        # times vary; payoff-like streams (x1 or x2, made or failed)
        base = rng.uniform(0.2, 0.8)
        contracts = [
            Synthetic("solo", 4, base, 0.1),
            Synthetic("chiamo", 2, min(1.0, base + rng.uniform(-0.1, 0.1)), 0.05),
        ]
        race = run(contracts, rng, cap=128)
        every = True
        for t, c in zip(race.tracks, contracts):
            lo, hi = t.p_make_interval()
            plo, phi = t.payoff_interval()
            p_ok = lo <= c.p_make <= hi
            m_ok = plo <= c.mean_payoff <= phi
            covered["p"] += p_ok
            covered["points"] += m_ok
            every &= p_ok and m_ok
            total += 1
        covered["all"] += every
    assert covered["p"] / total >= 0.94, covered
    assert covered["points"] / total >= 0.94, covered
    assert covered["all"] / races >= 0.94, covered


def test_a_hopeless_contract_is_eliminated_below_the_pass_line() -> None:
    race = run([Synthetic("solo", 4, 0.9), Synthetic("solissimo", 8, 0.0)], np.random.default_rng(3), cap=400)
    solo, solissimo = race.tracks
    assert solissimo.stopped == ELIMINATED and solissimo.below in ("pass", "solo") and solissimo.n <= 64
    assert solo.stopped in (SETTLED, CAP)
    assert race.result() == ("solo", ())


def test_a_clear_winner_is_settled_once_precise() -> None:
    race = run([Synthetic("solo", 4, 0.97)], np.random.default_rng(4), cap=2000, precision=0.05)
    (solo,) = race.tracks
    assert solo.stopped == SETTLED and solo.n < 2000
    lo, hi = solo.p_make_interval()
    assert (hi - lo) / 2 <= 0.05


def test_equal_contracts_are_a_toss_up_at_the_cap() -> None:
    race = run([Synthetic("solo", 4, 0.8), Synthetic("chiamo", 4, 0.8)], np.random.default_rng(5), cap=96)
    assert [t.stopped for t in race.tracks] == [CAP, CAP]
    best, ties = race.result()
    assert best in ("solo", "chiamo") and set(ties) - {"pass"} == {"solo", "chiamo"} - {best}


def test_all_below_pass_is_a_pass() -> None:
    race = run([Synthetic("solo", 4, 0.05), Synthetic("chiamo", 2, 0.1)], np.random.default_rng(6), cap=400)
    assert all(t.stopped == ELIMINATED and t.below == "pass" for t in race.tracks)
    assert race.result() == ("pass", ())


def test_fixed_samples_every_contract_to_the_cap() -> None:
    contracts = [Synthetic("solo", 4, 0.9), Synthetic("solissimo", 8, 0.0)]
    rng = np.random.default_rng(7)
    race = Race([Track(c.name, -3 * c.unit, 3 * c.unit) for c in contracts], cap=96, precision=0.05, fixed=True)
    n = 0
    while not race.done:
        n += ROUND
        for t, c in zip(race.tracks, contracts):
            while t.n < n:
                t.add(c.draw(rng))
        race.eliminate()
        race.settle(n)
    assert [(t.n, t.stopped) for t in race.tracks] == [(96, FIXED), (96, FIXED)]
    assert race.tracks[1].below is not None  # marked, but sampled on


def test_interval_scaling_and_the_open_samples() -> None:
    lo, hi = interval([4.0] * 100, -12, 12)
    assert lo < 4 < hi and hi - lo < 6
    # a sample known only as [-12, -4] counts at its low end for the lower bound, its high end for the upper
    t = Track("solo", -12, 12)
    for _ in range(64):
        t.add(SampleOutcome(makes=False, payoff_low=-12, payoff_high=-4))
    plo, phi = t.payoff_interval()
    assert plo <= -12 + 1e-9 and -4 <= phi < 4
    assert t.mean_range() == (-12.0, -4.0)


@pytest.mark.parametrize("n", [1, 10, 100])
def test_bet_interval_is_an_interval_in_the_unit_range(n: int) -> None:
    x = np.random.default_rng(n).random(n)
    lo, hi = bet_interval(x)
    assert 0 <= lo <= x.mean() <= hi <= 1


def test_bets_sized_in_advance_make_the_bound_monotone_in_the_values() -> None:
    # bets fixed from the first records: raising values (a refinement) can only raise the lower bound
    rng = np.random.default_rng(11)
    for _ in range(50):
        first = rng.random(96) * (rng.random(96) < 0.6)
        refined = np.where(rng.random(96) < 0.3, np.maximum(first, rng.random(96)), first)
        assert lower_unit(refined, 0.05, 96, sizing=first) >= lower_unit(first, 0.05, 96) - 1e-12
        assert upper_unit(first - first * 0.5, 0.05, 96, sizing=first) <= upper_unit(first, 0.05, 96) + 1e-12


def test_intervals_cover_the_truth_when_open_samples_are_refined_after_the_round() -> None:
    # each sample first known only as [-8, +4] (made unknown) or exact; after each round the
    # samples of a contract still leading are refined, a choice that looks at the round's data
    rng = np.random.default_rng(2027)
    races, total, covered = 600, 0, 0
    for _ in range(races):
        p = rng.uniform(0.3, 0.7)
        truth = 4 * (2 * p - 1)
        race = Race([Track("solo", -8, 8), Track("chiamo", -8, 8)], cap=128, precision=0.05)
        hidden: list[list[int]] = [[], []]
        n = 0
        while not race.done:
            n = min(n + ROUND, 128)
            for k, t in enumerate(race.tracks):
                while t.active and t.n < n:
                    points = 4 if rng.random() < p else -4
                    hidden[k].append(points)
                    opened = rng.random() < 0.4
                    t.add(SampleOutcome(makes=points > 0, payoff_low=-8 if opened else points,
                                  payoff_high=4 if opened else points))
            race.eliminate()
            for k, t in enumerate(race.tracks):
                if race.needs_refining(t):
                    for i, o in enumerate(t.outcomes):
                        if not o.settled:
                            t.replace(i, SampleOutcome(makes=o.makes, payoff_low=hidden[k][i], payoff_high=hidden[k][i]))
            race.eliminate()
            race.settle(n)
        for t in race.tracks:
            lo, hi = t.payoff_interval()
            covered += lo <= truth <= hi
            total += 1
    assert covered / total >= 0.94
