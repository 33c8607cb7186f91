"""Advice under real play: the advisor's deals played out by PIMC players, compared with double dummy."""

from __future__ import annotations

from typing import Any

import pytest
from steady import steady

from calasolve.advice.advisor import advise
from calasolve.advice.playadvice import advise_play, side_estimate, toss_ups
from calasolve.advice.policies import random_draw
from calasolve.advice.realplay import played_exchange
from calasolve.types.playout import PlayEstimate, PlayedSample
from calasolve.advice.samples import deal_sample, sample_rng
from calasolve.advice.settings import AdviceSettings
from calasolve.game.errors import ParameterError
from calasolve.game.rules import STANDARD
from calasolve.game.state import CONTRACTS
from calasolve.search.engines import make_solver

STRONG = "32AR.32A.3A.2A5"
BORDERLINE = "32AC6.3A7.32A.2"


def test_same_answer_for_any_jobs() -> None:
    kwargs: dict[str, Any] = dict(seat=2, seed=7, play_samples=3, pimc_samples=2, dd=True,
                                  contracts=["solissimo", "dividete"])
    one = advise_play(BORDERLINE, jobs=1, **kwargs)
    two = advise_play(BORDERLINE, jobs=2, **kwargs)
    assert steady(one.to_dict()) == steady(two.to_dict())
    assert [s for e in one.estimates for s in e.samples] == [s for e in two.estimates for s in e.samples]


def test_the_dd_side_is_the_default_advice_on_the_same_deals() -> None:
    """Deal by deal, made and game points are the fixed-sample advisor's outcomes (as exact as
    they are there), and the mean thirds its exact thirds."""
    n, seed, contracts = 3, 11, ["solo", "solissimo", "dividete"]
    dd = advise(STRONG, play="dd", seed=seed, samples=n, fixed=True, thirds_samples=n, contracts=contracts, jobs=1)
    play = advise_play(STRONG, seed=seed, play_samples=n, pimc_samples=1, dd=True, contracts=contracts, jobs=1)
    assert dd.race is not None
    for e in play.estimates:
        outcomes = dd.race.track(e.contract).outcomes
        assert [s.index for s in e.samples] == list(range(n))
        for s, o in zip(e.samples, outcomes):
            assert s.dd_makes == o.makes
            # the advisor refines a sample of a contract still in its race: never wider than the first judgement
            assert s.dd_points_low is not None and s.dd_points_high is not None
            assert s.dd_points_low <= o.payoff_low <= o.payoff_high <= s.dd_points_high
        mine = next(x for x in dd.estimates if x.contract == e.contract)
        assert e.dd is not None and mine.thirds_samples == n
        assert e.dd.mean_thirds == pytest.approx(mine.mean_thirds)
        assert e.dd.makes == mine.makes


def test_the_dividete_draw_is_the_double_dummy_judgement_s() -> None:
    """The dd defence plays one exchange: the draw the advisor's sample drew, the defenders' best discards."""
    settings = AdviceSettings(hand=_mask(STRONG), seat=0, seed=3, contracts=("dividete",), rules=STANDARD,
                              policy="sampled", defender_policy="dd", candidates=4, redeals=4, tt_mb=8)
    solver = make_solver(8)
    for index in range(3):
        hands, monte = deal_sample(settings, index)
        exchange, thirds = played_exchange(settings, index, "dividete", hands, monte, solver)
        assert exchange.takes == random_draw(monte, 0, sample_rng(settings, index, "dividete"))
        assert thirds is not None and 0 <= thirds <= 35


def test_neither_side_bounds_the_other() -> None:
    """PIMC players err on both sides: the soloist ends above double dummy on some deals, below on others."""
    play = advise_play(STRONG, seed=1, play_samples=3, pimc_samples=10, dd=True, contracts=["solo"], jobs=1)
    diffs = [s.thirds - (s.dd_thirds or 0) for s in play.estimates[0].samples]
    assert min(diffs) < 0 < max(diffs)


def test_best_and_toss_up_pair_the_deals() -> None:
    def estimate(contract: str, points: list[int]) -> PlayEstimate:
        samples = tuple(PlayedSample(i, contract, 20, p > 0, p) for i, p in enumerate(points))  # type: ignore[arg-type]
        side = side_estimate([s.makes for s in samples], points, [20] * len(points))
        return PlayEstimate(contract, "none", side, None, None, 0.0, samples)  # type: ignore[arg-type]

    # solo beats solissimo by exactly 2 on every deal: separated over 256 deals, though both spread widely
    best, ties = toss_ups([estimate("solo", [12, -4] * 128), estimate("solissimo", [8, -8] * 128)])
    assert best == "solo" and ties == ()
    # four deals cannot tell them apart, whatever their values say
    best, ties = toss_ups([estimate("solo", [12, -4] * 2), estimate("solissimo", [8, -8] * 2)])
    assert best == "solo" and ties == ("solissimo", "pass")
    best, ties = toss_ups([estimate("solo", [-4, -4, -4, 4])])
    assert best == "pass" and ties == ("solo",)
    best, ties = toss_ups([estimate("solo", [-4] * 64)])
    assert best == "pass" and ties == ()


@pytest.mark.parametrize("bad", [dict(play_samples=0), dict(pimc_samples=0), dict(dd="yes"), dict(contracts=["bridge"])])
def test_bad_arguments(bad: dict[str, Any]) -> None:
    with pytest.raises(ParameterError):
        advise_play(STRONG, jobs=1, **bad)


def test_every_contract_once_in_the_standard_order() -> None:
    play = advise_play(STRONG, seed=2, play_samples=1, pimc_samples=1, contracts=["solissimo", "chiamo"], jobs=1)
    assert [e.contract for e in play.estimates] == [c for c in CONTRACTS if c in ("solissimo", "chiamo")]
    assert all(e.dd is None and e.gap is None for e in play.estimates)


def _mask(hand: str) -> int:
    from calasolve.advice.checks import parse_advice_hand

    return parse_advice_hand(hand)
