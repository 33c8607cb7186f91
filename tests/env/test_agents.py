"""The baseline agents: legal actions in every phase and variant, double-dummy agents reproduce
``calasolve.solve``'s value for the exchange made, the specs and their errors."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np
import pytest

from calasolve.env.actions import PASS, bid_action
from calasolve.env.agents import Agent, PimcAgent, make_agent, parse_agent, rule_bid
from calasolve.env.game import GameState
from calasolve.exchange.solve import solve
from calasolve.game.errors import ParameterError
from calasolve.game.rules import Rules
from calasolve.game.sampling import rng_for
from calasolve.game.state import CONTRACTS

BIDS = Rules(aggravations="bids")  # every contract is a bid: seat 0 can be made to play any of them


def dealt(seed: int, rules: Rules = BIDS) -> GameState:
    state = GameState(rules)
    state.sample_chance(rng_for(seed, 0))
    return state


def force(state: GameState, contract: str) -> None:
    """Seat 0 bids ``contract``, the others pass (under aggravations=bids)."""
    state.apply(bid_action(contract))
    while state.phase == "auction":
        state.apply(PASS)


def run(state: GameState, agents: Sequence[Agent], until: str = "over", seed: int = 0) -> None:
    draw = rng_for(seed, 99)
    while state.phase != until and not state.is_terminal:
        if state.is_chance:
            state.sample_chance(draw)
            continue
        action = agents[state.current_player].act(state)
        assert action in state.legal_actions(), (state.phase, action)
        state.apply(action)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_double_dummy_play_reproduces_the_solver(contract: str, solver: Any) -> None:
    """The exchange made by the heuristic agents, then a dd agent on every seat: the soloist ends
    with the thirds ``calasolve.solve`` gives that exchange."""
    state = dealt(CONTRACTS.index(contract) + 3)
    force(state, contract)
    heuristic = [make_agent("heuristic") for _ in range(3)]
    run(state, heuristic, until="play")
    record = state.record()
    expected = solve(record, solver=solver).soloist_thirds
    dd = [make_agent("dd", solver=solver) for _ in range(3)]
    run(state, dd)
    assert state.play is not None and state.soloist is not None
    assert state.play.captured[state.soloist] == expected


def test_double_dummy_agents_exchange_double_dummy(solver: Any) -> None:
    """A dd soloist's solo discards are the searched best: the thirds it then makes are the best exchange's."""
    from calasolve.exchange.search import best_exchange

    state = dealt(21)
    force(state, "solo")
    dd = [make_agent("dd", solver=solver) for _ in range(3)]
    run(state, dd, until="play")
    best = best_exchange(state.record().with_(exchange=type(state.exchange())()), solver=solver)
    run(state, dd)
    assert state.play is not None and state.play.captured[0] == best.value


@pytest.mark.slow
@pytest.mark.parametrize("contract", ["chiamo", "dividete", "scegliete"])
def test_double_dummy_agents_exchange_in_every_contract(contract: str, solver: Any) -> None:
    """dd agents on every seat, the exchange searched double dummy: the soloist ends with solve's value."""
    state = dealt(30 + CONTRACTS.index(contract))
    force(state, contract)
    dd = [make_agent("dd", solver=solver) for _ in range(3)]
    run(state, dd, until="play")
    expected = solve(state.record(), solver=solver).soloist_thirds
    run(state, dd)
    assert state.play is not None and state.play.captured[0] == expected


@pytest.mark.parametrize("rules", [Rules(), BIDS, Rules(auction="open", payment="plus")], ids=lambda r: r.describe())
def test_every_agent_acts_legally_in_every_phase(rules: Rules) -> None:
    phases: set[str] = set()
    specs = ["random", "heuristic", "pimc:samples=2,candidates=2,redeals=2" + (",play=contract" if rules.auction == "open" else ""),
             "learned:samples=2,candidates=2,redeals=2"]
    for d in range(3 if rules.aggravations == "bids" else 6):
        for contract in CONTRACTS if rules.aggravations == "bids" else [None]:
            state = dealt(100 + d, rules)
            agents = [make_agent(specs[(s + d) % len(specs)], seed=d) for s in range(3)]
            if contract is not None:
                force(state, contract)
            while not state.is_terminal:
                if state.is_chance:
                    state.sample_chance(rng_for(d, 1))
                    continue
                phases.add(state.phase)
                action = agents[state.current_player].act(state)
                assert action in state.legal_actions(), (state.phase, action)
                state.apply(action)
    assert phases >= ({"call", "return", "discard", "split", "play"} if rules.aggravations == "bids" else {"auction", "play"})


def test_the_same_seed_plays_the_same_game() -> None:
    def game(seed: int) -> list[int]:
        state = dealt(7)
        force(state, "chiamo")
        run(state, [PimcAgent(2, seed, candidates=2, redeals=2) for _ in range(3)])
        return state.history

    assert game(1) == game(1)


def test_pimc_bids_by_the_advisor_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bidding=advisor``: the agent bids the advisor's recommendation for its hand and seat, once a hand."""
    import calasolve.advice.advisor as advisor

    asked: list[tuple[int, int]] = []

    def advise(hand: int, *, seat: int, **_: Any) -> Any:
        asked.append((hand, seat))
        return SimpleNamespace(recommendation="solo" if seat == 1 else "pass")

    monkeypatch.setattr(advisor, "advise", advise)
    state = dealt(5, Rules())
    agents = [make_agent("pimc:bidding=advisor,samples=2") for _ in range(3)]
    for _ in range(3):
        state.apply(agents[state.current_player].act(state))
    assert [c for _, c in state.auction.calls] == ["pass", "solo", "pass"]
    assert [seat for _, seat in asked] == [0, 1, 2]


@pytest.mark.slow
def test_pimc_bids_by_the_real_advisor() -> None:
    state = dealt(5, Rules())
    agent = make_agent("pimc:bidding=advisor,samples=2")
    assert agent.act(state) in state.legal_actions()


def test_the_bidding_rule_follows_the_ladder() -> None:
    from calasolve.game.cards import parse_hand

    strong = parse_hand("32A.32A.32A.32A")
    assert rule_bid(strong, Rules()) == "scegliete" and rule_bid(parse_hand("32AR.32AR.32A.3"), BIDS) == "dividete"
    state = dealt(5, Rules())
    state.apply(PASS)
    # a declared aggravation is bid as solissimo, then declared
    assert make_agent("heuristic").act(state) in state.legal_actions()


@pytest.mark.parametrize("spec,problem", [
    ("alphazero", "unknown agent 'alphazero'"),
    ("pimc:samples=0", "samples 0: must be"),
    ("pimc:samples=x", "not a whole number"),
    ("pimc:bidding=oracle", "use rule or advisor"),
    ("pimc:play=dd", "use pimc, contract or learned"),
    ("learned:play=pimc", "unknown option 'play' of learned"),
    ("dd:objective=points", "use thirds or payoff"),
    ("random:seed=3", "unknown option 'seed' of random"),
    ("pimc:samples", "write it as KEY=VALUE"),
])
def test_bad_specs_say_what_is_wrong(spec: str, problem: str) -> None:
    with pytest.raises(ParameterError, match=problem):
        make_agent(spec)


def test_specs_parse() -> None:
    assert parse_agent(" PIMC : samples=8 , bidding=rule ") == ("pimc", {"samples": "8", "bidding": "rule"})
    assert np.isclose(make_agent("pimc:samples=3,redeals=4").redeals, 4)  # type: ignore[attr-defined]


def test_any_agent_takes_over_a_seat_at_any_decision() -> None:
    """Whole games whose every decision is made by an agent drawn at random (the exchange's first
    discards by one policy, the rest by another included): every agent's action is legal."""
    pool = [make_agent("random", seed=1), make_agent("heuristic"),
            make_agent("pimc:samples=1,candidates=2,redeals=2", seed=2),
            make_agent("learned:samples=1,candidates=2,redeals=2", seed=3)]
    contracts: set[str] = set()
    for game in range(24):
        rng = np.random.default_rng(game)
        state = GameState()
        while not state.is_terminal:
            if state.is_chance:
                state.sample_chance(rng)
                continue
            agent = pool[int(rng.integers(len(pool)))]
            action = agent.act(state)
            assert action in state.legal_actions(), (agent.name, state.phase)
            state.apply(action)
        if state.contract is not None:
            contracts.add(state.contract)
    assert {"chiamo", "solo"} <= contracts


def test_the_discards_a_plan_still_makes_after_another_policys() -> None:
    from calasolve.env.agents import fitted_discards
    from calasolve.game.cards import cards_of, popcount

    for game in range(20):
        rng = np.random.default_rng(game)
        state = GameState()
        while state.is_chance:
            state.sample_chance(rng)
        for action in (PASS, bid_action("solo"), PASS):
            state.apply(action)
        assert state.phase == "discard" and state.contract == "solo"
        seat = state.current_player
        state.apply(state.legal_actions()[-1])  # the highest first: no plan made from the whole hand fits
        planned = sum(1 << c for c in sorted(cards_of(state.held(seat)))[:4])
        rest = fitted_discards(state, seat, planned)
        assert popcount(rest) == 3 and rest & state.held(seat) == rest
        assert min(cards_of(rest)) > max(cards_of(state.discards[seat]))
        for _ in range(3):
            state.apply(make_agent("heuristic").act(state))
        assert state.phase != "discard" or state.current_player != seat


def test_agents_made_without_a_seed_do_not_share_a_stream() -> None:
    state = GameState()
    rng = np.random.default_rng(0)
    while state.is_chance:
        state.sample_chance(rng)
    # the same state, many agents: unseeded ones disagree somewhere, seeded ones never
    unseeded = {make_agent("random").act(state) for _ in range(40)}
    seeded = {make_agent("random", seed=5).act(state) for _ in range(40)}
    assert len(unseeded) > 1 and len(seeded) == 1
