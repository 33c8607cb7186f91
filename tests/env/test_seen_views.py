"""A seat's view of a record (``types.view.seat_view``, issue #59) shows what the environment's
``seen_by`` says the seat has seen, on random games with their real auctions."""

from __future__ import annotations

import pytest

from calasolve.env.game import MONTE as ENV_MONTE, GameState
from calasolve.env.observe import seen_by
from calasolve.game.rules import Rules
from calasolve.game.sampling import rng_for
from calasolve.game.state import DEFENDER_EXCHANGE
from calasolve.types.view import MONTE, View, seat_view


def random_game(seed: int, rules: Rules, stop: int) -> GameState:
    """A game of random actions, stopped after ``stop`` cards played (or at its end)."""
    state, rng = GameState(rules), rng_for(seed, 59)
    while not state.is_terminal and not (state.play is not None and len(state.play.history) >= stop):
        if state.is_chance:
            state.sample_chance(rng)
        else:
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
        if state.phase == "auction":
            for seat in range(3):  # mid-auction: the view of the calls so far is a view
                calls = tuple(call for _, call in state.auction.calls)
                assert View(seat, state.dealt[seat], calls=calls, rules=rules).calls == calls
    return state


@pytest.mark.parametrize("rules", [Rules(), Rules(auction="open"), Rules(aggravations="bids")], ids=str)
def test_a_records_view_is_what_the_seat_has_seen(rules: Rules) -> None:
    checked = set()
    for seed in range(60):
        state = random_game(seed, rules, stop=seed % 37)
        if state.play is None:
            continue  # passed out
        record = state.record()
        checked.add(record.contract)
        for seat in range(3):
            seen = seen_by(state, seat, events=False)
            calls = tuple(call for _, call in state.auction.calls)
            view = seat_view(record, seat).with_(calls=calls)
            assert view.hand == seen.dealt and (view.monte or 0) == seen.monte
            assert view.played == seen.plays
            ex = view.exchange
            assert (ex.call, ex.returned) == (seen.call, seen.returned)
            if seen.call is not None:
                assert view.call_from == (MONTE if seen.call_from == ENV_MONTE else seen.call_from)
            own_discards = (ex.discards or (0, 0, 0))[seat]
            assert own_discards == seen.discards
            if record.contract in DEFENDER_EXCHANGE:
                assert (ex.takes or (0, 0, 0)) == seen.takes
    assert len(checked) >= 4  # most contracts came up
