"""The public functions check their arguments up front, in the calling process, with
the command line's limits; a bad one is a ParameterError (a CalasolveError, a
ValueError) naming it."""

from __future__ import annotations

import multiprocessing
import pickle
from pathlib import Path
from typing import Any, Callable

import click
import pytest

import calasolve
from calasolve import CalasolveError
from calasolve.search import engines
from calasolve.advice.advisor import advise
from calasolve.deals.analysis import analyse
from calasolve.cli import cli
from calasolve.records.dealfile import read_deal_file
from calasolve.game.errors import ParameterError
from calasolve.game.exchange import Exchange
from calasolve.exchange.search import best_exchange
from calasolve.game.state import PlayState
from calasolve.game.limits import MAX_JOBS, MAX_SAMPLES, MAX_SEED, MAX_TABLE_MB, MAX_THIRDS, MAX_TOP
from calasolve.search.position import Position, solve_position
from calasolve.search.engines import make_solver
from calasolve.exchange.solve import solve

ROOT = Path(__file__).resolve().parent.parent
RECORDS = read_deal_file(str(ROOT / "examples" / "example.deal"))
RECORD = next(r for r in RECORDS if not r.needs_exchange)
SEARCH = next(r for r in RECORDS if r.contract == "solo").with_(exchange=Exchange())  # the discards to find
HAND = "32AR.32A.3A.2A5"


def test_the_issues_three_cases() -> None:
    with pytest.raises(ParameterError, match="^contract 'x': unknown contract") as info:
        Position(RECORD.state(), contract="x")
    assert info.value.parameter == "contract" and isinstance(info.value, ValueError)
    with pytest.raises(ParameterError) as info:
        advise(HAND, play="dd", jobs=0, tt_mb=-1)
    assert info.value.parameter == "jobs"
    with pytest.raises(ParameterError, match="^samples 1180591620717411303424: must be an integer from 1 to 1000000"):
        advise(HAND, play="dd", samples=2**70, jobs=1)


BAD_CALLS: list[tuple[str, Callable[[], Any]]] = [
    ("objective", lambda: solve(RECORD, objective="money")),
    ("target", lambda: solve(RECORD, target=36)),
    ("target", lambda: solve(RECORD, target=18.0)),
    ("all_cards", lambda: solve(RECORD, all_cards="yes")),
    ("solver", lambda: solve(RECORD, solver=object())),
    ("record", lambda: solve(42)),
    ("record", lambda: solve(RECORD.state())),
    ("position", lambda: solve_position(RECORD)),
    ("solver", lambda: solve_position(Position(RECORD.state()), solver=object())),
    ("hand", lambda: advise(2**11 - 1, play="dd", samples=1)),  # 11 cards
    ("seat", lambda: advise(HAND, play="dd", seat=3)),
    ("seat", lambda: advise(HAND, play="dd", seat=True)),
    ("samples", lambda: advise(HAND, play="dd", samples=0)),
    ("samples", lambda: advise(HAND, play="dd", samples=MAX_SAMPLES + 1)),
    ("seed", lambda: advise(HAND, play="dd", seed=-1)),
    ("seed", lambda: advise(HAND, play="dd", seed=MAX_SEED + 1)),
    ("jobs", lambda: advise(HAND, play="dd", jobs=MAX_JOBS + 1)),
    ("policy", lambda: advise(HAND, play="dd", policy="magic")),
    ("defender_policy", lambda: advise(HAND, play="dd", defender_policy=None)),
    ("contracts", lambda: advise(HAND, play="dd", contracts="solo")),
    ("contracts", lambda: advise(HAND, play="dd", contracts=[])),
    ("contracts", lambda: advise(HAND, play="dd", contracts=["grand"])),
    ("known", lambda: advise(HAND, play="dd", known={5: 1})),
    ("known", lambda: advise(HAND, play="dd", known={1: "3B"})),
    ("rules", lambda: advise(HAND, play="dd", rules={})),
    ("candidates", lambda: advise(HAND, play="dd", candidates=0)),
    ("redeals", lambda: advise(HAND, play="dd", redeals=10**9)),
    ("tt_mb", lambda: advise(HAND, play="dd", tt_mb=-1)),
    ("goal_mb", lambda: advise(HAND, play="dd", goal_mb=MAX_TABLE_MB + 1)),
    ("progress", lambda: advise(HAND, play="dd", progress=3)),
    ("record", lambda: analyse("examples/played.deal")),
    ("exchange", lambda: analyse(RECORD, exchange=None)),
    ("solver", lambda: analyse(RECORD, solver=3)),
    ("record", lambda: best_exchange(RECORD.hands)),
    ("top", lambda: best_exchange(SEARCH, top=0)),
    ("top", lambda: best_exchange(SEARCH, top=MAX_TOP + 1)),
    ("hands", lambda: best_exchange(SEARCH, first=(1, 1, 1))),
    ("state", lambda: Position("not a state")),
    ("contract", lambda: Position(RECORD.state(), contract="grand")),
    ("rules", lambda: Position(RECORD.state(), rules=None)),
    ("record", lambda: Position.from_record(None)),
    ("hands", lambda: PlayState([1, 1, 0], 0, 0, 0)),
    ("hands", lambda: PlayState([1.5, 2, 4], 0, 0, 0)),
    ("hands", lambda: PlayState(7, 0, 0, 0)),
    ("monte", lambda: PlayState([1, 2, 4], 1, 0, 0)),
    ("leader", lambda: PlayState([1, 2, 4], 0, 0, 3)),
    ("soloist", lambda: PlayState([1, 2, 4], 0, "0", 0)),
    ("tricks_left", lambda: PlayState([1, 2, 4], 0, 0, 0, tricks_left=13)),
    ("tt_mb", lambda: make_solver(0)),
    ("tt_mb", lambda: make_solver(MAX_TABLE_MB + 1)),
    ("tt", lambda: make_solver(1, tt="no")),
    ("path", lambda: read_deal_file(None)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("parameter, call", BAD_CALLS, ids=[f"{i}-{p}" for i, (p, _) in enumerate(BAD_CALLS)])
def test_bad_argument_names_its_parameter(parameter: str, call: Callable[[], Any]) -> None:
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
    assert str(info.value).startswith(parameter)


def test_a_state_changed_by_hand_is_the_projects_error() -> None:
    position = Position(RECORD.state())
    state = position.state
    state.hands = [state.hands[0], state.hands[0], state.hands[2]]
    with pytest.raises(ParameterError, match="^position: two hands share a card"):
        solve_position(position)
    position = Position(RECORD.state())
    position.state.trick = [99]
    with pytest.raises(ParameterError, match="^position: "):
        position.solve()


def test_the_card_helpers_refuse_what_is_not_a_card() -> None:
    for call in (lambda: calasolve.parse_card(None), lambda: calasolve.parse_hand([1]),
                 lambda: calasolve.parse_cards({}), lambda: calasolve.card_name("3B"),
                 lambda: calasolve.card_name(40), lambda: calasolve.hand_name(-1), lambda: calasolve.hand_name(1.0)):
        with pytest.raises(CalasolveError):
            call()


def test_bad_arguments_fail_before_any_worker_starts() -> None:
    with pytest.raises(ParameterError) as info:
        advise(HAND, play="dd", samples=4, jobs=2, tt_mb=-1)
    assert info.value.parameter == "tt_mb"
    assert multiprocessing.active_children() == []


def test_goal_memo_the_machine_cannot_allocate(monkeypatch: pytest.MonkeyPatch) -> None:
    import calasolve.search._core

    def no_memory(memo_mb: int = 8) -> object:
        raise MemoryError(f"cannot allocate a {memo_mb} MiB goal memo")

    monkeypatch.setattr(calasolve.search._core, "GoalSearch", no_memory)
    engines.forget()
    with pytest.raises(ParameterError, match="^goal_mb 77: cannot allocate a 77 MiB goal memo") as info:
        advise(HAND, play="dd", samples=1, jobs=1, contracts=["solo"], goal_mb=77)
    assert info.value.parameter == "goal_mb"


def test_parameter_error_crosses_processes_whole() -> None:
    err = ParameterError("tt_mb", 4096, "cannot allocate")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.parameter, back.value, back.problem, str(back)) == (
        ParameterError, "tt_mb", 4096, "cannot allocate", str(err))


def _range(command: str, option: str) -> tuple[Any, Any]:
    param = next(p for p in cli.commands[command].params if option in getattr(p, "opts", ()))
    assert isinstance(param.type, click.IntRange)
    return param.type.min, param.type.max


def test_the_command_line_has_the_apis_limits() -> None:
    assert _range("advise", "--samples") == (1, MAX_SAMPLES)
    assert _range("advise", "--seed") == (0, MAX_SEED)
    assert _range("advise", "--goal-mb") == (1, MAX_TABLE_MB)
    for command in ("solve", "analyse", "advise"):
        assert _range(command, "--jobs") == (1, MAX_JOBS)
        assert _range(command, "--tt-mb") == (1, MAX_TABLE_MB)
    assert _range("solve", "--target") == (0, MAX_THIRDS)
    assert _range("solve", "--top") == (1, MAX_TOP)
