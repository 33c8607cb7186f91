"""No view leaks a card its seat has not seen: change the hidden cards consistently with a seat's
view (swap two cards it never saw, all through the history) and that seat's four views stay the
same, while the seat holding a swapped card sees the change.  The tensors' slices are the table
of docs/env.md."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from calasolve.env.game import GameState
from calasolve.env.observe import (
    INFORMATION_STATE_SIZE, INFORMATION_STATE_SLICES, OBSERVATION_SIZE, OBSERVATION_SLICES, information_state_string,
    information_state_tensor, observation_string, observation_tensor,
)
from calasolve.game.cards import Mask, cards_of
from calasolve.game.errors import IllegalActionError
from calasolve.game.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
RULES = [Rules(), Rules(aggravations="bids"), Rules(auction="open", payment="plus")]


def views(state: GameState, seat: int) -> tuple[object, ...]:
    return (observation_string(state, seat), information_state_string(state, seat),
            observation_tensor(state, seat).tobytes(), information_state_tensor(state, seat).tobytes())


def seen_cards(state: GameState, seat: int) -> Mask:
    """The cards ``seat`` has seen, by the rules (docs/rules.md §5), written apart from the code under test."""
    seen = state.dealt[seat] | state.takes[seat] | state.discards[seat]
    if state.play is not None:
        seen |= sum(1 << c for c in state.play.history)
    if state.call is not None:
        seen |= 1 << state.call
    if state.returned is not None:
        seen |= 1 << state.returned
    if state.contract == "scegliete" or (seat == state.soloist and (state.contract == "solo" or state.call is not None)):
        seen |= state.monte
    return seen


def replay(rules: Rules, history: list[int]) -> GameState:
    state = GameState(rules)
    for action in history:
        state.apply(action)
    return state


def place(state: GameState, card: int) -> int:
    return next((s for s in range(3) if state.dealt[s] >> card & 1), 3)


def test_hidden_cards_do_not_show() -> None:
    rng = np.random.default_rng(11)
    swapped = changed = 0
    for game in range(150):
        rules = RULES[game % len(RULES)]
        state = GameState(rules)
        stop = int(rng.integers(36, 100))
        while not state.is_terminal and len(state.history) < stop:
            if state.is_chance:
                state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
        if len(state.history) < 36:
            continue
        for seat in range(3):
            hidden = [c for c in range(40) if not seen_cards(state, seat) >> c & 1]
            for _ in range(3 if len(hidden) >= 2 else 0):
                x, y = (int(c) for c in rng.choice(hidden, 2, replace=False))
                if place(state, x) == place(state, y):
                    continue
                history = [y if a == x else x if a == y else a for a in state.history]
                try:
                    other = replay(rules, history)
                except IllegalActionError:
                    continue  # a swap the others' own actions rule out (a shown void, an order of discards)
                swapped += 1
                assert views(other, seat) == views(state, seat), (seat, x, y)
                for holder in range(3):
                    if (state.held(holder) >> x | state.held(holder) >> y) & 1:
                        assert views(other, holder) != views(state, holder)
                        changed += 1
    assert swapped > 300 and changed > 200


def test_a_seat_sees_its_own_cards_and_what_the_rules_show() -> None:
    """The views hold what the seat saw: its hand, the solo monte it took, scegliete's face-up monte."""
    rng = np.random.default_rng(12)
    state = GameState()
    state.sample_chance(rng)
    t = observation_tensor(state, 1)
    hand = dict((name, i) for i, (name, _, _) in enumerate(OBSERVATION_SLICES))
    start = sum(size for _, size, _ in OBSERVATION_SLICES[:hand["hand"]])
    assert sorted(np.flatnonzero(t[start:start + 40]).tolist()) == list(cards_of(state.dealt[1]))
    from calasolve.game.cards import card_name

    dealt = re.findall(r"dealt (\w+)", information_state_string(state, 1))
    assert sorted(dealt) == sorted(card_name(c) for c in cards_of(state.dealt[1]))


def test_the_tensor_tables_are_in_the_docs() -> None:
    """docs/env.md's tables of the tensors list the slices of the code, in order, with their sizes."""
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \|", text, re.M)
    assert [(n, int(s)) for n, s in rows] == [(n, s) for n, s, _ in INFORMATION_STATE_SLICES]
    assert str(OBSERVATION_SIZE) in text and str(INFORMATION_STATE_SIZE) in text


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_views_are_in_range_and_sized(seat: int) -> None:
    rng = np.random.default_rng(13)
    for _ in range(20):
        state = GameState(Rules(auction="open", aggravations="bids"))
        while not state.is_terminal:
            if state.is_chance:
                state.sample_chance(rng)
                continue
            o, i = observation_tensor(state, seat), information_state_tensor(state, seat)
            assert o.shape == (OBSERVATION_SIZE,) and i.shape == (INFORMATION_STATE_SIZE,)
            assert o.dtype == np.float32 and 0 <= o.min() and o.max() <= 1 and 0 <= i.min() and i.max() <= 1
            assert (i[:OBSERVATION_SIZE] == o).all()
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
