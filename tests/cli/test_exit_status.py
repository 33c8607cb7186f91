"""Errors by kind at the command line: bad input is exit status 2, a bug of calasolve (an
InternalError, or any exception no command expects) one line and 70, never a traceback; a
worker's error reaches the main process whole, of its own class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from calasolve.cli.bulk import Failure, failure, pool_map
from calasolve.cli.streams import INTERNAL_STATUS
from calasolve.game.errors import DealFileError, InternalError, KnownCardsError
from calasolve.types.record import Record
from calasolve.records.dealfile import read_deal_file
from calasolve.types.record import record_label

from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")
REPORT = "(this is a bug in calasolve; please report it with the command that caused it)"


def _solve_raising(error: BaseException) -> Any:
    """A stand-in for the exchange's ``solve`` that raises ``error`` (a forked worker inherits it)."""

    def solve(record: Record, **kw: Any) -> Any:
        raise error

    return solve


def test_internal_error_is_one_line_and_status_70(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("calasolve.exchange.solve.solve", _solve_raising(InternalError("the searches disagree")))
    code, out, err = run(["solve", "--jobs", "1", EXAMPLE], capsys)
    assert (code, out) == (INTERNAL_STATUS, "") and INTERNAL_STATUS == 70
    assert err == f"calasolve: internal error: the searches disagree {REPORT}\n"


def test_unexpected_exception_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("calasolve.exchange.solve.solve", _solve_raising(ZeroDivisionError("boom\nand more")))
    code, out, err = run(["solve", "--jobs", "1", EXAMPLE], capsys)
    assert code == INTERNAL_STATUS
    assert err == f"calasolve: internal error: ZeroDivisionError: boom\\nand more {REPORT}\n"


def test_internal_error_in_a_worker(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("calasolve.exchange.solve.solve", _solve_raising(InternalError("in a worker")))
    code, _, err = run(["solve", "--jobs", "2", EXAMPLE, EXAMPLE], capsys)
    assert (code, err) == (INTERNAL_STATUS, f"calasolve: internal error: in a worker {REPORT}\n")


def test_a_workers_input_error_keeps_its_wording(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    first = read_deal_file(EXAMPLE)[0]
    monkeypatch.setattr("calasolve.exchange.solve.solve", _solve_raising(KnownCardsError("no room", "1=AB")))
    code, _, err = run(["solve", "--jobs", "2", EXAMPLE, EXAMPLE], capsys)
    assert (code, err) == (2, f"calasolve: error: {record_label(first)}: known cards '1=AB': no room\n")


def _fail(record: Record) -> Failure:
    """A worker's failure: the file's own error for the second record, another one for the first."""
    if record.index == 2:
        return failure(record, DealFileError("a bad field", path=record.path, line=record.line))
    return failure(record, KnownCardsError("no room", "1=AB"))


def test_a_workers_error_keeps_its_class_and_fields() -> None:
    records = read_deal_file(EXAMPLE)[:2]
    labelled, own = list(pool_map(_fail, records, 2))
    with pytest.raises(KnownCardsError) as known:
        labelled.raise_error()
    assert known.value.item == "1=AB" and known.value.detail == "no room"
    assert str(known.value) == f"{record_label(records[0])}: known cards '1=AB': no room" == labelled.message
    with pytest.raises(DealFileError) as bad:
        own.raise_error()
    assert (bad.value.path, bad.value.line, bad.value.message) == (records[1].path, records[1].line, "a bad field")
    assert str(bad.value) == f"{records[1].path}:{records[1].line}: a bad field"
