"""The arena's library: seatings, duplicate symmetry, zero sum, the same games on any map."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from calasolve.env.arena import arena, random_deals, seatings, summarise
from calasolve.game.errors import ParameterError
from calasolve.game.rules import Rules


def test_seatings_put_every_agent_in_every_seat() -> None:
    for n in (2, 3):
        order = seatings(n)
        assert len(order) == 6 and len(set(order)) == 6
        for seat in range(3):
            assert {s[seat] for s in order} == set(range(n))
        counts = [sum(s.count(a) for s in order) for a in range(n)]
        assert counts == [18 // n] * n  # every agent holds as many seats
    with pytest.raises(ParameterError):
        seatings(4)


def test_an_agent_against_itself_breaks_even_exactly() -> None:
    """Duplicate: the same agent on both sides plays the same games, so every deal is a draw."""
    deals = list(arena(random_deals(6, 3), ("heuristic", "heuristic"), seed=3))
    assert all(d.points[0] == d.points[1] for d in deals)
    result = summarise(("heuristic", "heuristic"), deals)
    assert result.comparisons[0].mean == 0 and result.comparisons[0].confidence == 0.5


def test_games_are_zero_sum_and_points_add_up() -> None:
    deals = list(arena(random_deals(5, 4), ("heuristic", "random", "random"), seed=4))
    for deal in deals:
        assert len(deal.games) == 6
        for game in deal.games:
            assert sum(game.returns) == 0 and sum(game.decisions) >= 3
        # three agents, six permutations: each holds six seats, and the points add up to zero
        assert sum(deal.points) == pytest.approx(0)
    result = summarise(("heuristic", "random", "random"), deals)
    assert [c.a + "-" + c.b for c in result.comparisons] == ["heuristic-random", "heuristic-random", "random-random"]
    assert result.standings[0].decisions > 0


def test_plus_payment_and_the_same_games_on_worker_processes() -> None:
    deals = random_deals(4, 8)
    here = list(arena(deals, ("random", "heuristic"), seed=8, rules=Rules(payment="plus")))
    assert all(min(g.returns) >= 0 for d in here for g in d.games)
    with ProcessPoolExecutor(2) as pool:
        there = list(arena(deals, ("random", "heuristic"), seed=8, rules=Rules(payment="plus"), map=pool.map))
    assert [d.points for d in there] == [d.points for d in here]
    assert [[g.returns for g in d.games] for d in there] == [[g.returns for g in d.games] for d in here]


def test_bad_arguments_fail_before_any_game() -> None:
    with pytest.raises(ParameterError, match="unknown agent"):
        list(arena(random_deals(1, 0), ("heuristic", "minimax")))
    with pytest.raises(ParameterError, match="2 or 3 agents"):
        list(arena(random_deals(1, 0), ("heuristic",)))
    hands, monte = random_deals(1, 0)[0]
    with pytest.raises(ParameterError, match="three hands of 12"):
        list(arena([((hands[0], hands[1], hands[2] | monte), 0)], ("heuristic", "random")))
