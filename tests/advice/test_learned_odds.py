"""The default advice's played odds from the learned players: hundreds of deals read alone, the same answer
for any number of workers, intervals that hold the estimate, and the PIMC players still a choice."""

from __future__ import annotations

from typing import Any

import pytest

from calasolve.advice.advisor import advise
from calasolve.advice.played import PLAYED_INTERVAL_METHOD, bounded_mean, played_difference
from calasolve.advice.race import Track
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.stats import clopper_pearson
from calasolve.types.advice import LEARNED_INTERVAL_METHOD
from calasolve.types.playout import PlayedSample
from cli_run import run
from steady import steady

STRONG = "32AR.32A.3A.2A5"
QUICK: dict[str, Any] = dict(seat=0, samples=16, seed=5, contracts=["chiamo", "solo", "scegliete"], play_samples=12,
                             pimc_samples=2)


def test_the_learned_odds_are_the_deals_played_out_read_alone() -> None:
    advice = advise(STRONG, jobs=1, **QUICK)
    played = advice.played
    assert played is not None and played.interval_method == LEARNED_INTERVAL_METHOD and "learned" in played.players
    for e in played.estimates:
        assert e.deals == 12
        assert e.p_make == pytest.approx(e.makes / 12)
        assert e.p_make_95 == pytest.approx(clopper_pearson(e.makes, 12, 0.05))
        assert e.p_make_95[0] <= e.p_make <= e.p_make_95[1]
        assert e.payoff_95[0] <= e.mean_payoff <= e.payoff_95[1]
        assert e.payoff_95[1] - e.payoff_95[0] > 0
    assert advice.recommendation in ("pass", "chiamo", "solo", "scegliete")


def test_the_learned_odds_are_the_same_for_any_number_of_workers() -> None:
    one = advise(STRONG, jobs=1, **QUICK)
    two = advise(STRONG, jobs=2, **QUICK)
    assert steady(one.to_dict()) == steady(two.to_dict())


def test_the_pimc_players_are_still_there() -> None:
    advice = advise(STRONG, jobs=1, players="contract", **{**QUICK, "play_samples": 2})
    assert advice.played is not None and advice.played.interval_method == PLAYED_INTERVAL_METHOD
    assert "contract-minded PIMC" in advice.played.players


def _sample(index: int, points: int) -> PlayedSample:
    return PlayedSample(index=index, contract="solo", thirds=0, makes=points > 0, points=points, dd_thirds=None,
                        dd_makes=None, dd_points_low=None, dd_points_high=None, seconds=0.0)


def test_two_contracts_differ_by_their_points_on_the_same_deals() -> None:
    a, b = Track("solo", -12, 12), Track("chiamo", -6, 6)
    a_played = [_sample(i, 4) for i in range(40)]
    b_played = [_sample(i, -2) for i in range(40)]
    lo, hi = played_difference(a, a_played, b, b_played)
    assert (lo, hi) == bounded_mean([6.0] * 40, -18, 18, 0.05) and lo < 6 < hi and lo > 0
    # only the deals both contracts played pair up
    assert played_difference(a, a_played, b, b_played[:10]) == bounded_mean([6.0] * 10, -18, 18, 0.05)


@pytest.mark.parametrize("args, problem", [
    (["--players", "oracle"], "--players"),
    (["--players", "learned", "--play-samples", "0"], "--play-samples"),
])
def test_bad_player_options_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], problem: str) -> None:
    code, out, err = run(["advise", *args, STRONG], capsys)
    assert code == 2 and out == "" and problem in err and "Traceback" not in err


def test_the_settings_default_to_the_learned_players() -> None:
    s = AdviceSettings(hand=0xFFF)
    assert (s.players, s.deals, s.cap) == ("learned", 300, 400)
    assert s.replace(play="dd").players == "pimc"


def test_explain_says_how_the_learned_odds_were_read(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["advise", "--explain", "--samples", "16", "--contracts", "solo", "--jobs", "1"]
    code, out, _ = run([*args, "--play-samples", "12", STRONG], capsys)
    assert code == 0 and "the first 12 deals of each contract played out by the learned player" in out
    code, out, _ = run([*args, "--players", "contract", "--play-samples", "2", STRONG], capsys)
    assert code == 0 and "double dummy above plus the gap on the first 2 deals" in out
