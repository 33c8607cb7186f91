"""``calasolve arena``: the report, strict JSON, deal files, and bad input as one line with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run
from strict_json import strict_loads

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")


def test_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["arena", "--agents", "heuristic,random", "--deals", "4", "--seed", "2", "--jobs", "1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("arena: heuristic vs random, 4 duplicate deals (generated, seed 2), 6 seatings each")
    assert "heuristic - random:" in out and "P(heuristic stronger)" in out and "24 games in" in out


def test_json_is_strict_and_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["arena", "--json", "--agents", "random,heuristic,random", "--deals", "2", "--jobs", "1",
                          "--rule", "payment=plus"], capsys)
    assert code == 0, err
    result = strict_loads(out)
    assert result["agents"] == ["random", "heuristic", "random"] and result["rules"]["payment"] == "plus"
    assert len(result["deals"]) == 2 and all(len(d["games"]) == 6 for d in result["deals"])
    assert len(result["comparisons"]) == 3 and {s["agent"] for s in result["standings"]} == {"random", "heuristic"}


def test_deals_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["arena", "--json", "--agents", "heuristic,random", "--deals", "2", "--jobs", "2", EXAMPLE], capsys)
    assert code == 0, err
    assert len(strict_loads(out)["deals"]) == 2


@pytest.mark.parametrize("argv,problem", [
    (["--agents", "heuristic"], "two or three agents"),
    (["--agents", "heuristic,alpha"], "unknown agent 'alpha'"),
    (["--agents", "pimc:samples=0,heuristic"], "samples 0: must be"),
    (["--agents", "pimc:depth=3,heuristic"], "unknown option 'depth' of pimc"),
    (["--deals", "0"], "--deals"),
    (["--rule", "payment=double"], "payment"),
    (["--jobs", "2", "--scheduler", "local:2"], "do not go together"),
    (["no-such.deal"], "no-such.deal"),
])
def test_bad_input_is_one_line_and_status_2(argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["arena", "--deals", "1", *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith("calasolve: error: ") and problem in err and len(err.strip().splitlines()) == 1, err
