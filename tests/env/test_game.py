"""The environment's state machine: seeded random play-throughs in every variant, scored as
calasolve.game scores the same cards; the auction's length; chance; bad actions."""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

import numpy as np
import pytest

from calasolve.env.actions import NUM_ACTIONS, PASS, SPLIT_BASE, action_contract, bid_action
from calasolve.env.game import CHANCE_PLAYER, TERMINAL_PLAYER, GameState
from calasolve.env.observe import MAX_CALLS, information_state_string, observation_tensor
from calasolve.game.auction import Auction
from calasolve.game.cards import FULL_DECK, cards_of, popcount
from calasolve.game.errors import IllegalActionError
from calasolve.game.exchange import apply_exchange
from calasolve.game.rules import Rules
from calasolve.game.state import PlayState, first_leader

VARIANTS = [
    Rules(),
    Rules(payment="plus"),
    Rules(auction="open"),
    Rules(aggravations="bids"),
    Rules(auction="open", aggravations="bids", first_lead="eldest", stramazzo="off"),
]


def random_game(rules: Rules, rng: np.random.Generator) -> GameState:
    """A whole deal with uniformly random actions; every legal action must apply."""
    state = GameState(rules)
    while not state.is_terminal:
        if state.is_chance:
            state.sample_chance(rng)
            continue
        legal = state.legal_actions()
        assert legal and state.current_player in (0, 1, 2)
        assert np.flatnonzero(state.legal_mask()).tolist() == legal
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def rescore(state: GameState) -> tuple[int, int, int] | None:
    """The payments the rules give the same cards, rebuilt apart from the machine: the exchange applied
    to the deal as dealt by :mod:`calasolve.game.exchange`, the cards played on a fresh PlayState."""
    if state.contract is None:
        return None
    assert state.soloist is not None and state.play is not None
    hands, monte = apply_exchange(state.dealt, state.monte, state.contract, state.soloist, state.exchange())
    play = PlayState(hands, monte, state.soloist, first_leader(state.contract, state.soloist, state.rules))
    for card in state.play.history:
        play.play(card)
    return play.result(state.contract, state.rules).payments


def play_throughs(count: int, seed: int) -> Iterator[GameState]:
    for i in range(count):
        yield random_game(VARIANTS[i % len(VARIANTS)], np.random.default_rng([seed, i]))


def check(state: GameState) -> None:
    assert state.current_player == TERMINAL_PLAYER and state.legal_actions() == []
    assert [popcount(d) for d in state.dealt] == [12, 12, 12] and popcount(state.monte) == 4
    expected = rescore(state)
    if expected is None:  # all passed: a void deal
        assert state.void and state.returns() == (0.0, 0.0, 0.0) and state.play is None
        assert all(c == "pass" for _, c in state.auction.calls)
        return
    assert state.returns() == tuple(float(p) for p in expected)
    assert len(state.play.history) == 36 if state.play else False
    if state.rules.payment == "zerosum":
        assert sum(state.returns()) == 0
    else:
        assert min(state.returns()) >= 0
    # the record the agents see is the same deal
    assert state.record().state().result(state.contract, state.rules).payments == expected  # type: ignore[arg-type]


def test_two_thousand_random_play_throughs() -> None:
    contracts = set()
    for state in play_throughs(2000, 1):
        check(state)
        contracts.add((state.contract, state.call_from is not None and state.returned is not None))
    # every contract was played, chiamo with the called card handed over and found in the monte
    assert contracts >= {(None, False), ("chiamo", True), ("chiamo", False), ("solo", False), ("solissimo", False),
                         ("dividete", False), ("scegliete", False)}


@pytest.mark.slow
def test_twenty_thousand_random_play_throughs() -> None:
    for state in play_throughs(20000, 2):
        check(state)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_every_auction_fits_the_tensors(rules: Rules) -> None:
    """Every sequence of calls, enumerated: at most MAX_CALLS, and the longest reaches it in some variant."""
    longest = 0

    def walk(auction: Auction, depth: int) -> None:
        nonlocal longest
        longest = max(longest, depth)
        for call in auction.legal_calls():
            nxt = Auction(rules)
            for _, c in auction.calls:
                nxt.call(c)
            nxt.call(call)
            walk(nxt, depth + 1)

    walk(Auction(rules), 0)
    assert longest <= MAX_CALLS
    if rules.auction == "open" and rules.aggravations == "bids":
        assert longest == MAX_CALLS


def test_the_deal_and_the_draw_are_uniform() -> None:
    state = GameState()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(40)) and sum(p for _, p in outcomes) == pytest.approx(1)
    # dividete: each pair of the monte goes to the first defender with probability 1/6, by one sequence
    rng = np.random.default_rng(3)
    while True:
        state = GameState(Rules(aggravations="bids"))
        state.sample_chance(rng)
        for call in ("pass", "pass", "dividete"):
            state.apply(PASS if call == "pass" else bid_action(call))
        break
    assert state.phase == "draw" and state.current_player == CHANCE_PLAYER
    pairs: dict[int, float] = {}
    for first, p in state.chance_outcomes():
        after = state.clone()
        after.apply(first)
        for second, q in after.chance_outcomes():
            assert second > first
            pairs[(1 << first) | (1 << second)] = pairs.get((1 << first) | (1 << second), 0.0) + p * q
    assert sorted(pairs) == sorted((1 << a) | (1 << b) for a, b in combinations(cards_of(state.monte), 2))
    assert all(v == pytest.approx(1 / 6) for v in pairs.values())


def test_discards_are_made_lowest_first() -> None:
    """A set of discards is one sequence: each discard higher than the last, enough left above."""
    state = GameState()
    state.sample_chance(np.random.default_rng(9))
    for call in ("solo", "pass", "pass"):
        state.apply(PASS if call == "pass" else bid_action(call))
    pool = sorted(cards_of(state.hands[0]))
    assert len(pool) == 16 and state.legal_actions() == pool[:13]
    state.apply(pool[5])
    assert state.legal_actions() == pool[6:14]  # 3 more to come: the top 2 cannot come next
    with pytest.raises(IllegalActionError, match="not legal in the discard phase"):
        state.apply(pool[2])


def snapshot(state: GameState) -> tuple[object, ...]:
    return (tuple(state.history), str(state), state.legal_actions(), [information_state_string(state, s) for s in range(3)],
            [observation_tensor(state, s).tobytes() for s in range(3)])


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**6, "AS", 3.0, None, True])
def test_an_action_that_is_no_action_changes_nothing(bad: object) -> None:
    state = GameState()
    state.sample_chance(np.random.default_rng(4))
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="not an action id"):
        state.apply(bad)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_illegal_actions_in_every_phase_change_nothing() -> None:
    rng = np.random.default_rng(5)
    phases = set()
    for i in range(300):
        state = GameState(VARIANTS[i % len(VARIANTS)])
        while not state.is_terminal:
            legal = state.legal_bits()
            illegal = [a for a in range(NUM_ACTIONS) if not legal >> a & 1]
            if illegal and state.phase not in phases | {"play"} or (state.phase == "play" and i % 50 == 0):
                phases.add(state.phase)
                before = snapshot(state)
                for a in illegal:
                    with pytest.raises(IllegalActionError, match="not legal"):
                        state.apply(a)
                assert snapshot(state) == before
            if state.is_chance:
                state.sample_chance(rng)
            else:
                actions = state.legal_actions()
                state.apply(actions[int(rng.integers(len(actions)))])
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="the deal is over"):
            state.apply(0)
        assert snapshot(state) == before
    assert phases == {"deal", "auction", "declare", "call", "return", "discard", "draw", "split", "play"}


def test_the_actions_name_their_phase() -> None:
    state = GameState()
    state.sample_chance(np.random.default_rng(6))
    assert state.action_text(PASS) == "pass" and state.action_text(bid_action("solo")) == "bid solo"
    assert action_contract(SPLIT_BASE) is None and action_contract(PASS) is None
    assert state.legal_bits() & FULL_DECK == 0
