"""The game-points play's thirds (:func:`payoff_thirds`) against brute force on random endings."""

from __future__ import annotations

import random

from calasolve.game.state import CONTRACTS, PlayState
from calasolve.game.cards import cards_of
from calasolve.search.payoff import finished_payoff, payoff_thirds, payoff_value, thirds_paying
from calasolve.search.suites import random_suite
from calasolve.types.record import Record


def lexicographic(state: PlayState, contract: str) -> tuple[int, int]:
    """(payoff, thirds) under play for game points first and thirds second, by brute force."""
    if state.is_over:
        return finished_payoff(state, contract), state.captured[state.soloist]
    values = []
    for card in cards_of(state.legal()):
        child = state.copy()
        child.play(card)
        values.append(lexicographic(child, contract))
    return max(values) if state.to_move == state.soloist else min(values)


def ending(rng: random.Random, deal_index: int, contract: str, tricks_left: int) -> PlayState:
    """A random deal of the suite played at random down to ``tricks_left`` tricks."""
    d = random_suite(deal_index + 1)[deal_index]
    state = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=rng.randrange(3)).start_state()
    while sum(bin(h).count("1") for h in state.hands) > 3 * tricks_left or state.trick:
        state.play(rng.choice(list(cards_of(state.legal()))))
    return state


def test_payoff_thirds_is_the_lexicographic_value_on_endings() -> None:
    rng = random.Random(35)
    for i in range(60):
        contract = rng.choice(CONTRACTS)
        state = ending(rng, i % 8, contract, rng.randint(1, 3))
        payoff, thirds = lexicographic(state, contract)
        assert payoff_value(state, contract) == payoff, i
        assert payoff_thirds(state, contract, payoff) == thirds, i
        assert thirds in thirds_paying(contract, payoff, total=35)
