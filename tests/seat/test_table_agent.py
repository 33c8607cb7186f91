"""The table agent: whole games by the seat's-view advice, in the environment and the arena."""

from __future__ import annotations

import pytest

from calasolve.env.actions import bid_action
from calasolve.env.agents import LearnedAgent
from calasolve.env.arena import arena, random_deals
from calasolve.env.game import GameState
from calasolve.game.errors import ParameterError
from calasolve.game.sampling import rng_for
from calasolve.seat.agent import TableAgent, make_table_agent


def test_a_whole_game_with_a_table_agent_on_every_seat() -> None:
    agents = [TableAgent(seed=s, layouts=6, cards="advice" if s == 0 else "learned") for s in range(3)]
    g = GameState()
    g.sample_chance(rng_for(4, 0))
    g.apply(bid_action("solo"))  # seat 0 opens solo: the others decide by the advice
    while not g.is_terminal:
        if g.is_chance:
            g.sample_chance(rng_for(4, 1))
            continue
        g.apply(agents[g.current_player].act(g))  # an illegal action raises
    assert g.result is not None and sum(g.returns()) == 0


def test_the_discards_follow_one_plan_and_a_budget_sets_the_layouts() -> None:
    agent = TableAgent(seed=1, layouts=8, budget=0.5)
    g = GameState()
    g.sample_chance(rng_for(6, 0))
    for action in (bid_action("solo"), 40, 40):  # seat 0 solo, the others pass
        g.apply(action)
    assert g.phase == "discard"
    first = agent.act(g)
    assert agent.plan is not None and len(agent.plan[1]) == 3 and "discards" in agent.rate
    g.apply(first)
    planned = agent.plan[1]
    for expected in planned:
        action = agent.act(g)
        assert action == expected
        g.apply(action)
    assert g.phase == "play" and agent.plan is None
    assert agent._layouts("discards", 6) == 8  # the layouts cap what the budget allows
    agent.layouts, agent.budget = None, 1e-9
    assert agent._layouts("discards", 6) == 16  # the least a budget leaves
    agent.budget = 1e9
    assert agent._layouts("discards", 6) == 1_000_000 and agent._layouts("card", 6) is None  # no time seen yet


def test_it_takes_over_a_seat_at_any_decision() -> None:
    """Another agent made the seat's first discard: the table agent finishes the set."""
    g = GameState()
    g.sample_chance(rng_for(8, 0))
    for action in (bid_action("solo"), 40, 40):
        g.apply(action)
    g.apply(LearnedAgent(seed=0).act(g))
    agent = TableAgent(seed=0, layouts=4)
    while g.phase == "discard":
        g.apply(agent.act(g))
    assert g.phase == "play"


def test_specs() -> None:
    agent = make_table_agent("table:layouts=12,budget=2.5,cards=learned", seed=3)
    assert isinstance(agent, TableAgent) and (agent.layouts, agent.budget, agent.cards, agent.seed) == (12, 2.5, "learned", 3)
    assert make_table_agent("learned", seed=1).name == "learned"
    for spec, message in (("table:cards=maybe", "use advice or learned"), ("table:budget=x", "is not a number"),
                          ("table:layouts=1", "layouts")):
        with pytest.raises(ParameterError, match=message):
            make_table_agent(spec)


def test_the_arena_plays_it() -> None:
    [deal] = list(arena(random_deals(1, 2), ["table:layouts=4,cards=learned", "learned"], seed=2,
                        factory=make_table_agent))
    assert len(deal.games) == 6 and abs(sum(deal.points)) < 1e9
