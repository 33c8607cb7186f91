"""The tables of several records over one map: the same tables as one `dd_table` per record."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from deal_cases import TOP_THREE

import calasolve
from calasolve.game.errors import CalasolveError, ParameterError
from calasolve.types.record import Record
from calasolve.records.dealfile import parse_deal_text
from calasolve.table import batch
from calasolve.types.table import DDTable
from calasolve.table.ddtable import TablePart



def records() -> list[Record]:
    return parse_deal_text(TOP_THREE)


def timeless(table: DDTable) -> dict[str, Any]:
    """The table's JSON without the search's effort, which depends on what the solver's table held."""
    out = table.to_dict()
    return {**out, "nodes": 0, "seconds": 0, "cpu": 0,
            "entries": [{**e, "nodes": 0, "seconds": 0, "cpu": 0} for e in out["entries"]]}


@pytest.fixture(scope="module")
def one_by_one() -> list[dict[str, Any]]:
    return [timeless(calasolve.dd_table(record)) for record in records()]


def test_builtin_map_gives_each_records_dd_table(one_by_one: list[dict[str, Any]]) -> None:
    tables = [timeless(t) for t in calasolve.dd_tables(records())]
    assert tables == one_by_one
    assert [t["name"] for t in tables] == [r.name for r in records()]  # in the records' order
    assert [t["entries"][2]["makes"] for t in tables] == [True, False]  # seat 0's solissimo


def test_process_pool_map_gives_each_records_dd_table(one_by_one: list[dict[str, Any]]) -> None:
    with ProcessPoolExecutor(2) as pool:
        tables = [timeless(t) for t in calasolve.dd_tables(records(), map=pool.map, tt_mb=16)]
    assert tables == one_by_one


def test_all_parts_of_all_records_go_to_one_map_call() -> None:
    calls: list[list[Any]] = []

    def counted(fn: Any, items: Any) -> Any:
        calls.append(list(items))
        return map(fn, items)

    tables = list(calasolve.dd_tables(records(), map=counted))
    assert len(tables) == 2 and len(calls) == 1
    assert [part[0].name for part, *_ in calls[0]] == [records()[0].name] * 30 + [records()[1].name] * 30


def test_records_are_checked_before_any_work() -> None:
    def never(fn: Any, items: Any) -> Any:
        raise AssertionError("map called")

    with pytest.raises(ParameterError):
        calasolve.dd_tables([records()[0], "hands: ..."], map=never)  # type: ignore[list-item]
    with pytest.raises(ParameterError, match="tt_mb"):
        calasolve.dd_tables(records(), map=never, tt_mb=0)


def test_an_error_in_a_table_names_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(part: TablePart, solver: Any, deadline: Any = None) -> Any:
        raise CalasolveError("no table here")

    monkeypatch.setattr(batch, "table_part", fails)
    tables = calasolve.dd_tables(records())
    with pytest.raises(CalasolveError, match=r"^record 2 'seat 1 holds the top three of every suit' \(<string>:7\): no table here$"):
        calasolve.dd_tables(records()[1:]).__next__()
    with pytest.raises(CalasolveError, match=r"^record 1 "):
        next(tables)
