"""The Python API matches the command line: one code path, readable values, one card form."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import calasolve
from calasolve.cli import main
from calasolve.records.dealfile import parse_deal_text, read_deal_file
from calasolve.game.exchange import Exchange

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "example.deal")
BIG_INT = re.compile(r"\d{6,}")


def test_solve_searches_a_missing_exchange_like_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    solo = read_deal_file(EXAMPLE)[1].with_(exchange=Exchange())
    assert solo.needs_exchange
    result = calasolve.solve(solo, top=3)
    assert isinstance(result.exchange, calasolve.ExchangeResult) and result.extra["exchange"] == result.exchange.to_dict()
    assert result.exchange.searched and len(result.exchange.alternatives) == 3
    assert result.soloist_thirds == result.exchange.value
    path = ROOT / "tests" / "golden" / "exchanges.deal"
    with pytest.raises(SystemExit):
        main(["solve", "--json", "--jobs", "1", "--top", "3", str(path)])
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["soloist_thirds"] == result.soloist_thirds and first["cards"] == result.to_dict()["cards"]
    assert first["exchange"]["best"] == result.exchange.to_dict()["best"]


def test_results_are_frozen_and_typed() -> None:
    record = read_deal_file(EXAMPLE)[0]
    result = calasolve.solve(record)
    with pytest.raises(TypeError):
        result.cards[0] = 99  # type: ignore[index]
    with pytest.raises(TypeError):
        result.extra["payoff"] = 1  # type: ignore[index]
    copy = dataclasses.replace(result)
    assert hash(result) == hash(copy) and result == copy and {result: 1}[copy] == 1
    assert result.objective == "thirds" and result.payoff is None and result.exchange is None and not result.extra
    payoff = calasolve.solve(record, objective="payoff")
    assert payoff.objective == "payoff" and payoff.payoff is not None and payoff.multiplier in (1, 2, 3)
    assert payoff.to_dict()["payoff"] == payoff.payoff and dict(payoff.extra) == {
        "objective": "payoff", "payoff": payoff.payoff, "multiplier": payoff.multiplier}


def test_reprs_show_cards_in_notation() -> None:
    records = read_deal_file(EXAMPLE)
    for record in records:
        text = repr(record)
        assert not BIG_INT.search(text) and "hand" in text and record.contract in text
        assert parse_deal_text(str(record))[0] == record  # str is the deal-file text
    chiamo = records[2]
    assert "Exchange(call='3C', return='4C'" in repr(chiamo)
    found = calasolve.best_exchange(chiamo.with_(exchange=Exchange(call=chiamo.exchange.call)), top=2)
    assert not BIG_INT.search(repr(found)) and "return 4C" in repr(found)
    result = calasolve.solve(records[0])
    assert not BIG_INT.search(repr(result)) and "'AS': 14" in repr(result)


def test_position_prints_its_diagram() -> None:
    pos = calasolve.Position.from_record(read_deal_file(EXAMPLE)[5])
    assert "object at" not in repr(pos) and "seat 0 to play" in repr(pos)
    text = str(pos)
    assert "seat 0, defender, to play" in text and "on the table (trick 3): seat 2 led 2C" in text
    assert "Bastoni" in text and "♣" not in text


def test_card_values_are_one_form_in_value_order() -> None:
    record = read_deal_file(EXAMPLE)[0]
    pos = calasolve.Position.from_record(record)
    values, result = pos.values(), calasolve.solve(record)
    assert type(values) is type(result.cards) is calasolve.CardValues
    assert list(values.items()) == list(result.cards.items())  # same keys (card ids), same order
    assert list(values.values()) == sorted(values.values(), reverse=True)  # the soloist to move: best first
    assert values["AS"] == values[calasolve.parse_card("AS")] and "AS" in values and "XX" not in values
    assert [calasolve.card_name(c) for c in values] == list(result.to_dict()["cards"])
    pos.play("AS")  # a defender to move: the lowest value (best for the defence) first
    after = pos.values()
    assert list(after.values()) == sorted(after.values())


def test_dir_and_all_list_the_public_api() -> None:
    names = dir(calasolve)
    for name in ("Position", "advise", "read_deal_file", "solve", "Record", "hand_diagram", "Notation"):
        assert name in names and name in calasolve.__all__
    assert "Any" not in names and "annotations" not in names
    for name in calasolve.__all__:
        assert getattr(calasolve, name) is not None
    assert calasolve.__all__ == sorted(calasolve.__all__) and "TYPE_CHECKING" not in names


def test_library_errors_do_not_name_cli_options() -> None:
    record = read_deal_file(EXAMPLE)[0]
    with pytest.raises(calasolve.CalasolveError) as info:
        calasolve.solve(record, objective="payoff", target=18)
    assert "--" not in str(info.value)
