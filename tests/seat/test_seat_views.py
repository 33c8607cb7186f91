"""A seat's view of a game in progress, the decision it faces, and the deals consistent with it:
every decision of whole games in every contract, for every seat."""

from __future__ import annotations

import pytest

from calasolve.env.actions import PASS, bid_action
from calasolve.env.agents import LearnedAgent
from calasolve.env.game import GameState
from calasolve.game.cards import FULL_DECK
from calasolve.game.errors import CalasolveError
from calasolve.game.rules import STANDARD, Rules
from calasolve.game.sampling import rng_for
from calasolve.seat.decision import decision_of
from calasolve.seat.layouts import game_state, played_by, view_layouts
from calasolve.seat.views import state_view
from calasolve.types.seat import Layout
from calasolve.types.view import View, record_auction

CASES = [(rules, contract, soloist)
         for rules in (STANDARD, Rules(aggravations="bids"), Rules(auction="open"))
         for contract in ("chiamo", "solo", "solissimo", "dividete", "scegliete")
         for soloist in range(3)]


def _seen(g: GameState, seat: int) -> tuple[object, ...]:
    """What ``seat`` sees of a game, to compare a layout's game with the true one."""
    return (g.phase, g.current_player, g.dealt[seat], g.held(seat), g.contract, g.soloist, g.call, g.call_from,
            g.returned, tuple(g.play.history) if g.play else (), g.discards[seat], g.takes[seat])


def _check_decision(g: GameState, seed: int) -> None:
    seat = g.current_player
    view = state_view(g, seat)
    decision = decision_of(view)
    for option in decision.options:  # every option is legal in the true game
        h = g.clone()
        for action in option.actions:
            h.apply(action)
    if g.phase in ("auction", "play", "declare"):  # every legal option is offered
        assert sorted(o.actions[0] for o in decision.options) == g.legal_actions()
    for layout in view_layouts(view, 3, seed=seed):
        assert _seen(game_state(view, layout), seat) == _seen(g, seat)
        assert layout.hands[seat] == g.dealt[seat]
        assert Layout.from_dict(layout.to_dict()) == layout
    for other in range(3):  # the seats waiting see the same game too
        if other != seat:
            w = state_view(g, other)
            assert View.from_dict(w.to_dict()) == w
            for layout in view_layouts(w, 2, seed=seed):
                assert _seen(game_state(w, layout), other)[2:] == _seen(g, other)[2:]


@pytest.mark.parametrize("rules,contract,soloist", CASES)
def test_every_decision_of_a_game(rules: Rules, contract: str, soloist: int) -> None:
    agent = LearnedAgent(seed=1)
    g = GameState(rules)
    g.sample_chance(rng_for(7, soloist, len(contract)))
    calls = list(record_auction(contract, soloist, rules))
    n = 0
    while not g.is_terminal:
        if g.is_chance:
            g.sample_chance(rng_for(7, 99))
            continue
        if not (g.phase == "discard" and g.discards[g.current_player]):  # a set of discards is one decision
            _check_decision(g, n)
            n += 1
        if g.phase == "auction":
            call = calls.pop(0)
            g.apply(PASS if call == "pass" else bid_action(call))
        elif g.phase == "declare":
            g.apply(bid_action(contract if contract in ("dividete", "scegliete") else "solissimo"))
        else:
            g.apply(agent.act(g))
    assert g.contract == contract and n >= 13


def test_layouts_respect_what_the_seat_saw() -> None:
    agent = LearnedAgent(seed=3)
    g = GameState()
    g.sample_chance(rng_for(11, 0))
    for call in ("pass", "solo", "pass"):
        g.apply(PASS if call == "pass" else bid_action(call))
    while g.phase != "play" or len(g.play.history) < 20:  # type: ignore[union-attr]
        g.apply(agent.act(g))
    for seat in range(3):
        view = state_view(g, seat)
        by, voids = played_by(view)
        for layout in view_layouts(view, 40, seed=seat):
            h = game_state(view, layout)
            assert h.play is not None
            first = [h.play.hands[s] | by[s] for s in range(3)]
            for s in range(3):
                if s != seat:
                    assert not any(h.play.hands[s] >> c & 1 for c in range(40) if voids[s] >> (c // 10) & 1)
            assert sum(bin(x).count("1") for x in first) == 36
            assert (first[0] | first[1] | first[2] | h.play.monte) == FULL_DECK
            if seat == 1:  # the soloist knows its discards
                assert h.play.monte == g.play.monte  # type: ignore[union-attr]


def test_not_the_seats_turn_is_an_error() -> None:
    g = GameState()
    g.sample_chance(rng_for(1, 0))
    g.apply(PASS)
    with pytest.raises(CalasolveError, match="seat 1 is to speak, not seat 0"):
        decision_of(state_view(g, 0))
    for call in ("pass", "pass"):
        g.apply(PASS)
    with pytest.raises(CalasolveError, match="the deal is over"):
        decision_of(state_view(g, 2))


def test_a_defender_must_say_what_it_took_in_dividete() -> None:
    g = GameState()
    g.sample_chance(rng_for(2, 0))
    g.apply(bid_action("solissimo"))
    g.apply(bid_action("dividete"))
    view = state_view(g, 1)
    with pytest.raises(CalasolveError, match="took two monte cards blind"):
        decision_of(view.with_(exchange=view.exchange))  # the draw is not made yet: no takes
