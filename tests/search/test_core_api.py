"""The Python face of the C core: arguments, errors, counters, reuse."""

from __future__ import annotations

import random
import threading

import pytest

from calasolve.game.errors import CalasolveError, SolverArgumentError, SolverArgumentTypeError
from calasolve.search._core import MAX_BONUS, Solver
from calasolve.game.cards import parse_card, parse_hand

from core_helpers import random_ending

# One trick left: 3B / AB / 4C, seat 0 leads.
LAST = ((1 << 9, 1 << 7, 1 << 20), (), 0, 0, 3)


def test_small_known_values():
    s = Solver(tt_mb=1)
    assert s.value(*LAST) == 7  # 3 + A + 4 -> 1 + 3 + 0, plus the last (3)
    assert s.card_values(*LAST) == {9: 7}
    assert s.line(*LAST) == [9, 7, 20]
    assert s.analyse(*LAST) == (7, {9: 7}, [9, 7, 20])
    assert s.reaches(*LAST, 7) and not s.reaches(*LAST, 8)
    assert s.reaches(*LAST, -3) and not s.reaches(*LAST, 1000)
    # The reference docstring position.
    hands = (parse_hand("3A.-.-.-"), parse_hand("24.-.-.-"), parse_hand("R5.-.-.-"))
    assert s.value(hands, (), 0, 0, 3) == 4
    assert s.card_values(hands, (), 0, 0, 3) == {7: 4, 9: 1}
    # Nothing left to play.
    assert s.value((0, 0, 0), (), 1, 2, 5) == 0
    assert s.card_values((0, 0, 0), (), 1, 2, 5) == {}
    assert s.line((0, 0, 0), (), 1, 2, 5) == []


def test_mid_trick_and_equivalent_cards():
    # Seat 1 led 4C; the soloist (seat 2) holds 5C 3S, seat 0 holds 7C RS,
    # seat 1 keeps 2D: 7C wins, then RS - 2D - 3S: R + 2 + 3 + last 3 = 6.
    hands = (parse_hand("-.R.7.-"), parse_hand("-.-.-.2"), parse_hand("-.3.5.-"))
    pos = (hands, (parse_card("4C"),), 1, 2, 3)
    s = Solver(tt_mb=1)
    assert s.value(*pos) == 6
    assert s.card_values(*pos) == {parse_card("5C"): 6}
    # Equivalent cards (6 and 7 of a suit, nobody else between) both get the
    # class value.
    hands = (parse_hand("76.-.-.-"), parse_hand("-.54.-.-"), parse_hand("-.-.32.-"))
    cv = s.card_values(hands, (), 0, 1, 3)
    assert cv[parse_card("7B")] == cv[parse_card("6B")]


@pytest.mark.parametrize(
    "args, exc",
    [
        (((1, 2), (), 0, 0, 3), ValueError),  # two hands
        (((1, 2, 4, 8), (), 0, 0, 3), ValueError),
        (((1, 1, 4), (), 0, 0, 3), ValueError),  # overlapping hands
        (((1 << 40, 2, 4), (), 0, 0, 3), ValueError),  # not a card
        (((-1, 2, 4), (), 0, 0, 3), ValueError),
        (((1, 2, 4), (), 3, 0, 3), ValueError),  # leader out of range
        (((1, 2, 4), (), 0, -1, 3), ValueError),  # soloist out of range
        (((1, 2, 4), (), 0, 0, MAX_BONUS + 1), ValueError),
        (((1, 2, 4), (), 0, 0, -1), ValueError),
        (((1, 2, 12), (), 0, 0, 3), ValueError),  # hand sizes
        (((1, 2, 4), (8, 16, 32), 0, 0, 3), ValueError),  # three cards in the trick
        (((1, 2, 4), (40,), 0, 0, 3), ValueError),
        (((1, 2, 4), (1,), 0, 0, 3), ValueError),  # trick card also held
        (((1 | 64, 2 | 16, 4 | 32), (8,), 0, 0, 3), ValueError),  # sizes after one card
        (((1, 2, 4), (), 0.0, 0, 3), TypeError),
        ((("1", 2, 4), (), 0, 0, 3), TypeError),
    ],
)
def test_bad_arguments(args, exc):
    s = Solver(tt_mb=1)
    with pytest.raises(exc) as info:
        s.value(*args)
    # bad input, as everywhere in calasolve; a wrong type is still a TypeError too
    assert isinstance(info.value, SolverArgumentError) and isinstance(info.value, CalasolveError)
    assert isinstance(info.value, SolverArgumentTypeError) == (exc is TypeError)
    with pytest.raises(exc):
        s.card_values(*args)


def test_every_bad_argument_is_a_calasolve_error():
    from calasolve.search._core import GoalSearch, best_of, reaches_batch

    s, g = Solver(tt_mb=1), GoalSearch(1)
    hands = LAST[0]
    calls = [
        (lambda: Solver(0), "tt_mb must be 1.."),
        (lambda: Solver("64"), "tt_mb must be an int number of MiB"),
        (lambda: GoalSearch(-1), "memo_mb must be 0..65536, got -1"),
        (lambda: GoalSearch(1.0), "memo_mb must be an int number of MiB"),
        (lambda: s.reaches(*LAST, 1.5), "target must be an int"),
        (lambda: g.reaches(hands, (), 0, 0, 3, 99, False, False, bytes(216)), "captured must be 0..35 thirds, got 99"),
        (lambda: g.reaches(hands, (), 0, 0, 3, 0, False, False, b"x"), "goal must be 216 bytes"),
        (lambda: best_of(s, [hands], [3], 0, 0, True, 0), "top must be at least 1"),
        (lambda: best_of(s, [hands], [3, 3], 0, 0, True, 1), "one last_bonus per candidate"),
        (lambda: best_of(s, [hands], [3], 5, 0, True, 1), "leader and soloist must be seats 0..2"),
        (lambda: best_of(s, [(1, 1, 4)], [3], 0, 0, True, 1), "candidate 0: hands must be disjoint masks"),
        (lambda: reaches_batch(s, [hands], [3], 0, 0, 4, -1), "max_fails must be at least 0"),
    ]
    for call, message in calls:
        with pytest.raises(SolverArgumentError, match=message):
            call()


class _Lying(int):
    """An int whose comparisons always say "in range": the checks must not trust them."""

    def __lt__(self, other):  # type: ignore[no-untyped-def]
        return False

    def __gt__(self, other):  # type: ignore[no-untyped-def]
        return False

    def __le__(self, other):  # type: ignore[no-untyped-def]
        return True

    def __ge__(self, other):  # type: ignore[no-untyped-def]
        return True


def test_hostile_arguments_raise_instead_of_reaching_c():
    import numpy as np

    from calasolve.search._core import GoalSearch, best_of

    s, g = Solver(tt_mb=1), GoalSearch(1)
    hands = LAST[0]
    # a method called on something that is not a solver (it reached C with a bad pointer)
    for method in (Solver.value, Solver.card_values, Solver.line, Solver.analyse):
        for wrong in (None, g, object()):
            with pytest.raises(TypeError):
                method(wrong, *LAST)
    for wrong in (None, object()):
        with pytest.raises(TypeError):
            Solver.clear(wrong)
        with pytest.raises(TypeError):
            Solver.stats(wrong)
    with pytest.raises(TypeError):
        best_of(None, [hands], [3], 0, 0, True, 1)
    # floats are not ints, anywhere
    for args in (([hands], [3.7], 0, 0, True, 1), ([hands], [3], 0.9, 0, True, 1), ([hands], [3], 0, 0, True, 1.5),
                 ([(512.0, 128, 1 << 20)], [3], 0, 0, True, 1)):
        with pytest.raises(TypeError):
            best_of(s, *args)
    # ints whose comparisons lie are checked by value
    with pytest.raises(ValueError):
        s.value(hands, (_Lying(100),), 0, 0, 3)
    with pytest.raises(ValueError):
        s.value(hands, (), _Lying(5), 0, 3)
    with pytest.raises(ValueError):
        s.value(hands, (), 0, 0, _Lying(100))
    with pytest.raises(ValueError):
        best_of(s, [hands], [_Lying(100)], 0, 0, True, 1)
    # goal flags are 0 or 1; the memo size is an int
    goal = bytearray(216)
    goal[0] = 48
    with pytest.raises(ValueError, match="0 or 1"):
        g.reaches(hands, (), 0, 0, 3, 0, False, False, bytes(goal))
    for bad in (None, 1.0, "1"):
        with pytest.raises(TypeError):
            GoalSearch(bad)
    # numpy integers are ints; and the solver still answers after all that
    assert s.value(tuple(np.array(hands, dtype=np.uint64)), (), np.int64(0), 0, np.int8(3)) == 7
    assert s.value(*LAST) == 7 and best_of(s, [hands], [3], 0, 0, True, 10**30)[:2] == ([0], [7])


def test_second_card_must_follow_suit():
    s = Solver(tt_mb=1)
    # Seat 0 led 4B, seat 1 played 4S while still holding 5B.
    hands = (parse_hand("6.-.-.-"), parse_hand("5.-.-.-"), parse_hand("7C.-.-.-"))
    with pytest.raises(ValueError):
        s.value(hands, (parse_card("4B"), parse_card("4S")), 0, 0, 3)
    hands = (parse_hand("6.-.-.-"), parse_hand("-.-.5.-"), parse_hand("7C.-.-.-"))
    assert s.value(hands, (parse_card("4B"), parse_card("4S")), 0, 0, 3) >= 0


def test_solver_arguments():
    with pytest.raises(ValueError):
        Solver(0)
    with pytest.raises(TypeError):
        Solver("64")
    with pytest.raises(MemoryError):
        Solver(1 << 43)  # 8 EiB
    s = Solver(2, tt=False, equivalence=False, canonical_suits=False, ordering=False)
    assert s.config == {"tt_mb": 2, "tt": False, "equivalence": False, "canonical_suits": False, "ordering": False}
    assert "tt=False" in repr(s)
    assert s.value(*LAST) == 7
    assert s.stats()["tt_entries"] == 0


def test_counters_and_clear():
    s = Solver(tt_mb=1)
    pos = random_ending(random.Random(11), 8)
    v = s.value(*pos)
    assert s.nodes > 0
    st = s.stats()
    assert st["nodes"] == s.nodes and st["total_nodes"] >= st["nodes"]
    assert s.total_nodes == st["total_nodes"]
    assert st["tt_entries"] == 65536 and 0 < st["tt_used"] <= st["tt_entries"]
    assert st["searches"] >= 1
    assert set(st) >= {"tt_probes", "tt_hits", "tt_cutoffs", "tt_stores", "tt_replaced", "bound_cutoffs",
                       "generation", "stats_enabled"}
    gen = st["generation"]
    s.value(*pos)
    assert s.stats()["generation"] == gen + 1
    s.clear()
    assert s.stats()["tt_used"] == 0
    assert s.value(*pos) == v


def test_threads_release_the_gil_and_guard_the_solver():
    pos = ((parse_hand("32A.-.F.-"), parse_hand("-.RC.6.5"), parse_hand("C4.A.-.3")), (), 0, 0, 5)
    want = Solver(tt_mb=1).value(*pos)
    results = []

    def work():
        s = Solver(tt_mb=1)
        results.append(all(s.value(*pos) == want for _ in range(20)))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True, True, True]
