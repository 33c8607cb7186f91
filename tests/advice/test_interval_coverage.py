"""An interval is a promise: every played interval covers its true value at least 95% of the time,
checked on outcomes drawn from known distributions (all equal, skewed, bimodal) for small and
large numbers of deals.  The draws are seeded, so each count is the same on every run."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pytest

from calasolve.advice.outcome import SampleOutcome
from calasolve.advice.playadvice import gap_of, side_estimate, toss_ups
from calasolve.advice.played import DIRECT_ALPHA, bounded_mean, gap_difference, paired_estimate
from calasolve.advice.race import Track
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.stats import clopper_pearson
from calasolve.types.playout import PlayEstimate, PlayedSample

SETTINGS = AdviceSettings(hand=0xFFF)
SIZES = (8, 32, 256)


def exact_binomial_coverage(p: float, n: int, alpha: float) -> float:
    """The exact probability that the Clopper-Pearson interval of k ~ Binomial(n, p) holds p."""
    total = 0.0
    for k in range(n + 1):
        lo, hi = clopper_pearson(k, n, alpha)
        if lo <= p <= hi:
            total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return total


@pytest.mark.parametrize("n", SIZES)
def test_clopper_pearson_covers_every_proportion(n: int) -> None:
    # Wilson's interval falls to 94.3% at p = 0.95, n = 8; the exact interval never below 95%
    for p in (0.0, 0.01, 0.05, 0.2, 0.5, 0.72, 0.9, 0.95, 0.99, 1.0):
        assert exact_binomial_coverage(p, n, 0.05) >= 0.95


#: Game points of a solissimo ([-24, 24]) from known distributions, and their true means.
POINTS: dict[str, tuple[Callable[[np.random.Generator, int], np.ndarray], float]] = {
    "all-equal": (lambda rng, n: np.full(n, 8.0), 8.0),
    "skewed": (lambda rng, n: np.where(rng.random(n) < 0.9, 8.0, -24.0), 0.9 * 8 - 0.1 * 24),
    "bimodal": (lambda rng, n: np.where(rng.random(n) < 0.5, 16.0, -16.0) + rng.integers(-1, 2, n) * 8, 0.0),
}


@pytest.mark.parametrize("name", sorted(POINTS))
@pytest.mark.parametrize("n", SIZES)
def test_the_bounded_mean_covers_its_mean(name: str, n: int) -> None:
    draw, truth = POINTS[name]
    rng = np.random.default_rng(n)
    reps = 2000
    covered = 0
    for _ in range(reps):
        lo, hi = bounded_mean(list(draw(rng, n)), -24, 24, 0.05)
        covered += lo <= truth <= hi
    assert covered / reps >= 0.95
    # eight equal outcomes do not make an interval of width zero
    lo, hi = bounded_mean([8.0] * 8, -24, 24, 0.05)
    assert hi - lo > 10


#: A joint model of one deal: P(make) double dummy, P(made in play | made dd), P(made in play | failed dd),
#: and the game points of a make and of a failure (each either of two levels, the second with chance ``big``).
MODELS = {
    "all-equal": (1.0, 1.0, 0.0, 0.0),
    "skewed": (0.95, 0.9, 0.2, 0.1),
    "bimodal": (0.5, 0.85, 0.15, 0.5),
}


def deals(rng: np.random.Generator, model: tuple[float, float, float, float], n: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    pd, q1, q0, big = model
    dd = rng.random(n) < pd
    play = np.where(dd, rng.random(n) < q1, rng.random(n) < q0)
    size = np.where(rng.random(n) < big, 12, 4)
    dd_points = np.where(dd, size, -size)
    play_points = np.where(play, size, -size)
    return dd, play, dd_points, play_points


def truth(model: tuple[float, float, float, float]) -> tuple[float, float]:
    pd, q1, q0, big = model
    p = pd * q1 + (1 - pd) * q0
    size = 12 * big + 4 * (1 - big)
    return p, (2 * p - 1) * size


def one_estimate(rng: np.random.Generator, model: tuple[float, float, float, float], m: int, n_dd: int) -> tuple[
        tuple[float, float], tuple[float, float], float, float]:
    dd, play, dd_points, play_points = deals(rng, model, max(m, n_dd))
    track = Track("solo", -12, 12, horizon=max(m, n_dd))
    for d, pts in zip(dd, dd_points):
        track.add(SampleOutcome(bool(d), int(pts), int(pts)))
    played = [PlayedSample(i, "solo", 20, bool(play[i]), int(play_points[i])) for i in range(m)]
    e = paired_estimate(track, played, SETTINGS)
    assert e.p_make_95[0] <= e.p_make <= e.p_make_95[1]
    assert e.payoff_95[0] <= e.mean_payoff <= e.payoff_95[1]
    return e.p_make_95, e.payoff_95, e.p_make, e.mean_payoff


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("m", SIZES)
def test_the_played_intervals_cover(name: str, m: int, request: pytest.FixtureRequest) -> None:
    model = MODELS[name]
    p, points = truth(model)
    rng = np.random.default_rng(1000 + m)
    reps = 2000 if request.config.getoption("-m") == "slow" else 300
    hits = np.zeros(2)
    for _ in range(reps):
        p_95, points_95, _, _ = one_estimate(rng, model, m, 64)
        hits += (p_95[0] <= p <= p_95[1], points_95[0] <= points <= points_95[1])
    assert (hits / reps >= 0.95).all(), hits / reps


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("m", SIZES)
def test_the_played_intervals_cover_over_thousands(name: str, m: int) -> None:
    model = MODELS[name]
    p, points = truth(model)
    rng = np.random.default_rng(2000 + m)
    reps = 3000
    hits = np.zeros(2)
    for _ in range(reps):
        p_95, points_95, _, _ = one_estimate(rng, model, m, 64)
        hits += (p_95[0] <= p <= p_95[1], points_95[0] <= points <= points_95[1])
    assert (hits / reps >= 0.95).all(), hits / reps


@pytest.mark.parametrize("m", SIZES)
def test_the_difference_of_two_contracts_covers(m: int) -> None:
    # chiamo (+-2/+-6) and solo (+-4/+-12) on the same deals: the true difference of their played means
    rng = np.random.default_rng(3000 + m)
    model = MODELS["bimodal"]
    p, _ = truth(model)
    diff = (2 * p - 1) * (0.5 * 6 + 0.5 * 2) - (2 * p - 1) * (0.5 * 12 + 0.5 * 4)
    reps, covered = 300, 0
    for _ in range(reps):
        dd, play, dd_points, play_points = deals(rng, model, max(m, 64))
        solo, chiamo = Track("solo", -12, 12, horizon=64), Track("chiamo", -6, 6, horizon=64)
        for d, pts in zip(dd, dd_points):
            solo.add(SampleOutcome(bool(d), int(pts), int(pts)))
            chiamo.add(SampleOutcome(bool(d), int(pts) // 2, int(pts) // 2))
        a = [PlayedSample(i, "chiamo", 20, bool(play[i]), int(play_points[i]) // 2) for i in range(m)]
        b = [PlayedSample(i, "solo", 20, bool(play[i]), int(play_points[i])) for i in range(m)]
        lo, hi = gap_difference(chiamo, a, solo, b)
        covered += lo <= diff <= hi
    assert covered / reps >= 0.95


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("m", SIZES)
def test_advise_plays_intervals_cover(name: str, m: int) -> None:
    """``advise --play pimc|both``: the gap's game points by the betting bounds (P(make) is Clopper-Pearson's,
    whose coverage is computed exactly above: a simulation would only add its own noise)."""
    model = MODELS[name]
    _, points = truth(model)
    _, dd_mean = truth((model[0], 1.0, 0.0, model[3]))
    rng = np.random.default_rng(4000 + m)
    reps, hits = 300, 0
    for _ in range(reps):
        dd, play, dd_points, play_points = deals(rng, model, m)
        samples = [PlayedSample(i, "solo", 20, bool(play[i]), int(play_points[i]), 20, bool(dd[i]),
                                int(dd_points[i]), int(dd_points[i])) for i in range(m)]
        side = side_estimate([s.makes for s in samples], [s.points for s in samples], [20] * m)
        gap = gap_of(samples, -12, 12)
        assert side.p_make_95 == clopper_pearson(side.makes, m)
        hits += gap.points_95[0] <= points - dd_mean <= gap.points_95[1]
    assert hits / reps >= 0.95, hits / reps


def test_the_toss_up_is_a_valid_paired_comparison() -> None:
    # solo pays 4 on every deal of 8: clearly above pass by its values, but 8 deals in [-12, 12] cannot say so
    samples = tuple(PlayedSample(i, "solo", 20, True, 4) for i in range(8))
    side = side_estimate([True] * 8, [4] * 8, [20] * 8)
    estimate = PlayEstimate("solo", "none", side, None, None, 0.0, samples)
    best, ties = toss_ups([estimate])
    assert best == "solo" and ties == ("pass",)
    many = tuple(PlayedSample(i, "solo", 20, True, 4) for i in range(256))
    estimate = PlayEstimate("solo", "none", side_estimate([True] * 256, [4] * 256, [20] * 256), None, None, 0.0, many)
    assert toss_ups([estimate]) == ("solo", ())
    assert DIRECT_ALPHA == 0.025
