"""The table cut into small tasks for a cluster: the same table as its parts give, and the log of its tasks."""

from __future__ import annotations

import json
import random
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_run import run
from deal_cases import TOP_THREE
from steady import steady

import calasolve
from calasolve.game.errors import ParameterError
from calasolve.records.dealfile import parse_deal_text
from calasolve.table import cut
from calasolve.table.cut import Effort, Found, Head, best_of_search, simulated_wall, table_units
from calasolve.types.record import Record
from calasolve.types.table import TASK_KINDS, TableTask

ROOT = Path(__file__).resolve().parents[2]
TABLE_DEAL = str(ROOT / "examples" / "table.deal")

VARYING = {"nodes", "seconds", "cpu"}


def records() -> list[Record]:
    return parse_deal_text(TOP_THREE)


def effortless(table: calasolve.DDTable) -> Any:
    """The table's JSON without the effort (nodes, seconds, CPU), which the cut changes."""
    return steady(table.to_dict(), VARYING)


@pytest.fixture(scope="module")
def whole() -> list[Any]:
    return [effortless(t) for t in calasolve.dd_tables(records())]


def test_the_cut_tables_are_the_tables_of_the_parts(whole: list[Any]) -> None:
    """Values, multipliers, par and the exchanges themselves (ties: the first in the search's order)."""
    tables = list(calasolve.dd_tables(records(), cut=True))
    assert [effortless(t) for t in tables] == whole
    kinds = {t.kind for t in tables[0].tasks}
    assert {"head", "chunk", "payoff"} <= kinds <= set(TASK_KINDS)


def test_a_weak_floor_leaves_the_best_to_the_chunks(whole: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A first pass of one candidate: its floor is beaten in the chunks, which find the same best."""
    found: list[Found] = []

    def counted(chunk: cut.CandidateChunk) -> Found:
        found.append(real(chunk))
        return found[-1]

    real = cut.chunk_job
    monkeypatch.setattr(cut, "HEAD", 1)
    monkeypatch.setattr(cut, "chunk_job", counted)
    monkeypatch.setattr(cut, "CHUNK", {c: 1000 for c in cut.CHUNK})
    tables = list(calasolve.dd_tables(records(), cut=True, map=map))
    assert [effortless(t) for t in tables] == whole
    assert any(f.value is not None for f in found) and any(f.value is None for f in found)


NO_EFFORT = Effort(0, 0.0, 0.0, (0.0, 0.0))


class OneAtATime:
    """A submitter whose tasks end one at a time, in a shuffled order, and only when nothing else is left to take
    in: a search that moves on does so while the others' tasks of earlier stages are still waiting."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.waiting: list[tuple[Any, Any, Future[Any]]] = []
        self.events: list[tuple[str, str]] = []

    capacity = None

    def submit(self, fn: Any, item: Any, priority: int = 0) -> Future[Any]:
        future: Future[Any] = Future()
        self.waiting.append((fn, item, future))
        self.events.append(("submit", fn.__name__))
        return future

    def flush(self) -> None:
        fn, item, future = self.waiting.pop(self.rng.randrange(len(self.waiting)))
        self.events.append(("done", fn.__name__))
        future.set_result(fn(item))


def test_tasks_done_in_any_order_give_the_same_tables(whole: list[Any]) -> None:
    """Each search moves on as its own tasks end: the tables are the parts' whatever the order."""
    run = OneAtATime(35)
    tables = list(cut.cut_tables(records(), run, None))
    assert [effortless(t) for t in tables] == whole
    events = run.events
    last_head = max(i for i, e in enumerate(events) if e == ("done", "first_job"))
    assert ("submit", "goal_job") in events[:last_head]  # a search at its game points before every first pass ended
    for table in tables:
        assert all(a < task.task for task in table.tasks for a in task.after)


class Room:
    """A submitter with room for ``capacity`` tasks at once, each run when flushed, in the order submitted; it
    records each task's function and priority, and the most ever submitted and not yet done."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.waiting: list[tuple[Any, Any, Future[Any]]] = []
        self.submitted: list[tuple[str, int]] = []
        self.most = 0

    def submit(self, fn: Any, item: Any, priority: int = 0) -> Future[Any]:
        future: Future[Any] = Future()
        self.waiting.append((fn, item, future))
        self.submitted.append((fn.__name__, priority))
        self.most = max(self.most, len(self.waiting))
        return future

    def flush(self) -> None:
        fn, item, future = self.waiting.pop(0)
        future.set_result(fn(item))


def test_the_searches_take_turns_within_the_room_the_submitter_has(whole: list[Any]) -> None:
    """Every search's k-th task before any search's (k + 1)-th: with room for one task, every first pass runs
    before any search's next task, and a search's later tasks go with the lower turns of others."""
    run = Room(1)
    tables = list(cut.cut_tables(records(), run, None))
    assert [effortless(t) for t in tables] == whole
    assert run.most == 1
    heads = sum(len(table_units(r)) for r in records())
    assert [name for name, _ in run.submitted[:heads]] == ["first_job"] * heads
    assert all(priority == 0 for _, priority in run.submitted[:heads])
    assert all(priority < 0 for _, priority in run.submitted[heads:])
    run = Room(3)
    assert [effortless(t) for t in cut.cut_tables(records(), run, None)] == whole
    assert run.most == 3


def test_a_chunk_goes_out_against_the_best_found_before_it() -> None:
    """Only values found at places before the chunk's first candidate raise its floor: a candidate of the chunk as
    good comes later in the order, so the tie goes to the one found; a value found after it must not."""
    unit = table_units(records()[0])[0]
    empty = np.zeros((0, 3), dtype=np.uint64)
    chunk = cut.CandidateChunk(unit, 5000, empty, np.zeros(0, np.int64), 20, True, None)

    def f(value: int | None, position: int | None) -> Found:
        return Found(value, position, NO_EFFORT)

    assert chunk.against([]) is chunk
    assert chunk.against([f(None, None), f(19, 10), f(25, 6000)]) is chunk  # lower, or after it
    assert chunk.against([f(22, 4999), f(23, 100), f(21, 300)]).floor == 23
    defenders = cut.CandidateChunk(unit, 5000, empty, np.zeros(0, np.int64), 10, False, None)
    assert defenders.against([f(8, 4000), f(7, 5000), f(12, 10)]).floor == 8  # the defenders: the least


def test_the_simulated_wall_hands_out_the_tasks_by_turn() -> None:
    """Search 0's head and four chunks of 2 s, search 1's head and one chunk of 4 s, on two workers: in the
    order made, search 1's chunk would wait behind search 0's (9 s); by turn it starts with the first (7 s)."""

    def task(i: int, kind: str, seat: int, cpu: float, after: tuple[int, ...] = ()) -> TableTask:
        return TableTask(i, kind, seat, "chiamo", None, after, cpu, (0.0, cpu), 2000)  # type: ignore[arg-type]

    log = [task(0, "head", 0, 1.0), task(1, "head", 1, 1.0), *(task(i, "chunk", 0, 2.0, (0,)) for i in range(2, 6)),
           task(6, "chunk", 1, 4.0, (1,))]
    assert cut.task_turns(log) == [0, 0, 1, 2, 3, 4, 1]
    assert simulated_wall(log, 2) == 7.0
    assert simulated_wall(log, 1) == 14.0  # one worker: the CPU added up


def test_the_best_of_a_search_is_the_best_value_first_in_order() -> None:
    empty = np.zeros((0, 3), dtype=np.uint64)
    head = Head(20, 7, 50, empty, np.zeros(0, np.int64), np.zeros(0, np.int32), empty, NO_EFFORT)

    def f(value: int | None, position: int | None) -> Found:
        return Found(value, position, NO_EFFORT)

    assert best_of_search(head, [f(None, None), f(None, None)], True) == (20, 7)  # nothing beat the floor
    assert best_of_search(head, [f(25, 900), f(27, 4000), f(27, 60)], True) == (27, 60)
    assert best_of_search(head, [f(12, 900), f(15, 60), f(12, 300)], False) == (12, 300)  # the defenders: the least


def test_a_cut_table_is_exact_only() -> None:
    with pytest.raises(ParameterError, match="time_limit"):
        calasolve.dd_tables(records(), cut=True, time_limit=5)


def test_a_table_has_its_units_dearest_first() -> None:
    units = table_units(records()[0])
    assert len(units) == 30 and [u.contract for u in units[:3]] == ["chiamo"] * 3
    assert [u.draw for u in units if u.contract == "dividete"] == list(range(6)) * 3


def test_the_task_log_of_each_way() -> None:
    [parts] = calasolve.dd_tables(records()[:1])
    assert [t.kind for t in parts.tasks] == ["entry"] * 3 + ["draw"] * 18 + ["entry"] * 9
    assert all(t.after == () and t.cpu >= 0 for t in parts.tasks)
    [cut_table] = calasolve.dd_tables(records()[:1], cut=True)
    tasks = cut_table.tasks
    assert [t.task for t in tasks] == list(range(len(tasks)))
    heads = {t.task: t for t in tasks if t.kind == "head"}
    for t in tasks:
        if t.kind in ("prefix", "chunk"):  # after its first pass (the rest: after the prefix's chunks too)
            head = heads[t.after[0]]
            assert (head.soloist, head.contract, head.draw) == (t.soloist, t.contract, t.draw)
            assert t.candidates > 0 and all(tasks[a].kind == "prefix" for a in t.after[1:])
            assert t.kind == "chunk" or len(t.after) == 1
        if t.kind == "payoff":
            assert t.after[0] in heads and all(tasks[a].kind in ("prefix", "chunk") for a in t.after[1:])
        assert all(a < t.task for a in t.after)
    assert len(heads) == 30  # a first pass per search (solissimo: its one position)
    assert cut_table.cpu == pytest.approx(sum(t.cpu for t in tasks))
    # one worker: the CPU added up; more: no less than the longest task, nor than the chain of tasks it needs
    assert simulated_wall(tasks, 1) == pytest.approx(sum(t.cpu for t in tasks))
    assert simulated_wall(tasks, 10_000) >= max(t.cpu for t in tasks)
    assert simulated_wall(tasks, 8, stages=True) >= simulated_wall(tasks, 8) - 1e-9
    for t in tasks:
        assert TableTask.from_dict(json.loads(json.dumps(t.to_dict(100.0))), 100.0).to_dict() == t.to_dict()


def test_table_command_writes_the_task_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "tasks.jsonl"
    code, out, err = run(["table", "--json", "--cut", "--jobs", "1", "--task-log", str(log), TABLE_DEAL], capsys)
    assert code == 0, err
    code, plain, err = run(["table", "--json", "--jobs", "1", TABLE_DEAL], capsys)
    assert code == 0, err
    assert steady(json.loads(out), VARYING) == steady(json.loads(plain), VARYING)
    rows = [json.loads(line, parse_constant=lambda name: pytest.fail(f"not JSON: {name}"))
            for line in log.read_text().splitlines()]
    assert set(rows[0]) == {"record", "file", "task", "kind", "soloist", "contract", "draw", "after", "candidates",
                            "cpu", "start", "end"}
    assert [r["task"] for r in rows] == list(range(len(rows))) and {r["record"] for r in rows} == {1}
    assert all(r["kind"] in TASK_KINDS and 0 <= r["start"] <= r["end"] and r["cpu"] >= 0 for r in rows)
    code, _, err = run(["table", "--jobs", "1", "--task-log", str(log), TABLE_DEAL], capsys)  # the parts
    assert code == 0, err
    assert [json.loads(line)["kind"] for line in log.read_text().splitlines()].count("draw") == 18


@pytest.mark.parametrize(("args", "fragment"), [
    (["--cut", "--time-limit", "5"], "--cut and --time-limit do not go together"),
    (["--task-log", "/nonexistent/dir/tasks.jsonl"], "cannot write"),
])
def test_table_command_bad_task_options(args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["table", *args, TABLE_DEAL], capsys)
    assert code == 2 and out == "" and fragment in err and err.count("\n") == 1


def test_table_on_a_local_cluster_is_cut_and_the_local_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "tasks.jsonl"
    code, dask, err = run(["table", "--json", "--scheduler", "local:2", "--task-log", str(log), TABLE_DEAL], capsys)
    assert code == 0, err
    code, local, err = run(["table", "--json", "--jobs", "1", TABLE_DEAL], capsys)
    assert code == 0, err
    assert steady(json.loads(dask), VARYING) == steady(json.loads(local), VARYING)
    assert "chunk" in {json.loads(line)["kind"] for line in log.read_text().splitlines()}


@pytest.mark.slow
def test_random_deals_cut_tables_are_the_tables_of_the_parts() -> None:
    """Real deals (a few minutes each): chunks that beat their floor, dividete's draws, goal searches."""
    from calasolve.search.suites import random_suite

    for d in random_suite(2):
        rec = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist)
        [parts] = calasolve.dd_tables([rec])
        [cut_table] = calasolve.dd_tables([rec], cut=True)
        assert effortless(cut_table) == effortless(parts)


@pytest.mark.slow
def test_a_pool_moving_each_search_on_gives_the_tables_of_the_parts() -> None:
    """Through a pool's single tasks (each search's next stage as soon as its own tasks end), on a real deal."""
    from calasolve.scale.submit import PoolMap
    from calasolve.scale.workers import worker_pool
    from calasolve.search.suites import random_suite

    d = random_suite(4)[3]
    rec = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist)
    with worker_pool(2) as pool:
        [parts] = calasolve.dd_tables([rec], map=pool.map)
        [cut_table] = calasolve.dd_tables([rec], map=PoolMap(pool), cut=True)
    assert effortless(cut_table) == effortless(parts)
    assert {"head", "prefix", "chunk"} <= {t.kind for t in cut_table.tasks}


@pytest.mark.parametrize("cards", [1, 2])
def test_a_goal_search_cut_by_its_first_cards_answers_as_whole(cards: int) -> None:
    """Some card of the soloist's, every card of a defender's: the answers at the lines give the root's."""
    from calasolve.search.payoff import payoff_levels, payoff_reaches
    from calasolve.table.cut import goal_leaves, goal_reached

    rec = records()[0]
    for seat, contract in [(1, "solissimo"), (0, "solo"), (2, "scegliete")]:
        unit = cut.Unit(rec, seat, contract, None)
        state = unit.deal().with_(exchange=calasolve.best_exchange(unit.deal(), top=1).exchange).start_state()
        lines = goal_leaves(state, cards)
        assert len(set(lines)) == len(lines) and all(len(line) == cards for line in lines)
        for level in payoff_levels(contract):
            answers = {}
            for line in lines:
                child = state.copy()
                for card in line:
                    child.play(card)
                answers[line] = payoff_reaches(child, contract, level)
            assert goal_reached(state, answers) == payoff_reaches(state, contract, level), (seat, contract, level)
