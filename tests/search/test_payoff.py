"""Payoff-aware solving: the C goal search against the brute-force payoff reference."""

from __future__ import annotations

import random

import pytest

from calasolve.search._core import GoalSearch
from calasolve.game.cards import MAKE_THIRDS, cards_of, mask_of, mask_thirds, parse_hand
from calasolve.game.state import CONTRACTS, PlayState, legal_cards
from calasolve.search.payoff import (
    NONE,
    SOME,
    SWEEP,
    goal_table,
    multiplier_of,
    outcome_payoff,
    payoff_card_values,
    payoff_levels,
    payoff_line,
    payoff_value,
    reference_payoff,
)
from calasolve.search.reference import play_card
from calasolve.game.rules import Rules

RULESETS = [Rules(), Rules(stramazzo="off"), Rules(payment="plus")]


def c_payoff(goals: GoalSearch, hands, trick, leader, soloist, bonus, captured, sol_any, def_any, contract, rules) -> int:  # type: ignore[no-untyped-def]
    """Highest level the C search says the soloist can force (linear, to test every level)."""
    best = None
    for level in payoff_levels(contract, rules):
        total = goals.total_nodes
        if goals.reaches(hands, trick, leader, soloist, bonus, captured, sol_any, def_any, goal_table(contract, level, rules)):
            best = level
        assert goals.total_nodes == total + goals.nodes
    assert best is not None
    return best


def random_goal_ending(rng: random.Random, *, weak: bool = False):  # type: ignore[no-untyped-def]
    """A random position 1 to 4 tricks from the end; ``weak`` gives the soloist
    the lowest-ranked of the cards dealt (the positions where ducking every
    trick, or being forced to win one, decides cappotto against stramazzo)."""
    k = rng.randint(1, 4)
    deck = list(range(40))
    rng.shuffle(deck)
    leader, soloist = rng.randrange(3), rng.randrange(3)
    dealt = deck[:3 * k]
    if weak:
        dealt.sort(key=lambda c: c % 10)
        low, high = dealt[:k], dealt[k:]
        rng.shuffle(high)
        if rng.random() < 0.5:  # one high card spoils the duck, sometimes
            i, j = rng.randrange(k), rng.randrange(len(high))
            low[i], high[j] = high[j], low[i]
        dealt = high[:k * soloist] + low + high[k * soloist:]
    hands = [mask_of(dealt[i * k:(i + 1) * k]) for i in range(3)]
    trick: tuple[int, ...] = ()
    for _ in range(rng.choice((0, 0, 1, 2))):
        seat = (leader + len(trick)) % 3
        card = rng.choice(list(cards_of(legal_cards(hands[seat], trick))))
        hands[seat] &= ~(1 << card)
        trick += (card,)
    bonus = rng.randint(3, 9)
    in_play = mask_thirds(hands[0] | hands[1] | hands[2] | mask_of(trick)) + bonus
    # what was captured before, consistent with 35 thirds in all
    captured = rng.randint(0, 35 - in_play)
    if weak and rng.random() < 0.6:
        captured = 0  # often no trick yet: can the soloist keep it so (cappotto)?
    sol_any = rng.random() < 0.8 or captured > 0
    def_any = rng.random() < 0.5 or captured + in_play < 35
    if captured == 0 and rng.random() < (0.8 if weak else 0.5):
        sol_any = False
    return tuple(hands), trick, leader, soloist, bonus, captured, sol_any, def_any


def check_endings(seed: int, count: int, *, weak: bool = False) -> None:
    """The C goal search gives the reference payoff of ``count`` random endings and of each card."""
    rng = random.Random(seed)
    goals = GoalSearch(1)
    for i in range(count):
        hands, trick, leader, soloist, bonus, captured, sol_any, def_any = random_goal_ending(rng, weak=weak)
        contract = rng.choice(CONTRACTS)
        rules = rng.choice(RULESETS)
        ref = reference_payoff(
            hands, trick, leader, soloist, bonus, contract=contract, captured=captured,
            soloist_tricks=int(sol_any), defence_tricks=int(def_any), rules=rules,
        )
        seat = (leader + len(trick)) % 3
        expected = max(ref.values()) if seat == soloist else min(ref.values())
        assert c_payoff(goals, hands, trick, leader, soloist, bonus, captured, sol_any, def_any, contract, rules) == expected, i
        for card, value in ref.items():
            h2, t2, l2, gained, done = play_card(hands, trick, leader, card)
            if not any(h2) and not t2:  # the card ended the deal
                won_last = l2 == soloist
                s = captured + (gained + bonus if won_last else 0)
                cls = SWEEP if won_last and not def_any else (NONE if not won_last and not sol_any else SOME)
                assert outcome_payoff(contract, s, won_last, cls, rules) == value
                continue
            s = captured + (gained if done and l2 == soloist else 0)
            na = sol_any or (done and l2 == soloist)
            nd = def_any or (done and l2 != soloist)
            got = c_payoff(goals, h2, t2, l2, soloist, bonus, s, na, nd, contract, rules)
            assert got == value, (i, card)


def test_goal_search_matches_reference_on_endings() -> None:
    check_endings(99, 300)


def test_goal_search_matches_reference_with_a_weak_soloist() -> None:
    check_endings(7, 300, weak=True)


@pytest.mark.slow
@pytest.mark.parametrize("weak", [False, True])
def test_goal_search_matches_reference_on_many_endings(weak: bool) -> None:
    check_endings(2024, 4000, weak=weak)


def sweep_or_stramazzo() -> PlayState:
    """Two tricks left; the soloist (seat 0) has won all ten so far, 31 thirds (the
    monte holds none, so 1 card third is still out: the 3B).

    Leading the 3B first then the 4B sweeps (x2, cappotto).  Leading the 4B
    first gives the defence one trick of no points: seat 1 must win it with
    the 5B, then leads its 6S and the soloist discards the 3B.  The
    soloist, still making the contract, leaves the defence with fewer than 3
    card thirds: stramazzo, x3, worth more than the sweep.
    """
    state = PlayState([parse_hand("3654.-.-.-"), parse_hand("-.6.-.-"), parse_hand("-.-.-.-")], 0, soloist=0, leader=0)
    # Build the position directly: the hands of the last two tricks and what was captured.
    state.hands = [parse_hand("34.-.-.-"), parse_hand("5.6.-.-"), parse_hand("-.74.-.-")]
    state.total_tricks = 12
    state.tricks = [None] * 10  # type: ignore[list-item]
    state.captured = [31, 0, 0]
    state.card_thirds = [31, 0, 0]
    state.tricks_won = [10, 0, 0]
    return state


def test_payoff_line_gives_up_a_trick_for_stramazzo() -> None:
    state = sweep_or_stramazzo()
    values = payoff_card_values(state, "solo")
    three, four = 9, 0  # 3B and 4B
    # thirds: the sweep is worth more (35 against 31), but in game points
    # cappotto x2 = +8 and stramazzo x3 = +12 (solo, v = 2)
    assert values[three] == 8 and values[four] == 12
    assert payoff_value(state, "solo") == 12
    line = payoff_line(state, "solo", 12)
    assert line[0] == four
    # with stramazzo off the sweep is best again
    off = Rules(stramazzo="off")
    assert payoff_value(state, "solo", off) == 8
    assert payoff_card_values(state, "solo", off) == {three: 8, four: 4}


def test_multiplier_of_levels() -> None:
    for contract in CONTRACTS:
        for rules in RULESETS:
            for level in payoff_levels(contract, rules):
                assert multiplier_of(level, contract, rules) in (1, 2, 3)


@pytest.mark.parametrize("rules", RULESETS)
def test_failing_soloist_fights_for_a_smaller_multiplier(rules: Rules) -> None:
    # the soloist cannot make it (S <= 17 whatever happens) but avoids stramazzo
    # by keeping at least 3 card thirds: the goal search sees the difference
    goals = GoalSearch(1)
    hands = (parse_hand("A.-.-.-"), parse_hand("3.-.-.-"), parse_hand("-.4.-.-"))
    # soloist leads the A, seat 1 wins with the 3: soloist captures nothing more
    value = c_payoff(goals, hands, (), 0, 0, 3, 0, True, True, "solo", rules)
    assert value == outcome_payoff("solo", 0, False, SOME, rules)
    assert value < 0 and MAKE_THIRDS > 0


def random_whole_deal(rng: random.Random, i: int, played: tuple[int, int]) -> PlayState:
    """A whole deal (35 thirds), the soloist strong (``i % 3 == 0``: sweeps and stramazzo), weak (1:
    failing with x2 or x3) or dealt at random (2), with ``played`` cards (a range) played at random."""
    deck = list(range(40))
    rng.shuffle(deck)
    if i % 3 == 0:
        deck.sort(key=lambda c: -(c % 10) + rng.random() * 4)
    hands = [mask_of(deck[k * 12:(k + 1) * 12]) for k in range(3)]
    soloist = rng.randrange(3)
    if i % 3 == 1:
        hands[soloist] = mask_of(sorted(deck[:36], key=lambda c: c % 10)[:12])
        rest = [c for c in deck[:36] if not hands[soloist] >> c & 1]
        hands[(soloist + 1) % 3], hands[(soloist + 2) % 3] = mask_of(rest[:12]), mask_of(rest[12:])
    state = PlayState(hands, mask_of(deck[36:]), soloist=soloist, leader=rng.randrange(3))
    for _ in range(rng.randint(*played)):
        state.play(rng.choice(list(cards_of(state.legal()))))
    return state


def test_thirds_settle_levels_exactly_as_the_search_does() -> None:
    """payoff_value with the thirds value (which settles most levels without a search)
    equals the plain search, on late positions of whole deals (35 thirds), strong and
    weak soloists, every contract and ruleset."""
    from calasolve.game.state import core_position
    from calasolve.search.engines import make_solver

    rng = random.Random(5)
    solver = make_solver(4)
    goals = GoalSearch(1)
    for i in range(120):
        state = random_whole_deal(rng, i, (24, 30))
        soloist = state.soloist
        contract = rng.choice(CONTRACTS)
        rules = rng.choice(RULESETS)
        thirds = solver.value(*core_position(state)) + state.captured[soloist]
        assert payoff_value(state, contract, rules, goals, thirds=thirds) == payoff_value(state, contract, rules, goals), i


def test_the_goal_search_with_its_thirds_search_answers_as_without() -> None:
    """A goal search that asks its threshold nodes of a thirds search (the default) answers every level of
    every contract and ruleset as one that searches them itself, on whole deals from the fifth trick on
    (strong, weak and random soloists), in fewer nodes (its thirds search's counted)."""
    from calasolve.game.state import core_position
    from calasolve.search.payoff import _flags

    rng = random.Random(11)
    fast, plain = GoalSearch(1), GoalSearch(1, thirds_mb=0)
    levels = reached = 0
    for i in range(60):
        state = random_whole_deal(rng, i, (12, 27))
        contract = rng.choice(CONTRACTS)
        rules = rng.choice(RULESETS)
        for level in payoff_levels(contract, rules):
            args = (*core_position(state), *_flags(state), goal_table(contract, level, rules))
            answer = fast.reaches(*args)
            assert answer == plain.reaches(*args), (i, contract, rules, level)
            levels += 1
            reached += answer
    assert 0 < reached < levels
    assert fast.total_nodes < plain.total_nodes


def test_a_goal_search_without_a_thirds_search() -> None:
    with pytest.raises(ValueError, match="thirds_mb"):
        GoalSearch(1, thirds_mb=-1)
    with pytest.raises(TypeError, match="thirds_mb"):
        GoalSearch(1, thirds_mb=1.5)  # type: ignore[arg-type]
