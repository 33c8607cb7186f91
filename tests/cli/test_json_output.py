"""Every command's ``--json`` output is standard JSON (RFC 8259), read with a strict
parser: on the examples, and on the advise hands of the benchmark suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from strict_json import strict_lines, strict_loads

from calasolve.cli import main
from calasolve.types.jsonout import dumps
from calasolve.search.suites import ADVISE_HANDS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")
PLAYED = str(ROOT / "examples" / "played.deal")
#: the hand whose dividete and scegliete had no thirds samples: NaN was written for them
STRONG = "32AR.3A.2A7.543"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    assert info.value.code == 0, err
    return out


@pytest.mark.parametrize("argv", [
    ["check", "--json", EXAMPLE, PLAYED],
    ["rules", "--json"],
    ["solve", "--json", "--jobs", "1", EXAMPLE],
    ["solve", "--json", "--jobs", "1", "--target", "18", EXAMPLE],
    ["solve", "--json", "--jobs", "1", "--objective", "payoff", EXAMPLE],
    ["solve", "--flat", "--jobs", "1", EXAMPLE, PLAYED],
    ["analyse", "--json", "--jobs", "1", "--no-exchange", PLAYED],
    ["bench", "--json", "--deals", "2"],
    # every contract's exchange searched for every seat: a deal whose searches are quick
    ["table", "--json", "--jobs", "1", str(ROOT / "examples" / "table.deal")],
    ["play", "--json", "--jobs", "1", "--players", "heuristic", PLAYED],
    ["play", "--json", "--jobs", "1", "--samples", "4", EXAMPLE],
    ["arena", "--json", "--jobs", "1", "--deals", "2", "--agents", "heuristic,random"],
], ids=lambda a: " ".join(a[:3]))
def test_every_command_writes_standard_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rows = strict_lines(run(capsys, *argv))
    assert rows and all(isinstance(r, dict) for r in rows)


@pytest.mark.parametrize("hand", ADVISE_HANDS, ids=lambda h: f"{h.hand}-{h.seat}")
def test_advise_json_is_standard_on_the_benchmark_hands(hand: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # the played odds on 2 deals of 2 layouts: their JSON, not their precision
    advice = strict_loads(run(capsys, "advise", "--json", "--jobs", "1", "--samples", "16", "--thirds-samples", "0",
                              "--play-samples", "2", "--pimc-samples", "2", "--seat", str(hand.seat), hand.hand))
    assert {c["contract"] for c in advice["contracts"]} == {"solissimo", "solo", "chiamo", "dividete", "scegliete"}
    # no exact thirds asked for: every mean is a number that does not exist, written null
    assert all(c["mean_thirds"] is None and c["se_thirds"] is None for c in advice["contracts"])
    played = advice["played"]["contracts"]
    assert {c["contract"] for c in played} == {"solissimo", "solo", "chiamo", "dividete", "scegliete"}
    assert all(c["deals"] == 2 and 0 <= c["p_make_95"][0] <= c["p_make"] <= c["p_make_95"][1] <= 1 for c in played)


def test_strong_hand_advice_with_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """`calasolve advise 32AR.3A.2A7.543 --seat 1 --json`: contracts that never got their
    thirds write null for them (and say thirds_samples 0), not NaN."""
    advice = strict_loads(run(capsys, "advise", "--json", "--seat", "1", STRONG))
    for c in advice["contracts"]:
        assert (c["mean_thirds"] is None) == (c["thirds_samples"] == 0), c
        assert (c["se_thirds"] is None) == (c["thirds_samples"] == 0), c
    assert any(c["thirds_samples"] == 0 for c in advice["contracts"])  # the case that wrote NaN


def test_the_serialiser_never_writes_nan() -> None:
    text = dumps({"a": float("nan"), "b": [float("inf"), -float("inf"), 1.0], "c": {"d": (float("nan"),)}})
    assert strict_loads(text) == {"a": None, "b": [None, None, 1.0], "c": {"d": [None]}}
