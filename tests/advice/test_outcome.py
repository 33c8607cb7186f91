"""One sample's outcome (calasolve.advice.outcome): the tests asked, and the upper-end-only mode."""

from __future__ import annotations

import pytest

from calasolve.advice.checks import parse_advice_hand
from calasolve.advice.samples import Task, evaluate, worker_goals
from calasolve.advice.settings import AdviceSettings
from calasolve.advice.outcome import UPPER_BUDGET, SampleOutcome
from calasolve.advice.race import FULL_PREFIX, Race, Track
from calasolve.game.rules import STANDARD
from calasolve.search.engines import make_solver

HAND, SEAT = "32AC6.3A7.32A.2", 2


@pytest.fixture(scope="module")
def engines() -> tuple[object, object, AdviceSettings]:
    settings = AdviceSettings(hand=parse_advice_hand(HAND), seat=SEAT, seed=1, contracts=("dividete", "scegliete"),
                              rules=STANDARD, policy="sampled", defender_policy="dd", candidates=4, redeals=4,
                              tt_mb=16, goal_mb=16)
    return make_solver(16), worker_goals(16), settings


@pytest.mark.parametrize("contract", ["dividete", "scegliete"])
def test_the_upper_end_only_bounds_the_exact_game_points(engines: tuple[object, object, AdviceSettings], contract: str) -> None:
    solver, goals, settings = engines
    for i in range(6):
        exact = evaluate(Task(i, contract, refine=True), settings, solver, goals)
        upper = evaluate(Task(i, contract, upper=True), settings, solver, goals)
        assert exact.settled and not exact.partial and upper.partial
        assert upper.payoff_low <= exact.payoff_low <= upper.payoff_high
        assert upper.makes in (None, exact.makes)
        if upper.makes is False:  # refuted within the budget, and the refuter's place is kept
            assert upper.refuted_at is not None and upper.refuted_at < UPPER_BUDGET
        if exact.makes is False:
            assert exact.refuted_at is not None


def _failure(at: int | None) -> SampleOutcome:
    return SampleOutcome(makes=False, payoff_low=-48, payoff_high=-16, refuted_at=at)


def _race(behind: list[SampleOutcome], lead_points: int) -> Race:
    lead, other = Track("solissimo", -24, 24), Track("dividete", -48, 48)
    for k in range(FULL_PREFIX):
        lead.add(SampleOutcome(makes=True, payoff_low=lead_points, payoff_high=lead_points))
        other.add(behind[k % len(behind)])
    return Race([lead, other], cap=400, precision=0.05)


def test_upper_only_for_a_contract_far_behind_whose_refuters_come_early() -> None:
    made = SampleOutcome(makes=True, payoff_low=16, payoff_high=16)
    early = _race([made, _failure(-1), _failure(3)], 8)
    assert early.upper_only(early.tracks[1])
    assert not early.upper_only(early.tracks[0])  # the leader is asked in full
    # refuters past the budget: their failures would count at +16, too much for this gap
    late = _race([made, _failure(UPPER_BUDGET + 1), _failure(-1)], 8)
    assert not late.upper_only(late.tracks[1])
    # close behind: the same early refuters loosen too much
    close = _race([made, made, made, _failure(-1)], 9)
    assert not close.upper_only(close.tracks[1])
    fixed = _race([made, _failure(-1), _failure(3)], 8)
    fixed.fixed = True
    assert not fixed.upper_only(fixed.tracks[1])


def test_p_make_comes_from_the_samples_asked_in_full() -> None:
    t = Track("dividete", -48, 48)
    for _ in range(10):
        t.add(SampleOutcome(makes=True, payoff_low=16, payoff_high=16))
    for _ in range(30):
        t.add(SampleOutcome(makes=None, payoff_low=-48, payoff_high=16, partial=True))
    t.add(SampleOutcome(makes=False, payoff_low=-48, payoff_high=-16, partial=True))
    assert list(t.makes()) == [1.0] * 10
    # refining a sample asked for its upper end does not bring it into P(make)
    t.replace(12, SampleOutcome(makes=False, payoff_low=-16, payoff_high=-16))
    assert len(t.makes()) == 10
