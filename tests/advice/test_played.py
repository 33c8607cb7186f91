"""The default advice's played odds: double dummy plus the paired gap of the deals played out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from calasolve.advice.advisor import advise, run_advice
from calasolve.advice.outcome import SampleOutcome
from calasolve.advice.played import (
    DIRECT_ALPHA, PART_ALPHA, gap_difference, paired_estimate, play_chunks,
)
from calasolve.advice.playadvice import advise_play
from calasolve.advice.race import Track
from calasolve.advice.realplay import played_exchange
from calasolve.types.playout import PlayedSample
from calasolve.advice.samples import deal_sample
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.stats import clopper_pearson
from cli_run import run
from steady import steady
from calasolve.game.cards import parse_hand
from calasolve.game.defaults import DEFAULT_PLAYED_LAYOUTS
from calasolve.game.errors import ParameterError
from calasolve.search import engines
from calasolve.search.payoff import payoff_levels
from calasolve.types.advice import Advice

STRONG = "32AR.32A.3A.2A5"
HAND_MASK = parse_hand(STRONG)
BORDERLINE = "32AC6.3A7.32A.2"


def track_of(contract: str, dd: list[tuple[bool, int, int]]) -> Track:
    levels = payoff_levels(contract)  # type: ignore[arg-type]
    t = Track(contract, min(levels), max(levels))  # type: ignore[arg-type]
    for makes, low, high in dd:
        t.add(SampleOutcome(makes, low, high))
    return t


def played(contract: str, rows: list[tuple[bool, int]], seconds: float = 0.0) -> list[PlayedSample]:
    return [PlayedSample(i, contract, 20 if made else 10, made, points, seconds=seconds)  # type: ignore[arg-type]
            for i, (made, points) in enumerate(rows)]


def test_the_paired_estimate_is_double_dummy_plus_the_gap() -> None:
    settings = AdviceSettings(hand=0xFFF)
    # 40 double-dummy samples, 30 made; the first 8 played out: 2 dd failures made in play, 1 dd make failed
    dd = [(i % 4 != 0, 4 if i % 4 else -4, 4 if i % 4 else -4) for i in range(40)]
    track = track_of("solo", dd)
    rows = [(True, 4), (True, 4), (True, 4), (True, 4), (True, 4), (False, -4), (True, 4), (True, 4)]
    # deals 0 and 4 failed double dummy; both are made in play; deal 5 made double dummy, fails in play
    e = paired_estimate(track, played("solo", rows, seconds=0.1875), settings)
    assert (e.deals, e.makes, e.dd_makes) == (8, 7, 6)
    assert e.gap_p_make == pytest.approx((2 - 1) / 8)
    lo_dd, hi_dd = track.p_make_interval(PART_ALPHA)
    paired = (max(0.0, lo_dd + e.gap_p_make_95[0]), min(1.0, hi_dd + e.gap_p_make_95[1]))
    direct = clopper_pearson(7, 8, DIRECT_ALPHA)
    # the estimate is the narrower part's: here the deals played out alone
    assert direct[1] - direct[0] < paired[1] - paired[0]
    assert e.p_make == pytest.approx(7 / 8)
    # where the paired and the direct interval meet
    assert e.p_make_95 == pytest.approx((max(paired[0], direct[0]), min(paired[1], direct[1])))
    assert e.gap_p_make_95[0] < e.gap_p_make < e.gap_p_make_95[1]
    assert e.p_make_95[0] <= e.p_make <= e.p_make_95[1]
    assert e.gap_payoff == pytest.approx((8 + 8 - 8) / 8)
    assert e.mean_payoff in (pytest.approx(track.mean_payoff() + e.gap_payoff), pytest.approx(sum(p for _, p in rows) / 8))
    assert e.payoff_95[0] <= e.mean_payoff <= e.payoff_95[1]
    assert e.multipliers == {1: 1.0} and e.seconds == 1.5


def test_no_discordant_deal_still_leaves_the_gap_open() -> None:
    # a hand that makes on every deal both ways: the gap is 0, its interval is not (8 deals say only so much)
    track = track_of("solo", [(True, 4, 4)] * 48)
    e = paired_estimate(track, played("solo", [(True, 4)] * 8), AdviceSettings(hand=0xFFF))
    assert e.gap_p_make == 0 and e.p_make == 1
    assert e.gap_p_make_95[1] == pytest.approx(clopper_pearson(0, 8, PART_ALPHA / 2)[1])
    # 8 of 8 made: the deals alone bound it tighter than the paired gap
    assert e.p_make_95 == pytest.approx(clopper_pearson(8, 8, DIRECT_ALPHA)) and e.p_make_95[0] > 0.5


def test_open_double_dummy_game_points_widen_the_gap() -> None:
    track = track_of("solo", [(False, -12, -4)] * 16)
    e = paired_estimate(track, played("solo", [(False, -4)] * 8), AdviceSettings(hand=0xFFF))
    assert e.gap_payoff == pytest.approx(4.0)  # from the midpoint -8
    assert e.gap_payoff_95[0] <= 0.0 and e.gap_payoff_95[1] >= 8.0
    # every deal played out paid -4: eight equal outcomes still leave the interval as wide as eight deals allow
    assert e.payoff_95[0] < -4.0 < e.payoff_95[1] and e.mean_payoff == -4.0
    assert e.payoff_95[1] - e.payoff_95[0] > 2


def test_intervals_that_do_not_meet_give_their_hull() -> None:
    # double dummy made every one of 400 samples; the 8 deals played out all failed and were discordant
    track = track_of("solo", [(True, 4, 4)] * 400)
    e = paired_estimate(track, played("solo", [(False, -4)] * 8), AdviceSettings(hand=0xFFF))
    assert e.p_make_95[0] <= e.p_make <= e.p_make_95[1]
    assert e.p_make_95[0] <= clopper_pearson(0, 8, DIRECT_ALPHA)[1] and e.p_make_95[1] >= e.p_make_95[0]


def test_one_deal_played_bounds_game_points_by_their_range_only() -> None:
    track = track_of("solo", [(True, 4, 4)] * 48)
    e = paired_estimate(track, played("solo", [(True, 4)]), AdviceSettings(hand=0xFFF))
    assert e.payoff_95 == (track.low, track.high) or (e.payoff_95[0] < 4 < e.payoff_95[1])
    assert e.payoff_95[1] - e.payoff_95[0] > 8


def test_contracts_compared_on_the_same_deals() -> None:
    # chiamo pays +2 more than solo on every deal, both ways: their spread is wide, their difference is not
    import random

    rng = random.Random(1)
    swings = [rng.choice([-4, 4]) for _ in range(400)]
    solo = track_of("solo", [(p > 0, p, p) for p in swings])
    chiamo = track_of("chiamo", [(p > 0, p + 2, p + 2) for p in swings])
    lo, hi = gap_difference(chiamo, played("chiamo", [(True, 6)] * 256), solo, played("solo", [(True, 4)] * 256))
    assert 0 < lo <= 2 <= hi
    # eight deals played out cannot bound the gaps' difference that closely, however alike they are
    lo, hi = gap_difference(chiamo, played("chiamo", [(True, 6)] * 8), solo, played("solo", [(True, 4)] * 8))
    assert lo <= 0 and 2 <= hi
    same_lo, same_hi = gap_difference(solo, played("solo", [(True, 4)] * 8), solo, played("solo", [(True, 4)] * 8))
    assert same_lo <= 0 <= same_hi


def test_default_advice_has_both_and_recommends_on_play() -> None:
    kwargs: dict[str, Any] = dict(seat=0, samples=16, seed=3, jobs=1, contracts=["solo", "solissimo"], play_samples=3,
                                  pimc_samples=2)
    both = advise(STRONG, **kwargs)
    # the default advice's exact thirds are those of the deals it plays out
    assert both.thirds_samples == 3 and {e.thirds_samples for e in both.estimates} == {3}
    dd = advise(STRONG, play="dd", thirds_samples=3, **kwargs)
    assert both.played is not None and dd.played is None
    # the double-dummy side is --play dd's with the same cap and thirds, number for number
    b, d = steady(both.to_dict()), steady(dd.to_dict())
    assert b["contracts"] == d["contracts"]
    assert (b["dd_recommendation"], b["dd_toss_up"], b["dd_reason"]) == (d["recommendation"], d["toss_up"], d["reason"])
    assert b["basis"] == "played" and "basis" not in d and "played" not in d
    assert both.recommendation == both.played.recommendation
    for e in both.played.estimates:
        assert e.deals == 3 and 0 <= e.p_make_95[0] <= e.p_make <= e.p_make_95[1] <= 1
        assert e.payoff_95[0] <= e.mean_payoff <= e.payoff_95[1]
        assert sum(e.multipliers.values()) == pytest.approx(1)
    assert Advice.from_dict(both.to_dict()).to_dict() == both.to_dict()


def test_played_same_answer_for_any_jobs() -> None:
    # more deals played than the race sampled: those are judged double dummy by their own tasks
    kwargs: dict[str, Any] = dict(seat=2, samples=2, seed=11, contracts=["chiamo", "dividete"], play_samples=3,
                                  pimc_samples=2)
    one = advise(BORDERLINE, jobs=1, **kwargs).to_dict()
    two = advise(BORDERLINE, jobs=2, **kwargs).to_dict()
    assert steady(one) == steady(two)
    assert [c["deals"] for c in one["played"]["contracts"]] == [3, 3]


def test_the_deals_played_are_the_double_dummy_samples() -> None:
    # the play-outs' own double-dummy judgement of a deal equals the race's judgement of that sample
    kwargs: dict[str, Any] = dict(seat=1, seed=5, contracts=["solissimo"], pimc_samples=2)
    plain = advise_play(BORDERLINE, play_samples=3, dd=True, **kwargs)
    race = advise(BORDERLINE, play="dd", samples=16, fixed=True, jobs=1, **kwargs).race
    track = race.track("solissimo")
    for s in plain.estimates[0].samples:
        o = track.outcomes[s.index]
        assert (s.dd_makes, s.dd_points_low, s.dd_points_high) == (o.makes, o.payoff_low, o.payoff_high)


def test_the_deals_are_played_with_the_exchange_the_race_made() -> None:
    # the soloist's exchange is made once, by the race, and is the one the play-out would make itself
    kwargs: dict[str, Any] = dict(seat=0, seed=3, contracts=["chiamo", "solo", "dividete"], pimc_samples=2)
    advice = advise(STRONG, samples=16, jobs=1, play_samples=3, **kwargs)
    settings = AdviceSettings(hand=advice.hand, samples=16, play_samples=3, **kwargs)
    solver = engines.solver(settings.tt_mb)
    for track in advice.race.tracks:
        for i in range(3):
            made = track.outcomes[i].exchange
            if track.contract == "dividete":  # the dd defence chooses among every exchange: none is made
                assert made is None
                continue
            hands, monte = deal_sample(settings, i)
            assert made is not None and made == played_exchange(settings, i, track.contract, hands, monte, solver)[0]
    # the play-outs are handed it where their policy is the race's: the soloist's, and the defenders' sampled one
    for defenders in ("dd", "sampled"):
        race = advise(STRONG, samples=16, jobs=1, play_samples=3, defender_policy=defenders, **kwargs).race
        given = AdviceSettings(hand=advice.hand, samples=16, play_samples=3, defender_policy=defenders, **kwargs)
        for chunk in play_chunks(given.replace(players="contract"), race):
            (task,) = chunk.tasks
            if task.contract == "dividete" and defenders == "dd":
                assert task.exchange is None
                continue
            hands, monte = deal_sample(given, task.index)
            assert task.exchange == played_exchange(chunk.settings, task.index, task.contract, hands, monte, solver)[0]
        # the learned players' play-outs exchange by the learned policies: none of the race's is theirs
        for chunk in play_chunks(given.replace(players="learned"), race):
            assert (chunk.settings.policy, chunk.settings.defender_policy) == ("learned", "learned")
            assert all(task.exchange is None for task in chunk.tasks)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"play": "pimc"}, "play"),
    ({"play": "magic"}, "play"),
    ({"players": "oracle"}, "players"),
    ({"play_samples": 0}, "play_samples"),
    ({"pimc_samples": 10**6}, "pimc_samples"),
])
def test_bad_play_arguments(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(ParameterError) as err:
        advise(STRONG, samples=1, jobs=1, **kwargs)
    assert err.value.parameter == name


QUICK = ["--samples", "16", "--seed", "2", "--jobs", "1", "--contracts", "solo", "--play-samples", "2", "--pimc-samples", "2"]


def test_cli_default_and_dd(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["advise", "--json", *QUICK, STRONG], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["basis"] == "played" and d["played"]["contracts"][0]["deals"] == 2
    code, out, _ = run(["advise", "--json", "--play", "dd", *QUICK, STRONG], capsys)
    dd = json.loads(out)
    assert code == 0 and "played" not in dd
    assert steady(dd) == steady(advise(STRONG, play="dd", samples=16, seed=2, jobs=1, contracts=["solo"]).to_dict())
    code, text, _ = run(["advise", "--explain", *QUICK, STRONG], capsys)
    assert code == 0
    assert "under play" in text and "recommendation, on the played odds: " in text
    assert "double dummy alone (the floor): " in text


def test_cli_race_sizes_follow_the_mode(capsys: pytest.CaptureFixture[str]) -> None:
    # with PIMC players the race is --play dd's stopped at 64 samples: the same bets, so the same race up to there
    quick = ["--json", "--contracts", "solissimo", "--seed", "2", "--jobs", "1"]
    code, out, _ = run(["advise", *quick, "--players", "contract", "--play-samples", "2", "--pimc-samples", "2", STRONG],
                       capsys)
    assert code == 0 and json.loads(out)["samples"] == 64
    # the learned players' odds stand alone: the race keeps the cap of --play dd
    code, out, _ = run(["advise", *quick, "--play-samples", "2", "--precision", "30", STRONG], capsys)
    assert code == 0 and json.loads(out)["samples"] == 400
    code, out, _ = run(["advise", *quick, "--play", "dd", "--precision", "30", STRONG], capsys)
    assert code == 0 and json.loads(out)["samples"] == 400
    played, dd = AdviceSettings(hand=HAND_MASK, players="contract"), AdviceSettings(hand=HAND_MASK, play="dd")
    assert (played.cap, played.bets_horizon, dd.cap, dd.bets_horizon) == (64, 400, 400, 400)
    assert (played.thirds, dd.thirds, AdviceSettings(hand=HAND_MASK, play_samples=5).thirds) == (8, 24, 5)
    learned = AdviceSettings(hand=HAND_MASK)
    assert (learned.players, learned.cap, learned.deals, learned.thirds) == ("learned", 400, 300, 24)
    given = AdviceSettings(hand=HAND_MASK, samples=50)
    assert (given.cap, given.bets_horizon) == (50, 50)


def test_the_default_race_is_the_dd_race_stopped_at_its_cap() -> None:
    # a race stopped short with the bets of 400 samples is the first rounds of the race of 400, as the default's is
    kwargs: dict[str, Any] = dict(hand=HAND_MASK, seat=0, seed=1, jobs=1, contracts=("chiamo", "solissimo"), play="dd")
    short = run_advice(AdviceSettings(samples=32, horizon=400, **kwargs)).race
    long = run_advice(AdviceSettings(**kwargs)).race
    assert max(t.n for t in long.tracks) > 32
    for a, b in zip(short.tracks, long.tracks):
        assert a.outcomes == b.outcomes[:a.n]
        assert a.stopped == "cap" or (a.stopped, a.n) == (b.stopped, b.n)


@pytest.mark.parametrize("argv", [
    ["--play-samples", "0"],
    ["--pimc-samples", "0"],
    ["--players", "oracle"],
    ["--play", "nobody"],
])
def test_cli_bad_play_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", *argv, STRONG], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


AGREEMENT_HANDS = (0, 3, 8, 12, 17)  # strong, strong, borderline, borderline, weak: docs/advisor.md names them


@pytest.mark.slow
@pytest.mark.parametrize("k", AGREEMENT_HANDS)
def test_fast_played_odds_agree_with_a_plain_estimate(k: int) -> None:
    # the same players on 8 times as many deals, played plainly: their 95% intervals meet, per contract
    from calasolve.search.suites import ADVISE_HANDS

    h = ADVISE_HANDS[k]
    contracts = ["solo", "dividete"]
    fast = advise(h.hand, seat=h.seat, seed=1, jobs=2, contracts=contracts)
    plain = advise_play(h.hand, seat=h.seat, seed=1, jobs=2, contracts=contracts, players="contract",
                        pimc_samples=DEFAULT_PLAYED_LAYOUTS, play_samples=64, defender_policy="sampled")
    assert fast.played is not None
    for e in fast.played.estimates:
        p = next(x for x in plain.estimates if x.contract == e.contract).pimc
        assert p.deals == 8 * e.deals
        assert p.p_make_95[0] <= e.p_make_95[1] and e.p_make_95[0] <= p.p_make_95[1], (e.contract, e, p)
