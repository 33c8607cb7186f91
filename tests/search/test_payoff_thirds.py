"""The game-points play's thirds (:func:`payoff_thirds`) against brute force on random endings."""

from __future__ import annotations

import random

from calasolve.game.state import CONTRACTS, PlayState, core_position
from calasolve.game.cards import cards_of
from calasolve.game.rules import STANDARD
from calasolve.search.payoff import finished_payoff, payoff_from_thirds, payoff_thirds, payoff_value, thirds_paying
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


def test_payoff_from_thirds_is_the_payoff_where_it_says_exact() -> None:
    """Where the thirds alone settle every level, :func:`payoff_from_thirds` is the searched payoff; where
    not, its guess lies between what they settle (whole deals of the random suite, each contract)."""
    from calasolve.search.engines import make_solver
    from calasolve.search.payoff import payoff_levels, settled_between

    solver = make_solver(16)
    exact_seen = open_seen = 0
    for i, d in enumerate(random_suite(12)):
        for contract in CONTRACTS:
            state = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=i % 3).start_state()
            thirds = solver.value(*core_position(state))
            value, exact = payoff_from_thirds(contract, thirds)
            if exact:
                exact_seen += 1
                assert value == payoff_value(state, contract, thirds=thirds), (i, contract)
            else:
                open_seen += 1
                assert settled_between(contract, value, STANDARD, thirds, thirds) is not False
            assert value in payoff_levels(contract)
    assert exact_seen and open_seen
