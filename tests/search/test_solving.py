"""The solve pipeline (records and play states -> SolveResult), Position and the analyser."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from calasolve import solve
from calasolve.deals.analysis import analyse
from calasolve.game.cards import MAKE_THIRDS, cards_of, mask_of
from calasolve.records.dealfile import parse_deal_text
from calasolve.game.errors import CalasolveError, IllegalPlayError, ParameterError
from calasolve.game.state import PlayState
from calasolve.search.position import Position, solve_position
from calasolve.search.batch import ListAnswer, ListQuery
from calasolve.search.reference import ReferenceSolver, best_of_limited as reference_best_of_limited
from calasolve.search.engines import CoreSolver, GoalSearcher, best_within, make_goal_search, make_solver
from calasolve.search.solving import check_solver


def random_state(rng: random.Random, tricks_left: int, mid_trick: int) -> PlayState:
    """A whole random deal played at random down to ``tricks_left`` tricks, plus ``mid_trick`` cards."""
    deck = list(range(40))
    rng.shuffle(deck)
    hands = [mask_of(deck[0:12]), mask_of(deck[12:24]), mask_of(deck[24:36])]
    state = PlayState(hands, mask_of(deck[36:]), soloist=rng.randrange(3), leader=rng.randrange(3))
    for _ in range((12 - tricks_left) * 3 + mid_trick):
        state.play(rng.choice(list(cards_of(state.legal()))))
    return state


def test_solve_matches_reference_on_endings(solver: CoreSolver) -> None:
    rng = random.Random(2024)
    reference = ReferenceSolver()
    for i in range(150):
        state = random_state(rng, tricks_left=rng.randint(1, 4), mid_trick=rng.choice((0, 0, 1, 2)))
        fast = solve_position(Position(state), solver=solver)
        slow = solve_position(Position(state), solver=reference)
        assert fast.soloist_thirds == slow.soloist_thirds, i
        assert fast.cards == slow.cards, i
        assert fast.captured == state.captured[state.soloist]
        # replaying the line reaches the value
        replay = state.copy()
        for card in fast.line:
            replay.play(card)
        assert replay.is_over and replay.captured[replay.soloist] == fast.soloist_thirds


def test_value_is_max_or_min_of_cards_and_target_agrees(solver: CoreSolver) -> None:
    rng = random.Random(7)
    for _ in range(20):
        state = random_state(rng, tricks_left=rng.randint(3, 7), mid_trick=rng.randrange(3))
        res = solve_position(Position(state), solver=solver)
        pick = max if state.to_move == state.soloist else min
        assert res.soloist_thirds == pick(res.cards.values())
        for target in (res.soloist_thirds, res.soloist_thirds + 1, MAKE_THIRDS):
            t = solve_position(Position(state), solver=solver, target=target)
            assert t.reaches == (res.soloist_thirds >= target)
            assert t.cards == {c: v >= target for c, v in res.cards.items()}


def test_finished_deal_solves_to_what_was_captured(solver: CoreSolver) -> None:
    state = random_state(random.Random(3), tricks_left=0, mid_trick=0)
    res = solve_position(Position(state), solver=solver)
    assert res.soloist_thirds == state.captured[state.soloist] and res.to_move is None and res.line == ()


def test_target_out_of_range(solver: CoreSolver) -> None:
    state = random_state(random.Random(1), tricks_left=2, mid_trick=0)
    with pytest.raises(CalasolveError, match="target 36"):
        solve_position(Position(state), solver=solver, target=36)


SWEEP = """\
hands: 32AR.32A.32A.32 7654.765.765.76 CF.RCF4.RCF4.RC
monte: -.-.-.AF54
contract: solissimo
soloist: 0
"""


def test_position_steps_and_undoes(solver: CoreSolver) -> None:
    pos = Position.from_record(parse_deal_text(SWEEP)[0], solver=solver)
    assert pos.value() == 35 and pos.to_move == 0
    values = pos.values()
    assert values and all(v == 35 for v in values.values())
    pos.play("3B")
    assert pos.legal_cards() == sorted(pos.legal_cards()) and len(pos.legal_cards()) == 4
    with pytest.raises(IllegalPlayError):
        pos.play("3S")
    assert pos.undo() == "3B" and pos.history == []
    with pytest.raises(CalasolveError, match="not over"):
        pos.result()
    while not pos.is_over:
        best = max(pos.values().items(), key=lambda kv: kv[1])[0]
        pos.play(best)
    result = pos.result()
    assert result.soloist_thirds == 35 and result.bonus == "cappotto" and result.payments == (16, -8, -8)


def test_a_record_and_its_position_solve_alike(solver: CoreSolver) -> None:
    record = parse_deal_text(SWEEP.replace("soloist: 0", "soloist: 0\nplayed: 3B 7B CB 2B"))[0]
    pos = Position.from_record(record, solver=solver)
    answers = [solve(record, solver=solver), solve_position(pos, solver=solver),
               solve_position(Position(pos.state, contract="solissimo"), solver=solver)]
    assert answers[0].to_move == 1 and len(answers[0].cards) > 1
    for other in answers[1:]:
        assert (other.soloist_thirds, other.cards, other.line) == (answers[0].soloist_thirds, answers[0].cards, answers[0].line)
    assert answers[1].contract == "solissimo" and answers[1].to_dict() == answers[0].to_dict() | {"nodes": answers[1].nodes,
                                                                                                 "seconds": answers[1].to_dict()["seconds"]}
    # the position's own solver is used when none is given, and the payoff objective finds its contract
    assert pos.solve().soloist_thirds == answers[0].soloist_thirds
    assert pos.solve(objective="payoff").to_dict()["payoff"] == solve(record, objective="payoff").to_dict()["payoff"]
    with pytest.raises(CalasolveError, match="needs the contract"):
        solve_position(Position(pos.state.copy()), objective="payoff")


def test_the_reference_twin_keeps_the_whole_solver_contract(solver: CoreSolver) -> None:
    """Every method of the contract, the same argument types (numpy batches too), the same answers."""
    reference = ReferenceSolver()
    rng = random.Random(11)
    states = [random_state(rng, tricks_left=3, mid_trick=0) for _ in range(12)]
    assert isinstance(reference, CoreSolver) and isinstance(solver, CoreSolver)
    st = states[0]
    args = (st.hands, (), st.leader, st.soloist, st.last_bonus)
    assert reference.analyse(*args)[:2] == solver.analyse(*args)[:2]
    assert reference.total_nodes >= reference.nodes > 0 and reference.config == {"reference": True}
    leader, soloist = 0, 0
    bonus = [s.last_bonus for s in states]
    # positions to compare in a batch share the leader and soloist: re-seat every hand so seat 0 leads and is the soloist
    batch = [tuple(s.hands[(s.leader + k) % 3] for k in range(3)) for s in states]
    arrays, bonuses = np.array(batch, dtype=np.uint64), np.array(bonus, dtype=np.int64)
    for maximise in (True, False):
        assert reference.best_of(arrays, bonuses, leader, soloist, maximise, 3)[:2] == \
            solver.best_of(arrays, bonuses, leader, soloist, maximise, 3)[:2]
        for floor in (None, 5, 12):
            ref = reference.best_of_limited(arrays, bonuses, leader, soloist, maximise, 3, floor)
            core = solver.best_of_limited(arrays, bonuses, leader, soloist, maximise, 3, floor)
            assert (ref[0], ref[1], ref[3], ref[4]) == (core[0], core[1], core[3], core[4])
            # the typed front asks the same of either
            query = ListQuery(arrays, bonuses, leader, soloist, maximise, 3, floor)
            assert best_within(solver, query) == ListAnswer(*core)
            assert best_within(reference, query) == ListAnswer(*ref) == reference_best_of_limited(reference, query)
    for target in (4, 9, 15):
        assert reference.reaches_batch(batch, bonus, leader, soloist, target)[0] == \
            solver.reaches_batch(arrays, bonuses, leader, soloist, target)[0]
        assert reference.reaches_batch(arrays, bonuses, leader, soloist, target, 1)[0] == \
            solver.reaches_batch(batch, bonus, leader, soloist, target, 1)[0]


def test_both_solvers_keep_the_contract_and_anything_else_is_refused() -> None:
    """The C ``Solver`` and the reference twin are :class:`CoreSolver` instances, the C ``GoalSearch`` a
    :class:`GoalSearcher`; an object keeping neither contract is an argument error, naming the parameter."""
    core, reference = make_solver(1), ReferenceSolver()
    assert isinstance(core, CoreSolver) and isinstance(reference, CoreSolver)
    assert isinstance(make_goal_search(1), GoalSearcher)
    assert not isinstance(make_goal_search(1), CoreSolver)  # (a runtime check sees names: a Solver has a goal search's)
    assert check_solver("solver", core) is core and check_solver("solver", None) is None
    assert check_solver("solver", reference) is reference
    for bad in (object(), "solver", make_goal_search(1)):
        with pytest.raises(ParameterError, match="^solver .*: must be a Solver \\(or None for the default one\\)$") as info:
            check_solver("solver", bad)
        assert info.value.parameter == "solver"


def test_a_list_search_stopped_midway_proves_nothing_false(solver: CoreSolver) -> None:
    """A test still running at ``stop`` gives up inside the core's search: what the list keeps is exact, its
    bound holds every candidate, and the table answers as a fresh one after many stops."""
    rng = random.Random(35)
    states = [random_state(rng, tricks_left=12, mid_trick=0) for _ in range(8)]
    batch = [tuple(s.hands[(s.leader + k) % 3] for k in range(3)) for s in states]
    arrays = np.array(batch, dtype=np.uint64)
    bonuses = np.array([s.last_bonus for s in states], dtype=np.int64)
    fresh = make_solver(tt_mb=16)
    true = [fresh.value(h, (), 0, 0, int(b)) for h, b in zip(batch, bonuses)]
    stopped = 0
    for k in range(12):
        maximise, floor = k % 2 == 0, (None if k % 3 == 0 else 9)
        stop = time.monotonic() + (0.0005 * k if k < 10 else -1.0)
        kept, values, _, complete, bound = solver.best_of_limited(arrays, bonuses, 0, 0, maximise, 2, floor, stop,
                                                                  None, stop)
        stopped += not complete
        assert values == [true[i] for i in kept]
        assert (max(true) <= bound) if maximise else (min(true) >= bound)
        if floor is None:  # the first candidate is valued however late
            assert kept
    assert stopped
    assert [solver.value(h, (), 0, 0, int(b)) for h, b in zip(batch, bonuses)] == true
    # the reference cannot give up inside a test: its stop ends the list as a deadline does
    ends = [random_state(rng, tricks_left=2, mid_trick=0) for _ in range(2)]
    small = np.array([[s.hands[(s.leader + k) % 3] for k in range(3)] for s in ends], dtype=np.uint64)
    late = ReferenceSolver().best_of_limited(small, [s.last_bonus for s in ends], 0, 0, True, 1, None, None, None, -1.0)
    assert late[0] == [0] and late[3] is False


def test_analyse_costs_chain(solver: CoreSolver) -> None:
    record = parse_deal_text(SWEEP)[0]
    # a silly first lead by the soloist is still free here (every card wins), a full random play is judged
    rng = random.Random(5)
    state = record.start_state()
    while not state.is_over:
        state.play(rng.choice(list(cards_of(state.legal()))))
    analysis = analyse(record.with_(played=tuple(state.history)), solver=solver)
    assert analysis.complete and analysis.actual_thirds == state.captured[0]
    first = analysis.reviews[0]
    assert first.before == analysis.start_value == 35
    for a, b in zip(analysis.reviews, analysis.reviews[1:]):
        assert a.after == b.before
    total_soloist_cost = sum(r.cost for r in analysis.reviews if r.soloist)
    total_defence_cost = sum(r.cost for r in analysis.reviews if not r.soloist)
    assert analysis.start_value - total_soloist_cost + total_defence_cost == analysis.actual_thirds


def test_a_table_the_machine_cannot_allocate_is_an_input_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import calasolve.search._core

    def no_memory(tt_mb: int = 32, **switches: bool) -> object:
        raise MemoryError(f"cannot allocate a {tt_mb} MiB transposition table")

    monkeypatch.setattr(calasolve.search._core, "Solver", no_memory)
    with pytest.raises(CalasolveError, match=r"^tt_mb 4096: cannot allocate a 4096 MiB") as info:
        make_solver(4096)
    assert info.value.parameter == "tt_mb" and "--" not in str(info.value)  # the command line says --tt-mb
